/**
 * The scheduling queue (PriorityQueue): where pods wait to be scheduled. Its
 * parts, with upstream's v1.36 behaviour:
 *
 * - activeQ, ordered by the QueueSort plugin (PrioritySort: priority, then
 *   arrival time); pods are popped one per scheduling cycle.
 * - backoffQ: pods that failed and must wait `podInitialBackoffSeconds ×
 *   2^(attempts−1)`, capped at `podMaxBackoffSeconds`, the expiry truncated
 *   to a one-second window. With SchedulerPopFromBackoffQ (beta, on by
 *   default since v1.33) a pod rejected by plugins is popped from backoffQ
 *   straight away when activeQ is empty; pods that failed with an error sit
 *   in a separate error queue and always wait out their back-off. Both are
 *   flushed to activeQ every second, on the second.
 * - unschedulablePods: pods that were rejected; a cluster event moves them
 *   back only if a plugin that rejected them says the event may help (its
 *   QueueingHint, SchedulerQueueingHints is GA); any pod left there longer
 *   than podMaxInUnschedulablePodsDuration (5 min) is moved back by the
 *   30-second leftover flush. Pods gated by a PreEnqueue plugin
 *   (schedulingGates) also wait here until the event that ungates them.
 * - the nominator: pods nominated to a node by preemption.
 *
 * Because a scheduling cycle runs inside one event here, no cluster event
 * can arrive while a pod is "in flight", so upstream's in-flight event
 * bookkeeping has nothing to record and is left out.
 *
 * The queue's whole state is plain JSON in the scheduler's process state;
 * pods themselves are read from the scheduler's pod informer by key.
 *
 * Mirrors pkg/scheduler/backend/queue/scheduling_queue.go,
 * pkg/scheduler/backend/queue/active_queue.go,
 * pkg/scheduler/backend/queue/backoff_queue.go,
 * pkg/scheduler/backend/queue/unschedulable_pods.go,
 * pkg/scheduler/backend/queue/nominator.go.
 */
import type { KubeObject, Pod } from '../../api/types.ts';
import {
	ActionType,
	BACKOFF_COMPLETE,
	EVENT_ASSIGNED_POD_ADD,
	EVENT_UNSCHEDULABLE_TIMEOUT,
	EVENT_UNSCHEDULED_POD_ADD,
	EVENT_UNSCHEDULED_POD_UPDATE,
	POP_FROM_BACKOFF_Q,
	QueueingHint,
	SCHEDULE_ATTEMPT_FAILURE,
	eventLabel,
	isWildCard,
	matchClusterEvents,
	podSchedulingPropertiesChange,
	type ClusterEvent,
} from '../framework/events.ts';
import type { QueuedPodInfoView } from '../framework/interface.ts';
import type { Framework } from '../framework/runtime.ts';
import { isSuccess } from '../framework/status.ts';
import { affinityTermMatches, PodInfo, podKey } from '../framework/types.ts';
import { Names } from '../plugins/names.ts';
import { heapCompact, heapPeek, heapPop, heapPush, type HeapEntry, type HeapOps } from './heap.ts';

/** DefaultPodMaxInUnschedulablePodsDuration: 5 minutes. */
export const DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS = 5 * 60_000;
/** flushUnschedulablePodsLeftover runs every 30 seconds (scheduling_queue.go Run). */
export const UNSCHEDULABLE_FLUSH_INTERVAL_MS = 30_000;
/** backoffQOrderingWindowDuration: 1 second; the backoffQ flush runs on these windows. */
export const BACKOFF_ORDERING_WINDOW_MS = 1000;
/** A bound on the pods the queue holds, so no input can grow it without limit. */
const MAX_QUEUED_PODS = 200_000;

type QueueName = 'active' | 'backoff' | 'errorBackoff' | 'unschedulable' | 'inflight';

/** framework.QueuedPodInfo, as plain JSON. */
interface QueuedPodState {
	key: string;
	uid: string;
	/** The pod's scheduler name (which profile's plugins apply). */
	schedulerName: string;
	/** When the pod was last added to the queue (virtual ms). */
	timestampMs: number;
	initialAttemptMs: number | null;
	/** Scheduling attempts so far (incremented at each pop). */
	attempts: number;
	unschedulableCount: number;
	consecutiveErrorsCount: number;
	unschedulablePlugins: string[];
	pendingPlugins: string[];
	/** The PreEnqueue plugin holding the pod back, '' when none. */
	gatingPlugin: string;
	/** Cached back-off expiry (virtual ms), cleared when attempts or timestamp change. */
	backoffExpirationMs: number | null;
	where: QueueName;
	/** Heap entry generation (an entry with another seq is stale). */
	seq: number;
	/** Arrival order, renewed with timestampMs: breaks exact ties so runs are reproducible. */
	order: number;
}

/** The queue's JSON state. */
export interface SchedulingQueueState {
	pods: Record<string, QueuedPodState>;
	activeQ: HeapEntry[];
	backoffQ: HeapEntry[];
	errorBackoffQ: HeapEntry[];
	nextSeq: number;
	schedulingCycle: number;
	/** The nominator: pod key -> nominated node. */
	nominated: Record<string, string>;
}

export function emptySchedulingQueue(): SchedulingQueueState {
	return { pods: {}, activeQ: [], backoffQ: [], errorBackoffQ: [], nextSeq: 1, schedulingCycle: 0, nominated: {} };
}

/** What the queue needs from the scheduler. */
interface QueueDeps {
	nowMs(): number;
	/** Wall-clock ms of virtual time 0 (ordering windows are aligned to wall seconds). */
	epochMs: number;
	/** The informer's pod for a key. */
	pod(key: string): Pod | undefined;
	/** The framework of the profile serving `schedulerName`. */
	framework(schedulerName: string): Framework | undefined;
	/** All profiles' frameworks (for "is any plugin interested in this event"). */
	frameworks(): Framework[];
	podInitialBackoffMs: number;
	podMaxBackoffMs: number;
	podMaxInUnschedulablePodsDurationMs: number;
	/** Called when pods became poppable (upstream's broadcast on the active queue's condition). */
	activated(): void;
	/** Called to record what the queue did, for the trace. */
	note?(message: string): void;
}

/** queueingStrategy. */
enum Strategy {
	Skip,
	AfterBackoff,
	Immediately,
}

export function schedulerNameOf(pod: Pod): string {
	return pod.spec.schedulerName || 'default-scheduler';
}

export class SchedulingQueue {
	private readonly activeOps: HeapOps;
	private readonly backoffOps: HeapOps;
	private readonly errorBackoffOps: HeapOps;

	constructor(
		private readonly state: () => SchedulingQueueState,
		private readonly deps: QueueDeps,
	) {
		const live = (where: QueueName) => (e: HeapEntry) => {
			const p = this.state().pods[e[0]];
			return !!p && p.seq === e[1] && p.where === where;
		};
		this.activeOps = { less: (a, b) => this.activeLess(a[0], b[0]), valid: live('active') };
		this.backoffOps = {
			less: (a, b) => {
				const ta = this.backoffTime(this.state().pods[a[0]]);
				const tb = this.backoffTime(this.state().pods[b[0]]);
				// Within the same window the backoffQ orders pods as activeQ does.
				return ta !== tb ? ta < tb : this.activeLess(a[0], b[0]);
			},
			valid: live('backoff'),
		};
		this.errorBackoffOps = {
			less: (a, b) => this.backoffTime(this.state().pods[a[0]]) < this.backoffTime(this.state().pods[b[0]]),
			valid: live('errorBackoff'),
		};
	}

	private view(key: string): QueuedPodInfoView | undefined {
		const pod = this.deps.pod(key);
		const p = this.state().pods[key];
		return pod && p ? { pod, timestampMs: p.timestampMs } : undefined;
	}

	/** The QueueSort order; arrival order breaks exact ties so runs are reproducible. */
	private activeLess(a: string, b: string): boolean {
		const va = this.view(a);
		const vb = this.view(b);
		if (!va || !vb) return !!va;
		const fw = this.deps.framework(schedulerNameOf(va.pod)) ?? this.deps.frameworks()[0];
		if (fw.less(va, vb)) return true;
		if (fw.less(vb, va)) return false;
		return this.state().pods[a].order < this.state().pods[b].order;
	}

	// ---- back-off ------------------------------------------------------------

	/** alignToWindow: truncate a virtual time to the wall-clock second it falls in. */
	private alignToWindow(ms: number): number {
		const wall = this.deps.epochMs + ms;
		return ms - (((wall % BACKOFF_ORDERING_WINDOW_MS) + BACKOFF_ORDERING_WINDOW_MS) % BACKOFF_ORDERING_WINDOW_MS);
	}

	/** calculateBackoffDuration: initial × 2^(attempts−1), at most max; 0 before any attempt. */
	backoffDurationMs(attempts: number): number {
		if (attempts === 0) return 0;
		const { podInitialBackoffMs: initial, podMaxBackoffMs: max } = this.deps;
		let duration = initial;
		for (let i = 1; i < attempts; i++) {
			if (duration > max - duration) return max;
			duration += duration;
		}
		return Math.min(duration, max);
	}

	/** getBackoffTime: the window-aligned expiry, cached; −∞ before any attempt. */
	backoffTime(p: QueuedPodState): number {
		if (p.attempts === 0) return Number.NEGATIVE_INFINITY;
		if (p.backoffExpirationMs === null) p.backoffExpirationMs = this.alignToWindow(p.timestampMs + this.backoffDurationMs(p.attempts));
		return p.backoffExpirationMs;
	}

	/** isPodBackingoff: the expiry is not before the current window. */
	isPodBackingoff(p: QueuedPodState): boolean {
		return !(this.backoffTime(p) < this.alignToWindow(this.deps.nowMs()));
	}

	/**
	 * How many pods each queue holds, and which are unschedulable: derived
	 * from state.pods (never part of a snapshot), rebuilt when that record
	 * is replaced, and kept by `track` at every move. Pop's compaction check
	 * and every "offer an event to the unschedulable pods" read it instead
	 * of walking every queued pod.
	 */
	private census?: { of: Record<string, QueuedPodState>; counts: Record<QueueName, number>; unschedulable: Set<string> };

	private tally(): { counts: Record<QueueName, number>; unschedulable: Set<string> } {
		const pods = this.state().pods;
		if (this.census?.of !== pods) {
			const counts: Record<QueueName, number> = { active: 0, backoff: 0, errorBackoff: 0, unschedulable: 0, inflight: 0 };
			const unschedulable = new Set<string>();
			for (const p of Object.values(pods)) {
				counts[p.where]++;
				if (p.where === 'unschedulable') unschedulable.add(p.key);
			}
			this.census = { of: pods, counts, unschedulable };
		}
		return this.census;
	}

	/** How many pods the queue holds, in flight included. */
	private queuedCount(): number {
		const { counts } = this.tally();
		return counts.active + counts.backoff + counts.errorBackoff + counts.unschedulable + counts.inflight;
	}

	/** Records a pod's move between queues (undefined: not queued); called before state.pods changes. */
	private track(key: string, from: QueueName | undefined, to: QueueName | undefined): void {
		const census = this.tally();
		if (from) {
			census.counts[from]--;
			if (from === 'unschedulable') census.unschedulable.delete(key);
		}
		if (to) {
			census.counts[to]++;
			if (to === 'unschedulable') census.unschedulable.add(key);
		}
	}

	// ---- placing pods ----------------------------------------------------------

	private place(p: QueuedPodState, where: QueueName): void {
		const s = this.state();
		this.track(p.key, s.pods[p.key] === p ? p.where : undefined, where);
		p.where = where;
		p.seq = s.nextSeq++;
		if (where === 'active') heapPush(s.activeQ, [p.key, p.seq], this.activeOps);
		else if (where === 'backoff') heapPush(s.backoffQ, [p.key, p.seq], this.backoffOps);
		else if (where === 'errorBackoff') heapPush(s.errorBackoffQ, [p.key, p.seq], this.errorBackoffOps);
	}

	/** runPreEnqueuePlugins: the gating plugin first, then the rest; the first failure gates the pod. */
	private runPreEnqueuePlugins(p: QueuedPodState, pod: Pod): void {
		const fw = this.deps.framework(p.schedulerName);
		if (!fw) return;
		const status = fw.runPreEnqueuePlugins(pod, p.gatingPlugin || undefined);
		if (isSuccess(status)) {
			p.gatingPlugin = '';
			return;
		}
		if (!p.unschedulablePlugins.includes(status!.plugin)) p.unschedulablePlugins.push(status!.plugin);
		p.gatingPlugin = status!.plugin;
	}

	/** moveToActiveQ: runs PreEnqueue (unless the pod comes straight from backoffQ); a gated pod waits in unschedulablePods. */
	private moveToActiveQ(p: QueuedPodState, event: string, movesFromBackoffQ: boolean): boolean {
		const pod = this.deps.pod(p.key);
		if (!pod) return false;
		if (!movesFromBackoffQ) this.runPreEnqueuePlugins(p, pod);
		if (p.gatingPlugin) {
			if (p.where !== 'unschedulable') this.place(p, 'unschedulable');
			return false;
		}
		p.initialAttemptMs ??= this.deps.nowMs();
		this.place(p, 'active');
		if (event === eventLabel(EVENT_UNSCHEDULED_POD_ADD) || event === eventLabel(EVENT_UNSCHEDULED_POD_UPDATE)) this.addNominatedPod(pod, undefined);
		return true;
	}

	/** moveToBackoffQ: with PopFromBackoffQ, PreEnqueue runs on the way in. */
	private moveToBackoffQ(p: QueuedPodState): boolean {
		const pod = this.deps.pod(p.key);
		if (!pod) return false;
		this.runPreEnqueuePlugins(p, pod);
		if (p.gatingPlugin) {
			if (p.where !== 'unschedulable') this.place(p, 'unschedulable');
			return false;
		}
		// Pods that failed with an error (no rejecting plugin) wait in the error queue.
		this.place(p, p.unschedulablePlugins.length === 0 && p.pendingPlugins.length === 0 ? 'errorBackoff' : 'backoff');
		return true;
	}

	/** Add: a new unscheduled pod. */
	add(pod: Pod): void {
		const s = this.state();
		const key = podKey(pod);
		if (s.pods[key]) return;
		if (this.queuedCount() >= MAX_QUEUED_PODS) {
			this.deps.note?.(`queue full (${MAX_QUEUED_PODS} pods); ${key} not queued`);
			return;
		}
		const p: QueuedPodState = {
			key,
			uid: pod.metadata.uid ?? '',
			schedulerName: schedulerNameOf(pod),
			timestampMs: this.deps.nowMs(),
			initialAttemptMs: null,
			attempts: 0,
			unschedulableCount: 0,
			consecutiveErrorsCount: 0,
			unschedulablePlugins: [],
			pendingPlugins: [],
			gatingPlugin: '',
			backoffExpirationMs: null,
			where: 'unschedulable',
			seq: 0,
			order: s.nextSeq++,
		};
		this.track(key, undefined, 'unschedulable');
		s.pods[key] = p;
		if (this.moveToActiveQ(p, eventLabel(EVENT_UNSCHEDULED_POD_ADD), false)) this.deps.activated();
	}

	/** Pop: the head of activeQ, or (PopFromBackoffQ) of backoffQ when activeQ is empty. Marks it in flight. */
	pop(): { pod: QueuedPodState; from: 'active' | 'backoff' } | undefined {
		const s = this.state();
		let from: 'active' | 'backoff' = 'active';
		let entry = heapPop(s.activeQ, this.activeOps);
		if (!entry) {
			entry = heapPop(s.backoffQ, this.backoffOps);
			from = 'backoff';
		}
		if (!entry) return undefined;
		const p = s.pods[entry[0]];
		this.track(p.key, p.where, 'inflight');
		p.where = 'inflight';
		p.attempts++;
		p.backoffExpirationMs = null;
		s.schedulingCycle++;
		if (from === 'backoff') this.deps.note?.(`${p.key} popped from backoffQ (${POP_FROM_BACKOFF_Q}): activeQ was empty`);
		this.compact();
		return { pod: p, from };
	}

	/** Whether Pop would return a pod now. */
	hasPoppable(): boolean {
		const s = this.state();
		return !!heapPeek(s.activeQ, this.activeOps) || !!heapPeek(s.backoffQ, this.backoffOps);
	}

	/** Done: the in-flight pod left the queue for good (scheduled, or gone). */
	done(key: string): void {
		const s = this.state();
		if (s.pods[key]?.where === 'inflight') {
			this.track(key, 'inflight', undefined);
			delete s.pods[key];
		}
	}

	/**
	 * AddUnschedulableIfNotPresent: a pod that failed this cycle goes back.
	 * Rejected by plugins: to unschedulablePods (no event happened while it
	 * was in flight). Failed with an error: to the error backoff queue, or
	 * straight to activeQ if its back-off has already passed.
	 */
	addUnschedulableIfNotPresent(key: string, unschedulablePlugins: Set<string>, pendingPlugins: Set<string>): void {
		const s = this.state();
		const p = s.pods[key];
		if (!p || p.where !== 'inflight') return;
		p.unschedulablePlugins = [...unschedulablePlugins].sort();
		p.pendingPlugins = [...pendingPlugins].sort();
		if (p.unschedulablePlugins.length === 0 && p.pendingPlugins.length === 0) {
			p.consecutiveErrorsCount++;
		} else {
			p.unschedulableCount++;
			p.consecutiveErrorsCount = 0;
		}
		p.timestampMs = this.deps.nowMs();
		p.order = s.nextSeq++;
		p.backoffExpirationMs = null;
		const strategy = p.unschedulablePlugins.length === 0 && p.pendingPlugins.length === 0 ? Strategy.AfterBackoff : Strategy.Skip;
		const queue = this.requeue(p, strategy, SCHEDULE_ATTEMPT_FAILURE);
		if (queue === 'active' || queue === 'backoff' || queue === 'errorBackoff') this.deps.activated();
	}

	/** requeuePodWithQueueingStrategy. */
	private requeue(p: QueuedPodState, strategy: Strategy, event: string): QueueName {
		if (strategy === Strategy.Skip) {
			this.place(p, 'unschedulable');
			return 'unschedulable';
		}
		if (strategy === Strategy.AfterBackoff && this.isPodBackingoff(p)) {
			if (this.moveToBackoffQ(p)) return p.where;
			return 'unschedulable';
		}
		if (this.moveToActiveQ(p, event, false)) return 'active';
		return 'unschedulable';
	}

	/** isPodWorthRequeuing: ask the hints of the plugins that rejected the pod. */
	private isPodWorthRequeuing(p: QueuedPodState, event: ClusterEvent, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): Strategy {
		const rejectors = new Set([...p.unschedulablePlugins, ...p.pendingPlugins]);
		if (rejectors.size === 0) return Strategy.AfterBackoff;
		if (isWildCard(event)) {
			if (newObj && (newObj as KubeObject).kind === 'Pod' && newObj.metadata.uid !== p.uid) return Strategy.Skip;
			return Strategy.AfterBackoff;
		}
		const fw = this.deps.framework(p.schedulerName);
		const pod = this.deps.pod(p.key);
		if (!fw || !pod) return Strategy.AfterBackoff;
		let strategy = Strategy.Skip;
		for (const { plugin, events } of fw.enqueueExtensions) {
			if (!rejectors.has(plugin)) continue;
			for (const registered of events) {
				if (!matchClusterEvents(registered.event, event)) continue;
				let hint = QueueingHint.Queue;
				if (registered.hint) {
					try {
						hint = registered.hint(pod, oldObj, newObj);
					} catch {
						// A failing hint must not strand the pod (upstream treats errors as Queue).
						hint = QueueingHint.Queue;
					}
				}
				if (hint === QueueingHint.QueueSkip) continue;
				if (p.pendingPlugins.includes(plugin)) return Strategy.Immediately;
				if (p.pendingPlugins.length === 0) return Strategy.AfterBackoff;
				strategy = Strategy.AfterBackoff;
			}
		}
		return strategy;
	}

	/** isEventOfInterest: some enabled plugin registered an event this one matches. */
	private isEventOfInterest(event: ClusterEvent): boolean {
		if (isWildCard(event)) return true;
		return this.deps.frameworks().some((fw) => fw.enqueueExtensions.some(({ events }) => events.some((e) => matchClusterEvents(e.event, event))));
	}

	/** Events the gating plugin registered (a gated pod moves only on those). */
	private gatingPluginEvents(p: QueuedPodState): ClusterEvent[] {
		const fw = this.deps.framework(p.schedulerName);
		return fw?.enqueueExtensions.find((x) => x.plugin === p.gatingPlugin)?.events.map((e) => e.event) ?? [];
	}

	/** movePodsToActiveOrBackoffQueue. Returns how many pods moved. */
	private movePods(keys: string[], event: ClusterEvent, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): number {
		if (!this.isEventOfInterest(event)) return 0;
		const s = this.state();
		let moved = 0;
		let activated = false;
		for (const key of keys) {
			const p = s.pods[key];
			if (!p || p.where !== 'unschedulable') continue;
			if (p.gatingPlugin && !isWildCard(event) && !this.gatingPluginEvents(p).some((e) => matchClusterEvents(e, event))) continue;
			const strategy = this.isPodWorthRequeuing(p, event, oldObj, newObj);
			if (strategy === Strategy.Skip) continue;
			const queue = this.requeue(p, strategy, eventLabel(event));
			if (queue !== 'unschedulable') {
				moved++;
				activated = true;
			}
		}
		if (moved > 0) this.deps.note?.(`${eventLabel(event)}: ${moved} pod(s) moved from unschedulablePods`);
		if (activated) this.deps.activated();
		return moved;
	}

	private unschedulableKeys(): string[] {
		return [...this.tally().unschedulable].sort();
	}

	/** MoveAllToActiveOrBackoffQueue: offer a cluster event to every unschedulable pod. */
	moveAllToActiveOrBackoffQueue(event: ClusterEvent, oldObj: KubeObject | undefined, newObj: KubeObject | undefined): number {
		if (!this.isEventOfInterest(event)) return 0;
		return this.movePods(this.unschedulableKeys(), event, oldObj, newObj);
	}

	/**
	 * getUnschedulablePodsWithCrossTopologyTerm: pods rejected by
	 * PodTopologySpread in the same namespace, or with a required affinity
	 * term the pod matches (only those can be helped by a pod event).
	 */
	private podsWithCrossTopologyTerm(pod: Pod): string[] {
		const out: string[] = [];
		for (const key of this.unschedulableKeys()) {
			const p = this.state().pods[key];
			const queued = this.deps.pod(key);
			if (!queued) continue;
			if (p.unschedulablePlugins.includes(Names.PodTopologySpread) && pod.metadata.namespace === queued.metadata.namespace) {
				out.push(key);
				continue;
			}
			if (new PodInfo(queued).requiredAffinityTerms.some((t) => affinityTermMatches(t, pod, undefined))) out.push(key);
		}
		return out;
	}

	/** AssignedPodAdded: a bound pod appeared. */
	assignedPodAdded(pod: Pod): void {
		this.movePods(this.podsWithCrossTopologyTerm(pod), EVENT_ASSIGNED_POD_ADD, undefined, pod);
	}

	/** AssignedPodUpdated: a scale-down may help anyone; other changes only cross-topology pods. */
	assignedPodUpdated(oldPod: Pod, newPod: Pod, event: ClusterEvent): void {
		if ((event.actionType & ActionType.UpdatePodScaleDown) !== 0) this.moveAllToActiveOrBackoffQueue(event, oldPod, newPod);
		else this.movePods(this.podsWithCrossTopologyTerm(newPod), event, oldPod, newPod);
	}

	/**
	 * Update: an unscheduled pod changed. In activeQ or backoffQ it stays;
	 * in unschedulablePods the change may make it schedulable (its own
	 * queueing hints decide); unknown to the queue, it is added.
	 */
	update(oldPod: Pod, newPod: Pod): void {
		const s = this.state();
		const key = podKey(newPod);
		const p = s.pods[key];
		if (p && (p.where === 'active' || p.where === 'backoff' || p.where === 'errorBackoff' || p.where === 'inflight')) {
			this.updateNominatedPod(oldPod, newPod);
			// The order may depend on the pod (priority): re-push it.
			if (p.where !== 'inflight') this.place(p, p.where);
			return;
		}
		if (p && p.where === 'unschedulable') {
			this.updateNominatedPod(oldPod, newPod);
			for (const event of podSchedulingPropertiesChange(newPod, oldPod, 'UnschedulablePod')) {
				if (p.gatingPlugin && !this.gatingPluginEvents(p).some((e) => matchClusterEvents(e, event))) continue;
				const strategy = this.isPodWorthRequeuing(p, event, oldPod, newPod);
				const queue = this.requeue(p, strategy, eventLabel(event));
				if (queue !== 'unschedulable') {
					this.deps.note?.(`${key} moved to ${queue}Q after its own update (${eventLabel(event)})`);
					this.deps.activated();
					break;
				}
			}
			return;
		}
		this.add(newPod);
	}

	/** Delete: the pod left (deleted, bound elsewhere, or no longer ours). */
	delete(pod: KubeObject): void {
		const s = this.state();
		const key = podKey(pod);
		delete s.nominated[key];
		const p = s.pods[key];
		if (p && p.where !== 'inflight') {
			this.track(key, p.where, undefined);
			delete s.pods[key];
		}
	}

	// ---- periodic flushes ------------------------------------------------------

	/** flushBackoffQCompleted: pods whose back-off window has passed go to activeQ. */
	flushBackoffQCompleted(): number {
		const s = this.state();
		let moved = 0;
		for (const [heap, ops] of [
			[s.backoffQ, this.backoffOps],
			[s.errorBackoffQ, this.errorBackoffOps],
		] as const) {
			for (;;) {
				const top = heapPeek(heap, ops);
				if (!top || this.isPodBackingoff(s.pods[top[0]])) break;
				heapPop(heap, ops);
				if (this.moveToActiveQ(s.pods[top[0]], BACKOFF_COMPLETE, true)) moved++;
			}
		}
		if (moved > 0) {
			this.deps.note?.(`${BACKOFF_COMPLETE}: ${moved} pod(s) moved from backoffQ to activeQ`);
			this.deps.activated();
		}
		return moved;
	}

	/** flushUnschedulablePodsLeftover: pods waiting longer than podMaxInUnschedulablePodsDuration move back. */
	flushUnschedulablePodsLeftover(): number {
		const now = this.deps.nowMs();
		const keys = this.unschedulableKeys().filter((k) => now - this.state().pods[k].timestampMs > this.deps.podMaxInUnschedulablePodsDurationMs);
		if (keys.length === 0) return 0;
		return this.movePods(keys, EVENT_UNSCHEDULABLE_TIMEOUT, undefined, undefined);
	}

	private compact(): void {
		const s = this.state();
		const { counts } = this.tally();
		heapCompact(s.activeQ, this.activeOps, counts.active);
		heapCompact(s.backoffQ, this.backoffOps, counts.backoff);
		heapCompact(s.errorBackoffQ, this.errorBackoffOps, counts.errorBackoff);
	}

	// ---- the nominator ----------------------------------------------------------

	/**
	 * AddNominatedPod: nominate the pod to `nodeName` (Override), or to its
	 * own status.nominatedNodeName when no nominating info is given (Noop);
	 * a pod already bound or gone is not nominated.
	 */
	addNominatedPod(pod: Pod, nominating: { nominatedNodeName: string; mode: 'Override' | 'Noop' } | undefined): void {
		const s = this.state();
		const key = podKey(pod);
		delete s.nominated[key];
		const nodeName = nominating?.mode === 'Override' ? nominating.nominatedNodeName : (pod.status?.nominatedNodeName ?? '');
		if (!nodeName) return;
		const current = this.deps.pod(key);
		if (!current || current.spec.nodeName) return;
		s.nominated[key] = nodeName;
	}

	/** UpdateNominatedPod: keep an in-memory nomination across an update that carries none. */
	private updateNominatedPod(oldPod: Pod, newPod: Pod): void {
		const s = this.state();
		const key = podKey(newPod);
		let nominating: { nominatedNodeName: string; mode: 'Override' } | undefined;
		if (!oldPod.status?.nominatedNodeName && !newPod.status?.nominatedNodeName && s.nominated[key]) nominating = { nominatedNodeName: s.nominated[key], mode: 'Override' };
		this.addNominatedPod(newPod, nominating);
	}

	deleteNominatedPodIfExists(key: string): void {
		delete this.state().nominated[key];
	}

	/** NominatedPodsForNode, as PodInfos of the informer's pods. */
	nominatedPodsForNode(nodeName: string): PodInfo[] {
		const nominated = this.state().nominated;
		const out: PodInfo[] = [];
		// Called for every node of every cycle: most of the time nobody is nominated.
		for (const key in nominated) {
			const node = nominated[key];
			if (node !== nodeName) continue;
			const pod = this.deps.pod(key);
			if (pod) out.push(new PodInfo(pod));
		}
		return out;
	}

	// ---- inspection ------------------------------------------------------------

	get(key: string): QueuedPodState | undefined {
		return this.state().pods[key];
	}

	/** PendingPods summary: `activeQ:N; backoffQ:N; unschedulablePods:N`. */
	summary(): { active: number; backoff: number; unschedulable: number; gated: number } {
		const out = { active: 0, backoff: 0, unschedulable: 0, gated: 0 };
		for (const p of Object.values(this.state().pods)) {
			if (p.where === 'active') out.active++;
			else if (p.where === 'backoff' || p.where === 'errorBackoff') out.backoff++;
			else if (p.where === 'unschedulable') {
				out.unschedulable++;
				if (p.gatingPlugin) out.gated++;
			}
		}
		return out;
	}

	/** The earliest back-off expiry among queued pods, for scheduling the next flush tick. */
	nextBackoffExpiryMs(): number | undefined {
		const s = this.state();
		const tops = [heapPeek(s.backoffQ, this.backoffOps), heapPeek(s.errorBackoffQ, this.errorBackoffOps)].filter((e): e is HeapEntry => !!e);
		if (tops.length === 0) return undefined;
		return Math.min(...tops.map((e) => this.backoffTime(s.pods[e[0]])));
	}
}
