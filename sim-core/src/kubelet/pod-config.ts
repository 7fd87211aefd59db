/**
 * Where the kubelet's pods come from: the API server (pods bound to this
 * node, through the pod informer) and the static pod manifests of
 * /etc/kubernetes/manifests, read at start and every fileCheckFrequency.
 * A new pod gets a pod worker and a sync; a changed spec or a deletion
 * syncs it again; a pod gone from its source is torn down. Mirror pods are
 * not pods to run: they only tell the kubelet to publish them again.
 *
 * Mirrors pkg/kubelet/config/apiserver.go, pkg/kubelet/config/file.go,
 * pkg/kubelet/config/config.go, pkg/kubelet/kubelet.go (HandlePodAdditions,
 * HandlePodUpdates, HandlePodRemoves).
 */
import type { Pod } from '../api/types.ts';
import { keyOf } from '../client/informer.ts';
import { deepCopy } from '../golang/json.ts';
import { formatRfc3339Micro } from '../golang/time.ts';
import { syncMirrorPods } from './housekeeping.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { scheduleVolumeResync } from './kubelet-volumes.ts';
import { newWorker, requestSync } from './pod-workers.ts';
import { CONFIG_MIRROR_ANNOTATION, isMirrorPod, staticPodFromManifest } from './static-pods.ts';
import { unmountedVolumes } from './volumes/volume-manager.ts';

/** Bound on the manifests read per scan. */
const MAX_STATIC_MANIFESTS = 100;

export function onPodAdd(ctx: KubeletContext, pod: Pod): void {
	if (isMirrorPod(pod)) {
		if (pod.metadata.deletionTimestamp) syncMirrorPods(ctx);
		// The static pod's status now has somewhere to go.
		const w = ctx.state.pods[pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] ?? ''];
		if (w) {
			w.lastStatusJson = undefined;
			requestSync(ctx, w, 0, false);
		}
		return;
	}
	if (pod.spec.nodeName !== ctx.nodeName || !pod.metadata.uid) return;
	const uid = pod.metadata.uid;
	if (ctx.state.pods[uid]) return;
	ctx.log('I', 'kubelet.go:2519', 'Pod added to the sync loop', { source: 'api', pod: keyOf(pod) });
	ctx.state.pods[uid] = newWorker(ctx, uid, 'api', deepCopy(pod));
	requestSync(ctx, ctx.state.pods[uid], 0, false);
}

export function onPodUpdate(ctx: KubeletContext, oldPod: Pod, pod: Pod): void {
	if (isMirrorPod(pod)) {
		if (pod.metadata.deletionTimestamp && !oldPod.metadata.deletionTimestamp) syncMirrorPods(ctx);
		return;
	}
	const w = pod.metadata.uid ? ctx.state.pods[pod.metadata.uid] : undefined;
	if (!w) return onPodAdd(ctx, pod);
	const deleting = pod.metadata.deletionTimestamp && !oldPod.metadata.deletionTimestamp;
	if (deleting) ctx.log('I', 'kubelet.go:2531', 'Pod marked for deletion', { source: 'api', pod: keyOf(pod), gracePeriod: pod.metadata.deletionGracePeriodSeconds });
	const specChanged = JSON.stringify(oldPod.spec) !== JSON.stringify(pod.spec) || JSON.stringify(oldPod.metadata.deletionTimestamp) !== JSON.stringify(pod.metadata.deletionTimestamp);
	const metadataChanged = JSON.stringify(oldPod.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {}) || JSON.stringify(oldPod.metadata.annotations ?? {}) !== JSON.stringify(pod.metadata.annotations ?? {});
	w.pod = deepCopy(pod);
	if (specChanged || deleting) requestSync(ctx, w, 0, false);
	// Any pod update syncs the pod, and a sync remounts its volumes: downward API files follow labels and annotations.
	else if (metadataChanged && w.volumes && unmountedVolumes(w.volumes).length === 0) scheduleVolumeResync(ctx, w, 0);
}

export function onPodDelete(ctx: KubeletContext, pod: Pod): void {
	if (isMirrorPod(pod)) {
		// A deleted mirror pod is published again while its static pod runs.
		syncMirrorPods(ctx);
		return;
	}
	const w = pod.metadata.uid ? ctx.state.pods[pod.metadata.uid] : undefined;
	if (!w) return;
	ctx.log('I', 'kubelet.go:2541', 'Pod removed from the sync loop', { source: 'api', pod: keyOf(pod) });
	w.removedFromSource = true;
	requestSync(ctx, w, 0, false);
}

/** Reads /etc/kubernetes/manifests: new manifests start pods, vanished or changed ones stop theirs. */
export function readManifests(ctx: KubeletContext): void {
	const files = ctx.deps.staticPodManifests?.(ctx.config.staticPodPath) ?? [];
	const seenUids = new Set<string>();
	for (const file of files.slice(0, MAX_STATIC_MANIFESTS)) {
		const known = ctx.state.staticSeen[file.path];
		const seen = known?.seen ?? formatRfc3339Micro(ctx.wallMs()).replace(/Z$/, '000Z');
		const parsed = staticPodFromManifest(file, ctx.nodeName, seen);
		if (!parsed.ok) {
			ctx.log('E', 'file.go:205', 'Could not read a static pod manifest', { path: file.path, err: parsed.error });
			continue;
		}
		const pod = parsed.pod;
		const uid = pod.metadata.uid!;
		if (known && known.uid !== uid) {
			// Changed content: a new pod; re-stamp when it was seen.
			pod.metadata.annotations!['kubernetes.io/config.seen'] = formatRfc3339Micro(ctx.wallMs()).replace(/Z$/, '000Z');
		}
		ctx.state.staticSeen[file.path] = { uid, seen: pod.metadata.annotations!['kubernetes.io/config.seen'] };
		seenUids.add(uid);
		if (!ctx.state.pods[uid]) {
			ctx.log('I', 'kubelet.go:2519', 'Pod added to the sync loop', { source: 'file', pod: keyOf(pod) });
			const w = newWorker(ctx, uid, 'file', pod);
			w.manifestPath = file.path;
			ctx.state.pods[uid] = w;
			requestSync(ctx, w, 0, false);
		}
	}
	for (const [path, info] of Object.entries(ctx.state.staticSeen)) if (!files.some((f) => f.path === path) || !seenUids.has(info.uid)) delete ctx.state.staticSeen[path];
	for (const w of Object.values(ctx.state.pods)) {
		if (w.source !== 'file' || seenUids.has(w.uid) || w.removedFromSource) continue;
		ctx.log('I', 'kubelet.go:2541', 'Pod removed from the sync loop', { source: 'file', pod: keyOf(w.pod) });
		w.removedFromSource = true;
		requestSync(ctx, w, 0, false);
	}
}
