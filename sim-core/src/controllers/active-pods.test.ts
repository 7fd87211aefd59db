import { describe, it, expect } from 'vitest';
import type { Pod } from '../api/types.ts';
import { parseRfc3339 } from '../golang/time.ts';
import { deletePodFirst, podDeletionCost, podsToDelete, ranksByRelatedPodsOnSameNode } from './active-pods.ts';

const NOW = parseRfc3339('2026-11-30T10:00:00Z');

interface PodSpecForTest {
	name: string;
	node?: string;
	phase?: 'Pending' | 'Running' | 'Unknown';
	readySince?: string;
	created?: string;
	restarts?: number;
	cost?: string;
	uid?: string;
}

function pod(p: PodSpecForTest): Pod {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name: p.name, uid: p.uid ?? `uid-${p.name}`, creationTimestamp: p.created ?? '2026-11-30T09:00:00Z', annotations: p.cost ? { 'controller.kubernetes.io/pod-deletion-cost': p.cost } : undefined },
		spec: { containers: [{ name: 'c' }], nodeName: p.node },
		status: {
			phase: p.phase ?? 'Running',
			conditions: p.readySince ? [{ type: 'Ready', status: 'True', lastTransitionTime: p.readySince }] : [{ type: 'Ready', status: 'False' }],
			containerStatuses: [{ name: 'c', ready: !!p.readySince, restartCount: p.restarts ?? 0, image: 'img', imageID: '' }],
		},
	};
}

describe('deletePodFirst (ActivePodsWithRanks.Less)', () => {
	const ready = '2026-11-30T09:30:00Z';
	it.each([
		['an unassigned pod before an assigned one', { name: 'a', phase: 'Pending' }, { name: 'b', node: 'n1', phase: 'Pending' }],
		['Pending before Running', { name: 'a', node: 'n1', phase: 'Pending' }, { name: 'b', node: 'n1' }],
		['Pending before Unknown', { name: 'a', node: 'n1', phase: 'Pending' }, { name: 'b', node: 'n1', phase: 'Unknown' }],
		['Unknown before Running', { name: 'a', node: 'n1', phase: 'Unknown' }, { name: 'b', node: 'n1' }],
		['not ready before ready', { name: 'a', node: 'n1' }, { name: 'b', node: 'n1', readySince: ready }],
		['a lower pod-deletion-cost first', { name: 'a', node: 'n1', readySince: ready, cost: '-5' }, { name: 'b', node: 'n1', readySince: ready }],
		// Ready for 1 minute (log2 bucket of 6e10 ns: 35) against 30 minutes (bucket 40).
		['ready for less time first', { name: 'a', node: 'n1', readySince: '2026-11-30T09:59:00Z' }, { name: 'b', node: 'n1', readySince: ready }],
		['more restarts first', { name: 'a', node: 'n1', readySince: ready, restarts: 3 }, { name: 'b', node: 'n1', readySince: ready }],
		// Created 1 minute ago (bucket 35) against 1 hour ago (bucket 41).
		['newer first', { name: 'a', node: 'n1', created: '2026-11-30T09:59:00Z' }, { name: 'b', node: 'n1' }],
	] as const)('%s', (_name, first, second) => {
		expect(deletePodFirst(pod(first), 0, pod(second), 0, NOW)).toBe(true);
		expect(deletePodFirst(pod(second), 0, pod(first), 0, NOW)).toBe(false);
	});

	it('prefers the pod whose node holds more sibling pods (a higher rank)', () => {
		expect(deletePodFirst(pod({ name: 'a', node: 'n1' }), 2, pod({ name: 'b', node: 'n2' }), 1, NOW)).toBe(true);
	});

	it('falls back to the UID when two times land in the same log2 bucket', () => {
		// 60 s and 61 s ago are both in bucket 35 (2^35 ns is about 34 s, 2^36 about 69 s).
		const a = pod({ name: 'a', node: 'n1', created: '2026-11-30T09:59:00Z', uid: 'b-uid' });
		const b = pod({ name: 'b', node: 'n1', created: '2026-11-30T09:58:59Z', uid: 'a-uid' });
		expect(deletePodFirst(b, 0, a, 0, NOW)).toBe(true);
		expect(deletePodFirst(a, 0, b, 0, NOW)).toBe(false);
	});
});

describe('podDeletionCost', () => {
	it.each([
		['100', 100],
		['-2147483648', -2147483648],
		['2147483648', 0],
		['abc', 0],
	])('reads %j as %d', (text, expected) => {
		expect(podDeletionCost(pod({ name: 'p', cost: text }))).toBe(expected);
	});
});

describe('podsToDelete', () => {
	it('counts active related pods per node for the rank', () => {
		const pods = [pod({ name: 'a', node: 'n1' }), pod({ name: 'b', node: 'n1' }), pod({ name: 'c', node: 'n2' })];
		expect(ranksByRelatedPodsOnSameNode(pods, pods)).toEqual([2, 2, 1]);
	});

	it('picks the cheapest pods to lose: unscheduled, then not ready, then doubled-up ready ones', () => {
		const ready = '2026-11-30T09:30:00Z';
		const pods = [
			pod({ name: 'ready-alone', node: 'n2', readySince: ready }),
			pod({ name: 'ready-doubled-1', node: 'n1', readySince: ready }),
			pod({ name: 'ready-doubled-2', node: 'n1', readySince: ready }),
			pod({ name: 'not-ready', node: 'n3' }),
			pod({ name: 'unscheduled', phase: 'Pending' }),
		];
		expect(podsToDelete(pods, pods, 3, NOW).map((p) => p.metadata.name)).toEqual(['unscheduled', 'not-ready', 'ready-doubled-1']);
	});
});
