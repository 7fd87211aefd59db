import { describe, expect, it } from 'vitest';
import type { Taint, Toleration } from '../../api/types.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { Code } from '../framework/status.ts';
import { makeBareNode, makePod, runScore, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ERR_REASON_UNTOLERATED_TAINT, TaintToleration } from './taint-toleration.ts';

const nodeWithTaints = (name: string, taints: Taint[]) => makeBareNode(name, { taints });
const podWithTolerations = (tolerations: Toleration[]) => makePod('pod1', { tolerations, containers: [] });

// TestTaintTolerationScore (taint_toleration_test.go @04c0d74f), without the alpha Gt/Lt cases.
describe('TaintToleration score', () => {
	it.each([
		{
			name: 'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
			tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }] as Toleration[],
			nodes: [
				nodeWithTaints('nodeA', [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }]),
				nodeWithTaints('nodeB', [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }]),
			],
			expected: [100, 0],
		},
		{
			name: 'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
			tolerations: [
				{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
				{ key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
			] as Toleration[],
			nodes: [
				nodeWithTaints('nodeA', []),
				nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
				nodeWithTaints('nodeC', [
					{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
					{ key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
				]),
			],
			expected: [100, 100, 100],
		},
		{
			name: 'the more intolerable taints a node has, the lower score it gets.',
			tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }] as Toleration[],
			nodes: [
				nodeWithTaints('nodeA', []),
				nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
				nodeWithTaints('nodeC', [
					{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
					{ key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
				]),
			],
			expected: [100, 50, 0],
		},
		{
			name: 'only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function',
			tolerations: [
				{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
				{ key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
			] as Toleration[],
			nodes: [
				nodeWithTaints('nodeA', []),
				nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
				nodeWithTaints('nodeC', [
					{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
					{ key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
				]),
			],
			expected: [100, 100, 0],
		},
		{
			name: 'Default behaviour No taints and tolerations, lands on node with no taints',
			tolerations: [] as Toleration[],
			nodes: [nodeWithTaints('nodeA', []), nodeWithTaints('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }])],
			expected: [100, 0],
		},
	])('$name', ({ tolerations, nodes, expected }) => {
		const result = runScore(new TaintToleration(), podWithTolerations(tolerations), snapshotOf(nodes));
		expect(Array.isArray(result) && result.map((s) => s.score)).toEqual(expected);
	});
});

// TestTaintTolerationFilter, without the alpha Gt/Lt cases.
describe('TaintToleration filter', () => {
	const untolerated = { code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_UNTOLERATED_TAINT] };
	it.each([
		{ name: "A pod having no tolerations can't be scheduled onto a node with nonempty taints", tolerations: [], taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], want: untolerated },
		{ name: 'A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule', tolerations: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], want: 'fits' },
		{ name: "A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule", tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }], taints: [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], want: untolerated },
		{ name: 'A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node', tolerations: [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }], taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: 'fits' },
		{
			name: 'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
			tolerations: [
				{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
				{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
			],
			taints: [
				{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
				{ key: 'foo', value: 'bar', effect: 'NoSchedule' },
			],
			want: 'fits',
		},
		{ name: "A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node", tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }], taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: untolerated },
		{ name: 'The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node', tolerations: [{ key: 'foo', operator: 'Equal', value: 'bar' }], taints: [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], want: 'fits' },
		{ name: "The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node", tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }], taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], want: 'fits' },
		{ name: 'The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node', tolerations: [], taints: [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], want: 'fits' },
		{ name: 'A NoExecute taint is checked like NoSchedule', tolerations: [], taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' }], want: untolerated },
		{ name: 'An empty key with operator Exists tolerates every taint', tolerations: [{ operator: 'Exists' }], taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }], want: 'fits' },
	] as Array<{ name: string; tolerations: Toleration[]; taints: Taint[]; want: unknown }>)('$name', ({ tolerations, taints, want }) => {
		const cache = snapshotOf([nodeWithTaints('nodeA', taints)]);
		const s = new TaintToleration().filter(new CycleState(), podWithTolerations(tolerations), cache.get('nodeA')!);
		expect(s ? { code: s.code, reasons: s.allReasons() } : 'fits').toEqual(want);
	});
});
