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

/**
 * The field whose value routes an event to its watchers, per resource: the
 * cacher's trigger function. A watch of pods with `spec.nodeName=<node>`
 * (every kubelet's) hears only of pods on that node, so a change reaches
 * the watchers it concerns instead of every watcher in the cluster.
 * Mirrors pkg/registry/core/pod/storage (TriggerFunc: NodeNameTriggerFunc)
 * and cacher.go (valueWatchers, allWatchers).
 */
const TRIGGERS: Record<string, { field: string; value: (obj: KubeObject) => string }> = {
	'/pods': { field: 'spec.nodeName', value: (obj) => (obj.spec as { nodeName?: string } | undefined)?.nodeName ?? '' },
};

/** A watcher's trigger value: the value its field selector requires of the trigger field, if it requires one exactly. */
function triggerValueOf(watch: WatchRegistration): string | undefined {
	const trigger = TRIGGERS[`${watch.group}/${watch.resource}`];
	if (!trigger || !watch.fieldSelector) return undefined;
	const parsed = parsedSelectors(undefined, watch.fieldSelector);
	if (!parsed.ok) return undefined;
	return parsed.value.field?.terms.find((t) => t.field === trigger.field && t.operator === '=')?.value;
}

/** Parsed selectors by their text: every watcher's selectors are parsed once, not once per event. */
const parsedCache = new Map<string, ReturnType<typeof parseSelectors>>();
function parsedSelectors(label: string | undefined, field: string | undefined): ReturnType<typeof parseSelectors> {
	const key = `${label ?? ''}\u0000${field ?? ''}`;
	let parsed = parsedCache.get(key);
	if (!parsed) {
		if (parsedCache.size >= 1024) parsedCache.clear();
		parsed = parseSelectors(label, field);
		parsedCache.set(key, parsed);
	}
	return parsed;
}

/** The watch ids of one resource: those routed by a trigger value, and the rest (who hear of every change). */
interface ResourceWatchers {
	all: Set<number>;
	byValue: Map<string, Set<number>>;
}

export class CacheWatchers {
	/** Derived from state.watches (never part of a snapshot), rebuilt when that record is replaced. */
	private index: { of: Record<string, WatchRegistration>; byResource: Map<string, ResourceWatchers> } | undefined;

	constructor(private readonly server: ApiServerContext) {}

	/** Registers a watch (the watch handler's registration). */
	register(watch: WatchRegistration): void {
		const index = this.indexed();
		this.server.state.watches[String(watch.id)] = watch;
		this.indexWatch(index.byResource, watch);
	}

	/** Forgets a watch. */
	private unregister(id: string): void {
		const watches = this.server.state.watches;
		const watch = watches[id];
		if (!watch) return;
		delete watches[id];
		if (this.index?.of !== watches) return;
		const entry = this.index.byResource.get(`${watch.group}/${watch.resource}`);
		const value = triggerValueOf(watch);
		if (value === undefined) entry?.all.delete(watch.id);
		else entry?.byValue.get(value)?.delete(watch.id);
	}

	private indexed(): { of: Record<string, WatchRegistration>; byResource: Map<string, ResourceWatchers> } {
		const watches = this.server.state.watches;
		if (this.index?.of !== watches) {
			const byResource = new Map<string, ResourceWatchers>();
			for (const watch of Object.values(watches)) this.indexWatch(byResource, watch);
			this.index = { of: watches, byResource };
		}
		return this.index;
	}

	private indexWatch(byResource: Map<string, ResourceWatchers>, watch: WatchRegistration): void {
		const key = `${watch.group}/${watch.resource}`;
		let entry = byResource.get(key);
		if (!entry) byResource.set(key, (entry = { all: new Set(), byValue: new Map() }));
		const value = triggerValueOf(watch);
		if (value === undefined) entry.all.add(watch.id);
		else {
			let ids = entry.byValue.get(value);
			if (!ids) entry.byValue.set(value, (ids = new Set()));
			ids.add(watch.id);
		}
	}

	/**
	 * Sends one change the cache just read to every watcher of its resource
	 * that has not seen it: those without a trigger value, and those whose
	 * value the object has now or had before (so a pod leaving a node is
	 * still reported there). Watchers are served in registration order.
	 */
	dispatch(change: CacheChange): void {
		const key = `${change.info.group}/${change.info.resource}`;
		const entry = this.indexed().byResource.get(key);
		if (!entry) return;
		let ids: number[];
		const trigger = TRIGGERS[key];
		if (trigger && entry.byValue.size > 0) {
			const chosen = new Set(entry.all);
			for (const obj of [change.object, change.previous]) {
				if (!obj) continue;
				for (const id of entry.byValue.get(trigger.value(obj)) ?? []) chosen.add(id);
			}
			ids = [...chosen];
		} else ids = [...entry.all];
		ids.sort((a, b) => a - b);
		const watches = this.server.state.watches;
		for (const id of ids) {
			const watch = watches[String(id)];
			if (!watch) continue;
			if (change.revision <= watch.sentRevision) continue;
			const event = this.eventFor(watch, change);
			watch.sentRevision = change.revision;
			if (event) this.deliver(watch, event, change.revision);
		}
	}

	/** The event a watcher sees for a change, given its selectors: objects entering or leaving the selection become ADDED or DELETED. */
	eventFor(watch: WatchRegistration, change: CacheChange): WatchEvent | undefined {
		const strategy = this.server.strategy(change.info);
		const selectors = parsedSelectors(watch.labelSelector, watch.fieldSelector);
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
		const { kernel } = this.server;
		if (!kernel.isRunning(watch.owner) || kernel.incarnation(watch.owner) !== watch.ownerIncarnation) {
			this.unregister(String(watch.id));
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
		for (const [id, watch] of Object.entries(state.watches)) if (watch.owner === processId) this.unregister(id);
	}

	/**
	 * Closes the watches of some processes (a partitioned node). Nothing
	 * reaches them to say so: each client finds out when its connection's
	 * health check fails (CLIENT_DEAD_CONNECTION_MS later), then re-watches
	 * from its resourceVersion, backing off while the node is still cut off.
	 */
	/** Closes every watch (the cache was rebuilt from another store): each client hears it and watches again. */
	closeAll(): void {
		this.closeOf([...new Set(Object.values(this.server.state.watches).map((w) => w.owner))]);
	}

	closeOf(processIds: string[]): void {
		const { kernel, state } = this.server;
		for (const [id, watch] of Object.entries(state.watches)) {
			if (!processIds.includes(watch.owner)) continue;
			this.unregister(id);
			kernel.schedule(watch.owner, CLIENT_DEAD_CONNECTION_MS, 'watch-closed', { watchId: watch.id }, { background: true, origin: kernel.origin });
		}
	}

	/** Ends a watch (the client closed it). */
	stop(watchId: number): void {
		this.unregister(String(watchId));
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
