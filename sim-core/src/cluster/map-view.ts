/**
 * The cluster as a map draws it: each node with its Ready condition, its
 * taints, the conditions that are not healthy, and how much of its
 * allocatable CPU, memory and Pods the Pods bound to it request (the
 * numbers the scheduler reserves); each Pod with kubectl's READY, STATUS and
 * RESTARTS cells, computed by the same printer `kubectl get pods` uses, so
 * the map says what kubectl says. Read from etcd as an observer: no request,
 * no trace, and a view even while the API server is down.
 *
 * Mirrors nothing upstream: a structured view for the sandbox's map, built from kubectl's pod printer (kubectl/printers/table-pods.ts) and the scheduler's request arithmetic (component-helpers/resource.ts).
 */
import type { KubeObject, Pod, PodSpec } from '../api/types.ts';
import { parseQuantityOrZero, podRequests, resourceValue } from '../component-helpers/resource.ts';
import { podStatusCells } from '../kubectl/printers/table-pods.ts';

/** A node as the map draws it. */
export interface NodeView {
	name: string;
	ip: string;
	roles: string[];
	/** The Ready condition: 'True', 'False' or 'Unknown' (or 'Missing' before registration). */
	ready: 'True' | 'False' | 'Unknown' | 'Missing';
	unschedulable: boolean;
	partitioned: boolean;
	/** The machine has no power: nothing runs on it (its Ready condition only changes once the control plane notices). */
	poweredOff: boolean;
	/** How far the machine's clock is off true time (ms; negative behind, 0 in step). */
	clockOffsetMs: number;
	/** As `kubectl describe node` lists them: `key[=value]:Effect`. */
	taints: string[];
	/** Conditions other than Ready that are not in their healthy state. */
	problems: string[];
	cpu: { allocatableMilli: number; requestedMilli: number };
	memory: { allocatableBytes: number; requestedBytes: number };
	pods: { allocatable: number; count: number };
}

/** A pod as the map draws it. */
export interface PodView {
	namespace: string;
	name: string;
	node?: string;
	phase: string;
	/** kubectl's STATUS column (Running, ContainerCreating, CrashLoopBackOff, Terminating...). */
	status: string;
	/** kubectl's READY column, e.g. "1/1". */
	ready: string;
	restarts: number;
	ip?: string;
	/** The controlling owner, `ReplicaSet/web-5d8f...`. */
	owner?: string;
}

interface NodeObject extends KubeObject {
	spec?: { unschedulable?: boolean; taints?: Array<{ key: string; value?: string; effect: string }> };
	status?: { conditions?: Array<{ type: string; status: string }>; allocatable?: Record<string, string>; addresses?: Array<{ type: string; address: string }> };
}

/** Pods in these phases hold no resources on their node (the scheduler's and the kubelet's view). */
const TERMINAL_PHASES = new Set(['Succeeded', 'Failed']);

/** What a Pod adds to its node's requested resources (init containers, sidecars, pod-level resources and overhead counted). */
export function podRequestedResources(pod: KubeObject): { cpuMilli: number; memoryBytes: number } {
	const spec = (pod as KubeObject & { spec?: PodSpec }).spec;
	const list = podRequests({ containers: [], ...(spec ?? {}) } as PodSpec);
	return { cpuMilli: resourceValue(list, 'cpu'), memoryBytes: resourceValue(list, 'memory') };
}

/** The nodes of `nodes` as the map draws them, with what `pods` request on each. */
export function nodeViews(nodes: readonly KubeObject[], pods: readonly KubeObject[], machine: { isPartitioned(node: string): boolean; isPoweredOff(node: string): boolean; clockOffset?(node: string): number }): NodeView[] {
	return (nodes as readonly NodeObject[]).map((node) => {
		const name = node.metadata.name ?? '';
		const labels = node.metadata.labels ?? {};
		const conditions = node.status?.conditions ?? [];
		const ready = conditions.find((c) => c.type === 'Ready')?.status;
		const allocatable = node.status?.allocatable ?? {};
		const here = (pods as readonly Pod[]).filter((p) => p.spec?.nodeName === name && !TERMINAL_PHASES.has(p.status?.phase ?? ''));
		let cpu = 0;
		let memory = 0;
		for (const pod of here) {
			const requested = podRequestedResources(pod);
			cpu += requested.cpuMilli;
			memory += requested.memoryBytes;
		}
		return {
			name,
			ip: node.status?.addresses?.find((a) => a.type === 'InternalIP')?.address ?? '',
			roles: Object.keys(labels)
				.filter((key) => key.startsWith('node-role.kubernetes.io/'))
				.map((key) => key.slice('node-role.kubernetes.io/'.length))
				.filter(Boolean)
				.sort(),
			ready: ready === 'True' || ready === 'False' || ready === 'Unknown' ? ready : 'Missing',
			unschedulable: node.spec?.unschedulable === true,
			partitioned: machine.isPartitioned(name),
			poweredOff: machine.isPoweredOff(name),
			clockOffsetMs: machine.clockOffset?.(name) ?? 0,
			taints: (node.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
			problems: conditions.filter((c) => c.type !== 'Ready' && c.status === 'True').map((c) => c.type),
			cpu: { allocatableMilli: parseQuantityOrZero(allocatable.cpu).milliValue(), requestedMilli: cpu },
			memory: { allocatableBytes: parseQuantityOrZero(allocatable.memory).value(), requestedBytes: memory },
			pods: { allocatable: parseQuantityOrZero(allocatable.pods).value(), count: here.length },
		};
	});
}

/** The pods of `pods` as the map draws them, sorted by namespace and name; `wallMs` is kubectl's "now" for its RESTARTS cell. */
export function podViews(pods: readonly KubeObject[], wallMs: number): PodView[] {
	return (pods as readonly Pod[])
		.map((pod) => {
			const cells = podStatusCells(pod, wallMs);
			const owner = pod.metadata.ownerReferences?.find((o) => o.controller) ?? pod.metadata.ownerReferences?.[0];
			const view: PodView = {
				namespace: pod.metadata.namespace ?? 'default',
				name: pod.metadata.name ?? '',
				phase: pod.status?.phase ?? 'Pending',
				status: cells.status,
				ready: cells.ready,
				// "3 (5s ago)": the count.
				restarts: Number.parseInt(cells.restarts, 10) || 0,
			};
			if (pod.spec?.nodeName) view.node = pod.spec.nodeName;
			if (pod.status?.podIP) view.ip = pod.status.podIP;
			if (owner) view.owner = `${owner.kind}/${owner.name}`;
			return view;
		})
		.sort((a, b) => (a.namespace < b.namespace ? -1 : a.namespace > b.namespace ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
