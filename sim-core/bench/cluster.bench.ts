/**
 * The simulation's speed where readers feel it: building a cluster, the
 * road from `kubectl apply` to running pods, the cost of time passing on an
 * idle cluster, which must not grow with the cluster's history, and what a
 * three-member etcd adds to both (its ticks, and a quorum per write).
 */
import type { Benchmark } from '../../scripts/bench.ts';
import { createCluster, type Cluster } from '../src/index.ts';

const NGINX = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 3
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

function allRunning(cluster: Cluster): boolean {
	const pods = cluster.list('pods', 'default').filter((p) => p.metadata.labels?.app === 'nginx');
	return pods.length === 3 && pods.every((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running');
}

/** Twenty kubectl writes, each one acknowledged (the write rows' measured work). */
function twentyWrites(cluster: Cluster): void {
	for (let i = 0; i < 20; i++) if (cluster.exec(`kubectl create configmap c${i} --from-literal=k=v`).exitCode !== 0) throw new Error('write refused');
}

export const benchmarks: Benchmark[] = [
	{
		name: 'createCluster(): kubeadm-style boot of 1 control plane + 2 workers',
		samples: 9,
		run: () => {
			createCluster();
		},
	},
	{
		name: 'kubectl apply of a 3-replica Deployment until all pods are Running',
		samples: 15,
		setup: () => {
			const cluster = createCluster();
			cluster.writeFile('nginx-deployment.yaml', NGINX);
			return cluster;
		},
		run: (prepared) => {
			const cluster = prepared as Cluster;
			cluster.exec('kubectl apply -f nginx-deployment.yaml');
			for (let i = 0; i < 600 && !allRunning(cluster); i++) cluster.advance(100);
			if (!allRunning(cluster)) throw new Error('pods did not reach Running');
		},
	},
	{
		name: 'one simulated hour of an idle 3-node cluster (fresh cluster)',
		samples: 7,
		setup: () => createCluster(),
		run: (prepared) => (prepared as Cluster).advance('1h'),
	},
	{
		name: 'one simulated hour of an idle cluster whose etcd is three Raft members (control-plane-2 and -3 added)',
		samples: 5,
		setup: () => createCluster({ controlPlane: { etcdMembers: 3 } }),
		run: (prepared) => (prepared as Cluster).advance('1h'),
		note: 'every member ticks each 100 ms heartbeat; compare with the 3-node row above',
	},
	{
		name: 'a write through a lone etcd: kubectl create configmap',
		samples: 15,
		setup: () => createCluster(),
		run: (prepared) => twentyWrites(prepared as Cluster),
		note: '20 writes per sample',
	},
	{
		name: 'a write through a three-member etcd: kubectl create configmap, committed on a quorum',
		samples: 15,
		setup: () => createCluster({ controlPlane: { etcdMembers: 3 } }),
		run: (prepared) => twentyWrites(prepared as Cluster),
		note: '20 writes per sample',
	},
	{
		name: 'one simulated hour of an idle 3-node cluster (after 6 h of history)',
		samples: 7,
		setup: () => {
			const cluster = createCluster();
			cluster.advance('6h');
			return cluster;
		},
		run: (prepared) => (prepared as Cluster).advance('1h'),
	},
];
