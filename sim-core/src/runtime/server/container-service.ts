/**
 * containerd's CRI container calls: CreateContainer from a local image in
 * a ready sandbox (argv from ENTRYPOINT/CMD and the kubelet's command and
 * args, environment, bind mounts), StartContainer (a command the image
 * lacks fails with StartError), StopContainer (the image's stop signal,
 * SIGKILL after the timeout), RemoveContainer, ContainerStatus,
 * ListContainers, ExecSync and the container's log.
 *
 * Mirrors containerd/containerd internal/cri/server/container_create.go,
 * containerd/containerd internal/cri/server/container_start.go,
 * containerd/containerd internal/cri/server/container_stop.go,
 * containerd/containerd internal/cri/server/container_remove.go,
 * containerd/containerd internal/cri/server/container_status.go,
 * containerd/containerd internal/cri/server/container_list.go,
 * containerd/containerd internal/cri/server/container_execsync.go,
 * containerd/containerd internal/cri/io/logger.go (the log written to
 * /var/log/pods).
 */
import { killIfOutOfMemory } from './oom-killer.ts';
import type { ContainerConfig, ContainerInfo, CriResult, ExecResult, LogEntry } from '../../cri-api/cri.ts';
import { binaryExists, isShell, readFile, resolveArgv, type ContainerContext } from '../behaviour.ts';
import { prepareMountSources } from '../mounts.ts';
import { createProgram, execSync as programExecSync, requestStop, type ProgramHost } from '../program.ts';
import { resolveImage } from '../images.ts';
import * as errors from '../errors.ts';
import type { ContainerRecord } from '../host-state.ts';
import { programHost, syncContainerMounts } from './container-process.ts';
import { catchUp, recordExit, scheduleCheck } from './events.ts';
import { findLocal } from './image-service.ts';
import type { CriService } from './cri-service.ts';

function toContainerInfo(ctx: CriService, c: ContainerRecord): ContainerInfo {
	const e = ctx.kernel.epochMs;
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
		imageId: c.imageId,
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
export function createContainer(ctx: CriService, sandboxId: string, config: ContainerConfig): CriResult<{ containerId: string }> {
	if (!ctx.up) return ctx.down();
	const sandbox = ctx.host.sandboxes[sandboxId];
	if (!sandbox || sandbox.state !== 'SANDBOX_READY') return { ok: false, error: sandbox ? { code: 'FailedPrecondition', desc: `sandbox container "${sandboxId}" is not running` } : errors.sandboxNotFound(sandboxId) };
	const local = findLocal(ctx, config.image);
	const resolved = resolveImage(config.image);
	if (!local || !resolved.ok) return { ok: false, error: errors.imageNotFound(config.image) };
	const image = resolved.resolved.image;
	const id = ctx.newId();
	const argv = resolveArgv(image, config.command, config.args);
	const cctx: ContainerContext = {
		imageRef: config.image,
		hostname: sandbox.hostNetwork ? ctx.node : sandbox.hostname,
		podName: sandbox.podName,
		namespace: sandbox.namespace,
		podIp: sandbox.ip,
		nodeName: ctx.node,
		env: [
			{ name: 'PATH', value: image.family === 'distroless' ? '/usr/local/bin:/usr/bin:/bin' : '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' },
			{ name: 'HOSTNAME', value: sandbox.hostNetwork ? ctx.node : sandbox.hostname },
			...Object.entries(image.env ?? {}).map(([name, value]) => ({ name, value })),
			...config.env,
			{ name: 'HOME', value: '/root' },
		],
		memoryLimitBytes: config.memoryLimitBytes,
		...(config.oomScoreAdj !== undefined ? { oomScoreAdj: config.oomScoreAdj } : {}),
		...(config.cpuLimitMillis !== undefined ? { cpuLimitMillis: config.cpuLimitMillis } : {}),
		workingDir: config.workingDir,
		argv,
	};
	if (sandbox.resolvConf !== undefined) cctx.resolvConf = sandbox.resolvConf;
	if (config.mounts?.length) {
		cctx.mounts = config.mounts.map((m) => ({ containerPath: m.containerPath, hostPath: m.hostPath, readonly: m.readonly, ...(ctx.deps.hostFiles?.fsType(m.hostPath) === 'tmpfs' ? { tmpfs: true as const } : {}) }));
		prepareMountSources(ctx.deps.hostFiles, cctx.mounts);
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
		createdMs: ctx.nowMs,
		ctx: cctx,
		files: {},
		logs: [],
		labels: { ...config.labels },
		annotations: { ...config.annotations },
	};
	if (config.stdin) record.stdin = true;
	ctx.host.containers[id] = record;
	syncContainerMounts(ctx, record, image);
	ctx.journal('info', `CreateContainer within sandbox "${sandboxId}" for container ${config.name} attempt ${config.attempt} returns container id "${id}"`);
	return { ok: true, value: { containerId: id } };
}

/** CRI StartContainer. A command the image lacks fails here (StartError, exit code 128). */
export function startContainer(ctx: CriService, id: string): CriResult<void> {
	if (!ctx.up) return ctx.down();
	const c = ctx.host.containers[id];
	if (!c) return { ok: false, error: errors.containerNotFound(id) };
	if (c.state !== 'CONTAINER_CREATED') return { ok: false, error: { code: 'FailedPrecondition', desc: `container ${id} is not in created state: ${c.state}` } };
	const image = ctx.catalogImageOf(c);
	if (!image) return { ok: false, error: errors.imageNotFound(c.image) };
	// A shell with no script reads its standard input: open (an attach), it waits there for the reader's lines instead of exiting.
	const waitsOnStdin = c.stdin === true && c.ctx.argv.length === 1 && isShell(c.ctx.argv[0]);
	const program = createProgram(image, waitsOnStdin ? [c.ctx.argv[0], '-c', 'sleep infinity'] : c.ctx.argv, ctx.nowMs);
	if (!program.ok) {
		const error = errors.execNotFound(program.notFound);
		c.state = 'CONTAINER_EXITED';
		c.exitCode = 128;
		c.reason = 'StartError';
		c.message = error.desc;
		c.finishedMs = ctx.nowMs;
		ctx.journal('error', `StartContainer for "${id}" failed: ${error.desc}`);
		return { ok: false, error };
	}
	c.program = program.program;
	c.state = 'CONTAINER_RUNNING';
	c.startedMs = ctx.nowMs;
	ctx.journal('info', `StartContainer for "${id}" returns successfully`);
	ctx.emit({ action: 'start', object: `pods/${c.namespace}/${c.podName}`, msg: `started container ${c.name} (${c.id.slice(0, 13)}): ${c.ctx.argv.join(' ')}` });
	catchUp(ctx, c);
	// Its memory is taken now: the kernel may have to kill something (this container or another).
	killIfOutOfMemory(ctx);
	if (c.state === 'CONTAINER_RUNNING') scheduleCheck(ctx, c, false);
	return { ok: true, value: undefined };
}

/** How containerd names a stop signal in its journal (the Go name of the syscall.Signal). */
function signalName(stopSignal: string | undefined): string {
	return stopSignal === 'SIGQUIT' ? 'quit' : stopSignal === 'SIGINT' ? 'interrupt' : stopSignal === 'SIGWINCH' ? 'window changed' : 'terminated';
}

/**
 * CRI StopContainer: the image's stop signal now, SIGKILL after
 * `timeoutSeconds`. Returns at once; the exit arrives as a
 * `container-exited` event.
 */
export function stopContainer(ctx: CriService, id: string, timeoutSeconds: number): CriResult<void> {
	if (!ctx.up) return ctx.down();
	const c = ctx.host.containers[id];
	if (!c) return { ok: false, error: errors.containerNotFound(id) };
	catchUp(ctx, c);
	if (c.state !== 'CONTAINER_RUNNING' || !c.program) return { ok: true, value: undefined };
	const image = ctx.catalogImageOf(c);
	ctx.journal('info', `StopContainer for "${id}" with timeout ${timeoutSeconds} (s)`);
	ctx.journal('info', `Stop container "${id}" with signal ${signalName(image?.stopSignal)}`);
	requestStop(c.program, ctx.nowMs, Math.max(0, timeoutSeconds) * 1000);
	catchUp(ctx, c);
	if (c.state === 'CONTAINER_RUNNING') {
		delete ctx.state.checks[c.id];
		scheduleCheck(ctx, c, true);
	}
	return { ok: true, value: undefined };
}

/** CRI RemoveContainer (the container must have stopped). */
export function removeContainer(ctx: CriService, id: string): CriResult<void> {
	if (!ctx.up) return ctx.down();
	const c = ctx.host.containers[id];
	if (!c) return { ok: true, value: undefined };
	catchUp(ctx, c);
	if (c.state === 'CONTAINER_RUNNING') return { ok: false, error: { code: 'FailedPrecondition', desc: `failed to remove container "${id}": container is still running, to stop first` } };
	delete ctx.host.containers[id];
	delete ctx.state.checks[id];
	ctx.journal('info', `RemoveContainer for "${id}" returns successfully`);
	return { ok: true, value: undefined };
}

/** CRI ListContainers (catching each process up first). */
export function listContainers(ctx: CriService, filter: { podUid?: string; sandboxId?: string; state?: ContainerRecord['state'] }): CriResult<ContainerInfo[]> {
	if (!ctx.up) return ctx.down();
	const list: ContainerInfo[] = [];
	for (const c of Object.values(ctx.host.containers)) {
		if (filter.podUid && c.podUid !== filter.podUid) continue;
		if (filter.sandboxId && c.sandboxId !== filter.sandboxId) continue;
		catchUp(ctx, c);
		if (filter.state && c.state !== filter.state) continue;
		list.push(toContainerInfo(ctx, c));
	}
	list.sort((a, b) => a.createdWallMs - b.createdWallMs || a.id.localeCompare(b.id));
	return { ok: true, value: list };
}

/** CRI ContainerStatus. */
export function containerStatus(ctx: CriService, id: string): CriResult<ContainerInfo> {
	if (!ctx.up) return ctx.down();
	const c = ctx.host.containers[id];
	if (!c) return { ok: false, error: errors.containerNotFound(id) };
	catchUp(ctx, c);
	return { ok: true, value: toContainerInfo(ctx, c) };
}

/** CRI ExecSync: runs a command inside a running container (exec probes, `kubectl exec`). Time does not pass. */
export function execSync(ctx: CriService, id: string, argv: string[], stdin?: string): CriResult<ExecResult> {
	if (!ctx.up) return ctx.down();
	const c = ctx.host.containers[id];
	if (!c) return { ok: false, error: errors.containerNotFound(id) };
	catchUp(ctx, c);
	if (c.state !== 'CONTAINER_RUNNING' || !c.program) return { ok: false, error: errors.containerNotRunning(id, c.state) };
	const image = ctx.catalogImageOf(c);
	if (!image) return { ok: false, error: errors.imageNotFound(c.image) };
	const system = c.component && ctx.deps.hooks?.exec?.(ctx.node, c.component, argv);
	if (system) return { ok: true, value: system };
	const sandbox = ctx.host.sandboxes[c.sandboxId];
	// The command sees the volumes as they are now; what it writes under one reaches the node.
	syncContainerMounts(ctx, c, image);
	// curl, run directly or from a shell, goes out on the pod's network and reads the container's files (--cacert, -d @file).
	const pod = sandbox ? { namespace: c.namespace, name: c.podName, ip: sandbox.ip, hostname: c.ctx.hostname, hostNetwork: sandbox.hostNetwork, image: { repository: image.repository, version: image.version, family: image.family } } : undefined;
	const hook = ctx.deps.hooks?.podNetworkCommand;
	const network = pod && hook ? (args: string[], read: (path: string) => string | undefined) => hook(ctx.node, pod, args, read) : undefined;
	const host: ProgramHost = { ...programHost(ctx, c, image), network };
	const networked = network && binaryExists(image, argv[0] ?? '') ? network(argv, (path) => readFile(image, c.ctx, c.files, path)) : undefined;
	if (networked) {
		// What the tool saved (wget's download) lands in the container's writable layer, relative to its working directory.
		for (const [path, content] of Object.entries(networked.files ?? {})) c.files[path.startsWith('/') ? path : `${(c.ctx.workingDir || '').replace(/\/$/, '')}/${path}`] = content;
		return { ok: true, value: { exitCode: networked.exitCode, stdout: networked.stdout, stderr: networked.stderr } };
	}
	const result = programExecSync(host, argv, ctx.nowMs, stdin);
	syncContainerMounts(ctx, c, image);
	if (!result.ok) return { ok: false, error: errors.execSyncNotFound(ctx.newId(), result.notFound) };
	// The command may have changed files the process watches.
	scheduleCheck(ctx, c, false);
	return { ok: true, value: { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr } };
}

/** The container's log (what /var/log/pods holds), newest `tailLines` or all. */
export function readLogs(ctx: CriService, id: string, options: { tailLines?: number; sinceWallMs?: number }): CriResult<LogEntry[]> {
	if (!ctx.up) return ctx.down();
	const c = ctx.host.containers[id];
	if (!c) return { ok: false, error: errors.containerNotFound(id) };
	catchUp(ctx, c);
	let lines = c.logs.filter((l) => options.sinceWallMs === undefined || l.wallMs >= options.sinceWallMs);
	if (options.tailLines !== undefined && options.tailLines >= 0) lines = options.tailLines === 0 ? [] : lines.slice(-options.tailLines);
	return { ok: true, value: lines.map((l) => ({ ...l })) };
}

/**
 * The main process of a container a reader is attached to ends now with
 * `exitCode`: its shell read `exit N` on its standard input (`kubectl run
 * -it`'s session ending), or the reader's Ctrl-C reached it through the
 * container's TTY as SIGINT (130). False when no such running container,
 * with its standard input open, is there.
 */
export function endAttachedShell(ctx: CriService, namespace: string, podName: string, container: string, exitCode: number): boolean {
	const c = Object.values(ctx.host.containers).find((x) => x.namespace === namespace && x.podName === podName && x.name === container && x.state === 'CONTAINER_RUNNING');
	if (!c?.program || !c.stdin) return false;
	catchUp(ctx, c);
	if (c.state !== 'CONTAINER_RUNNING' || !c.program) return false;
	c.program.exited = { code: exitCode, atMs: ctx.nowMs, reason: exitCode === 0 ? 'Completed' : 'Error' };
	recordExit(ctx, c);
	return true;
}
