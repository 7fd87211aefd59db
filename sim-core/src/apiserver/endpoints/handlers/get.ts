/**
 * GET of one object and of a list, both served from the watch cache. A
 * list filters by namespace and selectors, carries the cache's revision as
 * its resourceVersion, and refuses (410 Gone) a resourceVersion etcd has
 * already compacted away. A `limit` cuts the list into pages joined by
 * continue tokens; the pages after the first are read from etcd at the
 * first page's revision, so one list is one snapshot even while objects
 * change (upstream serves them from cache snapshots or etcd alike). The
 * scale subresource answers with the object's autoscaling/v1 Scale.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/get.go
 * (GetResource, ListResource),
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go (GetList, computeListLimit),
 * staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go (GetList),
 * staging/src/k8s.io/apiserver/pkg/storage/etcd3/errors.go (handleCompactedErrorForPaging).
 */
import type { KubeList, KubeObject } from '../../../api/types.ts';
import { etcdPrefix, groupVersion, qualifiedResource, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse } from '../../../api/request.ts';
import type { EtcdClient } from '../../../etcd-api/etcd.ts';
import { decodeStored, resourceOfKey } from '../../cacher.ts';
import { continueAfter, decodeContinue, encodeContinue } from '../../continue-token.ts';
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
	const token = request.query?.continue;
	const limit = request.query?.limit ?? 0;
	const { cacher, deps } = scope.server;
	const store = deps.etcd.store()!;
	const namespace = info.namespaced ? request.namespace : undefined;
	const keyPrefix = etcdPrefix(info, namespace);
	const fromCache = () => ({ entries: cacher.entries(info, namespace), revision: cacher.revision });

	// Where the page is read: the watch cache (current state), or etcd at a pinned revision.
	let source: { entries: Array<[string, KubeObject]>; revision: number };
	let fromKey = '';
	if (token) {
		if (rv && rv !== '0') return errors.badRequest('specifying resource version is not allowed when using continue');
		const position = decodeContinue(token, keyPrefix);
		if (!position.ok) return errors.badRequest(`invalid continue token: ${position.error}`);
		fromKey = position.value.fromKey;
		if (position.value.revision === -1) source = fromCache();
		else if (position.value.revision < store.compactRevision) return inconsistentContinue(fromKey, keyPrefix);
		else source = readAt(store, info, keyPrefix, position.value.revision);
	} else if (limit > 0 && rv && rv !== '0') {
		// A limit with a resourceVersion asks for that exact revision (the legacy reading of the pair): etcd serves it.
		if (Number(rv) < store.compactRevision) return errors.gone('The resourceVersion for the provided list is too old.');
		source = readAt(store, info, keyPrefix, Math.min(Number(rv), store.revision));
	} else {
		if (rv && rv !== '0' && Number(rv) < store.compactRevision) {
			return errors.gone(`too old resource version: ${rv} (${store.compactRevision})`);
		}
		source = fromCache();
	}

	// computeListLimit: resourceVersion=0 ("any") has always meant the whole list from the cache.
	const pageSize = rv === '0' && !token ? 0 : limit;
	const strategy = scope.strategy(info);
	const filtered = !!(selectors.value.label || selectors.value.field);
	const candidates = fromKey ? source.entries.filter(([key]) => key >= fromKey) : source.entries;
	const items: KubeObject[] = [];
	let lastKey = '';
	let hasMore = false;
	for (const [key, object] of candidates) {
		if (pageSize > 0 && items.length >= pageSize) {
			// Meeting an item past a full page is how the server learns a continuation is needed.
			hasMore = true;
			break;
		}
		if (filtered && !objectMatches(object, selectors.value, strategy)) continue;
		items.push(object);
		lastKey = key;
	}
	const metadata: KubeList['metadata'] = { resourceVersion: String(source.revision) };
	if (hasMore) Object.assign(metadata, continueAfter(lastKey, keyPrefix, source.revision, filtered ? undefined : candidates.length - pageSize));
	const list: KubeList = {
		apiVersion: groupVersion(info),
		kind: `${info.kind}List`,
		metadata,
		// Items of a typed list carry no apiVersion/kind on the wire.
		items: items.map(stripTypeMeta),
	};
	return { code: 200, body: list };
}

/** The objects under `keyPrefix` as etcd held them at `revision` (a continued or exact-revision list). */
function readAt(store: EtcdClient, info: ResourceInfo, keyPrefix: string, revision: number): { entries: Array<[string, KubeObject]>; revision: number } {
	const { kvs } = store.range(keyPrefix, { prefix: true, revision });
	const entries: Array<[string, KubeObject]> = [];
	for (const kv of kvs) if (resourceOfKey(kv.key) === info) entries.push([kv.key, decodeStored(kv.value, kv.modRevision)]);
	return { entries, revision };
}

/**
 * The 410 for a continue token whose revision etcd has compacted: it
 * carries a token that resumes at the same key at the latest revision, for
 * a client that accepts an inconsistent remainder.
 */
function inconsistentContinue(fromKey: string, keyPrefix: string): ApiResponse {
	const response = errors.gone(
		'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.',
	);
	(response.body as { metadata: { continue?: string } }).metadata.continue = encodeContinue(fromKey, keyPrefix, -1);
	return response;
}

function stripTypeMeta(obj: KubeObject): KubeObject {
	const { apiVersion: _a, kind: _k, ...rest } = obj;
	void _a;
	void _k;
	return rest as KubeObject;
}
