/**
 * `kubectl debug (POD | TYPE/NAME) [--image] [-it] [--target] [-c]
 * [--copy-to] [--profile] [-- COMMAND...]`: the three ways kubectl v1.36
 * debugs.
 *
 * - A Pod, by default: an ephemeral container (`debugger-XXXXX` unless -c
 *   names it) added through a strategic-merge PATCH of the Pod's
 *   `ephemeralcontainers` subresource; the kubelet starts it in the running
 *   Pod, on its network, and reports it in
 *   `status.ephemeralContainerStatuses`. `--target` names the container
 *   whose processes it joins.
 * - A Pod with `--copy-to`: a copy of the Pod, under that name, with the
 *   debug container added (or the container -c names changed), images
 *   swapped by `--set-image`, off its node unless `--same-node`, and what
 *   the profile strips.
 * - `node/NAME`: the Pod `node-debugger-NAME-XXXXX` in the current
 *   namespace, on that node, in its host namespaces, with the node's `/`
 *   at /host, tolerating every taint, never restarted.
 *
 * With -i (attach) kubectl waits for the container to run, then attaches
 * as `kubectl attach` does: at the reader's prompt with -t, the
 * container's shell takes the terminal (./run-attach.ts, ./exec.ts).
 * Names are drawn as utilrand.String(5) from a stream derived from the
 * virtual time (kubectl has no seeded stream of its own).
 *
 * Simplified: `-f` is refused (name the Pod); waiting for the container
 * lasts at most DEBUG_WAIT_CAP_MS of virtual time (upstream waits until
 * interrupted), then the simulation presses Ctrl-C and says so.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/debug/debug.go (Complete,
 * Validate, Run, visitNode, debugByEphemeralContainer, debugByCopy,
 * generateDebugContainer, generateNodeDebugPod,
 * generatePodCopyWithDebugContainer, computeDebugContainerName,
 * waitForContainer, handleAttachPod).
 */
import type { Container, EphemeralContainer, KubeObject, Node, Pod } from '../../api/types.ts';
import type { WatchEvent } from '../../api/request.ts';
import { applyPatch } from '../../api/patch.ts';
import { R, refOf } from '../../client/client.ts';
import { deepCopy } from '../../golang/json.ts';
import { deriveRngState, Rng } from '../../sim/rng.ts';
import { parseYamlDocuments } from '../../yaml/index.ts';
import { INTERNAL } from '../../shell/session.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { resolveResourceName } from '../resource-args.ts';
import { callError, checkErr, errorText, plain, type KubectlError } from './check-err.ts';
import { profileApplier, type DebugStyle, type ProfileApplier } from './debug-profiles.ts';
import { openShell } from './exec.ts';
import { chunkedResult, fetchLog, reattachMessage, streamAttach } from './run-attach.ts';

/** How long kubectl debug waits for its container to run (upstream: until interrupted). */
export const DEBUG_WAIT_CAP_MS = 300_000;

/** docker/distribution reference.ReferenceRegexp, as kubectl run checks it. */
const IMAGE_REFERENCE = /^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$/;

/** apimachinery's util/rand alphabet. */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** DebugOptions once Complete and Validate have run. */
interface DebugOptions {
	args: string[];
	argsOnly: boolean;
	attach: boolean;
	container: string;
	copyTo: string;
	replace: boolean;
	env: Array<{ name: string; value: string }>;
	image: string;
	interactive: boolean;
	tty: boolean;
	quiet: boolean;
	sameNode: boolean;
	setImages: Record<string, string>;
	shareProcesses: boolean;
	shareProcessesChanged: boolean;
	target: string;
	pullPolicy: string;
	applier: ProfileApplier;
	custom?: Record<string, unknown>;
	/** utilrand.String(5). */
	suffix: () => string;
	/** What kubectl writes, in order. */
	write: (fd: 1 | 2, text: string) => void;
}

/** pflag's StringToString: `k=v` pairs, comma-separated or repeated. */
function stringToString(values: string[], flag: string): { pairs: Record<string, string> } | { error: KubectlError } {
	const out: Record<string, string> = {};
	for (const pair of values) {
		const eq = pair.indexOf('=');
		if (eq < 0) return { error: plain(`invalid argument "${pair}" for "--${flag}" flag: ${pair} must be formatted as key=value`) };
		out[pair.slice(0, eq)] = pair.slice(eq + 1);
	}
	return { pairs: out };
}

/** Complete and Validate, in upstream's order; the `Targeting container` line is printed during Validate. */
function options(inv: KubectlInvocation, write: DebugOptions['write']): { o: DebugOptions; targets: string[] } | { error: KubectlError } {
	const { flags, set } = inv.args;
	const positionals = inv.args.positionals;
	const targets = [...positionals];
	const args = inv.args.dashDash ? [...inv.args.passthrough] : [];
	const interactive = flags.stdin === true;
	const env = stringToString((flags.env as string[]) ?? [], 'env');
	if ('error' in env) return env;
	const setImages = stringToString((flags['set-image'] as string[]) ?? [], 'set-image');
	if ('error' in setImages) return setImages;
	const applier = profileApplier(String(flags.profile ?? 'general'), {
		labels: flags['keep-labels'] === true,
		annotations: flags['keep-annotations'] === true,
		liveness: flags['keep-liveness'] === true,
		readiness: flags['keep-readiness'] === true,
		startup: flags['keep-startup'] === true,
		initContainers: flags['keep-init-containers'] !== false,
	});
	if ('error' in applier) return { error: plain(applier.error) };
	let custom: Record<string, unknown> | undefined;
	const customFile = String(flags.custom ?? '');
	if (customFile) {
		const text = inv.env.readFile(customFile);
		if (text === undefined) return { error: plain(`must pass a container spec json file for custom profile: open ${customFile}: no such file or directory`) };
		let parsed: unknown;
		try {
			parsed = JSON.parse(text);
		} catch {
			try {
				parsed = parseYamlDocuments(text)[0];
			} catch (e) {
				return { error: plain(`${customFile} does not contain a valid container spec: ${e instanceof Error ? e.message : String(e)}`) };
			}
		}
		if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { error: plain(`${customFile} does not contain a valid container spec: cannot unmarshal into a container`) };
		custom = parsed as Record<string, unknown>;
	}
	const rng = new Rng(deriveRngState(Math.floor(inv.env.nowMs()), `kubectl-debug/${inv.namespace}/${targets.join(',')}`));
	const o: DebugOptions = {
		args,
		argsOnly: flags['arguments-only'] === true,
		attach: set.has('attach') ? flags.attach === true : interactive,
		container: String(flags.container ?? ''),
		copyTo: String(flags['copy-to'] ?? ''),
		replace: flags.replace === true,
		env: Object.entries(env.pairs).map(([name, value]) => ({ name, value })),
		image: String(flags.image ?? ''),
		interactive,
		tty: flags.tty === true,
		quiet: flags.quiet === true,
		sameNode: flags['same-node'] === true,
		setImages: setImages.pairs,
		shareProcesses: flags['share-processes'] !== false,
		shareProcessesChanged: set.has('share-processes'),
		target: String(flags.target ?? ''),
		pullPolicy: String(flags['image-pull-policy'] ?? ''),
		applier,
		custom,
		suffix: () => rng.string(NAME_ALPHABET, 5),
		write,
	};

	// Validate.
	if (o.attach && set.has('attach') && !o.image && !o.container) return { error: plain('you must specify --container or create a new container using --image in order to attach.') };
	if (o.copyTo) {
		if (!o.image && Object.keys(o.setImages).length === 0 && o.args.length === 0) return { error: plain('you must specify --image, --set-image or command arguments.') };
		if (o.args.length > 0 && !o.container && !o.image) return { error: plain('you must specify an existing container or a new image when specifying args.') };
	} else if (o.replace) return { error: plain('--replace may only be used with --copy-to.') };
	else if (o.sameNode) return { error: plain('--same-node may only be used with --copy-to.') };
	else if (Object.keys(o.setImages).length > 0) return { error: plain('--set-image may only be used with --copy-to.') };
	else if (!o.image) return { error: plain('you must specify --image when not using --copy-to.') };
	if (o.image && !IMAGE_REFERENCE.test(o.image)) return { error: plain(`invalid image name ${JSON.stringify(o.image)}: invalid reference format`) };
	const files = (flags.filename as string[]) ?? [];
	if (targets.length === 0 && files.length === 0) return { error: plain('NAME or filename is required for debug') };
	if (!['Always', 'IfNotPresent', 'Never', ''].includes(o.pullPolicy)) return { error: plain(`invalid image pull policy: ${o.pullPolicy}`) };
	for (const [name, image] of Object.entries(o.setImages).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
		if (!IMAGE_REFERENCE.test(image)) return { error: plain(`invalid image name ${JSON.stringify(image)} for container ${JSON.stringify(name)}: invalid reference format`) };
	}
	if (o.target) {
		if (o.copyTo) return { error: plain('--target is incompatible with --copy-to. Use --share-processes instead.') };
		if (!o.quiet) write(1, `Targeting container ${JSON.stringify(o.target)}. If you don't see processes from this container it may be because the container runtime doesn't support this feature.\n`);
	}
	if (o.tty && !o.interactive) return { error: plain('-i/--stdin is required for containers with -t/--tty=true') };
	if (o.custom && (o.custom.name !== undefined || o.custom.command !== undefined || o.custom.image !== undefined || o.custom.lifecycle !== undefined || o.custom.volumeDevices !== undefined)) {
		return { error: plain('name, command, image, lifecycle and volume devices are not modifiable via custom profile') };
	}
	if (String(flags.profile) === 'legacy') write(2, '--profile=legacy is deprecated and planned to be removed in v1.39. It is recommended to specify other profile, for example "--profile=general".\n');
	if (files.length) return { error: plain('debug -f is not supported by this simulated kubectl; name the pod') };
	return { o, targets };
}

/** The command or arguments of the debug container (--arguments-only). */
function withArgs<T extends Container>(c: T, o: DebugOptions): T {
	if (o.args.length === 0) return c;
	if (o.argsOnly) c.args = [...o.args];
	else c.command = [...o.args];
	return c;
}

/** The fields every debug container gets (only those set, as Go's omitempty leaves them). */
function debugContainerBase(o: DebugOptions, name: string): Container {
	const c: Container = { name } as Container;
	if (o.env.length) c.env = o.env.map((e) => ({ ...e }));
	if (o.image) c.image = o.image;
	if (o.pullPolicy) (c as { imagePullPolicy?: string }).imagePullPolicy = o.pullPolicy;
	if (o.interactive) c.stdin = true;
	(c as { terminationMessagePolicy?: string }).terminationMessagePolicy = 'File';
	if (o.tty) c.tty = true;
	return c;
}

/** The names of every container of the pod (containerNameToRef). */
function containerNames(pod: Pod): Set<string> {
	return new Set([...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])].map((c) => c.name));
}

/** computeDebugContainerName: -c, or `debugger-XXXXX` not yet taken, announced. */
function debugContainerName(o: DebugOptions, pod: Pod): string {
	if (o.container) return o.container;
	const taken = containerNames(pod);
	let name = '';
	for (let i = 0; i < 100 && (!name || taken.has(name)); i++) name = `debugger-${o.suffix()}`;
	if (!o.quiet) o.write(1, `Defaulting debug container name to ${name}.\n`);
	return name;
}

/** --custom: the partial container spec, merged into the debug container as a strategic merge patch. */
function applyCustom<T extends Container>(o: DebugOptions, c: T): T {
	if (!o.custom) return c;
	const merged = applyPatch(c, { ...o.custom, name: c.name }, 'application/strategic-merge-patch+json', 'Container');
	return 'error' in merged ? c : (merged.value as T);
}

/** The profile applied, then --custom, to the debug container of `pod` (which may be in any of its lists). */
function customize(o: DebugOptions, pod: Pod, name: string, style: DebugStyle): void {
	o.applier(pod, name, style);
	if (!o.custom) return;
	for (const list of [pod.spec.containers, pod.spec.ephemeralContainers ?? []] as Container[][]) {
		const i = list.findIndex((c) => c.name === name);
		if (i >= 0) list[i] = applyCustom(o, list[i]);
	}
}

type Visit = { pod: Pod; container: string; ephemeral: boolean } | { error: KubectlError };

/** visitNode: the node debugging Pod, created in the current namespace. */
function visitNode(inv: KubectlInvocation, o: DebugOptions, node: Node): Visit {
	const name = o.container || 'debugger';
	const nodeName = node.metadata.name ?? '';
	const podName = `node-debugger-${nodeName}-${o.suffix()}`;
	if (!o.quiet) o.write(1, `Creating debugging pod ${podName} with container ${name} on node ${nodeName}.\n`);
	const pod: Pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name: podName, labels: { 'app.kubernetes.io/managed-by': 'kubectl-debug' } },
		spec: { containers: [withArgs(debugContainerBase(o, name), o)], nodeName, restartPolicy: 'Never', tolerations: [{ operator: 'Exists' }] },
	} as Pod;
	customize(o, pod, name, 'node');
	const created = inv.client.create<Pod>(R.pods, inv.namespace, pod as unknown as KubeObject);
	if (!created.ok) return { error: callError(created, inv.env.serverUrl) };
	return { pod: created.object, container: created.object.spec.containers[0]?.name ?? name, ephemeral: false };
}

/** debugByEphemeralContainer: the new ephemeral container, added with a strategic merge patch of pods/ephemeralcontainers. */
function debugByEphemeralContainer(inv: KubectlInvocation, o: DebugOptions, pod: Pod): Visit {
	const name = debugContainerName(o, pod);
	const ec: EphemeralContainer = withArgs(debugContainerBase(o, name), o);
	if (o.target) ec.targetContainerName = o.target;
	const copied = deepCopy(pod);
	copied.spec.ephemeralContainers = [...(copied.spec.ephemeralContainers ?? []), ec];
	customize(o, copied, name, 'ephemeral');
	const added = copied.spec.ephemeralContainers[copied.spec.ephemeralContainers.length - 1];
	// CreateTwoWayMergePatch of the pod and its copy: only the list changed, merged by name.
	const patch = { spec: { ephemeralContainers: [...(pod.spec.ephemeralContainers ?? []).map((c) => ({ name: c.name })), added] } };
	const result = inv.client.patch<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name ?? '', patch, 'application/strategic-merge-patch+json', 'ephemeralcontainers');
	if (!result.ok) {
		if (!result.transport && result.code === 404 && !result.details?.name) return { error: plain(`ephemeral containers are disabled for this cluster (error from server: ${JSON.stringify(errorText(callError(result, inv.env.serverUrl)))})`) };
		return { error: callError(result, inv.env.serverUrl) };
	}
	return { pod: result.object, container: name, ephemeral: true };
}

/** generatePodCopyWithDebugContainer + debugByCopy: the copy, created (and with --replace the original deleted). */
function debugByCopy(inv: KubectlInvocation, o: DebugOptions, pod: Pod): Visit {
	const copied: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: o.copyTo, namespace: pod.metadata.namespace }, spec: deepCopy(pod.spec) } as Pod;
	if (pod.metadata.annotations) copied.metadata.annotations = { ...pod.metadata.annotations };
	if (pod.metadata.labels) copied.metadata.labels = { ...pod.metadata.labels };
	delete copied.spec.ephemeralContainers;
	if (o.shareProcessesChanged) (copied.spec as { shareProcessNamespace?: boolean }).shareProcessNamespace = o.shareProcesses;
	if (!o.sameNode) delete copied.spec.nodeName;
	for (const c of copied.spec.containers) {
		const override = o.setImages[c.name] ?? o.setImages['*'] ?? '';
		if (override) c.image = override;
	}
	let name = o.container;
	let c = [...copied.spec.containers, ...(copied.spec.initContainers ?? [])].find((x) => x.name === name);
	let debugName = name;
	if (!c) {
		if (!o.image) {
			if (Object.keys(o.setImages).length > 0) return create(inv, o, pod, copied, '');
			return { error: plain('you must specify image when creating new container') };
		}
		if (!name) name = debugContainerName(o, copied);
		debugName = name;
		c = { name, terminationMessagePolicy: 'File' } as Container;
		copied.spec.containers.push(c);
	}
	if (o.args.length > 0) {
		if (o.argsOnly) c.args = [...o.args];
		else {
			c.command = [...o.args];
			delete c.args;
		}
	}
	if (o.env.length) c.env = o.env.map((e) => ({ ...e }));
	if (o.image) c.image = o.image;
	if (o.pullPolicy) (c as { imagePullPolicy?: string }).imagePullPolicy = o.pullPolicy;
	if (o.interactive) c.stdin = true;
	else delete c.stdin;
	if (o.tty) c.tty = true;
	else delete c.tty;
	customize(o, copied, c.name, 'podCopy');
	return create(inv, o, pod, copied, debugName);
}

function create(inv: KubectlInvocation, o: DebugOptions, original: Pod, copied: Pod, container: string): Visit {
	// The copy is built from the stored pod: what the server set on it goes, or it is set again.
	const created = inv.client.create<Pod>(R.pods, copied.metadata.namespace, copied as unknown as KubeObject);
	if (!created.ok) return { error: callError(created, inv.env.serverUrl) };
	if (o.replace) {
		const deleted = inv.client.delete(R.pods, original.metadata.namespace, original.metadata.name ?? '', { gracePeriodSeconds: 0 });
		if (!deleted.ok) return { error: callError(deleted, inv.env.serverUrl) };
	}
	return { pod: created.object, container, ephemeral: false };
}

/** getContainerStatusByName: init, regular or ephemeral. */
function statusOf(pod: Pod, container: string) {
	const s = pod.status ?? {};
	return [...(s.initContainerStatuses ?? []), ...(s.containerStatuses ?? []), ...(s.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
}

/** waitForContainer: watch the pod until the container runs or has terminated; warnings for its waiting messages. */
function waitForContainer(inv: KubectlInvocation, o: DebugOptions, pod: Pod, container: string): { pod: Pod } | { error: KubectlError } | { interrupted: true } {
	const namespace = pod.metadata.namespace ?? inv.namespace;
	const name = pod.metadata.name ?? '';
	let outcome: { pod: Pod } | { error: KubectlError } | undefined;
	let lastWarning = '';
	const see = (event: WatchEvent) => {
		if (outcome) return;
		if (event.type === 'DELETED') {
			outcome = { error: { kind: 'status', code: 404, reason: 'NotFound', message: 'pods "" not found' } };
			return;
		}
		const p = event.object as Pod;
		const s = statusOf(p, container);
		if (!s) return;
		if (s.state?.running || s.state?.terminated) outcome = { pod: { ...p, kind: 'Pod', apiVersion: 'v1' } };
		else if (!o.quiet && s.state?.waiting?.message && s.state.waiting.message !== lastWarning) {
			lastWarning = s.state.waiting.message;
			o.write(2, `Warning: container ${container}: ${lastWarning}\n`);
		}
	};
	const listed = inv.client.list<Pod>(R.pods, namespace, { fieldSelector: `metadata.name=${name}` });
	if (!listed.ok) return { error: callError(listed, inv.env.serverUrl) };
	for (const p of listed.object.items) see({ type: 'ADDED', object: p });
	if (outcome) return outcome;
	inv.env.watch(R.pods, { namespace, query: { fieldSelector: `metadata.name=${name}`, resourceVersion: listed.object.metadata?.resourceVersion } }, see, () => outcome !== undefined, DEBUG_WAIT_CAP_MS);
	if (outcome) return outcome;
	o.write(2, `${INTERNAL} container ${container} still not running after ${DEBUG_WAIT_CAP_MS / 1000} s of virtual time: interrupted, as Ctrl-C would\n`);
	return { interrupted: true };
}

/**
 * The shells a debug container may be running with nothing but its
 * standard input to read: `-- sh` (or bash...), or, with no command, the
 * image's own: kubectl cannot see the image's CMD, so bash is tried first
 * (ubuntu's and debian's CMD), then sh (busybox's, alpine's).
 */
function attachableShells(pod: Pod, container: string): string[] {
	const spec = [...pod.spec.containers, ...(pod.spec.ephemeralContainers ?? [])].find((c) => c.name === container);
	if (!spec?.stdin) return [];
	const argv = [...(spec.command ?? []), ...(spec.args ?? [])];
	if (argv.length === 0) return ['bash', 'sh'];
	return argv.length === 1 && /(^|\/)(sh|bash|ash|dash)$/.test(argv[0]) ? [argv[0]] : [];
}

/** handleAttachPod: wait, then the logs of a container that already ended, or an attach. */
function attachTo(inv: KubectlInvocation, o: DebugOptions, visit: { pod: Pod; container: string; ephemeral: boolean }): number {
	const waited = waitForContainer(inv, o, visit.pod, visit.container);
	if ('interrupted' in waited) return 130;
	if ('error' in waited) {
		const failed = checkErr(waited.error);
		o.write(2, failed.stderr);
		return failed.exitCode;
	}
	const pod = waited.pod;
	const status = statusOf(pod, visit.container);
	if (status?.state?.terminated) {
		const log = fetchLog(inv, pod, visit.container);
		if ('error' in log) {
			const failed = checkErr(log.error);
			o.write(2, failed.stderr);
			return failed.exitCode;
		}
		o.write(1, log.text);
		return 0;
	}
	const shells = o.interactive && o.tty && inv.env.tty === true && inv.env.openContainerSession ? attachableShells(pod, visit.container) : [];
	const reattach = o.quiet ? '' : reattachMessage('kubectl attach', pod, visit.container, visit.ephemeral);
	// The container's shell reads the reader's terminal: the session takes the prompt until `exit`.
	if (shells.some((shell) => openShell(inv, pod, visit.container, shell, { restartPolicy: 'Never', remove: [], reattach }))) {
		if (!o.quiet) o.write(2, "All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\nIf you don't see a command prompt, try pressing enter.\n");
		return 0;
	}
	const streamed = streamAttach(inv, pod, visit.container, { stdin: o.interactive, tty: o.tty, quiet: o.quiet, commandName: 'kubectl attach' }, o.write, '');
	return streamed === 'interrupted' ? 130 : 0;
}

function run(inv: KubectlInvocation): CommandResult {
	const chunks: Array<{ fd: 1 | 2; text: string }> = [];
	const write = (fd: 1 | 2, text: string) => {
		if (text) chunks.push({ fd, text });
	};
	const fail = (error: KubectlError): CommandResult => {
		const failed = checkErr(error);
		write(2, failed.stderr);
		return chunkedResult(chunks, failed.exitCode);
	};
	const completed = options(inv, write);
	if ('error' in completed) return fail(completed.error);
	const { o, targets } = completed;
	for (const target of targets) {
		// ResourceNames("pods", ...): NAME is a pod, TYPE/NAME anything kubectl knows.
		const type = resolveResourceName(target);
		if (!type.ok) return fail(plain(type.error));
		const got = inv.client.get(refOf(type.info), type.info.namespaced ? inv.namespace : undefined, type.name);
		if (!got.ok) return fail(callError(got, inv.env.serverUrl));
		let visit: Visit;
		if (type.info.group === '' && type.info.resource === 'nodes') visit = visitNode(inv, o, got.object as unknown as Node);
		else if (type.info.group === '' && type.info.resource === 'pods') visit = o.copyTo ? debugByCopy(inv, o, got.object as unknown as Pod) : debugByEphemeralContainer(inv, o, got.object as unknown as Pod);
		else visit = { error: plain(`"${type.info.group ? `${type.info.group}/` : '/'}${type.info.version}, Kind=${type.info.kind}" not supported by debug`) };
		if ('error' in visit) return fail(visit.error);
		if (o.attach && visit.container) {
			const code = attachTo(inv, o, visit);
			if (code !== 0) return chunkedResult(chunks, code);
		}
	}
	return chunkedResult(chunks, 0);
}

export const debugCommand: KubectlCommand = {
	name: 'debug',
	summary: 'Create debugging sessions for troubleshooting workloads and nodes',
	usage: 'kubectl debug (POD | TYPE[[.VERSION].GROUP]/NAME) [ -- COMMAND [args...] ]',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'arguments-only', kind: 'bool' },
		{ name: 'attach', kind: 'bool' },
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'copy-to', kind: 'string' },
		{ name: 'replace', kind: 'bool' },
		{ name: 'env', kind: 'stringArray' },
		{ name: 'image', kind: 'string' },
		{ name: 'keep-labels', kind: 'bool' },
		{ name: 'keep-annotations', kind: 'bool' },
		{ name: 'keep-liveness', kind: 'bool' },
		{ name: 'keep-readiness', kind: 'bool' },
		{ name: 'keep-startup', kind: 'bool' },
		{ name: 'keep-init-containers', kind: 'bool', default: true },
		{ name: 'set-image', kind: 'stringArray' },
		{ name: 'image-pull-policy', kind: 'string' },
		{ name: 'stdin', short: 'i', kind: 'bool' },
		{ name: 'quiet', short: 'q', kind: 'bool' },
		{ name: 'same-node', kind: 'bool' },
		{ name: 'share-processes', kind: 'bool', default: true },
		{ name: 'target', kind: 'string' },
		{ name: 'tty', short: 't', kind: 'bool' },
		{ name: 'profile', kind: 'string', default: 'general' },
		{ name: 'custom', kind: 'string' },
	],
	run,
};
