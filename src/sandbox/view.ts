/**
 * Builds the `ClusterView` the sandbox draws from a running cluster: a pure
 * projection over sim-core's public, read-only API (`list`, `components`,
 * `observe`, `trace`, `isPartitioned`, `isPoweredOff`, `prompt`, `checkAll`). Nothing here
 * changes the cluster, records an input or writes to the trace, so a view
 * can be built as often as the screen wants one, in the worker while the
 * reader plays and at build time for the server-rendered starting picture.
 *
 * kubectl's STATUS and READY columns come from sim-core's own kubectl (run
 * as an observer), so the map says exactly what `kubectl get pods` says.
 */
import { checkAll, podResourceRequests, type Cluster, type KubeObject, type Scenario, type TraceEvent } from '@cluster-anatomy/sim-core';
import type { ClusterView, ComponentView, MessageView, NodeView, PodView, Speed, TaskView } from './protocol.ts';

/** What the session adds to the cluster's own state. */
export interface ViewContext {
	playing: boolean;
	speed: Speed;
	/** The earliest instant the reader can travel back to (the scenario's start). */
	earliestMs: number;
	/** The latest instant the session reached (greater than now after travelling back). */
	latestMs: number;
	tasks?: Scenario['tasks'];
}

/** How many of the newest messages the map receives. */
export const MESSAGES_MAX = 40;
/** How far back (trace events) the view looks for messages. */
const MESSAGE_SCAN_MAX = 400;

interface Condition {
	type: string;
	status: string;
}
interface Taint {
	key: string;
	value?: string;
	effect: string;
}
interface ResourceList {
	cpu?: string;
	memory?: string;
	pods?: string;
}
interface ContainerLike {
	resources?: { requests?: ResourceList };
}
interface NodeObject extends KubeObject {
	spec?: { unschedulable?: boolean; taints?: Taint[] };
	status?: { conditions?: Condition[]; allocatable?: ResourceList; addresses?: Array<{ type: string; address: string }> };
}
interface PodObject extends KubeObject {
	spec?: { nodeName?: string; containers?: ContainerLike[]; initContainers?: ContainerLike[]; overhead?: ResourceList };
	status?: { phase?: string; podIP?: string; containerStatuses?: Array<{ ready?: boolean; restartCount?: number }> };
}

const BINARY_SUFFIXES: Record<string, number> = { Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { n: 1e-9, u: 1e-6, m: 1e-3, '': 1, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18 };

/** A Kubernetes quantity ('2', '500m', '4Gi', '1e3') as a number of base units; 0 when absent or malformed. */
export function parseQuantity(text: string | undefined): number {
	if (!text) return 0;
	const match = /^([+-]?(?:\d+\.?\d*|\.\d+))(?:([eE][+-]?\d+)|(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?)$/.exec(text.trim());
	if (!match) return 0;
	const value = Number(match[1] + (match[2] ?? ''));
	const suffix = match[3] ?? '';
	return value * (BINARY_SUFFIXES[suffix] ?? DECIMAL_SUFFIXES[suffix] ?? 1);
}

/** The requests a pod adds to its node: sim-core's own numbers, the ones the scheduler and the kubelet use. */
export function podRequests(pod: PodObject): { cpuMilli: number; memoryBytes: number } {
	return podResourceRequests(pod);
}

const TERMINAL_PHASES = new Set(['Succeeded', 'Failed']);

function nodeView(cluster: Cluster, node: NodeObject, pods: PodObject[]): NodeView {
	const labels = node.metadata.labels ?? {};
	const conditions = node.status?.conditions ?? [];
	const ready = conditions.find((c) => c.type === 'Ready')?.status;
	const allocatable = node.status?.allocatable ?? {};
	const here = pods.filter((p) => p.spec?.nodeName === node.metadata.name && !TERMINAL_PHASES.has(p.status?.phase ?? ''));
	const requested = here.reduce((total, p) => {
		const r = podRequests(p);
		return { cpu: total.cpu + r.cpuMilli, memory: total.memory + r.memoryBytes };
	}, { cpu: 0, memory: 0 });
	const name = node.metadata.name ?? '';
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
		partitioned: cluster.isPartitioned(name),
		poweredOff: cluster.isPoweredOff(name),
		taints: (node.spec?.taints ?? []).map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`),
		problems: conditions.filter((c) => c.type !== 'Ready' && c.status === 'True').map((c) => c.type),
		cpu: { allocatableMilli: Math.round(parseQuantity(allocatable.cpu) * 1000), requestedMilli: requested.cpu },
		memory: { allocatableBytes: Math.round(parseQuantity(allocatable.memory)), requestedBytes: requested.memory },
		pods: { allocatable: Math.round(parseQuantity(allocatable.pods)), count: here.length },
	};
}

/**
 * kubectl's READY, STATUS and RESTARTS cells of every pod, read with
 * sim-core's kubectl as an observer. Empty when the observer cannot read
 * (the API server's cache is not loaded, e.g. while it is down).
 */
function kubectlPodCells(cluster: Cluster): Map<string, { ready: string; status: string; restarts: number }> {
	const cells = new Map<string, { ready: string; status: string; restarts: number }>();
	const result = cluster.observe('kubectl get pods --all-namespaces --no-headers');
	if (result.exitCode !== 0) return cells;
	for (const line of result.stdout.split('\n')) {
		// NAMESPACE NAME READY STATUS RESTARTS [(Xs ago)] AGE: the first five cells never hold spaces.
		const [namespace, name, ready, status, restarts] = line.trim().split(/\s+/);
		if (namespace && name && status) cells.set(`${namespace}/${name}`, { ready, status, restarts: Number.parseInt(restarts, 10) || 0 });
	}
	return cells;
}

function podView(pod: PodObject, cells: ReturnType<typeof kubectlPodCells>): PodView {
	const namespace = pod.metadata.namespace ?? 'default';
	const name = pod.metadata.name ?? '';
	const cell = cells.get(`${namespace}/${name}`);
	const statuses = pod.status?.containerStatuses ?? [];
	const phase = pod.status?.phase ?? 'Pending';
	const owner = pod.metadata.ownerReferences?.find((o) => o.controller) ?? pod.metadata.ownerReferences?.[0];
	const view: PodView = {
		namespace,
		name,
		phase,
		status: cell?.status ?? (pod.metadata.deletionTimestamp ? 'Terminating' : phase),
		ready: cell?.ready ?? `${statuses.filter((s) => s.ready).length}/${pod.spec?.containers?.length ?? 0}`,
		restarts: cell?.restarts ?? statuses.reduce((n, s) => n + (s.restartCount ?? 0), 0),
	};
	if (pod.spec?.nodeName) view.node = pod.spec.nodeName;
	if (pod.status?.podIP) view.ip = pod.status.podIP;
	if (owner) view.owner = `${owner.kind}/${owner.name}`;
	return view;
}

/** A process id as the map names components: controllers fold into kube-controller-manager; node processes keep their node. */
export function componentOf(processId: string): string {
	return processId.startsWith('kube-controller-manager/') ? 'kube-controller-manager' : processId;
}

function messages(events: TraceEvent[]): MessageView[] {
	const out: MessageView[] = [];
	for (let i = events.length - 1; i >= 0 && out.length < MESSAGES_MAX && events.length - i <= MESSAGE_SCAN_MAX; i--) {
		const e = events[i];
		if (!e.peer) continue;
		const from = componentOf(e.component);
		const to = componentOf(e.peer);
		if (from === to) continue;
		out.push({ seq: e.seq, atMs: e.atMs, from, to, label: e.object ? `${e.action} ${e.object}` : e.action });
	}
	return out.reverse();
}

function taskViews(cluster: Cluster, tasks: Scenario['tasks']): TaskView[] {
	return (tasks ?? []).map((task) => {
		const outcome = checkAll(cluster, task.checks);
		return { id: task.id, done: outcome.ok, checks: outcome.results.map((r) => ({ ok: r.ok, found: r.found })) };
	});
}

/** Everything the island draws, read from the cluster as it is now. */
export function buildView(cluster: Cluster, context: ViewContext): ClusterView {
	const pods = cluster.list('pods') as PodObject[];
	const nodes = cluster.list('nodes') as NodeObject[];
	const cells = kubectlPodCells(cluster);
	const components: ComponentView[] = cluster.components().map((c) => ({ ...c }));
	const events = cluster.trace({});
	return {
		nowMs: cluster.now(),
		wallMs: cluster.wallMs(),
		playing: context.playing,
		speed: context.speed,
		prompt: cluster.prompt(),
		components,
		nodes: nodes.map((n) => nodeView(cluster, n, pods)),
		pods: pods
			.map((p) => podView(p, cells))
			.sort((a, b) => a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name)),
		messages: messages(events),
		tasks: taskViews(cluster, context.tasks),
		lastSeq: events.length ? events[events.length - 1].seq : -1,
		earliestMs: context.earliestMs,
		latestMs: Math.max(context.latestMs, cluster.now()),
	};
}
