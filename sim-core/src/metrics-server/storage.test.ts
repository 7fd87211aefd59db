import { describe, expect, it } from 'vitest';
import { decodeBatch } from './decode.ts';
import { emptyStore, storeBatches, storeReady, usageOf } from './storage.ts';

const scrape = (atMs: number, nodeCpuSeconds: number, containerCpuSeconds: number, startS = 1000) => `# HELP container_cpu_usage_seconds_total [STABLE] Cumulative cpu time consumed by the container in core-seconds
# TYPE container_cpu_usage_seconds_total counter
container_cpu_usage_seconds_total{container="web",namespace="default",pod="web-1"} ${containerCpuSeconds} ${atMs}
container_memory_working_set_bytes{container="web",namespace="default",pod="web-1"} 1.048576e+07 ${atMs}
container_start_time_seconds{container="web",namespace="default",pod="web-1"} ${startS} ${startS * 1000}
node_cpu_usage_seconds_total ${nodeCpuSeconds} ${atMs}
node_memory_working_set_bytes 5e+08 ${atMs}
resource_scrape_error 0
`;

describe('metrics-server storage', () => {
	it('serves CPU as the rate between two scrapes and memory as the last working set; ready after the second', () => {
		const store = emptyStore();
		storeBatches(store, { 'node-1': decodeBatch(scrape(2_000_000, 100, 10)) }, 2_000_000);
		expect(storeReady(store)).toBe(false);
		expect(usageOf(store.nodes['node-1'])).toBeUndefined();
		storeBatches(store, { 'node-1': decodeBatch(scrape(2_015_000, 101.5, 10.3)) }, 2_015_000);
		expect(storeReady(store)).toBe(true);
		expect(usageOf(store.nodes['node-1'])).toEqual({ cpuNanocores: 100_000_000, memoryBytes: 500_000_000, timestampMs: 2_015_000, windowMs: 15_000 });
		expect(usageOf(store.pods['default/web-1'].web)).toEqual({ cpuNanocores: 20_000_000, memoryBytes: 10_485_760, timestampMs: 2_015_000, windowMs: 15_000 });
	});

	it('counts a container started since the previous scrape from its start, and drops nodes that failed', () => {
		const store = emptyStore();
		storeBatches(store, { 'node-1': decodeBatch(scrape(2_000_000, 100, 0)) }, 2_000_000);
		storeBatches(store, { 'node-1': decodeBatch(scrape(2_015_000, 101, 0.5, 2_005)) }, 2_015_000);
		expect(usageOf(store.pods['default/web-1'].web)?.cpuNanocores).toBe(50_000_000);
		storeBatches(store, {}, 2_030_000);
		expect(store.nodes['node-1']).toBeUndefined();
	});
});
