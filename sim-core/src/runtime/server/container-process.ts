/**
 * A container's process under its shim: the program host the interpreter
 * (../program.ts) runs it with (the container's files, its log, the ports
 * of its pod that listen, the hook fired when it starts serving), the
 * servers listening in a pod, lines written to a system container's log,
 * and the bind mounts kept in step with the node around each run.
 *
 * Upstream the shim (containerd-shim-runc-v2) holds the process and its
 * stdio, and the CRI plugin copies that output into the container's log
 * file (internal/cri/io/container_io.go); a control-plane program starting
 * in a static pod is the cluster's business (the hooks of
 * SystemContainerHooks).
 *
 * Mirrors containerd/containerd cmd/containerd-shim-runc-v2/main.go (the
 * shim), containerd/containerd internal/cri/io/container_io.go.
 */
import type { ProgramHost } from '../program.ts';
import { baselinePaths, readFile, type ServerSpec } from '../behaviour.ts';
import { syncMounts } from '../mounts.ts';
import type { CatalogImage, SystemComponent } from '../images.ts';
import { CONTAINER_LOG_MAX, type ContainerRecord } from '../host-state.ts';
import type { CriService } from './cri-service.ts';

/** The program host of a container: its files, its log, its listening ports, its hooks. */
export function programHost(ctx: CriService, c: ContainerRecord, image: CatalogImage): ProgramHost {
	const hook = ctx.deps.hooks?.podNetworkCommand;
	const sandbox = ctx.host.sandboxes[c.sandboxId];
	const pod = sandbox ? { namespace: c.namespace, name: c.podName, ip: sandbox.ip, hostname: c.ctx.hostname, hostNetwork: sandbox.hostNetwork, image: { repository: image.repository, version: image.version, family: image.family } } : undefined;
	return {
		// The main process's network clients run at the instant the runtime looks (see ProgramHost.liveNetwork).
		liveNetwork: hook && pod ? { atMs: ctx.nowMs, run: (argv, read) => hook(ctx.node, pod, argv, read) } : undefined,
		image,
		ctx: c.ctx,
		files: c.files,
		epochMs: ctx.kernel.epochMs,
		write: (atMs, line) => {
			c.logs.push({ wallMs: ctx.kernel.epochMs + atMs, stream: line.stream, text: line.text, ...(line.partial ? { partial: true } : {}) });
			if (c.logs.length > CONTAINER_LOG_MAX + CONTAINER_LOG_MAX / 10) c.logs.splice(0, c.logs.length - CONTAINER_LOG_MAX);
		},
		listening: (port, atMs) => listenersOf(ctx, c.sandboxId, atMs).some((l) => l.port.port === port),
		rootFs: ctx.deps.rootFs,
		onServe: (server, atMs) => onServe(ctx, c, server, atMs),
	};
}

/** A server started in a container: fire the control-plane hooks. */
function onServe(ctx: CriService, c: ContainerRecord, server: ServerSpec, atMs: number): void {
	const component = server.component;
	if (!component) return;
	const hooks = ctx.deps.hooks;
	if (hooks?.isComponentFailing(ctx.node, component)) {
		// The reader broke this component: the process dies right after start.
		server.exitsAfter = { afterMs: 1_000, exitCode: 1, reason: 'Error', lines: [{ stream: 'stderr', text: `E${component}: fatal: cannot start (fault injected); exiting` }] };
		return;
	}
	c.component = component;
	ctx.emit({ action: 'start', object: `containers/${c.id.slice(0, 13)}`, msg: `${component} started in container ${c.name}` });
	void atMs;
	hooks?.onSystemContainerStart(ctx.node, component, { containerId: c.id, namespace: c.namespace, podName: c.podName, podIp: c.ctx.podIp, argv: [...c.ctx.argv] });
}

/** Keeps a container's bind mounts in step with the node (../mounts.ts). */
export function syncContainerMounts(ctx: CriService, c: ContainerRecord, image: CatalogImage): void {
	const mounts = c.ctx.mounts;
	if (!mounts?.length) return;
	const modes = { current: { ...c.ctx.fileModes }, projected: c.mountedModes };
	c.mounted = syncMounts(c.files, c.mounted, mounts, ctx.deps.hostFiles, baselinePaths(image), modes);
	if (Object.keys(modes.current).length) c.ctx.fileModes = modes.current;
	else delete c.ctx.fileModes;
	if (modes.projected && Object.keys(modes.projected).length) c.mountedModes = modes.projected;
	else delete c.mountedModes;
}

/** A server listening on a port of a pod. */
export interface Listener {
	container: ContainerRecord;
	server: ServerSpec;
	port: ServerSpec['ports'][number];
}

/** Servers listening in a sandbox at `atMs`. */
export function listenersOf(ctx: CriService, sandboxId: string, atMs: number): Listener[] {
	const out: Listener[] = [];
	const sandbox = ctx.host.sandboxes[sandboxId];
	for (const c of Object.values(ctx.host.containers)) {
		if (c.state !== 'CONTAINER_RUNNING' || !c.program?.serving) continue;
		// hostNetwork pods share the node's ports: any such pod's server answers.
		if (c.sandboxId !== sandboxId && !(sandbox?.hostNetwork && ctx.host.sandboxes[c.sandboxId]?.hostNetwork)) continue;
		const s = c.program.serving;
		if (atMs < s.sinceMs + s.server.readyAfterMs) continue;
		for (const port of s.server.ports) out.push({ container: c, server: s.server, port });
	}
	return out;
}

/** Writes a line to the log of the running container of a system component (kube-proxy logs through it). */
export function appendComponentLog(ctx: CriService, component: SystemComponent, stream: 'stdout' | 'stderr', text: string): boolean {
	const c = Object.values(ctx.host.containers).find((x) => x.component === component && x.state === 'CONTAINER_RUNNING');
	const image = c && ctx.catalogImageOf(c);
	if (!c || !image) return false;
	programHost(ctx, c, image).write(ctx.nowMs, { stream, text });
	return true;
}

/** A running container whose process is a system component's (CoreDNS), with its pod's address. */
export interface ComponentContainer {
	id: string;
	namespace: string;
	podName: string;
	/** The pod's address (the node's for a host-network pod). */
	ip: string;
	/** When its server started listening (virtual ms). */
	servingSinceMs: number;
	/** Whether it listens on `port` now. */
	listens(port: number): boolean;
}

/** The running containers of a system component on this node, in creation order. */
export function componentContainers(ctx: CriService, component: SystemComponent): ComponentContainer[] {
	const out: ComponentContainer[] = [];
	for (const c of Object.values(ctx.host.containers)) {
		if (c.component !== component || c.state !== 'CONTAINER_RUNNING' || !c.program?.serving) continue;
		const sandbox = ctx.host.sandboxes[c.sandboxId];
		if (!sandbox || sandbox.state !== 'SANDBOX_READY') continue;
		out.push({
			id: c.id,
			namespace: c.namespace,
			podName: c.podName,
			ip: sandbox.hostNetwork ? ctx.host.nodeIp : sandbox.ip,
			servingSinceMs: c.program.serving.sinceMs,
			listens: (port) => listenersOf(ctx, c.sandboxId, ctx.nowMs).some((l) => l.container === c && l.port.port === port),
		});
	}
	return out;
}

/** A file as a running container sees it now (its volumes synced first), or undefined. */
export function containerFile(ctx: CriService, id: string, path: string): string | undefined {
	const c = ctx.host.containers[id];
	const image = c && ctx.catalogImageOf(c);
	if (!c || !image) return undefined;
	syncContainerMounts(ctx, c, image);
	return readFile(image, c.ctx, c.files, path);
}

/** Writes a line to one container's log, as its process would. */
export function appendContainerLog(ctx: CriService, id: string, stream: 'stdout' | 'stderr', text: string): boolean {
	const c = ctx.host.containers[id];
	const image = c && ctx.catalogImageOf(c);
	if (!c || !image || c.state !== 'CONTAINER_RUNNING') return false;
	programHost(ctx, c, image).write(ctx.nowMs, { stream, text });
	return true;
}
