import { describe, it, expect } from 'vitest';
import type { Deployment, ReplicaSet } from '../../api/types.ts';
import {
	DESIRED_REPLICAS_ANNOTATION,
	MAX_REPLICAS_ANNOTATION,
	REVISION_ANNOTATION,
	REVISION_HISTORY_ANNOTATION,
	deploymentComplete,
	equalIgnoreHash,
	findActiveOrLatest,
	maxSurge,
	maxUnavailable,
	newRSNewReplicas,
	resolveFenceposts,
	scaledValue,
	setDeploymentCondition,
	setNewReplicaSetAnnotations,
	withDeploymentDefaults,
} from './deployment-util.ts';
import { proportionalScale } from './sync.ts';
import { maxScaledDown } from './rolling.ts';

function deployment(replicas: number, maxSurge?: number | string, maxUnavailable?: number | string, type: 'RollingUpdate' | 'Recreate' = 'RollingUpdate'): Deployment {
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name: 'foo', namespace: 'default', uid: 'd-uid', generation: 1 },
		spec: {
			replicas,
			selector: { matchLabels: { app: 'foo' } },
			template: { metadata: { labels: { app: 'foo' } }, spec: { containers: [{ name: 'c', image: 'img' }] } },
			strategy: type === 'Recreate' ? { type } : { type, rollingUpdate: { maxSurge: maxSurge ?? 0, maxUnavailable: maxUnavailable ?? 0 } },
		},
	};
}

function rs(name: string, replicas: number, createdSecond: number, annotations: Record<string, string> = {}, available = 0): ReplicaSet {
	return {
		apiVersion: 'apps/v1',
		kind: 'ReplicaSet',
		metadata: { name, namespace: 'default', uid: `${name}-uid`, creationTimestamp: `2026-11-30T08:00:${String(createdSecond).padStart(2, '0')}Z`, annotations },
		spec: { replicas, selector: { matchLabels: { app: 'foo' } }, template: { metadata: { labels: { app: 'foo' } }, spec: { containers: [] } } },
		status: { replicas, availableReplicas: available },
	};
}

describe('scaledValue (intstr.GetScaledValueFromIntOrPercent)', () => {
	it.each([
		[5, 10, true, 5],
		['25%', 10, true, 3],
		['25%', 10, false, 2],
		['25%', 3, true, 1],
		['25%', 3, false, 0],
		['100%', 7, false, 7],
	] as const)('%j of %d (round up: %s) is %d', (value, total, up, expected) => {
		expect(scaledValue(value, total, up)).toBe(expected);
	});
});

describe('resolveFenceposts', () => {
	// Cases of upstream's TestResolveFenceposts (deployment_util_test.go).
	it.each([
		['0%', '0%', 0, 0, 1],
		['39%', '39%', 10, 4, 3],
		[undefined, '39%', 10, 0, 3],
		['39%', undefined, 10, 4, 0],
		[undefined, undefined, 10, 0, 1],
	] as const)('surge %j, unavailable %j of %d resolve to %d and %d', (surge, unavailable, desired, expectSurge, expectUnavailable) => {
		expect(resolveFenceposts(surge, unavailable, desired)).toEqual({ surge: expectSurge, unavailable: expectUnavailable });
	});

	it('rounds the 25% defaults of a 3-replica Deployment to surge 1, unavailable 0', () => {
		const d = withDeploymentDefaults({ ...deployment(3), spec: { ...deployment(3).spec, strategy: undefined } });
		expect([maxSurge(d), maxUnavailable(d)]).toEqual([1, 0]);
	});

	it('never allows more unavailable pods than replicas, and none for Recreate', () => {
		expect(maxUnavailable(withDeploymentDefaults(deployment(2, 0, 5)))).toBe(2);
		expect(maxUnavailable(withDeploymentDefaults(deployment(2, undefined, undefined, 'Recreate')))).toBe(0);
		expect(maxSurge(withDeploymentDefaults(deployment(2, undefined, undefined, 'Recreate')))).toBe(0);
	});
});

describe('newRSNewReplicas', () => {
	it.each([
		// replicas, maxSurge, old sizes, new size, expected
		[10, '25%', [10], 0, 3],
		[10, '25%', [10], 3, 3],
		[10, '25%', [7], 3, 6],
		[3, 1, [3], 0, 1],
		[3, 1, [2], 1, 2],
		[3, 1, [0], 2, 3],
	] as const)('replicas %d, surge %j, old %j, new %d: the new ReplicaSet may have %d', (replicas, surge, olds, current, expected) => {
		const d = withDeploymentDefaults(deployment(replicas, surge, 0));
		const newRS = rs('new', current, 10);
		const all = [...olds.map((n, i) => rs(`old-${i}`, n, i)), newRS];
		expect(newRSNewReplicas(d, all, newRS)).toBe(expected);
	});

	it('gives the whole count at once for Recreate', () => {
		const d = withDeploymentDefaults(deployment(5, undefined, undefined, 'Recreate'));
		expect(newRSNewReplicas(d, [rs('old', 5, 0), rs('new', 0, 1)], rs('new', 0, 1))).toBe(5);
	});
});

describe('maxScaledDown', () => {
	it('only lets old pods go above replicas - maxUnavailable, not counting new pods that are not available yet', () => {
		const d = withDeploymentDefaults(deployment(3, 1, 0));
		// 3 old + 1 new (not yet available): nothing may go.
		expect(maxScaledDown([rs('old', 3, 0, {}, 3), rs('new', 1, 1)], rs('new', 1, 1), d)).toBe(0);
		// The new pod became available: one old pod may go.
		expect(maxScaledDown([rs('old', 3, 0, {}, 3), rs('new', 1, 1, {}, 1)], rs('new', 1, 1, {}, 1), d)).toBe(1);
	});
});

describe('proportionalScale', () => {
	// Cases of upstream's TestScale (sync_test.go): maxSurge and maxUnavailable 0; every
	// ReplicaSet annotated with the old size as desired and max replicas.
	const annotated = (size: number) => ({ [DESIRED_REPLICAS_ANNOTATION]: String(size), [MAX_REPLICAS_ANNOTATION]: String(size) });
	it.each([
		['5 -> 10', 5, 10, 2, [3], 4, [6]],
		['5 -> 3', 5, 3, 2, [3], 1, [2]],
		['9 -> 4', 9, 4, 8, [1], 4, [0]],
		['7 -> 10', 7, 10, 2, [3, 2], 3, [4, 3]],
		['13 -> 8', 13, 8, 2, [8, 3], 1, [5, 2]],
	] as const)('proportional scaling %s', (_name, oldReplicas, replicas, newSize, oldSizes, expectNew, expectOld) => {
		const d = withDeploymentDefaults(deployment(replicas, 0, 0));
		// The new ReplicaSet is the newest; old ones get older down the list.
		const newRS = rs('foo-v2', newSize, 30, annotated(oldReplicas));
		const oldRSs = oldSizes.map((n, i) => rs(`foo-v${1 - i}`, n, 20 - i, annotated(oldReplicas)));
		const { sizes } = proportionalScale(d, newRS, oldRSs);
		const byName = new Map(sizes.map((s) => [s.rs.metadata.name, s.size]));
		expect(byName.get('foo-v2')).toBe(expectNew);
		expect(oldRSs.map((o) => byName.get(o.metadata.name))).toEqual(expectOld);
	});

	it('reports the direction for the event wording', () => {
		const d = withDeploymentDefaults(deployment(10, 0, 0));
		expect(proportionalScale(d, rs('n', 2, 3, annotated(5)), [rs('o', 3, 1, annotated(5))]).scalingOperation).toBe('up');
		expect(proportionalScale(withDeploymentDefaults(deployment(3, 0, 0)), rs('n', 2, 3, annotated(5)), [rs('o', 3, 1, annotated(5))]).scalingOperation).toBe('down');
	});
});

describe('findActiveOrLatest', () => {
	it('is the single active ReplicaSet, the newest when none is active, nothing when several are', () => {
		expect(findActiveOrLatest(rs('new', 0, 5), [rs('old', 3, 1)])?.metadata.name).toBe('old');
		expect(findActiveOrLatest(undefined, [rs('a', 0, 1), rs('b', 0, 2)])?.metadata.name).toBe('b');
		expect(findActiveOrLatest(rs('new', 1, 5), [rs('old', 3, 1)])).toBeUndefined();
	});
});

describe('setNewReplicaSetAnnotations', () => {
	it('numbers a new ReplicaSet and records the replica counts', () => {
		const d = withDeploymentDefaults(deployment(3, '25%', '25%'));
		const r = rs('new', 0, 1);
		expect(setNewReplicaSetAnnotations(d, r, '4', false)).toBe(true);
		expect(r.metadata.annotations).toEqual({ [REVISION_ANNOTATION]: '4', [DESIRED_REPLICAS_ANNOTATION]: '3', [MAX_REPLICAS_ANNOTATION]: '4' });
	});

	it('keeps the old revision in revision-history when a ReplicaSet is reused by a rollback', () => {
		const d = withDeploymentDefaults(deployment(3));
		const r = rs('old', 0, 1, { [REVISION_ANNOTATION]: '1' });
		setNewReplicaSetAnnotations(d, r, '3', true);
		expect(r.metadata.annotations?.[REVISION_ANNOTATION]).toBe('3');
		expect(r.metadata.annotations?.[REVISION_HISTORY_ANNOTATION]).toBe('1');
		setNewReplicaSetAnnotations(d, r, '5', true);
		expect(r.metadata.annotations?.[REVISION_HISTORY_ANNOTATION]).toBe('1,3');
	});

	it('drops the oldest history entries to stay within the character limit', () => {
		const d = withDeploymentDefaults(deployment(3));
		const r = rs('old', 0, 1, { [REVISION_ANNOTATION]: '30', [REVISION_HISTORY_ANNOTATION]: '10,20' });
		setNewReplicaSetAnnotations(d, r, '40', true, 6);
		expect(r.metadata.annotations?.[REVISION_HISTORY_ANNOTATION]).toBe('20,30');
	});

	it('never lowers a revision and copies the Deployment annotations except its own bookkeeping', () => {
		const d = withDeploymentDefaults({ ...deployment(3), metadata: { ...deployment(3).metadata, annotations: { team: 'a', [REVISION_ANNOTATION]: '9' } } });
		const r = rs('x', 0, 1, { [REVISION_ANNOTATION]: '7' });
		setNewReplicaSetAnnotations(d, r, '5', true);
		expect(r.metadata.annotations).toEqual({ team: 'a', [REVISION_ANNOTATION]: '7' });
	});
});

describe('templates, conditions and completeness', () => {
	it('compares templates ignoring the pod-template-hash label', () => {
		const a = { metadata: { labels: { app: 'x', 'pod-template-hash': 'abc' } }, spec: { containers: [] } };
		const b = { metadata: { labels: { app: 'x' } }, spec: { containers: [] } };
		expect(equalIgnoreHash(a, b)).toBe(true);
		expect(equalIgnoreHash(a, { ...b, metadata: { labels: { app: 'y' } } })).toBe(false);
	});

	it('keeps lastTransitionTime when a condition only changes reason, and skips same status and reason', () => {
		const status: NonNullable<Deployment['status']> = {};
		setDeploymentCondition(status, { type: 'Progressing', status: 'True', reason: 'NewReplicaSetCreated', lastTransitionTime: 't1', lastUpdateTime: 't1' });
		setDeploymentCondition(status, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastTransitionTime: 't2', lastUpdateTime: 't2' });
		expect(status.conditions).toEqual([{ type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastTransitionTime: 't1', lastUpdateTime: 't2' }]);
		setDeploymentCondition(status, { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated', lastTransitionTime: 't3', lastUpdateTime: 't3' });
		expect(status.conditions?.[0].lastUpdateTime).toBe('t2');
	});

	it('calls a Deployment complete only with every replica updated and available and the generation observed', () => {
		const d = withDeploymentDefaults(deployment(3));
		expect(deploymentComplete(d, { replicas: 3, updatedReplicas: 3, availableReplicas: 3, observedGeneration: 1 })).toBe(true);
		expect(deploymentComplete(d, { replicas: 4, updatedReplicas: 3, availableReplicas: 3, observedGeneration: 1 })).toBe(false);
		expect(deploymentComplete(d, { replicas: 3, updatedReplicas: 3, availableReplicas: 3, observedGeneration: 0 })).toBe(false);
	});
});
