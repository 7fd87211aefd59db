/**
 * `iptables` and `iptables-save` (1.8.10, nf_tables backend, Ubuntu 24.04)
 * reading one node's rules:
 *
 *     iptables [-t nat|filter|mangle] -L [CHAIN] [-n] [-v] [-x] [--line-numbers]
 *     iptables [-t TABLE] -S [CHAIN]
 *     iptables-save [-t TABLE] [-c]
 *
 * Options combine as getopt allows (`-nvL`, `-t nat`, `-tnat`,
 * `--list=KUBE-SERVICES`); the chain after -L/-S may be the next word. The
 * tables that iptables knows but the node never filled (raw, security)
 * list their empty built-in chains, as iptables-nft does; others are
 * errors. Commands that change rules are not simulated (the rules belong
 * to kube-proxy and the kubelet). Errors are the real tool's: `iptables:
 * No chain/target/match by that name.` (1), `unknown option` (2), `table
 * 'x' does not exist` (3), `Permission denied (you must be root)` (4).
 *
 * The rule formats are ../../host/netfilter/iptables-format.ts.
 *
 * Mirrors netfilter/iptables iptables/xtables.c, netfilter/iptables
 * iptables/xshared.c (do_parse, the usage text, xtables_error's exit codes
 * and wording), netfilter/iptables iptables/nft.c (nft_rule_list,
 * nft_rule_list_save, nft_strerror), netfilter/iptables
 * iptables/xtables-save.c.
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { BUILTIN_CHAINS, type Chain, type Table, type TableName } from '../../host/netfilter/iptables.ts';
import { civilTime } from '../../golang/time.ts';
import { listHeader, listRule, orderedChains, saveRule, type ListOptions } from '../../host/netfilter/iptables-format.ts';
import { IPTABLES_VERSION, type NetfilterDeps } from './types.ts';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const err = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode });

/** The tables iptables knows, with their built-in chains (xtables_ipv4 in nft.c). */
const KNOWN_TABLES: Readonly<Record<string, readonly string[]>> = {
	...BUILTIN_CHAINS,
	raw: ['PREROUTING', 'OUTPUT'],
	security: ['INPUT', 'FORWARD', 'OUTPUT'],
};

/** xtables_error(PARAMETER_PROBLEM, ...): exit 2 with the `Try ...` hint. */
function parameterProblem(program: string, message: string): CommandResult {
	return err(`${program} ${IPTABLES_VERSION} (nf_tables): ${message}\nTry \`${program} -h' or '${program} --help' for more information.\n`, 2);
}

/** Listing as a user other than root: the nf_tables backend cannot read the ruleset. */
function notRoot(program: string): CommandResult {
	return err(`${program} ${IPTABLES_VERSION} (nf_tables): Could not fetch rule set generation id: Permission denied (you must be root)\n`, 4);
}

/** The tables as iptables-nft sees them: the node's, or a known table's empty built-in chains. */
function tableOf(deps: NetfilterDeps, name: string): Table | undefined {
	const state = deps.dataplane().iptables;
	if (name in state) return state[name as TableName];
	const builtins = KNOWN_TABLES[name];
	return builtins ? { chains: builtins.map((c) => ({ name: c, policy: 'ACCEPT', rules: [] })) } : undefined;
}

/** iptables 1.8's usage (xshared.c print_help), as `iptables -h` prints it. */
const HELP = `iptables ${IPTABLES_VERSION}

Usage: iptables -[ACD] chain rule-specification [options]
       iptables -I chain [rulenum] rule-specification [options]
       iptables -R chain rulenum rule-specification [options]
       iptables -D chain rulenum [options]
       iptables -[LS] [chain [rulenum]] [options]
       iptables -[FZ] [chain] [options]
       iptables -[NX] chain
       iptables -E old-chain-name new-chain-name
       iptables -P chain target [options]
       iptables -h (print this help information)

Commands:
Either long or short options are allowed.
  --append  -A chain		Append to chain
  --check   -C chain		Check for the existence of a rule
  --delete  -D chain		Delete matching rule from chain
  --delete  -D chain rulenum
				Delete rule rulenum (1 = first) from chain
  --insert  -I chain [rulenum]
				Insert in chain as rulenum (default 1=first)
  --replace -R chain rulenum
				Replace rule rulenum (1 = first) in chain
  --list    -L [chain [rulenum]]
				List the rules in a chain or all chains
  --list-rules -S [chain [rulenum]]
				Print the rules in a chain or all chains
  --flush   -F [chain]		Delete all rules in  chain or all chains
  --zero    -Z [chain [rulenum]]
				Zero counters in chain or all chains
  --new     -N chain		Create a new user-defined chain
  --delete-chain
	     -X [chain]		Delete a user-defined chain
  --policy  -P chain target
				Change policy on chain to target
  --rename-chain
	     -E old-chain new-chain
				Change chain name, (moving any references)

Options:
    --ipv4	-4		Nothing (line is ignored by ip6tables-restore)
    --ipv6	-6		Error (line is ignored by iptables-restore)
[!] --protocol	-p proto	protocol: by number or name, eg. \`tcp'
[!] --source	-s address[/mask][...]
				source specification
[!] --destination -d address[/mask][...]
				destination specification
[!] --in-interface -i input name[+]
				network interface name ([+] for wildcard)
 --jump	-j target
				target for rule (may load target extension)
  --goto      -g chain
			       jump to chain with no return
  --match	-m match
				extended match (may load extension)
  --numeric	-n		numeric output of addresses and ports
[!] --out-interface -o output name[+]
				network interface name ([+] for wildcard)
  --table	-t table	table to manipulate (default: \`filter')
  --verbose	-v		verbose mode
  --wait	-w [seconds]	maximum wait to acquire xtables lock before give up
  --line-numbers		print line numbers when listing
  --exact	-x		expand numbers (display exact values)
[!] --fragment	-f		match second or further fragments only
  --modprobe=<command>		try to insert modules using this command
  --set-counters -c PKTS BYTES	set the counter during insert/append
[!] --version	-V		print package version.
`;

interface Parsed {
	command?: 'L' | 'S';
	chain?: string;
	table: string;
	opts: ListOptions;
}

/** Long options and the short letter each stands for. */
const LONG: Readonly<Record<string, string>> = {
	'--list': 'L',
	'--list-rules': 'S',
	'--table': 't',
	'--numeric': 'n',
	'--verbose': 'v',
	'--exact': 'x',
	'--line-numbers': '#',
	'--help': 'h',
	'--version': 'V',
	'--wait': 'w',
	'--append': 'A',
	'--check': 'C',
	'--delete': 'D',
	'--insert': 'I',
	'--replace': 'R',
	'--flush': 'F',
	'--zero': 'Z',
	'--new-chain': 'N',
	'--new': 'N',
	'--delete-chain': 'X',
	'--policy': 'P',
	'--rename-chain': 'E',
};

const WRITING = new Set(['A', 'C', 'D', 'I', 'R', 'F', 'Z', 'N', 'X', 'P', 'E']);

function parse(argv: string[], deps: NetfilterDeps): Parsed | CommandResult {
	const program = 'iptables';
	const p: Parsed = { table: 'filter', opts: { numeric: false, verbose: false, lineNumbers: false, exact: false, hostName: deps.hostName } };
	const setCommand = (c: 'L' | 'S', chain: string | undefined, i: number): number => {
		if (p.command && p.command !== c) return -1;
		p.command = c;
		if (chain !== undefined) p.chain = chain;
		else if (i + 1 < argv.length && !argv[i + 1].startsWith('-') && argv[i + 1] !== '!') {
			p.chain = argv[i + 1];
			return i + 1;
		}
		return i;
	};
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg.startsWith('--')) {
			const eq = arg.indexOf('=');
			const name = eq > 0 ? arg.slice(0, eq) : arg;
			const value = eq > 0 ? arg.slice(eq + 1) : undefined;
			const letter = LONG[name];
			if (!letter) return parameterProblem(program, `unknown option "${arg}"`);
			if (letter === 'h') return ok(HELP);
			if (letter === 'V') return ok(`iptables ${IPTABLES_VERSION} (nf_tables)\n`);
			if (WRITING.has(letter)) return err(`iptables ${name}: not simulated (the node's rules are kube-proxy's and the kubelet's; read them with -L, -S or iptables-save)\n`, 2);
			if (letter === 'L' || letter === 'S') {
				const next = setCommand(letter, value, i);
				if (next < 0) return parameterProblem(program, `Can't use -${letter} with -${p.command}`);
				i = next;
			} else if (letter === 't') {
				const table = value ?? argv[++i];
				if (table === undefined) return parameterProblem(program, 'option "--table" requires an argument');
				p.table = table;
			} else if (letter === 'n') p.opts.numeric = true;
			else if (letter === 'v') p.opts.verbose = true;
			else if (letter === 'x') p.opts.exact = true;
			else if (letter === '#') p.opts.lineNumbers = true;
			continue;
		}
		if (arg.startsWith('-') && arg.length > 1) {
			for (let k = 1; k < arg.length; k++) {
				const c = arg[k];
				const rest = arg.slice(k + 1);
				switch (c) {
					case 'L':
					case 'S': {
						const next = setCommand(c, rest || undefined, i);
						if (next < 0) return parameterProblem(program, `Can't use -${c} with -${p.command}`);
						i = next;
						k = arg.length;
						break;
					}
					case 't': {
						const table = rest || argv[++i];
						if (table === undefined) return parameterProblem(program, 'option "-t" requires an argument');
						p.table = table;
						k = arg.length;
						break;
					}
					case 'n':
						p.opts.numeric = true;
						break;
					case 'v':
						p.opts.verbose = true;
						break;
					case 'x':
						p.opts.exact = true;
						break;
					case 'w':
					case '4':
						break;
					case 'h':
						return ok(HELP);
					case 'V':
						return ok(`iptables ${IPTABLES_VERSION} (nf_tables)\n`);
					default:
						if (WRITING.has(c)) return err(`iptables -${c}: not simulated (the node's rules are kube-proxy's and the kubelet's; read them with -L, -S or iptables-save)\n`, 2);
						return parameterProblem(program, `unknown option "-${c}"`);
				}
			}
			continue;
		}
		return parameterProblem(program, `Bad argument \`${arg}'`);
	}
	return p;
}

function chainsToShow(table: Table, chain: string | undefined): Chain[] | undefined {
	if (chain === undefined) return orderedChains(table);
	const found = table.chains.find((c) => c.name === chain);
	return found ? [found] : undefined;
}

/** `iptables -L`. */
function list(table: Table, chains: Chain[], opts: ListOptions): string {
	return chains
		.map((chain) => listHeader(table, chain, opts) + chain.rules.map((r, i) => `${listRule(r, i + 1, opts)}\n`).join(''))
		.join('\n');
}

/** `iptables -S`: `-P` for built-in chains, `-N` for user chains, then every rule. */
function listRules(chains: Chain[]): string {
	let out = '';
	for (const c of chains) out += c.policy ? `-P ${c.name} ${c.policy}\n` : `-N ${c.name}\n`;
	for (const c of chains) for (const r of c.rules) out += `${saveRule(c.name, r)}\n`;
	return out;
}

function run(ctx: CommandContext, deps: NetfilterDeps): CommandResult {
	const parsed = parse(ctx.argv.slice(1), deps);
	if ('exitCode' in parsed) return parsed;
	if (!parsed.command) return parameterProblem('iptables', 'no command specified');
	if (ctx.host.user !== 'root') return notRoot('iptables');
	const table = tableOf(deps, parsed.table);
	if (!table) return err(`iptables ${IPTABLES_VERSION} (nf_tables): table '${parsed.table}' does not exist\nPerhaps iptables or your kernel needs to be upgraded.\n`, 3);
	const chains = chainsToShow(table, parsed.chain);
	if (!chains) return err('iptables: No chain/target/match by that name.\n', 1);
	return ok(parsed.command === 'L' ? list(table, chains, parsed.opts) : listRules(chains));
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** ctime(3) in UTC: `Mon Nov 30 08:05:00 2026` (the day of month padded with a space). */
export function ctime(wallMs: number): string {
	const t = civilTime(wallMs);
	const two = (n: number) => String(n).padStart(2, '0');
	return `${WEEKDAYS[t.weekday]} ${MONTHS[t.month - 1]} ${String(t.day).padStart(2, ' ')} ${two(t.hour)}:${two(t.minute)}:${two(t.second)} ${t.year}`;
}

/** The order iptables-nft-save walks the tables in (its table enum: mangle, ..., filter, nat). */
const SAVE_ORDER: readonly TableName[] = ['mangle', 'filter', 'nat'];

/** One table in iptables-save form. */
export function saveTable(name: string, table: Table, wallMs: number, counters: boolean): string {
	const when = ctime(wallMs);
	let out = `# Generated by iptables-nft-save ${IPTABLES_VERSION} on ${when}\n*${name}\n`;
	const chains = orderedChains(table);
	for (const c of chains) out += `:${c.name} ${c.policy ?? '-'} [0:0]\n`;
	for (const c of chains) for (const r of c.rules) out += `${counters ? '[0:0] ' : ''}${saveRule(c.name, r)}\n`;
	return `${out}COMMIT\n# Completed on ${when}\n`;
}

function runSave(ctx: CommandContext, deps: NetfilterDeps): CommandResult {
	const argv = ctx.argv.slice(1);
	let only: string | undefined;
	let counters = false;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '-t' || arg === '--table') {
			only = argv[++i];
			if (only === undefined) return err(`iptables-save: option '${arg}' requires an argument\nLook at manual page \`iptables-save.8' for more information.\n`, 1);
		} else if (arg.startsWith('--table=')) only = arg.slice(8);
		else if (arg.startsWith('-t') && arg.length > 2) only = arg.slice(2);
		else if (arg === '-c' || arg === '--counters') counters = true;
		else if (arg === '-V' || arg === '--version') return ok(`iptables-save ${IPTABLES_VERSION} (nf_tables)\n`);
		else if (arg === '-h' || arg === '--help') return ok('Usage: iptables-save [-b] [-c] [-d] [-t table] [-V]\n');
		else return err(`iptables-save: ${arg.startsWith('--') ? `unrecognized option '${arg}'` : `invalid option -- '${arg.replace(/^-/, '').charAt(0)}'`}\nLook at manual page \`iptables-save.8' for more information.\n`, 1);
	}
	if (ctx.host.user !== 'root') return notRoot('iptables-save');
	const state = deps.dataplane().iptables;
	if (only !== undefined) {
		const table = tableOf(deps, only);
		if (!table) return err(`iptables-save ${IPTABLES_VERSION} (nf_tables): table '${only}' does not exist\nPerhaps iptables or your kernel needs to be upgraded.\n`, 1);
		return ok(saveTable(only, table, deps.wallMs(), counters));
	}
	return ok(SAVE_ORDER.map((name) => saveTable(name, state[name], deps.wallMs(), counters)).join(''));
}

function guard(fn: (ctx: CommandContext) => CommandResult, name: string): CommandHandler {
	return (ctx) => {
		try {
			return fn(ctx);
		} catch (error) {
			return err(`[sim-core/${name}] internal error: ${error instanceof Error ? error.message : String(error)}\n`, 1);
		}
	};
}

/** The `iptables` command of one node. */
export function createIptables(deps: NetfilterDeps): CommandHandler {
	return guard((ctx) => run(ctx, deps), 'iptables');
}

/** The `iptables-save` command of one node. */
export function createIptablesSave(deps: NetfilterDeps): CommandHandler {
	return guard((ctx) => runSave(ctx, deps), 'iptables-save');
}
