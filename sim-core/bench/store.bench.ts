/**
 * The storage path: objects written through kube-apiserver into the etcd
 * store and read back, as every component's request does.
 */
import type { Benchmark } from '../../scripts/bench.ts';
import { createApiHarness } from '../src/testing/api-harness.ts';
import { R } from '../src/client/client.ts';

export const benchmarks: Benchmark[] = [
	{
		name: '1,000 ConfigMaps created then listed through kube-apiserver',
		setup: () => createApiHarness(),
		run: (prepared) => {
			const harness = prepared as ReturnType<typeof createApiHarness>;
			const client = harness.client('bench');
			for (let i = 0; i < 1000; i++) client.create(R.configmaps, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}` }, data: { i: String(i) } });
			client.list(R.configmaps, 'default');
		},
	},
];
