/**
 * The Container Runtime Interface: the calls of RuntimeService and
 * ImageService, the records they return, and the completions the runtime
 * sends to the kubelet as kernel events (kind `cri`). Mirrors k8s.io/cri-api
 * (pkg/apis/services.go, pkg/apis/runtime/v1/api.proto).
 *
 * Like upstream's proto, which containerd and the kubelet both compile,
 * this is the one definition both sides share: the kubelet (../kubelet)
 * calls a `CriRuntime`, the runtime (../runtime) implements it, and neither
 * folder imports the other.
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
 * The error as the kubelet's CRI client renders it (err.Error()):
 * `rpc error: code = NotFound desc = ...`, or the bare message for code
 * Unknown (what kubelets built with recent cri-client show for errors
 * containerd does not classify).
 */
export function criErrorText(error: CriError): string {
	return error.code === 'Unknown' ? error.desc : `rpc error: code = ${error.code} desc = ${error.desc}`;
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
}

/** The runtime endpoint (containerd's CRI plugin). */
export interface CriRuntime {
	version(): CriResult<VersionInfo>;
	status(): CriResult<RuntimeCondition[]>;
	imageStatus(image: string): CriResult<ImageInfo | undefined>;
	listImages(): CriResult<ImageInfo[]>;
	pullImage(image: string, requester: string): CriResult<{ opId: number }>;
	runPodSandbox(config: SandboxConfig, requester: string): CriResult<{ opId: number }>;
	stopPodSandbox(id: string): CriResult<void>;
	removePodSandbox(id: string): CriResult<void>;
	listPodSandbox(filter?: { podUid?: string; state?: SandboxInfo['state'] }): CriResult<SandboxInfo[]>;
	createContainer(sandboxId: string, config: ContainerConfig): CriResult<{ containerId: string }>;
	startContainer(id: string): CriResult<void>;
	stopContainer(id: string, timeoutSeconds: number): CriResult<void>;
	removeContainer(id: string): CriResult<void>;
	listContainers(filter?: { podUid?: string; sandboxId?: string; state?: ContainerInfo['state'] }): CriResult<ContainerInfo[]>;
	execSync(id: string, argv: string[], timeoutSeconds?: number): CriResult<ExecResult>;
	readLogs(id: string, options?: { tailLines?: number; sinceWallMs?: number }): CriResult<LogEntry[]>;
	probeHttp(sandboxId: string, port: number, path: string, userAgent?: string): CriResult<ProbeAnswer>;
	probeTcp(sandboxId: string, port: number): CriResult<ProbeAnswer>;
}
