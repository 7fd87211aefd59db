/**
 * kube-apiserver: the single entrance to the cluster and the only component
 * that talks to etcd. Every request passes the same pipeline, each step
 * traced: authentication (done by the transport, which knows the caller),
 * authorization (Node, RBAC), decoding with strict field validation and
 * defaulting, mutating admission, validation (the resource's strategy and
 * validating admission), then storage with optimistic concurrency
 * (resourceVersion = etcd mod revision; a stale update gets 409 Conflict).
 *
 * Watches are served from the watch cache (./cacher.ts), which follows
 * etcd's change stream. Every five minutes the server compacts etcd, as
 * `--etcd-compaction-interval=5m` does, which keeps history bounded and makes
 * old resourceVersions expire (410 Gone).
 *
 * This file is the process and the assembly of its parts, laid out as
 * upstream lays them out:
 * - ./config.ts: flags, wiring, state, and the context the parts share;
 * - ./endpoints/filters/: the handler chain, authentication, impersonation, authorization;
 * - ./endpoints/installer.ts: a resource's routes; ./endpoints/handlers/: one module per verb;
 * - ./admission/chain.ts: the admission phases; ./registry/generic-store.ts: reads and writes to etcd;
 * - ./registry/pod-storage.ts, pod-proxy.ts, scale.ts, namespace-storage.ts: subresources;
 * - ./cacher.ts and ./cache-watcher.ts: the watch cache and its watchers;
 * - ./post-start-hooks.ts and ./compact.ts;
 * - ./aggregator/: APIServices, their availability check and the proxy to extension API servers.
 *
 * Mirrors pkg/controlplane/instance.go,
 * staging/src/k8s.io/apiserver/pkg/server/genericapiserver.go (start,
 * readiness, the post-start hooks, shutdown).
 */
import { etcdKey, resourceByName } from '../api/resources.ts';
import type { ApiRequest, ApiResponse, UserInfo } from '../api/request.ts';
import type { EtcdClient } from '../etcd-api/etcd.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { CacheWatchers } from './cache-watcher.ts';
import { Cacher } from './cacher.ts';
import { compact } from './compact.ts';
import { DEFAULT_APISERVER_OPTIONS, LOOPBACK_USER, type ApiServerContext, type ApiServerDeps, type ApiServerOptions, type ApiServerState, type Caller } from './config.ts';
import { Authentication } from './endpoints/filters/authentication.ts';
import { HandlerChain } from './endpoints/filters/handler-chain.ts';
import { get, list } from './endpoints/handlers/get.ts';
import { RequestScope } from './endpoints/handlers/rest.ts';
import * as errors from './errors.ts';
import { runPostStartHooks } from './post-start-hooks.ts';
import { resolveTokenIssuerConfig, type TokenIssuerConfig } from './registry/serviceaccount-token.ts';
import { strategyKey } from './registry/strategy.ts';
import { APIREGISTRATION_GROUP, AVAILABILITY_RECHECK_MS, syncApiServices } from './aggregator/apiservice.ts';

/** What the APIService availability check reads. */
const AVAILABILITY_INPUTS = new Set(['services', 'endpoints', 'apiservices']);

export type { ApiServerDeps, ApiServerOptions, ApiServerState, Caller } from './config.ts';
export { DEFAULT_APISERVER_OPTIONS } from './config.ts';

export class KubeApiServer extends ProcessBase<ApiServerState> {
	/** The loopback identity the server uses for its own writes (in system:masters). */
	static readonly LOOPBACK_USER: UserInfo = LOOPBACK_USER;

	readonly options: ApiServerOptions;
	private readonly cacher = new Cacher();
	private cacheLoaded = false;
	/** The token issuer's settings, resolved on first use. */
	private tokenIssuer?: TokenIssuerConfig;
	private readonly server: ApiServerContext;
	private readonly watchers: CacheWatchers;
	private readonly scope: RequestScope;
	private readonly authentication: Authentication;
	private readonly chain: HandlerChain;

	constructor(
		kernel: Kernel,
		private readonly deps: ApiServerDeps,
		id = 'kube-apiserver',
	) {
		super(id, kernel);
		this.options = { ...DEFAULT_APISERVER_OPTIONS, ...deps.options };
		this.server = this.context();
		this.watchers = new CacheWatchers(this.server);
		this.scope = new RequestScope(this.server, this.watchers);
		this.authentication = new Authentication(this.server);
		this.chain = new HandlerChain(this.scope, this.authentication);
		kernel.onProcessStopped((stopped) => this.watchers.dropOf(stopped));
	}

	/** The server as its parts see it (./config.ts). */
	private context(): ApiServerContext {
		const state = () => this.state;
		const rng = () => this.rng;
		const cacher = this.cacher;
		return {
			id: this.id,
			kernel: this.kernel,
			deps: this.deps,
			options: this.options,
			cacher,
			get state() {
				return state();
			},
			get rng() {
				return rng();
			},
			emit: (event) => this.emit(event),
			strategy: (info) => this.deps.strategies[strategyKey(info.group, info.resource)] ?? {},
			reader: {
				list: (group, resource, namespace) => {
					const info = resourceByName(group, resource);
					return info ? cacher.list(info, namespace) : [];
				},
				get: (group, resource, namespace, name) => {
					const info = resourceByName(group, resource);
					return info ? cacher.get(info, etcdKey(info, namespace, name)) : undefined;
				},
				byIndex: (group, resource, index, value, namespace) => {
					const info = resourceByName(group, resource);
					return info ? cacher.byIndex(info, index, value, namespace) : undefined;
				},
			},
			readCore: (resource, namespace, name) => {
				const info = resourceByName('', resource);
				return info ? cacher.get(info, etcdKey(info, info.namespaced ? namespace : undefined, name)) : undefined;
			},
			tokenConfig: () => (this.tokenIssuer ??= resolveTokenIssuerConfig(this.deps.serviceAccountTokens, this.kernel.seed)),
			pump: () => this.pump(),
			ensureCache: () => this.ensureCache(),
			loopback: (request) => this.serve(request, { process: this.id, user: LOOPBACK_USER }),
		};
	}

	freshState(): ApiServerState {
		return { watches: {}, nextWatchId: 1, cacheRevision: 0, ready: false, compactCandidate: 0 };
	}

	onStart(): void {
		this.cacheLoaded = false;
		this.emit({ action: 'start', msg: 'kube-apiserver started; loading the watch cache from etcd' });
		this.loadCache();
		this.periodic(this.options.compactionIntervalMs, 'compact');
	}

	onStop(): void {
		this.watchers.breakAll();
		this.cacheLoaded = false;
	}

	/** Called after a snapshot restore: rebuild the cache at the saved position. */
	restoreCache(): void {
		this.cacheLoaded = false;
		if (this.state.ready) this.ensureCache();
	}

	handle(event: QueuedEvent): void {
		switch (event.kind) {
			case 'etcd-changed':
				this.pump();
				break;
			case 'load-cache':
				this.loadCache();
				break;
			case 'apiservice-sync':
				this.state.apiServiceSyncQueued = false;
				this.syncApiServices();
				break;
			case 'apiservice-recheck':
				this.state.apiServiceRecheck = false;
				this.syncApiServices();
				break;
			case 'compact':
				compact(this.server);
				this.periodic(this.options.compactionIntervalMs, 'compact');
				break;
		}
	}

	/** Whether /readyz would pass: started, cache loaded, etcd reachable. */
	isReady(): boolean {
		return this.kernel.isRunning(this.id) && this.state.ready && this.deps.etcd.store() !== undefined;
	}

	// ---- the watch cache ------------------------------------------------------

	private loadCache(): void {
		const store = this.deps.etcd.store();
		if (!store) {
			this.emit({ action: 'error', peer: 'etcd', msg: 'cannot reach etcd; retrying' });
			this.after(this.options.etcdRetryMs, 'load-cache', undefined, { background: true });
			return;
		}
		this.deps.etcd.watch(this.id);
		this.rebuildCache(store, store.revision);
		this.state.cacheRevision = this.cacher.revision;
		this.state.ready = true;
		this.emit({ action: 'ready', peer: 'etcd', rv: store.revision, msg: `watch cache loaded at revision ${store.revision}` });
		runPostStartHooks(this.server, (request, caller) => this.serve(request, caller));
	}

	/** The store the cache was built from: etcd started on another data directory (a restore) means building it again. */
	private cacheStore: EtcdClient | undefined;

	/**
	 * A different store than the cache was built from (etcd restored into a
	 * new data directory), or one behind the cache: the reflector's watch on
	 * etcd would fail and list again, so the cache is rebuilt at the store's
	 * revision and every client watch is closed (clients then watch again,
	 * and, told their revision is too large, list again).
	 */
	private checkStoreIdentity(store: EtcdClient): void {
		if (!this.cacheLoaded) return;
		if (this.cacheStore === store && store.revision >= this.cacher.revision) return;
		this.emit({ action: 'relist', peer: 'etcd', rv: store.revision, msg: `etcd is at revision ${store.revision}, the watch cache at ${this.cacher.revision}: listing again` });
		this.rebuildCache(store, store.revision);
		this.state.cacheRevision = this.cacher.revision;
		this.watchers.closeAll();
	}

	/** Builds the cache from `store` at `revision`, remembering which store it came from. */
	private rebuildCache(store: EtcdClient, revision: number): void {
		this.cacher.rebuild(store, revision);
		this.cacheLoaded = true;
		this.cacheStore = store;
	}

	/** Makes sure the in-memory cache exists (after a restore) and is current. */
	private ensureCache(): EtcdClient | undefined {
		const store = this.deps.etcd.store();
		if (!store) return undefined;
		// etcd forgets its watchers when it restarts; re-subscribing is idempotent.
		this.deps.etcd.watch(this.id);
		if (!this.cacheLoaded) this.rebuildCache(store, this.state.cacheRevision || store.revision);
		this.pump();
		return store;
	}

	/** Reads etcd's new changes into the cache and fans them out to watchers. */
	private pump(): void {
		const store = this.deps.etcd.store();
		if (!store || !this.state.ready) return;
		if (!this.cacheLoaded) this.rebuildCache(store, this.state.cacheRevision || store.revision);
		this.checkStoreIdentity(store);
		const changes = this.cacher.catchUp(store);
		this.state.cacheRevision = this.cacher.revision;
		for (const change of changes) this.watchers.dispatch(change);
		// The aggregator's availability controller follows Services, Endpoints and APIServices.
		if (!this.state.apiServiceSyncQueued && changes.some((c) => AVAILABILITY_INPUTS.has(c.info.resource) && (c.info.group === '' || c.info.group === APIREGISTRATION_GROUP))) {
			if (this.cacher.list(resourceByName(APIREGISTRATION_GROUP, 'apiservices')!).length > 0) {
				this.state.apiServiceSyncQueued = true;
				this.after(0, 'apiservice-sync');
			}
		}
	}

	/** The availability check of every APIService, then the periodic recheck while any exists. */
	private syncApiServices(): void {
		const count = syncApiServices(this.server, (request, caller) => this.serve(request, caller));
		if (count > 0 && !this.state.apiServiceRecheck) {
			this.state.apiServiceRecheck = true;
			this.after(AVAILABILITY_RECHECK_MS, 'apiservice-recheck', undefined, { background: true });
		}
	}

	/** Closes the watches of some processes (a partitioned node): they will notice and re-watch. */
	closeWatchesOf(processIds: string[]): void {
		this.watchers.closeOf(processIds);
	}

	/** Ends a watch (the client closed it). */
	stopWatch(watchId: number): void {
		this.watchers.stop(watchId);
	}

	// ---- serving requests -------------------------------------------------------

	/**
	 * Serves one request, synchronously, at the current virtual time. Never
	 * throws: every failure is a Status response.
	 */
	serve(request: ApiRequest, caller: Caller): ApiResponse {
		return this.chain.serve(request, caller);
	}

	/**
	 * Authenticates a bearer token the way a request's would be, for a
	 * client that speaks HTTP itself (curl): the user, or undefined for a
	 * token the server rejects (401). Traced like a request's authentication.
	 */
	authenticateToken(token: string): UserInfo | undefined {
		if (!this.kernel.isRunning(this.id)) return undefined;
		return this.authentication.authenticateToken(token);
	}

	/**
	 * A read that changes nothing and leaves no trace: get and list served
	 * from the watch cache as it stands, for observers outside the cluster
	 * (the sandbox's inspector, task checks). Not an API request: no
	 * authorization, no pump of etcd's pending changes, no trace.
	 */
	observe(request: ApiRequest): ApiResponse {
		const info = resourceByName(request.group, request.resource);
		if (!info || !this.cacheLoaded) return errors.serviceUnavailable('the observer cannot read the cluster now');
		if (request.verb === 'get') return request.subresource ? errors.methodNotAllowed() : get(this.scope, request, info);
		if (request.verb === 'list') return list(this.scope, request, info);
		return errors.methodNotAllowed('an observer may only read');
	}
}
