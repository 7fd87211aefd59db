/**
 * `kubectl describe` for services, endpoints, endpointslices, ingresses,
 * ingress classes, network policies, ServiceCIDRs and IPAddresses (the
 * Service IP ranges and the allocations the API server keeps in them). A service's `Endpoints:` line comes from its
 * EndpointSlices (the ready addresses of each port, at most three); so does
 * each backend of an ingress rule, `web:80 (10.244.1.2:80)`, or the error
 * reading its Service. Without an ingress controller an Ingress has no
 * Address, as on a cluster without one.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (describeService, buildIngressString, formatEndpointSlices,
 * describeEndpoints, describeEndpointSliceV1, describeIngressV1,
 * describeBackendV1, serviceBackendStringer, describeIngressTLSV1,
 * ingressLoadBalancerStatusStringerV1, describeIngressClassV1,
 * describeNetworkPolicy, describeNetworkPolicySpec,
 * printNetworkPolicySpecIngressFrom, printNetworkPolicySpecEgressTo,
 * describeServiceCIDRV1, describeIPAddressV1).
 */
import type { EndpointSlice, Endpoints, KubeList, KubeObject, Service } from '../../api/types.ts';
import { formatLabelSelector, formatLabels } from '../../api/labels.ts';
import { R } from '../../client/client.ts';
import { joinHostPort } from '../printers/table-services.ts';
import { LEVEL_0, LEVEL_1, LEVEL_2, LEVEL_3, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printLabelsMultiline, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeEvents, eventsFor } from './events.ts';

/** discoveryv1.LabelServiceName: the label tying an EndpointSlice to its Service. */
const LABEL_SERVICE_NAME = 'kubernetes.io/service-name';

/** formatEndpointSlices: ready endpoints of the named port (all ports when `ports` is undefined), `ip:port`, at most three. */
function formatEndpointSlices(slices: readonly EndpointSlice[], ports?: ReadonlySet<string>): string {
	if (slices.length === 0) return '<none>';
	const list: string[] = [];
	// describe.go formatEndpointSlices: at most three addresses are listed.
	const max = 3;
	let more = false;
	let count = 0;
	// A nil ready condition means unknown, which consumers read as ready.
	const isReady = (e: EndpointSlice['endpoints'][number]) => e.conditions?.ready === undefined || e.conditions.ready === true;
	for (const slice of slices) {
		if (!slice.ports?.length) {
			// A headless service's slices may have no ports.
			for (const endpoint of slice.endpoints ?? []) {
				if (list.length === max) more = true;
				if (!isReady(endpoint)) continue;
				if (!more) list.push(endpoint.addresses[0]);
				count++;
			}
			continue;
		}
		for (const port of slice.ports) {
			if (ports && !ports.has(port.name ?? '')) continue;
			for (const endpoint of slice.endpoints ?? []) {
				if (list.length === max) more = true;
				if (!isReady(endpoint)) continue;
				if (!more) list.push(joinHostPort(endpoint.addresses[0], port.port ?? 0));
				count++;
			}
		}
	}
	const text = list.join(',');
	return more ? `${text} + ${count - max} more...` : text;
}

/** buildIngressString: each ingress IP (with its IP mode) or hostname, comma-separated. */
function ingressString(ingress: Array<{ ip?: string; hostname?: string; ipMode?: string }>): string {
	return ingress.map((i) => (i.ip ? (i.ipMode ? `${i.ip} (${i.ipMode})` : i.ip) : (i.hostname ?? ''))).join(', ');
}

/** describeService. */
export function describeService(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const svc = obj as Service;
	const spec = svc.spec ?? {};
	const listed = ctx.client.list<EndpointSlice>(R.endpointslices, svc.metadata.namespace, { labelSelector: `${LABEL_SERVICE_NAME}=${svc.metadata.name ?? ''}` });
	const slices = listed.ok ? ((listed.object as KubeList<EndpointSlice>).items ?? []) : [];
	const events = eventsFor(svc, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${svc.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${svc.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', svc.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', svc.metadata.annotations);
	w.write(LEVEL_0, `Selector:\t${formatLabels(spec.selector)}\n`);
	w.write(LEVEL_0, `Type:\t${spec.type ?? ''}\n`);
	if (spec.ipFamilyPolicy) w.write(LEVEL_0, `IP Family Policy:\t${spec.ipFamilyPolicy}\n`);
	w.write(LEVEL_0, `IP Families:\t${spec.ipFamilies?.length ? spec.ipFamilies.join(',') : '<none>'}\n`);
	w.write(LEVEL_0, `IP:\t${spec.clusterIP ?? ''}\n`);
	w.write(LEVEL_0, `IPs:\t${spec.clusterIPs?.length ? spec.clusterIPs.join(',') : '<none>'}\n`);
	if (spec.externalIPs?.length) w.write(LEVEL_0, `External IPs:\t${spec.externalIPs.join(',')}\n`);
	if (typeof spec.loadBalancerIP === 'string' && spec.loadBalancerIP) w.write(LEVEL_0, `Desired LoadBalancer IP:\t${spec.loadBalancerIP}\n`);
	if (spec.externalName) w.write(LEVEL_0, `External Name:\t${spec.externalName}\n`);
	const ingress = (svc.status?.loadBalancer?.ingress ?? []) as Array<{ ip?: string; hostname?: string; ipMode?: string }>;
	if (ingress.length) w.write(LEVEL_0, `LoadBalancer Ingress:\t${ingressString(ingress)}\n`);
	for (const sp of spec.ports ?? []) {
		const name = sp.name || '<unset>';
		const protocol = sp.protocol ?? '';
		w.write(LEVEL_0, `Port:\t${name}\t${sp.port}/${protocol}\n`);
		w.write(LEVEL_0, `TargetPort:\t${sp.targetPort ?? 0}/${protocol}\n`);
		if (sp.appProtocol) w.write(LEVEL_0, `AppProtocol:\t${sp.appProtocol}\n`);
		if (sp.nodePort) w.write(LEVEL_0, `NodePort:\t${name}\t${sp.nodePort}/${protocol}\n`);
		w.write(LEVEL_0, `Endpoints:\t${formatEndpointSlices(slices, new Set([sp.name ?? '']))}\n`);
	}
	w.write(LEVEL_0, `Session Affinity:\t${spec.sessionAffinity ?? ''}\n`);
	if (spec.externalTrafficPolicy) w.write(LEVEL_0, `External Traffic Policy:\t${spec.externalTrafficPolicy}\n`);
	if (spec.internalTrafficPolicy) w.write(LEVEL_0, `Internal Traffic Policy:\t${spec.internalTrafficPolicy}\n`);
	if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort) w.write(LEVEL_0, `HealthCheck NodePort:\t${spec.healthCheckNodePort}\n`);
	const sourceRanges = spec.loadBalancerSourceRanges as string[] | undefined;
	if (sourceRanges?.length) w.write(LEVEL_0, `LoadBalancer Source Ranges:\t${sourceRanges.join(',')}\n`);
	if (typeof spec.trafficDistribution === 'string') w.write(LEVEL_0, `Traffic Distribution:\t${spec.trafficDistribution}\n`);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeEndpoints: each subset's ready and not-ready addresses and its ports. */
export function describeEndpoints(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const ep = obj as Endpoints;
	const events = eventsFor(ep, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${ep.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${ep.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', ep.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', ep.metadata.annotations);
	w.write(LEVEL_0, 'Subsets:\n');
	for (const subset of ep.subsets ?? []) {
		w.write(LEVEL_1, `Addresses:\t${(subset.addresses ?? []).map((a) => a.ip).join(',') || '<none>'}\n`);
		w.write(LEVEL_1, `NotReadyAddresses:\t${(subset.notReadyAddresses ?? []).map((a) => a.ip).join(',') || '<none>'}\n`);
		if (subset.ports?.length) {
			w.write(LEVEL_1, 'Ports:\n');
			w.write(LEVEL_2, 'Name\tPort\tProtocol\n');
			w.write(LEVEL_2, '----\t----\t--------\n');
			for (const port of subset.ports) w.write(LEVEL_2, `${port.name || '<unset>'}\t${port.port}\t${port.protocol ?? ''}\n`);
		}
		w.write(LEVEL_0, '\n');
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeEndpointSliceV1. */
export function describeEndpointSlice(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const slice = obj as EndpointSlice;
	const events = eventsFor(slice, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${slice.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${slice.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', slice.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', slice.metadata.annotations);
	w.write(LEVEL_0, `AddressType:\t${slice.addressType ?? ''}\n`);
	if (!slice.ports?.length) w.write(LEVEL_0, 'Ports: <unset>\n');
	else {
		w.write(LEVEL_0, 'Ports:\n');
		w.write(LEVEL_1, 'Name\tPort\tProtocol\n');
		w.write(LEVEL_1, '----\t----\t--------\n');
		for (const port of slice.ports) w.write(LEVEL_1, `${port.name || '<unset>'}\t${port.port ?? '<unset>'}\t${port.protocol ?? ''}\n`);
	}
	if (!slice.endpoints?.length) w.write(LEVEL_0, 'Endpoints: <none>\n');
	else {
		w.write(LEVEL_0, 'Endpoints:\n');
		for (const endpoint of slice.endpoints) {
			w.write(LEVEL_1, `- Addresses:\t${endpoint.addresses.join(', ') || '<none>'}\n`);
			w.write(LEVEL_2, 'Conditions:\n');
			w.write(LEVEL_3, `Ready:\t${endpoint.conditions?.ready === undefined ? '<unset>' : String(endpoint.conditions.ready)}\n`);
			const hostname = (endpoint as { hostname?: string }).hostname;
			w.write(LEVEL_2, `Hostname:\t${hostname ?? '<unset>'}\n`);
			const ref = endpoint.targetRef as { kind?: string; name?: string } | undefined;
			if (ref) w.write(LEVEL_2, `TargetRef:\t${ref.kind ?? ''}/${ref.name ?? ''}\n`);
			w.write(LEVEL_2, `NodeName:\t${endpoint.nodeName ?? '<unset>'}\n`);
			w.write(LEVEL_2, `Zone:\t${endpoint.zone ?? '<unset>'}\n`);
		}
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

interface IngressBackend {
	service?: { name?: string; port?: { number?: number; name?: string } };
	resource?: { apiGroup?: string; kind?: string; name?: string };
}

/** describeBackendV1: `svc:port (endpoints)`, the error reading the Service, or a resource backend. */
function describeBackend(ctx: DescribeContext, namespace: string | undefined, backend: IngressBackend): string {
	if (backend.service) {
		const port = backend.service.port?.number ? String(backend.service.port.number) : (backend.service.port?.name ?? '');
		const name = backend.service.name ?? '';
		const sb = `${name}:${port}`;
		const listed = ctx.client.list<EndpointSlice>(R.endpointslices, namespace, { labelSelector: `${LABEL_SERVICE_NAME}=${name}` });
		if (!listed.ok) return `${sb} (<error: ${listed.message}>)`;
		const got = ctx.client.get<Service>(R.services, namespace, name);
		if (!got.ok) return `${sb} (<error: ${got.message}>)`;
		let spName = '';
		for (const sp of got.object.spec?.ports ?? []) {
			if (backend.service.port?.number && backend.service.port.number === sp.port) spName = sp.name ?? '';
			else if (backend.service.port?.name && backend.service.port.name === sp.name) spName = sp.name ?? '';
		}
		return `${sb} (${formatEndpointSlices((listed.object as KubeList<EndpointSlice>).items ?? [], new Set([spName]))})`;
	}
	if (backend.resource) return `APIGroup: ${backend.resource.apiGroup ?? '<none>'}, Kind: ${backend.resource.kind ?? ''}, Name: ${backend.resource.name ?? ''}`;
	return '';
}

/** describeIngressV1. */
export function describeIngress(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as { ingressClassName?: string; defaultBackend?: IngressBackend; tls?: Array<{ hosts?: string[]; secretName?: string }>; rules?: Array<{ host?: string; http?: { paths?: Array<{ path?: string; backend: IngressBackend }> } }> };
	const lb = ((obj.status ?? {}) as { loadBalancer?: { ingress?: Array<{ ip?: string; hostname?: string }> } }).loadBalancer?.ingress ?? [];
	const namespace = obj.metadata.namespace;
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	w.write(LEVEL_0, `Namespace:\t${namespace ?? ''}\n`);
	// ingressLoadBalancerStatusStringerV1 (wide): every IP or hostname, comma-separated; nothing until a controller writes one.
	w.write(LEVEL_0, `Address:\t${lb.map((i) => i.ip || i.hostname || '').join(',')}\n`);
	w.write(LEVEL_0, `Ingress Class:\t${spec.ingressClassName ?? '<none>'}\n`);
	const defaultBackend = spec.defaultBackend ? describeBackend(ctx, namespace, spec.defaultBackend) : '<default>';
	w.write(LEVEL_0, `Default backend:\t${defaultBackend}\n`);
	if (spec.tls?.length) {
		w.write(LEVEL_0, 'TLS:\n');
		for (const t of spec.tls) w.write(LEVEL_1, t.secretName ? `${t.secretName} terminates ${(t.hosts ?? []).join(',')}\n` : `SNI routes ${(t.hosts ?? []).join(',')}\n`);
	}
	w.write(LEVEL_0, 'Rules:\n  Host\tPath\tBackends\n');
	w.write(LEVEL_1, '----\t----\t--------\n');
	let count = 0;
	for (const rule of spec.rules ?? []) {
		if (!rule.http) continue;
		count++;
		w.write(LEVEL_1, `${rule.host || '*'}\t\n`);
		for (const path of rule.http.paths ?? []) w.write(LEVEL_2, `\t${path.path ?? ''} \t${describeBackend(ctx, namespace, path.backend)}\n`);
	}
	if (count === 0) w.write(LEVEL_1, `*\t*\t${defaultBackend}\n`);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeIngressClassV1. */
export function describeIngressClass(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as { controller?: string; parameters?: { apiGroup?: string; kind?: string; name?: string } };
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `Controller:\t${spec.controller ?? ''}\n`);
	if (spec.parameters) {
		w.write(LEVEL_0, 'Parameters:\n');
		if (spec.parameters.apiGroup !== undefined) w.write(LEVEL_1, `APIGroup:\t${spec.parameters.apiGroup}\n`);
		w.write(LEVEL_1, `Kind:\t${spec.parameters.kind ?? ''}\n`);
		w.write(LEVEL_1, `Name:\t${spec.parameters.name ?? ''}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

interface PolicyPeer {
	podSelector?: Parameters<typeof formatLabelSelector>[0];
	namespaceSelector?: Parameters<typeof formatLabelSelector>[0];
	ipBlock?: { cidr?: string; except?: string[] };
}

interface PolicyRule {
	ports?: Array<{ protocol?: string; port?: number | string; endPort?: number }>;
	from?: PolicyPeer[];
	to?: PolicyPeer[];
}

/** printNetworkPolicySpecIngressFrom / printNetworkPolicySpecEgressTo: the rules of one direction, or why the Pods are isolated. */
function printPolicyRules(w: PrefixWriter, rules: readonly PolicyRule[] | undefined, direction: 'ingress' | 'egress'): void {
	const indent = '    ';
	const peersKey = direction === 'ingress' ? 'from' : 'to';
	const peerTitle = direction === 'ingress' ? 'From' : 'To';
	if (!rules?.length) {
		w.write(LEVEL_0, `${indent}<none> (Selected pods are isolated for ${direction} connectivity)\n`);
		return;
	}
	rules.forEach((rule, i) => {
		if (!rule.ports?.length) w.write(LEVEL_0, `${indent}To Port: <any> (traffic allowed to all ports)\n`);
		for (const port of rule.ports ?? []) {
			const proto = port.protocol ?? 'TCP';
			// %s of a nil *IntOrString prints <nil>.
			const value = port.port === undefined ? '<nil>' : String(port.port);
			if (port.endPort === undefined) w.write(LEVEL_0, `${indent}To Port: ${value}/${proto}\n`);
			else w.write(LEVEL_0, `${indent}To Port Range: ${value}-${port.endPort}/${proto}\n`);
		}
		const peers = rule[peersKey] ?? [];
		if (peers.length === 0) w.write(LEVEL_0, `${indent}${peerTitle}: <any> (traffic not restricted by ${direction === 'ingress' ? 'source' : 'destination'})\n`);
		for (const peer of peers) {
			w.write(LEVEL_0, `${indent}${peerTitle}:\n`);
			if (peer.podSelector && peer.namespaceSelector) {
				w.write(LEVEL_1, `${indent}NamespaceSelector: ${formatLabelSelector(peer.namespaceSelector)}\n`);
				w.write(LEVEL_1, `${indent}PodSelector: ${formatLabelSelector(peer.podSelector)}\n`);
			} else if (peer.podSelector) w.write(LEVEL_1, `${indent}PodSelector: ${formatLabelSelector(peer.podSelector)}\n`);
			else if (peer.namespaceSelector) w.write(LEVEL_1, `${indent}NamespaceSelector: ${formatLabelSelector(peer.namespaceSelector)}\n`);
			else if (peer.ipBlock) {
				w.write(LEVEL_1, `${indent}IPBlock:\n`);
				w.write(LEVEL_2, `${indent}CIDR: ${peer.ipBlock.cidr ?? ''}\n`);
				w.write(LEVEL_2, `${indent}Except: ${(peer.ipBlock.except ?? []).join(', ')}\n`);
			}
		}
		if (i !== rules.length - 1) w.write(LEVEL_0, `${indent}----------\n`);
	});
}

/** time.Time's String of a timestamp without a monotonic reading: `2026-11-30 08:00:31 +0000 UTC`. */
function goTime(timestamp: string | undefined): string {
	const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})/.exec(timestamp ?? '');
	return m ? `${m[1]} ${m[2]} +0000 UTC` : '0001-01-01 00:00:00 +0000 UTC';
}

/** describeNetworkPolicy: the Pods it selects, then each direction's rules, or that it leaves the direction alone. */
export function describeNetworkPolicy(obj: KubeObject): DescribeResult {
	const spec = (obj.spec ?? {}) as { podSelector?: { matchLabels?: Record<string, string>; matchExpressions?: unknown[] }; policyTypes?: string[]; ingress?: PolicyRule[]; egress?: PolicyRule[] };
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `Created on:\t${goTime(obj.metadata.creationTimestamp)}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, 'Spec:\n');
	w.write(LEVEL_1, 'PodSelector: ');
	const selector = spec.podSelector ?? {};
	if (!Object.keys(selector.matchLabels ?? {}).length && !(selector.matchExpressions ?? []).length) w.write(LEVEL_2, '<none> (Allowing the specific traffic to all pods in this namespace)\n');
	else w.write(LEVEL_2, `${formatLabelSelector(selector as Parameters<typeof formatLabelSelector>[0])}\n`);
	const types = spec.policyTypes ?? [];
	if (types.includes('Ingress')) {
		w.write(LEVEL_1, 'Allowing ingress traffic:\n');
		printPolicyRules(w, spec.ingress, 'ingress');
	} else w.write(LEVEL_1, 'Not affecting ingress traffic\n');
	if (types.includes('Egress')) {
		w.write(LEVEL_1, 'Allowing egress traffic:\n');
		printPolicyRules(w, spec.egress, 'egress');
	} else w.write(LEVEL_1, 'Not affecting egress traffic\n');
	// policyTypesToString: the types joined by ", " (upstream's %v of that string).
	w.write(LEVEL_1, `Policy Types: ${types.join(', ')}\n`);
	return { ok: true, text: w.toString() };
}

/** describeServiceCIDRV1: its ranges and conditions. */
export function describeServiceCidr(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as { cidrs?: string[] };
	const conditions = ((obj.status ?? {}) as { conditions?: Array<{ type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string }> }).conditions ?? [];
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `CIDRs:\t${(spec.cidrs ?? []).join(', ')}\n`);
	if (conditions.length) {
		w.write(LEVEL_0, 'Status:\n');
		w.write(LEVEL_0, 'Conditions:\n');
		w.write(LEVEL_1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
		w.write(LEVEL_1, '----\t------\t------------------\t------\t-------\n');
		for (const c of conditions) w.write(LEVEL_1, `${c.type ?? ''}\t${c.status ?? ''}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeIPAddressV1: the object the address is allocated to. */
export function describeIpAddress(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const parent = ((obj.spec ?? {}) as { parentRef?: { group?: string; resource?: string; namespace?: string; name?: string } }).parentRef;
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	if (parent) {
		w.write(LEVEL_0, 'Parent Reference:\n');
		w.write(LEVEL_1, `Group:\t${parent.group ?? ''}\n`);
		w.write(LEVEL_1, `Resource:\t${parent.resource ?? ''}\n`);
		w.write(LEVEL_1, `Namespace:\t${parent.namespace ?? ''}\n`);
		w.write(LEVEL_1, `Name:\t${parent.name ?? ''}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
