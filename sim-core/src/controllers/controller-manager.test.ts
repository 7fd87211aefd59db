import { describe, it, expect } from 'vitest';
import type { Deployment, Lease } from '../api/types.ts';
import { R } from '../client/client.ts';
import { KubeControllerManager, isControllerEnabled } from './controller-manager.ts';
import { createControllerHarness } from '../testing/controllers/harness.ts';
import { deployment, get, waitFor } from '../testing/controllers/builders.ts';

describe('isControllerEnabled (--controllers)', () => {
	it.each([
		[['*'], true],
		[['*', '-deployment-controller'], false],
		[['*', '-deployment'], false],
		[['deployment'], true],
		[['replicaset-controller'], false],
		[[], false],
		[['-deployment', '*'], false],
	])('%j runs the deployment controller: %s', (flags, expected) => {
		expect(isControllerEnabled('deployment-controller', 'deployment', flags)).toBe(expected);
	});
});

describe('kube-controller-manager', () => {
	it('runs only the controllers --controllers names', () => {
		const c = createControllerHarness({ kcm: { controllers: ['*', '-deployment'] } });
		expect([...c.kcm.controllers.keys()]).not.toContain('deployment');
		c.kubectl.create(R.deployments, 'default', deployment('web', 1, 'nginx:1.27'));
		c.advance(5000);
		expect(c.list(R.replicasets, 'default')).toHaveLength(0);
		expect(c.kernel.trace.events().some((e) => e.sub === 'deployment')).toBe(false);
	});

	it('leads through the kube-system/kube-controller-manager Lease; a standby runs nothing until the leader is gone', () => {
		const c = createControllerHarness();
		const standby = new KubeControllerManager(c.kernel, c.h.transport, { hostname: 'control-plane-2' }, 'kube-controller-manager-2');
		c.kernel.register(standby);
		c.kernel.start('kube-controller-manager-2');
		c.kubectl.create(R.deployments, 'default', deployment('web', 1, 'nginx:1.27'));
		c.advance(10_000);
		const lease = get<Lease>(c, R.leases, 'kube-system', 'kube-controller-manager')!;
		expect(lease.spec.holderIdentity).toMatch(/^control-plane_[0-9a-f-]{36}$/);
		expect(lease.spec.leaseDurationSeconds).toBe(15);
		expect(c.kernel.trace.events().some((e) => e.component === 'kube-controller-manager-2' && e.sub)).toBe(false);

		c.kernel.stop('kube-controller-manager');
		const stoppedAt = c.kernel.nowMs;
		expect(c.kubectl.patch(R.deployments, 'default', 'web', { spec: { replicas: 3 } }).ok).toBe(true);
		waitFor(c, 'the standby to take over and scale', () => (get<Deployment>(c, R.deployments, 'default', 'web')?.status?.availableReplicas ?? 0) === 3, 60_000);
		const acquired = c.kernel.trace.events().find((e) => e.component === 'kube-controller-manager-2' && e.msg === 'successfully acquired lease kube-system/kube-controller-manager')!;
		// The old lease must look unrenewed for leaseDuration (15 s), checked every retryPeriod (2 s).
		expect(acquired.atMs - stoppedAt).toBeGreaterThanOrEqual(13_000);
		expect(acquired.atMs - stoppedAt).toBeLessThanOrEqual(17_000);
		const after = get<Lease>(c, R.leases, 'kube-system', 'kube-controller-manager')!;
		expect(after.spec.holderIdentity).toMatch(/^control-plane-2_/);
		expect(after.spec.leaseTransitions).toBe(1);
	});

	it('keeps its whole memory as plain JSON, and two runs from one seed leave the same trace', () => {
		const run = () => {
			const c = createControllerHarness({ seed: 42 });
			c.kubectl.create(R.deployments, 'default', deployment('web', 3, 'nginx:1.27'));
			c.advance(20_000);
			expect(JSON.parse(JSON.stringify(c.kcm.state))).toEqual(c.kcm.state);
			return c.kernel.trace.fingerprint();
		};
		expect(run()).toBe(run());
	});

	it('continues from a snapshot exactly as it would have without one', () => {
		const a = createControllerHarness({ seed: 5 });
		a.kubectl.create(R.deployments, 'default', deployment('web', 3, 'nginx:1.27'));
		a.advance(1500);
		a.kubectl.patch(R.deployments, 'default', 'web', { spec: { template: { spec: { containers: [{ name: 'main', image: 'nginx:1.28' }] } } } });
		a.advance(1003);
		const snapshot = JSON.parse(JSON.stringify(a.snapshot()));
		a.advance(30_000);
		const b = createControllerHarness({ seed: 5, restore: snapshot });
		b.advance(30_000);
		expect(b.kernel.trace.fingerprint()).toBe(a.kernel.trace.fingerprint());
		expect(b.kcm.state).toEqual(a.kcm.state);
	});

	it('stops its loops when it loses the lease and campaigns again', () => {
		const c = createControllerHarness();
		c.advance(3000);
		// Another holder takes the lease over (as a partition from the API server would make it lose it).
		const lease = get<Lease>(c, R.leases, 'kube-system', 'kube-controller-manager')!;
		c.h.setPartitioned('control-plane', true);
		c.h.transport.enroll('kube-controller-manager', { username: 'system:kube-controller-manager', groups: ['system:authenticated'] }, 'control-plane');
		c.advance(12_000);
		expect(c.kcm.state.leading).toBe(false);
		expect(c.kernel.trace.events().some((e) => e.component === 'kube-controller-manager' && e.msg === 'leaderelection lost; stopping every controller')).toBe(true);
		c.h.setPartitioned('control-plane', false);
		c.advance(20_000);
		expect(c.kcm.state.leading).toBe(true);
		expect(get<Lease>(c, R.leases, 'kube-system', 'kube-controller-manager')?.spec.holderIdentity).not.toBe(lease.spec.holderIdentity);
	});
});
