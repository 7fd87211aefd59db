import { describe, it, expect } from 'vitest';
import type { OwnerReference, Pod } from '../api/types.ts';
import { formatRfc3339, parseRfc3339 } from '../golang/time.ts';
import {
	buildDisruptedPodMap,
	countHealthyPods,
	DELETION_TIMEOUT_MS,
	disruptionsAllowed,
	getExpectedPodCount,
	getScaledValueFromIntOrPercent,
	labelSelectorString,
	type ControllerFinder,
	type PodDisruptionBudget,
} from './disruption.ts';

const NOW = parseRfc3339('2026-11-30T08:10:00Z');
const ago = (ms: number) => formatRfc3339(NOW - ms);

const rsRef = (name: string): OwnerReference => ({ apiVersion: 'apps/v1', kind: 'ReplicaSet', name, uid: `uid-${name}`, controller: true });

function pod(name: string, opts: { ready?: boolean; owner?: OwnerReference | null; deleting?: boolean } = {}): Pod {
	const owner = opts.owner === undefined ? rsRef('web') : opts.owner;
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, namespace: 'default', labels: { app: 'web' }, ...(owner ? { ownerReferences: [owner] } : {}), ...(opts.deleting ? { deletionTimestamp: ago(1000) } : {}) },
		spec: { containers: [{ name: 'c', image: 'nginx' }] },
		status: { phase: 'Running', conditions: [{ type: 'Ready', status: opts.ready === false ? 'False' : 'True' }] },
	};
}

const budget = (spec: PodDisruptionBudget['spec']): PodDisruptionBudget => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'pdb', namespace: 'default', generation: 1 }, spec });

/** A finder that knows ReplicaSets by name and their scale. */
const scales =
	(table: Record<string, number>): ControllerFinder =>
	(ref) =>
		ref.kind === 'ReplicaSet' && ref.name in table ? { uid: ref.uid, scale: table[ref.name] } : undefined;

describe('GetScaledValueFromIntOrPercent', () => {
	it.each([
		[2, 10, true, 2],
		['25%', 10, true, 3],
		['25%', 10, false, 2],
		['50%', 3, true, 2],
		['50%', 3, false, 1],
		['1%', 1, true, 1],
		['0%', 7, true, 0],
		['100%', 7, true, 7],
	])('%s of %i (round up: %s) is %i', (value, total, roundUp, expected) => {
		expect(getScaledValueFromIntOrPercent(value, total, roundUp)).toEqual({ value: expected });
	});

	it('refuses a string that is not a percentage', () => {
		expect(getScaledValueFromIntOrPercent('3', 10, true)).toEqual({ error: 'invalid value for IntOrString: invalid type: string is not a percentage' });
	});
});

describe('getExpectedPodCount', () => {
	const three = [pod('a'), pod('b'), pod('c')];

	it('an integer minAvailable counts the matching pods themselves, owners or not', () => {
		const pods = [pod('a'), pod('b', { owner: null })];
		expect(getExpectedPodCount(budget({ minAvailable: 2 }), pods, [])).toEqual({ expectedCount: 2, desiredHealthy: 2, unmanagedPods: [] });
	});

	it('a percentage minAvailable uses the owners scale, rounded up', () => {
		// Two of the controller's four replicas exist now: the budget still expects four.
		expect(getExpectedPodCount(budget({ minAvailable: '50%' }), three.slice(0, 2), [scales({ web: 4 })])).toEqual({ expectedCount: 4, desiredHealthy: 2, unmanagedPods: [] });
		expect(getExpectedPodCount(budget({ minAvailable: '50%' }), three, [scales({ web: 3 })])).toEqual({ expectedCount: 3, desiredHealthy: 2, unmanagedPods: [] });
	});

	it.each([
		// maxUnavailable rounds up too, so desiredHealthy comes out lower.
		[1, 3, 2],
		['50%', 3, 1],
		['25%', 10, 7],
		['34%', 3, 1],
		['100%', 3, 0],
		[5, 3, 0],
	])('maxUnavailable %s of %i replicas wants %i healthy', (maxUnavailable, replicas, desired) => {
		const pods = Array.from({ length: replicas }, (_, i) => pod(`p${i}`));
		expect(getExpectedPodCount(budget({ maxUnavailable }), pods, [scales({ web: replicas })])).toMatchObject({ expectedCount: replicas, desiredHealthy: desired });
	});

	it('sums the scale of each distinct controller once', () => {
		const pods = [pod('a', { owner: rsRef('web') }), pod('b', { owner: rsRef('web') }), pod('c', { owner: rsRef('api') })];
		expect(getExpectedPodCount(budget({ maxUnavailable: 1 }), pods, [scales({ web: 2, api: 5 })])).toMatchObject({ expectedCount: 7, desiredHealthy: 6 });
	});

	it('sets pods without a controller aside, for the UnmanagedPods warning', () => {
		const pods = [pod('a'), pod('lonely', { owner: null })];
		expect(getExpectedPodCount(budget({ maxUnavailable: 1 }), pods, [scales({ web: 1 })])).toEqual({ expectedCount: 1, desiredHealthy: 0, unmanagedPods: ['lonely'] });
	});

	it('fails when no finder knows a pod s controller, or a finder fails', () => {
		const ds: OwnerReference = { apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'agent', uid: 'uid-agent', controller: true };
		expect(getExpectedPodCount(budget({ maxUnavailable: 1 }), [pod('agent-x', { owner: ds })], [scales({})])).toEqual({ error: 'found no controllers for pod "agent-x"' });
		const noScale: ControllerFinder = (ref) => (ref.kind === 'DaemonSet' ? { error: 'daemonsets.apps does not implement the scale subresource' } : undefined);
		expect(getExpectedPodCount(budget({ minAvailable: '50%' }), [pod('agent-x', { owner: ds })], [noScale])).toEqual({ error: 'daemonsets.apps does not implement the scale subresource' });
	});

	it('leaves everything at 0 when the budget sets neither field', () => {
		expect(getExpectedPodCount(budget({}), three, [])).toEqual({ expectedCount: 0, desiredHealthy: 0, unmanagedPods: [] });
	});
});

describe('countHealthyPods and buildDisruptedPodMap', () => {
	const pods = [pod('ready'), pod('unready', { ready: false }), pod('deleting', { deleting: true }), pod('claimed'), pod('stale')];
	const claims = { claimed: ago(30_000), stale: ago(DELETION_TIMEOUT_MS + 1000), deleting: ago(5000), gone: ago(1000) };

	it('counts Ready pods that are neither being deleted nor claimed by a recent eviction', () => {
		expect(countHealthyPods(pods, claims, NOW)).toBe(2); // ready, stale (its claim expired)
		expect(countHealthyPods(pods, {}, NOW)).toBe(3);
	});

	it('keeps recent claims of pods still there, drops the rest, and says when to look again', () => {
		const built = buildDisruptedPodMap(pods, claims, NOW);
		expect(built.disruptedPods).toEqual({ claimed: claims.claimed });
		expect(built.expired.map((p) => p.metadata.name)).toEqual(['stale']);
		expect(built.recheckWallMs).toBe(NOW - 30_000 + DELETION_TIMEOUT_MS);
	});

	it('a claim exactly DeletionTimeout old is neither kept healthy nor expired yet', () => {
		const exact = { ready: ago(DELETION_TIMEOUT_MS) };
		expect(countHealthyPods([pod('ready')], exact, NOW)).toBe(1);
		expect(buildDisruptedPodMap([pod('ready')], exact, NOW)).toEqual({ disruptedPods: exact, expired: [], recheckWallMs: NOW });
	});
});

describe('disruptionsAllowed', () => {
	it.each([
		[3, 2, 3, 1],
		[2, 2, 3, 0],
		[1, 2, 3, 0],
		// No pods expected yet: nothing may be disrupted, whatever the counts say.
		[3, 0, 0, 0],
	])('healthy %i, desired %i, expected %i: %i', (healthy, desired, expected, allowed) => {
		expect(disruptionsAllowed(healthy, desired, expected)).toBe(allowed);
	});
});

describe('labelSelectorString', () => {
	it('prints a selector as its generated String method does', () => {
		expect(labelSelectorString({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'tier', operator: 'In', values: ['x', 'y'] }] })).toBe(
			'&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:tier,Operator:In,Values:[x y],},},}',
		);
		expect(labelSelectorString(undefined)).toBe('nil');
	});
});
