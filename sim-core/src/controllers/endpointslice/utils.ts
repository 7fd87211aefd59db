/**
 * Building EndpointSlices: the wire shape of a slice, the IP families a
 * Service gets slices for, a Pod's endpoint and ports, a new slice's name
 * prefix, labels and owner, and which existing slice to fill.
 *
 * Differences: topology-aware hints are not modelled (no slice gets
 * `hints`).
 *
 * Mirrors staging/src/k8s.io/endpointslice/utils.go.
 */
import type { EndpointSlice, KubeObject, Node, OwnerReference, Pod, Service } from '../../api/types.ts';
import { isDNS1123Subdomain } from '../../api/labels.ts';
import { canonicalJson } from '../hash.ts';
import {
	LABEL_HEADLESS_SERVICE,
	findPort,
	isServiceIPSet,
	podEndpointConditions,
	podReference,
	setTriggerTime,
	shouldSetHostname,
	type SliceEndpoint,
	type SlicePort,
} from '../util/endpoint.ts';

/** discovery.LabelServiceName (k8s.io/api/discovery/v1/well_known_labels.go). */
export const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';
/** discovery.LabelManagedBy (k8s.io/api/discovery/v1/well_known_labels.go). */
export const LABEL_MANAGED_BY = 'endpointslice.kubernetes.io/managed-by';
/** v1.LabelTopologyZone. */
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

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

export function endpointsOf(slice: WireEndpointSlice | EndpointSlice): SliceEndpoint[] {
	return (slice.endpoints ?? []) as SliceEndpoint[];
}

export function portsOf(slice: WireEndpointSlice | EndpointSlice): SlicePort[] {
	return slice.ports ?? [];
}

/** The slice as it goes on the wire: empty lists are sent as null, as the API server would serve them back. */
export function toWire(slice: WireEndpointSlice): WireEndpointSlice {
	return { ...slice, endpoints: endpointsOf(slice).length ? endpointsOf(slice) : null, ports: portsOf(slice).length ? portsOf(slice) : null };
}

// ---- endpoints and ports ------------------------------------------------------------------

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

// ---- new slices -----------------------------------------------------------------------------

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
function serviceControllerRef(service: Service): OwnerReference {
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

/** addTriggerTimeAnnotation: set the annotation, or remove it when there is no new trigger. */
export function setTriggerTimeAnnotation(slice: WireEndpointSlice, triggerMs: number): void {
	const annotations = { ...(slice.metadata.annotations ?? {}) };
	setTriggerTime(annotations, triggerMs);
	if (Object.keys(annotations).length) slice.metadata.annotations = annotations;
	else delete slice.metadata.annotations;
}

// ---- existing slices ------------------------------------------------------------------------

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
