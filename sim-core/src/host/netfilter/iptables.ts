/**
 * The iptables rules of one node as the kernel holds them (nf_tables
 * under iptables-nft): per table, built-in chains with their policy and
 * user chains, each a list of rules made of the IPv4 header match
 * (`-s`, `-d`, `-p`), extension matches (`-m comment`, `-m tcp`,
 * `-m statistic`...) and one target. The kernel keeps no command line, so
 * the tools print a rule from this structure: `iptables-save` writes
 * `-d 10.96.0.1/32 -p tcp -m comment ...` whatever order kube-proxy wrote
 * the arguments in, exactly as the real tool normalizes them.
 *
 * Writers (kube-proxy, the kubelet's own chains) go through
 * `parseRuleArgs`, which reads the `iptables-restore` arguments they
 * write, the way iptables-restore parses them. Plain JSON, owned by the
 * node (NodeDataplaneState); only kube-proxy and the node's boot change it.
 *
 * Mirrors netfilter/iptables iptables/xshared.c (do_parse, as
 * iptables-restore reads a rule), netfilter/iptables extensions/ (the
 * libxt_* matches and targets kube-proxy uses).
 */

export type TableName = 'filter' | 'nat' | 'mangle';

/** The built-in chains of each table, in the kernel's (and iptables-save's) order. */
export const BUILTIN_CHAINS: Readonly<Record<TableName, readonly string[]>> = {
	filter: ['INPUT', 'FORWARD', 'OUTPUT'],
	nat: ['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING'],
	mangle: ['PREROUTING', 'INPUT', 'FORWARD', 'OUTPUT', 'POSTROUTING'],
};

/** An IPv4 network: `10.96.0.1/32`. */
interface Cidr {
	ip: string;
	prefix: number;
}

/** One extension match (`-m <name> ...`), with the options kube-proxy uses. */
export type Match =
	| { m: 'comment'; comment: string }
	| { m: 'tcp' | 'udp' | 'sctp'; dport?: number; sport?: number }
	| { m: 'statistic'; mode: 'random'; probability: string }
	| { m: 'mark'; mark: number; mask: number; invert?: boolean }
	| { m: 'addrtype'; srcType?: string; srcInvert?: boolean; dstType?: string; dstInvert?: boolean }
	| { m: 'conntrack'; ctstate: string[]; invert?: boolean }
	| { m: 'set'; name: string; flags: string; invert?: boolean }
	| { m: 'recent'; name: string; set?: boolean; rcheck?: boolean; seconds?: number; reap?: boolean; mask: string; rsource: boolean }
	| { m: 'nfacct'; name: string }
	| { m: 'physdev'; isIn: boolean; invert?: boolean };

/** The verdict or action of a rule (`-j ...`). A rule without `-j` has none. */
export type Target =
	| { t: 'jump'; chain: string }
	| { t: 'ACCEPT' | 'DROP' | 'RETURN' }
	| { t: 'REJECT'; rejectWith: string }
	| { t: 'DNAT'; to: string }
	| { t: 'MARK'; mark: number; mask: number }
	| { t: 'MASQUERADE'; randomFully: boolean }
	| { t: 'none' };

export interface Rule {
	src?: Cidr;
	srcInvert?: boolean;
	dst?: Cidr;
	dstInvert?: boolean;
	proto?: string;
	protoInvert?: boolean;
	matches: Match[];
	target: Target;
}

export interface Chain {
	name: string;
	/** Built-in chains have a policy; user chains do not. */
	policy?: 'ACCEPT' | 'DROP';
	rules: Rule[];
}

/** Chains in creation order (the tools sort user chains by name, as iptables-nft does). */
export interface Table {
	chains: Chain[];
}

export type IptablesState = Record<TableName, Table>;

/** Tables with their built-in chains and nothing else (a freshly booted node). */
export function emptyIptables(): IptablesState {
	const table = (name: TableName): Table => ({ chains: BUILTIN_CHAINS[name].map((c) => ({ name: c, policy: 'ACCEPT', rules: [] })) });
	return { filter: table('filter'), nat: table('nat'), mangle: table('mangle') };
}

export function findChain(table: Table, name: string): Chain | undefined {
	return table.chains.find((c) => c.name === name);
}

/** EnsureChain: the chain, created empty if missing. */
export function ensureChain(table: Table, name: string): Chain {
	let chain = findChain(table, name);
	if (!chain) {
		chain = { name, rules: [] };
		table.chains.push(chain);
	}
	return chain;
}

/** Whether two rules are the same rule (iptables -C compares the whole rule). */
export function sameRule(a: Rule, b: Rule): boolean {
	return JSON.stringify(a) === JSON.stringify(b);
}

/** EnsureRule(Prepend|Append): adds the rule unless an identical one is already in the chain. */
export function ensureRule(table: Table, chainName: string, rule: Rule, position: 'prepend' | 'append'): boolean {
	const chain = ensureChain(table, chainName);
	if (chain.rules.some((r) => sameRule(r, rule))) return false;
	if (position === 'prepend') chain.rules.unshift(rule);
	else chain.rules.push(rule);
	return true;
}

/** An error in a restore line (iptables-restore would refuse the whole transaction). */
class RuleSyntaxError extends Error {}

function parseCidr(text: string): Cidr {
	const [ip, prefix] = text.split('/');
	if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) throw new RuleSyntaxError(`host/network \`${text}' not found`);
	return { ip, prefix: prefix === undefined ? 32 : Number(prefix) };
}

function parseMark(text: string): { mark: number; mask: number } {
	const [value, mask] = text.split('/');
	return { mark: Number(value), mask: mask === undefined ? 0xffffffff : Number(mask) };
}

/**
 * Parses the arguments of one rule as kube-proxy writes them for
 * iptables-restore (`-A CHAIN ... -j TARGET ...`), into the kernel's
 * shape. Options are read in order; `!` inverts the next option. Throws
 * RuleSyntaxError for what iptables would reject.
 */
export function parseRuleArgs(args: readonly string[]): { chain: string; rule: Rule } {
	if (args[0] !== '-A' || !args[1]) throw new RuleSyntaxError('rule must start with -A CHAIN');
	const chain = args[1];
	const rule: Rule = { matches: [], target: { t: 'none' } };
	let current: Match | undefined;
	let invert = false;
	let i = 2;
	const next = (): string => {
		const value = args[i++];
		if (value === undefined) throw new RuleSyntaxError(`option "${args[i - 2]}" requires an argument`);
		return value;
	};
	const take = (): boolean => {
		const was = invert;
		invert = false;
		return was;
	};
	while (i < args.length) {
		const arg = args[i++];
		if (arg === '!') {
			invert = true;
			continue;
		}
		switch (arg) {
			case '-s':
			case '--src':
			case '--source':
				rule.src = parseCidr(next());
				if (take()) rule.srcInvert = true;
				continue;
			case '-d':
			case '--dst':
			case '--destination':
				rule.dst = parseCidr(next());
				if (take()) rule.dstInvert = true;
				continue;
			case '-p':
			case '--protocol':
				rule.proto = next().toLowerCase();
				if (take()) rule.protoInvert = true;
				continue;
			case '-m':
			case '--match': {
				const name = next();
				current = newMatch(name);
				rule.matches.push(current);
				continue;
			}
			case '-j':
			case '--jump':
				rule.target = parseTarget(next(), args, () => i, (n) => (i = n));
				current = undefined;
				continue;
		}
		if (!current) throw new RuleSyntaxError(`unknown option "${arg}"`);
		parseMatchOption(current, arg, next, take);
	}
	return { chain, rule };
}

function newMatch(name: string): Match {
	switch (name) {
		case 'comment':
			return { m: 'comment', comment: '' };
		case 'tcp':
		case 'udp':
		case 'sctp':
			return { m: name };
		case 'statistic':
			return { m: 'statistic', mode: 'random', probability: '0' };
		case 'mark':
			return { m: 'mark', mark: 0, mask: 0xffffffff };
		case 'addrtype':
			return { m: 'addrtype' };
		case 'conntrack':
			return { m: 'conntrack', ctstate: [] };
		case 'set':
			return { m: 'set', name: '', flags: '' };
		case 'recent':
			return { m: 'recent', name: 'DEFAULT', mask: '255.255.255.255', rsource: true };
		case 'nfacct':
			return { m: 'nfacct', name: '' };
		case 'physdev':
			return { m: 'physdev', isIn: false };
		default:
			throw new RuleSyntaxError(`Couldn't load match \`${name}':No such file or directory`);
	}
}

function parseMatchOption(match: Match, option: string, next: () => string, take: () => boolean): void {
	switch (match.m) {
		case 'comment':
			if (option !== '--comment') break;
			// iptables-restore strips the shell-style quotes kube-proxy writes around comments.
			match.comment = next().replace(/^"(.*)"$/, '$1');
			return;
		case 'tcp':
		case 'udp':
		case 'sctp':
			if (option === '--dport' || option === '--destination-port') {
				match.dport = Number(next());
				return;
			}
			if (option === '--sport' || option === '--source-port') {
				match.sport = Number(next());
				return;
			}
			break;
		case 'statistic':
			if (option === '--mode') {
				next();
				return;
			}
			if (option === '--probability') {
				match.probability = next();
				return;
			}
			break;
		case 'mark':
			if (option === '--mark') {
				Object.assign(match, parseMark(next()));
				if (take()) match.invert = true;
				return;
			}
			break;
		case 'addrtype':
			if (option === '--dst-type') {
				match.dstType = next();
				if (take()) match.dstInvert = true;
				return;
			}
			if (option === '--src-type') {
				match.srcType = next();
				if (take()) match.srcInvert = true;
				return;
			}
			break;
		case 'conntrack':
			if (option === '--ctstate') {
				match.ctstate = next().split(',');
				if (take()) match.invert = true;
				return;
			}
			break;
		case 'set':
			if (option === '--match-set') {
				match.name = next();
				match.flags = next();
				if (take()) match.invert = true;
				return;
			}
			break;
		case 'recent':
			switch (option) {
				case '--name':
					match.name = next();
					return;
				case '--set':
					match.set = true;
					return;
				case '--rcheck':
					match.rcheck = true;
					return;
				case '--seconds':
					match.seconds = Number(next());
					return;
				case '--reap':
					match.reap = true;
					return;
				case '--mask':
					match.mask = next();
					return;
				case '--rsource':
					match.rsource = true;
					return;
			}
			break;
		case 'nfacct':
			if (option === '--nfacct-name') {
				match.name = next();
				return;
			}
			break;
		case 'physdev':
			if (option === '--physdev-is-in') {
				match.isIn = true;
				if (take()) match.invert = true;
				return;
			}
			break;
	}
	throw new RuleSyntaxError(`unknown option "${option}"`);
}

function parseTarget(name: string, args: readonly string[], at: () => number, set: (n: number) => void): Target {
	const option = (flag: string): string | undefined => {
		const i = at();
		if (args[i] === flag && args[i + 1] !== undefined) {
			set(i + 2);
			return args[i + 1];
		}
		return undefined;
	};
	switch (name) {
		case 'ACCEPT':
		case 'DROP':
		case 'RETURN':
			return { t: name };
		case 'REJECT':
			// The default reject type is icmp-port-unreachable (libipt_REJECT.c).
			return { t: 'REJECT', rejectWith: option('--reject-with') ?? 'icmp-port-unreachable' };
		case 'DNAT': {
			const to = option('--to-destination');
			if (!to) throw new RuleSyntaxError('DNAT: option "--to-destination" required');
			return { t: 'DNAT', to };
		}
		case 'MARK': {
			const or = option('--or-mark');
			if (or !== undefined) return { t: 'MARK', mark: Number(or), mask: Number(or) };
			const xor = option('--xor-mark');
			if (xor !== undefined) return { t: 'MARK', mark: Number(xor), mask: 0 };
			const xset = option('--set-xmark');
			if (xset !== undefined) return { t: 'MARK', ...parseMark(xset) };
			throw new RuleSyntaxError('MARK target: parameter required');
		}
		case 'MASQUERADE':
			return { t: 'MASQUERADE', randomFully: takeFlag(args, at, set, '--random-fully') };
		default:
			return { t: 'jump', chain: name };
	}
}

function takeFlag(args: readonly string[], at: () => number, set: (n: number) => void, flag: string): boolean {
	if (args[at()] === flag) {
		set(at() + 1);
		return true;
	}
	return false;
}
