/**
 * What kube-apiserver is built from and what its parts share: the flags
 * with their upstream defaults, the wiring to etcd, strategies, admission
 * and authorizers, the process's plain-JSON state, and the server context
 * every part (filters, handlers, registry, watch cache) works through.
 *
 * Mirrors cmd/kube-apiserver/app/options/options.go (the flags),
 * staging/src/k8s.io/apiserver/pkg/server/config.go (the completed config
 * the generic server and its handler chain are assembled from).
 */
import type { KubeObject } from '../api/types.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { ApiRequest, ApiResponse, UserInfo } from '../api/request.ts';
import type { EtcdClient } from '../etcd-api/etcd.ts';
import type { Kernel } from '../sim/kernel.ts';
import type { Rng } from '../sim/rng.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { Cacher } from './cacher.ts';
import type { AdmissionPlugin } from './admission/plugin.ts';
import type { Authorizer, AuthorizerReader } from './auth/authorizer.ts';
import type { Strategy, StrategyRegistry } from './registry/strategy.ts';
import type { TokenIssuerConfig } from './registry/serviceaccount-token.ts';
import type { BackendAnswer, BackendTarget } from './aggregator/apiservice.ts';

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
	/** Why the client certificate the caller presented fails verification (x509: certificate has expired...): the request is a 401. */
	certificateError?: string;
}

/** A registered watch. Plain JSON: part of the server's state. */
export interface WatchRegistration {
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
	/** An APIService availability sync is queued (a Service, Endpoints or APIService changed). */
	apiServiceSyncQueued?: boolean;
	/** The 30 s availability recheck is scheduled. */
	apiServiceRecheck?: boolean;
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
	 * The aggregator's dial to an APIService's backend (an extension API
	 * server such as metrics-server, at a Pod behind a Service): its
	 * answer, or why nothing answered. Without it every APIService with a
	 * Service fails its discovery check.
	 */
	aggregatedBackend?(target: BackendTarget, request: ApiRequest): BackendAnswer | undefined;
	/**
	 * Service account tokens: the signing key (kubeadm's sa.key; by default
	 * derived from the cluster seed), `--service-account-issuer`,
	 * `--api-audiences` (default: the issuer), `--service-account-extend-token-expiration`
	 * (default true) and `--service-account-max-token-expiration` (default none).
	 */
	serviceAccountTokens?: Partial<TokenIssuerConfig>;
	options?: Partial<ApiServerOptions>;
}

/** The loopback identity the server uses for its own writes (in system:masters). */
export const LOOPBACK_USER: UserInfo = { username: 'system:apiserver', uid: 'loopback', groups: ['system:masters', 'system:authenticated'] };

/** A trace event as a part writes it: the kernel stamps seq, time and origin; the component defaults to the server's id. */
export type TraceInput = Omit<TraceEvent, 'seq' | 'atMs' | 'origin' | 'component'> & { component?: string };

/**
 * The server as its parts see it. Built once by KubeApiServer
 * (./apiserver.ts); `state` is read through here each time because the
 * kernel replaces it at start and on restore.
 */
export interface ApiServerContext {
	/** The process id ('kube-apiserver'). */
	readonly id: string;
	readonly kernel: Kernel;
	readonly deps: ApiServerDeps;
	readonly options: ApiServerOptions;
	/** The watch cache (./cacher.ts). */
	readonly cacher: Cacher;
	readonly state: ApiServerState;
	/** The server's own random stream (generated names, UIDs). */
	readonly rng: Rng;
	/** Writes a trace event as the server. */
	emit(event: TraceInput): TraceEvent;
	/** The strategy of a resource (an empty one when it has none). */
	strategy(info: ResourceInfo): Strategy;
	/** Reads objects from the watch cache, for strategies, authorizers and reviews. */
	readonly reader: AuthorizerReader;
	/** A core object from the cache, for the token authenticator and the TokenRequest registry. */
	readonly readCore: (resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string | undefined, name: string) => KubeObject | undefined;
	/** The token issuer's settings (a pure function of the wiring and the seed, so kept outside the snapshotted state). */
	tokenConfig(): TokenIssuerConfig;
	/** Reads etcd's new changes into the cache and fans them out to watchers. */
	pump(): void;
	/** Makes sure the in-memory cache exists (after a restore) and is current; undefined while etcd is unreachable. */
	ensureCache(): EtcdClient | undefined;
	/** A request of the server to itself through its whole handler chain, as the loopback user (upstream's loopback client). */
	loopback(request: ApiRequest): ApiResponse;
}
