/**
 * containerd starting again over what its shims kept running, and the
 * machine losing power under it. On start the CRI plugin loads every
 * container from its store: one whose shim still runs is caught up with
 * and watched again; one recorded as running with no task behind it (the
 * node rebooted) is marked exited with the unknown exit code.
 *
 * Mirrors containerd/containerd internal/cri/server/restart.go (recover,
 * loadContainer), containerd/containerd internal/cri/server/helpers.go
 * (unknownExitCode, unknownExitReason).
 */
import { releaseIp } from '../ipam.ts';
import type { ContainerRecord } from '../host-state.ts';
import { catchUp, scheduleCheck } from './events.ts';
import type { CriService } from './cri-service.ts';

/** The exit code and reason containerd gives a container whose process vanished (internal/cri/server/helpers.go: unknownExitCode, unknownExitReason). */
export const UNKNOWN_EXIT_CODE = 255;
export const UNKNOWN_EXIT_REASON = 'Unknown';

/** Containers kept running under their shims; catch up with them and watch their exits again. */
export function recoverContainers(ctx: CriService): void {
	for (const c of Object.values(ctx.host.containers)) {
		// A record that says running with no process behind it: the machine lost power (restart.go, loadContainer).
		if (c.state === 'CONTAINER_RUNNING' && !c.program) {
			recoverLostTask(ctx, c);
			continue;
		}
		catchUp(ctx, c);
		if (c.state === 'CONTAINER_RUNNING') scheduleCheck(ctx, c, false);
	}
}

/**
 * containerd's recovery of a container whose task is gone (a reboot):
 * the CRI plugin marks it exited with the unknown exit code 255 and the
 * reason `Unknown`, finished now (containerd internal/cri/server
 * restart.go loadContainer; unknownExitCode and unknownExitReason in
 * helpers.go).
 */
function recoverLostTask(ctx: CriService, c: ContainerRecord): void {
	c.state = 'CONTAINER_EXITED';
	c.exitCode = UNKNOWN_EXIT_CODE;
	c.reason = UNKNOWN_EXIT_REASON;
	c.finishedMs = ctx.nowMs;
	c.component = undefined;
	ctx.journal('info', `container ${c.id} was running but its task is gone; marked exited with status ${UNKNOWN_EXIT_CODE} (${UNKNOWN_EXIT_REASON})`);
	ctx.emit({ action: 'exit', object: `containers/${c.id.slice(0, 13)}`, msg: `container ${c.namespace}/${c.podName}/${c.name} found without its process after a reboot: exit code ${UNKNOWN_EXIT_CODE} (${UNKNOWN_EXIT_REASON})` });
}

/**
 * The machine lost power (or was shut down): every process on it ends at
 * this instant and nobody sees it exit. Each container's output up to now
 * is kept, and its record stays as containerd last wrote it to disk
 * (running) until containerd starts again and finds no task behind it
 * (see recoverContainers). The pause processes die too, and the pods'
 * network namespaces lived on /run, a tmpfs: the sandboxes are not ready
 * and their addresses are free again. Call it once containerd is stopped.
 */
export function powerLost(ctx: CriService): void {
	for (const c of Object.values(ctx.host.containers)) {
		// Output and exits up to the cut are real; nothing after it happens.
		catchUp(ctx, c);
		if (c.state !== 'CONTAINER_RUNNING') continue;
		c.program = undefined;
		c.component = undefined;
	}
	for (const s of Object.values(ctx.host.sandboxes)) {
		if (s.state !== 'SANDBOX_READY') continue;
		s.state = 'SANDBOX_NOTREADY';
		if (!s.hostNetwork) releaseIp(ctx.host, s.ip);
	}
}
