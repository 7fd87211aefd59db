/**
 * containerd's CRI image service: the node's image store (ListImages,
 * ImageStatus, RemoveImage, the local resolution of a reference by tag,
 * digest or ID), PullImage over virtual time with serialized pulls, and
 * images put in the store at boot.
 *
 * Mirrors containerd/containerd internal/cri/server/images/service.go
 * (LocalResolve), containerd/containerd
 * internal/cri/server/images/image_list.go, containerd/containerd
 * internal/cri/server/images/image_status.go, containerd/containerd
 * internal/cri/server/images/image_remove.go, containerd/containerd
 * internal/cri/server/images/image_pull.go.
 */
import type { CriResult, ImageInfo, ImageVerboseInfo } from '../../cri-api/cri.ts';
import { normalizeImageRef, parseImageRef, resolveImage, syntheticHex64 } from '../images.ts';
import * as errors from '../errors.ts';
import type { ImageRecord } from '../host-state.ts';
import type { CriService } from './cri-service.ts';

/** Effective registry throughput for a pull, download plus decompression and unpacking. */
export const PULL_BYTES_PER_MS = 20_000;
/**
 * Why 20 MB/s: a cloud VM pulling from Docker Hub typically downloads at
 * 30–100 MB/s but unpacks gzip layers at a similar rate, and pull events on
 * such nodes read "Successfully pulled image "nginx" in 3–4s" for nginx's
 * ~72 MB; 0.5 s of fixed cost (auth token, manifest list, manifest, config
 * round trips) plus 72 MB / 20 MB/s = 4.1 s matches that.
 */
export const PULL_OVERHEAD_MS = 500;
/** Re-pulling an image already present only re-resolves its manifest (imagePullPolicy: Always). */
export const PULL_UNCHANGED_MS = 400;
/** The mirror answering 404 for a missing tag or repository: the manifest round trips. */
export const PULL_NOT_FOUND_MS = 700;
/** A registry name that does not resolve fails at the DNS lookup. */
export const PULL_NO_SUCH_HOST_MS = 100;
/** The kernel event kind of a pull's completion. */
export const PULL_DONE = 'pull-done';

function toImageInfo(i: ImageRecord): ImageInfo {
	return { id: i.id, repoTags: [...i.repoTags], repoDigests: [...i.repoDigests], sizeBytes: i.sizeBytes, pinned: i.pinned };
}

/**
 * image_status.go's verbose info: the chain ID of the image's layers and
 * the parts of its OCI config the catalogue knows. The chain ID is a
 * stand-in digest derived from the image ID (the catalogue keeps no layers).
 */
function verboseInfo(i: ImageRecord): ImageVerboseInfo {
	const catalogue = i.repoTags.map((t) => resolveImage(t)).find((r) => r.ok);
	const image = catalogue?.ok ? catalogue.resolved.image : undefined;
	return {
		chainID: `sha256:${syntheticHex64(`chain:${i.id}`)}`,
		config: {
			env: Object.entries(image?.env ?? {}).map(([k, v]) => `${k}=${v}`),
			entrypoint: [...(image?.entrypoint ?? [])],
			cmd: [...(image?.cmd ?? [])],
		},
	};
}

/** The local image a reference names (by tag, digest or id). */
export function findLocal(ctx: CriService, image: string): ImageRecord | undefined {
	if (ctx.host.images[image]) return ctx.host.images[image];
	const parsed = parseImageRef(image);
	if (!parsed.ok) return undefined;
	const ref = parsed.ref;
	return Object.values(ctx.host.images).find((i) => (ref.digest ? i.repoDigests.includes(`${ref.repository}@${ref.digest}`) : i.repoTags.includes(ref.normalized)));
}

/** CRI ImageStatus: the image if present, undefined if not; with `verbose`, containerd's info about it too. */
export function imageStatus(ctx: CriService, image: string, verbose: boolean): CriResult<ImageInfo | undefined> {
	if (!ctx.up) return ctx.down();
	const found = findLocal(ctx, image);
	if (!found) return { ok: true, value: undefined };
	const info = toImageInfo(found);
	if (verbose) info.info = verboseInfo(found);
	return { ok: true, value: info };
}

/** CRI ListImages, sorted by first tag. */
export function listImages(ctx: CriService): CriResult<ImageInfo[]> {
	if (!ctx.up) return ctx.down();
	const list = Object.values(ctx.host.images).map((i) => toImageInfo(i));
	list.sort((a, b) => (a.repoTags[0] ?? a.id).localeCompare(b.repoTags[0] ?? b.id));
	return { ok: true, value: list };
}

/** CRI RemoveImage: forgets the image (a container made from it keeps its own snapshot). */
export function removeImage(ctx: CriService, image: string): CriResult<void> {
	if (!ctx.up) return ctx.down();
	const found = findLocal(ctx, image);
	if (!found) return { ok: true, value: undefined };
	delete ctx.host.images[found.id];
	ctx.journal('info', `removed image ${found.repoTags[0] ?? found.id}`);
	return { ok: true, value: undefined };
}

/** Puts an image in the store at once, as if pulled earlier (node images baked in, `kubeadm config images pull`). */
export function preload(ctx: CriService, image: string): boolean {
	const found = resolveImage(image);
	if (!found.ok) return false;
	addImage(ctx, found.resolved.id, found.resolved.repoTag, found.resolved.repoDigest, found.resolved.image.sizeBytes, normalizeImageRef(image) === normalizeImageRef(ctx.sandboxImage));
	return true;
}

/**
 * Puts an image the node was built with in the store under the names and
 * with the size given (a node's `images` in the cluster options), whether or
 * not a registry here serves it: an image the catalogue knows keeps its id
 * and manifest digest, any other gets stand-in digests. The names are
 * normalized as containerd records them (`gcr.io/40` → `gcr.io/40:latest`).
 */
export function preloadNamed(ctx: CriService, names: string[], sizeBytes: number): { ok: true } | { ok: false; error: string } {
	if (names.length === 0) return { ok: false, error: 'an image needs at least one name' };
	const refs = [];
	for (const name of names) {
		const parsed = parseImageRef(name);
		if (!parsed.ok) return { ok: false, error: `image "${name}": ${parsed.error}` };
		refs.push(parsed.ref);
	}
	const known = resolveImage(names[0]);
	const id = known.ok ? known.resolved.id : `sha256:${syntheticHex64(`config:${refs.map((r) => r.normalized).join(',')}`)}`;
	const pinned = refs.some((r) => r.normalized === normalizeImageRef(ctx.sandboxImage));
	for (const ref of refs) {
		const repoDigest = ref.digest ? `${ref.repository}@${ref.digest}` : known.ok && known.resolved.ref.repository === ref.repository ? known.resolved.repoDigest : `${ref.repository}@sha256:${syntheticHex64(`manifest:${id}:${ref.repository}`)}`;
		addImage(ctx, id, ref.tag ? `${ref.repository}:${ref.tag}` : undefined, repoDigest, sizeBytes, pinned);
	}
	return { ok: true };
}

function addImage(ctx: CriService, id: string, repoTag: string | undefined, repoDigest: string, sizeBytes: number, pinned: boolean): ImageRecord {
	const existing = ctx.host.images[id];
	const record: ImageRecord = existing ?? { id, repoTags: [], repoDigests: [], sizeBytes, pinned };
	if (repoTag) {
		// A tag moves to the newly pulled image.
		for (const other of Object.values(ctx.host.images)) if (other.id !== id) other.repoTags = other.repoTags.filter((t) => t !== repoTag);
		if (!record.repoTags.includes(repoTag)) record.repoTags.push(repoTag);
	}
	if (!record.repoDigests.includes(repoDigest)) record.repoDigests.push(repoDigest);
	record.pinned = record.pinned || pinned;
	ctx.host.images[id] = record;
	return record;
}

/**
 * CRI PullImage. Completes later with a `pull-done` event to `requester`.
 * Pulls run one at a time when serializeImagePulls is on (the default);
 * the event reports both the pull time and the time including the wait.
 */
export function pullImage(ctx: CriService, image: string, requester: string): CriResult<{ opId: number }> {
	if (!ctx.up) return ctx.down();
	const opId = ctx.state.nextOpId++;
	ctx.state.pulls.push({ opId, image, requester, requestedMs: ctx.nowMs });
	ctx.journal('info', `PullImage "${image}"`);
	startPulls(ctx);
	return { ok: true, value: { opId } };
}

/** How long a pull takes, and how it ends. */
export function pullPlan(ctx: CriService, image: string): { ms: number; error?: errors.CriError } {
	const found = resolveImage(image);
	const shown = found.ok ? found.resolved.ref.normalized : (found.ref?.normalized ?? image);
	if (!found.ok) {
		if (found.error) return { ms: 0, error: { code: 'Unknown', desc: `failed to pull and unpack image "${image}": ${found.error}` } };
		const ref = found.ref!;
		switch (found.miss.kind) {
			case 'no-such-host':
				return { ms: PULL_NO_SUCH_HOST_MS, error: errors.noSuchHost(shown, ref.domain, ref.repository.slice(ref.domain.length + 1), ref.digest ?? ref.tag ?? 'latest') };
			default:
				// The mirror answers 404 for a repository it does not carry as for a tag it lacks;
				// with no other host to try, containerd's resolver reports `<ref>: not found`.
				return { ms: PULL_NOT_FOUND_MS, error: errors.manifestNotFound(shown) };
		}
	}
	if (ctx.host.images[found.resolved.id]) return { ms: PULL_UNCHANGED_MS };
	return { ms: PULL_OVERHEAD_MS + Math.round(found.resolved.image.sizeBytes / PULL_BYTES_PER_MS) };
}

function startPulls(ctx: CriService): void {
	const serialize = ctx.deps.serializeImagePulls ?? true;
	for (const job of ctx.state.pulls) {
		if (job.startedMs !== undefined) {
			if (serialize) return;
			continue;
		}
		job.startedMs = ctx.nowMs;
		job.doneAtMs = ctx.nowMs + pullPlan(ctx, job.image).ms;
		ctx.after(job.doneAtMs - ctx.nowMs, PULL_DONE, { opId: job.opId });
		if (serialize) return;
	}
}

/** A pull's time is up: the image lands in the store (or the pull fails), and the next queued pull starts. */
export function finishPull(ctx: CriService, opId: number): void {
	const index = ctx.state.pulls.findIndex((j) => j.opId === opId);
	if (index < 0) return;
	const [job] = ctx.state.pulls.splice(index, 1);
	const plan = pullPlan(ctx, job.image);
	const found = resolveImage(job.image);
	if (plan.error || !found.ok) {
		const error = plan.error ?? errors.manifestNotFound(job.image);
		ctx.journal('error', `PullImage "${job.image}" failed: ${errors.criErrorMessage(error)}`);
		ctx.notify({ type: 'pull-done', opId, image: job.image, ok: false, error }, job.requester);
	} else {
		const r = found.resolved;
		addImage(ctx, r.id, r.repoTag, r.repoDigest, r.image.sizeBytes, false);
		ctx.journal('info', `PullImage "${job.image}" returns image reference "${r.id}"`);
		ctx.emit({ action: 'pull', msg: `pulled ${r.ref.normalized} (${r.image.sizeBytes} bytes)` });
		ctx.notify({ type: 'pull-done', opId, image: job.image, ok: true, imageRef: r.id, sizeBytes: r.image.sizeBytes, pullMs: ctx.nowMs - (job.startedMs ?? job.requestedMs), totalMs: ctx.nowMs - job.requestedMs }, job.requester);
	}
	startPulls(ctx);
}
