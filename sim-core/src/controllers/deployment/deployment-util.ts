/**
 * The pure arithmetic and bookkeeping of the Deployment controller: rolling
 * update fenceposts, proportional scaling, revision and replica annotations,
 * conditions, completeness and progress.
 *
 * Mirrors pkg/controller/deployment/util/deployment_util.go,
 * pkg/controller/controller_utils.go (the ReplicaSet sort orders),
 * pkg/apis/apps/v1/defaults.go,
 * staging/src/k8s.io/apimachinery/pkg/util/intstr/intstr.go
 * (GetScaledValueFromIntOrPercent).
 */
import type { Deployment, DeploymentCondition, PodTemplateSpec, ReplicaSet } from '../../api/types.ts';
import { canonicalJson } from '../hash.ts';
import { timeMs } from '../pod-util.ts';
import { deepCopy } from '../../golang/json.ts';
import { parseInt64 } from '../../golang/strconv.ts';

/** apps.DefaultDeploymentUniqueLabelKey. */
export const POD_TEMPLATE_HASH_LABEL = 'pod-template-hash';
export const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
export const REVISION_HISTORY_ANNOTATION = 'deployment.kubernetes.io/revision-history';
export const DESIRED_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/desired-replicas';
export const MAX_REPLICAS_ANNOTATION = 'deployment.kubernetes.io/max-replicas';
/** apps.DeprecatedRollbackTo: the server-side rollback annotation of extensions/v1beta1, never copied. */
const DEPRECATED_ROLLBACK_TO_ANNOTATION = 'deprecated.deployment.rollback.to';
/** v1.LastAppliedConfigAnnotation. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** sync.go maxRevHistoryLengthInChars: the revision-history annotation stays under 2000 characters. */
const MAX_REV_HISTORY_LENGTH_IN_CHARS = 2000;

/** Condition reasons (deployment_util.go). */
export const Reasons = {
	ReplicaSetUpdated: 'ReplicaSetUpdated',
	FailedRSCreate: 'ReplicaSetCreateError',
	NewReplicaSet: 'NewReplicaSetCreated',
	FoundNewRS: 'FoundNewReplicaSet',
	NewRSAvailable: 'NewReplicaSetAvailable',
	TimedOut: 'ProgressDeadlineExceeded',
	PausedDeploy: 'DeploymentPaused',
	ResumedDeploy: 'DeploymentResumed',
	MinimumReplicasAvailable: 'MinimumReplicasAvailable',
	MinimumReplicasUnavailable: 'MinimumReplicasUnavailable',
} as const;

/** math.MaxInt32: progressDeadlineSeconds / revisionHistoryLimit meaning "none". */
const MAX_INT32 = 2147483647;

/** A Deployment with every field the controller reads defaulted (SetDefaults_Deployment). */
export type DefaultedDeployment = Deployment & {
	spec: Deployment['spec'] & { replicas: number; strategy: { type: 'RollingUpdate' | 'Recreate'; rollingUpdate?: { maxSurge?: number | string; maxUnavailable?: number | string } }; revisionHistoryLimit: number; progressDeadlineSeconds: number; minReadySeconds: number };
};

/**
 * SetDefaults_Deployment (pkg/apis/apps/v1/defaults.go): replicas 1,
 * RollingUpdate with maxUnavailable and maxSurge 25%, revisionHistoryLimit
 * 10, progressDeadlineSeconds 600. The API server normally applies them;
 * applying them again here keeps the controller right whatever the
 * server's defaulting. Returns a copy.
 */
export function withDeploymentDefaults(d: Deployment): DefaultedDeployment {
	const copy = deepCopy(d) as DefaultedDeployment;
	const spec = copy.spec;
	spec.replicas ??= 1;
	spec.strategy = { ...(spec.strategy ?? {}) } as DefaultedDeployment['spec']['strategy'];
	spec.strategy.type ??= 'RollingUpdate';
	if (spec.strategy.type === 'RollingUpdate') {
		spec.strategy.rollingUpdate = { ...(spec.strategy.rollingUpdate ?? {}) };
		spec.strategy.rollingUpdate.maxUnavailable ??= '25%';
		spec.strategy.rollingUpdate.maxSurge ??= '25%';
	}
	spec.revisionHistoryLimit ??= 10;
	spec.progressDeadlineSeconds ??= 600;
	spec.minReadySeconds ??= 0;
	return copy;
}

/** A ReplicaSet's spec.replicas (defaults to 1). */
export function rsReplicas(rs: ReplicaSet | undefined): number {
	return rs ? (rs.spec.replicas ?? 1) : 0;
}

/**
 * intstr.GetScaledValueFromIntOrPercent: an integer, or a percentage of
 * `total` rounded up or down. Anything else is 0 (validation rejects it).
 */
export function scaledValue(value: number | string | undefined, total: number, roundUp: boolean): number {
	if (value === undefined) return 0;
	if (typeof value === 'number') return value;
	if (!value.endsWith('%')) return /^-?\d+$/.test(value) ? Number(value) : 0;
	const percent = Number(value.slice(0, -1));
	if (!Number.isInteger(percent)) return 0;
	return roundUp ? Math.ceil((percent * total) / 100) : Math.floor((percent * total) / 100);
}

/**
 * ResolveFenceposts: maxSurge rounds up, maxUnavailable rounds down; if
 * both come out 0, maxUnavailable becomes 1 so a rollout can always move.
 */
export function resolveFenceposts(maxSurge: number | string | undefined, maxUnavailable: number | string | undefined, desired: number): { surge: number; unavailable: number } {
	const surge = scaledValue(maxSurge ?? 0, desired, true);
	let unavailable = scaledValue(maxUnavailable ?? 0, desired, false);
	if (surge === 0 && unavailable === 0) unavailable = 1;
	return { surge, unavailable };
}

export function isRollingUpdate(d: DefaultedDeployment): boolean {
	return d.spec.strategy.type === 'RollingUpdate';
}

/** MaxSurge: 0 for Recreate. */
export function maxSurge(d: DefaultedDeployment): number {
	if (!isRollingUpdate(d)) return 0;
	return resolveFenceposts(d.spec.strategy.rollingUpdate?.maxSurge, d.spec.strategy.rollingUpdate?.maxUnavailable, d.spec.replicas).surge;
}

/** MaxUnavailable: 0 for Recreate or 0 replicas, never more than replicas. */
export function maxUnavailable(d: DefaultedDeployment): number {
	if (!isRollingUpdate(d) || d.spec.replicas === 0) return 0;
	const { unavailable } = resolveFenceposts(d.spec.strategy.rollingUpdate?.maxSurge, d.spec.strategy.rollingUpdate?.maxUnavailable, d.spec.replicas);
	return Math.min(unavailable, d.spec.replicas);
}

/** Sum of spec.replicas (GetReplicaCountForReplicaSets). */
export function specReplicaCount(rss: Array<ReplicaSet | undefined>): number {
	return rss.reduce((n, rs) => n + (rs ? rsReplicas(rs) : 0), 0);
}

/** Sum of status.replicas (GetActualReplicaCountForReplicaSets). */
export function actualReplicaCount(rss: Array<ReplicaSet | undefined>): number {
	return rss.reduce((n, rs) => n + (rs?.status?.replicas ?? 0), 0);
}

export function readyReplicaCount(rss: Array<ReplicaSet | undefined>): number {
	return rss.reduce((n, rs) => n + (rs?.status?.readyReplicas ?? 0), 0);
}

export function availableReplicaCount(rss: Array<ReplicaSet | undefined>): number {
	return rss.reduce((n, rs) => n + (rs?.status?.availableReplicas ?? 0), 0);
}

/** GetTerminatingReplicaCountForReplicaSets: undefined as soon as one ReplicaSet does not report it. */
export function terminatingReplicaCount(rss: Array<ReplicaSet | undefined>): number | undefined {
	let total = 0;
	for (const rs of rss) {
		if (!rs) continue;
		if (rs.status?.terminatingReplicas === undefined) return undefined;
		total += rs.status.terminatingReplicas;
	}
	return total;
}

/**
 * NewRSNewReplicas: how big the new ReplicaSet may be now. RollingUpdate:
 * grow until all ReplicaSets together reach replicas + maxSurge, never past
 * replicas. Recreate: all replicas at once.
 */
export function newRSNewReplicas(d: DefaultedDeployment, allRSs: ReplicaSet[], newRS: ReplicaSet): number {
	if (d.spec.strategy.type === 'Recreate') return d.spec.replicas;
	const surge = scaledValue(d.spec.strategy.rollingUpdate?.maxSurge, d.spec.replicas, true);
	const current = specReplicaCount(allRSs);
	const maxTotal = d.spec.replicas + surge;
	if (current >= maxTotal) return rsReplicas(newRS);
	const scaleUp = Math.min(maxTotal - current, d.spec.replicas - rsReplicas(newRS));
	return rsReplicas(newRS) + scaleUp;
}

function intAnnotation(rs: ReplicaSet, key: string): number | undefined {
	const text = rs.metadata.annotations?.[key];
	if (text === undefined || !/^[+-]?\d+$/.test(text)) return undefined;
	return Number(text);
}

/** GetDesiredReplicasAnnotation. */
export function desiredReplicasAnnotation(rs: ReplicaSet): number | undefined {
	return intAnnotation(rs, DESIRED_REPLICAS_ANNOTATION);
}

/**
 * getReplicaSetFraction: the change this ReplicaSet gets when the
 * Deployment is resized mid-rollout, in proportion to its size relative to
 * the size the Deployment had (the max-replicas annotation).
 */
function replicaSetFraction(rs: ReplicaSet, d: DefaultedDeployment): number {
	if (d.spec.replicas === 0) return -rsReplicas(rs);
	const deploymentReplicas = d.spec.replicas + maxSurge(d);
	const annotated = intAnnotation(rs, MAX_REPLICAS_ANNOTATION) ?? d.status?.replicas ?? 0;
	if (annotated === 0) return 0;
	// integer.RoundToInt32: round half away from zero.
	const newSize = (rsReplicas(rs) * deploymentReplicas) / annotated;
	const rounded = newSize < 0 ? -Math.round(-newSize) : Math.round(newSize);
	return rounded - rsReplicas(rs);
}

/** GetReplicaSetProportion: the fraction, capped by what is still left to add (or remove). */
export function replicaSetProportion(rs: ReplicaSet | undefined, d: DefaultedDeployment, toAdd: number, added: number): number {
	if (!rs || rsReplicas(rs) === 0 || toAdd === 0 || toAdd === added) return 0;
	const fraction = replicaSetFraction(rs, d);
	const allowed = toAdd - added;
	return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
}

/** IsSaturated: the new ReplicaSet has all replicas, agrees on the desired count, and all are available. */
export function isSaturated(d: DefaultedDeployment, rs: ReplicaSet | undefined): boolean {
	if (!rs) return false;
	const desired = desiredReplicasAnnotation(rs);
	if (desired === undefined) return false;
	return rsReplicas(rs) === d.spec.replicas && desired === d.spec.replicas && (rs.status?.availableReplicas ?? 0) === d.spec.replicas;
}

/** SetReplicasAnnotations: desired-replicas and max-replicas; true if changed. */
export function setReplicasAnnotations(rs: ReplicaSet, desired: number, max: number): boolean {
	const annotations = (rs.metadata.annotations ??= {});
	let updated = false;
	if (annotations[DESIRED_REPLICAS_ANNOTATION] !== String(desired)) {
		annotations[DESIRED_REPLICAS_ANNOTATION] = String(desired);
		updated = true;
	}
	if (annotations[MAX_REPLICAS_ANNOTATION] !== String(max)) {
		annotations[MAX_REPLICAS_ANNOTATION] = String(max);
		updated = true;
	}
	return updated;
}

/** ReplicasAnnotationsNeedUpdate. */
export function replicasAnnotationsNeedUpdate(rs: ReplicaSet, desired: number, max: number): boolean {
	const a = rs.metadata.annotations;
	return !a || a[DESIRED_REPLICAS_ANNOTATION] !== String(desired) || a[MAX_REPLICAS_ANNOTATION] !== String(max);
}

/** Annotations never copied from a Deployment to its ReplicaSets (annotationsToSkip). */
const ANNOTATIONS_TO_SKIP = new Set([LAST_APPLIED_ANNOTATION, REVISION_ANNOTATION, REVISION_HISTORY_ANNOTATION, DESIRED_REPLICAS_ANNOTATION, MAX_REPLICAS_ANNOTATION, DEPRECATED_ROLLBACK_TO_ANNOTATION]);

/** copyDeploymentAnnotationsToReplicaSet: true if something changed. */
function copyDeploymentAnnotations(d: Deployment, rs: ReplicaSet): boolean {
	const annotations = (rs.metadata.annotations ??= {});
	let changed = false;
	for (const [k, v] of Object.entries(d.metadata.annotations ?? {})) {
		if (ANNOTATIONS_TO_SKIP.has(k) || annotations[k] === v) continue;
		annotations[k] = v;
		changed = true;
	}
	return changed;
}

/** Revision: the revision annotation as an int64 (0 when absent, undefined when unparsable). */
export function revisionOf(rs: ReplicaSet): bigint | undefined {
	const text = rs.metadata.annotations?.[REVISION_ANNOTATION];
	return text === undefined ? 0n : parseInt64(text);
}

/** MaxRevision: the highest revision among the ReplicaSets (unparsable ones skipped). */
export function maxRevision(rss: ReplicaSet[]): bigint {
	let max = 0n;
	for (const rs of rss) {
		const v = revisionOf(rs);
		if (v !== undefined && v > max) max = v;
	}
	return max;
}

/**
 * SetNewReplicaSetAnnotations: copies the Deployment's annotations, raises
 * the revision to `newRevision` when it is lower (keeping the old one in
 * `revision-history` when this ReplicaSet is being reused: a rollback), and
 * on creation adds the replica annotations. True if anything changed.
 */
export function setNewReplicaSetAnnotations(d: DefaultedDeployment, rs: ReplicaSet, newRevision: string, exists: boolean, revHistoryLimitInChars = MAX_REV_HISTORY_LENGTH_IN_CHARS): boolean {
	let changed = copyDeploymentAnnotations(d, rs);
	const annotations = (rs.metadata.annotations ??= {});
	const hadRevision = Object.hasOwn(annotations, REVISION_ANNOTATION);
	const oldRevision = annotations[REVISION_ANNOTATION] ?? '';
	let oldRevisionInt = 0n;
	if (oldRevision !== '') {
		const parsed = parseInt64(oldRevision);
		if (parsed === undefined) return false;
		oldRevisionInt = parsed;
	}
	const newRevisionInt = parseInt64(newRevision);
	if (newRevisionInt === undefined) return false;
	if (oldRevisionInt < newRevisionInt) {
		annotations[REVISION_ANNOTATION] = newRevision;
		changed = true;
	}
	if (hadRevision && oldRevisionInt < newRevisionInt) {
		const history = annotations[REVISION_HISTORY_ANNOTATION] ?? '';
		const oldRevisions = history.split(',');
		if (oldRevisions[0].length === 0) {
			annotations[REVISION_HISTORY_ANNOTATION] = oldRevision;
		} else {
			let totalLen = history.length + oldRevision.length + 1;
			let start = 0;
			while (totalLen > revHistoryLimitInChars && start < oldRevisions.length) {
				totalLen -= oldRevisions[start].length + 1;
				start++;
			}
			if (totalLen <= revHistoryLimitInChars) annotations[REVISION_HISTORY_ANNOTATION] = [...oldRevisions.slice(start), oldRevision].join(',');
		}
	}
	if (!exists && setReplicasAnnotations(rs, d.spec.replicas, d.spec.replicas + maxSurge(d))) changed = true;
	return changed;
}

/** SetDeploymentRevision: true if the Deployment's revision annotation changed. */
export function setDeploymentRevision(d: Deployment, revision: string): boolean {
	const annotations = (d.metadata.annotations ??= {});
	if (annotations[REVISION_ANNOTATION] === revision) return false;
	annotations[REVISION_ANNOTATION] = revision;
	return true;
}

// ---- templates and finding the new ReplicaSet ----------------------------------

/** EqualIgnoreHash: templates equal once the pod-template-hash label is dropped. */
export function equalIgnoreHash(a: PodTemplateSpec | undefined, b: PodTemplateSpec | undefined): boolean {
	const strip = (t: PodTemplateSpec | undefined) => {
		const copy = deepCopy(t ?? {}) as PodTemplateSpec;
		if (copy.metadata?.labels) delete copy.metadata.labels[POD_TEMPLATE_HASH_LABEL];
		return canonicalJson(copy);
	};
	return strip(a) === strip(b);
}

/** ReplicaSetsByCreationTimestamp: older first, then by name. */
export function byCreationTimestamp(a: ReplicaSet, b: ReplicaSet): number {
	const ta = timeMs(a.metadata.creationTimestamp);
	const tb = timeMs(b.metadata.creationTimestamp);
	if (ta !== tb) return ta - tb;
	return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
}

/** ReplicaSetsBySizeNewer: larger first; equal sizes newer first (scaling up). */
export function bySizeNewer(a: ReplicaSet, b: ReplicaSet): number {
	if (rsReplicas(a) === rsReplicas(b)) return byCreationTimestamp(b, a);
	return rsReplicas(b) - rsReplicas(a);
}

/** ReplicaSetsBySizeOlder: larger first; equal sizes older first (scaling down). */
export function bySizeOlder(a: ReplicaSet, b: ReplicaSet): number {
	if (rsReplicas(a) === rsReplicas(b)) return byCreationTimestamp(a, b);
	return rsReplicas(b) - rsReplicas(a);
}

/** ReplicaSetsByRevision: lower revision first, then older. */
export function byRevision(a: ReplicaSet, b: ReplicaSet): number {
	const ra = revisionOf(a);
	const rb = revisionOf(b);
	if (ra === undefined || rb === undefined || ra === rb) return byCreationTimestamp(a, b);
	return ra < rb ? -1 : 1;
}

/** FindNewReplicaSet: the oldest ReplicaSet whose template equals the Deployment's. */
export function findNewReplicaSet(d: Deployment, rsList: ReplicaSet[]): ReplicaSet | undefined {
	return [...rsList].sort(byCreationTimestamp).find((rs) => equalIgnoreHash(rs.spec.template, d.spec.template));
}

/** FindOldReplicaSets: every other ReplicaSet (allOldRSs). */
export function findOldReplicaSets(d: Deployment, rsList: ReplicaSet[]): ReplicaSet[] {
	const newRS = findNewReplicaSet(d, rsList);
	return rsList.filter((rs) => !newRS || rs.metadata.uid !== newRS.metadata.uid);
}

/** FilterActiveReplicaSets: ReplicaSets that want pods. */
export function filterActiveReplicaSets(rss: Array<ReplicaSet | undefined>): ReplicaSet[] {
	return rss.filter((rs): rs is ReplicaSet => !!rs && rsReplicas(rs) > 0);
}

/** FindActiveOrLatest: the single active ReplicaSet, or the newest when none is active; undefined when several are. */
export function findActiveOrLatest(newRS: ReplicaSet | undefined, oldRSs: ReplicaSet[]): ReplicaSet | undefined {
	if (!newRS && oldRSs.length === 0) return undefined;
	const sortedOld = [...oldRSs].sort((a, b) => byCreationTimestamp(b, a));
	const active = filterActiveReplicaSets([...sortedOld, newRS]);
	if (active.length === 0) return newRS ?? sortedOld[0];
	if (active.length === 1) return active[0];
	return undefined;
}

// ---- conditions ---------------------------------------------------------------

export function newDeploymentCondition(type: string, status: DeploymentCondition['status'], reason: string, message: string, now: string): DeploymentCondition {
	return { type, status, lastUpdateTime: now, lastTransitionTime: now, reason, message };
}

export function getDeploymentCondition(status: Deployment['status'] | undefined, type: string): DeploymentCondition | undefined {
	return status?.conditions?.find((c) => c.type === type);
}

/**
 * SetDeploymentCondition: no change when status and reason are the same;
 * keeps lastTransitionTime when only the reason changes; the condition
 * moves to the end of the list.
 */
export function setDeploymentCondition(status: NonNullable<Deployment['status']>, condition: DeploymentCondition): void {
	const current = getDeploymentCondition(status, condition.type);
	if (current && current.status === condition.status && current.reason === condition.reason) return;
	const next = { ...condition };
	if (current && current.status === condition.status) next.lastTransitionTime = current.lastTransitionTime;
	status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== condition.type), next];
}

export function removeDeploymentCondition(status: NonNullable<Deployment['status']>, type: string): void {
	status.conditions = (status.conditions ?? []).filter((c) => c.type !== type);
	if (status.conditions.length === 0) delete status.conditions;
}

/** HasProgressDeadline: set and not MaxInt32. */
export function hasProgressDeadline(d: DefaultedDeployment): boolean {
	return d.spec.progressDeadlineSeconds !== MAX_INT32;
}

/** HasRevisionHistoryLimit: set and not MaxInt32. */
export function hasRevisionHistoryLimit(d: DefaultedDeployment): boolean {
	return d.spec.revisionHistoryLimit !== MAX_INT32;
}

/** DeploymentComplete: all replicas updated and available, none old, generation observed. */
export function deploymentComplete(d: DefaultedDeployment, status: NonNullable<Deployment['status']>): boolean {
	const want = d.spec.replicas;
	return (status.updatedReplicas ?? 0) === want && (status.replicas ?? 0) === want && (status.availableReplicas ?? 0) === want && (status.observedGeneration ?? 0) >= (d.metadata.generation ?? 0);
}

/** DeploymentProgressing: more updated, fewer old, more ready or more available pods than last time. */
export function deploymentProgressing(d: Deployment, status: NonNullable<Deployment['status']>): boolean {
	const old = d.status ?? {};
	const oldOld = (old.replicas ?? 0) - (old.updatedReplicas ?? 0);
	const newOld = (status.replicas ?? 0) - (status.updatedReplicas ?? 0);
	return (status.updatedReplicas ?? 0) > (old.updatedReplicas ?? 0) || newOld < oldOld || (status.readyReplicas ?? 0) > (old.readyReplicas ?? 0) || (status.availableReplicas ?? 0) > (old.availableReplicas ?? 0);
}

/**
 * DeploymentTimedOut: the Progressing condition has not been refreshed for
 * progressDeadlineSeconds (never once the rollout completed; always once it
 * timed out).
 */
export function deploymentTimedOut(d: DefaultedDeployment, status: NonNullable<Deployment['status']>, nowWallMs: number): boolean {
	if (!hasProgressDeadline(d)) return false;
	const condition = getDeploymentCondition(status, 'Progressing');
	if (!condition) return false;
	if (condition.reason === Reasons.NewRSAvailable) return false;
	if (condition.reason === Reasons.TimedOut) return true;
	return timeMs(condition.lastUpdateTime) + d.spec.progressDeadlineSeconds * 1000 < nowWallMs;
}
