/**
 * kube-scheduler: watches for pods without a node and assigns each to one.
 *
 * One scheduling cycle handles one pod and costs `cycleCostMs` of virtual
 * time (a teaching choice, so a burst of pods visibly takes time). The pod
 * is assumed on its node in the cache as soon as it is chosen, then bound
 * through pods/binding; the assumption lasts until the pod informer shows
 * the bound pod. A failure records a `FailedScheduling` Warning event with
 * the FitError message and sets the PodScheduled=False condition through
 * the status subresource. Each profile records its events through the
 * events.k8s.io recorder under its schedulerName (../client/events-v1.ts);
 * only the LeaderElection event goes through the legacy recorder, under the
 * first profile's name.
 *
 * Losing the lease: the real binary exits and is restarted by the kubelet;
 * here the process drops its volatile state (caches, queue, assumptions)
 * and campaigns again with a new identity, which looks the same from
 * outside. Every decision is kept as a SchedulingExplanation (explain()).
 *
 * Mirrors cmd/kube-scheduler/app/server.go (informers, then leader election
 * on the Lease kube-system/kube-scheduler: it schedules nothing until it
 * leads), pkg/scheduler/scheduler.go, pkg/scheduler/eventhandlers.go (which
 * informer event feeds the cache or the queue),
 * pkg/scheduler/schedule_one.go (scheduleOne, the binding cycle,
 * handleSchedulingFailure).
 */
import type { KubeObject, Node, Pod, PodCondition } from '../api/types.ts';
import { ApiClient, R } from '../client/client.ts';
import { EventRecorder, emptyRecorder, type RecorderState } from '../client/events.ts';
import { EventsV1Recorder, emptyEventsV1Recorder, FINISH_MS, REFRESH_MS, type EventsV1RecorderState } from '../client/events-v1.ts';
import { Informer, emptyInformer, type InformerState } from '../client/informer.ts';
import { DEFAULT_LEADER_ELECTION, LeaderElector, freshLeaderElection, type LeaderElectionState } from '../client/leader-election.ts';
import type { ApiTransport } from '../client/transport.ts';
import type { KubeSchedulerConfiguration } from './config/types.ts';
import { formatRfc3339 } from '../golang/time.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { SchedulerCache, type AssumedPod } from './cache/cache.ts';
import { ConfigError, completeConfig, DEFAULT_POD_INITIAL_BACKOFF_SECONDS, DEFAULT_POD_MAX_BACKOFF_SECONDS, type SchedulerConfig } from './config/config.ts';
import { emptyExplanations, forgetSummary, lookupExplanation, recordExplanation, DEFAULT_EXPLAIN_NODES_MAX, MAX_EXPLANATIONS, type ExplanationStoreState, type SchedulingExplanation } from './explanation.ts';
import { CycleState } from './framework/cycle-state.ts';
import { ACTION_UPDATE, ActionType, EVENT_ASSIGNED_POD_DELETE, EVENT_NODE_ADD, EVENT_NODE_DELETE, EVENT_UNSCHEDULED_POD_DELETE, nodeSchedulingPropertiesChange, podSchedulingPropertiesChange } from './framework/events.ts';
import { addPluginStatus, FitError, newDiagnosis, truncateMessage } from './framework/fit-error.ts';
import type { Handle, Listers, NominatingInfo } from './framework/interface.ts';
import type { Framework } from './framework/runtime.ts';
import { CODE_NAMES, isRejected, isSuccess, Status } from './framework/status.ts';
import { podKey } from './framework/types.ts';
import { newInTreeRegistry } from './plugins/registry.ts';
import { newProfileMap, ProfileError } from './profile.ts';
import { BACKOFF_ORDERING_WINDOW_MS, DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS, emptySchedulingQueue, SchedulingQueue, schedulerNameOf, UNSCHEDULABLE_FLUSH_INTERVAL_MS, type SchedulingQueueState } from './queue/scheduling-queue.ts';
import { schedulingCycle, type CycleContext } from './schedule-one.ts';
import { deepCopy } from '../golang/json.ts';

/** The process id. */
export const KUBE_SCHEDULER = 'kube-scheduler';

/** wait.JitterUntil's factor for leader-election acquire attempts (client-go leaderelection JitterFactor). */
const LEADER_ELECTION_JITTER_FACTOR = 1.2;

/** Knobs of the process, with upstream defaults where upstream has them. */
interface KubeSchedulerOptions {
	/** The --config file's KubeSchedulerConfiguration (defaults when absent). */
	config?: KubeSchedulerConfiguration;
	/** The host name in the leader-election identity (`<hostname>_<uuid>`). */
	hostname: string;
	/** Virtual time one scheduling cycle costs (a teaching choice). */
	cycleCostMs: number;
	/** --pod-max-in-unschedulable-pods-duration (deprecated flag, default 5m). */
	podMaxInUnschedulablePodsDurationMs: number;
	/** How many pods' explanations are kept. */
	explanationsMax: number;
	/** How many node rows one explanation keeps. */
	explainNodesMax: number;
	/**
	 * Called when the scheduler loses its leader lease. The real binary exits
	 * then (klog.Fatalf "leaderelection lost") and the kubelet restarts its
	 * container; the cluster wiring does the same through this hook.
	 */
	onLeadershipLost?: () => void;
}

const DEFAULT_SCHEDULER_OPTIONS: KubeSchedulerOptions = {
	hostname: 'control-plane',
	cycleCostMs: 1,
	podMaxInUnschedulablePodsDurationMs: DEFAULT_POD_MAX_IN_UNSCHEDULABLE_PODS_DURATION_MS,
	explanationsMax: MAX_EXPLANATIONS,
	explainNodesMax: DEFAULT_EXPLAIN_NODES_MAX,
};

/** The informers the scheduler runs (pods only non-terminal, as its pod informer's field selector says). */
const INFORMERS = {
	nodes: { ...R.nodes },
	pods: { ...R.pods, fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' },
	namespaces: { ...R.namespaces },
	services: { ...R.services },
	replicasets: { ...R.replicasets },
	statefulsets: { ...R.statefulsets },
	// VolumeBinding's claims, volumes and classes.
	persistentvolumeclaims: { ...R.persistentvolumeclaims },
	persistentvolumes: { ...R.persistentvolumes },
	storageclasses: { ...R.storageclasses },
	// DefaultPreemption prefers victims whose eviction breaks no PodDisruptionBudget.
	poddisruptionbudgets: { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' },
} as const;
type InformerName = keyof typeof INFORMERS;

/** The cluster events the storage informers raise. */
const STORAGE_EVENTS = { persistentvolumeclaims: 'PersistentVolumeClaim', persistentvolumes: 'PersistentVolume', storageclasses: 'StorageClass' } as const;

/** Volatile state of the scheduler. Plain JSON. */
interface KubeSchedulerState {
	leader: LeaderElectionState;
	leading: boolean;
	/** Leadership terms so far: timers of an earlier term are ignored. */
	term: number;
	informers: Record<InformerName, InformerState>;
	queue: SchedulingQueueState;
	/** Pods decided but not yet seen bound by the pod informer. */
	assumed: Record<string, AssumedPod>;
	/** Where the next node search starts (sched.nextStartNodeIndex). */
	nextStartNodeIndex: number;
	/** Whether a 'schedule-one' event is queued. */
	scheduleOnePending: boolean;
	/** The origin of each queued pod's latest cause, so its cycle joins that story in the trace. */
	origins: Record<string, string>;
	/** The legacy recorder LeaderElection events go through (by component name). */
	recorders: Record<string, RecorderState>;
	/** Each profile's events.k8s.io recorder (by schedulerName). */
	profileRecorders?: Record<string, EventsV1RecorderState>;
	explanations: ExplanationStoreState;
}

/** A pod that finished (Succeeded or Failed) holds no resources any more. */
function terminal(pod: Pod): boolean {
	const phase = pod.status?.phase;
	return phase === 'Succeeded' || phase === 'Failed';
}

/** assignedPod: the pod has a node. */
function assigned(pod: KubeObject): boolean {
	return !!(pod as Pod).spec?.nodeName;
}

/** podutil.UpdatePodCondition: set the condition, keeping lastTransitionTime when the status did not change; true if anything changed. */
function updatePodCondition(conditions: PodCondition[], condition: PodCondition): boolean {
	const i = conditions.findIndex((c) => c.type === condition.type);
	if (i < 0) {
		conditions.push(condition);
		return true;
	}
	const old = conditions[i];
	if (condition.status === old.status) condition.lastTransitionTime = old.lastTransitionTime;
	const equal = condition.status === old.status && condition.reason === old.reason && condition.message === old.message && (condition.lastProbeTime ?? null) === (old.lastProbeTime ?? null) && condition.lastTransitionTime === old.lastTransitionTime;
	conditions[i] = condition;
	return !equal;
}

export class KubeScheduler extends ProcessBase<KubeSchedulerState> {
	readonly options: KubeSchedulerOptions;
	readonly client: ApiClient;
	/** The defaulted configuration, or undefined when it is invalid (see configError). */
	readonly config?: SchedulerConfig;
	/** Why the scheduler refuses to run, if its configuration is invalid. */
	readonly configError?: string;
	private readonly informers = new Map<InformerName, Informer>();
	private readonly frameworks = new Map<string, Framework>();
	private readonly recorders = new Map<string, EventRecorder>();
	private readonly profileRecorders = new Map<string, EventsV1Recorder>();
	private readonly queue: SchedulingQueue;
	private readonly elector: LeaderElector;
	/** Derived from the state: rebuilt whenever the state object changes (start, restore). */
	private cache: SchedulerCache = new SchedulerCache(() => this.state.assumed);
	private derivedFor?: KubeSchedulerState;

	constructor(kernel: Kernel, transport: ApiTransport, options: Partial<KubeSchedulerOptions> = {}, id = KUBE_SCHEDULER) {
		super(id, kernel);
		this.options = { ...DEFAULT_SCHEDULER_OPTIONS, ...options };
		this.client = new ApiClient(transport, id);
		try {
			this.config = completeConfig(this.options.config);
			const registry = newInTreeRegistry();
			for (const [name, fw] of newProfileMap(this.config.profiles, registry, (profile) => this.handleFor(profile))) this.frameworks.set(name, fw);
		} catch (e) {
			if (!(e instanceof ConfigError || e instanceof ProfileError)) throw e;
			this.configError = `couldn't create scheduler: ${e instanceof ProfileError ? `initializing profiles: ${e.message}` : e.message}`;
		}
		for (const [name, spec] of Object.entries(INFORMERS) as Array<[InformerName, (typeof INFORMERS)[InformerName]]>) {
			this.informers.set(name, new Informer(name, kernel, id, this.client, spec, this.handlersFor(name), () => this.state.informers[name]));
		}
		const le = this.config?.leaderElection;
		// With an invalid configuration the process never campaigns; the defaults only keep the fields typed.
		const electionConfig = le ? { leaseDurationMs: le.leaseDurationMs, renewDeadlineMs: le.renewDeadlineMs, retryPeriodMs: le.retryPeriodMs } : DEFAULT_LEADER_ELECTION;
		this.elector = new LeaderElector(kernel, this.client, le?.resourceName ?? 'kube-scheduler', electionConfig, () => this.state.leader);
		this.queue = new SchedulingQueue(() => this.state.queue, {
			nowMs: () => this.kernel.nowMs,
			epochMs: kernel.epochMs,
			pod: (key) => this.pod(key),
			framework: (name) => this.frameworks.get(name),
			frameworks: () => [...this.frameworks.values()],
			podInitialBackoffMs: this.config?.podInitialBackoffMs ?? DEFAULT_POD_INITIAL_BACKOFF_SECONDS * 1000,
			podMaxBackoffMs: this.config?.podMaxBackoffMs ?? DEFAULT_POD_MAX_BACKOFF_SECONDS * 1000,
			podMaxInUnschedulablePodsDurationMs: this.options.podMaxInUnschedulablePodsDurationMs,
			activated: () => this.wakeUp(),
			note: (msg) => this.emit({ action: 'queue', msg }),
		});
	}

	freshState(): KubeSchedulerState {
		const informers = {} as Record<InformerName, InformerState>;
		for (const name of Object.keys(INFORMERS) as InformerName[]) informers[name] = emptyInformer();
		return {
			leader: freshLeaderElection(''),
			leading: false,
			term: 0,
			informers,
			queue: emptySchedulingQueue(),
			assumed: {},
			nextStartNodeIndex: 0,
			scheduleOnePending: false,
			origins: {},
			recorders: {},
			explanations: emptyExplanations(),
		};
	}

	// ---- public API ------------------------------------------------------------

	/** The last scheduling decision for a pod (`namespace/name`), as plain JSON; undefined if the pod was never tried (or was deleted long ago). */
	explain(podKey: string): SchedulingExplanation | undefined {
		const e = this.state ? lookupExplanation(this.state.explanations, podKey) : undefined;
		return e ? deepCopy(e) : undefined;
	}

	/** The Lease it elects its leader on (kube-system/<name>, leaderElection.resourceName). */
	get leaseName(): string {
		return this.config?.leaderElection.resourceName ?? KUBE_SCHEDULER;
	}

	/** Whether this instance holds the lease now (a stopped process leads nothing, whatever its last state said). */
	get isLeader(): boolean {
		return this.kernel.isRunning(this.id) && !!this.state?.leading;
	}

	/** How many pods wait where (activeQ, backoffQ, unschedulablePods, of which gated). */
	queueSummary(): { active: number; backoff: number; unschedulable: number; gated: number } {
		this.ensureDerived();
		return this.queue.summary();
	}

	/** The profile frameworks, by scheduler name (read-only use). */
	profiles(): ReadonlyMap<string, Framework> {
		return this.frameworks;
	}

	// ---- process -----------------------------------------------------------------

	onStart(): void {
		try {
			this.start();
		} catch (error) {
			this.emit({ action: 'error', msg: `unhandled error at start: ${error instanceof Error ? error.message : String(error)}` });
		}
	}

	private start(): void {
		this.derivedFor = undefined;
		this.ensureDerived();
		this.state.leader.identity = `${this.options.hostname}_${this.rng.uuid()}`;
		if (this.configError) {
			this.emit({ action: 'error', msg: this.configError });
			return;
		}
		this.emit({ action: 'start', msg: `kube-scheduler started with profile(s) ${[...this.frameworks.keys()].join(', ')}` });
		for (const warning of this.config!.warnings) this.emit({ action: 'config', msg: warning });
		for (const informer of this.informers.values()) informer.start();
		// StartRecordingToSink: the event broadcaster's two loops run from the start, leader or not.
		this.periodic(REFRESH_MS, 'event-series-refresh');
		this.periodic(FINISH_MS, 'event-series-finish');
		if (!this.config!.leaderElection.leaderElect) {
			this.startLeading();
			return;
		}
		const lease = `${this.config!.leaderElection.resourceNamespace}/${this.config!.leaderElection.resourceName}`;
		this.emit({ action: 'leader-election', object: `leases/${lease}`, msg: `attempting to acquire leader lease ${lease}...` });
		this.campaign();
	}

	handle(event: QueuedEvent): void {
		try {
			this.ensureDerived();
			this.dispatch(event);
		} catch (error) {
			// A bug must not take the process down.
			this.emit({ action: 'error', msg: `unhandled error in ${event.kind}: ${error instanceof Error ? error.message : String(error)}` });
		}
	}

	private dispatch(event: QueuedEvent): void {
		if (this.configError) return;
		const payload = (event.payload ?? {}) as { term?: number };
		switch (event.kind) {
			case 'leader-elect':
				this.campaign();
				return;
			case 'schedule-one':
				if (payload.term === this.state.term) this.runScheduleOne();
				return;
			case 'flush-backoff':
				if (payload.term === this.state.term && this.state.leading) {
					this.queue.flushBackoffQCompleted();
					this.kernel.schedule(this.id, BACKOFF_ORDERING_WINDOW_MS, 'flush-backoff', { term: this.state.term }, { background: true, origin: `periodic:${this.id}:flush-backoff` });
				}
				return;
			case 'event-series-refresh':
				for (const recorder of this.allProfileRecorders()) recorder.refreshSeries();
				this.periodic(REFRESH_MS, 'event-series-refresh');
				return;
			case 'event-series-finish':
				for (const recorder of this.allProfileRecorders()) recorder.finishSeries();
				this.periodic(FINISH_MS, 'event-series-finish');
				return;
			case 'flush-unschedulable':
				if (payload.term === this.state.term && this.state.leading) {
					this.queue.flushUnschedulablePodsLeftover();
					this.kernel.schedule(this.id, UNSCHEDULABLE_FLUSH_INTERVAL_MS, 'flush-unschedulable', { term: this.state.term }, { background: true, origin: `periodic:${this.id}:flush-unschedulable` });
				}
				return;
		}
		for (const informer of this.informers.values()) if (informer.handle(event)) return;
	}

	/** Rebuilds the cache from the informers and the assumed pods when the state object changed. */
	private ensureDerived(): void {
		if (this.derivedFor === this.state) return;
		this.derivedFor = this.state;
		this.cache = new SchedulerCache(() => this.state.assumed);
		for (const node of Object.values(this.state.informers.nodes.items)) this.cache.addNode(node as Node);
		for (const pod of Object.values(this.state.informers.pods.items)) if (assigned(pod)) this.cache.addPod(pod as Pod);
		for (const [key, a] of Object.entries(this.state.assumed)) {
			if (!assigned(this.state.informers.pods.items[key] ?? a.pod)) this.cache.assumePod(a.pod);
		}
	}

	// ---- leader election ---------------------------------------------------------

	private campaign(): void {
		const le = this.config!.leaderElection;
		const lease = `${le.resourceNamespace}/${le.resourceName}`;
		const transition = this.elector.tryAcquireOrRenew();
		if (transition === 'acquired') {
			this.emit({ action: 'leader-election', object: `leases/${lease}`, msg: `successfully acquired lease ${lease}` });
			// The scheduler records leader election with its first profile's name (cmd/kube-scheduler/app/options).
			const leaseObj: KubeObject = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: le.resourceName, namespace: le.resourceNamespace } };
			this.recorder(this.config!.profiles[0].schedulerName).record(leaseObj, 'Normal', 'LeaderElection', `${this.state.leader.identity} became leader`);
			this.startLeading();
		} else if (transition === 'lost') {
			this.emit({ action: 'leader-election', object: `leases/${lease}`, msg: 'leaderelection lost' });
			this.stopLeading();
			if (this.options.onLeadershipLost) {
				this.options.onLeadershipLost();
				return;
			}
		}
		// Acquiring retries every retryPeriod with up to 1.2× jitter (wait.JitterUntil); a leader renews every retryPeriod.
		const delay = this.state.leading ? le.retryPeriodMs : le.retryPeriodMs + Math.floor(this.rng.float() * LEADER_ELECTION_JITTER_FACTOR * le.retryPeriodMs);
		this.kernel.schedule(this.id, delay, 'leader-elect', undefined, { background: true, origin: `periodic:${this.id}:leader-elect` });
	}

	private startLeading(): void {
		this.state.leading = true;
		this.state.term++;
		const term = this.state.term;
		// The backoffQ flush runs on whole wall-clock seconds (waitUntilAlignedWithOrderingWindow).
		const toNextSecond = BACKOFF_ORDERING_WINDOW_MS - (this.kernel.wallMs() % BACKOFF_ORDERING_WINDOW_MS);
		this.kernel.schedule(this.id, toNextSecond, 'flush-backoff', { term }, { background: true, origin: `periodic:${this.id}:flush-backoff` });
		this.kernel.schedule(this.id, UNSCHEDULABLE_FLUSH_INTERVAL_MS, 'flush-unschedulable', { term }, { background: true, origin: `periodic:${this.id}:flush-unschedulable` });
		this.wakeUp();
	}

	/** As if the process exited and was restarted: volatile state dropped, informers relisted, a new identity. */
	private stopLeading(): void {
		for (const name of this.informers.keys()) {
			const watchId = this.state.informers[name]?.watchId;
			if (watchId !== null && watchId !== undefined) this.client.stopWatch(watchId);
		}
		const term = this.state.term;
		this.state = this.freshState();
		this.state.term = term;
		this.state.leader.identity = `${this.options.hostname}_${this.rng.uuid()}`;
		this.ensureDerived();
		for (const informer of this.informers.values()) informer.start();
	}

	// ---- plugin handle -----------------------------------------------------------

	private listers(): Listers {
		const items = (name: InformerName, namespace?: string) => Object.values(this.state.informers[name].items).filter((o) => namespace === undefined || o.metadata.namespace === namespace);
		return {
			namespace: (name) => this.state.informers.namespaces.items[name],
			namespaces: () => items('namespaces'),
			services: (ns) => items('services', ns),
			// The simulated API serves no ReplicationControllers.
			replicationControllers: () => [],
			replicaSets: (ns) => items('replicasets', ns),
			statefulSets: (ns) => items('statefulsets', ns),
			podDisruptionBudgets: () => items('poddisruptionbudgets'),
			pod: (key) => this.pod(key),
			volumes: {
				claim: (namespace, name) => this.state.informers.persistentvolumeclaims.items[`${namespace}/${name}`],
				volumes: () => items('persistentvolumes'),
				volume: (name) => this.state.informers.persistentvolumes.items[name],
				storageClass: (name) => this.state.informers.storageclasses.items[name],
			},
		};
	}

	private handleFor(profileName: string): Handle {
		const cache = () => this.cache;
		return {
			snapshot: {
				list: () => cache().list(),
				get: (name) => cache().get(name),
				havePodsWithAffinityList: () => cache().havePodsWithAffinityList(),
				havePodsWithRequiredAntiAffinityList: () => cache().havePodsWithRequiredAntiAffinityList(),
			},
			listers: this.listers(),
			client: this.client,
			recordEvent: (regarding, related, type, reason, action, note) => this.profileRecorder(profileName).eventf(regarding, related, type, reason, action, note),
			random: (n) => this.rng.int(n),
			wallMs: () => this.kernel.wallMs(),
			profileName,
			nominator: { nominatedPodsForNode: (node) => this.queue.nominatedPodsForNode(node) },
		};
	}

	/** A profile's recorder: events.k8s.io, reportingController the schedulerName, reportingInstance `<schedulerName>-<hostname>` (the broadcaster's NewRecorder). */
	private profileRecorder(profileName: string): EventsV1Recorder {
		let recorder = this.profileRecorders.get(profileName);
		if (!recorder) {
			recorder = new EventsV1Recorder(this.kernel, this.client, profileName, `${profileName}-${this.options.hostname}`, () => ((this.state.profileRecorders ??= {})[profileName] ??= emptyEventsV1Recorder()));
			this.profileRecorders.set(profileName, recorder);
		}
		return recorder;
	}

	/** The recorders of the profiles that have recorded something since the start. */
	private allProfileRecorders(): EventsV1Recorder[] {
		return Object.keys(this.state.profileRecorders ?? {}).map((name) => this.profileRecorder(name));
	}

	private recorder(component: string): EventRecorder {
		let recorder = this.recorders.get(component);
		if (!recorder) {
			recorder = new EventRecorder(this.kernel, this.client, { component }, () => (this.state.recorders[component] ??= emptyRecorder()));
			this.recorders.set(component, recorder);
		}
		return recorder;
	}

	private pod(key: string): Pod | undefined {
		return this.state.informers.pods.items[key] as Pod | undefined;
	}

	// ---- event handlers (eventhandlers.go) -----------------------------------------

	private responsibleForPod(pod: Pod): boolean {
		return this.frameworks.has(schedulerNameOf(pod));
	}

	private handlersFor(name: InformerName): ConstructorParameters<typeof Informer>[5] {
		if (name === 'nodes') {
			return {
				onAdd: (obj) => {
					this.cache.addNode(obj as Node);
					this.queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_ADD, undefined, obj);
				},
				onUpdate: (oldObj, newObj) => {
					this.cache.updateNode(oldObj as Node, newObj as Node);
					for (const event of nodeSchedulingPropertiesChange(newObj as Node, oldObj as Node)) this.queue.moveAllToActiveOrBackoffQueue(event, oldObj, newObj);
				},
				onDelete: (obj) => {
					this.cache.removeNode(obj as Node);
					this.queue.moveAllToActiveOrBackoffQueue(EVENT_NODE_DELETE, obj, undefined);
				},
			};
		}
		if (name === 'pods') {
			return {
				onAdd: (obj) => this.onPodAdd(obj as Pod),
				onUpdate: (oldObj, newObj) => this.onPodUpdate(oldObj as Pod, newObj as Pod),
				onDelete: (obj) => {
					forgetSummary(this.state.explanations, podKey(obj as Pod));
					this.onPodDelete(obj as Pod);
				},
			};
		}
		// A claim, volume or class that appears or changes may let a Pod waiting on VolumeBinding in.
		const storage = STORAGE_EVENTS[name as keyof typeof STORAGE_EVENTS];
		if (storage) {
			return {
				onAdd: (obj) => this.queue.moveAllToActiveOrBackoffQueue({ resource: storage, actionType: ActionType.Add }, undefined, obj),
				onUpdate: (oldObj, newObj) => this.queue.moveAllToActiveOrBackoffQueue({ resource: storage, actionType: ACTION_UPDATE }, oldObj, newObj),
			};
		}
		return {};
	}

	private noteOrigin(pod: Pod): void {
		this.state.origins[podKey(pod)] = this.kernel.origin;
	}

	private onPodAdd(pod: Pod): void {
		if (terminal(pod)) return;
		if (assigned(pod)) {
			this.cache.addPod(pod);
			this.queue.assignedPodAdded(pod);
			return;
		}
		if (!this.responsibleForPod(pod) || pod.metadata.deletionTimestamp) return;
		this.noteOrigin(pod);
		this.queue.add(pod);
	}

	private onPodUpdate(oldPod: Pod, newPod: Pod): void {
		const key = podKey(newPod);
		// The informer's field selector drops terminal pods; should a server not apply it, this does the same.
		if (terminal(newPod)) {
			if (!terminal(oldPod)) this.onPodDelete(oldPod);
			return;
		}
		if (assigned(newPod)) {
			if (!assigned(oldPod)) {
				// Bound (by us or someone else): it leaves the queue and enters the cache, confirming an assumption.
				this.queue.delete(newPod);
				delete this.state.origins[key];
				this.cache.addPod(newPod);
				this.queue.assignedPodAdded(newPod);
				return;
			}
			this.cache.updatePod(oldPod, newPod);
			for (const event of podSchedulingPropertiesChange(newPod, oldPod, 'AssignedPod')) this.queue.assignedPodUpdated(oldPod, newPod, event);
			return;
		}
		if (!this.responsibleForPod(newPod) || newPod.metadata.deletionTimestamp) {
			this.queue.delete(newPod);
			return;
		}
		if (this.cache.isAssumedPod(key)) return;
		if (oldPod.metadata.resourceVersion === newPod.metadata.resourceVersion) return;
		this.noteOrigin(newPod);
		this.queue.update(oldPod, newPod);
	}

	private onPodDelete(pod: Pod): void {
		const key = podKey(pod);
		delete this.state.origins[key];
		if (assigned(pod) || this.cache.nodeOf(key) !== undefined) {
			this.cache.removePod(pod);
			this.queue.moveAllToActiveOrBackoffQueue(EVENT_ASSIGNED_POD_DELETE, pod, undefined);
			return;
		}
		this.queue.delete(pod);
		this.queue.moveAllToActiveOrBackoffQueue(EVENT_UNSCHEDULED_POD_DELETE, pod, undefined);
	}

	// ---- the scheduling loop -------------------------------------------------------

	/** Queues the next cycle, if this instance leads and a pod can be popped. */
	private wakeUp(): void {
		if (!this.state.leading || this.state.scheduleOnePending || !this.queue.hasPoppable()) return;
		this.state.scheduleOnePending = true;
		this.after(this.options.cycleCostMs, 'schedule-one', { term: this.state.term });
	}

	private runScheduleOne(): void {
		this.state.scheduleOnePending = false;
		if (!this.state.leading) return;
		this.scheduleOne();
		this.wakeUp();
	}

	private cycleContext(): CycleContext {
		return {
			nodes: this.cache,
			percentageOfNodesToScore: this.config!.percentageOfNodesToScore,
			nextStartNodeIndex: this.state.nextStartNodeIndex,
			random: (n) => this.rng.int(n),
			explainNodesMax: this.options.explainNodesMax,
		};
	}

	/** scheduleOne: one pod, one cycle. */
	private scheduleOne(): void {
		const popped = this.queue.pop();
		if (!popped) return;
		const queued = popped.pod;
		const key = queued.key;
		const previousOrigin = this.kernel.origin;
		this.kernel.origin = this.state.origins[key] ?? previousOrigin;
		try {
			this.scheduleQueuedPod(key, queued.attempts);
		} finally {
			this.kernel.origin = previousOrigin;
		}
	}

	private scheduleQueuedPod(key: string, attempts: number): void {
		const pod = this.pod(key);
		const object = `pods/${key}`;
		const explain: SchedulingExplanation = {
			pod: key,
			uid: pod?.metadata.uid ?? '',
			schedulerName: pod ? schedulerNameOf(pod) : '',
			attempt: attempts,
			cycle: this.state.queue.schedulingCycle,
			atMs: this.nowMs,
			result: 'Skipped',
			numAllNodes: this.cache.numNodes,
			numNodesToFind: 0,
			percentageOfNodesToScore: this.config!.percentageOfNodesToScore,
			preFilter: [],
			preScore: [],
			scorePlugins: [],
			nodes: [],
			nodesOmitted: 0,
			notEvaluated: [],
		};
		const fw = pod ? this.frameworks.get(schedulerNameOf(pod)) : undefined;
		// skipPodSchedule: deleted, being deleted, already assumed or bound, or not ours any more.
		if (!pod || !fw || pod.metadata.deletionTimestamp || this.cache.isAssumedPod(key) || assigned(pod)) {
			const why = !pod ? 'it was deleted' : pod.metadata.deletionTimestamp ? 'it is being deleted' : !fw ? 'no profile serves it' : 'it is already assumed or bound';
			this.emit({ action: 'schedule', object, msg: `skip scheduling ${key}: ${why}` });
			this.queue.done(key);
			if (pod) {
				explain.message = `skipped: ${why}`;
				this.record(explain);
			}
			return;
		}
		if (fw.percentageOfNodesToScore !== undefined) explain.percentageOfNodesToScore = fw.percentageOfNodesToScore;
		this.emit({ action: 'schedule', object, msg: `attempting to schedule pod ${key} (attempt ${attempts}, profile ${fw.profileName})` });
		const state = new CycleState();
		const ctx = this.cycleContext();
		ctx.afterFilter = (e) => this.traceFilter(object, e);
		const outcome = schedulingCycle(ctx, fw, state, pod, explain);
		this.state.nextStartNodeIndex = ctx.nextStartNodeIndex;
		if (outcome.nominatingInfo?.nominatedNodeName) this.emit({ action: 'preempt', object, msg: `preemption made room on ${outcome.nominatingInfo.nominatedNodeName}: nominated it for ${key}, which waits for the victims to go` });
		if (outcome.result.kind !== 'scheduled') {
			this.handleSchedulingFailure(fw, key, pod, outcome.failure!, outcome.nominatingInfo, outcome.unschedulablePlugins, outcome.pendingPlugins, explain);
			this.record(explain);
			return;
		}
		const host = outcome.result.host;
		this.traceScore(object, explain, host);
		// assume: count the pod on its node now, before the bind is confirmed.
		const assumedPod = deepCopy(pod);
		assumedPod.spec.nodeName = host;
		this.cache.assumePod(assumedPod);
		this.queue.deleteNominatedPodIfExists(key);
		const reserve = fw.runReservePluginsReserve(state, assumedPod, host);
		if (!isSuccess(reserve)) {
			fw.runReservePluginsUnreserve(state, assumedPod, host);
			this.cache.forgetPod(key);
			this.failAfterChoice(fw, key, pod, host, reserve!, explain);
			return;
		}
		const permit = fw.runPermitPlugins(state, assumedPod, host);
		if (!isSuccess(permit)) {
			fw.runReservePluginsUnreserve(state, assumedPod, host);
			this.cache.forgetPod(key);
			this.failAfterChoice(fw, key, pod, host, permit!, explain);
			return;
		}
		this.bindingCycle(fw, state, key, pod, assumedPod, host, explain);
	}

	/** A Reserve or Permit rejection: a FitError naming just that node. */
	private failAfterChoice(fw: Framework, key: string, pod: Pod, host: string, status: Status, explain: SchedulingExplanation): void {
		let failure = status;
		const unschedulablePlugins = new Set<string>();
		if (isRejected(status)) {
			const diagnosis = newDiagnosis();
			diagnosis.nodeToStatus.set(host, status);
			addPluginStatus(diagnosis, status);
			for (const p of diagnosis.unschedulablePlugins) unschedulablePlugins.add(p);
			failure = new Status(status.code, [], new FitError(1, diagnosis).message());
		}
		this.handleSchedulingFailure(fw, key, pod, failure, { nominatedNodeName: '', mode: 'Override' }, unschedulablePlugins, new Set(), explain);
		this.record(explain);
	}

	/** bindingCycle: PreBind, Bind, then the Scheduled event and PostBind. */
	private bindingCycle(fw: Framework, state: CycleState, key: string, pod: Pod, assumedPod: Pod, host: string, explain: SchedulingExplanation): void {
		const object = `pods/${key}`;
		let status = fw.runPreBindPlugins(state, assumedPod, host);
		if (isSuccess(status)) {
			status = fw.runBindPlugins(state, assumedPod, host);
			this.cache.finishBinding(key);
		}
		if (!isSuccess(status)) {
			explain.bind = { code: CODE_NAMES[status!.code], message: status!.message() };
			this.emit({ action: 'bind', object, msg: `failed to bind ${key} to ${host}: ${status!.message()}` });
			// handleBindingCycleError: undo the assumption; the freed room is an AssignedPodDelete for everyone else.
			fw.runReservePluginsUnreserve(state, assumedPod, host);
			this.cache.forgetPod(key);
			this.handleSchedulingFailure(fw, key, pod, status!, { nominatedNodeName: '', mode: 'Override' }, new Set(), new Set(), explain);
			this.queue.moveAllToActiveOrBackoffQueue(EVENT_ASSIGNED_POD_DELETE, assumedPod, undefined);
			this.record(explain);
			return;
		}
		this.emit({ action: 'bind', object, peer: 'kube-apiserver', msg: `bound ${key} to ${host}` });
		this.profileRecorder(fw.profileName).eventf(assumedPod, undefined, 'Normal', 'Scheduled', 'Binding', `Successfully assigned ${pod.metadata.namespace}/${pod.metadata.name} to ${host}`);
		fw.runPostBindPlugins(state, assumedPod, host);
		this.queue.done(key);
		delete this.state.origins[key];
		explain.result = 'Scheduled';
		explain.node = host;
		this.record(explain);
	}

	/**
	 * handleSchedulingFailure: requeue the pod (unless it is gone or bound
	 * meanwhile), remember its nomination, record FailedScheduling and set
	 * PodScheduled=False (reason Unschedulable, or SchedulerError for errors).
	 */
	private handleSchedulingFailure(fw: Framework, key: string, pod: Pod, status: Status, nominatingInfo: NominatingInfo | undefined, unschedulablePlugins: Set<string>, pendingPlugins: Set<string>, explain: SchedulingExplanation): void {
		const reason = isRejected(status) ? 'Unschedulable' : 'SchedulerError';
		const errMsg = status.message();
		explain.result = reason === 'Unschedulable' ? 'Unschedulable' : 'Error';
		explain.message = errMsg;
		const cached = this.pod(key);
		if (!cached) {
			this.queue.done(key);
		} else if (cached.spec.nodeName) {
			this.emit({ action: 'schedule', object: `pods/${key}`, msg: `pod ${key} has been assigned to node ${cached.spec.nodeName}; not adding it back to the queue` });
			this.queue.done(key);
		} else {
			this.queue.addUnschedulableIfNotPresent(key, unschedulablePlugins, pendingPlugins);
		}
		this.queue.addNominatedPod(cached ?? pod, nominatingInfo);
		this.emit({ action: reason === 'Unschedulable' ? 'unschedulable' : 'error', object: `pods/${key}`, msg: errMsg });
		const current = cached ?? pod;
		// About the pod as it was popped (its resourceVersion is part of the event's regarding reference).
		this.profileRecorder(fw.profileName).eventf(pod, undefined, 'Warning', 'FailedScheduling', 'Scheduling', truncateMessage(errMsg));
		this.updatePodStatus(current, reason, errMsg, nominatingInfo);
	}

	/** updatePod: patch status.conditions[PodScheduled] (and nominatedNodeName) through the status subresource, only if something changed. */
	private updatePodStatus(pod: Pod, reason: string, message: string, nominatingInfo: NominatingInfo | undefined): void {
		const conditions = deepCopy(pod.status?.conditions ?? []);
		const condition: PodCondition = { type: 'PodScheduled', status: 'False', lastProbeTime: null, lastTransitionTime: formatRfc3339(this.kernel.wallMs()), reason, message };
		// PodObservedGenerationTracking: the condition says which generation it observed.
		if (pod.metadata.generation) condition.observedGeneration = pod.metadata.generation;
		const conditionChanged = updatePodCondition(conditions, condition);
		const nominatedChanged = nominatingInfo?.mode === 'Override' && (pod.status?.nominatedNodeName ?? '') !== nominatingInfo.nominatedNodeName;
		if (!conditionChanged && !nominatedChanged) return;
		const status: Record<string, unknown> = {};
		if (conditionChanged) status.conditions = [condition];
		if (nominatedChanged) status.nominatedNodeName = nominatingInfo!.nominatedNodeName || null;
		const result = this.client.patch(R.pods, pod.metadata.namespace, pod.metadata.name ?? '', { status }, 'application/strategic-merge-patch+json', 'status');
		if (!result.ok) this.emit({ action: 'error', object: `pods/${podKey(pod)}`, msg: `error updating pod ${podKey(pod)}: ${result.message}` });
	}

	private record(explain: SchedulingExplanation): void {
		recordExplanation(this.state.explanations, explain, this.options.explanationsMax);
	}

	// ---- trace summaries -------------------------------------------------------------

	private traceFilter(object: string, e: SchedulingExplanation): void {
		const evaluated = e.nodes.length + e.nodesOmitted;
		const feasible = e.nodes.filter((n) => n.feasible).length;
		const rejections = new Map<string, number>();
		for (const n of e.nodes) if (n.rejectedBy) rejections.set(n.rejectedBy, (rejections.get(n.rejectedBy) ?? 0) + 1);
		const rejected = [...rejections].map(([plugin, count]) => `${plugin} rejected ${count}`).join(', ');
		const skipped = e.notEvaluated.length ? `; ${e.notEvaluated.length} not examined (percentageOfNodesToScore)` : '';
		const pre = e.preFilter.filter((o) => o.code !== 'Success' && o.code !== 'Skip');
		const preMsg = pre.length ? `PreFilter ${pre.map((o) => `${o.plugin}: ${o.message}`).join('; ')}; ` : '';
		this.emit({ action: 'filter', object, msg: `${preMsg}${evaluated} of ${e.numAllNodes} node(s) examined, ${feasible} feasible${rejected ? ` (${rejected})` : ''}${skipped}` });
	}

	private traceScore(object: string, e: SchedulingExplanation, host: string): void {
		const scored = e.nodes.filter((n) => n.totalScore !== undefined).sort((a, b) => b.totalScore! - a.totalScore!);
		if (scored.length === 0) {
			this.emit({ action: 'score', object, msg: `only ${host} fits: no scoring needed` });
			return;
		}
		// The three best are enough for a trace line; explain() has them all.
		const top = scored
			.slice(0, 3)
			.map((n) => `${n.node}=${n.totalScore}`)
			.join(', ');
		const tie = e.tie ? `; ${e.tie.candidates.length} nodes tied at ${e.tie.topScore}, picked at random` : '';
		this.emit({ action: 'score', object, msg: `scored ${scored.length} node(s) with ${e.scorePlugins.map((p) => `${p.plugin}×${p.weight}`).join(', ')}: ${top}${tie}; chose ${host}` });
	}
}

