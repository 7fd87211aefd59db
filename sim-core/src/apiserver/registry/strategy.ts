/**
 * What the generic REST handler needs to know about one resource: how to
 * default it, validate it, prepare it for create and update, which fields
 * its field selectors see, and how it is deleted.
 *
 * Strategies are pure functions of their inputs: they receive mutable
 * copies and a context; they never touch storage themselves.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/registry/rest/create.go
 * (RESTCreateStrategy),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/update.go
 * (RESTUpdateStrategy),
 * staging/src/k8s.io/apiserver/pkg/registry/rest/delete.go
 * (RESTDeleteStrategy), pkg/registry/ (each resource's strategy.go).
 */
import type { KubeObject } from '../../api/types.ts';
import type { FieldError } from '../errors.ts';
import type { ApiRequest, ApiResponse, UserInfo } from '../../api/request.ts';

/** What a strategy may read while it works. */
export interface StrategyContext {
	/** RFC 3339 of the virtual now. */
	now: string;
	user: UserInfo;
	/** Reads another object from the API server's cache (e.g. a PriorityClass during admission). */
	get(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
	/** Lists objects from the cache. */
	list(group: string, resource: string, namespace?: string): KubeObject[];
	/** Seeded random stream of the API server (generated names, cluster IPs...). */
	random(n: number): number;
	/**
	 * A write of the server to itself (the loopback client), for the plugins
	 * that record what they admitted, as ResourceQuota charges the quota's
	 * status before the object is stored. Absent where nothing may be written.
	 */
	loopback?(request: ApiRequest): ApiResponse;
}

/** How an update through one subresource is prepared (keep all but its part from `old`) and validated. */
export interface SubresourceUpdateStrategy {
	prepare(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
	validate(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
}

export interface Strategy {
	/** Fills in defaults, as the decoder's SetDefaults_* functions do. Mutates `obj`. */
	defaults?(obj: KubeObject): void;
	/** Before a create: clear fields users may not set (status), set initial values (generation, phase). */
	prepareForCreate?(obj: KubeObject, ctx: StrategyContext): void;
	/** Before an update of the main resource: keep status, bump generation when spec changes. */
	prepareForUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
	/** Before an update of the status subresource: keep everything but status from `old`. */
	prepareForStatusUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): void;
	/**
	 * Subresources other than status that update one part of the object
	 * (a CSR's approval conditions, a Pod's ephemeralcontainers): each keeps
	 * everything else from `old`, as upstream's per-subresource strategies do.
	 */
	subresourceUpdates?: Record<string, SubresourceUpdateStrategy>;
	validate?(obj: KubeObject, ctx: StrategyContext): FieldError[];
	validateUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
	validateStatusUpdate?(obj: KubeObject, old: KubeObject, ctx: StrategyContext): FieldError[];
	/** Field values for field selectors (beyond metadata.name and metadata.namespace). */
	fields?(obj: KubeObject): Record<string, string>;
	/**
	 * Graceful deletion: given the object and the requested grace period, the
	 * period to apply (seconds), or undefined for immediate deletion.
	 */
	gracePeriodSeconds?(obj: KubeObject, requested: number | undefined): number | undefined;
	/** Default deletion propagation when the request sets none (upstream: Background for most, Orphan for a few legacy kinds). */
	defaultPropagation?: 'Background' | 'Orphan';
	/** Whether `status` is served as a subresource (then the main resource ignores status changes). */
	hasStatusSubresource?: boolean;
	/** Whether create and update may carry status (resources without a status subresource). */
	allowStatusOnCreate?: boolean;
	/** Whether updates may create the object when it is missing (AllowCreateOnUpdate; e.g. nodes, leases, events, endpoints). */
	allowCreateOnUpdate?: boolean;
	/** Warnings returned with every request for this resource (e.g. v1 Endpoints' deprecation). */
	warnings?: string[];
}

/** group/resource -> strategy. */
export type StrategyRegistry = Record<string, Strategy>;

export function strategyKey(group: string, resource: string): string {
	return `${group}/${resource}`;
}
