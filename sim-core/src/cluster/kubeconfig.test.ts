/**
 * Which kubeconfig kubectl reads, as clientcmd's loading rules order them:
 * --kubeconfig, then $KUBECONFIG, then ~/.kube/config. A worker node has
 * no ~/.kube/config, only the kubelet's /etc/kubernetes/kubelet.conf, so
 * readers who follow a troubleshooting guide there pass it explicitly.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

function cluster() {
	const c = createCluster({ seed: 3 });
	c.settle({ maxMs: 60_000 });
	return c;
}

describe('kubectl --kubeconfig', () => {
	it('acts as the node when given the kubelet kubeconfig on a worker, in both flag spellings', () => {
		const c = cluster();
		for (const flag of ['--kubeconfig /etc/kubernetes/kubelet.conf', '--kubeconfig=/etc/kubernetes/kubelet.conf']) {
			const r = c.exec(`ssh node-1 kubectl auth whoami ${flag}`);
			expect(r.stderr).toBe('');
			expect(r.stdout).toContain('Username    system:node:node-1');
		}
		// The Node authorizer lets a node read its own Node object only.
		expect(c.exec('ssh node-1 kubectl get node node-1 --kubeconfig /etc/kubernetes/kubelet.conf -o name').stdout).toBe('node/node-1\n');
	});

	it('without one, a worker falls back to localhost:8080 as kubectl does', () => {
		const r = cluster().exec('ssh node-1 kubectl get nodes');
		expect(r.exitCode).toBe(1);
		expect(r.stderr).toContain('The connection to the server localhost:8080 was refused - did you specify the right host or port?');
	});

	it('wins over $KUBECONFIG', () => {
		const r = cluster().exec('ssh node-1 KUBECONFIG=/nowhere kubectl auth whoami --kubeconfig /etc/kubernetes/kubelet.conf');
		expect(r.stdout).toContain('system:node:node-1');
	});

	it('names a missing file and changes nothing', () => {
		const c = cluster();
		const before = c.exec('kubectl get deploy -A -o name').stdout;
		const r = c.exec('kubectl create deployment web --image=nginx --kubeconfig ./missing.conf');
		expect({ stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode }).toEqual({ stdout: '', stderr: 'error: stat ./missing.conf: no such file or directory\n', exitCode: 1 });
		expect(c.exec('kubectl get deploy -A -o name').stdout).toBe(before);
	});
});
