import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { createApiHarness } from '../../testing/api-harness.ts';
import { defaultStrategies } from './index.ts';

const PDB = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };

const pdb = (spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'zk-pdb', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'zookeeper' } }, ...spec } });

function client() {
	return createApiHarness({ deps: { strategies: defaultStrategies() } }).client('kubectl');
}

describe('the PodDisruptionBudget strategy', () => {
	it('starts at generation 1 with the four counters at 0, whatever status the request carried', () => {
		const c = client();
		const created = c.create<KubeObject>(PDB, 'default', { ...pdb({ minAvailable: 2 }), status: { disruptionsAllowed: 5, observedGeneration: 1 } });
		expect(created.ok && created.object.metadata.generation).toBe(1);
		expect(created.ok && created.object.status).toEqual({ currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 });
	});

	it('bumps the generation on a spec change only, and keeps the status on a main-resource update', () => {
		const c = client();
		const created = c.create<KubeObject>(PDB, 'default', pdb({ minAvailable: 2 }));
		if (!created.ok) throw new Error(created.message);
		const labelled = c.update<KubeObject>(PDB, { ...created.object, metadata: { ...created.object.metadata, labels: { team: 'a' } } });
		expect(labelled.ok && labelled.object.metadata.generation).toBe(1);
		if (!labelled.ok) throw new Error(labelled.message);
		const changed = c.update<KubeObject>(PDB, { ...labelled.object, spec: { ...(labelled.object.spec as object), minAvailable: 1 }, status: { disruptionsAllowed: 9 } });
		expect(changed.ok && changed.object.metadata.generation).toBe(2);
		expect(changed.ok && (changed.object.status as { disruptionsAllowed: number }).disruptionsAllowed).toBe(0);
	});

	it.each([
		[
			'both minAvailable and maxUnavailable',
			{ minAvailable: 2, maxUnavailable: 1 },
			'spec: Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000a3e1a0), Selector:(*v1.LabelSelector)(0xc000b1c2d0), MaxUnavailable:(*intstr.IntOrString)(0xc000a3e1c0), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
		],
		['a percentage over 100', { maxUnavailable: '150%' }, 'spec.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
		['a negative number', { minAvailable: -1 }, 'spec.minAvailable: Invalid value: -1: must be greater than or equal to 0'],
		['an unknown eviction policy', { minAvailable: 1, unhealthyPodEvictionPolicy: 'Sometimes' }, 'spec.unhealthyPodEvictionPolicy: Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"'],
	])('refuses %s', (_what, spec, cause) => {
		const created = client().create(PDB, 'default', pdb(spec));
		expect(created.ok).toBe(false);
		expect(!created.ok && created.code).toBe(422);
		expect(!created.ok && created.message).toContain(cause);
	});

	it('refuses a negative counter in a status update', () => {
		const c = client();
		const created = c.create<KubeObject>(PDB, 'default', pdb({ minAvailable: 2 }));
		if (!created.ok) throw new Error(created.message);
		const written = c.updateStatus(PDB, { ...created.object, status: { currentHealthy: -1, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 } });
		expect(!written.ok && written.message).toContain('status.currentHealthy: Invalid value: -1: must be greater than or equal to 0');
	});
});
