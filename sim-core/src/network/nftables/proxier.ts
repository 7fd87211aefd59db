/**
 * kube-proxy's nftables proxier (GA since v1.33): everything lives in one
 * table, `ip kube-proxy` (and an empty twin `ip6 kube-proxy`, for the other
 * family of the dual-stack proxier). Instead of one rule per service in a
 * long chain, service dispatch is one verdict-map lookup:
 *
 *     ip daddr . meta l4proto . th dport vmap @service-ips
 *
 * whose elements (`10.96.0.10. udp. 53: goto service-...`) point at one
 * chain per service port, which picks an endpoint with `numgen random mod N
 * vmap { 0: goto endpoint-..., ... }`; the endpoint chain DNATs. Services
 * without endpoints are rejected through the `no-endpoint-services` map from
 * the filter chains; NodePorts answer only on the node's primary IP
 * (`nodeport-ips`, kube-proxy's default nodePortAddresses in this mode).
 *
 * The rules are kept in the normalized text `nft list` prints them in, so
 * the tools show them as they are and the dataplane routes by reading them.
 *
 * It has the layout v1.34 brought (filter chains before DNAT only on
 * prerouting and output, the rest at the filter priority; no port match in
 * the ClusterIP masquerade rule; unallocated ClusterIPs dropped).
 * Differences: map elements are listed in key order (the kernel's hash sets
 * list in bucket order); the masquerade mark is still set through the
 * `mark-for-masquerade` chain, which v1.36 began to inline.
 *
 * Mirrors pkg/proxy/nftables/proxier.go (setupNFTables, syncProxyRules,
 * writeServiceToEndpointRules, nftablesBaseChains, nftablesJumpChains,
 * nftElementStorage).
 */
import { nftEndpointChain, nftServiceChains } from '../chain-names.ts';
import { categorizeEndpoints, endpointString, policyRouting, servicePortKey, type EndpointInfo, type ServicePortInfo } from '../service-map.ts';
import { cidrContains } from '../iptables/proxier.ts';
import type { NftBaseChain, NftChain, NftElement, NftSet, NftTable } from '../../host/netfilter/nftables.ts';

/** kubeProxyTable. */
const KUBE_PROXY_TABLE = 'kube-proxy';

/**
 * nftablesBaseChains: two filter chains just before DNAT (they see service
 * IPs: the LoadBalancer firewall), the other filter chains at the filter
 * priority (after DNAT), and the nat chains.
 */
const BASE_CHAINS: ReadonlyArray<{ name: string } & NftBaseChain> = [
	{ name: 'filter-prerouting-pre-dnat', type: 'filter', hook: 'prerouting', priority: 'dstnat - 10' },
	{ name: 'filter-output-pre-dnat', type: 'filter', hook: 'output', priority: 'dstnat - 10' },
	{ name: 'filter-input', type: 'filter', hook: 'input', priority: 'filter' },
	{ name: 'filter-forward', type: 'filter', hook: 'forward', priority: 'filter' },
	{ name: 'filter-output', type: 'filter', hook: 'output', priority: 'filter' },
	{ name: 'nat-prerouting', type: 'nat', hook: 'prerouting', priority: 'dstnat' },
	{ name: 'nat-output', type: 'nat', hook: 'output', priority: 'dstnat' },
	{ name: 'nat-postrouting', type: 'nat', hook: 'postrouting', priority: 'srcnat' },
];

/** nftablesJumpChains, in upstream's order. */
const JUMP_CHAINS: ReadonlyArray<{ dst: string; src: string; extra: string }> = [
	{ dst: 'nodeport-endpoints-check', src: 'filter-input', extra: 'ct state new ' },
	{ dst: 'service-endpoints-check', src: 'filter-input', extra: 'ct state new ' },
	{ dst: 'service-endpoints-check', src: 'filter-forward', extra: 'ct state new ' },
	{ dst: 'service-endpoints-check', src: 'filter-output', extra: 'ct state new ' },
	{ dst: 'firewall-check', src: 'filter-prerouting-pre-dnat', extra: 'ct state new ' },
	{ dst: 'firewall-check', src: 'filter-output-pre-dnat', extra: 'ct state new ' },
	{ dst: 'services', src: 'nat-output', extra: '' },
	{ dst: 'services', src: 'nat-prerouting', extra: '' },
	{ dst: 'masquerading', src: 'nat-postrouting', extra: '' },
	{ dst: 'cluster-ips-check', src: 'filter-forward', extra: 'ct state new ' },
	{ dst: 'cluster-ips-check', src: 'filter-output', extra: 'ct state new ' },
];

export interface NftablesProxierConfig {
	clusterCIDR: string;
	masqueradeMark: number;
	masqueradeAll: boolean;
	/** The addresses NodePorts answer on: `nodePortAddresses: [primary]`, the node IP. Empty means every local address. */
	nodePortIPs: string[];
	nodeIp: string;
	/** The ServiceCIDRs' ranges: traffic to an unallocated address in them is dropped. */
	serviceCIDRs: string[];
}

/** The proxier's memory between syncs (part of kube-proxy's volatile state). */
export interface NftProxierMemory {
	/** Whether this process already did its one-time base chain re-creation (Proxier.flushed). */
	flushed: boolean;
	/** Service chains flushed as stale, and when (deleted a second later). */
	staleChains: Record<string, number>;
}

interface NftSyncResult {
	chains: number;
	servicesWritten: number;
	deletedChains: number;
}

export function emptyNftMemory(): NftProxierMemory {
	return { flushed: false, staleChains: {} };
}

/** An 8-digit hex mark, as nft lists one (`0x00004000`). */
function nftMark(mark: number): string {
	return `0x${mark.toString(16).padStart(8, '0')}`;
}

function isServiceChainName(name: string): boolean {
	// The per-service and per-endpoint chains, and only they, have a `/` in their name.
	return name.includes('/');
}

class TableEditor {
	constructor(readonly table: NftTable) {}
	chain(name: string): NftChain | undefined {
		return this.table.chains.find((c) => c.name === name);
	}
	/** `add chain` + `flush chain`. */
	ensureChain(name: string, extra: Partial<NftChain> = {}): NftChain {
		let chain = this.chain(name);
		if (!chain) {
			chain = { name, rules: [] };
			this.table.chains.push(chain);
		}
		Object.assign(chain, extra);
		chain.rules = [];
		return chain;
	}
	deleteChain(name: string): void {
		this.table.chains = this.table.chains.filter((c) => c.name !== name);
	}
	set(name: string): NftSet | undefined {
		return this.table.sets.find((s) => s.name === name);
	}
	ensureSet(spec: Omit<NftSet, 'elements'>): NftSet {
		let set = this.set(spec.name);
		if (!set) {
			set = { ...spec, elements: [] };
			this.table.sets.push(set);
		}
		return set;
	}
	deleteSet(name: string): void {
		this.table.sets = this.table.sets.filter((s) => s.name !== name);
	}
}

/** An empty `table <family> kube-proxy`. */
export function newKubeProxyTable(family: 'ip' | 'ip6'): NftTable {
	return { family, name: KUBE_PROXY_TABLE, comment: 'rules for kube-proxy', sets: [], chains: [] };
}

/** setupNFTables: the table's fixed skeleton, written on every full sync. */
function setupTable(edit: TableEditor, family: 'ip' | 'ip6', config: NftablesProxierConfig, memory: NftProxierMemory): void {
	const ipX = family;
	const addrType = family === 'ip' ? 'ipv4_addr' : 'ipv6_addr';
	const noLocalhost = family === 'ip' ? 'ip daddr != 127.0.0.0/8' : 'ip6 daddr != ::1';
	edit.table.comment = 'rules for kube-proxy';
	if (!memory.flushed) {
		// Once per process: delete the base chains so they are created afresh (their properties may have changed).
		for (const bc of BASE_CHAINS) edit.deleteChain(bc.name);
	}
	for (const bc of BASE_CHAINS) edit.ensureChain(bc.name, { base: { type: bc.type, hook: bc.hook, priority: bc.priority } });
	const created = new Set<string>();
	const ensure = (name: string) => {
		if (created.has(name)) return;
		created.add(name);
		edit.ensureChain(name);
	};
	for (const jump of JUMP_CHAINS) {
		ensure(jump.dst);
		edit.chain(jump.src)!.rules.push(`${jump.extra}jump ${jump.dst}`);
	}
	for (const name of ['services', 'cluster-ips-check', 'masquerading', 'mark-for-masquerade']) ensure(name);
	const mark = nftMark(config.masqueradeMark);
	edit.chain('mark-for-masquerade')!.rules.push(`meta mark set meta mark | ${mark}`);
	edit.chain('masquerading')!.rules.push(`meta mark & ${mark} == 0x00000000 return`, `meta mark set meta mark ^ ${mark}`, 'masquerade fully-random');

	edit.ensureSet({ kind: 'set', name: 'cluster-ips', type: addrType, comment: 'Active ClusterIPs' });
	edit.chain('cluster-ips-check')!.rules.push(`${ipX} daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"`);
	// `ip daddr { <cidrs> } drop`: nft lists a one-element anonymous set as a plain match.
	const serviceCIDRs = config.serviceCIDRs.filter((c) => (family === 'ip') === !c.includes(':'));
	if (serviceCIDRs.length) {
		const match = serviceCIDRs.length === 1 ? serviceCIDRs[0] : `{ ${serviceCIDRs.join(', ')} }`;
		edit.chain('cluster-ips-check')!.rules.push(`${ipX} daddr ${match} drop comment "Drop traffic to unallocated ClusterIPs"`);
	}

	const nodePortIPs = config.nodePortIPs.filter((ip) => (family === 'ip') === !ip.includes(':'));
	const matchAll = config.nodePortIPs.length === 0;
	if (matchAll) edit.deleteSet('nodeport-ips');
	else {
		const set = edit.ensureSet({ kind: 'set', name: 'nodeport-ips', type: addrType, comment: 'IPs that accept NodePort traffic' });
		set.elements = nodePortIPs.map((ip) => ({ key: ip }));
	}
	edit.ensureSet({ kind: 'map', name: 'no-endpoint-services', type: `${addrType} . inet_proto . inet_service : verdict`, comment: 'vmap to drop or reject packets to services with no endpoints' });
	edit.ensureSet({ kind: 'map', name: 'no-endpoint-nodeports', type: 'inet_proto . inet_service : verdict', comment: 'vmap to drop or reject packets to service nodeports with no endpoints' });
	const reject = edit.ensureChain('reject-chain', { comment: 'helper for @no-endpoint-services / @no-endpoint-nodeports' });
	reject.rules.push('reject');
	edit.chain('service-endpoints-check')!.rules.push(`${ipX} daddr . meta l4proto . th dport vmap @no-endpoint-services`);
	edit.chain('nodeport-endpoints-check')!.rules.push(matchAll ? `${noLocalhost} meta l4proto . th dport vmap @no-endpoint-nodeports` : `${ipX} daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports`);
	edit.ensureSet({ kind: 'map', name: 'firewall-ips', type: `${addrType} . inet_proto . inet_service : verdict`, comment: 'destinations that are subject to LoadBalancerSourceRanges' });
	edit.chain('firewall-check')!.rules.push(`${ipX} daddr . meta l4proto . th dport vmap @firewall-ips`);
	edit.ensureSet({ kind: 'map', name: 'service-ips', type: `${addrType} . inet_proto . inet_service : verdict`, comment: 'ClusterIP, ExternalIP and LoadBalancer IP traffic' });
	edit.ensureSet({ kind: 'map', name: 'service-nodeports', type: 'inet_proto . inet_service : verdict', comment: 'NodePort traffic' });
	edit.chain('services')!.rules.push(`${ipX} daddr . meta l4proto . th dport vmap @service-ips`);
	edit.chain('services')!.rules.push(matchAll ? `fib daddr type local ${noLocalhost} meta l4proto . th dport vmap @service-nodeports` : `${ipX} daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports`);
	memory.flushed = true;
}


/**
 * One syncProxyRules run on `table` (the IPv4 table; the IPv6 one is kept
 * with `setupOnly`). On a partial sync only changed services' chains are
 * rewritten; map and set elements are always brought up to date.
 */
export function syncNftablesRules(table: NftTable, servicePorts: readonly ServicePortInfo[], endpointsByPort: Readonly<Record<string, EndpointInfo[]>>, config: NftablesProxierConfig, memory: NftProxierMemory, options: { fullSync: boolean; changed: ReadonlySet<string>; nowMs: number }): NftSyncResult {
	const edit = new TableEditor(table);
	const family = table.family;
	const ipX = family;
	if (options.fullSync || !memory.flushed) setupTable(edit, family, config, memory);

	// Chains left stale by an earlier sync and flushed more than a second ago can go now.
	let deletedChains = 0;
	for (const [chain, sinceMs] of Object.entries(memory.staleChains)) {
		if (sinceMs < options.nowMs - 1000) {
			edit.deleteChain(chain);
			delete memory.staleChains[chain];
			deletedChains++;
		}
	}

	const elements: Record<string, NftElement[]> = { 'cluster-ips': [], 'service-ips': [], 'firewall-ips': [], 'no-endpoint-services': [], 'no-endpoint-nodeports': [], 'service-nodeports': [] };
	const activeChains = new Set<string>();
	const activeAffinitySets = new Set<string>();
	let servicesWritten = 0;
	const mine = family === 'ip' ? servicePorts.filter((sp) => !sp.clusterIP.includes(':')) : servicePorts.filter((sp) => sp.clusterIP.includes(':'));

	for (const sp of mine) {
		const protocol = sp.protocol.toLowerCase();
		const chains = nftServiceChains(sp.namespace, sp.name, protocol, sp.portName);
		const all = endpointsByPort[servicePortKey(sp)] ?? [];
		const categorized = categorizeEndpoints(all, sp);
		const { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints: hasEndpoints } = categorized;
		const skip = !options.fullSync && !options.changed.has(`${sp.namespace}/${sp.name}`);
		const ensure = (name: string) => {
			if (activeChains.has(name)) return;
			activeChains.add(name);
			if (!skip) edit.ensureChain(name);
		};
		for (const ep of allReachableEndpoints) {
			const names = nftEndpointChain(sp.namespace, sp.name, protocol, sp.portName, endpointString(ep));
			ensure(names.chain);
			if (sp.affinityClientIP) activeAffinitySets.add(names.affinitySet);
		}
		const { usesClusterPolicyChain, usesLocalPolicyChain, internalTrafficChain, hasInternalEndpoints, externalPolicyChain, hasExternalEndpoints, usesExternalTrafficChain } = policyRouting(sp, categorized, chains);
		if (usesClusterPolicyChain) ensure(chains.cluster);
		if (usesLocalPolicyChain) ensure(chains.local);
		if (usesExternalTrafficChain) ensure(chains.external);
		let internalVerdict = '';
		let externalVerdict = '';
		if (!hasEndpoints) internalVerdict = externalVerdict = 'goto reject-chain';
		else {
			if (!hasInternalEndpoints) internalVerdict = 'drop';
			if (!hasExternalEndpoints) externalVerdict = 'drop';
		}
		const port = String(sp.port);
		elements['cluster-ips'].push({ key: sp.clusterIP });
		if (hasInternalEndpoints) elements['service-ips'].push({ key: `${sp.clusterIP} . ${protocol} . ${port}`, value: `goto ${internalTrafficChain}` });
		else elements['no-endpoint-services'].push({ key: `${sp.clusterIP} . ${protocol} . ${port}`, value: internalVerdict, comment: sp.nameString });
		for (const ip of sp.externalIPs) {
			if (hasEndpoints) elements['service-ips'].push({ key: `${ip} . ${protocol} . ${port}`, value: `goto ${chains.external}` });
			if (!hasExternalEndpoints) elements['no-endpoint-services'].push({ key: `${ip} . ${protocol} . ${port}`, value: externalVerdict, comment: sp.nameString });
		}
		const usesFWChain = sp.loadBalancerVIPs.length > 0 && sp.loadBalancerSourceRanges.length > 0;
		if (usesFWChain) ensure(chains.firewall);
		for (const ip of sp.loadBalancerVIPs) {
			if (hasEndpoints) elements['service-ips'].push({ key: `${ip} . ${protocol} . ${port}`, value: `goto ${chains.external}` });
			if (usesFWChain) elements['firewall-ips'].push({ key: `${ip} . ${protocol} . ${port}`, value: `goto ${chains.firewall}` });
		}
		if (!hasExternalEndpoints) for (const ip of sp.loadBalancerVIPs) elements['no-endpoint-services'].push({ key: `${ip} . ${protocol} . ${port}`, value: externalVerdict, comment: sp.nameString });
		if (sp.nodePort !== 0) {
			if (hasEndpoints) elements['service-nodeports'].push({ key: `${protocol} . ${sp.nodePort}`, value: `goto ${chains.external}` });
			if (!hasExternalEndpoints) elements['no-endpoint-nodeports'].push({ key: `${protocol} . ${sp.nodePort}`, value: externalVerdict, comment: sp.nameString });
		}
		if (skip) continue;
		servicesWritten++;
		const rules = (name: string) => edit.chain(name)!.rules;
		if (hasInternalEndpoints) {
			// Since v1.34 the rule names the ClusterIP only: the service chain is reached through its own ip . proto . port key.
			if (config.masqueradeAll) rules(internalTrafficChain).push(`${ipX} daddr ${sp.clusterIP} jump mark-for-masquerade`);
			// Off-cluster clients of a ClusterIP are masqueraded so the replies come back this way.
			else if (config.clusterCIDR) rules(internalTrafficChain).push(`${ipX} daddr ${sp.clusterIP} ${ipX} saddr != ${config.clusterCIDR} jump mark-for-masquerade`);
		}
		if (usesExternalTrafficChain) {
			if (!sp.externalPolicyLocal) rules(chains.external).push('jump mark-for-masquerade');
			else {
				if (config.clusterCIDR) rules(chains.external).push(`${ipX} saddr ${config.clusterCIDR} goto ${chains.cluster} comment "short-circuit pod traffic"`);
				rules(chains.external).push('fib saddr type local jump mark-for-masquerade comment "masquerade local traffic"');
				rules(chains.external).push(`fib saddr type local goto ${chains.cluster} comment "short-circuit local traffic"`);
			}
			if (hasExternalEndpoints) rules(chains.external).push(`goto ${externalPolicyChain}`);
		}
		if (usesFWChain) {
			const sources = [...sp.loadBalancerSourceRanges];
			if (sp.loadBalancerSourceRanges.some((c) => cidrContains(c, config.nodeIp))) sources.push(...sp.loadBalancerVIPs);
			rules(chains.firewall).push(`${ipX} saddr != { ${sources.join(', ')} } drop`);
		}
		if (sp.affinityClientIP) {
			for (const ep of allReachableEndpoints) {
				const names = nftEndpointChain(sp.namespace, sp.name, protocol, sp.portName, endpointString(ep));
				edit.ensureSet({ kind: 'set', name: names.affinitySet, type: family === 'ip' ? 'ipv4_addr' : 'ipv6_addr', flags: ['dynamic', 'timeout'], timeoutSeconds: sp.stickyMaxAgeSeconds });
			}
		}
		if (usesClusterPolicyChain) writeServiceToEndpointRules(rules(chains.cluster), sp, protocol, ipX, clusterEndpoints);
		if (usesLocalPolicyChain) writeServiceToEndpointRules(rules(chains.local), sp, protocol, ipX, localEndpoints);
		for (const ep of allReachableEndpoints) {
			const names = nftEndpointChain(sp.namespace, sp.name, protocol, sp.portName, endpointString(ep));
			const epRules = rules(names.chain);
			// A Pod reaching itself through its Service is masqueraded (hairpin).
			epRules.push(`${ipX} saddr ${ep.ip} jump mark-for-masquerade`);
			if (sp.affinityClientIP) epRules.push(`update @${names.affinitySet} { ${ipX} saddr }`);
			epRules.push(`meta l4proto ${protocol} dnat to ${endpointString(ep)}`);
		}
	}

	// Stale service chains: flushed now, deleted a second later (kernels before 6.2 need the delay).
	for (const chain of table.chains) {
		if (!isServiceChainName(chain.name)) continue;
		if (activeChains.has(chain.name)) delete memory.staleChains[chain.name];
		else {
			chain.rules = [];
			memory.staleChains[chain.name] ??= options.nowMs;
		}
	}
	// Stale affinity sets go at once.
	table.sets = table.sets.filter((s) => !s.name.startsWith('affinity-') || activeAffinitySets.has(s.name));

	for (const [name, list] of Object.entries(elements)) {
		const set = edit.set(name);
		if (set) set.elements = dedupe(list).sort((a, b) => compareKeys(a.key, b.key));
	}
	return { chains: table.chains.length, servicesWritten, deletedChains };
}

function dedupe(list: NftElement[]): NftElement[] {
	const seen = new Map<string, NftElement>();
	for (const e of list) seen.set(e.key, e);
	return [...seen.values()];
}

/** Orders element keys part by part, IPv4 addresses and numbers numerically. */
function compareKeys(a: string, b: string): number {
	const pa = a.split(' . ');
	const pb = b.split(' . ');
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const x = pa[i] ?? '';
		const y = pb[i] ?? '';
		if (x === y) continue;
		const nx = /^\d+(\.\d+){3}$/.test(x) ? x.split('.').reduce((n, p) => n * 256 + Number(p), 0) : /^\d+$/.test(x) ? Number(x) : Number.NaN;
		const ny = /^\d+(\.\d+){3}$/.test(y) ? y.split('.').reduce((n, p) => n * 256 + Number(p), 0) : /^\d+$/.test(y) ? Number(y) : Number.NaN;
		if (!Number.isNaN(nx) && !Number.isNaN(ny)) return nx - ny;
		return x < y ? -1 : 1;
	}
	return 0;
}

/** writeServiceToEndpointRules: affinity short-cuts, then one random pick among the endpoints. */
function writeServiceToEndpointRules(rules: string[], sp: ServicePortInfo, protocol: string, ipX: string, endpoints: readonly EndpointInfo[]): void {
	const names = endpoints.map((ep) => nftEndpointChain(sp.namespace, sp.name, protocol, sp.portName, endpointString(ep)));
	if (sp.affinityClientIP) for (const n of names) rules.push(`${ipX} saddr @${n.affinitySet} goto ${n.chain}`);
	rules.push(`numgen random mod ${endpoints.length} vmap { ${names.map((n, i) => `${i} : goto ${n.chain}`).join(', ')} }`);
}
