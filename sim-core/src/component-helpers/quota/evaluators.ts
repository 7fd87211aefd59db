/**
 * What each kind of object costs a ResourceQuota, shared by the API
 * server's ResourceQuota admission (which charges a write before it is
 * stored) and kube-controller-manager's resourcequota-controller (which
 * recounts a namespace and releases what deleted or finished objects held):
 *
 * - Pods: `pods`, `count/pods`, cpu and memory requests (`cpu`,
 *   `requests.cpu`, ...) and limits, ephemeral storage, hugepages and
 *   `requests.<extended resource>`. A Pod that has finished (Succeeded or
 *   Failed) or is past its deletion grace keeps only its `count/pods`.
 *   Quotas may narrow the Pods they count by scope (Terminating,
 *   BestEffort, PriorityClass, ...); a quota on cpu or memory demands that
 *   every container says how much it wants.
 * - Services: `services`, `services.nodeports` (each port of a NodePort or
 *   LoadBalancer Service), `services.loadbalancers`.
 * - PersistentVolumeClaims: `persistentvolumeclaims`, `requests.storage`,
 *   and both per StorageClass (`gold.storageclass.storage.k8s.io/requests.storage`).
 * - Anything else: one per object, as `count/<resource>.<group>` (and the
 *   legacy names `configmaps`, `secrets`, `replicationcontrollers`,
 *   `resourcequotas`), charged on create only.
 *
 * Mirrors pkg/quota/v1/evaluator/core/pods.go, services.go,
 * persistent_volume_claims.go, registry.go,
 * staging/src/k8s.io/apiserver/pkg/quota/v1/generic/evaluator.go
 * (ObjectCountQuotaResourceNameFor, Matches, CalculateUsageStats).
 */
import type { KubeObject, PodSpec } from '../../api/types.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { computePodQOS } from '../qos.ts';
import { parseQuantityOrZero, podLimits, podRequests, toResourceList } from '../resource.ts';
import { one, type QuotaList } from './resources.ts';

/** A quota's scope as a selector requirement (spec.scopes become `Exists`). */
export interface ScopeRequirement {
	scopeName: string;
	operator: 'In' | 'NotIn' | 'Exists' | 'DoesNotExist';
	values?: string[];
}

export interface QuotaEvaluator {
	readonly group: string;
	readonly resource: string;
	/** Whether this write can change what the object costs (Handles). */
	handles(operation: 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT', subresource: string | undefined): boolean;
	/** The names among a quota's hard limits that this kind of object uses. */
	matchingResources(names: readonly string[]): string[];
	/** What one object costs. `nowMs` decides whether a deleted Pod's grace has run out. */
	usage(obj: KubeObject, nowMs: number): QuotaList;
	/** Whether the object falls under one scope of a quota (false for kinds that know no scopes). */
	matchesScope(scope: ScopeRequirement, obj: KubeObject): boolean;
	/** Why the object may not be admitted under a quota limiting `required`, or undefined. */
	constraints?(required: readonly string[], obj: KubeObject): string | undefined;
}

/** ObjectCountQuotaResourceNameFor: `count/pods`, `count/deployments.apps`. */
export function objectCountName(group: string, resource: string): string {
	return group ? `count/${resource}.${group}` : `count/${resource}`;
}

/** The object count names that predate `count/`, by resource (legacyObjectCountAliases). */
const LEGACY_COUNT_NAMES: Readonly<Record<string, string>> = {
	configmaps: 'configmaps',
	resourcequotas: 'resourcequotas',
	replicationcontrollers: 'replicationcontrollers',
	secrets: 'secrets',
};

/** The scopes of a quota: spec.scopes as `Exists`, then spec.scopeSelector's expressions. */
export function quotaScopes(quota: KubeObject): ScopeRequirement[] {
	const spec = (quota.spec ?? {}) as { scopes?: string[]; scopeSelector?: { matchExpressions?: ScopeRequirement[] } };
	const out: ScopeRequirement[] = (spec.scopes ?? []).map((scopeName) => ({ scopeName, operator: 'Exists' }));
	for (const expression of spec.scopeSelector?.matchExpressions ?? []) out.push(expression);
	return out;
}

/** generic.Matches: the quota limits something this object uses, and the object is in every scope. */
export function quotaMatches(evaluator: QuotaEvaluator, quota: KubeObject, obj: KubeObject): boolean {
	const hard = Object.keys(((quota.status ?? {}) as { hard?: Record<string, string> }).hard ?? {});
	if (evaluator.matchingResources(hard).length === 0) return false;
	return quotaScopes(quota).every((scope) => evaluator.matchesScope(scope, obj));
}

// ---- the generic object count --------------------------------------------------------

function objectCountEvaluator(group: string, resource: string): QuotaEvaluator {
	const names = [objectCountName(group, resource)];
	if (!group && LEGACY_COUNT_NAMES[resource]) names.push(LEGACY_COUNT_NAMES[resource]);
	return {
		group,
		resource,
		handles: (operation) => operation === 'CREATE',
		matchingResources: (hard) => hard.filter((name) => names.includes(name)),
		usage: () => new Map(names.map((name) => [name, one()])),
		matchesScope: () => false,
	};
}

// ---- Pods ------------------------------------------------------------------------------------

const POD_COUNT = objectCountName('', 'pods');
const POD_RESOURCES = [POD_COUNT, 'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory', 'limits.ephemeral-storage', 'pods'];
/** The cpu and memory names that oblige every container to state its own value (a historical mistake upstream keeps). */
const VALIDATION_SET = new Set(['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory']);

/** IsNativeResource: no domain, or a kubernetes.io one. */
function isNativeResource(name: string): boolean {
	const slash = name.indexOf('/');
	return slash < 0 || name.slice(0, slash).endsWith('kubernetes.io');
}

/** IsExtendedResourceName: a domain-qualified name outside kubernetes.io, not itself a `requests.` name. */
function isExtendedResourceName(name: string): boolean {
	return !isNativeResource(name) && !name.startsWith('requests.');
}

/** podComputeUsageHelper: the quota names a set of requests and limits fills. */
function computeUsage(req: QuotaList, limits: QuotaList): QuotaList {
	const result: QuotaList = new Map([['pods', one()]]);
	for (const resource of ['cpu', 'memory', 'ephemeral-storage']) {
		const request = req.get(resource);
		if (request) {
			result.set(resource, request);
			result.set(`requests.${resource}`, request);
		}
		const limit = limits.get(resource);
		if (limit) result.set(`limits.${resource}`, limit);
	}
	for (const [resource, request] of req) {
		if (resource.startsWith('hugepages-')) {
			result.set(resource, request);
			result.set(`requests.${resource}`, request);
		}
		if (isExtendedResourceName(resource)) result.set(`requests.${resource}`, request);
	}
	return result;
}

/** QuotaV1Pod: whether a Pod still holds compute quota (not finished, not past its deletion grace). */
export function podHoldsQuota(pod: KubeObject, nowMs: number): boolean {
	const phase = (pod.status as { phase?: string } | undefined)?.phase;
	if (phase === 'Succeeded' || phase === 'Failed') return false;
	const { deletionTimestamp, deletionGracePeriodSeconds } = pod.metadata;
	if (deletionTimestamp && deletionGracePeriodSeconds !== undefined) {
		if (nowMs > parseRfc3339(deletionTimestamp) + deletionGracePeriodSeconds * 1000) return false;
	}
	return true;
}

function podSpec(obj: KubeObject): PodSpec {
	return (obj.spec ?? { containers: [] }) as PodSpec;
}

/** Pod affinity terms that look beyond the Pod's own namespace. */
function usesCrossNamespaceAffinity(spec: PodSpec): boolean {
	const affinity = spec.affinity as { podAffinity?: AffinityGroup; podAntiAffinity?: AffinityGroup } | undefined;
	const crosses = (term: { namespaces?: string[]; namespaceSelector?: unknown }) => (term.namespaces?.length ?? 0) > 0 || (term.namespaceSelector !== undefined && term.namespaceSelector !== null);
	return [affinity?.podAffinity, affinity?.podAntiAffinity].some(
		(group) => (group?.requiredDuringSchedulingIgnoredDuringExecution ?? []).some(crosses) || (group?.preferredDuringSchedulingIgnoredDuringExecution ?? []).some((w) => crosses(w.podAffinityTerm ?? {})),
	);
}
interface AffinityGroup {
	requiredDuringSchedulingIgnoredDuringExecution?: { namespaces?: string[]; namespaceSelector?: unknown }[];
	preferredDuringSchedulingIgnoredDuringExecution?: { podAffinityTerm?: { namespaces?: string[]; namespaceSelector?: unknown } }[];
}

/** podMatchesScopeFunc. */
function podMatchesScope(scope: ScopeRequirement, obj: KubeObject): boolean {
	const spec = podSpec(obj);
	const terminating = spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds >= 0;
	switch (scope.scopeName) {
		case 'Terminating':
			return terminating;
		case 'NotTerminating':
			return !terminating;
		case 'BestEffort':
			return computePodQOS(spec) === 'BestEffort';
		case 'NotBestEffort':
			return computePodQOS(spec) !== 'BestEffort';
		case 'PriorityClass': {
			const name = spec.priorityClassName ?? '';
			switch (scope.operator) {
				case 'Exists':
					return name !== '';
				case 'DoesNotExist':
					return name === '';
				case 'In':
					return name !== '' && (scope.values ?? []).includes(name);
				case 'NotIn':
					return name === '' || !(scope.values ?? []).includes(name);
			}
			return false;
		}
		case 'CrossNamespacePodAffinity':
			return usesCrossNamespaceAffinity(spec);
	}
	return false;
}

const podEvaluator: QuotaEvaluator = {
	group: '',
	resource: 'pods',
	handles: (operation, subresource) => (!subresource && operation === 'CREATE') || (subresource === 'resize' && operation === 'UPDATE'),
	matchingResources: (hard) => hard.filter((name) => POD_RESOURCES.includes(name) || name.startsWith('hugepages-') || name.startsWith('requests.hugepages-') || (name.startsWith('requests.') && isExtendedResourceName(name.slice('requests.'.length)))),
	usage(obj, nowMs) {
		const result: QuotaList = new Map([[POD_COUNT, one()]]);
		if (!podHoldsQuota(obj, nowMs)) return result;
		const spec = podSpec(obj);
		for (const [name, value] of computeUsage(podRequests(spec), podLimits(spec))) result.set(name, value);
		return result;
	},
	matchesScope: podMatchesScope,
	constraints(required, obj) {
		const requiredSet = required.filter((name) => VALIDATION_SET.has(name));
		const missing = new Map<string, Set<string>>();
		const spec = podSpec(obj);
		for (const container of [...(spec.containers ?? []), ...(spec.initContainers ?? [])]) {
			const have = computeUsage(toResourceList(container.resources?.requests), toResourceList(container.resources?.limits));
			for (const name of requiredSet) {
				if (have.has(name)) continue;
				if (!missing.has(name)) missing.set(name, new Set());
				missing.get(name)!.add(container.name);
			}
		}
		if (missing.size === 0) return undefined;
		const parts = [...missing.keys()].sort().map((name) => `${name} for: ${[...missing.get(name)!].sort().join(',')}`);
		return `must specify ${parts.join('; ')}`;
	},
};

// ---- Services ---------------------------------------------------------------------------------

const SERVICE_RESOURCES = [objectCountName('', 'services'), 'services', 'services.nodeports', 'services.loadbalancers'];

interface ServiceSpecLike {
	type?: string;
	ports?: { nodePort?: number }[];
	allocateLoadBalancerNodePorts?: boolean;
}

const serviceEvaluator: QuotaEvaluator = {
	group: '',
	resource: 'services',
	handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
	matchingResources: (hard) => hard.filter((name) => SERVICE_RESOURCES.includes(name)),
	usage(obj) {
		const spec = (obj.spec ?? {}) as ServiceSpecLike;
		const result: QuotaList = new Map([
			[SERVICE_RESOURCES[0], one()],
			['services', one()],
		]);
		const ports = spec.ports ?? [];
		const count = (n: number) => parseQuantityOrZero(n);
		if (spec.type === 'NodePort') result.set('services.nodeports', count(ports.length));
		if (spec.type === 'LoadBalancer') {
			// Without node ports for the load balancer, only the ports that name one are counted.
			result.set('services.nodeports', count(spec.allocateLoadBalancerNodePorts === false ? ports.filter((p) => p.nodePort).length : ports.length));
			result.set('services.loadbalancers', one());
		}
		return result;
	},
	matchesScope: () => false,
};

/** GetQuotaServiceType: the type that decides a Service's cost (ClusterIP and the rest cost alike). */
export function quotaServiceType(obj: KubeObject): string {
	const type = ((obj.spec ?? {}) as ServiceSpecLike).type;
	return type === 'NodePort' || type === 'LoadBalancer' ? type : '';
}

// ---- PersistentVolumeClaims -------------------------------------------------------------------

const STORAGE_CLASS_SUFFIX = '.storageclass.storage.k8s.io/';
const PVC_RESOURCES = [objectCountName('', 'persistentvolumeclaims'), 'persistentvolumeclaims', 'requests.storage'];

/** The claim's StorageClass: spec.storageClassName, else the beta annotation. */
function claimClass(obj: KubeObject): string {
	const spec = (obj.spec ?? {}) as { storageClassName?: string };
	return spec.storageClassName ?? obj.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? '';
}

/** The storage a claim holds: its request, or what was allocated if more. */
export function claimStorage(obj: KubeObject): QuotaList {
	const spec = (obj.spec ?? {}) as { resources?: { requests?: Record<string, string> } };
	const status = (obj.status ?? {}) as { allocatedResources?: Record<string, string> };
	const request = spec.resources?.requests?.storage;
	const allocated = status.allocatedResources?.storage;
	const list: QuotaList = new Map();
	if (request === undefined && allocated === undefined) return list;
	const a = parseQuantityOrZero(request);
	const b = parseQuantityOrZero(allocated);
	list.set('requests.storage', allocated !== undefined && b.cmp(a) > 0 ? b : a);
	return list;
}

const pvcEvaluator: QuotaEvaluator = {
	group: '',
	resource: 'persistentvolumeclaims',
	handles: (operation) => operation === 'CREATE' || operation === 'UPDATE',
	matchingResources: (hard) =>
		hard.filter((name) => PVC_RESOURCES.includes(name) || (name.includes(STORAGE_CLASS_SUFFIX) && ['requests.storage', 'persistentvolumeclaims'].includes(name.slice(name.indexOf(STORAGE_CLASS_SUFFIX) + STORAGE_CLASS_SUFFIX.length)))),
	usage(obj) {
		const result: QuotaList = new Map([
			[PVC_RESOURCES[0], one()],
			['persistentvolumeclaims', one()],
		]);
		const className = claimClass(obj);
		if (className) result.set(`${className}${STORAGE_CLASS_SUFFIX}persistentvolumeclaims`, one());
		const storage = claimStorage(obj).get('requests.storage');
		if (storage) {
			result.set('requests.storage', storage);
			if (className) result.set(`${className}${STORAGE_CLASS_SUFFIX}requests.storage`, storage);
		}
		return result;
	},
	matchesScope: () => false,
};

// ---- the registry ---------------------------------------------------------------------------

const SPECIFIC: Readonly<Record<string, QuotaEvaluator>> = { pods: podEvaluator, services: serviceEvaluator, persistentvolumeclaims: pvcEvaluator };

/** The evaluator of a group resource: a specific one, else an object count. */
export function evaluatorFor(group: string, resource: string): QuotaEvaluator {
	return (!group && SPECIFIC[resource]) || objectCountEvaluator(group, resource);
}

/**
 * The group resources a set of hard limits involves: Pods for compute
 * names, Services and claims for theirs, the resource a `count/` name or a
 * legacy count name names.
 */
export function resourcesLimitedBy(hard: readonly string[]): { group: string; resource: string }[] {
	const out = new Map<string, { group: string; resource: string }>();
	const want = (group: string, resource: string) => out.set(`${resource}.${group}`, { group, resource });
	for (const evaluator of Object.values(SPECIFIC)) if (evaluator.matchingResources(hard).length) want(evaluator.group, evaluator.resource);
	for (const name of hard) {
		const legacy = Object.keys(LEGACY_COUNT_NAMES).find((resource) => LEGACY_COUNT_NAMES[resource] === name);
		if (legacy) want('', legacy);
		if (!name.startsWith('count/')) continue;
		const qualified = name.slice('count/'.length);
		const dot = qualified.indexOf('.');
		if (dot < 0) want('', qualified);
		else want(qualified.slice(dot + 1), qualified.slice(0, dot));
	}
	return [...out.values()];
}
