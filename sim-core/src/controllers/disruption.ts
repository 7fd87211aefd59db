/**
 * The disruption controller: keeps every PodDisruptionBudget's status true,
 * so the eviction subresource can say yes or no. For each budget it lists
 * the Pods its selector picks and computes:
 *
 * - `expectedPods`: with an integer minAvailable, the number of those Pods;
 *   with maxUnavailable or a percentage minAvailable, the sum of the scale
 *   of the controllers that own them (a Deployment through its ReplicaSet,
 *   a ReplicaSet, a StatefulSet, else any resource's scale subresource). A
 *   Pod whose owner has no scale (a DaemonSet, a Job) makes the sync fail
 *   (`CalculateExpectedPodCountFailed`); Pods with no owner are left out
 *   with an `UnmanagedPods` warning.
 * - `desiredHealthy`: minAvailable (a percentage of expectedPods, rounded
 *   up), or expectedPods minus maxUnavailable (a percentage rounded up),
 *   never below 0.
 * - `currentHealthy`: the Ready Pods that are not being deleted and that no
 *   eviction has claimed in `disruptedPods` within the last 2 minutes
 *   (DeletionTimeout); older claims are dropped with a `NotDeleted` event
 *   on the Pod, and the budget is looked at again when the next one
 *   expires.
 * - `disruptionsAllowed`: currentHealthy - desiredHealthy, but 0 while
 *   expectedPods is 0 (a budget whose Pods are still arriving is safe).
 *
 * It writes them with `observedGeneration` and the DisruptionAllowed
 * condition (../component-helpers/poddisruptionbudget.ts) only when
 * something changed. When a sync fails for any reason but a write conflict,
 * the fail-safe writes disruptionsAllowed 0 and DisruptionAllowed=False
 * with reason SyncFailed and the error as message, so no eviction is let
 * through on a budget nobody could compute. Its events come from the
 * source `controllermanager`, as upstream's recorder names it.
 *
 * A second loop resets a stale DisruptionTarget condition: a Pod that was
 * marked for disruption 2 minutes ago but was never deleted gets the
 * condition set to False.
 *
 * Differences: no ReplicationController finder (this API serves no
 * ReplicationControllers); for a kind without a scale subresource the
 * error comes from discovery at once, without upstream's first GET of the
 * scale (same message).
 *
 * Mirrors pkg/controller/disruption/disruption.go,
 * staging/src/k8s.io/client-go/listers/policy/v1/poddisruptionbudget_expansion.go
 * (GetPodPodDisruptionBudgets),
 * staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go
 * (GetScaledValueFromIntOrPercent).
 */
import type { Deployment, KubeObject, LabelSelector, OwnerReference, Pod, ReplicaSet, StatefulSet } from '../api/types.ts';
import { RESOURCES, groupVersion, qualifiedResource } from '../api/resources.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { formatRfc3339, parseRfc3339 } from '../golang/time.ts';
import { compareGoStrings, deepCopy } from '../golang/json.ts';
import { conditionsAreUpToDate, DISRUPTION_ALLOWED_CONDITION, setStatusCondition, SYNC_FAILED_REASON, updateDisruptionAllowedCondition, type MetaCondition } from '../component-helpers/poddisruptionbudget.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { compileSelector, controllerOf, isPodReady, keyFor, splitKey } from './pod-util.ts';

const DISRUPTION_CONTROLLER = 'disruption-controller';
const PODDISRUPTIONBUDGETS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
/** The event source upstream's recorder uses (v1.EventSource{Component: "controllermanager"}). */
const EVENT_SOURCE = 'controllermanager';
/** DeletionTimeout: how long an eviction's claim in status.disruptedPods holds. */
export const DELETION_TIMEOUT_MS = 2 * 60_000;
/** stalePodDisruptionTimeout: how long a DisruptionTarget condition may stay on a Pod that is not being deleted. */
export const STALE_POD_DISRUPTION_TIMEOUT_MS = 2 * 60_000;
/** v1.PodReasonTerminationByKubelet: the kubelet's own disruption conditions never go stale. */
const TERMINATION_BY_KUBELET = 'TerminationByKubelet';

/** A policy/v1 PodDisruptionBudget as this controller reads it. */
export interface PodDisruptionBudget extends KubeObject {
	spec?: {
		minAvailable?: number | string;
		maxUnavailable?: number | string;
		selector?: LabelSelector | null;
		unhealthyPodEvictionPolicy?: string;
	};
	status?: {
		observedGeneration?: number;
		disruptedPods?: Record<string, string>;
		disruptionsAllowed?: number;
		currentHealthy?: number;
		desiredHealthy?: number;
		expectedPods?: number;
		conditions?: MetaCondition[];
	};
}

type PdbStatus = NonNullable<PodDisruptionBudget['status']>;

/** intstr.GetScaledValueFromIntOrPercent: an int as is, "N%" of total rounded up or down, else an error. */
export function getScaledValueFromIntOrPercent(value: number | string, total: number, roundUp: boolean): { value: number } | { error: string } {
	if (typeof value === 'number') return { value };
	if (!value.endsWith('%')) return { error: `invalid value for IntOrString: invalid type: string is not a percentage` };
	const digits = value.slice(0, -1);
	if (!/^[+-]?\d+$/.test(digits)) return { error: `invalid value ${JSON.stringify(value)}: strconv.Atoi: parsing ${JSON.stringify(digits)}: invalid syntax` };
	const scaled = (Number(digits) * total) / 100;
	return { value: roundUp ? Math.ceil(scaled) : Math.floor(scaled) };
}

/** What a finder says about a Pod's controller: its UID and scale, nothing (try the next finder), or an error. */
export type FinderResult = { uid: string; scale: number } | undefined | { error: string };
/** Finds the scale of the controller a Pod's controllerRef names (podControllerFinder). */
export type ControllerFinder = (ref: OwnerReference, namespace: string) => FinderResult;

/**
 * getExpectedScale: the sum of the scale of every distinct controller of
 * the Pods, with the Pods that have no controller set aside.
 */
export function getExpectedScale(pods: readonly Pod[], finders: readonly ControllerFinder[]): { expectedCount: number; unmanagedPods: string[] } | { error: string } {
	const scales = new Map<string, number>();
	const unmanagedPods: string[] = [];
	for (const pod of pods) {
		const ref = controllerOf(pod);
		if (!ref) {
			unmanagedPods.push(pod.metadata.name ?? '');
			continue;
		}
		if (scales.has(ref.uid)) continue;
		let found = false;
		for (const finder of finders) {
			const result = finder(ref, pod.metadata.namespace ?? '');
			if (result && 'error' in result) return result;
			if (result) {
				scales.set(result.uid, result.scale);
				found = true;
				break;
			}
		}
		if (!found) return { error: `found no controllers for pod ${JSON.stringify(pod.metadata.name ?? '')}` };
	}
	let expectedCount = 0;
	for (const scale of scales.values()) expectedCount += scale;
	return { expectedCount, unmanagedPods };
}

/** getExpectedPodCount: expectedPods and desiredHealthy from the budget's spec. */
export function getExpectedPodCount(
	pdb: PodDisruptionBudget,
	pods: readonly Pod[],
	finders: readonly ControllerFinder[],
): { expectedCount: number; desiredHealthy: number; unmanagedPods: string[] } | { error: string } {
	const spec = pdb.spec ?? {};
	if (spec.maxUnavailable !== undefined && spec.maxUnavailable !== null) {
		const scale = getExpectedScale(pods, finders);
		if ('error' in scale) return scale;
		const maxUnavailable = getScaledValueFromIntOrPercent(spec.maxUnavailable, scale.expectedCount, true);
		if ('error' in maxUnavailable) return maxUnavailable;
		return { expectedCount: scale.expectedCount, desiredHealthy: Math.max(0, scale.expectedCount - maxUnavailable.value), unmanagedPods: scale.unmanagedPods };
	}
	if (spec.minAvailable !== undefined && spec.minAvailable !== null) {
		if (typeof spec.minAvailable === 'number') return { expectedCount: pods.length, desiredHealthy: spec.minAvailable, unmanagedPods: [] };
		const scale = getExpectedScale(pods, finders);
		if ('error' in scale) return scale;
		const minAvailable = getScaledValueFromIntOrPercent(spec.minAvailable, scale.expectedCount, true);
		if ('error' in minAvailable) return minAvailable;
		return { expectedCount: scale.expectedCount, desiredHealthy: minAvailable.value, unmanagedPods: scale.unmanagedPods };
	}
	// Neither is set: everything stays 0.
	return { expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] };
}

/** countHealthyPods: Ready, not being deleted, and not claimed by an eviction that is still pending. */
export function countHealthyPods(pods: readonly Pod[], disruptedPods: Readonly<Record<string, string>>, nowWallMs: number): number {
	let healthy = 0;
	for (const pod of pods) {
		if (pod.metadata.deletionTimestamp) continue;
		const claimed = disruptedPods[pod.metadata.name ?? ''];
		if (claimed !== undefined && parseRfc3339(claimed) + DELETION_TIMEOUT_MS > nowWallMs) continue;
		if (isPodReady(pod)) healthy++;
	}
	return healthy;
}

/**
 * buildDisruptedPodMap: the claims to keep (pods still there, not yet being
 * deleted, claimed less than DeletionTimeout ago), the Pods whose claim
 * expired, and when the earliest kept claim expires.
 */
export function buildDisruptedPodMap(pods: readonly Pod[], disruptedPods: Readonly<Record<string, string>> | undefined, nowWallMs: number): { disruptedPods: Record<string, string>; expired: Pod[]; recheckWallMs?: number } {
	const kept: Record<string, string> = {};
	const expired: Pod[] = [];
	let recheckWallMs: number | undefined;
	if (!disruptedPods) return { disruptedPods: kept, expired };
	for (const pod of pods) {
		if (pod.metadata.deletionTimestamp) continue;
		const name = pod.metadata.name ?? '';
		const claimed = disruptedPods[name];
		if (claimed === undefined) continue;
		const expectedDeletion = parseRfc3339(claimed) + DELETION_TIMEOUT_MS;
		if (expectedDeletion < nowWallMs) expired.push(pod);
		else {
			if (recheckWallMs === undefined || expectedDeletion < recheckWallMs) recheckWallMs = expectedDeletion;
			kept[name] = claimed;
		}
	}
	return { disruptedPods: kept, expired, recheckWallMs };
}

/** updatePdbStatus's rule: never negative, and 0 while no pod is expected. */
export function disruptionsAllowed(currentHealthy: number, desiredHealthy: number, expectedCount: number): number {
	const allowed = currentHealthy - desiredHealthy;
	return expectedCount <= 0 || allowed <= 0 ? 0 : allowed;
}

/** `%v` of a *metav1.LabelSelector (its generated String method), as the UnmanagedPods event prints it. */
export function labelSelectorString(selector: NonNullable<PodDisruptionBudget['spec']>['selector']): string {
	if (!selector) return 'nil';
	const labels = selector.matchLabels ?? {};
	const matchLabels = Object.keys(labels)
		.sort(compareGoStrings)
		.map((k) => `${k}: ${labels[k]},`)
		.join('');
	const expressions = (selector.matchExpressions ?? []).map((e) => `LabelSelectorRequirement{Key:${e.key},Operator:${e.operator},Values:[${(e.values ?? []).join(' ')}],},`).join('');
	return `&LabelSelector{MatchLabels:map[string]string{${matchLabels}},MatchExpressions:[]LabelSelectorRequirement{${expressions}},}`;
}

/** verifyGroupKind: the reference names this kind in one of these groups. */
function isGroupKind(ref: OwnerReference, kind: string, groups: readonly string[]): boolean {
	const slash = ref.apiVersion.indexOf('/');
	const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
	return ref.kind === kind && groups.includes(group);
}

/** A budget's status with the disrupted-pod map compared as Semantic.DeepEqual does (nil and empty alike). */
function sameClaims(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
	const ak = Object.keys(a ?? {});
	return ak.length === Object.keys(b).length && ak.every((k) => b[k] === a?.[k]);
}

export class DisruptionController extends ControllerBase<Record<string, never>> {
	readonly name = DISRUPTION_CONTROLLER;
	readonly sub = 'disruption';
	readonly resources = ['poddisruptionbudgets', 'pods', 'replicasets', 'deployments', 'statefulsets'] as const;

	freshState(): Record<string, never> {
		return {};
	}

	// ---- event handlers ------------------------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'poddisruptionbudgets') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.podChanged(obj as Pod, true);
	}

	override onUpdate(resource: string, _oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'poddisruptionbudgets') this.enqueue(keyOf(newObj));
		else if (resource === 'pods') this.podChanged(newObj as Pod, true);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'poddisruptionbudgets') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.podChanged(obj as Pod, false);
	}

	/** addPod/updatePod/deletePod: the (first) budget of the pod; a stale DisruptionTarget condition is scheduled for clean-up. */
	private podChanged(pod: Pod, live: boolean): void {
		const pdb = this.pdbForPod(pod);
		if (pdb) this.enqueue(keyOf(pdb));
		if (!live) return;
		const stale = this.staleDisruptionCondition(pod);
		if (stale) this.host.timer(this.sub, 'stale-pod-disruption', stale.cleanAfterMs, keyOf(pod));
	}

	/** GetPodPodDisruptionBudgets: an empty selector matches every pod, a missing or invalid one none. */
	private budgetsForPod(pod: Pod): PodDisruptionBudget[] {
		return this.host.listInNamespace<PodDisruptionBudget>('poddisruptionbudgets', pod.metadata.namespace).filter((pdb) => {
			const selector = compileSelector(pdb.spec?.selector);
			return selector.ok && selector.matches(pod.metadata.labels);
		});
	}

	/** getPdbForPod: the first budget; more than one is reported on the pod. */
	private pdbForPod(pod: Pod): PodDisruptionBudget | undefined {
		const pdbs = this.budgetsForPod(pod);
		if (pdbs.length > 1) {
			const msg = `Pod ${JSON.stringify(pod.metadata.namespace ?? '')}/${JSON.stringify(pod.metadata.name ?? '')} matches multiple PodDisruptionBudgets.  Chose ${JSON.stringify(pdbs[0].metadata.name ?? '')} arbitrarily.`;
			this.host.recorder(EVENT_SOURCE).record(pod, 'Warning', 'MultiplePodDisruptionBudgets', msg);
		}
		return pdbs[0];
	}

	// ---- sync ----------------------------------------------------------------------

	sync(key: string): SyncError {
		const pdb = this.host.informer('poddisruptionbudgets').get(key) as PodDisruptionBudget | undefined;
		if (!pdb) {
			this.trace('reconcile', `poddisruptionbudgets/${key}`, `podDisruptionBudget ${key} has been deleted`);
			return undefined;
		}
		const outcome = this.trySync(pdb);
		if (outcome === undefined) return undefined;
		// A conflict is requeued without the fail-safe.
		if (outcome.conflict) return outcome.error;
		this.trace('sync-failed', `poddisruptionbudgets/${key}`, `failed to sync PDB ${key}: ${outcome.error}`);
		return this.failSafe(pdb, outcome.error);
	}

	private trySync(pdb: PodDisruptionBudget): { error: string; conflict?: boolean } | undefined {
		const key = keyOf(pdb);
		const recorder = this.host.recorder(EVENT_SOURCE);
		const selector = compileSelector(pdb.spec?.selector);
		if (!selector.ok) {
			recorder.record(pdb, 'Warning', 'NoPods', `Failed to get pods: ${selector.error}`);
			return { error: selector.error };
		}
		const pods = this.host.listInNamespace<Pod>('pods', pdb.metadata.namespace).filter((p) => selector.matches(p.metadata.labels));
		if (pods.length === 0) recorder.record(pdb, 'Normal', 'NoPods', 'No matching pods found');
		const expected = getExpectedPodCount(pdb, pods, this.finders());
		if ('error' in expected) {
			recorder.record(pdb, 'Warning', 'CalculateExpectedPodCountFailed', `Failed to calculate the number of expected pods: ${expected.error}`);
			return { error: expected.error };
		}
		if (expected.unmanagedPods.length > 0) {
			recorder.record(
				pdb,
				'Warning',
				'UnmanagedPods',
				`Pods selected by this PodDisruptionBudget (selector: ${labelSelectorString(pdb.spec?.selector)}) were found to be unmanaged. As a result, the status of the PDB cannot be calculated correctly, which may result in undefined behavior. To account for these pods please set ".spec.minAvailable" field of the PDB to an integer value.`,
			);
		}
		const now = this.wallMs;
		const claims = buildDisruptedPodMap(pods, pdb.status?.disruptedPods, now);
		// Upstream prints the budget's namespace twice here (pdb.Namespace, pdb.Namespace), and so do we.
		for (const pod of claims.expired) recorder.record(pod, 'Warning', 'NotDeleted', `Pod was expected by PDB ${pdb.metadata.namespace}/${pdb.metadata.namespace} to be deleted but it wasn't`);
		const currentHealthy = countHealthyPods(pods, claims.disruptedPods, now);
		this.trace('reconcile', `poddisruptionbudgets/${key}`, `${pods.length} matching pods: expected ${expected.expectedCount}, desired healthy ${expected.desiredHealthy}, healthy ${currentHealthy}`);
		const written = this.updatePdbStatus(pdb, currentHealthy, expected.desiredHealthy, expected.expectedCount, claims.disruptedPods);
		if (written) return written;
		if (claims.recheckWallMs !== undefined) this.host.enqueueAfter(this.sub, key, claims.recheckWallMs - now, true);
		return undefined;
	}

	/** updatePdbStatus: write only when a counter, the claims, the generation or the condition is out of date. */
	private updatePdbStatus(pdb: PodDisruptionBudget, currentHealthy: number, desiredHealthy: number, expectedCount: number, disruptedPods: Record<string, string>): { error: string; conflict?: boolean } | undefined {
		const allowed = disruptionsAllowed(currentHealthy, desiredHealthy, expectedCount);
		const old = pdb.status ?? {};
		const generation = pdb.metadata.generation ?? 0;
		if (
			(old.currentHealthy ?? 0) === currentHealthy &&
			(old.desiredHealthy ?? 0) === desiredHealthy &&
			(old.expectedPods ?? 0) === expectedCount &&
			(old.disruptionsAllowed ?? 0) === allowed &&
			sameClaims(old.disruptedPods, disruptedPods) &&
			(old.observedGeneration ?? 0) === generation &&
			conditionsAreUpToDate(generation, old)
		) {
			return undefined;
		}
		const status: PdbStatus = { currentHealthy, desiredHealthy, disruptionsAllowed: allowed, expectedPods: expectedCount, observedGeneration: generation };
		if (Object.keys(disruptedPods).length) status.disruptedPods = disruptedPods;
		status.conditions = deepCopy(old.conditions ?? []);
		updateDisruptionAllowedCondition(status, this.nowRfc3339());
		return this.writeStatus(pdb, status);
	}

	/** failSafe: at least set disruptionsAllowed to 0, with the reason. Returns the write's error, if any. */
	private failSafe(pdb: PodDisruptionBudget, error: string): SyncError {
		const status: PdbStatus = { ...deepCopy(pdb.status ?? {}), disruptionsAllowed: 0 };
		status.conditions ??= [];
		setStatusCondition(status.conditions, { type: DISRUPTION_ALLOWED_CONDITION, status: 'False', reason: SYNC_FAILED_REASON, message: error, observedGeneration: status.observedGeneration }, this.nowRfc3339());
		return this.writeStatus(pdb, status)?.error;
	}

	/** writePdbStatus: one UpdateStatus, never retried here (the work queue retries). */
	private writeStatus(pdb: PodDisruptionBudget, status: PdbStatus): { error: string; conflict?: boolean } | undefined {
		const written = this.host.client.updateStatus(PODDISRUPTIONBUDGETS, { ...deepCopy(pdb), status });
		if (written.ok) return undefined;
		return { error: written.message, conflict: written.code === 409 };
	}

	// ---- the finders ---------------------------------------------------------------

	/** finders(): the workload listers first, then any resource's scale subresource. */
	private finders(): ControllerFinder[] {
		return [(ref, ns) => this.podDeployment(ref, ns), (ref, ns) => this.podReplicaSet(ref, ns), (ref, ns) => this.podStatefulSet(ref, ns), (ref, ns) => this.scaleController(ref, ns)];
	}

	private replicaSetOf(ref: OwnerReference, namespace: string): ReplicaSet | undefined {
		if (!isGroupKind(ref, 'ReplicaSet', ['apps', 'extensions'])) return undefined;
		const rs = this.host.informer('replicasets').get(keyFor(namespace, ref.name)) as ReplicaSet | undefined;
		return rs && rs.metadata.uid === ref.uid ? rs : undefined;
	}

	/** getPodDeployment: a ReplicaSet's Deployment, whose scale is what counts. */
	private podDeployment(ref: OwnerReference, namespace: string): FinderResult {
		const rs = this.replicaSetOf(ref, namespace);
		const owner = rs && controllerOf(rs);
		if (!owner || !isGroupKind(owner, 'Deployment', ['apps', 'extensions'])) return undefined;
		const deployment = this.host.informer('deployments').get(keyFor(namespace, owner.name)) as Deployment | undefined;
		if (!deployment || deployment.metadata.uid !== owner.uid) return undefined;
		return { uid: deployment.metadata.uid ?? '', scale: deployment.spec.replicas ?? 1 };
	}

	/** getPodReplicaSet: a ReplicaSet no Deployment controls. */
	private podReplicaSet(ref: OwnerReference, namespace: string): FinderResult {
		const rs = this.replicaSetOf(ref, namespace);
		if (!rs || controllerOf(rs)?.kind === 'Deployment') return undefined;
		return { uid: rs.metadata.uid ?? '', scale: rs.spec.replicas ?? 1 };
	}

	/** getPodStatefulSet. */
	private podStatefulSet(ref: OwnerReference, namespace: string): FinderResult {
		if (!isGroupKind(ref, 'StatefulSet', ['apps'])) return undefined;
		const sts = this.host.informer('statefulsets').get(keyFor(namespace, ref.name)) as StatefulSet | undefined;
		if (!sts || sts.metadata.uid !== ref.uid) return undefined;
		return { uid: sts.metadata.uid ?? '', scale: sts.spec.replicas ?? 1 };
	}

	/** getScaleController: the scale subresource of whatever owns the pod, or why there is none. */
	private scaleController(ref: OwnerReference, namespace: string): FinderResult {
		// RESTMapping(groupKind, version): meta.NoKindMatchError when nothing serves that kind at that version.
		const info = RESOURCES.find((r) => groupVersion(r) === ref.apiVersion && r.kind === ref.kind);
		if (!info) return { error: `no matches for kind ${JSON.stringify(ref.kind)} in version ${JSON.stringify(ref.apiVersion)}` };
		if (!info.subresources.includes('scale')) return { error: `${qualifiedResource(info)} does not implement the scale subresource` };
		const got = this.host.client.call<{ metadata: { uid?: string }; spec?: { replicas?: number } }>({ verb: 'get', group: info.group, version: info.version, resource: info.resource, namespace, name: ref.name, subresource: 'scale' });
		if (!got.ok) return got.code === 404 ? undefined : { error: got.message };
		if (got.object.metadata.uid !== ref.uid) return undefined;
		return { uid: got.object.metadata.uid ?? '', scale: got.object.spec?.replicas ?? 0 };
	}

	// ---- stale DisruptionTarget conditions --------------------------------------------

	/** nonTerminatingPodHasStaleDisruptionCondition: how long until the condition counts as stale. */
	private staleDisruptionCondition(pod: Pod): { cleanAfterMs: number } | undefined {
		if (pod.metadata.deletionTimestamp) return undefined;
		const condition = pod.status?.conditions?.find((c) => c.type === 'DisruptionTarget');
		const phase = pod.status?.phase;
		if (!condition || condition.status !== 'True' || condition.reason === TERMINATION_BY_KUBELET || phase === 'Succeeded' || phase === 'Failed') return undefined;
		const since = parseRfc3339(condition.lastTransitionTime ?? '');
		const elapsed = Number.isNaN(since) ? STALE_POD_DISRUPTION_TIMEOUT_MS : this.wallMs - since;
		return { cleanAfterMs: Math.max(0, STALE_POD_DISRUPTION_TIMEOUT_MS - elapsed) };
	}

	override onTimer(timer: string, data: unknown): void {
		if (timer !== 'stale-pod-disruption' || typeof data !== 'string') return;
		const pod = this.host.informer('pods').get(data) as Pod | undefined;
		if (!pod) return;
		const stale = this.staleDisruptionCondition(pod);
		if (!stale) return;
		if (stale.cleanAfterMs > 0) {
			this.host.timer(this.sub, 'stale-pod-disruption', stale.cleanAfterMs, data);
			return;
		}
		// syncStalePodDisruption: UpdatePodCondition with status False (reason and message cleared).
		const updated = deepCopy(pod);
		const conditions = updated.status?.conditions ?? [];
		updated.status = { ...(updated.status ?? {}), conditions: conditions.map((c) => (c.type === 'DisruptionTarget' ? { type: 'DisruptionTarget', status: 'False', lastProbeTime: null, lastTransitionTime: formatRfc3339(this.wallMs) } : c)) };
		const written = this.host.client.updateStatus(R.pods, updated);
		const { namespace, name } = splitKey(data);
		if (written.ok) this.trace('stale-disruption', `pods/${namespace}/${name}`, 'reset stale DisruptionTarget condition to False');
		// syncStalePodDisruption retries rate-limited; a later pod update reschedules it here.
		else this.host.timer(this.sub, 'stale-pod-disruption', 5_000, data);
	}
}
