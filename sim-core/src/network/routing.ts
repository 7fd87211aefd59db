/**
 * Where a new TCP connection goes on one node: the first packet walks the
 * node's netfilter hooks, reading the rules as the kernel would, with no
 * packet-level detail beyond that.
 *
 * - A packet from a process on the node takes the output path (nat OUTPUT,
 *   then filter OUTPUT); one from a Pod on the node or from the network
 *   takes the input or forward path (nat PREROUTING, then filter INPUT when
 *   the destination is one of the node's addresses, FORWARD otherwise).
 * - iptables chains are walked rule by rule: `-m statistic` draws from the
 *   node's seeded stream with the kernel's 31-bit probability, `-j DNAT`
 *   rewrites the destination, `-j MARK` sets the masquerade mark that
 *   KUBE-POSTROUTING turns into MASQUERADE, REJECT refuses and DROP
 *   swallows the connection.
 * - kube-proxy's nftables table is read the same way: verdict maps,
 *   `numgen random mod N`, `dnat to`, the no-endpoint reject.
 * - An IPVS virtual server for the destination picks its next real server
 *   round robin (the scheduler's position is kernel state, kept with the
 *   node); one without real servers answers ICMP port unreachable.
 *
 * It follows the netfilter hook order (nf_hook priorities: filter at
 * dstnat-10 for kube-proxy's nftables chains, DNAT, then filter; IPVS after
 * filter INPUT) and the match/target semantics of the extensions in
 * ../host/netfilter/iptables.ts.
 *
 * Session affinity is followed, with the state in the node's kernel:
 * `-m recent --set` records the client in the endpoint's xt_recent table
 * and `--rcheck --seconds S --reap` sends a client seen within S seconds
 * back there (../host/netfilter/recent.ts); nftables' `update @affinity-...
 * { ip saddr }` adds the client to the endpoint's set with the set's
 * timeout and `ip saddr @affinity-... goto ...` finds it until it expires;
 * a persistent IPVS service (`-p S`) keeps a template per client that binds
 * it to a real server for S seconds after its last connection. Every
 * connection is otherwise new (no conntrack).
 *
 * Mirrors torvalds/linux include/uapi/linux/netfilter_ipv4.h (the hook
 * priorities), torvalds/linux net/netfilter/xt_statistic.c, torvalds/linux
 * net/netfilter/xt_recent.c, torvalds/linux net/netfilter/nft_dynset.c,
 * torvalds/linux net/netfilter/ipvs/ip_vs_rr.c, torvalds/linux
 * net/netfilter/ipvs/ip_vs_core.c (ip_vs_sched_persist).
 */
import type { NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import type { Chain, Match, Rule, Table } from '../host/netfilter/iptables.ts';
import type { NftSet, NftTable } from '../host/netfilter/nftables.ts';
import { MAX_PERSISTENCE_TEMPLATES, type VirtualServer } from '../host/netfilter/ipvs.ts';
import { pruneRecentTables, recentCheck, recentSet } from '../host/netfilter/recent.ts';

/** Where the packet comes from, seen from the node whose rules apply. */
export interface PacketSource {
	/** `host`: a process on the node itself; `pod`: a Pod on the node; `remote`: another machine. */
	kind: 'host' | 'pod' | 'remote';
	ip: string;
}

/** What routing needs to know about the node besides its rules. */
export interface NodeNetwork {
	dataplane: NodeDataplaneState;
	/** Every address the node owns (its NIC, flannel.1, cni0, kube-ipvs0...), for `addrtype LOCAL` and `fib daddr type local`. */
	localAddresses: readonly string[];
	/** The kernel's clock (virtual ms): affinity timeouts. */
	nowMs: number;
}

/** Where the connection ends up. */
export interface RouteDecision {
	/** `pass`: no rule touched it, it goes where it was addressed; `dnat`: rewritten to ip:port; `reject`: refused at once; `drop`: silently dropped. */
	kind: 'pass' | 'dnat' | 'reject' | 'drop';
	ip: string;
	port: number;
	/** Whether the source is masqueraded on the way out (KUBE-POSTROUTING / the masquerading chain / KUBE-LOOP-BACK). */
	masquerade: boolean;
	/** The chains or tables that decided, in order (for the trace). */
	path: string[];
}

interface Packet {
	src: string;
	dst: string;
	dport: number;
	proto: string;
	mark: number;
	dnat: boolean;
	masquerade: boolean;
	fromBridge: boolean;
	path: string[];
}

type Verdict = 'continue' | 'return' | 'accept' | 'drop' | 'reject';

/** Chains walked per packet, at most (a loop in the rules must not hang the simulation). */
const MAX_CHAIN_DEPTH = 64;
/** A dynamic set's size when the rules give none (nft's NFT_SET_MAXSIZE default for `update`-filled sets is 65535). */
const NFT_DYNSET_MAX_ELEMENTS = 65_535;

/** Forgets the elements of a timeout set that expired by `nowMs` (the kernel's set GC). */
export function expireElements(set: NftSet, nowMs: number): void {
	if (set.elements.some((e) => e.expiresAtMs !== undefined && e.expiresAtMs <= nowMs)) set.elements = set.elements.filter((e) => e.expiresAtMs === undefined || e.expiresAtMs > nowMs);
}

/** The names of the xt_recent tables the node's rules still name. */
function recentNamesInUse(dp: NodeDataplaneState): Set<string> {
	const names = new Set<string>();
	for (const table of [dp.iptables.nat, dp.iptables.filter, dp.iptables.mangle]) for (const chain of table.chains) for (const rule of chain.rules) for (const m of rule.matches) if (m.m === 'recent') names.add(m.name);
	return names;
}

/**
 * ip_vs_sched_persist: the client's template picks the real server while it
 * lives and its server is still there; otherwise the scheduler picks, and a
 * new template remembers the choice. Each connection restarts the timer.
 */
function pickPersistent(vs: VirtualServer, client: string, nowMs: number, schedule: () => VirtualServer['realServers'][number]): VirtualServer['realServers'][number] {
	const timeoutMs = (vs.persistentTimeoutSeconds ?? 0) * 1000;
	const templates = (vs.templates ??= []).filter((t) => t.expiresAtMs > nowMs);
	const at = templates.findIndex((t) => t.client === client);
	const template = at >= 0 ? templates[at] : undefined;
	let rs = template ? vs.realServers.find((r) => r.address === template.address && r.port === template.port) : undefined;
	if (at >= 0) templates.splice(at, 1);
	rs ??= schedule();
	templates.push({ client, address: rs.address, port: rs.port, expiresAtMs: nowMs + timeoutMs });
	if (templates.length > MAX_PERSISTENCE_TEMPLATES) templates.splice(0, templates.length - MAX_PERSISTENCE_TEMPLATES);
	vs.templates = templates;
	return rs;
}
function ipToNumber(ip: string): number {
	return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inCidr(ip: string, base: string, prefix: number): boolean {
	if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip) || !/^\d+\.\d+\.\d+\.\d+$/.test(base)) return false;
	const size = 2 ** (32 - prefix);
	return Math.floor(ipToNumber(ip) / size) === Math.floor(ipToNumber(base) / size);
}

function cidrText(text: string): [string, number] {
	const [ip, bits] = text.split('/');
	return [ip, bits === undefined ? 32 : Number(bits)];
}

/** xt_statistic keeps the probability as a 31-bit fraction: lround(p * 2^31) (libxt_statistic.c). */
export function kernelProbability(text: string): number {
	return Math.round(Number(text) * 0x80000000) / 0x80000000;
}

class Walker {
	constructor(
		private readonly node: NodeNetwork,
		private readonly random: () => number,
	) {}

	private isLocal(ip: string): boolean {
		return ip.startsWith('127.') || this.node.localAddresses.includes(ip);
	}

	// ---- iptables --------------------------------------------------------------------------

	private ipsetKey(set: string, flags: string, p: Packet): string {
		const parts = flags.split(',');
		const entries = this.node.dataplane.ipvs.ipsets[set];
		if (!entries) return '';
		// Port sets (bitmap:port) hold bare port numbers, KUBE-IPVS-IPS bare addresses.
		if (/NODE-PORT|HEALTH-CHECK/.test(set)) return String(p.dport);
		if (set === 'KUBE-IPVS-IPS') return parts[0] === 'src' ? p.src : p.dst;
		const ip = (which: string | undefined) => (which === 'src' ? p.src : p.dst);
		const key = [`${ip(parts[0])}`, `${p.proto}:${p.dport}`];
		if (parts[2]) key.push(ip(parts[2]));
		return key.join(',');
	}

	private matches(m: Match, p: Packet): boolean {
		switch (m.m) {
			case 'comment':
			case 'nfacct':
				return true;
			case 'tcp':
			case 'udp':
			case 'sctp':
				return p.proto === m.m && (m.dport === undefined || m.dport === p.dport);
			case 'statistic':
				return this.random() < kernelProbability(m.probability);
			case 'mark':
				return ((p.mark & m.mask) === m.mark) !== (m.invert ?? false);
			case 'addrtype': {
				let ok = true;
				if (m.dstType) ok &&= (m.dstType === 'LOCAL' && this.isLocal(p.dst)) !== (m.dstInvert ?? false);
				if (m.srcType) ok &&= (m.srcType === 'LOCAL' && this.isLocal(p.src)) !== (m.srcInvert ?? false);
				return ok;
			}
			case 'conntrack': {
				// Every connection here is new; DNAT is its status once a nat rule rewrote it.
				const states = new Set(['NEW', ...(p.dnat ? ['DNAT'] : [])]);
				return m.ctstate.some((s) => states.has(s)) !== (m.invert ?? false);
			}
			case 'set': {
				const entries = this.node.dataplane.ipvs.ipsets[m.name] ?? [];
				return entries.includes(this.ipsetKey(m.name, m.flags, p)) !== (m.invert ?? false);
			}
			case 'recent': {
				const tables = (this.node.dataplane.recent ??= {});
				const address = m.rsource ? p.src : p.dst;
				if (m.set) {
					recentSet(tables, m.name, address, this.node.nowMs);
					return true;
				}
				return m.rcheck === true && recentCheck(tables, m.name, address, this.node.nowMs, m.seconds, m.reap);
			}
			case 'physdev':
				return (m.isIn && p.fromBridge) !== (m.invert ?? false);
		}
	}

	private ruleMatches(r: Rule, p: Packet): boolean {
		if (r.src && inCidr(p.src, r.src.ip, r.src.prefix) === (r.srcInvert ?? false)) return false;
		if (r.dst && inCidr(p.dst, r.dst.ip, r.dst.prefix) === (r.dstInvert ?? false)) return false;
		if (r.proto && (r.proto === p.proto) === (r.protoInvert ?? false)) return false;
		return r.matches.every((m) => this.matches(m, p));
	}

	/** Walks one chain; `depth` bounds jumps. */
	runChain(table: Table, chain: Chain | undefined, p: Packet, depth: number): Verdict {
		if (!chain || depth > MAX_CHAIN_DEPTH) return 'continue';
		for (const rule of chain.rules) {
			if (!this.ruleMatches(rule, p)) continue;
			const t = rule.target;
			switch (t.t) {
				case 'none':
					continue;
				case 'jump': {
					p.path.push(t.chain);
					const v = this.runChain(table, table.chains.find((c) => c.name === t.chain), p, depth + 1);
					if (v === 'accept' || v === 'drop' || v === 'reject') return v;
					continue;
				}
				case 'RETURN':
					return 'return';
				case 'ACCEPT':
					return 'accept';
				case 'DROP':
					return 'drop';
				case 'REJECT':
					return 'reject';
				case 'DNAT': {
					const cut = t.to.lastIndexOf(':');
					p.dst = cut > 0 ? t.to.slice(0, cut) : t.to;
					if (cut > 0) p.dport = Number(t.to.slice(cut + 1));
					p.dnat = true;
					return 'accept';
				}
				case 'MARK':
					p.mark = ((p.mark & ~t.mask) ^ t.mark) >>> 0;
					continue;
				case 'MASQUERADE':
					p.masquerade = true;
					return 'accept';
			}
		}
		return chain.policy === 'DROP' ? 'drop' : 'continue';
	}

	/** Runs a built-in chain of a table as a hook would; the chain's policy applies at its end. */
	hook(table: Table, name: string, p: Packet): Verdict {
		const chain = table.chains.find((c) => c.name === name);
		if (!chain || chain.rules.length === 0) return 'continue';
		const v = this.runChain(table, chain, p, 0);
		return v === 'return' ? 'continue' : v;
	}

	// ---- nftables ----------------------------------------------------------------------------

	private nftLookup(table: NftTable, set: string, key: string): string | undefined {
		return table.sets.find((s) => s.name === set)?.elements.find((e) => e.key === key)?.value;
	}

	private nftInSet(table: NftTable, set: string, key: string): boolean {
		const found = table.sets.find((s) => s.name === set);
		if (found) expireElements(found, this.node.nowMs);
		return found?.elements.some((e) => e.key === key) ?? false;
	}

	/** nft_dynset's update: add the key with the set's timeout, or restart the timer of the element that has it. */
	private nftUpdate(table: NftTable, setName: string, key: string): void {
		const set = table.sets.find((s) => s.name === setName);
		if (!set) return;
		expireElements(set, this.node.nowMs);
		const expiresAtMs = set.timeoutSeconds ? this.node.nowMs + set.timeoutSeconds * 1000 : undefined;
		const element = set.elements.find((e) => e.key === key);
		if (element) element.expiresAtMs = expiresAtMs;
		else if (set.elements.length < NFT_DYNSET_MAX_ELEMENTS) set.elements.push({ key, expiresAtMs });
	}

	/** Evaluates the conditions at the start of an nft rule; returns the rest (the statement) or undefined if they fail. */
	private nftConditions(table: NftTable, rule: string, p: Packet): string | undefined {
		let rest = rule.replace(/ comment ".*"$/, '');
		for (let guard = 0; guard < 16; guard++) {
			let m: RegExpExecArray | null;
			if ((m = /^ct state new /.exec(rest))) {
				rest = rest.slice(m[0].length);
			} else if ((m = /^fib (saddr|daddr) type local /.exec(rest))) {
				if (!this.isLocal(m[1] === 'saddr' ? p.src : p.dst)) return undefined;
				rest = rest.slice(m[0].length);
			} else if ((m = /^ip6? (saddr|daddr) (!= )?@(\S+) /.exec(rest))) {
				const inSet = this.nftInSet(table, m[3], m[1] === 'saddr' ? p.src : p.dst);
				if (inSet === Boolean(m[2])) return undefined;
				rest = rest.slice(m[0].length);
			} else if ((m = /^ip6? (saddr|daddr) (!= )?\{ ([^}]*) \} /.exec(rest))) {
				const ip = m[1] === 'saddr' ? p.src : p.dst;
				const inAny = m[3].split(', ').some((c) => inCidr(ip, ...cidrText(c)));
				if (inAny === Boolean(m[2])) return undefined;
				rest = rest.slice(m[0].length);
			} else if ((m = /^ip6? (saddr|daddr) (!= )?(\d[\d.]*(?:\/\d+)?) /.exec(rest))) {
				const ip = m[1] === 'saddr' ? p.src : p.dst;
				if (inCidr(ip, ...cidrText(m[3])) === Boolean(m[2])) return undefined;
				rest = rest.slice(m[0].length);
			} else if ((m = /^(tcp|udp|sctp) dport (\d+) /.exec(rest))) {
				if (p.proto !== m[1] || p.dport !== Number(m[2])) return undefined;
				rest = rest.slice(m[0].length);
			} else if ((m = /^meta mark & (0x[0-9a-f]+) == (0x[0-9a-f]+) /.exec(rest))) {
				if ((p.mark & Number(m[1])) !== Number(m[2])) return undefined;
				rest = rest.slice(m[0].length);
			} else return rest;
		}
		return rest;
	}

	/** Runs an nft chain; returns a terminal verdict or continue/return. */
	nftChain(table: NftTable, name: string, p: Packet, depth: number): Verdict {
		const chain = table.chains.find((c) => c.name === name);
		if (!chain || depth > MAX_CHAIN_DEPTH) return 'continue';
		for (const rule of chain.rules) {
			const stmt = this.nftConditions(table, rule, p);
			if (stmt === undefined) continue;
			const v = this.nftStatement(table, stmt, p, depth);
			if (v !== 'continue') return v;
		}
		return 'continue';
	}

	private nftVerdict(table: NftTable, verdict: string, p: Packet, depth: number): Verdict {
		const [word, target] = verdict.split(' ');
		switch (word) {
			case 'jump': {
				p.path.push(target);
				const v = this.nftChain(table, target, p, depth + 1);
				return v === 'return' ? 'continue' : v;
			}
			case 'goto': {
				p.path.push(target);
				const v = this.nftChain(table, target, p, depth + 1);
				// A goto does not come back: the calling chain ends with the callee.
				return v === 'continue' ? 'return' : v;
			}
			case 'drop':
				return 'drop';
			case 'reject':
				return 'reject';
			case 'return':
				return 'return';
			case 'accept':
				return 'accept';
			default:
				return 'continue';
		}
	}

	private nftStatement(table: NftTable, stmt: string, p: Packet, depth: number): Verdict {
		let m: RegExpExecArray | null;
		if ((m = /^ip6? daddr \. meta l4proto \. th dport vmap @(\S+)$/.exec(stmt))) {
			const verdict = this.nftLookup(table, m[1], `${p.dst} . ${p.proto} . ${p.dport}`);
			return verdict ? this.nftVerdict(table, verdict, p, depth) : 'continue';
		}
		if ((m = /^meta l4proto \. th dport vmap @(\S+)$/.exec(stmt))) {
			const verdict = this.nftLookup(table, m[1], `${p.proto} . ${p.dport}`);
			return verdict ? this.nftVerdict(table, verdict, p, depth) : 'continue';
		}
		if ((m = /^numgen random mod (\d+) vmap \{ (.*) \}$/.exec(stmt))) {
			const pick = Math.floor(this.random() * Number(m[1]));
			const entry = m[2].split(', ').find((e) => e.startsWith(`${pick} : `));
			return entry ? this.nftVerdict(table, entry.slice(`${pick} : `.length), p, depth) : 'continue';
		}
		if ((m = /^meta l4proto (\S+) dnat to (\S+)$/.exec(stmt))) {
			const to = m[2];
			const cut = to.lastIndexOf(':');
			p.dst = to.slice(0, cut);
			p.dport = Number(to.slice(cut + 1));
			p.dnat = true;
			return 'accept';
		}
		if ((m = /^meta mark set meta mark ([|^]) (0x[0-9a-f]+)$/.exec(stmt))) {
			p.mark = (m[1] === '|' ? p.mark | Number(m[2]) : p.mark ^ Number(m[2])) >>> 0;
			return 'continue';
		}
		if (stmt === 'masquerade fully-random') {
			p.masquerade = true;
			return 'accept';
		}
		if ((m = /^update @(\S+) \{ ip6? (saddr|daddr) \}$/.exec(stmt))) {
			this.nftUpdate(table, m[1], m[2] === 'saddr' ? p.src : p.dst);
			return 'continue';
		}
		return this.nftVerdict(table, stmt, p, depth);
	}

	/** Runs every base chain of the table on `hook` whose priority class is `stage`. */
	nftHook(hook: string, stage: 'pre-dnat' | 'dnat' | 'post-dnat' | 'filter' | 'srcnat', p: Packet): Verdict {
		for (const table of this.node.dataplane.nftables) {
			if (table.family !== 'ip') continue;
			for (const chain of table.chains) {
				if (!chain.base || chain.base.hook !== hook) continue;
				const priority = chain.base.priority;
				// Before DNAT (dstnat - 10, prerouting and output only), or at the filter priority: input and forward after routing, output after DNAT.
				const chainStage = chain.base.type === 'nat' ? (priority === 'srcnat' ? 'srcnat' : 'dnat') : priority === 'dstnat - 10' ? 'pre-dnat' : hook === 'output' ? 'post-dnat' : 'filter';
				if (chainStage !== stage) continue;
				const v = this.nftChain(table, chain.name, p, 0);
				if (v === 'drop' || v === 'reject') return v;
				if (v === 'accept' && stage === 'dnat') return 'accept';
			}
		}
		return 'continue';
	}
}

/**
 * Routes the first packet of a TCP connection (or a UDP datagram: a DNS
 * query) from `source` to `dstIp:dstPort` through one node's rules.
 * `random` is the node's seeded stream (statistic matches, numgen).
 */
export function routeOnNode(node: NodeNetwork, source: PacketSource, dstIp: string, dstPort: number, random: () => number, proto: 'tcp' | 'udp' = 'tcp'): RouteDecision {
	const w = new Walker(node, random);
	const dp = node.dataplane;
	// A table goes with the last rule that named it (kube-proxy deleted the endpoint's chain).
	if (dp.recent && Object.keys(dp.recent).length > 0) pruneRecentTables(dp.recent, recentNamesInUse(dp));
	const p: Packet = { src: source.ip, dst: dstIp, dport: dstPort, proto, mark: 0, dnat: false, masquerade: false, fromBridge: source.kind === 'pod', path: [] };
	const isLocal = (ip: string) => ip.startsWith('127.') || node.localAddresses.includes(ip);
	const done = (kind: RouteDecision['kind']): RouteDecision => ({ kind, ip: p.dst, port: p.dport, masquerade: p.masquerade, path: p.path });
	const local = source.kind === 'host';
	const preHook = local ? 'output' : 'prerouting';

	// kube-proxy's nftables filter chains run just before DNAT.
	let v = w.nftHook(preHook, 'pre-dnat', p);
	if (v === 'drop' || v === 'reject') return done(v);
	// DNAT: iptables nat, then kube-proxy's nftables nat chain.
	v = w.hook(dp.iptables.nat, local ? 'OUTPUT' : 'PREROUTING', p);
	if (v === 'drop' || v === 'reject') return done(v);
	if (!p.dnat) {
		v = w.nftHook(preHook, 'dnat', p);
		if (v === 'drop' || v === 'reject') return done(v);
	}
	// The filter hooks: OUTPUT for local traffic, INPUT or FORWARD after the routing decision.
	const filterChain = local ? 'OUTPUT' : isLocal(p.dst) ? 'INPUT' : 'FORWARD';
	v = w.hook(dp.iptables.filter, filterChain, p);
	if (v === 'drop' || v === 'reject') return done(v);
	if (local) v = w.nftHook('output', 'post-dnat', p);
	else v = w.nftHook(filterChain === 'INPUT' ? 'input' : 'forward', 'filter', p);
	if (v === 'drop' || v === 'reject') return done(v);
	// IPVS takes packets to a virtual server after the filter hooks and forwards them to a real server.
	if (!p.dnat) {
		const vs = dp.ipvs.virtualServers.find((s) => s.protocol === proto.toUpperCase() && s.address === p.dst && s.port === p.dport);
		if (vs) {
			p.path.push(`ipvs ${vs.protocol} ${vs.address}:${vs.port}`);
			// No real server: ip_vs_leave() sends ICMP port unreachable.
			if (vs.realServers.length === 0) return done('reject');
			const roundRobin = () => {
				const next = vs.realServers[vs.rrNext % vs.realServers.length];
				vs.rrNext = (vs.rrNext + 1) % vs.realServers.length;
				return next;
			};
			const rs = vs.persistentTimeoutSeconds ? pickPersistent(vs, p.src, node.nowMs, roundRobin) : roundRobin();
			vs.conns++;
			rs.conns++;
			p.dst = rs.address;
			p.dport = rs.port;
			p.dnat = true;
		}
	}
	// POSTROUTING: masquerade what was marked.
	w.hook(dp.iptables.nat, 'POSTROUTING', p);
	w.nftHook('postrouting', 'srcnat', p);
	return done(p.dnat ? 'dnat' : 'pass');
}
