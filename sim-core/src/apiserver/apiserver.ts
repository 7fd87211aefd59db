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
 * Mirrors k8s.io/apiserver/pkg/endpoints/handlers and
 * k8s.io/apiserver/pkg/registry/generic/registry (store.go).
 */
import type { KubeObject, KubeList, ObjectMeta, Status } from '../api/types.ts';
import { RESOURCES, etcdKey, etcdPrefix, groupVersion, qualifiedResource, resourceByName, type ResourceInfo } from '../api/resources.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { type EtcdClient } from '../etcd-api/etcd.ts';
import { MvccError } from '../etcd-api/etcd.ts';
import { Cacher, type CacheChange } from './cacher.ts';
import * as errors from './errors.ts';
import type { FieldError } from './errors.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './admission/plugin.ts';
import { forbiddenReason, type AuthorizationAttributes, type Authorizer } from './auth/authorizer.ts';
import { authorizationName } from './auth/request-info.ts';
import { strategyKey, type Strategy, type StrategyContext, type StrategyRegistry } from './registry/strategy.ts';
import { applyPatch } from '../api/patch.ts';
import { canIgnorePDB, checkEvictionBody, decideEviction, type PodDisruptionBudget } from './eviction.ts';
import { isReviewResource, serveReview } from './reviews.ts';
import { authenticateRequest } from './auth/authentication.ts';
import { authenticateServiceAccountToken, type TokenAuthentication } from './auth/token-authenticator.ts';
import { createTokenRequest, decodeTokenRequest, describeIssuedToken, resolveTokenIssuerConfig, type TokenIssuerConfig } from './registry/serviceaccount-token.ts';
import { parseRfc3339 } from '../golang/time.ts';
import { objectMatches, type ParsedSelectors, parseSelectors } from './selectors.ts';
import type { ApiRequest, ApiResponse, UserInfo, WatchEvent } from '../api/request.ts';
import { deepCopy } from '../golang/json.ts';

/** Who is calling: their process (for the trace and watch delivery) and identity. */
export interface Caller {
	/** Process id, e.g. 'kube-scheduler', 'kubelet/node-1', 'kubectl'. */
	process: string;
	user: UserInfo;
	/**
	 * The `Authorization: Bearer` token the request carried, if any. The
	 * server authenticates it when no client certificate did (`user` is
	 * then the anonymous user); see ./auth/authentication.ts.
	 */
	bearerToken?: string;
}

/** A registered watch. Plain JSON: part of the server's state. */
interface WatchRegistration {
	id: number;
	owner: string;
	ownerIncarnation: number;
	group: string;
	resource: string;
	namespace?: string;
	labelSelector?: string;
	fieldSelector?: string;
	/** Last resourceVersion delivered (or the starting one). */
	sentRevision: number;
}

/** Volatile state of the API server process. */
export interface ApiServerState {
	watches: Record<string, WatchRegistration>;
	nextWatchId: number;
	/** Position of the watch cache in etcd's change stream. */
	cacheRevision: number;
	/** Whether the server has loaded its cache (it is not ready until then). */
	ready: boolean;
	/** The revision seen at the previous compaction tick: the next tick compacts up to it. */
	compactCandidate: number;
}

/** Knobs, with upstream defaults. */
export interface ApiServerOptions {
	/** --etcd-compaction-interval (default 5m). */
	compactionIntervalMs: number;
	/** --event-ttl (default 1h): Events are stored with an etcd lease of this length. */
	eventTtlMs: number;
	/** Delay between a change reaching the cache and a watcher receiving it. */
	watchLatencyMs: number;
	/** How often the server retries loading its cache while etcd is unreachable. */
	etcdRetryMs: number;
}

export const DEFAULT_APISERVER_OPTIONS: ApiServerOptions = {
	compactionIntervalMs: 5 * 60_000,
	eventTtlMs: 60 * 60_000,
	watchLatencyMs: 2,
	etcdRetryMs: 1000,
};

/** What the API server is wired to (by the cluster, see ../cluster). */
export interface ApiServerDeps {
	/** The connection to etcd. */
	etcd: {
		/** etcd's store if it can be reached now, undefined if not. */
		store(): EtcdClient | undefined;
		/** Subscribes this server to etcd's change notifications (an etcd watch on /registry/). */
		watch(processId: string): void;
		/** Tells etcd a write happened, so it notifies its watchers. */
		notify(): void;
	};
	strategies: StrategyRegistry;
	admission: AdmissionPlugin[];
	authorizers: Authorizer[];
	/** Server-side strict field validation: error strings for unknown or mistyped fields. */
	decode(body: KubeObject, info: ResourceInfo): { errors: string[]; warnings: string[] };
	/**
	 * Objects the server ensures exist each time it becomes ready (its
	 * post-start hooks: system namespaces, PriorityClasses, the `kubernetes`
	 * Service, the bootstrap RBAC policy). Created as the server's loopback
	 * user when missing; never overwritten.
	 */
	systemObjects?: () => KubeObject[];
	/** Forwards pods/log (and later exec) to the kubelet of a node; undefined if unreachable. */
	nodeProxy?(nodeName: string, request: ApiRequest): ApiResponse | undefined;
	/** Why a dial to a node's kubelet failed, as Go's net package words it (`connect: no route to host`, `i/o timeout`); default: refused. */
	kubeletDialError?(nodeName: string): string;
	/**
	 * Service account tokens: the signing key (kubeadm's sa.key; by default
	 * derived from the cluster seed), `--service-account-issuer`,
	 * `--api-audiences` (default: the issuer), `--service-account-extend-token-expiration`
	 * (default true) and `--service-account-max-token-expiration` (default none).
	 */
	serviceAccountTokens?: Partial<TokenIssuerConfig>;
	options?: Partial<ApiServerOptions>;
}

const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

function objectName(obj: KubeObject | undefined): string {
	return obj?.metadata?.name ?? '';
}

/** The object as written to etcd: without resourceVersion, which is etcd's own revision. */
function encodeForStorage(obj: KubeObject): string {
	const { resourceVersion: _rv, ...metadata } = obj.metadata;
	return JSON.stringify({ ...obj, metadata });
}

export class KubeApiServer extends ProcessBase<ApiServerState> {
	readonly options: ApiServerOptions;
	private readonly cacher = new Cacher();
	private cacheLoaded = false;

	constructor(
		kernel: Kernel,
		private readonly deps: ApiServerDeps,
		id = 'kube-apiserver',
	) {
		super(id, kernel);
		this.options = { ...DEFAULT_APISERVER_OPTIONS, ...deps.options };
		kernel.onProcessStopped((stopped) => this.dropWatchesOf(stopped));
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
		// Every watch connection breaks: tell each watcher, as a closed TCP stream would.
		for (const watch of Object.values(this.state.watches)) {
			this.kernel.schedule(watch.owner, 1, 'watch-closed', { watchId: watch.id }, { origin: this.kernel.origin });
		}
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
			case 'compact':
				this.compact();
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
		this.cacher.rebuild(store, store.revision);
		this.cacheLoaded = true;
		this.state.cacheRevision = this.cacher.revision;
		this.state.ready = true;
		this.emit({ action: 'ready', peer: 'etcd', rv: store.revision, msg: `watch cache loaded at revision ${store.revision}` });
		this.runPostStartHooks();
	}

	/** The loopback identity the server uses for its own writes (in system:masters). */
	static readonly LOOPBACK_USER: UserInfo = { username: 'system:apiserver', uid: 'loopback', groups: ['system:masters', 'system:authenticated'] };

	private runPostStartHooks(): void {
		const objects = this.deps.systemObjects?.() ?? [];
		if (objects.length === 0) return;
		let created = 0;
		for (const obj of objects) {
			const info = this.resourceOf(obj);
			if (!info || this.readCurrent(info, obj.metadata.namespace, obj.metadata.name ?? '')) continue;
			const response = this.serve({ verb: 'create', group: info.group, version: info.version, resource: info.resource, namespace: obj.metadata.namespace, body: obj }, { process: this.id, user: KubeApiServer.LOOPBACK_USER });
			if (response.code < 300) created++;
		}
		if (created) this.emit({ action: 'bootstrap', msg: `post-start hooks created ${created} system object(s): namespaces, priority classes, the kubernetes Service, RBAC defaults` });
	}

	/** Makes sure the in-memory cache exists (after a restore) and is current. */
	private ensureCache(): EtcdClient | undefined {
		const store = this.deps.etcd.store();
		if (!store) return undefined;
		// etcd forgets its watchers when it restarts; re-subscribing is idempotent.
		this.deps.etcd.watch(this.id);
		if (!this.cacheLoaded) {
			this.cacher.rebuild(store, this.state.cacheRevision || store.revision);
			this.cacheLoaded = true;
		}
		this.pump();
		return store;
	}

	/** Reads etcd's new changes into the cache and fans them out to watchers. */
	private pump(): void {
		const store = this.deps.etcd.store();
		if (!store || !this.state.ready) return;
		if (!this.cacheLoaded) {
			this.cacher.rebuild(store, this.state.cacheRevision || store.revision);
			this.cacheLoaded = true;
		}
		const changes = this.cacher.catchUp(store);
		this.state.cacheRevision = this.cacher.revision;
		for (const change of changes) this.fanOut(change);
	}

	private fanOut(change: CacheChange): void {
		for (const watch of Object.values(this.state.watches)) {
			if (watch.group !== change.info.group || watch.resource !== change.info.resource) continue;
			if (change.revision <= watch.sentRevision) continue;
			const event = this.watchEventFor(watch, change);
			watch.sentRevision = change.revision;
			if (event) this.deliver(watch, event, change.revision);
		}
	}

	/** The event a watcher sees for a change, given its selectors: objects entering or leaving the selection become ADDED or DELETED. */
	private watchEventFor(watch: WatchRegistration, change: CacheChange): WatchEvent | undefined {
		const strategy = this.strategy(change.info);
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

	private deliver(watch: WatchRegistration, event: WatchEvent, revision: number): void {
		if (!this.kernel.isRunning(watch.owner) || this.kernel.incarnation(watch.owner) !== watch.ownerIncarnation) {
			delete this.state.watches[String(watch.id)];
			return;
		}
		this.emit({
			action: 'watch-event',
			peer: watch.owner,
			object: describeObject(event.object as KubeObject, this.resourceOf(event.object as KubeObject)),
			rv: revision,
			msg: `${event.type} ${watch.resource} to ${watch.owner}`,
		});
		this.kernel.schedule(watch.owner, this.options.watchLatencyMs, 'watch', { watchId: watch.id, event });
	}

	private resourceOf(obj: KubeObject): ResourceInfo | undefined {
		const gv = obj.apiVersion;
		return RESOURCES.find((r) => groupVersion(r) === gv && r.kind === obj.kind);
	}

	private dropWatchesOf(processId: string): void {
		if (!this.state) return;
		for (const [id, watch] of Object.entries(this.state.watches)) if (watch.owner === processId) delete this.state.watches[id];
	}

	/** Closes the watches of some processes (a partitioned node): they will notice and re-watch. */
	closeWatchesOf(processIds: string[]): void {
		for (const [id, watch] of Object.entries(this.state.watches)) {
			if (!processIds.includes(watch.owner)) continue;
			delete this.state.watches[id];
		}
	}

	private compact(): void {
		const store = this.deps.etcd.store();
		if (!store) return;
		// Like the real server, compact up to the revision seen at the previous
		// tick, so one interval of history stays (watchers that fall further
		// behind get 410 Gone and relist); never past what the cache has read.
		const previous = store.compactRevision;
		const at = Math.min(this.state.compactCandidate, this.state.cacheRevision);
		this.state.compactCandidate = store.revision;
		if (at > previous) {
			store.compact(at);
			this.emit({ action: 'compact', peer: 'etcd', rv: at, msg: `compacted etcd history up to revision ${at}` });
		}
	}

	// ---- serving requests -------------------------------------------------------

	private strategy(info: ResourceInfo): Strategy {
		return this.deps.strategies[strategyKey(info.group, info.resource)] ?? {};
	}

	private context(user: UserInfo): StrategyContext {
		return {
			now: formatRfc3339(this.kernel.wallMs()),
			user,
			get: (group, resource, namespace, name) => {
				const info = resourceByName(group, resource);
				return info ? this.cacher.get(info, etcdKey(info, namespace, name)) : undefined;
			},
			list: (group, resource, namespace) => {
				const info = resourceByName(group, resource);
				return info ? this.cacher.list(info, namespace) : [];
			},
			random: (n) => this.rng.int(n),
		};
	}

	/**
	 * Serves one request, synchronously, at the current virtual time. Never
	 * throws: every failure is a Status response.
	 */
	serve(request: ApiRequest, caller: Caller): ApiResponse {
		if (!this.kernel.isRunning(this.id)) return errors.serviceUnavailable('the server is not running');
		const info = resourceByName(request.group, request.resource);
		const path = describeRequest(request);
		this.emit({ action: 'request', component: caller.process, peer: this.id, object: request.name ? `${request.resource}/${request.namespace ? request.namespace + '/' : ''}${request.name}` : request.resource, msg: path });
		let response: ApiResponse;
		try {
			// Authentication: the client certificate (known to the transport), else the bearer token, else anonymous.
			const authenticated = this.authenticate(caller);
			const impersonated = 'code' in authenticated ? authenticated : request.impersonate ? this.impersonate(request.impersonate, authenticated) : authenticated;
			if ('code' in impersonated) response = impersonated;
			else response = info ? this.serveResource(request, info, impersonated) : errors.pathNotFound();
		} catch (error) {
			if (error instanceof MvccError) response = this.storageError(error);
			else response = errors.internalError(error instanceof Error ? error.message : String(error));
		}
		if (info) {
			const warnings = this.strategy(info).warnings;
			if (warnings) response.warnings = [...(response.warnings ?? []), ...warnings];
		}
		const ok = response.code < 400;
		this.emit({
			action: 'response',
			peer: caller.process,
			msg: `${response.code}${ok ? '' : ' ' + ((response.body as Status).reason ?? '')} for ${path}`,
			rv: ok ? Number((response.body as KubeObject)?.metadata?.resourceVersion) || undefined : undefined,
		});
		return response;
	}

	/** Impersonation (k8s.io/apiserver/pkg/endpoints/filters/impersonation.go): the caller needs `impersonate` on users (and groups). */
	private impersonate(target: { user: string; groups?: string[] }, caller: Caller): Caller | ApiResponse {
		const checks: AuthorizationAttributes[] = [{ user: caller.user, verb: 'impersonate', resourceRequest: true, group: '', resource: target.user.startsWith('system:serviceaccount:') ? 'serviceaccounts' : 'users', name: target.user.startsWith('system:serviceaccount:') ? target.user.split(':')[3] : target.user, namespace: target.user.startsWith('system:serviceaccount:') ? target.user.split(':')[2] : undefined }];
		for (const group of target.groups ?? []) checks.push({ user: caller.user, verb: 'impersonate', resourceRequest: true, group: '', resource: 'groups', name: group });
		for (const check of checks) {
			const denied = this.authorize(check);
			if (denied) return errors.forbidden(check.resource, check.name, denied);
		}
		const groups = [...(target.groups ?? [])];
		if (target.user.startsWith('system:serviceaccount:')) groups.push('system:serviceaccounts', `system:serviceaccounts:${target.user.split(':')[2]}`);
		if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
		this.emit({ action: 'authenticate', msg: `${caller.user.username} impersonates ${target.user}` });
		return { process: caller.process, user: { username: target.user, groups } };
	}

	/** The token issuer's settings (a pure function of the wiring and the seed, so kept outside the snapshotted state). */
	private get tokenConfig(): TokenIssuerConfig {
		return (this.tokenIssuer ??= resolveTokenIssuerConfig(this.deps.serviceAccountTokens, this.kernel.seed));
	}

	private tokenIssuer?: TokenIssuerConfig;

	/** A core object from the cache, for the token authenticator and the TokenRequest registry. */
	private readonly readCore = (resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string | undefined, name: string): KubeObject | undefined => {
		const info = resourceByName('', resource);
		return info ? this.cacher.get(info, etcdKey(info, info.namespaced ? namespace : undefined, name)) : undefined;
	};

	/** The service account token authenticator (./auth/token-authenticator.ts). */
	private checkToken(token: string): TokenAuthentication {
		const config = this.tokenConfig;
		return authenticateServiceAccountToken(token, { key: config.key, issuers: [config.issuer], apiAudiences: config.apiAudiences }, { get: this.readCore }, this.kernel.wallMs(), parseRfc3339);
	}

	/** The authenticator union: certificate, then bearer token, then anonymous; a bad token is a 401. */
	private authenticate(caller: Caller): Caller | ApiResponse {
		if (caller.bearerToken === undefined) return caller;
		const result = authenticateRequest(caller.user, caller.bearerToken, (token) => this.checkToken(token));
		if (!result.ok) {
			// Upstream logs "Unable to authenticate the request" with the reason; the client only learns 401.
			this.emit({ action: 'authenticate', msg: `unable to authenticate the request: ${result.reason}` });
			return errors.unauthorized();
		}
		if (result.by === 'token') this.emit({ action: 'authenticate', msg: `bearer token is service account ${result.user.username}` });
		return { process: caller.process, user: result.user };
	}

	/**
	 * Authenticates a bearer token the way a request's would be, for a
	 * client that speaks HTTP itself (curl): the user, or undefined for a
	 * token the server rejects (401). Traced like a request's authentication.
	 */
	authenticateToken(token: string): UserInfo | undefined {
		if (!this.kernel.isRunning(this.id)) return undefined;
		const result = this.checkToken(token);
		this.emit({ action: 'authenticate', msg: result.ok ? `bearer token is service account ${result.user.username}` : `unable to authenticate the request: ${result.reason}` });
		return result.ok ? result.user : undefined;
	}

	/**
	 * POST serviceaccounts/<name>/token: decoding, mutating admission, then
	 * the TokenRequest registry (./registry/serviceaccount-token.ts), which
	 * runs validating admission after its own validation. Nothing is stored.
	 */
	private createServiceAccountToken(request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
		const decoded = decodeTokenRequest(request.body, request.query?.fieldValidation);
		if ('error' in decoded) return decoded.error;
		const name = request.name ?? '';
		const namespace = request.namespace ?? '';
		const ctx = this.context(caller.user);
		const attributes: AdmissionAttributes = { operation: 'CREATE', info, subresource: 'token', namespace, name, object: decoded.request, user: caller.user, dryRun: request.query?.dryRun === 'All' };
		const rejected = this.runAdmission(attributes, ctx);
		if (rejected) return rejected;
		const outcome = createTokenRequest(
			{
				namespace,
				name,
				nowWallMs: this.kernel.wallMs(),
				get: this.readCore,
				config: this.tokenConfig,
				// Its own stream, so issuing tokens never shifts the names and UIDs the server generates.
				newJti: () => this.kernel.rng(`${this.id}/token-jti`).uuid(),
				validatingAdmission: (tokenRequest) => this.runValidation({ ...attributes, object: tokenRequest }, ctx, [], info),
			},
			decoded.request,
		);
		if (outcome.claims) this.emit({ action: 'issue-token', object: `serviceaccounts/${namespace}/${name}`, msg: describeIssuedToken(outcome.claims) });
		if (decoded.warnings.length) outcome.response.warnings = [...(outcome.response.warnings ?? []), ...decoded.warnings];
		return outcome.response;
	}

	private storageError(error: MvccError): ApiResponse {
		switch (error.code) {
			case 'compacted':
				return errors.gone(error.message);
			case 'too-large':
				return errors.requestEntityTooLarge(error.message);
			case 'no-space':
			case 'unavailable':
			default:
				return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: error.message, code: 500 } };
		}
	}

	private authorize(a: AuthorizationAttributes): string | undefined {
		const reader = {
			list: (group: string, resource: string, namespace?: string) => {
				const info = resourceByName(group, resource);
				return info ? this.cacher.list(info, namespace) : [];
			},
			get: (group: string, resource: string, namespace: string | undefined, name: string) => {
				const info = resourceByName(group, resource);
				return info ? this.cacher.get(info, etcdKey(info, namespace, name)) : undefined;
			},
		};
		const reasons: string[] = [];
		const logs: string[] = [];
		for (const authorizer of this.deps.authorizers) {
			const decision = authorizer.authorize(a, reader);
			if (decision === 'no-opinion') continue;
			if (decision.allowed) {
				this.emit({ action: 'authorize', msg: `${authorizer.name} allowed ${a.user.username} to ${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''}: ${decision.reason}` });
				return undefined;
			}
			if (decision.reason) reasons.push(decision.reason);
			if (decision.log) logs.push(decision.log);
		}
		// The union's reasons follow the sentence, as responsewriters.Forbidden writes it (`...: no relationship found between node 'n1' and this object`).
		const why = reasons.length ? `${forbiddenReason(a)}: ${reasons.join('\n')}` : forbiddenReason(a);
		this.emit({ action: 'authorize', msg: `denied: ${[why, ...logs].join('; ')}` });
		return why;
	}

	private serveResource(request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
		this.emit({ action: 'authenticate', msg: `user ${caller.user.username} (groups ${caller.user.groups.join(', ')})` });
		const verb = request.verb;
		if (request.subresource && !info.subresources.includes(request.subresource)) return errors.pathNotFound();
		if (!request.subresource && !info.verbs.includes(verb)) return errors.methodNotAllowed();
		if (info.namespaced && request.namespace === undefined && ['create', 'update', 'patch', 'delete'].includes(verb)) {
			return errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
		}
		const authzVerb = request.subresource === 'binding' ? 'create' : verb;
		// A list or watch pinned to one name by `metadata.name=` is authorized for that name (requestinfo.go).
		const authzName = authorizationName(authzVerb, request.name, request.query?.fieldSelector);
		const denied = this.authorize({
			user: caller.user,
			verb: authzVerb,
			resourceRequest: true,
			group: info.group,
			version: info.version,
			resource: info.resource,
			subresource: request.subresource,
			namespace: info.namespaced ? request.namespace : undefined,
			name: authzName,
			fieldSelector: request.query?.fieldSelector,
			labelSelector: request.query?.labelSelector,
		});
		if (denied) {
			return errors.forbidden(qualifiedResource(info), authzName, denied, info.group, info.resource);
		}

		// Access and rules reviews are answered by the authorizers, never stored.
		if (verb === 'create' && isReviewResource(info)) return this.review(request, info, caller);
		const store = this.ensureCache();
		if (!store || !this.state.ready) {
			return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'etcdserver: request timed out', code: 500 } };
		}
		if (verb === 'create' && request.subresource === 'eviction') return this.evict(request, info, caller, store);
		if (verb === 'create' && request.subresource === 'exec') return this.podExec(request, info);
		if (request.subresource === 'token' && info.group === '' && info.resource === 'serviceaccounts') {
			// TokenRequest is create-only (a NamedCreater): other verbs get 405.
			return verb === 'create' ? this.createServiceAccountToken(request, info, caller) : errors.methodNotAllowed();
		}
		switch (verb) {
			case 'get':
				return request.subresource === 'log' ? this.podLog(request, info) : this.get(request, info);
			case 'list':
				return this.list(request, info);
			case 'watch':
				return this.watch(request, info, caller);
			case 'create':
				return request.subresource === 'binding' ? this.bind(request, info, caller, store) : this.create(request, info, caller, store);
			case 'update':
				return this.update(request, info, caller, store, request.body as KubeObject);
			case 'patch':
				return this.patch(request, info, caller, store);
			case 'delete':
				return this.delete(request, info, caller, store);
			case 'deletecollection':
				return this.deleteCollection(request, info, caller, store);
		}
		return errors.methodNotAllowed();
	}

	private readCurrent(info: ResourceInfo, namespace: string | undefined, name: string): KubeObject | undefined {
		return this.cacher.get(info, etcdKey(info, namespace, name));
	}

	private get(request: ApiRequest, info: ResourceInfo): ApiResponse {
		const obj = this.readCurrent(info, request.namespace, request.name ?? '');
		if (!obj) return errors.notFound(qualifiedResource(info), request.name ?? '', info.group, info.resource);
		if (request.subresource === 'scale') return { code: 200, body: scaleOf(obj, info) };
		return { code: 200, body: obj };
	}

	private list(request: ApiRequest, info: ResourceInfo): ApiResponse {
		const selectors = parseSelectors(request.query?.labelSelector, request.query?.fieldSelector);
		if (!selectors.ok) return errors.badRequest(selectors.error);
		const rv = request.query?.resourceVersion;
		const store = this.deps.etcd.store()!;
		if (rv && rv !== '0' && Number(rv) < store.compactRevision) {
			return errors.gone(`too old resource version: ${rv} (${store.compactRevision})`);
		}
		const strategy = this.strategy(info);
		const items = this.cacher.list(info, info.namespaced ? request.namespace : undefined).filter((o) => objectMatches(o, selectors.value, strategy));
		const list: KubeList = {
			apiVersion: groupVersion(info),
			kind: `${info.kind}List`,
			metadata: { resourceVersion: String(this.cacher.revision) },
			// Items of a typed list carry no apiVersion/kind on the wire.
			items: items.map(stripTypeMeta),
		};
		return { code: 200, body: list };
	}

	private watch(request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
		const selectors = parseSelectors(request.query?.labelSelector, request.query?.fieldSelector);
		if (!selectors.ok) return errors.badRequest(selectors.error);
		const store = this.deps.etcd.store()!;
		const rvText = request.query?.resourceVersion;
		const fromRevision = rvText && rvText !== '0' ? Number(rvText) : this.cacher.revision;
		if (Number.isNaN(fromRevision)) return errors.badRequest(`invalid resource version "${rvText}"`);
		if (fromRevision < store.compactRevision) {
			return errors.gone(`too old resource version: ${fromRevision} (${store.compactRevision})`);
		}
		const watch: WatchRegistration = {
			id: this.state.nextWatchId++,
			owner: caller.process,
			ownerIncarnation: this.kernel.incarnation(caller.process),
			group: info.group,
			resource: info.resource,
			sentRevision: fromRevision,
		};
		if (info.namespaced && request.namespace) watch.namespace = request.namespace;
		if (request.query?.labelSelector) watch.labelSelector = request.query.labelSelector;
		if (request.query?.fieldSelector) watch.fieldSelector = request.query.fieldSelector;
		this.state.watches[String(watch.id)] = watch;
		// Replay what happened since the requested revision.
		if (fromRevision < this.cacher.revision) {
			const prefix = etcdPrefix(info, info.namespaced ? request.namespace : undefined);
			for (const change of store.changesSince(fromRevision, prefix, true)) {
				if (change.kv.modRevision > this.cacher.revision) break;
				const object = change.type === 'PUT' ? JSON.parse(change.kv.value) : JSON.parse(change.prevKv!.value);
				object.metadata = { ...object.metadata, resourceVersion: String(change.kv.modRevision) };
				const previous = change.prevKv ? { ...JSON.parse(change.prevKv.value), metadata: { ...JSON.parse(change.prevKv.value).metadata, resourceVersion: String(change.prevKv.modRevision) } } : undefined;
				const type = change.type === 'DELETE' ? 'DELETED' : change.prevKv ? 'MODIFIED' : 'ADDED';
				const event = this.watchEventFor(watch, { info, type, object, previous, revision: change.kv.modRevision });
				if (event) this.deliver(watch, event, change.kv.modRevision);
			}
			watch.sentRevision = this.cacher.revision;
		}
		return { code: 200, body: { kind: 'WatchStarted', apiVersion: 'v1', metadata: { resourceVersion: String(fromRevision) }, watchId: watch.id } as unknown as KubeObject };
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
		if (request.verb === 'get') return request.subresource ? errors.methodNotAllowed() : this.get(request, info);
		if (request.verb === 'list') return this.list(request, info);
		return errors.methodNotAllowed('an observer may only read');
	}

	/** Ends a watch (the client closed it). */
	stopWatch(watchId: number): void {
		delete this.state.watches[String(watchId)];
	}

	/** Decodes, defaults and checks the apiVersion/kind of a request body. */
	private decode(request: ApiRequest, info: ResourceInfo, body: unknown): { obj?: KubeObject; error?: ApiResponse; warnings: string[] } {
		if (!body || typeof body !== 'object' || Array.isArray(body)) return { error: errors.badRequest('the body of the request was in an unknown format'), warnings: [] };
		const obj = deepCopy(body) as KubeObject;
		const expected = groupVersion(info);
		if (!obj.kind) obj.kind = info.kind;
		if (!obj.apiVersion) obj.apiVersion = expected;
		if (obj.kind !== info.kind || obj.apiVersion !== expected) {
			return { error: errors.badRequest(`the API version in the data (${obj.apiVersion}) does not match the expected API version (${expected})`), warnings: [] };
		}
		obj.metadata ??= {};
		const validation = request.query?.fieldValidation ?? 'Strict';
		const decoded = validation === 'Ignore' ? { errors: [], warnings: [] } : this.deps.decode(obj, info);
		if (decoded.errors.length && validation === 'Strict') {
			return { error: errors.badRequest(`${info.kind} in version "${info.version}" cannot be handled as a ${info.kind}: strict decoding error: ${decoded.errors.join(', ')}`), warnings: [] };
		}
		const warnings = validation === 'Warn' ? decoded.errors.map((e) => e) : [];
		this.strategy(info).defaults?.(obj);
		return { obj, warnings: [...warnings, ...decoded.warnings] };
	}

	private runAdmission(attributes: AdmissionAttributes, ctx: StrategyContext): ApiResponse | undefined {
		for (const plugin of this.deps.admission) {
			if (!plugin.admit) continue;
			const rejected = plugin.admit(attributes, ctx);
			if (rejected) {
				this.emit({ action: 'admit', sub: plugin.name, msg: `${plugin.name} rejected the request` });
				return rejected;
			}
		}
		this.emit({ action: 'admit', msg: `mutating admission passed (${this.deps.admission.filter((p) => p.admit).map((p) => p.name).join(', ')})` });
		return undefined;
	}

	private runValidation(attributes: AdmissionAttributes, ctx: StrategyContext, fieldErrors: FieldError[], info: ResourceInfo): ApiResponse | undefined {
		const obj = attributes.object!;
		if (fieldErrors.length) {
			this.emit({ action: 'validate', msg: `${fieldErrors.length} validation error(s)` });
			return errors.invalid(info.kind, objectName(obj), fieldErrors, info.group);
		}
		for (const plugin of this.deps.admission) {
			if (!plugin.validate) continue;
			const rejected = plugin.validate(attributes, ctx);
			if (rejected) {
				this.emit({ action: 'validate', sub: plugin.name, msg: `${plugin.name} rejected the request` });
				return rejected;
			}
		}
		this.emit({ action: 'validate', msg: 'object is valid' });
		return undefined;
	}

	/** Writes to etcd under a mod-revision precondition; traced as a message to etcd. */
	private store(store: EtcdClient, info: ResourceInfo, obj: KubeObject, expectedModRevision: number, dryRun: boolean): { ok: boolean; revision: number } {
		const key = etcdKey(info, obj.metadata.namespace, obj.metadata.name!);
		if (dryRun) return { ok: true, revision: store.revision };
		const lease = info.resource === 'events' ? store.grantLease(Math.round(this.options.eventTtlMs / 1000), this.nowMs) : undefined;
		const result = store.txn([{ key, modRevision: expectedModRevision }], [{ put: lease ? { key, value: encodeForStorage(obj), lease } : { key, value: encodeForStorage(obj) } }]);
		this.emit({ action: 'put', peer: 'etcd', object: key, rv: result.succeeded ? result.revision : undefined, msg: result.succeeded ? `txn put ${key} at revision ${result.revision}` : `txn on ${key} failed: mod revision changed` });
		if (result.succeeded) this.deps.etcd.notify();
		return { ok: result.succeeded, revision: result.revision };
	}

	private removeFromStore(store: EtcdClient, info: ResourceInfo, obj: KubeObject, dryRun: boolean): { ok: boolean; revision: number } {
		const key = etcdKey(info, obj.metadata.namespace, obj.metadata.name!);
		if (dryRun) return { ok: true, revision: store.revision };
		const result = store.txn([{ key, modRevision: Number(obj.metadata.resourceVersion) }], [{ delete: { key } }]);
		this.emit({ action: 'delete', peer: 'etcd', object: key, rv: result.succeeded ? result.revision : undefined, msg: result.succeeded ? `txn delete ${key} at revision ${result.revision}` : `txn delete ${key} failed: mod revision changed` });
		if (result.succeeded) this.deps.etcd.notify();
		return { ok: result.succeeded, revision: result.revision };
	}

	/** Reads back what was just written (with its resourceVersion). */
	private fresh(store: EtcdClient, info: ResourceInfo, namespace: string | undefined, name: string): KubeObject | undefined {
		this.pump();
		void store;
		return this.readCurrent(info, namespace, name);
	}

	private namespaceCheck(info: ResourceInfo, namespace: string | undefined, obj: KubeObject): ApiResponse | undefined {
		if (!info.namespaced) return undefined;
		if (obj.metadata.namespace && obj.metadata.namespace !== namespace) {
			return errors.badRequest('the namespace of the provided object does not match the namespace sent on the request');
		}
		obj.metadata.namespace = namespace;
		return undefined;
	}

	private create(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
		const decoded = this.decode(request, info, request.body);
		if (decoded.error) return decoded.error;
		const obj = decoded.obj!;
		const mismatch = this.namespaceCheck(info, request.namespace, obj);
		if (mismatch) return mismatch;
		const meta = obj.metadata;
		if (!meta.name && meta.generateName) meta.name = meta.generateName + this.rng.string(GENERATE_NAME_ALPHABET, 5);
		if (!meta.name) return errors.invalid(info.kind, '', [{ field: 'metadata.name', type: 'FieldValueRequired', detail: 'name or generateName is required' }], info.group);
		const ctx = this.context(caller.user);
		const strategy = this.strategy(info);
		// Fields the server owns.
		delete meta.resourceVersion;
		delete meta.deletionTimestamp;
		delete meta.deletionGracePeriodSeconds;
		meta.uid = this.rng.uuid();
		meta.creationTimestamp = ctx.now;
		if (!strategy.allowStatusOnCreate) {
			if (strategy.hasStatusSubresource) delete obj.status;
		}
		// Upstream order: mutating admission, then the strategy's preparation and validation, then validating admission.
		const attributes: AdmissionAttributes = { operation: 'CREATE', info, namespace: meta.namespace, name: meta.name, object: obj, user: caller.user, dryRun: request.query?.dryRun === 'All' };
		const rejected = this.runAdmission(attributes, ctx);
		if (rejected) return rejected;
		strategy.prepareForCreate?.(obj, ctx);
		const invalid = this.runValidation(attributes, ctx, strategy.validate?.(obj, ctx) ?? [], info);
		if (invalid) return invalid;
		const existing = this.readCurrent(info, meta.namespace, meta.name);
		if (existing) return errors.alreadyExists(qualifiedResource(info), meta.name, info.group);
		const written = this.store(store, info, obj, 0, attributes.dryRun);
		if (!written.ok) return errors.alreadyExists(qualifiedResource(info), meta.name, info.group);
		const body = attributes.dryRun ? obj : this.fresh(store, info, meta.namespace, meta.name)!;
		return { code: 201, body, warnings: decoded.warnings.length ? decoded.warnings : undefined };
	}

	private update(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient, body: unknown, decodedAlready?: KubeObject): ApiResponse {
		let obj: KubeObject;
		let warnings: string[] = [];
		if (decodedAlready) obj = decodedAlready;
		else {
			const decoded = this.decode(request, info, body);
			if (decoded.error) return decoded.error;
			obj = decoded.obj!;
			warnings = decoded.warnings;
		}
		const mismatch = this.namespaceCheck(info, request.namespace, obj);
		if (mismatch) return mismatch;
		const name = request.name ?? obj.metadata.name ?? '';
		if (obj.metadata.name && obj.metadata.name !== name) return errors.badRequest('the name of the object does not match the name on the URL');
		obj.metadata.name = name;
		const strategy = this.strategy(info);
		const old = this.readCurrent(info, request.namespace, name);
		if (!old) {
			if (strategy.allowCreateOnUpdate && !request.subresource) return this.create({ ...request, body: obj, verb: 'create' }, info, caller, store);
			return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		}
		const wantedRv = obj.metadata.resourceVersion;
		if (wantedRv && wantedRv !== old.metadata.resourceVersion) return errors.conflict(qualifiedResource(info), name);
		const ctx = this.context(caller.user);
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
		// Upstream order: mutating admission sees the incoming object first;
		// then the strategy prepares and validates what admission produced.
		const attributes: AdmissionAttributes = { operation: 'UPDATE', info, subresource: request.subresource, namespace: request.namespace, name, object: obj, oldObject: old, user: caller.user, dryRun: request.query?.dryRun === 'All' };
		const rejected = this.runAdmission(attributes, ctx);
		if (rejected) return rejected;
		obj = attributes.object!;
		let fieldErrors: FieldError[];
		if (request.subresource === 'finalize') {
			// namespaces/<name>/finalize: only spec.finalizers may change; the
			// namespace controller empties it once the namespace is clean.
			const finalizers = (obj.spec as { finalizers?: string[] } | undefined)?.finalizers;
			obj = deepCopy(old);
			(obj.spec as { finalizers?: string[] }) = { ...(old.spec as object), finalizers: finalizers ?? [] };
			if (obj.metadata.deletionTimestamp && !finalizers?.length && !obj.metadata.finalizers?.length) {
				const removed = this.removeFromStore(store, info, old, request.query?.dryRun === 'All');
				if (!removed.ok) return errors.conflict(qualifiedResource(info), name);
				this.pump();
				return { code: 200, body: obj };
			}
			fieldErrors = [];
		} else if (request.subresource === 'status') {
			const mutable = deepCopy(old);
			mutable.status = obj.status;
			if (strategy.prepareForStatusUpdate) strategy.prepareForStatusUpdate(obj, old, ctx);
			else obj = { ...mutable, metadata: { ...old.metadata, ...pickMetaForStatus(obj.metadata) } } as KubeObject;
			fieldErrors = strategy.validateStatusUpdate?.(obj, old, ctx) ?? [];
		} else {
			if (strategy.hasStatusSubresource) {
				// An object nobody has reported status for yet has none: keep it that way (deepCopy() cannot copy undefined).
				if (old.status === undefined) delete obj.status;
				else obj.status = deepCopy(old.status);
			}
			strategy.prepareForUpdate?.(obj, old, ctx);
			fieldErrors = strategy.validateUpdate?.(obj, old, ctx) ?? strategy.validate?.(obj, ctx) ?? [];
		}
		attributes.object = obj;
		const invalid = this.runValidation(attributes, ctx, fieldErrors, info);
		if (invalid) return invalid;
		// A deleted object whose last finalizer just went is removed now.
		if (obj.metadata.deletionTimestamp && !(obj.metadata.finalizers?.length) && !this.isGracefullyTerminating(info, obj) && !hasSpecFinalizers(info, obj)) {
			const removed = this.removeFromStore(store, info, old, attributes.dryRun);
			if (!removed.ok) return errors.conflict(qualifiedResource(info), name);
			return { code: 200, body: { ...obj, metadata: { ...obj.metadata, resourceVersion: String(removed.revision) } } };
		}
		if (jsonEqualIgnoringRv(obj, old)) return { code: 200, body: old, warnings: warnings.length ? warnings : undefined };
		const written = this.store(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
		if (!written.ok) return errors.conflict(qualifiedResource(info), name);
		const fresh = attributes.dryRun ? obj : this.fresh(store, info, request.namespace, name)!;
		return { code: 200, body: fresh, warnings: warnings.length ? warnings : undefined };
	}

	/** Pods with a deletion timestamp wait for the kubelet (or the grace period) before removal. */
	private isGracefullyTerminating(info: ResourceInfo, obj: KubeObject): boolean {
		return info.resource === 'pods' && info.group === '' && (obj.metadata.deletionGracePeriodSeconds ?? 0) > 0;
	}

	private patch(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
		const name = request.name ?? '';
		const old = this.readCurrent(info, request.namespace, name);
		if (!old) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		if (request.subresource === 'scale') {
			const scale = applyPatch(scaleOf(old, info), request.body, request.patchType ?? 'application/merge-patch+json', info.kind);
			if ('error' in scale) return errors.badRequest(scale.error);
			return this.updateScale(request, info, caller, store, old, scale.value as KubeObject);
		}
		const patched = applyPatch(stripResourceVersion(old), request.body, request.patchType ?? 'application/strategic-merge-patch+json', info.kind);
		if ('error' in patched) return errors.badRequest(patched.error);
		const decoded = this.decode(request, info, patched.value);
		if (decoded.error) return decoded.error;
		const obj = decoded.obj!;
		// A patch applies to what the server has: carry its revision so a racing write is retried.
		if (!obj.metadata.resourceVersion) obj.metadata.resourceVersion = old.metadata.resourceVersion;
		return this.update(request, info, caller, store, undefined, obj);
	}

	private updateScale(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient, old: KubeObject, scale: KubeObject): ApiResponse {
		const replicas = (scale.spec as { replicas?: unknown } | undefined)?.replicas;
		if (typeof replicas !== 'number' || !Number.isInteger(replicas)) return errors.badRequest('spec.replicas: Invalid value');
		const updated = deepCopy(old);
		(updated.spec as { replicas?: number }).replicas = replicas;
		const response = this.update({ ...request, subresource: undefined }, info, caller, store, undefined, updated);
		if (response.code >= 400) return response;
		return { code: 200, body: scaleOf(response.body as KubeObject, info) };
	}

	private delete(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
		const name = request.name ?? '';
		const old = this.readCurrent(info, request.namespace, name);
		if (!old) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		const options = request.deleteOptions ?? {};
		if (options.preconditions?.uid && options.preconditions.uid !== old.metadata.uid) {
			return errors.conflict(qualifiedResource(info), name, `Precondition failed: UID in precondition: ${options.preconditions.uid}, UID in object meta: ${old.metadata.uid}`);
		}
		if (options.preconditions?.resourceVersion && options.preconditions.resourceVersion !== old.metadata.resourceVersion) {
			return errors.conflict(qualifiedResource(info), name, `Precondition failed: ResourceVersion in precondition: ${options.preconditions.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion}`);
		}
		const ctx = this.context(caller.user);
		const strategy = this.strategy(info);
		const attributes: AdmissionAttributes = { operation: 'DELETE', info, namespace: request.namespace, name, oldObject: old, user: caller.user, dryRun: request.query?.dryRun === 'All' };
		for (const plugin of this.deps.admission) {
			const rejected = plugin.validate?.(attributes, ctx);
			if (rejected) return rejected;
		}
		const obj = deepCopy(old);
		const meta = obj.metadata;
		const propagation = options.propagationPolicy ?? strategy.defaultPropagation ?? 'Background';
		const finalizers = new Set(meta.finalizers ?? []);
		if (propagation === 'Orphan') finalizers.add('orphan');
		if (propagation === 'Foreground') finalizers.add('foregroundDeletion');

		// Namespaces: deletion starts the namespace controller's clean-up.
		if (info.resource === 'namespaces' && info.group === '') {
			if (meta.deletionTimestamp) return { code: 200, body: old };
			meta.deletionTimestamp = ctx.now;
			(obj.status as { phase?: string }) = { ...(obj.status as object), phase: 'Terminating' };
			const written = this.store(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
			if (!written.ok) return errors.conflict(qualifiedResource(info), name);
			return { code: 200, body: attributes.dryRun ? obj : this.fresh(store, info, undefined, name)! };
		}

		const grace = strategy.gracePeriodSeconds?.(old, options.gracePeriodSeconds);
		const alreadyDeleting = !!meta.deletionTimestamp;
		if (grace !== undefined && grace > 0) {
			// Graceful: mark, and let the kubelet finish (it deletes with grace 0).
			if (alreadyDeleting && (meta.deletionGracePeriodSeconds ?? 0) <= grace) return { code: 200, body: old };
			meta.deletionTimestamp = formatRfc3339(this.kernel.wallMs() + grace * 1000);
			meta.deletionGracePeriodSeconds = grace;
			meta.finalizers = finalizers.size ? [...finalizers] : undefined;
			if (!meta.finalizers) delete meta.finalizers;
			const written = this.store(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
			if (!written.ok) return errors.conflict(qualifiedResource(info), name);
			return { code: 200, body: attributes.dryRun ? obj : this.fresh(store, info, request.namespace, name)! };
		}
		if (finalizers.size > 0) {
			if (!alreadyDeleting || propagation !== 'Background') {
				meta.deletionTimestamp = meta.deletionTimestamp ?? ctx.now;
				meta.deletionGracePeriodSeconds = 0;
				meta.finalizers = [...finalizers];
				const written = this.store(store, info, obj, Number(old.metadata.resourceVersion), attributes.dryRun);
				if (!written.ok) return errors.conflict(qualifiedResource(info), name);
				return { code: 200, body: attributes.dryRun ? obj : this.fresh(store, info, request.namespace, name)! };
			}
			return { code: 200, body: old };
		}
		const removed = this.removeFromStore(store, info, old, attributes.dryRun);
		if (!removed.ok) return errors.conflict(qualifiedResource(info), name);
		this.pump();
		return { code: 200, body: old };
	}

	private deleteCollection(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
		const selectors = parseSelectors(request.query?.labelSelector, request.query?.fieldSelector);
		if (!selectors.ok) return errors.badRequest(selectors.error);
		const strategy = this.strategy(info);
		const items = this.cacher.list(info, info.namespaced ? request.namespace : undefined).filter((o) => objectMatches(o, selectors.value, strategy));
		const deleted: KubeObject[] = [];
		for (const item of items) {
			const response = this.delete({ ...request, verb: 'delete', name: item.metadata.name, namespace: item.metadata.namespace }, info, caller, store);
			if (response.code < 300) deleted.push(item);
		}
		return { code: 200, body: { apiVersion: groupVersion(info), kind: `${info.kind}List`, metadata: { resourceVersion: String(this.cacher.revision) }, items: deleted } };
	}

	/** POST pods/<name>/binding: the scheduler's decision, recorded as spec.nodeName. */
	private bind(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
		const body = request.body as { target?: { name?: string; kind?: string }; metadata?: ObjectMeta } | undefined;
		const name = request.name ?? body?.metadata?.name ?? '';
		const target = body?.target?.name;
		if (!target) return errors.invalid('Binding', name, [{ field: 'target.name', type: 'FieldValueRequired' }]);
		const pod = this.readCurrent(info, request.namespace, name);
		if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		const spec = pod.spec as { nodeName?: string };
		if (pod.metadata.deletionTimestamp) return errors.conflict(qualifiedResource(info), name, `pod ${name} is being deleted, cannot be assigned to a host`);
		if (spec.nodeName) return errors.conflict(qualifiedResource(info), name, `pod ${name} is already assigned to node "${spec.nodeName}"`);
		const updated = deepCopy(pod);
		(updated.spec as { nodeName?: string }).nodeName = target;
		const status = (updated.status ??= {}) as { conditions?: Array<Record<string, unknown>> };
		const conditions = (status.conditions ?? []).filter((c) => c.type !== 'PodScheduled');
		conditions.push({ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: formatRfc3339(this.kernel.wallMs()) });
		status.conditions = conditions;
		this.emit({ action: 'bind', object: `pods/${request.namespace}/${name}`, msg: `binding ${request.namespace}/${name} to ${target}` });
		const written = this.store(store, info, updated, Number(pod.metadata.resourceVersion), request.query?.dryRun === 'All');
		if (!written.ok) return errors.conflict(qualifiedResource(info), name);
		this.pump();
		void caller;
		return { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
	}

	/**
	 * POST pods/<name>/eviction: deletes the pod gracefully unless a
	 * PodDisruptionBudget forbids it (see ./eviction.ts; upstream
	 * pkg/registry/core/pod/storage/eviction.go).
	 */
	private evict(request: ApiRequest, info: ResourceInfo, caller: Caller, store: EtcdClient): ApiResponse {
		const name = request.name ?? '';
		const checked = checkEvictionBody(request.body, name);
		if ('error' in checked) return checked.error;
		const pod = this.readCurrent(info, request.namespace, name);
		if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		const dryRun = request.query?.dryRun === 'All' || (checked.eviction.deleteOptions?.dryRun ?? []).includes('All');
		const { dryRun: _ignored, ...options } = checked.eviction.deleteOptions ?? {};
		void _ignored;
		const deleteRequest: ApiRequest = { ...request, verb: 'delete', subresource: undefined, body: undefined, deleteOptions: options, query: dryRun ? { dryRun: 'All' } : {} };
		const success: ApiResponse = { code: 201, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 } };
		if (!canIgnorePDB(pod)) {
			const pdbInfo = resourceByName('policy', 'poddisruptionbudgets');
			const budgets = (pdbInfo ? this.cacher.list(pdbInfo, request.namespace) : []) as PodDisruptionBudget[];
			const decision = decideEviction(pod, budgets, formatRfc3339(this.kernel.wallMs()), dryRun);
			if (decision.action === 'refuse') {
				this.emit({ action: 'evict', object: `pods/${request.namespace}/${name}`, msg: `eviction of ${request.namespace}/${name} refused: ${(decision.response.body as Status).message}` });
				return decision.response;
			}
			if (decision.budget && pdbInfo) {
				const written = this.store(store, pdbInfo, decision.budget, Number(decision.budget.metadata.resourceVersion), false);
				if (!written.ok) return errors.tooManyRequests("Cannot evict pod as it would violate the pod's disruption budget.", 10);
				this.pump();
			}
			if (decision.resourceVersionPrecondition) deleteRequest.deleteOptions = { ...options, preconditions: { ...options.preconditions, resourceVersion: decision.resourceVersionPrecondition } };
		}
		this.emit({ action: 'evict', object: `pods/${request.namespace}/${name}`, msg: `evicting ${request.namespace}/${name}` });
		const deleted = this.delete(deleteRequest, info, caller, store);
		return deleted.code >= 400 ? deleted : success;
	}

	/**
	 * POST pods/<name>/exec: checked as upstream's ExecLocation does, then
	 * forwarded to the kubelet of the pod's node, like pods/log.
	 */
	private podExec(request: ApiRequest, info: ResourceInfo): ApiResponse {
		const name = request.name ?? '';
		const pod = this.readCurrent(info, request.namespace, name);
		if (!pod) return errors.notFound(qualifiedResource(info), name, info.group, info.resource);
		const containers = ((pod.spec as { containers?: Array<{ name: string }> }).containers ?? []).map((c) => c.name);
		const all = [...containers, ...((pod.spec as { initContainers?: Array<{ name: string }> }).initContainers ?? []).map((c) => c.name), ...((pod.spec as { ephemeralContainers?: Array<{ name: string }> }).ephemeralContainers ?? []).map((c) => c.name)];
		let container = request.query?.container ?? '';
		if (!container) {
			if (containers.length === 0) return errors.badRequest(`a container name must be specified for pod ${name}`);
			if (containers.length > 1) return errors.badRequest(`a container name must be specified for pod ${name}, choose one of: [${containers.join(' ')}]`);
			container = containers[0];
		} else if (!all.includes(container)) return errors.badRequest(`container ${container} is not valid for pod ${name}`);
		const nodeName = (pod.spec as { nodeName?: string }).nodeName;
		if (!nodeName) return errors.badRequest(`pod ${name} does not have a host assigned`);
		const forwarded: ApiRequest = { ...request, query: { ...request.query, container } };
		const response = this.deps.nodeProxy?.(nodeName, forwarded);
		if (!response) {
			const node = this.readCurrent(resourceByName('', 'nodes')!, undefined, nodeName);
			const address = ((node?.status as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address ?? nodeName;
			// The proxy's own failure: a 500 without a reason, which kubectl prints as `Error from server: error dialing backend: ...`.
			return dialFailure(`error dialing backend: dial tcp ${address}:10250: ${this.deps.kubeletDialError?.(nodeName) ?? 'connect: connection refused'}`);
		}
		return response;
	}

	/** POST of an access, rules or self-subject review: answered from the authorizers (./reviews.ts). */
	private review(request: ApiRequest, info: ResourceInfo, caller: Caller): ApiResponse {
		const reader = {
			list: (group: string, resource: string, namespace?: string) => {
				const found = resourceByName(group, resource);
				return found ? this.cacher.list(found, namespace) : [];
			},
			get: (group: string, resource: string, namespace: string | undefined, name: string) => {
				const found = resourceByName(group, resource);
				return found ? this.cacher.get(found, etcdKey(found, namespace, name)) : undefined;
			},
		};
		const response = serveReview(request, info, caller.user, this.deps.authorizers, reader, formatRfc3339(this.kernel.wallMs()));
		this.emit({ action: 'review', msg: `${info.kind} for ${caller.user.username}: ${response.code}` });
		return response;
	}

	/** GET pods/<name>/log: forwarded to the kubelet of the pod's node. */
	private podLog(request: ApiRequest, info: ResourceInfo): ApiResponse {
		const pod = this.readCurrent(info, request.namespace, request.name ?? '');
		if (!pod) return errors.notFound(qualifiedResource(info), request.name ?? '', info.group, info.resource);
		const nodeName = (pod.spec as { nodeName?: string }).nodeName;
		if (!nodeName) return errors.badRequest(`pod ${request.name} does not have a host assigned`);
		const response = this.deps.nodeProxy?.(nodeName, request);
		if (!response) {
			const node = this.readCurrent(resourceByName('', 'nodes')!, undefined, nodeName);
			const address = ((node?.status as { addresses?: Array<{ type: string; address: string }> } | undefined)?.addresses ?? []).find((a) => a.type === 'InternalIP')?.address ?? nodeName;
			// The log stream's client error, served as a Status without a reason (ErrorToAPIStatus of a plain error).
			return dialFailure(`Get "https://${address}:10250/containerLogs/${request.namespace}/${request.name}/${request.query?.container ?? ''}": dial tcp ${address}:10250: ${this.deps.kubeletDialError?.(nodeName) ?? 'connect: connection refused'}`);
		}
		return response;
	}
}

/** A 500 Status without a reason: what a plain Go error becomes on the wire; kubectl prints `Error from server: <message>`. */
function dialFailure(message: string): ApiResponse {
	return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 } };
}

/** A short label for trace lines: resource/namespace/name. */
function describeObject(obj: KubeObject | undefined, info: ResourceInfo | undefined): string | undefined {
	if (!obj?.metadata || !info) return undefined;
	return obj.metadata.namespace ? `${info.resource}/${obj.metadata.namespace}/${obj.metadata.name}` : `${info.resource}/${obj.metadata.name}`;
}

/** `GET /api/v1/namespaces/default/pods/web-1`: the request line kubectl -v would show. */
export function describeRequest(request: ApiRequest): string {
	const method = { get: 'GET', list: 'GET', watch: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE', deletecollection: 'DELETE' }[request.verb];
	const root = request.group ? `/apis/${request.group}/${request.version}` : `/api/${request.version}`;
	const ns = request.namespace ? `/namespaces/${request.namespace}` : '';
	const name = request.name ? `/${request.name}` : '';
	const sub = request.subresource ? `/${request.subresource}` : '';
	const watch = request.verb === 'watch' ? '?watch=true' : '';
	return `${method} ${root}${ns}/${request.resource}${name}${sub}${watch}`;
}

/** Namespaces also wait for spec.finalizers (the namespace controller's 'kubernetes'). */
function hasSpecFinalizers(info: ResourceInfo, obj: KubeObject): boolean {
	return info.resource === 'namespaces' && !!(obj.spec as { finalizers?: string[] } | undefined)?.finalizers?.length;
}

function stripTypeMeta(obj: KubeObject): KubeObject {
	const { apiVersion: _a, kind: _k, ...rest } = obj;
	void _a;
	void _k;
	return rest as KubeObject;
}

function stripResourceVersion(obj: KubeObject): KubeObject {
	const out = deepCopy(obj);
	delete out.metadata.resourceVersion;
	return out;
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

function jsonEqualIgnoringRv(a: KubeObject, b: KubeObject): boolean {
	return JSON.stringify(stripResourceVersion(a)) === JSON.stringify(stripResourceVersion(b));
}

/** autoscaling/v1 Scale of a Deployment, ReplicaSet or StatefulSet. */
function scaleOf(obj: KubeObject, info: ResourceInfo): KubeObject {
	const spec = obj.spec as { replicas?: number; selector?: { matchLabels?: Record<string, string> } };
	const status = obj.status as { replicas?: number } | undefined;
	const selector = Object.entries(spec.selector?.matchLabels ?? {})
		.map(([k, v]) => `${k}=${v}`)
		.join(',');
	return {
		kind: 'Scale',
		apiVersion: 'autoscaling/v1',
		metadata: { name: obj.metadata.name, namespace: obj.metadata.namespace, uid: obj.metadata.uid, resourceVersion: obj.metadata.resourceVersion, creationTimestamp: obj.metadata.creationTimestamp },
		spec: { replicas: spec.replicas ?? 1 },
		status: { replicas: status?.replicas ?? 0, selector },
	};
	void info;
}

export type { ParsedSelectors };
