/**
 * What the kubelet's HTTPS server (port 10250) answers for `kubectl logs`
 * and `kubectl exec`, as the API server forwards them: which container's
 * log to read given the pod's status (`--previous` reads the last
 * terminated one), and the errors kubectl prints when there is none. The
 * handlers find the pod by name (a static pod by its mirror pod's name),
 * pick the container (the default-container annotation, or the only one),
 * and read its log or run the command through the runtime; a stopped
 * kubelet refuses the connection.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (validateContainerLogStatus,
 * GetKubeletContainerLogs), pkg/kubelet/server/server.go (getContainerLogs,
 * getExec), pkg/kubelet/kubelet_getters.go (GetPodByName).
 */
import type { PodStatus } from '../api/types.ts';
import { utf8Decode, utf8Encode } from '../golang/utf8.ts';
import { criErrorMessage, criErrorText } from '../cri-api/cri.ts';
import { formatRfc3339Micro, parseRfc3339 } from '../golang/time.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { attemptsOf } from './pod-status.ts';
import type { PodWorker } from './pod-workers.ts';
import { podStatus } from './status-manager.ts';

/** The result of a log or exec request, as the API server relays it. */
export type ServeResult<T> = { ok: true; value: T } | { ok: false; code: number; reason: string; message: string };

export function badRequest<T>(message: string): ServeResult<T> {
	return { ok: false, code: 400, reason: 'BadRequest', message };
}

export function notFound<T>(message: string): ServeResult<T> {
	return { ok: false, code: 404, reason: 'NotFound', message };
}

/**
 * Picks the container id whose log answers a logs request, or the error
 * kubectl shows (`container "x" in pod "y" is waiting to start: ContainerCreating`).
 */
export function logContainerId(podName: string, status: PodStatus, containerName: string, previous: boolean): { ok: true; containerId: string } | { ok: false; message: string } {
	// validateContainerLogStatus: the app, init and ephemeral (kubectl debug) containers all have logs.
	const all = [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? []), ...(status.ephemeralContainerStatuses ?? [])];
	const s = all.find((c) => c.name === containerName);
	if (!s) return { ok: false, message: `container "${containerName}" in pod "${podName}" is not available` };
	const strip = (id: string | undefined) => (id ?? '').replace(/^containerd:\/\//, '');
	const last = s.lastState?.terminated;
	const state = s.state ?? {};
	if (previous) {
		if (!last || !last.containerID) return { ok: false, message: `previous terminated container "${containerName}" in pod "${podName}" not found` };
		return { ok: true, containerId: strip(last.containerID) };
	}
	if (state.running) return { ok: true, containerId: strip(s.containerID) };
	if (state.terminated) {
		if (state.terminated.containerID) return { ok: true, containerId: strip(state.terminated.containerID) };
		if (last?.containerID) return { ok: true, containerId: strip(last.containerID) };
		return { ok: false, message: `container "${containerName}" in pod "${podName}" is terminated` };
	}
	if (last) {
		if (!last.containerID) return { ok: false, message: `container "${containerName}" in pod "${podName}" is terminated` };
		return { ok: true, containerId: strip(last.containerID) };
	}
	if (state.waiting) {
		const reason = state.waiting.reason ?? '';
		if (reason === 'ErrImagePull') return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start: image can't be pulled` };
		if (reason === 'ImagePullBackOff') return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start: trying and failing to pull image` };
		return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start: ${reason}` };
	}
	return { ok: false, message: `container "${containerName}" in pod "${podName}" is waiting to start - no logs yet` };
}

/** The pod worker for `namespace/name` (API pods, or static pods by their mirror name). */
function workerByName(ctx: KubeletContext, namespace: string, name: string): PodWorker | undefined {
	return Object.values(ctx.state.pods).find((w) => w.pod.metadata.namespace === namespace && w.pod.metadata.name === name && !w.removedFromSource);
}

function pickContainer(w: PodWorker, container: string | undefined): ServeResult<string> {
	const all = [...(w.pod.spec.initContainers ?? []), ...w.pod.spec.containers, ...(w.pod.spec.ephemeralContainers ?? [])].map((c) => c.name);
	if (container) return all.includes(container) ? { ok: true, value: container } : badRequest(`container ${container} is not valid for pod ${w.pod.metadata.name}`);
	const annotated = w.pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
	if (annotated && all.includes(annotated)) return { ok: true, value: annotated };
	if (w.pod.spec.containers.length === 1) return { ok: true, value: w.pod.spec.containers[0].name };
	return badRequest(`a container name must be specified for pod ${w.pod.metadata.name}, choose one of: [${w.pod.spec.containers.map((c) => c.name).join(' ')}]`);
}

/** What a containerLogs request asks for (PodLogOptions as the kubelet reads it). */
export interface LogOptions {
	tailLines?: number;
	previous?: boolean;
	timestamps?: boolean;
	sinceSeconds?: number;
	sinceTime?: string;
	/** Stop after this many bytes, wherever that falls (even inside a line). */
	limitBytes?: number;
}

/**
 * GET /containerLogs/<ns>/<pod>/<container>: what `kubectl logs` prints.
 * Lines end with a newline; `timestamps` prefixes each with its RFC 3339 time.
 */
export function serveLog(ctx: KubeletContext, namespace: string, pod: string, container: string | undefined, options: LogOptions = {}): ServeResult<string> {
	if (!ctx.isRunning()) return { ok: false, code: 500, reason: '', message: `Get "https://${ctx.deps.nodeIp}:10250/containerLogs/${namespace}/${pod}/${container ?? ''}": dial tcp ${ctx.deps.nodeIp}:10250: connect: connection refused` };
	const w = workerByName(ctx, namespace, pod);
	if (!w) return notFound(`pod "${pod}" not found`);
	const picked = pickContainer(w, container);
	if (!picked.ok) return picked;
	const chosen = logContainerId(pod, podStatus(ctx, w), picked.value, options.previous === true);
	if (!chosen.ok) return badRequest(chosen.message);
	const logs = ctx.runtime.readLogs(chosen.containerId, { tailLines: options.tailLines });
	if (!logs.ok) return { ok: false, code: 500, reason: 'InternalError', message: criErrorText(logs.error) };
	// The tail is found first, then lines older than `since` are skipped (kuberuntime ReadLogs); sinceSeconds counts back from the node's clock.
	const since = options.sinceTime !== undefined ? parseRfc3339(options.sinceTime) : options.sinceSeconds !== undefined ? ctx.wallMs() - options.sinceSeconds * 1000 : undefined;
	const text = logs.value.filter((l) => since === undefined || Number.isNaN(since) || l.wallMs >= since).map((l) => `${options.timestamps ? `${formatRfc3339Micro(l.wallMs).replace(/Z$/, '000Z')} ` : ''}${l.text}${l.partial ? '' : '\n'}`).join('');
	// limitBytes: the log writer stops after that many bytes (kuberuntime logs.go LogOptions.bytes).
	if (options.limitBytes !== undefined && options.limitBytes > 0) {
		const bytes = utf8Encode(text);
		if (bytes.length > options.limitBytes) return { ok: true, value: utf8Decode(bytes.slice(0, options.limitBytes)) };
	}
	return { ok: true, value: text };
}

/** POST /exec/<ns>/<pod>/<container>: runs a command in a running container (kubectl exec), with the stream's standard input when `-i` sent one. */
export function exec(ctx: KubeletContext, namespace: string, pod: string, container: string | undefined, argv: string[], stdin?: string): ServeResult<{ exitCode: number; stdout: string; stderr: string }> {
	if (!ctx.isRunning()) return { ok: false, code: 500, reason: '', message: `error dialing backend: dial tcp ${ctx.deps.nodeIp}:10250: connect: connection refused` };
	const w = workerByName(ctx, namespace, pod);
	if (!w) return notFound(`pod "${pod}" not found`);
	const picked = pickContainer(w, container);
	if (!picked.ok) return picked;
	const containers = ctx.runtime.listContainers({ podUid: w.uid });
	if (!containers.ok) return { ok: false, code: 500, reason: 'InternalError', message: criErrorText(containers.error) };
	const [latest] = attemptsOf(containers.value, picked.value);
	if (!latest || latest.state !== 'CONTAINER_RUNNING') return badRequest(`unable to upgrade connection: container not found ("${picked.value}")`);
	const result = ctx.runtime.execSync(latest.id, argv, 0, stdin);
	if (!result.ok) return { ok: false, code: 500, reason: 'InternalError', message: `Internal error occurred: error executing command in container: ${criErrorMessage(result.error)}` };
	return { ok: true, value: result.value };
}
