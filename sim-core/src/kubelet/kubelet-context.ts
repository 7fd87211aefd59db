/**
 * What the kubelet's managers share: the one plain-JSON state of the
 * `kubelet/<node>` process, its dependencies (runtime, API client, pod
 * informer, event recorder, the node's identity and disk), the clocks and
 * the random stream, and the few helpers every manager uses: journal
 * lines, Node and Pod events, the text of a failed API call, and the Node
 * as the kubelet knows it.
 *
 * Upstream this is the `Kubelet` struct of pkg/kubelet/kubelet.go, whose
 * fields the pod workers, the status and probe managers, the PLEG and the
 * node status loop all reach through `kl`; here the Kubelet process builds
 * one KubeletContext and hands it to the functions of each manager, so the
 * state stays a single object that snapshots restore as it was.
 *
 * Mirrors pkg/kubelet/kubelet.go (the Kubelet struct).
 */
import type { KubeObject, Node } from '../api/types.ts';
import type { ApiClient, CallResult } from '../client/client.ts';
import type { EventRecorder, RecorderState } from '../client/events.ts';
import { keyOf, type Informer, type InformerState } from '../client/informer.ts';
import { klogRecord, type KlogValue } from '../component-base/klog.ts';
import type { CriRuntime } from '../cri-api/cri.ts';
import type { Kernel, ScheduleOptions } from '../sim/kernel.ts';
import type { Rng } from '../sim/rng.ts';
import type { TraceEvent } from '../sim/trace.ts';
import type { BackoffState } from './backoff.ts';
import { appendJournal } from '../host/systemd/records.ts';
import type { KubeletConfig, KubeletDeps } from './kubelet.ts';
import { initialNode, type NodeIdentity } from './node-status.ts';
import type { PodWorker } from './pod-workers.ts';
import type { EvictionState } from './eviction-manager.ts';

/** Bound on the node events held before registration. */
const MAX_PENDING_NODE_EVENTS = 20;

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
	/** The kubelet's own Node, watched (metadata.name=<node>) as its nodeLister is; admission reads it. */
	nodeInformer?: InformerState;
	serviceInformer?: InformerState;
	recorder: RecorderState;
	/** Node events recorded before the Node exists (sent after registration). */
	pendingNodeEvents: Array<{ type: 'Normal' | 'Warning'; reason: string; message: string }>;
	/**
	 * With registerNode false, set once the API server has answered: node
	 * events go out at once although no Node exists (the event broadcaster
	 * posts them about kl.nodeRef all the same).
	 */
	nodeEventsUnregistered?: boolean;
	/** With registerNode false: "no Node, so no mirror pods" has been logged since this start. */
	mirrorPodsWithoutNodeLogged?: boolean;
	pods: Record<string, PodWorker>;
	crashBackoff: BackoffState;
	imageBackoff: BackoffState;
	/** The last pull error per back-off key (shown with ImagePullBackOff). */
	lastPullError: Record<string, string>;
	/** Static pod manifest path → when the kubelet first saw its current content. */
	staticSeen: Record<string, { uid: string; seen: string }>;
	/** Counter for sub-millisecond journal digits. */
	logSeq: number;
	/** The configuration read at the last start (defaults, config file, flags). */
	config?: KubeletConfig;
	/** The eviction manager's observations (./eviction-manager.ts). */
	eviction?: EvictionState;
}

/** What the Kubelet process gives its context. */
interface KubeletContextParts {
	kernel: Kernel;
	/** The process id, `kubelet/<node>`. */
	id: string;
	deps: KubeletDeps;
	/** The configuration before the kubelet reads its config file (defaults and flags). */
	defaults: KubeletConfig;
	identity: NodeIdentity;
	podInformer: Informer;
	nodeInformer: Informer;
	serviceInformer: Informer;
	recorder: EventRecorder;
	/** The process state, which the kernel sets at start and on restore. */
	state: () => KubeletState;
}

export class KubeletContext {
	readonly id: string;
	readonly nodeName: string;
	readonly deps: KubeletDeps;
	private readonly defaults: KubeletConfig;
	/** The Node's identity; its boot ID is read again at each start. */
	readonly identity: NodeIdentity;
	readonly runtime: CriRuntime;
	readonly client: ApiClient;
	readonly podInformer: Informer;
	readonly nodeInformer: Informer;
	readonly serviceInformer: Informer;
	readonly recorder: EventRecorder;
	private readonly kernel: Kernel;
	private readonly getState: () => KubeletState;

	constructor(parts: KubeletContextParts) {
		this.kernel = parts.kernel;
		this.id = parts.id;
		this.deps = parts.deps;
		this.defaults = parts.defaults;
		this.identity = parts.identity;
		this.nodeName = parts.deps.nodeName;
		this.runtime = parts.deps.runtime;
		this.client = parts.deps.client;
		this.podInformer = parts.podInformer;
		this.nodeInformer = parts.nodeInformer;
		this.serviceInformer = parts.serviceInformer;
		this.recorder = parts.recorder;
		this.getState = parts.state;
	}

	/** The configuration in force: what the last start read, or the defaults before the first start. */
	get config(): KubeletConfig {
		return this.getState()?.config ?? this.defaults;
	}

	get state(): KubeletState {
		return this.getState();
	}

	/** Virtual now, ms since the cluster started. */
	get nowMs(): number {
		return this.kernel.nowMs;
	}

	/**
	 * What the node's clock reads, as epoch ms (timestamps in objects and the
	 * journal): the node's own time, skewed when its clock is (`date -s`).
	 */
	wallMs(): number {
		return this.kernel.wallMsOn(this.nodeName);
	}

	/** The wall clock at virtual time 0. */
	get epochMs(): number {
		return this.kernel.epochMs;
	}

	/** The kubelet's own random stream. */
	get rng(): Rng {
		return this.kernel.rng(this.id);
	}

	/** Whether the kubelet process runs (its server answers only then). */
	isRunning(): boolean {
		return this.kernel.isRunning(this.id);
	}

	/** Schedules an event for the kubelet process. */
	after(delayMs: number, kind: string, payload?: unknown, options?: ScheduleOptions): void {
		this.kernel.schedule(this.id, delayMs, kind, payload, options);
	}

	/** Writes a trace event as the kubelet. */
	emit(event: Omit<TraceEvent, 'seq' | 'atMs' | 'origin' | 'component'> & { component?: string }): TraceEvent {
		return this.kernel.emit({ component: this.id, ...event });
	}

	// ---- journal and events -------------------------------------------------------------------

	/** Writes one klog line to the node's journal. */
	log(severity: 'I' | 'W' | 'E', source: string, message: string, kv: Record<string, unknown>): void {
		const seq = this.state.logSeq++;
		appendJournal(this.deps.host, { wallMs: this.wallMs(), pid: this.state.pid, line: klogRecord(severity, this.wallMs(), this.state.pid, source, message, kv as Record<string, KlogValue | undefined>, (seq * 37) % 1000) });
	}

	nodeRef(): KubeObject {
		// The kubelet refers to its Node with the node name as UID (kl.nodeRef).
		return { apiVersion: 'v1', kind: 'Node', metadata: { name: this.nodeName, uid: this.nodeName } };
	}

	/** Records a Node event; before registration they wait (bounded). */
	nodeEvent(type: 'Normal' | 'Warning', reason: string, message: string): void {
		if (!this.state.registered && !this.state.nodeEventsUnregistered) {
			if (this.state.pendingNodeEvents.length < MAX_PENDING_NODE_EVENTS) this.state.pendingNodeEvents.push({ type, reason, message });
			return;
		}
		this.recorder.record(this.nodeRef(), type, reason, message);
	}

	/** Sends the node events held so far (at registration, or when an unregistered kubelet first reaches the API). */
	flushNodeEvents(): void {
		for (const e of this.state.pendingNodeEvents.splice(0)) this.recorder.record(this.nodeRef(), e.type, e.reason, e.message);
	}

	podEvent(w: PodWorker, type: 'Normal' | 'Warning', reason: string, message: string, container?: string, init = false): void {
		const ephemeral = !init && container !== undefined && (w.pod.spec.ephemeralContainers ?? []).some((c) => c.name === container);
		const fieldPath = container ? `spec.${init ? 'initContainers' : ephemeral ? 'ephemeralContainers' : 'containers'}{${container}}` : undefined;
		const involved = w.source === 'api' ? (this.podInformer.get(keyOf(w.pod)) ?? w.pod) : w.pod;
		this.recorder.record(involved, type, reason, message, fieldPath);
	}

	/** `Post "https://192.168.56.10:6443/api/v1/nodes": dial tcp ...` from a failed call. */
	callError(result: CallResult<unknown>, method: string, path: string): string {
		if (result.ok) return '';
		if (!result.transport) return result.message;
		const address = result.address ?? /dial tcp ([^:]+:\d+)/.exec(result.message)?.[1] ?? 'kube-apiserver';
		return `${method} "https://${address}${path}": ${result.message}`;
	}

	/**
	 * The Node used for admission and the downward API (getNodeAnyWay): the
	 * node informer's copy, which a label added a moment ago has already
	 * reached; before it has synced, the one last written to the API; before
	 * registration, the one the kubelet would register.
	 */
	getNodeAnyWay(): Node {
		const watched = this.nodeInformer.synced ? (this.nodeInformer.get(this.nodeName) as Node | undefined) : undefined;
		return watched ?? this.state.node ?? initialNode(this.identity);
	}
}
