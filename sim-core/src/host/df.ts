/**
 * `df`, in the two dialects readers meet: GNU coreutils 9 (Ubuntu nodes,
 * Debian-based images) and busybox (busybox and Alpine images). Given the
 * mounts a machine or a container sees, each with its file system's
 * figures, it prints the table: 1K blocks by default, `-h` in powers of
 * 1024 (`97G`, `4.6G`), `-H` in powers of 1000, `-i` inodes, `-T` the
 * type; operands name files whose file system is shown. Use% is used over
 * used plus available, rounded up, so a disk shows 100% while root's 5%
 * reserve is still free.
 *
 * GNU df shows a device once (the entry with the shortest mount point),
 * as it has since coreutils 8.21; busybox lists every mount.
 *
 * Mirrors coreutils/coreutils src/df.c (field_data's minimum widths and
 * alignment, get_dev, the de-duplication), coreutils/gnulib lib/human.c (human_ceiling
 * autoscale), mirror/busybox coreutils/df.c.
 */
import type { FsStats } from './filesystem-stats.ts';

/** One mounted file system as df lists it. */
export interface DfMount {
	/** `/dev/sda1`, `overlay`, `tmpfs`, `shm`. */
	source: string;
	type: string;
	target: string;
	stats: FsStats;
	/** Mounts of one device share an id (GNU df shows it once). */
	device: string;
}

interface DfResult {
	stdout: string;
	stderr: string;
	exitCode: number;
}

/** gnulib human_readable with human_ceiling | human_autoscale: one decimal below 10, no unit below the base. */
export function humanCeil(n: number, base: 1000 | 1024): string {
	const units = base === 1024 ? ['', 'K', 'M', 'G', 'T', 'P'] : ['', 'k', 'M', 'G', 'T', 'P'];
	let value = n;
	let i = 0;
	while (value >= base && i < units.length - 1) {
		value /= base;
		i++;
	}
	if (i === 0) return String(n);
	if (value < 10) {
		const tenths = Math.ceil(value * 10 - 1e-9) / 10;
		// 9.95 rounds up to 10: shown without a decimal.
		return tenths >= 10 ? `10${units[i]}` : `${tenths.toFixed(1)}${units[i]}`;
	}
	const whole = Math.ceil(value - 1e-9);
	return whole >= base && i < units.length - 1 ? `1.0${units[i + 1]}` : `${whole}${units[i]}`;
}

/** Use%: used over what a user could have (used plus available), rounded up; `-` for a file system of no size. */
function percent(used: number, available: number): string {
	const total = used + available;
	return total === 0 ? '-' : `${Math.ceil((used * 100) / total)}%`;
}

interface Options {
	human?: 1000 | 1024;
	inodes: boolean;
	type: boolean;
	paths: string[];
}

function parse(args: readonly string[]): Options | string {
	const options: Options = { inodes: false, type: false, paths: [] };
	for (const arg of args) {
		if (arg === '--human-readable') options.human = 1024;
		else if (arg === '--si') options.human = 1000;
		else if (arg === '--inodes') options.inodes = true;
		else if (arg === '--print-type') options.type = true;
		else if (/^-[hHikTPal]+$/.test(arg)) {
			for (const flag of arg.slice(1)) {
				if (flag === 'h') options.human = 1024;
				else if (flag === 'H') options.human = 1000;
				else if (flag === 'i') options.inodes = true;
				else if (flag === 'T') options.type = true;
			}
		} else if (arg.startsWith('-') && arg !== '-') return arg;
		else options.paths.push(arg);
	}
	return options;
}

/** The mount holding `path`: the one whose target is the longest prefix of it. */
function mountOf(mounts: readonly DfMount[], path: string): DfMount | undefined {
	let best: DfMount | undefined;
	for (const m of mounts) {
		const covers = m.target === '/' || path === m.target || path.startsWith(`${m.target}/`);
		if (covers && (!best || m.target.length >= best.target.length)) best = m;
	}
	return best;
}

/** Columns padded to their widths: left-aligned ones padded right, the rest padded left, the last never padded. */
function table(rows: string[][], minWidths: number[], left: boolean[]): string {
	const widths = minWidths.map((min, i) => Math.max(min, ...rows.map((r) => r[i].length)));
	return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : left[i] ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join(' ')).join('\n') + '\n';
}

/**
 * GNU df over `mounts` (in mount-table order). `exists` tells whether an
 * operand names a file (df refuses the others).
 */
export function gnuDf(mounts: readonly DfMount[], args: readonly string[], exists: (path: string) => boolean): DfResult {
	const options = parse(args);
	if (typeof options === 'string') return { stdout: '', stderr: `df: invalid option -- '${options.replace(/^-+/, '')}'\nTry 'df --help' for more information.\n`, exitCode: 1 };
	let stderr = '';
	let shown: DfMount[];
	if (options.paths.length) {
		shown = [];
		for (const path of options.paths) {
			const m = exists(path) ? mountOf(mounts, path) : undefined;
			if (!m) stderr += `df: ${path}: No such file or directory\n`;
			else shown.push(m);
		}
	} else {
		// One line per device: the mount with the shortest target wins, at the place of the device's first mount.
		const best = new Map<string, DfMount>();
		for (const m of mounts) {
			const seen = best.get(m.device);
			if (!seen || m.target.length < seen.target.length) best.set(m.device, m);
		}
		const firstAt = new Map<string, number>();
		mounts.forEach((m, i) => firstAt.has(m.device) || firstAt.set(m.device, i));
		shown = [...best.values()].sort((a, b) => firstAt.get(a.device)! - firstAt.get(b.device)!);
	}
	const size = (bytes: number) => (options.human ? humanCeil(bytes, options.human) : String(Math.ceil(bytes / 1024)));
	const header = options.inodes ? ['Filesystem', ...(options.type ? ['Type'] : []), 'Inodes', 'IUsed', 'IFree', 'IUse%', 'Mounted on'] : ['Filesystem', ...(options.type ? ['Type'] : []), options.human ? 'Size' : '1K-blocks', 'Used', options.human ? 'Avail' : 'Available', 'Use%', 'Mounted on'];
	const rows = [header];
	for (const m of shown) {
		const s = m.stats;
		const figures = options.inodes
			? [options.human ? humanCeil(s.inodes, options.human) : String(s.inodes), options.human ? humanCeil(s.inodesUsed, options.human) : String(s.inodesUsed), options.human ? humanCeil(s.inodesFree, options.human) : String(s.inodesFree), percent(s.inodesUsed, s.inodesFree)]
			: [size(s.capacityBytes), size(s.usedBytes), size(s.availableBytes), percent(s.usedBytes, s.availableBytes)];
		rows.push([m.source, ...(options.type ? [m.type] : []), ...figures, m.target]);
	}
	const minWidths = [14, ...(options.type ? [4] : []), 5, 5, 5, options.inodes ? 5 : 4, 0];
	const left = [true, ...(options.type ? [true] : []), false, false, false, false, true];
	const stdout = shown.length || !options.paths.length ? table(rows, minWidths, left) : '';
	return { stdout, stderr, exitCode: stderr ? 1 : 0 };
}

/** busybox's make_human_readable_str: 1024-based, one decimal, a bare unit letter (`96.7G`, `0`). */
export function busyboxHumanSize(bytes: number): string {
	const units = ['', 'K', 'M', 'G', 'T'];
	let value = bytes;
	let i = 0;
	while (value >= 1024 && i < units.length - 1) {
		value /= 1024;
		i++;
	}
	return i === 0 ? String(bytes) : `${value.toFixed(1)}${units[i]}`;
}

/** busybox df over `mounts`: every mount, fixed columns. */
export function busyboxDf(mounts: readonly DfMount[], args: readonly string[], exists: (path: string) => boolean): DfResult {
	const options = parse(args);
	if (typeof options === 'string') return { stdout: '', stderr: `df: unrecognized option '${options}'\nBusyBox v1.36.1 (2023-05-18 22:34:17 UTC) multi-call binary.\n\nUsage: df [-PkmhTai] [-B SIZE] [-t TYPE] [FILESYSTEM]...\n`, exitCode: 1 };
	let stderr = '';
	let shown: DfMount[] = [...mounts];
	if (options.paths.length) {
		shown = [];
		for (const path of options.paths) {
			const m = exists(path) ? mountOf(mounts, path) : undefined;
			if (!m) stderr += `df: ${path}: can't find mount point\n`;
			else shown.push(m);
		}
	}
	const lines = [options.inodes ? `Filesystem           Inodes      Used Available Use% Mounted on` : `Filesystem           ${(options.human ? '     Size' : '1K-blocks').padEnd(15)}Used Available Use% Mounted on`];
	for (const m of shown) {
		const s = m.stats;
		const [total, used, free] = options.inodes ? [s.inodes, s.inodesUsed, s.inodesFree] : [s.capacityBytes, s.usedBytes, s.availableBytes];
		const show = (n: number) => (options.inodes ? String(n) : options.human ? busyboxHumanSize(n) : String(Math.ceil(n / 1024)));
		const pct = used + free === 0 ? 0 : Math.ceil((used * 100) / (used + free));
		const name = m.source.length > 20 ? `${m.source}\n${' '.repeat(20)}` : m.source.padEnd(20);
		lines.push(`${name} ${show(total).padStart(9)} ${show(used).padStart(9)} ${show(free).padStart(9)} ${String(pct).padStart(3)}% ${m.target}`);
	}
	return { stdout: `${lines.join('\n')}\n`, stderr, exitCode: stderr ? 1 : 0 };
}
