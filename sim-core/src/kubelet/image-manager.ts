/**
 * The kubelet's image rules, before it asks the runtime for anything: the
 * default pull policy (Always for `:latest` or an untagged image,
 * IfNotPresent otherwise, as API defaulting sets it) and the default tag
 * added to an untagged name, keeping the spelling of the pod spec so events
 * read `Pulling image "nginx"`. Then EnsureImageExists: the image is used
 * as it is on the node, or pulled (asynchronously: the pod waits for the
 * runtime's answer), behind the pull back-off, with upstream's events and
 * waiting reasons (ErrImagePull, ImagePullBackOff, ErrImageNeverPull,
 * InvalidImageName).
 *
 * Mirrors pkg/kubelet/images/image_manager.go (applyDefaultImageTag,
 * shouldPullImage, EnsureImageExists), pkg/apis/core/v1/defaults.go
 * (SetDefaults_Container).
 */
import type { Container } from '../api/types.ts';
import { criErrorText } from '../cri-api/cri.ts';
import { backoffNext, IMAGE_PULL_BACKOFF, isInBackOffSinceUpdate } from './backoff.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { requestSync, type PodWorker } from './pod-workers.ts';

/** The default imagePullPolicy: Always for `:latest` or no tag, IfNotPresent otherwise (API defaulting). */
export function defaultPullPolicy(image: string): 'Always' | 'IfNotPresent' {
	if (image.includes('@')) return 'IfNotPresent';
	const slash = image.lastIndexOf('/');
	const colon = image.lastIndexOf(':');
	const tag = colon > slash ? image.slice(colon + 1) : '';
	return tag === '' || tag === 'latest' ? 'Always' : 'IfNotPresent';
}

/** The kubelet's applyDefaultImageTag: `nginx` → `nginx:latest`, leaving the name otherwise as written. */
export function withDefaultTag(image: string): { ok: true; image: string } | { ok: false; error: string } {
	if (image === '' || /\s/.test(image)) return { ok: false, error: `couldn't parse image name "${image}": invalid reference format` };
	const slash = image.lastIndexOf('/');
	const remote = slash >= 0 && /[.:]|^localhost$/.test(image.slice(0, image.indexOf('/'))) ? image.slice(image.indexOf('/') + 1) : image;
	const name = remote.split('@')[0].replace(/:[^/]*$/, '');
	if (name.toLowerCase() !== name) {
		const repo = slash >= 0 && remote !== image ? name : name.includes('/') ? name : `library/${name}`;
		return { ok: false, error: `couldn't parse image name "${image}": invalid reference format: repository name (${repo}) must be lowercase` };
	}
	const colon = image.lastIndexOf(':');
	if (image.includes('@') || colon > slash) return { ok: true, image };
	return { ok: true, image: `${image}:latest` };
}

/** EnsureImageExists (images/image_manager.go): pull policy, back-off, events. */
export function ensureImage(ctx: KubeletContext, w: PodWorker, c: Container, isInit: boolean): { kind: 'ready'; image: string } | { kind: 'pending' } | { kind: 'failed' } {
	const spec = c.image ?? '';
	const tagged = withDefaultTag(spec);
	if (!tagged.ok) {
		const message = `Failed to apply default image tag "${spec}": ${tagged.error}`;
		ctx.podEvent(w, 'Warning', 'InspectFailed', message, c.name, isInit);
		w.waiting[c.name] = { reason: 'InvalidImageName', message };
		ctx.podEvent(w, 'Warning', 'Failed', 'Error: InvalidImageName', c.name, isInit);
		return { kind: 'failed' };
	}
	if (w.justPulled?.container === c.name) {
		w.justPulled = undefined;
		return { kind: 'ready', image: tagged.image };
	}
	const present = ctx.runtime.imageStatus(tagged.image);
	if (!present.ok) {
		ctx.podEvent(w, 'Warning', 'InspectFailed', `Failed to inspect image "${spec}": ${criErrorText(present.error)}`, c.name, isInit);
		w.waiting[c.name] = { reason: 'ImageInspectError', message: `Failed to inspect image "${spec}": ${criErrorText(present.error)}` };
		return { kind: 'failed' };
	}
	const policy = c.imagePullPolicy ?? defaultPullPolicy(spec);
	if (policy === 'Never' || (policy === 'IfNotPresent' && present.value)) {
		if (present.value) {
			ctx.podEvent(w, 'Normal', 'Pulled', `Container image "${spec}" already present on machine and can be accessed by the pod`, c.name, isInit);
			return { kind: 'ready', image: tagged.image };
		}
		const message = `Container image "${spec}" is not present with pull policy of Never`;
		ctx.podEvent(w, 'Warning', 'ErrImageNeverPull', message, c.name, isInit);
		w.waiting[c.name] = { reason: 'ErrImageNeverPull', message };
		ctx.podEvent(w, 'Warning', 'Failed', 'Error: ErrImageNeverPull', c.name, isInit);
		return { kind: 'failed' };
	}
	const key = `${w.uid}_${spec}`;
	if (isInBackOffSinceUpdate(ctx.state.imageBackoff, IMAGE_PULL_BACKOFF, key, ctx.nowMs)) {
		const message = `Back-off pulling image "${spec}"`;
		ctx.podEvent(w, 'Normal', 'BackOff', message, c.name, isInit);
		const last = ctx.state.lastPullError[key];
		w.waiting[c.name] = { reason: 'ImagePullBackOff', message: last ? `${message}: ErrImagePull: ${last}` : message };
		ctx.podEvent(w, 'Warning', 'Failed', 'Error: ImagePullBackOff', c.name, isInit);
		const entry = ctx.state.imageBackoff[key];
		requestSync(ctx, w, entry.lastUpdateMs + entry.backoffMs - ctx.nowMs, true);
		return { kind: 'failed' };
	}
	ctx.podEvent(w, 'Normal', 'Pulling', `Pulling image "${spec}"`, c.name, isInit);
	const op = ctx.runtime.pullImage(tagged.image, ctx.id);
	if (!op.ok) {
		const text = criErrorText(op.error);
		ctx.podEvent(w, 'Warning', 'Failed', `Failed to pull image "${spec}": ${text}`, c.name, isInit);
		backoffNext(ctx.state.imageBackoff, IMAGE_PULL_BACKOFF, key, ctx.nowMs, ctx.nowMs);
		ctx.state.lastPullError[key] = text;
		w.waiting[c.name] = { reason: 'ErrImagePull', message: text };
		ctx.podEvent(w, 'Warning', 'Failed', 'Error: ErrImagePull', c.name, isInit);
		return { kind: 'failed' };
	}
	w.op = { opId: op.value.opId, kind: 'pull', container: c.name, image: spec };
	return { kind: 'pending' };
}
