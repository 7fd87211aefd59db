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
 * Mirrors pkg/kubelet: kubelet.go (syncLoop, HandlePod*, syncPod,
 * syncTerminatingPod), kubelet_node_status.go (registerWithAPIServer,
 * updateNodeStatus), kuberuntime/kuberuntime_manager.go (computePodActions,
 * SyncPod), kuberuntime/kuberuntime_container.go (startContainer,
 * killContainer), images/image_manager.go, prober/, status/status_manager.go,
 * volumemanager/ (through ./volumes),
 * pod_workers.go, and component-helpers/apimachinery/lease (the node lease).
 */
import type { ConfigMap, Container, KubeObject, Node, NodeStatus, Pod, PodStatus, Secret, Taint } from '../api/types.ts';
import { formatGoDurationMs } from '../golang/duration.ts';
import { R, type ApiClient, type CallResult } from '../client/client.ts';
import { EventRecorder, emptyRecorder, type RecorderState } from '../client/events.ts';
import { Informer, emptyInformer, keyOf, type InformerState } from '../client/informer.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { formatRfc3339, formatRfc3339Micro, parseRfc3339 } from '../golang/time.ts';
import { admitPod } from './admission.ts';
import { backoffGc, backoffGet, backoffNext, CRASH_LOOP_BACKOFF, IMAGE_PULL_BACKOFF, isInBackOffSince, isInBackOffSinceUpdate, type BackoffState } from './backoff.ts';
import { CRI_EVENT_KIND, criErrorText, type ContainerInfo, type CriEvent, type CriRuntime, type SandboxInfo } from '../cri-api/cri.ts';
import { containerEnv } from './env.ts';
import { appendJournal, type KubeletHostState } from './journal.ts';
import { klogRecord, type KlogValue } from '../component-base/klog.ts';
import { defaultPullPolicy, withDefaultTag } from './image-manager.ts';
import { renewNodeLease } from './node-lease.ts';
import { initialNode, nodeImages, nodeStatusHasChanged, setNodeConditions, type NodeCapacity, type NodeIdentity } from './node-status.ts';
import { attemptsOf, generatePodStatus, isRestartableInit, rejectedPodStatus, shouldRestart, type WaitingReason } from './pod-status.ts';
import { initialResult, probeOf, probeSetting, probeTypeName, recordProbeResult, resetProbeWorker, runProbe, type ProbeType, type ProbeWorker } from './prober.ts';
import { badRequest, logContainerId, notFound, type ServeResult } from './server.ts';
import { CONFIG_MIRROR_ANNOTATION, FILE_CHECK_FREQUENCY_MS, hash128, isMirrorPod, mirrorPodFor, staticPodFromManifest, type ManifestFile } from './static-pods.ts';
import { makeMounts } from './volumes/container-mounts.ts';
import { cacheSyncError, notFoundError, type LookupResult, type ObjectLookup } from './volumes/lookup.ts';
import type { NodeDisk } from './volumes/node-disk.ts';
import { KUBELET_ROOT_DIR, podDir } from './volumes/paths.ts';
import { SERVICE_ACCOUNT_ISSUER, type IssuedToken, type TokenSubject } from './volumes/service-account-token.ts';
import { hasRemountableVolumes, markRemount, newPodVolumes, nextRetryAtMs, pollNoticesAtMs, POD_ATTACH_AND_MOUNT_TIMEOUT_MS, reconcilePod, SYNC_FREQUENCY_MS, unmountedVolumes, waitTimeoutError, type PodVolumes } from './volumes/volume-manager.ts';
import { deepCopy } from '../golang/json.ts';

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
}

export const DEFAULT_KUBELET_CONFIG: KubeletConfig = {
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
};

/** nodeLeaseRenewIntervalFraction (pkg/kubelet/kubelet.go). */
const LEASE_RENEW_FRACTION = 0.25;
/** minimumGracePeriodInSeconds (kuberuntime_container.go): a kill never waits less than 2 s. */
const MINIMUM_GRACE_PERIOD_S = 2;
/** backOffPeriod (kubelet.go): a pod worker whose sync failed tries again 10 s later. */
const POD_WORKER_BACKOFF_MS = 10_000;
/** Bounds: node events held before registration, manifests read per scan. */
const MAX_PENDING_NODE_EVENTS = 20;
const MAX_STATIC_MANIFESTS = 100;
/** Bound on the orphaned pod directories one housekeeping pass looks at. */
const MAX_ORPHAN_DIRS_PER_PASS = 200;
/** The kubelet's version (FACTS.md: v1.36.3). */
export const KUBELET_VERSION = 'v1.36.3';

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
	runtime: CriRuntime;
	/** An API client acting as this process (identity system:node:<node>). */
	client: ApiClient;
	/** Durable journal and service state of this node's kubelet. */
	host: KubeletHostState;
	/** The files of /etc/kubernetes/manifests, read at start and every fileCheckFrequency. */
	staticPodManifests?: () => ManifestFile[];
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
	config?: Partial<KubeletConfig>;
	/**
	 * The machine's boot ID (/proc/sys/kernel/random/boot_id), read at each
	 * start: a new one after a reboot. Without it, one fixed ID per node.
	 */
	bootId?: () => string;
}

/** An in-flight asynchronous CRI call of a pod. */
interface PodOp {
	opId: number;
	kind: 'sandbox' | 'pull';
	container?: string;
	image?: string;
}

/** The kubelet's view of one pod (its pod worker). Plain JSON. */
export interface PodWorker {
	uid: string;
	source: 'api' | 'file';
	pod: Pod;
	manifestPath?: string;
	admitted: boolean;
	rejected?: { reason: string; message: string };
	startTime?: string;
	addedMs: number;
	sandboxId?: string;
	podIp?: string;
	op?: PodOp;
	justPulled?: { container: string; imageRef: string };
	waiting: Record<string, WaitingReason>;
	/** Containers killed by a probe: restart at once, without back-off. */
	restartNow: Record<string, boolean>;
	probes: Record<string, ProbeWorker>;
	termination?: { startedMs: number; gracePeriodS: number };
	/** The volume manager's state for this pod (set at its first sync). */
	volumes?: PodVolumes;
	terminated?: boolean;
	removedFromSource?: boolean;
	finalDeleteSent?: boolean;
	lastStatusJson?: string;
	syncAtMs?: number;
	probeAtMs?: number;
}

export interface KubeletState {
	pid: number;
	startedMs: number;
	registered: boolean;
	nodeUid?: string;
	/** The Node as last read from or written to the API. */
	node?: Node;
	registerDelayMs: number;
	/** lastNodeUnschedulable: the spec.unschedulable last seen, for the NodeSchedulable / NodeNotSchedulable events. */
	lastNodeUnschedulable?: boolean;
	nodeStatus: { lastPostedMs: number; everPosted: boolean; busy: boolean };
	runtime: { lastOkMs?: number; networkError?: string; down: boolean };
	leaseDelayMs: number;
	podInformer: InformerState;
	recorder: RecorderState;
	/** Node events recorded before the Node exists (sent after registration). */
	pendingNodeEvents: Array<{ type: 'Normal' | 'Warning'; reason: string; message: string }>;
	pods: Record<string, PodWorker>;
	crashBackoff: BackoffState;
	imageBackoff: BackoffState;
	/** The last pull error per back-off key (shown with ImagePullBackOff). */
	lastPullError: Record<string, string>;
	/** Static pod manifest path → when the kubelet first saw its current content. */
	staticSeen: Record<string, { uid: string; seen: string }>;
	/** Counter for sub-millisecond journal digits. */
	logSeq: number;
}

export class Kubelet extends ProcessBase<KubeletState> {
	readonly config: KubeletConfig;
	readonly nodeName: string;
	private readonly runtime: CriRuntime;
	private readonly client: ApiClient;
	private readonly podInformer: Informer;
	private readonly recorder: EventRecorder;
	private readonly identity: NodeIdentity;

	constructor(
		kernel: Kernel,
		private readonly deps: KubeletDeps,
	) {
		super(`kubelet/${deps.nodeName}`, kernel);
		this.config = { ...DEFAULT_KUBELET_CONFIG, ...deps.config };
		this.nodeName = deps.nodeName;
		this.runtime = deps.runtime;
		this.client = deps.client;
		this.podInformer = new Informer(
			'pods',
			kernel,
			this.id,
			this.client,
			{ ...R.pods, fieldSelector: `spec.nodeName=${deps.nodeName}` },
			{
				onAdd: (obj) => this.onPodAdd(obj as Pod),
				onUpdate: (oldObj, newObj) => this.onPodUpdate(oldObj as Pod, newObj as Pod),
				onDelete: (obj) => this.onPodDelete(obj as Pod),
			},
			() => this.state.podInformer,
		);
		this.recorder = new EventRecorder(kernel, this.client, { component: 'kubelet', host: deps.nodeName }, () => this.state.recorder);
		const machine = hash128(`machine:${deps.nodeName}`);
		const uuid = hash128(`system-uuid:${deps.nodeName}`);
		this.identity = {
			name: deps.nodeName,
			ip: deps.nodeIp,
			labels: deps.labels,
			annotations: deps.annotations,
			taints: deps.taints,
			capacity: deps.capacity,
			kubeletVersion: deps.kubeletVersion ?? KUBELET_VERSION,
			containerRuntimeVersion: deps.containerRuntimeVersion ?? 'containerd://2.2.1',
			osImage: deps.osImage ?? 'Ubuntu 24.04.3 LTS',
			kernelVersion: deps.kernelVersion ?? '6.8.0-88-generic',
			machineId: machine,
			systemUuid: `${uuid.slice(0, 8)}-${uuid.slice(8, 12)}-${uuid.slice(12, 16)}-${uuid.slice(16, 20)}-${uuid.slice(20, 32)}`,
			bootId: (() => {
				const b = hash128(`boot:${deps.nodeName}`);
				return `${b.slice(0, 8)}-${b.slice(8, 12)}-4${b.slice(13, 16)}-a${b.slice(17, 20)}-${b.slice(20, 32)}`;
			})(),
		};
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
		const host = this.deps.host;
		// The machine may have rebooted since the last start (MachineInfo's BootID is read at start-up).
		const bootId = this.deps.bootId?.();
		if (bootId) this.identity.bootId = bootId;
		// A new PID at every start, a little above the last one (other processes start in between).
		this.state.pid = host.nextPid;
		host.nextPid += 7 + this.rng.int(40);
		this.state.startedMs = this.nowMs;
		host.service = { active: true, mainPid: this.state.pid, sinceWallMs: this.kernel.wallMs(), starts: host.service.starts + 1 };
		this.log('I', 'server.go:525', 'Kubelet starting', { version: this.identity.kubeletVersion, node: this.nodeName });
		const version = this.runtime.version();
		if (version.ok) this.log('I', 'kuberuntime_manager.go:263', 'Container runtime initialized', { containerRuntime: version.value.runtimeName, version: version.value.runtimeVersion, apiVersion: version.value.runtimeApiVersion });
		else this.log('E', 'kuberuntime_manager.go:255', 'Container runtime not reachable yet', { endpoint: 'unix:///var/run/containerd/containerd.sock', err: criErrorText(version.error) });
		this.log('I', 'file_linux.go:63', 'Watching the static pod directory', { path: '/etc/kubernetes/manifests' });
		this.emit({ action: 'start', msg: `kubelet ${this.identity.kubeletVersion} started on ${this.nodeName}` });
		this.nodeEvent('Normal', 'Starting', 'Starting kubelet.');
		this.nodeEvent('Normal', 'NodeAllocatableEnforced', 'Updated Node Allocatable limit across pods');
		this.podInformer.start();
		this.readManifests();
		this.register();
		this.renewLease();
		this.after(0, 'runtime-check', undefined, { background: true });
		this.periodic(this.config.housekeepingPeriodMs, 'housekeeping');
		this.periodic(this.config.fileCheckFrequencyMs, 'file-check');
		this.periodic(this.config.nodeStatusUpdateFrequencyMs, 'node-status');
	}

	onStop(): void {
		const host = this.deps.host;
		this.log('I', 'kubelet.go:1712', 'Kubelet stopping; containers keep running', {});
		host.service = { ...host.service, active: false, mainPid: 0, sinceWallMs: this.kernel.wallMs() };
	}

	handle(event: QueuedEvent): void {
		try {
			if (this.podInformer.handle(event)) return;
			switch (event.kind) {
				case 'register':
					this.register();
					break;
				case 'node-status':
					this.updateNodeStatus();
					this.periodic(this.config.nodeStatusUpdateFrequencyMs, 'node-status');
					break;
				case 'lease':
					this.renewLease();
					break;
				case 'runtime-check':
					this.updateRuntimeUp();
					this.periodic(this.config.runtimeCheckPeriodMs, 'runtime-check');
					break;
				case 'housekeeping':
					this.housekeeping();
					this.periodic(this.config.housekeepingPeriodMs, 'housekeeping');
					break;
				case 'file-check':
					this.readManifests();
					this.periodic(this.config.fileCheckFrequencyMs, 'file-check');
					break;
				case 'pod-sync': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w || w.syncAtMs !== atMs) break;
					w.syncAtMs = undefined;
					this.syncPod(w);
					break;
				}
				case 'volume-reconcile': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w?.volumes || w.volumes.retryAtMs !== atMs) break;
					w.volumes.retryAtMs = undefined;
					this.onVolumeRetry(w);
					break;
				}
				case 'volume-resync': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w?.volumes || w.volumes.resyncAtMs !== atMs) break;
					w.volumes.resyncAtMs = undefined;
					this.resyncVolumes(w);
					break;
				}
				case 'probe-tick': {
					const { uid, atMs } = event.payload as { uid: string; atMs: number };
					const w = this.state.pods[uid];
					if (!w || w.probeAtMs !== atMs) break;
					w.probeAtMs = undefined;
					this.runProbes(w);
					break;
				}
				case CRI_EVENT_KIND:
					this.onCri(event.payload as CriEvent);
					break;
			}
		} catch (error) {
			this.log('E', 'kubelet.go:2460', 'Unexpected error in the kubelet', { err: error instanceof Error ? error.message : String(error), event: event.kind });
		}
	}

	// ---- journal and events -------------------------------------------------------------------

	/** Writes one klog line to the node's journal. */
	private log(severity: 'I' | 'W' | 'E', source: string, message: string, kv: Record<string, unknown>): void {
		const seq = this.state.logSeq++;
		appendJournal(this.deps.host, { wallMs: this.kernel.wallMs(), pid: this.state.pid, line: klogRecord(severity, this.kernel.wallMs(), this.state.pid, source, message, kv as Record<string, KlogValue | undefined>, (seq * 37) % 1000) });
	}

	private nodeRef(): KubeObject {
		// The kubelet refers to its Node with the node name as UID (kl.nodeRef).
		return { apiVersion: 'v1', kind: 'Node', metadata: { name: this.nodeName, uid: this.nodeName } };
	}

	/** Records a Node event; before registration they wait (bounded). */
	private nodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
		if (!this.state.registered) {
			if (this.state.pendingNodeEvents.length < MAX_PENDING_NODE_EVENTS) this.state.pendingNodeEvents.push({ type, reason, message });
			return;
		}
		this.recorder.record(this.nodeRef(), type, reason, message);
	}

	private podEvent(w: PodWorker, type: 'Normal' | 'Warning', reason: string, message: string, container?: string, init = false): void {
		const fieldPath = container ? `spec.${init ? 'initContainers' : 'containers'}{${container}}` : undefined;
		const involved = w.source === 'api' ? (this.podInformer.get(keyOf(w.pod)) ?? w.pod) : w.pod;
		this.recorder.record(involved, type, reason, message, fieldPath);
	}

	/** `Post "https://192.168.56.10:6443/api/v1/nodes": dial tcp ...` from a failed call. */
	private callError(result: CallResult<unknown>, method: string, path: string): string {
		if (result.ok) return '';
		if (!result.transport) return result.message;
		const address = /dial tcp ([^:]+:\d+)/.exec(result.message)?.[1] ?? 'kube-apiserver';
		return `${method} "https://${address}${path}": ${result.message}`;
	}

	// ---- registration, node status, lease ---------------------------------------------------

	private register(): void {
		if (this.state.registered) return;
		this.log('I', 'kubelet_node_status.go:75', 'Registering the node with the API server', { node: this.nodeName });
		const node = initialNode(this.identity);
		const created = this.client.create<Node>(R.nodes, undefined, node);
		if (created.ok) return this.registered(created.object);
		if (created.code === 409) {
			const existing = this.client.get<Node>(R.nodes, undefined, this.nodeName);
			if (existing.ok) return this.registered(existing.object);
		}
		const step = this.state.registerDelayMs === 0 ? this.config.registerInitialBackoffMs : Math.min(this.state.registerDelayMs * 2, this.config.registerMaxBackoffMs);
		this.state.registerDelayMs = step;
		this.log('E', 'kubelet_node_status.go:107', 'Node registration failed; retrying', { err: this.callError(created, 'Post', '/api/v1/nodes'), node: this.nodeName });
		this.after(step, 'register', undefined, { background: true });
	}

	private registered(node: Node): void {
		this.state.registered = true;
		this.state.registerDelayMs = 0;
		this.state.node = node;
		this.state.nodeUid = node.metadata.uid;
		this.log('I', 'kubelet_node_status.go:78', 'Node registered with the API server', { node: this.nodeName });
		this.emit({ action: 'register', object: `nodes/${this.nodeName}`, msg: `registered node ${this.nodeName}` });
		for (const e of this.state.pendingNodeEvents.splice(0)) this.recorder.record(this.nodeRef(), e.type, e.reason, e.message);
		this.updateNodeStatus(true);
		this.syncMirrorPods();
	}

	/** The runtime's health as the Ready condition sees it (runtimeState.runtimeErrors / networkErrors). */
	private runtimeErrors(): { runtime: string[]; network: string[] } {
		const rt = this.state.runtime;
		const errors: string[] = [];
		if (rt.lastOkMs === undefined) errors.push('container runtime status check may not have completed yet');
		else if (this.nowMs - rt.lastOkMs >= this.config.maxWaitForContainerRuntimeMs) errors.push('container runtime is down');
		if (rt.lastOkMs !== undefined && this.nowMs - rt.lastOkMs > this.config.plegRelistThresholdMs) {
			errors.push(`PLEG is not healthy: pleg was last seen active ${formatGoDurationMs(this.nowMs - rt.lastOkMs)} ago; threshold is ${formatGoDurationMs(this.config.plegRelistThresholdMs)}`);
		}
		return { runtime: errors, network: rt.networkError ? [rt.networkError] : [] };
	}

	/** updateRuntimeUp: asks the runtime for its status every 5 s. */
	private updateRuntimeUp(): void {
		const before = this.runtimeErrors();
		const status = this.runtime.status();
		const rt = this.state.runtime;
		if (!status.ok) {
			if (!rt.down) this.log('E', 'kubelet.go:3016', 'Container runtime is not answering', { err: criErrorText(status.error) });
			rt.down = true;
		} else {
			rt.down = false;
			rt.lastOkMs = this.nowMs;
			const network = status.value.find((c) => c.type === 'NetworkReady');
			rt.networkError = network && !network.status ? `container runtime network not ready: NetworkReady=false reason:${network.reason} message:${network.message}` : undefined;
		}
		// Readiness changed: post it at once rather than at the next tick (fastStatusUpdateOnce).
		const after = this.runtimeErrors();
		if (JSON.stringify(before) !== JSON.stringify(after) && this.state.registered) this.updateNodeStatus();
	}

	/** updateNodeStatus: compute every tick, post when changed or when the report is due. */
	private updateNodeStatus(force = false): void {
		if (!this.state.registered || this.state.nodeStatus.busy) return;
		this.state.nodeStatus.busy = true;
		try {
			const got = this.client.get<Node>(R.nodes, undefined, this.nodeName);
			if (!got.ok) {
				this.log('E', 'kubelet_node_status.go:535', 'Could not update the node status; retrying at the next tick', { err: got.code === 404 ? `nodes "${this.nodeName}" not found` : this.callError(got, 'Get', `/api/v1/nodes/${this.nodeName}`) });
				return;
			}
			const current = got.object;
			this.state.node = current;
			// The MachineInfo setter (nodestatus/setters.go) notices a new boot ID: the node rebooted.
			const previousBoot = current.status?.nodeInfo?.bootID;
			const rebooted = !!previousBoot && previousBoot !== this.identity.bootId;
			const updated: Node = deepCopy(current);
			const status: NodeStatus = (updated.status ??= {});
			const fresh = initialNode(this.identity).status!;
			status.capacity = fresh.capacity;
			status.allocatable = fresh.allocatable;
			status.addresses = fresh.addresses;
			status.daemonEndpoints = fresh.daemonEndpoints;
			status.nodeInfo = fresh.nodeInfo;
			const images = this.runtime.listImages();
			if (images.ok) status.images = nodeImages(images.value);
			const errors = this.runtimeErrors();
			const now = formatRfc3339(this.kernel.wallMs());
			const events: Array<[string, string]> = [];
			setNodeConditions(status, now, { runtimeErrors: errors.runtime, networkErrors: errors.network }, (type, reason) => events.push([type, reason]));
			// recordNodeSchedulableEvent, the last setter: a cordon or uncordon seen since the last pass (a fresh kubelet starts from false).
			const unschedulable = current.spec?.unschedulable === true;
			if ((this.state.lastNodeUnschedulable ?? false) !== unschedulable) {
				const reason = unschedulable ? 'NodeNotSchedulable' : 'NodeSchedulable';
				this.nodeEvent('Normal', reason, `Node ${this.nodeName} status is now: ${reason}`);
				this.state.lastNodeUnschedulable = unschedulable;
			}
			const due = !this.state.nodeStatus.everPosted || this.nowMs - this.state.nodeStatus.lastPostedMs >= this.config.nodeStatusReportFrequencyMs;
			if (!force && !due && !rebooted && !nodeStatusHasChanged(current.status, status)) return;
			delete updated.metadata.resourceVersion;
			const written = this.client.updateStatus<Node>(R.nodes, updated);
			if (!written.ok) {
				this.log('E', 'kubelet_node_status.go:535', 'Could not update the node status; retrying at the next tick', { err: this.callError(written, 'Put', `/api/v1/nodes/${this.nodeName}/status`) });
				return;
			}
			this.state.node = written.object;
			this.state.nodeStatus.lastPostedMs = this.nowMs;
			this.state.nodeStatus.everPosted = true;
			this.emit({ action: 'node-status', object: `nodes/${this.nodeName}`, msg: `posted node status (Ready=${status.conditions?.find((c) => c.type === 'Ready')?.status})` });
			if (rebooted) this.nodeEvent('Warning', 'Rebooted', `Node ${this.nodeName} has been rebooted, boot id: ${this.identity.bootId}`);
			for (const [type, reason] of events) this.nodeEvent(type as 'Normal', reason, `Node ${this.nodeName} status is now: ${reason}`);
		} finally {
			this.state.nodeStatus.busy = false;
		}
	}

	/** The node lease in kube-node-lease, renewed every 10 s; retried with back-off while the API server is away. */
	private renewLease(): void {
		const result = renewNodeLease(this.client, this.nodeName, this.state.nodeUid, this.config.nodeLeaseDurationSeconds, formatRfc3339Micro(this.kernel.wallMs()));
		if (result.ok) {
			this.state.leaseDelayMs = 0;
			this.emit({ action: 'renew', object: `leases/kube-node-lease/${this.nodeName}`, msg: 'renewed node lease' });
			this.after(this.config.nodeLeaseDurationSeconds * 1000 * LEASE_RENEW_FRACTION, 'lease', undefined, { background: true, origin: `periodic:${this.id}:lease` });
			return;
		}
		const delay = this.state.leaseDelayMs === 0 ? this.config.leaseRetryInitialMs : Math.min(this.state.leaseDelayMs * 2, this.config.leaseRetryMaxMs);
		this.state.leaseDelayMs = delay;
		if (delay === this.config.leaseRetryInitialMs || delay === this.config.leaseRetryMaxMs) {
			this.log('E', 'controller.go:145', 'Could not renew the node lease; retrying', { err: this.callError(result, result.method, `/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/${this.nodeName}`), interval: formatGoDurationMs(delay) });
		}
		this.after(delay, 'lease', undefined, { background: true, origin: `periodic:${this.id}:lease` });
	}

	// ---- pod sources -------------------------------------------------------------------------

	private onPodAdd(pod: Pod): void {
		if (isMirrorPod(pod)) {
			if (pod.metadata.deletionTimestamp) this.syncMirrorPods();
			// The static pod's status now has somewhere to go.
			const w = this.state.pods[pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] ?? ''];
			if (w) {
				w.lastStatusJson = undefined;
				this.requestSync(w, 0, false);
			}
			return;
		}
		if (pod.spec.nodeName !== this.nodeName || !pod.metadata.uid) return;
		const uid = pod.metadata.uid;
		if (this.state.pods[uid]) return;
		this.log('I', 'kubelet.go:2519', 'Pod added to the sync loop', { source: 'api', pod: keyOf(pod) });
		this.state.pods[uid] = this.newWorker(uid, 'api', deepCopy(pod));
		this.requestSync(this.state.pods[uid], 0, false);
	}

	private onPodUpdate(oldPod: Pod, pod: Pod): void {
		if (isMirrorPod(pod)) {
			if (pod.metadata.deletionTimestamp && !oldPod.metadata.deletionTimestamp) this.syncMirrorPods();
			return;
		}
		const w = pod.metadata.uid ? this.state.pods[pod.metadata.uid] : undefined;
		if (!w) return this.onPodAdd(pod);
		const deleting = pod.metadata.deletionTimestamp && !oldPod.metadata.deletionTimestamp;
		if (deleting) this.log('I', 'kubelet.go:2531', 'Pod marked for deletion', { source: 'api', pod: keyOf(pod), gracePeriod: pod.metadata.deletionGracePeriodSeconds });
		const specChanged = JSON.stringify(oldPod.spec) !== JSON.stringify(pod.spec) || JSON.stringify(oldPod.metadata.deletionTimestamp) !== JSON.stringify(pod.metadata.deletionTimestamp);
		const metadataChanged = JSON.stringify(oldPod.metadata.labels ?? {}) !== JSON.stringify(pod.metadata.labels ?? {}) || JSON.stringify(oldPod.metadata.annotations ?? {}) !== JSON.stringify(pod.metadata.annotations ?? {});
		w.pod = deepCopy(pod);
		if (specChanged || deleting) this.requestSync(w, 0, false);
		// Any pod update syncs the pod, and a sync remounts its volumes: downward API files follow labels and annotations.
		else if (metadataChanged && w.volumes && unmountedVolumes(w.volumes).length === 0) this.scheduleVolumeResync(w, 0);
	}

	private onPodDelete(pod: Pod): void {
		if (isMirrorPod(pod)) {
			// A deleted mirror pod is published again while its static pod runs.
			this.syncMirrorPods();
			return;
		}
		const w = pod.metadata.uid ? this.state.pods[pod.metadata.uid] : undefined;
		if (!w) return;
		this.log('I', 'kubelet.go:2541', 'Pod removed from the sync loop', { source: 'api', pod: keyOf(pod) });
		w.removedFromSource = true;
		this.requestSync(w, 0, false);
	}

	private newWorker(uid: string, source: 'api' | 'file', pod: Pod): PodWorker {
		return { uid, source, pod, admitted: false, addedMs: this.nowMs, waiting: {}, restartNow: {}, probes: {} };
	}

	/** Reads /etc/kubernetes/manifests: new manifests start pods, vanished or changed ones stop theirs. */
	private readManifests(): void {
		const files = this.deps.staticPodManifests?.() ?? [];
		const seenUids = new Set<string>();
		for (const file of files.slice(0, MAX_STATIC_MANIFESTS)) {
			const known = this.state.staticSeen[file.path];
			const seen = known?.seen ?? formatRfc3339Micro(this.kernel.wallMs()).replace(/Z$/, '000Z');
			const parsed = staticPodFromManifest(file, this.nodeName, seen);
			if (!parsed.ok) {
				this.log('E', 'file.go:205', 'Could not read a static pod manifest', { path: file.path, err: parsed.error });
				continue;
			}
			const pod = parsed.pod;
			const uid = pod.metadata.uid!;
			if (known && known.uid !== uid) {
				// Changed content: a new pod; re-stamp when it was seen.
				pod.metadata.annotations!['kubernetes.io/config.seen'] = formatRfc3339Micro(this.kernel.wallMs()).replace(/Z$/, '000Z');
			}
			this.state.staticSeen[file.path] = { uid, seen: pod.metadata.annotations!['kubernetes.io/config.seen'] };
			seenUids.add(uid);
			if (!this.state.pods[uid]) {
				this.log('I', 'kubelet.go:2519', 'Pod added to the sync loop', { source: 'file', pod: keyOf(pod) });
				const w = this.newWorker(uid, 'file', pod);
				w.manifestPath = file.path;
				this.state.pods[uid] = w;
				this.requestSync(w, 0, false);
			}
		}
		for (const [path, info] of Object.entries(this.state.staticSeen)) if (!files.some((f) => f.path === path) || !seenUids.has(info.uid)) delete this.state.staticSeen[path];
		for (const w of Object.values(this.state.pods)) {
			if (w.source !== 'file' || seenUids.has(w.uid) || w.removedFromSource) continue;
			this.log('I', 'kubelet.go:2541', 'Pod removed from the sync loop', { source: 'file', pod: keyOf(w.pod) });
			w.removedFromSource = true;
			this.requestSync(w, 0, false);
		}
	}

	// ---- scheduling pod work ---------------------------------------------------------------------

	/** Asks for a sync of `w` after `delayMs`, unless one is already due sooner. */
	private requestSync(w: PodWorker, delayMs: number, background: boolean): void {
		const at = this.nowMs + Math.max(0, delayMs);
		if (w.syncAtMs !== undefined && w.syncAtMs <= at) return;
		w.syncAtMs = at;
		this.after(at - this.nowMs, 'pod-sync', { uid: w.uid, atMs: at }, { background });
	}

	private onCri(event: CriEvent): void {
		switch (event.type) {
			case 'runtime-started':
				this.state.runtime.lastOkMs = this.nowMs;
				this.state.runtime.down = false;
				for (const w of Object.values(this.state.pods)) this.requestSync(w, 0, false);
				return;
			case 'container-exited': {
				const w = this.state.pods[event.podUid];
				if (w) this.requestSync(w, 0, false);
				return;
			}
			case 'sandbox-ready': {
				const w = Object.values(this.state.pods).find((p) => p.op?.opId === event.opId && p.op.kind === 'sandbox');
				if (!w) {
					// The pod went away meanwhile: the sandbox is an orphan for housekeeping.
					return;
				}
				w.op = undefined;
				if (event.ok) w.sandboxId = event.sandboxId;
				else {
					this.podEvent(w, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${criErrorText(event.error)}`);
					this.log('E', 'kuberuntime_sandbox.go:72', 'Could not create the pod sandbox', { err: criErrorText(event.error), pod: keyOf(w.pod) });
					this.requestSync(w, POD_WORKER_BACKOFF_MS, true);
					return;
				}
				this.requestSync(w, 0, false);
				return;
			}
			case 'pull-done': {
				const w = Object.values(this.state.pods).find((p) => p.op?.opId === event.opId && p.op.kind === 'pull');
				if (!w || !w.op) return;
				const op = w.op;
				w.op = undefined;
				const image = op.image ?? event.image;
				const container = op.container ?? '';
				const isInit = (w.pod.spec.initContainers ?? []).some((c) => c.name === container);
				const key = `${w.uid}_${image}`;
				if (event.ok) {
					this.podEvent(w, 'Normal', 'Pulled', `Successfully pulled image "${image}" in ${formatGoDurationMs(event.pullMs)} (${formatGoDurationMs(event.totalMs)} including waiting). Image size: ${event.sizeBytes} bytes.`, container, isInit);
					w.justPulled = { container, imageRef: event.imageRef };
					delete w.waiting[container];
					backoffGc(this.state.imageBackoff, IMAGE_PULL_BACKOFF, this.nowMs);
					this.requestSync(w, 0, false);
					return;
				}
				const text = criErrorText(event.error);
				this.podEvent(w, 'Warning', 'Failed', `Failed to pull image "${image}": ${text}`, container, isInit);
				backoffNext(this.state.imageBackoff, IMAGE_PULL_BACKOFF, key, this.nowMs, this.nowMs);
				this.state.lastPullError[key] = text;
				w.waiting[container] = { reason: 'ErrImagePull', message: text };
				this.podEvent(w, 'Warning', 'Failed', 'Error: ErrImagePull', container, isInit);
				this.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `failed to "StartContainer" for "${container}" with ErrImagePull: "${text.replace(/"/g, '\\"')}"`, pod: keyOf(w.pod), podUID: w.uid });
				this.writeStatus(w);
				// The PLEG's next relist syncs the pod again: the pull is then in back-off.
				this.requestSync(w, this.config.plegRelistPeriodMs, false);
				return;
			}
		}
	}

	// ---- housekeeping -------------------------------------------------------------------------

	/** HandlePodCleanups: orphaned sandboxes, finished workers, mirror pods. */
	private housekeeping(): void {
		if (this.podInformer.synced) {
			const sandboxes = this.runtime.listPodSandbox();
			if (sandboxes.ok) {
				for (const s of sandboxes.value) {
					if (this.state.pods[s.podUid]) continue;
					const containers = this.runtime.listContainers({ sandboxId: s.id });
					const running = containers.ok ? containers.value.filter((c) => c.state === 'CONTAINER_RUNNING') : [];
					if (running.length) {
						for (const c of running) {
							this.log('I', 'kubelet_pods.go:1175', 'Stopping a container of a pod the kubelet no longer knows', { podUID: s.podUid, containerName: c.name, gracePeriod: MINIMUM_GRACE_PERIOD_S });
							this.runtime.stopContainer(c.id, MINIMUM_GRACE_PERIOD_S);
						}
						continue;
					}
					this.runtime.removePodSandbox(s.id);
				}
			}
		}
		this.syncMirrorPods();
		this.cleanupOrphanedPodDirs();
	}

	/** Publishes a mirror pod for each static pod, and removes mirror pods without one. */
	private syncMirrorPods(): void {
		if (!this.state.registered || !this.podInformer.synced || !this.state.node) return;
		const wanted = new Map<string, PodWorker>();
		for (const w of Object.values(this.state.pods)) if (w.source === 'file' && !w.removedFromSource) wanted.set(keyOf(w.pod), w);
		for (const pod of this.podInformer.list() as Pod[]) {
			if (!isMirrorPod(pod) || pod.spec.nodeName !== this.nodeName) continue;
			const w = wanted.get(keyOf(pod));
			if (w && pod.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] === w.uid && !pod.metadata.deletionTimestamp) continue;
			this.log('I', 'mirror_client.go:130', 'Deleting a mirror pod', { pod: keyOf(pod), reason: w ? 'outdated or being deleted' : 'no static pod' });
			this.client.delete(R.pods, pod.metadata.namespace, pod.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: pod.metadata.uid } });
		}
		for (const [key, w] of wanted) {
			const existing = this.podInformer.get(key) as Pod | undefined;
			if (existing) continue;
			const created = this.client.create(R.pods, w.pod.metadata.namespace, mirrorPodFor(w.pod, this.state.node));
			if (created.ok) {
				this.log('I', 'mirror_client.go:92', 'Created a mirror pod for a static pod', { pod: key });
				w.lastStatusJson = undefined;
			} else if (created.code !== 409) this.log('E', 'mirror_client.go:98', 'Could not create a mirror pod', { pod: key, err: created.message });
		}
	}

	// ---- pod sync ---------------------------------------------------------------------------------

	/** The pods this node runs, for admission (admitted, not finished). */
	private activePods(except: string): Pod[] {
		return Object.values(this.state.pods)
			.filter((w) => w.uid !== except && w.admitted && !w.rejected && !w.terminated)
			.map((w) => w.pod);
	}

	/** The Node used for admission: the one from the API, or the one the kubelet would register. */
	private nodeForAdmission(): Node {
		return this.state.node ?? initialNode(this.identity);
	}

	private syncPod(w: PodWorker): void {
		if (w.rejected) {
			// A rejected pod is terminal at once: nothing runs, and a deletion completes without waiting.
			w.terminated = true;
			if (w.removedFromSource) delete this.state.pods[w.uid];
			else this.writeStatus(w);
			return;
		}
		if (!w.admitted && !w.removedFromSource && !w.pod.metadata.deletionTimestamp) {
			const result = admitPod(w.pod, this.nodeForAdmission(), this.activePods(w.uid));
			w.startTime ??= formatRfc3339(this.kernel.wallMs());
			if (!result.admit) {
				this.emit({ action: 'reject', object: `pods/${keyOf(w.pod)}`, msg: `rejected ${keyOf(w.pod)}: ${result.reason}` });
				w.rejected = { reason: result.reason, message: result.message };
				w.terminated = true;
				this.log('I', 'kubelet.go:2579', 'Pod rejected by admission', { pod: keyOf(w.pod), reason: result.reason, message: result.message });
				this.podEvent(w, 'Warning', result.reason, result.message);
				this.writeStatus(w);
				return;
			}
			w.admitted = true;
			this.emit({ action: 'admit', object: `pods/${keyOf(w.pod)}`, msg: `admitted ${keyOf(w.pod)} (${w.source === 'file' ? 'static pod' : 'from the API'})` });
			this.createProbeWorkers(w);
		}
		const sandboxes = this.runtime.listPodSandbox({ podUid: w.uid });
		const containers = this.runtime.listContainers({ podUid: w.uid });
		if (!sandboxes.ok || !containers.ok) {
			const error = !sandboxes.ok ? sandboxes.error : !containers.ok ? containers.error : undefined;
			this.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: error ? criErrorText(error) : '', pod: keyOf(w.pod), podUID: w.uid });
			// The runtime is away: try again after the pod worker's back-off (its return also resyncs every pod).
			this.requestSync(w, POD_WORKER_BACKOFF_MS, true);
			return;
		}
		if (w.removedFromSource || w.pod.metadata.deletionTimestamp || w.terminated) this.syncTerminating(w, sandboxes.value, containers.value);
		else this.syncRunning(w, sandboxes.value, containers.value);
		if (this.state.pods[w.uid]) {
			this.writeStatus(w);
			this.scheduleProbeTick(w);
		}
	}

	private restartPolicy(w: PodWorker): 'Always' | 'OnFailure' | 'Never' {
		return w.pod.spec.restartPolicy ?? 'Always';
	}

	private crashKey(w: PodWorker, container: string): string {
		return `${w.pod.metadata.name}_${w.pod.metadata.namespace}_${w.uid}_${container}`;
	}

	private syncRunning(w: PodWorker, sandboxes: SandboxInfo[], containers: ContainerInfo[]): void {
		if (w.op) return;
		const pod = w.pod;
		const ready = sandboxes.filter((s) => s.state === 'SANDBOX_READY').sort((a, b) => b.attempt - a.attempt)[0];
		if (!ready) {
			if (this.podIsDone(w, containers)) return this.finishCompletedPod(w, sandboxes, containers);
			if (!this.volumesReady(w)) return;
			const attempt = sandboxes.length ? Math.max(...sandboxes.map((s) => s.attempt)) + 1 : 0;
			if (sandboxes.length) this.podEvent(w, 'Normal', 'SandboxChanged', 'Pod sandbox changed, it will be killed and re-created.');
			const hostNetwork = pod.spec.hostNetwork === true;
			const op = this.runtime.runPodSandbox(
				{
					podName: pod.metadata.name ?? '',
					namespace: pod.metadata.namespace ?? 'default',
					podUid: w.uid,
					attempt,
					hostname: hostNetwork ? this.nodeName : (pod.spec.hostname ?? pod.metadata.name ?? ''),
					hostNetwork,
					labels: { ...(pod.metadata.labels ?? {}), 'io.kubernetes.pod.name': pod.metadata.name ?? '', 'io.kubernetes.pod.namespace': pod.metadata.namespace ?? '', 'io.kubernetes.pod.uid': w.uid },
					annotations: { ...(pod.metadata.annotations ?? {}) },
				},
				this.id,
			);
			if (!op.ok) {
				this.podEvent(w, 'Warning', 'FailedCreatePodSandBox', `Failed to create pod sandbox: ${criErrorText(op.error)}`);
				return;
			}
			w.op = { opId: op.value.opId, kind: 'sandbox' };
			return;
		}
		w.sandboxId = ready.id;
		w.podIp = ready.ip;
		if (this.podIsDone(w, containers)) return this.finishCompletedPod(w, sandboxes, containers);
		if (!this.volumesReady(w)) return;
		const policy = this.restartPolicy(w);
		// Init containers, one at a time, in order.
		for (const c of pod.spec.initContainers ?? []) {
			const [latest] = attemptsOf(containers, c.name);
			if (isRestartableInit(c)) {
				// A sidecar: start it, go on once it runs, restart it whenever it stops.
				if (latest && latest.state !== 'CONTAINER_EXITED') continue;
				if (latest && !this.restartAllowed(w, c, latest, true)) continue;
				if (this.startContainer(w, c, latest, true) === 'pending') return;
				continue;
			}
			if (latest?.state === 'CONTAINER_EXITED' && (latest.exitCode ?? 0) === 0) continue;
			if (latest && latest.state !== 'CONTAINER_EXITED') return;
			if (latest && policy === 'Never') return;
			if (latest && !this.restartAllowed(w, c, latest, true)) return;
			this.startContainer(w, c, latest, true);
			return;
		}
		for (const c of pod.spec.containers) {
			const [latest] = attemptsOf(containers, c.name);
			if (latest && latest.state === 'CONTAINER_RUNNING' && !w.restartNow[c.name]) {
				// A pod's container image may be updated in place: the kubelet replaces the container.
				const wanted = withDefaultTag(c.image ?? '');
				if (wanted.ok && wanted.image !== latest.imageRef) this.killContainer(w, c, latest, `Container ${c.name} definition changed, will be restarted`, w.pod.spec.terminationGracePeriodSeconds ?? 30);
				continue;
			}
			if (latest && latest.state !== 'CONTAINER_EXITED') continue;
			if (latest && !shouldRestart(pod, false, latest, false)) continue;
			if (latest && !this.restartAllowed(w, c, latest, false)) continue;
			if (this.startContainer(w, c, latest, false) === 'pending') return;
		}
	}

	/** Crash-loop back-off for restarting `latest`'s container (kuberuntime_manager.go doBackOff). */
	private restartAllowed(w: PodWorker, c: Container, latest: ContainerInfo, isInit: boolean): boolean {
		if (w.restartNow[c.name]) {
			delete w.restartNow[c.name];
			return true;
		}
		const key = this.crashKey(w, c.name);
		const finished = (latest.finishedWallMs ?? this.kernel.wallMs()) - this.kernel.epochMs;
		if (isInBackOffSince(this.state.crashBackoff, CRASH_LOOP_BACKOFF, key, finished, this.nowMs)) {
			const delay = backoffGet(this.state.crashBackoff, key);
			const podRef = `${w.pod.metadata.name}_${w.pod.metadata.namespace}(${w.uid})`;
			w.waiting[c.name] = { reason: 'CrashLoopBackOff', message: `back-off ${formatGoDurationMs(delay)} restarting failed container=${c.name} pod=${podRef}` };
			this.podEvent(w, 'Warning', 'BackOff', `Back-off restarting failed container ${c.name} in pod ${podRef}`, c.name, isInit);
			this.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `failed to "StartContainer" for "${c.name}" with CrashLoopBackOff: "back-off ${formatGoDurationMs(delay)} restarting failed container=${c.name} pod=${podRef}"`, pod: keyOf(w.pod), podUID: w.uid });
			// The worker looks again when the back-off expires.
			this.requestSync(w, finished + delay - this.nowMs, true);
			return false;
		}
		backoffNext(this.state.crashBackoff, CRASH_LOOP_BACKOFF, key, finished, this.nowMs);
		return true;
	}

	/** Pulls (if needed), creates and starts one container. 'pending' while a pull runs. */
	private startContainer(w: PodWorker, c: Container, latest: ContainerInfo | undefined, isInit: boolean): 'started' | 'pending' | 'failed' {
		const image = this.ensureImage(w, c, isInit);
		if (image.kind !== 'ready') return image.kind;
		const pod = w.pod;
		const env = containerEnv(pod, c, {
			hostIp: this.deps.nodeIp,
			podIp: w.podIp ?? '',
			kubernetesServiceHost: this.deps.kubernetesServiceHost ?? '10.96.0.1',
			nodeAllocatable: this.nodeForAdmission().status?.allocatable ?? {},
			read: (kind, namespace, name) => {
				const got = this.client.get(kind === 'ConfigMap' ? R.configmaps : R.secrets, namespace, name);
				return got.ok ? got.object : undefined;
			},
		});
		if (!env.ok) {
			w.waiting[c.name] = { reason: 'CreateContainerConfigError', message: env.message };
			this.podEvent(w, 'Warning', 'Failed', `Error: ${env.message}`, c.name, isInit);
			this.requestSync(w, POD_WORKER_BACKOFF_MS, true);
			return 'failed';
		}
		// The volumes, as bind mounts (makeMounts in GenerateRunContainerOptions); a subPath is prepared now.
		const mounts = makeMounts(pod, c, { disk: this.deps.disk, env: env.env });
		if (!mounts.ok) {
			w.waiting[c.name] = { reason: 'CreateContainerConfigError', message: mounts.error };
			this.podEvent(w, 'Warning', 'Failed', `Error: ${mounts.error}`, c.name, isInit);
			this.requestSync(w, POD_WORKER_BACKOFF_MS, true);
			return 'failed';
		}
		let memoryLimitBytes: number | undefined;
		const limit = c.resources?.limits?.memory;
		if (limit !== undefined) {
			const m = /^(\d+)(Ki|Mi|Gi|Ti|k|M|G|T)?$/.exec(String(limit));
			if (m) memoryLimitBytes = Number(m[1]) * ({ '': 1, Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, Ti: 1024 ** 4, k: 1e3, M: 1e6, G: 1e9, T: 1e12 }[m[2] ?? ''] ?? 1);
		}
		const attempt = latest ? latest.attempt + 1 : 0;
		const created = this.runtime.createContainer(w.sandboxId ?? '', {
			name: c.name,
			attempt,
			image: image.image,
			command: c.command,
			args: c.args,
			workingDir: c.workingDir,
			env: env.env,
			memoryLimitBytes,
			mounts: mounts.mounts,
			labels: { 'io.kubernetes.container.name': c.name, 'io.kubernetes.pod.name': pod.metadata.name ?? '', 'io.kubernetes.pod.namespace': pod.metadata.namespace ?? '', 'io.kubernetes.pod.uid': w.uid },
			annotations: { 'io.kubernetes.container.restartCount': String(attempt), 'io.kubernetes.container.terminationMessagePath': c.terminationMessagePath ?? '/dev/termination-log', 'io.kubernetes.pod.terminationGracePeriod': String(pod.spec.terminationGracePeriodSeconds ?? 30) },
		});
		if (!created.ok) {
			const text = criErrorText(created.error);
			w.waiting[c.name] = { reason: 'CreateContainerError', message: text };
			this.podEvent(w, 'Warning', 'Failed', `Error: ${text}`, c.name, isInit);
			this.requestSync(w, POD_WORKER_BACKOFF_MS, true);
			return 'failed';
		}
		this.podEvent(w, 'Normal', 'Created', 'Container created', c.name, isInit);
		const started = this.runtime.startContainer(created.value.containerId);
		if (!started.ok) {
			const text = criErrorText(started.error);
			w.waiting[c.name] = { reason: 'RunContainerError', message: text };
			this.podEvent(w, 'Warning', 'Failed', `Error: ${text}`, c.name, isInit);
			this.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: `failed to "StartContainer" for "${c.name}" with RunContainerError: "${text.replace(/"/g, '\\"')}"`, pod: keyOf(pod), podUID: w.uid });
			this.requestSync(w, this.config.plegRelistPeriodMs, false);
			return 'failed';
		}
		delete w.waiting[c.name];
		this.podEvent(w, 'Normal', 'Started', 'Container started', c.name, isInit);
		return 'started';
	}

	/** EnsureImageExists (images/image_manager.go): pull policy, back-off, events. */
	private ensureImage(w: PodWorker, c: Container, isInit: boolean): { kind: 'ready'; image: string } | { kind: 'pending' } | { kind: 'failed' } {
		const spec = c.image ?? '';
		const tagged = withDefaultTag(spec);
		if (!tagged.ok) {
			const message = `Failed to apply default image tag "${spec}": ${tagged.error}`;
			this.podEvent(w, 'Warning', 'InspectFailed', message, c.name, isInit);
			w.waiting[c.name] = { reason: 'InvalidImageName', message };
			this.podEvent(w, 'Warning', 'Failed', 'Error: InvalidImageName', c.name, isInit);
			return { kind: 'failed' };
		}
		if (w.justPulled?.container === c.name) {
			w.justPulled = undefined;
			return { kind: 'ready', image: tagged.image };
		}
		const present = this.runtime.imageStatus(tagged.image);
		if (!present.ok) {
			this.podEvent(w, 'Warning', 'InspectFailed', `Failed to inspect image "${spec}": ${criErrorText(present.error)}`, c.name, isInit);
			w.waiting[c.name] = { reason: 'ImageInspectError', message: `Failed to inspect image "${spec}": ${criErrorText(present.error)}` };
			return { kind: 'failed' };
		}
		const policy = c.imagePullPolicy ?? defaultPullPolicy(spec);
		if (policy === 'Never' || (policy === 'IfNotPresent' && present.value)) {
			if (present.value) {
				this.podEvent(w, 'Normal', 'Pulled', `Container image "${spec}" already present on machine and can be accessed by the pod`, c.name, isInit);
				return { kind: 'ready', image: tagged.image };
			}
			const message = `Container image "${spec}" is not present with pull policy of Never`;
			this.podEvent(w, 'Warning', 'ErrImageNeverPull', message, c.name, isInit);
			w.waiting[c.name] = { reason: 'ErrImageNeverPull', message };
			this.podEvent(w, 'Warning', 'Failed', 'Error: ErrImageNeverPull', c.name, isInit);
			return { kind: 'failed' };
		}
		const key = `${w.uid}_${spec}`;
		if (isInBackOffSinceUpdate(this.state.imageBackoff, IMAGE_PULL_BACKOFF, key, this.nowMs)) {
			const message = `Back-off pulling image "${spec}"`;
			this.podEvent(w, 'Normal', 'BackOff', message, c.name, isInit);
			const last = this.state.lastPullError[key];
			w.waiting[c.name] = { reason: 'ImagePullBackOff', message: last ? `${message}: ErrImagePull: ${last}` : message };
			this.podEvent(w, 'Warning', 'Failed', 'Error: ImagePullBackOff', c.name, isInit);
			const entry = this.state.imageBackoff[key];
			this.requestSync(w, entry.lastUpdateMs + entry.backoffMs - this.nowMs, true);
			return { kind: 'failed' };
		}
		this.podEvent(w, 'Normal', 'Pulling', `Pulling image "${spec}"`, c.name, isInit);
		const op = this.runtime.pullImage(tagged.image, this.id);
		if (!op.ok) {
			const text = criErrorText(op.error);
			this.podEvent(w, 'Warning', 'Failed', `Failed to pull image "${spec}": ${text}`, c.name, isInit);
			backoffNext(this.state.imageBackoff, IMAGE_PULL_BACKOFF, key, this.nowMs, this.nowMs);
			this.state.lastPullError[key] = text;
			w.waiting[c.name] = { reason: 'ErrImagePull', message: text };
			this.podEvent(w, 'Warning', 'Failed', 'Error: ErrImagePull', c.name, isInit);
			return { kind: 'failed' };
		}
		w.op = { opId: op.value.opId, kind: 'pull', container: c.name, image: spec };
		return { kind: 'pending' };
	}

	/** Whether all containers of a pod that does not restart them are done (restartPolicy Never/OnFailure). */
	private podIsDone(w: PodWorker, containers: ContainerInfo[]): boolean {
		const policy = this.restartPolicy(w);
		if (policy === 'Always') return false;
		const init = w.pod.spec.initContainers ?? [];
		// A failed init container ends a Never pod.
		if (policy === 'Never' && init.some((c) => attemptsOf(containers, c.name)[0]?.state === 'CONTAINER_EXITED' && (attemptsOf(containers, c.name)[0].exitCode ?? 0) !== 0)) return true;
		return w.pod.spec.containers.every((c) => {
			const [latest] = attemptsOf(containers, c.name);
			return latest !== undefined && latest.state === 'CONTAINER_EXITED' && !shouldRestart(w.pod, false, latest, false);
		});
	}

	/** A pod that finished by itself: its sandbox is torn down (IP released), the containers stay for logs. */
	private finishCompletedPod(w: PodWorker, sandboxes: SandboxInfo[], containers: ContainerInfo[]): void {
		void containers;
		for (const s of sandboxes) if (s.state === 'SANDBOX_READY') this.runtime.stopPodSandbox(s.id);
		if (!w.terminated) this.log('I', 'kubelet.go:2100', 'Pod finished; its sandbox was stopped', { pod: keyOf(w.pod), podUID: w.uid });
		w.terminated = true;
	}

	/** The grace period to stop the pod with: what remains of the deletion grace, at least 2 s. */
	private terminationGrace(w: PodWorker): number {
		const meta = w.pod.metadata;
		const specGrace = w.pod.spec.terminationGracePeriodSeconds ?? 30;
		if (meta.deletionTimestamp) {
			const deadline = parseRfc3339(meta.deletionTimestamp);
			const remaining = Math.ceil((deadline - this.kernel.wallMs()) / 1000);
			const requested = meta.deletionGracePeriodSeconds ?? specGrace;
			return Math.max(MINIMUM_GRACE_PERIOD_S, Number.isNaN(remaining) ? requested : Math.min(requested, remaining));
		}
		return Math.max(MINIMUM_GRACE_PERIOD_S, specGrace);
	}

	/** syncTerminatingPod + the status manager's final delete, then cleanup once the pod is gone. */
	private syncTerminating(w: PodWorker, sandboxes: SandboxInfo[], containers: ContainerInfo[]): void {
		const running = containers.filter((c) => c.state !== 'CONTAINER_EXITED');
		if (!w.terminated && !w.termination && (running.length > 0 || w.op)) {
			const grace = this.terminationGrace(w);
			w.termination = { startedMs: this.nowMs, gracePeriodS: grace };
			w.op = undefined;
			this.emit({ action: 'kill', object: `pods/${keyOf(w.pod)}`, msg: `stopping ${running.length} container(s) of ${keyOf(w.pod)} with a ${grace}s grace period` });
			for (const c of running) {
				const isInit = (w.pod.spec.initContainers ?? []).some((x) => x.name === c.name);
				this.podEvent(w, 'Normal', 'Killing', `Stopping container ${c.name}`, c.name, isInit);
				this.log('I', 'kuberuntime_container.go:809', 'Stopping the container with a grace period', { pod: keyOf(w.pod), podUID: w.uid, containerName: c.name, containerID: `containerd://${c.id}`, gracePeriod: grace });
				this.runtime.stopContainer(c.id, grace);
			}
		} else if (w.termination) {
			// A shorter grace (a second delete) shortens the wait.
			const grace = this.terminationGrace(w);
			if (grace < w.termination.gracePeriodS - (this.nowMs - w.termination.startedMs) / 1000) {
				w.termination.gracePeriodS = grace;
				for (const c of running) this.runtime.stopContainer(c.id, grace);
			}
		}
		if (running.length > 0) return;
		w.op = undefined;
		for (const s of sandboxes) if (s.state === 'SANDBOX_READY') this.runtime.stopPodSandbox(s.id);
		if (!w.terminated) this.log('I', 'kubelet.go:2100', 'Pod terminated; all its containers stopped', { pod: keyOf(w.pod), podUID: w.uid });
		w.terminated = true;
		if (w.removedFromSource) {
			for (const s of sandboxes) this.runtime.removePodSandbox(s.id);
			if (w.source === 'file') {
				const mirror = this.podInformer.get(keyOf(w.pod)) as Pod | undefined;
				if (mirror && isMirrorPod(mirror)) this.client.delete(R.pods, mirror.metadata.namespace, mirror.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: mirror.metadata.uid } });
			}
			delete this.state.pods[w.uid];
			// Volumes are torn down and the pod's directory removed (cleanupOrphanedPodDirs).
			this.deps.disk?.remove(podDir(w.uid));
			for (const table of [this.state.crashBackoff, this.state.imageBackoff, this.state.lastPullError]) for (const key of Object.keys(table)) if (key.includes(w.uid)) delete table[key];
			this.log('I', 'kubelet.go:2178', 'Pod removed from the node', { pod: keyOf(w.pod), podUID: w.uid });
		}
	}

	// ---- volumes (volumemanager, through ./volumes) ------------------------------------------------

	/** The configmap and secret managers: reads as the node, with the managers' error texts. */
	private volumeLookup(): ObjectLookup {
		const read = <T>(resource: 'configmap' | 'secret', namespace: string, name: string): LookupResult<T> => {
			if (!name) return notFoundError(resource, name);
			const got = this.client.get<T>(resource === 'configmap' ? R.configmaps : R.secrets, namespace, name);
			if (got.ok) return { ok: true, object: got.object };
			return got.code === 404 ? notFoundError(resource, name) : cacheSyncError(resource);
		};
		return { configMap: (namespace, name) => read<ConfigMap>('configmap', namespace, name), secret: (namespace, name) => read<Secret>('secret', namespace, name) };
	}

	/**
	 * WaitForAttachAndMount: true once every volume the pod's containers
	 * mount is set up. Otherwise the sync stops before the sandbox; the wait
	 * times out after 2 min 3 s and the pod worker tries again 10 s later.
	 */
	private volumesReady(w: PodWorker): boolean {
		const v = (w.volumes ??= newPodVolumes(w.pod, this.deps.disk));
		this.reconcileVolumes(w);
		if (unmountedVolumes(v).length === 0) {
			v.waitSinceMs = undefined;
			if (v.resyncAtMs === undefined) this.scheduleVolumeResync(w, this.config.syncFrequencyMs);
			return true;
		}
		v.waitSinceMs ??= this.nowMs;
		if (this.nowMs - v.waitSinceMs >= POD_ATTACH_AND_MOUNT_TIMEOUT_MS) {
			// The wait ran out (an interruption since v1.28: no event, only the pod worker's error).
			this.log('E', 'pod_workers.go:1301', 'Pod sync failed; retrying', { err: waitTimeoutError(v), pod: keyOf(w.pod), podUID: w.uid });
			v.waitSinceMs = undefined;
			this.requestSync(w, POD_WORKER_BACKOFF_MS, true);
			return false;
		}
		this.requestSync(w, v.waitSinceMs + POD_ATTACH_AND_MOUNT_TIMEOUT_MS - this.nowMs, true);
		return false;
	}

	/**
	 * The token manager's request (pkg/kubelet/token): a TokenRequest for the
	 * pod's service account, bound to the pod, for the projection's audience
	 * (none: the API server's own) and lifetime. The API server signs it, so
	 * the token authenticates as the service account.
	 */
	private requestServiceAccountToken(subject: TokenSubject): { ok: true; token: IssuedToken } | { ok: false; error: string } {
		const spec: Record<string, unknown> = {
			...(subject.audience ? { audiences: [subject.audience] } : {}),
			expirationSeconds: subject.expirationSeconds,
			boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: subject.podName, uid: subject.podUid },
		};
		const got = this.client.call<{ status?: { token?: string } }>({
			verb: 'create',
			...R.serviceaccounts,
			namespace: subject.namespace,
			name: subject.serviceAccountName,
			subresource: 'token',
			body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', metadata: {}, spec },
		});
		if (!got.ok) return { ok: false, error: got.message };
		const token = got.object.status?.token ?? '';
		return { ok: true, token: { token, issuedWallMs: Math.floor(this.kernel.wallMs() / 1000) * 1000, expirationSeconds: subject.expirationSeconds, audience: subject.audience || SERVICE_ACCOUNT_ISSUER } };
	}

	/** One reconciler pass over the pod's volumes: events and journal lines for what it did, the next retry scheduled. */
	private reconcileVolumes(w: PodWorker): void {
		const v = w.volumes;
		if (!v) return;
		const outcomes = reconcilePod(v, w.pod, {
			lookup: this.volumeLookup(),
			disk: this.deps.disk,
			nodeAllocatable: this.nodeForAdmission().status?.allocatable ?? {},
			nowMs: this.nowMs,
			nowWallMs: this.kernel.wallMs(),
			tokenSubject: {
				namespace: w.pod.metadata.namespace ?? 'default',
				serviceAccountName: w.pod.spec.serviceAccountName ?? 'default',
				podName: w.pod.metadata.name ?? '',
				podUid: w.uid,
				nodeName: this.nodeName,
				nodeUid: this.state.nodeUid ?? '',
			},
			requestToken: (subject) => this.requestServiceAccountToken(subject),
		});
		const mounted: string[] = [];
		for (const o of outcomes) {
			// GetUniqueVolumeNameFromSpecWithPod: <plugin>/<pod uid>-<volume>.
			const unique = `${o.spec.plugin}/${w.uid}-${o.volume}`;
			if (o.ok) {
				if (!o.remount) mounted.push(o.volume);
				else if (o.changed) this.emit({ action: 'remount', object: `pods/${keyOf(w.pod)}`, msg: `volume "${o.volume}" updated on ${this.nodeName}` });
				if (!o.remount && o.spec.plugin === 'unsupported') this.log('W', 'volume_manager.go:398', 'Volume kind not modelled; mounted as an empty directory', { pod: keyOf(w.pod), volume: o.volume, kind: o.spec.kind });
				if (!o.remount && o.spec.plugin === 'kubernetes.io/host-path' && !this.deps.disk) this.log('W', 'host_path.go:220', 'No node disk: hostPath volume mounted as an empty directory', { pod: keyOf(w.pod), volume: o.volume, path: o.spec.hostPath.path });
				continue;
			}
			this.podEvent(w, 'Warning', 'FailedMount', `MountVolume.SetUp failed for volume "${o.volume}" : ${o.error}`);
			this.emit({ action: 'mount-failed', object: `pods/${keyOf(w.pod)}`, msg: `MountVolume.SetUp failed for volume "${o.volume}" : ${o.error}` });
			// Go's time.Time.String(): `2026-11-30 08:00:33.505 +0000 UTC` (trailing zeros of the fraction dropped).
			const untilMs = this.kernel.wallMs() + (o.durationBeforeRetryMs ?? 0);
			const fraction = untilMs % 1000 ? `.${String(untilMs % 1000).padStart(3, '0').replace(/0+$/, '')}` : '';
			const until = `${formatRfc3339(untilMs).replace('T', ' ').replace('Z', '')}${fraction} +0000 UTC`;
			this.log('E', 'nestedpendingoperations.go:348', `Operation for "{volumeName:${unique} podName:${w.uid} nodeName:}" failed. No retries permitted until ${until} (durationBeforeRetry ${formatGoDurationMs(o.durationBeforeRetryMs ?? 0)}). Error: MountVolume.SetUp failed for volume "${o.volume}" (UniqueName: "${unique}") pod "${w.pod.metadata.name}" (UID: "${w.uid}") : ${o.error}`, {});
		}
		if (mounted.length) this.emit({ action: 'mount', object: `pods/${keyOf(w.pod)}`, msg: `mounted volume${mounted.length > 1 ? 's' : ''} ${mounted.map((n) => `"${n}"`).join(', ')} on ${this.nodeName}` });
		this.scheduleVolumeRetry(w);
	}

	/** The reconciler comes back for the pod's failed volumes when their back-off expires. */
	private scheduleVolumeRetry(w: PodWorker): void {
		const v = w.volumes;
		const at = v ? nextRetryAtMs(v) : undefined;
		if (!v || at === undefined) return;
		if (v.retryAtMs !== undefined && v.retryAtMs <= at && v.retryAtMs >= this.nowMs) return;
		v.retryAtMs = Math.max(at, this.nowMs);
		this.after(v.retryAtMs - this.nowMs, 'volume-reconcile', { uid: w.uid, atMs: v.retryAtMs }, { background: true, origin: `periodic:${this.id}:volume-reconciler` });
	}

	/** A retry of the reconciler: once the last volume is set up, a waiting pod worker notices at its next 300 ms poll. */
	private onVolumeRetry(w: PodWorker): void {
		const v = w.volumes;
		if (!v || w.removedFromSource || w.terminated || w.termination || w.pod.metadata.deletionTimestamp) return;
		const waiting = unmountedVolumes(v).length > 0;
		this.reconcileVolumes(w);
		if (waiting && unmountedVolumes(v).length === 0 && v.waitSinceMs !== undefined) this.requestSync(w, pollNoticesAtMs(v.waitSinceMs, this.nowMs) - this.nowMs, false);
	}

	/** The pod worker's resync (every syncFrequency) for pods with volumes that follow API objects. */
	private scheduleVolumeResync(w: PodWorker, delayMs: number): void {
		const v = w.volumes;
		if (!v || !hasRemountableVolumes(w.pod)) return;
		v.resyncAtMs = this.nowMs + delayMs;
		this.after(delayMs, 'volume-resync', { uid: w.uid, atMs: v.resyncAtMs }, { background: true, origin: `periodic:${this.id}:pod-resync` });
	}

	/** A resync: remountable volumes are set up again (ReprocessPod), so changed ConfigMaps and Secrets reach the files. */
	private resyncVolumes(w: PodWorker): void {
		const v = w.volumes;
		if (!v || w.removedFromSource || w.terminated || w.termination || w.pod.metadata.deletionTimestamp) return;
		markRemount(v, w.pod);
		this.reconcileVolumes(w);
		this.scheduleVolumeResync(w, this.config.syncFrequencyMs);
	}

	/** cleanupOrphanedPodDirs: pod directories of pods this kubelet no longer runs. */
	private cleanupOrphanedPodDirs(): void {
		const disk = this.deps.disk;
		if (!disk || !this.podInformer.synced) return;
		for (const uid of (disk.readDir(`${KUBELET_ROOT_DIR}/pods`) ?? []).slice(0, MAX_ORPHAN_DIRS_PER_PASS)) if (!this.state.pods[uid]) disk.remove(podDir(uid));
	}

	// ---- status --------------------------------------------------------------------------------------

	/** The API object a pod's status goes to: the pod itself, or the mirror pod of a static pod. */
	private statusTarget(w: PodWorker): Pod | undefined {
		const cached = this.podInformer.get(keyOf(w.pod)) as Pod | undefined;
		if (!cached) return undefined;
		if (w.source === 'api') return cached.metadata.uid === w.uid ? cached : undefined;
		return isMirrorPod(cached) && cached.metadata.annotations?.[CONFIG_MIRROR_ANNOTATION] === w.uid ? cached : undefined;
	}

	/** The status the kubelet would report for `w` now. */
	private podStatus(w: PodWorker): PodStatus {
		const startTime = w.startTime ?? formatRfc3339(this.kernel.wallMs());
		if (w.rejected) return rejectedPodStatus(w.pod, w.rejected.reason, w.rejected.message, startTime);
		const containers = this.runtime.listContainers({ podUid: w.uid });
		const sandboxes = this.runtime.listPodSandbox({ podUid: w.uid });
		const ready = sandboxes.ok && sandboxes.value.some((s) => s.state === 'SANDBOX_READY' && s.id === w.sandboxId);
		const target = this.statusTarget(w);
		return generatePodStatus({
			pod: w.pod,
			previous: target?.status,
			now: formatRfc3339(this.kernel.wallMs()),
			hostIp: this.deps.nodeIp,
			podIp: w.podIp,
			sandboxReady: ready,
			containers: containers.ok ? containers.value : [],
			waiting: w.waiting,
			ready: (name, id) => this.probeOk(w, name, id, 'readiness'),
			started: (name, id) => this.probeOk(w, name, id, 'startup'),
			startTime,
			terminal: w.terminated === true,
		});
	}

	private probeOk(w: PodWorker, container: string, containerId: string, type: 'readiness' | 'startup'): boolean {
		const worker = w.probes[`${container}/${type}`];
		if (!worker) return true;
		return worker.containerId === containerId && worker.result === 'success';
	}

	/** Writes the pod's status through pods/status when it changed; then, for a finished deleted pod, deletes it. */
	private writeStatus(w: PodWorker): void {
		const target = this.statusTarget(w);
		if (!target) return;
		const status = this.podStatus(w);
		const json = JSON.stringify(status);
		if (json !== w.lastStatusJson || JSON.stringify(target.status ?? {}) !== json) {
			if (JSON.stringify(target.status ?? {}) === json) w.lastStatusJson = json;
			else {
				const body: Pod = deepCopy(target);
				delete body.metadata.resourceVersion;
				body.status = status;
				const written = this.client.updateStatus<Pod>(R.pods, body);
				if (written.ok) {
					w.lastStatusJson = json;
					this.emit({ action: 'status', object: `pods/${body.metadata.namespace}/${body.metadata.name}`, msg: `pod status: ${status.phase}${status.containerStatuses ? ' ' + status.containerStatuses.map((c) => `${c.name}=${c.state?.running ? 'running' : c.state?.terminated ? 'terminated' : (c.state?.waiting?.reason ?? 'waiting')}`).join(',') : ''}` });
				} else if (written.code !== 404) {
					this.log('E', 'status_manager.go:919', 'Could not update the pod status; retrying', { pod: keyOf(w.pod), err: written.message });
					this.requestSync(w, this.config.statusRetryMs, true);
					return;
				}
			}
		}
		if (w.source === 'api' && w.terminated && target.metadata.deletionTimestamp && !w.finalDeleteSent && !w.removedFromSource) {
			w.finalDeleteSent = true;
			const deleted = this.client.delete(R.pods, target.metadata.namespace, target.metadata.name ?? '', { gracePeriodSeconds: 0, preconditions: { uid: w.uid } });
			if (deleted.ok || deleted.code === 404) this.log('I', 'status_manager.go:1043', 'Pod fully terminated and removed from the API', { pod: keyOf(w.pod), podUID: w.uid });
			else {
				w.finalDeleteSent = false;
				this.requestSync(w, this.config.statusRetryMs, true);
			}
		}
	}

	// ---- probes ---------------------------------------------------------------------------------------

	/** The containers probes apply to: the app containers and the sidecars. */
	private probedContainers(pod: Pod): Container[] {
		return [...(pod.spec.initContainers ?? []).filter(isRestartableInit), ...pod.spec.containers];
	}

	private createProbeWorkers(w: PodWorker): void {
		for (const c of this.probedContainers(w.pod)) {
			for (const type of ['startup', 'liveness', 'readiness'] as ProbeType[]) {
				const probe = probeOf(c, type);
				if (!probe) continue;
				const period = probeSetting(probe, 'periodSeconds') * 1000;
				// A kubelet that just started spreads its probes over one period (worker.go).
				const first = w.addedMs - this.state.startedMs < period ? this.rng.int(period) : period;
				w.probes[`${c.name}/${type}`] = { container: c.name, type, result: initialResult(type), run: 0, onHold: false, nextMs: this.nowMs + first };
			}
		}
	}

	private scheduleProbeTick(w: PodWorker): void {
		if (w.terminated || w.termination || w.removedFromSource) return;
		const next = Math.min(...Object.values(w.probes).map((p) => p.nextMs));
		if (!Number.isFinite(next) || w.probeAtMs === next) return;
		w.probeAtMs = Math.max(next, this.nowMs);
		// Probe ticks are housekeeping with their own chain of causes, not part of the command that made the pod.
		this.after(w.probeAtMs - this.nowMs, 'probe-tick', { uid: w.uid, atMs: w.probeAtMs }, { background: true, origin: `periodic:${this.id}:probe` });
	}

	/** Moves every probe's next run past now: nothing can be probed this period. */
	private skipProbePeriod(w: PodWorker): void {
		for (const p of Object.values(w.probes)) {
			const c = this.probedContainers(w.pod).find((x) => x.name === p.container);
			const probe = c ? probeOf(c, p.type) : undefined;
			while (probe && p.nextMs <= this.nowMs) p.nextMs += probeSetting(probe, 'periodSeconds') * 1000;
		}
	}

	private runProbes(w: PodWorker): void {
		if (w.terminated || w.termination || w.removedFromSource) return;
		// No sandbox yet (or the runtime is unreachable): try again next period, never at once.
		if (!w.sandboxId) {
			this.skipProbePeriod(w);
			return this.scheduleProbeTick(w);
		}
		const containers = this.runtime.listContainers({ podUid: w.uid });
		if (!containers.ok) {
			this.skipProbePeriod(w);
			return this.scheduleProbeTick(w);
		}
		let statusChanged = false;
		const order: ProbeType[] = ['startup', 'liveness', 'readiness'];
		const workers = Object.values(w.probes).sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || a.container.localeCompare(b.container));
		for (const worker of workers) {
			const c = this.probedContainers(w.pod).find((x) => x.name === worker.container);
			const probe = c ? probeOf(c, worker.type) : undefined;
			if (!c || !probe) continue;
			if (worker.nextMs > this.nowMs) continue;
			const period = probeSetting(probe, 'periodSeconds') * 1000;
			while (worker.nextMs <= this.nowMs) worker.nextMs += period;
			const [latest] = attemptsOf(containers.value, c.name);
			if (!latest || latest.state !== 'CONTAINER_RUNNING') {
				if (worker.type === 'readiness' && worker.result !== 'failure') {
					worker.result = 'failure';
					statusChanged = true;
				}
				continue;
			}
			if (worker.containerId !== latest.id) {
				resetProbeWorker(worker, latest.id);
				statusChanged = true;
			}
			if (worker.onHold) continue;
			const startedMs = (latest.startedWallMs ?? this.kernel.wallMs()) - this.kernel.epochMs;
			if (this.nowMs - startedMs < probeSetting(probe, 'initialDelaySeconds') * 1000 && probe.initialDelaySeconds) continue;
			const startup = w.probes[`${c.name}/startup`];
			const startupDone = !startup || (startup.containerId === latest.id && startup.result === 'success');
			if (worker.type === 'startup' ? startupDone && startup?.containerId === latest.id && startup.result === 'success' : !startupDone) continue;
			const outcome = runProbe(this.runtime, probe, c, { containerId: latest.id, sandboxId: w.sandboxId, podIp: w.podIp ?? '' });
			const typeName = probeTypeName(worker.type);
			if ('error' in outcome) {
				this.podEvent(w, 'Warning', 'Unhealthy', `${typeName} probe errored and resulted in unknown state: ${outcome.error}`, c.name);
				continue;
			}
			if (outcome.result === 'failure') {
				this.podEvent(w, 'Warning', 'Unhealthy', `${typeName} probe failed: ${outcome.output}`, c.name);
				this.log('I', 'prober.go:107', 'Probe did not pass', { probeType: typeName, pod: keyOf(w.pod), podUID: w.uid, containerName: c.name, probeResult: 'failure', output: outcome.output });
			}
			const { changed, kill } = recordProbeResult(worker, probe, outcome.result);
			if (changed) statusChanged = true;
			if (kill) this.killContainer(w, c, latest, `Container ${c.name} failed ${worker.type} probe, will be restarted`, probe.terminationGracePeriodSeconds ?? w.pod.spec.terminationGracePeriodSeconds ?? 30);
		}
		if (statusChanged) this.writeStatus(w);
		this.scheduleProbeTick(w);
	}

	/** killContainer for a restart: the Killing event with the reason, the stop signal, SIGKILL after the grace. */
	private killContainer(w: PodWorker, c: Container, latest: ContainerInfo, message: string, graceSeconds: number): void {
		const grace = Math.max(MINIMUM_GRACE_PERIOD_S, graceSeconds);
		this.podEvent(w, 'Normal', 'Killing', message, c.name);
		this.log('I', 'kuberuntime_container.go:809', 'Stopping the container with a grace period', { pod: keyOf(w.pod), podUID: w.uid, containerName: c.name, containerID: `containerd://${latest.id}`, gracePeriod: grace });
		// Restarted as soon as it stopped, without crash-loop back-off (the kubelet restarts it in the same sync).
		if (this.restartPolicy(w) !== 'Never') w.restartNow[c.name] = true;
		this.runtime.stopContainer(latest.id, grace);
	}

	// ---- serving: logs, exec, node tools --------------------------------------------------------------

	/** The pod worker for `namespace/name` (API pods, or static pods by their mirror name). */
	private workerByName(namespace: string, name: string): PodWorker | undefined {
		return Object.values(this.state.pods).find((w) => w.pod.metadata.namespace === namespace && w.pod.metadata.name === name && !w.removedFromSource);
	}

	private pickContainer(w: PodWorker, container: string | undefined): ServeResult<string> {
		const all = [...(w.pod.spec.initContainers ?? []), ...w.pod.spec.containers].map((c) => c.name);
		if (container) return all.includes(container) ? { ok: true, value: container } : badRequest(`container ${container} is not valid for pod ${w.pod.metadata.name}`);
		const annotated = w.pod.metadata.annotations?.['kubectl.kubernetes.io/default-container'];
		if (annotated && all.includes(annotated)) return { ok: true, value: annotated };
		if (w.pod.spec.containers.length === 1) return { ok: true, value: w.pod.spec.containers[0].name };
		return badRequest(`a container name must be specified for pod ${w.pod.metadata.name}, choose one of: [${w.pod.spec.containers.map((c) => c.name).join(' ')}]`);
	}

	/**
	 * GET /containerLogs/<ns>/<pod>/<container>: what `kubectl logs` prints.
	 * Lines end with a newline; `timestamps` prefixes each with its RFC 3339 time.
	 */
	serveLog(namespace: string, pod: string, container: string | undefined, options: { tailLines?: number; previous?: boolean; timestamps?: boolean } = {}): ServeResult<string> {
		if (!this.kernel.isRunning(this.id)) return { ok: false, code: 500, reason: '', message: `Get "https://${this.deps.nodeIp}:10250/containerLogs/${namespace}/${pod}/${container ?? ''}": dial tcp ${this.deps.nodeIp}:10250: connect: connection refused` };
		const w = this.workerByName(namespace, pod);
		if (!w) return notFound(`pod "${pod}" not found`);
		const picked = this.pickContainer(w, container);
		if (!picked.ok) return picked;
		const chosen = logContainerId(pod, this.podStatus(w), picked.value, options.previous === true);
		if (!chosen.ok) return badRequest(chosen.message);
		const logs = this.runtime.readLogs(chosen.containerId, { tailLines: options.tailLines });
		if (!logs.ok) return { ok: false, code: 500, reason: 'InternalError', message: criErrorText(logs.error) };
		const text = logs.value.map((l) => `${options.timestamps ? `${formatRfc3339Micro(l.wallMs).replace(/Z$/, '000Z')} ` : ''}${l.text}\n`).join('');
		return { ok: true, value: text };
	}

	/** POST /exec/<ns>/<pod>/<container>: runs a command in a running container (kubectl exec). */
	exec(namespace: string, pod: string, container: string | undefined, argv: string[]): ServeResult<{ exitCode: number; stdout: string; stderr: string }> {
		if (!this.kernel.isRunning(this.id)) return { ok: false, code: 500, reason: '', message: `error dialing backend: dial tcp ${this.deps.nodeIp}:10250: connect: connection refused` };
		const w = this.workerByName(namespace, pod);
		if (!w) return notFound(`pod "${pod}" not found`);
		const picked = this.pickContainer(w, container);
		if (!picked.ok) return picked;
		const containers = this.runtime.listContainers({ podUid: w.uid });
		if (!containers.ok) return { ok: false, code: 500, reason: 'InternalError', message: criErrorText(containers.error) };
		const [latest] = attemptsOf(containers.value, picked.value);
		if (!latest || latest.state !== 'CONTAINER_RUNNING') return badRequest(`unable to upgrade connection: container not found ("${picked.value}")`);
		const result = this.runtime.execSync(latest.id, argv);
		if (!result.ok) return { ok: false, code: 500, reason: 'InternalError', message: `Internal error occurred: error executing command in container: ${criErrorText(result.error)}` };
		return { ok: true, value: result.value };
	}

	/** The pods this kubelet runs, with their UID and source (for node tools). */
	runningPods(): Array<{ namespace: string; name: string; uid: string; source: 'api' | 'file' }> {
		return Object.values(this.state.pods)
			.filter((w) => !w.removedFromSource)
			.map((w) => ({ namespace: w.pod.metadata.namespace ?? 'default', name: w.pod.metadata.name ?? '', uid: w.uid, source: w.source }))
			.sort((a, b) => `${a.namespace}/${a.name}`.localeCompare(`${b.namespace}/${b.name}`));
	}

	/** The kubelet's journal (journalctl -u kubelet) and service state (systemctl status kubelet). */
	get hostState(): KubeletHostState {
		return this.deps.host;
	}
}
