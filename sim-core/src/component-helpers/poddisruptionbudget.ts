/**
 * The `DisruptionAllowed` condition of a PodDisruptionBudget, kept one way by
 * both of its writers: the disruption controller (after every sync) and the
 * API server's eviction handler (when an eviction uses up the last allowed
 * disruption). True with reason `SufficientPods` while disruptionsAllowed >
 * 0, False with `InsufficientPods` otherwise; the controller's fail-safe
 * writes False with `SyncFailed` and the error as message.
 *
 * Conditions are metav1.Condition: `message` has no `omitempty` (it
 * serializes as `""`), `observedGeneration` does. apimeta.SetStatusCondition
 * moves lastTransitionTime only when the status flips.
 *
 * Mirrors staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go
 * (UpdateDisruptionAllowedCondition, ConditionsAreUpToDate),
 * staging/src/k8s.io/apimachinery/pkg/api/meta/conditions.go
 * (SetStatusCondition, FindStatusCondition),
 * staging/src/k8s.io/api/policy/v1/types.go (DisruptionAllowedCondition,
 * SyncFailedReason, SufficientPodsReason, InsufficientPodsReason).
 */

/** policyv1.DisruptionAllowedCondition. */
export const DISRUPTION_ALLOWED_CONDITION = 'DisruptionAllowed';
/** policyv1.SyncFailedReason: the controller could not compute the budget. */
export const SYNC_FAILED_REASON = 'SyncFailed';
/** policyv1.SufficientPodsReason. */
export const SUFFICIENT_PODS_REASON = 'SufficientPods';
/** policyv1.InsufficientPodsReason. */
export const INSUFFICIENT_PODS_REASON = 'InsufficientPods';

/** A metav1.Condition as JSON. */
export interface MetaCondition {
	type: string;
	status: 'True' | 'False' | 'Unknown';
	observedGeneration?: number;
	lastTransitionTime: string;
	reason: string;
	message: string;
}

/** The status fields these helpers read and write. */
export interface PdbStatusLike {
	observedGeneration?: number;
	disruptionsAllowed?: number;
	conditions?: MetaCondition[];
}

/**
 * apimeta.SetStatusCondition: adds the condition, or updates the one of its
 * type in place (lastTransitionTime moves only when the status changes).
 * `nowRfc3339` is metav1.Now(). Returns whether anything changed.
 */
export function setStatusCondition(conditions: MetaCondition[], wanted: Omit<MetaCondition, 'lastTransitionTime'> & { lastTransitionTime?: string }, nowRfc3339: string): boolean {
	const existing = conditions.find((c) => c.type === wanted.type);
	const condition: MetaCondition = { type: wanted.type, status: wanted.status, lastTransitionTime: wanted.lastTransitionTime || nowRfc3339, reason: wanted.reason, message: wanted.message };
	if (wanted.observedGeneration) condition.observedGeneration = wanted.observedGeneration;
	if (!existing) {
		conditions.push(condition);
		return true;
	}
	let changed = false;
	if (existing.status !== condition.status) {
		existing.status = condition.status;
		existing.lastTransitionTime = condition.lastTransitionTime;
		changed = true;
	}
	if (existing.reason !== condition.reason) {
		existing.reason = condition.reason;
		changed = true;
	}
	if (existing.message !== condition.message) {
		existing.message = condition.message;
		changed = true;
	}
	if ((existing.observedGeneration ?? 0) !== (condition.observedGeneration ?? 0)) {
		if (condition.observedGeneration) existing.observedGeneration = condition.observedGeneration;
		else delete existing.observedGeneration;
		changed = true;
	}
	return changed;
}

/** UpdateDisruptionAllowedCondition: the condition that matches status.disruptionsAllowed. */
export function updateDisruptionAllowedCondition(status: PdbStatusLike, nowRfc3339: string): void {
	status.conditions ??= [];
	const allowed = (status.disruptionsAllowed ?? 0) > 0;
	setStatusCondition(
		status.conditions,
		{ type: DISRUPTION_ALLOWED_CONDITION, status: allowed ? 'True' : 'False', reason: allowed ? SUFFICIENT_PODS_REASON : INSUFFICIENT_PODS_REASON, message: '', observedGeneration: status.observedGeneration },
		nowRfc3339,
	);
}

/** ConditionsAreUpToDate: the condition exists, the status is current, and status and reason match disruptionsAllowed. */
export function conditionsAreUpToDate(generation: number, status: PdbStatusLike): boolean {
	const condition = status.conditions?.find((c) => c.type === DISRUPTION_ALLOWED_CONDITION);
	if (!condition) return false;
	if ((status.observedGeneration ?? 0) !== generation) return false;
	if ((status.disruptionsAllowed ?? 0) > 0) return condition.status === 'True' && condition.reason === SUFFICIENT_PODS_REASON;
	return condition.status === 'False' && condition.reason === INSUFFICIENT_PODS_REASON;
}
