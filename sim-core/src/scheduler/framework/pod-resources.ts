/**
 * How much a pod asks for, computed the way the scheduler computes it:
 * component-helpers/resource `PodRequests` (containers summed, init
 * containers taken as a maximum, restartable "sidecar" init containers
 * added to both, then the pod overhead), and pkg/scheduler/util
 * pod_resources.go for the default requests used when scoring.
 *
 * Quantities are summed exactly (./api/quantity.ts) and converted at the
 * end, as upstream converts `resource.Quantity` to int64 at the end:
 * CPU as milli-cores (MilliValue), everything else as whole units (Value).
 */
import type { Container, KubeObject, PodSpec } from '../../api/types.ts';
import { Quantity } from '../../api/quantity.ts';

/**
 * The CPU request assumed for a container that sets none, when scoring:
 * 100 millicores (pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest).
 */
export const DEFAULT_MILLI_CPU_REQUEST = 100;
/**
 * The memory request assumed for a container that sets none, when scoring:
 * 200 MiB = 200 × 1024 × 1024 bytes (pod_resources.go DefaultMemoryRequest;
 * its comment says "200 MB").
 */
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** A resource list of exact quantities, keyed by resource name. */
export type QuantityList = Map<string, Quantity>;

const ZERO = Quantity.fromValue(0);

/** resource.ParseQuantity of a request value; an unparsable value counts as zero (API validation rejects it earlier). */
export function parseRequestQuantity(value: string | number | undefined): Quantity {
	if (value === undefined) return ZERO;
	try {
		return Quantity.parse(String(value));
	} catch {
		return ZERO;
	}
}

function toList(requests: Record<string, string | number> | undefined): QuantityList {
	const list: QuantityList = new Map();
	for (const [name, value] of Object.entries(requests ?? {})) list.set(name, parseRequestQuantity(value));
	return list;
}

function addInto(target: QuantityList, add: QuantityList): void {
	for (const [name, q] of add) target.set(name, (target.get(name) ?? ZERO).add(q));
}

function maxInto(target: QuantityList, other: QuantityList): void {
	for (const [name, q] of other) {
		const current = target.get(name);
		if (!current || q.cmp(current) > 0) target.set(name, q);
	}
}

/** Options of PodRequests that the scheduler uses. */
export interface PodRequestsOptions {
	/**
	 * Requests filled in for containers that do not set the key
	 * (NonMissingContainerRequests): an explicit 0 stays 0.
	 */
	nonMissingContainerRequests?: QuantityList;
}

function containerRequests(container: Container, opts: PodRequestsOptions): QuantityList {
	const reqs = toList(container.resources?.requests);
	if (opts.nonMissingContainerRequests) {
		for (const [name, q] of opts.nonMissingContainerRequests) if (!reqs.has(name)) reqs.set(name, q);
	}
	return reqs;
}

/**
 * resource.PodRequests (k8s.io/component-helpers/resource/helpers.go):
 * sum of the app containers; each init container's need is its own
 * request plus the restartable init containers started before it; the pod
 * needs the larger of the two; then the pod overhead is added.
 */
export function podRequests(spec: PodSpec, opts: PodRequestsOptions = {}): QuantityList {
	const reqs: QuantityList = new Map();
	for (const container of spec.containers ?? []) addInto(reqs, containerRequests(container, opts));
	const restartable: QuantityList = new Map();
	const initMax: QuantityList = new Map();
	for (const container of spec.initContainers ?? []) {
		let need = containerRequests(container, opts);
		if (container.restartPolicy === 'Always') {
			addInto(reqs, need);
			addInto(restartable, need);
			need = new Map(restartable);
		} else {
			const tmp: QuantityList = new Map();
			addInto(tmp, need);
			addInto(tmp, restartable);
			need = tmp;
		}
		maxInto(initMax, need);
	}
	maxInto(reqs, initMax);
	const overhead = (spec as { overhead?: Record<string, string | number> }).overhead;
	if (overhead) addInto(reqs, toList(overhead));
	return reqs;
}

/** The defaults the scheduler fills in for scoring (pod_resources.go). */
export const NON_ZERO_DEFAULTS: QuantityList = new Map([
	['cpu', Quantity.fromMilli(DEFAULT_MILLI_CPU_REQUEST)],
	['memory', Quantity.fromValue(DEFAULT_MEMORY_REQUEST)],
]);

/** v1helper.IsPrefixedNativeResource: names under kubernetes.io/. */
export function isPrefixedNativeResource(name: string): boolean {
	return name.includes('kubernetes.io/');
}

/** v1helper.IsNativeResource: no domain, or the kubernetes.io domain. */
export function isNativeResource(name: string): boolean {
	return !name.includes('/') || isPrefixedNativeResource(name);
}

/** v1helper.IsExtendedResourceName: a domain-qualified name outside kubernetes.io (e.g. nvidia.com/gpu). */
export function isExtendedResourceName(name: string): boolean {
	return !isNativeResource(name) && !name.startsWith('requests.');
}

/** v1helper.IsHugePageResourceName. */
export function isHugePageResourceName(name: string): boolean {
	return name.startsWith('hugepages-');
}

/** schedutil.IsScalarResourceName: resources the scheduler tracks besides cpu, memory, ephemeral-storage and pods. */
export function isScalarResourceName(name: string): boolean {
	return isExtendedResourceName(name) || isHugePageResourceName(name) || isPrefixedNativeResource(name) || name.startsWith('attachable-volumes-');
}

/**
 * framework.Resource: CPU in millicores, the rest in whole units, plus the
 * number of pods a node allows. Plain data, owned by whoever built it.
 */
export interface Resource {
	milliCPU: number;
	memory: number;
	ephemeralStorage: number;
	allowedPodNumber: number;
	scalar: Record<string, number>;
}

export function emptyResource(): Resource {
	return { milliCPU: 0, memory: 0, ephemeralStorage: 0, allowedPodNumber: 0, scalar: {} };
}

export function cloneResource(r: Resource): Resource {
	return { ...r, scalar: { ...r.scalar } };
}

/** Resource.Add of a resource list. */
export function addListToResource(r: Resource, list: QuantityList): void {
	for (const [name, q] of list) {
		switch (name) {
			case 'cpu':
				r.milliCPU += q.milliValue();
				break;
			case 'memory':
				r.memory += q.value();
				break;
			case 'pods':
				r.allowedPodNumber += q.value();
				break;
			case 'ephemeral-storage':
				r.ephemeralStorage += q.value();
				break;
			default:
				if (isScalarResourceName(name)) r.scalar[name] = (r.scalar[name] ?? 0) + q.value();
		}
	}
}

/** framework.NewResource of a resource list (e.g. a node's allocatable). */
export function resourceFromList(list: Record<string, string | number> | undefined): Resource {
	const r = emptyResource();
	addListToResource(r, toList(list));
	return r;
}

/** What one pod contributes to a node: real requests, and the non-zero CPU and memory used for scoring (NodeInfo calculateResource). */
export interface PodResource {
	requested: Resource;
	nonZeroMilliCPU: number;
	nonZeroMemory: number;
}

export function calculatePodResource(pod: KubeObject & { spec: PodSpec }): PodResource {
	const requested = emptyResource();
	addListToResource(requested, podRequests(pod.spec));
	const nonZero = podRequests(pod.spec, { nonMissingContainerRequests: NON_ZERO_DEFAULTS });
	return {
		requested,
		nonZeroMilliCPU: (nonZero.get('cpu') ?? ZERO).milliValue(),
		nonZeroMemory: (nonZero.get('memory') ?? ZERO).value(),
	};
}

/**
 * One resource of a pod's request as the resource-allocation scorers see it
 * (resource_allocation.go calculatePodResourceRequest): CPU in millicores,
 * others in units; with `useRequested` false the 100m / 200Mi defaults fill
 * in containers that set no request.
 */
export function podResourceRequest(spec: PodSpec, resource: string, useRequested: boolean): number {
	const list = podRequests(spec, useRequested ? {} : { nonMissingContainerRequests: NON_ZERO_DEFAULTS });
	const q = list.get(resource);
	if (!q) return 0;
	return resource === 'cpu' ? q.milliValue() : q.value();
}
