/**
 * The kubelet of one node: the `kubelet/<node>` process. It registers the
 * Node, keeps its status and Lease fresh, watches the pods bound to the
 * node, admits them, and drives each one through the container runtime:
 * sandbox, image pulls, init containers in order, containers, restarts
 * with back-off, probes, graceful termination; it reports every pod's
 * status and records upstream-worded Events. Before a pod's sandbox it
 * sets up the pod's volumes on the node and waits for them (./volumes), and
 * hands them to the runtime as bind mounts. It also runs the static pods
 * of /etc/kubernetes/manifests, with no API server, which is how the
 * control plane boots, and publishes their mirror pods once it can.
 *
 * Stopping the process stops all of that; containers keep running in the
 * runtime. Starting it again re-lists pods and adopts what runs.
 *
 * This file is the process and its sync loop: it starts the loops and
 * hands each event to the manager it is for, all of them sharing one
 * KubeletContext (./kubelet-context.ts) over the process's state. The
 * managers: pod sources (./pod-config.ts), pod workers (./pod-workers.ts)
 * and their sync (./pod-sync.ts), the runtime manager
 * (./kuberuntime-manager.ts, ./kuberuntime-container.ts), images
 * (./image-manager.ts), the PLEG (./pleg.ts), the status manager
 * (./status-manager.ts), the probe manager (./prober-manager.ts), volumes
 * (./kubelet-volumes.ts over ./volumes), housekeeping and mirror pods
 * (./housekeeping.ts), registration and node status
 * (./kubelet-node-status.ts), the node lease (./node-lease.ts) and the
 * server's logs and exec (./server.ts).
 *
 * Mirrors pkg/kubelet/kubelet.go (NewMainKubelet, Run, syncLoop,
 * syncLoopIteration).
 */
import { EVICTION_MONITORING_PERIOD_MS, synchronizeEviction } from './eviction-manager.ts';
import type { Pod, Taint } from '../api/types.ts';
import { R, type ApiClient } from '../client/client.ts';
import { EventRecorder, emptyRecorder } from '../client/events.ts';
import { Informer, emptyInformer } from '../client/informer.ts';
import { CRI_EVENT_KIND, criErrorText, type CriEvent, type CriRuntime } from '../cri-api/cri.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { housekeeping } from './housekeeping.ts';
import type { KubeletUnitRecord } from '../host/systemd/records.ts';
import { KubeletContext, type KubeletState } from './kubelet-context.ts';
import { nodeIdentity, register, updateNodeStatus, updateRuntimeUp } from './kubelet-node-status.ts';
import { onVolumeRetry, resyncVolumes } from './kubelet-volumes.ts';
import { renewLease } from './node-lease.ts';
import type { NodeCapacity, NodeIdentity } from './node-status.ts';
import { onCri } from './pleg.ts';
import { onPodAdd, onPodDelete, onPodUpdate, readManifests } from './pod-config.ts';
import { syncPod } from './pod-sync.ts';
import { runProbes } from './prober-manager.ts';
import { exec, serveLog, type LogOptions, type ServeResult } from './server.ts';
import { resourceMetricsText } from './resource-metrics.ts';
import { FILE_CHECK_FREQUENCY_MS, STATIC_POD_PATH, type ManifestFile } from './static-pods.ts';
import { DEFAULT_EVICTION_HARD, loadKubeletConfigFile } from './kubelet-config.ts';
import type { FsStats } from '../host/filesystem-stats.ts';
import type { NodeDisk } from '../host/disk.ts';
import { SYNC_FREQUENCY_MS } from './volumes/volume-manager.ts';
import { reconcileStatuses } from './status-manager.ts';

/** The status manager's syncPeriod (pkg/kubelet/status/status_manager.go: syncPeriod = 10 * time.Second). */
const STATUS_SYNC_PERIOD_MS = 10_000;

export type { KubeletState } from './kubelet-context.ts';
export type { PodWorker } from './pod-workers.ts';

/** Timing knobs, with the KubeletConfiguration defaults (FACTS.md A). */
export interface KubeletConfig {
	/** nodeStatusUpdateFrequency: compute status every 10 s, post it when it changed. */
	nodeStatusUpdateFrequencyMs: number;
	/** nodeStatusReportFrequency: post it at least every 5 min even when unchanged. */
	nodeStatusReportFrequencyMs: number;
	/** nodeLeaseDurationSeconds: 40; the lease is renewed every 0.25 × 40 s = 10 s. */
	nodeLeaseDurationSeconds: number;
	/** fileCheckFrequency: re-read the static pod manifests every 20 s. */
	fileCheckFrequencyMs: number;
	/** updateRuntimeUp runs every 5 s (kubelet.go: go wait.Until(kl.updateRuntimeUp, 5*time.Second, ...)). */
	runtimeCheckPeriodMs: number;
	/** maxWaitForContainerRuntime: 30 s without a good runtime status means "container runtime is down". */
	maxWaitForContainerRuntimeMs: number;
	/** The PLEG health threshold: 3 min without a relist. */
	plegRelistThresholdMs: number;
	/** housekeepingPeriod: 2 s (cleanups, mirror pods). */
	housekeepingPeriodMs: number;
	/** registerWithAPIServer back-off: 100 ms doubling to 7 s. */
	registerInitialBackoffMs: number;
	registerMaxBackoffMs: number;
	/** The lease controller's retry back-off: 200 ms doubling to 7 s. */
	leaseRetryInitialMs: number;
	leaseRetryMaxMs: number;
	/** The status manager retries a failed status write on its 10 s sync. */
	statusRetryMs: number;
	/** The PLEG relists every second: a failed pull shows as ImagePullBackOff on the next sync. */
	plegRelistPeriodMs: number;
	/** syncFrequency: a running pod is resynced every minute, which remounts its ConfigMap, Secret, downward API and projected volumes. */
	syncFrequencyMs: number;
	/** staticPodPath: the directory of static pod manifests (kubeadm: /etc/kubernetes/manifests). */
	staticPodPath: string;
	/**
	 * registerNode (the --register-node flag): create the Node at start. When
	 * false the kubelet never creates it; it still runs its static pods, but
	 * finds no Node to post status to, to own its Lease or to own mirror pods,
	 * so it creates none of them until someone else creates the Node.
	 */
	registerNode: boolean;
	/** clusterDNS: the DNS Service's addresses ClusterFirst Pods get as nameservers (kubeadm: 10.96.0.10). */
	clusterDNS: string[];
	/** clusterDomain: the domain of the search list (kubeadm: cluster.local). */
	clusterDomain: string;
	/** resolvConf: the node's resolver file Default Pods copy (kubeadm with systemd-resolved: /run/systemd/resolve/resolv.conf). */
	resolvConf: string;
	/**
	 * evictionHard, by signal: a quantity (`100Mi`) or a percentage of the
	 * signal's capacity (`10%`). The Linux defaults: memory.available<100Mi,
	 * nodefs.available<10%, nodefs.inodesFree<5%, imagefs.available<15%,
	 * imagefs.inodesFree<5%.
	 */
	evictionHard: Record<string, string>;
	/** evictionSoft, by signal (none by default): met for its grace period, it evicts with a grace period. */
	evictionSoft: Record<string, string>;
	/** evictionSoftGracePeriod, by signal: how long a soft threshold must hold before a Pod is evicted. */
	evictionSoftGracePeriodMs: Record<string, number>;
	/** evictionMaxPodGracePeriod: the most grace (seconds) a soft eviction gives a Pod; the Pod's own terminationGracePeriodSeconds if lower. Default 0. */
	evictionMaxPodGracePeriodSeconds: number;
}

const DEFAULT_KUBELET_CONFIG: KubeletConfig = {
	nodeStatusUpdateFrequencyMs: 10_000,
	nodeStatusReportFrequencyMs: 300_000,
	nodeLeaseDurationSeconds: 40,
	fileCheckFrequencyMs: FILE_CHECK_FREQUENCY_MS,
	runtimeCheckPeriodMs: 5_000,
	maxWaitForContainerRuntimeMs: 30_000,
	plegRelistThresholdMs: 180_000,
	housekeepingPeriodMs: 2_000,
	registerInitialBackoffMs: 100,
	registerMaxBackoffMs: 7_000,
	leaseRetryInitialMs: 200,
	leaseRetryMaxMs: 7_000,
	statusRetryMs: 10_000,
	plegRelistPeriodMs: 1_000,
	syncFrequencyMs: SYNC_FREQUENCY_MS,
	staticPodPath: STATIC_POD_PATH,
	registerNode: true,
	// The kubelet's own defaults (no clusterDNS, /etc/resolv.conf); kubeadm's config.yaml sets the first two.
	clusterDNS: [],
	clusterDomain: '',
	resolvConf: '/etc/resolv.conf',
	evictionHard: { ...DEFAULT_EVICTION_HARD },
	evictionSoft: {},
	evictionSoftGracePeriodMs: {},
	evictionMaxPodGracePeriodSeconds: 0,
};

/** What the cluster gives a kubelet. */
export interface KubeletDeps {
	nodeName: string;
	nodeIp: string;
	/** The node's pod CIDR (the runtime allocates from it; the kubelet reports it nowhere itself). */
	podCidr: string;
	capacity: NodeCapacity;
	/** Labels and taints to register with (kubeadm's --node-labels / --register-with-taints). */
	labels?: Record<string, string>;
	annotations?: Record<string, string>;
	taints?: Taint[];
	/**
	 * --cloud-provider=external: the Node registers with the taint
	 * node.cloudprovider.kubernetes.io/uninitialized=true:NoSchedule, and the
	 * addresses cloud-controller-manager writes win over the kubelet's own.
	 */
	externalCloudProvider?: boolean;
	/** A control-plane machine (its system daemons use more memory: the eviction manager's and the metrics' node working set). */
	controlPlane?: boolean;
	runtime: CriRuntime;
	/** An API client acting as this process (identity system:node:<node>). */
	client: ApiClient;
	/** Durable journal and service state of this node's kubelet. */
	host: KubeletUnitRecord;
	/** The manifest files of a directory (the config's staticPodPath), read at start and every fileCheckFrequency. */
	staticPodManifests?: (dir: string) => ManifestFile[];
	/** Reads a file of the node (the resolvConf Default Pods copy); undefined when it is missing. */
	hostFile?(path: string): string | undefined;
	/**
	 * The text of the file the kubelet's `--config` flag names
	 * (/var/lib/kubelet/config.yaml), read at every start; undefined when
	 * there is none (the defaults apply).
	 */
	configFile?: () => string | undefined;
	/** Where configFile() reads from, for the log line. */
	configPath?: string;
	kubeletVersion?: string;
	/** `containerd://2.2.1`. */
	containerRuntimeVersion?: string;
	osImage?: string;
	kernelVersion?: string;
	/** The `kubernetes` Service's ClusterIP (service env vars). */
	kubernetesServiceHost?: string;
	/**
	 * The node's disk (shared with containerd): volume directories under
	 * /var/lib/kubelet/pods and hostPath sources. Without one, volumes are
	 * still resolved and fail as upstream's do, but no files are written and
	 * a hostPath volume shows as an empty directory.
	 */
	disk?: NodeDisk;
	/**
	 * The node's root file system (cAdvisor's statfs of /): the eviction
	 * manager's nodefs and imagefs signals (containerd keeps its images on
	 * the same disk). Without it, disk signals are not observed.
	 */
	rootFs?: () => FsStats;
	/** kernel.pid_max and the processes running (the pid.available signal); without it, not observed. */
	processTable?: () => { maxPid: number; running: number };
	/** Settings that win over the config file, as the kubelet's flags do (tests use them to change timings). */
	config?: Partial<KubeletConfig>;
	/**
	 * The machine's boot ID (/proc/sys/kernel/random/boot_id), read at each
	 * start: a new one after a reboot. Without it, one fixed ID per node.
	 */
	bootId?: () => string;
}

export class Kubelet extends ProcessBase<KubeletState> {
	readonly nodeName: string;
	private readonly identity: NodeIdentity;
	private readonly podInformer: Informer;
	private readonly nodeInformer: Informer;
	private readonly serviceInformer: Informer;
	private readonly ctx: KubeletContext;

	constructor(
		kernel: Kernel,
		private readonly deps: KubeletDeps,
	) {
		super(`kubelet/${deps.nodeName}`, kernel);
		this.nodeName = deps.nodeName;
		this.podInformer = new Informer(
			'pods',
			kernel,
			this.id,
			deps.client,
			{ ...R.pods, fieldSelector: `spec.nodeName=${deps.nodeName}` },
			{
				onAdd: (obj) => onPodAdd(this.ctx, obj as Pod),
				onUpdate: (oldObj, newObj) => onPodUpdate(this.ctx, oldObj as Pod, newObj as Pod),
				onDelete: (obj) => onPodDelete(this.ctx, obj as Pod),
			},
			() => this.state.podInformer,
		);
		// kl.nodeLister: an informer on this one Node, so admission sees labels and taints as soon as they are written.
		this.nodeInformer = new Informer('node', kernel, this.id, deps.client, { ...R.nodes, fieldSelector: `metadata.name=${deps.nodeName}` }, {}, () => (this.state.nodeInformer ??= emptyInformer()));
		// kl.serviceLister: every Service, for the environment variables of the containers it starts (enableServiceLinks).
		this.serviceInformer = new Informer('services', kernel, this.id, deps.client, { ...R.services }, {}, () => (this.state.serviceInformer ??= emptyInformer()));
		const recorder = new EventRecorder(kernel, deps.client, { component: 'kubelet', host: deps.nodeName }, () => this.state.recorder);
		this.identity = nodeIdentity(deps);
		this.ctx = new KubeletContext({ kernel, id: this.id, deps, defaults: { ...DEFAULT_KUBELET_CONFIG, ...deps.config }, identity: this.identity, podInformer: this.podInformer, nodeInformer: this.nodeInformer, serviceInformer: this.serviceInformer, recorder, state: () => this.state });
	}

	freshState(): KubeletState {
		return {
			pid: 0,
			startedMs: 0,
			registered: false,
			registerDelayMs: 0,
			nodeStatus: { lastPostedMs: -1, everPosted: false, busy: false },
			runtime: { down: false },
			leaseDelayMs: 0,
			podInformer: emptyInformer(),
			nodeInformer: emptyInformer(),
			recorder: emptyRecorder(),
			pendingNodeEvents: [],
			pods: {},
			crashBackoff: {},
			imageBackoff: {},
			lastPullError: {},
			staticSeen: {},
			logSeq: 0,
		};
	}

	// ---- process lifecycle ------------------------------------------------------------------

	onStart(): void {
		const ctx = this.ctx;
		const host = this.deps.host;
		// The configuration as of this start: the defaults, the config file, then the flags.
		const file = this.deps.configFile?.();
		const loaded = file === undefined ? { config: {} } : loadKubeletConfigFile(file);
		this.state.config = { ...DEFAULT_KUBELET_CONFIG, ...loaded.config, ...this.deps.config };
		// The machine may have rebooted since the last start (MachineInfo's BootID is read at start-up).
		const bootId = this.deps.bootId?.();
		if (bootId) this.identity.bootId = bootId;
		// A new PID at every start, a little above the last one (other processes start in between).
		this.state.pid = host.nextPid;
		host.nextPid += 7 + this.rng.int(40);
		this.state.startedMs = this.nowMs;
		host.service = { active: true, mainPid: this.state.pid, sinceWallMs: this.kernel.wallMsOn(this.nodeName), starts: host.service.starts + 1 };
		ctx.log('I', 'server.go:525', 'Kubelet starting', { version: this.identity.kubeletVersion, node: this.nodeName });
		// A real kubelet exits on a broken config file and systemd restarts it every 10 s; this one says so and runs on its defaults.
		if (loaded.error) ctx.log('E', 'server.go:234', 'Failed to load kubelet config file, running with the defaults', { path: this.deps.configPath ?? '/var/lib/kubelet/config.yaml', err: loaded.error });
		const version = this.deps.runtime.version();
		if (version.ok) ctx.log('I', 'kuberuntime_manager.go:263', 'Container runtime initialized', { containerRuntime: version.value.runtimeName, version: version.value.runtimeVersion, apiVersion: version.value.runtimeApiVersion });
		else ctx.log('E', 'kuberuntime_manager.go:255', 'Container runtime not reachable yet', { endpoint: 'unix:///var/run/containerd/containerd.sock', err: criErrorText(version.error) });
		ctx.log('I', 'file_linux.go:63', 'Watching the static pod directory', { path: ctx.config.staticPodPath });
		this.emit({ action: 'start', msg: `kubelet ${this.identity.kubeletVersion} started on ${this.nodeName}` });
		ctx.nodeEvent('Normal', 'Starting', 'Starting kubelet.');
		ctx.nodeEvent('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
		this.podInformer.start();
		this.nodeInformer.start();
		this.serviceInformer.start();
		readManifests(ctx);
		// syncNodeStatus: registerWithAPIServer only when registerNode; the status loop runs either way.
		if (ctx.config.registerNode) register(ctx);
		renewLease(ctx);
		this.after(0, 'runtime-check', undefined, { background: true });
		this.periodic(this.ctx.config.housekeepingPeriodMs, 'housekeeping');
		this.periodic(this.ctx.config.fileCheckFrequencyMs, 'file-check');
		// The eviction manager's pass comes just before each node status update, so a pressure it finds is reported
		// (and the node tainted) before the pods it evicts are replaced: real clusters get the same order from latency.
		this.periodic(EVICTION_MONITORING_PERIOD_MS, 'eviction');
		this.periodic(this.ctx.config.nodeStatusUpdateFrequencyMs, 'node-status');
		this.periodic(STATUS_SYNC_PERIOD_MS, 'status-sync');
	}

	onStop(): void {
		const host = this.deps.host;
		this.ctx.log('I', 'kubelet.go:1712', 'Kubelet stopping; containers keep running', {});
		host.service = { ...host.service, active: false, mainPid: 0, sinceWallMs: this.kernel.wallMsOn(this.nodeName) };
	}

	/** syncLoopIteration: each event goes to the manager it is for. */
	handle(event: QueuedEvent): void {
		const ctx = this.ctx;
		try {
			if (this.podInformer.handle(event)) return;
			if (this.nodeInformer.handle(event)) return;
			if (this.serviceInformer.handle(event)) return;
			switch (event.kind) {
				case 'register':
					register(ctx);
					break;
				case 'node-status':
					updateNodeStatus(ctx);
					this.periodic(this.ctx.config.nodeStatusUpdateFrequencyMs, 'node-status');
					break;
				case 'lease':
					renewLease(ctx);
					break;
				case 'runtime-check':
					updateRuntimeUp(ctx);
					this.periodic(this.ctx.config.runtimeCheckPeriodMs, 'runtime-check');
					break;
				case 'housekeeping':
					housekeeping(ctx);
					this.periodic(this.ctx.config.housekeepingPeriodMs, 'housekeeping');
					break;
				case 'status-sync':
					reconcileStatuses(ctx);
					this.periodic(STATUS_SYNC_PERIOD_MS, 'status-sync');
					break;
				case 'eviction':
					synchronizeEviction(ctx);
					this.periodic(EVICTION_MONITORING_PERIOD_MS, 'eviction');
					break;
				case 'file-check':
					readManifests(ctx);
					this.periodic(this.ctx.config.fileCheckFrequencyMs, 'file-check');
					break;
				case 'pod-sync': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w || w.syncAtMs !== atMs) break;
					w.syncAtMs = undefined;
					syncPod(ctx, w);
					break;
				}
				case 'volume-reconcile': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w?.volumes || w.volumes.retryAtMs !== atMs) break;
					w.volumes.retryAtMs = undefined;
					onVolumeRetry(ctx, w);
					break;
				}
				case 'volume-resync': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w?.volumes || w.volumes.resyncAtMs !== atMs) break;
					w.volumes.resyncAtMs = undefined;
					resyncVolumes(ctx, w);
					break;
				}
				case 'probe-tick': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w || w.probeAtMs !== atMs) break;
					w.probeAtMs = undefined;
					runProbes(ctx, w);
					break;
				}
				case CRI_EVENT_KIND:
					onCri(ctx, event.payload as CriEvent);
					break;
			}
		} catch (error) {
			ctx.log('E', 'kubelet.go:2460', 'Unexpected error in the kubelet', { err: error instanceof Error ? error.message : String(error), event: event.kind });
		}
	}

	// ---- serving: logs, exec, node tools --------------------------------------------------------------

	/**
	 * GET /containerLogs/<ns>/<pod>/<container>: what `kubectl logs` prints.
	 * Lines end with a newline; `timestamps` prefixes each with its RFC 3339 time.
	 */
	serveLog(namespace: string, pod: string, container: string | undefined, options: LogOptions = {}): ServeResult<string> {
		return serveLog(this.ctx, namespace, pod, container, options);
	}

	/**
	 * GET /metrics/resource: CPU and memory of the node, its pods and their
	 * containers in Prometheus' text format (what metrics-server scrapes).
	 * Undefined while the kubelet is not running (nothing listens on 10250).
	 */
	resourceMetrics(facts: { controlPlane: boolean; bootWallMs: number }): string | undefined {
		if (!this.kernel.isRunning(this.id)) return undefined;
		return resourceMetricsText(this.deps.runtime, { ...facts, wallMs: this.kernel.wallMsOn(this.nodeName) });
	}

	/** POST /exec/<ns>/<pod>/<container>: runs a command in a running container (kubectl exec). */
	exec(namespace: string, pod: string, container: string | undefined, argv: string[], stdin?: string): ServeResult<{ exitCode: number; stdout: string; stderr: string }> {
		return exec(this.ctx, namespace, pod, container, argv, stdin);
	}

	/**
	 * GET /pods: the pods bound to this node as the kubelet knows them (its
	 * pod manager's copies, API and static), a PodList in the API's shape.
	 * Undefined while the kubelet is not running.
	 */
	podList(): { kind: 'PodList'; apiVersion: 'v1'; metadata: Record<string, never>; items: unknown[] } | undefined {
		if (!this.kernel.isRunning(this.id)) return undefined;
		const items = Object.values(this.state.pods)
			.filter((w) => !w.removedFromSource)
			.map((w) => w.pod);
		return { kind: 'PodList', apiVersion: 'v1', metadata: {}, items };
	}

	/** Whether the kubelet process runs (something listens on 10250). */
	get serving(): boolean {
		return this.kernel.isRunning(this.id);
	}

	/** The pods this kubelet runs, with their UID and source (for node tools). */
	runningPods(): Array<{ namespace: string; name: string; uid: string; source: 'api' | 'file' }> {
		return Object.values(this.state.pods)
			.filter((w) => !w.removedFromSource)
			.map((w) => ({ namespace: w.pod.metadata.namespace ?? 'default', name: w.pod.metadata.name ?? '', uid: w.uid, source: w.source }))
			.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
	}

	/** The kubelet's journal (journalctl -u kubelet) and service state (systemctl status kubelet). */
	get hostState(): KubeletUnitRecord {
		return this.deps.host;
	}
}
