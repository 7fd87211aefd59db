/**
 * The runtime manager's sync of a running pod: what to do given the pod's
 * spec and what the runtime lists for it. No ready sandbox: create one
 * (once the volumes are set up), or, for a pod whose containers are all
 * done and will not restart, tear the sandbox down. Then the init
 * containers one at a time in order (sidecars started and kept running),
 * then the app containers, each restarted per the restart policy behind
 * the crash-loop back-off, or replaced when its image changed; then the
 * ephemeral containers `kubectl debug` added, each started once and left
 * alone after it exits. A pod whose containers are all done starts none.
 *
 * Mirrors pkg/kubelet/kuberuntime/kuberuntime_manager.go (computePodActions,
 * SyncPod, doBackOff, createPodSandbox; EphemeralContainersToStart).
 */
import { podDnsConfig } from './network-dns.ts';
import type { Container, KubeObject } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { criErrorText, type ContainerInfo, type SandboxInfo } from '../cri-api/cri.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import { backoffGet, backoffNext, CRASH_LOOP_BACKOFF, isInBackOffSince } from './backoff.ts';
import { withDefaultTag } from './image-manager.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { volumesReady } from './kubelet-volumes.ts';
import { killContainer, restartPolicy, startContainer } from './kuberuntime-container.ts';
import { attemptsOf, isRestartableInit, shouldRestart } from './pod-status.ts';
import { POD_WORKER_BACKOFF_MS, requestSync, type PodWorker } from './pod-workers.ts';

/** The crash-loop back-off key of a container: `<pod>_<namespace>_<uid>_<container>` (getStableKey, without the container hash). */
function crashKey(w: PodWorker, container: string): string {
	return `${w.pod.metadata.name}_${w.pod.metadata.namespace}_${w.uid}_${container}`;
}

export function syncRunning(ctx: KubeletContext, w: PodWorker, sandboxes: SandboxInfo[], containers: ContainerInfo[]): void {
	if (w.op) return;
	const pod = w.pod;
	const ready = sandboxes.filter((s) => s.state === 'SANDBOX_READY').sort((a, b) => b.attempt - a.attempt)[0];
	if (!ready) {
		if (podIsDone(w, containers)) return finishCompletedPod(ctx, w, sandboxes, containers);
		if (!volumesReady(ctx, w)) return;
		const attempt = sandboxes.length ? Math.max(...sandboxes.map((s) => s.attempt)) + 1 : 0;
		if (sandboxes.length) ctx.podEvent(w, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
		const hostNetwork = pod.spec.hostNetwork === true;
		const handler = lookupRuntimeHandler(ctx, (pod.spec as { runtimeClassName?: string }).runtimeClassName);
		if (!handler.ok) {
			ctx.podEvent(w, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${handler.error}`);
			// The sync fails: the pod worker retries after its back-off, and the event repeats.
			requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
			return;
		}
		const op = ctx.runtime.runPodSandbox(
			{
				podName: pod.metadata.name ?? '',
				namespace: pod.metadata.namespace ?? 'default',
				podUid: w.uid,
				attempt,
				hostname: hostNetwork ? ctx.nodeName : (pod.spec.hostname ?? pod.metadata.name ?? ''),
				hostNetwork,
				labels: { ...(pod.metadata.labels ?? {}), 'io.kubernetes.pod.name': pod.metadata.name ?? '', 'io.kubernetes.pod.namespace': pod.metadata.namespace ?? '', 'io.kubernetes.pod.uid': w.uid },
				annotations: { ...(pod.metadata.annotations ?? {}) },
				dnsConfig: podDnsConfig(pod, { clusterDNS: ctx.config.clusterDNS, clusterDomain: ctx.config.clusterDomain, hostResolvConf: ctx.deps.hostFile?.(ctx.config.resolvConf) }),
				...(handler.handler ? { runtimeHandler: handler.handler } : {}),
			},
			ctx.id,
		);
		if (!op.ok) {
			ctx.podEvent(w, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${criErrorText(op.error)}`);
			// Refused (an unknown runtime handler): retried after the pod worker's back-off. An unreachable runtime stops pod
			// syncs altogether until it answers again (the kubelet's runtime-state check), so that one is not retried here.
			if (op.error.code !== 'Unavailable') requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
			return;
		}
		w.op = { opId: op.value.opId, kind: 'sandbox' };
		return;
	}
	w.sandboxId = ready.id;
	w.podIp = ready.ip;
	if (podIsDone(w, containers)) return finishCompletedPod(ctx, w, sandboxes, containers);
	if (!volumesReady(ctx, w)) return;
	const policy = restartPolicy(w);
	// Init containers, one at a time, in order.
	for (const c of pod.spec.initContainers ?? []) {
		const [latest] = attemptsOf(containers, c.name);
		if (isRestartableInit(c)) {
			// A sidecar: start it, go on once it runs, restart it whenever it stops.
			if (latest && latest.state !== 'CONTAINER_EXITED') continue;
			if (latest && !restartAllowed(ctx, w, c, latest, true)) continue;
			if (startContainer(ctx, w, c, latest, true) === 'pending') {
				if (latest) w.restartNow[c.name] = true;
				return;
			}
			continue;
		}
		if (latest?.state === 'CONTAINER_EXITED' && (latest.exitCode ?? 0) === 0) continue;
		if (latest && latest.state !== 'CONTAINER_EXITED') return;
		if (latest && policy === 'Never') return;
		if (latest && !restartAllowed(ctx, w, c, latest, true)) return;
		if (startContainer(ctx, w, c, latest, true) === 'pending' && latest) w.restartNow[c.name] = true;
		return;
	}
	for (const c of pod.spec.containers) {
		const [latest] = attemptsOf(containers, c.name);
		if (latest && latest.state === 'CONTAINER_RUNNING' && !w.restartNow[c.name]) {
			// A pod's container image may be updated in place: the kubelet replaces the container.
			const wanted = withDefaultTag(c.image ?? '');
			if (wanted.ok && wanted.image !== latest.imageRef) killContainer(ctx, w, c, latest, `Container ${c.name} definition changed, will be restarted`, w.pod.spec.terminationGracePeriodSeconds ?? 30);
			continue;
		}
		if (latest && latest.state !== 'CONTAINER_EXITED') continue;
		if (latest && !shouldRestart(pod, false, latest, false)) continue;
		if (latest && !restartAllowed(ctx, w, c, latest, false)) continue;
		if (startContainer(ctx, w, c, latest, false) === 'pending') {
			// Upstream pulls inside the SyncPod that allowed the restart; here the pull ends in a later sync, which must not
			// ask the back-off again (it would find the entry this sync just made and back off a first crash).
			if (latest) w.restartNow[c.name] = true;
			return;
		}
	}
	// Ephemeral containers: each started once, in the running pod's sandbox (so on its network), never restarted.
	for (const c of pod.spec.ephemeralContainers ?? []) {
		if (attemptsOf(containers, c.name).length > 0) continue;
		if (startContainer(ctx, w, c, undefined, false) === 'pending') return;
	}
}

/** Crash-loop back-off for restarting `latest`'s container (kuberuntime_manager.go doBackOff). */
function restartAllowed(ctx: KubeletContext, w: PodWorker, c: Container, latest: ContainerInfo, isInit: boolean): boolean {
	if (w.restartNow[c.name]) {
		delete w.restartNow[c.name];
		return true;
	}
	const key = crashKey(w, c.name);
	const finished = (latest.finishedWallMs ?? ctx.wallMs()) - ctx.epochMs;
	if (isInBackOffSince(ctx.state.crashBackoff, CRASH_LOOP_BACKOFF, key, finished, ctx.nowMs)) {
		const delay = backoffGet(ctx.state.crashBackoff, key);
		const podRef = `${w.pod.metadata.name}_${w.pod.metadata.namespace}(${w.uid})`;
		// Cached after this sync's status was built (see WaitingReason.fresh): the crash shows as Terminated until the next sync.
		const before = w.waiting[c.name];
		const fresh = before?.reason === 'CrashLoopBackOff' ? {} : { fresh: true, ...(before ? { previous: { reason: before.reason, ...(before.message ? { message: before.message } : {}) } } : {}) };
		w.waiting[c.name] = { reason: 'CrashLoopBackOff', message: `back-off ${formatGoDurationMs(delay)} restarting failed container=${c.name} pod=${podRef}`, ...fresh };
		ctx.podEvent(w, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podRef}`, c.name, isInit);
		ctx.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `failed to "StartContainer" for "${c.name}" with CrashLoopBackOff: "back-off ${formatGoDurationMs(delay)} restarting failed container=${c.name} pod=${podRef}"`, pod: keyOf(w.pod), podUID: w.uid });
		// The sync fails with ErrCrashLoopBackOff: the pod worker retries after its 10 s back-off (backOffPeriod), or when
		// the crash-loop back-off expires if that comes first. Each retry in back-off records the BackOff event again.
		requestSync(ctx, w, Math.min(POD_WORKER_BACKOFF_MS, finished + delay - ctx.nowMs), true);
		return false;
	}
	backoffNext(ctx.state.crashBackoff, CRASH_LOOP_BACKOFF, key, finished, ctx.nowMs);
	return true;
}

/** Whether all containers of a pod that does not restart them are done (restartPolicy Never/OnFailure). */
function podIsDone(w: PodWorker, containers: ContainerInfo[]): boolean {
	const policy = restartPolicy(w);
	if (policy === 'Always') return false;
	const init = w.pod.spec.initContainers ?? [];
	// A failed init container ends a Never pod.
	if (policy === 'Never' && init.some((c) => attemptsOf(containers, c.name)[0]?.state === 'CONTAINER_EXITED' && (attemptsOf(containers, c.name)[0].exitCode ?? 0) !== 0)) return true;
	return w.pod.spec.containers.every((c) => {
		const [latest] = attemptsOf(containers, c.name);
		return latest !== undefined && latest.state === 'CONTAINER_EXITED' && !shouldRestart(w.pod, false, latest, false);
	});
}

/** A pod that finished by itself: its sandbox is torn down (IP released), the containers stay for logs. */
function finishCompletedPod(ctx: KubeletContext, w: PodWorker, sandboxes: SandboxInfo[], containers: ContainerInfo[]): void {
	void containers;
	for (const s of sandboxes) if (s.state === 'SANDBOX_READY') ctx.runtime.stopPodSandbox(s.id);
	if (!w.terminated) ctx.log('I', 'kubelet.go:2100', 'Pod finished; its sandbox was stopped', { pod: keyOf(w.pod), podUID: w.uid });
	w.terminated = true;
}

/**
 * runtimeclass.Manager.LookupRuntimeHandler: the handler of the Pod's
 * RuntimeClass (none named: the runtime's default), or why the sandbox
 * cannot be made.
 */
function lookupRuntimeHandler(ctx: KubeletContext, name: string | undefined): { ok: true; handler: string } | { ok: false; error: string } {
	if (!name) return { ok: true, handler: '' };
	const got = ctx.client.get<{ handler?: string } & KubeObject>(R.runtimeclasses, undefined, name);
	if (got.ok) return { ok: true, handler: got.object.handler ?? '' };
	// The RuntimeClass lister's NotFound names the singular resource.
	return { ok: false, error: got.code === 404 ? `runtimeclass.node.k8s.io ${JSON.stringify(name)} not found` : `failed to lookup RuntimeClass ${name}: ${got.message}` };
}
