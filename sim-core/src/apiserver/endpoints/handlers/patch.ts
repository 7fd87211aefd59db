/**
 * PATCH: the patch (JSON, merge or strategic merge; ../../../api/patch.ts)
 * is applied to the stored object, the result decoded like a PUT body and
 * updated at the stored object's revision, so a racing write makes it
 * fail rather than be lost. A patch of the scale subresource applies to
 * the Scale and updates spec.replicas.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go
 * (PatchResource, patcher.applyPatch).
 */
import type { KubeObject } from '../../../api/types.ts';
import { qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import { applyPatch } from '../../../api/patch.ts';
import type { EtcdClient } from '../../../etcd-api/etcd.ts';
import type { Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import { scaleOf, updateScale } from '../../registry/scale.ts';
import { stripResourceVersion, type RequestScope } from './rest.ts';
import { update } from './update.ts';

export function patch(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
	const name = request.name ?? '';
	const old = scope.registry.get(info, request.namespace, name);
	if (!old) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
	if (request.subresource === 'scale') {
		const scale = applyPatch(scaleOf(old), request.body, request.patchType ?? 'application/merge-patch+json', info.kind);
		if ('error' in scale) return errors.badRequest(scale.error);
		return updateScale(scope, request, info, caller, store, old, scale.value as KubeObject);
	}
	const patched = applyPatch(stripResourceVersion(old), request.body, request.patchType ?? 'application/strategic-merge-patch+json', info.kind);
	if ('error' in patched) return errors.badRequest(patched.error);
	const decoded = scope.decode(request, info, patched.value);
	if (decoded.error) return decoded.error;
	const obj = decoded.obj!;
	// A patch applies to what the server has: carry its revision so a racing write is retried.
	if (!obj.metadata.resourceVersion) obj.metadata.resourceVersion = old.metadata.resourceVersion;
	return update(scope, request, info, caller, store, undefined, obj);
}
