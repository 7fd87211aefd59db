/**
 * The scoring core shared by NodeResourcesFit's strategies and by
 * NodeResourcesBalancedAllocation: for each configured resource, the node's
 * allocatable, what is already allocated on it, and what would be requested
 * with the incoming pod. The arithmetic is integer where upstream uses int64
 * (Go division truncates toward zero).
 *
 * An extended resource the pod does not request is left out (its
 * allocatable reads as 0, and every scorer skips allocatable 0), as are
 * resources the node does not have.
 *
 * Mirrors
 * pkg/scheduler/framework/plugins/noderesources/resource_allocation.go,
 * pkg/scheduler/framework/plugins/noderesources/least_allocated.go,
 * pkg/scheduler/framework/plugins/noderesources/most_allocated.go,
 * pkg/scheduler/framework/plugins/noderesources/requested_to_capacity_ratio.go,
 * pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go (the
 * v1.36 scorer).
 */
import type { PodSpec } from '../../api/types.ts';
import { MAX_NODE_SCORE } from '../framework/interface.ts';
import { isScalarResourceName, podResourceRequest } from '../framework/pod-resources.ts';
import type { NodeInfo } from '../framework/types.ts';
import { buildBrokenLinearFunction, type FunctionShapePoint } from './helper/shape-score.ts';

/** config.ResourceSpec. */
export interface ResourceSpec {
	name: string;
	weight: number;
}

/** config.UtilizationShapePoint: utilization 0..100, score 0..10. */
export interface UtilizationShapePoint {
	utilization: number;
	score: number;
}

/** config.MaxCustomPriorityScore: shape scores are 0..10, scaled by MaxNodeScore / 10. */
const MAX_CUSTOM_PRIORITY_SCORE = 10;
/** requested_to_capacity_ratio.go maxUtilization. */
const MAX_UTILIZATION = 100;

/**
 * A scorer sees, per configured resource (0 = left out): the requested
 * amount with the pod, the amount allocated before it, and the allocatable.
 */
export type Scorer = (requested: number[], allocated: number[], allocatable: number[]) => number;

/** The per-resource requests of the incoming pod (calculatePodResourceRequestList). */
export function podResourceRequestList(spec: PodSpec, resources: ResourceSpec[], useRequested: boolean): number[] {
	return resources.map((r) => podResourceRequest(spec, r.name, useRequested));
}

/**
 * calculateResourceAllocatableRequest: CPU and memory come from the
 * non-zero totals unless `useRequested`; other resources from the real
 * totals. Returns [allocatable, allocated].
 */
function allocatableAndAllocated(nodeInfo: NodeInfo, resource: string, podRequest: number, useRequested: boolean): [number, number] {
	const requested = useRequested ? nodeInfo.requested : nodeInfo.nonZeroRequested;
	if (podRequest === 0 && isScalarResourceName(resource)) return [0, 0];
	switch (resource) {
		case 'cpu':
			return [nodeInfo.allocatable.milliCPU, requested.milliCPU];
		case 'memory':
			return [nodeInfo.allocatable.memory, requested.memory];
		case 'ephemeral-storage':
			return [nodeInfo.allocatable.ephemeralStorage, nodeInfo.requested.ephemeralStorage];
		default:
			if (Object.hasOwn(nodeInfo.allocatable.scalar, resource)) return [nodeInfo.allocatable.scalar[resource], nodeInfo.requested.scalar[resource] ?? 0];
			return [0, 0];
	}
}

/** resourceAllocationScorer.score. */
export function resourceAllocationScore(nodeInfo: NodeInfo, resources: ResourceSpec[], podRequests: number[], useRequested: boolean, scorer: Scorer): number {
	const n = resources.length;
	const requested = new Array<number>(n);
	const allocated = new Array<number>(n);
	const allocatable = new Array<number>(n);
	for (let i = 0; i < n; i++) {
		const [alloc, already] = allocatableAndAllocated(nodeInfo, resources[i].name, podRequests[i], useRequested);
		if (alloc === 0) {
			requested[i] = allocated[i] = allocatable[i] = 0;
			continue;
		}
		allocatable[i] = alloc;
		allocated[i] = already;
		requested[i] = already + podRequests[i];
	}
	return scorer(requested, allocated, allocatable);
}

/** leastRequestedScore: the free share of the node after the pod, 0..100. */
function leastRequestedScore(requested: number, capacity: number): number {
	if (capacity === 0 || requested > capacity) return 0;
	return Math.trunc(((capacity - requested) * MAX_NODE_SCORE) / capacity);
}

/** mostRequestedScore: the used share, 0..100 (requested above capacity counts as full). */
function mostRequestedScore(requested: number, capacity: number): number {
	if (capacity === 0) return 0;
	return Math.trunc((Math.min(requested, capacity) * MAX_NODE_SCORE) / capacity);
}

function weightedAverage(resources: ResourceSpec[], perResource: (i: number) => number | undefined, allocatable: number[]): number {
	let nodeScore = 0;
	let weightSum = 0;
	for (let i = 0; i < resources.length; i++) {
		if (allocatable[i] === 0) continue;
		const score = perResource(i);
		if (score === undefined) continue;
		nodeScore += score * resources[i].weight;
		weightSum += resources[i].weight;
	}
	return weightSum === 0 ? 0 : Math.trunc(nodeScore / weightSum);
}

/** leastResourceScorer: Σ(score × weight) / Σweight. */
export function leastResourceScorer(resources: ResourceSpec[]): Scorer {
	return (requested, _allocated, allocatable) => weightedAverage(resources, (i) => leastRequestedScore(requested[i], allocatable[i]), allocatable);
}

/** mostResourceScorer: Σ(score × weight) / Σweight. */
export function mostResourceScorer(resources: ResourceSpec[]): Scorer {
	return (requested, _allocated, allocatable) => weightedAverage(resources, (i) => mostRequestedScore(requested[i], allocatable[i]), allocatable);
}

/** scaledUtilization: requested × max / capacity, requested clamped to [0, capacity]. */
function scaledUtilization(requested: number, capacity: number, max: number): number {
	if (capacity <= 0 || requested <= 0) return 0;
	if (requested >= capacity) return max;
	return Math.trunc((requested * max) / capacity);
}

/**
 * requestedToCapacityRatioScorer: the utilization (0..100) through the
 * shape (scores 0..10 scaled to 0..100); only resources scoring above 0
 * enter the weighted average, which is rounded (math.Round).
 */
export function requestedToCapacityRatioScorer(resources: ResourceSpec[], shape: UtilizationShapePoint[]): Scorer {
	const points: FunctionShapePoint[] = shape.map((p) => ({ utilization: p.utilization, score: p.score * (MAX_NODE_SCORE / MAX_CUSTOM_PRIORITY_SCORE) }));
	const raw = buildBrokenLinearFunction(points);
	const resourceScore = (requested: number, capacity: number) => (capacity === 0 || requested > capacity ? raw(MAX_UTILIZATION) : raw(scaledUtilization(requested, capacity, MAX_UTILIZATION)));
	return (requested, _allocated, allocatable) => {
		let nodeScore = 0;
		let weightSum = 0;
		for (let i = 0; i < resources.length; i++) {
			if (allocatable[i] === 0) continue;
			const score = resourceScore(requested[i], allocatable[i]);
			if (score > 0) {
				nodeScore += score * resources[i].weight;
				weightSum += resources[i].weight;
			}
		}
		if (weightSum === 0) return 0;
		// Go's math.Round rounds half away from zero; scores are never negative here.
		return Math.round(nodeScore / weightSum);
	};
}

/**
 * The balance of a node's usage before v1.36 (balancedResourceScorer):
 * each resource's fraction requested/allocatable (capped at 1); for two
 * resources std = |f1 − f2| / 2, for more the population standard
 * deviation; score = int((1 − std) × 100), truncated. Floating point, as
 * upstream computes it.
 */
export function balanceScore(requested: number[], allocatable: number[]): number {
	const fractions: number[] = [];
	let total = 0;
	for (let i = 0; i < requested.length; i++) {
		if (allocatable[i] === 0) continue;
		const fraction = Math.min(requested[i] / allocatable[i], 1);
		total += fraction;
		fractions.push(fraction);
	}
	let std = 0;
	if (fractions.length === 2) {
		std = Math.abs((fractions[0] - fractions[1]) / 2);
	} else if (fractions.length > 2) {
		const mean = total / fractions.length;
		let sum = 0;
		for (const f of fractions) sum = sum + (f - mean) * (f - mean);
		std = Math.sqrt(sum / fractions.length);
	}
	return Math.trunc((1 - std) * MAX_NODE_SCORE);
}

/**
 * The v1.36 BalancedAllocation scorer (kubernetes/kubernetes#135573): it
 * scores the change in balance the pod brings, `50 + (50 + with − without)
 * / 2` in integer arithmetic, where with/without are balanceScore after and
 * before the pod. 75 means the balance did not change; toward 100 the pod
 * improves it, toward 50 it worsens it.
 */
export const balancedResourceScorer: Scorer = (requested, allocated, allocatable) => {
	const withPod = balanceScore(requested, allocatable);
	const withoutPod = balanceScore(allocated, allocatable);
	return MAX_NODE_SCORE / 2 + Math.trunc((MAX_NODE_SCORE / 2 + withPod - withoutPod) / 2);
};
