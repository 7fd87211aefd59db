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
 * This file is the process: its start and stop, its events, and the CRI
 * methods, each handed to the part of the CRI plugin it belongs to, all of
 * them sharing one CriService (./server/cri-service.ts) over the process's
 * state: the image service (./server/image-service.ts), the pod sandbox
 * calls (./server/sandbox-service.ts), the container calls
 * (./server/container-service.ts), Version and Status
 * (./server/status.ts), exits (./server/events.ts), the processes under
 * their shims (./server/container-process.ts), the recovery at start
 * (./server/restart.ts) and traffic into pods (./server/pod-traffic.ts).
 *
 * Mirrors containerd/containerd internal/cri/server/service.go (the
 * criService and its Run), containerd/containerd
 * cmd/containerd/server/server.go (starting and stopping it).
 */
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { syntheticHex64, type SystemComponent } from './images.ts';
import type { CniPaths } from './cni.ts';
import type { FsStats } from '../host/filesystem-stats.ts';
import type { NodeDisk } from '../host/disk.ts';
import * as errors from './errors.ts';
import type { RuntimeHostState } from './host-state.ts';
import type { ContainerConfig, ContainerInfo, ContainerStats, CriEvent, CriResult, CriRuntime, ExecResult, ImageInfo, LogEntry, ProbeAnswer, RuntimeCondition, SandboxConfig, SandboxInfo, StatusRequest, StatusResponse, VersionInfo } from '../cri-api/cri.ts';
import { CriService, type RuntimeProcessState } from './server/cri-service.ts';
import * as images from './server/image-service.ts';
import * as sandboxes from './server/sandbox-service.ts';
import * as containers from './server/container-service.ts';
import * as runtimeStatus from './server/status.ts';
import { CONTAINER_CHECK, markComponentExited, onContainerCheck } from './server/events.ts';
import { appendComponentLog, appendContainerLog, componentContainers, containerFile, type ComponentContainer } from './server/container-process.ts';
import { listContainerStats } from './server/stats.ts';
import { powerLost, recoverContainers } from './server/restart.ts';
import { probeHttp, probeTcp, serveHttp, type ServedAnswer } from './server/pod-traffic.ts';

export { PULL_BYTES_PER_MS, PULL_NO_SUCH_HOST_MS, PULL_NOT_FOUND_MS, PULL_OVERHEAD_MS, PULL_UNCHANGED_MS } from './server/image-service.ts';
export { SANDBOX_SETUP_MS } from './server/sandbox-service.ts';
export { UNKNOWN_EXIT_CODE, UNKNOWN_EXIT_REASON } from './server/restart.ts';
export { DEFAULT_CONTAINERD_VERSION, type RuntimeProcessState } from './server/cri-service.ts';

/** The container a system component runs in: which Pod, its address and its argv (the component's flags). */
export interface SystemContainerInfo {
	containerId: string;
	namespace: string;
	podName: string;
	podIp: string;
	argv: string[];
}

/** Control-plane processes backed by static-pod containers: the cluster starts and stops them. */
/** Who runs a network command in a Pod: the Pod, its address, and the image whose tools answer. */
export interface PodNetworkIdentity {
	namespace: string;
	name: string;
	ip: string;
	hostname: string;
	hostNetwork: boolean;
	image?: { repository: string; version: string; family: string };
}

export interface SystemContainerHooks {
	/** A container running `component` started on `node` (start the simulated process); `container` says which (add-ons such as metrics-server run one process per container). */
	onSystemContainerStart(node: string, component: SystemComponent, container?: SystemContainerInfo): void;
	/** That container stopped (stop the simulated process). */
	onSystemContainerStop(node: string, component: SystemComponent, containerId?: string): void;
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
	podNetworkCommand?(node: string, pod: PodNetworkIdentity, argv: string[], readFile?: (path: string) => string | undefined): { exitCode: number; stdout: string; stderr: string; files?: Record<string, string> } | undefined;
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
	/** Whether a CNI network is configured (default: yes). Ignored with `cni`. */
	networkReady?: () => boolean;
	/**
	 * containerd reads its CNI config and plugins from the node's files
	 * (`hostFiles`) at these paths (./cni.ts): NetworkReady follows
	 * /etc/cni/net.d and each sandbox's network set-up runs the plugins.
	 * Without it the network is always ready and set-up always succeeds.
	 */
	cni?: CniPaths;
	/** The node's files, where bind mounts (volumes) come from; without them a mount shows an empty directory. */
	hostFiles?: NodeDisk;
	/** The node's root file system now (a write that does not fit fails with ENOSPC); without it, writes never fill a disk. */
	rootFs?: () => FsStats;
	/** The machine's memory and what its own daemons use (./server/oom-killer.ts); without it, memory never runs out. */
	memory?: { capacityBytes: number; systemBytes: number };
}

export class ContainerRuntime extends ProcessBase<RuntimeProcessState> implements CriRuntime {
	readonly host: RuntimeHostState;
	private readonly ctx: CriService;

	constructor(
		kernel: Kernel,
		readonly node: string,
		deps: ContainerRuntimeDeps,
	) {
		super(`container-runtime/${node}`, kernel);
		this.host = deps.host;
		this.ctx = new CriService({ kernel, id: this.id, node, deps, state: () => this.state });
	}

	freshState(): RuntimeProcessState {
		return { pulls: [], sandboxOps: [], nextOpId: 1, checks: {} };
	}

	onStart(): void {
		const ctx = this.ctx;
		const h = this.host;
		h.service = { active: true, mainPid: h.nextPid, sinceWallMs: this.kernel.wallMs() };
		h.nextPid += 3 + this.rng.int(20);
		ctx.journal('info', `starting containerd revision=${syntheticHex64(ctx.containerdVersion).slice(0, 12)} version=${ctx.containerdVersion}`);
		ctx.journal('info', `serving on ${errors.CONTAINERD_SOCKET}`);
		// Containers kept running under their shims; catch up with them and watch their exits again.
		recoverContainers(ctx);
		this.emit({ action: 'start', msg: `containerd ${ctx.containerdVersion} started (${Object.keys(h.containers).length} containers known)` });
		ctx.notify({ type: 'runtime-started' });
	}

	onStop(): void {
		const ctx = this.ctx;
		const h = this.host;
		h.service = { active: false, mainPid: 0, sinceWallMs: this.kernel.wallMs() };
		ctx.journal('info', 'stopping containerd; running containers stay up under their shims');
		for (const job of this.state.pulls) {
			const event: CriEvent = { type: 'pull-done', opId: job.opId, image: job.image, ok: false, error: errors.runtimeWentAway() };
			ctx.notify(event, job.requester);
		}
		for (const op of this.state.sandboxOps) {
			const event: CriEvent = { type: 'sandbox-ready', opId: op.opId, podUid: op.config.podUid, ok: false, error: errors.runtimeWentAway() };
			ctx.notify(event, op.requester);
		}
	}

	handle(event: QueuedEvent): void {
		try {
			switch (event.kind) {
				case images.PULL_DONE:
					images.finishPull(this.ctx, (event.payload as { opId: number }).opId);
					break;
				case sandboxes.SANDBOX_READY:
					sandboxes.finishSandbox(this.ctx, (event.payload as { opId: number }).opId);
					break;
				case CONTAINER_CHECK:
					onContainerCheck(this.ctx, event.payload as { id: string; atMs: number });
					break;
			}
		} catch (error) {
			this.ctx.journal('error', `internal error handling ${event.kind}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}

	// ---- RuntimeService: version and status ----------------------------------------------

	/** CRI Version. */
	version(): CriResult<VersionInfo> {
		return runtimeStatus.version(this.ctx);
	}

	/** CRI Status: RuntimeReady and NetworkReady; with a request, the StatusResponse (containerd's info when verbose). */
	status(): CriResult<RuntimeCondition[]>;
	status(request: StatusRequest): CriResult<StatusResponse>;
	status(request?: StatusRequest): CriResult<RuntimeCondition[]> | CriResult<StatusResponse> {
		return request ? runtimeStatus.status(this.ctx, request.verbose) : runtimeStatus.conditions(this.ctx);
	}

	// ---- ImageService -----------------------------------------------------------------------

	/** CRI ImageStatus: the image if present, undefined if not. */
	imageStatus(image: string, verbose = false): CriResult<ImageInfo | undefined> {
		return images.imageStatus(this.ctx, image, verbose);
	}

	/** CRI ListImages, sorted by first tag. */
	listImages(): CriResult<ImageInfo[]> {
		return images.listImages(this.ctx);
	}

	/** CRI RemoveImage. */
	removeImage(image: string): CriResult<void> {
		return images.removeImage(this.ctx, image);
	}

	/** Puts an image in the store at once, as if pulled earlier (node images baked in, `kubeadm config images pull`). */
	preload(image: string): boolean {
		return images.preload(this.ctx, image);
	}

	/** Puts an image in the store under the names and with the size given, as a node built with it has it (see image-service.ts preloadNamed). */
	preloadNamed(names: string[], sizeBytes: number): { ok: true } | { ok: false; error: string } {
		return images.preloadNamed(this.ctx, names, sizeBytes);
	}

	/** CRI PullImage. Completes later with a `pull-done` event to `requester`. */
	pullImage(image: string, requester: string): CriResult<{ opId: number }> {
		return images.pullImage(this.ctx, image, requester);
	}

	// ---- RuntimeService: sandboxes -----------------------------------------------------------

	/** CRI RunPodSandbox. Completes with a `sandbox-ready` event to `requester`. */
	runPodSandbox(config: SandboxConfig, requester: string): CriResult<{ opId: number }> {
		return sandboxes.runPodSandbox(this.ctx, config, requester);
	}

	/** CRI StopPodSandbox. */
	stopPodSandbox(id: string): CriResult<void> {
		return sandboxes.stopPodSandbox(this.ctx, id);
	}

	/** CRI RemovePodSandbox. */
	removePodSandbox(id: string): CriResult<void> {
		return sandboxes.removePodSandbox(this.ctx, id);
	}

	/** CRI ListPodSandbox. */
	listPodSandbox(filter: { podUid?: string; state?: SandboxInfo['state'] } = {}): CriResult<SandboxInfo[]> {
		return sandboxes.listPodSandbox(this.ctx, filter);
	}

	/** CRI PodSandboxStatus. */
	podSandboxStatus(id: string, verbose = false): CriResult<SandboxInfo> {
		return sandboxes.podSandboxStatus(this.ctx, id, verbose);
	}

	// ---- RuntimeService: containers -------------------------------------------------------------

	/** CRI CreateContainer. */
	createContainer(sandboxId: string, config: ContainerConfig): CriResult<{ containerId: string }> {
		return containers.createContainer(this.ctx, sandboxId, config);
	}

	/** CRI StartContainer. */
	startContainer(id: string): CriResult<void> {
		return containers.startContainer(this.ctx, id);
	}

	/** CRI StopContainer. Returns at once; the exit arrives as a `container-exited` event. */
	stopContainer(id: string, timeoutSeconds: number): CriResult<void> {
		return containers.stopContainer(this.ctx, id, timeoutSeconds);
	}

	/** CRI RemoveContainer. */
	removeContainer(id: string): CriResult<void> {
		return containers.removeContainer(this.ctx, id);
	}

	/** CRI ListContainers. */
	listContainers(filter: { podUid?: string; sandboxId?: string; state?: ContainerInfo['state'] } = {}): CriResult<ContainerInfo[]> {
		return containers.listContainers(this.ctx, filter);
	}

	/** CRI ContainerStatus. */
	containerStatus(id: string): CriResult<ContainerInfo> {
		return containers.containerStatus(this.ctx, id);
	}

	/** CRI ExecSync (and the streaming Exec, with its standard input whole). Time does not pass. */
	execSync(id: string, argv: string[], timeoutSeconds = 0, stdin?: string): CriResult<ExecResult> {
		void timeoutSeconds;
		return containers.execSync(this.ctx, id, argv, stdin);
	}

	/** CRI ListContainerStats: CPU and memory of the running containers. */
	listContainerStats(): CriResult<ContainerStats[]> {
		return listContainerStats(this.ctx);
	}

	/** The container's log (what /var/log/pods holds), newest `tailLines` or all. */
	readLogs(id: string, options: { tailLines?: number; sinceWallMs?: number } = {}): CriResult<LogEntry[]> {
		return containers.readLogs(this.ctx, id, options);
	}

	// ---- probes and traffic into the pod ------------------------------------------------------

	/** An HTTP GET from the node to a port of the pod (httpGet probes). */
	probeHttp(sandboxId: string, port: number, path: string, userAgent?: string): CriResult<ProbeAnswer> {
		return probeHttp(this.ctx, sandboxId, port, path, userAgent);
	}

	/** A TCP connect from the node to a port of the pod (tcpSocket probes). */
	probeTcp(sandboxId: string, port: number): CriResult<ProbeAnswer> {
		return probeTcp(this.ctx, sandboxId, port);
	}

	/** An HTTP request from the network to a Pod's address (works while containerd is down). */
	serveHttp(ip: string, port: number, path: string | undefined, clientIp: string, userAgent: string, method = 'GET'): ServedAnswer | undefined {
		return serveHttp(this.ctx, ip, port, path, clientIp, userAgent, method);
	}

	/** Writes a line to the log of the running container of a system component (kube-proxy logs through it). */
	appendComponentLog(component: SystemComponent, stream: 'stdout' | 'stderr', text: string): boolean {
		return appendComponentLog(this.ctx, component, stream, text);
	}

	/** The running containers of a system component on this node (CoreDNS's servers). */
	componentContainers(component: SystemComponent): ComponentContainer[] {
		return componentContainers(this.ctx, component);
	}

	/** A file as a running container sees it now (its volumes synced first). */
	containerFile(id: string, path: string): string | undefined {
		return containerFile(this.ctx, id, path);
	}

	/** The shell a reader attached to read `exit N`: its container's main process ends with that code. */
	endAttachedShell(namespace: string, pod: string, container: string, exitCode: number): boolean {
		return containers.endAttachedShell(this.ctx, namespace, pod, container, exitCode);
	}

	/** Writes a line to one container's log, as its process would. */
	appendContainerLog(id: string, stream: 'stdout' | 'stderr', text: string): boolean {
		return appendContainerLog(this.ctx, id, stream, text);
	}

	// ---- the cluster's side -------------------------------------------------------------------------

	/** The machine lost power: every process on it ends now, unseen. Call it once containerd is stopped. */
	powerLost(): void {
		powerLost(this.ctx);
	}

	/** The simulated process behind a system container died on its own: its container exits with `exitCode`. */
	markComponentExited(component: SystemComponent, exitCode: number): boolean {
		return markComponentExited(this.ctx, component, exitCode);
	}
}
