/**
 * The kubelet's side of its volumes (./volumes holds the volume manager
 * and the plugins): the pod worker's wait for the pod's volumes before the
 * sandbox (WaitForAttachAndMount), the reconciler's passes with their
 * events, journal lines and retries, the remount of ConfigMap, Secret,
 * downward API and projected volumes at every resync, the configmap and
 * secret managers' reads and the token manager's TokenRequests, and the
 * removal of orphaned pod directories.
 *
 * Mirrors pkg/kubelet/kubelet_volumes.go (cleanupOrphanedPodDirs),
 * pkg/kubelet/volumemanager/volume_manager.go (WaitForAttachAndMount),
 * pkg/kubelet/volumemanager/reconciler/reconciler.go (its error reporting),
 * pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go,
 * pkg/kubelet/configmap/configmap_manager.go,
 * pkg/kubelet/secret/secret_manager.go, pkg/kubelet/token/token_manager.go.
 */
import type { ConfigMap, KubeObject, Secret } from '../api/types.ts';
import { R, type ResourceRef } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import { formatRfc3339 } from '../golang/time.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { POD_WORKER_BACKOFF_MS, requestSync, type PodWorker } from './pod-workers.ts';
import { cacheSyncError, notFoundError, type LookupResult, type ObjectLookup } from './volumes/lookup.ts';
import { KUBELET_ROOT_DIR, podDir } from './volumes/paths.ts';
import { SERVICE_ACCOUNT_ISSUER, type IssuedToken, type TokenSubject } from './volumes/service-account-token.ts';
import { hasRemountableVolumes, markRemount, newPodVolumes, nextRetryAtMs, pollNoticesAtMs, POD_ATTACH_AND_MOUNT_TIMEOUT_MS, reconcilePod, unmountedVolumes, waitTimeoutError } from './volumes/volume-manager.ts';

/** Bound on the orphaned pod directories one housekeeping pass looks at. */
const MAX_ORPHAN_DIRS_PER_PASS = 200;

/** The configmap and secret managers: reads as the node, with the managers' error texts. */
export function volumeLookup(ctx: KubeletContext): ObjectLookup {
	const read = <T>(resource: 'configmap' | 'secret', namespace: string, name: string): LookupResult<T> => {
		if (!name) return notFoundError(resource, name);
		const got = ctx.client.get<T>(resource === 'configmap' ? R.configmaps : R.secrets, namespace, name);
		if (got.ok) return { ok: true, object: got.object };
		return got.code === 404 ? notFoundError(resource, name) : cacheSyncError(resource);
	};
	// The populator reads claims and volumes from the API server directly (no cache): its error is the server's.
	const direct = (ref: ResourceRef, namespace: string | undefined, name: string): LookupResult<KubeObject> => {
		const got = ctx.client.get(ref, namespace, name);
		return got.ok ? { ok: true, object: got.object } : { ok: false, notFound: got.code === 404, error: got.message };
	};
	return {
		configMap: (namespace, name) => read<ConfigMap>('configmap', namespace, name),
		secret: (namespace, name) => read<Secret>('secret', namespace, name),
		persistentVolumeClaim: (namespace, name) => direct(R.persistentvolumeclaims, namespace, name),
		persistentVolume: (name) => direct(R.persistentvolumes, undefined, name),
	};
}

/**
 * WaitForAttachAndMount: true once every volume the pod's containers
 * mount is set up. Otherwise the sync stops before the sandbox; the wait
 * times out after 2 min 3 s and the pod worker tries again 10 s later.
 */
export function volumesReady(ctx: KubeletContext, w: PodWorker): boolean {
	const v = (w.volumes ??= newPodVolumes(w.pod, ctx.deps.disk));
	reconcileVolumes(ctx, w);
	if (unmountedVolumes(v).length === 0) {
		v.waitSinceMs = undefined;
		if (v.resyncAtMs === undefined) scheduleVolumeResync(ctx, w, ctx.config.syncFrequencyMs);
		return true;
	}
	v.waitSinceMs ??= ctx.nowMs;
	if (ctx.nowMs - v.waitSinceMs >= POD_ATTACH_AND_MOUNT_TIMEOUT_MS) {
		// The wait ran out (an interruption since v1.28: no event, only the pod worker's error).
		ctx.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: waitTimeoutError(v), pod: keyOf(w.pod), podUID: w.uid });
		v.waitSinceMs = undefined;
		requestSync(ctx, w, POD_WORKER_BACKOFF_MS, true);
		return false;
	}
	requestSync(ctx, w, v.waitSinceMs + POD_ATTACH_AND_MOUNT_TIMEOUT_MS - ctx.nowMs, true);
	return false;
}

/**
 * The token manager's request (pkg/kubelet/token): a TokenRequest for the
 * pod's service account, bound to the pod, for the projection's audience
 * (none: the API server's own) and lifetime. The API server signs it, so
 * the token authenticates as the service account.
 */
function requestServiceAccountToken(ctx: KubeletContext, subject: TokenSubject): { ok: true; token: IssuedToken } | { ok: false; error: string } {
	const spec: Record<string, unknown> = {
		...(subject.audience ? { audiences: [subject.audience] } : {}),
		expirationSeconds: subject.expirationSeconds,
		boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: subject.podName, uid: subject.podUid },
	};
	const got = ctx.client.call<{ status?: { token?: string } }>({
		verb: 'create',
		...R.serviceaccounts,
		namespace: subject.namespace,
		name: subject.serviceAccountName,
		subresource: 'token',
		body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec },
	});
	if (!got.ok) return { ok: false, error: got.message };
	const token = got.object.status?.token ?? '';
	return { ok: true, token: { token, issuedWallMs: Math.floor(ctx.wallMs() / 1000) * 1000, expirationSeconds: subject.expirationSeconds, audience: subject.audience || SERVICE_ACCOUNT_ISSUER } };
}

/** One reconciler pass over the pod's volumes: events and journal lines for what it did, the next retry scheduled. */
function reconcileVolumes(ctx: KubeletContext, w: PodWorker): void {
	const v = w.volumes;
	if (!v) return;
	const outcomes = reconcilePod(v, w.pod, {
		lookup: volumeLookup(ctx),
		disk: ctx.deps.disk,
		nodeAllocatable: ctx.getNodeAnyWay().status?.allocatable ?? {},
		nowMs: ctx.nowMs,
		nowWallMs: ctx.wallMs(),
		tokenSubject: {
			namespace: w.pod.metadata.namespace ?? 'default',
			serviceAccountName: w.pod.spec.serviceAccountName ?? 'default',
			podName: w.pod.metadata.name ?? '',
			podUid: w.uid,
			nodeName: ctx.nodeName,
			nodeUid: ctx.state.nodeUid ?? '',
		},
		requestToken: (subject) => requestServiceAccountToken(ctx, subject),
	});
	const mounted: string[] = [];
	for (const o of outcomes) {
		// GetUniqueVolumeNameFromSpecWithPod: <plugin>/<pod uid>-<volume>.
		const unique = `${o.spec.plugin}/${w.uid}-${o.volume}`;
		if (o.ok) {
			if (!o.remount) mounted.push(o.volume);
			else if (o.changed) ctx.emit({ action: 'remount', object: `pods/${keyOf(w.pod)}`, msg: `volume "${o.volume}" updated on ${ctx.nodeName}` });
			if (!o.remount && o.spec.plugin === 'unsupported') ctx.log('W', 'volume_manager.go:398', 'Volume kind not modelled; mounted as an empty directory', { pod: keyOf(w.pod), volume: o.volume, kind: o.spec.kind });
			if (!o.remount && o.spec.plugin === 'kubernetes.io/host-path' && !ctx.deps.disk) ctx.log('W', 'host_path.go:220', 'No node disk: hostPath volume mounted as an empty directory', { pod: keyOf(w.pod), volume: o.volume, path: o.spec.hostPath.path });
			continue;
		}
		if (o.unprocessed) {
			// The populator logs and retries; only the wait's timeout, if it comes, names the volume.
			ctx.log('E', 'desired_state_of_world_populator.go:312', 'Error processing volume', { err: o.error, pod: keyOf(w.pod), volumeName: o.volume });
			continue;
		}
		ctx.podEvent(w, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${o.volume}" : ${o.error}`);
		ctx.emit({ action: 'mount-failed', object: `pods/${keyOf(w.pod)}`, msg: `MountVolume.SetUp failed for volume "${o.volume}" : ${o.error}` });
		// Go's time.Time.String(): `2026-11-30 08:00:33.505 +0000 UTC` (trailing zeros of the fraction dropped).
		const untilMs = ctx.wallMs() + (o.durationBeforeRetryMs ?? 0);
		const fraction = untilMs % 1000 ? `.${String(untilMs % 1000).padStart(3, '0').replace(/0+$/, '')}` : '';
		const until = `${formatRfc3339(untilMs).replace('T', ' ').replace('Z', '')}${fraction} +0000 UTC`;
		ctx.log('E', 'nestedpendingoperations.go:348', `Operation for "{volumeName:${unique} podName:${w.uid} nodeName:}" failed. No retries permitted until ${until} (durationBeforeRetry ${formatGoDurationMs(o.durationBeforeRetryMs ?? 0)}). Error: MountVolume.SetUp failed for volume "${o.volume}" (UniqueName: "${unique}") pod "${w.pod.metadata.name}" (UID: "${w.uid}") : ${o.error}`, {});
	}
	if (mounted.length) ctx.emit({ action: 'mount', object: `pods/${keyOf(w.pod)}`, msg: `mounted volume${mounted.length > 1 ? 's' : ''} ${mounted.map((n) => `"${n}"`).join(', ')} on ${ctx.nodeName}` });
	scheduleVolumeRetry(ctx, w);
}

/** The reconciler comes back for the pod's failed volumes when their back-off expires. */
function scheduleVolumeRetry(ctx: KubeletContext, w: PodWorker): void {
	const v = w.volumes;
	const at = v ? nextRetryAtMs(v) : undefined;
	if (!v || at === undefined) return;
	if (v.retryAtMs !== undefined && v.retryAtMs <= at && v.retryAtMs >= ctx.nowMs) return;
	v.retryAtMs = Math.max(at, ctx.nowMs);
	ctx.after(v.retryAtMs - ctx.nowMs, 'volume-reconcile', { uid: w.uid, atMs: v.retryAtMs }, { background: true, origin: `periodic:${ctx.id}:volume-reconciler` });
}

/** A retry of the reconciler: once the last volume is set up, a waiting pod worker notices at its next 300 ms poll. */
export function onVolumeRetry(ctx: KubeletContext, w: PodWorker): void {
	const v = w.volumes;
	if (!v || w.removedFromSource || w.terminated || w.termination || w.pod.metadata.deletionTimestamp) return;
	const waiting = unmountedVolumes(v).length > 0;
	reconcileVolumes(ctx, w);
	if (waiting && unmountedVolumes(v).length === 0 && v.waitSinceMs !== undefined) requestSync(ctx, w, pollNoticesAtMs(v.waitSinceMs, ctx.nowMs) - ctx.nowMs, false);
}

/** The pod worker's resync (every syncFrequency) for pods with volumes that follow API objects. */
export function scheduleVolumeResync(ctx: KubeletContext, w: PodWorker, delayMs: number): void {
	const v = w.volumes;
	if (!v || !hasRemountableVolumes(w.pod)) return;
	v.resyncAtMs = ctx.nowMs + delayMs;
	ctx.after(delayMs, 'volume-resync', { uid: w.uid, atMs: v.resyncAtMs }, { background: true, origin: `periodic:${ctx.id}:pod-resync` });
}

/** A resync: remountable volumes are set up again (ReprocessPod), so changed ConfigMaps and Secrets reach the files. */
export function resyncVolumes(ctx: KubeletContext, w: PodWorker): void {
	const v = w.volumes;
	if (!v || w.removedFromSource || w.terminated || w.termination || w.pod.metadata.deletionTimestamp) return;
	markRemount(v, w.pod);
	reconcileVolumes(ctx, w);
	scheduleVolumeResync(ctx, w, ctx.config.syncFrequencyMs);
}

/** cleanupOrphanedPodDirs: pod directories of pods this kubelet no longer runs. */
export function cleanupOrphanedPodDirs(ctx: KubeletContext): void {
	const disk = ctx.deps.disk;
	if (!disk || !ctx.podInformer.synced) return;
	for (const uid of (disk.readDir(`${KUBELET_ROOT_DIR}/pods`) ?? []).slice(0, MAX_ORPHAN_DIRS_PER_PASS)) if (!ctx.state.pods[uid]) disk.remove(podDir(uid));
}
