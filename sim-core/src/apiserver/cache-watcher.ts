/**
 * The watchers of the watch cache: each registered watch (plain JSON in the
 * server's state) gets the changes of its resource that pass its namespace
 * and selectors, in revision order, a moment after the cache read them.
 * An object that enters or leaves a watcher's selection becomes ADDED or
 * DELETED for that watcher. The watch request itself is
 * ./endpoints/handlers/watch.ts.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go
 * (convertToWatchEvent, add),
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go (the fan-out:
 * dispatchEvent).
 */
import type { KubeObject } from '../api/types.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { WatchEvent } from '../api/request.ts';
import { resourceOf, type CacheChange } from './cacher.ts';
import type { ApiServerContext, WatchRegistration } from './config.ts';
import { objectMatches, parseSelectors } from './selectors.ts';

/**
 * How long a client takes to notice that its connection to the API server
 * is dead when nothing closes it (a partition): client-go's HTTP/2 health
 * check pings after 30 s without a frame (ReadIdleTimeout) and gives up 15 s
 * later (PingTimeout): the defaults of k8s.io/apimachinery/pkg/util/net/
 * http.go (HTTP2_READ_IDLE_TIMEOUT_SECONDS, HTTP2_PING_TIMEOUT_SECONDS).
 */
const CLIENT_DEAD_CONNECTION_MS = 45_000;

export class CacheWatchers {
	constructor(private readonly server: ApiServerContext) {}

	/** Sends one change the cache just read to every watcher of its resource that has not seen it. */
	dispatch(change: CacheChange): void {
		for (const watch of Object.values(this.server.state.watches)) {
			if (watch.group !== change.info.group || watch.resource !== change.info.resource) continue;
			if (change.revision <= watch.sentRevision) continue;
			const event = this.eventFor(watch, change);
			watch.sentRevision = change.revision;
			if (event) this.deliver(watch, event, change.revision);
		}
	}

	/** The event a watcher sees for a change, given its selectors: objects entering or leaving the selection become ADDED or DELETED. */
	eventFor(watch: WatchRegistration, change: CacheChange): WatchEvent | undefined {
		const strategy = this.server.strategy(change.info);
		const selectors = parseSelectors(watch.labelSelector, watch.fieldSelector);
		if (!selectors.ok) return undefined;
		const inNamespace = (o?: KubeObject) => !!o && (!watch.namespace || o.metadata.namespace === watch.namespace);
		const matchesNow = inNamespace(change.object) && change.type !== 'DELETED' && objectMatches(change.object, selectors.value, strategy);
		const matchedBefore = inNamespace(change.previous) && !!change.previous && objectMatches(change.previous, selectors.value, strategy);
		if (change.type === 'DELETED') return matchedBefore || objectMatches(change.object, selectors.value, strategy) ? { type: 'DELETED', object: change.object } : undefined;
		if (matchesNow && matchedBefore) return { type: 'MODIFIED', object: change.object };
		if (matchesNow) return { type: 'ADDED', object: change.object };
		if (matchedBefore) return { type: 'DELETED', object: change.object };
		return undefined;
	}

	/** Schedules the event for the watcher's process; a watcher that stopped (or restarted) since it watched is dropped instead. */
	deliver(watch: WatchRegistration, event: WatchEvent, revision: number): void {
		const { kernel, state } = this.server;
		if (!kernel.isRunning(watch.owner) || kernel.incarnation(watch.owner) !== watch.ownerIncarnation) {
			delete state.watches[String(watch.id)];
			return;
		}
		this.server.emit({
			action: 'watch-event',
			peer: watch.owner,
			object: describeObject(event.object as KubeObject, resourceOf(event.object as KubeObject)),
			rv: revision,
			msg: `${event.type} ${watch.resource} to ${watch.owner}`,
		});
		kernel.schedule(watch.owner, this.server.options.watchLatencyMs, 'watch', { watchId: watch.id, event });
	}

	/** Forgets the watches of a process that stopped. */
	dropOf(processId: string): void {
		const state = this.server.state;
		if (!state) return;
		for (const [id, watch] of Object.entries(state.watches)) if (watch.owner === processId) delete state.watches[id];
	}

	/**
	 * Closes the watches of some processes (a partitioned node). Nothing
	 * reaches them to say so: each client finds out when its connection's
	 * health check fails (CLIENT_DEAD_CONNECTION_MS later), then re-watches
	 * from its resourceVersion, backing off while the node is still cut off.
	 */
	closeOf(processIds: string[]): void {
		const { kernel, state } = this.server;
		for (const [id, watch] of Object.entries(state.watches)) {
			if (!processIds.includes(watch.owner)) continue;
			delete state.watches[id];
			kernel.schedule(watch.owner, CLIENT_DEAD_CONNECTION_MS, 'watch-closed', { watchId: watch.id }, { background: true, origin: kernel.origin });
		}
	}

	/** Ends a watch (the client closed it). */
	stop(watchId: number): void {
		delete this.server.state.watches[String(watchId)];
	}

	/** Every watch connection breaks (the server stopped): tell each watcher, as a closed TCP stream would. */
	breakAll(): void {
		const { kernel } = this.server;
		for (const watch of Object.values(this.server.state.watches)) {
			kernel.schedule(watch.owner, 1, 'watch-closed', { watchId: watch.id }, { origin: kernel.origin });
		}
	}
}

/** A short label for trace lines: resource/namespace/name. */
function describeObject(obj: KubeObject | undefined, info: ResourceInfo | undefined): string | undefined {
	if (!obj?.metadata || !info) return undefined;
	return obj.metadata.namespace ? `${info.resource}/${obj.metadata.namespace}/${obj.metadata.name}` : `${info.resource}/${obj.metadata.name}`;
}
