/**
 * What every proxier works from: the service ports to program and their
 * endpoints, computed from the Services and EndpointSlices in kube-proxy's
 * informer caches.
 *
 * - A Service contributes one ServicePort per `spec.ports` entry, unless it
 *   has no cluster IP (headless, `None`) or is an ExternalName Service
 *   (ShouldSkipService); only its IPv4 cluster IP counts here (the nodes are
 *   single-stack IPv4).
 * - EndpointSlices (IPv4 only) give each service port its endpoints:
 *   `ip:port` with the slice's ready/serving/terminating conditions (an
 *   unset `ready` counts as ready, an unset `serving` as `ready`) and
 *   whether the endpoint runs on this node. Endpoints are sorted by their
 *   `ip:port` string, as the EndpointSliceCache returns them.
 * - CategorizeEndpoints picks, per traffic policy, which endpoints traffic
 *   may go to: the ready ones, or, when none is ready anywhere, the
 *   serving-and-terminating ones; `Local` policy keeps this node's only.
 *
 * Topology-aware hints are not modelled (the EndpointSlice controller sets
 * none).
 *
 * Mirrors pkg/proxy/serviceport.go (BaseServicePortInfo,
 * UsesClusterEndpoints, UsesLocalEndpoints),
 * pkg/proxy/servicechangetracker.go (newBaseServiceInfo),
 * pkg/proxy/endpoint.go (BaseEndpointInfo), pkg/proxy/endpointslicecache.go
 * (addEndpoints, endpointsMapFromEndpointInfo), pkg/proxy/topology.go
 * (CategorizeEndpoints).
 */
import type { EndpointSlice, KubeObject, Service } from '../api/types.ts';
import { servicePortNameString } from './chain-names.ts';

/** One port of one Service, as a proxier sees it. Plain JSON. */
export interface ServicePortInfo {
	namespace: string;
	name: string;
	/** The port's name ('' when the Service has one unnamed port). */
	portName: string;
	/** ServicePortName.String(): `default/web` or `default/web:http`. */
	nameString: string;
	protocol: 'TCP' | 'UDP' | 'SCTP';
	clusterIP: string;
	port: number;
	/** 0 when the port has none. */
	nodePort: number;
	externalIPs: string[];
	loadBalancerVIPs: string[];
	loadBalancerSourceRanges: string[];
	/** sessionAffinity ClientIP, and its timeout (default 10800 s, v1.DefaultClientIPServiceAffinitySeconds). */
	affinityClientIP: boolean;
	stickyMaxAgeSeconds: number;
	internalPolicyLocal: boolean;
	externalPolicyLocal: boolean;
	healthCheckNodePort: number;
}

/** One endpoint of a service port (BaseEndpointInfo). */
export interface EndpointInfo {
	ip: string;
	port: number;
	ready: boolean;
	serving: boolean;
	terminating: boolean;
	/** The endpoint runs on this node. */
	isLocal: boolean;
	nodeName?: string;
}

/** v1.DefaultClientIPServiceAffinitySeconds: 3 hours. */
const DEFAULT_AFFINITY_SECONDS = 10_800;
/** discovery.LabelServiceName. */
const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';

/** `ip:port` (BaseEndpointInfo.String()). */
export function endpointString(ep: Pick<EndpointInfo, 'ip' | 'port'>): string {
	return ep.ip.includes(':') ? `[${ep.ip}]:${ep.port}` : `${ep.ip}:${ep.port}`;
}

/** A stable key of a service port: its name plus protocol (two ports may share a name across protocols only in theory). */
export function servicePortKey(sp: Pick<ServicePortInfo, 'nameString' | 'protocol'>): string {
	return `${sp.nameString}/${sp.protocol}`;
}

function isIPv4(ip: string | undefined): ip is string {
	return typeof ip === 'string' && /^\d+\.\d+\.\d+\.\d+$/.test(ip);
}

/** ExternallyAccessible: a NodePort, an external IP or a load-balancer IP. */
export function externallyAccessible(sp: ServicePortInfo): boolean {
	return sp.nodePort !== 0 || sp.externalIPs.length > 0 || sp.loadBalancerVIPs.length > 0;
}

/** UsesClusterEndpoints: Cluster internal policy, or externally accessible with Cluster external policy. */
function usesClusterEndpoints(sp: ServicePortInfo): boolean {
	return !sp.internalPolicyLocal || (externallyAccessible(sp) && !sp.externalPolicyLocal);
}

/** UsesLocalEndpoints: Local internal policy, or externally accessible with Local external policy. */
function usesLocalEndpoints(sp: ServicePortInfo): boolean {
	return sp.internalPolicyLocal || (sp.externalPolicyLocal && externallyAccessible(sp));
}

/** The service ports of one Service (empty for headless and ExternalName Services). */
export function servicePortsOf(service: Service): ServicePortInfo[] {
	const spec = service.spec ?? {};
	const clusterIP = isIPv4(spec.clusterIP) ? spec.clusterIP : (spec.clusterIPs ?? []).find(isIPv4);
	if (spec.type === 'ExternalName' || !clusterIP) return [];
	const namespace = service.metadata.namespace ?? 'default';
	const name = service.metadata.name ?? '';
	const type = spec.type ?? 'ClusterIP';
	const affinity = spec.sessionAffinity === 'ClientIP';
	const affinityConfig = spec.sessionAffinityConfig as { clientIP?: { timeoutSeconds?: number } } | undefined;
	const lbIngress = type === 'LoadBalancer' ? (service.status?.loadBalancer?.ingress ?? []).map((i) => i.ip).filter(isIPv4) : [];
	return (spec.ports ?? []).map((port) => {
		const portName = port.name ?? '';
		const protocol = (port.protocol ?? 'TCP') as ServicePortInfo['protocol'];
		return {
			namespace,
			name,
			portName,
			nameString: servicePortNameString(namespace, name, portName),
			protocol,
			clusterIP,
			port: port.port,
			nodePort: type === 'NodePort' || type === 'LoadBalancer' ? (port.nodePort ?? 0) : 0,
			externalIPs: (spec.externalIPs ?? []).filter(isIPv4),
			loadBalancerVIPs: lbIngress,
			loadBalancerSourceRanges: ((spec.loadBalancerSourceRanges as string[] | undefined) ?? []).filter((c) => isIPv4(c.split('/')[0])),
			affinityClientIP: affinity,
			stickyMaxAgeSeconds: affinity ? (affinityConfig?.clientIP?.timeoutSeconds ?? DEFAULT_AFFINITY_SECONDS) : 0,
			internalPolicyLocal: spec.internalTrafficPolicy === 'Local',
			// ExternalPolicyLocal only applies to Services reachable from outside.
			externalPolicyLocal: spec.externalTrafficPolicy === 'Local' && (type === 'NodePort' || type === 'LoadBalancer' || (spec.externalIPs ?? []).length > 0),
			healthCheckNodePort: type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local' ? ((spec.healthCheckNodePort as number | undefined) ?? 0) : 0,
		};
	});
}

/** Every service port, ordered by service port name then protocol (upstream walks a Go map in no order). */
export function buildServicePorts(services: readonly KubeObject[]): ServicePortInfo[] {
	const out: ServicePortInfo[] = [];
	for (const svc of services) out.push(...servicePortsOf(svc as Service));
	return out.sort((a, b) => (servicePortKey(a) < servicePortKey(b) ? -1 : servicePortKey(a) > servicePortKey(b) ? 1 : 0));
}

/**
 * The endpoints of every service port, keyed by servicePortKey, from the
 * EndpointSlices. An IP listed by two slices of one Service (a Pod moving
 * between slices) is kept once, the ready entry winning.
 */
export function buildEndpoints(slices: readonly KubeObject[], nodeName: string): Record<string, EndpointInfo[]> {
	const byPort: Record<string, Map<string, EndpointInfo>> = {};
	for (const obj of slices) {
		const slice = obj as EndpointSlice;
		if (slice.addressType !== 'IPv4') continue;
		const service = slice.metadata.labels?.[LABEL_SERVICE_NAME];
		if (!service) continue;
		const namespace = slice.metadata.namespace ?? 'default';
		for (const port of slice.ports ?? []) {
			if (port.port === undefined || port.port === null) continue;
			const key = `${servicePortNameString(namespace, service, port.name ?? '')}/${port.protocol ?? 'TCP'}`;
			const seen = (byPort[key] ??= new Map());
			for (const ep of slice.endpoints ?? []) {
				const ip = ep.addresses?.[0];
				if (!isIPv4(ip)) continue;
				const ready = ep.conditions?.ready ?? true;
				const info: EndpointInfo = {
					ip,
					port: port.port,
					ready,
					serving: ep.conditions?.serving ?? ready,
					terminating: ep.conditions?.terminating ?? false,
					isLocal: ep.nodeName === nodeName,
				};
				if (ep.nodeName) info.nodeName = ep.nodeName;
				const id = endpointString(info);
				const before = seen.get(id);
				if (!before || (!before.ready && info.ready)) seen.set(id, info);
			}
		}
	}
	const out: Record<string, EndpointInfo[]> = {};
	for (const [key, map] of Object.entries(byPort)) {
		if (map.size === 0) continue;
		out[key] = [...map.values()].sort((a, b) => (endpointString(a) < endpointString(b) ? -1 : endpointString(a) > endpointString(b) ? 1 : 0));
	}
	return out;
}

/** CategorizeEndpoints' result. */
interface CategorizedEndpoints {
	clusterEndpoints: EndpointInfo[];
	localEndpoints: EndpointInfo[];
	allReachableEndpoints: EndpointInfo[];
	hasAnyEndpoints: boolean;
}

/**
 * CategorizeEndpoints: which endpoints Cluster and Local traffic policy
 * use, all the endpoints this node may send to, and whether the service
 * has any usable endpoint anywhere.
 */
export function categorizeEndpoints(endpoints: readonly EndpointInfo[], sp: ServicePortInfo): CategorizedEndpoints {
	let clusterEndpoints: EndpointInfo[] = [];
	let localEndpoints: EndpointInfo[] = [];
	let hasAnyEndpoints = false;
	if (usesClusterEndpoints(sp)) {
		clusterEndpoints = endpoints.filter((ep) => ep.ready);
		// No ready endpoint anywhere: fall back to the serving-and-terminating ones.
		if (clusterEndpoints.length === 0) clusterEndpoints = endpoints.filter((ep) => ep.serving && ep.terminating);
		if (clusterEndpoints.length > 0) hasAnyEndpoints = true;
	}
	if (!usesLocalEndpoints(sp)) return { clusterEndpoints, localEndpoints, allReachableEndpoints: clusterEndpoints, hasAnyEndpoints };
	let hasLocalReady = false;
	let hasLocalServingTerminating = false;
	for (const ep of endpoints) {
		if (ep.ready) {
			hasAnyEndpoints = true;
			if (ep.isLocal) hasLocalReady = true;
		} else if (ep.serving && ep.terminating) {
			hasAnyEndpoints = true;
			if (ep.isLocal) hasLocalServingTerminating = true;
		}
	}
	if (hasLocalReady) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.ready);
	else if (hasLocalServingTerminating) localEndpoints = endpoints.filter((ep) => ep.isLocal && ep.serving && ep.terminating);
	if (!usesClusterEndpoints(sp)) return { clusterEndpoints, localEndpoints, allReachableEndpoints: localEndpoints, hasAnyEndpoints };
	const merged = new Map<string, EndpointInfo>();
	for (const ep of [...clusterEndpoints, ...localEndpoints]) merged.set(endpointString(ep), ep);
	const allReachableEndpoints = [...merged.values()].sort((a, b) => (endpointString(a) < endpointString(b) ? -1 : 1));
	return { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints };
}

/** Which of a service port's chains its traffic goes through, given where its endpoints are. */
interface PolicyRouting {
	/** The Cluster-policy chain is written (a Cluster internal policy, or an external one on an externally reachable port). */
	usesClusterPolicyChain: boolean;
	/** The Local-policy chain is written. */
	usesLocalPolicyChain: boolean;
	/** Where traffic to the cluster IP goes: the Cluster or the Local chain, as internalTrafficPolicy says. */
	internalTrafficChain: string;
	/** Traffic to the cluster IP has somewhere to go (a Local policy with no local endpoint has not). */
	hasInternalEndpoints: boolean;
	/** Where the external chain sends traffic: the Cluster or the Local chain, as externalTrafficPolicy says. */
	externalPolicyChain: string;
	hasExternalEndpoints: boolean;
	/** The external chain (NodePorts, external IPs, load balancers) is written. */
	usesExternalTrafficChain: boolean;
}

/**
 * The part of syncProxyRules both the iptables and the nftables proxier
 * share: from the categorized endpoints and the two traffic policies, which
 * chains exist and where internal and external traffic is sent. `chains`
 * names the port's Cluster and Local chains in the proxier's own spelling.
 */
export function policyRouting(sp: ServicePortInfo, endpoints: CategorizedEndpoints, chains: { cluster: string; local: string }): PolicyRouting {
	const { clusterEndpoints, localEndpoints, hasAnyEndpoints } = endpoints;
	const external = externallyAccessible(sp);
	const noLocal = localEndpoints.length === 0;
	return {
		usesClusterPolicyChain: clusterEndpoints.length > 0 && (!sp.internalPolicyLocal || (external && !sp.externalPolicyLocal)),
		usesLocalPolicyChain: localEndpoints.length > 0 && (sp.internalPolicyLocal || (sp.externalPolicyLocal && external)),
		internalTrafficChain: sp.internalPolicyLocal ? chains.local : chains.cluster,
		hasInternalEndpoints: hasAnyEndpoints && !(sp.internalPolicyLocal && noLocal),
		externalPolicyChain: sp.externalPolicyLocal ? chains.local : chains.cluster,
		hasExternalEndpoints: hasAnyEndpoints && !(sp.externalPolicyLocal && noLocal),
		usesExternalTrafficChain: hasAnyEndpoints && external,
	};
}
