import { describe, expect, it } from 'vitest';
import { applyStep, startScenario } from './run.ts';
import type { Scenario } from './types.ts';

const base: Scenario = { id: 'demo/power', title: { en: 'Power', 'zh-cn': '电源' }, summary: { en: 'Power', 'zh-cn': '电源' }, cluster: { seed: 9 } };

describe('power in scenarios', () => {
	it('setup steps power a node off and on, as the reader would', () => {
		const run = startScenario({ ...base, setup: [{ powerOff: 'node-2' }, { advance: '10s' }] });
		expect(run.problems).toEqual([]);
		expect(run.cluster.isPoweredOff('node-2')).toBe(true);
		expect(run.cluster.inputs().slice(-2)).toEqual([
			{ kind: 'powerOff', node: 'node-2' },
			{ kind: 'advance', ms: 10_000 },
		]);
		expect(applyStep(run.cluster, { powerOff: 'node-2' })).toBe('node-2 is already powered off');
		expect(applyStep(run.cluster, { powerOn: 'node-2' })).toBeUndefined();
		expect(run.cluster.isPoweredOff('node-2')).toBe(false);
	});

	it('timed faults fire inside the simulation, credited to the scenario, and are not reader inputs', () => {
		const run = startScenario({ ...base, faults: [{ at: '30s', powerOff: 'node-1' }, { at: '2m', powerOn: 'node-1' }] });
		const { cluster, startMs } = run;
		const inputs = cluster.inputs().length;
		cluster.kernel.runUntil(startMs + 29_999);
		expect(cluster.isPoweredOff('node-1')).toBe(false);
		cluster.kernel.runUntil(startMs + 30_000);
		expect(cluster.isPoweredOff('node-1')).toBe(true);
		cluster.kernel.runUntil(startMs + 120_000);
		expect(cluster.isPoweredOff('node-1')).toBe(false);
		expect(cluster.trace({ sinceMs: startMs }).filter((e) => e.action === 'power-off' || e.action === 'power-on')).toMatchObject([
			{ component: 'scenario', action: 'power-off', object: 'nodes/node-1', atMs: startMs + 30_000 },
			{ component: 'scenario', action: 'power-on', object: 'nodes/node-1', atMs: startMs + 120_000 },
		]);
		expect(cluster.inputs()).toHaveLength(inputs);
	});
});

describe('the cluster a scenario asks for', () => {
	it('builds a managed-style cluster whose Nodes are only the workers', () => {
		const run = startScenario({ ...base, cluster: { controlPlane: { registerNode: false } } });
		expect(run.cluster.exec('kubectl get nodes -o name').stdout).toBe('node/node-1\nnode/node-2\n');
	});
});


describe('when the reader arrives', () => {
	const web: Scenario = {
		...base,
		setup: [{ run: 'kubectl create deployment web --image=nginx:1.27 --replicas=2' }],
		expect: { within: '2m', checks: [{ resource: 'deployments', namespace: 'default', name: 'web', path: '{.status.readyReplicas}', equals: '2' }] },
	};

	it('arrives once the expected state holds: the first `kubectl get` shows the Deployment the summary promises', () => {
		const run = startScenario(web);
		expect(run.problems).toEqual([]);
		// The wait is recorded as clock inputs, so replaying the inputs reaches the same moment.
		const again = startScenario(web);
		expect(again.cluster.inputs()).toEqual(run.cluster.inputs());
		expect(again.startMs).toBe(run.startMs);
		expect(again.cluster.fingerprint()).toBe(run.cluster.fingerprint());
		expect(run.cluster.inputs().filter((i) => i.kind === 'advance').length).toBeGreaterThan(0);
		expect(run.cluster.exec('kubectl get deploy web --no-headers').stdout).toMatch(/^web\s+2\/2\s+2\s+2\s/);
	});

	it('arrives right after the setup when the scenario starts in the middle of things', () => {
		const run = startScenario({ ...web, readerArrives: 'after-setup' });
		expect(run.problems).toEqual([]);
		expect(run.cluster.exec('kubectl get deploy web --no-headers').stdout).toMatch(/^web\s+0\/2\s/);
	});

	it('says so when the setup cannot reach the expected state within its time', () => {
		const run = startScenario({ ...web, expect: { within: '10s', checks: [{ resource: 'deployments', namespace: 'default', name: 'web', path: '{.status.readyReplicas}', equals: '3' }] } });
		expect(run.problems).toEqual(['the setup did not reach the expected state within 10s: {.status.readyReplicas} = "2"']);
	});
});
