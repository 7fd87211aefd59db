/**
 * The map's structured views (cluster/map-view.ts) say what kubectl says:
 * each Pod's READY, STATUS and RESTARTS as `kubectl get pods` prints them,
 * each node's requests as `kubectl describe node` sums them; and they still
 * answer while the API server is down, since they read etcd.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

describe('the map views', () => {
	const cluster = new Cluster({ seed: 11 });
	cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=3');
	cluster.exec('kubectl set resources deployment web --requests=cpu=250m,memory=64Mi');
	cluster.exec('kubectl run crash --image=busybox:1.36 -- sh -c "exit 3"');
	cluster.settle({ maxMs: 120_000 });
	cluster.advance(60_000);

	it('gives each Pod the READY, STATUS and RESTARTS cells kubectl get pods prints', () => {
		const rows = cluster
			.exec('kubectl get pods -A --no-headers')
			.stdout.trim()
			.split('\n')
			.map((line) => line.trim().split(/\s+/));
		const views = cluster.podViews();
		expect(views.map((p) => [p.namespace, p.name, p.ready, p.status, String(p.restarts)])).toEqual(rows.map(([ns, name, ready, status, restarts]) => [ns, name, ready, status, restarts]));
		expect(views.find((p) => p.name === 'crash')?.status).toMatch(/CrashLoopBackOff|Error/);
		expect(views.find((p) => p.name.startsWith('web-'))?.owner).toMatch(/^ReplicaSet\/web-/);
	});

	it('sums on each node what its Pods request, as kubectl describe node does', () => {
		for (const node of cluster.nodeViews()) {
			const described = cluster.exec(`kubectl describe node ${node.name}`).stdout;
			const cpu = /^\s+cpu\s+(\d+)(m?)\s+\(/m.exec(described)!;
			expect(node.cpu.requestedMilli, node.name).toBe(Number(cpu[1]) * (cpu[2] ? 1 : 1000));
			expect(node.ready).toBe('True');
		}
		expect(cluster.nodeViews().find((n) => n.name === 'control-plane')?.taints).toEqual(['node-role.kubernetes.io/control-plane:NoSchedule']);
	});

	it('answers from etcd while the API server is down', () => {
		const before = cluster.podViews().length;
		cluster.stop('kube-apiserver');
		expect(cluster.exec('kubectl get pods').exitCode).not.toBe(0);
		expect(cluster.podViews()).toHaveLength(before);
		cluster.start('kube-apiserver');
	});
});
