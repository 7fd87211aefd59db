/**
 * Rollout progress: the Progressing condition (NewReplicaSetAvailable when
 * complete, ReplicaSetUpdated while pods move, ProgressDeadlineExceeded when
 * nothing moved for progressDeadlineSeconds) and the requeue that checks the
 * deadline in time.
 *
 * Mirrors pkg/controller/deployment/progress.go.
 */
import type { Deployment, DeploymentCondition, ReplicaSet } from '../../api/types.ts';
import { timeMs } from '../pod-util.ts';
import {
	Reasons,
	deploymentComplete,
	deploymentProgressing,
	deploymentTimedOut,
	getDeploymentCondition,
	hasProgressDeadline,
	newDeploymentCondition,
	removeDeploymentCondition,
	setDeploymentCondition,
	type DefaultedDeployment,
} from './deployment-util.ts';
import { calculateStatus, statusEqual, updateDeploymentStatus, type DeploymentSyncContext } from './sync.ts';

/** syncRolloutStatus: status plus the Progressing condition. */
export function syncRolloutStatus(ctx: DeploymentSyncContext, allRSs: Array<ReplicaSet | undefined>, newRS: ReplicaSet | undefined, d: DefaultedDeployment): void {
	const newStatus = calculateStatus(ctx, allRSs, newRS, d);
	if (!hasProgressDeadline(d)) removeDeploymentCondition(newStatus, 'Progressing');
	const currentCond = getDeploymentCondition(d.status, 'Progressing');
	const isCompleteDeployment = (newStatus.replicas ?? 0) === (newStatus.updatedReplicas ?? 0) && currentCond?.reason === Reasons.NewRSAvailable;
	if (hasProgressDeadline(d) && !isCompleteDeployment) {
		const name = d.metadata.name;
		if (deploymentComplete(d, newStatus)) {
			const msg = newRS ? `ReplicaSet "${newRS.metadata.name}" has successfully progressed.` : `Deployment "${name}" has successfully progressed.`;
			setDeploymentCondition(newStatus, newDeploymentCondition('Progressing', 'True', Reasons.NewRSAvailable, msg, ctx.now()));
		} else if (deploymentProgressing(d, newStatus)) {
			// Progress refreshes lastUpdateTime even with the same reason, keeping lastTransitionTime while True.
			const msg = newRS ? `ReplicaSet "${newRS.metadata.name}" is progressing.` : `Deployment "${name}" is progressing.`;
			const condition = newDeploymentCondition('Progressing', 'True', Reasons.ReplicaSetUpdated, msg, ctx.now());
			if (currentCond) {
				if (currentCond.status === 'True' && currentCond.lastTransitionTime) condition.lastTransitionTime = currentCond.lastTransitionTime;
				newStatus.conditions = (newStatus.conditions ?? []).filter((c) => c.type !== 'Progressing');
			}
			setDeploymentCondition(newStatus, condition);
		} else if (deploymentTimedOut(d, newStatus, ctx.wallMs())) {
			const msg = newRS ? `ReplicaSet "${newRS.metadata.name}" has timed out progressing.` : `Deployment "${name}" has timed out progressing.`;
			setDeploymentCondition(newStatus, newDeploymentCondition('Progressing', 'False', Reasons.TimedOut, msg, ctx.now()));
		}
	}
	// ReplicaFailure conditions of the ReplicaSets are promoted to the Deployment.
	const failure = replicaFailure(allRSs, newRS);
	if (failure) setDeploymentCondition(newStatus, failure);
	else removeDeploymentCondition(newStatus, 'ReplicaFailure');

	if (statusEqual(d.status, newStatus)) {
		requeueStuckDeployment(ctx, d, newStatus);
		return;
	}
	d.status = newStatus;
	updateDeploymentStatus(ctx, d);
}

/** getReplicaFailures: the new ReplicaSet's ReplicaFailure condition first, then an old one's. */
function replicaFailure(allRSs: Array<ReplicaSet | undefined>, newRS: ReplicaSet | undefined): DeploymentCondition | undefined {
	const ordered = newRS ? [newRS, ...allRSs.filter((rs) => rs && rs.metadata.uid !== newRS.metadata.uid)] : allRSs;
	for (const rs of ordered) {
		const cond = rs?.status?.conditions?.find((c) => c.type === 'ReplicaFailure');
		if (cond) {
			return {
				type: 'ReplicaFailure',
				status: cond.status as 'True' | 'False' | 'Unknown',
				lastTransitionTime: cond.lastTransitionTime,
				lastUpdateTime: cond.lastTransitionTime,
				reason: cond.reason,
				message: cond.message,
			};
		}
	}
	return undefined;
}

/**
 * requeueStuckDeployment: when nothing moved, check again just after the
 * deadline would pass (lastUpdateTime + progressDeadlineSeconds - now,
 * plus a second), so ProgressDeadlineExceeded is reported on time.
 */
function requeueStuckDeployment(ctx: DeploymentSyncContext, d: DefaultedDeployment, newStatus: NonNullable<Deployment['status']>): void {
	const currentCond = getDeploymentCondition(d.status, 'Progressing');
	if (!hasProgressDeadline(d) || !currentCond) return;
	if (deploymentComplete(d, newStatus) || currentCond.reason === Reasons.TimedOut) return;
	const afterMs = timeMs(currentCond.lastUpdateTime) + d.spec.progressDeadlineSeconds * 1000 - ctx.wallMs();
	if (afterMs < 1000) {
		ctx.enqueueRateLimited(d);
		return;
	}
	ctx.enqueueAfter(d, afterMs + 1000);
}
