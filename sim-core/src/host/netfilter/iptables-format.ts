/**
 * How iptables 1.8.10 (nf_tables backend) prints rules, in its two forms:
 *
 * - save form (`iptables-save`, `iptables -S`): `-A CHAIN`, then the IPv4
 *   header matches in a fixed order (`-s`, `-d` with their mask, `-p`),
 *   then each `-m` match with its options, then `-j TARGET` and the
 *   target's options; strings with anything but letters, digits, `_` and
 *   `-` are double-quoted (xtables_save_string).
 * - list form (`iptables -L`): fixed-width columns target, prot, opt,
 *   [in, out,] source, destination (print_rule_details, print_ifaces,
 *   print_ipv4_addresses with their printf widths), then each match's and
 *   the target's own words (`/* comment *\/`, `tcp dpt:80`, `statistic mode
 *   random probability 0.33333333349`, `MARK or 0x4000`, `to:10.244.1.5:80`).
 *
 * The statistic probability is printed from the kernel's 31-bit value,
 * `%.11f` of lround(p·2³¹)/2³¹, which is why kube-proxy's 0.3333333333
 * reads back as 0.33333333349.
 *
 * Mirrors netfilter/iptables iptables/nft-ipv4.c (nft_ipv4_save_rule,
 * nft_ipv4_print_rule), netfilter/iptables iptables/nft-shared.c,
 * netfilter/iptables iptables/xshared.c (print_rule_details, print_header,
 * print_ifaces, save_rule_details), netfilter/iptables libxtables/xtables.c
 * (xtables_save_string, xtables_print_num, xtables_ipmask_to_numeric),
 * netfilter/iptables extensions/ (libxt_comment, libxt_tcp, libxt_udp,
 * libxt_statistic, libxt_mark, libxt_MARK, libxt_addrtype, libxt_conntrack,
 * libxt_set, libxt_recent, libxt_nfacct, libxt_physdev, libipt_DNAT,
 * libxt_MASQUERADE, libipt_REJECT).
 */
import type { Chain, Match, Rule, Table, Target } from './iptables.ts';

/** What `-L` needs to know to print names instead of numbers. */
export interface ListOptions {
	numeric: boolean;
	verbose: boolean;
	lineNumbers: boolean;
	/** -x: exact counters instead of K/M/G. */
	exact: boolean;
	/** Reverse lookup of an address (the node's own names), when not numeric. */
	hostName?(ip: string): string | undefined;
}

/** /etc/services names for the ports that matter here (Debian netbase). */
export const SERVICES: Readonly<Record<number, string>> = { 22: 'ssh', 53: 'domain', 80: 'http', 443: 'https', 3306: 'mysql', 5432: 'postgresql', 8080: 'http-alt' };

/** xtables_save_string: quote unless only [A-Za-z0-9_-]; escape `"`, `\` and `'`. */
function saveString(value: string): string {
	if (/^[A-Za-z0-9_-]+$/.test(value)) return value;
	return `"${value.replace(/["\\']/g, (c) => `\\${c}`)}"`;
}

/** The kernel's statistic probability as `%.11f` prints it. */
export function statisticProbability(text: string): string {
	return (Math.round(Number(text) * 0x80000000) / 0x80000000).toFixed(11);
}

const hex = (n: number) => `0x${(n >>> 0).toString(16)}`;

/** libxt_mark print_mark: `0x4000/0x4000`, or the bare mark when the mask is all ones. */
function markText(mark: number, mask: number): string {
	return mask >>> 0 === 0xffffffff ? hex(mark) : `${hex(mark)}/${hex(mask)}`;
}

function saveMatch(m: Match): string {
	switch (m.m) {
		case 'comment':
			return ` -m comment --comment ${saveString(m.comment)}`;
		case 'tcp':
		case 'udp':
		case 'sctp':
			return ` -m ${m.m}${m.sport !== undefined ? ` --sport ${m.sport}` : ''}${m.dport !== undefined ? ` --dport ${m.dport}` : ''}`;
		case 'statistic':
			return ` -m statistic --mode random --probability ${statisticProbability(m.probability)}`;
		case 'mark':
			return ` -m mark${m.invert ? ' !' : ''} --mark ${markText(m.mark, m.mask)}`;
		case 'addrtype': {
			let out = ' -m addrtype';
			if (m.srcType) out += `${m.srcInvert ? ' !' : ''} --src-type ${m.srcType}`;
			if (m.dstType) out += `${m.dstInvert ? ' !' : ''} --dst-type ${m.dstType}`;
			return out;
		}
		case 'conntrack':
			return ` -m conntrack${m.invert ? ' !' : ''} --ctstate ${m.ctstate.join(',')}`;
		case 'set':
			return ` -m set${m.invert ? ' !' : ''} --match-set ${m.name} ${m.flags}`;
		case 'recent': {
			let out = ' -m recent';
			if (m.set) out += ' --set';
			if (m.rcheck) out += ' --rcheck';
			if (m.seconds) out += ` --seconds ${m.seconds}`;
			if (m.reap) out += ' --reap';
			out += ` --name ${m.name} --mask ${m.mask}`;
			if (m.rsource) out += ' --rsource';
			return out;
		}
		case 'nfacct':
			// libxt_nfacct's save prints the option and then the name with its own leading space.
			return ` -m nfacct --nfacct-name  ${m.name}`;
		case 'physdev':
			return ` -m physdev${m.invert ? ' !' : ''} --physdev-is-in`;
	}
}

function saveTarget(t: Target): string {
	switch (t.t) {
		case 'none':
			return '';
		case 'jump':
			return ` -j ${t.chain}`;
		case 'ACCEPT':
		case 'DROP':
		case 'RETURN':
			return ` -j ${t.t}`;
		case 'REJECT':
			return ` -j REJECT --reject-with ${t.rejectWith}`;
		case 'DNAT':
			return ` -j DNAT --to-destination ${t.to}`;
		case 'MARK':
			return ` -j MARK --set-xmark ${hex(t.mark)}/${hex(t.mask)}`;
		case 'MASQUERADE':
			return ` -j MASQUERADE${t.randomFully ? ' --random-fully' : ''}`;
	}
}

/** One rule in save form: `-A KUBE-SEP-X -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.1.5:80`. */
export function saveRule(chain: string, r: Rule): string {
	let out = `-A ${chain}`;
	if (r.src) out += `${r.srcInvert ? ' !' : ''} -s ${r.src.ip}/${r.src.prefix}`;
	if (r.dst) out += `${r.dstInvert ? ' !' : ''} -d ${r.dst.ip}/${r.dst.prefix}`;
	if (r.proto) out += `${r.protoInvert ? ' !' : ''} -p ${r.proto}`;
	for (const m of r.matches) out += saveMatch(m);
	return out + saveTarget(r.target);
}

/** `-L` words of a match (each starts with a space). */
function printMatch(m: Match, numeric: boolean): string {
	const port = (p: number) => (numeric ? String(p) : (SERVICES[p] ?? String(p)));
	switch (m.m) {
		case 'comment':
			return ` /* ${m.comment} */`;
		case 'tcp':
		case 'udp':
		case 'sctp':
			return ` ${m.m}${m.sport !== undefined ? ` spt:${port(m.sport)}` : ''}${m.dport !== undefined ? ` dpt:${port(m.dport)}` : ''}`;
		case 'statistic':
			return ` statistic mode random probability ${statisticProbability(m.probability)}`;
		case 'mark':
			return ` mark match${m.invert ? ' !' : ''} ${markText(m.mark, m.mask)}`;
		case 'addrtype': {
			let out = ' ADDRTYPE match';
			if (m.srcType) out += ` src-type ${m.srcInvert ? '!' : ''}${m.srcType}`;
			if (m.dstType) out += ` dst-type ${m.dstInvert ? '!' : ''}${m.dstType}`;
			return out;
		}
		case 'conntrack':
			return `${m.invert ? ' !' : ''} ctstate ${m.ctstate.join(',')}`;
		case 'set':
			return ` match-set ${m.invert ? '! ' : ''}${m.name} ${m.flags}`;
		case 'recent': {
			let out = ' recent:';
			if (m.set) out += ' SET';
			if (m.rcheck) out += ' CHECK';
			if (m.seconds) out += ` seconds: ${m.seconds}`;
			if (m.reap) out += ' reap';
			return `${out} name: ${m.name} side: ${m.rsource ? 'source' : 'dest'} mask: ${m.mask}`;
		}
		case 'nfacct':
			return ` nfacct-name  ${m.name}`;
		case 'physdev':
			return ` PHYSDEV match${m.invert ? ' !' : ''} --physdev-is-in`;
	}
}

function printTarget(t: Target): string {
	switch (t.t) {
		case 'REJECT':
			return ` reject-with ${t.rejectWith}`;
		case 'DNAT':
			return ` to:${t.to}`;
		case 'MARK':
			if (t.mark === 0) return ` MARK and ${hex(~t.mask)}`;
			if (t.mark === t.mask) return ` MARK or ${hex(t.mark)}`;
			if (t.mask === 0) return ` MARK xor ${hex(t.mark)}`;
			if (t.mask >>> 0 === 0xffffffff) return ` MARK set ${hex(t.mark)}`;
			return ` MARK xset ${hex(t.mark)}/${hex(t.mask)}`;
		case 'MASQUERADE':
			return t.randomFully ? ' random-fully' : '';
		default:
			return '';
	}
}

/** The target's name in the first column. */
function targetName(t: Target): string {
	switch (t.t) {
		case 'none':
			return '';
		case 'jump':
			return t.chain;
		default:
			return t.t;
	}
}

/** xtables_print_num: `%5llu ` up to 99999, then K, M, G... (`%8llu ` with -x). */
function printNum(n: number, exact: boolean): string {
	if (exact) return `${String(n).padStart(8)} `;
	if (n <= 99999) return `${String(n).padStart(5)} `;
	let v = Math.floor(n / 1000);
	for (const unit of ['K', 'M', 'G', 'T']) {
		if (v <= 9999) return `${String(v).padStart(4)}${unit} `;
		v = Math.floor(v / 1000);
	}
	return `${String(v).padStart(4)}P `;
}

/** One address column: `anywhere`, `10.96.0.1`, `10.244.0.0/16`, inverted with a leading `!`. */
function address(cidr: Rule['src'], invert: boolean | undefined, opts: ListOptions): string {
	let text: string;
	if (!cidr || cidr.prefix === 0) text = opts.numeric ? '0.0.0.0/0' : 'anywhere';
	else {
		const name = opts.numeric ? cidr.ip : cidr.prefix === 32 ? (opts.hostName?.(cidr.ip) ?? cidr.ip) : cidr.ip;
		// xtables_ipmask_to_numeric leaves out `/32`.
		text = cidr.prefix === 32 ? name : `${name}/${cidr.prefix}`;
	}
	return `${invert ? '!' : ' '}${text.padEnd(19)} `;
}

/** IANA protocol numbers of the protocols kube-proxy's rules name. */
const PROTOCOL_NUMBERS: Record<string, string> = { all: '0', icmp: '1', tcp: '6', udp: '17', icmpv6: '58', sctp: '132' };

/**
 * The prot column. iptables 1.8.9 and 1.8.10 (Ubuntu 24.04's) print the
 * protocol's number with -n ("xshared: Print protocol numbers if --numeric
 * was given"; reverted after 1.8.10), its name otherwise.
 */
function protocolColumn(proto: string, numeric: boolean): string {
	return numeric ? (PROTOCOL_NUMBERS[proto] ?? proto) : proto;
}

/** One rule in list form. */
export function listRule(r: Rule, index: number, opts: ListOptions): string {
	let out = '';
	if (opts.lineNumbers) out += `${String(index).padEnd(4)} `;
	if (opts.verbose) out += printNum(0, opts.exact) + printNum(0, opts.exact);
	out += `${targetName(r.target).padEnd(9)} `;
	out += `${r.protoInvert ? '!' : ' '}${protocolColumn(r.proto ?? 'all', opts.numeric).padEnd(5)}`;
	out += '-- ';
	if (opts.verbose) out += ` ${(opts.numeric ? '*' : 'any').padEnd(6)} ${(opts.numeric ? '*' : 'any').padEnd(6)} `;
	out += address(r.src, r.srcInvert, opts);
	out += address(r.dst, r.dstInvert, opts);
	// With no match or target words the line keeps the destination column's padding, as iptables prints it.
	return out + r.matches.map((m) => printMatch(m, opts.numeric)).join('') + printTarget(r.target);
}

/** Rules that jump to `chain` anywhere in the table (the `(N references)` of a user chain). */
export function references(table: Table, chain: string): number {
	let n = 0;
	for (const c of table.chains) for (const r of c.rules) if (r.target.t === 'jump' && r.target.chain === chain) n++;
	return n;
}

/** print_header: `Chain X (policy ACCEPT)` or `Chain X (N references)`, then the column titles. */
export function listHeader(table: Table, chain: Chain, opts: ListOptions): string {
	let line = `Chain ${chain.name}`;
	// The policy's counters print without padding (FMT_NOTABLE); nothing here counts packets.
	if (chain.policy) line += opts.verbose ? ` (policy ${chain.policy} 0 packets, 0 bytes)` : ` (policy ${chain.policy})`;
	else line += ` (${references(table, chain.name)} references)`;
	let titles = '';
	if (opts.lineNumbers) titles += `${'num'.padEnd(4)} `;
	if (opts.verbose) titles += opts.exact ? `${'pkts'.padStart(8)} ${'bytes'.padStart(10)} ` : `${'pkts'.padStart(5)} ${'bytes'.padStart(5)} `;
	titles += `${'target'.padEnd(9)} `;
	titles += ' prot opt';
	if (opts.verbose) titles += ` ${'in'.padEnd(6)} ${'out'.padEnd(6)} `;
	titles += ` ${'source'.padEnd(19)} `;
	titles += ` ${'destination'.padEnd(19)} `;
	return `${line}\n${titles}\n`;
}

/** Built-in chains first (in the kernel's order), then user chains sorted by name, as iptables-nft lists them. */
export function orderedChains(table: Table): Chain[] {
	const builtins = table.chains.filter((c) => c.policy !== undefined);
	const users = table.chains.filter((c) => c.policy === undefined).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	return [...builtins, ...users];
}
