/**
 * Which pods a ReplicaSet deletes first when it scales down, with the
 * PodDeletionCost (GA) and LogarithmicScaleDown (GA) behaviour that v1.36
 * always has.
 *
 * The rules, each deciding only when the previous ones tie:
 *  1. unassigned before assigned;
 *  2. Pending before Unknown before Running;
 *  3. not ready before ready;
 *  4. lower `controller.kubernetes.io/pod-deletion-cost` first;
 *  5. higher rank first (more sibling pods on the same node: "doubled up");
 *  6. both ready: ready for less time first, times compared on a log2 scale
 *     (equal buckets fall through to the UID order);
 *  7. more container restarts first;
 *  8. newer first (again on a log2 scale, then by UID).
 *
 * Mirrors pkg/controller/controller_utils.go (ActivePodsWithRanks),
 * pkg/controller/replicaset/replica_set.go (getPodsToDelete,
 * getPodsRankedByRelatedPodsOnSameNode).
 */
import type { Pod } from '../api/types.ts';
import { isPodActive, isPodReady, podReadyCondition, timeMs } from './pod-util.ts';

/** podPhaseToOrdinal: phases not listed (Succeeded, Failed, none) count as Pending's 0, as a Go map miss does. */
const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

const POD_DELETION_COST_ANNOTATION = 'controller.kubernetes.io/pod-deletion-cost';

/** helper.GetDeletionCostFromPodAnnotations: an int32; absent or invalid counts as 0. */
export function podDeletionCost(pod: Pod): number {
	const text = pod.metadata.annotations?.[POD_DELETION_COST_ANNOTATION];
	if (text === undefined || !/^[+-]?\d+$/.test(text.trim())) return 0;
	const value = Number(text.trim());
	return value >= -2147483648 && value <= 2147483647 ? value : 0;
}

function maxContainerRestarts(pod: Pod): number {
	return Math.max(0, ...(pod.status?.containerStatuses ?? []).map((c) => c.restartCount ?? 0));
}

/** Seconds-precision times as Go nanoseconds since `now`, bucketed by floor(log2); -1 when not in the past. */
function logRank(tMs: number, nowMs: number): number {
	const ns = (nowMs - tMs) * 1e6;
	return ns > 0 ? Math.floor(Math.log2(ns)) : -1;
}

/** afterOrZero: a zero time sorts first; otherwise the later time first. */
function afterOrZero(aMs: number, bMs: number): boolean {
	if (aMs === 0 || bMs === 0) return aMs === 0;
	return aMs > bMs;
}

/** ActivePodsWithRanks.Less: true when pod `a` (rank `ra`) should be deleted before pod `b` (rank `rb`). */
export function deletePodFirst(a: Pod, ra: number, b: Pod, rb: number, nowWallMs: number): boolean {
	const nodeA = a.spec.nodeName ?? '';
	const nodeB = b.spec.nodeName ?? '';
	if (nodeA !== nodeB && (nodeA === '' || nodeB === '')) return nodeA === '';
	const phaseA = PHASE_ORDINAL[a.status?.phase ?? ''] ?? 0;
	const phaseB = PHASE_ORDINAL[b.status?.phase ?? ''] ?? 0;
	if (phaseA !== phaseB) return phaseA < phaseB;
	const readyA = isPodReady(a);
	const readyB = isPodReady(b);
	if (readyA !== readyB) return !readyA;
	const costA = podDeletionCost(a);
	const costB = podDeletionCost(b);
	if (costA !== costB) return costA < costB;
	if (ra !== rb) return ra > rb;
	if (readyA && readyB) {
		const ta = timeMs(podReadyCondition(a)?.lastTransitionTime);
		const tb = timeMs(podReadyCondition(b)?.lastTransitionTime);
		if (ta !== tb) {
			if (ta === 0 || tb === 0) return afterOrZero(ta, tb);
			const diff = logRank(ta, nowWallMs) - logRank(tb, nowWallMs);
			if (diff === 0) return (a.metadata.uid ?? '') < (b.metadata.uid ?? '');
			return diff < 0;
		}
	}
	const restartsA = maxContainerRestarts(a);
	const restartsB = maxContainerRestarts(b);
	if (restartsA !== restartsB) return restartsA > restartsB;
	const ca = timeMs(a.metadata.creationTimestamp);
	const cb = timeMs(b.metadata.creationTimestamp);
	if (ca !== cb) {
		if (ca === 0 || cb === 0) return afterOrZero(ca, cb);
		const diff = logRank(ca, nowWallMs) - logRank(cb, nowWallMs);
		if (diff === 0) return (a.metadata.uid ?? '') < (b.metadata.uid ?? '');
		return diff < 0;
	}
	return false;
}

/** Ranks: for each pod, how many active related pods share its node (getPodsRankedByRelatedPodsOnSameNode). */
export function ranksByRelatedPodsOnSameNode(podsToRank: Pod[], relatedPods: Pod[]): number[] {
	const onNode = new Map<string, number>();
	for (const pod of relatedPods) {
		if (!isPodActive(pod)) continue;
		const node = pod.spec.nodeName ?? '';
		onNode.set(node, (onNode.get(node) ?? 0) + 1);
	}
	return podsToRank.map((pod) => onNode.get(pod.spec.nodeName ?? '') ?? 0);
}

/**
 * getPodsToDelete: the `diff` pods to delete, best candidates first. All of
 * them when `diff` covers the whole list (upstream skips sorting then).
 */
export function podsToDelete(filteredPods: Pod[], relatedPods: Pod[], diff: number, nowWallMs: number): Pod[] {
	if (diff >= filteredPods.length) return filteredPods.slice(0, diff);
	const ranks = ranksByRelatedPodsOnSameNode(filteredPods, relatedPods);
	const indexed = filteredPods.map((pod, i) => ({ pod, rank: ranks[i] }));
	// A stable sort with upstream's Less; ties keep the input order.
	indexed.sort((x, y) => (deletePodFirst(x.pod, x.rank, y.pod, y.rank, nowWallMs) ? -1 : deletePodFirst(y.pod, y.rank, x.pod, x.rank, nowWallMs) ? 1 : 0));
	return indexed.slice(0, diff).map((e) => e.pod);
}
