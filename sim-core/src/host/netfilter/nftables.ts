/**
 * The kernel's nftables tables other than iptables-nft's own on one node
 * (kube-proxy's `ip` and `ip6` `kube-proxy` tables): sets, maps and chains
 * with their rules in `nft list` syntax. kube-proxy's nftables mode writes
 * them; the traffic model and `nft list` read them. Plain JSON.
 *
 * Mirrors kubernetes-sigs/knftables types.go (Table, Chain, Set, Map,
 * Element, as pkg/proxy/nftables programs them).
 */

/** A base chain's hook. */
export interface NftBaseChain {
	type: 'filter' | 'nat';
	hook: 'prerouting' | 'input' | 'forward' | 'output' | 'postrouting';
	/** As nft lists it: `dstnat - 10`, `dstnat`, `srcnat`. */
	priority: string;
}

export interface NftChain {
	name: string;
	base?: NftBaseChain;
	comment?: string;
	/** Rules in `nft list` syntax. */
	rules: string[];
}

export interface NftElement {
	/** `10.96.0.1 . tcp . 443`, or `10.96.0.1` in a plain set. */
	key: string;
	/** For maps: `goto service-...`. */
	value?: string;
	comment?: string;
	/** An element a rule added to a set with a timeout (`update @set { ip saddr }`): when it expires, virtual ms. */
	expiresAtMs?: number;
}

export interface NftSet {
	kind: 'set' | 'map';
	name: string;
	/** `ipv4_addr`, or `ipv4_addr . inet_proto . inet_service : verdict` for a map. */
	type: string;
	flags?: string[];
	/** Element timeout in seconds (affinity sets). */
	timeoutSeconds?: number;
	comment?: string;
	elements: NftElement[];
}

export interface NftTable {
	family: 'ip' | 'ip6';
	name: string;
	comment?: string;
	/** Sets and maps, in creation order. */
	sets: NftSet[];
	/** Chains, in creation order (a chain deleted and added again goes last). */
	chains: NftChain[];
}
