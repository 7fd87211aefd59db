/**
 * The horizontal-pod-autoscaler controller: every 15 s
 * (--horizontal-pod-autoscaler-sync-period) each HPA reads its target's
 * scale subresource, lists the PodMetrics of the target's Pods from
 * metrics.k8s.io, computes the replicas each metric asks for
 * (./replica-calculator.ts), takes the largest, normalizes it
 * (./normalize.ts: stabilization, rate limits, min and max), rescales the
 * target when the count changes (`SuccessfulRescale`, `New size: 4;
 * reason: cpu resource utilization (percentage of request) above
 * target`) and writes its status: current and desired replicas, the
 * current metrics, and the AbleToScale, ScalingActive and ScalingLimited
 * conditions. Without metrics (metrics-server absent or down) it stops
 * acting: `FailedGetResourceMetric` and `FailedComputeMetricsReplicas`
 * events, ScalingActive False.
 *
 * Resource metrics (cpu, memory; utilization or average value) are
 * modelled; Pods, Object, External and ContainerResource metrics are
 * reported as invalid.
 *
 * Mirrors pkg/controller/podautoscaler/horizontal.go (reconcileAutoscaler,
 * computeReplicasForMetrics, computeStatusForResourceMetric(Generic),
 * getUnableComputeReplicaCountCondition, setStatus, setCondition,
 * updateStatusIfNeeded), pkg/controller/podautoscaler/metrics/client.go
 * (resourceMetricsClient.GetResourceMetric), pkg/controller/podautoscaler/config/v1alpha1/defaults.go
 * (the sync period).
 */
import type { KubeObject, Pod } from '../../api/types.ts';
import { matches, parseLabelSelector, SelectorError, selectorToString } from '../../api/labels.ts';
import { parseQuantity, Quantity } from '../../api/quantity.ts';
import { deepCopy } from '../../golang/json.ts';
import { keyOf } from '../../client/informer.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';
import { podReadyCondition, splitKey, timeMs } from '../pod-util.ts';
import { CalculatorError, getResourceReplicas, type CalcPod, type PodMetric } from './replica-calculator.ts';
import { normalizeDesiredReplicas, normalizeDesiredReplicasWithBehaviors, storeScaleEvent, type Behavior, type NormalizedCondition, type Recommendation, type ScaleEvent } from './normalize.ts';

const HPA_CONTROLLER = 'horizontal-pod-autoscaler-controller';
/** The event source. */
const HPA_EVENT_SOURCE = 'horizontal-pod-autoscaler';
/** --horizontal-pod-autoscaler-sync-period. */
export const HPA_SYNC_PERIOD_MS = 15_000;

const AUTOSCALING_V2 = { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers' };
const POD_METRICS = { group: 'metrics.k8s.io', version: 'v1beta1', resource: 'pods' };

/** The scale subresource's resource for the kinds an HPA can target. */
const SCALABLE: Record<string, { group: string; version: string; resource: string }> = {
	Deployment: { group: 'apps', version: 'v1', resource: 'deployments' },
	ReplicaSet: { group: 'apps', version: 'v1', resource: 'replicasets' },
	StatefulSet: { group: 'apps', version: 'v1', resource: 'statefulsets' },
};

interface Condition {
	type: string;
	status: 'True' | 'False' | 'Unknown';
	lastTransitionTime?: string;
	reason?: string;
	message?: string;
}
interface MetricSpec {
	type?: string;
	resource?: { name: string; target: { type?: string; averageUtilization?: number; averageValue?: string } };
}
interface Hpa extends KubeObject {
	spec: { scaleTargetRef: { apiVersion?: string; kind: string; name: string }; minReplicas?: number; maxReplicas: number; metrics?: MetricSpec[]; behavior?: Behavior };
	status?: { observedGeneration?: number; lastScaleTime?: string; currentReplicas?: number; desiredReplicas?: number; currentMetrics?: unknown[]; conditions?: Condition[] };
}
interface Scale {
	metadata: { name?: string; namespace?: string; resourceVersion?: string };
	spec?: { replicas?: number };
	status?: { replicas?: number; selector?: string };
}

/** Per HPA: its recommendations and scale events (the controller's memory, lost when it restarts, as upstream). */
interface HpaMemory {
	recommendations: Recommendation[];
	scaleUpEvents: ScaleEvent[];
	scaleDownEvents: ScaleEvent[];
}
interface HpaState {
	memory: Record<string, HpaMemory>;
}

class MetricError extends Error {
	constructor(
		message: string,
		readonly condition: Condition,
	) {
		super(message);
	}
}

export class HorizontalPodAutoscalerController extends ControllerBase<HpaState> {
	readonly name = HPA_CONTROLLER;
	readonly sub = 'horizontalpodautoscaling';
	readonly resources = ['horizontalpodautoscalers', 'pods'] as const;

	freshState(): HpaState {
		return { memory: {} };
	}

	/** enqueueHPA: AddRateLimited with the fixed 15 s limiter, so the first sync comes one period after the HPA appears. */
	override onAdd(resource: string, obj: KubeObject): void {
		if (resource !== 'horizontalpodautoscalers') return;
		this.host.enqueueAfter(this.sub, keyOf(obj), HPA_SYNC_PERIOD_MS, true);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'horizontalpodautoscalers') delete this.state.memory[keyOf(obj)];
	}

	sync(key: string): SyncError {
		const cached = this.host.informer('horizontalpodautoscalers').get(key) as Hpa | undefined;
		if (!cached) {
			delete this.state.memory[key];
			return undefined;
		}
		this.reconcile(deepCopy(cached));
		// processNextWorkItem: the key comes back one sync period later.
		this.host.enqueueAfter(this.sub, key, HPA_SYNC_PERIOD_MS, true);
		return undefined;
	}

	private memory(key: string): HpaMemory {
		return (this.state.memory[key] ??= { recommendations: [], scaleUpEvents: [], scaleDownEvents: [] });
	}

	private event(hpa: Hpa, type: 'Normal' | 'Warning', reason: string, message: string): void {
		this.host.recorder(HPA_EVENT_SOURCE).record(hpa, type, reason, message);
	}

	/** setCondition: the transition time moves only when the status changes. */
	private setCondition(hpa: Hpa, type: string, status: 'True' | 'False', reason: string, message: string): void {
		const conditions = ((hpa.status ??= {}).conditions ??= []);
		const existing = conditions.find((c) => c.type === type);
		if (existing) {
			if (existing.status !== status) existing.lastTransitionTime = this.nowRfc3339();
			existing.status = status;
			existing.reason = reason;
			existing.message = message;
		} else {
			conditions.push({ type, status, lastTransitionTime: this.nowRfc3339(), reason, message });
		}
	}

	/** updateStatusIfNeeded: a write only when the status changed. */
	private updateStatus(hpa: Hpa, old: Hpa['status']): void {
		if (JSON.stringify(hpa.status ?? {}) === JSON.stringify(old ?? {})) return;
		const written = this.host.client.updateStatus(AUTOSCALING_V2, hpa);
		if (!written.ok) this.trace('error', `horizontalpodautoscalers/${keyOf(hpa)}`, `failed to update status: ${written.message}`);
	}

	private setStatus(hpa: Hpa, currentReplicas: number, desiredReplicas: number, metricStatuses: unknown[] | undefined, rescale: boolean): void {
		const status = (hpa.status ??= {});
		status.currentReplicas = currentReplicas;
		status.desiredReplicas = desiredReplicas;
		if (metricStatuses) status.currentMetrics = metricStatuses;
		else delete status.currentMetrics;
		if (rescale) status.lastScaleTime = this.nowRfc3339();
	}

	private reconcile(hpa: Hpa): void {
		const key = keyOf(hpa);
		const old = deepCopy(hpa.status);
		const { namespace } = splitKey(key);
		const ref = hpa.spec.scaleTargetRef;
		const reference = `${ref.kind}/${ref.name}`;
		const target = SCALABLE[ref.kind];
		const scaleGot = target
			? this.host.client.call<Scale>({ verb: 'get', ...target, namespace, name: ref.name, subresource: 'scale' })
			: ({ ok: false, code: 0, reason: '', message: `no matches for kind "${ref.kind}" in group "${(ref.apiVersion ?? '').split('/')[0]}"` } as const);
		if (!scaleGot.ok) {
			this.setCondition(hpa, 'AbleToScale', 'False', 'FailedGetScale', `the HPA controller was unable to get the target's current scale: ${scaleGot.message}`);
			this.event(hpa, 'Warning', 'FailedGetScale', scaleGot.message);
			this.updateStatus(hpa, old);
			return;
		}
		const scale = scaleGot.object;
		this.setCondition(hpa, 'AbleToScale', 'True', 'SucceededGetScale', "the HPA controller was able to get the target's current scale");
		const currentReplicas = scale.spec?.replicas ?? 0;
		const minReplicas = hpa.spec.minReplicas ?? 1;
		let desiredReplicas = 0;
		let rescaleReason = '';
		let metricStatuses: unknown[] | undefined = hpa.status?.currentMetrics;
		if (currentReplicas === 0 && minReplicas !== 0) {
			desiredReplicas = 0;
			this.setCondition(hpa, 'ScalingActive', 'False', 'ScalingDisabled', 'scaling is disabled since the replica count of the target is zero');
		} else if (currentReplicas > hpa.spec.maxReplicas) {
			rescaleReason = 'Current number of replicas above Spec.MaxReplicas';
			desiredReplicas = hpa.spec.maxReplicas;
		} else if (currentReplicas < minReplicas) {
			rescaleReason = 'Current number of replicas below Spec.MinReplicas';
			desiredReplicas = minReplicas;
		} else {
			const computed = this.computeReplicasForMetrics(hpa, scale, currentReplicas);
			metricStatuses = computed.statuses;
			if (computed.error) {
				this.setStatus(hpa, currentReplicas, hpa.status?.desiredReplicas ?? currentReplicas, metricStatuses, false);
				this.updateStatus(hpa, old);
				this.event(hpa, 'Warning', 'FailedComputeMetricsReplicas', computed.error);
				this.trace('error', `horizontalpodautoscalers/${key}`, `failed to compute desired number of replicas based on listed metrics for ${reference}: ${computed.error}`);
				return;
			}
			let rescaleMetric = '';
			if (computed.replicas > desiredReplicas) {
				desiredReplicas = computed.replicas;
				rescaleMetric = computed.metric;
			}
			if (desiredReplicas > currentReplicas) rescaleReason = `${rescaleMetric} above target`;
			if (desiredReplicas < currentReplicas) rescaleReason = 'All metrics below target';
			const memory = this.memory(key);
			const args = { nowMs: this.host.clock.nowMs(), currentReplicas, desiredReplicas, minReplicas, maxReplicas: hpa.spec.maxReplicas, recommendations: memory.recommendations };
			const normalized = hpa.spec.behavior
				? normalizeDesiredReplicasWithBehaviors({ ...args, behavior: hpa.spec.behavior, scaleUpEvents: memory.scaleUpEvents, scaleDownEvents: memory.scaleDownEvents })
				: normalizeDesiredReplicas(args);
			for (const c of normalized.conditions as NormalizedCondition[]) this.setCondition(hpa, c.type, c.status, c.reason, c.message);
			desiredReplicas = normalized.replicas;
		}
		const rescale = desiredReplicas !== currentReplicas;
		if (rescale && target) {
			// The Scales client's Update: the Scale read above, with the new count.
			const body = { ...scale, spec: { ...(scale.spec ?? {}), replicas: desiredReplicas } } as unknown as KubeObject;
			const updated = this.host.client.call({ verb: 'update', ...target, namespace, name: ref.name, subresource: 'scale', body });
			if (!updated.ok) {
				this.setCondition(hpa, 'AbleToScale', 'False', 'FailedUpdateScale', `the HPA controller was unable to update the target scale: ${updated.message}`);
				this.event(hpa, 'Warning', 'FailedRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}; error: ${updated.message}`);
				this.setStatus(hpa, currentReplicas, hpa.status?.desiredReplicas ?? currentReplicas, metricStatuses, false);
				this.updateStatus(hpa, old);
				return;
			}
			this.setCondition(hpa, 'AbleToScale', 'True', 'SucceededRescale', `the HPA controller was able to update the target scale to ${desiredReplicas}`);
			this.event(hpa, 'Normal', 'SuccessfulRescale', `New size: ${desiredReplicas}; reason: ${rescaleReason}`);
			if (hpa.spec.behavior) {
				const memory = this.memory(key);
				storeScaleEvent(hpa.spec.behavior, memory.scaleUpEvents, memory.scaleDownEvents, currentReplicas, desiredReplicas, this.host.clock.nowMs());
			}
			this.trace('rescale', `horizontalpodautoscalers/${key}`, `successful rescale of ${reference} from ${currentReplicas} to ${desiredReplicas}, reason: ${rescaleReason}`);
		}
		this.setStatus(hpa, currentReplicas, desiredReplicas, metricStatuses, rescale);
		hpa.status!.observedGeneration = hpa.metadata.generation;
		this.updateStatus(hpa, old);
	}

	/** computeReplicasForMetrics: the largest proposal, or the first invalid metric's error when all are invalid (or some are and it would scale down). */
	private computeReplicasForMetrics(hpa: Hpa, scale: Scale, specReplicas: number): { replicas: number; metric: string; statuses: unknown[]; error?: string } {
		const specs = hpa.spec.metrics ?? [];
		const selectorText = scale.status?.selector ?? '';
		if (!selectorText) {
			const message = 'selector is required';
			this.event(hpa, 'Warning', 'SelectorRequired', message);
			this.setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', 'the HPA target\'s scale is missing a selector');
			return { replicas: -1, metric: '', statuses: [], error: message };
		}
		let selector;
		try {
			selector = parseLabelSelector(selectorText);
		} catch (error) {
			if (!(error instanceof SelectorError)) throw error;
			this.event(hpa, 'Warning', 'InvalidSelector', `couldn't convert selector into a corresponding internal selector object: ${error.message}`);
			this.setCondition(hpa, 'ScalingActive', 'False', 'InvalidSelector', 'the HPA target\'s scale has an invalid selector');
			return { replicas: -1, metric: '', statuses: [], error: error.message };
		}
		const statuses: unknown[] = specs.map(() => ({ type: '' }));
		let replicas = 0;
		let metric = '';
		let invalid = 0;
		let firstError: MetricError | undefined;
		specs.forEach((spec, i) => {
			try {
				const proposal = this.computeResourceMetric(hpa, spec, specReplicas, selector);
				statuses[i] = proposal.status;
				if (replicas === 0 || proposal.replicas > replicas) {
					replicas = proposal.replicas;
					metric = proposal.metric;
				}
			} catch (error) {
				if (!(error instanceof MetricError)) throw error;
				if (!firstError) firstError = error;
				invalid++;
			}
		});
		if (firstError && (invalid >= specs.length || replicas < specReplicas)) {
			this.setCondition(hpa, firstError.condition.type, firstError.condition.status as 'True' | 'False', firstError.condition.reason ?? '', firstError.condition.message ?? '');
			return { replicas: -1, metric: '', statuses, error: `invalid metrics (${invalid} invalid out of ${specs.length}), first error is: ${firstError.message}` };
		}
		this.setCondition(hpa, 'ScalingActive', 'True', 'ValidMetricFound', `the HPA was able to successfully calculate a replica count from ${metric}`);
		return { replicas, metric, statuses };
	}

	/** computeStatusForResourceMetric: one Resource metric's proposal, or a MetricError (its event recorded). */
	private computeResourceMetric(hpa: Hpa, spec: MetricSpec, specReplicas: number, selector: ReturnType<typeof parseLabelSelector>): { replicas: number; metric: string; status: unknown } {
		if (spec.type !== 'Resource' || !spec.resource) {
			const message = `unsupported metric source type "${spec.type ?? ''}"`;
			throw new MetricError(message, { type: 'ScalingActive', status: 'False', reason: 'InvalidMetricSourceType', message: 'the HPA was unable to compute the replica count: ' + message });
		}
		const name = spec.resource.name;
		const target = spec.resource.target;
		const fail = (inner: string): never => {
			this.event(hpa, 'Warning', 'FailedGetResourceMetric', inner);
			throw new MetricError(`failed to get ${name} resource metric value: ${inner}`, { type: 'ScalingActive', status: 'False', reason: 'FailedGetResourceMetric', message: `the HPA was unable to compute the replica count: ${inner}` });
		};
		const namespace = hpa.metadata.namespace ?? 'default';
		const averageValue = target.averageValue !== undefined;
		if (!averageValue && target.averageUtilization === undefined) fail('invalid resource metric source: neither an average utilization target nor an average value (usage) target was set');
		const what = averageValue ? 'usage' : 'utilization';
		const metrics = this.resourceMetrics(namespace, selectorToString(selector), name);
		if (typeof metrics === 'string') fail(`failed to get ${name} ${what}: unable to get metrics for resource ${name}: ${metrics}`);
		const pods = this.host
			.listInNamespace<Pod>('pods', namespace)
			.filter((p) => matches(selector, p.metadata.labels))
			.map((p) => calcPod(p, name));
		try {
			if (averageValue) {
				// GetRawResourceReplicas: the average usage against the target value.
				const targetMilli = parseQuantity(target.averageValue!).milliValue();
				const result = getRawResourceReplicas(specReplicas, targetMilli, metrics as Map<string, PodMetric>, pods, this.host.clock.wallMs());
				return { replicas: result.replicas, metric: `${name} resource`, status: { type: 'Resource', resource: { name, current: { averageValue: Quantity.fromMilli(result.raw).toString() } } } };
			}
			const result = getResourceReplicas({ currentReplicas: specReplicas, targetUtilization: target.averageUtilization!, resource: name, metrics: metrics as Map<string, PodMetric>, pods, nowMs: this.host.clock.wallMs() });
			return {
				replicas: result.replicas,
				metric: `${name} resource utilization (percentage of request)`,
				status: { type: 'Resource', resource: { name, current: { averageUtilization: result.utilization, averageValue: Quantity.fromMilli(result.rawUtilization).toString() } } },
			};
		} catch (error) {
			if (error instanceof CalculatorError) return fail(`failed to get ${name} ${what}: ${error.message}`);
			throw error;
		}
	}

	/** resourceMetricsClient.GetResourceMetric: each Pod's usage in milli-units, or the error text. */
	private resourceMetrics(namespace: string, selector: string, resource: string): Map<string, PodMetric> | string {
		const listed = this.host.client.list(POD_METRICS, namespace, selector ? { labelSelector: selector } : {});
		if (!listed.ok) {
			// client-go names the request when the server's answer carries no Status of its own.
			const message = listed.transport || listed.message.endsWith('.metrics.k8s.io)') ? listed.message : `${listed.message} (get pods.metrics.k8s.io)`;
			return `unable to fetch metrics from resource metrics API: ${message}`;
		}
		const items = (listed.object.items ?? []) as Array<KubeObject & { timestamp?: string; window?: string; containers?: Array<{ name: string; usage?: Record<string, string> }> }>;
		if (items.length === 0) return 'no metrics returned from resource metrics API';
		const out = new Map<string, PodMetric>();
		for (const m of items) {
			let total = 0;
			let missing = false;
			for (const c of m.containers ?? []) {
				const usage = c.usage?.[resource];
				if (usage === undefined) {
					missing = true;
					break;
				}
				total += parseQuantity(usage).milliValue();
			}
			if (!missing) out.set(m.metadata.name ?? '', { value: total, timestampMs: timeMs(m.timestamp), windowMs: parseWindowMs(m.window) });
		}
		return out;
	}
}

function parseWindowMs(window: string | undefined): number {
	const m = /^(\d+(?:\.\d+)?)s$/.exec(window ?? '');
	return m ? Math.round(Number(m[1]) * 1000) : 0;
}

/** What the calculator needs of a Pod: phase, readiness, start, and each container's request of the resource in milli-units. */
function calcPod(pod: Pod, resource: string): CalcPod {
	const ready = podReadyCondition(pod);
	const out: CalcPod = {
		name: pod.metadata.name ?? '',
		phase: pod.status?.phase ?? 'Pending',
		deleting: !!pod.metadata.deletionTimestamp,
		containerRequests: (pod.spec.containers ?? []).map((c) => {
			const request = (c.resources?.requests as Record<string, string> | undefined)?.[resource];
			return { name: c.name, request: request === undefined ? undefined : parseQuantity(String(request)).milliValue() };
		}),
	};
	if (ready) out.ready = { status: ready.status, lastTransitionMs: timeMs(ready.lastTransitionTime) };
	if (pod.status?.startTime) out.startTimeMs = timeMs(pod.status.startTime);
	return out;
}

/** GetRawResourceReplicas: replicas = ceil(sum of usage / target per Pod), within the tolerance unchanged. */
function getRawResourceReplicas(currentReplicas: number, targetMilli: number, metrics: Map<string, PodMetric>, pods: CalcPod[], nowMs: number): { replicas: number; raw: number } {
	void nowMs;
	if (pods.length === 0) throw new CalculatorError('no pods returned by selector while calculating replica count');
	const names = new Set(pods.filter((p) => !p.deleting && p.phase !== 'Failed').map((p) => p.name));
	const used = [...metrics].filter(([n]) => names.has(n));
	if (used.length === 0) throw new CalculatorError('did not receive metrics for targeted pods (pods might be unready)');
	const total = used.reduce((s, [, m]) => s + m.value, 0);
	const ratio = total / (targetMilli * used.length);
	const raw = Math.trunc(total / used.length);
	if (1 - 0.1 <= ratio && ratio <= 1 + 0.1) return { replicas: currentReplicas, raw };
	return { replicas: Math.ceil(ratio * used.length), raw };
}
