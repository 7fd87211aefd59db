/**
 * The resourcequota-controller: keeps each ResourceQuota's `status` true.
 * `status.hard` follows `spec.hard`; `status.used` is recounted from the
 * namespace's objects (the same evaluators admission charges with, see
 * ../../component-helpers/quota/). Admission raises `used` as objects are
 * created; this controller is what lowers it again: it recounts the quotas
 * of a namespace when one of its objects is deleted, a Pod finishes, a
 * Service changes type or a claim changes size (the quota monitor's
 * replenishment), when a quota's spec changes or its usage is missing, and
 * every quota every `--resource-quota-sync-period` (5 minutes) in case
 * anything was missed.
 *
 * Mirrors pkg/controller/resourcequota/resource_quota_controller.go,
 * pkg/controller/resourcequota/resource_quota_monitor.go (the replenishment
 * filters), staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go
 * (CalculateUsageStats), staging/src/k8s.io/apiserver/pkg/quota/v1/resources.go
 * (CalculateUsage).
 */
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { claimStorage, evaluatorFor, podHoldsQuota, quotaScopes, quotaServiceType, resourcesLimitedBy } from '../../component-helpers/quota/evaluators.ts';
import { add, equals, fromQuotaList, mask, toQuotaList, zero, type QuotaList } from '../../component-helpers/quota/resources.ts';
import { deepCopy } from '../../golang/json.ts';
import { ControllerBase, WATCHABLE_RESOURCES, type SyncError } from '../controller-context.ts';
import { splitKey } from '../pod-util.ts';

/** --resource-quota-sync-period default 5m (pkg/controller/resourcequota/config/v1alpha1/defaults.go). */
export const RESOURCE_QUOTA_SYNC_PERIOD_MS = 5 * 60_000;

interface QuotaSpec {
	hard?: Record<string, string>;
}
interface QuotaStatus {
	hard?: Record<string, string>;
	used?: Record<string, string>;
}

export class ResourceQuotaController extends ControllerBase<Record<string, never>> {
	readonly name = 'resourcequota-controller';
	readonly sub = 'resourcequota';
	/** The quota monitor watches every resource a quota can count (the garbage collector's informers, shared). */
	readonly resources = Object.keys(WATCHABLE_RESOURCES);
	/** --concurrent-resource-quota-syncs default 5. */
	override readonly workers = 5;

	freshState(): Record<string, never> {
		return {};
	}

	override onLeading(): void {
		this.host.timer(this.sub, 'resync', RESOURCE_QUOTA_SYNC_PERIOD_MS, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer !== 'resync') return;
		// enqueueAll: every quota, recounted in full.
		for (const quota of this.host.informer('resourcequotas').list()) this.enqueue(keyOf(quota));
		this.host.timer(this.sub, 'resync', RESOURCE_QUOTA_SYNC_PERIOD_MS, undefined, true);
	}

	override onAdd(resource: string, obj: KubeObject): void {
		// A new object was charged by admission already; only a new quota needs counting.
		if (resource === 'resourcequotas') this.enqueue(keyOf(obj));
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'resourcequotas') {
			// Status writes are this controller's own; only a changed spec.hard asks for a recount.
			const oldHard = toQuotaList((oldObj.spec as QuotaSpec | undefined)?.hard);
			const newHard = toQuotaList((newObj.spec as QuotaSpec | undefined)?.hard);
			if (!equals(oldHard, newHard)) this.enqueue(keyOf(newObj));
			return;
		}
		const now = this.wallMs;
		let released = false;
		if (resource === 'pods') released = podHoldsQuota(oldObj, now) && !podHoldsQuota(newObj, now);
		else if (resource === 'services') released = quotaServiceType(oldObj) !== quotaServiceType(newObj);
		else if (resource === 'persistentvolumeclaims') released = !equals(claimStorage(oldObj), claimStorage(newObj));
		if (released) this.replenish(resource, newObj.metadata.namespace);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'resourcequotas') return;
		this.replenish(resource, obj.metadata.namespace);
	}

	/** replenishQuota: recount the namespace's quotas that limit something of this resource. */
	private replenish(resource: string, namespace: string | undefined): void {
		if (!namespace) return;
		const group = WATCHABLE_RESOURCES[resource]?.group ?? '';
		const evaluator = evaluatorFor(group, resource);
		for (const quota of this.host.listInNamespace('resourcequotas', namespace)) {
			const hard = Object.keys((quota.status as QuotaStatus | undefined)?.hard ?? {});
			if (evaluator.matchingResources(hard).length) this.enqueue(keyOf(quota));
		}
	}

	sync(key: string): SyncError {
		const quota = this.host.informer('resourcequotas').get(key);
		if (!quota) return undefined;
		const { namespace } = splitKey(key);
		const spec = (quota.spec ?? {}) as QuotaSpec;
		const status = (quota.status ?? {}) as QuotaStatus;
		const hard = toQuotaList(spec.hard);
		const dirtyLimits = !equals(hard, toQuotaList(status.hard));
		let used = toQuotaList(status.used);
		for (const [name, value] of this.calculateUsage(namespace, quota, [...hard.keys()])) used.set(name, value);
		used = mask(used, hard.keys());
		const dirty = dirtyLimits || !status.hard || !status.used || !equals(used, toQuotaList(status.used));
		this.trace('reconcile', `resourcequotas/${key}`, dirty ? `recounted usage of quota ${key}` : `quota ${key} is up to date`);
		if (!dirty) return undefined;
		const body = deepCopy(quota);
		body.status = { hard: fromQuotaList(hard), used: fromQuotaList(used) };
		const written = this.host.client.updateStatus(R.resourcequotas, body);
		return written.ok || written.code === 404 ? undefined : written.message;
	}

	/** CalculateUsage: for each resource the quota limits, the namespace's objects in the quota's scopes, summed. */
	private calculateUsage(namespace: string | undefined, quota: KubeObject, hardNames: string[]): QuotaList {
		let total: QuotaList = new Map();
		const scopes = quotaScopes(quota);
		const now = this.wallMs;
		for (const { group, resource } of resourcesLimitedBy(hardNames)) {
			const evaluator = evaluatorFor(group, resource);
			const matched = evaluator.matchingResources(hardNames);
			if (matched.length === 0) continue;
			let usage: QuotaList = new Map(matched.map((name) => [name, zero()]));
			for (const obj of this.objectsOf(group, resource, namespace)) {
				if (!scopes.every((scope) => evaluator.matchesScope(scope, obj))) continue;
				usage = add(usage, mask(evaluator.usage(obj, now), matched));
			}
			total = add(total, usage);
		}
		return total;
	}

	/** The namespace's objects of a group resource, from the shared informer (nothing for a resource this cluster does not serve). */
	private objectsOf(group: string, resource: string, namespace: string | undefined): KubeObject[] {
		const ref = WATCHABLE_RESOURCES[resource];
		if (!ref || ref.group !== group) return [];
		return this.host.listInNamespace(resource, namespace);
	}
}
