/**
 * The HPA's replica calculator for resource metrics: from the Pods'
 * usage and requests, the utilization (sum of usage × 100 / sum of
 * requests, truncated), the usage ratio to the target, and the replica
 * count `ceil(ratio × ready pods)`, unchanged while the ratio is within
 * the tolerance (0.1). Pods being deleted or failed are ignored; Pending
 * Pods, and for CPU Pods not Ready or still in their first 5 minutes
 * without a sample taken after they became Ready, count as unready;
 * Pods without metrics are missing. On a scale-up missing and unready
 * Pods are taken as using nothing, on a scale-down missing ones as using
 * their whole request (or the target, if above 100 %); if that flips the
 * direction, or brings the ratio within the tolerance, nothing changes.
 *
 * Pure functions over plain data; ./horizontal.ts feeds them.
 *
 * Mirrors pkg/controller/podautoscaler/replica_calculator.go
 * (GetResourceReplicas, groupPods, calculatePodRequests,
 * removeMetricsForPods), pkg/controller/podautoscaler/metrics/utilization.go
 * (GetResourceUtilizationRatio), pkg/controller/podautoscaler/horizontal.go
 * (Tolerances.isWithin).
 */

/** --horizontal-pod-autoscaler-tolerance. */
export const DEFAULT_TOLERANCE = 0.1;
/** --horizontal-pod-autoscaler-cpu-initialization-period. */
export const CPU_INITIALIZATION_PERIOD_MS = 5 * 60_000;
/** --horizontal-pod-autoscaler-initial-readiness-delay. */
export const DELAY_OF_INITIAL_READINESS_STATUS_MS = 30_000;

/** One Pod's usage as the metrics client reads it: milli-units, with the sample's time and window. */
export interface PodMetric {
	value: number;
	timestampMs: number;
	windowMs: number;
}

/** What the calculator needs of a Pod. */
export interface CalcPod {
	name: string;
	phase: string;
	deleting: boolean;
	/** The Ready condition, if any. */
	ready?: { status: string; lastTransitionMs: number };
	startTimeMs?: number;
	/** The request of the resource per container (milli-units); undefined where a container has none. */
	containerRequests: Array<{ name: string; request?: number }>;
}

export interface ResourceReplicasResult {
	replicas: number;
	/** Current utilization, percent of request. */
	utilization: number;
	/** Average usage per Pod, milli-units. */
	rawUtilization: number;
	timestampMs: number;
}

export class CalculatorError extends Error {}

const isWithin = (ratio: number, tolerance: number) => 1 - tolerance <= ratio && ratio <= 1 + tolerance;

/** GetResourceUtilizationRatio. */
export function resourceUtilizationRatio(metrics: Map<string, PodMetric>, requests: Map<string, number>, targetUtilization: number): { ratio: number; utilization: number; raw: number } {
	let metricsTotal = 0;
	let requestsTotal = 0;
	let entries = 0;
	for (const [pod, metric] of metrics) {
		const request = requests.get(pod);
		if (request === undefined) continue;
		metricsTotal += metric.value;
		requestsTotal += request;
		entries++;
	}
	if (requestsTotal === 0) throw new CalculatorError('no metrics returned matched known pods');
	const utilization = Math.trunc((metricsTotal * 100) / requestsTotal);
	return { ratio: utilization / targetUtilization, utilization, raw: Math.trunc(metricsTotal / entries) };
}

/** groupPods. */
export function groupPods(pods: CalcPod[], metrics: Map<string, PodMetric>, cpu: boolean, nowMs: number): { readyPodCount: number; unready: Set<string>; missing: Set<string>; ignored: Set<string> } {
	const unready = new Set<string>();
	const missing = new Set<string>();
	const ignored = new Set<string>();
	let readyPodCount = 0;
	for (const pod of pods) {
		if (pod.deleting || pod.phase === 'Failed') {
			ignored.add(pod.name);
			continue;
		}
		if (pod.phase === 'Pending') {
			unready.add(pod.name);
			continue;
		}
		const metric = metrics.get(pod.name);
		if (!metric) {
			missing.add(pod.name);
			continue;
		}
		if (cpu) {
			let isUnready: boolean;
			if (!pod.ready || pod.startTimeMs === undefined) isUnready = true;
			else if (pod.startTimeMs + CPU_INITIALIZATION_PERIOD_MS > nowMs) isUnready = pod.ready.status === 'False' || metric.timestampMs < pod.ready.lastTransitionMs + metric.windowMs;
			else isUnready = pod.ready.status === 'False' && pod.startTimeMs + DELAY_OF_INITIAL_READINESS_STATUS_MS > pod.ready.lastTransitionMs;
			if (isUnready) {
				unready.add(pod.name);
				continue;
			}
		}
		readyPodCount++;
	}
	return { readyPodCount, unready, missing, ignored };
}

/** calculatePodRequests: the sum of the containers' requests, or the error for the first container without one. */
export function calculatePodRequests(pods: CalcPod[], resource: string): Map<string, number> {
	const out = new Map<string, number>();
	for (const pod of pods) {
		let total = 0;
		for (const c of pod.containerRequests) {
			if (c.request === undefined) throw new CalculatorError(`missing request for ${resource} in container ${c.name} of Pod ${pod.name}`);
			total += c.request;
		}
		out.set(pod.name, total);
	}
	return out;
}

/** GetResourceReplicas, after the metrics and the Pods are read. */
export function getResourceReplicas(args: { currentReplicas: number; targetUtilization: number; resource: string; metrics: Map<string, PodMetric>; pods: CalcPod[]; nowMs: number; tolerance?: number }): ResourceReplicasResult {
	const tolerance = args.tolerance ?? DEFAULT_TOLERANCE;
	const metrics = new Map(args.metrics);
	const timestampMs = [...metrics.values()][0]?.timestampMs ?? 0;
	if (args.pods.length === 0) throw new CalculatorError('no pods returned by selector while calculating replica count');
	const { readyPodCount, unready, missing, ignored } = groupPods(args.pods, metrics, args.resource === 'cpu', args.nowMs);
	for (const name of [...ignored, ...unready]) metrics.delete(name);
	if (metrics.size === 0) throw new CalculatorError('did not receive metrics for targeted pods (pods might be unready)');
	const requests = calculatePodRequests(args.pods, args.resource);
	const first = resourceUtilizationRatio(metrics, requests, args.targetUtilization);
	const scaleUpWithUnready = unready.size > 0 && first.ratio > 1;
	const result = (replicas: number): ResourceReplicasResult => ({ replicas, utilization: first.utilization, rawUtilization: first.raw, timestampMs });
	if (!scaleUpWithUnready && missing.size === 0) {
		if (isWithin(first.ratio, tolerance)) return result(args.currentReplicas);
		return result(Math.ceil(first.ratio * readyPodCount));
	}
	if (missing.size > 0) {
		if (first.ratio < 1) {
			const fallback = Math.max(100, args.targetUtilization);
			for (const name of missing) metrics.set(name, { value: Math.trunc(((requests.get(name) ?? 0) * fallback) / 100), timestampMs, windowMs: 0 });
		} else if (first.ratio > 1) {
			for (const name of missing) metrics.set(name, { value: 0, timestampMs, windowMs: 0 });
		}
	}
	if (scaleUpWithUnready) for (const name of unready) metrics.set(name, { value: 0, timestampMs, windowMs: 0 });
	const next = resourceUtilizationRatio(metrics, requests, args.targetUtilization);
	if (isWithin(next.ratio, tolerance) || (first.ratio < 1 && next.ratio > 1) || (first.ratio > 1 && next.ratio < 1)) return result(args.currentReplicas);
	const replicas = Math.ceil(next.ratio * metrics.size);
	if ((next.ratio < 1 && replicas > args.currentReplicas) || (next.ratio > 1 && replicas < args.currentReplicas)) return result(args.currentReplicas);
	return result(replicas);
}
