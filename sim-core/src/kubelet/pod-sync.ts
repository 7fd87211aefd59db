/**
 * One sync of one pod worker: admission the first time (a rejected pod is
 * terminal at once), then, with what the runtime lists for the pod, either
 * the runtime manager's steps towards the spec or the termination of a
 * pod being deleted or gone from its source: its containers stopped with
 * what remains of the grace period, its sandbox stopped, and once it left
 * its source, everything it had on the node removed. Each sync ends with
 * the status written and the probes scheduled.
 *
 * Mirrors pkg/kubelet/kubelet.go (SyncPod, SyncTerminatingPod,
 * SyncTerminatedPod, canAdmitPod), pkg/kubelet/lifecycle/predicate.go,
 * pkg/kubelet/kuberuntime/kuberuntime_container.go (the grace period rules
 * of killContainer), pkg/kubelet/pod_workers.go (completeWork: the network
 * back-off).
 */
import type { Pod } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { criErrorText, type ContainerInfo, type SandboxInfo } from '../cri-api/cri.ts';
import { formatRfc3339, parseRfc3339 } from '../golang/time.ts';
import { admitPod } from './admission.ts';
import { evictionAdmit } from './eviction-manager.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { MINIMUM_GRACE_PERIOD_S } from './kuberuntime-container.ts';
import { syncRunning } from './kuberuntime-manager.ts';
import { POD_WORKER_BACKOFF_MS, requestSync, type PodWorker } from './pod-workers.ts';
import { createProbeWorkers, scheduleProbeTick } from './prober-manager.ts';
import { isMirrorPod } from './static-pods.ts';
import { writeStatus } from './status-manager.ts';
import { DEADLINE_EXCEEDED_MESSAGE, DEADLINE_EXCEEDED_REASON } from './pod-status.ts';
import { podDir } from './volumes/paths.ts';

/** kubelet.go NetworkNotReadyErrorMsg: the prefix of the error (and event) of a pod that waits for the network. */
export const NETWORK_NOT_READY_ERROR_MSG = 'network is not ready';
/** pod_workers.go backOffOnTransientErrorPeriod: a sync that failed on the network is retried after 1 s. */
const BACK_OFF_ON_TRANSIENT_ERROR_MS = 1_000;

/**
 * The active deadline handler: once `activeDeadlineSeconds` have passed since
 * the Pod's start time, the Pod is to stop and end Failed (ShouldEvict). Until
 * then a sync is asked for at the deadline, so a lowered deadline is noticed
 * when the Pod's update arrives and met on time.
 */
function checkActiveDeadline(ctx: KubeletContext, w: PodWorker): void {
	const seconds = w.pod.spec.activeDeadlineSeconds;
	if (seconds === undefined || !w.startTime || w.deadlineExceeded) return;
	const remainingMs = parseRfc3339(w.startTime) + seconds * 1000 - ctx.wallMs();
	if (remainingMs > 0) {
		requestSync(ctx, w, remainingMs, true);
		return;
	}
	w.deadlineExceeded = true;
	ctx.emit({ action: 'deadline', object: `pods/${keyOf(w.pod)}`, msg: `${keyOf(w.pod)} passed its active deadline of ${seconds}s` });
	ctx.podEvent(w, 'Normal', DEADLINE_EXCEEDED_REASON, DEADLINE_EXCEEDED_MESSAGE);
}

/** The pods this node runs, for admission (admitted, not finished). */
function activePods(ctx: KubeletContext, except: string): Pod[] {
	return Object.values(ctx.state.pods)
		.filter((w) => w.uid !== except && w.admitted && !w.rejected && !w.terminated)
		.map((w) => w.pod);
}

export function syncPod(ctx: KubeletContext, w: PodWorker): void {
	if (w.rejected) {
		// A rejected pod is terminal at once: nothing runs, and a deletion completes without waiting.
		w.terminated = true;
		if (w.removedFromSource) delete ctx.state.pods[w.uid];
		else writeStatus(ctx, w);
		return;
	}
	if (!w.admitted && !w.removedFromSource && !w.pod.metadata.deletionTimestamp) {
		const admitted = admitPod(w.pod, ctx.getNodeAnyWay(), activePods(ctx, w.uid));
		// The eviction manager's admit handler runs after the resource and predicate checks.
		const result = admitted.admit ? evictionAdmit(ctx, w.pod) : admitted;
		w.startTime ??= formatRfc3339(ctx.wallMs());
		if (!result.admit) {
			ctx.emit({ action: 'reject', object: `pods/${keyOf(w.pod)}`, msg: `rejected ${keyOf(w.pod)}: ${result.reason}` });
			w.rejected = { reason: result.reason, message: result.message };
			w.terminated = true;
			ctx.log('I', 'kubelet.go:2579', 'Pod rejected by admission', { pod: keyOf(w.pod), reason: result.reason, message: result.message });
			ctx.podEvent(w, 'Warning', result.reason, result.message);
			writeStatus(ctx, w);
			return;
		}
		w.admitted = true;
		ctx.emit({ action: 'admit', object: `pods/${keyOf(w.pod)}`, msg: `admitted ${keyOf(w.pod)} (${w.source === 'file' ? 'static pod' : 'from the API'})` });
		createProbeWorkers(ctx, w);
	}
	const sandboxes = ctx.runtime.listPodSandbox({ podUid: w.uid });
	const containers = ctx.runtime.listContainers({ podUid: w.uid });
	if (!sandboxes.ok || !containers.ok) {
		const error = !sandboxes.ok ? sandboxes.error : !containers.ok ? containers.error : undefined;
		ctx.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: error ? criErrorText(error) : '', pod: keyOf(w.pod), podUID: w.uid });
		// The runtime is away: try again after the pod worker's back-off (its return also resyncs every pod).
		requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
		return;
	}
	if (!w.terminated && !w.evicted) checkActiveDeadline(ctx, w);
	const terminating = w.removedFromSource || w.pod.metadata.deletionTimestamp || w.terminated || w.evicted || w.deadlineExceeded;
	// The network plugin is not ready: only a host-network pod may go on (SyncPod's networkErrors check). The status is
	// written, the event recorded, and the worker retries after backOffOnTransientErrorPeriod rather than the usual back-off.
	const networkError = ctx.state.runtime.networkError;
	if (!terminating && networkError && w.pod.spec.hostNetwork !== true) {
		ctx.podEvent(w, 'Warning', 'NetworkNotReady', `${NETWORK_NOT_READY_ERROR_MSG}: ${networkError}`);
		ctx.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `${NETWORK_NOT_READY_ERROR_MSG}: ${networkError}`, pod: keyOf(w.pod), podUID: w.uid });
		writeStatus(ctx, w);
		requestSync(ctx, w, BACK_OFF_ON_TRANSIENT_ERROR_MS, true);
		return;
	}
	if (terminating) syncTerminating(ctx, w, sandboxes.value, containers.value);
	else syncRunning(ctx, w, sandboxes.value, containers.value);
	if (ctx.state.pods[w.uid]) {
		writeStatus(ctx, w);
		// The reason cache is updated after the status was built: what this sync found shows from the next status on.
		for (const reason of Object.values(w.waiting)) {
			delete reason.fresh;
			delete reason.previous;
		}
		scheduleProbeTick(ctx, w);
	}
}

/** The grace period to stop the pod with: what remains of the deletion grace, at least 2 s. */
function terminationGrace(ctx: KubeletContext, w: PodWorker): number {
	const meta = w.pod.metadata;
	const specGrace = w.pod.spec.terminationGracePeriodSeconds ?? 30;
	// A hard eviction overrides the grace period with 1 s, a soft one with evictionMaxPodGracePeriod at most: the kubelet's minimum applies to both.
	if (w.evicted) return Math.max(MINIMUM_GRACE_PERIOD_S, w.evicted.gracePeriodSeconds);
	if (meta.deletionTimestamp) {
		const deadline = parseRfc3339(meta.deletionTimestamp);
		const remaining = Math.ceil((deadline - ctx.wallMs()) / 1000);
		const requested = meta.deletionGracePeriodSeconds ?? specGrace;
		return Math.max(MINIMUM_GRACE_PERIOD_S, Number.isNaN(remaining) ? requested : Math.min(requested, remaining));
	}
	return Math.max(MINIMUM_GRACE_PERIOD_S, specGrace);
}

/** syncTerminatingPod + the status manager's final delete, then cleanup once the pod is gone. */
function syncTerminating(ctx: KubeletContext, w: PodWorker, sandboxes: SandboxInfo[], containers: ContainerInfo[]): void {
	const running = containers.filter((c) => c.state !== 'CONTAINER_EXITED');
	if (!w.terminated && !w.termination && (running.length > 0 || w.op)) {
		const grace = terminationGrace(ctx, w);
		w.termination = { startedMs: ctx.nowMs, gracePeriodS: grace };
		w.op = undefined;
		ctx.emit({ action: 'kill', object: `pods/${keyOf(w.pod)}`, msg: `stopping ${running.length} container(s) of ${keyOf(w.pod)} with a ${grace}s grace period` });
		for (const c of running) {
			const isInit = (w.pod.spec.initContainers ?? []).some((x) => x.name === c.name);
			ctx.podEvent(w, 'Normal', 'Killing', `Stopping container ${c.name}`, c.name, isInit);
			ctx.log('I', 'kuberuntime_container.go:809', 'Stopping the container with a grace period', { pod: keyOf(w.pod), podUID: w.uid, containerName: c.name, containerID: `containerd://${c.id}`, gracePeriod: grace });
			ctx.runtime.stopContainer(c.id, grace);
		}
	} else if (w.termination) {
		// A shorter grace (a second delete) shortens the wait.
		const grace = terminationGrace(ctx, w);
		if (grace < w.termination.gracePeriodS - (ctx.nowMs - w.termination.startedMs) / 1000) {
			w.termination.gracePeriodS = grace;
			for (const c of running) ctx.runtime.stopContainer(c.id, grace);
		}
	}
	if (running.length > 0) return;
	w.op = undefined;
	for (const s of sandboxes) if (s.state === 'SANDBOX_READY') ctx.runtime.stopPodSandbox(s.id);
	if (!w.terminated) ctx.log('I', 'kubelet.go:2100', 'Pod terminated; all its containers stopped', { pod: keyOf(w.pod), podUID: w.uid });
	w.terminated = true;
	if (w.removedFromSource) {
		for (const s of sandboxes) ctx.runtime.removePodSandbox(s.id);
		if (w.source === 'file') {
			const mirror = ctx.podInformer.get(keyOf(w.pod)) as Pod | undefined;
			if (mirror && isMirrorPod(mirror)) ctx.client.delete(R.pods, mirror.metadata.namespace, mirror.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: mirror.metadata.uid } });
		}
		delete ctx.state.pods[w.uid];
		// Volumes are torn down and the pod's directory removed (cleanupOrphanedPodDirs).
		ctx.deps.disk?.remove(podDir(w.uid));
		for (const table of [ctx.state.crashBackoff, ctx.state.imageBackoff, ctx.state.lastPullError]) for (const key of Object.keys(table)) if (key.includes(w.uid)) delete table[key];
		ctx.log('I', 'kubelet.go:2178', 'Pod removed from the node', { pod: keyOf(w.pod), podUID: w.uid });
	}
}
