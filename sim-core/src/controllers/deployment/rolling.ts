/**
 * The RollingUpdate strategy: grow the new ReplicaSet while all ReplicaSets
 * together stay within replicas + maxSurge, shrink old ones while at least
 * replicas - maxUnavailable pods stay available, one reconcile at a time.
 *
 * Mirrors pkg/controller/deployment/rolling.go.
 */
import type { ReplicaSet } from '../../api/types.ts';
import {
	availableReplicaCount,
	byCreationTimestamp,
	deploymentComplete,
	filterActiveReplicaSets,
	maxUnavailable,
	newRSNewReplicas,
	rsReplicas,
	specReplicaCount,
	type DefaultedDeployment,
} from './deployment-util.ts';
import { syncRolloutStatus } from './progress.ts';
import { SyncFailure, cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent, type DeploymentSyncContext } from './sync.ts';

/** rolloutRolling: scale up if possible, else scale down if possible, then report. */
export function rolloutRolling(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[]): void {
	const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true);
	if (!newRS) throw new SyncFailure('new replica set not found');
	const allRSs = [...oldRSs, newRS];
	if (reconcileNewReplicaSet(ctx, allRSs, newRS, d)) {
		syncRolloutStatus(ctx, allRSs, newRS, d);
		return;
	}
	if (reconcileOldReplicaSets(ctx, allRSs, filterActiveReplicaSets(oldRSs), newRS, d)) {
		syncRolloutStatus(ctx, allRSs, newRS, d);
		return;
	}
	if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(ctx, oldRSs, d);
	syncRolloutStatus(ctx, allRSs, newRS, d);
}

/** reconcileNewReplicaSet: true if the new ReplicaSet was resized. */
function reconcileNewReplicaSet(ctx: DeploymentSyncContext, allRSs: ReplicaSet[], newRS: ReplicaSet, d: DefaultedDeployment): boolean {
	if (rsReplicas(newRS) === d.spec.replicas) return false;
	if (rsReplicas(newRS) > d.spec.replicas) return scaleReplicaSetAndRecordEvent(ctx, newRS, d.spec.replicas, d).scaled;
	return scaleReplicaSetAndRecordEvent(ctx, newRS, newRSNewReplicas(d, allRSs, newRS), d).scaled;
}

/**
 * How many old replicas may go now: everything above minAvailable, minus
 * the new ReplicaSet's not-yet-available pods (they may never come up, so
 * they cannot stand in for old ones).
 */
export function maxScaledDown(allRSs: ReplicaSet[], newRS: ReplicaSet, d: DefaultedDeployment): number {
	const allPodsCount = specReplicaCount(allRSs);
	const minAvailable = d.spec.replicas - maxUnavailable(d);
	const newRSUnavailablePodCount = rsReplicas(newRS) - (newRS.status?.availableReplicas ?? 0);
	return allPodsCount - minAvailable - newRSUnavailablePodCount;
}

/** reconcileOldReplicaSets: unhealthy old replicas first, then healthy ones down to minAvailable. True if any went. */
function reconcileOldReplicaSets(ctx: DeploymentSyncContext, allRSs: ReplicaSet[], oldRSs: ReplicaSet[], newRS: ReplicaSet, d: DefaultedDeployment): boolean {
	const oldPodsCount = specReplicaCount(oldRSs);
	if (oldPodsCount === 0) return false;
	const limit = maxScaledDown(allRSs, newRS, d);
	if (limit <= 0) return false;
	const cleaned = cleanupUnhealthyReplicas(ctx, oldRSs, d, limit);
	const scaledDown = scaleDownOldReplicaSetsForRollingUpdate(ctx, [...cleaned.oldRSs, newRS], cleaned.oldRSs, d);
	return cleaned.count + scaledDown > 0;
}

/** cleanupUnhealthyReplicas: removes old replicas that are not available, oldest ReplicaSet first. */
function cleanupUnhealthyReplicas(ctx: DeploymentSyncContext, oldRSs: ReplicaSet[], d: DefaultedDeployment, maxCleanupCount: number): { oldRSs: ReplicaSet[]; count: number } {
	const sorted = [...oldRSs].sort(byCreationTimestamp);
	let total = 0;
	for (let i = 0; i < sorted.length; i++) {
		if (total >= maxCleanupCount) break;
		const target = sorted[i];
		const replicas = rsReplicas(target);
		const available = target.status?.availableReplicas ?? 0;
		if (replicas === 0 || replicas === available) continue;
		const count = Math.min(maxCleanupCount - total, replicas - available);
		const newCount = replicas - count;
		if (newCount > replicas) throw new SyncFailure(`when cleaning up unhealthy replicas, got invalid request to scale down ${target.metadata.namespace}/${target.metadata.name} ${replicas} -> ${newCount}`);
		sorted[i] = scaleReplicaSetAndRecordEvent(ctx, target, newCount, d).rs;
		total += count;
	}
	return { oldRSs: sorted, count: total };
}

/** scaleDownOldReplicaSetsForRollingUpdate: old replicas beyond minAvailable, oldest ReplicaSet first. */
function scaleDownOldReplicaSetsForRollingUpdate(ctx: DeploymentSyncContext, allRSs: ReplicaSet[], oldRSs: ReplicaSet[], d: DefaultedDeployment): number {
	const minAvailable = d.spec.replicas - maxUnavailable(d);
	const available = availableReplicaCount(allRSs);
	if (available <= minAvailable) return 0;
	const sorted = [...oldRSs].sort(byCreationTimestamp);
	const totalToScaleDown = available - minAvailable;
	let total = 0;
	for (const target of sorted) {
		if (total >= totalToScaleDown) break;
		if (rsReplicas(target) === 0) continue;
		const count = Math.min(rsReplicas(target), totalToScaleDown - total);
		const newCount = rsReplicas(target) - count;
		if (newCount > rsReplicas(target)) throw new SyncFailure(`when scaling down old replica set, got invalid request to scale down ${target.metadata.namespace}/${target.metadata.name} ${rsReplicas(target)} -> ${newCount}`);
		scaleReplicaSetAndRecordEvent(ctx, target, newCount, d);
		total += count;
	}
	return total;
}
