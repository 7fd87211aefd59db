/**
 * GET of one object and of a list, both served from the watch cache. A
 * list filters by namespace and selectors, carries the cache's revision as
 * its resourceVersion, and refuses (410 Gone) a resourceVersion etcd has
 * already compacted away. The scale subresource answers with the object's
 * autoscaling/v1 Scale.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go
 * (GetResource, ListResource),
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go (GetList).
 */
import type { KubeList, KubeObject } from '../../../api/types.ts';
import { groupVersion, qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import * as errors from '../../errors.ts';
import { scaleOf } from '../../registry/scale.ts';
import { objectMatches, parseSelectors } from '../../selectors.ts';
import type { RequestScope } from './rest.ts';

export function get(scope: RequestScope, request: ApiRequest, info: ResourceInfo): ApiResponse {
	const obj = scope.registry.get(info, request.namespace, request.name ?? '');
	if (!obj) return errors.notFound(qualifiedResource(info), request.name ?? '', info.group, info.resource);
	if (request.subresource === 'scale') return { code: 200, body: scaleOf(obj) };
	return { code: 200, body: obj };
}

export function list(scope: RequestScope, request: ApiRequest, info: ResourceInfo): ApiResponse {
	const selectors = parseSelectors(request.query?.labelSelector, request.query?.fieldSelector);
	if (!selectors.ok) return errors.badRequest(selectors.error);
	const rv = request.query?.resourceVersion;
	const { cacher, deps } = scope.server;
	const store = deps.etcd.store()!;
	if (rv && rv !== '0' && Number(rv) < store.compactRevision) {
		return errors.gone(`too old resource version: ${rv} (${store.compactRevision})`);
	}
	const strategy = scope.strategy(info);
	const items = cacher.list(info, info.namespaced ? request.namespace : undefined).filter((o) => objectMatches(o, selectors.value, strategy));
	const list: KubeList = {
		apiVersion: groupVersion(info),
		kind: `${info.kind}List`,
		metadata: { resourceVersion: String(cacher.revision) },
		// Items of a typed list carry no apiVersion/kind on the wire.
		items: items.map(stripTypeMeta),
	};
	return { code: 200, body: list };
}

function stripTypeMeta(obj: KubeObject): KubeObject {
	const { apiVersion: _a, kind: _k, ...rest } = obj;
	void _a;
	void _k;
	return rest as KubeObject;
}
