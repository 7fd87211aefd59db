import { describe, it, expect } from 'vitest';
import { createCluster } from '../index.ts';

/**
 * A DaemonSet's rolling update as `kubectl rollout status ds/NAME` follows
 * it on a booted cluster (two workers; the control-plane node's taint keeps
 * the DaemonSet off it).
 */
describe('kubectl rollout status ds', () => {
	const cluster = createCluster({ seed: 7 });
	cluster.writeFile('ds.yaml', 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: agent, image: nginx:1.27}]\n');
	cluster.exec('kubectl apply -f ds.yaml');
	cluster.advance('30s');
	/** The distinct lines, in order (the status viewer prints one per watch event, repeats included). */
	const distinct = (text: string) => text.split('\n').filter((line, i, all) => line && all.indexOf(line) === i);

	it('reports the update node by node (maxUnavailable 1), then success', () => {
		expect(cluster.exec('kubectl set image ds/agent agent=nginx:1.28').stdout).toBe('daemonset.apps/agent image updated\n');
		const r = cluster.exec('kubectl rollout status ds/agent');
		expect(r.exitCode).toBe(0);
		expect(distinct(r.stdout)).toEqual([
			'Waiting for daemon set spec update to be observed...',
			'Waiting for daemon set "agent" rollout to finish: 0 out of 2 new pods have been updated...',
			'Waiting for daemon set "agent" rollout to finish: 1 out of 2 new pods have been updated...',
			'Waiting for daemon set "agent" rollout to finish: 1 of 2 updated pods are available...',
			'daemon set "agent" successfully rolled out',
		]);
		expect(cluster.exec('kubectl get ds agent -o jsonpath={.status.updatedNumberScheduled}/{.status.numberAvailable}/{.status.desiredNumberScheduled}').stdout).toBe('2/2/2');
	});

	it('refuses for OnDelete, which has no rollout to follow', () => {
		cluster.exec(`kubectl patch ds agent --type=merge -p '{"spec":{"updateStrategy":{"type":"OnDelete","rollingUpdate":null}}}'`);
		expect(cluster.exec('kubectl rollout status ds/agent')).toMatchObject({ stderr: 'error: rollout status is only available for RollingUpdate strategy type\n', exitCode: 1 });
	});
});
