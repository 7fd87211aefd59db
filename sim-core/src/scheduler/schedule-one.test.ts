import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../api/types.ts';
import { Rng, deriveRngState } from '../sim/rng.ts';
import type { SchedulingExplanation } from './explanation.ts';
import { CycleState } from './framework/cycle-state.ts';
import type { NodePluginScores } from './framework/runtime.ts';
import { numFeasibleNodesToFind, schedulingCycle, selectHost, type CycleContext } from './schedule-one.ts';
import { newTestFramework } from '../testing/scheduler/framework.ts';
import { makeNode, makePod, snapshotOf } from '../testing/scheduler/wrappers.ts';

// numFeasibleNodesToFind (schedule_one.go): all nodes under 100; else the percentage (adaptive 50 − n/125, at least 5),
// at least 100 nodes.
describe('how many feasible nodes a cycle looks for (percentageOfNodesToScore)', () => {
	it.each([
		{ percentage: 0, nodes: 10, want: 10 },
		{ percentage: 0, nodes: 99, want: 99 },
		{ percentage: 0, nodes: 100, want: 100 },
		{ percentage: 0, nodes: 200, want: 100 },
		{ percentage: 0, nodes: 1000, want: 420 },
		{ percentage: 0, nodes: 5000, want: 500 },
		{ percentage: 0, nodes: 6000, want: 300 },
		{ percentage: 0, nodes: 15000, want: 750 },
		{ percentage: 30, nodes: 1000, want: 300 },
		{ percentage: 5, nodes: 1000, want: 100 },
		{ percentage: 100, nodes: 250, want: 250 },
	])('$percentage% of $nodes nodes: $want', ({ percentage, nodes, want }) => {
		expect(numFeasibleNodesToFind(percentage, nodes)).toBe(want);
	});
});

describe('picking among the best nodes (selectHost)', () => {
	const scores = (...totals: Array<[string, number]>): NodePluginScores[] => totals.map(([name, totalScore]) => ({ name, scores: [], totalScore }));

	it('picks the highest total', () => {
		expect(selectHost(scores(['a', 10], ['b', 30], ['c', 20]), () => 0)).toEqual({ host: 'b', candidates: ['b'], topScore: 30 });
	});

	it('samples the tied top nodes uniformly with the seeded stream (reservoir sampling)', () => {
		const rng = new Rng(deriveRngState(42, 'kube-scheduler'));
		const counts: Record<string, number> = { a: 0, b: 0, c: 0, d: 0 };
		const list = scores(['a', 50], ['b', 50], ['c', 50], ['d', 10]);
		for (let i = 0; i < 30_000; i++) counts[selectHost(list, (n) => rng.int(n)).host]++;
		expect(counts.d).toBe(0);
		for (const name of ['a', 'b', 'c']) expect(Math.abs(counts[name] - 10_000)).toBeLessThan(500);
	});

	it('replaces the pick with the k-th tied node when the draw for k is 0', () => {
		// Draws: k=2 -> 1 (keep a), k=3 -> 0 (take c).
		const draws = [1, 0];
		expect(selectHost(scores(['a', 5], ['b', 5], ['c', 5]), () => draws.shift()!).host).toBe('c');
	});
});

function explanation(): SchedulingExplanation {
	return { pod: '', uid: '', schedulerName: '', attempt: 1, cycle: 1, atMs: 0, result: 'Skipped', numAllNodes: 0, numNodesToFind: 0, percentageOfNodesToScore: 0, preFilter: [], preScore: [], scorePlugins: [], nodes: [], nodesOmitted: 0, notEvaluated: [] };
}

function cycle(nodes: Node[], pods: Pod[], pod: Pod, ctxOverrides: Partial<CycleContext> = {}) {
	const cache = snapshotOf(nodes, pods);
	const fw = newTestFramework(cache, { listers: { ...newTestListers(pods) } });
	const ctx: CycleContext = { nodes: cache, percentageOfNodesToScore: 0, nextStartNodeIndex: 0, random: () => 0, explainNodesMax: 100, ...ctxOverrides };
	const explain = explanation();
	const outcome = schedulingCycle(ctx, fw, new CycleState(), pod, explain);
	return { outcome, explain, ctx };
}

function newTestListers(pods: Pod[]) {
	return {
		namespace: () => undefined,
		namespaces: () => [],
		services: () => [],
		replicationControllers: () => [],
		replicaSets: () => [],
		statefulSets: () => [],
		podDisruptionBudgets: () => [],
		pod: (key: string) => pods.find((p) => `${p.metadata.namespace}/${p.metadata.name}` === key),
	};
}

const node = (name: string, extra: Parameters<typeof makeNode>[1] = {}) => makeNode(name, { capacity: { cpu: '2', memory: '4Gi', pods: '110' }, ...extra });
const message = (o: ReturnType<typeof cycle>['outcome']) => o.failure?.message();

describe('one scheduling cycle with the default profile', () => {
	it('schedules onto the least allocated node and explains every score', () => {
		const busy = makePod('busy', { nodeName: 'node-1', requests: [{ cpu: '1', memory: '2Gi' }] });
		const { outcome, explain } = cycle([node('node-1'), node('node-2')], [busy], makePod('web', { requests: [{ cpu: '500m', memory: '512Mi' }] }));
		expect(outcome.result).toMatchObject({ kind: 'scheduled', host: 'node-2' });
		const row = explain.nodes.find((n) => n.node === 'node-2')!;
		// LeastAllocated: (2000−500)/2000 → 75 and (4Gi−512Mi)/4Gi → 87, average 81; TaintToleration 100 × 3.
		expect(row.scores!.find((s) => s.plugin === 'NodeResourcesFit')).toEqual({ plugin: 'NodeResourcesFit', raw: 81, normalized: 81, weight: 1, weighted: 81 });
		expect(row.scores!.find((s) => s.plugin === 'TaintToleration')).toEqual({ plugin: 'TaintToleration', raw: 0, normalized: 100, weight: 3, weighted: 300 });
		expect(explain.scorePlugins.map((p) => `${p.plugin}:${p.weight}`)).toEqual(['TaintToleration:3', 'NodeResourcesFit:1', 'NodeResourcesBalancedAllocation:1', 'ImageLocality:1']);
	});

	it('does not score when only one node passes the filters', () => {
		const tainted = node('node-1', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] });
		const { outcome, explain } = cycle([tainted, node('node-2')], [], makePod('web', { requests: [{ cpu: '100m' }] }));
		expect(outcome.result).toMatchObject({ kind: 'scheduled', host: 'node-2', feasibleNodes: 1 });
		expect(explain.nodes.every((n) => n.scores === undefined)).toBe(true);
		expect(explain.nodes.find((n) => n.node === 'node-1')).toMatchObject({ rejectedBy: 'TaintToleration', reasons: ['node(s) had untolerated taint(s)'], feasible: false });
	});

	it.each([
		{
			name: 'no node has room: preemption is not helpful when the pod asks more than any node has',
			nodes: [node('node-1'), node('node-2')],
			pods: [] as Pod[],
			pod: makePod('big', { requests: [{ cpu: '3' }] }),
			want: '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
		},
		{
			name: 'full nodes with pods of the same priority: no victims',
			nodes: [node('node-1'), node('node-2')],
			pods: [makePod('a', { nodeName: 'node-1', requests: [{ cpu: '1500m' }] }), makePod('b', { nodeName: 'node-2', requests: [{ cpu: '1500m' }] })],
			pod: makePod('web', { requests: [{ cpu: '1' }] }),
			want: '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
		},
		{
			name: 'a taint and a full node',
			nodes: [node('node-1', { taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }), node('node-2')],
			pods: [makePod('b', { nodeName: 'node-2', requests: [{ cpu: '1500m' }] })],
			pod: makePod('web', { requests: [{ cpu: '1' }] }),
			want: '0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint(s). preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.',
		},
		{
			name: 'a pod that may not preempt',
			nodes: [node('node-1')],
			pods: [makePod('a', { nodeName: 'node-1', requests: [{ cpu: '1500m' }] })],
			pod: makePod('web', { requests: [{ cpu: '1' }], preemptionPolicy: 'Never', priority: 1000 }),
			want: '0/1 nodes are available: 1 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never.',
		},
		{
			name: 'a node selector nobody matches',
			nodes: [node('node-1'), node('node-2')],
			pods: [] as Pod[],
			pod: makePod('web', { nodeSelector: { disktype: 'ssd' } }),
			want: "0/2 nodes are available: 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
		},
		{
			name: 'required affinity pinning a node name that does not exist',
			nodes: [node('node-1'), node('node-2')],
			pods: [] as Pod[],
			pod: makePod('web', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node-9'] }] }] } } } }),
			want: "0/2 nodes are available: 2 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
		},
		{
			name: 'a cordoned node and a node without the free host port',
			nodes: [node('node-1', { unschedulable: true }), node('node-2')],
			pods: [makePod('a', { nodeName: 'node-2', containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 80 }] }] })],
			pod: makePod('web', { containers: [{ name: 'c', ports: [{ containerPort: 80, hostPort: 80 }] }] }),
			want: "0/2 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.",
		},
	])('explains failures: $name', ({ nodes, pods, pod, want }) => {
		const { outcome } = cycle(nodes, pods, pod);
		expect(outcome.result.kind).toBe('fit-error');
		expect(message(outcome)).toBe(want);
	});

	it('no nodes at all: "no nodes available to schedule pods", a rejection', () => {
		const { outcome } = cycle([], [], makePod('web'));
		expect(outcome.result.kind).toBe('error');
		expect(message(outcome)).toBe('no nodes available to schedule pods');
		expect(outcome.failure?.code).toBe(3);
	});

	it('preempts the lowest-priority pod that frees enough room and nominates its node', () => {
		const low = makePod('low', { nodeName: 'node-1', requests: [{ cpu: '1500m' }], priority: 0 });
		const mid = makePod('mid', { nodeName: 'node-2', requests: [{ cpu: '1500m' }], priority: 500 });
		const { outcome, explain } = cycle([node('node-1'), node('node-2')], [low, mid], makePod('vip', { requests: [{ cpu: '1' }], priority: 1000 }));
		expect(outcome.result.kind).toBe('fit-error');
		expect(outcome.nominatingInfo).toEqual({ nominatedNodeName: 'node-1', mode: 'Override' });
		// A successful preemption adds nothing to the message.
		expect(message(outcome)).toBe('0/2 nodes are available: 2 Insufficient cpu.');
		expect(explain.postFilter).toMatchObject({ plugin: '', code: 'Success', nominatedNodeName: 'node-1' });
	});
});

describe('the node search (percentageOfNodesToScore)', () => {
	const many = Array.from({ length: 150 }, (_, i) => node(`node-${String(i).padStart(3, '0')}`));

	it('examines nodes until it has found 100 feasible ones, then continues from there next cycle', () => {
		const first = cycle(many, [], makePod('a', { requests: [{ cpu: '100m' }] }));
		expect(first.explain.numNodesToFind).toBe(100);
		expect(first.explain.nodes.length).toBe(100);
		expect(first.explain.notEvaluated.length).toBe(50);
		expect(first.explain.notEvaluated[0]).toBe('node-100');
		expect(first.ctx.nextStartNodeIndex).toBe(100);
		const second = cycle(many, [], makePod('b', { requests: [{ cpu: '100m' }] }), { nextStartNodeIndex: first.ctx.nextStartNodeIndex });
		expect(second.explain.nodes[0].node).toBe('node-100');
		expect(second.ctx.nextStartNodeIndex).toBe(50);
	});

	it('keeps at most explainNodesMax rows, best scores first', () => {
		const { explain } = cycle(many, [], makePod('a', { requests: [{ cpu: '100m' }] }), { explainNodesMax: 10 });
		expect(explain.nodes.length).toBe(10);
		expect(explain.nodesOmitted).toBe(90);
	});
});
