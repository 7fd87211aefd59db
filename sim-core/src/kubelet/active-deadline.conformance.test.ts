/**
 * A Pod's active deadline through the whole cluster, as the Conformance
 * suite checks it (test/e2e/common/node/pods.go, v1.36): once
 * `activeDeadlineSeconds` have passed since the Pod started, the kubelet
 * stops it and it ends Failed with reason DeadlineExceeded, also when the
 * deadline was lowered on a running Pod.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('[sig-node] Pods [Conformance]', () => {
	it('should allow activeDeadlineSeconds to be updated', () => {
		const c = createCluster({ seed: 1 });
		c.exec('kubectl run pod-update-activedeadlineseconds --image=registry.k8s.io/pause:3.10');
		expect(c.exec('kubectl wait --for=condition=Ready pod/pod-update-activedeadlineseconds --timeout=60s').exitCode).toBe(0);
		expect(c.exec(`kubectl patch pod pod-update-activedeadlineseconds -p '{"spec":{"activeDeadlineSeconds":5}}'`).stdout).toBe('pod/pod-update-activedeadlineseconds patched\n');
		// Not yet 5 s since it started: still running.
		expect(c.exec('kubectl get pod pod-update-activedeadlineseconds -o jsonpath={.status.phase}').stdout).toBe('Running');
		c.advance('6s');
		expect(c.exec('kubectl get pod pod-update-activedeadlineseconds -o jsonpath={.status.phase}/{.status.reason}').stdout).toBe('Failed/DeadlineExceeded');
		expect(c.exec('kubectl get pod pod-update-activedeadlineseconds -o jsonpath={.status.message}').stdout).toBe('Pod was active on the node longer than the specified deadline');
	});
});

describe('the active deadline', () => {
	it('stops a Pod that many seconds after it started, with a Normal DeadlineExceeded event, and may only be lowered', () => {
		const c = createCluster({ seed: 2 });
		c.writeFile('pod.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: dl\nspec:\n  activeDeadlineSeconds: 20\n  containers:\n  - name: c\n    image: nginx\n');
		c.exec('kubectl apply -f pod.yaml');
		c.advance('10s');
		expect(c.exec('kubectl get pod dl -o jsonpath={.status.phase}').stdout).toBe('Running');
		expect(c.exec(`kubectl patch pod dl -p '{"spec":{"activeDeadlineSeconds":50}}'`).stderr).toBe('The Pod "dl" is invalid: spec.activeDeadlineSeconds: Invalid value: 50: must be less than or equal to previous value\n');
		c.advance('15s');
		expect(c.exec('kubectl get pod dl -o jsonpath={.status.phase}/{.status.reason}').stdout).toBe('Failed/DeadlineExceeded');
		const events = c.exec('kubectl get events --field-selector involvedObject.name=dl').stdout;
		expect(events).toMatch(/Normal {3}DeadlineExceeded {3}pod\/dl {3}Pod was active on the node longer than the specified deadline\n/);
		expect(events).toContain('Stopping container c');
	});
});
