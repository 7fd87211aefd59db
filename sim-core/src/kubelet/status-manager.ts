/**
 * The kubelet's status manager: the status the kubelet would report for a
 * pod now, written through pods/status when it differs from the API's
 * (to the mirror pod for a static pod), retried on its sync when the write
 * fails; and, once a deleted API pod has terminated, the final delete with
 * grace period 0 that removes it from the API.
 *
 * Mirrors pkg/kubelet/status/status_manager.go (SetPodStatus, syncPod,
 * canBeDeleted), pkg/kubelet/kubelet_pods.go (generateAPIPodStatus, through
 * ./pod-status.ts).
 */
import type { Pod, PodStatus } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import type { ContainerInfo } from '../cri-api/cri.ts';
import { deepCopy } from '../golang/json.ts';
import { utf8Decode, utf8Encode } from '../golang/utf8.ts';
import { formatRfc3339 } from '../golang/time.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON, evictedPodStatus, generatePodStatus, rejectedPodStatus } from './pod-status.ts';
import { requestSync, type PodWorker } from './pod-workers.ts';
import { probeOk } from './prober.ts';
import { CONFIG_MIRROR_ANNOTATION, isMirrorPod } from './static-pods.ts';

/** The API object a pod's status goes to: the pod itself, or the mirror pod of a static pod. */
function statusTarget(ctx: KubeletContext, w: PodWorker): Pod | undefined {
	const cached = ctx.podInformer.get(keyOf(w.pod)) as Pod | undefined;
	if (!cached) return undefined;
	if (w.source === 'api') return cached.metadata.uid === w.uid ? cached : undefined;
	return isMirrorPod(cached) && cached.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] === w.uid ? cached : undefined;
}

/** kubecontainer.MaxContainerTerminationMessageLength: what is read of the file, from its end. */
const MAX_TERMINATION_MESSAGE_BYTES = 4096;
/** MaxContainerTerminationMessageLogLines and MaxContainerTerminationMessageLogLength: what is read of the log. */
const MAX_TERMINATION_MESSAGE_LOG_LINES = 80;
const MAX_TERMINATION_MESSAGE_LOG_BYTES = 2048;

/** The last `max` bytes of a text (tail.ReadAtMost, circbuf). */
function lastBytes(text: string, max: number): string {
	const bytes = utf8Encode(text);
	return bytes.length <= max ? text : utf8Decode(bytes.slice(bytes.length - max));
}

/**
 * An exited container's termination message (getTerminationMessage): what
 * it wrote to the file at terminationMessagePath, or, under
 * FallbackToLogsOnError when it failed and wrote nothing there, the tail of
 * its log; appended to the runtime's own message after `: `.
 */
function withTerminationMessage(ctx: KubeletContext, w: PodWorker, c: ContainerInfo): ContainerInfo {
	if (c.state !== 'CONTAINER_EXITED') return c;
	const spec = [...(w.pod.spec.initContainers ?? []), ...w.pod.spec.containers, ...(w.pod.spec.ephemeralContainers ?? [])].find((x) => x.name === c.name);
	const fallback = spec?.terminationMessagePolicy === 'FallbackToLogsOnError' && (c.exitCode ?? 0) !== 0 && c.reason !== 'ContainerCannotRun';
	const hostPath = w.terminationMessageFiles?.[c.id];
	let message = '';
	let checkLogs = fallback;
	if (hostPath && ctx.deps.disk?.exists(hostPath)) {
		message = lastBytes(ctx.deps.disk.readFile(hostPath) ?? '', MAX_TERMINATION_MESSAGE_BYTES);
		checkLogs = fallback && message.length === 0;
	}
	if (checkLogs) {
		const logs = ctx.runtime.readLogs(c.id, { tailLines: MAX_TERMINATION_MESSAGE_LOG_LINES });
		message = logs.ok ? lastBytes(logs.value.map((l) => (l.partial ? l.text : `${l.text}\n`)).join(''), MAX_TERMINATION_MESSAGE_LOG_BYTES) : '';
	}
	if (!message) return c;
	return { ...c, message: c.message ? `${c.message}: ${message}` : message };
}

/** The status the kubelet would report for `w` now. */
export function podStatus(ctx: KubeletContext, w: PodWorker): PodStatus {
	const startTime = w.startTime ?? formatRfc3339(ctx.wallMs());
	if (w.rejected) return rejectedPodStatus(w.pod, w.rejected.reason, w.rejected.message, startTime);
	const containers = ctx.runtime.listContainers({ podUid: w.uid });
	const sandboxes = ctx.runtime.listPodSandbox({ podUid: w.uid });
	const ready = sandboxes.ok && sandboxes.value.some((s) => s.state === 'SANDBOX_READY' && s.id === w.sandboxId);
	const target = statusTarget(ctx, w);
	const status = generatePodStatus({
		pod: w.pod,
		previous: target?.status,
		now: formatRfc3339(ctx.wallMs()),
		hostIp: ctx.deps.nodeIp,
		podIp: w.podIp,
		sandboxReady: ready,
		containers: containers.ok ? containers.value.map((c) => withTerminationMessage(ctx, w, c)) : [],
		waiting: w.waiting,
		ready: (name, id) => probeOk(w.probes, name, id, 'readiness'),
		started: (name, id) => probeOk(w.probes, name, id, 'startup'),
		startTime,
		terminal: w.terminated === true,
	});
	if (w.evicted) return evictedPodStatus(status, w.evicted.message, formatRfc3339(ctx.wallMs()), target?.status, !w.evicted.noDisruptionCondition);
	// The active deadline handler's ShouldEvict overrides phase, reason and message.
	if (w.deadlineExceeded) return { ...status, phase: 'Failed', reason: DEADLINE_EXCEEDED_REASON, message: DEADLINE_EXCEEDED_MESSAGE };
	return status;
}

/** Writes the pod's status through pods/status when it changed; then, for a finished deleted pod, deletes it. */
export function writeStatus(ctx: KubeletContext, w: PodWorker): void {
	const target = statusTarget(ctx, w);
	if (!target) return;
	const status = podStatus(ctx, w);
	const json = JSON.stringify(status);
	if (json !== w.lastStatusJson || JSON.stringify(target.status ?? {}) !== json) {
		// The informer's copy only stands for what was written when this kubelet has written nothing yet: while its watch
		// reconnects the copy can be older than our own last write, and adopting it would leave that write in place.
		if (JSON.stringify(target.status ?? {}) === json && w.lastStatusJson === undefined) w.lastStatusJson = json;
		else {
			const body: Pod = deepCopy(target);
			delete body.metadata.resourceVersion;
			body.status = status;
			const written = ctx.client.updateStatus<Pod>(R.pods, body);
			if (written.ok) {
				w.lastStatusJson = json;
				ctx.emit({ action: 'status', object: `pods/${body.metadata.namespace}/${body.metadata.name}`, msg: `pod status: ${status.phase}${status.containerStatuses ? ' ' + status.containerStatuses.map((c) => `${c.name}=${c.state?.running ? 'running' : c.state?.terminated ? 'terminated' : (c.state?.waiting?.reason ?? 'waiting')}`).join(',') : ''}` });
			} else if (written.code !== 404) {
				ctx.log('E', 'status_manager.go:919', 'Could not update the pod status; retrying', { pod: keyOf(w.pod), err: written.message });
				requestSync(ctx, w, ctx.config.statusRetryMs, true);
				return;
			}
		}
	}
	if (w.source === 'api' && w.terminated && target.metadata.deletionTimestamp && !w.finalDeleteSent && !w.removedFromSource) {
		w.finalDeleteSent = true;
		const deleted = ctx.client.delete(R.pods, target.metadata.namespace, target.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: w.uid } });
		if (deleted.ok || deleted.code === 404) ctx.log('I', 'status_manager.go:1043', 'Pod fully terminated and removed from the API', { pod: keyOf(w.pod), podUID: w.uid });
		else {
			w.finalDeleteSent = false;
			requestSync(ctx, w, ctx.config.statusRetryMs, true);
		}
	}
}

/**
 * syncBatch's reconcile, every 10 s: a Pod whose stored status differs from
 * what this kubelet last wrote was changed by someone else (the node
 * lifecycle controller marks Pods not Ready while their node is silent), so
 * the kubelet writes its own view again. Without it a Pod on a node that
 * came back stays Ready=False although its containers run and pass their
 * probes (status_manager.go needsReconcile).
 */
export function reconcileStatuses(ctx: KubeletContext): void {
	for (const w of Object.values(ctx.state.pods)) {
		if (w.lastStatusJson === undefined || w.terminated) continue;
		const target = statusTarget(ctx, w);
		if (target && JSON.stringify(target.status ?? {}) !== w.lastStatusJson) writeStatus(ctx, w);
	}
}
