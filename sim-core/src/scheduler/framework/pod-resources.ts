/**
 * How much a pod asks for, as the scheduler counts it: the shared
 * PodRequests (../../component-helpers/resource.ts, the same numbers the
 * kubelet admits against) converted into the scheduler's framework.Resource,
 * and pkg/scheduler/util/pod_resources.go for the default requests used
 * when scoring.
 *
 * Quantities are summed exactly and converted at the end, as upstream
 * converts `resource.Quantity` to int64 at the end: CPU as milli-cores
 * (MilliValue), everything else as whole units (Value).
 *
 * Mirrors pkg/scheduler/framework/types.go (Resource),
 * pkg/scheduler/util/pod_resources.go (the default requests used when
 * scoring).
 */
import type { KubeObject, PodSpec } from '../../api/types.ts';
import { Quantity } from '../../api/quantity.ts';
import { podRequests, toResourceList, type ResourceList } from '../../component-helpers/resource.ts';


/**
 * The CPU request assumed for a container that sets none, when scoring:
 * 100 millicores (pkg/scheduler/util/pod_resources.go DefaultMilliCPURequest).
 */
const DEFAULT_MILLI_CPU_REQUEST = 100;
/**
 * The memory request assumed for a container that sets none, when scoring:
 * 200 MiB = 200 × 1024 × 1024 bytes (pod_resources.go DefaultMemoryRequest;
 * its comment says "200 MB").
 */
const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;

/** The defaults the scheduler fills in for scoring (pod_resources.go). */
const NON_ZERO_DEFAULTS: ResourceList = new Map([
	['cpu', Quantity.fromMilli(DEFAULT_MILLI_CPU_REQUEST)],
	['memory', Quantity.fromValue(DEFAULT_MEMORY_REQUEST)],
]);

/** v1helper.IsPrefixedNativeResource: names under kubernetes.io/. */
function isPrefixedNativeResource(name: string): boolean {
	return name.includes('kubernetes.io/');
}

/** v1helper.IsNativeResource: no domain, or the kubernetes.io domain. */
function isNativeResource(name: string): boolean {
	return !name.includes('/') || isPrefixedNativeResource(name);
}

/** v1helper.IsExtendedResourceName: a domain-qualified name outside kubernetes.io (e.g. nvidia.com/gpu). */
export function isExtendedResourceName(name: string): boolean {
	return !isNativeResource(name) && !name.startsWith('requests.');
}

/** v1helper.IsHugePageResourceName. */
function isHugePageResourceName(name: string): boolean {
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
export function addListToResource(r: Resource, list: ResourceList): void {
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
	addListToResource(r, toResourceList(list));
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
		nonZeroMilliCPU: nonZero.get('cpu')?.milliValue() ?? 0,
		nonZeroMemory: nonZero.get('memory')?.value() ?? 0,
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
