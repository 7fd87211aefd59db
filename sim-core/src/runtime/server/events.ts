/**
 * Container exits: running a container's process up to now (processes run
 * lazily, see ../program.ts), recording its exit and telling the kubelet,
 * the check scheduled for the instant a process is predicted to exit, and
 * the exit of a system container whose simulated process crashed.
 *
 * Upstream the shim reports an exit, the CRI plugin records it in the
 * container's status and publishes a ContainerStopped event, which the
 * kubelet's evented PLEG or its next relist picks up.
 *
 * Mirrors containerd/containerd internal/cri/server/events.go (the event
 * monitor's TaskExit handling, handleContainerExit).
 */
import { advanceProgram, predictExit, programMayRun } from '../program.ts';
import type { SystemComponent } from '../images.ts';
import type { ContainerRecord } from '../host-state.ts';
import { programHost, syncContainerMounts } from './container-process.ts';
import type { CriService } from './cri-service.ts';

/** How far ahead the runtime predicts a container's exit; later exits are looked at again then. */
const PREDICT_HORIZON_MS = 24 * 3_600_000;
/** Natural exits closer than this count as pending work for settle(); farther ones are background. */
const FOREGROUND_EXIT_MS = 60_000;
/** The kernel event kind of a scheduled exit check. */
export const CONTAINER_CHECK = 'container-check';

/** Runs a container's process up to now; records its exit. */
export function catchUp(ctx: CriService, c: ContainerRecord): void {
	if (c.state !== 'CONTAINER_RUNNING' || !c.program) return;
	const image = ctx.catalogImageOf(c);
	if (!image) return;
	// A process that runs commands sees the node's files as they are now, and what it writes under a volume reaches the node.
	const runs = programMayRun(c.program, ctx.nowMs);
	if (runs) syncContainerMounts(ctx, c, image);
	advanceProgram(c.program, programHost(ctx, c, image), ctx.nowMs);
	if (runs) syncContainerMounts(ctx, c, image);
	if (c.program.exited) recordExit(ctx, c);
}

export function recordExit(ctx: CriService, c: ContainerRecord): void {
	const exit = c.program?.exited;
	if (!exit || c.state === 'CONTAINER_EXITED') return;
	c.state = 'CONTAINER_EXITED';
	c.exitCode = exit.code;
	c.reason = exit.reason;
	c.finishedMs = exit.atMs;
	delete ctx.state?.checks?.[c.id];
	ctx.journal('info', `container ${c.id} exited with status ${exit.code} (${exit.reason})`);
	ctx.emit({ action: 'exit', object: `containers/${c.id.slice(0, 13)}`, msg: `container ${c.namespace}/${c.podName}/${c.name} exited with code ${exit.code} (${exit.reason})` });
	if (c.component) {
		const component = c.component;
		c.component = undefined;
		ctx.deps.hooks?.onSystemContainerStop(ctx.node, component, c.id);
	}
	if (ctx.up) ctx.notify({ type: 'container-exited', containerId: c.id, podUid: c.podUid });
}

/** Schedules the runtime to look at a container when its process is predicted to exit. */
export function scheduleCheck(ctx: CriService, c: ContainerRecord, stopping: boolean): void {
	if (!ctx.up || c.state !== 'CONTAINER_RUNNING' || !c.program) return;
	const image = ctx.catalogImageOf(c);
	if (!image) return;
	const prediction = predictExit(c.program, programHost(ctx, c, image), ctx.nowMs + PREDICT_HORIZON_MS);
	const atMs = prediction.exit?.atMs ?? prediction.recheckAtMs ?? ctx.nowMs + PREDICT_HORIZON_MS;
	if (ctx.state.checks[c.id] === atMs) return;
	ctx.state.checks[c.id] = atMs;
	// A stop (deletion, liveness kill) or a near exit is work settle() waits for; a far exit or a re-check is not.
	const background = !prediction.exit || (!stopping && !c.program.stop && atMs - ctx.nowMs > FOREGROUND_EXIT_MS);
	ctx.after(atMs - ctx.nowMs, CONTAINER_CHECK, { id: c.id, atMs }, { background });
}

/** The scheduled look at a container: only the latest check counts. */
export function onContainerCheck(ctx: CriService, payload: { id: string; atMs: number }): void {
	const { id, atMs } = payload;
	if (ctx.state.checks[id] !== atMs) return;
	delete ctx.state.checks[id];
	const c = ctx.host.containers[id];
	if (!c) return;
	catchUp(ctx, c);
	if (c.state === 'CONTAINER_RUNNING') scheduleCheck(ctx, c, false);
}

/**
 * The simulated process behind a system container died on its own (a
 * crash the cluster models): its container exits with `exitCode`, and
 * the kubelet restarts it as it would any container.
 */
export function markComponentExited(ctx: CriService, component: SystemComponent, exitCode: number): boolean {
	for (const c of Object.values(ctx.host.containers)) {
		if (c.component !== component || c.state !== 'CONTAINER_RUNNING' || !c.program) continue;
		catchUp(ctx, c);
		if (c.state !== 'CONTAINER_RUNNING' || !c.program) continue;
		c.component = undefined;
		c.program.exited = { code: exitCode, atMs: ctx.nowMs, reason: exitCode === 0 ? 'Completed' : 'Error' };
		recordExit(ctx, c);
		return true;
	}
	return false;
}
