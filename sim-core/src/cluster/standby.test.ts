/**
 * Standby replicas of kube-scheduler and kube-controller-manager
 * (`controlPlane: { schedulers, controllerManagers }`): one per control-plane
 * machine, exactly one leader per Lease, and the standby takes over within
 * the lease duration (15 s) plus a retry period (2 s) once the leader stops,
 * recording upstream's `<identity> became leader` event.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster } from '../index.ts';
import type { Cluster } from './cluster.ts';

const LEASES = ['kube-scheduler', 'kube-controller-manager'] as const;

function holder(cluster: Cluster, lease: string): string {
	return cluster.exec(`kubectl get lease -n kube-system ${lease} -o jsonpath={.spec.holderIdentity}`).stdout;
}

/** The machine a holder identity (`<hostname>_<uuid>`) names. */
function machineOf(identity: string): string {
	return identity.slice(0, identity.lastIndexOf('_'));
}

describe('standby replicas of the scheduler and the controller manager', () => {
	it('run one per control-plane machine, a second machine added for the second replica', () => {
		const cluster = createCluster({ seed: 5, controlPlane: { schedulers: 2, controllerManagers: 2 } });
		const nodes = cluster.exec('kubectl get nodes --no-headers').stdout;
		expect(nodes).toMatch(/^control-plane-2\s+Ready\s+control-plane\s/m);
		const pods = cluster.exec('kubectl get pods -n kube-system --no-headers').stdout;
		for (const component of LEASES) {
			expect(pods).toMatch(new RegExp(`^${component}-control-plane\\s+1/1\\s+Running`, 'm'));
			expect(pods).toMatch(new RegExp(`^${component}-control-plane-2\\s+1/1\\s+Running`, 'm'));
		}
		// The extra machine holds replicas only: etcd and the API server stay single until the HA work.
		expect(pods).not.toMatch(/^(etcd|kube-apiserver)-control-plane-2/m);
		const leaders = cluster.components().filter((c) => c.leader);
		expect(leaders.map((c) => c.component).sort()).toEqual(['kube-controller-manager', 'kube-scheduler']);
	});

	it('lets the standby take over within the lease duration when the leader stops, and keeps working', () => {
		const cluster = createCluster({ seed: 5, controlPlane: { schedulers: 2, controllerManagers: 2 } });
		for (const lease of LEASES) {
			const leaderMachine = machineOf(holder(cluster, lease));
			const start = cluster.now();
			cluster.stop(lease, leaderMachine);
			// Poll the Lease second by second, as a reader watching `kubectl get lease -w` would.
			let tookOverAfterMs: number | undefined;
			for (let s = 0; s < 40 && tookOverAfterMs === undefined; s++) {
				cluster.advance('1s');
				const now = holder(cluster, lease);
				if (machineOf(now) !== leaderMachine) tookOverAfterMs = cluster.now() - start;
			}
			expect(tookOverAfterMs).toBeDefined();
			// Not before the old holder's lease ran out (15 s), and at most one retry period (2 s, jittered) after.
			expect(tookOverAfterMs!).toBeGreaterThanOrEqual(15_000);
			expect(tookOverAfterMs!).toBeLessThanOrEqual(19_000);
			const newHolder = holder(cluster, lease);
			expect(cluster.exec('kubectl get events -n kube-system --field-selector reason=LeaderElection').stdout).toContain(`${newHolder} became leader`);
		}
		// With both original leaders down, the standbys schedule and reconcile.
		cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=3');
		expect(cluster.settle({ maxMs: 120_000 }).settled).toBe(true);
		expect(cluster.exec('kubectl get deployment web --no-headers').stdout).toMatch(/^web\s+3\/3\s/);
	});

	// Several restarts and a restore take a few seconds: more than vitest's default 5 s on a busy 2-core machine.
	it('never has two leaders at once, through stops, restarts and a restore', () => {
		let cluster = createCluster({ seed: 9, controlPlane: { schedulers: 3, controllerManagers: 3 } });
		const machines = ['control-plane', 'control-plane-2', 'control-plane-3'];
		const plan: Array<['stop' | 'start', (typeof LEASES)[number], string]> = [
			['stop', 'kube-scheduler', 'control-plane'],
			['stop', 'kube-controller-manager', 'control-plane-2'],
			['stop', 'kube-scheduler', 'control-plane-3'],
			['start', 'kube-scheduler', 'control-plane'],
			['stop', 'kube-controller-manager', 'control-plane'],
			['start', 'kube-controller-manager', 'control-plane-2'],
			['start', 'kube-scheduler', 'control-plane-3'],
		];
		for (const [verb, component, machine] of plan) {
			if (verb === 'stop') cluster.stop(component, machine);
			else cluster.start(component, machine);
			for (let s = 0; s < 30; s++) {
				cluster.advance('1s');
				for (const lease of LEASES) {
					const leading = cluster.components().filter((c) => c.component === lease && c.leader);
					expect(leading.length, `${lease} at ${cluster.now()} ms`).toBeLessThanOrEqual(1);
					// The one the processes believe leads is the one the Lease names.
					if (leading.length === 1) expect(machineOf(holder(cluster, lease))).toBe(leading[0].node);
				}
			}
			cluster = restoreCluster(JSON.parse(JSON.stringify(cluster.snapshot())));
		}
		expect(machines.every((m) => cluster.nodeNames().includes(m))).toBe(true);
		expect(cluster.settle({ maxMs: 300_000 }).settled).toBe(true);
		for (const lease of LEASES) expect(cluster.components().filter((c) => c.component === lease && c.leader)).toHaveLength(1);
	}, 60_000);

	it('refuses a replica count it cannot build, and names a replica by its machine', () => {
		expect(() => createCluster({ controlPlane: { schedulers: 4 } })).toThrow('controlPlane.schedulers: 4 is not a whole number from 1 to 3 (one replica per control-plane machine)');
		expect(() => createCluster({ controlPlane: { controllerManagers: 0 } })).toThrow(/^controlPlane\.controllerManagers: 0 is not a whole number/);
		const cluster = createCluster({ seed: 5, controlPlane: { schedulers: 2 } });
		expect(cluster.apply({ kind: 'stop', component: 'kube-controller-manager', node: 'control-plane-2' }).error).toBe('kube-controller-manager runs on control-plane, not control-plane-2');
		expect(cluster.apply({ kind: 'stop', component: 'kube-scheduler', node: 'node-1' }).error).toBe('kube-scheduler runs on control-plane, control-plane-2, not node-1');
	});
});
