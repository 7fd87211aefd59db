/**
 * DELETE of one object and of a collection. Preconditions (uid,
 * resourceVersion) are checked against the stored object and validating
 * admission is asked; then the object is either removed, or kept with a
 * deletionTimestamp: for a graceful deletion (pods: the kubelet finishes
 * it), or while finalizers remain (propagation Orphan and Foreground add
 * theirs; Background leaves the dependents to the garbage collector).
 * Namespaces only start their clean-up (../../registry/namespace-storage.ts).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/delete.go
 * (DeleteResource, DeleteCollection),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go (BeforeDelete),
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
 * (Delete, updateForGracefulDeletionAndFinalizers, DeleteCollection).
 */
import type { KubeObject } from '../../../api/types.ts';
import { groupVersion, qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import type { EtcdClient } from '../../../etcd-api/etcd.ts';
import { deepCopy } from '../../../golang/json.ts';
import { formatRfc3339 } from '../../../golang/time.ts';
import type { AdmissionAttributes } from '../../admission/plugin.ts';
import type { Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import { deleteNamespace, isNamespace } from '../../registry/namespace-storage.ts';
import { objectMatches, parseSelectors } from '../../selectors.ts';
import type { RequestScope } from './rest.ts';

export function deleteResource(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
	const name = request.name ?? '';
	const { registry } = scope;
	const old = registry.get(info, request.namespace, name);
	if (!old) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	const options = request.deleteOptions ?? {};
	if (options.preconditions?.uid && options.preconditions.uid !== old.metadata.uid) {
		return errors.conflict(qualifiedResource(info), name, `Precondition failed: UID in precondition: ${options.preconditions.uid}, UID in object meta: ${old.metadata.uid}`);
	}
	if (options.preconditions?.resourceVersion && options.preconditions.resourceVersion !== old.metadata.resourceVersion) {
		return errors.conflict(qualifiedResource(info), name, `Precondition failed: ResourceVersion in precondition: ${options.preconditions.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`);
	}
	const ctx = scope.context(caller.user);
	const strategy = scope.strategy(info);
	const attributes: AdmissionAttributes = { operation: 'DELETE', info, namespace: request.namespace, name, oldObject: old, user: caller.user, dryRun: request.query?.dryRun === 'All' };
	for (const plugin of scope.server.deps.admission) {
		const rejected = plugin.validate?.(attributes, ctx);
		if (rejected) return rejected;
	}

	// Namespaces: deletion starts the namespace controller's clean-up.
	if (isNamespace(info)) return deleteNamespace(scope, info, store, name, old, ctx.now, attributes.dryRun);

	const obj = deepCopy(old);
	const meta = obj.metadata;
	const propagation = options.propagationPolicy ?? strategy.defaultPropagation ?? 'Background';
	const finalizers = new Set(meta.finalizers ?? []);
	if (propagation === 'Orphan') finalizers.add('orphan');
	if (propagation === 'Foreground') finalizers.add('foregroundDeletion');

	const grace = strategy.gracePeriodSeconds?.(old, options.gracePeriodSeconds);
	const alreadyDeleting = !!meta.deletionTimestamp;
	if (grace !== undefined && grace > 0) {
		// Graceful: mark, and let the kubelet finish (it deletes with grace 0).
		if (alreadyDeleting && (meta.deletionGracePeriodSeconds ?? 0) <= grace) return { code: 200, body: old };
		meta.deletionTimestamp = formatRfc3339(scope.server.kernel.wallMs() + grace * 1000);
		meta.deletionGracePeriodSeconds = grace;
		meta.finalizers = finalizers.size ? [...finalizers] : undefined;
		if (!meta.finalizers) delete meta.finalizers;
		const written = registry.put(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
		if (!written.ok) return errors.conflict(qualifiedResource(info), name);
		return { code: 200, body: attributes.dryRun ? obj : registry.readBack(info, request.namespace, name)! };
	}
	if (finalizers.size > 0) {
		if (!alreadyDeleting || propagation !== 'Background') {
			meta.deletionTimestamp = meta.deletionTimestamp ?? ctx.now;
			meta.deletionGracePeriodSeconds = 0;
			meta.finalizers = [...finalizers];
			const written = registry.put(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
			if (!written.ok) return errors.conflict(qualifiedResource(info), name);
			return { code: 200, body: attributes.dryRun ? obj : registry.readBack(info, request.namespace, name)! };
		}
		return { code: 200, body: old };
	}
	const removed = registry.remove(store, info, old, attributes.dryRun);
	if (!removed.ok) return errors.conflict(qualifiedResource(info), name);
	scope.server.pump();
	return { code: 200, body: old };
}

/** Deletes every object the selectors match, one by one; answers with the list of those deleted. */
export function deleteCollection(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
	const selectors = parseSelectors(request.query?.labelSelector, request.query?.fieldSelector);
	if (!selectors.ok) return errors.badRequest(selectors.error);
	const strategy = scope.strategy(info);
	const { cacher } = scope.server;
	const items = cacher.list(info, info.namespaced ? request.namespace : undefined).filter((o) => objectMatches(o, selectors.value, strategy));
	const deleted: KubeObject[] = [];
	for (const item of items) {
		const response = deleteResource(scope, { ...request, verb: 'delete', name: item.metadata.name, namespace: item.metadata.namespace }, info, caller, store);
		if (response.code < 300) deleted.push(item);
	}
	return { code: 200, body: { apiVersion: groupVersion(info), kind: `${info.kind}List`, metadata: { resourceVersion: String(cacher.revision) }, items: deleted } };
}
