/**
 * The Container Runtime Interface: the calls of RuntimeService and
 * ImageService, the records they return, and the completions the runtime
 * sends to the kubelet as kernel events (kind `cri`).
 *
 * Like upstream's proto, which containerd, the kubelet and crictl all
 * compile, this is the one definition every side shares: the kubelet
 * (../kubelet) calls a `CriRuntime`, crictl (../tools/crictl) a
 * `RuntimeService` and an `ImageService`, the runtime (../runtime)
 * implements them, and none of those folders imports another.
 *
 * Mirrors staging/src/k8s.io/cri-api/pkg/apis/services.go,
 * staging/src/k8s.io/cri-api/pkg/apis/runtime/v1/api.proto.
 */

/** gRPC status codes the runtime answers with. */
export type GrpcCode = 'Unknown' | 'NotFound' | 'Unavailable' | 'FailedPrecondition' | 'DeadlineExceeded' | 'InvalidArgument' | 'Canceled';

/** One CRI error. Plain data. */
export interface CriError {
	code: GrpcCode;
	/** containerd's message, without the gRPC prefix. */
	desc: string;
}

/**
 * The error as the kubelet's CRI client returns it, a gRPC status whose
 * err.Error() reads `rpc error: code = NotFound desc = ...` (code Unknown
 * too: what containerd does not classify). The kubelet prints it so in
 * `Failed to create pod sandbox: ...` and `Failed to pull image "x": ...`.
 */
export function criErrorText(error: CriError): string {
	return `rpc error: code = ${error.code} desc = ${error.desc}`;
}

/**
 * The status's message alone (grpcstatus.FromError(err).Message()): what
 * the kubelet puts in a container's CreateContainerError or
 * RunContainerError and the `Error: ...` event, and what containerd logs.
 */
export function criErrorMessage(error: CriError): string {
	return error.desc;
}

export type CriResult<T> = { ok: true; value: T } | { ok: false; error: CriError };

/** CRI VersionResponse. */
export interface VersionInfo {
	version: string;
	runtimeName: string;
	runtimeVersion: string;
	runtimeApiVersion: string;
}

/** CRI RuntimeCondition. */
export interface RuntimeCondition {
	type: 'RuntimeReady' | 'NetworkReady';
	status: boolean;
	reason: string;
	message: string;
}

/** CRI StatusRequest. */
export interface StatusRequest {
	/** Whether the runtime adds its own information (`crictl info` asks unless --quiet). */
	verbose: boolean;
}

/**
 * StatusResponse.info with verbose set: what containerd reports about
 * itself (internal/cri/server/status.go: info["config"] is its CRI
 * config), the parts we model.
 */
export interface RuntimeStatusInfo {
	config: {
		/** pinned_images: `sandbox` is the image of the pause containers (containerd 1.x's sandbox_image). */
		pinnedImages: { sandbox: string };
	};
}

/** CRI StatusResponse: the conditions, and containerd's info when asked verbose. */
export interface StatusResponse {
	conditions: RuntimeCondition[];
	info?: RuntimeStatusInfo;
}

/** CRI PodSandboxConfig (the parts we model). */
export interface SandboxConfig {
	podName: string;
	namespace: string;
	podUid: string;
	attempt: number;
	hostname: string;
	hostNetwork: boolean;
	labels: Record<string, string>;
	annotations: Record<string, string>;
	/** DNSConfig: what containerd writes to the sandbox's resolv.conf (the kubelet's GetPodDNS). */
	dnsConfig?: { servers: string[]; searches: string[]; options: string[] };
	/** RunPodSandboxRequest.runtime_handler: the RuntimeClass's handler; empty for the runtime's default (runc). */
	runtimeHandler?: string;
}

/** CRI ContainerConfig (the parts we model). */
export interface ContainerConfig {
	name: string;
	attempt: number;
	/** The image as the kubelet asks for it (`nginx:latest`). */
	image: string;
	command?: string[];
	args?: string[];
	workingDir?: string;
	env: Array<{ name: string; value: string }>;
	/** linux.resources.memory_limit_in_bytes. */
	memoryLimitBytes?: number;
	/** linux.resources.oom_score_adj: how willingly the kernel's OOM killer picks this container (-1000..1000). */
	oomScoreAdj?: number;
	/** stdin (and tty): the container keeps its standard input open for an attach (`kubectl run -it`). */
	stdin?: boolean;
	tty?: boolean;
	/** linux.resources.cpu_quota over cpu_period, in millicores (the container's CPU limit). */
	cpuLimitMillis?: number;
	/** Bind mounts (volumes), in volumeMounts order. */
	mounts?: Array<{ containerPath: string; hostPath: string; readonly: boolean }>;
	labels: Record<string, string>;
	annotations: Record<string, string>;
}

/** CRI PodSandbox / PodSandboxStatus. */
export interface SandboxInfo {
	id: string;
	podUid: string;
	podName: string;
	namespace: string;
	attempt: number;
	state: 'SANDBOX_READY' | 'SANDBOX_NOTREADY';
	ip: string;
	hostNetwork: boolean;
	createdWallMs: number;
	labels: Record<string, string>;
	annotations: Record<string, string>;
	/** Only in a verbose PodSandboxStatus: containerd's info about the sandbox. */
	info?: SandboxVerboseInfo;
}

/** PodSandboxStatusResponse.info with verbose set (containerd sandbox_status.go SandboxInfo), the parts we model. */
interface SandboxVerboseInfo {
	/** The image the pause container runs. */
	image: string;
}

/** CRI Container / ContainerStatus. */
export interface ContainerInfo {
	id: string;
	sandboxId: string;
	podUid: string;
	podName: string;
	namespace: string;
	name: string;
	attempt: number;
	/** `docker.io/library/nginx:latest`. */
	image: string;
	/** The reference the container was created with. */
	imageRef: string;
	/**
	 * The image's ID, its config digest `sha256:...`: what containerd
	 * returns as Container.image_ref (`imageRef` above keeps the reference
	 * as the kubelet asked for it). containerd keeps it with the container,
	 * so it outlives a removal of the image. Undefined when the runtime
	 * does not say.
	 */
	imageId?: string;
	/** `docker.io/library/nginx@sha256:...`. */
	repoDigest: string;
	state: 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED';
	createdWallMs: number;
	startedWallMs?: number;
	finishedWallMs?: number;
	exitCode?: number;
	reason?: string;
	message?: string;
	labels: Record<string, string>;
	annotations: Record<string, string>;
	/** The bind mounts the container was created with (ContainerStatus.mounts). */
	mounts: Array<{ containerPath: string; hostPath: string; readonly: boolean }>;
}

/** CRI Image. */
export interface ImageInfo {
	id: string;
	repoTags: string[];
	repoDigests: string[];
	sizeBytes: number;
	pinned: boolean;
	/** Only in a verbose ImageStatus: containerd's info about the image. */
	info?: ImageVerboseInfo;
}

/** ImageStatusResponse.info with verbose set (containerd images/image_status.go verboseImageInfo), the parts we model. */
export interface ImageVerboseInfo {
	/** The chain ID of the image's layers. */
	chainID: string;
	/** The image's OCI config: environment (`NAME=value`), entrypoint and command. */
	config: { env: string[]; entrypoint: string[]; cmd: string[] };
}

/** ExecSyncResponse. */
export interface ExecResult {
	exitCode: number;
	stdout: string;
	stderr: string;
}

/** An HTTP or TCP probe's answer from inside the pod's network namespace. */
export type ProbeAnswer = { kind: 'http'; status: number } | { kind: 'connected' } | { kind: 'refused' } | { kind: 'eof' };

/** Completions and notices the runtime sends to the kubelet (kernel event kind `cri`). */
export type CriEvent =
	| { type: 'pull-done'; opId: number; image: string; ok: true; imageRef: string; sizeBytes: number; pullMs: number; totalMs: number }
	| { type: 'pull-done'; opId: number; image: string; ok: false; error: CriError }
	| { type: 'sandbox-ready'; opId: number; podUid: string; ok: true; sandboxId: string }
	| { type: 'sandbox-ready'; opId: number; podUid: string; ok: false; error: CriError }
	/** A container's process ended (the kubelet's PLEG would see it on its next relist). */
	| { type: 'container-exited'; containerId: string; podUid: string }
	/** containerd (re)started: the kubelet should relist. */
	| { type: 'runtime-started' };

/** The kernel event kind the runtime uses for CriEvents. */
export const CRI_EVENT_KIND = 'cri';

/** A container log line. */
export interface LogEntry {
	wallMs: number;
	stream: 'stdout' | 'stderr';
	text: string;
	/** Written without a newline (containerd's `P` tag): the next write continues the line. */
	partial?: boolean;
}

/**
 * The runtime service of a CRI endpoint (pkg/apis/services.go
 * RuntimeService: RuntimeVersioner, PodSandboxManager, ContainerManager
 * and Status), the calls we model.
 */
export interface RuntimeService {
	version(): CriResult<VersionInfo>;
	/** Status: the runtime's conditions (what the kubelet checks). */
	status(): CriResult<RuntimeCondition[]>;
	/** Status with its request: the conditions and, with verbose set, the runtime's info. */
	status(request: StatusRequest): CriResult<StatusResponse>;
	runPodSandbox(config: SandboxConfig, requester: string): CriResult<{ opId: number }>;
	stopPodSandbox(id: string): CriResult<void>;
	removePodSandbox(id: string): CriResult<void>;
	/** PodSandboxStatus; with `verbose`, the runtime's info too. */
	podSandboxStatus(id: string, verbose?: boolean): CriResult<SandboxInfo>;
	listPodSandbox(filter?: { podUid?: string; state?: SandboxInfo['state'] }): CriResult<SandboxInfo[]>;
	createContainer(sandboxId: string, config: ContainerConfig): CriResult<{ containerId: string }>;
	startContainer(id: string): CriResult<void>;
	stopContainer(id: string, timeoutSeconds: number): CriResult<void>;
	removeContainer(id: string): CriResult<void>;
	listContainers(filter?: { podUid?: string; sandboxId?: string; state?: ContainerInfo['state'] }): CriResult<ContainerInfo[]>;
	containerStatus(id: string): CriResult<ContainerInfo>;
	/**
	 * ExecSync, which also stands for the streaming Exec `kubectl exec`
	 * reaches: `stdin` is that stream's standard input, sent whole.
	 */
	execSync(id: string, argv: string[], timeoutSeconds?: number, stdin?: string): CriResult<ExecResult>;
	/**
	 * The container's log. CRI has no call for it: the runtime writes it
	 * to ContainerStatus.log_path and the kubelet and crictl read the file
	 * (k8s.io/cri-client pkg/logs).
	 */
	readLogs(id: string, options?: { tailLines?: number; sinceWallMs?: number }): CriResult<LogEntry[]>;
	/** ListContainerStats: CPU and memory of every running container. */
	listContainerStats(): CriResult<ContainerStats[]>;
}

/** CRI ContainerStats: a running container's cumulative CPU and its working set, sampled now. */
export interface ContainerStats {
	containerId: string;
	name: string;
	podUid: string;
	podName: string;
	namespace: string;
	/** When the sample was taken (wall-clock ms). */
	timestampWallMs: number;
	/** When the container started (wall-clock ms). */
	startedWallMs: number;
	/** cpu.usage_core_nano_seconds: CPU time used since the container started. */
	usageCoreNanoSeconds: number;
	/** memory.working_set_bytes. */
	workingSetBytes: number;
	/** writable_layer.used_bytes: what the container wrote on top of its image. */
	writableLayerBytes: number;
	/** writable_layer.inodes_used. */
	writableLayerInodes: number;
	/** The size of its log file (the kubelet measures /var/log/pods itself upstream; the runtime owns the log here). */
	logBytes: number;
	/** Processes running in the container (the kubelet reads the cgroup's pids.current). */
	processes: number;
}

/** The image service of a CRI endpoint (pkg/apis/services.go ImageManagerService), the calls we model. */
export interface ImageService {
	listImages(): CriResult<ImageInfo[]>;
	/** ImageStatus: the image if present, undefined if not; with `verbose`, the runtime's info too. */
	imageStatus(image: string, verbose?: boolean): CriResult<ImageInfo | undefined>;
	pullImage(image: string, requester: string): CriResult<{ opId: number }>;
	removeImage(image: string): CriResult<void>;
}

/**
 * The runtime endpoint as the kubelet reaches it (containerd's CRI
 * plugin): both services, and the probes the kubelet runs into a pod's
 * network namespace.
 */
export interface CriRuntime extends RuntimeService, ImageService {
	probeHttp(sandboxId: string, port: number, path: string, userAgent?: string): CriResult<ProbeAnswer>;
	probeTcp(sandboxId: string, port: number): CriResult<ProbeAnswer>;
}
