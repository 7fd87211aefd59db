/**
 * `dd` and `fallocate` as a reader fills a disk with them: the operands,
 * the sizes with their suffixes, the statistics dd prints, and what ends
 * up written: a file of zeros of some size (kept as its size,
 * ./zero-filled.ts). A write larger than what the file system has left
 * stops there with `No space left on device`, as the kernel's ENOSPC
 * does. Pure: the caller (a container's userland, a node's shell) applies
 * the write.
 *
 * Each answers in the dialect of the machine: GNU coreutils and
 * util-linux (Ubuntu nodes, Debian-based images) or busybox, whose size
 * suffixes and statistics lines differ.
 *
 * Mirrors coreutils/coreutils src/dd.c (operands, print_xfer_stats),
 * util-linux/util-linux sys-utils/fallocate.c, mirror/busybox
 * coreutils/dd.c, mirror/busybox util-linux/fallocate.c.
 */

import { busyboxHumanSize } from './df.ts';

/** What a run comes to: its exit status, its standard error, and the file it writes (the path as given), if any. */
export interface DiskFillResult {
	status: number;
	stderr: string[];
	write?: { path: string; bytes: number };
	/** How long the copy takes at the write rate (fallocate reserves blocks at once: none). */
	durationMs?: number;
}

/** Size suffixes dd and fallocate accept: `K`, `M`, `G`, `T` count in 1024s, `KB`/`kB`, `MB`... in 1000s (`c`, `w`, `b` are dd's). */
const SUFFIX: Record<string, number> = {
	'': 1,
	c: 1,
	w: 2,
	b: 512,
	K: 1024,
	k: 1024,
	KiB: 1024,
	M: 1024 ** 2,
	MiB: 1024 ** 2,
	G: 1024 ** 3,
	GiB: 1024 ** 3,
	T: 1024 ** 4,
	TiB: 1024 ** 4,
	kB: 1000,
	KB: 1000,
	MB: 1000 ** 2,
	GB: 1000 ** 3,
	TB: 1000 ** 4,
};

/** `1M`, `512`, `2GB` in bytes; undefined when it is not a size. */
export function parseSize(text: string): number | undefined {
	const m = /^(\d+)([A-Za-z]*)$/.exec(text);
	if (!m || !(m[2] in SUFFIX)) return undefined;
	return Number(m[1]) * SUFFIX[m[2]];
}

/** A rate used to print how long a copy took: writing zeros to a local SSD runs at about a gigabyte a second. */
const WRITE_BYTES_PER_SECOND = 1.2e9;

/** human_readable with autoscale, one decimal below 10 (`1.1 GB`, `105 MB`); base 1000 with `B`, or 1024 with `iB`. */
function human(bytes: number, base: 1000 | 1024): string {
	const units = base === 1000 ? ['B', 'kB', 'MB', 'GB', 'TB'] : ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
	let value = bytes;
	let i = 0;
	while (value >= base && i < units.length - 1) {
		value /= base;
		i++;
	}
	if (i === 0) return `${bytes} B`;
	// dd asks for rounding to the nearest: one decimal below 10, whole units above.
	const shown = value < 10 ? value.toFixed(1) : String(Math.round(value));
	return `${shown} ${units[i]}`;
}

/** The statistics dd prints on standard error when it ends. */
function transferStats(busybox: boolean, blocksIn: [number, number], blocksOut: [number, number], bytes: number): string[] {
	const seconds = Math.max(bytes / WRITE_BYTES_PER_SECOND, 0.000_01);
	const lines = [`${blocksIn[0]}+${blocksIn[1]} records in`, `${blocksOut[0]}+${blocksOut[1]} records out`];
	if (busybox) {
		lines.push(`${bytes} bytes (${busyboxHumanSize(bytes)}B) copied, ${seconds.toFixed(6)} seconds, ${busyboxHumanSize(bytes / seconds)}B/s`);
		return lines;
	}
	const time = `${Number(seconds.toPrecision(6))} s`;
	const rate = `${human(Math.round(bytes / seconds), 1000)}/s`;
	lines.push(bytes < 1000 ? `${bytes} byte${bytes === 1 ? '' : 's'} copied, ${time}, ${rate}` : `${bytes} bytes (${human(bytes, 1000)}, ${human(bytes, 1024)}) copied, ${time}, ${rate}`);
	return lines;
}

/**
 * dd if=... of=... bs=... count=...: copies blocks, here from a device of
 * zeros or random bytes into a file; `stdinBytes` is what standard input
 * holds, `freeBytes` what the file system has left.
 */
export function ddCommand(busybox: boolean, args: readonly string[], stdinBytes: number, freeBytes: number): DiskFillResult {
	const err: string[] = [];
	const fail = (text: string) => err.push(text);
	const operands: Record<string, string> = {};
	for (const arg of args) {
		const eq = arg.indexOf('=');
		const key = eq > 0 ? arg.slice(0, eq) : '';
		if (!['if', 'of', 'bs', 'ibs', 'obs', 'count', 'seek', 'skip', 'conv', 'iflag', 'oflag', 'status'].includes(key)) {
			fail(busybox ? `dd: invalid argument '${arg}'` : `dd: unrecognized operand '${arg}'`);
			if (!busybox) fail("Try 'dd --help' for more information.");
			return { status: 1, stderr: err };
		}
		operands[key] = arg.slice(eq + 1);
	}
	const blockSize = parseSize(operands.bs ?? operands.obs ?? '512');
	if (blockSize === undefined || blockSize === 0) {
		fail(busybox ? `dd: invalid number '${operands.bs}'` : `dd: invalid number: '${operands.bs}'`);
		return { status: 1, stderr: err };
	}
	const count = operands.count === undefined ? undefined : parseSize(operands.count);
	if (operands.count !== undefined && count === undefined) {
		fail(busybox ? `dd: invalid number '${operands.count}'` : `dd: invalid number: '${operands.count}'`);
		return { status: 1, stderr: err };
	}
	const input = operands.if;
	if (input !== undefined && input !== '/dev/zero' && input !== '/dev/urandom' && input !== '/dev/random') {
		fail(busybox ? `dd: can't open '${input}': No such file or directory` : `dd: failed to open '${input}': No such file or directory`);
		return { status: 1, stderr: err };
	}
	// No input file: standard input, which an exec without -i does not have; reading it gives nothing.
	const wanted = input === undefined ? stdinBytes : count === undefined ? Number.POSITIVE_INFINITY : count * blockSize;
	const quiet = operands.status === 'none';
	const report = (written: number) => {
		if (quiet) return;
		const full = Math.floor(written / blockSize);
		const partial = written % blockSize ? 1 : 0;
		for (const text of transferStats(busybox, [full, partial], [full, partial], written)) fail(text);
	};
	if (operands.of === undefined || operands.of === '/dev/null') {
		// To standard output or nowhere: nothing is stored. An endless copy to /dev/null would never end; stop at the count or at a sample.
		const written = Number.isFinite(wanted) ? wanted : 0;
		report(written);
		return { status: 0, stderr: err };
	}
	const fits = wanted <= freeBytes;
	const written = fits ? wanted : Math.max(0, Math.floor(freeBytes / blockSize) * blockSize);
	if (!fits) fail(busybox ? `dd: error writing '${operands.of}': No space left on device` : `dd: error writing '${operands.of}': No space left on device`);
	const full = Math.floor(written / blockSize);
	if (!quiet) {
		const inBlocks: [number, number] = fits ? [full, written % blockSize ? 1 : 0] : [full + 1, 0];
		for (const text of transferStats(busybox, inBlocks, [full, 0], written)) fail(text);
	}
	return { status: fits ? 0 : 1, stderr: err, write: { path: operands.of, bytes: written }, durationMs: Math.round((written / WRITE_BYTES_PER_SECOND) * 1000) };
}

/** fallocate -l LENGTH FILE: reserves the blocks at once (nothing is printed on success). */
export function fallocateCommand(busybox: boolean, args: readonly string[], freeBytes: number): DiskFillResult {
	const err: string[] = [];
	const fail = (text: string) => err.push(text);
	let length: string | undefined;
	const files: string[] = [];
	for (let i = 0; i < args.length; i++) {
		const arg = args[i];
		if (arg === '-l' || arg === '--length') length = args[++i];
		else if (arg.startsWith('-l')) length = arg.slice(2);
		else if (arg.startsWith('--length=')) length = arg.slice('--length='.length);
		else files.push(arg);
	}
	if (length === undefined) {
		fail(busybox ? 'fallocate: option -l is required' : 'fallocate: no length argument specified');
		return { status: 1, stderr: err };
	}
	const bytes = parseSize(length);
	if (bytes === undefined || bytes === 0) {
		fail(busybox ? `fallocate: invalid number '${length}'` : `fallocate: invalid length value specified`);
		return { status: 1, stderr: err };
	}
	if (files.length !== 1) {
		fail(busybox ? 'fallocate: need exactly one FILE' : 'fallocate: no filename specified');
		return { status: 1, stderr: err };
	}
	if (bytes > freeBytes) {
		fail(busybox ? 'fallocate: fallocate: No space left on device' : 'fallocate: fallocate failed: No space left on device');
		return { status: 1, stderr: err };
	}
	return { status: 0, stderr: err, write: { path: files[0], bytes } };
}
