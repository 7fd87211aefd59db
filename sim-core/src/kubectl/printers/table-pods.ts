/**
 * The pod row of `kubectl get pods`: READY, the aggregate STATUS and
 * RESTARTS exactly as the API server's printPod computes them (init
 * containers, sidecars, waiting and terminated reasons, `Completed` with
 * containers still running, `Terminating`, `SchedulingGated`, `3 (2m ago)`).
 *
 * Mirrors pkg/printers/internalversion/printers.go (printPod).
 */
import type { Container, ContainerStatus, KubeObject, Pod } from '../../api/types.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { humanDuration } from '../../api/duration.ts';
import { columns, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';
import { isRestartableInitContainer } from '../../component-helpers/resource.ts';

/** Pod status reason set by the node lifecycle controller for pods on a lost node (pkg/util/node NodeUnreachablePodReason). */
const NODE_UNREACHABLE_POD_REASON = 'NodeLost';
/** The PodScheduled condition reason while scheduling gates remain (core/v1 PodReasonSchedulingGated). */
const SCHEDULING_GATED = 'SchedulingGated';

/** A terminated state's finishedAt as epoch ms (0, Go's zero time, when absent). */
function finishedAtMs(status: ContainerStatus): number {
	const at = status.lastState?.terminated?.finishedAt;
	const ms = at ? parseRfc3339(at) : Number.NaN;
	return Number.isNaN(ms) ? 0 : ms;
}

/** The READY, STATUS and RESTARTS cells of a pod (printPod). */
export function podStatusCells(pod: Pod, nowMs: number): { ready: string; status: string; restarts: string } {
	const spec = pod.spec ?? { containers: [] };
	const status = pod.status ?? {};
	let restarts = 0;
	let restartableInitContainerRestarts = 0;
	let totalContainers = (spec.containers ?? []).length;
	let readyContainers = 0;
	let lastRestartDate = 0;
	let lastRestartableInitContainerRestartDate = 0;
	const podPhase = status.phase ?? '';
	let reason: string = status.reason || podPhase;

	for (const condition of status.conditions ?? []) {
		if (condition.type === 'PodScheduled' && condition.reason === SCHEDULING_GATED) reason = SCHEDULING_GATED;
	}

	const initContainers = new Map<string, Container>();
	for (const c of spec.initContainers ?? []) {
		initContainers.set(c.name, c);
		if (isRestartableInitContainer(c)) totalContainers++;
	}

	let initializing = false;
	const initStatuses = status.initContainerStatuses ?? [];
	for (let i = 0; i < initStatuses.length; i++) {
		const container = initStatuses[i];
		restarts += container.restartCount ?? 0;
		if (container.lastState?.terminated) lastRestartDate = Math.max(lastRestartDate, finishedAtMs(container));
		const restartable = isRestartableInitContainer(initContainers.get(container.name));
		if (restartable) {
			restartableInitContainerRestarts += container.restartCount ?? 0;
			if (container.lastState?.terminated) lastRestartableInitContainerRestartDate = Math.max(lastRestartableInitContainerRestartDate, finishedAtMs(container));
		}
		const terminated = container.state?.terminated;
		const waiting = container.state?.waiting;
		if (terminated && terminated.exitCode === 0) continue;
		if (restartable && container.started === true) {
			if (container.ready) readyContainers++;
			continue;
		}
		if (terminated) {
			// Initialization failed.
			if (!terminated.reason) reason = terminated.signal ? `Init:Signal:${terminated.signal}` : `Init:ExitCode:${terminated.exitCode}`;
			else reason = `Init:${terminated.reason}`;
		} else if (waiting && waiting.reason && waiting.reason !== 'PodInitializing') {
			reason = `Init:${waiting.reason}`;
		} else {
			reason = `Init:${i}/${(spec.initContainers ?? []).length}`;
		}
		initializing = true;
		break;
	}

	const initializedTrue = (status.conditions ?? []).some((c) => c.type === 'Initialized' && c.status === 'True');
	if (!initializing || initializedTrue) {
		restarts = restartableInitContainerRestarts;
		lastRestartDate = lastRestartableInitContainerRestartDate;
		let hasRunning = false;
		const statuses = status.containerStatuses ?? [];
		for (let i = statuses.length - 1; i >= 0; i--) {
			const container = statuses[i];
			restarts += container.restartCount ?? 0;
			if (container.lastState?.terminated) lastRestartDate = Math.max(lastRestartDate, finishedAtMs(container));
			const waiting = container.state?.waiting;
			const terminated = container.state?.terminated;
			if (waiting && waiting.reason) reason = waiting.reason;
			else if (terminated && terminated.reason) reason = terminated.reason;
			else if (terminated && !terminated.reason) reason = terminated.signal ? `Signal:${terminated.signal}` : `ExitCode:${terminated.exitCode}`;
			else if (container.ready && container.state?.running) {
				hasRunning = true;
				readyContainers++;
			}
		}
		// A pod whose last container completed but another still runs is shown as running.
		if (reason === 'Completed' && hasRunning) {
			reason = (status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') ? 'Running' : 'NotReady';
		}
	}

	if (pod.metadata.deletionTimestamp && status.reason === NODE_UNREACHABLE_POD_REASON) reason = 'Unknown';
	else if (pod.metadata.deletionTimestamp && podPhase !== 'Succeeded' && podPhase !== 'Failed') reason = 'Terminating';

	let restartsText = String(restarts);
	if (restarts !== 0 && lastRestartDate !== 0) restartsText = `${restarts} (${humanDuration(nowMs - lastRestartDate)} ago)`;
	return { ready: `${readyContainers}/${totalContainers}`, status: reason, restarts: restartsText };
}

/** printPod's wide cells: IP, NODE, NOMINATED NODE, READINESS GATES (`<none>` when empty, gates as `true/total`). */
function podWideCells(pod: Pod): string[] {
	const podIP = pod.status?.podIPs?.[0]?.ip || '<none>';
	const nodeName = pod.spec?.nodeName || '<none>';
	const nominated = pod.status?.nominatedNodeName || '<none>';
	const gates = (pod.spec?.readinessGates as Array<{ conditionType: string }> | undefined) ?? [];
	let readinessGates = '<none>';
	if (gates.length > 0) {
		let trueConditions = 0;
		for (const gate of gates) {
			const condition = (pod.status?.conditions ?? []).find((c) => c.type === gate.conditionType);
			if (condition?.status === 'True') trueConditions++;
		}
		readinessGates = `${trueConditions}/${gates.length}`;
	}
	return [podIP, nodeName, nominated, readinessGates];
}

/** `kubectl get pods`: NAME READY STATUS RESTARTS AGE, wide: IP NODE NOMINATED NODE READINESS GATES. */
export const POD_TABLE: TableDefinition = {
	columns: columns('Name', 'Ready', 'Status', 'Restarts', 'Age', 'IP*', 'Node*', 'Nominated Node*', 'Readiness Gates*'),
	row(obj: KubeObject, ctx: TableContext): string[] {
		const pod = obj as Pod;
		const { ready, status, restarts } = podStatusCells(pod, ctx.nowMs);
		return [pod.metadata.name ?? '', ready, status, restarts, translateTimestampSince(pod.metadata.creationTimestamp, ctx.nowMs), ...podWideCells(pod)];
	},
};
