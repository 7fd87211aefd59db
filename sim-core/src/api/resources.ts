/**
 * The API's resource table: for each resource the simulation serves, its
 * group, version, kind, plural and short names, scope and verbs, as
 * discovery (`kubectl api-resources`) reports them in v1.36. The API server
 * routes requests with it, kubectl resolves `deploy`, `po`, `svc`... with
 * it.
 *
 * Mirrors pkg/registry/ (the storage providers and each resource's
 * ShortNames),
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (the
 * etcd keys; the legacy ones as test/integration/etcd/data.go expects
 * them).
 */
import { apiResources } from './schema/index.ts';

export interface ResourceInfo {
	/** API group ('' for the core group). */
	group: string;
	version: string;
	/** Plural, lower case: the REST path segment and the etcd key segment. */
	resource: string;
	singular: string;
	kind: string;
	namespaced: boolean;
	shortNames: string[];
	verbs: string[];
	/** Subresources served under /<resource>/<name>/<subresource>. */
	subresources: string[];
	/** The etcd key prefix, when it differs from /registry/<resource> (upstream keeps a few legacy names). */
	etcdPrefix?: string;
	/** Categories, e.g. 'all' (what `kubectl get all` lists). */
	categories?: string[];
	/** Served by an extension API server behind the aggregator (metrics-server's metrics.k8s.io), never stored in etcd. */
	aggregated?: boolean;
}

/** API groups served through the aggregator by an APIService's backend rather than by kube-apiserver itself. */
export const AGGREGATED_GROUPS: readonly string[] = ['metrics.k8s.io'];

/** etcd key prefixes that are not /registry/<resource> (upstream keeps a few legacy names). */
const ETCD_PREFIXES: Record<string, string> = {
	'/nodes': '/registry/minions',
	'/services': '/registry/services/specs',
	'/endpoints': '/registry/services/endpoints',
	'/replicationcontrollers': '/registry/controllers',
	'networking.k8s.io/ingresses': '/registry/ingress',
};

/** Review resources: served (create only), never stored. */
const REVIEWS: ResourceInfo[] = ['SelfSubjectAccessReview', 'SubjectAccessReview', 'SelfSubjectRulesReview', 'LocalSubjectAccessReview'].map((kind) => ({
	group: 'authorization.k8s.io',
	version: 'v1',
	resource: kind.toLowerCase() + 's',
	singular: kind.toLowerCase(),
	kind,
	namespaced: kind === 'LocalSubjectAccessReview',
	shortNames: [],
	verbs: ['create'],
	subresources: [],
}));

/**
 * Every resource the simulated API server serves: the discovery data of
 * ./schema (checked against a real server's discovery documents) plus the
 * authorization reviews, with etcd's key layout.
 */
export const RESOURCES: readonly ResourceInfo[] = [
	...apiResources().map((r): ResourceInfo => {
		const info: ResourceInfo = {
			group: r.group,
			version: r.version,
			resource: r.name,
			singular: r.singularName,
			kind: r.kind,
			namespaced: r.namespaced,
			shortNames: [...r.shortNames],
			verbs: [...r.verbs],
			subresources: r.subresources.map((sub) => sub.name.split('/')[1]),
			categories: [...r.categories],
		};
		// The aggregator's and apiextensions-apiserver's storages keep their group in the key.
		const prefix = ETCD_PREFIXES[`${r.group}/${r.name}`] ?? (r.group === 'apiregistration.k8s.io' || r.group === 'apiextensions.k8s.io' ? `/registry/${r.group}/${r.name}` : undefined);
		if (prefix) info.etcdPrefix = prefix;
		if (AGGREGATED_GROUPS.includes(r.group)) info.aggregated = true;
		return info;
	}),
	...REVIEWS,
	// `kubectl auth whoami` (authentication.k8s.io/v1, GA in v1.28): served, never stored.
	{ group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews', singular: 'selfsubjectreview', kind: 'SelfSubjectReview', namespaced: false, shortNames: [], verbs: ['create'], subresources: [] },
];

/** `apps/v1` or `v1`. */
export function groupVersion(info: Pick<ResourceInfo, 'group' | 'version'>): string {
	return info.group ? `${info.group}/${info.version}` : info.version;
}

/** `deployments.apps`, `pods`: how error messages name a resource. */
export function qualifiedResource(info: Pick<ResourceInfo, 'group' | 'resource'>): string {
	return info.group ? `${info.resource}.${info.group}` : info.resource;
}

/** The resource served for an apiVersion and kind, if any. */
export function resourceForKind(apiVersion: string, kind: string): ResourceInfo | undefined {
	return RESOURCES.find((info) => groupVersion(info) === apiVersion && info.kind === kind && info.resource !== 'bindings' && !(info.group === 'events.k8s.io'));
}

/** The resource for a group and plural name. */
export function resourceByName(group: string, resource: string): ResourceInfo | undefined {
	return RESOURCES.find((info) => info.group === group && info.resource === resource);
}

/** Where a resource's objects live in etcd: /registry/<resource>, with upstream's few legacy names (nodes are "minions"). */
function etcdBase(info: ResourceInfo): string {
	return info.etcdPrefix ?? `/registry/${info.resource}`;
}

/** The etcd key of an object, as the API server lays keys out: /registry/<resource>/<namespace>/<name>. */
export function etcdKey(info: ResourceInfo, namespace: string | undefined, name: string): string {
	return info.namespaced ? `${etcdBase(info)}/${namespace}/${name}` : `${etcdBase(info)}/${name}`;
}

/** The etcd prefix holding every object of a resource (or of one namespace), with a trailing slash. */
export function etcdPrefix(info: ResourceInfo, namespace?: string): string {
	return info.namespaced && namespace ? `${etcdBase(info)}/${namespace}/` : `${etcdBase(info)}/`;
}
