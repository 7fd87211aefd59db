/**
 * containerd on one node, as the kubelet reaches it over the CRI socket:
 * the `container-runtime/<node>` process (stopping it is `systemctl stop
 * containerd`: every CRI call then fails, while the containers keep
 * running under their shims) with CRI-shaped methods.
 *
 * Calls that are quick in real life answer synchronously (CreateContainer,
 * StartContainer, ContainerStatus, ExecSync...). Image pulls and sandbox
 * creation take virtual time and complete with a `cri` kernel event to the
 * requester (the kubelet). Container processes run lazily (./program.ts):
 * the runtime only schedules an event for the instant a process is
 * predicted to exit, and tells the kubelet when it does.
 *
 * Mirrors containerd's CRI plugin (internal/cri/server: image_pull.go,
 * sandbox_run.go, container_create.go, container_start.go,
 * container_stop.go, container_execsync.go).
 */
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { formatRfc3339Micro } from '../golang/time.ts';
import { normalizeImageRef, PAUSE_IMAGE, parseImageRef, resolveImage, syntheticHex64, systemComponentOf, type CatalogImage, type SystemComponent } from './images.ts';
import { accessLogLine, baselinePaths, binaryExists, httpAnswer, PROBE_USER_AGENT, readFile, resolveArgv, type ContainerContext, type ServerSpec } from './behaviour.ts';
import { prepareMountSources, syncMounts, type HostFiles } from './mounts.ts';
import { advanceProgram, createProgram, execSync as programExecSync, killNow, predictExit, programMayRun, requestStop, type ProgramHost } from './program.ts';
import { allocateIp, gatewayIp, releaseIp } from './ipam.ts';
import * as errors from './errors.ts';
import { CONTAINER_LOG_MAX, RUNTIME_JOURNAL_MAX, type ContainerRecord, type ImageRecord, type RuntimeHostState, type SandboxRecord } from './host-state.ts';
import { CRI_EVENT_KIND, type ContainerConfig, type ContainerInfo, type CriEvent, type CriResult, type ExecResult, type ImageInfo, type ProbeAnswer, type RuntimeCondition, type SandboxConfig, type SandboxInfo, type VersionInfo } from '../cri-api/cri.ts';
import { deepCopy } from '../golang/json.ts';

/** Effective registry throughput for a pull, download plus decompression and unpacking. */
export const PULL_BYTES_PER_MS = 20_000;
/**
 * Why 20 MB/s: a cloud VM pulling from Docker Hub typically downloads at
 * 30–100 MB/s but unpacks gzip layers at a similar rate, and pull events on
 * such nodes read "Successfully pulled image "nginx" in 3–4s" for nginx's
 * ~72 MB; 0.5 s of fixed cost (auth token, manifest list, manifest, config
 * round trips) plus 72 MB / 20 MB/s = 4.1 s matches that.
 */
export const PULL_OVERHEAD_MS = 500;
/** Re-pulling an image already present only re-resolves its manifest (imagePullPolicy: Always). */
export const PULL_UNCHANGED_MS = 400;
/** A registry answering 404/401 for a missing tag or repository: the token and manifest round trips. */
export const PULL_NOT_FOUND_MS = 700;
/** A registry name that does not resolve fails at the DNS lookup. */
export const PULL_NO_SUCH_HOST_MS = 100;
/** Sandbox creation: the pause container plus the CNI ADD (bridge + host-local), a few hundred ms on a VM. */
export const SANDBOX_SETUP_MS = 250;
/** How far ahead the runtime predicts a container's exit; later exits are looked at again then. */
const PREDICT_HORIZON_MS = 24 * 3_600_000;
/** Natural exits closer than this count as pending work for settle(); farther ones are background. */
const FOREGROUND_EXIT_MS = 60_000;
/** The exit code and reason containerd gives a container whose process vanished (internal/cri/server/helpers.go: unknownExitCode, unknownExitReason). */
export const UNKNOWN_EXIT_CODE = 255;
export const UNKNOWN_EXIT_REASON = 'Unknown';
/** containerd release the nodes run (2.2 supports Kubernetes 1.33–1.36). */
export const DEFAULT_CONTAINERD_VERSION = 'v2.2.1';

/** Control-plane processes backed by static-pod containers: the cluster starts and stops them. */
export interface SystemContainerHooks {
	/** A container running `component` started on `node` (start the simulated process). */
	onSystemContainerStart(node: string, component: SystemComponent): void;
	/** That container stopped (stop the simulated process). */
	onSystemContainerStop(node: string, component: SystemComponent): void;
	/** A fault the reader injected: the component fails at start (its container exits 1). */
	isComponentFailing(node: string, component: SystemComponent): boolean;
	/** Answers an HTTP probe on the component's port: a status code, or undefined for connection refused. Default 200. */
	probe?(node: string, component: SystemComponent, port: number, path: string): number | undefined;
	/**
	 * Runs a command inside a system container whose tools the cluster
	 * simulates (etcdctl in the etcd container). Undefined: not handled
	 * here, the image's own programs answer.
	 */
	exec?(node: string, component: SystemComponent, argv: string[]): { exitCode: number; stdout: string; stderr: string } | undefined;
	/**
	 * Runs a network client found in the container's image (`curl` in a
	 * `kubectl exec`) over the cluster's simulated network, from the Pod's
	 * address. Undefined: not a client the network answers; the image's own
	 * program runs.
	 */
	podNetworkCommand?(node: string, pod: { namespace: string; name: string; ip: string; hostname: string; hostNetwork: boolean }, argv: string[], readFile?: (path: string) => string | undefined): { exitCode: number; stdout: string; stderr: string } | undefined;
}

export interface ContainerRuntimeDeps {
	/** The node's durable runtime state (owned by the cluster). */
	host: RuntimeHostState;
	/** Who is told about exits and restarts (default `kubelet/<node>`). */
	kubeletId?: string;
	hooks?: SystemContainerHooks;
	/** The kubelet's serializeImagePulls (default true): one pull at a time, the rest queue. */
	serializeImagePulls?: boolean;
	/** containerd's version (default v2.2.1). */
	version?: string;
	/** The sandbox image (default registry.k8s.io/pause:3.10.2, aligned with kubeadm v1.36). */
	sandboxImage?: string;
	/** Whether a CNI network is configured (default: yes). */
	networkReady?: () => boolean;
	/** The node's files, where bind mounts (volumes) come from; without them a mount shows an empty directory. */
	hostFiles?: HostFiles;
}

interface PullJob {
	opId: number;
	image: string;
	requester: string;
	requestedMs: number;
	startedMs?: number;
	doneAtMs?: number;
}

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

export class ContainerRuntime extends ProcessBase<RuntimeProcessState> {
	readonly host: RuntimeHostState;
	private readonly kubeletId: string;

	constructor(
		kernel: Kernel,
		readonly node: string,
		private readonly deps: ContainerRuntimeDeps,
	) {
		super(`container-runtime/${node}`, kernel);
		this.host = deps.host;
		this.kubeletId = deps.kubeletId ?? `kubelet/${node}`;
	}

	freshState(): RuntimeProcessState {
		return { pulls: [], sandboxOps: [], nextOpId: 1, checks: {} };
	}

	private get containerdVersion(): string {
		return this.deps.version ?? DEFAULT_CONTAINERD_VERSION;
	}

	private get sandboxImage(): string {
		return this.deps.sandboxImage ?? PAUSE_IMAGE;
	}

	onStart(): void {
		const h = this.host;
		h.service = { active: true, mainPid: h.nextPid, sinceWallMs: this.kernel.wallMs() };
		h.nextPid += 3 + this.rng.int(20);
		this.journal('info', `starting containerd revision=${syntheticHex64(this.containerdVersion).slice(0, 12)} version=${this.containerdVersion}`);
		this.journal('info', `serving on ${errors.CONTAINERD_SOCKET}`);
		// Containers kept running under their shims; catch up with them and watch their exits again.
		for (const c of Object.values(h.containers)) {
			// A record that says running with no process behind it: the machine lost power (restart.go, loadContainer).
			if (c.state === 'CONTAINER_RUNNING' && !c.program) {
				this.recoverLostTask(c);
				continue;
			}
			this.catchUp(c);
			if (c.state === 'CONTAINER_RUNNING') this.scheduleCheck(c, false);
		}
		this.emit({ action: 'start', msg: `containerd ${this.containerdVersion} started (${Object.keys(h.containers).length} containers known)` });
		this.kernel.schedule(this.kubeletId, 0, CRI_EVENT_KIND, { type: 'runtime-started' } satisfies CriEvent);
	}

	onStop(): void {
		const h = this.host;
		h.service = { active: false, mainPid: 0, sinceWallMs: this.kernel.wallMs() };
		this.journal('info', 'stopping containerd; running containers stay up under their shims');
		for (const job of this.state.pulls) {
			const event: CriEvent = { type: 'pull-done', opId: job.opId, image: job.image, ok: false, error: errors.runtimeWentAway() };
			this.kernel.schedule(job.requester, 0, CRI_EVENT_KIND, event);
		}
		for (const op of this.state.sandboxOps) {
			const event: CriEvent = { type: 'sandbox-ready', opId: op.opId, podUid: op.config.podUid, ok: false, error: errors.runtimeWentAway() };
			this.kernel.schedule(op.requester, 0, CRI_EVENT_KIND, event);
		}
	}

	handle(event: QueuedEvent): void {
		try {
			switch (event.kind) {
				case 'pull-done':
					this.finishPull((event.payload as { opId: number }).opId);
					break;
				case 'sandbox-ready':
					this.finishSandbox((event.payload as { opId: number }).opId);
					break;
				case 'container-check': {
					const { id, atMs } = event.payload as { id: string; atMs: number };
					if (this.state.checks[id] !== atMs) break;
					delete this.state.checks[id];
					const c = this.host.containers[id];
					if (!c) break;
					this.catchUp(c);
					if (c.state === 'CONTAINER_RUNNING') this.scheduleCheck(c, false);
					break;
				}
			}
		} catch (error) {
			this.journal('error', `internal error handling ${event.kind}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	// ---- helpers --------------------------------------------------------------------------

	private get up(): boolean {
		return this.kernel.isRunning(this.id);
	}

	private down<T>(): CriResult<T> {
		return { ok: false, error: errors.runtimeDown() };
	}

	private newId(): string {
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

	private notify(event: CriEvent, to = this.kubeletId): void {
		this.kernel.schedule(to, 0, CRI_EVENT_KIND, event);
	}

	private catalogImageOf(c: ContainerRecord): CatalogImage | undefined {
		const found = resolveImage(c.image);
		return found.ok ? found.resolved.image : undefined;
	}

	/** The program host of a container: its files, its log, its listening ports, its hooks. */
	private programHost(c: ContainerRecord, image: CatalogImage): ProgramHost {
		return {
			image,
			ctx: c.ctx,
			files: c.files,
			epochMs: this.kernel.epochMs,
			write: (atMs, line) => {
				c.logs.push({ wallMs: this.kernel.epochMs + atMs, stream: line.stream, text: line.text });
				if (c.logs.length > CONTAINER_LOG_MAX + CONTAINER_LOG_MAX / 10) c.logs.splice(0, c.logs.length - CONTAINER_LOG_MAX);
			},
			listening: (port, atMs) => this.listenersOf(c.sandboxId, atMs).some((l) => l.port.port === port),
			onServe: (server, atMs) => this.onServe(c, server, atMs),
		};
	}

	/** A server started in a container: fire the control-plane hooks. */
	private onServe(c: ContainerRecord, server: ServerSpec, atMs: number): void {
		const component = server.component;
		if (!component) return;
		const hooks = this.deps.hooks;
		if (hooks?.isComponentFailing(this.node, component)) {
			// The reader broke this component: the process dies right after start.
			server.exitsAfter = { afterMs: 1_000, exitCode: 1, reason: 'Error', lines: [{ stream: 'stderr', text: `E${component}: fatal: cannot start (fault injected); exiting` }] };
			return;
		}
		c.component = component;
		this.emit({ action: 'start', object: `containers/${c.id.slice(0, 13)}`, msg: `${component} started in container ${c.name}` });
		void atMs;
		hooks?.onSystemContainerStart(this.node, component);
	}

	/** Runs a container's process up to now; records its exit. */
	private catchUp(c: ContainerRecord): void {
		if (c.state !== 'CONTAINER_RUNNING' || !c.program) return;
		const image = this.catalogImageOf(c);
		if (!image) return;
		// A process that runs commands sees the node's files as they are now, and what it writes under a volume reaches the node.
		const runs = programMayRun(c.program, this.nowMs);
		if (runs) this.syncContainerMounts(c, image);
		advanceProgram(c.program, this.programHost(c, image), this.nowMs);
		if (runs) this.syncContainerMounts(c, image);
		if (c.program.exited) this.recordExit(c);
	}

	/** Keeps a container's bind mounts in step with the node (./mounts.ts). */
	private syncContainerMounts(c: ContainerRecord, image: CatalogImage): void {
		const mounts = c.ctx.mounts;
		if (!mounts?.length) return;
		c.mounted = syncMounts(c.files, c.mounted, mounts, this.deps.hostFiles, baselinePaths(image));
	}

	private recordExit(c: ContainerRecord): void {
		const exit = c.program?.exited;
		if (!exit || c.state === 'CONTAINER_EXITED') return;
		c.state = 'CONTAINER_EXITED';
		c.exitCode = exit.code;
		c.reason = exit.reason;
		c.finishedMs = exit.atMs;
		delete this.state?.checks?.[c.id];
		this.journal('info', `container ${c.id} exited with status ${exit.code} (${exit.reason})`);
		this.emit({ action: 'exit', object: `containers/${c.id.slice(0, 13)}`, msg: `container ${c.namespace}/${c.podName}/${c.name} exited with code ${exit.code} (${exit.reason})` });
		if (c.component) {
			const component = c.component;
			c.component = undefined;
			this.deps.hooks?.onSystemContainerStop(this.node, component);
		}
		if (this.up) this.notify({ type: 'container-exited', containerId: c.id, podUid: c.podUid });
	}

	/** Schedules the runtime to look at a container when its process is predicted to exit. */
	private scheduleCheck(c: ContainerRecord, stopping: boolean): void {
		if (!this.up || c.state !== 'CONTAINER_RUNNING' || !c.program) return;
		const image = this.catalogImageOf(c);
		if (!image) return;
		const prediction = predictExit(c.program, this.programHost(c, image), this.nowMs + PREDICT_HORIZON_MS);
		const atMs = prediction.exit?.atMs ?? prediction.recheckAtMs ?? this.nowMs + PREDICT_HORIZON_MS;
		if (this.state.checks[c.id] === atMs) return;
		this.state.checks[c.id] = atMs;
		// A stop (deletion, liveness kill) or a near exit is work settle() waits for; a far exit or a re-check is not.
		const background = !prediction.exit || (!stopping && !c.program.stop && atMs - this.nowMs > FOREGROUND_EXIT_MS);
		this.after(atMs - this.nowMs, 'container-check', { id: c.id, atMs }, { background });
	}

	// ---- RuntimeService: version and status ----------------------------------------------

	/** CRI Version. */
	version(): CriResult<VersionInfo> {
		if (!this.up) return this.down();
		return { ok: true, value: { version: '0.1.0', runtimeName: 'containerd', runtimeVersion: this.containerdVersion, runtimeApiVersion: 'v1' } };
	}

	/** CRI Status: RuntimeReady and NetworkReady. */
	status(): CriResult<RuntimeCondition[]> {
		if (!this.up) return this.down();
		const network = this.deps.networkReady?.() ?? true;
		return {
			ok: true,
			value: [
				{ type: 'RuntimeReady', status: true, reason: '', message: '' },
				network ? { type: 'NetworkReady', status: true, reason: '', message: '' } : { type: 'NetworkReady', status: false, reason: 'NetworkPluginNotReady', message: 'Network plugin returns error: cni plugin not initialized' },
			],
		};
	}

	// ---- ImageService -----------------------------------------------------------------------

	private toImageInfo(i: ImageRecord): ImageInfo {
		return { id: i.id, repoTags: [...i.repoTags], repoDigests: [...i.repoDigests], sizeBytes: i.sizeBytes, pinned: i.pinned };
	}

	/** The local image a reference names (by tag, digest or id). */
	private findLocal(image: string): ImageRecord | undefined {
		if (this.host.images[image]) return this.host.images[image];
		const parsed = parseImageRef(image);
		if (!parsed.ok) return undefined;
		const ref = parsed.ref;
		return Object.values(this.host.images).find((i) => (ref.digest ? i.repoDigests.includes(`${ref.repository}@${ref.digest}`) : i.repoTags.includes(ref.normalized)));
	}

	/** CRI ImageStatus: the image if present, undefined if not. */
	imageStatus(image: string): CriResult<ImageInfo | undefined> {
		if (!this.up) return this.down();
		const found = this.findLocal(image);
		return { ok: true, value: found ? this.toImageInfo(found) : undefined };
	}

	/** CRI ListImages, sorted by first tag. */
	listImages(): CriResult<ImageInfo[]> {
		if (!this.up) return this.down();
		const list = Object.values(this.host.images).map((i) => this.toImageInfo(i));
		list.sort((a, b) => (a.repoTags[0] ?? a.id).localeCompare(b.repoTags[0] ?? b.id));
		return { ok: true, value: list };
	}

	/** CRI RemoveImage: forgets the image (a container made from it keeps its own snapshot). */
	removeImage(image: string): CriResult<void> {
		if (!this.up) return this.down();
		const found = this.findLocal(image);
		if (!found) return { ok: true, value: undefined };
		delete this.host.images[found.id];
		this.journal('info', `removed image ${found.repoTags[0] ?? found.id}`);
		return { ok: true, value: undefined };
	}

	/** Puts an image in the store at once, as if pulled earlier (node images baked in, `kubeadm config images pull`). */
	preload(image: string): boolean {
		const found = resolveImage(image);
		if (!found.ok) return false;
		this.addImage(found.resolved.id, found.resolved.repoTag, found.resolved.repoDigest, found.resolved.image.sizeBytes, normalizeImageRef(image) === normalizeImageRef(this.sandboxImage));
		return true;
	}

	private addImage(id: string, repoTag: string | undefined, repoDigest: string, sizeBytes: number, pinned: boolean): ImageRecord {
		const existing = this.host.images[id];
		const record: ImageRecord = existing ?? { id, repoTags: [], repoDigests: [], sizeBytes, pinned };
		if (repoTag) {
			// A tag moves to the newly pulled image.
			for (const other of Object.values(this.host.images)) if (other.id !== id) other.repoTags = other.repoTags.filter((t) => t !== repoTag);
			if (!record.repoTags.includes(repoTag)) record.repoTags.push(repoTag);
		}
		if (!record.repoDigests.includes(repoDigest)) record.repoDigests.push(repoDigest);
		record.pinned = record.pinned || pinned;
		this.host.images[id] = record;
		return record;
	}

	/**
	 * CRI PullImage. Completes later with a `pull-done` event to `requester`.
	 * Pulls run one at a time when serializeImagePulls is on (the default);
	 * the event reports both the pull time and the time including the wait.
	 */
	pullImage(image: string, requester: string): CriResult<{ opId: number }> {
		if (!this.up) return this.down();
		const opId = this.state.nextOpId++;
		this.state.pulls.push({ opId, image, requester, requestedMs: this.nowMs });
		this.journal('info', `PullImage "${image}"`);
		this.startPulls();
		return { ok: true, value: { opId } };
	}

	/** How long a pull takes, and how it ends. */
	private pullPlan(image: string): { ms: number; error?: errors.CriError } {
		const found = resolveImage(image);
		const shown = found.ok ? found.resolved.ref.normalized : (found.ref?.normalized ?? image);
		if (!found.ok) {
			if (found.error) return { ms: 0, error: { code: 'Unknown', desc: `failed to pull and unpack image "${image}": ${found.error}` } };
			const ref = found.ref!;
			switch (found.miss.kind) {
				case 'no-such-host':
					return { ms: PULL_NO_SUCH_HOST_MS, error: errors.noSuchHost(shown, ref.domain, ref.repository.slice(ref.domain.length + 1), ref.digest ?? ref.tag ?? 'latest') };
				case 'repository-not-found':
					// Docker Hub cannot tell a missing repository from a private one (401); other registries say 404.
					return { ms: PULL_NOT_FOUND_MS, error: ref.domain === 'docker.io' ? errors.repositoryNotFound(shown) : errors.manifestNotFound(shown) };
				default:
					return { ms: PULL_NOT_FOUND_MS, error: errors.manifestNotFound(shown) };
			}
		}
		if (this.host.images[found.resolved.id]) return { ms: PULL_UNCHANGED_MS };
		return { ms: PULL_OVERHEAD_MS + Math.round(found.resolved.image.sizeBytes / PULL_BYTES_PER_MS) };
	}

	private startPulls(): void {
		const serialize = this.deps.serializeImagePulls ?? true;
		for (const job of this.state.pulls) {
			if (job.startedMs !== undefined) {
				if (serialize) return;
				continue;
			}
			job.startedMs = this.nowMs;
			job.doneAtMs = this.nowMs + this.pullPlan(job.image).ms;
			this.after(job.doneAtMs - this.nowMs, 'pull-done', { opId: job.opId });
			if (serialize) return;
		}
	}

	private finishPull(opId: number): void {
		const index = this.state.pulls.findIndex((j) => j.opId === opId);
		if (index < 0) return;
		const [job] = this.state.pulls.splice(index, 1);
		const plan = this.pullPlan(job.image);
		const found = resolveImage(job.image);
		if (plan.error || !found.ok) {
			const error = plan.error ?? errors.manifestNotFound(job.image);
			this.journal('error', `PullImage "${job.image}" failed: ${errors.criErrorText(error)}`);
			this.notify({ type: 'pull-done', opId, image: job.image, ok: false, error }, job.requester);
		} else {
			const r = found.resolved;
			this.addImage(r.id, r.repoTag, r.repoDigest, r.image.sizeBytes, false);
			this.journal('info', `PullImage "${job.image}" returns image reference "${r.id}"`);
			this.emit({ action: 'pull', msg: `pulled ${r.ref.normalized} (${r.image.sizeBytes} bytes)` });
			this.notify({ type: 'pull-done', opId, image: job.image, ok: true, imageRef: r.id, sizeBytes: r.image.sizeBytes, pullMs: this.nowMs - (job.startedMs ?? job.requestedMs), totalMs: this.nowMs - job.requestedMs }, job.requester);
		}
		this.startPulls();
	}

	// ---- RuntimeService: sandboxes -----------------------------------------------------------

	private toSandboxInfo(s: SandboxRecord): SandboxInfo {
		return { id: s.id, podUid: s.podUid, podName: s.podName, namespace: s.namespace, attempt: s.attempt, state: s.state, ip: s.ip, hostNetwork: s.hostNetwork, createdWallMs: s.createdWallMs, labels: { ...s.labels }, annotations: { ...s.annotations } };
	}

	/**
	 * CRI RunPodSandbox: pulls the sandbox image if missing (containerd does
	 * this itself, with no kubelet event), starts the pause container and
	 * sets up the network. Completes with a `sandbox-ready` event.
	 */
	runPodSandbox(config: SandboxConfig, requester: string): CriResult<{ opId: number }> {
		if (!this.up) return this.down();
		const opId = this.state.nextOpId++;
		let ms = SANDBOX_SETUP_MS;
		if (!this.findLocal(this.sandboxImage)) ms += this.pullPlan(this.sandboxImage).ms;
		this.state.sandboxOps.push({ opId, requester, config: deepCopy(config), readyAtMs: this.nowMs + ms });
		this.journal('info', `RunPodSandbox for pod ${config.namespace}/${config.podName} uid=${config.podUid} attempt=${config.attempt}`);
		this.after(ms, 'sandbox-ready', { opId });
		return { ok: true, value: { opId } };
	}

	private finishSandbox(opId: number): void {
		const index = this.state.sandboxOps.findIndex((o) => o.opId === opId);
		if (index < 0) return;
		const [op] = this.state.sandboxOps.splice(index, 1);
		const config = op.config;
		const fail = (error: errors.CriError) => {
			this.journal('error', `RunPodSandbox for ${config.namespace}/${config.podName} failed: ${errors.criErrorText(error)}`);
			this.notify({ type: 'sandbox-ready', opId, podUid: config.podUid, ok: false, error }, op.requester);
		};
		if (!this.findLocal(this.sandboxImage) && !this.preload(this.sandboxImage)) return fail(errors.manifestNotFound(this.sandboxImage));
		const pause = this.findLocal(this.sandboxImage);
		if (pause) pause.pinned = true;
		const id = this.newId();
		let ip = this.host.nodeIp;
		if (!config.hostNetwork) {
			if (!(this.deps.networkReady?.() ?? true)) return fail({ code: 'Unknown', desc: `failed to setup network for sandbox "${id}": cni plugin not initialized` });
			const allocated = allocateIp(this.host, id);
			if (!allocated) {
				return fail({ code: 'Unknown', desc: `failed to setup network for sandbox "${id}": plugin type="bridge" failed (add): failed to allocate for range 0: no IP addresses available in range set: ${gatewayIp(this.host.podCidr)}-${this.host.podCidr.replace(/\.0\/\d+$/, '.254')}` });
			}
			ip = allocated;
		}
		const record: SandboxRecord = {
			id,
			podUid: config.podUid,
			podName: config.podName,
			namespace: config.namespace,
			attempt: config.attempt,
			state: 'SANDBOX_READY',
			ip,
			hostNetwork: config.hostNetwork,
			hostname: config.hostname,
			createdMs: this.nowMs,
			createdWallMs: this.kernel.wallMs(),
			labels: { ...config.labels },
			annotations: { ...config.annotations },
		};
		this.host.sandboxes[id] = record;
		this.journal('info', `RunPodSandbox for ${config.namespace}/${config.podName} returns sandbox id "${id}"`);
		this.emit({ action: 'sandbox', object: `pods/${config.namespace}/${config.podName}`, msg: `sandbox ${id.slice(0, 13)} ready, IP ${ip}` });
		this.notify({ type: 'sandbox-ready', opId, podUid: config.podUid, ok: true, sandboxId: id }, op.requester);
	}

	/** CRI StopPodSandbox: kills what still runs in the pod and tears its network down. */
	stopPodSandbox(id: string): CriResult<void> {
		if (!this.up) return this.down();
		const s = this.host.sandboxes[id];
		if (!s) return { ok: true, value: undefined };
		for (const c of Object.values(this.host.containers)) {
			if (c.sandboxId !== id) continue;
			this.catchUp(c);
			if (c.state === 'CONTAINER_RUNNING' && c.program) {
				killNow(c.program, this.nowMs);
				this.recordExit(c);
			}
		}
		if (s.state === 'SANDBOX_READY') {
			s.state = 'SANDBOX_NOTREADY';
			if (!s.hostNetwork) releaseIp(this.host, s.ip);
			this.journal('info', `StopPodSandbox for "${id}" returns successfully`);
		}
		return { ok: true, value: undefined };
	}

	/** CRI RemovePodSandbox: removes the sandbox and all its containers. */
	removePodSandbox(id: string): CriResult<void> {
		if (!this.up) return this.down();
		const s = this.host.sandboxes[id];
		if (!s) return { ok: true, value: undefined };
		if (s.state === 'SANDBOX_READY') this.stopPodSandbox(id);
		for (const c of Object.values(this.host.containers)) if (c.sandboxId === id) delete this.host.containers[c.id];
		delete this.host.sandboxes[id];
		this.journal('info', `RemovePodSandbox for "${id}" returns successfully`);
		return { ok: true, value: undefined };
	}

	/** CRI ListPodSandbox. */
	listPodSandbox(filter: { podUid?: string; state?: SandboxRecord['state'] } = {}): CriResult<SandboxInfo[]> {
		if (!this.up) return this.down();
		const list = Object.values(this.host.sandboxes)
			.filter((s) => (!filter.podUid || s.podUid === filter.podUid) && (!filter.state || s.state === filter.state))
			.sort((a, b) => a.createdMs - b.createdMs || a.id.localeCompare(b.id))
			.map((s) => this.toSandboxInfo(s));
		return { ok: true, value: list };
	}

	/** CRI PodSandboxStatus. */
	podSandboxStatus(id: string): CriResult<SandboxInfo> {
		if (!this.up) return this.down();
		const s = this.host.sandboxes[id];
		return s ? { ok: true, value: this.toSandboxInfo(s) } : { ok: false, error: errors.sandboxNotFound(id) };
	}

	// ---- RuntimeService: containers -------------------------------------------------------------

	private toContainerInfo(c: ContainerRecord): ContainerInfo {
		const e = this.kernel.epochMs;
		return {
			id: c.id,
			sandboxId: c.sandboxId,
			podUid: c.podUid,
			podName: c.podName,
			namespace: c.namespace,
			name: c.name,
			attempt: c.attempt,
			image: c.image,
			imageRef: c.imageRef,
			repoDigest: c.repoDigest,
			state: c.state,
			createdWallMs: e + c.createdMs,
			startedWallMs: c.startedMs === undefined ? undefined : e + c.startedMs,
			finishedWallMs: c.finishedMs === undefined ? undefined : e + c.finishedMs,
			exitCode: c.exitCode,
			reason: c.reason,
			message: c.message,
			labels: { ...c.labels },
			annotations: { ...c.annotations },
			mounts: (c.ctx.mounts ?? []).map((m) => ({ ...m })),
		};
	}

	/** CRI CreateContainer in a ready sandbox, from a local image. */
	createContainer(sandboxId: string, config: ContainerConfig): CriResult<{ containerId: string }> {
		if (!this.up) return this.down();
		const sandbox = this.host.sandboxes[sandboxId];
		if (!sandbox || sandbox.state !== 'SANDBOX_READY') return { ok: false, error: sandbox ? { code: 'FailedPrecondition', desc: `sandbox container "${sandboxId}" is not running` } : errors.sandboxNotFound(sandboxId) };
		const local = this.findLocal(config.image);
		const resolved = resolveImage(config.image);
		if (!local || !resolved.ok) return { ok: false, error: errors.imageNotFound(config.image) };
		const image = resolved.resolved.image;
		const id = this.newId();
		const argv = resolveArgv(image, config.command, config.args);
		const ctx: ContainerContext = {
			imageRef: config.image,
			hostname: sandbox.hostNetwork ? this.node : sandbox.hostname,
			podName: sandbox.podName,
			namespace: sandbox.namespace,
			podIp: sandbox.ip,
			nodeName: this.node,
			env: [
				{ name: 'PATH', value: image.family === 'distroless' ? '/usr/local/bin:/usr/bin:/bin' : '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
				{ name: 'HOSTNAME', value: sandbox.hostNetwork ? this.node : sandbox.hostname },
				...Object.entries(image.env ?? {}).map(([name, value]) => ({ name, value })),
				...config.env,
				{ name: 'HOME', value: '/root' },
			],
			memoryLimitBytes: config.memoryLimitBytes,
			workingDir: config.workingDir,
			argv,
		};
		if (config.mounts?.length) {
			ctx.mounts = config.mounts.map((m) => ({ containerPath: m.containerPath, hostPath: m.hostPath, readonly: m.readonly }));
			prepareMountSources(this.deps.hostFiles, ctx.mounts);
		}
		const record: ContainerRecord = {
			id,
			sandboxId,
			podUid: sandbox.podUid,
			podName: sandbox.podName,
			namespace: sandbox.namespace,
			name: config.name,
			attempt: config.attempt,
			imageRef: config.image,
			image: resolved.resolved.repoTag ?? local.repoTags[0] ?? resolved.resolved.ref.normalized,
			imageId: local.id,
			repoDigest: resolved.resolved.repoDigest,
			state: 'CONTAINER_CREATED',
			createdMs: this.nowMs,
			ctx,
			files: {},
			logs: [],
			labels: { ...config.labels },
			annotations: { ...config.annotations },
		};
		this.host.containers[id] = record;
		this.syncContainerMounts(record, image);
		this.journal('info', `CreateContainer within sandbox "${sandboxId}" for container ${config.name} attempt ${config.attempt} returns container id "${id}"`);
		return { ok: true, value: { containerId: id } };
	}

	/** CRI StartContainer. A command the image lacks fails here (StartError, exit code 128). */
	startContainer(id: string): CriResult<void> {
		if (!this.up) return this.down();
		const c = this.host.containers[id];
		if (!c) return { ok: false, error: errors.containerNotFound(id) };
		if (c.state !== 'CONTAINER_CREATED') return { ok: false, error: { code: 'FailedPrecondition', desc: `container ${id} is not in created state: ${c.state}` } };
		const image = this.catalogImageOf(c);
		if (!image) return { ok: false, error: errors.imageNotFound(c.image) };
		const program = createProgram(image, c.ctx.argv, this.nowMs);
		if (!program.ok) {
			const error = errors.execNotFound(program.notFound);
			c.state = 'CONTAINER_EXITED';
			c.exitCode = 128;
			c.reason = 'StartError';
			c.message = error.desc;
			c.finishedMs = this.nowMs;
			this.journal('error', `StartContainer for "${id}" failed: ${error.desc}`);
			return { ok: false, error };
		}
		c.program = program.program;
		c.state = 'CONTAINER_RUNNING';
		c.startedMs = this.nowMs;
		this.journal('info', `StartContainer for "${id}" returns successfully`);
		this.emit({ action: 'start', object: `pods/${c.namespace}/${c.podName}`, msg: `started container ${c.name} (${c.id.slice(0, 13)}): ${c.ctx.argv.join(' ')}` });
		this.catchUp(c);
		if (c.state === 'CONTAINER_RUNNING') this.scheduleCheck(c, false);
		return { ok: true, value: undefined };
	}

	/**
	 * CRI StopContainer: the image's stop signal now, SIGKILL after
	 * `timeoutSeconds`. Returns at once; the exit arrives as a
	 * `container-exited` event.
	 */
	stopContainer(id: string, timeoutSeconds: number): CriResult<void> {
		if (!this.up) return this.down();
		const c = this.host.containers[id];
		if (!c) return { ok: false, error: errors.containerNotFound(id) };
		this.catchUp(c);
		if (c.state !== 'CONTAINER_RUNNING' || !c.program) return { ok: true, value: undefined };
		const image = this.catalogImageOf(c);
		this.journal('info', `StopContainer for "${id}" with timeout ${timeoutSeconds} (s)`);
		this.journal('info', `Stop container "${id}" with signal ${image?.stopSignal === 'SIGQUIT' ? 'quit' : image?.stopSignal === 'SIGINT' ? 'interrupt' : image?.stopSignal === 'SIGWINCH' ? 'window changed' : 'terminated'}`);
		requestStop(c.program, this.nowMs, Math.max(0, timeoutSeconds) * 1000);
		this.catchUp(c);
		if (c.state === 'CONTAINER_RUNNING') {
			delete this.state.checks[c.id];
			this.scheduleCheck(c, true);
		}
		return { ok: true, value: undefined };
	}

	/** CRI RemoveContainer (the container must have stopped). */
	removeContainer(id: string): CriResult<void> {
		if (!this.up) return this.down();
		const c = this.host.containers[id];
		if (!c) return { ok: true, value: undefined };
		this.catchUp(c);
		if (c.state === 'CONTAINER_RUNNING') return { ok: false, error: { code: 'FailedPrecondition', desc: `failed to remove container "${id}": container is still running, to stop first` } };
		delete this.host.containers[id];
		delete this.state.checks[id];
		this.journal('info', `RemoveContainer for "${id}" returns successfully`);
		return { ok: true, value: undefined };
	}

	/** CRI ListContainers (catching each process up first). */
	listContainers(filter: { podUid?: string; sandboxId?: string; state?: ContainerRecord['state'] } = {}): CriResult<ContainerInfo[]> {
		if (!this.up) return this.down();
		const list: ContainerInfo[] = [];
		for (const c of Object.values(this.host.containers)) {
			if (filter.podUid && c.podUid !== filter.podUid) continue;
			if (filter.sandboxId && c.sandboxId !== filter.sandboxId) continue;
			this.catchUp(c);
			if (filter.state && c.state !== filter.state) continue;
			list.push(this.toContainerInfo(c));
		}
		list.sort((a, b) => a.createdWallMs - b.createdWallMs || a.id.localeCompare(b.id));
		return { ok: true, value: list };
	}

	/** CRI ContainerStatus. */
	containerStatus(id: string): CriResult<ContainerInfo> {
		if (!this.up) return this.down();
		const c = this.host.containers[id];
		if (!c) return { ok: false, error: errors.containerNotFound(id) };
		this.catchUp(c);
		return { ok: true, value: this.toContainerInfo(c) };
	}

	/** CRI ExecSync: runs a command inside a running container (exec probes, `kubectl exec`). Time does not pass. */
	execSync(id: string, argv: string[], timeoutSeconds = 0): CriResult<ExecResult> {
		void timeoutSeconds;
		if (!this.up) return this.down();
		const c = this.host.containers[id];
		if (!c) return { ok: false, error: errors.containerNotFound(id) };
		this.catchUp(c);
		if (c.state !== 'CONTAINER_RUNNING' || !c.program) return { ok: false, error: errors.containerNotRunning(id, c.state) };
		const image = this.catalogImageOf(c);
		if (!image) return { ok: false, error: errors.imageNotFound(c.image) };
		const system = c.component && this.deps.hooks?.exec?.(this.node, c.component, argv);
		if (system) return { ok: true, value: system };
		const sandbox = this.host.sandboxes[c.sandboxId];
		// The command sees the volumes as they are now; what it writes under one reaches the node.
		this.syncContainerMounts(c, image);
		// curl, run directly or from a shell, goes out on the pod's network and reads the container's files (--cacert, -d @file).
		const pod = sandbox ? { namespace: c.namespace, name: c.podName, ip: sandbox.ip, hostname: c.ctx.hostname, hostNetwork: sandbox.hostNetwork } : undefined;
		const hook = this.deps.hooks?.podNetworkCommand;
		const network = pod && hook ? (args: string[], read: (path: string) => string | undefined) => hook(this.node, pod, args, read) : undefined;
		const host: ProgramHost = { ...this.programHost(c, image), network };
		const networked = network && binaryExists(image, argv[0] ?? '') ? network(argv, (path) => readFile(image, c.ctx, c.files, path)) : undefined;
		if (networked) return { ok: true, value: networked };
		const result = programExecSync(host, argv, this.nowMs);
		this.syncContainerMounts(c, image);
		if (!result.ok) return { ok: false, error: errors.execSyncNotFound(this.newId(), result.notFound) };
		// The command may have changed files the process watches.
		this.scheduleCheck(c, false);
		return { ok: true, value: { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr } };
	}

	/** The container's log (what /var/log/pods holds), newest `tailLines` or all. */
	readLogs(id: string, options: { tailLines?: number; sinceWallMs?: number } = {}): CriResult<Array<{ wallMs: number; stream: 'stdout' | 'stderr'; text: string }>> {
		if (!this.up) return this.down();
		const c = this.host.containers[id];
		if (!c) return { ok: false, error: errors.containerNotFound(id) };
		this.catchUp(c);
		let lines = c.logs.filter((l) => options.sinceWallMs === undefined || l.wallMs >= options.sinceWallMs);
		if (options.tailLines !== undefined && options.tailLines >= 0) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
		return { ok: true, value: lines.map((l) => ({ ...l })) };
	}

	// ---- probes from the node into the pod ------------------------------------------------------

	/** Servers listening in a sandbox at `atMs`. */
	private listenersOf(sandboxId: string, atMs: number): Array<{ container: ContainerRecord; server: ServerSpec; port: ServerSpec['ports'][number] }> {
		const out: Array<{ container: ContainerRecord; server: ServerSpec; port: ServerSpec['ports'][number] }> = [];
		const sandbox = this.host.sandboxes[sandboxId];
		for (const c of Object.values(this.host.containers)) {
			if (c.state !== 'CONTAINER_RUNNING' || !c.program?.serving) continue;
			// hostNetwork pods share the node's ports: any such pod's server answers.
			if (c.sandboxId !== sandboxId && !(sandbox?.hostNetwork && this.host.sandboxes[c.sandboxId]?.hostNetwork)) continue;
			const s = c.program.serving;
			if (atMs < s.sinceMs + s.server.readyAfterMs) continue;
			for (const port of s.server.ports) out.push({ container: c, server: s.server, port });
		}
		return out;
	}

	/** An HTTP GET from the node to a port of the pod (httpGet probes). */
	probeHttp(sandboxId: string, port: number, path: string, userAgent = PROBE_USER_AGENT): CriResult<ProbeAnswer> {
		if (!this.up) return this.down();
		for (const c of Object.values(this.host.containers)) if (c.sandboxId === sandboxId) this.catchUp(c);
		const listener = this.listenersOf(sandboxId, this.nowMs).find((l) => l.port.port === port);
		if (!listener) return { ok: true, value: { kind: 'refused' } };
		if (listener.port.protocol !== 'http') return { ok: true, value: { kind: 'eof' } };
		const c = listener.container;
		if (listener.server.component) {
			const hook = this.deps.hooks?.probe;
			const status = hook ? hook(this.node, listener.server.component, port, path) : 200;
			return { ok: true, value: status === undefined ? { kind: 'refused' } : { kind: 'http', status } };
		}
		const image = this.catalogImageOf(c);
		if (!image) return { ok: true, value: { kind: 'refused' } };
		// A static-file server reads its document root, which may be a volume.
		if (listener.server.docRoot) this.syncContainerMounts(c, image);
		const answer = httpAnswer(image, c.ctx, c.files, listener.server, path, this.nowMs - (c.program?.serving?.sinceMs ?? this.nowMs));
		const sandbox = this.host.sandboxes[sandboxId];
		const client = sandbox?.hostNetwork ? '127.0.0.1' : (gatewayIp(this.host.podCidr) ?? this.host.nodeIp);
		const line = accessLogLine(listener.server, client, path, answer.status, answer.bytes, userAgent, this.kernel.wallMs());
		if (line) this.programHost(c, image).write(this.nowMs, { stream: 'stdout', text: line });
		return { ok: true, value: { kind: 'http', status: answer.status } };
	}

	/**
	 * An HTTP request from the network to a Pod's address (Service traffic,
	 * curl to a Pod IP): the server's answer, with its name and version, and
	 * the access-log line it writes with the client's address. The
	 * container's process serves, not containerd, so this works while
	 * containerd is down. Undefined: no ready sandbox holds that address.
	 * Without a path, only says whether something listens (nothing is served).
	 */
	serveHttp(ip: string, port: number, path: string | undefined, clientIp: string, userAgent: string): { kind: 'refused' } | { kind: 'eof' } | { kind: 'http'; status: number; bytes: number; body?: string; server: string; version: string; startedWallMs: number; hostname: string } | undefined {
		const sandbox = Object.values(this.host.sandboxes).find((s) => s.state === 'SANDBOX_READY' && !s.hostNetwork && s.ip === ip);
		if (!sandbox) return undefined;
		for (const c of Object.values(this.host.containers)) if (c.sandboxId === sandbox.id) this.catchUp(c);
		const listener = this.listenersOf(sandbox.id, this.nowMs).find((l) => l.port.port === port);
		if (!listener) return { kind: 'refused' };
		if (listener.port.protocol !== 'http' || listener.server.component) return { kind: 'eof' };
		if (path === undefined) return { kind: 'http', status: 0, bytes: 0, server: listener.server.name, version: '', startedWallMs: 0, hostname: '' };
		const c = listener.container;
		const image = this.catalogImageOf(c);
		if (!image) return { kind: 'refused' };
		if (listener.server.docRoot) this.syncContainerMounts(c, image);
		const since = c.program?.serving?.sinceMs ?? this.nowMs;
		const answer = httpAnswer(image, c.ctx, c.files, listener.server, path, this.nowMs - since);
		const line = accessLogLine(listener.server, clientIp, path, answer.status, answer.bytes, userAgent, this.kernel.wallMs());
		if (line) this.programHost(c, image).write(this.nowMs, { stream: 'stdout', text: line });
		const out: { kind: 'http'; status: number; bytes: number; body?: string; server: string; version: string; startedWallMs: number; hostname: string } = { kind: 'http', status: answer.status, bytes: answer.bytes, server: listener.server.name, version: image.version, startedWallMs: this.kernel.epochMs + since, hostname: c.ctx.hostname };
		if (answer.body !== undefined) out.body = answer.body;
		return out;
	}

	/** Writes a line to the log of the running container of a system component (kube-proxy logs through it). */
	appendComponentLog(component: SystemComponent, stream: 'stdout' | 'stderr', text: string): boolean {
		const c = Object.values(this.host.containers).find((x) => x.component === component && x.state === 'CONTAINER_RUNNING');
		const image = c && this.catalogImageOf(c);
		if (!c || !image) return false;
		this.programHost(c, image).write(this.nowMs, { stream, text });
		return true;
	}

	/** A TCP connect from the node to a port of the pod (tcpSocket probes). */
	probeTcp(sandboxId: string, port: number): CriResult<ProbeAnswer> {
		if (!this.up) return this.down();
		for (const c of Object.values(this.host.containers)) if (c.sandboxId === sandboxId) this.catchUp(c);
		const listener = this.listenersOf(sandboxId, this.nowMs).find((l) => l.port.port === port);
		return { ok: true, value: listener ? { kind: 'connected' } : { kind: 'refused' } };
	}

	// ---- the cluster's side -------------------------------------------------------------------------

	/**
	 * The machine lost power (or was shut down): every process on it ends at
	 * this instant and nobody sees it exit. Each container's output up to now
	 * is kept, and its record stays as containerd last wrote it to disk
	 * (running) until containerd starts again and finds no task behind it
	 * (see onStart). The pause processes die too, and the pods' network
	 * namespaces lived on /run, a tmpfs: the sandboxes are not ready and
	 * their addresses are free again. Call it once containerd is stopped.
	 */
	powerLost(): void {
		for (const c of Object.values(this.host.containers)) {
			// Output and exits up to the cut are real; nothing after it happens.
			this.catchUp(c);
			if (c.state !== 'CONTAINER_RUNNING') continue;
			c.program = undefined;
			c.component = undefined;
		}
		for (const s of Object.values(this.host.sandboxes)) {
			if (s.state !== 'SANDBOX_READY') continue;
			s.state = 'SANDBOX_NOTREADY';
			if (!s.hostNetwork) releaseIp(this.host, s.ip);
		}
	}

	/**
	 * containerd's recovery of a container whose task is gone (a reboot):
	 * the CRI plugin marks it exited with the unknown exit code 255 and the
	 * reason `Unknown`, finished now (containerd internal/cri/server
	 * restart.go loadContainer; unknownExitCode and unknownExitReason in
	 * helpers.go).
	 */
	private recoverLostTask(c: ContainerRecord): void {
		c.state = 'CONTAINER_EXITED';
		c.exitCode = UNKNOWN_EXIT_CODE;
		c.reason = UNKNOWN_EXIT_REASON;
		c.finishedMs = this.nowMs;
		c.component = undefined;
		this.journal('info', `container ${c.id} was running but its task is gone; marked exited with status ${UNKNOWN_EXIT_CODE} (${UNKNOWN_EXIT_REASON})`);
		this.emit({ action: 'exit', object: `containers/${c.id.slice(0, 13)}`, msg: `container ${c.namespace}/${c.podName}/${c.name} found without its process after a reboot: exit code ${UNKNOWN_EXIT_CODE} (${UNKNOWN_EXIT_REASON})` });
	}

	/**
	 * The simulated process behind a system container died on its own (a
	 * crash the cluster models): its container exits with `exitCode`, and
	 * the kubelet restarts it as it would any container.
	 */
	markComponentExited(component: SystemComponent, exitCode: number): boolean {
		for (const c of Object.values(this.host.containers)) {
			if (c.component !== component || c.state !== 'CONTAINER_RUNNING' || !c.program) continue;
			this.catchUp(c);
			if (c.state !== 'CONTAINER_RUNNING' || !c.program) continue;
			c.component = undefined;
			c.program.exited = { code: exitCode, atMs: this.nowMs, reason: exitCode === 0 ? 'Completed' : 'Error' };
			this.recordExit(c);
			return true;
		}
		return false;
	}

	/** The component a running container serves, if any (for tools such as crictl). */
	componentOf(containerId: string): SystemComponent | undefined {
		return this.host.containers[containerId]?.component;
	}
}

/** Whether a catalogue image is backed by a control-plane process. */
export function isSystemImage(image: string): boolean {
	const found = resolveImage(image);
	return found.ok && systemComponentOf(found.resolved.image) !== undefined;
}
