import { describe, expect, it } from 'vitest';
import type { Affinity, NodeAffinity as NodeAffinitySpec, NodeSelectorTerm, PodSpec } from '../../api/types.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { Code } from '../framework/status.ts';
import { makeBareNode, makePod, runScore, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ERR_REASON_CONFLICT, ERR_REASON_ENFORCED, ERR_REASON_POD, NodeAffinity, type NodeAffinityArgs } from './node-affinity.ts';

const label1 = { foo: 'bar' };
const label2 = { key: 'value' };
const label3 = { az: 'az1' };
const label4 = { abc: 'az11', def: 'az22' };
const label5 = { foo: 'bar', key: 'value', az: 'az1' };

const affinity1: Affinity = {
	nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } }] },
};
const affinity2: Affinity = {
	nodeAffinity: {
		preferredDuringSchedulingIgnoredDuringExecution: [
			{ weight: 2, preference: { matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] } },
			{ weight: 4, preference: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value'] }] } },
			{
				weight: 5,
				preference: {
					matchExpressions: [
						{ key: 'foo', operator: 'In', values: ['bar'] },
						{ key: 'key', operator: 'In', values: ['value'] },
						{ key: 'az', operator: 'In', values: ['az1'] },
					],
				},
			},
		],
	},
};

const nodes = (...list: Array<[string, Record<string, string>]>) => list.map(([name, labels]) => makeBareNode(name, { labels }));
const pod = (spec: Partial<PodSpec> = {}) => makePod('pod', { containers: [], ...spec });

// TestNodeAffinityPriority (node_affinity_test.go @022462cc).
describe('NodeAffinity score', () => {
	it.each([
		{ name: 'all nodes are same priority as NodeAffinity is nil', pod: pod(), nodes: nodes(['node1', label1], ['node2', label2], ['node3', label3]), runPreScore: false, expected: [0, 0, 0] },
		{ name: 'no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes\' priority is zero', pod: pod({ affinity: affinity1 }), nodes: nodes(['node1', label4], ['node2', label2], ['node3', label3]), expected: [0, 0, 0] },
		{ name: 'only node1 matches the preferred scheduling requirements of pod', pod: pod({ affinity: affinity1 }), nodes: nodes(['node1', label1], ['node2', label2], ['node3', label3]), expected: [100, 0, 0] },
		{ name: 'all nodes matches the preferred scheduling requirements of pod but with different priorities ', pod: pod({ affinity: affinity2 }), nodes: nodes(['node1', label1], ['node5', label5], ['node2', label2]), expected: [18, 100, 36] },
		{ name: 'added affinity', pod: pod(), nodes: nodes(['node1', label1], ['node2', label2]), args: { addedAffinity: affinity1.nodeAffinity }, expected: [100, 0] },
		{
			name: 'added affinity and pod has default affinity',
			pod: pod({ affinity: affinity1 }),
			nodes: nodes(['node1', label1], ['node2', label2], ['node3', label5]),
			args: { addedAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 3, preference: { matchExpressions: [{ key: 'key', operator: 'In', values: ['value'] }] } }] } },
			expected: [40, 60, 100],
		},
		{ name: 'calculate the priorities correctly even if PreScore is not called', pod: pod({ affinity: affinity2 }), nodes: nodes(['node1', label1], ['node5', label5], ['node2', label2]), runPreScore: false, expected: [18, 100, 36] },
	] as Array<{ name: string; pod: ReturnType<typeof pod>; nodes: ReturnType<typeof nodes>; args?: NodeAffinityArgs; runPreScore?: boolean; expected: number[] }>)('$name', (c) => {
		const result = runScore(new NodeAffinity(c.args), c.pod, snapshotOf(c.nodes), { runPreScore: c.runPreScore ?? true });
		expect(Array.isArray(result) && result.map((s) => s.score)).toEqual(c.expected);
	});

	it('Skip is returned in PreScore when NodeAffinity is nil', () => {
		expect(runScore(new NodeAffinity(), pod(), snapshotOf(nodes(['node1', label1])))).toBe('skip');
	});

	it('PreScore returns error when an incoming Pod has a broken affinity', () => {
		const broken: Affinity = { nodeAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 2, preference: { matchExpressions: [{ key: 'invalid key', operator: 'In', values: ['bar'] }] } }] } };
		const result = runScore(new NodeAffinity(), pod({ affinity: broken }), snapshotOf(nodes(['node1', label1])));
		expect(typeof result === 'object' && !Array.isArray(result) && { code: result.code, message: result.message() }).toEqual({
			code: Code.Error,
			message: `[0].matchExpressions[0].key: Invalid value: "invalid key": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
		});
	});
});

const required = (...terms: NodeSelectorTerm[]): Affinity => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: terms } } });

describe('NodeAffinity filter', () => {
	const run = (spec: Partial<PodSpec>, labels: Record<string, string>, args?: NodeAffinityArgs, nodeName = 'node1') => {
		const plugin = new NodeAffinity(args);
		const state = new CycleState();
		const p = pod(spec);
		const pre = plugin.preFilter(state, p);
		if (pre.status && pre.status.code !== Code.Skip) return { code: pre.status.code, reasons: pre.status.allReasons() };
		const cache = snapshotOf([makeBareNode(nodeName, { labels })]);
		const s = plugin.filter(state, p, cache.get(nodeName)!);
		return s ? { code: s.code, reasons: s.allReasons() } : 'fits';
	};
	const rejected = { code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_POD] };

	it.each([
		{ name: 'no selector', spec: {}, labels: {}, want: 'fits' },
		{ name: 'missing labels', spec: { nodeSelector: { foo: 'bar' } }, labels: {}, want: rejected },
		{ name: 'same labels', spec: { nodeSelector: { foo: 'bar' } }, labels: { foo: 'bar' }, want: 'fits' },
		{ name: 'node labels are superset', spec: { nodeSelector: { foo: 'bar' } }, labels: { foo: 'bar', baz: 'blah' }, want: 'fits' },
		{ name: 'node labels are subset', spec: { nodeSelector: { foo: 'bar', baz: 'blah' } }, labels: { foo: 'bar' }, want: rejected },
		{ name: 'Pod with matchExpressions using In operator that matches the existing node', spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar', 'value2'] }] }) }, labels: { foo: 'bar' }, want: 'fits' },
		{ name: 'Pod with matchExpressions using Gt operator that matches the existing node', spec: { affinity: required({ matchExpressions: [{ key: 'kernel-version', operator: 'Gt', values: ['0204'] }] }) }, labels: { 'kernel-version': '0206' }, want: 'fits' },
		{ name: "Pod with matchExpressions using NotIn operator that doesn't match the existing node", spec: { affinity: required({ matchExpressions: [{ key: 'mem-type', operator: 'NotIn', values: ['DDR', 'DDR2'] }] }) }, labels: { 'mem-type': 'DDR3' }, want: 'fits' },
		{ name: 'Pod with matchExpressions using Exists operator that matches the existing node', spec: { affinity: required({ matchExpressions: [{ key: 'GPU', operator: 'Exists' }] }) }, labels: { GPU: 'NVIDIA-GRID-K1' }, want: 'fits' },
		{ name: 'Pod with affinity that don\'t match node\'s labels won\'t schedule onto the node', spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'In', values: ['value1', 'value2'] }] }) }, labels: { foo: 'bar' }, want: rejected },
		{ name: 'Pod with empty MatchExpressions is not a valid value will match no objects and won\'t schedule onto the node', spec: { affinity: required({ matchExpressions: [] }) }, labels: { foo: 'bar' }, want: rejected },
		{ name: 'Pod with no Affinity will schedule onto a node', spec: {}, labels: { foo: 'bar' }, want: 'fits' },
		{
			name: 'Pod with multiple NodeSelectorTerms ORed in affinity, matches the node\'s labels and will schedule onto the node',
			spec: { affinity: required({ matchExpressions: [{ key: 'foo', operator: 'In', values: ['bar'] }] }, { matchExpressions: [{ key: 'diffkey', operator: 'In', values: ['wrong'] }] }) },
			labels: { foo: 'bar' },
			want: 'fits',
		},
		{ name: 'Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node', spec: { nodeSelector: { foo: 'bar' }, affinity: required({ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }) }, labels: { foo: 'bar' }, want: 'fits' },
		{ name: 'Pod with an Affinity matches node\'s labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won\'t schedule onto the node', spec: { nodeSelector: { foo: 'bar' }, affinity: required({ matchExpressions: [{ key: 'foo', operator: 'Exists' }] }) }, labels: { foo: 'barrrrrr' }, want: rejected },
		{ name: 'Pod with matchFields using In operator that matches the existing node', spec: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }] }) }, labels: {}, want: 'fits' },
		{ name: 'Pod with matchFields using In operator that does not match the existing node', spec: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node2'] }] }) }, labels: {}, nodeName: 'node1', want: rejected },
		{
			name: 'Pod with two terms: both matchFields and matchExpressions do not match',
			spec: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }], matchExpressions: [{ key: 'zone', operator: 'In', values: ['foo'] }] }) },
			labels: { zone: 'bar' },
			want: rejected,
		},
		{
			name: 'Pod with terms pinning conflicting node names cannot fit anywhere',
			spec: { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }, { key: 'metadata.name', operator: 'In', values: ['node2'] }] }) },
			labels: {},
			want: { code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_CONFLICT] },
		},
	] as Array<{ name: string; spec: Partial<PodSpec>; labels: Record<string, string>; nodeName?: string; want: unknown }>)('$name', ({ spec, labels, nodeName, want }) => {
		expect(run(spec, labels, undefined, nodeName)).toEqual(want);
	});

	const addedAffinity: NodeAffinitySpec = { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['foo'] }] }] } };
	it.each([
		{ name: 'Matches added affinity and Pod\'s node affinity', spec: { affinity: required({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['bar'] }] }) }, labels: { zone: 'foo' }, want: rejected },
		{ name: 'Matches added affinity but not Pod\'s node affinity', spec: { affinity: required({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['foo'] }] }) }, labels: { zone: 'foo' }, want: 'fits' },
		{ name: "Doesn't match added affinity", spec: {}, labels: { zone: 'bar' }, want: { code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_ENFORCED] } },
	] as Array<{ name: string; spec: Partial<PodSpec>; labels: Record<string, string>; want: unknown }>)('addedAffinity: $name', ({ spec, labels, want }) => {
		expect(run(spec, labels, { addedAffinity })).toEqual(want);
	});

	it('PreFilter narrows the nodes to the names required terms pin', () => {
		const plugin = new NodeAffinity();
		const spec = { affinity: required({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node1'] }] }, { matchFields: [{ key: 'metadata.name', operator: 'In', values: ['node2'] }] }) };
		expect([...(plugin.preFilter(new CycleState(), pod(spec)).result?.nodeNames ?? [])]).toEqual(['node1', 'node2']);
	});
});
