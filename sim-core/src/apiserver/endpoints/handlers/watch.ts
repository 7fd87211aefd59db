/**
 * A watch request: registers a watcher (plain JSON in the server's state)
 * from a resourceVersion (by default the cache's), refusing one etcd has
 * already compacted away (410 Gone), replays from etcd what happened since
 * that revision, and answers at once; events then reach the watcher's
 * process as they happen (../../cache-watcher.ts).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go
 * (serveWatch), staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go
 * (Watch, the registration).
 */
import type { KubeObject } from '../../../api/types.ts';
import { etcdPrefix, type ResourceInfo } from '../../../api/resources.ts';
import type { ApiRequest, ApiResponse, WatchEvent } from '../../../api/request.ts';
import type { Caller, WatchRegistration } from '../../config.ts';
import * as errors from '../../errors.ts';
import { parseSelectors } from '../../selectors.ts';
import type { RequestScope } from './rest.ts';

export function watch(scope: RequestScope, request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
	const selectors = parseSelectors(request.query?.labelSelector, request.query?.fieldSelector);
	if (!selectors.ok) return errors.badRequest(selectors.error);
	const { cacher, deps, kernel, state } = scope.server;
	const store = deps.etcd.store()!;
	const rvText = request.query?.resourceVersion;
	const fromRevision = rvText && rvText !== '0' ? Number(rvText) : cacher.revision;
	// A revision the cache never reached: upstream waits up to 3 s for it, then answers this (watch_cache.go waitUntilFreshAndBlock).
	if (fromRevision > cacher.revision) return errors.tooLargeResourceVersion(fromRevision, cacher.revision);
	if (Number.isNaN(fromRevision)) return errors.badRequest(`invalid resource version "${rvText}"`);
	if (fromRevision < store.compactRevision) {
		return errors.gone(`too old resource version: ${fromRevision} (${store.compactRevision})`);
	}
	const watch: WatchRegistration = {
		id: state.nextWatchId++,
		owner: caller.process,
		ownerIncarnation: kernel.incarnation(caller.process),
		group: info.group,
		resource: info.resource,
		sentRevision: fromRevision,
	};
	if (info.namespaced && request.namespace) watch.namespace = request.namespace;
	if (request.query?.labelSelector) watch.labelSelector = request.query.labelSelector;
	if (request.query?.fieldSelector) watch.fieldSelector = request.query.fieldSelector;
	// A stream read in one go (curl's, which the reader ends): the replay comes back in the answer, nothing stays registered.
	const replayed: WatchEvent[] = [];
	if (!request.streamReplay) scope.watchers.register(watch);
	// Replay what happened since the requested revision.
	if (fromRevision < cacher.revision) {
		const prefix = etcdPrefix(info, info.namespaced ? request.namespace : undefined);
		for (const change of store.changesSince(fromRevision, prefix, true)) {
			if (change.kv.modRevision > cacher.revision) break;
			const object = change.type === 'PUT' ? JSON.parse(change.kv.value) : JSON.parse(change.prevKv!.value);
			object.metadata = { ...object.metadata, resourceVersion: String(change.kv.modRevision) };
			const previous = change.prevKv ? { ...JSON.parse(change.prevKv.value), metadata: { ...JSON.parse(change.prevKv.value).metadata, resourceVersion: String(change.prevKv.modRevision) } } : undefined;
			const type = change.type === 'DELETE' ? 'DELETED' : change.prevKv ? 'MODIFIED' : 'ADDED';
			const event = scope.watchers.eventFor(watch, { info, type, object, previous, revision: change.kv.modRevision });
			if (event && request.streamReplay) replayed.push(event);
			else if (event) scope.watchers.deliver(watch, event, change.kv.modRevision);
		}
		watch.sentRevision = cacher.revision;
	}
	const started = { kind: 'WatchStarted', apiVersion: 'v1', metadata: { resourceVersion: String(fromRevision) }, watchId: watch.id };
	return { code: 200, body: (request.streamReplay ? { ...started, events: replayed } : started) as unknown as KubeObject };
}
