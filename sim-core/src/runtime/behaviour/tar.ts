/**
 * The container's `tar`, as much of it as `kubectl cp` and the reader's own
 * `tar cf - DIR | ...` need: create (`c`) to standard output or a file,
 * extract (`x`) and list (`t`) from standard input or a file, `-C DIR`,
 * `-v`, `-O`, and the flags kubectl passes that change nothing the
 * simulated file system keeps (`-m`, `-o`, `-p`, `--no-same-owner`,
 * `--no-same-permissions`). Options come bundled the old way (`tar cf -`),
 * with a dash (`-xmf -`) or long. The archive is a real tar stream
 * (golang/archive-tar.ts) carried as a byte string: exec's streams here are
 * strings, so standard input is the whole stream at once.
 *
 * Two dialects answer, as the image's base has it: busybox tar (busybox,
 * Alpine: `tar: removing leading '/' from member names`, a missing file
 * `tar: /x: No such file or directory` then `tar: error exit delayed from
 * previous errors`, exit 1) and GNU tar (Debian, Ubuntu: "tar: Removing
 * leading `/' from member names", `tar: /x: Cannot stat: No such file or
 * directory`, `tar: Exiting with failure status due to previous errors`,
 * exit 2). GNU pads the archive to its 10240-byte record; busybox writes
 * the two end blocks only. Compression (`-z`, `-j`, `-J`) is not simulated
 * and says so.
 *
 * GNU tar's messages are taken from its output, as its src/create.c and
 * src/extract.c print them.
 *
 * Mirrors mirror/busybox archival/tar.c (the applet's messages and exit
 * codes, in behaviour only).
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine } from '../behaviour.ts';
import { readTar, writeTar, type TarEntry } from '../../golang/archive-tar.ts';
import { listDirectory, normalizePath, readFile } from './rootfs.ts';
import { usesBusybox } from './userland.ts';

/** Entries one `tar c` may write: a bound on what a reader's `tar cf - /` walks. */
const MAX_ENTRIES = 2_000;

interface TarOptions {
	mode: 'c' | 'x' | 't' | '';
	file?: string;
	directory?: string;
	verbose: boolean;
	toStdout: boolean;
	compress?: string;
	operands: string[];
	unknown?: string;
}

const LONG: Record<string, keyof TarOptions | 'ignore' | 'c' | 'x' | 't'> = {
	'--create': 'c',
	'--extract': 'x',
	'--get': 'x',
	'--list': 't',
	'--verbose': 'verbose',
	'--to-stdout': 'toStdout',
	'--touch': 'ignore',
	'--no-same-owner': 'ignore',
	'--no-same-permissions': 'ignore',
	'--same-permissions': 'ignore',
	'--preserve-permissions': 'ignore',
	'--same-owner': 'ignore',
	'--numeric-owner': 'ignore',
	'--overwrite': 'ignore',
};

/** Reads tar's arguments: the first may be bundled letters without a dash (`cf`), as both tars accept. */
function parseArgs(args: string[]): TarOptions {
	const o: TarOptions = { mode: '', verbose: false, toStdout: false, operands: [] };
	const queue = [...args];
	const letters = (bundle: string) => {
		for (let i = 0; i < bundle.length; i++) {
			const letter = bundle[i];
			switch (letter) {
				case 'c':
				case 'x':
				case 't':
					o.mode = letter;
					break;
				case 'v':
					o.verbose = true;
					break;
				case 'O':
					o.toStdout = true;
					break;
				case 'm':
				case 'o':
				case 'p':
				case 'h':
				case 'k':
					break;
				case 'z':
				case 'j':
				case 'J':
				case 'Z':
				case 'a':
					o.compress = letter;
					break;
				case 'f':
				case 'C': {
					// An option's argument: the rest of a dashed bundle, else the next word.
					const rest = bundle.slice(i + 1);
					const value = rest !== '' ? rest : (queue.shift() ?? '');
					if (letter === 'f') o.file = value;
					else o.directory = value;
					return;
				}
				default:
					o.unknown ??= letter;
			}
		}
	};
	let first = true;
	while (queue.length) {
		const arg = queue.shift() as string;
		if (arg === '--') {
			o.operands.push(...queue.splice(0));
			break;
		}
		if (arg.startsWith('--')) {
			const [name, value] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
			if (name === '--file' || name === '--directory') {
				const v = value ?? queue.shift() ?? '';
				if (name === '--file') o.file = v;
				else o.directory = v;
			} else if (name === '--gzip' || name === '--bzip2' || name === '--xz') o.compress = name;
			else {
				const meaning = LONG[name];
				if (meaning === 'c' || meaning === 'x' || meaning === 't') o.mode = meaning;
				else if (meaning === 'verbose') o.verbose = true;
				else if (meaning === 'toStdout') o.toStdout = true;
				else if (meaning === undefined) o.unknown ??= name;
			}
		} else if (arg.startsWith('-') && arg.length > 1) letters(arg.slice(1));
		else if (first && /^[a-zA-Z]+$/.test(arg)) letters(arg);
		else o.operands.push(arg);
		first = false;
	}
	return o;
}

/** Splits a byte string into the interpreter's output lines (each line ends at a newline byte). */
function streamLines(bytes: string): OutputLine[] {
	if (bytes === '') return [];
	const lines = bytes.split('\n');
	if (lines[lines.length - 1] === '') lines.pop();
	return lines.map((text) => ({ stream: 'stdout', text }));
}

/** Runs `tar` with `args` in the container; `stdin` is what kubectl (or a pipe) streams in. */
export function runTar(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, args: string[], wallMs: number, stdin: string | undefined, out: OutputLine[]): CommandOutcome {
	const busybox = usesBusybox(image);
	const fail = (text: string) => out.push({ stream: 'stderr', text: `tar: ${text}` });
	const done = (status: number, written?: Record<string, string>): CommandOutcome => ({ kind: 'done', status, out, ...(written ? { files: written } : {}) });
	const o = parseArgs(args);
	if (o.unknown) {
		if (busybox) fail(`unrecognized option '${o.unknown}'`);
		else {
			fail(o.unknown.startsWith('--') ? `unrecognized option '${o.unknown}'` : `invalid option -- '${o.unknown}'`);
			out.push({ stream: 'stderr', text: "Try 'tar --help' or 'tar --usage' for more information." });
		}
		return done(busybox ? 1 : 64);
	}
	if (!o.mode) {
		if (busybox) out.push({ stream: 'stderr', text: 'Usage: tar c|x|t [-ZzJjahmvokO] [-f TARFILE] [-C DIR] [-T FILE] [-X FILE] [LONGOPT]... [FILE]...' });
		else {
			fail("You must specify one of the '-Acdtrux', '--delete' or '--test-label' options");
			out.push({ stream: 'stderr', text: "Try 'tar --help' or 'tar --usage' for more information." });
		}
		return done(busybox ? 1 : 2);
	}
	if (o.compress) {
		fail('compressed archives (-z, -j, -J) are not simulated here; leave the archive uncompressed');
		return done(2);
	}
	// -C: later paths are relative to DIR (which must exist).
	let cwd = ctx.workingDir || '/';
	if (o.directory !== undefined) {
		const dir = normalizePath(o.directory, ctx);
		if (listDirectory(image, ctx, files, dir) === undefined) {
			const why = readFile(image, ctx, files, dir) !== undefined ? 'Not a directory' : 'No such file or directory';
			if (busybox) fail(`can't change directory to '${o.directory}': ${why}`);
			else {
				fail(`${o.directory}: Cannot open: ${why}`);
				fail('Error is not recoverable: exiting now');
			}
			return done(busybox ? 1 : 2);
		}
		cwd = dir;
	}
	const here = { ...ctx, workingDir: cwd };
	const archiveFile = o.file === undefined || o.file === '-' ? undefined : normalizePath(o.file, ctx);

	if (o.mode === 'c') return create(o, image, here, files, wallMs, archiveFile, busybox, out, fail, done);

	// x and t read the archive from standard input or the file.
	let input: string;
	if (archiveFile === undefined) input = stdin ?? '';
	else {
		const content = readFile(image, ctx, files, archiveFile);
		if (content === undefined) {
			if (busybox) fail(`can't open '${o.file}': No such file or directory`);
			else {
				fail(`${o.file}: Cannot open: No such file or directory`);
				fail('Error is not recoverable: exiting now');
			}
			return done(busybox ? 1 : 2);
		}
		input = content;
	}
	const read = readTar(input);
	const written: Record<string, string> = {};
	let strippedNoted = false;
	for (const entry of read.entries) {
		let name = entry.name;
		if (name.startsWith('/')) {
			name = name.replace(/^\/+/, '');
			if (!strippedNoted) fail(busybox ? "removing leading '/' from member names" : "Removing leading `/' from member names");
			strippedNoted = true;
		}
		if (o.mode === 't') {
			out.push({ stream: 'stdout', text: entry.name });
			continue;
		}
		if (o.verbose) out.push({ stream: 'stdout', text: entry.name });
		if (o.toStdout) {
			if (entry.type === 'file') out.push(...streamLines(entry.content));
			continue;
		}
		const path = normalizePath(name, here);
		if (path === '/' || entry.type === 'other') continue;
		if (entry.type === 'dir') written[`${path}/`] = '';
		else written[path] = entry.content;
	}
	if (!read.ok) {
		if (read.entries.length === 0 && read.error !== 'unexpected EOF') {
			if (busybox) fail('invalid tar magic');
			else {
				fail('This does not look like a tar archive');
				fail('Exiting with failure status due to previous errors');
			}
		} else if (busybox) fail('short read');
		else {
			fail('Unexpected EOF in archive');
			fail('Error is not recoverable: exiting now');
		}
		return done(busybox ? 1 : 2, written);
	}
	return done(0, written);
}

function create(o: TarOptions, image: CatalogImage, here: ContainerContext, files: FileOverrides, wallMs: number, archiveFile: string | undefined, busybox: boolean, out: OutputLine[], fail: (text: string) => void, done: (status: number, written?: Record<string, string>) => CommandOutcome): CommandOutcome {
	if (o.operands.length === 0) {
		// Both refuse an empty archive.
		fail(busybox ? 'empty archive' : 'Cowardly refusing to create an empty archive');
		if (!busybox) out.push({ stream: 'stderr', text: "Try 'tar --help' or 'tar --usage' for more information." });
		return done(busybox ? 1 : 2);
	}
	const entries: TarEntry[] = [];
	const mtimeSec = Math.floor(wallMs / 1000);
	let failed = false;
	let strippedNoted = false;
	const noteStripped = () => {
		if (!strippedNoted) fail(busybox ? "removing leading '/' from member names" : "Removing leading `/' from member names");
		strippedNoted = true;
	};
	// The names -v lists: on stderr when the archive itself goes to stdout.
	const listing = (name: string) => {
		if (o.verbose) out.push({ stream: archiveFile === undefined ? 'stderr' : 'stdout', text: name });
	};
	const walk = (path: string, name: string) => {
		if (entries.length >= MAX_ENTRIES) return;
		const content = readFile(image, here, files, path);
		if (content !== undefined) {
			entries.push({ name, type: 'file', mode: 0o644, mtimeSec, content });
			listing(name);
			return;
		}
		const dirName = name === '' ? '' : `${name}/`;
		if (dirName !== '') {
			entries.push({ name: dirName, type: 'dir', mode: 0o755, mtimeSec, content: '' });
			listing(dirName);
		}
		// /proc and /sys are the kernel's: they are walked as empty here.
		if (path === '/proc' || path === '/sys') return;
		for (const child of listDirectory(image, here, files, path) ?? []) walk(path === '/' ? `/${child}` : `${path}/${child}`, `${dirName}${child}`);
	};
	for (const operand of o.operands) {
		const leading = operand.startsWith('/');
		// GNU strips the name before it looks at the file; busybox once it has found it.
		if (leading && !busybox) noteStripped();
		const path = normalizePath(operand, here);
		if (readFile(image, here, files, path) === undefined && listDirectory(image, here, files, path) === undefined) {
			fail(busybox ? `${operand}: No such file or directory` : `${operand}: Cannot stat: No such file or directory`);
			failed = true;
			continue;
		}
		if (leading && busybox) noteStripped();
		walk(path, operand.replace(/^\/+/, '').replace(/\/+$/, ''));
	}
	const written = writeTar(entries, busybox ? 'ustar' : 'gnu', busybox ? 0 : 20);
	if (!written.ok) {
		fail(busybox ? `${written.name}: name too long` : `${written.name}: file name is too long (max 256); not dumped`);
		failed = true;
	}
	const archive = written.ok ? written.archive : '';
	const outcome: Record<string, string> = {};
	if (archiveFile === undefined) out.push(...streamLines(archive));
	else outcome[archiveFile] = archive;
	if (failed) fail(busybox ? 'error exit delayed from previous errors' : 'Exiting with failure status due to previous errors');
	return done(failed ? (busybox ? 1 : 2) : 0, outcome);
}
