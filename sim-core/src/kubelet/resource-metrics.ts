/**
 * The kubelet's `/metrics/resource` endpoint: the resource metrics
 * metrics-server scrapes, in Prometheus' text format. Per container its
 * cumulative CPU time (core-seconds), working set and start time, per pod
 * the sums, for the node its CPU time and working set (the containers
 * plus what the operating system, containerd and the kubelet themselves
 * use), each sample stamped with the time it was taken, and
 * `resource_scrape_error` 0 (1 when the runtime could not be asked).
 *
 * Mirrors pkg/kubelet/metrics/collectors/resource_metrics.go
 * (resourceMetricsCollector: the metric names, help texts and labels),
 * pkg/kubelet/server/server.go (the /metrics/resource route),
 * prometheus/common expfmt/text_create.go (the text format, values as
 * strconv 'g' with the shortest precision).
 */
import type { ContainerStats, CriRuntime } from '../cri-api/cri.ts';

/** What the node itself costs besides its pods: the OS, containerd, the kubelet (millicores, bytes). */
const NODE_OVERHEAD = {
	worker: { millicores: 32, workingSetBytes: 412 * 1024 * 1024 },
	controlPlane: { millicores: 58, workingSetBytes: 468 * 1024 * 1024 },
};

/** What the machine's own daemons (systemd, the kubelet, containerd) use, outside any container. */
export function nodeOverhead(controlPlane: boolean): { millicores: number; workingSetBytes: number } {
	return controlPlane ? NODE_OVERHEAD.controlPlane : NODE_OVERHEAD.worker;
}

/** The node's working set: its daemons' plus every running container's (node_memory_working_set_bytes; the eviction manager's memory signal). */
export function nodeWorkingSetBytes(stats: readonly ContainerStats[], controlPlane: boolean): number {
	return stats.reduce((sum, s) => sum + s.workingSetBytes, nodeOverhead(controlPlane).workingSetBytes);
}

/**
 * strconv.FormatFloat(v, 'g', -1, 64): the shortest digits that round-trip,
 * in exponent form when the exponent is below -4 or at least 6 (the
 * precision 'g' uses for that choice when the shortest form is asked).
 */
export function goFloatG(v: number): string {
	if (v === 0) return '0';
	if (!Number.isFinite(v)) return v > 0 ? '+Inf' : v < 0 ? '-Inf' : 'NaN';
	const [mantissa, e] = v.toExponential().split('e');
	const exp = Number(e);
	if (exp < -4 || exp >= 6) return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
	return String(v);
}

interface Family {
	name: string;
	help: string;
	type: 'counter' | 'gauge';
	samples: Array<{ labels: Array<[string, string]>; value: number; timestampMs?: number }>;
}

function render(families: Family[]): string {
	let out = '';
	for (const f of [...families].sort((a, b) => (a.name < b.name ? -1 : 1))) {
		out += `# HELP ${f.name} ${f.help}\n# TYPE ${f.name} ${f.type}\n`;
		for (const s of f.samples) {
			const labels = s.labels.length ? `{${s.labels.map(([k, v]) => `${k}="${v}"`).join(',')}}` : '';
			out += `${f.name}${labels} ${goFloatG(s.value)}${s.timestampMs === undefined ? '' : ` ${s.timestampMs}`}\n`;
		}
	}
	return out;
}

/** The text the endpoint answers, at the current time; `bootWallMs` is when the machine started. */
export function resourceMetricsText(runtime: CriRuntime, facts: { controlPlane: boolean; wallMs: number; bootWallMs: number }): string {
	const listed = runtime.listContainerStats();
	const stats: ContainerStats[] = listed.ok ? listed.value : [];
	const overhead = nodeOverhead(facts.controlPlane);
	const uptimeMs = Math.max(0, facts.wallMs - facts.bootWallMs);
	const byPod = new Map<string, { namespace: string; pod: string; cpuNanos: number; memory: number; at: number }>();
	let nodeCpuNanos = overhead.millicores * uptimeMs * 1e3;
	const nodeMemory = nodeWorkingSetBytes(stats, facts.controlPlane);
	const containerLabels = (s: ContainerStats): Array<[string, string]> => [
		['container', s.name],
		['namespace', s.namespace],
		['pod', s.podName],
	];
	for (const s of stats) {
		nodeCpuNanos += s.usageCoreNanoSeconds;
		const key = `${s.namespace}/${s.podName}`;
		const pod = byPod.get(key) ?? { namespace: s.namespace, pod: s.podName, cpuNanos: 0, memory: 0, at: s.timestampWallMs };
		pod.cpuNanos += s.usageCoreNanoSeconds;
		pod.memory += s.workingSetBytes;
		byPod.set(key, pod);
	}
	const pods = [...byPod.values()];
	const podLabels = (p: { namespace: string; pod: string }): Array<[string, string]> => [
		['namespace', p.namespace],
		['pod', p.pod],
	];
	return render([
		{ name: 'container_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the container in core-seconds', type: 'counter', samples: stats.map((s) => ({ labels: containerLabels(s), value: s.usageCoreNanoSeconds / 1e9, timestampMs: s.timestampWallMs })) },
		{ name: 'container_memory_working_set_bytes', help: '[STABLE] Current working set of the container in bytes', type: 'gauge', samples: stats.map((s) => ({ labels: containerLabels(s), value: s.workingSetBytes, timestampMs: s.timestampWallMs })) },
		{ name: 'container_start_time_seconds', help: '[STABLE] Start time of the container since unix epoch in seconds', type: 'gauge', samples: stats.map((s) => ({ labels: containerLabels(s), value: s.startedWallMs / 1000, timestampMs: s.startedWallMs })) },
		{ name: 'node_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the node in core-seconds', type: 'counter', samples: [{ labels: [], value: Math.round(nodeCpuNanos) / 1e9, timestampMs: facts.wallMs }] },
		{ name: 'node_memory_working_set_bytes', help: '[STABLE] Current working set of the node in bytes', type: 'gauge', samples: [{ labels: [], value: nodeMemory, timestampMs: facts.wallMs }] },
		{ name: 'pod_cpu_usage_seconds_total', help: '[STABLE] Cumulative cpu time consumed by the pod in core-seconds', type: 'counter', samples: pods.map((p) => ({ labels: podLabels(p), value: p.cpuNanos / 1e9, timestampMs: p.at })) },
		{ name: 'pod_memory_working_set_bytes', help: '[STABLE] Current working set of the pod in bytes', type: 'gauge', samples: pods.map((p) => ({ labels: podLabels(p), value: p.memory, timestampMs: p.at })) },
		{ name: 'resource_scrape_error', help: '[STABLE] 1 if there was an error while getting container metrics, 0 otherwise', type: 'gauge', samples: [{ labels: [], value: listed.ok ? 0 : 1 }] },
	]);
}
