/**
 * The tables of the autoscaling and metrics kinds: `kubectl get hpa`
 * (NAME REFERENCE TARGETS MINPODS MAXPODS REPLICAS AGE, TARGETS as
 * `cpu: 12%/50%`, `<unknown>` before the controller has a reading, at
 * most two metrics then `+ N more...`), `kubectl get apiservice` (NAME
 * SERVICE AVAILABLE AGE, AVAILABLE `False (MissingEndpoints)` while it is
 * not) and metrics-server's own tables for NodeMetrics and PodMetrics
 * (NAME CPU MEMORY WINDOW).
 *
 * Mirrors pkg/printers/internalversion/printers.go
 * (printHorizontalPodAutoscaler, formatHPAMetrics),
 * staging/src/k8s.io/kube-aggregator/pkg/registry/apiservice/etcd/etcd.go
 * (the APIService table convertor),
 * kubernetes-sigs/metrics-server pkg/api/table.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { columns, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

interface MetricTarget {
	type?: string;
	averageUtilization?: number;
	averageValue?: string;
	value?: string;
}
interface MetricValueStatus {
	averageUtilization?: number;
	averageValue?: string;
	value?: string;
}
interface HpaMetricSpec {
	type?: string;
	resource?: { name?: string; target?: MetricTarget };
	containerResource?: { name?: string; container?: string; target?: MetricTarget };
	pods?: { metric?: { name?: string }; target?: MetricTarget };
	object?: { metric?: { name?: string }; describedObject?: { kind?: string; name?: string }; target?: MetricTarget };
	external?: { metric?: { name?: string }; target?: MetricTarget };
}
interface HpaMetricStatus {
	type?: string;
	resource?: { name?: string; current?: MetricValueStatus };
	containerResource?: { name?: string; container?: string; current?: MetricValueStatus };
	pods?: { current?: MetricValueStatus };
	object?: { current?: MetricValueStatus };
	external?: { current?: MetricValueStatus };
}

/** An autoscaling/v2 HorizontalPodAutoscaler as the printers read it. */
export interface Hpa extends KubeObject {
	spec?: { scaleTargetRef?: { kind?: string; name?: string; apiVersion?: string }; minReplicas?: number; maxReplicas?: number; metrics?: HpaMetricSpec[]; behavior?: unknown };
	status?: { currentReplicas?: number; desiredReplicas?: number; lastScaleTime?: string; currentMetrics?: HpaMetricStatus[]; conditions?: Array<{ type: string; status: string; reason?: string; message?: string; lastTransitionTime?: string }> };
}

/** A quantity as Quantity.String() prints it. */
const q = (text: string | undefined) => {
	if (text === undefined) return '<unknown>';
	try {
		return parseQuantity(String(text)).toString();
	} catch {
		return String(text);
	}
};

/** formatHPAMetrics: `cpu: 12%/50%`, `<unknown>` for a missing reading, two metrics at most. */
export function formatHpaMetrics(specs: HpaMetricSpec[] | undefined, statuses: HpaMetricStatus[] | undefined): string {
	if (!specs?.length) return '<none>';
	const list: string[] = [];
	const max = 2;
	let more = false;
	const status = (i: number) => statuses?.[i];
	for (let i = 0; i < specs.length; i++) {
		const spec = specs[i];
		switch (spec.type) {
			case 'External': {
				const t = spec.external?.target;
				const cur = status(i)?.external?.current;
				if (t?.averageValue !== undefined) list.push(`${cur?.averageValue !== undefined ? q(cur.averageValue) : '<unknown>'}/${q(t.averageValue)} (avg)`);
				else list.push(`${cur?.value !== undefined ? q(cur.value) : '<unknown>'}/${q(t?.value)}`);
				break;
			}
			case 'Pods':
				list.push(`${status(i)?.pods?.current?.averageValue !== undefined ? q(status(i)?.pods?.current?.averageValue) : '<unknown>'}/${q(spec.pods?.target?.averageValue)}`);
				break;
			case 'Object': {
				const t = spec.object?.target;
				const cur = status(i)?.object?.current;
				if (t?.averageValue !== undefined) list.push(`${cur?.averageValue !== undefined ? q(cur.averageValue) : '<unknown>'}/${q(t.averageValue)} (avg)`);
				else list.push(`${cur?.value !== undefined ? q(cur.value) : '<unknown>'}/${q(t?.value)}`);
				break;
			}
			case 'Resource':
			case 'ContainerResource': {
				const src = spec.type === 'Resource' ? spec.resource : spec.containerResource;
				const cur = spec.type === 'Resource' ? status(i)?.resource?.current : status(i)?.containerResource?.current;
				const name = src?.name ?? '';
				if (src?.target?.averageValue !== undefined) {
					list.push(`${name}: ${cur?.averageValue !== undefined ? q(cur.averageValue) : '<unknown>'}/${q(src.target.averageValue)}`);
				} else {
					const current = cur?.averageUtilization !== undefined ? `${cur.averageUtilization}%` : '<unknown>';
					const target = src?.target?.averageUtilization !== undefined ? `${src.target.averageUtilization}%` : '<auto>';
					list.push(`${name}: ${current}/${target}`);
				}
				break;
			}
			default:
				list.push('<unknown type>');
		}
		if (list.length > max) {
			list.length = max;
			more = true;
			break;
		}
	}
	const text = list.join(', ');
	return more ? `${text} + ${specs.length - list.length} more...` : text;
}

/** `kubectl get hpa`. */
export const HPA_TABLE: TableDefinition = {
	columns: columns('Name', 'Reference', 'Targets', 'MinPods', 'MaxPods', 'Replicas', 'Age'),
	row(obj, ctx) {
		const h = obj as Hpa;
		const ref = `${h.spec?.scaleTargetRef?.kind ?? ''}/${h.spec?.scaleTargetRef?.name ?? ''}`;
		const min = h.spec?.minReplicas === undefined ? '<unset>' : String(h.spec.minReplicas);
		return [h.metadata.name ?? '', ref, formatHpaMetrics(h.spec?.metrics, h.status?.currentMetrics), min, String(h.spec?.maxReplicas ?? 0), String(h.status?.currentReplicas ?? 0), age(h, ctx)];
	},
};

/** `kubectl get apiservice`: SERVICE is `namespace/name` or `Local`; AVAILABLE `True`, `False (Reason)` or `Unknown`. */
export const APISERVICE_TABLE: TableDefinition = {
	columns: columns('Name', 'Service', 'Available', 'Age'),
	row(obj, ctx) {
		const a = obj as KubeObject & { spec?: { service?: { namespace?: string; name?: string } }; status?: { conditions?: Array<{ type: string; status: string; reason?: string }> } };
		const svc = a.spec?.service ? `${a.spec.service.namespace ?? ''}/${a.spec.service.name ?? ''}` : 'Local';
		const c = (a.status?.conditions ?? []).find((x) => x.type === 'Available');
		const available = !c ? 'Unknown' : c.status === 'True' ? 'True' : `${c.status} (${c.reason ?? ''})`;
		return [a.metadata.name ?? '', svc, available, age(a, ctx)];
	},
};

/** metrics-server's NodeMetrics and PodMetrics tables: CPU and memory as quantities, and the window. */
export const NODEMETRICS_TABLE: TableDefinition = {
	columns: columns('Name', 'CPU', 'Memory', 'Window'),
	row(obj) {
		const m = obj as KubeObject & { usage?: { cpu?: string; memory?: string }; window?: string };
		return [m.metadata.name ?? '', q(m.usage?.cpu), q(m.usage?.memory), m.window ?? ''];
	},
};

export const PODMETRICS_TABLE: TableDefinition = {
	columns: columns('Name', 'CPU', 'Memory', 'Window'),
	row(obj) {
		const m = obj as KubeObject & { containers?: Array<{ usage?: { cpu?: string; memory?: string } }>; window?: string };
		let cpu = parseQuantity('0');
		let memory = parseQuantity('0');
		for (const c of m.containers ?? []) {
			cpu = cpu.add(parseQuantity(c.usage?.cpu ?? '0'));
			memory = memory.add(parseQuantity(c.usage?.memory ?? '0'));
		}
		return [m.metadata.name ?? '', cpu.toString(), memory.toString(), m.window ?? ''];
	},
};
