/**
 * The Recreate strategy: scale every old ReplicaSet to 0, wait until none of
 * their pods is left running, then create (or scale up) the new one to the
 * full count.
 *
 * Mirrors pkg/controller/deployment/recreate.go.
 */
import type { Pod, ReplicaSet } from '../../api/types.ts';
import { actualReplicaCount, deploymentComplete, filterActiveReplicaSets, rsReplicas, type DefaultedDeployment } from './deployment-util.ts';
import { syncRolloutStatus } from './progress.ts';
import { cleanupDeployment, getAllReplicaSetsAndSyncRevision, scaleReplicaSetAndRecordEvent, type DeploymentSyncContext } from './sync.ts';

/** rolloutRecreate. `podMap` holds the pods of each ReplicaSet, by ReplicaSet uid. */
export function rolloutRecreate(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[], podMap: Record<string, Pod[]>): void {
	let { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
	let allRSs = [...oldRSs, newRS];
	if (scaleDownOldReplicaSetsForRecreate(ctx, filterActiveReplicaSets(oldRSs), d)) {
		syncRolloutStatus(ctx, allRSs, newRS, d);
		return;
	}
	if (oldPodsRunning(newRS, oldRSs, podMap)) {
		syncRolloutStatus(ctx, allRSs, newRS, d);
		return;
	}
	if (!newRS) {
		({ newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, d, rsList, true));
		allRSs = [...oldRSs, newRS];
	}
	if (newRS) scaleReplicaSetAndRecordEvent(ctx, newRS, d.spec.replicas, d);
	if (deploymentComplete(d, d.status ?? {})) cleanupDeployment(ctx, oldRSs, d);
	syncRolloutStatus(ctx, allRSs, newRS, d);
}

function scaleDownOldReplicaSetsForRecreate(ctx: DeploymentSyncContext, oldRSs: ReplicaSet[], d: DefaultedDeployment): boolean {
	let scaled = false;
	for (const rs of oldRSs) {
		if (rsReplicas(rs) === 0) continue;
		if (scaleReplicaSetAndRecordEvent(ctx, rs, 0, d).scaled) scaled = true;
	}
	return scaled;
}

/** oldPodsRunning: an old ReplicaSet still reports pods, or an old pod has not finished (terminating ones count). */
function oldPodsRunning(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[], podMap: Record<string, Pod[]>): boolean {
	if (actualReplicaCount(oldRSs) > 0) return true;
	for (const [rsUid, pods] of Object.entries(podMap)) {
		if (newRS && newRS.metadata.uid === rsUid) continue;
		for (const pod of pods) {
			const phase = pod.status?.phase;
			if (phase === 'Failed' || phase === 'Succeeded') continue;
			return true;
		}
	}
	return false;
}
