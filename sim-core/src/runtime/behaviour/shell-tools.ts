/**
 * The userland tools a container command may call, run directly or from
 * a shell script: echo, printf, sleep, date, hostname, id, env, cat, ls,
 * ps, seq, uname, cp, tar (behaviour/tar.ts), the network clients without
 * a network (wget, nslookup, curl), and the file tools whose effects the interpreter applies. Each
 * answers in the dialect of the image's base: busybox applets or GNU
 * coreutils (Debian, Ubuntu), whose messages and exit codes differ.
 *
 * Mirrors mirror/busybox coreutils/ (the applets), coreutils/coreutils src/
 * (GNU coreutils).
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine, RunOptions } from '../behaviour.ts';
import { formatDateCommand } from './time-formats.ts';
import { listDirectory, normalizePath, readFile, readStoredFile } from './rootfs.ts';
import { envValue, flagValue, usesBusybox } from './userland.ts';
import { statFile, type ContainerStat } from './file-modes.ts';
import { applyChmod, lsModeString } from '../../host/file-mode.ts';
import { civilTime } from '../../golang/time.ts';
import { runTar } from './tar.ts';
import { runDiskTool } from './disk-tools.ts';

/** Runs `argv` if it is one of the userland tools; undefined if it is another program. */
export function runUserlandTool(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, argv: string[], wallMs: number, options: RunOptions, out: OutputLine[]): CommandOutcome | undefined {
	const binary = argv[0] ?? '';
	const base = binary.slice(binary.lastIndexOf('/') + 1);
	const args = argv.slice(1);
	const print = (text: string) => out.push({ stream: 'stdout', text });
	const fail = (text: string) => out.push({ stream: 'stderr', text });
	const done = (status: number): CommandOutcome => ({ kind: 'done', status, out });
	const busybox = usesBusybox(image);

	switch (base) {
		case 'echo': {
			let words = args;
			let newline = true;
			while (words[0] === '-n' || words[0] === '-e' || words[0] === '-ne' || words[0] === '-en') {
				if (words[0].includes('n')) newline = false;
				words = words.slice(1);
			}
			const text = words.join(' ').replace(/\\n/g, '\n');
			for (const line of text.split('\n')) print(line);
			if (!newline && out.length && out[out.length - 1].text === '') out.pop();
			else if (!newline && out.length) out[out.length - 1].partial = true;
			return done(0);
		}
		case 'printf': {
			const [format = '', ...rest] = args;
			let k = 0;
			const text = format.replace(/%[sd]|%%|\\n|\\t/g, (m) => (m === '%%' ? '%' : m === '\\n' ? '\n' : m === '\\t' ? '\t' : (rest[k++] ?? (m === '%d' ? '0' : ''))));
			const lines = text.split('\n');
			const endsWithNewline = lines[lines.length - 1] === '';
			if (endsWithNewline) lines.pop();
			for (const line of lines) print(line);
			if (!endsWithNewline && out.length) out[out.length - 1].partial = true;
			return done(0);
		}
		case 'true':
			return done(0);
		case 'false':
			return done(1);
		case 'sleep': {
			if (args.length === 0) {
				fail(busybox ? 'Usage: sleep [N]...' : 'sleep: missing operand');
				return done(1);
			}
			let total = 0;
			for (const a of args) {
				if (a === 'infinity' || a === 'inf') return { kind: 'sleep', ms: Number.POSITIVE_INFINITY, out };
				const m = /^(\d+(?:\.\d+)?)([smhd]?)$/.exec(a);
				if (!m) {
					fail(busybox ? `sleep: invalid number '${a}'` : `sleep: invalid time interval '${a}'`);
					return done(1);
				}
				total += Number(m[1]) * ({ '': 1000, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]] ?? 1000);
			}
			return { kind: 'sleep', ms: total, out };
		}
		case 'date':
			print(formatDateCommand(wallMs));
			return done(0);
		case 'hostname': {
			// -i: the addresses the name has in /etc/hosts (the kubelet writes the Pod's IP there).
			if (args[0] === '-i' || args[0] === '--ip-address') {
				const hosts = readFile(image, ctx, files, '/etc/hosts') ?? '';
				const ips = hosts
					.split('\n')
					.map((l) => l.replace(/#.*/, '').trim().split(/\s+/))
					.filter((f) => f.length > 1 && f.slice(1).includes(ctx.hostname))
					.map((f) => f[0]);
				if (!ips.length) {
					fail(busybox ? `hostname: ${ctx.hostname}: Unknown host` : 'hostname: Name or service not known');
					return done(1);
				}
				// GNU hostname prints them on one line with a trailing space; busybox the first one.
				print(busybox ? ips[0] : `${ips.join(' ')} `);
				return done(0);
			}
			print(ctx.hostname);
			return done(0);
		}
		case 'whoami':
			print('root');
			return done(0);
		case 'id':
			print(busybox ? 'uid=0(root) gid=0(root) groups=0(root),10(wheel)' : 'uid=0(root) gid=0(root) groups=0(root)');
			return done(0);
		case 'pwd':
			print(ctx.workingDir || '/');
			return done(0);
		case 'uname':
			// The kernel is the node's: containers share it.
			print(args.includes('-a') ? `Linux ${ctx.hostname} 6.8.0-88-generic #89-Ubuntu SMP PREEMPT_DYNAMIC x86_64 GNU/Linux` : 'Linux');
			return done(0);
		case 'env':
		case 'printenv': {
			if (base === 'printenv' && args.length > 0) {
				let status = 0;
				for (const name of args) {
					const v = envValue(ctx, name);
					if (v === undefined) status = 1;
					else print(v);
				}
				return done(status);
			}
			for (const e of ctx.env) print(`${e.name}=${e.value}`);
			return done(0);
		}
		case 'cat': {
			let status = 0;
			// No file (or `-`): standard input, when an exec streams one.
			if (options.stdin !== undefined && (args.length === 0 || args.includes('-'))) {
				const lines = options.stdin.split('\n');
				if (lines[lines.length - 1] === '') lines.pop();
				for (const line of lines) print(line);
				if (args.length === 0) return done(0);
			}
			for (const path of args.filter((a) => !a.startsWith('-'))) {
				const content = readFile(image, ctx, files, path);
				if (content === undefined) {
					const isDir = listDirectory(image, ctx, files, path) !== undefined;
					fail(busybox ? `cat: ${isDir ? `read error: Is a directory` : `can't open '${path}': No such file or directory`}` : `cat: ${path}: ${isDir ? 'Is a directory' : 'No such file or directory'}`);
					status = 1;
					continue;
				}
				const lines = content.split('\n');
				if (lines[lines.length - 1] === '') lines.pop();
				for (const line of lines) print(line);
			}
			return done(status);
		}
		case 'cp': {
			// One file to a file or into a directory (cp's flags change nothing the simulation keeps).
			const operands = args.filter((a) => !a.startsWith('-'));
			if (operands.length < 2) {
				fail(busybox ? 'cp: need at least 2 arguments' : "cp: missing destination file operand after '" + (operands[0] ?? '') + "'");
				return done(1);
			}
			const target = operands[operands.length - 1];
			const intoDir = listDirectory(image, ctx, files, target) !== undefined;
			const written: Record<string, string> = {};
			let status = 0;
			for (const source of operands.slice(0, -1)) {
				const content = readStoredFile(image, ctx, files, source);
				if (content === undefined) {
					fail(busybox ? `cp: can't stat '${source}': No such file or directory` : `cp: cannot stat '${source}': No such file or directory`);
					status = 1;
					continue;
				}
				const dest = intoDir ? `${target.replace(/\/+$/, '')}/${source.slice(source.lastIndexOf('/') + 1)}` : target;
				written[normalizePath(dest, ctx)] = content;
			}
			return { kind: 'done', status, out, files: written };
		}
		case 'dd':
		case 'fallocate':
		case 'df':
		case 'du':
			return runDiskTool(image, ctx, files, base, args, options, out);
		case 'tar':
			return runTar(image, ctx, files, args, wallMs, options.stdin, out);
		case 'ls': {
			const targets = args.filter((a) => !a.startsWith('-'));
			const long = args.some((a) => a.startsWith('-') && a.includes('l'));
			let status = 0;
			/** Long lines for entries, columns as busybox pads them or as GNU aligns them. */
			const longLines = (entries: Array<{ name: string; stat: ContainerStat }>) => {
				// The simulation keeps no modification times in containers: files show the time of the listing.
				const rows = entries.map(({ name, stat }) => ({ mode: lsModeString(stat.isDir, stat.mode), links: stat.isDir ? '2' : '1', size: String(stat.size), name }));
				const date = lsDate(wallMs);
				if (busybox) return rows.map((r) => `${r.mode} ${r.links.padStart(4)} root     root     ${r.size.padStart(9)} ${date} ${r.name}`);
				const links = Math.max(...rows.map((r) => r.links.length), 1);
				const size = Math.max(...rows.map((r) => r.size.length), 1);
				return rows.map((r) => `${r.mode} ${r.links.padStart(links)} root root ${r.size.padStart(size)} ${date} ${r.name}`);
			};
			for (const target of targets.length ? targets : [ctx.workingDir || '/']) {
				const entries = listDirectory(image, ctx, files, target);
				if (entries && !(long && args.some((a) => a.startsWith('-') && a.includes('d')))) {
					if (targets.length > 1) print(`${target}:`);
					if (!long) {
						for (const e of entries) print(e);
						continue;
					}
					const dir = normalizePath(target, ctx);
					const listed = entries.flatMap((name) => {
						const stat = statFile(image, ctx, files, `${dir === '/' ? '' : dir}/${name}`);
						return stat ? [{ name, stat }] : [];
					});
					// `total`: the 1 KiB blocks the entries take, a 4 KiB block per started 4 KiB.
					print(`total ${listed.reduce((t, e) => t + Math.ceil(e.stat.size / 4096) * 4, 0)}`);
					for (const line of longLines(listed)) print(line);
					continue;
				}
				const stat = statFile(image, ctx, files, target);
				if (stat) {
					if (long) for (const line of longLines([{ name: target, stat }])) print(line);
					else print(target);
					continue;
				}
				fail(busybox ? `ls: ${target}: No such file or directory` : `ls: cannot access '${target}': No such file or directory`);
				status = busybox ? 1 : 2;
			}
			return done(status);
		}
		case 'chmod': {
			// chmod MODE FILE...: octal or symbolic modes; the interpreter records what changed.
			const [spec, ...targets] = args.filter((a) => !/^-[Rcfv]+$/.test(a));
			if (!spec || !targets.length) {
				fail(busybox ? 'chmod: need at least 2 arguments' : spec ? `chmod: missing operand after '${spec}'` : 'chmod: missing operand');
				return done(1);
			}
			const modes: Record<string, number> = {};
			let status = 0;
			for (const target of targets) {
				const m = statFile(image, ctx, files, target);
				if (!m) {
					fail(busybox ? `chmod: ${target}: No such file or directory` : `chmod: cannot access '${target}': No such file or directory`);
					status = 1;
					continue;
				}
				const mode = applyChmod(spec, m.mode, m.isDir);
				if (mode === undefined) {
					fail(busybox ? `chmod: invalid mode '${spec}'` : `chmod: invalid mode: '${spec}'`);
					return done(1);
				}
				modes[normalizePath(target, ctx)] = mode;
			}
			return { kind: 'done', status, out, modes };
		}
		case 'stat': {
			// stat -c FORMAT FILE...: %a (octal mode), %A (ls mode), %n (name), %s (size), %F (type).
			const format = flagValue(args, ['-c', '--format']) ?? flagValue(args, ['--printf']);
			const targets = args.filter((a, i) => !a.startsWith('-') && !['-c', '--format', '--printf'].includes(args[i - 1] ?? ''));
			if (format === undefined) return undefined;
			let status = 0;
			for (const target of targets) {
				const m = statFile(image, ctx, files, target);
				if (!m) {
					fail(busybox ? `stat: can't stat '${target}': No such file or directory` : `stat: cannot statx '${target}': No such file or directory`);
					status = 1;
					continue;
				}
				const fields: Record<string, string> = { a: m.mode.toString(8), A: lsModeString(m.isDir, m.mode), n: target, s: String(m.size), F: m.isDir ? 'directory' : m.size === 0 ? 'regular empty file' : 'regular file', '%': '%' };
				print(format.replace(/%([aAnsF%])/g, (_all, c: string) => fields[c]));
			}
			return done(status);
		}
		case 'ps': {
			// busybox ps: PID right-aligned in 5 columns, user in 8.
			print('PID   USER     TIME  COMMAND');
			print(`${'1'.padStart(5)} root      0:00 ${ctx.argv.join(' ')}`);
			print(`${String(options.main ? 2 : 7).padStart(5)} root      0:00 ps${args.length ? ' ' + args.join(' ') : ''}`);
			return done(0);
		}
		case 'touch':
		case 'mkdir':
		case 'rm':
		case 'tee':
			// File effects are applied by the interpreter (it owns the writable layer).
			return done(0);
		case 'seq': {
			const nums = args.map(Number);
			const [first, last] = nums.length === 1 ? [1, nums[0]] : [nums[0], nums[nums.length - 1]];
			for (let v = first; v <= last && v - first < 10_000; v++) print(String(v));
			return done(0);
		}
		case 'kill':
		case 'which':
		case 'test':
		case '[':
		case 'basename':
		case 'dirname':
		case 'head':
		case 'tail':
		case 'wc':
		case 'grep':
			return done(0);
		case 'uptime':
			print(' 08:00:00 up 1 min,  0 users,  load average: 0.08, 0.03, 0.01');
			return done(0);
		case 'wget':
		case 'nslookup':
		case 'curl': {
			const host = args.filter((a) => !a.startsWith('-')).pop() ?? '';
			fail(base === 'curl' ? `curl: (6) Could not resolve host: ${host}` : `${base}: bad address '${host.replace(/^https?:\/\//, '').split('/')[0]}'`);
			return done(base === 'curl' ? 6 : 1);
		}
	}
	return undefined;
}

/** `ls -l`'s date column for a recent file: `Nov 30 08:00` (the day space-padded). */
function lsDate(wallMs: number): string {
	const t = civilTime(wallMs);
	const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][t.month - 1];
	return `${month} ${String(t.day).padStart(2)} ${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
}
