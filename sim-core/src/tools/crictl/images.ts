/**
 * crictl's image commands: images, inspecti, pull and rmi.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/image.go (listImageCommand,
 * imageStatusCommand, pullImageCommand, removeImageCommand,
 * normalizeRepoTagPair, normalizeRepoDigest), containerd/containerd
 * internal/cri/server/images/image_list.go, containerd/containerd
 * internal/cri/server/images/image_status.go, containerd/containerd
 * internal/cri/server/images/image_remove.go.
 */
import type { GoJsonValue } from '../../golang/json.ts';
import type { ImageInfo } from '../../cri-api/cri.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { tryParseGoDurationMs } from '../../golang/duration.ts';
import { printStatusData } from './containers.ts';
import { imageInspect, imageMessage, rpcError } from './cri-view.ts';
import { crictlTable, humanSize, protoJson } from './format.ts';
import { parseLabels, truncatedId, type Command, type Run } from './run.ts';
import type { CrictlRuntime } from './types.ts';
import { deepCopy } from '../../golang/json.ts';

/** The longest `crictl pull` waits in virtual time for containerd to answer (the simulated registry's largest images take under a minute). */
const PULL_WAIT_MAX_MS = 10 * 60_000;
const WAIT_STEP_MS = 100;

/** imageByRef: by first repo tag, else first repo digest, else ID. */
function byRef(a: ImageInfo, b: ImageInfo): number {
	const key = (i: ImageInfo, other: ImageInfo) => (i.repoTags.length && other.repoTags.length ? i.repoTags[0] : i.repoDigests.length && other.repoDigests.length ? i.repoDigests[0] : i.id);
	const ka = key(a, b);
	const kb = key(b, a);
	return ka < kb ? -1 : ka > kb ? 1 : 0;
}

/** ListImages: containerd ignores the filter (image_list.go), crictl sorts. */
function listImages(r: Run, rt: CrictlRuntime): ImageInfo[] {
	const listed = rt.listImages();
	if (!listed.ok) {
		r.inv.klogError('remote_image.go:161', 'ListImages with filter from image service failed', rpcError(listed.error), [['filter', '&ImageFilter{Image:&ImageSpec{Image:,Annotations:map[string]string{},UserSpecifiedImage:,RuntimeHandler:,ImageRef:,},}']]);
		return r.inv.fatal(`listing images: ${rpcError(listed.error)}`);
	}
	return [...listed.value].sort(byRef);
}

/** normalizeRepoDigest: the first repo digest split at `@`. */
function repoDigestPair(digests: readonly string[]): [string, string] {
	if (!digests.length) return ['<none>', '<none>'];
	const parts = digests[0].split('@');
	return parts.length === 2 ? [parts[0], parts[1]] : ['errorName', 'errorRepoDigest'];
}

/** normalizeRepoTagPair: each repo tag split at its last colon; no tags shows the digest's name with `<none>`. */
function repoTagPairs(tags: readonly string[], imageName: string): Array<[string, string]> {
	if (!tags.length) return [[imageName, '<none>']];
	return tags.map((tag) => {
		const i = tag.lastIndexOf(':');
		if (i < 0) return ['errorRepoTag', 'errorRepoTag'];
		const name = tag.slice(0, i);
		return [name === '<none>' ? imageName : name, tag.slice(i + 1)];
	});
}

/** containerd's LocalResolve: a reference, an image ID, or a unique prefix of an image ID. */
function resolveImageArg(rt: CrictlRuntime, given: string): string {
	const listed = rt.listImages();
	if (!listed.ok) return given;
	const bare = given.startsWith('sha256:') ? given.slice(7) : given;
	if (/^[0-9a-f]+$/.test(bare)) {
		const matches = listed.value.filter((i) => i.id.slice(7).startsWith(bare));
		if (matches.length === 1) return matches[0].id;
	}
	return given;
}

export const images: Command = {
	spec: {
		name: 'images',
		aliases: ['image', 'img'],
		usage: 'List images',
		argsUsage: '[REPOSITORY[:TAG]]',
		shortOptions: true,
		flags: [
			{ name: 'verbose', aliases: ['v'], kind: 'bool', usage: 'Show verbose info for images' },
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Only show image IDs' },
			{ name: 'filter', aliases: ['f'], kind: 'stringSlice', usage: 'Filter output based on provided conditions.\nAvailable filters: \n* dangling=(boolean - true or false)\n* reference=/regular expression/\n* before=<image-name>[:<tag>]|<image id>|<image@digest>\n* since=<image-name>[:<tag>]|<image id>|<image@digest>\nMultiple filters can be combined together.' },
			{ name: 'output', aliases: ['o'], kind: 'string', usage: 'Output format, One of: json|yaml|table' },
			{ name: 'digests', kind: 'bool', usage: 'Show digests' },
			{ name: 'no-trunc', kind: 'bool', usage: 'Show output without truncating the ID' },
			{ name: 'pinned', kind: 'bool', usage: 'Show whether the image is pinned or not' },
		],
	},
	run(r) {
		if (r.args.length > 1) return r.help();
		const rt = r.images();
		let list = listImages(r, rt);
		for (const filter of r.strings('filter')) {
			if (filter.startsWith('dangling=')) {
				const dangling = filter.slice('dangling='.length) === 'true';
				list = list.filter((i) => (i.repoTags.length === 0) === dangling);
			} else if (filter.startsWith('reference=')) {
				let re: RegExp;
				try {
					re = new RegExp(filter.slice('reference='.length));
				} catch (error) {
					return r.inv.fatal(`listing images: filter images: ${error instanceof Error ? error.message : String(error)}`);
				}
				list = list.filter((i) => i.repoTags.some((t) => re.test(t)));
			} else if (!filter.startsWith('before=') && !filter.startsWith('since=')) return r.inv.fatal(`listing images: filter images: unknown filter flag: ${filter}`);
		}
		const output = r.string('output');
		if (output === 'json' || output === 'yaml') {
			const message = { images: list.map(imageMessage) };
			r.inv.print(output === 'json' ? protoJson(message) : stringifyYaml(deepCopy(message)) + '\n');
			return 0;
		}
		const verbose = r.bool('verbose');
		const quiet = r.bool('quiet');
		const showDigest = r.bool('digests');
		const showPinned = r.bool('pinned');
		const rows: string[][] = [];
		if (!verbose && !quiet) rows.push(['IMAGE', 'TAG', ...(showDigest ? ['DIGEST'] : []), 'IMAGE ID', 'SIZE', ...(showPinned ? ['PINNED'] : [])]);
		for (const image of list) {
			if (quiet) {
				r.inv.print(image.id + '\n');
				continue;
			}
			if (!verbose) {
				const [name, digest] = repoDigestPair(image.repoDigests);
				const noTrunc = r.bool('no-trunc');
				const id = noTrunc ? image.id : truncatedId(image.id, 'sha256:');
				const shownDigest = noTrunc ? digest : truncatedId(digest, 'sha256:');
				for (const [repo, tag] of repoTagPairs(image.repoTags, name)) rows.push([repo, tag, ...(showDigest ? [shownDigest] : []), id, humanSize(image.sizeBytes), ...(showPinned ? [String(image.pinned)] : [])]);
				continue;
			}
			let text = `ID: ${image.id}\n`;
			for (const tag of image.repoTags) text += `RepoTags: ${tag}\n`;
			for (const digest of image.repoDigests) text += `RepoDigests: ${digest}\n`;
			if (image.sizeBytes) text += `Size: ${image.sizeBytes}\n`;
			if (image.pinned) text += `Pinned: true\n`;
			r.inv.print(text + '\n');
		}
		if (rows.length) r.inv.print(crictlTable(rows));
		return 0;
	},
};

export const inspecti: Command = {
	spec: {
		name: 'inspecti',
		usage: 'Return the status of one or more images',
		argsUsage: 'IMAGE-ID [IMAGE-ID...]',
		shortOptions: true,
		flags: [
			{ name: 'output', aliases: ['o'], kind: 'string', usage: 'Output format, One of: json|yaml|go-template|table' },
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Do not show verbose information' },
			{ name: 'template', kind: 'string', usage: 'The template string is only used when output is go-template; The Template format is golang template' },
			{ name: 'name', kind: 'string', usage: 'Filter by image name' },
			{ name: 'filter', aliases: ['f'], kind: 'stringSlice', usage: 'Filter output based on provided conditions.\nAvailable filters: \n* dangling=(boolean - true or false)\n* reference=/regular expression/\n* before=<image-name>[:<tag>]|<image id>|<image@digest>\n* since=<image-name>[:<tag>]|<image id>|<image@digest>\nMultiple filters can be combined together.' },
		],
	},
	run(r) {
		const rt = r.images();
		const verbose = !r.bool('quiet');
		const output = r.string('output') || 'json';
		let ids = [...r.args];
		if (!ids.length) ids = listImages(r, rt).map((i) => i.id);
		if (!ids.length) {
			r.inv.log('error', 'No IDs provided or nothing found per filter');
			return r.help();
		}
		const statuses: Array<{ [key: string]: GoJsonValue }> = [];
		for (const id of ids) {
			const status = rt.imageStatus(resolveImageArg(rt, id), verbose);
			if (!status.ok) {
				r.inv.klogError('remote_image.go:217', 'Get ImageStatus from image service failed', rpcError(status.error), [['image', id]]);
				return r.inv.fatal(`image status for "${id}" request: ${rpcError(status.error)}`);
			}
			if (!status.value) return r.inv.fatal(`no such image "${id}" present`);
			const image = status.value;
			if (output === 'table') {
				let text = `ID: ${image.id}\n`;
				for (const tag of image.repoTags) text += `Tag: ${tag}\n`;
				for (const digest of image.repoDigests) text += `Digest: ${digest}\n`;
				text += `Size: ${humanSize(image.sizeBytes)}\n`;
				if (verbose) text += `Info: map[info:${JSON.stringify(imageInspect(image, true).info)}]\n`;
				r.inv.print(text);
			} else statuses.push(imageInspect(image, verbose));
		}
		return printStatusData(r, statuses, output, 'image status');
	},
};

export const pull: Command = {
	spec: {
		name: 'pull',
		usage: 'Pull an image from a registry',
		argsUsage: 'NAME[:TAG|@DIGEST]',
		shortOptions: true,
		flags: [
			{ name: 'creds', kind: 'string', usage: 'Use `USERNAME[:PASSWORD]` for accessing the registry', envVars: ['CRICTL_CREDS'] },
			{ name: 'auth', kind: 'string', usage: "Use `AUTH_STRING` for accessing the registry. AUTH_STRING is a base64 encoded 'USERNAME[:PASSWORD]'", envVars: ['CRICTL_AUTH'] },
			{ name: 'username', aliases: ['u'], kind: 'string', usage: 'Use `USERNAME` for accessing the registry. The password will be requested on the command line' },
			{ name: 'pod-config', kind: 'string', usage: 'Use `pod-config.[json|yaml]` to override the pull c' },
			{ name: 'annotation', aliases: ['a'], kind: 'stringSlice', usage: 'Annotation to be set on the pulled image' },
			{ name: 'pull-timeout', aliases: ['pt'], kind: 'duration', usage: 'Maximum time to be used for pulling the image, disabled if set to 0s', envVars: ['CRICTL_PULL_TIMEOUT'] },
		],
	},
	run(r) {
		const image = r.args[0] ?? '';
		if (image === '') return r.inv.fatal('image name cannot be empty');
		if (r.args.length > 1) return r.help();
		const rt = r.images();
		if (r.string('creds') && r.string('auth')) return r.inv.fatal('pulling image: both `--creds` and `--auth` are specified');
		parseLabels(r, 'annotation');
		const timeoutMs = tryParseGoDurationMs(r.string('pull-timeout') || '0') ?? 0;
		if (timeoutMs < 0) return r.inv.fatal('pulling image: timeout should be bigger than 0');
		const receiver = r.deps.pulls;
		if (!receiver) return r.inv.fatal('pulling image: this simulated node cannot wait for a pull (no pull receiver is wired)');
		const started = rt.pullImage(image, receiver.id);
		const fail = (error: { code: string; desc: string }) => {
			r.inv.klogError('remote_image.go:250', 'PullImage from image service failed', rpcError(error), [['image', image]]);
			return r.inv.fatal(`pulling image: ${rpcError(error)}`);
		};
		if (!started.ok) return fail(started.error);
		receiver.forget(started.value.opId);
		const limit = timeoutMs > 0 ? Math.min(timeoutMs, PULL_WAIT_MAX_MS) : PULL_WAIT_MAX_MS;
		for (let waited = 0; !receiver.outcome(started.value.opId) && waited < limit; waited += WAIT_STEP_MS) if (!r.inv.sleep(WAIT_STEP_MS)) break;
		const outcome = receiver.outcome(started.value.opId);
		// The context deadline of --pull-timeout cancels the call (grpc codes.DeadlineExceeded).
		if (!outcome) return fail({ code: 'DeadlineExceeded', desc: 'context deadline exceeded' });
		if (!outcome.ok) return fail(outcome);
		r.inv.print(`Image is up to date for ${outcome.imageRef}\n`);
		return 0;
	},
};

export const rmi: Command = {
	spec: {
		name: 'rmi',
		usage: 'Remove one or more images',
		argsUsage: 'IMAGE-ID [IMAGE-ID...]',
		shortOptions: true,
		flags: [
			{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Remove all images' },
			{ name: 'prune', aliases: ['q'], kind: 'bool', usage: 'Remove all unused images' },
		],
	},
	run(r) {
		const rt = r.images();
		const ids = new Map<string, boolean>();
		for (const id of r.args) ids.set(id, true);
		const all = r.bool('all');
		const prune = r.bool('prune');
		if (all || prune) {
			for (const image of listImages(r, rt)) {
				// Pinned images (the sandbox image) are kept on prune.
				if (prune && image.pinned) continue;
				ids.set(image.id, true);
			}
		}
		if (prune) {
			const runtime = r.runtime();
			const containers = runtime.listContainers({});
			if (!containers.ok) return r.inv.fatal(rpcError(containers.error));
			for (const c of containers.value) {
				const status = rt.imageStatus(c.image);
				if (status.ok && status.value) ids.set(status.value.id, false);
			}
		}
		if (!ids.size) {
			if (all || prune) {
				r.inv.log('info', 'No images to remove');
				return 0;
			}
			return r.help();
		}
		const errors: string[] = [];
		for (const [id, remove] of ids) {
			if (!remove) continue;
			const resolved = resolveImageArg(rt, id);
			const status = rt.imageStatus(resolved);
			if (!status.ok) {
				errors.push(`image status request for "${id}" failed: ${rpcError(status.error)}`);
				continue;
			}
			if (!status.value) {
				errors.push(`no such image ${id}`);
				continue;
			}
			const tags = status.value.repoTags;
			if (tags.length > 1 && !id.startsWith('sha256:') && (id.includes(':') || id.includes('/'))) {
				r.inv.log('warning', `Image "${id}" has multiple tags. Removing this image will delete all of the following tags:`);
				for (const tag of tags) r.inv.log('warning', `  ${tag}`);
			}
			const removed = rt.removeImage(resolved);
			if (!removed.ok) {
				if (!prune) errors.push(`error of removing image "${id}": ${rpcError(removed.error)}`);
				continue;
			}
			// An image pulled by digest has no tags: crictl names its digests instead.
			for (const name of tags.length ? tags : status.value.repoDigests) r.inv.print(`Deleted: ${name}\n`);
		}
		if (errors.length) return r.inv.fatal(errors.join('\n'));
		return 0;
	},
};
