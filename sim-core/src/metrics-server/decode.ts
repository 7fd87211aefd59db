/**
 * metrics-server's reading of a kubelet's `/metrics/resource` answer:
 * the Prometheus text decoded into one node point and one point per
 * container (cumulative CPU, working set, start time, sample time).
 *
 * Mirrors kubernetes-sigs/metrics-server pkg/scraper/client/resource/decode.go
 * (decodeBatch, parseNodeCpuUsageMetrics, parseContainerCpuMetrics).
 */

/** One sample of something that uses CPU and memory. */
export interface MetricsPoint {
	/** When the kubelet took the sample (wall ms). */
	timestampMs: number;
	/** When the container (or machine) started (wall ms); 0 when unknown. */
	startTimeMs: number;
	/** Cumulative CPU time, ns. */
	cumulativeCpuNanos: number;
	workingSetBytes: number;
}

/** What one scrape of one node gave. */
export interface NodeBatch {
	node?: MetricsPoint;
	/** `namespace/pod` → container name → point. */
	pods: Record<string, Record<string, MetricsPoint>>;
}

const LINE = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)(?: (\d+))?$/;

function labelsOf(text: string | undefined): Record<string, string> {
	const out: Record<string, string> = {};
	for (const m of (text ?? '').matchAll(/(\w+)="([^"]*)"/g)) out[m[1]] = m[2];
	return out;
}

/** Decodes the text; malformed lines are skipped, as the parser skips families it does not know. */
export function decodeBatch(text: string): NodeBatch {
	const batch: NodeBatch = { pods: {} };
	const container = (l: Record<string, string>) => {
		const key = `${l.namespace}/${l.pod}`;
		const pod = (batch.pods[key] ??= {});
		return (pod[l.container] ??= { timestampMs: 0, startTimeMs: 0, cumulativeCpuNanos: 0, workingSetBytes: 0 });
	};
	for (const line of text.split('\n')) {
		if (line === '' || line.startsWith('#')) continue;
		const m = LINE.exec(line);
		if (!m) continue;
		const [, name, labelText, valueText, ts] = m;
		const value = Number(valueText);
		const at = ts ? Number(ts) : 0;
		const l = labelsOf(labelText);
		switch (name) {
			case 'node_cpu_usage_seconds_total':
				batch.node ??= { timestampMs: at, startTimeMs: 0, cumulativeCpuNanos: 0, workingSetBytes: 0 };
				batch.node.cumulativeCpuNanos = Math.round(value * 1e9);
				batch.node.timestampMs = at;
				break;
			case 'node_memory_working_set_bytes':
				batch.node ??= { timestampMs: at, startTimeMs: 0, cumulativeCpuNanos: 0, workingSetBytes: 0 };
				batch.node.workingSetBytes = value;
				break;
			case 'container_cpu_usage_seconds_total': {
				const p = container(l);
				p.cumulativeCpuNanos = Math.round(value * 1e9);
				p.timestampMs = at;
				break;
			}
			case 'container_memory_working_set_bytes':
				container(l).workingSetBytes = value;
				break;
			case 'container_start_time_seconds':
				container(l).startTimeMs = Math.round(value * 1000);
				break;
		}
	}
	return batch;
}
