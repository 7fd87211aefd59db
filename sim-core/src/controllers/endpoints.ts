/**
 * The Endpoints controller: for every Service with a selector it keeps the
 * legacy core/v1 Endpoints object of the same name, listing the selected
 * Pods' IPs as ready `addresses` or `notReadyAddresses` with the Service's
 * ports resolved on them, grouped into subsets of addresses sharing the
 * same ports. The object carries the Service's labels (plus
 * `service.kubernetes.io/headless` for a Service without a cluster IP) and
 * the `endpoints.kubernetes.io/last-change-trigger-time` annotation, holds
 * at most 1000 addresses (then `endpoints.kubernetes.io/over-capacity:
 * truncated`), and goes when the Service goes. The v1 Endpoints API is
 * deprecated since v1.33 (KEP-4974: the API server warns on every request)
 * but the controller still runs by default in v1.36.
 *
 * What it shares with the EndpointSlice controller
 * (k8s.io/endpointslice/util upstream) comes from ./util/endpoint.ts.
 *
 * Differences: upstream orders ports and subsets by hashes of Go values;
 * here ports sort by number, name and protocol and subsets by their
 * content, so runs are reproducible (addresses sort by IP then Pod uid, as
 * upstream). The --endpoint-updates-qps limiter is not modelled.
 *
 * Mirrors pkg/controller/endpoint/endpoints_controller.go,
 * pkg/controller/endpoint/endpoints_tracker.go, pkg/api/v1/endpoints/util.go
 * (RepackSubsets).
 */
import type { EndpointAddress, Endpoints, KubeObject, Pod, Service } from '../api/types.ts';
import { compareGoStrings } from '../golang/json.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { ControllerBase, type ControllerHost, type SyncError } from './controller-context.ts';
import { canonicalJson } from './hash.ts';
import { isNamespaceTerminating, splitKey } from './pod-util.ts';
import {
	LABEL_HEADLESS_SERVICE,
	computeEndpointLastChangeTriggerTime,
	findPort,
	isServiceIPSet,
	podEndpointConditions,
	podReference,
	serviceSelector,
	servicesSelecting,
	servicesToUpdateOnPodChange,
	setTriggerTime,
	shouldPodBeInEndpoints,
	shouldSetHostname,
	withoutResourceVersion,
	type TriggerTimeState,
} from './util/endpoint.ts';
import { deepCopy } from '../golang/json.ts';

const ENDPOINTS_CONTROLLER = 'endpoints-controller';
/** The event source upstream's recorder uses (endpoints_controller.go NewEndpointController). */
const ENDPOINTS_EVENT_SOURCE = 'endpoint-controller';
/** maxCapacity: the most addresses an Endpoints object holds (endpoints_controller.go). */
export const ENDPOINTS_MAX_CAPACITY = 1000;
/** v1.EndpointsOverCapacity and its value `truncated` (k8s.io/api/core/v1/annotation_key_constants.go). */
export const ANNOTATION_OVER_CAPACITY = 'endpoints.kubernetes.io/over-capacity';
/** resourcelock.LeaderElectionRecordAnnotationKey: old leader-election locks, which have no Service. */
const LEADER_ELECTION_ANNOTATION = 'control-plane.alpha.kubernetes.io/leader';
/** maxRetries (endpoints_controller.go): 5 ms, 10 ms ... 82 s, then the Service is dropped out of the queue. */
const ENDPOINTS_MAX_RETRIES = 15;

/** An address with the hostname the shared type leaves out. */
export type SubsetAddress = EndpointAddress & { hostname?: string };
/** An Endpoints port (core/v1 EndpointPort). */
interface SubsetPort {
	name?: string;
	port: number;
	protocol?: string;
	appProtocol?: string;
}
/** One subset: addresses that all serve the same ports. */
export interface EndpointSubset {
	addresses?: SubsetAddress[];
	notReadyAddresses?: SubsetAddress[];
	ports?: SubsetPort[];
}

/** LessEndpointAddress: by IP (byte order), then by the target's uid. */
function compareAddresses(a: SubsetAddress, b: SubsetAddress): number {
	if (a.ip !== b.ip) return a.ip < b.ip ? -1 : 1;
	// An address without a target sorts before one with a target.
	const ua = a.targetRef?.uid;
	const ub = b.targetRef?.uid;
	if (ua === undefined || ub === undefined) return ua === ub ? 0 : ua === undefined ? -1 : 1;
	return ua < ub ? -1 : ua > ub ? 1 : 0;
}

function comparePorts(a: SubsetPort, b: SubsetPort): number {
	return a.port - b.port || compareGoStrings(a.name ?? '', b.name ?? '') || compareGoStrings(a.protocol ?? '', b.protocol ?? '') || compareGoStrings(a.appProtocol ?? '', b.appProtocol ?? '');
}

/**
 * RepackSubsets: regroups per-Pod subsets so that addresses serving the
 * same set of ports share one subset. An address not ready on any port is
 * not ready (not-ready trumps ready); subsets without ports keep their
 * addresses. Then sorts (SortSubsets).
 */
export function repackSubsets(subsets: readonly EndpointSubset[]): EndpointSubset[] {
	const addressKey = (a: SubsetAddress) => `${a.ip}\u0000${a.targetRef?.uid ?? ''}`;
	const allAddresses = new Map<string, SubsetAddress>();
	/** Port (canonical) -> its port value (undefined for the no-ports sentinel) and address key -> ready. */
	const byPort = new Map<string, { port?: SubsetPort; ready: Map<string, boolean> }>();
	const mapAddress = (address: SubsetAddress, port: SubsetPort | undefined, ready: boolean) => {
		const key = addressKey(address);
		if (!allAddresses.has(key)) allAddresses.set(key, deepCopy(address));
		const portKey = port ? canonicalJson(port) : 'sentinel';
		let entry = byPort.get(portKey);
		if (!entry) byPort.set(portKey, (entry = { port, ready: new Map() }));
		const was = entry.ready.get(key);
		if (was === undefined || was) entry.ready.set(key, ready);
	};
	for (const subset of subsets) {
		const ports = subset.ports?.length ? subset.ports : [undefined];
		for (const port of ports) {
			for (const a of subset.addresses ?? []) mapAddress(a, port, true);
			for (const a of subset.notReadyAddresses ?? []) mapAddress(a, port, false);
		}
	}
	// Ports grouped by the exact set of (address, readiness) they are served on.
	const groups = new Map<string, { ready: Map<string, boolean>; ports: SubsetPort[] }>();
	for (const { port, ready } of byPort.values()) {
		const signature = JSON.stringify([...ready.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
		let group = groups.get(signature);
		if (!group) groups.set(signature, (group = { ready, ports: [] }));
		if (port) group.ports.push(port);
	}
	const out: EndpointSubset[] = [];
	for (const group of groups.values()) {
		const subset: EndpointSubset = {};
		const ready: SubsetAddress[] = [];
		const notReady: SubsetAddress[] = [];
		for (const [key, isReady] of group.ready) (isReady ? ready : notReady).push(allAddresses.get(key)!);
		if (ready.length) subset.addresses = ready.sort(compareAddresses);
		if (notReady.length) subset.notReadyAddresses = notReady.sort(compareAddresses);
		if (group.ports.length) subset.ports = group.ports.sort(comparePorts);
		out.push(subset);
	}
	return out.sort((a, b) => {
		const ka = canonicalJson(a);
		const kb = canonicalJson(b);
		return ka < kb ? -1 : ka > kb ? 1 : 0;
	});
}

/**
 * truncateEndpoints: over ENDPOINTS_MAX_CAPACITY addresses, keep ready
 * addresses first, sharing the room among subsets in proportion (rounded
 * up). True when something was cut.
 */
export function truncateEndpoints(subsets: EndpointSubset[]): boolean {
	let totalReady = 0;
	let totalNotReady = 0;
	for (const s of subsets) {
		totalReady += s.addresses?.length ?? 0;
		totalNotReady += s.notReadyAddresses?.length ?? 0;
	}
	if (totalReady + totalNotReady <= ENDPOINTS_MAX_CAPACITY) return false;
	const truncateReady = totalReady > ENDPOINTS_MAX_CAPACITY;
	const max = truncateReady ? ENDPOINTS_MAX_CAPACITY : ENDPOINTS_MAX_CAPACITY - totalReady;
	const total = truncateReady ? totalReady : totalNotReady;
	let room = max;
	for (const s of subsets) {
		const inSubset = truncateReady ? (s.addresses?.length ?? 0) : (s.notReadyAddresses?.length ?? 0);
		const share = Math.min(Math.ceil((inSubset / total) * max), room);
		if (truncateReady) {
			s.addresses = (s.addresses ?? []).slice(0, share);
			delete s.notReadyAddresses;
			room -= s.addresses.length;
		} else {
			s.notReadyAddresses = (s.notReadyAddresses ?? []).slice(0, share);
			room -= s.notReadyAddresses.length;
		}
	}
	return true;
}

/** capacityAnnotationSetCorrectly: under capacity and without the over-capacity annotation. */
function capacityAnnotationSetCorrectly(annotations: Record<string, string> | undefined, subsets: readonly EndpointSubset[]): boolean {
	const count = subsets.reduce((n, s) => n + (s.addresses?.length ?? 0) + (s.notReadyAddresses?.length ?? 0), 0);
	if (count > ENDPOINTS_MAX_CAPACITY) return false;
	return !Object.hasOwn(annotations ?? {}, ANNOTATION_OVER_CAPACITY);
}

/** podToEndpointAddressForService: the Pod's IP of the Service's (first) family, its node and a reference to it. */
function podToEndpointAddress(service: Service, pod: Pod): SubsetAddress | undefined {
	let family = service.spec?.ipFamilies?.[0];
	if (!family) {
		const clusterIP = service.spec?.clusterIP ?? '';
		// An API server too old to set ipFamilies: the cluster IP's family, or the Pod IP's for a headless Service.
		if (clusterIP && clusterIP !== 'None') family = clusterIP.includes(':') ? 'IPv6' : 'IPv4';
		else family = (pod.status?.podIP ?? '').includes(':') ? 'IPv6' : 'IPv4';
	}
	const ip = (pod.status?.podIPs ?? []).map((p) => p.ip).find((a) => a.includes(':') === (family === 'IPv6'));
	if (!ip) return undefined;
	return { ip, nodeName: pod.spec.nodeName ?? '', targetRef: podReference(pod) };
}

/**
 * endpointSubsetsEqualIgnoreResourceVersion: the subsets are semantically
 * equal, the resourceVersion of the Pods they point at aside.
 */
function endpointSubsetsEqualIgnoreResourceVersion(a: readonly EndpointSubset[], b: readonly EndpointSubset[]): boolean {
	const ignoreVersion = (address: SubsetAddress): SubsetAddress => ({ ...address, targetRef: withoutResourceVersion(address.targetRef) });
	const view = (subsets: readonly EndpointSubset[]) =>
		canonicalJson(subsets.map((s) => ({ ...s, addresses: s.addresses?.map(ignoreVersion), notReadyAddresses: s.notReadyAddresses?.map(ignoreVersion) })));
	return view(a) === view(b);
}

interface EndpointsControllerState {
	triggerTimes: Record<string, TriggerTimeState>;
	/** staleEndpointsTracker: Endpoints key -> the resourceVersion the controller has since replaced. */
	staleResourceVersions: Record<string, string>;
}

/** The kube-controller-manager flag this controller reads. */
interface EndpointsOptions {
	/** --endpoint-updates-batch-period (default 0: no batching). */
	endpointUpdatesBatchPeriodMs: number;
}

export class EndpointsController extends ControllerBase<EndpointsControllerState> {
	readonly name = ENDPOINTS_CONTROLLER;
	readonly sub = 'endpoint';
	readonly resources = ['services', 'pods', 'endpoints'] as const;
	/** --concurrent-endpoint-syncs default 5 (pkg/controller/endpoint/config/v1alpha1/defaults.go). */
	override readonly workers = 5;
	override readonly maxRetries = ENDPOINTS_MAX_RETRIES;

	private readonly batchPeriodMs: number;

	constructor(host: ControllerHost, options: Partial<EndpointsOptions> = {}) {
		super(host);
		this.batchPeriodMs = options.endpointUpdatesBatchPeriodMs ?? 0;
	}

	freshState(): EndpointsControllerState {
		return { triggerTimes: {}, staleResourceVersions: {} };
	}

	/** checkLeftoverEndpoints: once at start, every Endpoints object's Service is looked at, so orphans left while down go. */
	override onLeading(): void {
		for (const endpoints of this.host.informer('endpoints').list()) {
			// Old leader-election locks have no Service and must stay.
			if (Object.hasOwn(endpoints.metadata.annotations ?? {}, LEADER_ELECTION_ANNOTATION)) continue;
			this.enqueue(keyOf(endpoints));
		}
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'services') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.podChanged(obj as Pod);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'services') this.enqueue(keyOf(newObj));
		else if (resource === 'pods') {
			for (const key of servicesToUpdateOnPodChange(this.host.listInNamespace<Service>('services', newObj.metadata.namespace), oldObj as Pod, newObj as Pod)) this.enqueueAfterBatch(key);
		}
	}

	override onDelete(resource: string, obj: KubeObject): void {
		// Someone deleted an Endpoints object: put it back if its Service still wants it.
		if (resource === 'services' || resource === 'endpoints') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.podChanged(obj as Pod);
	}

	private podChanged(pod: Pod): void {
		for (const key of servicesSelecting(this.host.listInNamespace<Service>('services', pod.metadata.namespace), pod.metadata.labels)) this.enqueueAfterBatch(key);
	}

	private enqueueAfterBatch(key: string): void {
		if (this.batchPeriodMs > 0) this.host.enqueueAfter(this.sub, key, this.batchPeriodMs);
		else this.enqueue(key);
	}

	/** syncService. */
	sync(key: string): SyncError {
		const { namespace, name } = splitKey(key);
		const service = this.host.informer('services').get(key) as Service | undefined;
		if (!service) {
			// The Service is gone: so is its Endpoints object (upstream deletes it here, it has no owner reference).
			const deleted = this.host.client.delete(R.endpoints, namespace, name);
			if (!deleted.ok && deleted.code !== 404) return deleted.message;
			delete this.state.triggerTimes[key];
			delete this.state.staleResourceVersions[key];
			if (deleted.ok) this.trace('reconcile', `endpoints/${key}`, `service ${key} has been deleted; deleted its endpoints`);
			return undefined;
		}
		// ExternalName Services get no endpoints from this controller (https://issues.k8s.io/105986).
		if (service.spec?.type === 'ExternalName') return undefined;
		const selects = serviceSelector(service);
		if (!selects) {
			this.trace('reconcile', `endpoints/${key}`, `service ${key} has no selector; its endpoints are managed out of band`);
			return undefined;
		}
		const pods = this.host.listInNamespace<Pod>('pods', namespace).filter((p) => selects(p.metadata.labels));
		// Before the comparison, so the tracker's memory moves on even when nothing is written.
		const triggerMs = computeEndpointLastChangeTriggerTime(this.state.triggerTimes, service, pods);
		const publishNotReady = !!service.spec?.publishNotReadyAddresses;
		const perPod: EndpointSubset[] = [];
		/** Pods listed, ready or not (for the trace). */
		const listed = new Map<string, boolean>();
		const add = (pod: Pod, address: SubsetAddress, port: SubsetPort | undefined) => {
			const { ready } = podEndpointConditions(pod, service);
			const subset: EndpointSubset = ready ? { addresses: [address] } : { notReadyAddresses: [address] };
			if (port) subset.ports = [port];
			listed.set(pod.metadata.name ?? '', ready);
			perPod.push(subset);
		};
		for (const pod of pods) {
			if (!shouldPodBeInEndpoints(pod, publishNotReady)) continue;
			const address = podToEndpointAddress(service, pod);
			// A Pod without an IP of the Service's family (a half-upgraded dual-stack cluster).
			if (!address) continue;
			if (shouldSetHostname(pod, service)) address.hostname = pod.spec.hostname;
			const servicePorts = service.spec?.ports ?? [];
			if (servicePorts.length === 0) {
				// A headless Service may have no ports; any other Service without ports lists nothing.
				if (service.spec?.clusterIP === 'None') add(pod, address, undefined);
				continue;
			}
			for (const servicePort of servicePorts) {
				const port = findPort(pod, servicePort);
				if (port === undefined) continue;
				const entry: SubsetPort = { port, protocol: servicePort.protocol ?? 'TCP' };
				if (servicePort.name) entry.name = servicePort.name;
				if (servicePort.appProtocol !== undefined) entry.appProtocol = servicePort.appProtocol;
				add(pod, deepCopy(address), entry);
			}
		}
		const subsets = repackSubsets(perPod);
		const readyCount = [...listed.values()].filter(Boolean).length;
		const notReadyCount = listed.size - readyCount;

		const cached = this.host.informer('endpoints').get(key) as Endpoints | undefined;
		if (cached && this.state.staleResourceVersions[key] === cached.metadata.resourceVersion) {
			return `endpoints informer cache is out of date, resource version ${cached.metadata.resourceVersion} already processed for endpoints ${key}`;
		}
		const current: Endpoints = cached ?? { apiVersion: 'v1', kind: 'Endpoints', metadata: { name, labels: service.metadata.labels } };
		const create = !cached;
		// The headless label is ours, not the Service's: leave it out of the comparison.
		const compareLabels = { ...(current.metadata.labels ?? {}) };
		delete compareLabels[LABEL_HEADLESS_SERVICE];
		if (
			!create &&
			endpointSubsetsEqualIgnoreResourceVersion((current.subsets ?? []) as EndpointSubset[], subsets) &&
			canonicalJson(compareLabels) === canonicalJson(service.metadata.labels ?? {}) &&
			capacityAnnotationSetCorrectly(current.metadata.annotations, (current.subsets ?? []) as EndpointSubset[])
		) {
			this.trace('reconcile', `endpoints/${key}`, `service ${key}: endpoints up to date (${readyCount} ready, ${notReadyCount} not ready)`);
			return undefined;
		}
		const next = deepCopy(current);
		next.apiVersion = 'v1';
		next.kind = 'Endpoints';
		if (subsets.length) next.subsets = subsets as Endpoints['subsets'];
		else delete next.subsets;
		const labels: Record<string, string> = { ...(service.metadata.labels ?? {}) };
		if (!isServiceIPSet(service)) labels[LABEL_HEADLESS_SERVICE] = '';
		else delete labels[LABEL_HEADLESS_SERVICE];
		if (Object.keys(labels).length) next.metadata.labels = labels;
		else delete next.metadata.labels;
		const annotations: Record<string, string> = { ...(next.metadata.annotations ?? {}) };
		setTriggerTime(annotations, triggerMs);
		if (next.subsets && truncateEndpoints(next.subsets as EndpointSubset[])) annotations[ANNOTATION_OVER_CAPACITY] = 'truncated';
		else delete annotations[ANNOTATION_OVER_CAPACITY];
		if (Object.keys(annotations).length) next.metadata.annotations = annotations;
		else delete next.metadata.annotations;

		const written = create ? this.host.client.create<Endpoints>(R.endpoints, namespace, next) : this.host.client.update<Endpoints>(R.endpoints, next);
		if (!written.ok) {
			// A terminating namespace refuses every creation: drop the item.
			if (create && isNamespaceTerminating(written)) return undefined;
			const recorder = this.host.recorder(ENDPOINTS_EVENT_SOURCE);
			if (create) recorder.record(next, 'Warning', 'FailedToCreateEndpoint', `Failed to create endpoint for service ${namespace}/${name}: ${written.message}`);
			else recorder.record(next, 'Warning', 'FailedToUpdateEndpoint', `Failed to update endpoint ${namespace}/${name}: ${written.message}`);
			return written.message;
		}
		// The cache may still show the version just replaced: acting on it again would be acting on stale data.
		if (!create && written.object.metadata.resourceVersion !== current.metadata.resourceVersion) this.state.staleResourceVersions[key] = current.metadata.resourceVersion ?? '';
		this.trace('reconcile', `endpoints/${key}`, `service ${key}: ${create ? 'created' : 'updated'} endpoints (${readyCount} ready, ${notReadyCount} not ready)`);
		return undefined;
	}
}
