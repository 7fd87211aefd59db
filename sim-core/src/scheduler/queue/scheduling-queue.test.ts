import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../../api/types.ts';
import { EVENT_ASSIGNED_POD_DELETE, EVENT_NODE_ADD } from '../framework/events.ts';
import { podKey } from '../framework/types.ts';
import { newTestFramework } from '../../testing/scheduler/framework.ts';
import { makeNode, makePod, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { emptySchedulingQueue, SchedulingQueue } from './scheduling-queue.ts';

function setup() {
	const pods = new Map<string, Pod>();
	const fw = newTestFramework(snapshotOf([]));
	let now = 0;
	let activations = 0;
	const state = emptySchedulingQueue();
	const queue = new SchedulingQueue(() => state, {
		nowMs: () => now,
		epochMs: 0,
		pod: (key) => pods.get(key),
		framework: (name) => (name === 'default-scheduler' ? fw : undefined),
		frameworks: () => [fw],
		podInitialBackoffMs: 1000,
		podMaxBackoffMs: 10_000,
		podMaxInUnschedulablePodsDurationMs: 5 * 60_000,
		activated: () => activations++,
	});
	return {
		queue,
		state,
		add(pod: Pod) {
			pods.set(podKey(pod), pod);
			queue.add(pod);
			return podKey(pod);
		},
		set(pod: Pod) {
			pods.set(podKey(pod), pod);
		},
		at(ms: number) {
			now = ms;
		},
		activations: () => activations,
	};
}

const big = (name: string) => makePod(name, { requests: [{ cpu: '3' }] });

describe('the scheduling queue', () => {
	it('pops higher priority first, then earlier arrivals (PrioritySort)', () => {
		const q = setup();
		q.at(0);
		q.add(makePod('low-early', { priority: 1 }));
		q.at(10);
		q.add(makePod('high', { priority: 100 }));
		q.add(makePod('low-late', { priority: 1 }));
		expect([q.queue.pop(), q.queue.pop(), q.queue.pop()].map((p) => p?.pod.key)).toEqual(['default/high', 'default/low-early', 'default/low-late']);
	});

	it('backs off 1 s, 2 s, 4 s, 8 s, then 10 s (podInitialBackoffSeconds 1, podMaxBackoffSeconds 10)', () => {
		const q = setup();
		expect([1, 2, 3, 4, 5, 6, 10].map((attempts) => q.queue.backoffDurationMs(attempts))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000, 10_000]);
		expect(q.queue.backoffDurationMs(0)).toBe(0);
	});

	it('aligns the back-off expiry to the one-second window it falls in, and counts the pod as backing off through that window', () => {
		const q = setup();
		const key = q.add(big('p'));
		q.at(1300);
		q.queue.pop();
		q.queue.addUnschedulableIfNotPresent(key, new Set(), new Set());
		const p = q.queue.get(key)!;
		// Failed with an error (no rejecting plugin): 1300 + 1000 = 2300, truncated to 2000.
		expect(p.where).toBe('errorBackoff');
		expect(q.queue.backoffTime(p)).toBe(2000);
		for (const [now, backingOff] of [
			[2300, true],
			[2999, true],
			[3000, false],
		] as const) {
			q.at(now);
			expect(q.queue.isPodBackingoff(p)).toBe(backingOff);
		}
	});

	it('keeps a pod that failed with an error in the error back-off queue until its window passes, then the flush activates it', () => {
		const q = setup();
		const key = q.add(big('p'));
		q.queue.pop();
		q.at(100);
		q.queue.addUnschedulableIfNotPresent(key, new Set(), new Set());
		// Error back-off is never popped early, even with an empty activeQ.
		expect(q.queue.pop()).toBeUndefined();
		q.at(1000);
		expect(q.queue.flushBackoffQCompleted()).toBe(0);
		q.at(2000);
		expect(q.queue.flushBackoffQCompleted()).toBe(1);
		expect(q.queue.get(key)!.where).toBe('active');
	});

	it('puts a pod rejected by plugins in unschedulablePods, and a node add it may fit brings it back (NodeResourcesFit hint)', () => {
		const q = setup();
		const key = q.add(big('p'));
		q.queue.pop();
		q.queue.addUnschedulableIfNotPresent(key, new Set(['NodeResourcesFit']), new Set());
		expect(q.queue.get(key)!.where).toBe('unschedulable');
		const small: Node = makeNode('small', { capacity: { cpu: '2', memory: '4Gi', pods: '110' } });
		expect(q.queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD, undefined, small)).toBe(0);
		expect(q.queue.get(key)!.where).toBe('unschedulable');
		const large: Node = makeNode('large', { capacity: { cpu: '8', memory: '16Gi', pods: '110' } });
		q.at(5000);
		expect(q.queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD, undefined, large)).toBe(1);
		expect(q.queue.get(key)!.where).toBe('active');
	});

	it('moves a pod still backing off to backoffQ, from where it is popped at once when activeQ is empty (SchedulerPopFromBackoffQ)', () => {
		const q = setup();
		const key = q.add(big('p'));
		q.queue.pop();
		q.queue.addUnschedulableIfNotPresent(key, new Set(['NodeResourcesFit']), new Set());
		q.queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD, undefined, makeNode('large', { capacity: { cpu: '8', memory: '16Gi', pods: '110' } }));
		expect(q.queue.get(key)!.where).toBe('backoff');
		const other = q.add(makePod('other'));
		expect(q.queue.pop()?.pod.key).toBe(other);
		expect(q.queue.pop()).toMatchObject({ from: 'backoff', pod: { key } });
	});

	it('ignores an event that none of the rejecting plugins registered', () => {
		const q = setup();
		const key = q.add(makePod('p', { tolerations: [] }));
		q.queue.pop();
		q.queue.addUnschedulableIfNotPresent(key, new Set(['TaintToleration']), new Set());
		expect(q.queue.moveAllToActiveOrBackoffQueue(EVENT_ASSIGNED_POD_DELETE, makePod('gone', { nodeName: 'n' }), undefined)).toBe(0);
		expect(q.queue.get(key)!.where).toBe('unschedulable');
	});

	it('brings back pods left in unschedulablePods longer than 5 minutes (podMaxInUnschedulablePodsDuration)', () => {
		const q = setup();
		const key = q.add(big('p'));
		q.queue.pop();
		q.at(1000);
		q.queue.addUnschedulableIfNotPresent(key, new Set(['TaintToleration']), new Set());
		q.at(1000 + 300_000);
		expect(q.queue.flushUnschedulablePodsLeftover()).toBe(0);
		q.at(1000 + 300_001);
		expect(q.queue.flushUnschedulablePodsLeftover()).toBe(1);
		expect(q.queue.get(key)!.where).toBe('active');
	});

	it('holds a pod with scheduling gates until an update removes them', () => {
		const q = setup();
		const gated = makePod('g', { schedulingGates: [{ name: 'example.com/wait' }] });
		const key = q.add(gated);
		expect(q.queue.get(key)).toMatchObject({ where: 'unschedulable', gatingPlugin: 'SchedulingGates', unschedulablePlugins: ['SchedulingGates'] });
		expect(q.queue.pop()).toBeUndefined();
		expect(q.queue.summary()).toEqual({ active: 0, backoff: 0, unschedulable: 1, gated: 1 });
		const ungated: Pod = { ...gated, metadata: { ...gated.metadata, resourceVersion: '2' }, spec: { ...gated.spec, schedulingGates: [] } };
		q.set(ungated);
		q.queue.update(gated, ungated);
		expect(q.queue.get(key)).toMatchObject({ where: 'active', gatingPlugin: '' });
		expect(q.queue.pop()?.pod.key).toBe(key);
	});

	it('forgets a deleted pod wherever it waits', () => {
		const q = setup();
		const pod = makePod('p');
		const key = q.add(pod);
		q.queue.delete(pod);
		expect(q.queue.get(key)).toBeUndefined();
		expect(q.queue.pop()).toBeUndefined();
	});

	it('remembers nominations and hands them to the filters (the nominator)', () => {
		const q = setup();
		const pod = makePod('vip', { priority: 10 });
		q.add(pod);
		q.queue.addNominatedPod(pod, { nominatedNodeName: 'node-1', mode: 'Override' });
		expect(q.queue.nominatedPodsForNode('node-1').map((p) => p.key)).toEqual(['default/vip']);
		q.queue.addNominatedPod(pod, { nominatedNodeName: '', mode: 'Override' });
		expect(q.queue.nominatedPodsForNode('node-1')).toEqual([]);
	});
});
