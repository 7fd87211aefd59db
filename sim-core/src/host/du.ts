/**
 * `du`: the disk a file or a tree takes, in whole 4 KiB blocks (a
 * directory takes one itself), as GNU coreutils and busybox print it: one
 * line per directory after its contents (`-a` every file too), the size
 * and a tab before the name; `-s` only the operand's total, `-c` a grand
 * total, `-h` in powers of 1024 rounded up (`1.1G`), otherwise in 1 KiB
 * units. Zero-filled files (dd, fallocate) count their whole size.
 *
 * Mirrors coreutils/coreutils src/du.c (print_size, the traversal
 * order), mirror/busybox coreutils/du.c.
 */
import { busyboxHumanSize, humanCeil } from './df.ts';

/** The file tree du walks (a container's files or a machine's). */
export interface DuTree {
	/** The names in a directory, sorted; undefined when `path` is not a directory. */
	list(path: string): string[] | undefined;
	/** A file's size in bytes (a zero-filled one its full size); undefined when it does not exist. */
	fileBytes(path: string): number | undefined;
}

const BLOCK = 4096;
const blocks = (bytes: number) => Math.ceil(bytes / BLOCK) * BLOCK;

interface DuOptions {
	summarize: boolean;
	all: boolean;
	human: boolean;
	total: boolean;
	paths: string[];
}

function parse(args: readonly string[]): DuOptions | string {
	const options: DuOptions = { summarize: false, all: false, human: false, total: false, paths: [] };
	for (const arg of args) {
		if (arg === '--summarize') options.summarize = true;
		else if (arg === '--human-readable') options.human = true;
		else if (arg === '--all') options.all = true;
		else if (arg === '--total') options.total = true;
		else if (/^-[shack]+$/.test(arg)) {
			for (const flag of arg.slice(1)) {
				if (flag === 's') options.summarize = true;
				else if (flag === 'h') options.human = true;
				else if (flag === 'a') options.all = true;
				else if (flag === 'c') options.total = true;
			}
		} else if (arg.startsWith('-') && arg !== '-') return arg;
		else options.paths.push(arg);
	}
	return options;
}

/** du over `tree`; `resolve` turns an operand into the absolute path the tree knows. */
export function du(tree: DuTree, args: readonly string[], resolve: (path: string) => string, busybox = false): { stdout: string; stderr: string; exitCode: number } {
	const options = parse(args);
	if (typeof options === 'string') {
		const flag = options.replace(/^-+/, '');
		return { stdout: '', stderr: busybox ? `du: unrecognized option '${options}'\n` : `du: invalid option -- '${flag}'\nTry 'du --help' for more information.\n`, exitCode: 1 };
	}
	const lines: string[] = [];
	let stderr = '';
	let grand = 0;
	// GNU rounds up (1 GiB and a directory: `1.1G`); busybox to the nearest tenth (`1.0G`).
	const show = (bytes: number) => (options.human ? (busybox ? busyboxHumanSize(bytes) : humanCeil(bytes, 1024)) : String(Math.ceil(bytes / 1024)));
	/** Walks `abs` (shown as `shown`), printing as du does; returns its size. */
	const walk = (abs: string, shown: string, depth: number): number => {
		const names = tree.list(abs);
		if (names === undefined) {
			const size = blocks(tree.fileBytes(abs) ?? 0);
			if (depth === 0 || options.all) if (!options.summarize || depth === 0) lines.push(`${show(size)}\t${shown}`);
			return size;
		}
		let size = BLOCK;
		for (const name of names) size += walk(`${abs === '/' ? '' : abs}/${name}`, `${shown === '/' ? '' : shown.replace(/\/$/, '')}/${name}`, depth + 1);
		if (!options.summarize || depth === 0) lines.push(`${show(size)}\t${shown}`);
		return size;
	};
	for (const path of options.paths.length ? options.paths : ['.']) {
		const abs = resolve(path);
		if (tree.list(abs) === undefined && tree.fileBytes(abs) === undefined) {
			stderr += busybox ? `du: ${path}: No such file or directory\n` : `du: cannot access '${path}': No such file or directory\n`;
			continue;
		}
		grand += walk(abs, path, 0);
	}
	if (options.total) lines.push(`${show(grand)}\ttotal`);
	return { stdout: lines.length ? `${lines.join('\n')}\n` : '', stderr, exitCode: stderr ? 1 : 0 };
}
