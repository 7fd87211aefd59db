import { describe, expect, it } from 'vitest';
import type { ApiRequest } from '../../api/request.ts';
import type { Pod } from '../../api/types.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { NodeToStatus } from '../framework/fit-error.ts';
import { Code, Status } from '../framework/status.ts';
import { newTestFramework } from '../../testing/scheduler/framework.ts';
import { makeNode, makePod, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { DefaultPreemption, moreImportantPod, type Candidate } from './default-preemption.ts';

const node = (name: string) => makeNode(name, { capacity: { cpu: '2', memory: '4Gi', pods: '110' } });
const running = (name: string, nodeName: string, cpu: string, priority: number, startTime = '2026-11-30T08:00:00Z') => {
	const p = makePod(name, { nodeName, requests: [{ cpu }], priority });
	p.status = { startTime };
	return p;
};

function preemptor(pods: Pod[], nodes = [node('node-1')]) {
	const cache = snapshotOf(nodes, pods);
	const requests: ApiRequest[] = [];
	const fw = newTestFramework(cache, { requests });
	const plugin = fw.postFilterPlugins[0] as DefaultPreemption;
	return { cache, fw, plugin, requests };
}

describe('DefaultPreemption: choosing victims on a node (SelectVictimsOnNode)', () => {
	it('removes every lower-priority pod, then reprieves the most important ones that still leave room', () => {
		const pods = [running('p1', 'node-1', '1000m', 10), running('p2', 'node-1', '500m', 5), running('p3', 'node-1', '500m', 1)];
		const { cache, fw, plugin } = preemptor(pods);
		const pod = makePod('vip', { requests: [{ cpu: '1' }], priority: 100 });
		const state = new CycleState();
		fw.runPreFilterPlugins(state, pod, cache.list());
		const { victims, status } = plugin.selectVictimsOnNode(state, pod, cache.get('node-1')!.clone());
		expect(status?.code).toBe(Code.Success);
		expect(victims.map((v) => v.metadata.name)).toEqual(['p2', 'p3']);
	});

	it('finds no victims among pods of equal or higher priority', () => {
		const { cache, fw, plugin } = preemptor([running('same', 'node-1', '1500m', 100)]);
		const pod = makePod('vip', { requests: [{ cpu: '1' }], priority: 100 });
		const state = new CycleState();
		fw.runPreFilterPlugins(state, pod, cache.list());
		const { victims, status } = plugin.selectVictimsOnNode(state, pod, cache.get('node-1')!.clone());
		expect(victims).toEqual([]);
		expect(status && { code: status.code, reasons: status.allReasons() }).toEqual({ code: Code.UnschedulableAndUnresolvable, reasons: ['No preemption victims found for incoming pod'] });
	});

	it("reports the filter's reason when evicting every lower-priority pod is still not enough", () => {
		const { cache, fw, plugin } = preemptor([running('high', 'node-1', '1500m', 500), running('low', 'node-1', '200m', 0)]);
		const pod = makePod('vip', { requests: [{ cpu: '1' }], priority: 100 });
		const state = new CycleState();
		fw.runPreFilterPlugins(state, pod, cache.list());
		const { status } = plugin.selectVictimsOnNode(state, pod, cache.get('node-1')!.clone());
		expect(status?.allReasons()).toEqual(['Insufficient cpu']);
	});
});

describe('DefaultPreemption: evicting', () => {
	it('marks each victim DisruptionTarget, deletes it, records Preempted and nominates the node', () => {
		const { cache, fw, requests } = preemptor([running('low', 'node-1', '1500m', 0)]);
		const pod = makePod('vip', { requests: [{ cpu: '1' }], priority: 100, uid: 'vip-uid', schedulerName: 'default-scheduler' });
		const state = new CycleState();
		fw.runPreFilterPlugins(state, pod, cache.list());
		const m = new NodeToStatus();
		m.set('node-1', new Status(Code.Unschedulable, ['Insufficient cpu']));
		const { result, status } = fw.runPostFilterPlugins(state, pod, m);
		expect(status.code).toBe(Code.Success);
		expect(result?.nominatingInfo).toEqual({ nominatedNodeName: 'node-1', mode: 'Override' });
		expect(requests.map((r) => `${r.verb} ${r.resource}/${r.name}${r.subresource ? '/' + r.subresource : ''}`)).toEqual(['patch pods/low/status', 'delete pods/low']);
		const condition = (requests[0].body as { status: { conditions: Array<Record<string, unknown>> } }).status.conditions[0];
		expect(condition).toMatchObject({ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: 'default-scheduler: preempting to accommodate a higher priority pod' });
	});

	it('says why when the pod may not preempt (preemptionPolicy: Never)', () => {
		const { cache, fw } = preemptor([running('low', 'node-1', '1500m', 0)]);
		const pod = makePod('vip', { requests: [{ cpu: '1' }], priority: 100, preemptionPolicy: 'Never' });
		const state = new CycleState();
		fw.runPreFilterPlugins(state, pod, cache.list());
		const m = new NodeToStatus();
		m.set('node-1', new Status(Code.Unschedulable, ['Insufficient cpu']));
		expect(fw.runPostFilterPlugins(state, pod, m).status.message()).toBe('preemption: not eligible due to preemptionPolicy=Never.');
	});

	it('waits while a victim it already preempted on the nominated node is still terminating', () => {
		const victim = running('low', 'node-1', '1500m', 0);
		victim.metadata.deletionTimestamp = '2026-11-30T08:00:30Z';
		victim.status = { ...victim.status, conditions: [{ type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler' }] };
		const { plugin } = preemptor([victim]);
		const pod = makePod('vip', { requests: [{ cpu: '1' }], priority: 100 });
		pod.status = { nominatedNodeName: 'node-1' };
		expect(plugin.podEligibleToPreemptOthers(pod, new Status(Code.Unschedulable, ['Insufficient cpu']))).toBe('not eligible due to a terminating pod on the nominated node.');
	});
});

describe('DefaultPreemption: picking the node (pickOneNodeForPreemption)', () => {
	const { plugin } = preemptor([]);
	const candidate = (name: string, victims: Array<[number, string?]>): Candidate => ({
		name,
		numPDBViolations: 0,
		victims: victims.map(([priority, start], i) => {
			const p = makePod(`${name}-${i}`, { priority });
			if (start) p.status = { startTime: start };
			return p;
		}),
	});

	it.each([
		{ name: 'the lowest highest-priority victim wins', candidates: [candidate('a', [[10]]), candidate('b', [[5], [5]])], want: 'b' },
		{ name: 'then the smallest sum of priorities', candidates: [candidate('a', [[5], [4]]), candidate('b', [[5], [1]])], want: 'b' },
		// Each priority is shifted by MaxInt32 + 1 before summing, so more victims weigh more than lower priorities.
		{ name: 'where the shift makes the number of victims count first', candidates: [candidate('a', [[5], [4]]), candidate('b', [[5], [1], [1]])], want: 'a' },
		{ name: 'then the fewest victims', candidates: [candidate('a', [[5], [0]]), candidate('b', [[5]])], want: 'b' },
		{
			name: 'then the latest start among the most important victims',
			candidates: [candidate('a', [[5, '2026-11-30T08:00:00Z']]), candidate('b', [[5, '2026-11-30T09:00:00Z']])],
			want: 'b',
		},
		{ name: 'then the first', candidates: [candidate('a', [[5]]), candidate('b', [[5]])], want: 'a' },
	])('$name', ({ candidates, want }) => {
		expect(plugin.selectCandidate(candidates).name).toBe(want);
	});
});

describe('DefaultPreemption: how many candidate nodes to dry-run (minCandidateNodesPercentage 10, minCandidateNodesAbsolute 100)', () => {
	const { plugin } = preemptor([]);
	it.each([
		{ nodes: 10, want: 10 },
		{ nodes: 150, want: 100 },
		{ nodes: 5000, want: 500 },
	])('$nodes potential nodes: $want', ({ nodes, want }) => {
		expect(plugin.calculateNumCandidates(nodes)).toBe(want);
	});

	it('orders pods by priority, then by earlier start (MoreImportantPod)', () => {
		const early = makePod('early', { priority: 1 });
		early.status = { startTime: '2026-11-30T08:00:00Z' };
		const late = makePod('late', { priority: 1 });
		late.status = { startTime: '2026-11-30T08:05:00Z' };
		expect(moreImportantPod(makePod('hi', { priority: 2 }), early)).toBe(true);
		expect(moreImportantPod(early, late)).toBe(true);
		expect(moreImportantPod(late, early)).toBe(false);
	});

	it('rejects arguments out of range', () => {
		expect(() => new DefaultPreemption({ minCandidateNodesPercentage: 101 }, newTestFramework(snapshotOf([])).handle)).toThrow('minCandidateNodesPercentage: Invalid value: 101: not in valid range [0, 100]');
	});
});
