/**
 * The kubelet's probe manager: a worker per probed container (app
 * containers and sidecars) and probe type, created when the pod is
 * admitted, its first run spread over one period when the kubelet just
 * started; a pod's workers tick together, skip a period while there is no
 * sandbox, and run in the order startup, liveness, readiness. A failed
 * liveness or startup probe kills the container for a restart; a changed
 * result rewrites the pod's status.
 *
 * ./prober.ts holds one worker's rules and the probes themselves.
 *
 * Mirrors pkg/kubelet/prober/prober_manager.go (AddPod),
 * pkg/kubelet/prober/worker.go (run, doProbe).
 */
import type { Container, Pod } from '../api/types.ts';
import { keyOf } from '../client/informer.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { killContainer } from './kuberuntime-container.ts';
import { attemptsOf, isRestartableInit } from './pod-status.ts';
import type { PodWorker } from './pod-workers.ts';
import { initialResult, probeOf, probeSetting, probeTypeName, recordProbeResult, resetProbeWorker, runProbe, type ProbeType } from './prober.ts';
import { writeStatus } from './status-manager.ts';

/** The containers probes apply to: the app containers and the sidecars. */
function probedContainers(pod: Pod): Container[] {
	return [...(pod.spec.initContainers ?? []).filter(isRestartableInit), ...pod.spec.containers];
}

export function createProbeWorkers(ctx: KubeletContext, w: PodWorker): void {
	for (const c of probedContainers(w.pod)) {
		for (const type of ['startup', 'liveness', 'readiness'] as ProbeType[]) {
			const probe = probeOf(c, type);
			if (!probe) continue;
			const period = probeSetting(probe, 'periodSeconds') * 1000;
			// A kubelet that just started spreads its probes over one period (worker.go).
			const first = w.addedMs - ctx.state.startedMs < period ? ctx.rng.int(period) : period;
			w.probes[`${c.name}/${type}`] = { container: c.name, type, result: initialResult(type), run: 0, onHold: false, nextMs: ctx.nowMs + first };
		}
	}
}

export function scheduleProbeTick(ctx: KubeletContext, w: PodWorker): void {
	if (w.terminated || w.termination || w.removedFromSource) return;
	const next = Math.min(...Object.values(w.probes).map((p) => p.nextMs));
	if (!Number.isFinite(next) || w.probeAtMs === next) return;
	w.probeAtMs = Math.max(next, ctx.nowMs);
	// Probe ticks are housekeeping with their own chain of causes, not part of the command that made the pod.
	ctx.after(w.probeAtMs - ctx.nowMs, 'probe-tick', { uid: w.uid, atMs: w.probeAtMs }, { background: true, origin: `periodic:${ctx.id}:probe` });
}

/** Moves every probe's next run past now: nothing can be probed this period. */
function skipProbePeriod(ctx: KubeletContext, w: PodWorker): void {
	for (const p of Object.values(w.probes)) {
		const c = probedContainers(w.pod).find((x) => x.name === p.container);
		const probe = c ? probeOf(c, p.type) : undefined;
		while (probe && p.nextMs <= ctx.nowMs) p.nextMs += probeSetting(probe, 'periodSeconds') * 1000;
	}
}

export function runProbes(ctx: KubeletContext, w: PodWorker): void {
	if (w.terminated || w.termination || w.removedFromSource) return;
	// No sandbox yet (or the runtime is unreachable): try again next period, never at once.
	if (!w.sandboxId) {
		skipProbePeriod(ctx, w);
		return scheduleProbeTick(ctx, w);
	}
	const containers = ctx.runtime.listContainers({ podUid: w.uid });
	if (!containers.ok) {
		skipProbePeriod(ctx, w);
		return scheduleProbeTick(ctx, w);
	}
	let statusChanged = false;
	const order: ProbeType[] = ['startup', 'liveness', 'readiness'];
	const workers = Object.values(w.probes).sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type) || a.container.localeCompare(b.container));
	for (const worker of workers) {
		const c = probedContainers(w.pod).find((x) => x.name === worker.container);
		const probe = c ? probeOf(c, worker.type) : undefined;
		if (!c || !probe) continue;
		if (worker.nextMs > ctx.nowMs) continue;
		const period = probeSetting(probe, 'periodSeconds') * 1000;
		while (worker.nextMs <= ctx.nowMs) worker.nextMs += period;
		const [latest] = attemptsOf(containers.value, c.name);
		if (!latest || latest.state !== 'CONTAINER_RUNNING') {
			if (worker.type === 'readiness' && worker.result !== 'failure') {
				worker.result = 'failure';
				statusChanged = true;
			}
			continue;
		}
		if (worker.containerId !== latest.id) {
			resetProbeWorker(worker, latest.id);
			statusChanged = true;
		}
		if (worker.onHold) continue;
		const startedMs = (latest.startedWallMs ?? ctx.wallMs()) - ctx.epochMs;
		if (ctx.nowMs - startedMs < probeSetting(probe, 'initialDelaySeconds') * 1000 && probe.initialDelaySeconds) continue;
		const startup = w.probes[`${c.name}/startup`];
		const startupDone = !startup || (startup.containerId === latest.id && startup.result === 'success');
		if (worker.type === 'startup' ? startupDone && startup?.containerId === latest.id && startup.result === 'success' : !startupDone) continue;
		const outcome = runProbe(ctx.runtime, probe, c, { containerId: latest.id, sandboxId: w.sandboxId, podIp: w.podIp ?? '' });
		const typeName = probeTypeName(worker.type);
		if ('error' in outcome) {
			ctx.podEvent(w, 'Warning', 'Unhealthy', `${typeName} probe errored and resulted in unknown state: ${outcome.error}`, c.name);
			continue;
		}
		if (outcome.result === 'failure') {
			ctx.podEvent(w, 'Warning', 'Unhealthy', `${typeName} probe failed: ${outcome.output}`, c.name);
			ctx.log('I', 'prober.go:107', 'Probe did not pass', { probeType: typeName, pod: keyOf(w.pod), podUID: w.uid, containerName: c.name, probeResult: 'failure', output: outcome.output });
		}
		const { changed, kill } = recordProbeResult(worker, probe, outcome.result);
		if (changed) statusChanged = true;
		if (kill) killContainer(ctx, w, c, latest, `Container ${c.name} failed ${worker.type} probe, will be restarted`, probe.terminationGracePeriodSeconds ?? w.pod.spec.terminationGracePeriodSeconds ?? 30);
	}
	if (statusChanged) writeStatus(ctx, w);
	scheduleProbeTick(ctx, w);
}
