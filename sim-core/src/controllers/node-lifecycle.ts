/**
 * The node lifecycle controller: every --node-monitor-period (5 s) it looks
 * at each node's heartbeats (Ready condition's lastHeartbeatTime and the
 * node's Lease in kube-node-lease). When neither changed for
 * --node-monitor-grace-period (50 s since v1.32;
 * --node-startup-grace-period, 60 s, for a node that never posted status),
 * it sets Ready, MemoryPressure, DiskPressure and PIDPressure to Unknown
 * (`NodeStatusUnknown`, `Kubelet stopped posting node status.`), records
 * `NodeNotReady` and marks the node's pods not ready. It keeps the node's
 * taints in step with its conditions: NoSchedule taints for not-ready,
 * unreachable, pressure, network-unavailable and unschedulable as soon as a
 * node changes, and the NoExecute `not-ready` / `unreachable` taints through
 * a per-zone rate-limited queue (--node-eviction-rate 0.1 nodes/s), which
 * the taint-eviction controller acts on.
 *
 * Zones and their disruption states are modelled (Normal,
 * PartialDisruption with the secondary rate, FullDisruption of every zone
 * stops all tainting and removes the NoExecute taints). Simplified: the
 * token bucket is refilled continuously rather than by client-go's limiter
 * with its saturation hand-over, and a taint swap is one patch instead of
 * an add patch and a remove patch.
 *
 * Mirrors pkg/controller/nodelifecycle/node_lifecycle_controller.go,
 * pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go,
 * pkg/controller/util/node/controller_utils.go.
 */
import type { KubeObject, Lease, Node, NodeCondition, Pod, Taint } from '../api/types.ts';
import { R } from '../client/client.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { ControllerBase, type ControllerHost, type SyncError } from './controller-context.ts';
import { timeMs } from './pod-util.ts';
import { deepCopy } from '../golang/json.ts';
import { taintExists } from './taints.ts';
import { TaintKeys } from '../component-helpers/taints.ts';

const NODE_CONTROLLER = 'node-controller';

/** The options of kube-controller-manager this controller reads. */
interface NodeLifecycleOptions {
	nodeMonitorPeriodMs: number;
	nodeMonitorGracePeriodMs: number;
	nodeStartupGracePeriodMs: number;
	nodeEvictionRate: number;
	secondaryNodeEvictionRate: number;
	largeClusterSizeThreshold: number;
	unhealthyZoneThreshold: number;
}

/** scheduler.NodeEvictionPeriod: how often the tainting queues are tried (100 ms). */
const NODE_EVICTION_PERIOD_MS = 100;
/** scheduler.NodeHealthUpdateRetry: status writes retried with a fresh read. */
const NODE_HEALTH_UPDATE_RETRY = 5;
/** EvictionRateLimiterBurst. */
const EVICTION_RATE_LIMITER_BURST = 1;
/** v1.LabelNodeExcludeDisruption: nodes left out of zone health. */
const EXCLUDE_DISRUPTION_LABEL = 'node.kubernetes.io/exclude-disruption';

const UnreachableTaintTemplate: Taint = { key: TaintKeys.Unreachable, effect: 'NoExecute' };
const NotReadyTaintTemplate: Taint = { key: TaintKeys.NotReady, effect: 'NoExecute' };

/** nodeConditionToTaintKeyStatusMap: which condition status brings which NoSchedule taint. */
const CONDITION_TAINTS: Record<string, Record<string, string>> = {
	Ready: { False: TaintKeys.NotReady, Unknown: TaintKeys.Unreachable },
	MemoryPressure: { True: TaintKeys.MemoryPressure },
	DiskPressure: { True: TaintKeys.DiskPressure },
	NetworkUnavailable: { True: TaintKeys.NetworkUnavailable },
	PIDPressure: { True: TaintKeys.PIDPressure },
};
const CONDITION_TAINT_KEYS = new Set(Object.values(CONDITION_TAINTS).flatMap((m) => Object.values(m)));

type ZoneState = 'Initial' | 'Normal' | 'FullDisruption' | 'PartialDisruption';

/** What the controller remembers of a node's heartbeats (nodeHealthData); times are wall ms. */
interface NodeHealth {
	probeMs: number;
	readyTransitionMs: number;
	/** The Ready condition as last recorded. */
	ready?: { status: string; lastHeartbeatTime?: string; lastTransitionTime?: string };
	leaseRenewTime?: string;
}

/** RateLimitedTimedQueue with its token bucket. */
interface TaintQueue {
	items: Array<{ node: string; uid: string; processAtMs: number }>;
	/** Names ever added and not Removed (UniqueQueue's set): processed names stay, so they are not tainted twice. */
	set: string[];
	qps: number;
	tokens: number;
	lastRefillMs: number;
}

interface NodeLifecycleState {
	health: Record<string, NodeHealth>;
	/** knownNodeSet: name -> uid. */
	known: Record<string, string>;
	zoneStates: Record<string, ZoneState>;
	tainters: Record<string, TaintQueue>;
	nodesToRetry: string[];
	taintPassScheduled: boolean;
}

/** GetZoneKey: `region:\0:zone`, or '' when the node has neither label. */
export function zoneKey(node: Node): string {
	const labels = node.metadata.labels ?? {};
	const zone = labels['failure-domain.beta.kubernetes.io/zone'] ?? labels['topology.kubernetes.io/zone'] ?? '';
	const region = labels['failure-domain.beta.kubernetes.io/region'] ?? labels['topology.kubernetes.io/region'] ?? '';
	return region === '' && zone === '' ? '' : `${region}:\x00:${zone}`;
}

/**
 * ComputeZoneState: FullDisruption when no node is ready, PartialDisruption
 * when more than 2 nodes and at least `threshold` of them are not ready.
 */
export function computeZoneState(readyStatuses: Array<string | undefined>, unhealthyZoneThreshold: number): ZoneState {
	let ready = 0;
	let notReady = 0;
	for (const s of readyStatuses) if (s === 'True') ready++;
	else notReady++;
	if (ready === 0 && notReady > 0) return 'FullDisruption';
	if (notReady > 2 && notReady / (notReady + ready) >= unhealthyZoneThreshold) return 'PartialDisruption';
	return 'Normal';
}

/** The NoSchedule taints a node's conditions and spec.unschedulable call for (doNoScheduleTaintingPass). */
export function noScheduleTaintsFor(node: Node): Taint[] {
	const taints: Taint[] = [];
	for (const c of node.status?.conditions ?? []) {
		const key = CONDITION_TAINTS[c.type]?.[c.status];
		if (key) taints.push({ key, effect: 'NoSchedule' });
	}
	if (node.spec?.unschedulable) taints.push({ key: TaintKeys.Unschedulable, effect: 'NoSchedule' });
	return taints;
}

export class NodeLifecycleController extends ControllerBase<NodeLifecycleState> {
	readonly name = 'node-lifecycle-controller';
	readonly sub = 'nodelifecycle';
	readonly resources = ['nodes', 'leases', 'pods'] as const;
	/** UpdateWorkerSize: node updates processed in parallel, 8 (scheduler.UpdateWorkerSize, pkg/controller/nodelifecycle/scheduler). */
	override readonly workers = 8;

	constructor(
		host: ControllerHost,
		private readonly options: NodeLifecycleOptions,
	) {
		super(host);
	}

	freshState(): NodeLifecycleState {
		return { health: {}, known: {}, zoneStates: {}, tainters: {}, nodesToRetry: [], taintPassScheduled: false };
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'nodes') this.enqueue(obj.metadata.name ?? '');
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		if (resource === 'nodes') this.enqueue(obj.metadata.name ?? '');
	}

	override onLeading(): void {
		// wait.UntilWithContext runs the first pass at once.
		this.host.timer(this.sub, 'monitor', 0, undefined, true);
	}

	override onTimer(timer: string): void {
		if (timer === 'monitor') {
			this.monitorNodeHealth();
			this.host.timer(this.sub, 'monitor', this.options.nodeMonitorPeriodMs, undefined, true);
		} else if (timer === 'taint-pass') {
			this.state.taintPassScheduled = false;
			this.doNoExecuteTaintingPass();
		}
	}

	private recorder() {
		return this.host.recorder(NODE_CONTROLLER);
	}

	/** RecordNodeEvent / RecordNodeStatusChange: `Node <name> event: ...` and `Node <name> status is now: ...`. */
	private nodeEvent(name: string, uid: string, reason: string, message: string): void {
		this.recorder().record({ apiVersion: 'v1', kind: 'Node', metadata: { name, uid } }, 'Normal', reason, message);
	}

	private podsOnNode(nodeName: string): Pod[] {
		return (this.host.informer('pods').list() as Pod[]).filter((p) => p.spec.nodeName === nodeName);
	}

	// ---- monitorNodeHealth ---------------------------------------------------------------

	private monitorNodeHealth(): void {
		const nodes = this.host.informer('nodes').list() as Node[];
		const names = new Set(nodes.map((n) => n.metadata.name ?? ''));
		for (const node of nodes) {
			const name = node.metadata.name ?? '';
			if (this.state.known[name] !== undefined) continue;
			this.nodeEvent(name, node.metadata.uid ?? '', 'RegisteredNode', `Node ${name} event: Registered Node ${name} in Controller`);
			this.state.known[name] = node.metadata.uid ?? '';
			this.addTainterForZone(node);
			this.markNodeAsReachable(node);
		}
		for (const [name, uid] of Object.entries(this.state.known)) {
			if (names.has(name)) continue;
			this.nodeEvent(name, uid, 'RemovingNode', `Node ${name} event: Removing Node ${name} from Controller`);
			delete this.state.known[name];
			delete this.state.health[name];
		}
		const zoneToConditions = new Map<string, Array<string | undefined>>();
		for (const original of nodes) {
			const name = original.metadata.name ?? '';
			const result = this.tryUpdateNodeHealthWithRetry(deepCopy(original));
			if (!result) continue;
			const { node, observed, current } = result;
			if (!node.metadata.labels?.[EXCLUDE_DISRUPTION_LABEL]) {
				const zone = zoneKey(node);
				zoneToConditions.set(zone, [...(zoneToConditions.get(zone) ?? []), current?.status]);
			}
			if (current) {
				this.processTaintBaseEviction(node, observed);
				const needsRetry = this.state.nodesToRetry.includes(name);
				let markNotReady = false;
				if (current.status !== 'True' && observed.status === 'True') {
					this.trace('node-not-ready', `nodes/${name}`, `node ${name} is not ready (Ready=${current.status}); marking its pods not ready`);
					this.nodeEvent(name, node.metadata.uid ?? '', 'NodeNotReady', `Node ${name} status is now: NodeNotReady`);
					markNotReady = true;
				} else if (needsRetry && observed.status !== 'True') markNotReady = true;
				if (markNotReady && !this.markPodsNotReady(name)) {
					if (!needsRetry) this.state.nodesToRetry.push(name);
					continue;
				}
			}
			this.state.nodesToRetry = this.state.nodesToRetry.filter((n) => n !== name);
		}
		this.handleDisruption(zoneToConditions, nodes);
	}

	private tryUpdateNodeHealthWithRetry(node: Node): { node: Node; observed: NodeCondition; current?: NodeCondition } | undefined {
		let target = node;
		for (let i = 0; i < NODE_HEALTH_UPDATE_RETRY; i++) {
			const result = this.tryUpdateNodeHealth(target);
			if (!('error' in result)) return result;
			const fresh = this.host.client.get<Node>(R.nodes, undefined, node.metadata.name ?? '');
			if (!fresh.ok) return undefined;
			target = fresh.object;
		}
		this.trace('error', `nodes/${node.metadata.name}`, `update health of Node '${node.metadata.name}' from Controller failed; skipping - no pods will be evicted`);
		return undefined;
	}

	/** tryUpdateNodeHealth: returns the Ready condition before (observed) and after (current) this pass. */
	private tryUpdateNodeHealth(node: Node): { node: Node; observed: NodeCondition; current?: NodeCondition } | { error: string } {
		const name = node.metadata.name ?? '';
		const now = this.wallMs;
		const nowText = formatRfc3339(now);
		let health = this.state.health[name];
		const currentReady = node.status?.conditions?.find((c) => c.type === 'Ready');
		let observed: NodeCondition;
		let graceMs: number;
		if (!currentReady) {
			// Never posted status: a fake Ready condition dated at creation, and the startup grace period.
			observed = { type: 'Ready', status: 'Unknown', lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: node.metadata.creationTimestamp };
			graceMs = this.options.nodeStartupGracePeriodMs;
			const created = timeMs(node.metadata.creationTimestamp);
			health = health ? { ...health, ready: undefined } : { probeMs: created, readyTransitionMs: created };
			this.state.health[name] = health;
		} else {
			observed = { ...currentReady };
			graceMs = this.options.nodeMonitorGracePeriodMs;
		}
		const saved = health?.ready;
		const snapshot = currentReady ? { status: currentReady.status, lastHeartbeatTime: currentReady.lastHeartbeatTime, lastTransitionTime: currentReady.lastTransitionTime } : undefined;
		if (!health) {
			health = { probeMs: now, readyTransitionMs: now, ready: snapshot };
		} else if (!saved && currentReady) {
			health = { probeMs: now, readyTransitionMs: now, ready: snapshot, leaseRenewTime: health.leaseRenewTime };
		} else if (saved && !currentReady) {
			health = { probeMs: now, readyTransitionMs: now, leaseRenewTime: health.leaseRenewTime };
		} else if (saved && currentReady && saved.lastHeartbeatTime !== currentReady.lastHeartbeatTime) {
			const transitionMs = saved.lastTransitionTime !== currentReady.lastTransitionTime ? now : health.readyTransitionMs;
			health = { probeMs: now, readyTransitionMs: transitionMs, ready: snapshot, leaseRenewTime: health.leaseRenewTime };
		}
		// A renewed Lease is a heartbeat too.
		const lease = this.host.informer('leases').get(`kube-node-lease/${name}`) as Lease | undefined;
		const renew = lease?.spec.renewTime;
		if (renew && (!health.leaseRenewTime || timeMs(health.leaseRenewTime) < timeMs(renew))) {
			health = { ...health, leaseRenewTime: renew, probeMs: now };
		}
		this.state.health[name] = health;
		if (now > health.probeMs + graceMs) {
			const conditions = (node.status ??= {}).conditions ?? [];
			node.status.conditions = conditions;
			for (const type of ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure']) {
				const c = conditions.find((x) => x.type === type);
				if (!c) {
					conditions.push({ type, status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: node.metadata.creationTimestamp, lastTransitionTime: nowText });
				} else if (c.status !== 'Unknown') {
					c.status = 'Unknown';
					c.reason = 'NodeStatusUnknown';
					c.message = 'Kubelet stopped posting node status.';
					c.lastTransitionTime = nowText;
				}
			}
			const current = conditions.find((c) => c.type === 'Ready');
			if (JSON.stringify(current) !== JSON.stringify(observed)) {
				this.trace('node-unknown', `nodes/${name}`, `node ${name} hasn't been updated for ${Math.round((now - health.probeMs) / 1000)}s; setting its conditions to Unknown`);
				const written = this.host.client.updateStatus<Node>(R.nodes, node);
				if (!written.ok) return { error: written.message };
				this.state.health[name] = { ...health, readyTransitionMs: now, ready: current ? { status: current.status, lastHeartbeatTime: current.lastHeartbeatTime, lastTransitionTime: current.lastTransitionTime } : undefined };
				return { node: written.object, observed, current };
			}
		}
		return { node, observed, current: currentReady };
	}

	/** MarkPodsNotReady: Ready=False on every pod of the node, with a `NodeNotReady` event. False if a write failed. */
	private markPodsNotReady(nodeName: string): boolean {
		let ok = true;
		const now = this.nowRfc3339();
		for (const cached of this.podsOnNode(nodeName)) {
			const pod = deepCopy(cached);
			const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
			if (!ready || ready.status === 'False') continue;
			ready.status = 'False';
			ready.lastTransitionTime = now;
			const written = this.host.client.updateStatus(R.pods, pod);
			if (!written.ok) {
				if (written.code !== 404) ok = false;
				continue;
			}
			this.recorder().record(pod, 'Warning', 'NodeNotReady', 'Node is not ready');
		}
		return ok;
	}

	// ---- taints ------------------------------------------------------------------------------

	/**
	 * SwapNodeControllerTaint: a fresh read, then one patch adding `add`
	 * (stamped with timeAdded) and removing `remove` (matched by key and
	 * effect). True when the node ends up as asked.
	 */
	private swapTaints(nodeName: string, add: Taint[], remove: Taint[]): boolean {
		const got = this.host.client.get<Node>(R.nodes, undefined, nodeName);
		if (!got.ok) return false;
		const now = this.nowRfc3339();
		let taints = [...(got.object.spec?.taints ?? [])];
		const added: Taint[] = [];
		const removed: Taint[] = [];
		for (const t of add) {
			const stamped: Taint = { ...t, timeAdded: now };
			const i = taints.findIndex((x) => x.key === t.key && x.effect === t.effect);
			if (i >= 0) {
				if (JSON.stringify(taints[i]) === JSON.stringify(stamped)) continue;
				taints[i] = stamped;
			} else taints.push(stamped);
			added.push(t);
		}
		for (const t of remove) {
			if (!taintExists(taints, t)) continue;
			taints = taints.filter((x) => !(x.key === t.key && x.effect === t.effect));
			removed.push(t);
		}
		if (added.length === 0 && removed.length === 0) return true;
		const describe = (ts: Taint[]) => ts.map((t) => `${t.key}:${t.effect}`).join(', ');
		this.trace('taint', `nodes/${nodeName}`, [added.length ? `adding ${describe(added)}` : '', removed.length ? `removing ${describe(removed)}` : ''].filter(Boolean).join('; ') + ` on node ${nodeName}`);
		const patched = this.host.client.patch(R.nodes, undefined, nodeName, { metadata: { resourceVersion: got.object.metadata.resourceVersion }, spec: { taints: taints.length ? taints : null } }, 'application/merge-patch+json');
		return patched.ok;
	}

	/** doNoScheduleTaintingPass: the node-update worker keeps condition taints in step. */
	sync(key: string): SyncError {
		const node = this.host.informer('nodes').get(key) as Node | undefined;
		if (!node) return undefined;
		const wanted = noScheduleTaintsFor(node);
		const current = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' && (t.key === TaintKeys.Unschedulable || CONDITION_TAINT_KEYS.has(t.key)));
		const toAdd = wanted.filter((t) => !taintExists(current, t));
		const toRemove = current.filter((t) => !taintExists(wanted, t));
		if (toAdd.length === 0 && toRemove.length === 0) return undefined;
		this.trace('reconcile', `nodes/${key}`, `syncing NoSchedule taints of node ${key}`);
		return this.swapTaints(key, toAdd, toRemove) ? undefined : `failed to swap taints of node ${key}`;
	}

	private addTainterForZone(node: Node): void {
		const zone = zoneKey(node);
		if (this.state.zoneStates[zone] !== undefined) return;
		this.state.zoneStates[zone] = 'Initial';
		this.state.tainters[zone] = { items: [], set: [], qps: this.options.nodeEvictionRate, tokens: EVICTION_RATE_LIMITER_BURST, lastRefillMs: this.host.clock.nowMs() };
	}

	private tainter(node: Node): TaintQueue {
		this.addTainterForZone(node);
		return this.state.tainters[zoneKey(node)];
	}

	/** markNodeForTainting: queue the node (once) for its NoExecute taint. */
	private markNodeForTainting(node: Node, status: 'False' | 'Unknown'): boolean {
		const queue = this.tainter(node);
		const name = node.metadata.name ?? '';
		const template = status === 'False' ? NotReadyTaintTemplate : UnreachableTaintTemplate;
		if (!taintExists(node.spec?.taints, template)) this.removeFromTainter(queue, name);
		if (queue.set.includes(name)) return false;
		queue.set.push(name);
		queue.items.push({ node: name, uid: node.metadata.uid ?? '', processAtMs: this.host.clock.nowMs() });
		this.scheduleTaintPass();
		return true;
	}

	private removeFromTainter(queue: TaintQueue, name: string): boolean {
		const had = queue.set.includes(name);
		queue.set = queue.set.filter((n) => n !== name);
		queue.items = queue.items.filter((i) => i.node !== name);
		return had;
	}

	/** markNodeAsReachable: remove the NoExecute taints (only if present) and forget any queued tainting. */
	private markNodeAsReachable(node: Node): boolean {
		const present = [UnreachableTaintTemplate, NotReadyTaintTemplate].filter((t) => taintExists(node.spec?.taints, t));
		if (present.length) {
			this.trace('reconcile', `nodes/${node.metadata.name}`, `node ${node.metadata.name} is healthy again, removing all taints`);
			this.swapTaints(node.metadata.name ?? '', [], present);
		}
		return this.removeFromTainter(this.tainter(node), node.metadata.name ?? '');
	}

	/** processTaintBaseEviction: on the Ready condition seen at the start of this pass. */
	private processTaintBaseEviction(node: Node, observed: NodeCondition): void {
		const name = node.metadata.name ?? '';
		switch (observed.status) {
			case 'False':
				if (taintExists(node.spec?.taints, UnreachableTaintTemplate)) this.swapTaints(name, [NotReadyTaintTemplate], [UnreachableTaintTemplate]);
				else if (this.markNodeForTainting(node, 'False')) this.trace('reconcile', `nodes/${name}`, `node ${name} is NotReady; adding it to the taint queue`);
				break;
			case 'Unknown':
				if (taintExists(node.spec?.taints, NotReadyTaintTemplate)) this.swapTaints(name, [UnreachableTaintTemplate], [NotReadyTaintTemplate]);
				else if (this.markNodeForTainting(node, 'Unknown')) this.trace('reconcile', `nodes/${name}`, `node ${name} is unresponsive; adding it to the taint queue`);
				break;
			case 'True':
				this.markNodeAsReachable(node);
				break;
		}
	}

	private scheduleTaintPass(): void {
		if (this.state.taintPassScheduled) return;
		this.state.taintPassScheduled = true;
		this.host.timer(this.sub, 'taint-pass', NODE_EVICTION_PERIOD_MS);
	}

	/** A token from the zone's bucket (TryAccept), refilled at qps up to the burst of 1; qps 0 never gives one. */
	private tryAccept(queue: TaintQueue): boolean {
		const now = this.host.clock.nowMs();
		if (queue.qps <= 0) return false;
		queue.tokens = Math.min(EVICTION_RATE_LIMITER_BURST, queue.tokens + ((now - queue.lastRefillMs) / 1000) * queue.qps);
		queue.lastRefillMs = now;
		if (queue.tokens < 1) return false;
		queue.tokens -= 1;
		return true;
	}

	/** doNoExecuteTaintingPass: each zone's queue, as fast as its rate limit allows. */
	private doNoExecuteTaintingPass(): void {
		for (const zone of Object.keys(this.state.tainters).sort()) {
			const queue = this.state.tainters[zone];
			while (queue.items.length > 0) {
				const head = queue.items[0];
				if (!this.tryAccept(queue)) break;
				if (this.host.clock.nowMs() < head.processAtMs) break;
				const node = this.host.informer('nodes').get(head.node) as Node | undefined;
				let done = true;
				const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
				if (node && ready && (ready.status === 'False' || ready.status === 'Unknown')) {
					// "unreachable" and "not-ready" are exclusive, as Ready's values are.
					const add = ready.status === 'False' ? NotReadyTaintTemplate : UnreachableTaintTemplate;
					const opposite = ready.status === 'False' ? UnreachableTaintTemplate : NotReadyTaintTemplate;
					done = this.swapTaints(head.node, [add], [opposite]);
				}
				queue.items.shift();
				// Processed names stay in the set (RemoveFromQueue); a failure is retried.
				if (!done) queue.items.push({ ...head, processAtMs: this.host.clock.nowMs() + 1 });
			}
		}
		if (Object.values(this.state.tainters).some((q) => q.items.length > 0)) this.scheduleTaintPass();
	}

	// ---- zones -----------------------------------------------------------------------------------

	private setLimiterInZone(zone: string, zoneSize: number, state: ZoneState): void {
		const queue = this.state.tainters[zone];
		if (!queue) return;
		let qps = this.options.nodeEvictionRate;
		// ReducedQPSFunc: small clusters stop tainting altogether in a partial disruption.
		if (state === 'PartialDisruption') qps = zoneSize > this.options.largeClusterSizeThreshold ? this.options.secondaryNodeEvictionRate : 0;
		queue.qps = qps;
		queue.tokens = Math.min(queue.tokens, EVICTION_RATE_LIMITER_BURST);
		queue.lastRefillMs = this.host.clock.nowMs();
	}

	/** handleDisruption: zone states and their rate limits; all zones down stops every eviction. */
	private handleDisruption(zoneToConditions: Map<string, Array<string | undefined>>, nodes: Node[]): void {
		const newStates: Record<string, ZoneState> = {};
		let allAreFullyDisrupted = true;
		for (const [zone, conditions] of zoneToConditions) {
			const state = computeZoneState(conditions, this.options.unhealthyZoneThreshold);
			if (state !== 'FullDisruption') allAreFullyDisrupted = false;
			newStates[zone] = state;
			this.state.zoneStates[zone] ??= 'Initial';
		}
		let allWasFullyDisrupted = true;
		for (const [zone, state] of Object.entries(this.state.zoneStates)) {
			if (!zoneToConditions.has(zone)) {
				delete this.state.zoneStates[zone];
				continue;
			}
			if (state !== 'FullDisruption') {
				allWasFullyDisrupted = false;
				break;
			}
		}
		if (allAreFullyDisrupted && allWasFullyDisrupted) return;
		if (allAreFullyDisrupted) {
			this.trace('disruption', undefined, 'Controller detected that all Nodes are not-Ready. Entering master disruption mode');
			for (const node of nodes) this.markNodeAsReachable(node);
			for (const zone of Object.keys(this.state.zoneStates)) {
				if (this.state.tainters[zone]) this.state.tainters[zone].qps = 0;
				this.state.zoneStates[zone] = 'FullDisruption';
			}
			return;
		}
		if (allWasFullyDisrupted) {
			this.trace('disruption', undefined, 'Controller detected that some Nodes are Ready. Exiting master disruption mode');
			const now = this.wallMs;
			for (const node of nodes) {
				const h = this.state.health[node.metadata.name ?? ''];
				if (h) {
					h.probeMs = now;
					h.readyTransitionMs = now;
				}
			}
			for (const zone of Object.keys(this.state.zoneStates)) {
				this.setLimiterInZone(zone, zoneToConditions.get(zone)?.length ?? 0, newStates[zone]);
				this.state.zoneStates[zone] = newStates[zone];
			}
			return;
		}
		for (const [zone, state] of Object.entries(this.state.zoneStates)) {
			const next = newStates[zone];
			if (next === undefined || state === next) continue;
			this.trace('disruption', undefined, `Controller detected that zone ${zone.replace('\x00', '') || '(none)'} is now in state ${next}`);
			this.setLimiterInZone(zone, zoneToConditions.get(zone)?.length ?? 0, next);
			this.state.zoneStates[zone] = next;
		}
	}
}
