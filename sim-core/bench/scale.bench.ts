/**
 * The cost of one Pod as the cluster grows: a Deployment of 20 pause
 * replicas per worker, from `kubectl create` to every Pod Running, with
 * real kubelets and the whole control plane. A simulation whose
 * controllers, caches and scheduler read by index pays about the same per
 * Pod at 20 workers and at 200; one that walks every Pod per event pays
 * more and more. The figure is CPU milliseconds per Pod (boot excluded);
 * the last row is the ratio between the two sizes.
 *
 * Run with `npm run bench -- scale` (the 200-worker case takes minutes).
 */
import type { Benchmark } from '../../scripts/bench.ts';
import { createCluster, type Cluster } from '../src/index.ts';

const PODS_PER_WORKER = 20;

function clusterOf(workers: number): Cluster {
	const workerNodes = Array.from({ length: workers }, (_, i) => ({ name: `node-${i + 1}`, cpu: '32', memory: '64Gi' }));
	return createCluster({ nodes: [{ name: 'control-plane', cpu: '4', memory: '8Gi', role: 'control-plane' }, ...workerNodes] });
}

function running(cluster: Cluster): number {
	return cluster.list('pods', 'default').filter((p) => (p.status as { phase?: string } | undefined)?.phase === 'Running').length;
}

/** CPU ms per Pod for one rollout of 20 Pods per worker. */
function perPod(cluster: Cluster, workers: number): number {
	const pods = workers * PODS_PER_WORKER;
	const start = process.cpuUsage();
	cluster.exec(`kubectl create deployment web --image=registry.k8s.io/pause:3.10 --replicas=${pods}`);
	for (let second = 0; second < 600 && running(cluster) < pods; second++) cluster.advance(1000);
	const used = process.cpuUsage(start);
	if (running(cluster) < pods) throw new Error(`only ${running(cluster)} of ${pods} Pods Running after 10 virtual minutes`);
	return (used.user + used.system) / 1000 / pods;
}

const measured: Record<number, number[]> = {};

function rollout(workers: number, samples: number): Benchmark {
	return {
		name: `cost per Pod: ${workers * PODS_PER_WORKER} Pods on ${workers} workers, create to Running`,
		samples,
		warmup: 1,
		setup: () => clusterOf(workers),
		run: (prepared) => {
			const value = perPod(prepared as Cluster, workers);
			(measured[workers] ??= []).push(value);
			return { value, unit: 'ms CPU/Pod' };
		},
	};
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[sorted.length >> 1];
}

export const benchmarks: Benchmark[] = [
	rollout(20, 3),
	rollout(200, 1),
	{
		name: 'cost per Pod: 200 workers over 20 workers (flat is 1.0)',
		samples: 1,
		warmup: 0,
		run: () => {
			if (!measured[20]?.length || !measured[200]?.length) return { value: Number.NaN, unit: 'x', note: 'run the two rows above first' };
			return { value: median(measured[200]) / median(measured[20]), unit: 'x', note: 'issue 14 asks for at most 1.3x' };
		},
	},
];
