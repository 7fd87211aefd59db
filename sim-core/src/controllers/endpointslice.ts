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
 * Mirrors k8s.io/kubernetes/pkg/controller/endpointslice
 * (endpointslice_controller.go) and the reconciler it drives,
 * staging/src/k8s.io/endpointslice (reconciler.go, utils.go,
 * util/controller_utils.go, util/endpointset.go,
 * util/endpointslice_tracker.go). What it shares with the Endpoints
 * controller (upstream's k8s.io/endpointslice/util) is ./util/endpoint.ts.
 *
 * Differences: upstream orders a slice's ports, and picks which endpoint
 * goes into which slice, by hashes of Go values and by map iteration; here
 * ports are sorted by number, name and protocol and endpoints keep the
 * Pods' name order, so runs are reproducible. Topology-aware hints and
 * `trafficDistribution` are not modelled (no slice gets `hints`). The
 * tracker compares `metadata.generation` when slices carry one and the
 * resourceVersion otherwise (this API server's EndpointSlice strategy sets
 * no generation). The retry limiter is the per-item 1 s..1000 s exponential
 * back-off without the overall 10 qps bucket.
 */
import type { EndpointSlice, KubeObject, Node, OwnerReference, Pod, Service } from '../api/types.ts';
import { isDNS1123Subdomain } from '../api/labels.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { ControllerBase, type ControllerHost, type SyncError } from './controller-context.ts';
import { canonicalJson } from './hash.ts';
import { isNamespaceTerminating, keyFor, splitKey } from './pod-util.ts';
import {
	LABEL_HEADLESS_SERVICE,
	computeEndpointLastChangeTriggerTime,
	endpointsEqualBeyondHash,
	findPort,
	isServiceIPSet,
	podEndpointConditions,
	podReference,
	portMapKey,
	serviceSelector,
	servicesSelecting,
	servicesToUpdateOnPodChange,
	setTriggerTime,
	shouldPodBeInEndpoints,
	shouldSetHostname,
	sortPorts,
	type SliceEndpoint,
	type SlicePort,
	type TriggerTimeState,
} from './util/endpoint.ts';
import { deepCopy } from '../golang/json.ts';

// The helpers shared with the Endpoints controller moved to ./util/endpoint.ts; these names are still found here.
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

export const ENDPOINTSLICE_CONTROLLER = 'endpointslice-controller';
/** The event source upstream's recorder uses (endpointslice_controller.go NewController). */
export const ENDPOINTSLICE_EVENT_SOURCE = 'endpoint-slice-controller';
/** controllerQualifiedName: the managed-by value of this controller's slices (endpointslice_controller.go). */
export const CONTROLLER_QUALIFIED_NAME = 'endpointslice-controller.k8s.io';
/** discovery.LabelServiceName (k8s.io/api/discovery/v1/well_known_labels.go). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** discovery.LabelManagedBy (k8s.io/api/discovery/v1/well_known_labels.go). */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
/** v1.LabelTopologyZone. */
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';
/** --max-endpoints-per-slice default 100 (pkg/controller/endpointslice/config/v1alpha1/defaults.go). */
export const DEFAULT_MAX_ENDPOINTS_PER_SLICE = 100;
/** endpointSliceChangeMinSyncDelay: a slice changed by someone else is looked at after at least 1 s (endpointslice_controller.go). */
export const ENDPOINT_SLICE_CHANGE_MIN_SYNC_DELAY_MS = 1_000;
/** defaultSyncBackOff and maxSyncBackOff: retries wait 1 s doubling up to 1000 s (endpointslice_controller.go). */
export const DEFAULT_SYNC_BACKOFF_MS = 1_000;
export const MAX_SYNC_BACKOFF_MS = 1_000_000;
/** maxRetries: a Service failing this many times in a row is dropped out of the queue (endpointslice_controller.go). */
export const ENDPOINTSLICE_MAX_RETRIES = 15;

// ---- wire shapes -------------------------------------------------------------------

/**
 * A slice as the API serves it: `endpoints` and `ports` have no omitempty
 * upstream, and an empty list comes back from storage as null, so a
 * placeholder slice reads `endpoints: null` and `ports: null`.
 */
export interface WireEndpointSlice extends KubeObject {
	apiVersion: 'discovery.k8s.io/v1';
	kind: 'EndpointSlice';
	addressType: EndpointSlice['addressType'];
	endpoints: SliceEndpoint[] | null;
	ports: SlicePort[] | null;
}

function endpointsOf(slice: WireEndpointSlice | EndpointSlice): SliceEndpoint[] {
	return (slice.endpoints ?? []) as SliceEndpoint[];
}

function portsOf(slice: WireEndpointSlice | EndpointSlice): SlicePort[] {
	return slice.ports ?? [];
}

/** utilerrors.NewAggregate(errs).Error(): one message as is, several as `[a, b]`. */
export function aggregateErrors(errors: readonly string[]): string | undefined {
	if (errors.length === 0) return undefined;
	return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

// ---- building slices (staging/src/k8s.io/endpointslice/utils.go) ------------------------

/** The IP families a Service's slices are kept for (getAddressTypesForService). */
export function addressTypesForService(service: Service): Array<'IPv4' | 'IPv6'> {
	const types = new Set<'IPv4' | 'IPv6'>();
	for (const family of service.spec?.ipFamilies ?? []) {
		if (family === 'IPv4') types.add('IPv4');
		if (family === 'IPv6') types.add('IPv6');
	}
	if (types.size > 0) return [...types];
	const clusterIP = service.spec?.clusterIP ?? '';
	// An API server too old to set ipFamilies: the cluster IP's family, or both for a headless Service.
	if (clusterIP && clusterIP !== 'None') return [clusterIP.includes(':') ? 'IPv6' : 'IPv4'];
	return ['IPv4', 'IPv6'];
}

/** getEndpointPorts: the Service's ports as they resolve on this Pod (ports that do not resolve are left out). */
export function endpointPortsFor(service: Service, pod: Pod): SlicePort[] {
	const ports: SlicePort[] = [];
	const servicePorts = service.spec?.ports ?? [];
	// A headless Service may have no ports.
	if (servicePorts.length === 0 && service.spec?.clusterIP === 'None') return ports;
	for (const servicePort of servicePorts) {
		const port = findPort(pod, servicePort);
		if (port === undefined) continue;
		const entry: SlicePort = { name: servicePort.name ?? '', port, protocol: servicePort.protocol ?? 'TCP' };
		if (servicePort.appProtocol !== undefined) entry.appProtocol = servicePort.appProtocol;
		ports.push(entry);
	}
	return ports;
}

/** podToEndpoint: the endpoint of one Pod for one address family. */
export function podToEndpoint(pod: Pod, node: Node | undefined, service: Service, addressType: 'IPv4' | 'IPv6'): SliceEndpoint {
	const endpoint: SliceEndpoint = {
		addresses: (pod.status?.podIPs ?? []).map((p) => p.ip).filter((ip) => ip.includes(':') === (addressType === 'IPv6')),
		conditions: podEndpointConditions(pod, service),
		targetRef: podReference(pod),
	};
	if (shouldSetHostname(pod, service)) endpoint.hostname = pod.spec.hostname;
	if (pod.spec.nodeName) endpoint.nodeName = pod.spec.nodeName;
	const zone = node?.metadata.labels?.[LABEL_TOPOLOGY_ZONE];
	if (zone) endpoint.zone = zone;
	return endpoint;
}

/** hashEndpoint: what identifies an endpoint across syncs (addresses, hostname, the Pod's namespace and name). */
export function endpointHash(endpoint: SliceEndpoint): string {
	const ref = (endpoint.targetRef ?? {}) as { namespace?: string; name?: string };
	return JSON.stringify([[...endpoint.addresses].sort(), endpoint.hostname ?? '', ref.namespace ?? '', ref.name ?? '']);
}

/** getEndpointSlicePrefix: `<service>-`, or the bare name when the dash would make an invalid prefix. */
export function endpointSlicePrefix(serviceName: string): string {
	const prefix = `${serviceName}-`;
	// NameIsDNSSubdomain(prefix, true) masks a trailing dash before checking.
	return isDNS1123Subdomain(`${prefix.slice(0, -1)}a`).length ? serviceName : prefix;
}

function isReservedLabel(key: string): boolean {
	return key === LABEL_SERVICE_NAME || key === LABEL_MANAGED_BY || key === LABEL_HEADLESS_SERVICE;
}

/**
 * setEndpointSliceLabels: the Service's labels (reserved keys aside), the
 * headless label when it has no cluster IP, and the service-name and
 * managed-by labels; `changed` when the non-reserved labels differ from the
 * slice's.
 */
export function endpointSliceLabels(slice: { metadata: { labels?: Record<string, string> } }, service: Service, controllerName: string): { labels: Record<string, string>; changed: boolean } {
	const sliceLabels: Record<string, string> = {};
	for (const [k, v] of Object.entries(slice.metadata.labels ?? {})) if (!isReservedLabel(k)) sliceLabels[k] = v;
	const labels: Record<string, string> = {};
	for (const [k, v] of Object.entries(service.metadata.labels ?? {})) if (!isReservedLabel(k)) labels[k] = v;
	const changed = canonicalJson(sliceLabels) !== canonicalJson(labels);
	if (!isServiceIPSet(service)) labels[LABEL_HEADLESS_SERVICE] = '';
	labels[LABEL_SERVICE_NAME] = service.metadata.name ?? '';
	labels[LABEL_MANAGED_BY] = controllerName;
	return { labels, changed };
}

/** The controller reference a slice carries to its Service (metav1.NewControllerRef with v1 Service). */
export function serviceControllerRef(service: Service): OwnerReference {
	return { apiVersion: 'v1', kind: 'Service', name: service.metadata.name ?? '', uid: service.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** newEndpointSlice: an unnamed slice (generateName) for these ports and address type, owned by the Service. */
export function newEndpointSlice(service: Service, ports: SlicePort[], addressType: 'IPv4' | 'IPv6', controllerName: string): WireEndpointSlice {
	const slice: WireEndpointSlice = {
		apiVersion: 'discovery.k8s.io/v1',
		kind: 'EndpointSlice',
		metadata: { generateName: endpointSlicePrefix(service.metadata.name ?? ''), namespace: service.metadata.namespace, ownerReferences: [serviceControllerRef(service)] },
		addressType,
		endpoints: [],
		ports,
	};
	slice.metadata.labels = endpointSliceLabels(slice, service, controllerName).labels;
	return slice;
}

/** ownedBy: the slice names this Service (by uid) among its owners. */
export function ownedBy(slice: WireEndpointSlice, service: Service): boolean {
	return (slice.metadata.ownerReferences ?? []).some((o) => o.uid === service.metadata.uid && o.kind === 'Service' && o.apiVersion === 'v1');
}

/** getSliceToFill: the slice closest to full once `count` endpoints are added, if any has room. */
export function sliceToFill(slices: readonly WireEndpointSlice[], count: number, maxEndpoints: number): WireEndpointSlice | undefined {
	let closestDiff = maxEndpoints;
	let closest: WireEndpointSlice | undefined;
	for (const slice of slices) {
		const diff = maxEndpoints - (count + endpointsOf(slice).length);
		if (diff >= 0 && diff < closestDiff) {
			closestDiff = diff;
			closest = slice;
			if (diff === 0) return closest;
		}
	}
	return closest;
}

/** addTriggerTimeAnnotation: set the annotation, or remove it when there is no new trigger. */
/** addTriggerTimeAnnotation: set the annotation, or remove it when there is no new trigger. */
function setTriggerTimeAnnotation(slice: WireEndpointSlice, triggerMs: number): void {
	const annotations = { ...(slice.metadata.annotations ?? {}) };
	setTriggerTime(annotations, triggerMs);
	if (Object.keys(annotations).length) slice.metadata.annotations = annotations;
	else delete slice.metadata.annotations;
}

/** The slice as it goes on the wire: empty lists are sent as null, as the API server would serve them back. */
function toWire(slice: WireEndpointSlice): WireEndpointSlice {
	return { ...slice, endpoints: endpointsOf(slice).length ? endpointsOf(slice) : null, ports: portsOf(slice).length ? portsOf(slice) : null };
}

/**
 * placeholderSliceCompare: namespace, labels and owner references of the
 * metadata, and everything outside it, with nil and empty lists equal.
 */
function samePlaceholder(a: WireEndpointSlice, b: WireEndpointSlice): boolean {
	const view = (s: WireEndpointSlice) =>
		canonicalJson({ ns: s.metadata.namespace ?? '', labels: s.metadata.labels ?? {}, owners: s.metadata.ownerReferences ?? [], addressType: s.addressType, endpoints: endpointsOf(s), ports: portsOf(s) });
	return view(a) === view(b);
}

/** An insertion-ordered set of endpoints keyed by endpointHash (EndpointSet; PopAny takes the oldest). */
class EndpointSet {
	private readonly items = new Map<string, SliceEndpoint>();
	insert(endpoint: SliceEndpoint): void {
		this.items.set(endpointHash(endpoint), endpoint);
	}
	get(endpoint: SliceEndpoint): SliceEndpoint | undefined {
		return this.items.get(endpointHash(endpoint));
	}
	delete(endpoint: SliceEndpoint): void {
		this.items.delete(endpointHash(endpoint));
	}
	popAny(): SliceEndpoint | undefined {
		const first = this.items.entries().next();
		if (first.done) return undefined;
		this.items.delete(first.value[0]);
		return first.value[1];
	}
	get size(): number {
		return this.items.size;
	}
}

// ---- the EndpointSliceTracker (util/endpointslice_tracker.go) -----------------------------

/** deletionExpected: the tracker's mark for a slice the controller deleted. */
const DELETION_EXPECTED = -1;

/** What the controller last wrote per Service: slice uid -> version (generation, or resourceVersion), or -1 when it deleted it. */
export interface EndpointSliceTrackerState {
	byService: Record<string, Record<string, number>>;
	/** Service key -> the uid the tracked writes were for. */
	serviceUids: Record<string, string>;
}

/** The version the tracker compares: generation when the API server sets one, else the resourceVersion. */
export function sliceVersion(slice: WireEndpointSlice): number {
	if (typeof slice.metadata.generation === 'number') return slice.metadata.generation;
	return Number(slice.metadata.resourceVersion ?? 0) || 0;
}

/** The Service key a slice belongs to, from its service-name label (ServiceControllerKey). */
export function serviceKeyOfSlice(slice: WireEndpointSlice): string | undefined {
	const name = slice.metadata.labels?.[LABEL_SERVICE_NAME];
	return name ? keyFor(slice.metadata.namespace, name) : undefined;
}

export class EndpointSliceTracker {
	constructor(private readonly state: () => EndpointSliceTrackerState) {}

	private versionsOf(slice: WireEndpointSlice): Record<string, number> | undefined {
		const key = serviceKeyOfSlice(slice) ?? keyFor(slice.metadata.namespace, '');
		return this.state().byService[key];
	}

	/** Has: the tracker knows this slice. */
	has(slice: WireEndpointSlice): boolean {
		const versions = this.versionsOf(slice);
		return !!versions && Object.hasOwn(versions, slice.metadata.uid ?? '');
	}

	/** ShouldSync: the slice is unknown, or newer than what the controller wrote. */
	shouldSync(slice: WireEndpointSlice): boolean {
		const versions = this.versionsOf(slice);
		if (!versions || !Object.hasOwn(versions, slice.metadata.uid ?? '')) return true;
		return sliceVersion(slice) > versions[slice.metadata.uid ?? ''];
	}

	/**
	 * StaleSlices: the cache lags behind the controller's writes (a slice
	 * older than written, one expected gone, or one written but not there).
	 * Writes tracked for an earlier Service of the same name are forgotten.
	 */
	staleSlices(service: Service, slices: readonly WireEndpointSlice[]): boolean {
		const s = this.state();
		const key = keyOf(service);
		const uid = service.metadata.uid ?? '';
		const tracked = s.serviceUids[key];
		if (tracked && uid && tracked !== uid) delete s.byService[key];
		s.serviceUids[key] = uid;
		const versions = s.byService[key];
		if (!versions) return false;
		const provided = new Set<string>();
		for (const slice of slices) {
			const sliceUid = slice.metadata.uid ?? '';
			provided.add(sliceUid);
			if (!Object.hasOwn(versions, sliceUid)) continue;
			const v = versions[sliceUid];
			if (v === DELETION_EXPECTED || v > sliceVersion(slice)) return true;
		}
		for (const [sliceUid, v] of Object.entries(versions)) if (v !== DELETION_EXPECTED && !provided.has(sliceUid)) return true;
		return false;
	}

	/** Update: remember the version just written. */
	update(slice: WireEndpointSlice): void {
		const key = serviceKeyOfSlice(slice) ?? keyFor(slice.metadata.namespace, '');
		(this.state().byService[key] ??= {})[slice.metadata.uid ?? ''] = sliceVersion(slice);
	}

	/** ExpectDeletion: the controller deleted this slice. */
	expectDeletion(slice: WireEndpointSlice): void {
		const key = serviceKeyOfSlice(slice) ?? keyFor(slice.metadata.namespace, '');
		(this.state().byService[key] ??= {})[slice.metadata.uid ?? ''] = DELETION_EXPECTED;
	}

	/** HandleDeletion: forget the slice; false when its deletion was not the controller's doing. */
	handleDeletion(slice: WireEndpointSlice): boolean {
		const versions = this.versionsOf(slice);
		if (!versions) return true;
		const uid = slice.metadata.uid ?? '';
		const known = Object.hasOwn(versions, uid);
		const v = versions[uid];
		delete versions[uid];
		return !(known && v !== DELETION_EXPECTED);
	}

	/** DeleteService: forget everything about a Service. */
	deleteService(key: string): void {
		delete this.state().byService[key];
		delete this.state().serviceUids[key];
	}
}

// ---- the controller ----------------------------------------------------------------------

/** The kube-controller-manager flags this controller reads. */
export interface EndpointSliceOptions {
	/** --max-endpoints-per-slice (default 100). */
	maxEndpointsPerSlice: number;
	/** --endpointslice-updates-batch-period (default 0: no batching). */
	endpointSliceUpdatesBatchPeriodMs: number;
}

export interface EndpointSliceControllerState {
	tracker: EndpointSliceTrackerState;
	triggerTimes: Record<string, TriggerTimeState>;
	/** Consecutive failed syncs per Service key (the controller's own 1 s-based rate limiter). */
	failures: Record<string, number>;
}

/** What one reconcile changed (for the trace). */
interface ReconcileOutcome {
	created: number;
	updated: number;
	deleted: number;
	endpoints: number;
	error?: string;
}

export class EndpointSliceController extends ControllerBase<EndpointSliceControllerState> {
	readonly name = ENDPOINTSLICE_CONTROLLER;
	readonly sub = 'endpointslice';
	readonly resources = ['services', 'pods', 'nodes', 'endpointslices'] as const;
	/** --concurrent-service-endpoint-syncs default 5 (pkg/controller/endpointslice/config/v1alpha1/defaults.go). */
	override readonly workers = 5;

	private readonly tracker = new EndpointSliceTracker(() => this.state.tracker);
	private readonly maxEndpointsPerSlice: number;
	private readonly batchPeriodMs: number;

	constructor(host: ControllerHost, options: Partial<EndpointSliceOptions> = {}) {
		super(host);
		this.maxEndpointsPerSlice = options.maxEndpointsPerSlice ?? DEFAULT_MAX_ENDPOINTS_PER_SLICE;
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
		const outcome = this.reconcile(service, pods, slices, triggerMs);
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

	/** Reconciler.Reconcile: per address type the Service supports; slices of other types go. */
	private reconcile(service: Service, pods: readonly Pod[], existing: readonly WireEndpointSlice[], triggerMs: number): ReconcileOutcome {
		const outcome: ReconcileOutcome = { created: 0, updated: 0, deleted: 0, endpoints: 0 };
		const errors: string[] = [];
		const supported = addressTypesForService(service);
		const byType = new Map<string, WireEndpointSlice[]>();
		const unsupported: WireEndpointSlice[] = [];
		for (const slice of existing) {
			if (!supported.includes(slice.addressType as 'IPv4' | 'IPv6')) unsupported.push(slice);
			else byType.set(slice.addressType, [...(byType.get(slice.addressType) ?? []), slice]);
		}
		for (const addressType of supported) {
			const error = this.reconcileByAddressType(service, pods, byType.get(addressType) ?? [], triggerMs, addressType, outcome);
			if (error !== undefined) errors.push(error);
		}
		for (const slice of unsupported) {
			const error = this.deleteSlice(service, slice);
			if (error !== undefined) errors.push(`error deleting ${slice.metadata.name} EndpointSlice for Service ${service.metadata.namespace}/${service.metadata.name}: ${error}`);
			else outcome.deleted++;
		}
		outcome.error = aggregateErrors(errors);
		return outcome;
	}

	/** deleteEndpointSlice: a slice already gone is fine. */
	private deleteSlice(service: Service, slice: WireEndpointSlice): string | undefined {
		const deleted = this.host.client.delete(R.endpointslices, service.metadata.namespace, slice.metadata.name ?? '');
		if (!deleted.ok) return deleted.code === 404 ? undefined : deleted.message;
		this.tracker.expectDeletion(slice);
		return undefined;
	}

	/** reconcileByAddressType: the desired endpoints, grouped by the ports they resolve to, against the existing slices. */
	private reconcileByAddressType(service: Service, pods: readonly Pod[], existing: readonly WireEndpointSlice[], triggerMs: number, addressType: 'IPv4' | 'IPv6', outcome: ReconcileOutcome): string | undefined {
		const errors: string[] = [];
		const toCreate: WireEndpointSlice[] = [];
		const toUpdate: WireEndpointSlice[] = [];
		let toDelete: WireEndpointSlice[] = [];
		const existingByPortMap = new Map<string, WireEndpointSlice[]>();
		for (const slice of existing) {
			if (ownedBy(slice, service)) {
				const key = portMapKey(portsOf(slice));
				existingByPortMap.set(key, [...(existingByPortMap.get(key) ?? []), slice]);
			} else toDelete.push(slice);
		}
		const desiredPorts = new Map<string, SlicePort[]>();
		const desiredEndpoints = new Map<string, EndpointSet>();
		const nodes = this.host.informer('nodes');
		for (const pod of pods) {
			if (!shouldPodBeInEndpoints(pod, true)) continue;
			const ports = sortPorts(endpointPortsFor(service, pod));
			const key = portMapKey(ports);
			if (!desiredEndpoints.has(key)) desiredEndpoints.set(key, new EndpointSet());
			if (!desiredPorts.has(key)) desiredPorts.set(key, ports);
			const node = nodes.get(pod.spec.nodeName ?? '') as Node | undefined;
			if (!node && !service.spec?.publishNotReadyAddresses) {
				// Leave the Pod out but come back later: the pod garbage collector should remove a Pod of a missing Node.
				errors.push(`skipping Pod ${pod.metadata.name} for Service ${service.metadata.namespace}/${service.metadata.name}: Node ${pod.spec.nodeName ?? ''} Not Found`);
				continue;
			}
			const endpoint = podToEndpoint(pod, node, service, addressType);
			if (endpoint.addresses.length > 0) desiredEndpoints.get(key)!.insert(endpoint);
		}
		for (const [key, set] of desiredEndpoints) {
			outcome.endpoints += set.size;
			const result = this.reconcileByPortMapping(service, existingByPortMap.get(key) ?? [], set, desiredPorts.get(key) ?? [], addressType);
			toCreate.push(...result.toCreate);
			toUpdate.push(...result.toUpdate);
			toDelete.push(...result.toDelete);
		}
		// Port sets nobody wants any more.
		for (const [key, slices] of existingByPortMap) if (!desiredEndpoints.has(key)) toDelete.push(...slices);
		// A Service with no endpoints still gets one empty slice.
		if (existing.length === toDelete.length && toCreate.length < 1) {
			const placeholder = newEndpointSlice(service, [], addressType, CONTROLLER_QUALIFIED_NAME);
			if (toDelete.length === 1 && samePlaceholder(toDelete[0], placeholder)) toDelete = [];
			else toCreate.push(placeholder);
		}
		const error = this.finalize(service, toCreate, toUpdate, toDelete, triggerMs, outcome);
		if (error !== undefined) errors.push(error);
		return aggregateErrors(errors);
	}

	/**
	 * reconcileByPortMapping: keep each existing slice's wanted endpoints
	 * (updating those that changed, deleting slices left empty), fill the
	 * slices being updated anyway, then put what is left in the unchanged
	 * slice that fits best, or in new slices.
	 */
	private reconcileByPortMapping(
		service: Service,
		existing: readonly WireEndpointSlice[],
		desired: EndpointSet,
		ports: SlicePort[],
		addressType: 'IPv4' | 'IPv6',
	): { toCreate: WireEndpointSlice[]; toUpdate: WireEndpointSlice[]; toDelete: WireEndpointSlice[] } {
		const max = this.maxEndpointsPerSlice;
		const byName = new Map<string, WireEndpointSlice>();
		const unchanged = new Set<string>();
		const toUpdateNames = new Set<string>();
		const toDeleteNames = new Set<string>();
		// 1. Existing slices: drop endpoints no longer wanted, refresh those that changed.
		for (const slice of existing) {
			const name = slice.metadata.name ?? '';
			byName.set(name, slice);
			const kept: SliceEndpoint[] = [];
			let endpointUpdated = false;
			for (const endpoint of endpointsOf(slice)) {
				const want = desired.get(endpoint);
				if (!want) continue;
				kept.push(want);
				if (!endpointsEqualBeyondHash(want, endpoint)) endpointUpdated = true;
				desired.delete(endpoint);
			}
			const { labels, changed } = endpointSliceLabels(slice, service, CONTROLLER_QUALIFIED_NAME);
			if (endpointUpdated || endpointsOf(slice).length !== kept.length) {
				if (kept.length === 0) toDeleteNames.add(name);
				else {
					const copy = deepCopy(slice);
					copy.endpoints = kept;
					copy.metadata.labels = labels;
					byName.set(name, copy);
					toUpdateNames.add(name);
				}
			} else if (changed) {
				const copy = deepCopy(slice);
				copy.metadata.labels = labels;
				byName.set(name, copy);
				toUpdateNames.add(name);
			} else unchanged.add(name);
		}
		// 2. Fill the slices that are written anyway, fullest first.
		if (desired.size > 0 && toUpdateNames.size > 0) {
			const filling = [...toUpdateNames].map((n) => byName.get(n)!).sort((a, b) => endpointsOf(b).length - endpointsOf(a).length);
			for (const slice of filling) {
				const list = endpointsOf(slice);
				while (desired.size > 0 && list.length < max) list.push(desired.popAny()!);
				slice.endpoints = list;
			}
		}
		// 3. The rest: into the unchanged slice that fits best, else into new slices.
		const toCreate: WireEndpointSlice[] = [];
		// Each pass places at least one endpoint, so this ends.
		while (desired.size > 0) {
			let target: WireEndpointSlice | undefined;
			if (desired.size < max && unchanged.size > 0) target = sliceToFill([...unchanged].map((n) => byName.get(n)!), desired.size, max);
			if (!target) target = newEndpointSlice(service, ports, addressType, CONTROLLER_QUALIFIED_NAME);
			else {
				target = deepCopy(target);
				byName.set(target.metadata.name ?? '', target);
			}
			const list = endpointsOf(target);
			while (desired.size > 0 && list.length < max) list.push(desired.popAny()!);
			target.endpoints = list;
			if (target.metadata.name) {
				toUpdateNames.add(target.metadata.name);
				unchanged.delete(target.metadata.name);
			} else toCreate.push(target);
		}
		return {
			toCreate,
			toUpdate: [...toUpdateNames].map((n) => byName.get(n)!),
			toDelete: [...toDeleteNames].map((n) => byName.get(n)!),
		};
	}

	/**
	 * finalize: creations paired with deletions become updates of the slices
	 * that would go; then create (not while the Service is being deleted, so
	 * the garbage collector is not raced), update, delete.
	 */
	private finalize(service: Service, toCreate: WireEndpointSlice[], toUpdate: WireEndpointSlice[], toDelete: WireEndpointSlice[], triggerMs: number, outcome: ReconcileOutcome): string | undefined {
		const ns = service.metadata.namespace;
		const svc = `${ns}/${service.metadata.name}`;
		const creates = [...toCreate];
		const updates = [...toUpdate];
		const deletes = [...toDelete];
		for (let i = 0; i < deletes.length && creates.length > 0; ) {
			const doomed = deletes[i];
			const fresh = creates[creates.length - 1];
			// Only slices of this Service and address type: others may be an old Service's, waiting for the garbage collector.
			if (doomed.addressType === fresh.addressType && ownedBy(doomed, service)) {
				fresh.metadata.name = doomed.metadata.name;
				creates.pop();
				updates.push(fresh);
				deletes.splice(i, 1);
			} else i++;
		}
		if (!service.metadata.deletionTimestamp) {
			for (const slice of creates) {
				setTriggerTimeAnnotation(slice, triggerMs);
				const created = this.host.client.create<WireEndpointSlice>(R.endpointslices, ns, toWire(slice));
				if (!created.ok) {
					// A terminating namespace refuses every creation: drop the item.
					if (isNamespaceTerminating(created)) return undefined;
					return `failed to create EndpointSlice for Service ${svc}: ${created.message}`;
				}
				this.tracker.update(created.object);
				outcome.created++;
			}
		}
		for (const slice of updates) {
			setTriggerTimeAnnotation(slice, triggerMs);
			const updated = this.host.client.update<WireEndpointSlice>(R.endpointslices, toWire(slice) as KubeObject);
			if (!updated.ok) return `failed to update ${slice.metadata.name} EndpointSlice for Service ${svc}: ${updated.message}`;
			this.tracker.update(updated.object);
			outcome.updated++;
		}
		for (const slice of deletes) {
			const error = this.deleteSlice(service, slice);
			if (error !== undefined) return `failed to delete ${slice.metadata.name} EndpointSlice for Service ${svc}: ${error}`;
			outcome.deleted++;
		}
		return undefined;
	}
}
