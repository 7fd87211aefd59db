/**
 * settle() returns a converged cluster: a component started again is back,
 * Ready and leading before settle() says so, whatever timers (the kubelet's
 * manifest poll, a crash-loop back-off, a Lease to wait out, an informer's
 * retry) stood between the start and the recovery. And a cluster a fault
 * still holds down settles as soon as it is quiet: waiting would change
 * nothing.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import type { Cluster } from './cluster.ts';

function readyColumn(cluster: Cluster, pod: string): string {
	const out = cluster.exec(`kubectl get pod -n kube-system ${pod} --no-headers`).stdout;
	return out.trim().split(/\s+/)[1] ?? '';
}

/** Whether a new Deployment gets scheduled, running Pods (API server, controller manager and scheduler all working). */
function deploymentRuns(cluster: Cluster): boolean {
	cluster.exec('kubectl create deployment probe --image=nginx:1.27 --replicas=2');
	cluster.settle({ maxMs: 120_000 });
	const pods = cluster.exec('kubectl get pods -l app=probe --no-headers').stdout.trim().split('\n');
	return pods.length === 2 && pods.every((line) => /\s1\/1\s+Running\s/.test(line));
}

describe('settle() after a component is started again', () => {
	for (const component of ['kube-scheduler', 'kube-controller-manager', 'kube-apiserver', 'etcd'] as const) {
		it(`waits until ${component} is back, Ready and working`, () => {
			const cluster = createCluster({ seed: 3 });
			cluster.stop(component);
			cluster.advance('30s');
			cluster.start(component);
			const result = cluster.settle({ maxMs: 300_000 });
			expect(result).toMatchObject({ settled: true });
			// Not at once: the kubelet had to notice the manifest and restart the static pod.
			expect(result.elapsedMs).toBeGreaterThan(0);
			expect(readyColumn(cluster, `${component}-control-plane`)).toBe('1/1');
			for (const lease of ['kube-scheduler', 'kube-controller-manager']) {
				expect(cluster.exec(`kubectl get lease -n kube-system ${lease} -o jsonpath={.spec.holderIdentity}`).stdout).toMatch(/^control-plane_/);
			}
			expect(deploymentRuns(cluster)).toBe(true);
		});
	}

	it('waits for kube-proxy to come back on its node', () => {
		const cluster = createCluster({ seed: 3 });
		cluster.stop('kube-proxy', 'node-1');
		cluster.advance('20s');
		cluster.start('kube-proxy', 'node-1');
		expect(cluster.settle({ maxMs: 600_000 }).settled).toBe(true);
		const pod = cluster.exec('kubectl get pods -n kube-system -l k8s-app=kube-proxy --field-selector spec.nodeName=node-1 --no-headers').stdout;
		expect(pod).toMatch(/\s1\/1\s+Running\s/);
	});

	it('says what it still waited for when maxMs runs out first', () => {
		const cluster = createCluster({ seed: 3 });
		cluster.stop('kube-scheduler');
		cluster.advance('30s');
		cluster.start('kube-scheduler');
		const result = cluster.settle({ maxMs: 1_000 });
		expect(result.settled).toBe(false);
		expect(result.elapsedMs).toBe(1_000);
		expect(result.pending?.join('\n')).toMatch(/kube-scheduler/);
	});

	it('does not wait for a component a fault still holds down', () => {
		const cluster = createCluster({ seed: 3 });
		cluster.stop('kube-scheduler');
		cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		const result = cluster.settle({ maxMs: 300_000 });
		expect(result.settled).toBe(true);
		// Quiet long before the bound: the Pods stay Pending, and waiting longer would not change that.
		expect(result.elapsedMs).toBeLessThan(60_000);
		expect(cluster.exec('kubectl get pods -l app=web --no-headers').stdout).toMatch(/Pending/);
	});

	it('does not wait for reconnections to an API server that is down', () => {
		const cluster = createCluster({ seed: 3 });
		cluster.stop('kube-apiserver');
		const result = cluster.settle({ maxMs: 300_000 });
		expect(result.settled).toBe(true);
		expect(result.elapsedMs).toBeLessThan(300_000);
	});
});

describe('after etcd comes back', () => {
	it("the API server's Pod turns Ready again (the kubelet rewrites a status its stale cache hid)", () => {
		const cluster = createCluster({ seed: 1 });
		cluster.stop('etcd');
		cluster.advance('30s');
		cluster.start('etcd');
		cluster.advance('3m');
		expect(readyColumn(cluster, 'kube-apiserver-control-plane')).toBe('1/1');
	});
});

describe('after a partition heals', () => {
	it("Pods the node controller marked not Ready turn Ready again (the kubelet's status reconcile, every 10 s)", () => {
		const cluster = createCluster({ seed: 2 });
		cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		cluster.settle({ maxMs: 120_000 });
		cluster.partition('node-1');
		// Past the 50 s grace: NotReady, and MarkPodsNotReady sets the Pods' Ready condition False.
		cluster.advance('70s');
		const ready = () => cluster.exec(`kubectl get pods -l app=web -o jsonpath='{.items[*].status.conditions[?(@.type=="Ready")].status}'`).stdout;
		expect(ready()).toContain('False');
		cluster.heal('node-1');
		cluster.advance('30s');
		expect(ready()).toBe('True True');
	});
});
