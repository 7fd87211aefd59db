/**
 * `nft` (nftables 1.0.9, Ubuntu 24.04's) listing one node's nftables tables:
 * `nft list ruleset`, `nft list tables`, `nft list table [family] NAME`,
 * `nft list chain [family] TABLE CHAIN`, `nft list set|map [family] TABLE
 * NAME`, `nft list chains`, `nft -v`. The listing is nft's own layout: a
 * table's comment, then its sets and maps, then its chains, separated by
 * blank lines; a base chain's `type ... hook ... priority ...; policy
 * accept;` line; set elements two addresses to a line, map elements one to a
 * line, continuation lines indented to the opening brace (`\t\t\t `). A
 * table that does not exist gets nft's error with the command echoed and the
 * name underlined, and a "did you mean" when a table's name is close (its
 * string_misspell threshold).
 *
 * Only the tables nft itself owns here are listed (kube-proxy's `ip` and
 * `ip6` tables in nftables mode): the iptables-nft tables of the kubelet
 * and of kube-proxy's other modes are read with iptables.
 *
 * Mirrors netfilter/nftables src/rule.c (table_print, set_print_declaration,
 * chain_print_declaration), netfilter/nftables src/expression.c
 * (set_expr_print, calculate_delim), netfilter/nftables src/cmd.c
 * (nft_cmd_enoent_table), netfilter/nftables src/misspell.c,
 * netfilter/nftables src/erec.c (the error location markers).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import type { NftChain, NftElement, NftSet, NftTable } from '../../host/netfilter/nftables.ts';
import { NFT_VERSION, type NetfilterDeps } from './types.ts';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const err = (stderr: string, exitCode = 1): CommandResult => ({ stdout: '', stderr, exitCode });

/** The continuation indent of set elements: under the character after `elements = { `. */
const ELEMENT_NEWLINE = ',\n\t\t\t     ';

function timeText(seconds: number): string {
	const parts: Array<[number, string]> = [
		[86_400, 'd'],
		[3_600, 'h'],
		[60, 'm'],
		[1, 's'],
	];
	let out = '';
	let rest = seconds;
	for (const [size, unit] of parts) {
		const n = Math.floor(rest / size);
		if (n > 0) out += `${n}${unit}`;
		rest -= n * size;
	}
	return out || '0s';
}

/** time_print: a duration in ms as nft prints it, `2h59m57s324ms`. */
function msText(ms: number): string {
	const parts: Array<[number, string]> = [
		[86_400_000, 'd'],
		[3_600_000, 'h'],
		[60_000, 'm'],
		[1_000, 's'],
		[1, 'ms'],
	];
	let out = '';
	let rest = Math.max(0, Math.round(ms));
	for (const [size, unit] of parts) {
		const n = Math.floor(rest / size);
		if (n > 0) out += `${n}${unit}`;
		rest -= n * size;
	}
	return out || '0ms';
}

/** One element; one a rule added to a timeout set shows when it expires (the set's own timeout is not repeated). */
function elementText(e: NftElement, nowMs: number | undefined, stateless: boolean): string {
	const expires = e.expiresAtMs !== undefined && nowMs !== undefined && !stateless ? ` expires ${msText(e.expiresAtMs - nowMs)}` : '';
	return `${e.key}${expires}${e.comment !== undefined ? ` comment "${e.comment}"` : ''}${e.value !== undefined ? ` : ${e.value}` : ''}`;
}

/** set_expr_print with calculate_delim: addresses two to a line, concatenations and verdicts one. */
function elementsText(elements: readonly NftElement[], set: NftSet, nowMs: number | undefined, stateless: boolean): string {
	const plainAddresses = set.kind === 'set' && (set.type === 'ipv4_addr' || set.type === 'ipv6_addr');
	let out = '{ ';
	elements.forEach((e, i) => {
		if (i > 0) out += plainAddresses ? (i % 2 === 0 ? ELEMENT_NEWLINE : ', ') : ELEMENT_NEWLINE;
		out += elementText(e, nowMs, stateless);
	});
	return `${out} }`;
}

/** The clock a listing reads element expiry against, and `-s` (stateless: no expiry shown). */
interface ListClock {
	nowMs?: number;
	stateless?: boolean;
}

function setText(set: NftSet, clock: ListClock = {}): string {
	const { nowMs } = clock;
	let out = `\t${set.kind} ${set.name} {\n\t\ttype ${set.type}\n`;
	if (set.flags?.length) out += `\t\tflags ${set.flags.join(',')}\n`;
	if (set.timeoutSeconds) out += `\t\ttimeout ${timeText(set.timeoutSeconds)}\n`;
	if (set.comment !== undefined) out += `\t\tcomment "${set.comment}"\n`;
	// Elements past their timeout are gone, whether or not the kernel's GC ran yet.
	const live = set.elements.filter((e) => e.expiresAtMs === undefined || nowMs === undefined || e.expiresAtMs > nowMs);
	if (live.length > 0) out += `\t\telements = ${elementsText(live, set, nowMs, clock.stateless === true)}\n`;
	return `${out}\t}\n`;
}

function chainText(chain: NftChain): string {
	let out = `\tchain ${chain.name} {\n`;
	if (chain.comment !== undefined) out += `\t\tcomment "${chain.comment}"\n`;
	if (chain.base) out += `\t\ttype ${chain.base.type} hook ${chain.base.hook} priority ${chain.base.priority}; policy accept;\n`;
	for (const rule of chain.rules) out += `\t\t${rule}\n`;
	return `${out}\t}\n`;
}

/** One table as `nft list table` prints it. */
export function tableText(table: NftTable, clock: ListClock = {}): string {
	let out = `table ${table.family} ${table.name} {\n`;
	if (table.comment !== undefined) out += `\tcomment "${table.comment}"\n`;
	const parts = [...table.sets.map((set) => setText(set, clock)), ...table.chains.map(chainText)];
	return `${out}${parts.join('\n')}}\n`;
}

/** string_misspell_update: the closest name within nft's distance threshold. */
function misspell(name: string, candidates: readonly string[]): string | undefined {
	let best: string | undefined;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (const candidate of candidates) {
		const maxLen = Math.max(name.length, candidate.length);
		const minLen = Math.min(name.length, candidate.length);
		if (maxLen <= 1) continue;
		const threshold = maxLen - minLen <= 1 ? Math.max(Math.ceil(maxLen / 3), 1) : Math.ceil((maxLen + 2) / 3);
		const distance = levenshtein(name, candidate);
		if (distance > threshold || distance >= bestDistance) continue;
		bestDistance = distance;
		best = candidate;
	}
	return best;
}

function levenshtein(a: string, b: string): number {
	let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
		prev = row;
	}
	return prev[b.length];
}

/** erec_print: the message, the command line, carets under the offending word. */
function locatedError(message: string, line: string, word: number): CommandResult {
	const words = line.split(' ');
	const start = words.slice(0, word).join(' ').length + (word > 0 ? 1 : 0);
	return err(`Error: ${message}\n${line}\n${' '.repeat(start)}${'^'.repeat(words[word]?.length ?? 1)}\n`);
}

const FAMILIES = new Set(['ip', 'ip6', 'inet', 'arp', 'bridge', 'netdev']);

function run(ctx: CommandContext, deps: NetfilterDeps): CommandResult {
	let args = ctx.argv.slice(1);
	const clock: ListClock = { nowMs: deps.nowMs?.() };
	while (args[0]?.startsWith('-')) {
		const opt = args[0];
		if (opt === '-s' || opt === '--stateless') clock.stateless = true;
		if (opt === '-v' || opt === '--version') return ok(`nftables ${NFT_VERSION}\n`);
		if (opt === '-h' || opt === '--help') return ok('Usage: nft [ options ] [ cmds... ]\n');
		if (!/^-(n|s|a|N|S|c|e|j|t|T|y|--numeric|--stateless|--handle|--terse)$/.test(opt)) return err(`nft: unrecognized option '${opt}'\n`);
		args = args.slice(1);
	}
	const line = args.join(' ');
	if (args.length === 0) return err('Error: syntax error, unexpected end of file\n\n^\n');
	if (args[0] !== 'list') {
		if (/^(add|create|insert|replace|delete|destroy|flush|reset|rename)$/.test(args[0])) return err(`nft ${args[0]}: not simulated (the table belongs to kube-proxy; read it with nft list)\n`);
		return locatedError(`syntax error, unexpected string`, line, 0);
	}
	if (ctx.host.user !== 'root') return err('netlink: Error: cache initialization failed: Operation not permitted\n');
	const tables = deps.dataplane().nftables;
	const what = args[1];
	const rest = args.slice(2);
	const familyOf = (words: string[]): { family: string; names: string[] } => (FAMILIES.has(words[0] ?? '') ? { family: words[0], names: words.slice(1) } : { family: 'ip', names: words });
	const findTable = (family: string, name: string) => tables.find((t) => t.family === family && t.name === name);
	const missingTable = (family: string, name: string, wordIndex: number): CommandResult => {
		const guess = misspell(name, tables.filter((t) => t.family === family).map((t) => t.name));
		const found = guess ? tables.find((t) => t.name === guess && t.family === family) : undefined;
		return locatedError(found ? `No such file or directory; did you mean table ‘${found.name}’ in family ${found.family}?` : 'No such file or directory', line, wordIndex);
	};
	switch (what) {
		case 'ruleset':
			return ok(tables.map((t) => tableText(t, clock)).join(''));
		case 'tables':
			return ok(tables.map((t) => `table ${t.family} ${t.name}\n`).join(''));
		case 'table': {
			const { family, names } = familyOf(rest);
			if (names.length !== 1) return locatedError('syntax error, unexpected end of file', line, args.length - 1);
			const table = findTable(family, names[0]);
			return table ? ok(tableText(table, clock)) : missingTable(family, names[0], args.length - 1);
		}
		case 'chains':
			return ok(tables.map((t) => `table ${t.family} ${t.name} {\n${t.chains.map((c) => `\tchain ${c.name} {\n${c.base ? `\t\ttype ${c.base.type} hook ${c.base.hook} priority ${c.base.priority}; policy accept;\n` : ''}\t}\n`).join('')}}\n`).join(''));
		case 'chain':
		case 'set':
		case 'map': {
			const { family, names } = familyOf(rest);
			if (names.length !== 2) return locatedError('syntax error, unexpected end of file', line, args.length - 1);
			const table = findTable(family, names[0]);
			const tableWord = args.length - 2;
			if (!table) return missingTable(family, names[0], tableWord);
			if (what === 'chain') {
				const chain = table.chains.find((c) => c.name === names[1]);
				if (!chain) return locatedError('No such file or directory', line, args.length - 1);
				return ok(`table ${table.family} ${table.name} {\n${chainText(chain)}}\n`);
			}
			const set = table.sets.find((s) => s.name === names[1] && s.kind === what);
			if (!set) return locatedError('No such file or directory', line, args.length - 1);
			return ok(`table ${table.family} ${table.name} {\n${setText(set, clock)}}\n`);
		}
		default:
			return locatedError('syntax error, unexpected string', line, 1);
	}
}

/** The `nft` command of one node. */
export function createNft(deps: NetfilterDeps): CommandHandler {
	return (ctx) => {
		try {
			return run(ctx, deps);
		} catch (error) {
			return err(`[sim-core/nft] internal error: ${error instanceof Error ? error.message : String(error)}\n`);
		}
	};
}
