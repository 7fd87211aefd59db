/**
 * The Container Runtime Interface as the kubelet uses it: the calls of
 * RuntimeService and ImageService, and the completions the runtime sends
 * back as `cri` kernel events. Mirrors k8s.io/cri-api
 * (pkg/apis/services.go, runtime/v1/api.proto) and k8s.io/cri-client.
 *
 * The runtime (../runtime) serves the same shapes from its own copy of
 * the API, as containerd and the kubelet each compile the shared proto;
 * the cluster wiring hands the runtime to the kubelet as a `CriRuntime`.
 */

/** gRPC status codes the runtime answers with. */
export type GrpcCode = 'Unknown' | 'NotFound' | 'Unavailable' | 'FailedPrecondition' | 'DeadlineExceeded' | 'InvalidArgument' | 'Canceled';

export interface CriError {
	code: GrpcCode;
	desc: string;
}

export type CriResult<T> = { ok: true; value: T } | { ok: false; error: CriError };

/**
 * The error as the kubelet prints it: `rpc error: code = NotFound desc = ...`,
 * or the bare message for code Unknown (what kubelets built with recent
 * cri-client show for errors containerd does not classify).
 */
export function criErrorText(error: CriError): string {
	return error.code === 'Unknown' ? error.desc : `rpc error: code = ${error.code} desc = ${error.desc}`;
}

export interface VersionInfo {
	version: string;
	runtimeName: string;
	runtimeVersion: string;
	runtimeApiVersion: string;
}

export interface RuntimeCondition {
	type: 'RuntimeReady' | 'NetworkReady';
	status: boolean;
	reason: string;
	message: string;
}

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

export interface ContainerConfig {
	name: string;
	attempt: number;
	image: string;
	command?: string[];
	args?: string[];
	workingDir?: string;
	env: Array<{ name: string; value: string }>;
	memoryLimitBytes?: number;
	/** CRI Mount: the volumes, bind-mounted (volumes/container-mounts.ts). */
	mounts?: Array<{ containerPath: string; hostPath: string; readonly: boolean }>;
	labels: Record<string, string>;
	annotations: Record<string, string>;
}

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

export interface ContainerInfo {
	id: string;
	sandboxId: string;
	podUid: string;
	podName: string;
	namespace: string;
	name: string;
	attempt: number;
	image: string;
	imageRef: string;
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
}

export interface ImageInfo {
	id: string;
	repoTags: string[];
	repoDigests: string[];
	sizeBytes: number;
	pinned: boolean;
}

export interface ExecResult {
	exitCode: number;
	stdout: string;
	stderr: string;
}

export type ProbeAnswer = { kind: 'http'; status: number } | { kind: 'connected' } | { kind: 'refused' } | { kind: 'eof' };

export interface LogEntry {
	wallMs: number;
	stream: 'stdout' | 'stderr';
	text: string;
}

/** What the runtime tells the kubelet (kernel event kind `cri`). */
export type CriEvent =
	| { type: 'pull-done'; opId: number; image: string; ok: true; imageRef: string; sizeBytes: number; pullMs: number; totalMs: number }
	| { type: 'pull-done'; opId: number; image: string; ok: false; error: CriError }
	| { type: 'sandbox-ready'; opId: number; podUid: string; ok: true; sandboxId: string }
	| { type: 'sandbox-ready'; opId: number; podUid: string; ok: false; error: CriError }
	| { type: 'container-exited'; containerId: string; podUid: string }
	| { type: 'runtime-started' };

export const CRI_EVENT_KIND = 'cri';

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
