/**
 * `ps` on a node, procps-ng 4.0.4 (Ubuntu 24.04): the forms readers type
 * to find a component: `ps aux`, `ps auxw`/`auxww`, `ps ax`, `ps -ef`,
 * `ps -e`, `ps -A`, `ps -f`, `ps -o FORMAT`, `ps -C NAME`, `ps -p PID`,
 * `ps --no-headers`, and plain `ps` (the processes of this terminal).
 *
 * As procps does, the arguments are parsed as UNIX (SysV) options first,
 * and again as BSD ones if that fails; the first error is the one shown,
 * then the short usage. Without a format, BSD options give DefBSD
 * (`PID TTY STAT TIME COMMAND`), `u` the user format, `-f` the full one,
 * anything else `PID TTY TIME CMD`. Processes are listed in PID order (the
 * order of /proc). The screen is unlimited when the output is not a
 * terminal (`ps aux | grep kubelet` shows whole command lines); on a
 * terminal COMMAND is cut at $COLUMNS (80 without it), at 132 with `w`,
 * nowhere with `ww`.
 *
 * Mirrors procps-ng/procps src/ps/parser.c (arg_parse, the SysV and BSD
 * parsers and their messages), procps-ng/procps src/ps/select.c (the
 * selection), procps-ng/procps src/ps/global.c (set_screen_size),
 * procps-ng/procps src/ps/help.c (do_help).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import type { ProcessEntry } from '../../host/proc.ts';
import { columnOf, formatRow, formatWidth, FORMATS, type Column } from './format.ts';

/** What ps reads from the node. */
export interface PsDeps {
	/** The process table now, ps itself and the other commands of its pipeline included (the wiring knows them). */
	processes(ctx: CommandContext): ProcessEntry[];
	nowWallMs(): number;
	/** MemTotal of /proc/meminfo, KiB. */
	memTotalKb(): number;
}

/** OUTBUF_SIZE: the "unlimited" screen when the output is not a terminal. */
const UNLIMITED_COLS = 2 * 64 * 1024;

/** do_help(NULL, EXIT_FAILURE): the short usage after an error. */
const SHORT_USAGE = `
Usage:
 ps [options]

 Try 'ps --help <simple|list|output|threads|misc|all>'
  or 'ps --help <s|l|o|t|m|a>'
 for additional help text.

For more details see ps(1).
`;

interface Parsed {
	all: boolean;
	/** BSD a: every process with a terminal. */
	bsdA: boolean;
	/** BSD x: processes without a terminal too. */
	bsdX: boolean;
	bsdU: boolean;
	/** SysV -f. */
	full: boolean;
	wide: number;
	format?: string[];
	commands?: string[];
	pids?: number[];
	noHeaders: boolean;
	/** Any BSD option: BSD defaults. */
	bsd: boolean;
}

/** Splits a list option's argument as procps does: commas or blanks. */
function list(arg: string): string[] {
	return arg.split(/[\s,]+/).filter(Boolean);
}

type ParseResult = { ok: true; parsed: Parsed } | { ok: false; error: string };

function fresh(): Parsed {
	return { all: false, bsdA: false, bsdX: false, bsdU: false, full: false, wide: 0, noHeaders: false, bsd: false };
}

function pidList(arg: string, out: Parsed): string | undefined {
	const pids: number[] = [];
	for (const item of list(arg)) {
		if (!/^\d+$/.test(item)) return 'process ID list syntax error';
		const n = Number(item);
		if (n < 1 || n > 0x7fffffff) return 'process ID out of range';
		pids.push(n);
	}
	out.pids = [...(out.pids ?? []), ...pids];
	return undefined;
}

/** Options this ps does not simulate (real procps has them). */
const NOT_SIMULATED = 'not available on this simulated node (a, u, x, w, -e, -A, -f, -o, -C, -p, --no-headers are)';

/**
 * parse_all_options: `--long`, `-sysv`, and words without a dash as BSD
 * options; with `forceBsd` (the second pass) `-abc` is read as BSD `abc`
 * too, which is how `ps -aux` ends up meaning `ps aux`.
 */
function parse(argv: readonly string[], forceBsd: boolean): ParseResult {
	const p = fresh();
	for (let i = 0; i < argv.length; i++) {
		let arg = argv[i];
		if (forceBsd && /^-[^-]/.test(arg)) arg = arg.slice(1);
		const next = (): string | undefined => {
			i++;
			return argv[i];
		};
		if (arg.startsWith('--')) {
			const [name, inline] = arg.slice(2).split(/=(.*)/s);
			switch (name) {
				case 'no-headers':
				case 'no-heading':
					p.noHeaders = true;
					continue;
				case 'format': {
					const v = inline ?? next();
					if (!v) return { ok: false, error: 'format specification must follow --format' };
					p.format = [...(p.format ?? []), ...list(v)];
					continue;
				}
				case 'pid': {
					const v = inline ?? next();
					if (!v) return { ok: false, error: 'list of process IDs must follow --pid' };
					const e = pidList(v, p);
					if (e) return { ok: false, error: e };
					continue;
				}
				case 'width':
				case 'cols':
				case 'columns':
					return { ok: false, error: `--${name} ${NOT_SIMULATED}` };
				default:
					return { ok: false, error: 'unknown gnu long option' };
			}
		}
		if (arg.startsWith('-') && arg.length > 1) {
			for (let j = 1; j < arg.length; j++) {
				const ch = arg[j];
				const rest = arg.slice(j + 1);
				const value = (message: string): string | { error: string } => {
					const v = rest || next();
					return v ? v : { error: message };
				};
				switch (ch) {
					case 'e':
					case 'A':
						p.all = true;
						continue;
					case 'f':
						p.full = true;
						continue;
					case 'w':
						p.wide++;
						continue;
					case 'o': {
						const v = value('format specification must follow -o');
						if (typeof v !== 'string') return { ok: false, error: v.error };
						p.format = [...(p.format ?? []), ...list(v)];
						j = arg.length;
						continue;
					}
					case 'C': {
						const v = value('list of command names must follow -C');
						if (typeof v !== 'string') return { ok: false, error: v.error };
						p.commands = [...(p.commands ?? []), ...list(v)];
						j = arg.length;
						continue;
					}
					case 'p': {
						const v = value('list of process IDs must follow -p');
						if (typeof v !== 'string') return { ok: false, error: v.error };
						const e = pidList(v, p);
						if (e) return { ok: false, error: e };
						j = arg.length;
						continue;
					}
					case '-':
						return { ok: false, error: "embedded '-' among SysV options makes no sense" };
					default:
						if (/[adFHjlLMNOPqstTuUgGVyZ]/.test(ch)) return { ok: false, error: `-${ch} ${NOT_SIMULATED}` };
						return { ok: false, error: 'unsupported SysV option' };
				}
			}
			continue;
		}
		// A word without a dash: BSD options, or a PID list.
		if (/^\d[\d,]*$/.test(arg)) {
			const e = pidList(arg, p);
			if (e) return { ok: false, error: e };
			continue;
		}
		p.bsd = true;
		for (let j = 0; j < arg.length; j++) {
			const ch = arg[j];
			switch (ch) {
				case 'a':
					p.bsdA = true;
					continue;
				case 'x':
					p.bsdX = true;
					continue;
				case 'u':
					p.bsdU = true;
					continue;
				case 'w':
					p.wide++;
					continue;
				case 'o': {
					const v = arg.slice(j + 1) || argv[++i];
					if (!v) return { ok: false, error: 'format specification must follow o' };
					p.format = [...(p.format ?? []), ...list(v)];
					j = arg.length;
					continue;
				}
				case 'p': {
					const v = arg.slice(j + 1) || argv[++i];
					if (!v) return { ok: false, error: 'list of process IDs must follow p' };
					const e = pidList(v, p);
					if (e) return { ok: false, error: e };
					j = arg.length;
					continue;
				}
				case '-':
					return { ok: false, error: "embedded '-' among BSD options makes no sense" };
				default:
					if (/[cefgjlmrsSTvXZhHLmnqt]/.test(ch)) return { ok: false, error: `${ch} ${NOT_SIMULATED}` };
					return { ok: false, error: 'unsupported option (BSD syntax)' };
			}
		}
	}
	return { ok: true, parsed: p };
}

/** The columns of the chosen format, or the error of an unknown specifier. */
function columnsFor(p: Parsed): Column[] | string {
	let specs: string[];
	if (p.format) specs = p.format;
	else if (p.bsdU) specs = FORMATS.bsdUser.split(',');
	else if (p.full) specs = FORMATS.sysvFull.split(',');
	else if (p.bsd) specs = FORMATS.bsdDefault.split(',');
	else specs = FORMATS.sysvDefault.split(',');
	const out: Column[] = [];
	for (const spec of specs) {
		const c = columnOf(spec);
		if (!c) return `unknown user-defined format specifier "${spec.split('=')[0]}"`;
		out.push(c);
	}
	return out;
}

/** select.c: which processes the options ask for. */
function selected(p: Parsed, procs: readonly ProcessEntry[], self: ProcessEntry | undefined): ProcessEntry[] {
	const lists = p.commands || p.pids;
	return procs.filter((proc) => {
		if (lists) return (p.commands?.includes(proc.comm) ?? false) || (p.pids?.includes(proc.pid) ?? false);
		if (p.all || (p.bsdA && p.bsdX)) return true;
		if (p.bsdA) return proc.tty !== '?';
		if (p.bsdX) return proc.uid === (self?.uid ?? 0);
		// No selection: this terminal's processes of this user.
		return proc.tty === (self?.tty ?? '?') && proc.uid === (self?.uid ?? 0);
	});
}

export function createPs(deps: PsDeps): CommandHandler {
	return (ctx: CommandContext): CommandResult => {
		const argv = ctx.argv.slice(1);
		let result = parse(argv, false);
		if (!result.ok) {
			const first = result.error;
			const second = parse(argv, true);
			if (!second.ok) return { stdout: '', stderr: `error: ${first}\n${SHORT_USAGE}`, exitCode: 1 };
			result = second;
		}
		const p = result.parsed;
		const columns = columnsFor(p);
		if (typeof columns === 'string') return { stdout: '', stderr: `error: ${columns}\n${SHORT_USAGE}`, exitCode: 1 };
		const procs = deps.processes(ctx).sort((a, b) => a.pid - b.pid);
		const self = procs.find((x) => x.comm === 'ps' && x.state === 'R');
		const rows = selected(p, procs, self);
		// set_screen_size: unlimited off a terminal; on one $COLUMNS (80 if unset), 132 with w, unlimited with ww.
		let screen = ctx.tty ? Number(ctx.env.COLUMNS) || 80 : UNLIMITED_COLS;
		if (p.wide && screen < 132) screen = 132;
		if (p.wide > 1) screen = UNLIMITED_COLS;
		const total = formatWidth(columns);
		let activeCols = screen;
		for (let i = 1; activeCols < total && screen * i < UNLIMITED_COLS / 2; i++) activeCols = screen * (i + 1);
		const ctxFor = (maxRightward: number) => ({ nowWallMs: deps.nowWallMs(), memTotalKb: deps.memTotalKb(), maxRightward });
		const lines: string[] = [];
		const showHeader = !p.noHeaders && columns.some((c) => c.header !== '');
		if (showHeader) lines.push(formatRow(columns, columns.map((c) => (max: number) => c.header.slice(0, c.just === 'unlimited' ? max : undefined)), activeCols));
		for (const proc of rows) lines.push(formatRow(columns, columns.map((c) => (max: number) => c.print(proc, ctxFor(max))), activeCols));
		// ps exits 1 when it printed no process.
		return { stdout: lines.length ? lines.join('\n') + '\n' : '', stderr: '', exitCode: rows.length ? 0 : 1 };
	};
}
