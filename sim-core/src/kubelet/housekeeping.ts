/**
 * The kubelet's housekeeping, every 2 s: containers and sandboxes of pods
 * it no longer knows are stopped and removed, mirror pods are published
 * for the static pods (and removed when outdated or orphaned), and the
 * directories of pods it no longer runs are removed from the node.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (HandlePodCleanups),
 * pkg/kubelet/pod/mirror_client.go (CreateMirrorPod, DeleteMirrorPod).
 */
import type { Pod } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { cleanupOrphanedPodDirs } from './kubelet-volumes.ts';
import { MINIMUM_GRACE_PERIOD_S } from './kuberuntime-container.ts';
import type { PodWorker } from './pod-workers.ts';
import { CONFIG_MIRROR_ANNOTATION, isMirrorPod, mirrorPodFor } from './static-pods.ts';

/** HandlePodCleanups: orphaned sandboxes, finished workers, mirror pods. */
export function housekeeping(ctx: KubeletContext): void {
	if (ctx.podInformer.synced) {
		const sandboxes = ctx.runtime.listPodSandbox();
		if (sandboxes.ok) {
			for (const s of sandboxes.value) {
				if (ctx.state.pods[s.podUid]) continue;
				const containers = ctx.runtime.listContainers({ sandboxId: s.id });
				const running = containers.ok ? containers.value.filter((c) => c.state === 'CONTAINER_RUNNING') : [];
				if (running.length) {
					for (const c of running) {
						ctx.log('I', 'kubelet_pods.go:1175', 'Stopping a container of a pod the kubelet no longer knows', { podUID: s.podUid, containerName: c.name, gracePeriod: MINIMUM_GRACE_PERIOD_S });
						ctx.runtime.stopContainer(c.id, MINIMUM_GRACE_PERIOD_S);
					}
					continue;
				}
				ctx.runtime.removePodSandbox(s.id);
			}
		}
	}
	syncMirrorPods(ctx);
	cleanupOrphanedPodDirs(ctx);
}

/** Publishes a mirror pod for each static pod, and removes mirror pods without one. */
export function syncMirrorPods(ctx: KubeletContext): void {
	if (!ctx.state.registered && !ctx.config.registerNode && !ctx.state.mirrorPodsWithoutNodeLogged && ctx.state.nodeEventsUnregistered && Object.values(ctx.state.pods).some((w) => w.source === 'file')) {
		// syncPod of a static pod: kl.GetNode() fails, so no mirror pod (logged once per start here, at every sync upstream).
		ctx.state.mirrorPodsWithoutNodeLogged = true;
		ctx.log('E', 'kubelet.go:3344', 'No need to create a mirror pod, since failed to get node info from the cluster', { err: `node "${ctx.nodeName}" not found`, node: ctx.nodeName });
	}
	if (!ctx.state.registered || !ctx.podInformer.synced || !ctx.state.node) return;
	const wanted = new Map<string, PodWorker>();
	for (const w of Object.values(ctx.state.pods)) if (w.source === 'file' && !w.removedFromSource) wanted.set(keyOf(w.pod), w);
	for (const pod of ctx.podInformer.list() as Pod[]) {
		if (!isMirrorPod(pod) || pod.spec.nodeName !== ctx.nodeName) continue;
		const w = wanted.get(keyOf(pod));
		if (w && pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] === w.uid && !pod.metadata.deletionTimestamp) continue;
		ctx.log('I', 'mirror_client.go:130', 'Deleting a mirror pod', { pod: keyOf(pod), reason: w ? 'outdated or being deleted' : 'no static pod' });
		ctx.client.delete(R.pods, pod.metadata.namespace, pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
	}
	for (const [key, w] of wanted) {
		const existing = ctx.podInformer.get(key) as Pod | undefined;
		if (existing) continue;
		const created = ctx.client.create(R.pods, w.pod.metadata.namespace, mirrorPodFor(w.pod, ctx.state.node));
		if (created.ok) {
			ctx.log('I', 'mirror_client.go:92', 'Created a mirror pod for a static pod', { pod: key });
			w.lastStatusJson = undefined;
		} else if (created.code !== 409) ctx.log('E', 'mirror_client.go:98', 'Could not create a mirror pod', { pod: key, err: created.message });
	}
}
