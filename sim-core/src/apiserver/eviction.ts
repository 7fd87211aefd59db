/**
 * The pods/eviction subresource: a polite delete. POSTing a policy/v1
 * Eviction deletes the pod gracefully, unless a PodDisruptionBudget that
 * selects the pod allows no more disruptions, in which case the answer is
 * 429 TooManyRequests and the client (kubectl drain) retries.
 *
 * An unready (unhealthy) pod costs the budget nothing: with
 * `unhealthyPodEvictionPolicy: AlwaysAllow` it is always deleted; with
 * IfHealthyBudget (the behaviour when the field is unset) only while the
 * budget is met (currentHealthy >= desiredHealthy > 0). Either way the
 * delete is pinned to the resourceVersion that was judged, so a pod that
 * turned Ready meanwhile is not taken (409, answered as a 429 to retry).
 *
 * A budget selects pods the way policy/v1 says: a missing selector selects
 * nothing, an empty one (`{}`) every pod of the namespace (policy/v1beta1
 * matched nothing with either).
 *
 * This file holds the decisions, as pure functions; the API server performs
 * the writes they call for.
 *
 * Mirrors pkg/registry/core/pod/storage/eviction.go,
 * staging/src/k8s.io/component-helpers/apps/poddisruptionbudget/helpers.go.
 */
import type { KubeObject, LabelSelector } from '../api/types.ts';
import { labelSelectorFromObject, matches, SelectorError } from '../api/labels.ts';
import type { ApiResponse, ApiRequest } from '../api/request.ts';
import * as errors from './errors.ts';
import { deepCopy } from '../golang/json.ts';
import { updateDisruptionAllowedCondition, type MetaCondition } from '../component-helpers/poddisruptionbudget.ts';

/** The policy/v1 Eviction body. */
export interface Eviction {
	apiVersion?: string;
	kind?: string;
	metadata?: { name?: string; namespace?: string };
	deleteOptions?: NonNullable<ApiRequest['deleteOptions']> & { dryRun?: string[] };
}

/** The parts of a PodDisruptionBudget the eviction handler reads and writes (policy/v1). */
export interface PodDisruptionBudget extends KubeObject {
	spec?: { selector?: LabelSelector | null; minAvailable?: number | string; maxUnavailable?: number | string; unhealthyPodEvictionPolicy?: 'IfHealthyBudget' | 'AlwaysAllow' };
	status?: {
		observedGeneration?: number;
		disruptionsAllowed?: number;
		currentHealthy?: number;
		desiredHealthy?: number;
		expectedPods?: number;
		disruptedPods?: Record<string, string>;
		conditions?: MetaCondition[];
	};
}

/** Upstream's MaxDisruptedPodSize: refuse when this many evictions are still unconfirmed by the disruption controller (eviction.go). */
const MAX_DISRUPTED_POD_SIZE = 2000;

/** The cause type upstream attaches to a refused eviction (policyv1.DisruptionBudgetCause). */
const DISRUPTION_BUDGET_CAUSE = 'DisruptionBudget';

/** The 429 message of a refused eviction (eviction.go checkAndDecrement / createTooManyRequestsError). */
export const EVICTION_REFUSED_MESSAGE = "Cannot evict pod as it would violate the pod's disruption budget.";

type PodLike = KubeObject;

type PodStatusLike = { phase?: string; conditions?: Array<{ type?: string; status?: string }> } | undefined;

/** Terminal, pending or already-deleting pods are deleted without consulting budgets (canIgnorePDB). */
export function canIgnorePDB(pod: PodLike): boolean {
	const phase = (pod.status as PodStatusLike)?.phase;
	return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata.deletionTimestamp;
}

/** podutil.IsPodReady: the Ready condition is True. */
function isPodReady(pod: PodLike): boolean {
	return ((pod.status as PodStatusLike)?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True');
}

/**
 * shouldEnforceResourceVersion: a pod that skips the budgets is still
 * deleted at the resourceVersion that was judged, unless it is finished or
 * already being deleted (a Pending pod must not turn Ready under our feet).
 */
export function shouldEnforceResourceVersion(pod: PodLike): boolean {
	const phase = (pod.status as PodStatusLike)?.phase;
	return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata.deletionTimestamp);
}

/**
 * The budgets in the pod's namespace whose selector matches the pod
 * (getPodDisruptionBudgets). An invalid selector matches nothing, a
 * missing one nothing, an empty one everything.
 */
export function budgetsForPod(pod: KubeObject, budgets: readonly PodDisruptionBudget[]): PodDisruptionBudget[] {
	return budgets.filter((pdb) => {
		if (pdb.metadata.namespace !== pod.metadata.namespace) return false;
		try {
			return matches(labelSelectorFromObject(pdb.spec?.selector), pod.metadata.labels);
		} catch (error) {
			if (error instanceof SelectorError) return false;
			throw error;
		}
	});
}

/** What to do with an eviction once the pod and its budgets are known. */
type EvictionDecision =
	/** Delete the pod; if `budget` is set, store it first (one disruption used up). */
	| { action: 'delete'; budget?: PodDisruptionBudget; resourceVersionPrecondition?: string }
	/** Refuse with this response. */
	| { action: 'refuse'; response: ApiResponse };

/**
 * Decides an eviction of a pod that cannot skip the budgets (see
 * canIgnorePDB). `now` is the RFC 3339 time recorded in
 * status.disruptedPods. Mirrors EvictionREST.Create and checkAndDecrement.
 */
export function decideEviction(pod: PodLike, budgets: readonly PodDisruptionBudget[], now: string, dryRun: boolean): EvictionDecision {
	const matching = budgetsForPod(pod, budgets);
	if (matching.length > 1) {
		return {
			action: 'refuse',
			response: {
				code: 500,
				body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.', code: 500 },
			},
		};
	}
	if (matching.length === 0) return { action: 'delete' };
	const pdb = matching[0];
	const status = pdb.status ?? {};
	const name = pdb.metadata.name ?? '';
	// IsPodReady is what "healthy" means. An unready pod is not counted in currentHealthy, so
	// deleting it uses up no disruption: always with AlwaysAllow, while the budget is met with
	// IfHealthyBudget (or no policy); otherwise checkAndDecrement below decides.
	if (!isPodReady(pod)) {
		if (pdb.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') return { action: 'delete', resourceVersionPrecondition: pod.metadata.resourceVersion };
		if ((status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0) {
			return { action: 'delete', resourceVersionPrecondition: pod.metadata.resourceVersion };
		}
	}
	if ((status.observedGeneration ?? 0) < (pdb.metadata.generation ?? 0)) {
		// createTooManyRequestsError: the disruption controller has not caught up; retry after 10s.
		return { action: 'refuse', response: errors.tooManyRequests(EVICTION_REFUSED_MESSAGE, 10, [{ reason: DISRUPTION_BUDGET_CAUSE, message: `The disruption budget ${name} is still being processed by the server.` }]) };
	}
	const allowed = status.disruptionsAllowed ?? 0;
	if (allowed < 0) return { action: 'refuse', response: errors.forbidden('poddisruptionbudget.policy', name, 'pdb disruptions allowed is negative', 'policy', 'poddisruptionbudget') };
	if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_POD_SIZE) {
		return { action: 'refuse', response: errors.forbidden('poddisruptionbudget.policy', name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller', 'policy', 'poddisruptionbudget') };
	}
	if (allowed === 0) {
		return {
			action: 'refuse',
			response: errors.tooManyRequests(EVICTION_REFUSED_MESSAGE, 0, [
				{ reason: DISRUPTION_BUDGET_CAUSE, message: `The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently` },
			]),
		};
	}
	if (dryRun) return { action: 'delete' };
	const updated = deepCopy(pdb) as PodDisruptionBudget;
	const nextStatus = (updated.status ??= {});
	nextStatus.disruptionsAllowed = allowed - 1;
	if (nextStatus.disruptionsAllowed === 0) updateDisruptionAllowedCondition(nextStatus, now);
	// Tell the disruption controller this pod is about to go, so it stops counting it as healthy.
	nextStatus.disruptedPods = { ...(nextStatus.disruptedPods ?? {}), [pod.metadata.name ?? '']: now };
	return { action: 'delete', budget: updated };
}

/** Checks the body against the URL, as EvictionREST.Create does first. */
export function checkEvictionBody(body: unknown, name: string): { eviction: Eviction } | { error: ApiResponse } {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return { error: errors.badRequest('the body of the request was in an unknown format') };
	const eviction = body as Eviction;
	if ((eviction.metadata?.name ?? '') !== name) return { error: errors.badRequest('name in URL does not match name in Eviction object') };
	return { eviction };
}
