/**
 * kube-proxy's iptables proxier: compiles the service ports and their
 * endpoints into the node's `filter` and `nat` tables, the way one
 * `iptables-restore --noflush` transaction does:
 *
 * - on a full sync, the jump rules from the built-in chains (PREROUTING and
 *   OUTPUT to KUBE-SERVICES, POSTROUTING to KUBE-POSTROUTING, INPUT,
 *   FORWARD and OUTPUT to the filter chains) are ensured (prepended when
 *   missing), and every service chain is rewritten;
 * - on every sync, the top-level chains (KUBE-SERVICES, KUBE-NODEPORTS,
 *   KUBE-POSTROUTING, KUBE-MARK-MASQ; filter's KUBE-SERVICES,
 *   KUBE-EXTERNAL-SERVICES, KUBE-FORWARD, KUBE-NODEPORTS,
 *   KUBE-PROXY-FIREWALL, KUBE-FIREWALL) are flushed and rewritten;
 * - on a partial sync, the per-service chains (KUBE-SVC-, KUBE-SVL-,
 *   KUBE-EXT-, KUBE-FW-, KUBE-SEP-) of services that did not change are
 *   left as they are, which is what makes large clusters sync fast;
 * - chains of services and endpoints that are gone are deleted.
 *
 * A service with no endpoints gets a REJECT rule in filter/KUBE-SERVICES
 * (connection refused); a ClusterIP jumps to KUBE-SVC-<hash>, which picks
 * one KUBE-SEP-<hash> per connection with `-m statistic --mode random
 * --probability 1/n`, 1/(n-1)... so each endpoint gets an equal share, and
 * the KUBE-SEP chain DNATs to the Pod.
 *
 * The arguments are written as upstream writes them and parsed as
 * iptables-restore would (../../host/netfilter/iptables.ts). Differences:
 * services are written in name order (upstream walks a Go map), the
 * localhost NodePort and INVALID-drop rules carry their nfacct counters (the
 * node's kernel has xt_nfacct), and LoadBalancer firewall rules are written
 * but no load balancer ever sets an ingress IP here.
 *
 * Mirrors pkg/proxy/iptables/proxier.go (syncProxyRules,
 * writeServiceToEndpointRules, iptablesJumpChains, computeProbability).
 */
import { iptablesEndpointChain, iptablesServiceChains, IPTABLES_SERVICE_CHAIN_PREFIXES } from '../chain-names.ts';
import { categorizeEndpoints, endpointString, policyRouting, servicePortKey, type EndpointInfo, type ServicePortInfo } from '../service-map.ts';
import { ensureChain, ensureRule, findChain, parseRuleArgs, type IptablesState, type Rule, type Table } from '../../host/netfilter/iptables.ts';

const KUBE_SERVICES = 'KUBE-SERVICES';
const KUBE_EXTERNAL_SERVICES = 'KUBE-EXTERNAL-SERVICES';
const KUBE_NODEPORTS = 'KUBE-NODEPORTS';
const KUBE_POSTROUTING = 'KUBE-POSTROUTING';
const KUBE_MARK_MASQ = 'KUBE-MARK-MASQ';
const KUBE_FORWARD = 'KUBE-FORWARD';
const KUBE_PROXY_FIREWALL = 'KUBE-PROXY-FIREWALL';
export const KUBE_PROXY_CANARY = 'KUBE-PROXY-CANARY';
/** The kubelet's anti-martian chain, which kube-proxy also writes (kubeletFirewallChain). */
const KUBE_FIREWALL = 'KUBE-FIREWALL';

/** nfacct counters (pkg/proxy/metrics/metrics.go). */
const NFACCT_CT_STATE_INVALID = 'ct_state_invalid_dropped_pkts';
const NFACCT_LOCALHOST_NODEPORTS = 'localhost_nps_accepted_pkts';

/** What the proxier needs to know about its node and configuration. */
export interface IptablesProxierConfig {
	/** `--cluster-cidr` for detect-local-mode ClusterCIDR (kubeadm writes the pod subnet); '' disables it. */
	clusterCIDR: string;
	/** 1 << masqueradeBit; masqueradeBit defaults to 14 (v1alpha1 defaults.go), so 0x4000. */
	masqueradeMark: number;
	/** iptables.localhostNodePorts, default true (NodePorts answer on 127.0.0.1). */
	localhostNodePorts: boolean;
	/** masqueradeAll, default false. */
	masqueradeAll: boolean;
	/** The node's IP, for LoadBalancerSourceRanges that include it. */
	nodeIp: string;
}

/** What one sync did, for the trace and the metrics. */
interface IptablesSyncResult {
	/** nat rules restored by this sync (the "Reloading service iptables data" numNATRules). */
	natRules: number;
	/** nat rules kube-proxy owns after it: restored plus skipped (the kubeproxy_sync_proxy_rules_iptables_total metric). */
	natRulesTotal: number;
	filterRules: number;
	/** Service chains written (all of them on a full sync). */
	servicesWritten: number;
	deletedChains: number;
}

/** The jump rules from the built-in chains (iptablesJumpChains), in the order upstream ensures them. */
const JUMP_CHAINS: ReadonlyArray<{ table: 'filter' | 'nat'; dst: string; src: string; comment: string; extra: string[] }> = [
	{ table: 'filter', dst: KUBE_EXTERNAL_SERVICES, src: 'INPUT', comment: 'kubernetes externally-visible service portals', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'filter', dst: KUBE_EXTERNAL_SERVICES, src: 'FORWARD', comment: 'kubernetes externally-visible service portals', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'filter', dst: KUBE_NODEPORTS, src: 'INPUT', comment: 'kubernetes health check service ports', extra: [] },
	{ table: 'filter', dst: KUBE_SERVICES, src: 'FORWARD', comment: 'kubernetes service portals', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'filter', dst: KUBE_SERVICES, src: 'OUTPUT', comment: 'kubernetes service portals', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'filter', dst: KUBE_FORWARD, src: 'FORWARD', comment: 'kubernetes forwarding rules', extra: [] },
	{ table: 'filter', dst: KUBE_PROXY_FIREWALL, src: 'INPUT', comment: 'kubernetes load balancer firewall', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'filter', dst: KUBE_PROXY_FIREWALL, src: 'OUTPUT', comment: 'kubernetes load balancer firewall', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'filter', dst: KUBE_PROXY_FIREWALL, src: 'FORWARD', comment: 'kubernetes load balancer firewall', extra: ['-m', 'conntrack', '--ctstate', 'NEW'] },
	{ table: 'nat', dst: KUBE_SERVICES, src: 'OUTPUT', comment: 'kubernetes service portals', extra: [] },
	{ table: 'nat', dst: KUBE_SERVICES, src: 'PREROUTING', comment: 'kubernetes service portals', extra: [] },
	{ table: 'nat', dst: KUBE_POSTROUTING, src: 'POSTROUTING', comment: 'kubernetes postrouting rules', extra: [] },
];

/** The kubelet's jumps to KUBE-FIREWALL, which kube-proxy ensures too (iptablesKubeletJumpChains). */
const KUBELET_JUMP_CHAINS: ReadonlyArray<{ dst: string; src: string }> = [
	{ dst: KUBE_FIREWALL, src: 'INPUT' },
	{ dst: KUBE_FIREWALL, src: 'OUTPUT' },
];

/** computeProbability: 1/n with ten decimals (`%0.10f`), e.g. 0.3333333333 for three endpoints. */
export function computeProbability(n: number): string {
	return (1 / n).toFixed(10);
}

/** `0x4000` (Go's %#x). */
function hex(n: number): string {
	return `0x${n.toString(16)}`;
}

/** A line buffer of restore arguments for one table: chains to flush and rules in order. */
class TableWriter {
	readonly chains: string[] = [];
	readonly rules: Array<{ chain: string; rule: Rule }> = [];
	chain(name: string): void {
		if (!this.chains.includes(name)) this.chains.push(name);
	}
	write(...args: Array<string | string[]>): void {
		this.rules.push(parseRuleArgs(args.flat()));
	}
}

/** A writer whose output is thrown away (skippedNatChains/Rules on a partial sync). */
/** The rules of services a partial sync skips: not written, only counted (upstream's skippedNatRules, a discard buffer). */
class DiscardWriter extends TableWriter {
	lines = 0;
	override chain(): void {}
	override write(): void {
		this.lines++;
	}
}

/** Ensures the jump rules and the canary chains (done at start and on every full sync). */
function ensureJumpRules(state: IptablesState): void {
	for (const jump of JUMP_CHAINS) {
		const table = state[jump.table];
		ensureChain(table, jump.dst);
		const { rule } = parseRuleArgs(['-A', jump.src, ...jump.extra, '-m', 'comment', '--comment', jump.comment, '-j', jump.dst]);
		ensureRule(table, jump.src, rule, 'prepend');
	}
	for (const jump of KUBELET_JUMP_CHAINS) {
		ensureChain(state.filter, jump.dst);
		ensureRule(state.filter, jump.src, parseRuleArgs(['-A', jump.src, '-j', jump.dst]).rule, 'prepend');
	}
}

/** iptables.Monitor: the canary chain kube-proxy watches to notice a flush, in each of its tables. */
export function ensureCanary(state: IptablesState, canary: string): void {
	for (const table of ['mangle', 'nat', 'filter'] as const) ensureChain(state[table], canary);
}

function isServiceChainName(name: string): boolean {
	return IPTABLES_SERVICE_CHAIN_PREFIXES.some((p) => name.startsWith(p));
}

/** Replaces the rules of the written chains (a restore with --noflush flushes each declared chain). */
function apply(table: Table, writer: TableWriter): void {
	for (const name of writer.chains) ensureChain(table, name).rules = [];
	for (const { chain, rule } of writer.rules) ensureChain(table, chain).rules.push(rule);
}

/**
 * One syncProxyRules run. `changed` lists the services (`namespace/name`)
 * whose Service or EndpointSlices changed since the last sync; ignored on a
 * full sync.
 */
export function syncIptablesRules(state: IptablesState, servicePorts: readonly ServicePortInfo[], endpointsByPort: Readonly<Record<string, EndpointInfo[]>>, config: IptablesProxierConfig, options: { fullSync: boolean; changed: ReadonlySet<string> }): IptablesSyncResult {
	if (options.fullSync) ensureJumpRules(state);
	const filter = new TableWriter();
	const nat = new TableWriter();
	const skipped = new DiscardWriter();
	const mark = hex(config.masqueradeMark);
	const localDetector = config.clusterCIDR ? { ifNotLocal: ['!', '-s', config.clusterCIDR], ifLocal: ['-s', config.clusterCIDR] } : undefined;

	for (const chain of [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_FORWARD, KUBE_NODEPORTS, KUBE_PROXY_FIREWALL]) filter.chain(chain);
	for (const chain of [KUBE_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ]) nat.chain(chain);

	nat.write('-A', KUBE_POSTROUTING, '-m', 'mark', '!', '--mark', `${mark}/${mark}`, '-j', 'RETURN');
	// Clear the mark so a packet that goes through the stack again is not masqueraded twice.
	nat.write('-A', KUBE_POSTROUTING, '-j', 'MARK', '--xor-mark', mark);
	// Linux has had --random-fully since 3.13 and iptables since 1.6.2 (HasRandomFully).
	nat.write('-A', KUBE_POSTROUTING, '-m', 'comment', '--comment', '"kubernetes service traffic requiring SNAT"', '-j', 'MASQUERADE', '--random-fully');
	nat.write('-A', KUBE_MARK_MASQ, '-j', 'MARK', '--or-mark', mark);

	if (config.localhostNodePorts) {
		// route_localnet=1 opens NodePorts on 127.0.0.1; this rule closes the hole it makes (issue 90259).
		filter.chain(KUBE_FIREWALL);
		filter.write('-A', KUBE_FIREWALL, '-m', 'comment', '--comment', '"block incoming localnet connections"', '-d', '127.0.0.0/8', '!', '-s', '127.0.0.0/8', '-m', 'conntrack', '!', '--ctstate', 'RELATED,ESTABLISHED,DNAT', '-j', 'DROP');
	}

	const activeNatChains = new Set<string>();
	let servicesWritten = 0;

	for (const sp of servicePorts) {
		const protocol = sp.protocol.toLowerCase();
		const name = sp.nameString;
		const chains = iptablesServiceChains(name, protocol);
		const all = endpointsByPort[servicePortKey(sp)] ?? [];
		const categorized = categorizeEndpoints(all, sp);
		const { clusterEndpoints, localEndpoints, allReachableEndpoints, hasAnyEndpoints: hasEndpoints } = categorized;
		const { usesClusterPolicyChain, usesLocalPolicyChain, internalTrafficChain, hasInternalEndpoints, externalPolicyChain, hasExternalEndpoints, usesExternalTrafficChain } = policyRouting(sp, categorized, chains);
		const externalTrafficChain = chains.external;
		const usesFWChain = hasEndpoints && sp.loadBalancerVIPs.length > 0 && sp.loadBalancerSourceRanges.length > 0;
		const loadBalancerTrafficChain = usesFWChain ? chains.firewall : externalTrafficChain;

		let internalFilterTarget = '';
		let internalFilterComment = '';
		let externalFilterTarget = '';
		let externalFilterComment = '';
		if (!hasEndpoints) {
			internalFilterTarget = externalFilterTarget = 'REJECT';
			internalFilterComment = externalFilterComment = `"${name} has no endpoints"`;
		} else {
			if (!hasInternalEndpoints) {
				internalFilterTarget = 'DROP';
				internalFilterComment = `"${name} has no local endpoints"`;
			}
			if (!hasExternalEndpoints) {
				externalFilterTarget = 'DROP';
				externalFilterComment = `"${name} has no local endpoints"`;
			}
		}
		const port = String(sp.port);
		const proto = ['-m', protocol, '-p', protocol];

		// Capture the cluster IP.
		if (hasInternalEndpoints) {
			nat.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', `"${name} cluster IP"`, proto, '-d', sp.clusterIP, '--dport', port, '-j', internalTrafficChain);
		} else {
			filter.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', internalFilterComment, proto, '-d', sp.clusterIP, '--dport', port, '-j', internalFilterTarget);
		}
		// Capture external IPs.
		for (const ip of sp.externalIPs) {
			if (hasEndpoints) nat.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', `"${name} external IP"`, proto, '-d', ip, '--dport', port, '-j', externalTrafficChain);
			if (!hasExternalEndpoints) filter.write('-A', KUBE_EXTERNAL_SERVICES, '-m', 'comment', '--comment', externalFilterComment, proto, '-d', ip, '--dport', port, '-j', externalFilterTarget);
		}
		// Capture load-balancer ingress IPs.
		for (const ip of sp.loadBalancerVIPs) {
			if (hasEndpoints) nat.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', `"${name} loadbalancer IP"`, proto, '-d', ip, '--dport', port, '-j', loadBalancerTrafficChain);
			if (usesFWChain) filter.write('-A', KUBE_PROXY_FIREWALL, '-m', 'comment', '--comment', `"${name} traffic not accepted by ${chains.firewall}"`, proto, '-d', ip, '--dport', port, '-j', 'DROP');
		}
		if (!hasExternalEndpoints) {
			for (const ip of sp.loadBalancerVIPs) filter.write('-A', KUBE_EXTERNAL_SERVICES, '-m', 'comment', '--comment', externalFilterComment, proto, '-d', ip, '--dport', port, '-j', externalFilterTarget);
		}
		// Capture NodePorts.
		if (sp.nodePort !== 0) {
			const nodePort = String(sp.nodePort);
			if (hasEndpoints) {
				if (config.localhostNodePorts) {
					nat.write('-A', KUBE_NODEPORTS, '-m', 'comment', '--comment', name, proto, '-d', '127.0.0.0/8', '--dport', nodePort, '-m', 'nfacct', '--nfacct-name', NFACCT_LOCALHOST_NODEPORTS, '-j', externalTrafficChain);
				}
				nat.write('-A', KUBE_NODEPORTS, '-m', 'comment', '--comment', name, proto, '--dport', nodePort, '-j', externalTrafficChain);
			}
			if (!hasExternalEndpoints) {
				filter.write('-A', KUBE_EXTERNAL_SERVICES, '-m', 'comment', '--comment', externalFilterComment, '-m', 'addrtype', '--dst-type', 'LOCAL', proto, '--dport', nodePort, '-j', externalFilterTarget);
			}
		}
		if (sp.healthCheckNodePort !== 0) {
			filter.write('-A', KUBE_NODEPORTS, '-m', 'comment', '--comment', `"${name} health check node port"`, '-m', 'tcp', '-p', 'tcp', '--dport', String(sp.healthCheckNodePort), '-j', 'ACCEPT');
		}

		// The service's own chains: skipped on a partial sync when nothing about the service changed.
		const unchanged = !options.fullSync && !options.changed.has(`${sp.namespace}/${sp.name}`);
		const out = unchanged ? skipped : nat;
		if (!unchanged) servicesWritten++;

		if (hasInternalEndpoints) {
			const args = ['-m', 'comment', '--comment', `"${name} cluster IP"`, ...proto, '-d', sp.clusterIP, '--dport', port];
			if (config.masqueradeAll) out.write('-A', internalTrafficChain, args, '-j', KUBE_MARK_MASQ);
			// Off-cluster clients of a ClusterIP (a node, a static route) are masqueraded so replies come back through this node.
			else if (localDetector) out.write('-A', internalTrafficChain, args, localDetector.ifNotLocal, '-j', KUBE_MARK_MASQ);
		}
		if (usesExternalTrafficChain) {
			out.chain(externalTrafficChain);
			activeNatChains.add(externalTrafficChain);
			if (!sp.externalPolicyLocal) {
				out.write('-A', externalTrafficChain, '-m', 'comment', '--comment', `"masquerade traffic for ${name} external destinations"`, '-j', KUBE_MARK_MASQ);
			} else {
				if (localDetector) out.write('-A', externalTrafficChain, '-m', 'comment', '--comment', `"pod traffic for ${name} external destinations"`, localDetector.ifLocal, '-j', chains.cluster);
				out.write('-A', externalTrafficChain, '-m', 'comment', '--comment', `"masquerade LOCAL traffic for ${name} external destinations"`, '-m', 'addrtype', '--src-type', 'LOCAL', '-j', KUBE_MARK_MASQ);
				out.write('-A', externalTrafficChain, '-m', 'comment', '--comment', `"route LOCAL traffic for ${name} external destinations"`, '-m', 'addrtype', '--src-type', 'LOCAL', '-j', chains.cluster);
			}
			if (hasExternalEndpoints) out.write('-A', externalTrafficChain, '-j', externalPolicyChain);
		}
		if (usesFWChain) {
			out.chain(chains.firewall);
			activeNatChains.add(chains.firewall);
			const head = ['-A', chains.firewall, '-m', 'comment', '--comment', `"${name} loadbalancer IP"`];
			let allowFromNode = false;
			for (const cidr of sp.loadBalancerSourceRanges) {
				out.write(head, '-s', cidr, '-j', externalTrafficChain);
				if (cidrContains(cidr, config.nodeIp)) allowFromNode = true;
			}
			if (allowFromNode) for (const ip of sp.loadBalancerVIPs) out.write(head, '-s', ip, '-j', externalTrafficChain);
			out.write('-A', chains.firewall, '-m', 'comment', '--comment', `"other traffic to ${name} will be dropped by KUBE-PROXY-FIREWALL"`);
		}
		if (usesClusterPolicyChain) {
			out.chain(chains.cluster);
			activeNatChains.add(chains.cluster);
			writeServiceToEndpointRules(out, sp, protocol, chains.cluster, clusterEndpoints);
		}
		if (usesLocalPolicyChain) {
			out.chain(chains.local);
			activeNatChains.add(chains.local);
			writeServiceToEndpointRules(out, sp, protocol, chains.local, localEndpoints);
		}
		for (const ep of allReachableEndpoints) {
			const chain = iptablesEndpointChain(name, protocol, endpointString(ep));
			out.chain(chain);
			activeNatChains.add(chain);
			const head = ['-A', chain, '-m', 'comment', '--comment', name];
			// A Pod that reaches itself through its Service is masqueraded (hairpin), or it would answer itself directly.
			out.write(head, '-s', ep.ip, '-j', KUBE_MARK_MASQ);
			const affinity = sp.affinityClientIP ? ['-m', 'recent', '--name', chain, '--set'] : [];
			out.write(head, affinity, proto, '-j', 'DNAT', '--to-destination', endpointString(ep));
		}
	}

	// Delete the service chains nothing uses any more (flushed by the chain line, then -X).
	let deletedChains = 0;
	for (const chain of [...state.nat.chains]) {
		if (!isServiceChainName(chain.name) || activeNatChains.has(chain.name) || nat.chains.includes(chain.name)) continue;
		// On a partial sync a chain is only stale if its service is not one we skipped.
		if (!options.fullSync && stillSkipped(chain.name, servicePorts, endpointsByPort, options.changed)) continue;
		state.nat.chains = state.nat.chains.filter((c) => c !== chain);
		deletedChains++;
	}

	// The NodePort catch-all, which must be the last rule of KUBE-SERVICES.
	const destinations = ['-m', 'addrtype', '--dst-type', 'LOCAL'];
	if (!config.localhostNodePorts) destinations.push('!', '-d', '127.0.0.0/8');
	nat.write('-A', KUBE_SERVICES, '-m', 'comment', '--comment', '"kubernetes service nodeports; NOTE: this must be the last rule in this chain"', destinations, '-j', KUBE_NODEPORTS);

	// nf_conntrack_tcp_be_liberal is 0 on the node, so INVALID packets are dropped (issues 74839, 117924).
	filter.write('-A', KUBE_FORWARD, '-m', 'conntrack', '--ctstate', 'INVALID', '-m', 'nfacct', '--nfacct-name', NFACCT_CT_STATE_INVALID, '-j', 'DROP');
	filter.write('-A', KUBE_FORWARD, '-m', 'comment', '--comment', '"kubernetes forwarding rules"', '-m', 'mark', '--mark', `${mark}/${mark}`, '-j', 'ACCEPT');
	filter.write('-A', KUBE_FORWARD, '-m', 'comment', '--comment', '"kubernetes forwarding conntrack rule"', '-m', 'conntrack', '--ctstate', 'RELATED,ESTABLISHED', '-j', 'ACCEPT');

	apply(state.filter, filter);
	apply(state.nat, nat);
	return { natRules: nat.rules.length, natRulesTotal: nat.rules.length + skipped.lines, filterRules: filter.rules.length, servicesWritten, deletedChains };
}

/** Whether a chain belongs to a service whose chains this partial sync left untouched. */
function stillSkipped(chain: string, servicePorts: readonly ServicePortInfo[], endpointsByPort: Readonly<Record<string, EndpointInfo[]>>, changed: ReadonlySet<string>): boolean {
	for (const sp of servicePorts) {
		if (changed.has(`${sp.namespace}/${sp.name}`)) continue;
		const protocol = sp.protocol.toLowerCase();
		const chains = iptablesServiceChains(sp.nameString, protocol);
		if (chain === chains.cluster || chain === chains.local || chain === chains.external || chain === chains.firewall) return true;
		for (const ep of endpointsByPort[servicePortKey(sp)] ?? []) if (chain === iptablesEndpointChain(sp.nameString, protocol, endpointString(ep))) return true;
	}
	return false;
}

/** writeServiceToEndpointRules: affinity checks, then one probabilistic jump per endpoint. */
function writeServiceToEndpointRules(out: TableWriter, sp: ServicePortInfo, protocol: string, svcChain: string, endpoints: readonly EndpointInfo[]): void {
	if (sp.affinityClientIP) {
		for (const ep of endpoints) {
			const epChain = iptablesEndpointChain(sp.nameString, protocol, endpointString(ep));
			out.write('-A', svcChain, '-m', 'comment', '--comment', `"${sp.nameString} -> ${endpointString(ep)}"`, '-m', 'recent', '--name', epChain, '--rcheck', '--seconds', String(sp.stickyMaxAgeSeconds), '--reap', '-j', epChain);
		}
	}
	const n = endpoints.length;
	endpoints.forEach((ep, i) => {
		const epChain = iptablesEndpointChain(sp.nameString, protocol, endpointString(ep));
		const args = ['-A', svcChain, '-m', 'comment', '--comment', `"${sp.nameString} -> ${endpointString(ep)}"`];
		// Rule i matches 1/(n-i) of what is left, so every endpoint gets 1/n; the last one takes the rest.
		if (i < n - 1) args.push('-m', 'statistic', '--mode', 'random', '--probability', computeProbability(n - i));
		out.write(args, '-j', epChain);
	});
}

function ipToNumber(ip: string): number {
	return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

/** Whether `cidr` (a.b.c.d/n) contains `ip`. */
export function cidrContains(cidr: string, ip: string): boolean {
	const [base, bits] = cidr.split('/');
	const prefix = bits === undefined ? 32 : Number(bits);
	if (!ip || !/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return false;
	const size = 2 ** (32 - prefix);
	return Math.floor(ipToNumber(base) / size) === Math.floor(ipToNumber(ip) / size);
}

/** Removes every chain and rule kube-proxy's iptables and ipvs modes made (CleanupLeftovers, when another mode takes over). */
export function cleanupIptablesLeftovers(state: IptablesState, ours: (table: 'filter' | 'nat' | 'mangle', chain: string) => boolean): void {
	for (const tableName of ['filter', 'nat', 'mangle'] as const) {
		const table = state[tableName];
		const removed = new Set(table.chains.filter((c) => c.policy === undefined && ours(tableName, c.name)).map((c) => c.name));
		table.chains = table.chains.filter((c) => !removed.has(c.name));
		for (const chain of table.chains) chain.rules = chain.rules.filter((r) => !(r.target.t === 'jump' && removed.has(r.target.chain)));
	}
}

/** The chains of a table that kube-proxy's iptables mode owns (the kubelet's KUBE-FIREWALL and canary stay). */
export function isIptablesModeChain(table: 'filter' | 'nat' | 'mangle', chain: string): boolean {
	if (chain === KUBE_PROXY_CANARY) return true;
	if (table === 'mangle') return false;
	if (isServiceChainName(chain)) return true;
	return [KUBE_SERVICES, KUBE_EXTERNAL_SERVICES, KUBE_NODEPORTS, KUBE_POSTROUTING, KUBE_MARK_MASQ, KUBE_FORWARD, KUBE_PROXY_FIREWALL].includes(chain);
}

export { findChain };
