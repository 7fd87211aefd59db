/**
 * The pods subresources that write: binding and eviction.
 *
 * POST pods/<name>/binding is how the scheduler records its decision: the
 * pod gets spec.nodeName and a PodScheduled condition, unless it is being
 * deleted or already bound (409). POST pods/<name>/eviction deletes the pod
 * gracefully unless a PodDisruptionBudget forbids it (the decisions are
 * ../eviction.ts; the budget's status is updated first, as upstream does).
 *
 * Mirrors pkg/registry/core/pod/storage/storage.go (BindingREST.Create,
 * assignPod), pkg/registry/core/pod/storage/eviction.go
 * (EvictionREST.Create).
 */
import type { ObjectMeta, Status } from '../../api/types.ts';
import { qualifiedResource, resourceByName, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import { deepCopy } from '../../golang/json.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import type { Caller } from '../config.ts';
import { deleteResource } from '../endpoints/handlers/delete.ts';
import type { RequestScope } from '../endpoints/handlers/rest.ts';
import * as errors from '../errors.ts';
import { canIgnorePDB, checkEvictionBody, decideEviction, type PodDisruptionBudget } from '../eviction.ts';

/** POST pods/<name>/binding: the scheduler's decision, recorded as spec.nodeName. */
export function bind(scope: RequestScope, request: ApiRequest, info: ResourceInfo, store: EtcdClient): ApiResponse {
	const body = request.body as { target?: { name?: string; kind?: string }; metadata?: ObjectMeta } | undefined;
	const name = request.name ?? body?.metadata?.name ?? '';
	const target = body?.target?.name;
	if (!target) return errors.invalid('Binding', name, [{ field: 'target.name', type: 'FieldValueRequired' }]);
	const pod = scope.registry.get(info, request.namespace, name);
	if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	const spec = pod.spec as { nodeName?: string };
	if (pod.metadata.deletionTimestamp) return errors.conflict(qualifiedResource(info), name, `pod ${name} is being deleted, cannot be assigned to a host`);
	if (spec.nodeName) return errors.conflict(qualifiedResource(info), name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
	const updated = deepCopy(pod);
	(updated.spec as { nodeName?: string }).nodeName = target;
	const status = (updated.status ??= {}) as { conditions?: Array<Record<string, unknown>> };
	const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
	conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatRfc3339(scope.server.kernel.wallMs()) });
	status.conditions = conditions;
	scope.server.emit({ action: 'bind', object: `pods/${request.namespace}/${name}`, msg: `binding ${request.namespace}/${name} to ${target}` });
	const written = scope.registry.put(store, info, updated, Number(pod.metadata.resourceVersion), request.query?.dryRun === 'All');
	if (!written.ok) return errors.conflict(qualifiedResource(info), name);
	scope.server.pump();
	return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
}

/**
 * POST pods/<name>/eviction: deletes the pod gracefully unless a
 * PodDisruptionBudget forbids it (see ../eviction.ts; upstream
 * pkg/registry/core/pod/storage/eviction.go).
 */
export function evict(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
	const name = request.name ?? '';
	const checked = checkEvictionBody(request.body, name);
	if ('error' in checked) return checked.error;
	const { server, registry } = scope;
	const pod = registry.get(info, request.namespace, name);
	if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	const dryRun = request.query?.dryRun === 'All' || (checked.eviction.deleteOptions?.dryRun ?? []).includes('All');
	const { dryRun: _ignored, ...options } = checked.eviction.deleteOptions ?? {};
	void _ignored;
	const deleteRequest: ApiRequest = { ...request, verb: 'delete', subresource: undefined, body: undefined, deleteOptions: options, query: dryRun ? { dryRun: 'All' } : {} };
	const success: ApiResponse = { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
	if (!canIgnorePDB(pod)) {
		const pdbInfo = resourceByName('policy', 'poddisruptionbudgets');
		const budgets = (pdbInfo ? server.cacher.list(pdbInfo, request.namespace) : []) as PodDisruptionBudget[];
		const decision = decideEviction(pod, budgets, formatRfc3339(server.kernel.wallMs()), dryRun);
		if (decision.action === 'refuse') {
			server.emit({ action: 'evict', object: `pods/${request.namespace}/${name}`, msg: `eviction of ${request.namespace}/${name} refused: ${(decision.response.body as Status).message}` });
			return decision.response;
		}
		if (decision.budget && pdbInfo) {
			const written = registry.put(store, pdbInfo, decision.budget, Number(decision.budget.metadata.resourceVersion), false);
			if (!written.ok) return errors.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10);
			server.pump();
		}
		if (decision.resourceVersionPrecondition) deleteRequest.deleteOptions = { ...options, preconditions: { ...options.preconditions, resourceVersion: decision.resourceVersionPrecondition } };
	}
	server.emit({ action: 'evict', object: `pods/${request.namespace}/${name}`, msg: `evicting ${request.namespace}/${name}` });
	const deleted = deleteResource(scope, deleteRequest, info, caller, store);
	return deleted.code >= 400 ? deleted : success;
}
