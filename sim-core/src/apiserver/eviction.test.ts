import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { createApiHarness } from '../testing/api-harness.ts';
import { R } from '../client/client.ts';
import { defaultStrategies } from './registry/index.ts';
import { budgetsForPod, canIgnorePDB, decideEviction, type PodDisruptionBudget } from './eviction.ts';

const PDB = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };

const pod = (phase: string, ready = true, labels: Record<string, string> = { app: 'web' }): KubeObject => ({
	apiVersion: 'v1',
	kind: 'Pod',
	metadata: { name: 'web-1', namespace: 'default', labels, resourceVersion: '42' },
	spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] },
	status: { phase, conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
});

const budget = (name: string, status: PodDisruptionBudget['status'], selector: PodDisruptionBudget['spec'] = { selector: { matchLabels: { app: 'web' } } }, generation = 1): PodDisruptionBudget => ({
	apiVersion: 'policy/v1',
	kind: 'PodDisruptionBudget',
	metadata: { name, namespace: 'default', generation },
	spec: selector,
	status,
});

describe('eviction decisions (pod/storage/eviction.go)', () => {
	it.each([
		['Succeeded', true],
		['Failed', true],
		['Pending', true],
		['Running', false],
	])('lets a %s pod skip the budgets: %s', (phase, expected) => {
		expect(canIgnorePDB(pod(phase))).toBe(expected);
	});

	it('lets a pod already being deleted skip the budgets', () => {
		const p = pod('Running');
		p.metadata.deletionTimestamp = '2026-11-30T08:00:00Z';
		expect(canIgnorePDB(p)).toBe(true);
	});

	it('matches budgets by namespace and selector: policy/v1 lets an empty selector match every pod, a missing one none', () => {
		const budgets = [
			budget('a', {}),
			budget('empty', {}, { selector: {} }),
			budget('missing', {}, {}),
			budget('invalid', {}, { selector: { matchExpressions: [{ key: 'app', operator: 'Sometimes' as never }] } }),
			budget('other', {}, { selector: { matchLabels: { app: 'db' } } }),
			{ ...budget('elsewhere', {}), metadata: { name: 'elsewhere', namespace: 'shop' } },
		];
		expect(budgetsForPod(pod('Running'), budgets).map((b) => b.metadata.name)).toEqual(['a', 'empty']);
	});

	it('deletes when no budget selects the pod', () => {
		expect(decideEviction(pod('Running'), [], 'T', false)).toEqual({ action: 'delete' });
	});

	it('uses up one allowed disruption and records the pod', () => {
		const decision = decideEviction(pod('Running'), [budget('pdb', { observedGeneration: 1, disruptionsAllowed: 1, currentHealthy: 2, desiredHealthy: 1 })], '2026-11-30T08:00:05Z', false);
		expect(decision.action).toBe('delete');
		const status = (decision as { budget: PodDisruptionBudget }).budget.status!;
		expect(status.disruptionsAllowed).toBe(0);
		expect(status.disruptedPods).toEqual({ 'web-1': '2026-11-30T08:00:05Z' });
		expect(status.conditions).toEqual([{ type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: 1, lastTransitionTime: '2026-11-30T08:00:05Z' }]);
	});

	it('refuses with 429 and the budget cause when no disruption is allowed', () => {
		const decision = decideEviction(pod('Running'), [budget('pdb', { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 })], 'T', false);
		expect(decision).toEqual({
			action: 'refuse',
			response: {
				code: 429,
				body: {
					kind: 'Status',
					apiVersion: 'v1',
					metadata: {},
					status: 'Failure',
					message: "Cannot evict pod as it would violate the pod's disruption budget.",
					reason: 'TooManyRequests',
					code: 429,
					details: { causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget pdb needs 1 healthy pods and has 1 currently' }] },
				},
			},
		});
	});

	it('asks to retry after 10s while the disruption controller has not seen the budget', () => {
		const decision = decideEviction(pod('Running'), [budget('pdb', { observedGeneration: 1, disruptionsAllowed: 5 }, undefined, 2)], 'T', false) as { response: { body: { details: unknown } } };
		expect(decision.response.body.details).toEqual({ causes: [{ reason: 'DisruptionBudget', message: 'The disruption budget pdb is still being processed by the server.' }], retryAfterSeconds: 10 });
	});

	it('refuses a pod selected by two budgets with 500', () => {
		const decision = decideEviction(pod('Running'), [budget('a', {}), budget('b', {})], 'T', false) as { response: { code: number; body: { message: string } } };
		expect(decision.response.code).toBe(500);
		expect(decision.response.body.message).toBe('This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.');
	});

	it('deletes an unready pod while the budget is met, pinned to the pod resourceVersion', () => {
		expect(decideEviction(pod('Running', false), [budget('pdb', { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 2 })], 'T', false)).toEqual({ action: 'delete', resourceVersionPrecondition: '42' });
	});

	describe('unhealthyPodEvictionPolicy', () => {
		// The application is disrupted: 1 healthy pod where 2 are wanted.
		const broken = { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 2 };
		const withPolicy = (policy?: 'IfHealthyBudget' | 'AlwaysAllow') => budget('pdb', broken, { selector: { matchLabels: { app: 'web' } }, ...(policy ? { unhealthyPodEvictionPolicy: policy } : {}) });
		it.each([
			['unset (IfHealthyBudget behaviour)', undefined],
			['IfHealthyBudget', 'IfHealthyBudget' as const],
		])('%s: an unready pod of a disrupted application is protected like a healthy one', (_name, policy) => {
			const decision = decideEviction(pod('Running', false), [withPolicy(policy)], 'T', false) as { action: string; response: { code: number } };
			expect(decision.action).toBe('refuse');
			expect(decision.response.code).toBe(429);
		});

		it('AlwaysAllow: an unready pod goes at once, using up no disruption, pinned to its resourceVersion', () => {
			expect(decideEviction(pod('Running', false), [withPolicy('AlwaysAllow')], 'T', false)).toEqual({ action: 'delete', resourceVersionPrecondition: '42' });
		});

		it('AlwaysAllow still protects a ready pod', () => {
			expect(decideEviction(pod('Running', true), [withPolicy('AlwaysAllow')], 'T', false).action).toBe('refuse');
		});
	});
});

describe('POST pods/<name>/eviction', () => {
	function cluster() {
		const h = createApiHarness({ deps: { strategies: defaultStrategies() } });
		const c = h.client('kubectl');
		const created = c.create<KubeObject>(R.pods, 'default', pod('Running'));
		// The kubelet's part: the pod runs and is ready.
		if (created.ok) c.updateStatus(R.pods, { ...created.object, status: pod('Running').status });
		return { h, c };
	}
	const evict = (c: ReturnType<typeof cluster>['c'], name = 'web-1', body: unknown = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace: 'default' } }) =>
		c.call({ verb: 'create', ...R.pods, namespace: 'default', name, subresource: 'eviction', body });

	it('deletes the pod gracefully and answers 201 Success, marking it DisruptionTarget first', () => {
		const { c } = cluster();
		expect(evict(c)).toEqual({ ok: true, code: 201, object: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, warnings: undefined });
		// Bound to a node: graceful, so it is now terminating.
		const evicted = (c.get(R.pods, 'default', 'web-1') as { object: KubeObject }).object;
		expect(evicted.metadata.deletionTimestamp).toBeDefined();
		const conditions = (evicted.status as { conditions: Array<Record<string, unknown>> }).conditions;
		expect(conditions.find((cond) => cond.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'EvictionByEvictionAPI', message: 'Eviction API: evicting', lastProbeTime: null });
	});

	it('leaves a dry-run eviction without the condition or the deletion', () => {
		const { c } = cluster();
		expect(c.call({ verb: 'create', ...R.pods, namespace: 'default', name: 'web-1', subresource: 'eviction', body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'web-1' }, deleteOptions: { dryRun: ['All'] } } }).ok).toBe(true);
		const live = (c.get(R.pods, 'default', 'web-1') as { object: KubeObject }).object;
		expect(live.metadata.deletionTimestamp).toBeUndefined();
		expect((live.status as { conditions: Array<{ type: string }> }).conditions.map((cond) => cond.type)).toEqual(['Ready']);
	});

	it('honours a budget stored in the cluster, and updates it', () => {
		const { c } = cluster();
		c.create(PDB, 'default', budget('pdb', { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1 }));
		expect(evict(c)).toMatchObject({ ok: false, code: 429, reason: 'TooManyRequests', message: "Cannot evict pod as it would violate the pod's disruption budget." });
		expect((c.get(R.pods, 'default', 'web-1') as { object: KubeObject }).object.metadata.deletionTimestamp).toBeUndefined();
	});

	it.each([
		['a missing pod', 'ghost', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'ghost' } }, { code: 404, message: 'pods "ghost" not found' }],
		['a body naming another pod', 'web-1', { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: 'other' } }, { code: 400, message: 'name in URL does not match name in Eviction object' }],
	])('rejects %s', (_what, name, body, expected) => {
		const { c } = cluster();
		expect(evict(c, name, body)).toMatchObject({ ok: false, ...expected });
	});
});
