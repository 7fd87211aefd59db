/**
 * kube-scheduler's cost where the scheduler chapter's readers feel it: a
 * burst of Pods placed on a small managed-style cluster (Nodes are only the
 * workers), and explaining a decision afterwards. The kubelets are part of
 * the cost, as they are in the sandbox.
 */
import type { Benchmark } from '../../scripts/bench.ts';
import { createCluster, type Cluster } from '../src/index.ts';

const WORKERS = 10;
const PODS = 100;

function burst(count: number): string {
	return Array.from(
		{ length: count },
		(_, i) => `apiVersion: v1
kind: Pod
metadata:
  name: burst-${i}
  labels: {app: burst}
spec:
  containers:
  - name: app
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 50m, memory: 64Mi}
`,
	).join('---\n');
}

function managedCluster(): Cluster {
	const nodes = Array.from({ length: WORKERS }, (_, i) => ({ name: `node-${i + 1}`, cpu: '4', memory: '8Gi' }));
	return createCluster({ controlPlane: { registerNode: false }, nodes: [{ name: 'control-plane', cpu: '2', memory: '4Gi', role: 'control-plane' }, ...nodes] });
}

function bound(cluster: Cluster): number {
	return cluster.list('pods', 'default').filter((p) => (p.spec as { nodeName?: string }).nodeName).length;
}

export const benchmarks: Benchmark[] = [
	{
		name: `kube-scheduler: a burst of ${PODS} Pods bound across ${WORKERS} workers`,
		samples: 7,
		setup: () => {
			const cluster = managedCluster();
			cluster.writeFile('burst.yaml', burst(PODS));
			return cluster;
		},
		run: (prepared) => {
			const cluster = prepared as Cluster;
			cluster.exec('kubectl apply -f burst.yaml');
			for (let i = 0; i < 600 && bound(cluster) < PODS; i++) cluster.advance(100);
			if (bound(cluster) < PODS) throw new Error('the burst was not bound');
		},
	},
	{
		name: `cluster.explain() for each of the ${PODS} Pods of the burst`,
		samples: 15,
		setup: () => {
			const cluster = managedCluster();
			cluster.exec('kubectl apply -f -', { stdin: burst(PODS) });
			cluster.advance('30s');
			return cluster;
		},
		run: (prepared) => {
			const cluster = prepared as Cluster;
			for (let i = 0; i < PODS; i++) if (!cluster.explain(`default/burst-${i}`)) throw new Error(`no explanation for burst-${i}`);
		},
	},
];
