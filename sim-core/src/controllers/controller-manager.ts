/**
 * kube-controller-manager: one process running many control loops. It elects
 * a leader on the Lease `kube-system/kube-controller-manager` and runs
 * nothing until it leads; then it starts one shared informer per resource
 * (list, then watch) and feeds their events to the controllers, each with
 * its own work queue. A 'work' event (tagged with the controller's name)
 * reconciles as many keys as the controller has workers upstream
 * (--concurrent-deployment-syncs and the like), and the next one comes
 * `reconcileCostMs` (1 ms) later, so every reconcile costs virtual time and
 * cause and effect stay visible in the trace; while it reconciles a key, the
 * kernel's origin is the origin of the change that queued the key.
 *
 * Losing the lease stops the loops: the real binary exits and is restarted
 * by the kubelet; here the process drops its volatile state (caches,
 * queues, expectations) and campaigns again with a new identity, which has
 * the same visible effect.
 *
 * Controllers that come later, with the upstream package each will mirror:
 * - endpointslice-mirroring-controller: pkg/controller/endpointslicemirroring
 * - resourcequota-controller: pkg/controller/resourcequota
 * Add each to CONTROLLERS below (one file per controller in this folder).
 *
 * Mirrors cmd/kube-controller-manager/app/controllermanager.go (leader
 * election, StartControllers, ControllersDisabledByDefault, the
 * --controllers flag).
 */
import type { KubeObject } from '../api/types.ts';
import { ApiClient } from '../client/client.ts';
import { EventRecorder, emptyRecorder, type RecorderState } from '../client/events.ts';
import { Informer, emptyInformer, type InformerState } from '../client/informer.ts';
import { DEFAULT_LEADER_ELECTION, LeaderElector, freshLeaderElection, type LeaderElectionConfig, type LeaderElectionState } from '../client/leader-election.ts';
import type { ApiTransport } from '../client/transport.ts';
import { WorkQueue, emptyWorkQueue, type WorkQueueState } from '../client/workqueue.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { InformerIndex } from './informer-index.ts';
import { WATCHABLE_RESOURCES, type ControllerBase, type ControllerHost } from './controller-context.ts';
import { DaemonSetController } from './daemonset.ts';
import { DisruptionController } from './disruption.ts';
import { StatefulSetController } from './statefulset/stateful-set.ts';
import { DeploymentController } from './deployment/deployment-controller.ts';
import { EndpointsController } from './endpoints.ts';
import { DEFAULT_MAX_ENDPOINTS_PER_SLICE, EndpointSliceController } from './endpointslice.ts';
import { GarbageCollector } from './garbage-collector.ts';
import { NamespaceController } from './namespace.ts';
import { NodeIpamController } from './node-ipam.ts';
import { NodeLifecycleController } from './node-lifecycle.ts';
import { PodGcController, TERMINATED_POD_GC_THRESHOLD } from './podgc.ts';
import { ReplicaSetController } from './replicaset.ts';
import { ReplicationManager } from './replication-controller.ts';
import { ResourceQuotaController } from './resourcequota/resource-quota.ts';
import { RootCaCertPublisher } from './root-ca-cert-publisher.ts';
import { ServiceAccountController } from './serviceaccount.ts';
import { TaintEvictionController } from './taint-eviction.ts';
import { HorizontalPodAutoscalerController } from './podautoscaler/horizontal.ts';
import { JobController } from './job/job-controller.ts';
import { CronJobController } from './cronjob/cronjob-controller.ts';
import { TtlAfterFinishedController } from './ttl-after-finished.ts';
import { CsrSigningController } from './certificates/signer.ts';
import { CsrCleanerController } from './certificates/cleaner.ts';
import { PersistentVolumeBinderController } from './volume/persistentvolume-binder.ts';
import { PvcProtectionController, PvProtectionController } from './volume/protection.ts';

/** The process id and the Lease name. */
const KUBE_CONTROLLER_MANAGER = 'kube-controller-manager';

/** Knobs, named after the kube-controller-manager flags they stand for, with upstream defaults. */
export interface KubeControllerManagerOptions {
	/** --controllers: '*' (all on by default), a name or alias to enable, '-name' to disable. */
	controllers: string[];
	/** The host name in the leader-election identity (`<hostname>_<uuid>`). */
	hostname: string;
	/** --leader-elect (default true). */
	leaderElect: boolean;
	/** --leader-elect-lease-duration 15s, --leader-elect-renew-deadline 10s, --leader-elect-retry-period 2s. */
	leaderElection: LeaderElectionConfig;
	/** Virtual time one reconcile costs (a teaching choice: causality stays visible). */
	reconcileCostMs: number;
	/** --node-monitor-period (default 5s). */
	nodeMonitorPeriodMs: number;
	/** --node-monitor-grace-period (default 50s since v1.32; 40s before). */
	nodeMonitorGracePeriodMs: number;
	/** --node-startup-grace-period (default 60s). */
	nodeStartupGracePeriodMs: number;
	/** --node-eviction-rate (default 0.1 nodes per second per zone). */
	nodeEvictionRate: number;
	/** --secondary-node-eviction-rate (default 0.01). */
	secondaryNodeEvictionRate: number;
	/** --large-cluster-size-threshold (default 50). */
	largeClusterSizeThreshold: number;
	/** --unhealthy-zone-threshold (default 0.55). */
	unhealthyZoneThreshold: number;
	/** --allocate-node-cidrs (upstream default false; kubeadm with flannel sets true). */
	allocateNodeCidrs: boolean;
	/** --cluster-cidr (kubeadm with flannel: 10.244.0.0/16). */
	clusterCidr: string;
	/** --node-cidr-mask-size-ipv4 (default 24). */
	nodeCidrMaskSize: number;
	/** The cluster CA certificate (PEM) the root CA publisher writes into every namespace (--root-ca-file). */
	rootCaPem: string;
	/** --max-endpoints-per-slice (default 100). */
	maxEndpointsPerSlice: number;
	/** --endpointslice-updates-batch-period (default 0: Pod changes are synced at once). */
	endpointSliceUpdatesBatchPeriodMs: number;
	/** --endpoint-updates-batch-period (default 0). */
	endpointUpdatesBatchPeriodMs: number;
	/** --terminated-pod-gc-threshold (default 12500; 0 turns that part of PodGC off). */
	terminatedPodGcThreshold: number;
	/**
	 * Called when the manager loses its leader lease. The real binary exits
	 * then and the kubelet restarts its container; the cluster wiring does
	 * the same through this hook (without it, the manager campaigns again).
	 */
	onLeadershipLost?: () => void;
	/**
	 * The controllers this manager can run, in start order (default: every
	 * kube-controller-manager controller). cloud-controller-manager is the
	 * same k8s.io/controller-manager framework with its own four controllers
	 * (./cloud/cloud-controller-manager.ts).
	 */
	controllerFactories?: readonly ControllerFactory[];
	/** --leader-elect-resource-name (kube-controller-manager; cloud-controller-manager for the CCM). */
	leaseName?: string;
	/** --use-service-account-credentials: one identity per controller (kubeadm sets it for kube-controller-manager). */
	useServiceAccountCredentials?: boolean;
}

/** A PEM-shaped stand-in for kubeadm's cluster CA (/etc/kubernetes/pki/ca.crt); not a real certificate. */
export const PLACEHOLDER_ROOT_CA_PEM = [
	'-----BEGIN CERTIFICATE-----',
	'MIIDBTCCAe2gAwIBAgIIU2ltdWxhdGVkMA0GCSqGSIb3DQEBCwUAMBUxEzARBgNV',
	'BAMTCmt1YmVybmV0ZXMwHhcNMjYxMTMwMDgwMDAwWhcNMzYxMTI4MDgwMDAwWjAV',
	'MRMwEQYDVQQDEwprdWJlcm5ldGVzMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIB',
	'Q2x1c3RlciBBbmF0b215IHBsYWNlaG9sZGVyIENBIC0tIG5vdCBhIHJlYWwga2V5',
	'-----END CERTIFICATE-----',
	'',
].join('\n');

const DEFAULT_KCM_OPTIONS: KubeControllerManagerOptions = {
	controllers: ['*'],
	hostname: 'control-plane',
	leaderElect: true,
	leaderElection: DEFAULT_LEADER_ELECTION,
	reconcileCostMs: 1,
	nodeMonitorPeriodMs: 5_000,
	nodeMonitorGracePeriodMs: 50_000,
	nodeStartupGracePeriodMs: 60_000,
	nodeEvictionRate: 0.1,
	secondaryNodeEvictionRate: 0.01,
	largeClusterSizeThreshold: 50,
	unhealthyZoneThreshold: 0.55,
	allocateNodeCidrs: true,
	clusterCidr: '10.244.0.0/16',
	nodeCidrMaskSize: 24,
	rootCaPem: PLACEHOLDER_ROOT_CA_PEM,
	maxEndpointsPerSlice: DEFAULT_MAX_ENDPOINTS_PER_SLICE,
	// EndpointSliceControllerConfiguration / EndpointControllerConfiguration: EndpointUpdatesBatchPeriod is left at 0.
	endpointSliceUpdatesBatchPeriodMs: 0,
	endpointUpdatesBatchPeriodMs: 0,
	terminatedPodGcThreshold: TERMINATED_POD_GC_THRESHOLD,
};

export type ControllerFactory = (host: ControllerHost, options: KubeControllerManagerOptions) => ControllerBase<unknown>;

/** Every controller this manager can run, in start order (owners before dependents). */
const CONTROLLERS: readonly ControllerFactory[] = [
	(host) => new DeploymentController(host),
	(host) => new ReplicaSetController(host),
	(host) => new ReplicationManager(host),
	(host) => new DaemonSetController(host),
	(host) => new StatefulSetController(host),
	(host) => new GarbageCollector(host),
	(host) => new ResourceQuotaController(host),
	(host) => new NamespaceController(host),
	(host) => new ServiceAccountController(host),
	(host, o) => new RootCaCertPublisher(host, o.rootCaPem),
	(host, o) => new NodeLifecycleController(host, o),
	(host) => new TaintEvictionController(host),
	(host, o) => new PodGcController(host, o.terminatedPodGcThreshold),
	(host, o) => new NodeIpamController(host, o),
	(host, o) => new EndpointSliceController(host, o),
	(host, o) => new EndpointsController(host, o),
	(host) => new HorizontalPodAutoscalerController(host),
	(host) => new DisruptionController(host),
	(host) => new JobController(host),
	(host) => new CronJobController(host),
	(host) => new TtlAfterFinishedController(host),
	(host) => new CsrSigningController(host),
	(host) => new CsrCleanerController(host),
	(host) => new PersistentVolumeBinderController(host),
	(host) => new PvcProtectionController(host),
	(host) => new PvProtectionController(host),
];

/**
 * IsControllerEnabled: an explicit `name` or `-name` decides (the alias
 * counts too); otherwise '*' turns on every controller.
 */
export function isControllerEnabled(name: string, alias: string, controllers: readonly string[]): boolean {
	let star = false;
	for (const entry of controllers) {
		if (entry === name || entry === alias) return true;
		if (entry === `-${name}` || entry === `-${alias}`) return false;
		if (entry === '*') star = true;
	}
	return star;
}

/** Volatile state of the manager. Plain JSON. */
interface KubeControllerManagerState {
	leader: LeaderElectionState;
	/** Whether this instance leads (its loops run). */
	leading: boolean;
	/** Leadership terms so far: timers of an earlier term are ignored. */
	term: number;
	informers: Record<string, InformerState>;
	queues: Record<string, WorkQueueState>;
	/** Whether a 'work' event is queued for a controller. */
	workScheduled: Record<string, boolean>;
	recorders: Record<string, RecorderState>;
	/** Each controller's own state, by its short name. */
	controllers: Record<string, unknown>;
}

export class KubeControllerManager extends ProcessBase<KubeControllerManagerState> implements ControllerHost {
	readonly options: KubeControllerManagerOptions;
	/** The manager's own client (system:kube-controller-manager): informers and leader election. */
	private readonly baseClient: ApiClient;
	/**
	 * One client per controller, as `--use-service-account-credentials=true`
	 * (kubeadm's setting) gives each controller its own service account; the
	 * transport knows them as `kube-controller-manager/<controller-name>`.
	 */
	private readonly controllerClients = new Map<string, ApiClient>();
	/** The controller whose code runs now (its writes use its own identity). */
	private active: string | undefined;
	readonly clock = { nowMs: () => this.kernel.nowMs, wallMs: () => this.kernel.wallMs() };
	/** The enabled controllers, by short name, in start order. */
	readonly controllers: ReadonlyMap<string, ControllerBase<unknown>>;
	private readonly informers = new Map<string, Informer>();
	private readonly queues = new Map<string, WorkQueue>();
	private readonly recorders = new Map<string, EventRecorder>();
	/**
	 * The informers' indexes, per resource (./informer-index.ts): derived
	 * from the caches (so not part of the snapshot), kept up to date by the
	 * informer handlers and rebuilt whenever the process state is replaced
	 * (start, restore).
	 */
	private readonly indexes = new Map<string, { state: KubeControllerManagerState; index: InformerIndex }>();
	private readonly elector: LeaderElector;

	constructor(kernel: Kernel, transport: ApiTransport, options: Partial<KubeControllerManagerOptions> = {}, id = KUBE_CONTROLLER_MANAGER) {
		super(id, kernel);
		this.options = { ...DEFAULT_KCM_OPTIONS, ...options };
		this.baseClient = new ApiClient(transport, id);
		const controllers = new Map<string, ControllerBase<unknown>>();
		for (const factory of this.options.controllerFactories ?? CONTROLLERS) {
			const controller = factory(this, this.options);
			if (isControllerEnabled(controller.name, controller.sub, this.options.controllers)) {
				controllers.set(controller.sub, controller);
				if (this.options.useServiceAccountCredentials !== false) this.controllerClients.set(controller.sub, new ApiClient(transport, `${id}/${controller.name}`));
			}
		}
		this.controllers = controllers;
		for (const sub of controllers.keys()) this.queues.set(sub, new WorkQueue(() => this.state.queues[sub]));
		// One shared informer per resource any enabled controller reads.
		const wanted = new Set<string>();
		for (const c of controllers.values()) for (const r of c.resources) wanted.add(r);
		const order = Object.keys(WATCHABLE_RESOURCES).filter((r) => wanted.has(r));
		for (const resource of order) {
			const ref = WATCHABLE_RESOURCES[resource];
			this.informers.set(
				resource,
				new Informer(resource, kernel, id, this.baseClient, { group: ref.group, version: ref.version, resource: ref.resource }, this.handlersFor(resource), () => this.state.informers[resource]),
			);
		}
		this.elector = new LeaderElector(kernel, this.baseClient, this.leaseName, this.options.leaderElection, () => this.state.leader);
	}

	/** The Lease it elects its leader on (kube-system/<name>). */
	get leaseName(): string {
		return this.options.leaseName ?? KUBE_CONTROLLER_MANAGER;
	}

	/** Whether this instance holds the leader lease now. */
	get isLeader(): boolean {
		return this.kernel.isRunning(this.id) && !!this.state?.leading;
	}

	/** Upstream names of the enabled controllers ('deployment-controller'...): each has its own identity. */
	controllerNames(): string[] {
		return [...this.controllers.values()].map((c) => c.name);
	}

	/** The API client of the controller running now, or the manager's own. */
	get client(): ApiClient {
		return (this.active && this.controllerClients.get(this.active)) || this.baseClient;
	}

	/** Runs `fn` as controller `sub` (its requests carry that controller's identity). */
	private as<T>(sub: string, fn: () => T): T {
		const previous = this.active;
		this.active = sub;
		try {
			return fn();
		} finally {
			this.active = previous;
		}
	}

	freshState(): KubeControllerManagerState {
		const state: KubeControllerManagerState = {
			leader: freshLeaderElection(''),
			leading: false,
			term: 0,
			informers: {},
			queues: {},
			workScheduled: {},
			recorders: {},
			controllers: {},
		};
		for (const resource of this.informers.keys()) state.informers[resource] = emptyInformer();
		for (const [sub, controller] of this.controllers) {
			state.queues[sub] = emptyWorkQueue();
			state.workScheduled[sub] = false;
			state.controllers[sub] = controller.freshState();
		}
		return state;
	}

	onStart(): void {
		this.state.leader.identity = `${this.options.hostname}_${this.rng.uuid()}`;
		this.emit({ action: 'start', msg: `${this.leaseName} started (controllers: ${[...this.controllers.values()].map((c) => c.name).join(', ')})` });
		if (!this.options.leaderElect) {
			this.startLeading();
			return;
		}
		this.emit({ action: 'leader-election', object: `leases/kube-system/${this.leaseName}`, msg: `attempting to acquire leader lease kube-system/${this.leaseName}` });
		this.campaign();
	}

	handle(event: QueuedEvent): void {
		try {
			this.dispatch(event);
		} catch (error) {
			// A bug in a controller must not take the process down.
			this.emit({ action: 'error', msg: `unhandled error in ${event.kind}: ${error instanceof Error ? error.message : String(error)}` });
		}
	}

	private dispatch(event: QueuedEvent): void {
		const payload = (event.payload ?? {}) as { controller?: string; key?: string; timer?: string; data?: unknown; term?: number };
		switch (event.kind) {
			case 'leader-elect':
				this.campaign();
				return;
			case 'work':
				if (this.current(payload.term)) this.work(payload.controller ?? '');
				return;
			case 'enqueue':
				if (this.current(payload.term)) this.enqueue(payload.controller ?? '', payload.key ?? '');
				return;
			case 'timer':
				if (this.current(payload.term)) this.as(payload.controller ?? '', () => this.controllers.get(payload.controller ?? '')?.onTimer?.(payload.timer ?? '', payload.data));
				return;
		}
		// Informers run only while leading (a retry scheduled before leadership was lost is dropped).
		if (!this.state.leading) return;
		for (const informer of this.informers.values()) if (informer.handle(event)) return;
	}

	private current(term: number | undefined): boolean {
		return this.state.leading && term === this.state.term;
	}

	// ---- leader election ----------------------------------------------------------------

	/** One acquire-or-renew attempt; the next in retryPeriod. */
	private campaign(): void {
		const transition = this.elector.tryAcquireOrRenew();
		if (transition === 'acquired') {
			this.emit({ action: 'leader-election', object: `leases/kube-system/${this.leaseName}`, msg: `successfully acquired lease kube-system/${this.leaseName}` });
			const lease: KubeObject = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: this.leaseName, namespace: 'kube-system' } };
			this.recorder(this.leaseName).record(lease, 'Normal', 'LeaderElection', `${this.state.leader.identity} became leader`);
			this.startLeading();
		} else if (transition === 'lost') {
			this.emit({ action: 'leader-election', object: `leases/kube-system/${this.leaseName}`, msg: 'leaderelection lost; stopping every controller' });
			this.stopLeading();
			if (this.options.onLeadershipLost) {
				this.options.onLeadershipLost();
				return;
			}
		}
		this.kernel.schedule(this.id, this.options.leaderElection.retryPeriodMs, 'leader-elect', undefined, { background: true, origin: `periodic:${this.id}:leader-elect` });
	}

	/** Starts the informers (they list synchronously, so caches are synced) and the controllers' timers. */
	private startLeading(): void {
		this.state.leading = true;
		this.state.term++;
		for (const informer of this.informers.values()) informer.start();
		for (const controller of this.controllers.values()) controller.onLeading?.();
	}

	/** As if the process exited and restarted: every loop stops and volatile state is dropped. */
	private stopLeading(): void {
		for (const resource of this.informers.keys()) {
			const watchId = this.state.informers[resource]?.watchId;
			if (watchId !== null && watchId !== undefined) this.baseClient.stopWatch(watchId);
		}
		const term = this.state.term;
		this.state = this.freshState();
		this.state.term = term;
		this.state.leader.identity = `${this.options.hostname}_${this.rng.uuid()}`;
	}

	// ---- ControllerHost ---------------------------------------------------------------

	informer(resource: string): Informer {
		const informer = this.informers.get(resource);
		if (!informer) throw new Error(`no shared informer for ${resource}`);
		return informer;
	}

	listInNamespace<T extends KubeObject>(resource: string, namespace: string | undefined): T[] {
		return this.objectsOf<T>(resource, this.indexOf(resource).inNamespace(namespace ?? ''));
	}

	listControlledBy<T extends KubeObject>(resource: string, namespace: string | undefined, uid: string): T[] {
		return this.objectsOf<T>(resource, this.indexOf(resource).controlledBy(namespace ?? '', uid));
	}

	private objectsOf<T extends KubeObject>(resource: string, keys: readonly string[]): T[] {
		const informer = this.informer(resource);
		const out: T[] = [];
		for (const key of keys) {
			const obj = informer.get(key);
			if (obj) out.push(obj as T);
		}
		return out;
	}

	private indexOf(resource: string): InformerIndex {
		let entry = this.indexes.get(resource);
		if (!entry || entry.state !== this.state) {
			entry = { state: this.state, index: new InformerIndex(this.informer(resource).list()) };
			this.indexes.set(resource, entry);
		}
		return entry.index;
	}

	recorder(component: string): EventRecorder {
		let recorder = this.recorders.get(component);
		if (!recorder) {
			// Events carry the identity of the controller that reports them.
			const owner = [...this.controllers.entries()].find(([, c]) => c.name === component)?.[0];
			const client = (owner && this.controllerClients.get(owner)) || this.baseClient;
			recorder = new EventRecorder(this.kernel, client, { component }, () => (this.state.recorders[component] ??= emptyRecorder()));
			this.recorders.set(component, recorder);
		}
		return recorder;
	}

	enqueue(controller: string, key: string): void {
		const queue = this.queues.get(controller);
		if (!queue || !this.state.leading || !key) return;
		queue.add(key, this.kernel.origin);
		this.scheduleWork(controller);
	}

	enqueueAfter(controller: string, key: string, delayMs: number, background = false): void {
		if (!this.state.leading) return;
		this.after(Math.max(0, delayMs), 'enqueue', { controller, key, term: this.state.term }, { background });
	}

	enqueueRateLimited(controller: string, key: string): void {
		const queue = this.queues.get(controller);
		if (!queue) return;
		this.enqueueAfter(controller, key, queue.backoffMs(key, this.nowMs), true);
	}

	timer(controller: string, timer: string, delayMs: number, data?: unknown, periodic = false): void {
		if (!this.state.leading) return;
		const payload = { controller, timer, data, term: this.state.term };
		const origin = periodic ? `periodic:${this.id}:${controller}/${timer}` : undefined;
		this.kernel.schedule(this.id, Math.max(0, delayMs), 'timer', payload, { background: true, origin });
	}

	controllerState(controller: string): unknown {
		return this.state.controllers[controller];
	}

	trace(controller: string, action: string, object: string | undefined, msg: string): void {
		this.emit({ sub: controller, action, object, msg });
	}

	// ---- the work loop ------------------------------------------------------------------

	private scheduleWork(controller: string): void {
		if (this.state.workScheduled[controller]) return;
		this.state.workScheduled[controller] = true;
		this.after(this.options.reconcileCostMs, 'work', { controller, term: this.state.term });
	}

	/** Reconciles up to `workers` keys of one controller, each under the origin that queued it. */
	private work(sub: string): void {
		const controller = this.controllers.get(sub);
		const queue = this.queues.get(sub);
		if (!controller || !queue) return;
		this.state.workScheduled[sub] = false;
		for (let i = 0; i < controller.workers; i++) {
			const item = queue.get();
			if (!item) break;
			const previous = this.kernel.origin;
			this.kernel.origin = item.origin ?? previous;
			try {
				let error: string | undefined;
				try {
					error = this.as(sub, () => controller.sync(item.key));
				} catch (thrown) {
					error = `internal error: ${thrown instanceof Error ? thrown.message : String(thrown)}`;
				}
				if (error === undefined) {
					queue.forget(item.key);
				} else {
					const failures = this.state.queues[sub].failures[item.key] ?? 0;
					if (controller.maxRetries !== undefined && failures >= controller.maxRetries) {
						queue.forget(item.key);
						this.trace(sub, 'drop', item.key, `dropping ${item.key} out of the queue: ${error}`);
					} else {
						const delayMs = queue.backoffMs(item.key, this.nowMs);
						this.trace(sub, 'requeue', item.key, `error syncing ${item.key}, requeuing in ${delayMs} ms: ${error}`);
						this.enqueueAfter(sub, item.key, delayMs, true);
					}
				}
				queue.done(item.key);
			} finally {
				this.kernel.origin = previous;
			}
		}
		if (queue.length > 0) this.scheduleWork(sub);
	}

	// ---- informer fan-out ------------------------------------------------------------------

	private handlersFor(resource: string) {
		const interested = () => [...this.controllers.values()].filter((c) => c.resources.includes(resource));
		return {
			onAdd: (obj: KubeObject) => {
				this.indexOf(resource).added(obj);
				for (const c of interested()) c.onAdd?.(resource, obj);
			},
			onUpdate: (oldObj: KubeObject, newObj: KubeObject) => {
				this.indexOf(resource).updated(oldObj, newObj);
				for (const c of interested()) c.onUpdate?.(resource, oldObj, newObj);
			},
			onDelete: (obj: KubeObject) => {
				this.indexOf(resource).deleted(obj);
				for (const c of interested()) c.onDelete?.(resource, obj);
			},
		};
	}
}
