/**
 * `journalctl` on a node: the journal of the kubelet, containerd and
 * systemd's messages about them. Supports -u/--unit, -n/--lines, -f
 * (bounded), -e, -r, -x, -o, --since/--until, -g/--grep, -p/--priority,
 * -t/--identifier, -b (the current boot), -q, --no-pager, --no-hostname,
 * -l/-a (no effect: lines are never cut here), -k (no kernel messages are
 * kept).
 *
 * Mirrors systemd/systemd src/journal/journalctl.c (parse_argv, the -- No
 * entries -- line, the optional argument of -n, -e implying -n1000, -f
 * implying -n10), systemd/systemd src/shared/logs-show.c.
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { getopt, type OptSpec } from './getopt.ts';
import { bootIndexAt, nodeJournal, type JournalRecord } from '../../host/systemd/journal.ts';
import { catalogText, formatRecord, OUTPUT_MODES, type OutputMode } from './journal-output.ts';
import { SYSTEMD_VERSION } from './systemctl.ts';
import { formatTimestamp, parseTimestamp } from '../../host/systemd/time.ts';
import type { SystemdDeps } from './types.ts';
import type { BootRecord } from '../../host/systemd/records.ts';
import { mangle } from '../../host/systemd/units.ts';

/** How long `-f` follows in virtual time before it returns, as if interrupted (the simulated terminal has no Ctrl-C). */
export const FOLLOW_MS = 10_000;
const FOLLOW_STEP_MS = 100;

const isLines = (w: string) => /^(\+?\d+|all)$/.test(w);
const isBoot = (w: string) => /^([+-]?\d+|[0-9a-f]{32}([+-]?\d+)?|all)$/.test(w);

const OPTIONS: OptSpec[] = [
	{ key: 'help', short: 'h', long: 'help', arg: 'none' },
	{ key: 'version', long: 'version', arg: 'none' },
	{ key: 'unit', short: 'u', long: 'unit', arg: 'required' },
	{ key: 'lines', short: 'n', long: 'lines', arg: 'optional', takesNext: isLines },
	{ key: 'follow', short: 'f', long: 'follow', arg: 'none' },
	{ key: 'pager-end', short: 'e', long: 'pager-end', arg: 'none' },
	{ key: 'reverse', short: 'r', long: 'reverse', arg: 'none' },
	{ key: 'catalog', short: 'x', long: 'catalog', arg: 'none' },
	{ key: 'output', short: 'o', long: 'output', arg: 'required' },
	{ key: 'since', short: 'S', long: 'since', arg: 'required' },
	{ key: 'until', short: 'U', long: 'until', arg: 'required' },
	{ key: 'grep', short: 'g', long: 'grep', arg: 'required' },
	{ key: 'case-sensitive', long: 'case-sensitive', arg: 'optional' },
	{ key: 'priority', short: 'p', long: 'priority', arg: 'required' },
	{ key: 'identifier', short: 't', long: 'identifier', arg: 'required' },
	{ key: 'boot', short: 'b', long: 'boot', arg: 'optional', takesNext: isBoot },
	{ key: 'dmesg', short: 'k', long: 'dmesg', arg: 'none' },
	{ key: 'list-boots', long: 'list-boots', arg: 'none' },
	{ key: 'quiet', short: 'q', long: 'quiet', arg: 'none' },
	{ key: 'no-pager', long: 'no-pager', arg: 'none' },
	{ key: 'no-tail', long: 'no-tail', arg: 'none' },
	{ key: 'no-hostname', long: 'no-hostname', arg: 'none' },
	{ key: 'full', short: 'l', long: 'full', arg: 'none' },
	{ key: 'all', short: 'a', long: 'all', arg: 'none' },
	{ key: 'utc', long: 'utc', arg: 'none' },
	{ key: 'merge', short: 'm', long: 'merge', arg: 'none' },
];

const PRIORITIES = ['emerg', 'alert', 'crit', 'err', 'warning', 'notice', 'info', 'debug'];

/** -p: a level name or number, or a range `from..to`; the maximum priority shown (and the minimum). */
function parsePriority(text: string): { min: number; max: number } | undefined {
	const level = (t: string) => {
		if (/^[0-7]$/.test(t)) return Number(t);
		const i = PRIORITIES.indexOf(t);
		return i >= 0 ? i : undefined;
	};
	const range = text.split('..');
	if (range.length === 2) {
		const a = level(range[0]);
		const b = level(range[1]);
		return a === undefined || b === undefined ? undefined : { min: Math.min(a, b), max: Math.max(a, b) };
	}
	const max = level(text);
	return max === undefined ? undefined : { min: 0, max };
}

function help(): string {
	return `journalctl [OPTIONS...] [MATCHES...]

Query the journal.

Options:
  -S --since=DATE            Show entries not older than the specified date
  -U --until=DATE            Show entries not newer than the specified date
  -b --boot[=ID]             Show current boot or the specified boot
     --list-boots            Show terse information about recorded boots
  -u --unit=UNIT             Show logs from the specified unit
  -t --identifier=STRING     Show entries with the specified syslog identifier
  -p --priority=RANGE        Show entries with the specified priority
  -g --grep=PATTERN          Show entries with MESSAGE matching PATTERN
  -e --pager-end             Immediately jump to the end in the pager
  -f --follow                Follow the journal
  -n --lines[=INTEGER]       Number of journal entries to show
  -r --reverse               Show the newest entries first
  -o --output=STRING         Change journal output mode (short, short-precise,
                               short-iso, short-iso-precise, short-full,
                               short-monotonic, short-unix, cat, with-unit)
  -x --catalog               Add message explanations where available
     --no-pager              Do not pipe output into a pager
`;
}

/**
 * The boot `-b` names, as an index into `boots`: none or 0 the current
 * one, -N the Nth before it, a positive N the Nth from the first, a boot
 * ID (32 hex digits) that boot; 'all' for all; undefined when the journal
 * has no such boot. Without boots, the only boot is the current one.
 */
function pickBoot(arg: string | undefined, boots: readonly BootRecord[]): number | 'all' | undefined {
	const count = Math.max(1, boots.length);
	if (arg === undefined) return count - 1;
	if (arg === 'all') return 'all';
	if (/^[0-9a-f]{32}$/.test(arg)) {
		const i = boots.findIndex((b) => b.id.replace(/-/g, '') === arg);
		return i < 0 ? undefined : i;
	}
	if (!/^[+-]?\d+$/.test(arg)) return undefined;
	const n = Number(arg);
	const index = n <= 0 ? count - 1 + n : n - 1;
	return index >= 0 && index < count ? index : undefined;
}

interface Query {
	units: string[];
	identifiers: string[];
	since?: number;
	until?: number;
	grep?: RegExp;
	priority?: { min: number; max: number };
}

function matches(r: JournalRecord, q: Query): boolean {
	if (q.units.length && !q.units.includes(r.unit)) return false;
	if (q.identifiers.length && !q.identifiers.includes(r.identifier)) return false;
	if (q.since !== undefined && r.wallMs < q.since) return false;
	if (q.until !== undefined && r.wallMs > q.until) return false;
	if (q.priority && (r.priority > q.priority.max || r.priority < q.priority.min)) return false;
	if (q.grep && !q.grep.test(r.message)) return false;
	return true;
}

export function runJournalctl(ctx: CommandContext, deps: SystemdDeps): CommandResult {
	const parsed = getopt('journalctl', ctx.argv.slice(1), OPTIONS);
	if (!parsed.ok) return { stdout: '', stderr: parsed.error + '\n', exitCode: 1 };
	const has = (k: string) => parsed.opts.some(([key]) => key === k);
	const value = (k: string) => [...parsed.opts].reverse().find(([key]) => key === k)?.[1];
	if (has('help')) return { stdout: help(), stderr: '', exitCode: 0 };
	if (has('version')) return { stdout: `systemd ${SYSTEMD_VERSION}\n`, stderr: '', exitCode: 0 };
	const nowMs = ctx.shell.clock?.(ctx.host.kind === 'node' ? ctx.host.name : undefined) ?? 0;
	const fail = (message: string): CommandResult => ({ stdout: '', stderr: message + '\n', exitCode: 1 });

	const output = (value('output') ?? 'short') as OutputMode;
	if (!(OUTPUT_MODES as readonly string[]).includes(output)) return fail(`Unknown output format '${output}'.`);
	const q: Query = { units: parsed.opts.filter(([k]) => k === 'unit').map(([, v]) => mangle(v ?? '')), identifiers: parsed.opts.filter(([k]) => k === 'identifier').map(([, v]) => v ?? '') };
	// MATCHES: FIELD=value pairs; the fields these entries carry are understood.
	for (const m of parsed.operands) {
		const eq = m.indexOf('=');
		if (eq <= 0) return fail(`Failed to add match '${m}': Invalid argument`);
		const field = m.slice(0, eq);
		const v = m.slice(eq + 1);
		if (field === '_SYSTEMD_UNIT' || field === 'UNIT') q.units.push(v);
		else if (field === 'SYSLOG_IDENTIFIER') q.identifiers.push(v);
		else if (field !== '_HOSTNAME' || v !== ctx.host.name) q.units.push(`\0${field}`);
	}
	for (const [key, label] of [
		['since', 'since'],
		['until', 'until'],
	] as const) {
		const text = value(key);
		if (text === undefined) continue;
		const at = parseTimestamp(text, nowMs);
		if (at === undefined) return fail(`Failed to parse timestamp: ${text}`);
		q[label] = at;
	}
	if (q.since !== undefined && q.until !== undefined && q.since > q.until) return fail('--since= must be before --until=.');
	const pattern = value('grep');
	if (pattern !== undefined) {
		// Smart case: a pattern without capitals matches case-insensitively unless --case-sensitive.
		const caseOpt = value('case-sensitive');
		const sensitive = has('case-sensitive') ? caseOpt === undefined || /^(1|yes|y|true|t|on)$/.test(caseOpt) : /[A-Z]/.test(pattern);
		try {
			q.grep = new RegExp(pattern, sensitive ? '' : 'i');
		} catch {
			return fail(`Failed to compile pattern "${pattern}"`);
		}
	}
	const priority = value('priority');
	if (priority !== undefined) {
		const p = parsePriority(priority);
		if (!p) return fail(`Unknown log level ${priority}`);
		q.priority = p;
	}
	// The machine's boots, oldest first: `-b` picks one (the current by default), and a line marks where each begins.
	const boots = deps.boots?.() ?? [];
	let onlyBoot: number | undefined;
	if (has('boot')) {
		const boot = value('boot');
		const picked = pickBoot(boot, boots);
		if (picked === 'all') onlyBoot = undefined;
		else if (picked === undefined) return fail(`Data from the specified boot (${boot}) is not available: No such boot ID in journal`);
		else onlyBoot = picked;
	}

	// -n: a count, `+N` from the start, or `all`; -e alone means 1000, -f alone 10 (journalctl.c).
	const linesArg = value('lines');
	let count: number | undefined;
	let fromHead = false;
	if (has('lines')) {
		if (linesArg === undefined) count = 10;
		else if (linesArg === 'all') count = undefined;
		else if (/^\+?\d+$/.test(linesArg)) {
			fromHead = linesArg.startsWith('+');
			count = Number(linesArg.replace('+', ''));
		} else return fail(`Failed to parse lines '${linesArg}'`);
	} else if (has('follow')) count = 10;
	else if (has('pager-end')) count = 1000;

	const hostname = !has('no-hostname');
	const sources = { kubelet: deps.kubelet, containerd: deps.containerd, boots };
	if (has('list-boots')) return { stdout: listBoots(boots, nodeJournal(sources), nowMs, has('reverse'), count), stderr: '', exitCode: 0 };
	const inBoot = (r: JournalRecord) => onlyBoot === undefined || bootIndexAt(boots, r.wallMs) === onlyBoot;
	// `-- Boot <id> --` between two entries of different boots (journalctl.c show(), not with -q or -m).
	let previousBoot: number | undefined;
	const render = (r: JournalRecord) => {
		const boot = bootIndexAt(boots, r.wallMs);
		const separator = previousBoot !== undefined && boot !== previousBoot && !has('quiet') && !has('merge') ? `-- Boot ${(boots[boot]?.id ?? '').replace(/-/g, '')} --\n` : '';
		previousBoot = boot;
		let line = separator + formatRecord(r, output, ctx.host.name, hostname) + '\n';
		if (has('catalog') && output !== 'cat') {
			const text = catalogText(r);
			if (text) line += text + '\n';
		}
		return line;
	};
	// Kernel messages are not part of the simulated journal.
	const all = has('dmesg') ? [] : nodeJournal(sources);
	let selected = all.filter((r) => matches(r, q) && inBoot(r));
	if (count !== undefined) selected = fromHead ? selected.slice(0, count) : selected.slice(Math.max(0, selected.length - count));
	if (has('reverse')) selected = [...selected].reverse();
	let stdout = selected.map(render).join('');
	if (!selected.length && !has('quiet') && !has('follow')) stdout = '-- No entries --\n';

	if (has('follow')) {
		let seen = all.length;
		for (let waited = 0; waited < FOLLOW_MS; waited += FOLLOW_STEP_MS) {
			if (!ctx.shell.onSleep) break;
			ctx.shell.onSleep(FOLLOW_STEP_MS);
			const now = nodeJournal({ ...sources, boots: deps.boots?.() ?? [] });
			// Entries are appended at the end; trimmed old ones shift the start, so look for the last one seen.
			const fresh = now.slice(Math.min(seen, now.length));
			stdout += fresh.filter((r) => matches(r, q) && inBoot(r)).map(render).join('');
			seen = now.length;
		}
	}
	return { stdout, stderr: '', exitCode: 0 };
}

/**
 * `--list-boots`: one row a boot, oldest first (newest first with -r, the
 * last N with -n), as systemd v255's list_boots() lays out its table: IDX
 * counted back from the current boot (0) and right-aligned, the boot ID
 * without dashes, and the first and last entry of each boot. Columns are
 * padded to their widest cell, one space apart, the last one not padded.
 */
function listBoots(boots: readonly BootRecord[], records: readonly JournalRecord[], nowMs: number, reverse: boolean, count: number | undefined): string {
	const list = boots.length ? boots : [{ id: '', startWallMs: nowMs }];
	let rows = list.map((b, i) => {
		const mine = records.filter((r) => bootIndexAt(boots, r.wallMs) === i);
		const first = mine[0]?.wallMs ?? b.startWallMs;
		const last = mine.at(-1)?.wallMs ?? b.endWallMs ?? first;
		return [String(i - list.length + 1), b.id.replace(/-/g, ''), formatTimestamp(first), formatTimestamp(last)];
	});
	if (count !== undefined) rows = rows.slice(Math.max(0, rows.length - count));
	if (reverse) rows = [...rows].reverse();
	const table = [['IDX', 'BOOT ID', 'FIRST ENTRY', 'LAST ENTRY'], ...rows];
	const widths = table[0].map((_, c) => Math.max(...table.map((row) => row[c].length)));
	return table.map((row) => row.map((cell, c) => (c === 0 ? cell.padStart(widths[c]) : c === row.length - 1 ? cell : cell.padEnd(widths[c]))).join(' ')).join('\n') + '\n';
}

/** The `journalctl` shell command. */
export function journalctlCommand(deps: SystemdDeps): CommandHandler {
	return (ctx) => {
		try {
			return runJournalctl(ctx, deps);
		} catch (error) {
			return { stdout: '', stderr: `journalctl: internal error: ${error instanceof Error ? error.message : String(error)}\n`, exitCode: 1 };
		}
	};
}
