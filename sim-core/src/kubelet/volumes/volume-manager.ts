/**
 * The kubelet's volume manager, for one pod: which of its volumes are set
 * up on the node, the exponential back-off of a set-up that failed, the
 * tokens it holds, and the pod worker's wait for all of them
 * (WaitForAttachAndMount) before the sandbox is created.
 *
 * How it unfolds upstream, and here:
 * - The reconciler tries every volume the pod's containers mount (volumes
 *   no container mounts are ignored). A failure records a Warning
 *   `FailedMount` event, `MountVolume.SetUp failed for volume "content" :
 *   configmap "web-content" not found`, and blocks that operation for
 *   500 ms, then 1 s, 2 s... doubling up to 2 min 2 s. The reconciler loop
 *   runs every 100 ms, so each retry comes on its first pass after the
 *   back-off expires: failures at 0, 0.6, 1.7, 3.8, 7.9, 16.0, 32.1, 64.2,
 *   128.3 s, then every 122.1 s. Identical events are counted, which is the
 *   `(x9 over 2m8s)` of `kubectl describe`.
 * - Meanwhile the pod worker waits (polling every 300 ms) at most 2 min 3 s,
 *   then its sync fails and is retried 10 s later, waiting again. Since
 *   v1.28 (PR #117412) that timeout is treated as an interruption: the
 *   kubelet no longer records the old `Unable to attach or mount volumes:
 *   unmounted volumes=[...]` event for it; only the journal says
 *   `Error syncing pod, skipping`. The pod stays Pending, its containers
 *   waiting in ContainerCreating, with no sandbox and no IP.
 * - Once the object exists, the next retry succeeds and the pod starts:
 *   up to 2 min 2 s after the object appears, when the back-off has grown.
 * - Running pods are resynced every minute (syncFrequency): remountable
 *   volumes are set up again, so a changed ConfigMap or Secret reaches the
 *   files within about a minute (upstream: 60–90 s with the pod worker's
 *   jitter, plus the watch's propagation; here exactly 60 s, no jitter).
 *   A resync also happens at once when the pod's labels or annotations
 *   change (the downward API). A remount that fails keeps the old files
 *   and retries with the same back-off, each failure an event.
 *
 * The first attempt runs within the pod's first sync instead of 100–200 ms
 * later (the populator and reconciler loops), so a pod whose volumes are
 * all available starts exactly as early as a pod without volumes.
 *
 * Mirrors pkg/kubelet/volumemanager/volume_manager.go
 * (WaitForAttachAndMount, getExpectedVolumes, podAttachAndMountTimeout),
 * pkg/kubelet/volumemanager/reconciler/reconciler.go,
 * pkg/kubelet/volumemanager/populator/desired_state_of_world_populator.go
 * (ReprocessPod, remount),
 * pkg/kubelet/volumemanager/reconciler/reconstruct.go (volumes found on disk
 * after a restart count as mounted),
 * pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go,
 * pkg/util/goroutinemap/exponentialbackoff/exponential_backoff.go.
 */
import type { Pod } from '../../api/types.ts';
import type { NodeDisk } from '../../host/disk.ts';
import { requiresRemount, setUpVolume, volumeHostPath, volumeSpecOf, type SetUpContext, type VolumeSpec } from './plugins.ts';
import { issueToken, requiresRefresh, SERVICE_ACCOUNT_ISSUER, type IssuedToken, type TokenSubject } from './service-account-token.ts';

/** reconcilerLoopSleepPeriod (volume_manager.go): the reconciler runs every 100 ms. */
export const RECONCILER_LOOP_SLEEP_PERIOD_MS = 100;
/** podAttachAndMountTimeout (volume_manager.go): 2 min + 3 s, offset to be recognizable. */
export const POD_ATTACH_AND_MOUNT_TIMEOUT_MS = 123_000;
/** podAttachAndMountRetryInterval (volume_manager.go): the wait checks every 300 ms. */
const POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS = 300;
/** initialDurationBeforeRetry (exponential_backoff.go). */
export const INITIAL_DURATION_BEFORE_RETRY_MS = 500;
/** maxDurationBeforeRetry (exponential_backoff.go): 2 min + 2 s. */
export const MAX_DURATION_BEFORE_RETRY_MS = 122_000;
/** KubeletConfiguration syncFrequency default (1 min): how often a pod worker resyncs a running pod. */
export const SYNC_FREQUENCY_MS = 60_000;

/** One volume as the manager tracks it: the actual state of the world and its pending operation's back-off. Plain JSON. */
interface VolumeState {
	/** Set up at least once (it stays mounted when a later remount fails). */
	mounted: boolean;
	/** A remount is due (remountRequired). */
	remount?: boolean;
	/** When the last attempt failed, and how long no retry is allowed after it. */
	lastErrorMs?: number;
	durationBeforeRetryMs?: number;
	lastError?: string;
	/** The populator could not resolve the volume (its claim is not bound): retried every pass, no event. */
	unprocessed?: boolean;
}

/** The volume manager's memory of one pod. Plain JSON, kept in the pod worker. */
export interface PodVolumes {
	/** By pod volume name: the volumes some container mounts. */
	volumes: Record<string, VolumeState>;
	/** Service account tokens held, by `<volume>/<path>`. */
	tokens: Record<string, IssuedToken>;
	/** The pod worker has been waiting for the volumes since (virtual ms). */
	waitSinceMs?: number;
	/** When the next reconciler attempt for this pod is scheduled. */
	retryAtMs?: number;
	/** When the next periodic resync (remount) is scheduled. */
	resyncAtMs?: number;
}

/** getExpectedVolumes: the pod volumes its containers (init, regular, ephemeral) mount. */
export function expectedVolumes(pod: Pod): VolumeSpec[] {
	const used = new Set<string>();
	const containers = [...(pod.spec.initContainers ?? []), ...pod.spec.containers, ...((pod.spec.ephemeralContainers as Pod['spec']['containers'] | undefined) ?? [])];
	for (const c of containers) for (const m of c.volumeMounts ?? []) used.add(m.name);
	return (pod.spec.volumes ?? []).filter((v) => used.has(v.name)).map(volumeSpecOf);
}

/**
 * The manager's state for a pod newly seen by this kubelet. Volumes whose
 * directory already exists on the node (a kubelet restart) count as
 * mounted, as reconstruction finds them; they are remounted at the next
 * resync.
 */
export function newPodVolumes(pod: Pod, disk: NodeDisk | undefined): PodVolumes {
	const volumes: Record<string, VolumeState> = {};
	const uid = pod.metadata.uid ?? '';
	for (const spec of expectedVolumes(pod)) {
		const onDisk = disk !== undefined && spec.plugin !== 'kubernetes.io/host-path' && disk.isDir(volumeHostPath(spec, uid));
		volumes[spec.name] = onDisk ? { mounted: true, remount: requiresRemount(spec) } : { mounted: false };
	}
	return { volumes, tokens: {} };
}

/** The expected volumes not set up yet, sorted (getUnmountedVolumes). */
export function unmountedVolumes(state: PodVolumes): string[] {
	return Object.keys(state.volumes)
		.filter((name) => !state.volumes[name].mounted)
		.sort();
}

/**
 * Whether the back-off of the volume's last failure still holds a retry at
 * `nowMs`: SafeToRetry refuses until the back-off has expired, and the
 * retry happens on the reconciler's next pass after that.
 */
function inBackOff(v: VolumeState, nowMs: number): boolean {
	const at = retryAtMs(v);
	return at !== undefined && nowMs < at;
}

/** ExponentialBackoff.Update: 500 ms, then doubled, at most 2 min 2 s. */
function recordFailure(v: VolumeState, nowMs: number, error: string): void {
	v.durationBeforeRetryMs = v.durationBeforeRetryMs === undefined ? INITIAL_DURATION_BEFORE_RETRY_MS : Math.min(v.durationBeforeRetryMs * 2, MAX_DURATION_BEFORE_RETRY_MS);
	v.lastErrorMs = nowMs;
	v.lastError = error;
}

/** The reconciler pass that first finds the volume's back-off expired. */
export function retryAtMs(v: VolumeState): number | undefined {
	if (v.lastErrorMs === undefined || v.durationBeforeRetryMs === undefined) return undefined;
	return v.lastErrorMs + v.durationBeforeRetryMs + RECONCILER_LOOP_SLEEP_PERIOD_MS;
}

/** What one set-up attempt did. */
interface MountOutcome {
	volume: string;
	spec: VolumeSpec;
	/** A first mount, or a remount of a mounted volume. */
	remount: boolean;
	ok: boolean;
	error?: string;
	/** The volume could not be resolved yet (the populator's error, not a failed mount). */
	unprocessed?: boolean;
	/** Files changed on the node. */
	changed?: boolean;
	/** The back-off the failure starts (ms). */
	durationBeforeRetryMs?: number;
}

/** What the reconciler needs besides the plugins' context. */
export interface ReconcileContext extends Omit<SetUpContext, 'token'> {
	nowMs: number;
	nowWallMs: number;
	/** The facts a token is bound to, except the projection's own. */
	tokenSubject: Omit<TokenSubject, 'audience' | 'expirationSeconds'>;
	/**
	 * The token manager's TokenRequest (POST serviceaccounts/<name>/token,
	 * bound to the pod). Without it the token is built as the API server
	 * would build it (unit tests of the volume plugins run with no API server).
	 */
	requestToken?(subject: TokenSubject): { ok: true; token: IssuedToken } | { ok: false; error: string };
}

/**
 * One reconciler pass for the pod: sets up every volume that is not
 * mounted or needs a remount and is out of back-off. Returns what each
 * attempt did, in volume order.
 */
export function reconcilePod(state: PodVolumes, pod: Pod, ctx: ReconcileContext): MountOutcome[] {
	const outcomes: MountOutcome[] = [];
	for (const spec of expectedVolumes(pod)) {
		const v = (state.volumes[spec.name] ??= { mounted: false });
		if (v.mounted && !v.remount) continue;
		if (inBackOff(v, ctx.nowMs)) continue;
		const remount = v.mounted;
		const result = setUpVolume(spec, pod, {
			...ctx,
			token: (source) => {
				const key = `${spec.name}/${source.path}`;
				const held = state.tokens[key];
				const same = held && held.audience === (source.audience || SERVICE_ACCOUNT_ISSUER) && held.expirationSeconds === source.expirationSeconds;
				if (same && !requiresRefresh(held, ctx.nowWallMs)) return { ok: true, token: held.token };
				const subject = { ...ctx.tokenSubject, audience: source.audience, expirationSeconds: source.expirationSeconds };
				const got = ctx.requestToken ? ctx.requestToken(subject) : { ok: true as const, token: issueToken(subject, ctx.nowWallMs) };
				if (!got.ok) {
					// token_manager.go: a failed refresh keeps a token that has not expired yet; with none, the mount fails.
					if (same && ctx.nowWallMs < held.issuedWallMs + held.expirationSeconds * 1000) return { ok: true, token: held.token };
					return { ok: false, error: `failed to fetch token: ${got.error}` };
				}
				state.tokens[key] = got.token;
				return { ok: true, token: got.token.token };
			},
		});
		if (result.ok) {
			v.mounted = true;
			v.remount = false;
			// The operation succeeded: its back-off is forgotten (the operation is deleted).
			delete v.lastErrorMs;
			delete v.durationBeforeRetryMs;
			delete v.lastError;
			delete v.unprocessed;
			outcomes.push({ volume: spec.name, spec, remount, ok: true, changed: result.changed });
		} else if (result.unprocessed) {
			// desired_state_of_world_populator: the volume is not added to the desired state; its loop tries again in 100 ms, no back-off.
			v.lastErrorMs = ctx.nowMs;
			v.durationBeforeRetryMs = 0;
			v.lastError = result.error;
			v.unprocessed = true;
			outcomes.push({ volume: spec.name, spec, remount, ok: false, error: result.error, unprocessed: true });
		} else {
			// A volume resolved at last whose set-up fails starts its back-off afresh.
			if (v.unprocessed) {
				delete v.unprocessed;
				delete v.durationBeforeRetryMs;
			}
			recordFailure(v, ctx.nowMs, result.error);
			outcomes.push({ volume: spec.name, spec, remount, ok: false, error: result.error, durationBeforeRetryMs: v.durationBeforeRetryMs });
		}
	}
	return outcomes;
}

/** ReprocessPod: every mounted remountable volume is set up again at the next pass. */
export function markRemount(state: PodVolumes, pod: Pod): void {
	for (const spec of expectedVolumes(pod)) {
		const v = state.volumes[spec.name];
		if (v?.mounted && requiresRemount(spec)) v.remount = true;
	}
}

/** The earliest pending retry among the pod's failed volumes. */
export function nextRetryAtMs(state: PodVolumes): number | undefined {
	let next: number | undefined;
	for (const v of Object.values(state.volumes)) {
		if (v.mounted && !v.remount) continue;
		const at = retryAtMs(v);
		if (at !== undefined && (next === undefined || at < next)) next = at;
	}
	return next;
}

/** Whether the pod has volumes a resync refreshes. */
export function hasRemountableVolumes(pod: Pod): boolean {
	return expectedVolumes(pod).some(requiresRemount);
}

/**
 * The first 300 ms poll of a wait that began at `sinceMs` to see a mount
 * completed at `mountedMs` (PollUntilContextTimeout checks at once, then
 * every interval).
 */
export function pollNoticesAtMs(sinceMs: number, mountedMs: number): number {
	if (mountedMs <= sinceMs) return sinceMs;
	return sinceMs + Math.ceil((mountedMs - sinceMs) / POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS) * POD_ATTACH_AND_MOUNT_RETRY_INTERVAL_MS;
}

/** The error WaitForAttachAndMount returns when its wait times out (wrapping context.DeadlineExceeded). */
export function waitTimeoutError(state: PodVolumes): string {
	const unprocessed = Object.keys(state.volumes).filter((name) => state.volumes[name].unprocessed).sort();
	return `unmounted volumes=[${unmountedVolumes(state).join(' ')}], unattached volumes=[], failed to process volumes=[${unprocessed.join(' ')}]: context deadline exceeded`;
}
