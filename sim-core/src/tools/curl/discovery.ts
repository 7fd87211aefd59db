/**
 * The legacy (unaggregated) discovery documents kube-apiserver serves to a
 * client that asks for plain JSON, as curl does (`Accept: *\/*`): `/api`
 * (APIVersions, with serverAddressByClientCIDRs), `/api/v1` and
 * `/apis/<group>/<version>` (APIResourceList: resources sorted by name, each
 * subresource as `<resource>/<sub>` after it), `/apis` (APIGroupList, in the
 * aggregator's group priority order) and `/apis/<group>` (APIGroup).
 *
 * Only the groups and resources the simulation serves are listed; a real
 * server lists more (autoscaling, networking.k8s.io, storage.k8s.io...),
 * and adds each resource's storageVersionHash, left out here.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/endpoints/discovery/legacy.go,
 * staging/src/k8s.io/apiserver/pkg/endpoints/discovery/group.go,
 * staging/src/k8s.io/apiserver/pkg/endpoints/discovery/version.go,
 * pkg/controlplane/apiserver/aggregator.go (the apiservice priorities).
 */
import { RESOURCES, type ResourceInfo } from '../../api/resources.ts';
import { apiResources } from '../../api/schema/index.ts';
import type { GoJsonValue } from '../../golang/json.ts';

/** GroupPriorityMinimum of the built-in groups the simulation serves (kube-aggregator); higher comes first. */
const GROUP_PRIORITY: Record<string, number> = {
	apps: 17800,
	'events.k8s.io': 17750,
	'authentication.k8s.io': 17700,
	'authorization.k8s.io': 17600,
	autoscaling: 17500,
	batch: 17400,
	'certificates.k8s.io': 17300,
	'networking.k8s.io': 17200,
	policy: 17100,
	'rbac.authorization.k8s.io': 17000,
	'storage.k8s.io': 16800,
	'admissionregistration.k8s.io': 16700,
	'scheduling.k8s.io': 16600,
	'coordination.k8s.io': 16500,
	'node.k8s.io': 16300,
	'discovery.k8s.io': 16200,
	'flowcontrol.apiserver.k8s.io': 16100,
};

/**
 * Which aggregated group versions have an APIService now: the aggregator
 * lists a group in /apis as soon as its APIService exists, Available or not
 * (a client then finds out from the group version's 503). Default: none.
 */
export type ApiServiceLookup = (group: string, version: string) => 'absent' | 'available' | 'unavailable';
const NO_API_SERVICES: ApiServiceLookup = () => 'absent';

/** The served groups other than core, in /apis order. */
function servedGroups(apiServices: ApiServiceLookup): Array<{ name: string; version: string }> {
	const seen = new Map<string, string>();
	for (const r of RESOURCES) {
		if (!r.group || seen.has(r.group)) continue;
		if (r.aggregated && apiServices(r.group, r.version) === 'absent') continue;
		seen.set(r.group, r.version);
	}
	return [...seen.entries()]
		.map(([name, version]) => ({ name, version }))
		.sort((a, b) => (GROUP_PRIORITY[b.name] ?? 0) - (GROUP_PRIORITY[a.name] ?? 0) || (a.name < b.name ? -1 : 1));
}

/**
 * `/`: every path the server has a handler for, sorted, as the root
 * handler lists them (PathRecorderMux.ListedPaths): discovery, each served
 * group and group version, the probes and each of their checks, metrics
 * and version. A real server also lists /logs, /metrics/slis, /openapi/v2
 * and v3 and the service account issuer's /.well-known/openid-configuration
 * and /openid/v1/jwks; this one does not serve those, so it does not list
 * them.
 */
export function rootPaths(apiServices: ApiServiceLookup, probeChecks: (probe: 'healthz' | 'livez' | 'readyz') => string[]): GoJsonValue {
	const paths = ['/api', '/api/v1', '/apis', '/apis/', '/metrics', '/version'];
	for (const g of servedGroups(apiServices)) paths.push(`/apis/${g.name}`, `/apis/${g.name}/${g.version}`);
	for (const probe of ['healthz', 'livez', 'readyz'] as const) paths.push(`/${probe}`, ...probeChecks(probe).map((check) => `/${probe}/${check}`));
	return { paths: [...new Set(paths)].sort() };
}

/** `/api`: the core group's versions and where to reach the server. */
export function apiVersions(serverAddress: string): GoJsonValue {
	return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }] };
}

const groupVersionEntry = (g: { name: string; version: string }) => ({ groupVersion: `${g.name}/${g.version}`, version: g.version });

/** `/apis`. */
export function apiGroupList(apiServices: ApiServiceLookup = NO_API_SERVICES): GoJsonValue {
	return { kind: 'APIGroupList', apiVersion: 'v1', groups: servedGroups(apiServices).map((g) => ({ name: g.name, versions: [groupVersionEntry(g)], preferredVersion: groupVersionEntry(g) })) };
}

/** `/apis/<group>`, if served. */
export function apiGroup(name: string, apiServices: ApiServiceLookup = NO_API_SERVICES): GoJsonValue | undefined {
	const g = servedGroups(apiServices).find((x) => x.name === name);
	return g ? { kind: 'APIGroup', apiVersion: 'v1', name: g.name, versions: [groupVersionEntry(g)], preferredVersion: groupVersionEntry(g) } : undefined;
}

/** One APIResource entry (metav1.APIResource field order). */
function entry(info: Pick<ResourceInfo, 'resource' | 'singular' | 'namespaced' | 'kind' | 'verbs' | 'shortNames' | 'categories'>): GoJsonValue {
	return {
		name: info.resource,
		singularName: info.singular,
		namespaced: info.namespaced,
		kind: info.kind,
		verbs: [...info.verbs],
		shortNames: info.shortNames.length ? [...info.shortNames] : undefined,
		categories: info.categories?.length ? [...info.categories] : undefined,
	};
}

/** `/api/v1` or `/apis/<group>/<version>`, if served. The core list carries no apiVersion (legacy handler). */
export function apiResourceList(group: string, version: string): GoJsonValue | undefined {
	const infos = RESOURCES.filter((r) => r.group === group && r.version === version);
	if (!infos.length) return undefined;
	const schema = apiResources();
	const entries: Array<{ name: string; value: GoJsonValue }> = [];
	for (const info of infos) {
		entries.push({ name: info.resource, value: entry(info) });
		const described = schema.find((r) => r.group === group && r.name === info.resource);
		for (const sub of described?.subresources ?? []) {
			const [subGroup, subVersion] = sub.apiVersion.includes('/') ? sub.apiVersion.split('/') : ['', sub.apiVersion];
			const differs = sub.apiVersion !== (group ? `${group}/${version}` : version);
			entries.push({
				name: sub.name,
				value: {
					name: sub.name,
					singularName: '',
					namespaced: info.namespaced,
					group: differs ? subGroup : undefined,
					version: differs ? subVersion : undefined,
					kind: sub.kind,
					verbs: [...sub.verbs],
				},
			});
		}
	}
	entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	const resources = entries.map((e) => e.value);
	return group ? { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${group}/${version}`, resources } : { kind: 'APIResourceList', groupVersion: version, resources };
}
