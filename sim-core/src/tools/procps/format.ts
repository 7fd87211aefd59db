/**
 * ps's output columns and its row layout, from procps-ng 4.0.4 (Ubuntu
 * 24.04's procps): each column has a header, a width and a justification;
 * a value wider than its column pushes the rest of the row right and the
 * following columns take the room back from their own padding, as
 * show_one_proc() does; the last column (COMMAND) is cut at the screen
 * width, which is unlimited when the output is not a terminal.
 *
 * Mirrors procps-ng/procps src/ps/output.c (format_array, show_one_proc,
 * pr_pcpu, pr_pmem, pr_stat, pr_stime, pr_bsdtime, pr_time, pr_etime,
 * pr_euser), procps-ng/procps src/ps/sortformat.c (the macro formats).
 */
import type { ProcessEntry } from '../../host/proc.ts';
import { PID_MAX } from '../../host/proc.ts';
import { civilTime, MONTH_NAMES as MONTHS, WEEKDAY_NAMES as WEEKDAYS } from '../../golang/time.ts';

type Just = 'left' | 'right' | 'user' | 'unlimited';

/** What a column's printer sees besides the process. */
export interface PrintContext {
	nowWallMs: number;
	memTotalKb: number;
	/** How many characters the column may use rightward (the user name's and the command's cut). */
	maxRightward: number;
}

export interface Column {
	spec: string;
	header: string;
	width: number;
	just: Just;
	print(p: ProcessEntry, ctx: PrintContext): string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** Seconds the process has been alive (TIME_ELAPSED). */
function elapsedSeconds(p: ProcessEntry, now: number): number {
	return Math.max(0, (now - p.startWallMs) / 1000);
}

/** pr_pcpu: CPU time over lifetime, in tenths of a percent, `##.#` (whole percent above 99.9). */
function pcpu(p: ProcessEntry, ctx: PrintContext): string {
	const life = elapsedSeconds(p, ctx.nowWallMs);
	const permille = life > 0 ? Math.floor((p.cpuMs / 1000 / life) * 1000) : 0;
	return permille > 999 ? String(Math.floor(permille / 10)) : `${Math.floor(permille / 10)}.${permille % 10}`;
}

/** pr_pmem: RSS over MemTotal, `%2u.%u`, at most 99.9. */
function pmem(p: ProcessEntry, ctx: PrintContext): string {
	const permille = Math.min(999, Math.floor((p.rssKb * 1000) / ctx.memTotalKb));
	return `${String(Math.floor(permille / 10)).padStart(2)}.${permille % 10}`;
}

/** pr_stime: `HH:MM` today, `MonDD` this year, the year before (UTC: the nodes' time zone). */
function stime(p: ProcessEntry, ctx: PrintContext): string {
	const t = civilTime(p.startWallMs);
	const n = civilTime(ctx.nowWallMs);
	if (t.year !== n.year) return String(t.year);
	return t.yearDay === n.yearDay ? `${pad2(t.hour)}:${pad2(t.minute)}` : `${MONTHS[t.month - 1]}${pad2(t.day)}`;
}

/** pr_lstart: `%a %b %e %H:%M:%S %Y`. */
function lstart(p: ProcessEntry): string {
	const t = civilTime(p.startWallMs);
	return `${WEEKDAYS[t.weekday]} ${MONTHS[t.month - 1]} ${String(t.day).padStart(2)} ${pad2(t.hour)}:${pad2(t.minute)}:${pad2(t.second)} ${t.year}`;
}

/** pr_bsdtime: CPU time as `%3u:%02u` minutes and seconds. */
function bsdtime(p: ProcessEntry): string {
	const s = Math.floor(p.cpuMs / 1000);
	return `${String(Math.floor(s / 60)).padStart(3)}:${pad2(s % 60)}`;
}

/** Whole seconds split into days, hours, minutes and seconds. */
function dhms(seconds: number): { dd: number; hh: number; mm: number; ss: number } {
	const t = Math.floor(seconds);
	return { dd: Math.floor(t / 86400), hh: Math.floor(t / 3600) % 24, mm: Math.floor(t / 60) % 60, ss: t % 60 };
}

/** pr_time: CPU time as `[DD-]HH:MM:SS`. */
function cputime(p: ProcessEntry): string {
	const { dd, hh, mm, ss } = dhms(p.cpuMs / 1000);
	return `${dd ? `${dd}-` : ''}${pad2(hh)}:${pad2(mm)}:${pad2(ss)}`;
}

/** pr_etime: elapsed time as `[[DD-]HH:]MM:SS`. */
function etime(p: ProcessEntry, ctx: PrintContext): string {
	const { dd, hh, mm, ss } = dhms(elapsedSeconds(p, ctx.nowWallMs));
	return `${dd ? `${dd}-` : ''}${dd || hh ? `${pad2(hh)}:` : ''}${pad2(mm)}:${pad2(ss)}`;
}

/** pr_stat: the state letter, then <, N, s, l, + as they apply. */
function stat(p: ProcessEntry): string {
	let s: string = p.state;
	if ((p.nice ?? 0) < 0) s += '<';
	if ((p.nice ?? 0) > 0) s += 'N';
	if (p.sessionLeader) s += 's';
	if (p.threads > 1) s += 'l';
	if (p.foreground) s += '+';
	return s;
}

/** do_pr_name: a user name longer than the room it has is cut, its last kept character replaced by `+`. */
function userName(p: ProcessEntry, ctx: PrintContext): string {
	return p.user.length <= ctx.maxRightward ? p.user : `${p.user.slice(0, Math.max(0, ctx.maxRightward - 1))}+`;
}

/** The command line, or `[comm]` for a kernel thread, cut at the room left on the line. */
function args(p: ProcessEntry, ctx: PrintContext): string {
	const text = p.argv.length ? p.argv.join(' ') : `[${p.comm}]`;
	return text.slice(0, Math.max(0, ctx.maxRightward));
}

function comm(p: ProcessEntry, ctx: PrintContext): string {
	return p.comm.slice(0, Math.max(0, ctx.maxRightward));
}

/** PIDMAX columns are as wide as pid_max's digits. */
const PID_WIDTH = String(PID_MAX).length;

const col = (spec: string, header: string, width: number, just: Just, print: Column['print']): Column => ({ spec, header, width, just, print });

/** format_array, the columns this ps knows (the common ones). */
const COLUMNS: Column[] = [
	col('%cpu', '%CPU', 4, 'right', pcpu),
	col('%mem', '%MEM', 4, 'right', pmem),
	col('args', 'COMMAND', 27, 'unlimited', args),
	col('bsdtime', 'TIME', 6, 'right', bsdtime),
	col('c', 'C', 2, 'right', (p, ctx) => {
		const life = elapsedSeconds(p, ctx.nowWallMs);
		return String(Math.min(99, life > 0 ? Math.floor((p.cpuMs / 1000 / life) * 100) : 0)).padStart(2);
	}),
	col('cmd', 'CMD', 27, 'unlimited', args),
	col('comm', 'COMMAND', 15, 'unlimited', comm),
	col('command', 'COMMAND', 27, 'unlimited', args),
	col('cputime', 'TIME', 8, 'right', cputime),
	col('etime', 'ELAPSED', 11, 'right', etime),
	col('etimes', 'ELAPSED', 7, 'right', (p, ctx) => String(Math.floor(elapsedSeconds(p, ctx.nowWallMs)))),
	col('euid', 'EUID', 5, 'right', (p) => String(p.uid)),
	col('euser', 'EUSER', 8, 'user', userName),
	col('lstart', 'STARTED', 24, 'right', lstart),
	col('ni', 'NI', 3, 'right', (p) => String(p.nice ?? 0)),
	col('nice', 'NI', 3, 'right', (p) => String(p.nice ?? 0)),
	col('nlwp', 'NLWP', 4, 'right', (p) => String(p.threads)),
	col('pcpu', '%CPU', 4, 'right', pcpu),
	col('pid', 'PID', PID_WIDTH, 'right', (p) => String(p.pid)),
	col('pmem', '%MEM', 4, 'right', pmem),
	col('ppid', 'PPID', PID_WIDTH, 'right', (p) => String(p.ppid)),
	col('rss', 'RSS', 5, 'right', (p) => String(p.rssKb)),
	col('rssize', 'RSS', 5, 'right', (p) => String(p.rssKb)),
	col('rsz', 'RSZ', 5, 'right', (p) => String(p.rssKb)),
	col('ruser', 'RUSER', 8, 'user', userName),
	col('s', 'S', 1, 'left', (p) => p.state),
	col('start', 'STARTED', 8, 'right', (p, ctx) => {
		// pr_start: HH:MM:SS within a day, else `Mon DD`.
		const t = civilTime(p.startWallMs);
		return ctx.nowWallMs - p.startWallMs > 86_400_000 ? `${MONTHS[t.month - 1]} ${pad2(t.day)}` : `${pad2(t.hour)}:${pad2(t.minute)}:${pad2(t.second)}`;
	}),
	col('start_time', 'START', 5, 'right', stime),
	col('stat', 'STAT', 4, 'left', stat),
	col('state', 'S', 1, 'left', (p) => p.state),
	col('stime', 'STIME', 5, 'right', stime),
	col('time', 'TIME', 8, 'right', cputime),
	col('tname', 'TTY', 8, 'left', (p) => p.tty),
	col('tt', 'TT', 8, 'left', (p) => p.tty),
	col('tty', 'TT', 8, 'left', (p) => p.tty),
	col('ucmd', 'CMD', 15, 'unlimited', comm),
	col('ucomm', 'COMMAND', 15, 'unlimited', comm),
	col('uid', 'UID', 5, 'right', (p) => String(p.uid)),
	col('uid_hack', 'UID', 8, 'user', userName),
	col('uname', 'USER', 8, 'user', userName),
	col('user', 'USER', 8, 'user', userName),
	col('vsize', 'VSZ', 6, 'right', (p) => String(p.vszKb)),
	col('vsz', 'VSZ', 6, 'right', (p) => String(p.vszKb)),
];

/** The macro formats ps builds its defaults from (sortformat.c, output.c macro_array). */
export const FORMATS = {
	/** BSD `u` (Linux's OL_u). */
	bsdUser: 'user,pid,pcpu,pmem,vsz,rss,tname,stat,start_time,bsdtime,args',
	/** BSD options without a format (`ps ax`): DefBSD. */
	bsdDefault: 'pid,tname,stat,bsdtime,args',
	/** SysV without a format (`ps`, `ps -e`): generate_sysv_list's pid,tname,time,ucmd. */
	sysvDefault: 'pid,tname,time,ucmd',
	/** SysV `-f`: Std_f. */
	sysvFull: 'uid_hack,pid,ppid,c,stime,tname,time,cmd',
} as const;

/** A column by its specifier; `name=Header` renames it (an empty header hides the header line if all are empty). */
export function columnOf(spec: string): Column | undefined {
	const eq = spec.indexOf('=');
	const name = (eq < 0 ? spec : spec.slice(0, eq)).toLowerCase();
	const found = COLUMNS.find((c) => c.spec === name);
	if (!found) return undefined;
	return eq < 0 ? found : { ...found, header: spec.slice(eq + 1) };
}

/**
 * One row, laid out as show_one_proc does: `correct` is where the row
 * should be, `actual` where it is; a right-justified value pads on its
 * left, an overlong one pushes on and the next column's padding absorbs
 * the difference; one space between printed columns.
 */
export function formatRow(columns: readonly Column[], values: ReadonlyArray<(maxRightward: number) => string>, activeCols: number): string {
	let correct = 0;
	let actual = 0;
	let dospace = 0;
	let out = '';
	for (let i = 0; i < columns.length; i++) {
		const c = columns[i];
		const last = i === columns.length - 1;
		let maxRightward: number;
		if (!last) maxRightward = c.width;
		else {
			const tmpspace = correct - actual;
			maxRightward = tmpspace < 1 ? activeCols - actual - dospace : activeCols - Math.max(correct, actual);
		}
		maxRightward = Math.max(0, maxRightward);
		const text = values[i](maxRightward);
		const leftpad = c.just === 'right' ? Math.max(0, c.width - text.length) : 0;
		let space = correct - actual + leftpad;
		if (space < 1) space = dospace;
		out += ' '.repeat(space) + text;
		if (last) break;
		actual += space + text.length;
		correct += c.width + 1;
		dospace = 1;
	}
	return out;
}

/** The width a format needs (choose_dimensions' total), to pick the screen multiple. */
export function formatWidth(columns: readonly Column[]): number {
	let total = 0;
	columns.forEach((c, i) => {
		total += c.just === 'unlimited' && i === columns.length - 1 ? 3 : c.width;
		if (i > 0) total += 1;
	});
	return total;
}
