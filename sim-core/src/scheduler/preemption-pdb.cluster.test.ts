/**
 * Preemption and PodDisruptionBudgets, through the public API: when a
 * higher-priority Pod can only fit by preempting, the scheduler prefers the
 * node whose victims break no budget, and evicts a budget-protected Pod only
 * when no other node would do.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import type { Pod } from '../api/types.ts';

const deployment = (name: string, node: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      nodeSelector: {kubernetes.io/hostname: ${node}}
      containers:
      - name: main
        image: nginx:1.27
        resources:
          requests: {cpu: 1500m}
`;

const URGENT = `apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata:
  name: urgent
value: 1000000
---
apiVersion: v1
kind: Pod
metadata:
  name: urgent
spec:
  priorityClassName: urgent
  containers:
  - name: main
    image: nginx:1.27
    resources:
      requests: {cpu: 1500m}
`;

const BUDGET = `apiVersion: policy/v1
kind: PodDisruptionBudget
metadata:
  name: guarded
spec:
  minAvailable: 1
  selector:
    matchLabels: {app: guarded}
`;

function podOf(cluster: ReturnType<typeof createCluster>, app: string): Pod | undefined {
	return (cluster.list('pods', 'default') as Pod[]).find((p) => p.metadata.labels?.app === app && !p.metadata.deletionTimestamp);
}

describe('preemption and PodDisruptionBudgets', () => {
	it.each([
		// Whichever node the random start of the dry run tries first, the budget decides.
		['guarded on node-1, free on node-2', 'node-1', 'node-2'],
		['guarded on node-2, free on node-1', 'node-2', 'node-1'],
	])('preempts the Pod no budget protects (%s)', (_name, guardedNode, freeNode) => {
		const cluster = createCluster();
		cluster.exec('kubectl apply -f -', { stdin: deployment('guarded', guardedNode) + '---\n' + deployment('free', freeNode) + '---\n' + BUDGET });
		cluster.settle();
		expect(cluster.exec('kubectl get pdb guarded -o jsonpath={.status.disruptionsAllowed}').stdout).toBe('0');
		const guarded = podOf(cluster, 'guarded')!;
		cluster.exec('kubectl apply -f -', { stdin: URGENT });
		cluster.settle();
		expect(podOf(cluster, 'guarded')?.metadata.uid).toBe(guarded.metadata.uid);
		expect((cluster.get('pods', 'default', 'urgent') as Pod).spec.nodeName).toBe(freeNode);
		expect(cluster.exec('kubectl get events --field-selector reason=Preempted -o jsonpath={.items[*].involvedObject.name}').stdout).toMatch(/^free-/);
	});

	it('still preempts a protected Pod when it is the only way to fit', () => {
		const cluster = createCluster();
		cluster.exec('kubectl apply -f -', { stdin: deployment('guarded', 'node-1') + '---\n' + deployment('other', 'node-2') + '---\n' + BUDGET });
		cluster.settle();
		// node-2 cannot take the urgent Pod even empty: it is cordoned, so only node-1's guarded Pod can make room.
		cluster.exec('kubectl cordon node-2');
		const guarded = podOf(cluster, 'guarded')!;
		cluster.exec('kubectl apply -f -', { stdin: URGENT });
		cluster.settle();
		expect((cluster.get('pods', 'default', 'urgent') as Pod).spec.nodeName).toBe('node-1');
		expect(podOf(cluster, 'guarded')?.metadata.uid).not.toBe(guarded.metadata.uid);
	});
});
