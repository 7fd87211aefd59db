/**
 * The durable state of one node's container runtime: what containerd keeps
 * on disk and what keeps running under its shims when containerd itself is
 * down (images in the content store, pod sandboxes, containers with their
 * processes and logs), plus its journal and service status. Owned by the
 * node (the cluster snapshots it); only the runtime process changes it.
 *
 * Plain JSON throughout.
 *
 * Mirrors staging/src/k8s.io/cri-api/pkg/apis/runtime/v1/api.proto (Image,
 * PodSandbox, Container).
 */
import type { ContainerContext, FileOverrides } from './behaviour.ts';
import type { ProgramState } from './program.ts';
import type { SystemComponent } from './images.ts';
import { FIRST_CONTAINERD_PID, type UnitState } from '../host/systemd/records.ts';

/** An image in containerd's store (CRI Image). */
export interface ImageRecord {
	/** Config digest, `sha256:...` (CRI Image.id). */
	id: string;
	repoTags: string[];
	repoDigests: string[];
	sizeBytes: number;
	/** Pinned images (the sandbox image) are never garbage-collected. */
	pinned: boolean;
}

type SandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

/** A pod sandbox: the pause container and the pod's network namespace (CRI PodSandbox). */
export interface SandboxRecord {
	id: string;
	podUid: string;
	podName: string;
	namespace: string;
	attempt: number;
	state: SandboxState;
	/** The pod IP (the node IP for hostNetwork pods). */
	ip: string;
	hostNetwork: boolean;
	hostname: string;
	createdMs: number;
	createdWallMs: number;
	labels: Record<string, string>;
	annotations: Record<string, string>;
	/** The resolv.conf containerd wrote for the sandbox from the kubelet's DNSConfig (none: the image's own). */
	resolvConf?: string;
}

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED';

/** One line of a container's log, as the CRI log file records it. */
interface LogLine {
	wallMs: number;
	stream: 'stdout' | 'stderr';
	text: string;
}

/** A container (CRI Container / ContainerStatus) with its process. */
export interface ContainerRecord {
	id: string;
	/** Its standard input stays open for an attach (CRI ContainerConfig.stdin). */
	stdin?: boolean;
	sandboxId: string;
	podUid: string;
	podName: string;
	namespace: string;
	name: string;
	attempt: number;
	/** The image as requested (`nginx:latest`). */
	imageRef: string;
	/** The image's repo tag as containerd reports it (`docker.io/library/nginx:latest`). */
	image: string;
	/** Config digest of the image. */
	imageId: string;
	/** Repo digest, `docker.io/library/nginx@sha256:...` (what the kubelet reports as imageID). */
	repoDigest: string;
	state: ContainerState;
	createdMs: number;
	startedMs?: number;
	finishedMs?: number;
	exitCode?: number;
	/** `Completed`, `Error`, `OOMKilled`, `StartError`... (CRI ContainerStatus.reason). */
	reason?: string;
	message?: string;
	ctx: ContainerContext;
	program?: ProgramState;
	files: FileOverrides;
	/** What the bind mounts showed at the last look (./mounts.ts), to tell the container's own writes apart. */
	mounted?: FileOverrides;
	/** The modes of mounted files as the last projection gave them (so only a mode the container changed goes back to the node). */
	mountedModes?: Record<string, number>;
	logs: LogLine[];
	labels: Record<string, string>;
	annotations: Record<string, string>;
	/** The control-plane process this container started, while it runs. */
	component?: SystemComponent;
	/** What the container's processes have used (./server/stats.ts), accrued lazily. */
	usage?: ContainerUsageState;
}

/** A container's CPU account: work done, work waiting for CPU time (requests it is serving), requests served. */
export interface ContainerUsageState {
	/** CPU time used since the start, ns. */
	cpuNanos: number;
	/** CPU time the requests already received still need, ns (served at up to the CPU limit). */
	backlogNanos: number;
	/** Virtual time the account was brought up to. */
	atMs: number;
	/** HTTP requests served since the start. */
	requests: number;
}

export interface RuntimeHostState {
	node: string;
	nodeIp: string;
	/** The node's pod CIDR (`10.244.1.0/24`). */
	podCidr: string;
	/** host-local IPAM: the last host number handed out, and who holds each IP. */
	ipam: { lastHost: number; allocated: Record<string, string> };
	images: Record<string, ImageRecord>;
	sandboxes: Record<string, SandboxRecord>;
	containers: Record<string, ContainerRecord>;
	/** containerd's journal lines (journalctl -u containerd), oldest first, bounded. */
	journal: string[];
	service: UnitState;
	/** Next PID handed to a process on the node (containerd, shims). */
	nextPid: number;
}

/** The journal keeps the newest lines only. */
export const RUNTIME_JOURNAL_MAX = 1_000;
/** Each container log keeps its newest lines (the kubelet rotates at 10Mi; a ring is enough here). */
export const CONTAINER_LOG_MAX = 2_000;

/** A fresh node: nothing pulled, nothing running. */
export function emptyRuntimeHostState(node: string, nodeIp: string, podCidr: string): RuntimeHostState {
	return {
		node,
		nodeIp,
		podCidr,
		ipam: { lastHost: 1, allocated: {} },
		images: {},
		sandboxes: {},
		containers: {},
		journal: [],
		service: { active: false, mainPid: 0, sinceWallMs: 0 },
		nextPid: FIRST_CONTAINERD_PID,
	};
}

/** The processes a running container holds: its main process, and a shell's child while the shell runs a script rather than having exec'd a server. */
export function containerProcesses(c: ContainerRecord): number {
	if (c.state !== 'CONTAINER_RUNNING') return 0;
	return c.program && !c.program.serving && !c.program.exited ? 2 : 1;
}

/**
 * What runs in containerd.service's cgroup besides containerd itself: the
 * shims of the ready sandboxes (KillMode=process leaves them running when
 * containerd stops), and how many sandboxes and running containers
 * containerd holds. systemctl status reads it.
 */
export function containerdCgroup(state: RuntimeHostState): { shimSandboxIds: string[]; sandboxes: number; runningContainers: number } {
	return {
		shimSandboxIds: Object.values(state.sandboxes)
			.filter((s) => s.state === 'SANDBOX_READY')
			.map((s) => s.id),
		sandboxes: Object.keys(state.sandboxes).length,
		runningContainers: Object.values(state.containers).filter((c) => c.state === 'CONTAINER_RUNNING').length,
	};
}
