/**
 * PATCH: the patch (JSON, merge or strategic merge; ../../../api/patch.ts)
 * is applied to the stored object, the result decoded like a PUT body and
 * updated at the stored object's revision, so a racing write makes it
 * fail rather than be lost. A patch of the scale subresource applies to
 * the Scale and updates spec.replicas.
 *
 * An apply patch (server-side apply) is a configuration, not a diff: the
 * field manager (../../fieldmanager/) merges it into the stored object by
 * ownership, or creates the object when there is none; conflicts are a 409.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go
 * (PatchResource, patcher.applyPatch, applyPatcher, the apply patch's
 * create path), staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/validation/validation.go
 * (ValidatePatchOptions).
 */
import type { KubeObject } from '../../../api/types.ts';
import { qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import { applyPatch } from '../../../api/patch.ts';
import type { EtcdClient } from '../../../etcd-api/etcd.ts';
import type { Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import { conflictResponse } from '../../fieldmanager/field-manager.ts';
import { scaleOf, updateScale } from '../../registry/scale.ts';
import { create } from './create.ts';
import { namespaceCheck, stripResourceVersion, type RequestScope } from './rest.ts';
import { update } from './update.ts';

export function patch(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
	const name = request.name ?? '';
	const old = scope.registry.get(info, request.namespace, name);
	const optionErrors = patchOptionErrors(request);
	if (optionErrors.length) return errors.invalid('PatchOptions', '', optionErrors, 'meta.k8s.io');
	if (request.patchType === 'application/apply-patch+yaml') return serverSideApply(scope, request, info, caller, store, old);
	if (!old) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	if (request.subresource === 'scale') {
		const scale = applyPatch(scaleOf(old), request.body, request.patchType ?? 'application/merge-patch+json', info.kind);
		if ('error' in scale) return errors.badRequest(scale.error);
		return updateScale(scope, request, info, caller, store, old, scale.value as KubeObject);
	}
	// A JSON patch sees the stored resourceVersion, so `replace /metadata/resourceVersion` works as a precondition (csaupgrade relies on it).
	const base = request.patchType === 'application/json-patch+json' ? old : stripResourceVersion(old);
	const patched = applyPatch(base, request.body, request.patchType ?? 'application/strategic-merge-patch+json', info.kind);
	if ('error' in patched) return errors.badRequest(patched.error);
	const decoded = scope.decode(request, info, patched.value);
	if (decoded.error) return decoded.error;
	const obj = decoded.obj!;
	// A patch applies to what the server has: carry its revision so a racing write is retried.
	if (!obj.metadata.resourceVersion) obj.metadata.resourceVersion = old.metadata.resourceVersion;
	return update(scope, request, info, caller, store, undefined, obj);
}

/** ValidatePatchOptions: an apply names its manager; only an apply may force. */
function patchOptionErrors(request: ApiRequest): errors.FieldError[] {
	const apply = request.patchType === 'application/apply-patch+yaml';
	if (apply && !request.query?.fieldManager) return [{ field: 'fieldManager', type: 'FieldValueRequired', detail: 'is required for apply patch' }];
	if (!apply && request.query?.force) return [{ field: 'force', type: 'FieldValueForbidden', detail: 'may not be specified for non-apply patch' }];
	return [];
}

/** A server-side apply: the configuration merged by the field manager, then written as an update, or as a create when nothing is stored. */
function serverSideApply(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient, old: KubeObject | undefined): ApiResponse {
	const name = request.name ?? '';
	if (request.subresource && request.subresource !== 'status') return errors.badRequest(`server-side apply of the ${request.subresource} subresource is not supported by this simulated API server`);
	// The configuration is checked as strictly as any body, but not defaulted: defaults are nobody's.
	const decoded = scope.decode(request, info, request.body, { defaults: false });
	if (decoded.error) return decoded.error;
	const config = decoded.obj!;
	if (config.metadata.name !== undefined && config.metadata.name !== name) return errors.badRequest(`the name of the object (${config.metadata.name}) does not match the name on the URL (${name})`);
	const mismatch = namespaceCheck(info, request.namespace, config);
	if (mismatch) return mismatch;
	config.metadata.name = name;
	if (!old && request.subresource) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	const outcome = scope.applyConfiguration(request, info, caller, old, config);
	if ('conflicts' in outcome) return conflictResponse(outcome.conflicts);
	const applied = outcome.object;
	if (!old) return create(scope, { ...request, verb: 'create', body: applied }, info, caller, store, true);
	const redecoded = scope.decode(request, info, applied);
	if (redecoded.error) return redecoded.error;
	const obj = redecoded.obj!;
	obj.metadata.managedFields = applied.metadata.managedFields;
	obj.metadata.resourceVersion = old.metadata.resourceVersion;
	const response = update(scope, request, info, caller, store, undefined, obj, { done: true });
	if (decoded.warnings.length && response.code < 300) response.warnings = [...(response.warnings ?? []), ...decoded.warnings];
	return response;
}
