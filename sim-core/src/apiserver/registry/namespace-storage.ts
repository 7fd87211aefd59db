/**
 * Namespaces are deleted in two steps. DELETE only marks the namespace
 * (deletionTimestamp, phase Terminating) and the namespace controller
 * empties it; once it is clean the controller PUTs namespaces/<name>/finalize
 * with spec.finalizers emptied, and a namespace with neither spec nor
 * metadata finalizers left is removed.
 *
 * Mirrors pkg/registry/core/namespace/storage/storage.go (REST.Delete,
 * FinalizeREST), pkg/registry/core/namespace/strategy.go (the finalize
 * strategy: only spec.finalizers may change).
 */
import type { KubeObject } from '../../api/types.ts';
import { qualifiedResource, type ResourceInfo } from '../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../api/request.ts';
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import { deepCopy } from '../../golang/json.ts';
import * as errors from '../errors.ts';
import type { RequestScope } from '../endpoints/handlers/rest.ts';

/** Whether a resource is the core Namespace. */
export function isNamespace(info: ResourceInfo): boolean {
	return info.resource === 'namespaces' && info.group === '';
}

/** Namespaces also wait for spec.finalizers (the namespace controller's 'kubernetes'). */
export function hasSpecFinalizers(info: ResourceInfo, obj: KubeObject): boolean {
	return info.resource === 'namespaces' && !!(obj.spec as { finalizers?: string[] } | undefined)?.finalizers?.length;
}

/** DELETE of a namespace: deletion starts the namespace controller's clean-up. */
export function deleteNamespace(scope: RequestScope, info: ResourceInfo, store: EtcdClient, name: string, old: KubeObject, now: string, dryRun: boolean): ApiResponse {
	const obj = deepCopy(old);
	const meta = obj.metadata;
	if (meta.deletionTimestamp) return { code: 200, body: old };
	meta.deletionTimestamp = now;
	(obj.status as { phase?: string }) = { ...(obj.status as object), phase: 'Terminating' };
	const written = scope.registry.put(store, info, obj, Number(old.metadata.resourceVersion), dryRun);
	if (!written.ok) return errors.conflict(qualifiedResource(info), name);
	return { code: 200, body: dryRun ? obj : scope.registry.readBack(info, undefined, name)! };
}

/**
 * PUT namespaces/<name>/finalize: only spec.finalizers may change; the
 * namespace controller empties it once the namespace is clean. Either the
 * object to validate and store, or the response when the namespace was
 * removed (or could not be).
 */
export function finalizeNamespace(scope: RequestScope, request: ApiRequest, info: ResourceInfo, store: EtcdClient, name: string, old: KubeObject, incoming: KubeObject): { obj: KubeObject } | { response: ApiResponse } {
	const finalizers = (incoming.spec as { finalizers?: string[] } | undefined)?.finalizers;
	const obj = deepCopy(old);
	(obj.spec as { finalizers?: string[] }) = { ...(old.spec as object), finalizers: finalizers ?? [] };
	if (obj.metadata.deletionTimestamp && !finalizers?.length && !obj.metadata.finalizers?.length) {
		const removed = scope.registry.remove(store, info, old, request.query?.dryRun === 'All');
		if (!removed.ok) return { response: errors.conflict(qualifiedResource(info), name) };
		scope.server.pump();
		return { response: { code: 200, body: obj } };
	}
	return { obj };
}
