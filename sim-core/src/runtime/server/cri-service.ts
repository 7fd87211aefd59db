/**
 * What the parts of containerd's CRI plugin share: the node's durable
 * runtime state, the volatile state of the `container-runtime/<node>`
 * process (in-flight pulls and sandbox set-ups, scheduled exit checks), its
 * dependencies, the clocks and the random stream, and the helpers every
 * service uses: the "containerd is down" answer, new 64-hex IDs, journal
 * lines, notices to the kubelet and the catalogue image of a container.
 *
 * Upstream this is the `criService` struct of internal/cri/server/service.go
 * (with helpers.go), whose fields the image service, the sandbox and
 * container methods and the event monitor all reach through `c`; here the
 * ContainerRuntime process builds one CriService and hands it to the
 * functions of each service, so the process state stays a single object
 * that snapshots restore as it was.
 *
 * Mirrors containerd/containerd internal/cri/server/service.go (criService),
 * containerd/containerd internal/cri/server/helpers.go.
 */
import type { Kernel, ScheduleOptions } from '../../sim/kernel.ts';
import type { Rng } from '../../sim/rng.ts';
import type { TraceEvent } from '../../sim/trace.ts';
import { formatRfc3339Micro } from '../../golang/time.ts';
import { CRI_EVENT_KIND, type CriEvent, type CriResult, type SandboxConfig } from '../../cri-api/cri.ts';
import { PAUSE_IMAGE, resolveImage, type CatalogImage } from '../images.ts';
import * as errors from '../errors.ts';
import { RUNTIME_JOURNAL_MAX, type ContainerRecord, type RuntimeHostState } from '../host-state.ts';
import type { ContainerRuntimeDeps } from '../container-runtime.ts';

/** containerd release the nodes run (2.2 supports Kubernetes 1.33–1.36). */
export const DEFAULT_CONTAINERD_VERSION = 'v2.2.1';

/** A pull in flight (or queued behind another when pulls are serialized). */
interface PullJob {
	opId: number;
	image: string;
	requester: string;
	requestedMs: number;
	startedMs?: number;
	doneAtMs?: number;
}

/** A RunPodSandbox in flight: the pause container and the CNI ADD. */
interface SandboxOp {
	opId: number;
	requester: string;
	config: SandboxConfig;
	readyAtMs: number;
}

/** Volatile state: in-flight work (lost, and failed, when containerd stops). */
export interface RuntimeProcessState {
	pulls: PullJob[];
	sandboxOps: SandboxOp[];
	nextOpId: number;
	/** Container id → the instant its exit check is scheduled for. */
	checks: Record<string, number>;
}

/** What the ContainerRuntime process gives its CriService. */
interface CriServiceParts {
	kernel: Kernel;
	/** The process id, `container-runtime/<node>`. */
	id: string;
	node: string;
	deps: ContainerRuntimeDeps;
	/** The process state, which the kernel sets at start and on restore. */
	state: () => RuntimeProcessState;
}

export class CriService {
	readonly id: string;
	readonly node: string;
	readonly deps: ContainerRuntimeDeps;
	/** The node's durable runtime state (owned by the cluster). */
	readonly host: RuntimeHostState;
	/** Who is told about exits and restarts (default `kubelet/<node>`). */
	readonly kubeletId: string;
	readonly kernel: Kernel;
	private readonly getState: () => RuntimeProcessState;

	constructor(parts: CriServiceParts) {
		this.kernel = parts.kernel;
		this.id = parts.id;
		this.node = parts.node;
		this.deps = parts.deps;
		this.host = parts.deps.host;
		this.kubeletId = parts.deps.kubeletId ?? `kubelet/${parts.node}`;
		this.getState = parts.state;
	}

	get state(): RuntimeProcessState {
		return this.getState();
	}

	/** Virtual now, ms since the cluster started. */
	get nowMs(): number {
		return this.kernel.nowMs;
	}

	/** The process's own random stream. */
	get rng(): Rng {
		return this.kernel.rng(this.id);
	}

	get containerdVersion(): string {
		return this.deps.version ?? DEFAULT_CONTAINERD_VERSION;
	}

	/** The sandbox image (containerd's pinned_images.sandbox). */
	get sandboxImage(): string {
		return this.deps.sandboxImage ?? PAUSE_IMAGE;
	}

	/** Whether containerd runs: a stopped containerd answers no CRI call. */
	get up(): boolean {
		return this.kernel.isRunning(this.id);
	}

	/** The answer of every CRI call while containerd is stopped. */
	down<T>(): CriResult<T> {
		return { ok: false, error: errors.runtimeDown() };
	}

	/** A new 64-hex container or sandbox ID. */
	newId(): string {
		let id = '';
		for (let i = 0; i < 8; i++) id += this.rng.nextUint32().toString(16).padStart(8, '0');
		return id;
	}

	/** Appends a line to containerd's journal, logrus-style (`time=... level=info msg="..."`). */
	journal(level: 'info' | 'warning' | 'error', msg: string): void {
		const time = formatRfc3339Micro(this.kernel.wallMs()).replace(/Z$/, '000Z');
		const h = this.host;
		h.journal.push(`time="${time}" level=${level} msg=${JSON.stringify(msg)}`);
		if (h.journal.length > RUNTIME_JOURNAL_MAX) h.journal.splice(0, h.journal.length - RUNTIME_JOURNAL_MAX);
	}

	/** Tells the kubelet (or whoever asked) about a completion or an exit. */
	notify(event: CriEvent, to = this.kubeletId): void {
		this.kernel.schedule(to, 0, CRI_EVENT_KIND, event);
	}

	/** Schedules an event for the runtime process. */
	after(delayMs: number, kind: string, payload?: unknown, options?: ScheduleOptions): void {
		this.kernel.schedule(this.id, delayMs, kind, payload, options);
	}

	/** Writes a trace event as the runtime. */
	emit(event: Omit<TraceEvent, 'seq' | 'atMs' | 'origin' | 'component'> & { component?: string }): TraceEvent {
		return this.kernel.emit({ component: this.id, ...event });
	}

	/** The catalogue image a container was created from. */
	catalogImageOf(c: ContainerRecord): CatalogImage | undefined {
		const found = resolveImage(c.image);
		return found.ok ? found.resolved.image : undefined;
	}
}
