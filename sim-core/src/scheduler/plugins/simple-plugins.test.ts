import { describe, expect, it } from 'vitest';
import { CycleState } from '../framework/cycle-state.ts';
import { Code } from '../framework/status.ts';
import { makeNode, makePod, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ERR_REASON_NODE_NAME, NodeName } from './node-name.ts';
import { ERR_REASON_UNSCHEDULABLE, NodeUnschedulable } from './node-unschedulable.ts';
import { PrioritySort } from './priority-sort.ts';
import { SchedulingGates } from './scheduling-gates.ts';

const verdict = (s: ReturnType<NodeName['filter']>) => (s ? { code: s.code, reasons: s.allReasons() } : 'fits');

// TestNodeName (nodename/node_name_test.go).
describe('NodeName', () => {
	it.each([
		{ name: 'no host specified', nodeName: undefined, want: 'fits' },
		{ name: 'host matches', nodeName: 'foo', want: 'fits' },
		{ name: 'host doesn\'t match', nodeName: 'bar', want: { code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_NODE_NAME] } },
	])('$name', ({ nodeName, want }) => {
		const cache = snapshotOf([makeNode('foo')]);
		expect(verdict(new NodeName().filter(new CycleState(), makePod('p', nodeName ? { nodeName } : {}), cache.get('foo')!))).toEqual(want);
	});
});

// TestNodeUnschedulable (nodeunschedulable/node_unschedulable_test.go).
describe('NodeUnschedulable', () => {
	it.each([
		{ name: 'Does not schedule pod to unschedulable node (node.Spec.Unschedulable==true)', unschedulable: true, tolerations: [], want: { code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_UNSCHEDULABLE] } },
		{ name: 'Schedule pod to normal node', unschedulable: false, tolerations: [], want: 'fits' },
		{ name: 'Schedule pod with toleration to unschedulable node (node.Spec.Unschedulable==true)', unschedulable: true, tolerations: [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const }], want: 'fits' },
	])('$name', ({ unschedulable, tolerations, want }) => {
		const cache = snapshotOf([makeNode('n', { unschedulable })]);
		expect(verdict(new NodeUnschedulable().filter(new CycleState(), makePod('p', { tolerations }), cache.get('n')!))).toEqual(want);
	});
});

// TestPreEnqueue (schedulinggates/scheduling_gates_test.go).
describe('SchedulingGates', () => {
	it.each([
		{ name: 'pod does not carry scheduling gates', gates: [] as string[], want: 'ok' },
		{ name: 'pod carries scheduling gates', gates: ['foo', 'bar'], want: { code: Code.UnschedulableAndUnresolvable, reasons: ['waiting for scheduling gates: [foo bar]'] } },
	])('$name', ({ gates, want }) => {
		const s = new SchedulingGates().preEnqueue(makePod('p', { schedulingGates: gates.map((name) => ({ name })) }));
		expect(s ? { code: s.code, reasons: s.allReasons() } : 'ok').toEqual(want);
	});
});

// TestLess (queuesort/priority_sort_test.go).
describe('PrioritySort', () => {
	const lowPriority = -100;
	const highPriority = 100;
	it.each([
		{ name: 'p1.priority less than p2.priority', p1: lowPriority, t1: 0, p2: highPriority, t2: 0, expected: false },
		{ name: 'p1.priority greater than p2.priority', p1: highPriority, t1: 0, p2: lowPriority, t2: 0, expected: true },
		{ name: 'equal priority. p1 is added to schedulingQ earlier than p2', p1: highPriority, t1: 0, p2: highPriority, t2: 1000, expected: true },
		{ name: 'equal priority. p2 is added to schedulingQ earlier than p1', p1: highPriority, t1: 1000, p2: highPriority, t2: 0, expected: false },
	])('$name', ({ p1, t1, p2, t2, expected }) => {
		const less = new PrioritySort().less({ pod: makePod('a', { priority: p1 }), timestampMs: t1 }, { pod: makePod('b', { priority: p2 }), timestampMs: t2 });
		expect(less).toBe(expected);
	});
});
