/**
 * Rows of the service plumbing in `kubectl get`: services, endpoints and
 * endpointslices, as the API server prints them (printService with
 * getServiceExternalIP and makePortString, printEndpoints with
 * formatEndpoints, printEndpointSlice).
 *
 * The API server prints every row with GenerateOptions{Wide: true}, so a
 * LoadBalancer's EXTERNAL-IP is never cut to 16 characters in the default
 * (server-side) table; the cut only exists in client-side printing.
 *
 * Mirrors pkg/printers/internalversion/printers.go (printService,
 * getServiceExternalIP, makePortString, printEndpoints, formatEndpoints,
 * printEndpointSlice).
 */
import type { EndpointSlice, Endpoints, KubeObject, Service } from '../../api/types.ts';
import { formatLabels } from '../../api/labels.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { columns, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

/** printers.go loadBalancerWidth: where client-side printing cuts a load balancer's addresses. */
const LOAD_BALANCER_WIDTH = 16;

/** net.JoinHostPort: IPv6 hosts in brackets. */
export function joinHostPort(host: string, port: number | string): string {
	return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** loadBalancerStatusStringer: the distinct ingress IPs (or hostnames), sorted and comma-joined; cut with `...` outside wide output. */
function loadBalancerStatusString(service: Service, wide: boolean): string {
	const set = new Set<string>();
	for (const ingress of service.status?.loadBalancer?.ingress ?? []) {
		if (ingress.ip) set.add(ingress.ip);
		else if (ingress.hostname) set.add(ingress.hostname);
	}
	const text = [...set].sort(compareGoStrings).join(',');
	return !wide && text.length > LOAD_BALANCER_WIDTH ? `${text.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : text;
}

/** getServiceExternalIP: `<none>`, `<pending>`, the load balancer's and external IPs, or the ExternalName. */
function serviceExternalIP(service: Service, wide: boolean): string {
	const externalIPs = service.spec?.externalIPs ?? [];
	switch (service.spec?.type) {
		case 'ClusterIP':
		case 'NodePort':
			return externalIPs.length ? externalIPs.join(',') : '<none>';
		case 'LoadBalancer': {
			const lbIps = loadBalancerStatusString(service, wide);
			if (externalIPs.length) return [...(lbIps ? lbIps.split(',') : []), ...externalIPs].join(',');
			return lbIps || '<pending>';
		}
		case 'ExternalName':
			return service.spec.externalName ?? '';
	}
	return '<unknown>';
}

/** makePortString: `80/TCP`, `80:30080/TCP` with a node port, comma-joined. */
function servicePortString(service: Service): string {
	return (service.spec?.ports ?? []).map((p) => (p.nodePort ? `${p.port}:${p.nodePort}/${p.protocol ?? ''}` : `${p.port}/${p.protocol ?? ''}`)).join(',');
}

/** `kubectl get svc`: NAME TYPE CLUSTER-IP EXTERNAL-IP PORT(S) AGE, wide: SELECTOR. */
export const SERVICE_TABLE: TableDefinition = {
	columns: columns('Name', 'Type', 'Cluster-IP', 'External-IP', 'Port(s)', 'Age', 'Selector*'),
	row(obj, ctx) {
		const svc = obj as Service;
		const clusterIP = svc.spec?.clusterIPs?.[0] ?? '<none>';
		return [svc.metadata.name ?? '', svc.spec?.type ?? '', clusterIP, serviceExternalIP(svc, true), servicePortString(svc) || '<none>', age(svc, ctx), formatLabels(svc.spec?.selector)];
	},
};

/** formatEndpoints: the first three `ip:port` pairs (bare IPs for port-less subsets), then ` + N more...`; `<none>` without subsets. */
function formatEndpoints(endpoints: Endpoints, ports?: ReadonlySet<string>): string {
	const subsets = endpoints.subsets ?? [];
	if (subsets.length === 0) return '<none>';
	const list: string[] = [];
	// printers.go formatEndpoints: at most three addresses are listed.
	const max = 3;
	let more = false;
	let count = 0;
	for (const ss of subsets) {
		const addresses = ss.addresses ?? [];
		if (!ss.ports?.length) {
			// A headless service's endpoints may have no ports.
			count += addresses.length;
			for (const addr of addresses) {
				if (list.length === max) {
					more = true;
					break;
				}
				list.push(addr.ip);
			}
			continue;
		}
		for (const port of ss.ports) {
			if (ports && !ports.has(port.name ?? '')) continue;
			count += addresses.length;
			for (const addr of addresses) {
				if (list.length === max) {
					more = true;
					break;
				}
				list.push(joinHostPort(addr.ip, port.port));
			}
		}
	}
	const text = list.join(',');
	return more ? `${text} + ${count - max} more...` : text;
}

/** `kubectl get endpoints`: NAME ENDPOINTS AGE. */
export const ENDPOINTS_TABLE: TableDefinition = {
	columns: columns('Name', 'Endpoints', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', formatEndpoints(obj as Endpoints), age(obj, ctx)],
};

/** listWithMoreString: the list, ` + N more...` past three, `<unset>` when empty. */
function listWithMore(list: string[], more: boolean, count: number, max: number): string {
	const text = list.join(',');
	if (more) return `${text} + ${count - max} more...`;
	return text || '<unset>';
}

/** formatDiscoveryPorts: port numbers (or names, or `*`), at most three. */
function formatDiscoveryPorts(slice: EndpointSlice): string {
	const list: string[] = [];
	// printers.go formatDiscoveryPorts: at most three ports are listed.
	const max = 3;
	let more = false;
	let count = 0;
	for (const port of slice.ports ?? []) {
		if (list.length < max) list.push(port.port !== undefined && port.port !== null ? String(port.port) : (port.name ?? '*'));
		else if (list.length === max) more = true;
		count++;
	}
	return listWithMore(list, more, count, max);
}

/** formatDiscoveryEndpoints: every endpoint's addresses, at most three. */
function formatDiscoveryEndpoints(slice: EndpointSlice): string {
	const list: string[] = [];
	// printers.go formatDiscoveryEndpoints: at most three addresses are listed.
	const max = 3;
	let more = false;
	let count = 0;
	for (const endpoint of slice.endpoints ?? []) {
		for (const address of endpoint.addresses ?? []) {
			if (list.length < max) list.push(address);
			else if (list.length === max) more = true;
			count++;
		}
	}
	return listWithMore(list, more, count, max);
}

/** `kubectl get endpointslices`: NAME ADDRESSTYPE PORTS ENDPOINTS AGE. */
export const ENDPOINTSLICE_TABLE: TableDefinition = {
	columns: columns('Name', 'AddressType', 'Ports', 'Endpoints', 'Age'),
	row(obj, ctx) {
		const slice = obj as EndpointSlice;
		return [slice.metadata.name ?? '', slice.addressType ?? '', formatDiscoveryPorts(slice), formatDiscoveryEndpoints(slice), age(slice, ctx)];
	},
};
