/**
 * PUT of an existing object (and of its status, finalize, approval and
 * ephemeralcontainers subresources): the stored object supplies what the server owns (uid,
 * creationTimestamp, deletion marks, generation); a resourceVersion that
 * is not the stored one is a 409 Conflict. Then mutating admission, the
 * strategy (status updates keep everything but status; main updates keep
 * the status of resources with a status subresource), validation and
 * validating admission, and a compare-and-swap write. A deleted object
 * whose last finalizer just went is removed instead; an update that
 * changes nothing writes nothing. Resources that allow create on update
 * (nodes, leases, events...) are created when missing.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/update.go
 * (UpdateResource), staging/src/k8s.io/apiserver/pkg/registry/rest/update.go
 * (BeforeUpdate),
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go
 * (Update, including the deletion of an object whose finalizers are gone).
 */
import type { KubeObject, ObjectMeta } from '../../../api/types.ts';
import { qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import type { EtcdClient } from '../../../etcd-api/etcd.ts';
import { deepCopy } from '../../../golang/json.ts';
import type { AdmissionAttributes } from '../../admission/plugin.ts';
import type { Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import type { FieldError } from '../../errors.ts';
import { encodeForStorage } from '../../registry/generic-store.ts';
import { finalizeNamespace, hasSpecFinalizers } from '../../registry/namespace-storage.ts';
import { create } from './create.ts';
import { namespaceCheck, type RequestScope } from './rest.ts';

/** How a write is recorded in managedFields: under another subresource's name (a scale), or already done (an apply). */
export interface ManagedFieldsOptions {
	subresource?: string;
	done?: boolean;
}

/** Updates from `body`, or from an object the caller already decoded (a patch, a scale). */
export function update(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient, body: unknown, decodedAlready?: KubeObject, managed: ManagedFieldsOptions = {}): ApiResponse {
	let obj: KubeObject;
	let warnings: string[] = [];
	if (decodedAlready) obj = decodedAlready;
	else {
		const decoded = scope.decode(request, info, body);
		if (decoded.error) return decoded.error;
		obj = decoded.obj!;
		warnings = decoded.warnings;
	}
	const mismatch = namespaceCheck(info, request.namespace, obj);
	if (mismatch) return mismatch;
	const name = request.name ?? obj.metadata.name ?? '';
	if (obj.metadata.name && obj.metadata.name !== name) return errors.badRequest('the name of the object does not match the name on the URL');
	obj.metadata.name = name;
	const strategy = scope.strategy(info);
	const old = scope.registry.get(info, request.namespace, name);
	if (!old) {
		if (strategy.allowCreateOnUpdate && !request.subresource) return create(scope, { ...request, body: obj, verb: 'create' }, info, caller, store, managed.done);
		return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	}
	const wantedRv = obj.metadata.resourceVersion;
	if (wantedRv && wantedRv !== old.metadata.resourceVersion) return errors.conflict(qualifiedResource(info), name);
	const ctx = scope.context(caller.user);
	// Server-owned metadata comes from the stored object.
	obj.metadata.uid = old.metadata.uid;
	obj.metadata.creationTimestamp = old.metadata.creationTimestamp;
	if (old.metadata.deletionTimestamp) {
		obj.metadata.deletionTimestamp = old.metadata.deletionTimestamp;
		if (old.metadata.deletionGracePeriodSeconds !== undefined) obj.metadata.deletionGracePeriodSeconds = old.metadata.deletionGracePeriodSeconds;
	} else {
		delete obj.metadata.deletionTimestamp;
		delete obj.metadata.deletionGracePeriodSeconds;
	}
	if (old.metadata.generation !== undefined) obj.metadata.generation = old.metadata.generation;
	// The field manager runs before admission and the strategy (update.go's transformers); strategies that rebuild metadata keep what it recorded.
	if (!managed.done) scope.recordUpdate(request, info, caller, old, obj, managed.subresource ?? request.subresource);
	const managedFields = obj.metadata.managedFields;
	// Upstream order: mutating admission sees the incoming object first;
	// then the strategy prepares and validates what admission produced.
	const attributes: AdmissionAttributes = { operation: 'UPDATE', info, subresource: request.subresource, namespace: request.namespace, name, object: obj, oldObject: old, user: caller.user, dryRun: request.query?.dryRun === 'All' };
	const rejected = scope.admit(attributes, ctx);
	if (rejected) return rejected;
	obj = attributes.object!;
	let fieldErrors: FieldError[];
	if (request.subresource === 'finalize') {
		const finalized = finalizeNamespace(scope, request, info, store, name, old, obj);
		if ('response' in finalized) return finalized.response;
		obj = finalized.obj;
		fieldErrors = [];
	} else if (request.subresource === 'status') {
		const mutable = deepCopy(old);
		mutable.status = obj.status;
		if (strategy.prepareForStatusUpdate) strategy.prepareForStatusUpdate(obj, old, ctx);
		else obj = { ...mutable, metadata: { ...old.metadata, ...pickMetaForStatus(obj.metadata) } } as KubeObject;
		fieldErrors = strategy.validateStatusUpdate?.(obj, old, ctx) ?? [];
	} else if (request.subresource && strategy.subresourceUpdates && Object.hasOwn(strategy.subresourceUpdates, request.subresource)) {
		const subresource = strategy.subresourceUpdates[request.subresource];
		subresource.prepare(obj, old, ctx);
		fieldErrors = subresource.validate(obj, old, ctx);
	} else {
		if (strategy.hasStatusSubresource) {
			// An object nobody has reported status for yet has none: keep it that way (deepCopy() cannot copy undefined).
			if (old.status === undefined) delete obj.status;
			else obj.status = deepCopy(old.status);
		}
		strategy.prepareForUpdate?.(obj, old, ctx);
		fieldErrors = strategy.validateUpdate?.(obj, old, ctx) ?? strategy.validate?.(obj, ctx) ?? [];
	}
	if (managedFields) obj.metadata.managedFields = managedFields;
	else delete obj.metadata.managedFields;
	attributes.object = obj;
	const invalid = scope.validate(attributes, ctx, fieldErrors, info);
	if (invalid) return invalid;
	// A deleted object whose last finalizer just went is removed now.
	if (obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length) && !isGracefullyTerminating(info, obj) && !hasSpecFinalizers(info, obj)) {
		const removed = scope.registry.remove(store, info, old, attributes.dryRun);
		if (!removed.ok) return errors.conflict(qualifiedResource(info), name);
		return { code: 200, body: { ...obj, metadata: { ...obj.metadata, resourceVersion: String(removed.revision) } } };
	}
	if (jsonEqualIgnoringRv(obj, old)) return { code: 200, body: old, warnings: warnings.length ? warnings : undefined };
	const written = scope.registry.put(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
	if (!written.ok) return errors.conflict(qualifiedResource(info), name);
	const fresh = attributes.dryRun ? obj : scope.registry.readBack(info, request.namespace, name)!;
	return { code: 200, body: fresh, warnings: warnings.length ? warnings : undefined };
}

/** Pods with a deletion timestamp wait for the kubelet (or the grace period) before removal. */
function isGracefullyTerminating(info: ResourceInfo, obj: KubeObject): boolean {
	return info.resource === 'pods' && info.group === '' && (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
}

/**
 * What a status update may change in metadata: upstream's status strategies
 * reset spec and labels to the stored ones but keep the incoming
 * annotations (the Deployment controller records its revision annotation
 * through deployments/status).
 */
function pickMetaForStatus(meta: ObjectMeta): Partial<ObjectMeta> {
	return meta.annotations ? { annotations: meta.annotations } : {};
}

/** Whether two objects would be stored as the same bytes (GuaranteedUpdate skips a write that changes nothing). */
function jsonEqualIgnoringRv(a: KubeObject, b: KubeObject): boolean {
	return encodeForStorage(a) === encodeForStorage(b);
}
