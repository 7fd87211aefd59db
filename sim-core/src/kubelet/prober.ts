/**
 * Liveness, readiness and startup probes: one worker per container and
 * probe type, ticking every periodSeconds from when the kubelet took the
 * pod. A worker skips while the container is not running, during
 * initialDelaySeconds, and (for liveness and readiness) until the startup
 * probe succeeded; a result only counts once it repeated
 * successThreshold/failureThreshold times. A failed liveness or startup
 * result puts the worker on hold until the container is replaced.
 *
 * exec probes run through the runtime's ExecSync; httpGet and tcpSocket
 * probes connect from the node into the pod's network namespace (the
 * runtime answers for the servers running there). Messages are upstream's:
 * `HTTP probe failed with statuscode: 500`, `Get "http://ip:port/path":
 * dial tcp ip:port: connect: connection refused`...
 *
 * Mirrors pkg/kubelet/prober/worker.go, pkg/kubelet/prober/prober.go,
 * pkg/probe/exec/exec.go, pkg/probe/http/http.go, pkg/probe/tcp/tcp.go.
 */
import type { Container, Probe } from '../api/types.ts';
import { criErrorText, type CriRuntime } from '../cri-api/cri.ts';

export type ProbeType = 'liveness' | 'readiness' | 'startup';
type ProbeResult = 'success' | 'failure' | 'unknown';

/** Field defaults of core/v1 Probe (pkg/apis/core/v1/defaults.go). */
const PROBE_DEFAULTS = { initialDelaySeconds: 0, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 } as const;

/** The probe's User-Agent, `kube-probe/<major>.<minor>` (pkg/probe/http/request.go). */
export const PROBE_USER_AGENT = 'kube-probe/1.36';

/** One probe worker's state. Plain JSON. */
export interface ProbeWorker {
	container: string;
	type: ProbeType;
	/** The container the current result belongs to. */
	containerId?: string;
	result: ProbeResult;
	/** The last raw result and how many times in a row it came. */
	lastRaw?: 'success' | 'failure';
	run: number;
	/** Stopped after a liveness/startup failure, until the container changes. */
	onHold: boolean;
	/** Next tick (virtual ms). */
	nextMs: number;
}

/** A worker's result before the first probe: liveness passes, readiness fails, startup is unknown. */
export function initialResult(type: ProbeType): ProbeResult {
	return type === 'liveness' ? 'success' : type === 'readiness' ? 'failure' : 'unknown';
}

export function probeOf(container: Container, type: ProbeType): Probe | undefined {
	return type === 'liveness' ? container.livenessProbe : type === 'readiness' ? container.readinessProbe : container.startupProbe;
}

/** `Liveness`, `Readiness`, `Startup` as events print them. */
export function probeTypeName(type: ProbeType): string {
	return type[0].toUpperCase() + type.slice(1);
}

export function probeSetting(probe: Probe, field: keyof typeof PROBE_DEFAULTS): number {
	const v = probe[field];
	return typeof v === 'number' && v > 0 ? v : PROBE_DEFAULTS[field];
}

/** What one probe attempt found: a result with its output, or an error (thrown away, as upstream does). */
type ProbeOutcome = { result: 'success' | 'failure'; output: string } | { error: string };

function resolvePort(port: number | string, container: Container): number | undefined {
	if (typeof port === 'number') return port;
	if (/^\d+$/.test(port)) return Number(port);
	return container.ports?.find((p) => p.name === port)?.containerPort;
}

/** Runs one probe attempt against a running container. */
export function runProbe(runtime: CriRuntime, probe: Probe, container: Container, target: { containerId: string; sandboxId: string; podIp: string }): ProbeOutcome {
	const timeout = probeSetting(probe, 'timeoutSeconds');
	if (probe.exec) {
		const r = runtime.execSync(target.containerId, probe.exec.command ?? [], timeout);
		if (!r.ok) return { error: criErrorText(r.error) };
		const output = r.value.stdout + r.value.stderr;
		return { result: r.value.exitCode === 0 ? 'success' : 'failure', output };
	}
	if (probe.httpGet) {
		const port = resolvePort(probe.httpGet.port, container);
		const host = probe.httpGet.host || target.podIp;
		const scheme = (probe.httpGet.scheme ?? 'HTTP').toLowerCase();
		const path = probe.httpGet.path ? (probe.httpGet.path.startsWith('/') ? probe.httpGet.path : `/${probe.httpGet.path}`) : '/';
		if (port === undefined) return { result: 'failure', output: `unable to find port "${String(probe.httpGet.port)}"` };
		const url = `${scheme}://${host}:${port}${path}`;
		const r = runtime.probeHttp(target.sandboxId, port, path, PROBE_USER_AGENT);
		if (!r.ok) return { error: criErrorText(r.error) };
		const a = r.value;
		if (a.kind === 'refused') return { result: 'failure', output: `Get "${url}": dial tcp ${host}:${port}: connect: connection refused` };
		if (a.kind === 'eof') return { result: 'failure', output: `Get "${url}": EOF` };
		if (a.kind === 'http') {
			// 2xx and 3xx pass (pkg/probe/http: statusCode >= 200 && < 400).
			if (a.status >= 200 && a.status < 400) return { result: 'success', output: '' };
			return { result: 'failure', output: `HTTP probe failed with statuscode: ${a.status}` };
		}
		return { result: 'success', output: '' };
	}
	if (probe.tcpSocket || probe.grpc) {
		const rawPort = probe.tcpSocket ? probe.tcpSocket.port : probe.grpc!.port;
		const port = resolvePort(rawPort, container);
		const host = probe.tcpSocket?.host || target.podIp;
		if (port === undefined) return { result: 'failure', output: `unable to find port "${String(rawPort)}"` };
		const r = runtime.probeTcp(target.sandboxId, port);
		if (!r.ok) return { error: criErrorText(r.error) };
		if (r.value.kind === 'connected') return { result: 'success', output: '' };
		if (probe.grpc) return { result: 'failure', output: `timeout: failed to connect service "${host}:${port}" within ${timeout}s: context deadline exceeded` };
		return { result: 'failure', output: `dial tcp ${host}:${port}: connect: connection refused` };
	}
	return { result: 'success', output: '' };
}

/**
 * Counts a raw result against the thresholds (worker.doProbe). Returns the
 * new effective result when it changed, and whether the container must be
 * killed (liveness or startup failure).
 */
export function recordProbeResult(worker: ProbeWorker, probe: Probe, raw: 'success' | 'failure'): { changed: boolean; kill: boolean } {
	if (worker.lastRaw === raw) worker.run++;
	else {
		worker.lastRaw = raw;
		worker.run = 1;
	}
	const threshold = raw === 'failure' ? probeSetting(probe, 'failureThreshold') : probeSetting(probe, 'successThreshold');
	if (worker.run < threshold) return { changed: false, kill: false };
	const changed = worker.result !== raw;
	worker.result = raw;
	if ((worker.type === 'liveness' || worker.type === 'startup') && raw === 'failure') {
		worker.onHold = true;
		worker.run = 0;
		return { changed, kill: true };
	}
	return { changed, kill: false };
}

/** Resets a worker for a new container (new id: initial result, counters cleared, hold lifted). */
export function resetProbeWorker(worker: ProbeWorker, containerId: string): void {
	worker.containerId = containerId;
	worker.result = initialResult(worker.type);
	worker.lastRaw = undefined;
	worker.run = 0;
	worker.onHold = false;
}

/** Whether a container counts as ready or started: true without such a probe, else the worker's success for this very container (the results manager). */
export function probeOk(probes: Record<string, ProbeWorker>, container: string, containerId: string, type: 'readiness' | 'startup'): boolean {
	const worker = probes[`${container}/${type}`];
	if (!worker) return true;
	return worker.containerId === containerId && worker.result === 'success';
}
