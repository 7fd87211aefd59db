/**
 * The EndpointSlice controller: for every Service with a selector it keeps
 * `discovery.k8s.io/v1` EndpointSlices listing the Pods the selector
 * matches, one endpoint per Pod that has an IP and is not finished, with
 * its readiness (ready, serving, terminating), node, zone and the Service's
 * ports resolved on that Pod. Slices hold at most --max-endpoints-per-slice
 * endpoints (100); they are named `<service>-<random>`, labelled with the
 * Service's name and this controller's name, and owned by the Service, so
 * the garbage collector removes them with it. A Service whose Pods give no
 * endpoint still gets one empty "placeholder" slice. Writes happen only when
 * the desired slices differ from the cached ones, and a cache that lags
 * behind the controller's own writes is detected (EndpointSliceTracker) and
 * retried instead of acted on.
 *
 * This module is the controller itself: its informer handlers, its queue and
 * retry policy, and syncService. The reconciler it drives is
 * ./endpointslice/ (staging/src/k8s.io/endpointslice: reconciler.go,
 * utils.go, util/endpointset.go, util/endpointslice_tracker.go); what it
 * shares with the Endpoints controller is ./util/endpoint.ts.
 *
 * Differences: the retry limiter is the per-item 1 s..1000 s exponential
 * back-off without the overall 10 qps bucket.
 *
 * Mirrors pkg/controller/endpointslice/endpointslice_controller.go.
 */
import type { KubeObject, Pod, Service } from '../api/types.ts';
import { keyOf } from '../client/informer.ts';
import { ControllerBase, type ControllerHost, type SyncError } from './controller-context.ts';
import { EndpointSliceTracker, serviceKeyOfSlice, type EndpointSliceTrackerState } from './endpointslice/endpointslice-tracker.ts';
import { Reconciler } from './endpointslice/reconciler.ts';
import { LABEL_MANAGED_BY, LABEL_SERVICE_NAME, type WireEndpointSlice } from './endpointslice/utils.ts';
import { splitKey } from './pod-util.ts';
import { computeEndpointLastChangeTriggerTime, serviceSelector, servicesSelecting, servicesToUpdateOnPodChange, type TriggerTimeState } from './util/endpoint.ts';

// The names callers of the EndpointSlice controller have always found here.
export { endpointSlicePrefix, LABEL_MANAGED_BY, LABEL_SERVICE_NAME, sliceToFill, type WireEndpointSlice } from './endpointslice/utils.ts';
export {
	ANNOTATION_LAST_CHANGE_TRIGGER_TIME,
	LABEL_HEADLESS_SERVICE,
	computeEndpointLastChangeTriggerTime,
	findPort,
	formatRfc3339Nano,
	podEndpointsChanged,
	servicesToUpdateOnPodChange,
	type TriggerTimeState,
} from './util/endpoint.ts';

const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller';
/** The event source upstream's recorder uses (endpointslice_controller.go NewController). */
const ENDPOINTSLICE_EVENT_SOURCE = 'endpoint-slice-controller';
/** controllerQualifiedName: the managed-by value of this controller's slices (endpointslice_controller.go). */
export const CONTROLLER_QUALIFIED_NAME = 'endpointslice-controller.k8s.io';
/** --max-endpoints-per-slice default 100 (pkg/controller/endpointslice/config/v1alpha1/defaults.go). */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
/** endpointSliceChangeMinSyncDelay: a slice changed by someone else is looked at after at least 1 s (endpointslice_controller.go). */
const ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1_000;
/** defaultSyncBackOff and maxSyncBackOff: retries wait 1 s doubling up to 1000 s (endpointslice_controller.go). */
const DEFAULT_SYNC_BACKOFF_MS = 1_000;
const MAX_SYNC_BACKOFF_MS = 1_000_000;
/** maxRetries: a Service failing this many times in a row is dropped out of the queue (endpointslice_controller.go). */
const ENDPOINTSLICE_MAX_RETRIES = 15;

/** The kube-controller-manager flags this controller reads. */
interface EndpointSliceOptions {
	/** --max-endpoints-per-slice (default 100). */
	maxEndpointsPerSlice: number;
	/** --endpointslice-updates-batch-period (default 0: no batching). */
	endpointSliceUpdatesBatchPeriodMs: number;
}

interface EndpointSliceControllerState {
	tracker: EndpointSliceTrackerState;
	triggerTimes: Record<string, TriggerTimeState>;
	/** Consecutive failed syncs per Service key (the controller's own 1 s-based rate limiter). */
	failures: Record<string, number>;
}

export class EndpointSliceController extends ControllerBase<EndpointSliceControllerState> {
	readonly name = ENDPOINTSLICE_CONTROLLER;
	readonly sub = 'endpointslice';
	readonly resources = ['services', 'pods', 'nodes', 'endpointslices'] as const;
	/** --concurrent-service-endpoint-syncs default 5 (pkg/controller/endpointslice/config/v1alpha1/defaults.go). */
	override readonly workers = 5;

	private readonly tracker = new EndpointSliceTracker(() => this.state.tracker);
	private readonly reconciler: Reconciler;
	private readonly batchPeriodMs: number;

	constructor(host: ControllerHost, options: Partial<EndpointSliceOptions> = {}) {
		super(host);
		this.reconciler = new Reconciler({
			host,
			tracker: this.tracker,
			maxEndpointsPerSlice: options.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE,
			controllerName: CONTROLLER_QUALIFIED_NAME,
		});
		this.batchPeriodMs = options.endpointSliceUpdatesBatchPeriodMs ?? 0;
	}

	freshState(): EndpointSliceControllerState {
		return { tracker: { byService: {}, serviceUids: {} }, triggerTimes: {}, failures: {} };
	}

	// ---- event handlers --------------------------------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'services') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.podChanged(obj as Pod);
		else if (resource === 'endpointslices') {
			const slice = obj as WireEndpointSlice;
			if (this.managedByController(slice) && this.tracker.shouldSync(slice)) this.queueServiceForSlice(slice);
		}
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'services') this.enqueue(keyOf(newObj));
		else if (resource === 'pods') {
			for (const key of servicesToUpdateOnPodChange(this.servicesIn(newObj.metadata.namespace), oldObj as Pod, newObj as Pod)) this.enqueueAfterBatch(key);
		} else if (resource === 'endpointslices') {
			const before = oldObj as WireEndpointSlice;
			const slice = newObj as WireEndpointSlice;
			// The controller never changes the service-name label, but users may: both Services need a look.
			if ((slice.metadata.labels?.[LABEL_SERVICE_NAME] ?? '') !== (before.metadata.labels?.[LABEL_SERVICE_NAME] ?? '')) {
				this.queueServiceForSlice(slice);
				this.queueServiceForSlice(before);
				return;
			}
			const managedByChanged = this.managedByController(before) !== this.managedByController(slice);
			if (managedByChanged || (this.managedByController(slice) && this.tracker.shouldSync(slice))) this.queueServiceForSlice(slice);
		}
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'services') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.podChanged(obj as Pod);
		else if (resource === 'endpointslices') {
			const slice = obj as WireEndpointSlice;
			// A deletion the controller did not make (someone deleted a slice): rebuild it.
			if (this.managedByController(slice) && this.tracker.has(slice) && !this.tracker.handleDeletion(slice)) this.queueServiceForSlice(slice);
		}
	}

	/** addPod / deletePod: every Service selecting the Pod, after the batch period. */
	private podChanged(pod: Pod): void {
		for (const key of servicesSelecting(this.servicesIn(pod.metadata.namespace), pod.metadata.labels)) this.enqueueAfterBatch(key);
	}

	private servicesIn(namespace: string | undefined): Service[] {
		return this.host.listInNamespace<Service>('services', namespace);
	}

	/** AddAfter(key, endpointUpdatesBatchPeriod): at once when there is no batch period. */
	private enqueueAfterBatch(key: string): void {
		if (this.batchPeriodMs > 0) this.host.enqueueAfter(this.sub, key, this.batchPeriodMs);
		else this.enqueue(key);
	}

	/** queueServiceForEndpointSlice: the slice's Service, after max(1 s, batch period). */
	private queueServiceForSlice(slice: WireEndpointSlice): void {
		const key = serviceKeyOfSlice(slice);
		if (!key) return;
		this.host.enqueueAfter(this.sub, key, Math.max(ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS, this.batchPeriodMs));
	}

	private managedByController(slice: WireEndpointSlice): boolean {
		return slice.metadata.labels?.[LABEL_MANAGED_BY] === CONTROLLER_QUALIFIED_NAME;
	}

	// ---- sync -----------------------------------------------------------------------------

	/** processNextServiceWorkItem + handleErr: failures come back after 1 s, 2 s, 4 s ... up to 1000 s, 15 times at most. */
	sync(key: string): SyncError {
		const error = this.syncService(key);
		if (error === undefined) {
			delete this.state.failures[key];
			return undefined;
		}
		const failures = this.state.failures[key] ?? 0;
		if (failures < ENDPOINTSLICE_MAX_RETRIES) {
			this.state.failures[key] = failures + 1;
			const delayMs = Math.min(DEFAULT_SYNC_BACKOFF_MS * 2 ** failures, MAX_SYNC_BACKOFF_MS);
			this.trace('requeue', `services/${key}`, `error syncing endpoint slices for service ${key}, retrying in ${delayMs} ms: ${error}`);
			this.host.enqueueAfter(this.sub, key, delayMs, true);
		} else {
			delete this.state.failures[key];
			this.trace('drop', `services/${key}`, `retry budget exceeded, dropping service ${key} out of the queue: ${error}`);
		}
		return undefined;
	}

	/** syncService. */
	private syncService(key: string): string | undefined {
		const { namespace, name } = splitKey(key);
		const service = this.host.informer('services').get(key) as Service | undefined;
		if (!service) {
			delete this.state.triggerTimes[key];
			this.tracker.deleteService(key);
			// The slices go with the Service: the garbage collector follows their owner references.
			this.trace('reconcile', `services/${key}`, `service ${key} has been deleted; the garbage collector removes its endpoint slices`);
			return undefined;
		}
		// ExternalName Services get no endpoints from this controller (https://issues.k8s.io/105986).
		if (service.spec?.type === 'ExternalName') return undefined;
		const selects = serviceSelector(service);
		if (!selects) {
			this.trace('reconcile', `services/${key}`, `service ${key} has no selector; its endpoint slices are managed out of band`);
			return undefined;
		}
		const pods = this.host.listInNamespace<Pod>('pods', namespace).filter((p) => selects(p.metadata.labels));
		const slices = (this.host.listInNamespace<WireEndpointSlice>('endpointslices', namespace) as WireEndpointSlice[]).filter(
			(s) => s.metadata.labels?.[LABEL_SERVICE_NAME] === name && this.managedByController(s) && !s.metadata.deletionTimestamp,
		);
		if (this.tracker.staleSlices(service, slices)) return 'EndpointSlice informer cache is out of date';
		// Computed before reconciling so the tracker's memory moves on even when nothing is written.
		const triggerMs = computeEndpointLastChangeTriggerTime(this.state.triggerTimes, service, pods);
		const outcome = this.reconciler.reconcile(service, pods, slices, triggerMs);
		const changes = outcome.created + outcome.updated + outcome.deleted;
		const summary = changes
			? `service ${key}: ${outcome.endpoints} endpoint${outcome.endpoints === 1 ? '' : 's'}; created ${outcome.created}, updated ${outcome.updated}, deleted ${outcome.deleted} endpoint slice${changes === 1 ? '' : 's'}`
			: `service ${key}: ${outcome.endpoints} endpoint${outcome.endpoints === 1 ? '' : 's'}; endpoint slices up to date`;
		this.trace('reconcile', `services/${key}`, summary);
		if (outcome.error !== undefined) {
			this.host.recorder(ENDPOINTSLICE_EVENT_SOURCE).record(service, 'Warning', 'FailedToUpdateEndpointSlices', `Error updating Endpoint Slices for Service ${namespace}/${name}: ${outcome.error}`);
			return outcome.error;
		}
		return undefined;
	}

}
