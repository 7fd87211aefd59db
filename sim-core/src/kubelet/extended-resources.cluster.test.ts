/**
 * Extended resources on a Node, as the scheduler preemption conformance
 * tests and device plugins use them (test/e2e/scheduling/preemption.go,
 * v1.36): a resource patched into `status.capacity` survives the kubelet's
 * status updates (it writes what it measures over what is there), shows
 * in allocatable, and the scheduler fits Pods on it.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const pod = (name: string, count: number) => `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {scheduling.k8s.io/foo: "${count}"}
      limits: {scheduling.k8s.io/foo: "${count}"}
`;

describe('extended resources in a Node status', () => {
	it('keeps a patched extended resource through kubelet status updates and schedules on it', () => {
		const c = createCluster({ seed: 1 });
		c.advance('20s');
		const patched = c.exec(`kubectl patch node node-1 --subresource=status --type=json -p '[{"op":"add","path":"/status/capacity/scheduling.k8s.io~1foo","value":"5"}]'`);
		expect(patched.stdout).toBe('node/node-1 patched\n');
		// Several node status updates later (every 10 s, a full report every 5 min).
		c.advance('6m');
		expect(c.exec("kubectl get node node-1 -o jsonpath='{.status.capacity.scheduling\\.k8s\\.io/foo} {.status.allocatable.scheduling\\.k8s\\.io/foo}'").stdout).toBe('5 5');

		c.writeFile('a.yaml', pod('a', 3));
		c.writeFile('b.yaml', pod('b', 3));
		c.exec('kubectl apply -f a.yaml');
		c.advance('5s');
		expect(c.exec('kubectl get pod a -o jsonpath={.spec.nodeName}/{.status.phase}').stdout).toBe('node-1/Running');
		// 3 of 5 taken: a second Pod asking for 3 fits nowhere.
		c.exec('kubectl apply -f b.yaml');
		c.advance('5s');
		expect(c.exec('kubectl get pod b -o jsonpath={.status.phase}').stdout).toBe('Pending');
		expect(c.exec('kubectl describe pod b').stdout).toMatch(/FailedScheduling .*0\/3 nodes are available: .*2 Insufficient scheduling\.k8s\.io\/foo/);
	});
});
