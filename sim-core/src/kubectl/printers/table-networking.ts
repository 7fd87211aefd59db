/**
 * Rows of the networking.k8s.io resources in `kubectl get`: Ingresses,
 * IngressClasses, NetworkPolicies, IPAddresses and ServiceCIDRs, as the API
 * server prints them (its table convertor prints wide, so an Ingress's
 * address is never cut short).
 *
 * Mirrors pkg/printers/internalversion/printers.go (printIngress,
 * formatHosts, formatPorts, ingressLoadBalancerStatusStringer,
 * printIngressClass, printNetworkPolicy, printIPAddress, printServiceCIDR).
 */
import type { KubeObject } from '../../api/types.ts';
import { formatLabelSelector } from '../../api/labels.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { columns, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

type Fields = Record<string, unknown>;
const rec = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** formatHosts: the rules' hosts, at most three then `+ N more...`; `*` when none names a host. */
export function formatHosts(rules: unknown): string {
	const list: string[] = [];
	const max = 3;
	let more = false;
	const all = arr(rules);
	for (const rule of all) {
		if (list.length === max) more = true;
		const host = str(rec(rule).host);
		if (!more && host) list.push(host);
	}
	if (list.length === 0) return '*';
	const joined = list.join(',');
	return more ? `${joined} + ${all.length - max} more...` : joined;
}

/** The load balancer's IPs (else hostnames), distinct and sorted (sets.String), comma-joined. */
function ingressAddress(status: unknown): string {
	const seen = new Set<string>();
	for (const entry of arr(rec(rec(status).loadBalancer).ingress)) {
		const e = rec(entry);
		if (str(e.ip)) seen.add(str(e.ip));
		else if (str(e.hostname)) seen.add(str(e.hostname));
	}
	return [...seen].sort(compareGoStrings).join(',');
}

/** `kubectl get ing`: NAME CLASS HOSTS ADDRESS PORTS AGE. */
export const INGRESS_TABLE: TableDefinition = {
	columns: columns('Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const className = typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>';
		return [obj.metadata.name ?? '', className, formatHosts(spec.rules), ingressAddress(obj.status), arr(spec.tls).length ? '80, 443' : '80', age(obj, ctx)];
	},
};

/** `kubectl get ingressclasses`: NAME CONTROLLER PARAMETERS AGE, parameters as `Kind[.apiGroup]/name`. */
export const INGRESSCLASS_TABLE: TableDefinition = {
	columns: columns('Name', 'Controller', 'Parameters', 'Age'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		let params = '<none>';
		if (spec.parameters) {
			const p = rec(spec.parameters);
			params = str(p.kind);
			if (typeof p.apiGroup === 'string') params += `.${p.apiGroup}`;
			params += `/${str(p.name)}`;
		}
		return [obj.metadata.name ?? '', str(spec.controller), params, age(obj, ctx)];
	},
};

/** `kubectl get netpol`: NAME POD-SELECTOR AGE. */
export const NETWORKPOLICY_TABLE: TableDefinition = {
	columns: columns('Name', 'Pod-Selector', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', formatLabelSelector(rec(obj.spec).podSelector as Parameters<typeof formatLabelSelector>[0]), age(obj, ctx)],
};

/** `kubectl get ipaddresses`: NAME PARENTREF, the parent as `resource[.group]/[namespace/]name`. */
export const IPADDRESS_TABLE: TableDefinition = {
	columns: columns('Name', 'ParentRef'),
	row(obj) {
		const ref = rec(obj.spec).parentRef;
		let parent = '';
		if (ref) {
			const r = rec(ref);
			const group = str(r.group);
			parent = `${(group ? `${str(r.resource)}.${group}` : str(r.resource)).toLowerCase()}/`;
			if (str(r.namespace)) parent += `${str(r.namespace)}/`;
			parent += str(r.name);
		}
		return [obj.metadata.name ?? '', parent];
	},
};

/** `kubectl get servicecidrs`: NAME CIDRS AGE. */
export const SERVICECIDR_TABLE: TableDefinition = {
	columns: columns('Name', 'CIDRs', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', arr(rec(obj.spec).cidrs).map(str).join(','), age(obj, ctx)],
};
