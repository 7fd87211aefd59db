import { describe, expect, it } from 'vitest';
import type { Pod } from '../../api/types.ts';
import { makeNode, makePod, runScore, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { NodeResourcesBalancedAllocation } from './node-resources-balanced-allocation.ts';
import { balanceScore } from './resource-allocation.ts';

// makeNode(name, milliCPU, memory, extended) of noderesources/test_util.go: CPU in millicores.
const node = (name: string, milliCPU: number, memory: number, extended: Record<string, string> = {}) => makeNode(name, { capacity: { cpu: `${milliCPU}m`, memory: String(memory), ...extended } });
let count = 0;
const pod = (requests: Array<Record<string, string>>, nodeName?: string): Pod => makePod(`p${++count}`, { requests, ...(nodeName ? { nodeName } : {}) });
const cpuAndMemory = (cpu: string, memory: string) => ({ cpu, memory });
const cpuOnly = (cpu: string) => ({ cpu, memory: '0' });
const gpuArgs = { resources: [{ name: 'cpu', weight: 1 }, { name: 'memory', weight: 1 }, { name: 'nvidia.com/gpu', weight: 1 }] };

interface Case {
	name: string;
	requestedPod: Pod;
	nodes: ReturnType<typeof node>[];
	existingPods: Pod[];
	args?: { resources: Array<{ name: string; weight: number }> };
	runPreScore?: boolean;
	expected: number[] | 'skip';
}

// TestNodeResourcesBalancedAllocation after kubernetes/kubernetes#135573 (v1.36): the score is
// 50 + (50 + balance with the pod − balance without it) / 2.
const cases: Case[] = [
	{ name: 'nothing scheduled, nothing requested, skip in PreScore', requestedPod: makePod('best-effort'), nodes: [node('node1', 4000, 10000), node('node2', 4000, 10000)], existingPods: [], expected: 'skip' },
	{
		// node1: 0 -> 75% cpu, 0 -> 50% memory: 100 -> 87, so 68. node2: 50% / 50%: 100 -> 100, so 75.
		name: 'nothing scheduled, resources requested, differently sized nodes',
		requestedPod: pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')]),
		nodes: [node('node1', 4000, 10000), node('node2', 6000, 10000)],
		existingPods: [],
		expected: [68, 75],
	},
	{
		name: 'resources requested, pods scheduled with resources',
		requestedPod: pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')]),
		nodes: [node('node1', 10000, 20000), node('node2', 10000, 20000)],
		existingPods: [pod([cpuOnly('1000m'), cpuOnly('2000m')], 'node1'), pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')], 'node2')],
		expected: [73, 74],
	},
	{
		name: 'resources requested, pods scheduled with resources, differently sized nodes',
		requestedPod: pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')]),
		nodes: [node('node1', 10000, 20000), node('node2', 10000, 50000)],
		existingPods: [pod([cpuOnly('1000m'), cpuOnly('2000m')], 'node1'), pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')], 'node2')],
		expected: [73, 70],
	},
	{
		name: 'resources requested, pods scheduled with resources, nodes to reach min/max score',
		requestedPod: pod([{ memory: '2000' }, { memory: '3000' }]),
		nodes: [node('node1', 3000, 5000), node('node2', 3000, 5000)],
		existingPods: [pod([cpuOnly('1000m'), cpuOnly('2000m')], 'node1')],
		expected: [100, 50],
	},
	{
		name: 'requested resources at node capacity',
		requestedPod: pod([cpuOnly('1000m'), cpuOnly('2000m')]),
		nodes: [node('node1', 6000, 10000), node('node2', 6000, 10000)],
		existingPods: [pod([cpuOnly('1000m'), cpuOnly('2000m')], 'node1'), pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')], 'node2')],
		expected: [62, 62],
	},
	{
		name: 'scalar resource is included in the score computation if pod requests the scalar resource',
		requestedPod: pod([{ cpu: '0', memory: '0', 'nvidia.com/gpu': '1' }]),
		nodes: [node('node1', 3500, 40000, { 'nvidia.com/gpu': '8' }), node('node2', 3500, 40000, { 'nvidia.com/gpu': '8' })],
		existingPods: [pod([cpuAndMemory('1000m', '2000'), { cpu: '2000m', memory: '3000', 'nvidia.com/gpu': '3' }], 'node1'), pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')], 'node2')],
		args: gpuArgs,
		expected: [75, 76],
	},
	{
		name: "scalar resource is not included in the score computation if pod doesn't request the scalar resource",
		requestedPod: pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')]),
		nodes: [node('node1', 3500, 40000, { 'nvidia.com/gpu': '8' }), node('node2', 3500, 40000)],
		existingPods: [],
		args: gpuArgs,
		expected: [56, 56],
	},
	{
		name: 'resources requested, pods scheduled with resources if PreScore not called',
		requestedPod: pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')]),
		nodes: [node('node1', 10000, 20000), node('node2', 10000, 20000)],
		existingPods: [pod([cpuOnly('1000m'), cpuOnly('2000m')], 'node1'), pod([cpuAndMemory('1000m', '2000'), cpuAndMemory('2000m', '3000')], 'node2')],
		runPreScore: false,
		expected: [73, 74],
	},
];

describe('NodeResourcesBalancedAllocation (v1.36 formula)', () => {
	it.each(cases)('$name', (c) => {
		const plugin = new NodeResourcesBalancedAllocation(c.args);
		const result = runScore(plugin, c.requestedPod, snapshotOf(c.nodes, c.existingPods), { runPreScore: c.runPreScore ?? true });
		expect(result === 'skip' ? 'skip' : Array.isArray(result) ? result.map((s) => s.score) : result).toEqual(c.expected);
	});

	it('scores a best-effort pod 0 when PreScore did not run', () => {
		const result = runScore(new NodeResourcesBalancedAllocation(), makePod('be', { containers: [{ name: 'c' }] }), snapshotOf([node('n', 4000, 10000)]), { runPreScore: false });
		expect(Array.isArray(result) && result[0].score).toBe(0);
	});

	it('rejects a resource weight other than 1', () => {
		expect(() => new NodeResourcesBalancedAllocation({ resources: [{ name: 'cpu', weight: 2 }] })).toThrow('resources[0].weight: Invalid value: 2: must be 1');
	});
});

describe('the balance score itself (the pre-v1.36 BalancedAllocation score)', () => {
	// legacyCases of balanced_allocation_test.go @00fdb4ff: (1 − std) × 100 of the fractions with the pod.
	it.each([
		{ name: 'nothing scheduled, differently sized nodes', requested: [[3000, 5000], [3000, 5000]], allocatable: [[4000, 10000], [6000, 10000]], expected: [87, 100] },
		{ name: 'pods scheduled with resources', requested: [[6000, 5000], [6000, 10000]], allocatable: [[10000, 20000], [10000, 20000]], expected: [82, 95] },
		{ name: 'requested resources at node capacity', requested: [[6000, 0], [6000, 5000]], allocatable: [[6000, 10000], [6000, 10000]], expected: [50, 75] },
	])('$name', ({ requested, allocatable, expected }) => {
		expect(requested.map((r, i) => balanceScore(r, allocatable[i]))).toEqual(expected);
	});

	it('uses the population standard deviation for three resources', () => {
		// Upstream's scalar case, node1 before and after the pod: cpu 3000/3500, memory 5000/40000, gpu 3/8 then 4/8: 69 then 70.
		expect(balanceScore([3000, 5000, 3], [3500, 40000, 8])).toBe(69);
		expect(balanceScore([3000, 5000, 4], [3500, 40000, 8])).toBe(70);
	});
});
