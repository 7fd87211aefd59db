/**
 * CoreDNS's kubernetes plugin: the records a cluster's Services,
 * EndpointSlices and Pods make, answered from what the plugin watches.
 *
 * - `<service>.<namespace>.svc.<zone>`: A records for a Service's cluster
 *   IPs; for a headless Service one A record per ready endpoint (every
 *   endpoint when it publishes not-ready addresses); a CNAME for an
 *   ExternalName Service.
 * - `<endpoint>.<service>.<namespace>.svc.<zone>`: one endpoint of a
 *   headless Service, by its hostname or its address with dashes.
 * - `_<port>._<proto>.<service>.<namespace>.svc.<zone>` (or the bare
 *   Service name): SRV records for its named ports, with the A records of
 *   their targets as additional records.
 * - `<a-b-c-d>.<namespace>.pod.<zone>`: an A record for a Pod address when
 *   `pods insecure` (any address) or `pods verified` (a Pod with that
 *   address in that namespace) is configured.
 * - `<d.c.b.a>.in-addr.arpa`: PTR records for cluster IPs and endpoint
 *   addresses.
 *
 * A name it cannot answer is NXDOMAIN unless the name exists with other
 * types (NODATA: NOERROR with the zone's SOA in the authority section),
 * or `fallthrough` hands it to the next plugin.
 *
 * Mirrors coredns/coredns plugin/kubernetes/parse.go (the name layout),
 * coredns/coredns plugin/kubernetes/kubernetes.go (Records, findServices,
 * findPods), coredns/coredns plugin/kubernetes/reverse.go,
 * coredns/coredns plugin/backend_lookup.go (SRV weights, the SOA).
 */
import type { KubernetesOptions } from './corefile.ts';
import type { DnsReply, ResourceRecord, RRType } from './message.ts';

/** What the plugin's informers hold, reduced to what it answers from. */
export interface ClusterView {
	namespaces: readonly string[];
	services: ReadonlyArray<{
		name: string;
		namespace: string;
		type: string;
		/** Cluster IPs; empty (or `None`) for a headless Service. */
		clusterIPs: readonly string[];
		externalName?: string;
		publishNotReadyAddresses?: boolean;
		ports: ReadonlyArray<{ name?: string; port: number; protocol: string }>;
	}>;
	/** EndpointSlice endpoints, flattened: one per address. */
	endpoints: ReadonlyArray<{ service: string; namespace: string; ip: string; hostname?: string; ready: boolean; ports: ReadonlyArray<{ name?: string; port: number; protocol: string }> }>;
	pods: ReadonlyArray<{ namespace: string; ip: string }>;
	/** The SOA serial: when the plugin last saw a change (Unix seconds). */
	serial: number;
}

/** What the plugin answers: a reply, or `fallthrough` to the next plugin. */
export type PluginAnswer = { kind: 'reply'; reply: DnsReply } | { kind: 'fallthrough' };

const dashed = (ip: string) => ip.replace(/\./g, '-');

/** The zone's SOA record (backend_lookup.go SOA: ns.dns.<zone>, hostmaster.<zone>, refresh 7200, retry 1800, expire 86400, minttl = ttl). */
function soa(zone: string, ttl: number, serial: number): ResourceRecord {
	return { name: zone, type: 'SOA', ttl, data: `ns.dns.${zone} hostmaster.${zone} ${serial} 7200 1800 86400 ${ttl}` };
}

function reply(rcode: DnsReply['rcode'], answer: ResourceRecord[], authority: ResourceRecord[] = [], additional: ResourceRecord[] = []): PluginAnswer {
	return { kind: 'reply', reply: { rcode, aa: true, ra: false, answer, authority, additional } };
}

/** The reversed octets of an in-addr.arpa name as an address, or undefined. */
function reverseAddress(name: string): string | undefined {
	const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\.in-addr\.arpa\.$/.exec(name);
	return m ? `${m[4]}.${m[3]}.${m[2]}.${m[1]}` : undefined;
}

/** Answers `name` (fully qualified, lower case) of type `type` in `zone`. */
export function kubernetesAnswer(options: KubernetesOptions, zone: string, name: string, type: RRType, view: ClusterView): PluginAnswer {
	const ttl = options.ttl;
	const mayFallThrough = options.fallthrough !== undefined && (options.fallthrough.length === 0 || options.fallthrough.some((z) => name === z || name.endsWith(`.${z}`) || z === '.'));
	const miss = (exists: boolean): PluginAnswer => {
		if (!exists && mayFallThrough) return { kind: 'fallthrough' };
		return reply(exists ? 'NOERROR' : 'NXDOMAIN', [], [soa(zone, ttl, view.serial)]);
	};
	const exposed = (ns: string) => options.namespaces.length === 0 || options.namespaces.includes(ns);

	if (zone.endsWith('in-addr.arpa.') || zone.endsWith('ip6.arpa.')) {
		const ip = reverseAddress(name);
		if (!ip || (type !== 'PTR' && type !== 'ANY')) return miss(false);
		// Reverse names point into the plugin's forward zone.
		const clusterZone = options.zones.find((z) => !z.endsWith('arpa.')) ?? 'cluster.local.';
		const svc = view.services.find((s) => exposed(s.namespace) && s.clusterIPs.includes(ip));
		if (svc) return reply('NOERROR', [{ name, type: 'PTR', ttl, data: `${svc.name}.${svc.namespace}.svc.${clusterZone}` }]);
		const eps = view.endpoints.filter((e) => exposed(e.namespace) && e.ip === ip);
		if (eps.length) return reply('NOERROR', eps.map((e) => ({ name, type: 'PTR' as const, ttl, data: `${e.hostname ?? dashed(e.ip)}.${e.service}.${e.namespace}.svc.${clusterZone}` })));
		return miss(false);
	}

	const rel = name === zone ? '' : name.slice(0, -(zone.length + 1));
	const labels = rel === '' ? [] : rel.split('.');
	if (labels.length === 0) {
		// The zone apex: its SOA and NS.
		if (type === 'SOA') return reply('NOERROR', [soa(zone, ttl, view.serial)]);
		if (type === 'NS') return reply('NOERROR', [{ name: zone, type: 'NS', ttl, data: `ns.dns.${zone}` }]);
		return miss(true);
	}
	const kind = labels.at(-1);
	if (kind === 'pod') {
		if (labels.length === 1) return miss(true);
		const namespace = labels.at(-2)!;
		if (labels.length === 2) return miss(view.namespaces.includes(namespace));
		if (labels.length !== 3 || options.pods === 'disabled') return miss(false);
		const ip = labels[0].replace(/-/g, '.');
		if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return miss(false);
		if (options.pods === 'verified' && !view.pods.some((p) => p.namespace === namespace && p.ip === ip)) return miss(false);
		if (type === 'A' || type === 'ANY') return reply('NOERROR', [{ name, type: 'A', ttl, data: ip }]);
		return miss(true);
	}
	if (kind !== 'svc') return miss(false);
	if (labels.length === 1) return miss(true);
	const namespace = labels.at(-2)!;
	if (labels.length === 2) return miss(view.namespaces.includes(namespace) && exposed(namespace));
	if (!exposed(namespace)) return miss(false);
	const serviceName = labels.at(-3)!;
	const svc = view.services.find((s) => s.namespace === namespace && s.name === serviceName);
	if (!svc) return miss(false);
	const serviceFqdn = `${svc.name}.${svc.namespace}.svc.${zone}`;
	const headless = svc.clusterIPs.length === 0 || svc.clusterIPs[0] === 'None';
	const endpoints = view.endpoints.filter((e) => e.namespace === namespace && e.service === serviceName && (e.ready || svc.publishNotReadyAddresses));
	const endpointName = (e: { ip: string; hostname?: string }) => `${e.hostname ?? dashed(e.ip)}.${serviceFqdn}`;
	const extra = labels.slice(0, -3);

	if (extra.length === 2 && extra[0].startsWith('_') && extra[1].startsWith('_')) {
		// _port._proto.service: SRV records for that named port.
		const portName = extra[0].slice(1);
		const proto = extra[1].slice(1).toUpperCase();
		if (svc.type === 'ExternalName') return miss(false);
		const ports = svc.ports.filter((p) => p.name === portName && p.protocol === proto);
		if (ports.length === 0) return miss(false);
		if (type !== 'SRV' && type !== 'ANY') return miss(true);
		return srvReply(name, ports, headless ? endpoints : undefined, serviceFqdn, svc.clusterIPs, endpointName, ttl);
	}
	if (extra.length === 1) {
		// One endpoint of a headless Service.
		if (!headless) return miss(false);
		const matches = endpoints.filter((e) => (e.hostname ?? dashed(e.ip)) === extra[0]);
		if (matches.length === 0) return miss(false);
		if (type === 'A' || type === 'ANY') return reply('NOERROR', matches.map((e) => ({ name, type: 'A' as const, ttl, data: e.ip })));
		return miss(true);
	}
	if (extra.length > 0) return miss(false);

	if (svc.type === 'ExternalName') {
		if (!svc.externalName) return miss(false);
		return reply('NOERROR', [{ name, type: 'CNAME', ttl, data: `${svc.externalName.replace(/\.$/, '')}.` }]);
	}
	if (type === 'SRV') {
		const named = svc.ports.filter((p) => p.name);
		if (named.length === 0 && svc.ports.length === 0) return miss(true);
		return srvReply(name, svc.ports, headless ? endpoints : undefined, serviceFqdn, svc.clusterIPs, endpointName, ttl);
	}
	if (type === 'A' || type === 'ANY') {
		if (headless) {
			// A headless Service without ready endpoints has no records at all.
			if (endpoints.length === 0) return miss(false);
			return reply('NOERROR', endpoints.map((e) => ({ name, type: 'A' as const, ttl, data: e.ip })));
		}
		return reply('NOERROR', svc.clusterIPs.filter((ip) => ip.includes('.')).map((ip) => ({ name, type: 'A' as const, ttl, data: ip })));
	}
	return miss(true);
}

/** SRV records: priority 0, the weight shared out among the records (100 / count), and the targets' A records as additional data. */
function srvReply(
	name: string,
	ports: ReadonlyArray<{ name?: string; port: number; protocol: string }>,
	endpoints: ReadonlyArray<{ ip: string; hostname?: string }> | undefined,
	serviceFqdn: string,
	clusterIPs: readonly string[],
	endpointName: (e: { ip: string; hostname?: string }) => string,
	ttl: number,
): PluginAnswer {
	const answer: ResourceRecord[] = [];
	const additional: ResourceRecord[] = [];
	const targets = endpoints ? endpoints.map((e) => ({ target: endpointName(e), ip: e.ip })) : clusterIPs.filter((ip) => ip.includes('.')).map((ip) => ({ target: serviceFqdn, ip }));
	const count = targets.length * ports.length;
	if (count === 0) return { kind: 'reply', reply: { rcode: 'NXDOMAIN', aa: true, ra: false, answer: [], authority: [], additional: [] } };
	const weight = Math.floor(100 / count);
	for (const port of ports) {
		for (const t of targets) {
			answer.push({ name, type: 'SRV', ttl, data: `0 ${weight} ${port.port} ${t.target}` });
			if (!additional.some((a) => a.name === t.target && a.data === t.ip)) additional.push({ name: t.target, type: 'A', ttl, data: t.ip });
		}
	}
	return { kind: 'reply', reply: { rcode: 'NOERROR', aa: true, ra: false, answer, authority: [], additional } };
}
