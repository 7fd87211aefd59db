/**
 * The packet-filtering state of one node's kernel: its iptables tables
 * (iptables-nft), its IPVS table with the kube-ipvs0 dummy device and
 * ipsets, and its nftables tables. It is durable, owned by the node and
 * snapshotted with it: when kube-proxy stops, its rules stay exactly as it
 * last wrote them (and keep sending traffic to endpoints that may be gone),
 * which is the point of the lesson. Only kube-proxy (and the node's boot,
 * for the kubelet's own chains) changes it; the tools read it.
 *
 * The kubelet creates a few chains of its own at start
 * (pkg/kubelet/kubelet_network_linux.go): KUBE-IPTABLES-HINT in mangle (so
 * other components can tell iptables-nft from iptables-legacy), its
 * canary KUBE-KUBELET-CANARY in mangle, nat and filter (iptables.Monitor),
 * and KUBE-FIREWALL, the martian-packet rule for 127.0.0.0/8, jumped to
 * from INPUT and OUTPUT. A node's tables start with them.
 *
 * Connection state that session affinity needs lives here too, as the
 * kernel keeps it: xt_recent's tables (./recent.ts), IPVS persistence
 * templates (./ipvs.ts) and the elements nftables adds to a dynamic set
 * (./nftables.ts), and the connection-tracking table (./conntrack.ts).
 * All of it goes with the power.
 *
 * Mirrors pkg/kubelet/kubelet_network_linux.go (the kubelet's own chains).
 */
import { emptyIptables, ensureChain, ensureRule, parseRuleArgs, type IptablesState } from './iptables.ts';
import { emptyIpvs, type IpvsState } from './ipvs.ts';
import type { NftTable } from './nftables.ts';
import type { RecentTables } from './recent.ts';
import { emptyConntrack, type ConntrackTable } from './conntrack.ts';

/** Plain JSON; see the module comment. */
export interface NodeDataplaneState {
	iptables: IptablesState;
	ipvs: IpvsState;
	/** nftables tables other than iptables-nft's (kube-proxy's `ip` and `ip6` tables). */
	nftables: NftTable[];
	/** Whether the ip_vs kernel module is loaded (kube-proxy's IPVS mode or ipvsadm loads it). */
	ipvsModuleLoaded: boolean;
	/** xt_recent's tables (session affinity in iptables mode); absent in snapshots from before them. */
	recent?: RecentTables;
	/** The connection-tracking table (./conntrack.ts); absent in snapshots from before it. */
	conntrack?: ConntrackTable;
	/**
	 * The devices and routes a Pod network daemon set up in the kernel since
	 * boot (flanneld's flannel.1 and routes; calico-node's tunl0): they stay
	 * when the daemon stops or its CNI config is removed, and go with the
	 * power. Absent: none yet (and in snapshots from before it).
	 */
	podNetwork?: { flannel?: boolean; calico?: boolean };
}

/** The kubelet's hint and canary chains (KubeIPTablesHintChain, the Monitor canary). */
const KUBE_IPTABLES_HINT = 'KUBE-IPTABLES-HINT';
const KUBE_KUBELET_CANARY = 'KUBE-KUBELET-CANARY';

/** The chains the kubelet creates at start (syncIPTablesRules and its Monitor). */
function applyKubeletChains(state: IptablesState): void {
	ensureChain(state.mangle, KUBE_IPTABLES_HINT);
	for (const table of ['mangle', 'nat', 'filter'] as const) ensureChain(state[table], KUBE_KUBELET_CANARY);
	ensureChain(state.filter, 'KUBE-FIREWALL');
	ensureRule(
		state.filter,
		'KUBE-FIREWALL',
		parseRuleArgs(['-A', 'KUBE-FIREWALL', '-m', 'comment', '--comment', 'block incoming localnet connections', '--dst', '127.0.0.0/8', '!', '--src', '127.0.0.0/8', '-m', 'conntrack', '!', '--ctstate', 'RELATED,ESTABLISHED,DNAT', '-j', 'DROP']).rule,
		'prepend',
	);
	for (const chain of ['OUTPUT', 'INPUT']) ensureRule(state.filter, chain, parseRuleArgs(['-A', chain, '-j', 'KUBE-FIREWALL']).rule, 'prepend');
}

/** A booted node before kube-proxy ran: the kubelet's chains and nothing else. */
export function emptyDataplane(): NodeDataplaneState {
	const iptables = emptyIptables();
	applyKubeletChains(iptables);
	return { iptables, ipvs: emptyIpvs(), nftables: [], ipvsModuleLoaded: false, recent: {}, conntrack: emptyConntrack() };
}
