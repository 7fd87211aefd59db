/**
 * metrics-server's storage: for every node and container the last two
 * points, and the usage they give: CPU as the rate between them (cores,
 * over the window between their timestamps), memory as the last working
 * set. A container seen once, that started after the previous scrape,
 * counts its start as the earlier point (cumulative CPU 0), so a new Pod
 * has metrics after one scrape; a freshly started metrics-server needs
 * two scrapes. The store is ready once it holds a
 * second point for anything: until then /readyz fails with
 * `no metrics to serve`.
 *
 * Mirrors kubernetes-sigs/metrics-server pkg/storage/node.go,
 * kubernetes-sigs/metrics-server pkg/storage/pod.go,
 * kubernetes-sigs/metrics-server pkg/storage/types.go (resourceUsage),
 * kubernetes-sigs/metrics-server pkg/storage/storage.go (Ready).
 */
import type { MetricsPoint, NodeBatch } from './decode.ts';

/** The last two points of one thing. */
export interface PointPair {
	prev?: MetricsPoint;
	last: MetricsPoint;
}

/** Plain JSON: part of the process state. */
export interface MetricsStore {
	nodes: Record<string, PointPair>;
	/** `namespace/pod` → container → points. */
	pods: Record<string, Record<string, PointPair>>;
	/** When the previous store happened (wall ms): containers started after it count from their start. */
	lastStoreMs: number;
}

export function emptyStore(): MetricsStore {
	return { nodes: {}, pods: {}, lastStoreMs: 0 };
}

/** Usage from two points: CPU in nanocores, memory in bytes, the sample time and the window. */
export interface Usage {
	cpuNanocores: number;
	memoryBytes: number;
	timestampMs: number;
	windowMs: number;
}

function pair(old: PointPair | undefined, point: MetricsPoint, sinceMs: number): PointPair {
	if (old && point.timestampMs > old.last.timestampMs && point.startTimeMs === old.last.startTimeMs) return { prev: old.last, last: point };
	if (old && point.timestampMs <= old.last.timestampMs) return old;
	// New (or restarted) since the previous scrape: its start is the first point.
	if (sinceMs > 0 && point.startTimeMs > 0 && point.startTimeMs >= sinceMs && point.startTimeMs < point.timestampMs) return { prev: { ...point, timestampMs: point.startTimeMs, cumulativeCpuNanos: 0 }, last: point };
	return { last: point };
}

/** Stores one scrape of every node (nodes that failed are absent and drop out, as their pods do). */
export function storeBatches(store: MetricsStore, batches: Record<string, NodeBatch>, nowMs: number): void {
	const nodes: MetricsStore['nodes'] = {};
	const pods: MetricsStore['pods'] = {};
	for (const [name, batch] of Object.entries(batches)) {
		if (batch.node) nodes[name] = pair(store.nodes[name], batch.node, 0);
		for (const [podKey, containers] of Object.entries(batch.pods)) {
			const out: Record<string, PointPair> = {};
			for (const [c, point] of Object.entries(containers)) out[c] = pair(store.pods[podKey]?.[c], point, store.lastStoreMs);
			pods[podKey] = out;
		}
	}
	store.nodes = nodes;
	store.pods = pods;
	store.lastStoreMs = nowMs;
}

/** The usage two points give, or undefined with only one. */
export function usageOf(p: PointPair | undefined): Usage | undefined {
	if (!p?.prev) return undefined;
	const windowMs = p.last.timestampMs - p.prev.timestampMs;
	if (windowMs <= 0) return undefined;
	const cpu = Math.max(0, p.last.cumulativeCpuNanos - p.prev.cumulativeCpuNanos);
	return { cpuNanocores: Math.round((cpu / windowMs) * 1000), memoryBytes: p.last.workingSetBytes, timestampMs: p.last.timestampMs, windowMs };
}

/** Ready: a second point exists for some node or container. */
export function storeReady(store: MetricsStore): boolean {
	return Object.values(store.nodes).some((p) => p.prev) || Object.values(store.pods).some((c) => Object.values(c).some((p) => p.prev));
}
