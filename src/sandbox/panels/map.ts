/**
 * What the cluster map draws, derived from the worker's ClusterView:
 * statuses as words and shapes (never colour alone), resource use as
 * percentages and readable quantities, pods grouped by node, and where the
 * components sit in the message-flow picture. No simulation here: only
 * presentation of what the view already says.
 */
import type { ComponentView, MessageView, NodeView, PodView } from '../protocol.ts';
import type { InspectTarget } from '../../islands/sandbox/panel-props.ts';

/** A status as the map shows it: a tone (for colour), a glyph (for shape) and a catalogue key (for words). */
export interface StatusLook {
	tone: 'ok' | 'warn' | 'bad' | 'off' | 'info';
	/** A character whose shape differs per tone, so status survives without colour. */
	glyph: string;
	/** `sandbox.map.status.*` key. */
	key: string;
}

const GLYPH = { ok: '●', warn: '▲', bad: '✕', off: '○', info: '◆' } as const;

function look(tone: StatusLook['tone'], key: string): StatusLook {
	return { tone, glyph: GLYPH[tone], key: `sandbox.map.status.${key}` };
}

/** A component's health: running, stopped by the reader (failing), or not running. */
export function componentLook(c: Pick<ComponentView, 'running' | 'failing'>): StatusLook {
	if (c.failing) return look('bad', 'failing');
	return c.running ? look('ok', 'running') : look('off', 'stopped');
}

/** A node's Ready condition as words and shape. */
export function nodeLook(n: Pick<NodeView, 'ready'>): StatusLook {
	switch (n.ready) {
		case 'True':
			return look('ok', 'ready');
		case 'False':
			return look('bad', 'notReady');
		case 'Unknown':
			return look('warn', 'unknown');
		default:
			return look('off', 'notRegistered');
	}
}

/** A pod's colour follows its phase; the words are kubectl's STATUS column. */
export function podTone(p: Pick<PodView, 'phase' | 'status'>): StatusLook['tone'] {
	if (p.status === 'Terminating') return 'off';
	switch (p.phase) {
		case 'Running':
			return /BackOff|Error|CrashLoop/.test(p.status) ? 'bad' : 'ok';
		case 'Pending':
			return /BackOff|Err/.test(p.status) ? 'bad' : 'warn';
		case 'Succeeded':
			return 'info';
		case 'Failed':
			return 'bad';
		default:
			return 'off';
	}
}

export function podGlyph(p: Pick<PodView, 'phase' | 'status'>): string {
	return GLYPH[podTone(p)];
}

/** requested / allocatable as a whole percentage, 0 when nothing is allocatable. */
export function percentOf(used: number, total: number): number {
	if (!(total > 0) || !(used > 0)) return 0;
	return Math.round((used / total) * 100);
}

/**
 * The CSS class that sets a bar's width, in 5 % steps (`ca-w-35`). Classes
 * rather than style attributes: the page's Content-Security-Policy allows
 * no inline styles, and the map must draw without JavaScript too.
 */
export function widthClass(percent: number): string {
	const step = Math.min(100, Math.max(0, Math.round(percent / 5) * 5));
	return `ca-w-${step}`;
}

/** CPU in kubectl's units: `250m`, `2`, `1.5`. */
export function formatCpu(milli: number): string {
	if (milli % 1000 === 0) return String(milli / 1000);
	if (milli >= 1000 && milli % 100 === 0) return String(milli / 1000);
	return `${milli}m`;
}

/** Bytes with a binary suffix, as kubectl describe rounds them: `128Mi`, `3.9Gi`. */
export function formatBytes(bytes: number): string {
	const units = ['', 'Ki', 'Mi', 'Gi', 'Ti'];
	let value = bytes;
	let unit = 0;
	while (value >= 1024 && unit < units.length - 1) {
		value /= 1024;
		unit++;
	}
	const text = value >= 100 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, '');
	return `${text}${units[unit]}`;
}

/** Pods grouped by node name in the order of `nodes`, plus those without a node. */
export function podsByNode(nodes: readonly NodeView[], pods: readonly PodView[]): { byNode: Map<string, PodView[]>; unscheduled: PodView[] } {
	const byNode = new Map<string, PodView[]>(nodes.map((n) => [n.name, []]));
	const unscheduled: PodView[] = [];
	for (const pod of pods) {
		const list = pod.node ? byNode.get(pod.node) : undefined;
		if (list) list.push(pod);
		else if (pod.node) byNode.set(pod.node, [pod]);
		else unscheduled.push(pod);
	}
	const order = (a: PodView, b: PodView) =>
		(a.namespace === b.namespace ? 0 : a.namespace === 'kube-system' ? 1 : b.namespace === 'kube-system' ? -1 : 0) || a.namespace.localeCompare(b.namespace) || a.name.localeCompare(b.name);
	for (const list of byNode.values()) list.sort(order);
	unscheduled.sort(order);
	return { byNode, unscheduled };
}

/**
 * What the inspector opens for a component: its static Pod for the
 * control plane (kubeadm names them `<component>-<node>`), its node for
 * per-node components (they have no object of their own).
 */
export function inspectTargetOfComponent(c: Pick<ComponentView, 'component' | 'node'>): InspectTarget {
	if (c.component === 'kubelet' || c.component === 'container-runtime') return { resource: 'nodes', name: c.node };
	if (c.component === 'kube-proxy') return { resource: 'nodes', name: c.node };
	return { resource: 'pods', namespace: 'kube-system', name: `${c.component}-${c.node}` };
}

/** A point of the message-flow picture. */
export interface FlowPoint {
	id: string;
	label: string;
	/** A second line under the label (a node's name). */
	sublabel?: string;
	x: number;
	y: number;
	/** Where the label goes: under the point (top rows) or over it (the nodes along the bottom). */
	labelAt: 'below' | 'above';
}

/** The message-flow picture: where each party sits (viewBox units) and its size. */
export interface FlowLayout {
	width: number;
	height: number;
	points: FlowPoint[];
}

/**
 * Places the parties of the message-flow picture: kubectl, the scheduler
 * and the controller manager on top, kube-apiserver in the middle with etcd
 * beside it, and each node's kubelet along the bottom. Per-node runtime and
 * kube-proxy messages are drawn at their node's kubelet.
 */
export function flowLayout(nodeNames: readonly string[]): FlowLayout {
	const width = Math.max(520, nodeNames.length * 150);
	const height = 180;
	const points: FlowPoint[] = [
		{ id: 'kubectl', label: 'kubectl', x: width * 0.12, y: 12, labelAt: 'below' },
		{ id: 'kube-scheduler', label: 'scheduler', x: width * 0.46, y: 12, labelAt: 'below' },
		{ id: 'kube-controller-manager', label: 'controller-manager', x: width * 0.8, y: 12, labelAt: 'below' },
		{ id: 'kube-apiserver', label: 'kube-apiserver', x: width * 0.4, y: 80, labelAt: 'below' },
		{ id: 'etcd', label: 'etcd', x: width * 0.84, y: 80, labelAt: 'below' },
	];
	const slot = width / Math.max(1, nodeNames.length);
	nodeNames.forEach((name, i) => points.push({ id: `node/${name}`, label: 'kubelet', sublabel: name, x: slot * i + slot / 2, y: height - 10, labelAt: 'above' }));
	return { width, height, points };
}

/** The point of the flow picture that stands for a trace identity, if it has one. */
export function flowPointId(component: string): string {
	const [family, rest] = component.split('/', 2);
	if ((family === 'kubelet' || family === 'container-runtime' || family === 'kube-proxy') && rest) return `node/${rest}`;
	return family;
}

/** The messages to draw: those between two known points, newest last, at most `max`. */
export function drawableMessages(messages: readonly MessageView[], layout: FlowLayout, max = 8): Array<MessageView & { a: FlowPoint; b: FlowPoint }> {
	const byId = new Map(layout.points.map((p) => [p.id, p]));
	const out: Array<MessageView & { a: FlowPoint; b: FlowPoint }> = [];
	for (const m of messages) {
		const a = byId.get(flowPointId(m.from));
		const b = byId.get(flowPointId(m.to));
		if (a && b && a !== b) out.push({ ...m, a, b });
	}
	return out.slice(-max);
}

/** A note the map shows above everything: why what it shows may be old, or what the cluster is waiting for. */
export interface MapNotice {
	tone: 'bad' | 'warn';
	/** `sandbox.map.notice.*` keys, shown as one paragraph in order. */
	keys: string[];
	values?: Record<string, string>;
}

/** Components that run leader election on a Lease in kube-system. */
const LEADER_ELECTED = ['kube-controller-manager', 'kube-scheduler', 'cloud-controller-manager'];

/**
 * What the map must say about its own picture, from the components' states.
 * The Node and Pod states it draws are read from etcd, so:
 * - while etcd does not run (stopped, or restarting after its crash-loop
 *   back-off), they are as etcd last recorded them;
 * - while kube-apiserver does not run, they are as last recorded in etcd:
 *   nothing can report a change;
 * - in both cases the leader-elected components cannot renew their Leases
 *   (they give up after the 10 s renew deadline and exit);
 * - once both serve again, a component with no leader is waiting to take
 *   its Lease: a restarted replica has a new identity and takes over only
 *   once it has seen the old holder leave it unrenewed for the lease
 *   duration (15 s), retrying every 2 s (k8s.io/component-base defaults).
 */
export function mapNotices(components: readonly ComponentView[]): MapNotice[] {
	const of = (name: string) => components.filter((c) => c.component === name);
	const runs = (name: string) => of(name).some((c) => c.running);
	const stopped = (name: string) => of(name).some((c) => c.failing);
	const elected = LEADER_ELECTED.filter((name) => of(name).some((c) => c.leader !== undefined));
	const storage: string[] = [];
	if (of('etcd').length && !runs('etcd')) storage.push(stopped('etcd') ? 'sandbox.map.notice.etcdStopped' : 'sandbox.map.notice.etcdStarting');
	// Several members, none leading: fewer than a majority can reach each other, and every request times out.
	else if (of('etcd').some((c) => c.leader !== undefined) && !of('etcd').some((c) => c.leader)) storage.push('sandbox.map.notice.etcdNoLeader');
	else if (of('kube-apiserver').length && !runs('kube-apiserver')) storage.push(stopped('kube-apiserver') ? 'sandbox.map.notice.apiserverStopped' : 'sandbox.map.notice.apiserverStarting');
	if (storage.length) {
		if (elected.length) storage.push('sandbox.map.notice.leasesLost');
		return [{ tone: 'bad', keys: storage }];
	}
	// Back (or never gone): who has no leader although a replica the reader did not stop could lead.
	const waiting = elected.filter((name) => !of(name).some((c) => c.leader) && of(name).some((c) => !c.failing));
	return waiting.length ? [{ tone: 'warn', keys: ['sandbox.map.notice.noLeader'], values: { components: waiting.join(', ') } }] : [];
}

/** Whether the Node and Pod states the map shows are only as last recorded (etcd or kube-apiserver is not running). */
export function statesAsLastRecorded(components: readonly ComponentView[]): boolean {
	return mapNotices(components).some((n) => n.tone === 'bad');
}
