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
import type { KubeObject, ObjectMeta, Status } from '../../api/types.ts';
import { qualifiedResource, resourceByName, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import { deepCopy } from '../../golang/json.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import type { Caller } from '../config.ts';
import { deleteResource } from '../endpoints/handlers/delete.ts';
import type { RequestScope } from '../endpoints/handlers/rest.ts';
import * as errors from '../errors.ts';
import { budgetsForPod, canIgnorePDB, checkEvictionBody, decideEviction, EVICTION_REFUSED_MESSAGE, shouldEnforceResourceVersion, type PodDisruptionBudget } from '../eviction.ts';

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

/** The DisruptionTarget condition the eviction subresource adds before it deletes (addConditionAndDeletePod). */
const EVICTION_CONDITION = { type: 'DisruptionTarget', status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting' };

/**
 * POST pods/<name>/eviction: deletes the pod gracefully unless a
 * PodDisruptionBudget forbids it (see ../eviction.ts; upstream
 * pkg/registry/core/pod/storage/eviction.go). A pod that is deleted first
 * gets the DisruptionTarget condition (reason EvictionByEvictionAPI), as
 * PodDisruptionConditions (GA in v1.31) does, unless it is a dry run.
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
	const callerPinned = !!options.preconditions?.resourceVersion;
	let pinned = false;
	let budgetName = '';
	const pin = (resourceVersion: string | undefined) => {
		if (callerPinned || !resourceVersion) return;
		deleteRequest.deleteOptions = { ...options, preconditions: { ...options.preconditions, resourceVersion } };
		pinned = true;
	};
	if (canIgnorePDB(pod)) {
		// A Pending pod skips the budgets but is still deleted at the version that was judged.
		if (shouldEnforceResourceVersion(pod)) pin(pod.metadata.resourceVersion);
	} else {
		const pdbInfo = resourceByName('policy', 'poddisruptionbudgets');
		const budgets = (pdbInfo ? server.cacher.list(pdbInfo, request.namespace) : []) as PodDisruptionBudget[];
		const decision = decideEviction(pod, budgets, formatRfc3339(server.kernel.wallMs()), dryRun);
		if (decision.action === 'refuse') {
			server.emit({ action: 'evict', object: `pods/${request.namespace}/${name}`, msg: `eviction of ${request.namespace}/${name} refused: ${(decision.response.body as Status).message}` });
			return decision.response;
		}
		budgetName = decision.budget?.metadata.name ?? budgetsForPod(pod, budgets)[0]?.metadata.name ?? '';
		if (decision.budget && pdbInfo) {
			const written = registry.put(store, pdbInfo, decision.budget, Number(decision.budget.metadata.resourceVersion), false);
			if (!written.ok) return errors.tooManyRequests(EVICTION_REFUSED_MESSAGE, 10, [{ reason: 'DisruptionBudget', message: `The disruption budget ${budgetName} is still being processed by the server.` }]);
			server.pump();
		}
		pin(decision.resourceVersionPrecondition);
	}
	server.emit({ action: 'evict', object: `pods/${request.namespace}/${name}`, msg: `evicting ${request.namespace}/${name}` });
	if (!dryRun) {
		const marked = addDisruptionCondition(scope, info, store, pod, deleteRequest.deleteOptions?.preconditions?.resourceVersion);
		if ('error' in marked) return pinned && marked.error.code === 409 ? stillProcessing(budgetName) : marked.error;
		if (deleteRequest.deleteOptions?.preconditions?.resourceVersion) deleteRequest.deleteOptions = { ...deleteRequest.deleteOptions, preconditions: { ...deleteRequest.deleteOptions.preconditions, resourceVersion: marked.resourceVersion } };
	}
	const deleted = deleteResource(scope, deleteRequest, info, caller, store);
	// Our own resourceVersion pin failed: the pod changed (turned Ready?) since it was judged; the client retries.
	if (deleted.code === 409 && pinned) return stillProcessing(budgetName);
	return deleted.code >= 400 ? deleted : success;
}

/** createTooManyRequestsError: retry in 10 s. */
function stillProcessing(budgetName: string): ApiResponse {
	return errors.tooManyRequests(EVICTION_REFUSED_MESSAGE, 10, [{ reason: 'DisruptionBudget', message: `The disruption budget ${budgetName} is still being processed by the server.` }]);
}

/**
 * addConditionAndDeletePod's first half: the latest pod (checked against a
 * resourceVersion precondition) gets DisruptionTarget=True; returns the new
 * resourceVersion the delete must then expect.
 */
function addDisruptionCondition(scope: RequestScope, info: ResourceInfo, store: EtcdClient, judged: KubeObject, resourceVersion: string | undefined): { resourceVersion: string } | { error: ApiResponse } {
	const { registry, server } = scope;
	const name = judged.metadata.name ?? '';
	const latest = registry.get(info, judged.metadata.namespace, name);
	if (!latest) return { error: errors.notFound(qualifiedResource(info), name, info.group, info.resource) };
	if (resourceVersion && resourceVersion !== latest.metadata.resourceVersion) {
		return { error: errors.conflict('Pod', name, `the ResourceVersion in the precondition (${resourceVersion}) does not match the ResourceVersion in record (${latest.metadata.resourceVersion}). The object might have been modified`) };
	}
	const updated = deepCopy(latest);
	const status = (updated.status ??= {}) as { conditions?: Array<Record<string, unknown>> };
	const conditions = status.conditions ?? [];
	const existing = conditions.find((c) => c.type === EVICTION_CONDITION.type);
	if (existing && existing.status === EVICTION_CONDITION.status && existing.reason === EVICTION_CONDITION.reason && existing.message === EVICTION_CONDITION.message) return { resourceVersion: latest.metadata.resourceVersion ?? '' };
	// podutil.UpdatePodCondition: lastTransitionTime moves only when the status changes.
	const lastTransitionTime = existing && existing.status === EVICTION_CONDITION.status ? existing.lastTransitionTime : formatRfc3339(server.kernel.wallMs());
	const condition = { type: EVICTION_CONDITION.type, status: EVICTION_CONDITION.status, lastProbeTime: null, lastTransitionTime, reason: EVICTION_CONDITION.reason, message: EVICTION_CONDITION.message };
	status.conditions = existing ? conditions.map((c) => (c === existing ? condition : c)) : [...conditions, condition];
	const written = registry.put(store, info, updated, Number(latest.metadata.resourceVersion), false);
	if (!written.ok) return { error: errors.conflict(qualifiedResource(info), name) };
	server.pump();
	return { resourceVersion: String(written.revision) };
}
