/**
 * The CRI messages as containerd 2.2 returns them to crictl, built from the
 * CRI responses of the node's runtime: short-ID resolution (containerd's
 * truncindex), the Container / PodSandbox / Image messages of
 * `-o json` lists (protojson, fields in api.proto order, int64 as strings),
 * and the status-plus-info maps of `inspect`, `inspectp` and `inspecti`.
 *
 * Mirrors containerd/containerd internal/cri/server/container_list.go,
 * containerd/containerd internal/cri/server/container_status.go,
 * containerd/containerd internal/cri/server/sandbox_list.go,
 * containerd/containerd internal/cri/server/sandbox_status.go,
 * containerd/containerd internal/cri/server/images/image_status.go,
 * containerd/containerd internal/truncindex/truncindex.go.
 */
import type { GoJsonValue } from '../../golang/json.ts';
import type { ContainerInfo, ImageInfo, SandboxInfo } from '../../cri-api/cri.ts';
import { GO_ZERO_TIME, rfc3339Nano, unixNanos } from './format.ts';
import type { CrictlRuntime } from './types.ts';

/** A gRPC status error as crictl prints it (status.Error()). */
export function rpcError(error: { code: string; desc: string }): string {
	return `rpc error: code = ${error.code} desc = ${error.desc}`;
}

/** The outcome of resolving a possibly short ID. */
type IdLookup = { ok: true; id: string } | { ok: false; error: string };

/**
 * containerd accepts any unique prefix of an ID (truncindex). Unknown IDs
 * are passed through, so the runtime answers NotFound with the ID as typed;
 * a prefix of several IDs fails as truncindex's ErrAmbiguousPrefix does.
 */
export function resolveId(ids: readonly string[], given: string, kind: 'container' | 'sandbox'): IdLookup {
	if (given === '' || ids.includes(given)) return { ok: true, id: given };
	const matches = ids.filter((id) => id.startsWith(given));
	if (matches.length === 1) return { ok: true, id: matches[0] };
	if (matches.length > 1) return { ok: false, error: `rpc error: code = Unknown desc = an error occurred when try to find ${kind} "${given}": Multiple IDs found with provided prefix: ${given}` };
	return { ok: true, id: given };
}

/** Container IDs the runtime knows (all states). */
export function containerIds(runtime: CrictlRuntime): string[] {
	const listed = runtime.listContainers({});
	return listed.ok ? listed.value.map((c) => c.id) : [];
}

export function sandboxIds(runtime: CrictlRuntime): string[] {
	const listed = runtime.listPodSandbox({});
	return listed.ok ? listed.value.map((s) => s.id) : [];
}

/**
 * The image ID (`sha256:` config digest) a container was created from: the
 * kubelet creates containers with the image ID as ImageSpec.image, which is
 * what ListContainers returns (containerd keeps it with the container, so
 * it holds after the image is removed).
 */
export function containerImageId(container: ContainerInfo): string {
	return container.imageId ?? container.imageRef;
}

/** `/var/log/pods/<namespace>_<pod>_<uid>/<container>/<attempt>.log` (kubelet BuildPodLogsDirectory + BuildContainerLogsPath). */
export function containerLogPath(c: ContainerInfo): string {
	return `/var/log/pods/${c.namespace}_${c.podName}_${c.podUid}/${c.name}/${c.attempt}.log`;
}

const CONTAINER_STATE: Record<ContainerInfo['state'], string> = { CONTAINER_CREATED: 'Created', CONTAINER_RUNNING: 'Running', CONTAINER_EXITED: 'Exited' };
/** crictl's convertContainerState. */
export function containerStateText(state: ContainerInfo['state']): string {
	return CONTAINER_STATE[state];
}

/** The CRI Container message (api.proto field order), for `crictl ps -o json|yaml`. */
export function containerMessage(c: ContainerInfo, imageId: string): { [key: string]: GoJsonValue } {
	return {
		id: c.id,
		podSandboxId: c.sandboxId,
		metadata: { name: c.name, attempt: c.attempt },
		// The kubelet's ImageSpec: the image ID, and the image as the pod spec wrote it.
		image: { image: imageId, annotations: {}, userSpecifiedImage: c.imageRef, runtimeHandler: '', imageRef: '' },
		imageRef: imageId,
		state: c.state,
		createdAt: unixNanos(c.createdWallMs),
		labels: { ...c.labels },
		annotations: { ...c.annotations },
		imageId: '',
	};
}

/** The CRI PodSandbox message, for `crictl pods -o json|yaml`. */
export function sandboxMessage(s: SandboxInfo): { [key: string]: GoJsonValue } {
	return {
		id: s.id,
		metadata: { name: s.podName, uid: s.podUid, namespace: s.namespace, attempt: s.attempt },
		state: s.state,
		createdAt: unixNanos(s.createdWallMs),
		labels: { ...s.labels },
		annotations: { ...s.annotations },
		runtimeHandler: '',
	};
}

/** The CRI Image message, for `crictl images -o json|yaml`. */
export function imageMessage(i: ImageInfo): { [key: string]: GoJsonValue } {
	return {
		id: i.id,
		repoTags: [...i.repoTags],
		repoDigests: [...i.repoDigests],
		size: String(i.sizeBytes),
		// Images that set no USER leave uid unset and username empty (image_status.go getUserFromImage).
		username: '',
		spec: { image: i.id, annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
		pinned: i.pinned,
	};
}

/**
 * A stand-in PID for a container's or sandbox's first process, stable for
 * its ID: the simulated runtime does not number container processes, and
 * PIDs on a node that has run a few pods are in the low thousands.
 */
function standInPid(id: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193) >>> 0;
	return 1_000 + (h % 30_000);
}

/** `crictl inspect`'s status map (ContainerStatus, timestamps rewritten as RFC 3339) and containerd's verbose info. */
export function containerInspect(c: ContainerInfo, imageId: string, verbose: boolean): { [key: string]: GoJsonValue } {
	const status: { [key: string]: GoJsonValue } = {
		id: c.id,
		metadata: { name: c.name, attempt: c.attempt },
		state: c.state,
		createdAt: rfc3339Nano(c.createdWallMs),
		// marshalContainerStatus: startedAt unless still created, finishedAt only once exited (Go's zero time otherwise).
		startedAt: c.state !== 'CONTAINER_CREATED' && c.startedWallMs !== undefined ? rfc3339Nano(c.startedWallMs) : GO_ZERO_TIME,
		finishedAt: c.state === 'CONTAINER_EXITED' && c.finishedWallMs !== undefined ? rfc3339Nano(c.finishedWallMs) : GO_ZERO_TIME,
		exitCode: c.exitCode ?? 0,
		// container_status.go: the image's first repo tag as the spec, its repo digest as imageRef.
		image: { image: c.image, annotations: {}, userSpecifiedImage: '', runtimeHandler: '', imageRef: '' },
		imageRef: c.repoDigest,
		// An exited container with no reason gets Completed or Error (completeExitReason, errorExitReason).
		reason: c.reason ?? (c.state === 'CONTAINER_EXITED' ? ((c.exitCode ?? 0) === 0 ? 'Completed' : 'Error') : ''),
		message: c.message ?? '',
		labels: { ...c.labels },
		annotations: { ...c.annotations },
		// The kubelet asks for private propagation and no SELinux relabelling on a node without SELinux (kubelet_pods.go makeMounts).
		mounts: c.mounts.map((m) => ({ containerPath: m.containerPath, gidMappings: [], hostPath: m.hostPath, propagation: 'PROPAGATION_PRIVATE', readonly: m.readonly, recursiveReadOnly: false, selinuxRelabel: false, uidMappings: [] })),
		logPath: containerLogPath(c),
		imageId: '',
		user: { linux: { uid: '0', gid: '0', supplementalGroups: ['0'] } },
		stopSignal: 'RUNTIME_DEFAULT',
	};
	const out: { [key: string]: GoJsonValue } = { status };
	if (!verbose) return out;
	out.info = {
		sandboxID: c.sandboxId,
		pid: c.state === 'CONTAINER_RUNNING' ? standInPid(c.id) : 0,
		removing: false,
		snapshotKey: c.id,
		snapshotter: 'overlayfs',
		runtimeType: 'io.containerd.runc.v2',
		runtimeOptions: { systemd_cgroup: true },
		config: {
			metadata: { name: c.name, ...(c.attempt ? { attempt: c.attempt } : {}) },
			image: { image: imageId, user_specified_image: c.imageRef },
			labels: { ...c.labels },
			annotations: { ...c.annotations },
			log_path: `${c.name}/${c.attempt}.log`,
		},
		runtimeSpec: { ociVersion: '1.2.1', root: { path: 'rootfs' }, linux: { cgroupsPath: `kubepods-pod${c.podUid.replace(/-/g, '_')}.slice:cri-containerd:${c.id}` } },
	};
	return out;
}

/** `crictl inspectp`'s status map (PodSandboxStatus) and containerd's verbose sandbox info (the pause image from the verbose PodSandboxStatus). */
export function sandboxInspect(s: SandboxInfo, verbose: boolean): { [key: string]: GoJsonValue } {
	const status: { [key: string]: GoJsonValue } = {
		id: s.id,
		metadata: { name: s.podName, uid: s.podUid, namespace: s.namespace, attempt: s.attempt },
		state: s.state,
		createdAt: rfc3339Nano(s.createdWallMs),
		// sandbox_status.go getIPs: a pod on the node's network has no IP of its own to report.
		network: { ip: s.hostNetwork || s.state !== 'SANDBOX_READY' ? '' : s.ip, additionalIps: [] },
		linux: { namespaces: { options: { network: s.hostNetwork ? 'NODE' : 'POD', pid: 'CONTAINER', ipc: 'POD', targetId: '' } } },
		labels: { ...s.labels },
		annotations: { ...s.annotations },
		runtimeHandler: '',
	};
	const out: { [key: string]: GoJsonValue } = { status };
	if (!verbose) return out;
	out.info = {
		pid: s.state === 'SANDBOX_READY' ? standInPid(s.id) : 0,
		processStatus: s.state === 'SANDBOX_READY' ? 'running' : 'deleted',
		netNamespaceClosed: s.state !== 'SANDBOX_READY',
		image: s.info?.image ?? '',
		snapshotKey: s.id,
		snapshotter: 'overlayfs',
		runtimeHandler: '',
		runtimeType: 'io.containerd.runc.v2',
		runtimeOptions: { systemd_cgroup: true },
		config: {
			metadata: { name: s.podName, uid: s.podUid, namespace: s.namespace, ...(s.attempt ? { attempt: s.attempt } : {}) },
			hostname: s.hostNetwork ? '' : s.podName,
			log_directory: `/var/log/pods/${s.namespace}_${s.podName}_${s.podUid}`,
			labels: { ...s.labels },
			annotations: { ...s.annotations },
		},
	};
	return out;
}

/** `crictl inspecti`'s status map (the Image message) and containerd's verbose image info (from the verbose ImageStatus). */
export function imageInspect(i: ImageInfo, verbose: boolean): { [key: string]: GoJsonValue } {
	const out: { [key: string]: GoJsonValue } = { status: imageMessage(i) };
	if (!verbose || !i.info) return out;
	const { chainID, config } = i.info;
	out.info = {
		chainID,
		imageSpec: {
			architecture: 'amd64',
			os: 'linux',
			config: {
				Env: [...config.env],
				...(config.entrypoint.length ? { Entrypoint: [...config.entrypoint] } : {}),
				...(config.cmd.length ? { Cmd: [...config.cmd] } : {}),
			},
			rootfs: { type: 'layers', diff_ids: [] },
		},
	};
	return out;
}
