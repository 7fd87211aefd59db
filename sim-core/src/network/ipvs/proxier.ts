/**
 * kube-proxy's IPVS proxier (deprecated since v1.35): instead of a chain
 * per service it programs the kernel's IP Virtual Server table, one
 * virtual server per ClusterIP:port (and per node address:NodePort), with
 * a real server per usable endpoint and the `rr` scheduler by default. The
 * service addresses are bound to the `kube-ipvs0` dummy interface, so the
 * node accepts packets for them; ipsets (KUBE-CLUSTER-IP, KUBE-LOOP-BACK,
 * KUBE-NODE-PORT-TCP...) and a handful of iptables rules, whose number does
 * not grow with the number of services, do the masquerading and filtering.
 *
 * Differences: real servers that go away are removed at once (the graceful
 * termination manager waits for their connections, and there are none in
 * flight here); IPVS timeouts and strictARP are left as the kernel has them.
 *
 * Mirrors pkg/proxy/ipvs/proxier.go (syncProxyRules, syncService,
 * syncEndpoint, writeIptablesRules, acceptIPVSTraffic,
 * createAndLinkKubeChain, iptablesJumpChain, ipsetWithIptablesChain),
 * pkg/proxy/ipvs/ipset.go (set names and comments).
 */
import { categorizeEndpoints, servicePortKey, type EndpointInfo, type ServicePortInfo } from '../service-map.ts';
import { ensureChain, ensureRule, parseRuleArgs, type IptablesState, type Rule, type Table } from '../../host/netfilter/iptables.ts';
import type { IpvsState, VirtualServer } from '../../host/netfilter/ipvs.ts';


/** The ipsets kube-proxy uses (ipsetInfo), with their comments. */
const IPVS_SETS = {
	loopBack: { name: 'KUBE-LOOP-BACK', comment: 'Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose' },
	clusterIP: { name: 'KUBE-CLUSTER-IP', comment: 'Kubernetes service cluster ip + port for masquerade purpose' },
	externalIP: { name: 'KUBE-EXTERNAL-IP', comment: 'Kubernetes service external ip + port for masquerade and filter purpose' },
	externalIPLocal: { name: 'KUBE-EXTERNAL-IP-LOCAL', comment: 'Kubernetes service external ip + port with externalTrafficPolicy=local' },
	loadBalancer: { name: 'KUBE-LOAD-BALANCER', comment: 'Kubernetes service lb portal' },
	loadBalancerFW: { name: 'KUBE-LOAD-BALANCER-FW', comment: 'Kubernetes service load balancer ip + port for load balancer with sourceRange' },
	loadBalancerLocal: { name: 'KUBE-LOAD-BALANCER-LOCAL', comment: 'Kubernetes service load balancer ip + port with externalTrafficPolicy=local' },
	loadBalancerSourceIP: { name: 'KUBE-LOAD-BALANCER-SOURCE-IP', comment: 'Kubernetes service load balancer ip + port + source IP for packet filter purpose' },
	loadBalancerSourceCIDR: { name: 'KUBE-LOAD-BALANCER-SOURCE-CIDR', comment: 'Kubernetes service load balancer ip + port + source cidr for packet filter purpose' },
	nodePortTCP: { name: 'KUBE-NODE-PORT-TCP', comment: 'Kubernetes nodeport TCP port for masquerade purpose' },
	nodePortLocalTCP: { name: 'KUBE-NODE-PORT-LOCAL-TCP', comment: 'Kubernetes nodeport TCP port with externalTrafficPolicy=local' },
	nodePortUDP: { name: 'KUBE-NODE-PORT-UDP', comment: 'Kubernetes nodeport UDP port for masquerade purpose' },
	nodePortLocalUDP: { name: 'KUBE-NODE-PORT-LOCAL-UDP', comment: 'Kubernetes nodeport UDP port with externalTrafficPolicy=local' },
	healthCheckNodePort: { name: 'KUBE-HEALTH-CHECK-NODE-PORT', comment: 'Kubernetes health check node port' },
	ipvsIPs: { name: 'KUBE-IPVS-IPS', comment: 'Addresses on the ipvs interface' },
} as const;

const KUBE_NODE_PORT = 'KUBE-NODE-PORT';
const KUBE_LOAD_BALANCER = 'KUBE-LOAD-BALANCER';
const KUBE_SOURCE_RANGES_FIREWALL = 'KUBE-SOURCE-RANGES-FIREWALL';
const KUBE_IPVS_FILTER = 'KUBE-IPVS-FILTER';
const KUBE_IPVS_OUT_FILTER = 'KUBE-IPVS-OUT-FILTER';

/** The chains of the IPVS proxier (iptablesChains), in upstream's order. */
const IPVS_CHAINS: ReadonlyArray<{ table: 'nat' | 'filter'; chain: string }> = [
	{ table: 'nat', chain: 'KUBE-SERVICES' },
	{ table: 'nat', chain: 'KUBE-POSTROUTING' },
	{ table: 'nat', chain: KUBE_NODE_PORT },
	{ table: 'nat', chain: KUBE_LOAD_BALANCER },
	{ table: 'nat', chain: 'KUBE-MARK-MASQ' },
	{ table: 'filter', chain: 'KUBE-FORWARD' },
	{ table: 'filter', chain: KUBE_NODE_PORT },
	{ table: 'filter', chain: 'KUBE-PROXY-FIREWALL' },
	{ table: 'filter', chain: KUBE_SOURCE_RANGES_FIREWALL },
	{ table: 'filter', chain: KUBE_IPVS_FILTER },
	{ table: 'filter', chain: KUBE_IPVS_OUT_FILTER },
];

/** The jumps from the built-in chains (iptablesJumpChain), each prepended when missing. */
const IPVS_JUMPS: ReadonlyArray<{ table: 'nat' | 'filter'; from: string; to: string; comment: string }> = [
	{ table: 'nat', from: 'OUTPUT', to: 'KUBE-SERVICES', comment: 'kubernetes service portals' },
	{ table: 'nat', from: 'PREROUTING', to: 'KUBE-SERVICES', comment: 'kubernetes service portals' },
	{ table: 'nat', from: 'POSTROUTING', to: 'KUBE-POSTROUTING', comment: 'kubernetes postrouting rules' },
	{ table: 'filter', from: 'FORWARD', to: 'KUBE-FORWARD', comment: 'kubernetes forwarding rules' },
	{ table: 'filter', from: 'INPUT', to: KUBE_NODE_PORT, comment: 'kubernetes health check rules' },
	{ table: 'filter', from: 'INPUT', to: 'KUBE-PROXY-FIREWALL', comment: 'kube-proxy firewall rules' },
	{ table: 'filter', from: 'FORWARD', to: 'KUBE-PROXY-FIREWALL', comment: 'kube-proxy firewall rules' },
	{ table: 'filter', from: 'INPUT', to: KUBE_IPVS_FILTER, comment: 'kubernetes ipvs access filter' },
	{ table: 'filter', from: 'OUTPUT', to: KUBE_IPVS_OUT_FILTER, comment: 'kubernetes ipvs access filter' },
];

/** Which (table, chain) pairs belong to the IPVS proxier (for cleanup when another mode takes over). */
export function isIpvsModeChain(table: 'filter' | 'nat' | 'mangle', chain: string): boolean {
	return IPVS_CHAINS.some((c) => c.table === table && c.chain === chain);
}

export interface IpvsProxierConfig {
	clusterCIDR: string;
	masqueradeMark: number;
	masqueradeAll: boolean;
	scheduler: string;
	/** The node's addresses a NodePort listens on (every local address but kube-ipvs0's, link-local excluded). */
	nodeAddresses: string[];
}

interface IpvsSyncResult {
	virtualServers: number;
	realServers: number;
}

function emptyCounters(): Pick<VirtualServer, 'conns' | 'inPkts' | 'outPkts' | 'inBytes' | 'outBytes'> {
	return { conns: 0, inPkts: 0, outPkts: 0, inBytes: 0, outBytes: 0 };
}

/** One IPVS syncProxyRules run: virtual servers, kube-ipvs0, ipsets and the iptables rules. */
export function syncIpvsRules(ipvs: IpvsState, iptables: IptablesState, servicePorts: readonly ServicePortInfo[], endpointsByPort: Readonly<Record<string, EndpointInfo[]>>, config: IpvsProxierConfig): IpvsSyncResult {
	ipvs.dummy ??= { addresses: [] };
	const sets: Record<string, Set<string>> = {};
	for (const info of Object.values(IPVS_SETS)) sets[info.name] = new Set();
	const activeServers = new Map<string, VirtualServer>();
	const bound = new Set<string>();
	const vsKey = (protocol: string, address: string, port: number) => `${protocol}/${address}:${port}`;
	const existing = new Map(ipvs.virtualServers.map((vs) => [vsKey(vs.protocol, vs.address, vs.port), vs]));

	const syncService = (address: string, port: number, sp: ServicePortInfo, endpoints: readonly EndpointInfo[], bind: boolean) => {
		const key = vsKey(sp.protocol, address, port);
		const vs: VirtualServer = existing.get(key) ?? { protocol: sp.protocol, address, port, scheduler: config.scheduler, realServers: [], rrNext: 0, ...emptyCounters() };
		vs.scheduler = config.scheduler;
		if (sp.affinityClientIP) vs.persistentTimeoutSeconds = sp.stickyMaxAgeSeconds;
		else delete vs.persistentTimeoutSeconds;
		const wanted = endpoints.map((ep) => `${ep.ip}:${ep.port}`);
		const kept = vs.realServers.filter((rs) => wanted.includes(`${rs.address}:${rs.port}`));
		for (const ep of endpoints) {
			if (kept.some((rs) => rs.address === ep.ip && rs.port === ep.port)) continue;
			kept.push({ address: ep.ip, port: ep.port, weight: 1, activeConns: 0, inactConns: 0, ...emptyCounters() });
		}
		vs.realServers = kept;
		if (vs.rrNext >= kept.length) vs.rrNext = 0;
		activeServers.set(key, vs);
		if (bind) bound.add(address);
	};

	for (const sp of servicePorts) {
		const protocol = sp.protocol.toLowerCase();
		const all = endpointsByPort[servicePortKey(sp)] ?? [];
		const { clusterEndpoints, localEndpoints } = categorizeEndpoints(all, sp);
		for (const ep of all) sets[IPVS_SETS.loopBack.name].add(`${ep.ip},${protocol}:${ep.port},${ep.ip}`);
		sets[IPVS_SETS.clusterIP.name].add(`${sp.clusterIP},${protocol}:${sp.port}`);
		// internalTrafficPolicy Local: only this node's endpoints (or, if none, the others: PR 97081).
		const internal = sp.internalPolicyLocal ? (localEndpoints.length > 0 ? localEndpoints : clusterEndpoints) : clusterEndpoints;
		syncService(sp.clusterIP, sp.port, sp, internal, true);
		const external = sp.externalPolicyLocal ? (localEndpoints.length > 0 ? localEndpoints : clusterEndpoints) : clusterEndpoints;
		for (const ip of sp.externalIPs) {
			sets[sp.externalPolicyLocal ? IPVS_SETS.externalIPLocal.name : IPVS_SETS.externalIP.name].add(`${ip},${protocol}:${sp.port}`);
			syncService(ip, sp.port, sp, external, true);
		}
		for (const ip of sp.loadBalancerVIPs) {
			sets[IPVS_SETS.loadBalancer.name].add(`${ip},${protocol}:${sp.port}`);
			if (sp.externalPolicyLocal) sets[IPVS_SETS.loadBalancerLocal.name].add(`${ip},${protocol}:${sp.port}`);
			syncService(ip, sp.port, sp, external, true);
		}
		if (sp.nodePort !== 0 && (protocol === 'tcp' || protocol === 'udp')) {
			const set = protocol === 'tcp' ? (sp.externalPolicyLocal ? IPVS_SETS.nodePortLocalTCP : IPVS_SETS.nodePortTCP) : sp.externalPolicyLocal ? IPVS_SETS.nodePortLocalUDP : IPVS_SETS.nodePortUDP;
			sets[set.name].add(String(sp.nodePort));
			// A Local NodePort set also needs the masquerade set entry for traffic from the node itself.
			if (sp.externalPolicyLocal) sets[(protocol === 'tcp' ? IPVS_SETS.nodePortTCP : IPVS_SETS.nodePortUDP).name].add(String(sp.nodePort));
			for (const address of config.nodeAddresses) syncService(address, sp.nodePort, sp, external, false);
		}
		if (sp.healthCheckNodePort !== 0) sets[IPVS_SETS.healthCheckNodePort.name].add(String(sp.healthCheckNodePort));
	}
	for (const address of bound) sets[IPVS_SETS.ipvsIPs.name].add(address);

	ipvs.virtualServers = [...activeServers.values()];
	ipvs.dummy.addresses = [...ipvs.dummy.addresses.filter((a) => bound.has(a)), ...[...bound].filter((a) => !ipvs.dummy!.addresses.includes(a))];
	ipvs.ipsets = {};
	for (const [name, entries] of Object.entries(sets)) ipvs.ipsets[name] = [...entries].sort();

	writeIpvsIptables(iptables, ipvs, config);
	return { virtualServers: ipvs.virtualServers.length, realServers: ipvs.virtualServers.reduce((n, vs) => n + vs.realServers.length, 0) };
}

/** createAndLinkKubeChain plus writeIptablesRules. */
function writeIpvsIptables(state: IptablesState, ipvs: IpvsState, config: IpvsProxierConfig): void {
	const nat: Array<{ chain: string; rule: Rule }> = [];
	const filter: Array<{ chain: string; rule: Rule }> = [];
	const w = (to: typeof nat, ...args: Array<string | string[]>) => to.push(parseRuleArgs(args.flat()));
	const mark = `0x${config.masqueradeMark.toString(16)}`;
	const nonEmpty = (name: string) => (ipvs.ipsets[name] ?? []).length > 0;
	const quoted = (info: { comment: string }) => `"${info.comment}"`;

	// Connections from localhost are left alone early in the service chain.
	w(nat, '-A', 'KUBE-SERVICES', '-s', '127.0.0.0/8', '-j', 'RETURN');
	const withChains: ReadonlyArray<{ set: { name: string; comment: string }; table: 'nat' | 'filter'; from: string; to: string; match: string; proto?: string }> = [
		{ set: IPVS_SETS.loopBack, table: 'nat', from: 'KUBE-POSTROUTING', to: 'MASQUERADE', match: 'dst,dst,src' },
		{ set: IPVS_SETS.loadBalancer, table: 'nat', from: 'KUBE-SERVICES', to: KUBE_LOAD_BALANCER, match: 'dst,dst' },
		{ set: IPVS_SETS.loadBalancerLocal, table: 'nat', from: KUBE_LOAD_BALANCER, to: 'RETURN', match: 'dst,dst' },
		{ set: IPVS_SETS.nodePortLocalTCP, table: 'nat', from: KUBE_NODE_PORT, to: 'RETURN', match: 'dst', proto: 'tcp' },
		{ set: IPVS_SETS.nodePortTCP, table: 'nat', from: KUBE_NODE_PORT, to: 'KUBE-MARK-MASQ', match: 'dst', proto: 'tcp' },
		{ set: IPVS_SETS.nodePortLocalUDP, table: 'nat', from: KUBE_NODE_PORT, to: 'RETURN', match: 'dst', proto: 'udp' },
		{ set: IPVS_SETS.nodePortUDP, table: 'nat', from: KUBE_NODE_PORT, to: 'KUBE-MARK-MASQ', match: 'dst', proto: 'udp' },
		{ set: IPVS_SETS.loadBalancerFW, table: 'filter', from: 'KUBE-PROXY-FIREWALL', to: KUBE_SOURCE_RANGES_FIREWALL, match: 'dst,dst' },
		{ set: IPVS_SETS.loadBalancerSourceCIDR, table: 'filter', from: KUBE_SOURCE_RANGES_FIREWALL, to: 'RETURN', match: 'dst,dst,src' },
		{ set: IPVS_SETS.loadBalancerSourceIP, table: 'filter', from: KUBE_SOURCE_RANGES_FIREWALL, to: 'RETURN', match: 'dst,dst,src' },
	];
	for (const item of withChains) {
		if (!nonEmpty(item.set.name)) continue;
		const args = ['-A', item.from, ...(item.proto ? ['-p', item.proto] : []), '-m', 'comment', '--comment', quoted(item.set), '-m', 'set', '--match-set', item.set.name, item.match, '-j', item.to];
		w(item.table === 'nat' ? nat : filter, args);
	}
	if (nonEmpty(IPVS_SETS.clusterIP.name)) {
		const args = ['-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', quoted(IPVS_SETS.clusterIP), '-m', 'set', '--match-set', IPVS_SETS.clusterIP.name];
		if (config.masqueradeAll) w(nat, args, 'dst,dst', '-j', 'KUBE-MARK-MASQ');
		else if (config.clusterCIDR) w(nat, args, 'dst,dst', '!', '-s', config.clusterCIDR, '-j', 'KUBE-MARK-MASQ');
		else w(nat, args, 'src,dst', '-j', 'KUBE-MARK-MASQ');
	}
	for (const info of [IPVS_SETS.externalIP, IPVS_SETS.externalIPLocal]) {
		if (!nonEmpty(info.name)) continue;
		const args = ['-A', 'KUBE-SERVICES', '-m', 'comment', '--comment', quoted(info), '-m', 'set', '--match-set', info.name, 'dst,dst'];
		if (info === IPVS_SETS.externalIP) w(nat, args, '-j', 'KUBE-MARK-MASQ');
		w(nat, args, '-m', 'physdev', '!', '--physdev-is-in', '-m', 'addrtype', '!', '--src-type', 'LOCAL', '-j', 'ACCEPT');
		w(nat, args, '-m', 'addrtype', '--dst-type', 'LOCAL', '-j', 'ACCEPT');
	}
	w(nat, '-A', 'KUBE-SERVICES', '-m', 'addrtype', '--dst-type', 'LOCAL', '-j', KUBE_NODE_PORT);
	w(nat, '-A', KUBE_LOAD_BALANCER, '-j', 'KUBE-MARK-MASQ');
	w(filter, '-A', KUBE_SOURCE_RANGES_FIREWALL, '-j', 'DROP');
	// acceptIPVSTraffic: let traffic to a virtual service through whatever else the chain holds.
	for (const info of [IPVS_SETS.clusterIP, IPVS_SETS.loadBalancer]) if (nonEmpty(info.name)) w(nat, '-A', 'KUBE-SERVICES', '-m', 'set', '--match-set', info.name, 'dst,dst', '-j', 'ACCEPT');
	w(filter, '-A', 'KUBE-FORWARD', '-m', 'comment', '--comment', '"kubernetes forwarding rules"', '-m', 'mark', '--mark', `${mark}/${mark}`, '-j', 'ACCEPT');
	w(filter, '-A', 'KUBE-FORWARD', '-m', 'comment', '--comment', '"kubernetes forwarding conntrack rule"', '-m', 'conntrack', '--ctstate', 'RELATED,ESTABLISHED', '-j', 'ACCEPT');
	w(filter, '-A', KUBE_NODE_PORT, '-m', 'comment', '--comment', quoted(IPVS_SETS.healthCheckNodePort), '-m', 'set', '--match-set', IPVS_SETS.healthCheckNodePort.name, 'dst', '-j', 'ACCEPT');
	// Ports on the host must not be reachable through a service address (issue 72236).
	w(filter, '-A', KUBE_IPVS_FILTER, '-m', 'set', '--match-set', IPVS_SETS.loadBalancer.name, 'dst,dst', '-j', 'RETURN');
	w(filter, '-A', KUBE_IPVS_FILTER, '-m', 'set', '--match-set', IPVS_SETS.clusterIP.name, 'dst,dst', '-j', 'RETURN');
	w(filter, '-A', KUBE_IPVS_FILTER, '-m', 'set', '--match-set', IPVS_SETS.externalIP.name, 'dst,dst', '-j', 'RETURN');
	w(filter, '-A', KUBE_IPVS_FILTER, '-m', 'set', '--match-set', IPVS_SETS.externalIPLocal.name, 'dst,dst', '-j', 'RETURN');
	w(filter, '-A', KUBE_IPVS_FILTER, '-m', 'set', '--match-set', IPVS_SETS.healthCheckNodePort.name, 'dst', '-j', 'RETURN');
	w(filter, '-A', KUBE_IPVS_FILTER, '-m', 'conntrack', '--ctstate', 'NEW', '-m', 'set', '--match-set', IPVS_SETS.ipvsIPs.name, 'dst', '-j', 'REJECT');
	w(nat, '-A', 'KUBE-POSTROUTING', '-m', 'mark', '!', '--mark', `${mark}/${mark}`, '-j', 'RETURN');
	w(nat, '-A', 'KUBE-POSTROUTING', '-j', 'MARK', '--xor-mark', mark);
	w(nat, '-A', 'KUBE-POSTROUTING', '-m', 'comment', '--comment', '"kubernetes service traffic requiring SNAT"', '-j', 'MASQUERADE', '--random-fully');
	w(nat, '-A', 'KUBE-MARK-MASQ', '-j', 'MARK', '--or-mark', mark);

	for (const { table, chain } of IPVS_CHAINS) ensureChain(state[table], chain).rules = [];
	for (const jump of IPVS_JUMPS) ensureRule(state[jump.table], jump.from, parseRuleArgs(['-A', jump.from, '-m', 'comment', '--comment', jump.comment, '-j', jump.to]).rule, 'prepend');
	const put = (table: Table, rules: typeof nat) => {
		for (const { chain, rule } of rules) ensureChain(table, chain).rules.push(rule);
	};
	put(state.nat, nat);
	put(state.filter, filter);
}

/** Removes the IPVS table, kube-ipvs0 and the ipsets (ipvs CleanupLeftovers). */
export function cleanupIpvsLeftovers(ipvs: IpvsState): void {
	ipvs.virtualServers = [];
	ipvs.dummy = null;
	ipvs.ipsets = {};
}
