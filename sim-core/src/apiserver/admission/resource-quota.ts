/**
 * ResourceQuota: charges every create (and the updates that change a
 * cost) to the namespace's quotas before the object is stored, and refuses
 * what would go over a hard limit:
 *
 *     pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=3, limited: pods=3
 *
 * A quota whose usage the controller has not counted yet refuses all it
 * limits (`status unknown for quota`); a quota on cpu or memory refuses a
 * Pod whose containers do not state theirs (`failed quota: q: must
 * specify ...`). An admitted write raises `status.used` at once, through
 * the server's own loopback client, so two quick creations cannot both
 * take the last unit; kube-controller-manager's resourcequota-controller
 * gives back what deleted or finished objects held. A dry run is checked
 * but charges nothing.
 *
 * Mirrors plugin/pkg/admission/resourcequota/admission.go,
 * staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/controller.go
 * (CheckRequest, checkQuotas, prettyPrint).
 */
import type { KubeObject } from '../../api/types.ts';
import type { ApiResponse } from '../../api/request.ts';
import { evaluatorFor, quotaMatches, type QuotaEvaluator } from '../../component-helpers/quota/evaluators.ts';
import { add, fromQuotaList, lessThanOrEqual, mask, negatives, prettyPrint, prettyPrintNames, removeZeros, subtractNonNegative, toQuotaList, type QuotaList } from '../../component-helpers/quota/resources.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import * as errors from '../errors.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import { admissionForbidden } from './errors.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';

/** Never charged (the quota configuration's default ignored resources). */
const IGNORED = new Set(['/events', 'events.k8s.io/events']);

interface QuotaStatus {
	hard?: Record<string, string>;
	used?: Record<string, string>;
}

const statusOf = (quota: KubeObject) => (quota.status ?? {}) as QuotaStatus;

/** hasUsageStats: every hard limit among `names` has a used value. */
function hasUsageStats(quota: KubeObject, names: readonly string[]): boolean {
	const { hard = {}, used = {} } = statusOf(quota);
	return Object.keys(hard).every((name) => !names.includes(name) || Object.hasOwn(used, name));
}

/** CheckRequest: the quotas with their usage raised by this write, or the refusal. */
function checkRequest(a: AdmissionAttributes, quotas: KubeObject[], evaluator: QuotaEvaluator, nowMs: number): { charged: Array<{ quota: KubeObject; used: QuotaList }> } | { refused: ApiResponse<never> } {
	const obj = a.object!;
	const interesting: KubeObject[] = [];
	for (const quota of quotas) {
		if (!quotaMatches(evaluator, quota, obj)) continue;
		const restricted = evaluator.matchingResources(Object.keys(statusOf(quota).hard ?? {}));
		const violation = evaluator.constraints?.(restricted, obj);
		if (violation) return { refused: admissionForbidden(a, `failed quota: ${quota.metadata.name}: ${violation}`) };
		if (!hasUsageStats(quota, restricted)) return { refused: admissionForbidden(a, `status unknown for quota: ${quota.metadata.name}, resources: ${prettyPrintNames(restricted)}`) };
		interesting.push(quota);
	}
	if (interesting.length === 0) return { charged: [] };

	const input = evaluator.usage(obj, nowMs);
	const negative = negatives(input);
	if (negative.length) return { refused: admissionForbidden(a, `quota usage is negative for resource(s): ${prettyPrintNames(negative)}`) };

	// An update is charged only what it adds, to quotas the old object was already under.
	const deltas = new Map<KubeObject, QuotaList>(interesting.map((q) => [q, input]));
	if (a.operation === 'UPDATE' && a.oldObject?.metadata.resourceVersion) {
		const delta = subtractNonNegative(input, evaluator.usage(a.oldObject, nowMs));
		for (const quota of interesting) if (quotaMatches(evaluator, quota, a.oldObject)) deltas.set(quota, delta);
	}

	const charged: Array<{ quota: KubeObject; used: QuotaList }> = [];
	for (const quota of interesting) {
		const delta = removeZeros(deltas.get(quota)!);
		if (delta.size === 0) continue;
		const status = statusOf(quota);
		const hard = toQuotaList(status.hard);
		const used = toQuotaList(status.used);
		const requested = mask(delta, hard.keys());
		const newUsage = add(used, requested);
		if (a.subresource !== 'status') {
			const { allowed, exceeded } = lessThanOrEqual(mask(newUsage, requested.keys()), hard);
			if (!allowed) {
				const why = `exceeded quota: ${quota.metadata.name}, requested: ${prettyPrint(mask(requested, exceeded))}, used: ${prettyPrint(mask(used, exceeded))}, limited: ${prettyPrint(mask(hard, exceeded))}`;
				return { refused: admissionForbidden(a, why) };
			}
		}
		charged.push({ quota, used: newUsage });
	}
	return { charged };
}

/** Writes the raised usage to each quota's status through the loopback client (as checkQuotas does). */
function recordCharges(charged: Array<{ quota: KubeObject; used: QuotaList }>, ctx: StrategyContext): ApiResponse<never> | undefined {
	for (const { quota, used } of charged) {
		const body = { ...quota, status: { ...statusOf(quota), used: fromQuotaList(used) } };
		const response = ctx.loopback?.({ verb: 'update', group: '', version: 'v1', resource: 'resourcequotas', subresource: 'status', namespace: quota.metadata.namespace, name: quota.metadata.name, body });
		if (response && response.code >= 400) {
			const message = (response.body as { message?: string } | undefined)?.message ?? '';
			return errors.internalError(`resource quota evaluation failed: ${message}`);
		}
	}
	return undefined;
}

export const resourceQuotaAdmission: AdmissionPlugin = {
	name: 'ResourceQuota',
	validate(a, ctx) {
		if ((a.operation !== 'CREATE' && a.operation !== 'UPDATE') || !a.namespace || !a.object) return undefined;
		if (IGNORED.has(`${a.info.group}/${a.info.resource}`)) return undefined;
		const quotas = ctx.list('', 'resourcequotas', a.namespace);
		if (quotas.length === 0) return undefined;
		const evaluator = evaluatorFor(a.info.group, a.info.resource);
		if (!evaluator.handles(a.operation, a.subresource)) return undefined;
		const checked = checkRequest(a, quotas, evaluator, parseRfc3339(ctx.now));
		if ('refused' in checked) return checked.refused;
		if (a.dryRun || checked.charged.length === 0) return undefined;
		return recordCharges(checked.charged, ctx);
	},
};
