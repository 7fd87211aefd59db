/**
 * etcd compaction as kube-apiserver runs it: every
 * `--etcd-compaction-interval` (5m) the server compacts etcd's history,
 * which keeps it bounded and makes old resourceVersions expire (a list or
 * watch from before the compacted revision gets 410 Gone).
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/storage/etcd3/compact.go
 * (compactor).
 */
import type { ApiServerContext } from './config.ts';

/** One compaction tick. */
export function compact(server: ApiServerContext): void {
	const store = server.deps.etcd.store();
	if (!store) return;
	const state = server.state;
	// Like the real server, compact up to the revision seen at the previous
	// tick, so one interval of history stays (watchers that fall further
	// behind get 410 Gone and relist); never past what the cache has read.
	const previous = store.compactRevision;
	const at = Math.min(state.compactCandidate, state.cacheRevision);
	state.compactCandidate = store.revision;
	if (at > previous) {
		store.compact(at);
		server.emit({ action: 'compact', peer: 'etcd', rv: at, msg: `compacted etcd history up to revision ${at}` });
	}
}
