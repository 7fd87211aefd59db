import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/types.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { Code } from '../framework/status.ts';
import { makeNode, makePod, runScore, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { NodeResourcesFit, type NodeResourcesFitArgs } from './node-resources-fit.ts';
import type { ResourceSpec } from './resource-allocation.ts';
import { buildBrokenLinearFunction } from './helper/shape-score.ts';

// Upstream's tests write node CPU as "4000" (4000 cores) and memory in bytes;
// only the ratios matter. A pod with no containers requests nothing at all,
// so the 100m / 200Mi scoring defaults (which apply per container) do not kick in.
const node = (name: string, cpu: string, memory: string, extra: Record<string, string> = {}) => makeNode(name, { capacity: { cpu, memory, pods: '32', ...extra } });
let podCount = 0;
const pod = (requests: Array<Record<string, string>> = [], nodeName?: string): Pod => makePod(`p${++podCount}`, { requests, ...(nodeName ? { nodeName } : {}) });
const req = (cpu: string, memory: string): Record<string, string> => ({ cpu, memory });
const twoContainers = () => pod([req('1000', '2000'), req('2000', '3000')]);

const defaultResources: ResourceSpec[] = [
	{ name: 'cpu', weight: 1 },
	{ name: 'memory', weight: 1 },
];
const extendedRes = 'abc.com/xyz';
const extendedResourceSet: ResourceSpec[] = [...defaultResources, { name: extendedRes, weight: 1 }];

interface ScoreCase {
	name: string;
	requestedPod: Pod;
	nodes: ReturnType<typeof node>[];
	existingPods?: Pod[];
	resources: ResourceSpec[];
	expected: number[];
}

function scores(strategy: NonNullable<NodeResourcesFitArgs['scoringStrategy']>, c: ScoreCase): number[] {
	const plugin = new NodeResourcesFit({ scoringStrategy: strategy });
	const result = runScore(plugin, c.requestedPod, snapshotOf(c.nodes, c.existingPods ?? []));
	if (!Array.isArray(result)) throw new Error(`unexpected ${String(result)}`);
	return result.map((s) => s.score);
}

// TestLeastAllocatedScoringStrategy (least_allocated_test.go @008b3652).
const leastAllocatedCases: ScoreCase[] = [
	{ name: 'nothing scheduled, nothing requested', requestedPod: pod(), nodes: [node('node1', '4000', '10000'), node('node2', '4000', '10000')], resources: defaultResources, expected: [100, 100] },
	{ name: 'nothing scheduled, resources requested, differently sized nodes', requestedPod: twoContainers(), nodes: [node('node1', '4000', '10000'), node('node2', '6000', '10000')], resources: defaultResources, expected: [37, 50] },
	{ name: 'no resources requested, pods scheduled', requestedPod: pod(), nodes: [node('node1', '4000', '10000'), node('node2', '4000', '10000')], existingPods: [pod([], 'node1'), pod([], 'node1'), pod([], 'node2'), pod([], 'node2')], resources: defaultResources, expected: [100, 100] },
	{
		name: 'no resources requested, pods scheduled with resources',
		requestedPod: pod(),
		nodes: [node('node1', '10000', '20000'), node('node2', '10000', '20000')],
		existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '0')], 'node1'), pod([req('3000', '0')], 'node2'), pod([req('3000', '5000')], 'node2')],
		resources: defaultResources,
		expected: [70, 57],
	},
	{ name: 'resources requested, pods scheduled with resources', requestedPod: twoContainers(), nodes: [node('node1', '10000', '20000'), node('node2', '10000', '20000')], existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '5000')], 'node2')], resources: defaultResources, expected: [57, 45] },
	{ name: 'resources requested, pods scheduled with resources, differently sized nodes', requestedPod: twoContainers(), nodes: [node('node1', '10000', '20000'), node('node2', '10000', '50000')], existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '5000')], 'node2')], resources: defaultResources, expected: [57, 60] },
	{ name: 'requested resources exceed node capacity', requestedPod: pod([req('3000', '0')]), nodes: [node('node1', '4000', '10000'), node('node2', '4000', '10000')], existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '5000')], 'node2')], resources: defaultResources, expected: [50, 25] },
	{ name: 'zero node resources, pods scheduled with resources', requestedPod: pod(), nodes: [makeNode('node1'), makeNode('node2')], existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '5000')], 'node2')], resources: defaultResources, expected: [0, 0] },
	{
		name: 'nothing scheduled, resources requested with different weight on CPU and memory, differently sized nodes',
		requestedPod: twoContainers(),
		nodes: [node('node1', '4000', '10000'), node('node2', '6000', '10000')],
		resources: [
			{ name: 'memory', weight: 2 },
			{ name: 'cpu', weight: 1 },
		],
		expected: [41, 50],
	},
	{ name: 'bypass extended resource if the pod does not request', requestedPod: twoContainers(), nodes: [node('node1', '6000', '10000'), node('node2', '6000', '10000', { [extendedRes]: '4' })], resources: extendedResourceSet, expected: [50, 50] },
	{ name: 'honor extended resource if the pod requests', requestedPod: pod([{ cpu: '3000', memory: '5000', [extendedRes]: '2' }]), nodes: [node('node1', '6000', '10000', { [extendedRes]: '4' }), node('node2', '6000', '10000', { [extendedRes]: '10' })], resources: extendedResourceSet, expected: [50, 60] },
	{
		name: "if the node doesn't have a resource",
		requestedPod: pod([req('3000', '4000')]),
		nodes: [node('node1', '6000', '10000'), node('node2', '6000', '10000', { [extendedRes]: '4' })],
		resources: [{ name: extendedRes, weight: 2 }, ...defaultResources],
		expected: [55, 55],
	},
];

// TestMostAllocatedScoringStrategy (most_allocated_test.go @030880a5).
const mostAllocatedCases: ScoreCase[] = [
	{ name: 'nothing scheduled, nothing requested', requestedPod: pod(), nodes: [node('node1', '4000', '10000'), node('node2', '4000', '10000')], resources: defaultResources, expected: [0, 0] },
	{ name: 'nothing scheduled, resources requested, differently sized nodes', requestedPod: twoContainers(), nodes: [node('node1', '4000', '10000'), node('node2', '6000', '10000')], resources: defaultResources, expected: [62, 50] },
	{
		name: 'no resources requested, pods scheduled with resources',
		requestedPod: pod(),
		nodes: [node('node1', '10000', '20000'), node('node2', '10000', '20000')],
		existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '0')], 'node1'), pod([req('3000', '0')], 'node2'), pod([req('3000', '5000')], 'node2')],
		resources: defaultResources,
		expected: [30, 42],
	},
	{ name: 'resources requested, pods scheduled with resources', requestedPod: twoContainers(), nodes: [node('node1', '10000', '20000'), node('node2', '10000', '20000')], existingPods: [pod([req('3000', '0')], 'node1'), pod([req('3000', '5000')], 'node2')], resources: defaultResources, expected: [42, 55] },
	{ name: 'resources requested equal node capacity', requestedPod: pod([req('2000', '4000'), req('3000', '5000')]), nodes: [node('node1', '5000', '10000'), node('node2', '10000', '9000')], resources: defaultResources, expected: [95, 75] },
	{
		name: 'nothing scheduled, resources requested, differently sized nodes, memory weighted 2',
		requestedPod: twoContainers(),
		nodes: [node('node1', '4000', '10000'), node('node2', '6000', '10000')],
		resources: [
			{ name: 'memory', weight: 2 },
			{ name: 'cpu', weight: 1 },
		],
		expected: [58, 50],
	},
	{
		// The containers set no requests, so the 100m / 200Mi defaults count: node1 300m of 250m (capped) and 600Mi of 1000Mi.
		name: 'no resources requested, pods scheduled, nonzero request for resource',
		requestedPod: makePod('incoming', { containers: [{ name: 'container', image: 'pause' }] }),
		nodes: [node('node1', '250m', '1000Mi'), node('node2', '250m', '1000Mi')],
		existingPods: [makePod('e1', { nodeName: 'node1', containers: [{ name: 'container', image: 'pause' }] }), makePod('e2', { nodeName: 'node1', containers: [{ name: 'container', image: 'pause' }] })],
		resources: defaultResources,
		expected: [80, 30],
	},
	{ name: 'bypass extended resource if the pod does not request', requestedPod: twoContainers(), nodes: [node('node1', '6000', '10000'), node('node2', '6000', '10000', { [extendedRes]: '4' })], resources: extendedResourceSet, expected: [50, 50] },
	{ name: 'honor extended resource if the pod request', requestedPod: pod([{ cpu: '3000', memory: '5000', [extendedRes]: '2' }]), nodes: [node('node1', '6000', '10000', { [extendedRes]: '4' }), node('node2', '6000', '10000', { [extendedRes]: '10' })], resources: extendedResourceSet, expected: [50, 40] },
	{
		name: "if the node doesn't have a resource",
		requestedPod: pod([req('3000', '4000')]),
		nodes: [node('node1', '6000', '10000'), node('node2', '6000', '10000', { [extendedRes]: '4' })],
		resources: [{ name: extendedRes, weight: 2 }, ...defaultResources],
		expected: [45, 45],
	},
];

// TestRequestedToCapacityRatioScoringStrategy (requested_to_capacity_ratio_test.go @00b9ead0), shape {0→10, 100→0}.
const shape = [
	{ utilization: 0, score: 10 },
	{ utilization: 100, score: 0 },
];
const rtcrCases: ScoreCase[] = [
	{ name: 'nothing scheduled, nothing requested (default - least requested nodes have priority)', requestedPod: pod(), nodes: [node('node1', '4000', '10000'), node('node2', '4000', '10000')], existingPods: [pod([], 'node1'), pod([], 'node1')], resources: defaultResources, expected: [100, 100] },
	{ name: 'nothing scheduled, resources requested, differently sized nodes (default - least requested nodes have priority)', requestedPod: twoContainers(), nodes: [node('node1', '4000', '10000'), node('node2', '6000', '10000')], existingPods: [pod([], 'node1'), pod([], 'node1')], resources: defaultResources, expected: [38, 50] },
	{ name: 'no resources requested, pods scheduled with resources (default - least requested nodes have priority)', requestedPod: pod(), nodes: [node('node1', '4000', '10000'), node('node2', '6000', '10000')], existingPods: [pod([req('3000', '5000')], 'node1'), pod([req('3000', '5000')], 'node2')], resources: defaultResources, expected: [38, 50] },
];

describe('NodeResourcesFit scoring', () => {
	it.each(leastAllocatedCases)('LeastAllocated: $name', (c) => {
		expect(scores({ type: 'LeastAllocated', resources: c.resources }, c)).toEqual(c.expected);
	});

	it.each(mostAllocatedCases)('MostAllocated: $name', (c) => {
		expect(scores({ type: 'MostAllocated', resources: c.resources }, c)).toEqual(c.expected);
	});

	it.each(rtcrCases)('RequestedToCapacityRatio: $name', (c) => {
		expect(scores({ type: 'RequestedToCapacityRatio', resources: c.resources, requestedToCapacityRatio: { shape } }, c)).toEqual(c.expected);
	});

	// TestResourceBinPackingSingleExtended: shape {0→0, 100→1} on intel.com/foo only.
	it.each([
		{ name: 'nothing scheduled, nothing requested', podReq: [] as Array<Record<string, string>>, existing: [] as Pod[], expected: [0, 0] },
		{ name: 'resources requested, pods scheduled with less resources', podReq: [{ 'intel.com/foo': '2' }], existing: [pod()], expected: [2, 5] },
		{ name: 'resources requested, pods scheduled with resources, on node with existing pod running', podReq: [{ 'intel.com/foo': '2' }], existing: [pod([{ 'intel.com/foo': '2' }], 'node2')], expected: [2, 10] },
		{ name: 'resources requested, pods scheduled with more resources', podReq: [{ 'intel.com/foo': '4' }], existing: [pod()], expected: [5, 10] },
	])('RequestedToCapacityRatio bin packing on one extended resource: $name', ({ podReq, existing, expected }) => {
		const nodes = [node('node1', '4000m', String(10000 * 1024 * 1024), { 'intel.com/foo': '8' }), node('node2', '4000m', String(10000 * 1024 * 1024), { 'intel.com/foo': '4' })];
		const plugin = new NodeResourcesFit({
			scoringStrategy: {
				type: 'RequestedToCapacityRatio',
				resources: [{ name: 'intel.com/foo', weight: 1 }],
				requestedToCapacityRatio: {
					shape: [
						{ utilization: 0, score: 0 },
						{ utilization: 100, score: 1 },
					],
				},
			},
		});
		const result = runScore(plugin, pod(podReq), snapshotOf(nodes, existing.filter((p) => p.spec.nodeName)));
		expect(Array.isArray(result) && result.map((s) => s.score)).toEqual(expected);
	});

	// TestBrokenLinearFunction.
	it.each([
		{
			points: [
				{ utilization: 10, score: 1 },
				{ utilization: 90, score: 9 },
			],
			assertions: [
				[-10, 1],
				[0, 1],
				[9, 1],
				[10, 1],
				[15, 1],
				[19, 1],
				[20, 2],
				[89, 8],
				[90, 9],
				[99, 9],
				[100, 9],
				[110, 9],
			],
		},
		{
			points: [
				{ utilization: 0, score: 2 },
				{ utilization: 40, score: 10 },
				{ utilization: 100, score: 0 },
			],
			assertions: [
				[-10, 2],
				[0, 2],
				[20, 6],
				[30, 8],
				[40, 10],
				[70, 5],
				[100, 0],
				[110, 0],
			],
		},
	])('the broken linear shape function passes through its points (case %#)', ({ points, assertions }) => {
		const f = buildBrokenLinearFunction(points);
		for (const [p, want] of assertions) expect(f(p)).toBe(want);
	});

	it.each([
		{ name: 'resource with negative weight', resources: [{ name: 'memory', weight: -1 }, { name: 'cpu', weight: 1 }], error: 'scoringStrategy.resources[0].weight: Invalid value: -1: resource weight of memory not in valid range (0, 100]' },
		{ name: 'resource with zero weight', resources: [{ name: 'memory', weight: 1 }, { name: 'cpu', weight: 0 }], error: 'scoringStrategy.resources[1].weight: Invalid value: 0: resource weight of cpu not in valid range (0, 100]' },
		{ name: 'resource weight larger than MaxNodeScore', resources: [{ name: 'memory', weight: 1 }, { name: 'cpu', weight: 101 }], error: 'scoringStrategy.resources[1].weight: Invalid value: 101: resource weight of cpu not in valid range (0, 100]' },
	])('rejects arguments: $name', ({ resources, error }) => {
		expect(() => new NodeResourcesFit({ scoringStrategy: { type: 'LeastAllocated', resources } })).toThrow(error);
	});

	it('defaults to LeastAllocated over cpu and memory with weight 1', () => {
		expect(new NodeResourcesFit().args.scoringStrategy).toEqual({ type: 'LeastAllocated', resources: defaultResources });
	});
});

describe('NodeResourcesFit filter', () => {
	const fit = new NodeResourcesFit();
	const filter = (p: Pod, nodeCapacity: Record<string, string>, existing: Pod[] = []) => {
		const cache = snapshotOf([makeNode('n', { capacity: nodeCapacity })], existing);
		const state = new CycleState();
		fit.preFilter(state, p);
		const s = fit.filter(state, p, cache.get('n')!);
		return s ? { code: s.code, reasons: s.allReasons() } : 'fits';
	};

	it.each([
		{ name: 'a pod without requests fits an empty node', pod: makePod('a', { containers: [{ name: 'c' }] }), existing: [] as Pod[], expected: 'fits' as const },
		{ name: 'a pod that fits the free room', pod: makePod('a', { requests: [{ cpu: '1', memory: '1Gi' }] }), existing: [makePod('b', { nodeName: 'n', requests: [{ cpu: '1', memory: '1Gi' }] })], expected: 'fits' as const },
		{ name: 'not enough cpu left: Unschedulable (preemption could help)', pod: makePod('a', { requests: [{ cpu: '1500m' }] }), existing: [makePod('b', { nodeName: 'n', requests: [{ cpu: '1' }] })], expected: { code: Code.Unschedulable, reasons: ['Insufficient cpu'] } },
		{ name: 'not enough cpu nor memory: both reasons', pod: makePod('a', { requests: [{ cpu: '1500m', memory: '3Gi' }] }), existing: [makePod('b', { nodeName: 'n', requests: [{ cpu: '1', memory: '2Gi' }] })], expected: { code: Code.Unschedulable, reasons: ['Insufficient cpu', 'Insufficient memory'] } },
		{ name: 'more cpu than the whole node: UnschedulableAndUnresolvable', pod: makePod('a', { requests: [{ cpu: '3' }] }), existing: [] as Pod[], expected: { code: Code.UnschedulableAndUnresolvable, reasons: ['Insufficient cpu'] } },
		{ name: 'init containers count as a maximum, not a sum', pod: makePod('a', { requests: [{ cpu: '500m' }], initContainers: [{ name: 'i', resources: { requests: { cpu: '2' } } }] }), existing: [] as Pod[], expected: 'fits' as const },
		{ name: 'a sidecar (restartable init container) adds to the containers', pod: makePod('a', { requests: [{ cpu: '1500m' }], initContainers: [{ name: 's', restartPolicy: 'Always', resources: { requests: { cpu: '1' } } }] }), existing: [] as Pod[], expected: { code: Code.UnschedulableAndUnresolvable, reasons: ['Insufficient cpu'] } },
		{ name: 'the pod overhead counts', pod: makePod('a', { requests: [{ cpu: '1900m' }], overhead: { cpu: '200m' } }), existing: [] as Pod[], expected: { code: Code.UnschedulableAndUnresolvable, reasons: ['Insufficient cpu'] } },
		{ name: 'an extended resource the node lacks', pod: makePod('a', { requests: [{ 'nvidia.com/gpu': '1' }] }), existing: [] as Pod[], expected: { code: Code.UnschedulableAndUnresolvable, reasons: ['Insufficient nvidia.com/gpu'] } },
	])('$name', ({ pod: p, existing, expected }) => {
		expect(filter(p, { cpu: '2', memory: '4Gi', pods: '110' }, existing)).toEqual(expected);
	});

	it('a full node (pods) says "Too many pods", which preemption could resolve', () => {
		const existing = [makePod('b', { nodeName: 'n', containers: [{ name: 'c' }] }), makePod('c', { nodeName: 'n', containers: [{ name: 'c' }] })];
		expect(filter(makePod('a', { containers: [{ name: 'c' }] }), { cpu: '2', memory: '4Gi', pods: '2' }, existing)).toEqual({ code: Code.Unschedulable, reasons: ['Too many pods'] });
	});

	it('ignores the extended resources named in ignoredResources', () => {
		const plugin = new NodeResourcesFit({ ignoredResources: ['example.com/foo'] });
		const cache = snapshotOf([makeNode('n', { capacity: { cpu: '2', memory: '4Gi', pods: '110' } })]);
		const p = makePod('a', { requests: [{ 'example.com/foo': '1' }] });
		const state = new CycleState();
		plugin.preFilter(state, p);
		expect(plugin.filter(state, p, cache.get('n')!)).toBeUndefined();
	});
});
