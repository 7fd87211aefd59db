/**
 * The Deployment controller's shared steps: finding or creating the new
 * ReplicaSet and keeping revisions in order, scaling (proportionally when a
 * Deployment is resized mid-rollout), cleaning up old ReplicaSets beyond
 * revisionHistoryLimit, and computing status.
 *
 * Steps fail by throwing SyncFailure; DeploymentController.sync catches it
 * and requeues the key, as upstream's `return err` does.
 *
 * Mirrors pkg/controller/deployment/sync.go.
 */
import type { Deployment, ReplicaSet } from '../../api/types.ts';
import { R, type ApiClient } from '../../client/client.ts';
import type { EventRecorder } from '../../client/events.ts';
import { canonicalJson, computeHash } from '../hash.ts';
import { controllerOf, isNamespaceTerminating, newControllerRef } from '../pod-util.ts';
import { deepCopy } from '../../golang/json.ts';
import {
	POD_TEMPLATE_HASH_LABEL,
	REVISION_ANNOTATION,
	Reasons,
	actualReplicaCount,
	availableReplicaCount,
	byRevision,
	bySizeNewer,
	bySizeOlder,
	desiredReplicasAnnotation,
	equalIgnoreHash,
	filterActiveReplicaSets,
	findActiveOrLatest,
	findNewReplicaSet,
	findOldReplicaSets,
	getDeploymentCondition,
	hasProgressDeadline,
	hasRevisionHistoryLimit,
	isRollingUpdate,
	isSaturated,
	maxRevision,
	maxSurge,
	maxUnavailable,
	newDeploymentCondition,
	newRSNewReplicas,
	readyReplicaCount,
	replicaSetProportion,
	replicasAnnotationsNeedUpdate,
	rsReplicas,
	setDeploymentCondition,
	setDeploymentRevision,
	setNewReplicaSetAnnotations,
	setReplicasAnnotations,
	specReplicaCount,
	terminatingReplicaCount,
	type DefaultedDeployment,
} from './deployment-util.ts';

/** A step that could not complete: the key is requeued rate-limited. */
export class SyncFailure extends Error {
	override name = 'SyncFailure';
}

/** What the sync steps need from the controller. */
export interface DeploymentSyncContext {
	client: ApiClient;
	recorder: EventRecorder;
	/** metav1.Now() as RFC 3339. */
	now(): string;
	wallMs(): number;
	/** Requeue the Deployment after a delay (a background check). */
	enqueueAfter(d: Deployment, delayMs: number): void;
	/** Requeue the Deployment rate-limited. */
	enqueueRateLimited(d: Deployment): void;
}

/** JSON fields of DeploymentStatus that Go omits when zero (`omitempty` on plain int32/int64). */
const OMIT_WHEN_ZERO = ['observedGeneration', 'replicas', 'updatedReplicas', 'readyReplicas', 'availableReplicas', 'unavailableReplicas'] as const;

/** The status as the API would serialize it: zero counters dropped, pointers kept. */
function normalizeStatus(status: Deployment['status']): NonNullable<Deployment['status']> {
	const out: NonNullable<Deployment['status']> = { ...(status ?? {}) };
	for (const key of OMIT_WHEN_ZERO) if (!out[key]) delete out[key];
	if (out.terminatingReplicas === undefined) delete out.terminatingReplicas;
	if (out.collisionCount === undefined) delete out.collisionCount;
	if (!out.conditions?.length) delete out.conditions;
	return out;
}

export function statusEqual(a: Deployment['status'], b: Deployment['status']): boolean {
	return canonicalJson(normalizeStatus(a)) === canonicalJson(normalizeStatus(b));
}

/**
 * UpdateStatus. Upstream's status strategy for Deployments keeps the
 * metadata the controller sends, which is how the revision annotation
 * reaches the Deployment; if this API server's strategy dropped it, the
 * annotation follows in a merge patch. The Deployment copy then carries
 * the new resourceVersion, so the next write of this sync does not
 * conflict with this one (upstream discards the answer and sometimes gets a
 * 409 and a rate-limited retry instead).
 */
export function updateDeploymentStatus(ctx: DeploymentSyncContext, d: Deployment): void {
	d.status = normalizeStatus(d.status);
	const written = ctx.client.updateStatus<Deployment>(R.deployments, d);
	if (!written.ok) throw new SyncFailure(written.message);
	let resourceVersion = written.object.metadata.resourceVersion;
	const revision = d.metadata.annotations?.[REVISION_ANNOTATION];
	if (revision !== undefined && written.object.metadata.annotations?.[REVISION_ANNOTATION] !== revision) {
		const patched = ctx.client.patch<Deployment>(R.deployments, d.metadata.namespace, d.metadata.name ?? '', { metadata: { annotations: { [REVISION_ANNOTATION]: revision } } }, 'application/merge-patch+json');
		if (!patched.ok) throw new SyncFailure(patched.message);
		resourceVersion = patched.object.metadata.resourceVersion;
	}
	d.metadata.resourceVersion = resourceVersion;
}

/** Writes a ReplicaSet (spec and metadata). */
function updateReplicaSet(ctx: DeploymentSyncContext, rs: ReplicaSet): ReplicaSet {
	const written = ctx.client.update<ReplicaSet>(R.replicasets, rs);
	if (!written.ok) throw new SyncFailure(written.message);
	return written.object;
}

/**
 * getAllReplicaSetsAndSyncRevision: the new ReplicaSet (created when asked
 * and missing) and every old one, with revisions brought up to date.
 */
export function getAllReplicaSetsAndSyncRevision(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[], createIfNotExisted: boolean): { newRS: ReplicaSet | undefined; oldRSs: ReplicaSet[] } {
	const oldRSs = findOldReplicaSets(d, rsList);
	const newRS = getNewReplicaSet(ctx, d, rsList, oldRSs, createIfNotExisted);
	return { newRS, oldRSs };
}

/**
 * getNewReplicaSet. An existing new ReplicaSet gets its annotations synced
 * (revision = max old revision + 1 when lower: this is how a rollback
 * reuses an old ReplicaSet) and minReadySeconds; otherwise one is created,
 * named `<deployment>-<pod-template-hash>`.
 */
function getNewReplicaSet(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[], oldRSs: ReplicaSet[], createIfNotExisted: boolean): ReplicaSet | undefined {
	const existing = findNewReplicaSet(d, rsList);
	const newRevision = String(maxRevision(oldRSs) + 1n);
	d.status ??= {};
	if (existing) {
		const rsCopy = deepCopy(existing);
		const annotationsUpdated = setNewReplicaSetAnnotations(d, rsCopy, newRevision, true);
		const minReadySecondsNeedsUpdate = (rsCopy.spec.minReadySeconds ?? 0) !== d.spec.minReadySeconds;
		if (annotationsUpdated || minReadySecondsNeedsUpdate) {
			rsCopy.spec.minReadySeconds = d.spec.minReadySeconds;
			return updateReplicaSet(ctx, rsCopy);
		}
		let needsUpdate = setDeploymentRevision(d, rsCopy.metadata.annotations?.[REVISION_ANNOTATION] ?? '');
		if (hasProgressDeadline(d) && !getDeploymentCondition(d.status, 'Progressing')) {
			setDeploymentCondition(d.status, newDeploymentCondition('Progressing', 'True', Reasons.FoundNewRS, `Found new replica set "${rsCopy.metadata.name}"`, ctx.now()));
			needsUpdate = true;
		}
		if (needsUpdate) updateDeploymentStatus(ctx, d);
		return rsCopy;
	}
	if (!createIfNotExisted) return undefined;

	const template = deepCopy(d.spec.template);
	const hash = computeHash(template, d.status.collisionCount);
	template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash } };
	const selector = deepCopy(d.spec.selector);
	selector.matchLabels = { ...(selector.matchLabels ?? {}), [POD_TEMPLATE_HASH_LABEL]: hash };
	const newRS: ReplicaSet = {
		apiVersion: 'apps/v1',
		kind: 'ReplicaSet',
		metadata: {
			// Deterministic, so a repeated create finds the same object.
			name: `${d.metadata.name}-${hash}`,
			namespace: d.metadata.namespace,
			ownerReferences: [newControllerRef(d)],
			labels: { ...(template.metadata.labels ?? {}) },
		},
		spec: { replicas: 0, minReadySeconds: d.spec.minReadySeconds, selector, template },
	};
	newRS.spec.replicas = newRSNewReplicas(d, [...oldRSs, newRS], newRS);
	setNewReplicaSetAnnotations(d, newRS, newRevision, false);

	let alreadyExists = false;
	let created: ReplicaSet;
	const result = ctx.client.create<ReplicaSet>(R.replicasets, d.metadata.namespace, newRS);
	if (result.ok) {
		created = result.object;
	} else if (result.code === 409 && result.reason === 'AlreadyExists') {
		alreadyExists = true;
		const found = ctx.client.get<ReplicaSet>(R.replicasets, d.metadata.namespace, newRS.metadata.name ?? '');
		if (!found.ok) throw new SyncFailure(found.message);
		const ref = controllerOf(found.object);
		if (ref && ref.uid === d.metadata.uid && equalIgnoreHash(d.spec.template, found.object.spec.template)) {
			created = found.object;
		} else {
			// A hash collision: another template already has this name. Bump
			// collisionCount (it feeds the hash) and retry.
			d.status.collisionCount = (d.status.collisionCount ?? 0) + 1;
			try {
				updateDeploymentStatus(ctx, d);
			} catch {
				// The original error is what counts.
			}
			throw new SyncFailure(result.message);
		}
	} else if (isNamespaceTerminating(result)) {
		// The namespace is terminating: every create will fail; nothing to do.
		throw new SyncFailure(result.message);
	} else {
		const msg = `Failed to create new replica set "${newRS.metadata.name}": ${result.message}`;
		if (hasProgressDeadline(d)) {
			setDeploymentCondition(d.status, newDeploymentCondition('Progressing', 'False', Reasons.FailedRSCreate, msg, ctx.now()));
			try {
				updateDeploymentStatus(ctx, d);
			} catch {
				// The creation failure is the bigger issue to report.
			}
		}
		ctx.recorder.record(d, 'Warning', Reasons.FailedRSCreate, msg);
		throw new SyncFailure(result.message);
	}
	const newReplicasCount = rsReplicas(newRS);
	if (!alreadyExists && newReplicasCount > 0) {
		ctx.recorder.record(d, 'Normal', 'ScalingReplicaSet', `Scaled up replica set ${created.metadata.name} from 0 to ${newReplicasCount}`);
	}
	let needsUpdate = setDeploymentRevision(d, newRevision);
	if (!alreadyExists && hasProgressDeadline(d)) {
		setDeploymentCondition(d.status, newDeploymentCondition('Progressing', 'True', Reasons.NewReplicaSet, `Created new replica set "${created.metadata.name}"`, ctx.now()));
		needsUpdate = true;
	}
	if (needsUpdate) updateDeploymentStatus(ctx, d);
	return created;
}

/**
 * scaleReplicaSet: writes the new size and the replica annotations; records
 * `Scaled <up|down> replica set <rs> from <old> to <new>` when the size changed.
 */
function scaleReplicaSet(ctx: DeploymentSyncContext, rs: ReplicaSet, newScale: number, d: DefaultedDeployment, scalingOperation: string): { scaled: boolean; rs: ReplicaSet } {
	const sizeNeedsUpdate = rsReplicas(rs) !== newScale;
	const maxReplicas = d.spec.replicas + maxSurge(d);
	const annotationsNeedUpdate = replicasAnnotationsNeedUpdate(rs, d.spec.replicas, maxReplicas);
	if (!sizeNeedsUpdate && !annotationsNeedUpdate) return { scaled: false, rs };
	const oldScale = rsReplicas(rs);
	const rsCopy = deepCopy(rs);
	rsCopy.spec.replicas = newScale;
	setReplicasAnnotations(rsCopy, d.spec.replicas, maxReplicas);
	const updated = updateReplicaSet(ctx, rsCopy);
	if (sizeNeedsUpdate) {
		ctx.recorder.record(d, 'Normal', 'ScalingReplicaSet', `Scaled ${scalingOperation} replica set ${updated.metadata.name} from ${oldScale} to ${newScale}`);
	}
	return { scaled: sizeNeedsUpdate, rs: updated };
}

/** scaleReplicaSetAndRecordEvent: nothing to do when the size is already right. */
export function scaleReplicaSetAndRecordEvent(ctx: DeploymentSyncContext, rs: ReplicaSet, newScale: number, d: DefaultedDeployment): { scaled: boolean; rs: ReplicaSet } {
	if (rsReplicas(rs) === newScale) return { scaled: false, rs };
	return scaleReplicaSet(ctx, rs, newScale, d, rsReplicas(rs) < newScale ? 'up' : 'down');
}

/**
 * scale: a resize. One active ReplicaSet takes the whole count; a
 * saturated new ReplicaSet takes it and the old ones go to 0; otherwise
 * (mid-rollout) the difference up to replicas + maxSurge is shared out in
 * proportion to each active ReplicaSet's size, largest first, leftovers to
 * the largest.
 */
export function scale(ctx: DeploymentSyncContext, d: DefaultedDeployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): void {
	const activeOrLatest = findActiveOrLatest(newRS, oldRSs);
	if (activeOrLatest) {
		if (rsReplicas(activeOrLatest) === d.spec.replicas) return;
		scaleReplicaSetAndRecordEvent(ctx, activeOrLatest, d.spec.replicas, d);
		return;
	}
	if (isSaturated(d, newRS)) {
		for (const old of filterActiveReplicaSets(oldRSs)) scaleReplicaSetAndRecordEvent(ctx, old, 0, d);
		return;
	}
	if (!isRollingUpdate(d)) return;
	const { sizes, scalingOperation } = proportionalScale(d, newRS, oldRSs);
	for (const { rs, size } of sizes) scaleReplicaSet(ctx, rs, size, d, scalingOperation);
}

/**
 * The proportional part of `scale`: the new size of every active
 * ReplicaSet, largest first (newer first on ties when growing, older first
 * when shrinking), and the scaling operation ('up', 'down', or '' when the
 * total already fits).
 */
export function proportionalScale(d: DefaultedDeployment, newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): { sizes: Array<{ rs: ReplicaSet; size: number }>; scalingOperation: string } {
	const allRSs = filterActiveReplicaSets([...oldRSs, newRS]);
	const allRSsReplicas = specReplicaCount(allRSs);
	const allowedSize = d.spec.replicas > 0 ? d.spec.replicas + maxSurge(d) : 0;
	// What may be added (or, negative, removed) across the active ReplicaSets.
	const toAdd = allowedSize - allRSsReplicas;
	let scalingOperation = '';
	if (toAdd > 0) {
		allRSs.sort(bySizeNewer);
		scalingOperation = 'up';
	} else if (toAdd < 0) {
		allRSs.sort(bySizeOlder);
		scalingOperation = 'down';
	}
	let added = 0;
	const sizes = allRSs.map((rs) => {
		if (toAdd === 0) return { rs, size: rsReplicas(rs) };
		const proportion = replicaSetProportion(rs, d, toAdd, added);
		added += proportion;
		return { rs, size: rsReplicas(rs) + proportion };
	});
	// Leftovers go to (or come from) the largest.
	if (sizes.length > 0 && toAdd !== 0) sizes[0].size = Math.max(0, sizes[0].size + toAdd - added);
	return { sizes, scalingOperation };
}

/**
 * isScalingEvent: some active ReplicaSet was sized for a different replica
 * count (its desired-replicas annotation): the user scaled the Deployment.
 */
export function isScalingEvent(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[]): boolean {
	const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
	for (const rs of filterActiveReplicaSets([...oldRSs, newRS])) {
		const desired = desiredReplicasAnnotation(rs);
		if (desired === undefined) continue;
		if (desired !== d.spec.replicas) return true;
	}
	return false;
}

/**
 * cleanupDeployment: deletes the oldest old ReplicaSets beyond
 * revisionHistoryLimit, only those fully scaled down and observed.
 */
export function cleanupDeployment(ctx: DeploymentSyncContext, oldRSs: ReplicaSet[], d: DefaultedDeployment): void {
	if (!hasRevisionHistoryLimit(d)) return;
	const cleanable = oldRSs.filter((rs) => !rs.metadata.deletionTimestamp);
	const diff = cleanable.length - d.spec.revisionHistoryLimit;
	if (diff <= 0) return;
	cleanable.sort(byRevision);
	for (let i = 0; i < diff; i++) {
		const rs = cleanable[i];
		if ((rs.status?.replicas ?? 0) !== 0 || rsReplicas(rs) !== 0 || (rs.metadata.generation ?? 0) > (rs.status?.observedGeneration ?? 0) || rs.metadata.deletionTimestamp) continue;
		const deleted = ctx.client.delete(R.replicasets, rs.metadata.namespace, rs.metadata.name ?? '');
		if (!deleted.ok && deleted.code !== 404) throw new SyncFailure(deleted.message);
	}
}

/**
 * calculateStatus: counts summed over the ReplicaSets, and the Available
 * condition (at least replicas - maxUnavailable available).
 */
export function calculateStatus(ctx: DeploymentSyncContext, allRSs: Array<ReplicaSet | undefined>, newRS: ReplicaSet | undefined, d: DefaultedDeployment): NonNullable<Deployment['status']> {
	const available = availableReplicaCount(allRSs);
	const total = specReplicaCount(allRSs);
	const status: NonNullable<Deployment['status']> = {
		observedGeneration: d.metadata.generation,
		replicas: actualReplicaCount(allRSs),
		updatedReplicas: actualReplicaCount([newRS]),
		readyReplicas: readyReplicaCount(allRSs),
		availableReplicas: available,
		unavailableReplicas: Math.max(0, total - available),
		// DeploymentReplicaSetTerminatingReplicas: beta and on by default since v1.35.
		terminatingReplicas: terminatingReplicaCount(allRSs),
		collisionCount: d.status?.collisionCount,
		conditions: (d.status?.conditions ?? []).map((c) => ({ ...c })),
	};
	if (available >= d.spec.replicas - maxUnavailable(d)) {
		setDeploymentCondition(status, newDeploymentCondition('Available', 'True', Reasons.MinimumReplicasAvailable, 'Deployment has minimum availability.', ctx.now()));
	} else {
		setDeploymentCondition(status, newDeploymentCondition('Available', 'False', Reasons.MinimumReplicasUnavailable, 'Deployment does not have minimum availability.', ctx.now()));
	}
	return normalizeStatus(status);
}

/** syncDeploymentStatus: writes the status when it changed. */
function syncDeploymentStatus(ctx: DeploymentSyncContext, allRSs: Array<ReplicaSet | undefined>, newRS: ReplicaSet | undefined, d: DefaultedDeployment): void {
	const newStatus = calculateStatus(ctx, allRSs, newRS, d);
	if (statusEqual(d.status, newStatus)) return;
	d.status = newStatus;
	updateDeploymentStatus(ctx, d);
}

/**
 * sync: scaling and paused Deployments. Scales, cleans up old ReplicaSets
 * when paused, and writes status; never creates a new ReplicaSet.
 */
export function syncScaling(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[]): void {
	const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
	scale(ctx, d, newRS, oldRSs);
	if (d.spec.paused) cleanupDeployment(ctx, oldRSs, d);
	syncDeploymentStatus(ctx, [...oldRSs, newRS], newRS, d);
}

/** syncStatusOnly: for a Deployment being deleted. */
export function syncStatusOnly(ctx: DeploymentSyncContext, d: DefaultedDeployment, rsList: ReplicaSet[]): void {
	const { newRS, oldRSs } = getAllReplicaSetsAndSyncRevision(ctx, d, rsList, false);
	syncDeploymentStatus(ctx, [...oldRSs, newRS], newRS, d);
}

/**
 * checkPausedConditions: Progressing becomes Unknown/DeploymentPaused when
 * paused and Unknown/DeploymentResumed when resumed, so a long pause is not
 * mistaken for a stalled rollout (a timed-out condition is left alone).
 */
export function checkPausedConditions(ctx: DeploymentSyncContext, d: DefaultedDeployment): void {
	if (!hasProgressDeadline(d)) return;
	const cond = getDeploymentCondition(d.status, 'Progressing');
	if (cond?.reason === Reasons.TimedOut) return;
	const pausedCondExists = cond?.reason === Reasons.PausedDeploy;
	d.status ??= {};
	if (d.spec.paused && !pausedCondExists) {
		setDeploymentCondition(d.status, newDeploymentCondition('Progressing', 'Unknown', Reasons.PausedDeploy, 'Deployment is paused', ctx.now()));
	} else if (!d.spec.paused && pausedCondExists) {
		setDeploymentCondition(d.status, newDeploymentCondition('Progressing', 'Unknown', Reasons.ResumedDeploy, 'Deployment is resumed', ctx.now()));
	} else {
		return;
	}
	updateDeploymentStatus(ctx, d);
}

