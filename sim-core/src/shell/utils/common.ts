/**
 * Plumbing shared by the text utilities: results, GNU-style option parsing,
 * reading operands, bounded output.
 *
 * Mirrors gnu/glibc posix/getopt.c (GNU-style option parsing).
 */
import { FsError } from '../../host/fs.ts';
import type { CommandContext, CommandHandler, CommandResult } from '../types.ts';

/** Most characters one command may write to stdout; more is cut with a note. */
export const OUT_MAX = 1 << 20;
/** Most characters a tool reads across all its operands (`cat big big big …` stays bounded). */
export const READ_MAX = 32 << 20;

/** Thrown by Out when a tool's output passes OUT_MAX; the session keeps `partial` and notes the cut. */
export class OutputLimit extends Error {
	constructor(readonly partial: string) {
		super('output limit');
	}
}

/** A CommandResult. */
export const res = (stdout = '', stderr = '', exitCode = 0): CommandResult => ({ stdout, stderr, exitCode });

/** Output collector that stops a tool once it has produced OUT_MAX characters (seq, sed s///g, cat of many files…). */
export class Out {
	private parts: string[] = [];
	private n = 0;
	add(s: string): void {
		this.parts.push(s);
		if ((this.n += s.length) > OUT_MAX) throw new OutputLimit(this.toString());
	}
	toString(): string {
		return this.parts.join('');
	}
}

/** Lines as line-oriented tools see them: a final newline ends the last line instead of starting an empty one. */
export function lines(s: string): string[] {
	if (!s) return [];
	const l = s.split('\n');
	if (l[l.length - 1] === '') l.pop();
	return l;
}

/** Bad usage, reported as GNU tools do: `tool: message`, then `Try 'tool --help'…` when `hint`. */
export class UsageError extends Error {
	constructor(
		message: string,
		readonly hint = true,
	) {
		super(message);
	}
}

/** Parsed options: each option letter with its values in order ('' for flags), and the operands. */
export interface Opts {
	f: Map<string, string[]>;
	a: string[];
}

/**
 * GNU getopt_long in miniature: clustered flags (`-vn`), values attached or
 * separate (`-A5`, `-A 5`), `--long[=value]` mapped to letters through `long`
 * ('' = accepted and ignored), `--` ends options. Operands may come before
 * options, as GNU allows, unless `stop` (commands that take a command line:
 * xargs, sudo, awk). `spec` lists letters; a `:` after a letter means it takes a value.
 */
export function getopt(argv: string[], spec: string, long: Record<string, string> = {}, stop = false): Opts {
	const f = new Map<string, string[]>(),
		a: string[] = [];
	const put = (k: string, v: string) => f.get(k)?.push(v) ?? f.set(k, [v]);
	for (let i = 1; i < argv.length; i++) {
		const x = argv[i];
		if (x === '--') {
			a.push(...argv.slice(i + 1));
			break;
		}
		if (x.startsWith('--')) {
			const eq = x.indexOf('='),
				name = x.slice(2, eq < 0 ? undefined : eq);
			const k = Object.hasOwn(long, name) ? long[name] : undefined;
			if (k === undefined) throw new UsageError(`unrecognized option '${x}'`);
			if (!k) continue;
			if (!spec.includes(k + ':')) put(k, '');
			else if (eq >= 0) put(k, x.slice(eq + 1));
			else if (i + 1 < argv.length) put(k, argv[++i]);
			else throw new UsageError(`option '${x}' requires an argument`);
		} else if (x.length > 1 && x[0] === '-') {
			for (let j = 1; j < x.length; j++) {
				const c = x[j],
					at = spec.indexOf(c);
				if (at < 0 || c === ':') throw new UsageError(`invalid option -- '${c}'`);
				if (spec[at + 1] !== ':') put(c, '');
				else {
					const v = j + 1 < x.length ? x.slice(j + 1) : argv[++i];
					if (v === undefined) throw new UsageError(`option requires an argument -- '${c}'`);
					put(c, v);
					break;
				}
			}
		} else {
			a.push(x);
			if (stop) {
				a.push(...argv.slice(i + 1));
				break;
			}
		}
	}
	return { f, a };
}

/** The last value given for an option (later options win, as with GNU tools). */
export const opt = (o: Opts, k: string): string | undefined => o.f.get(k)?.at(-1);

/** Formats a file-system error as coreutils do (`tool: name: No such file or directory`); anything else is a bug and propagates. */
export function fsErr(tool: string, name: string, e: unknown): string {
	if (e instanceof FsError) return `${tool}: ${name}: ${e.message}\n`;
	throw e;
}

/** Reads operands (stdin when there are none, or for `-`); unreadable ones are reported and skipped, as coreutils go on to the next file. */
export function readAll(ctx: CommandContext, names: string[], tool: string, stdinName = '-'): { ins: Array<{ name: string; text: string }>; err: string } {
	const ins: Array<{ name: string; text: string }> = [];
	let err = '',
		total = 0;
	for (const n of names.length ? names : ['-']) {
		try {
			const text = n === '-' ? ctx.stdin : n === '/dev/null' ? '' : ctx.host.fs.readFile(n);
			if ((total += text.length) > READ_MAX) return { ins, err: err + `${tool}: input too large for the simulated shell\n` };
			ins.push({ name: n === '-' ? stdinName : n, text });
		} catch (e) {
			err += fsErr(tool, n, e);
		}
	}
	return { ins, err };
}

/** Defines a tool with option parsing; bad usage gets GNU's two-line message and `usageStatus` (1 for most coreutils, 2 for grep, ls, sort). */
export function tool(
	name: string,
	spec: string,
	usageStatus: number,
	body: (ctx: CommandContext, o: Opts) => CommandResult,
	long?: Record<string, string>,
	stop?: boolean,
): CommandHandler {
	return (ctx) => {
		let o: Opts;
		try {
			o = getopt(ctx.argv, spec, long, stop);
			return body(ctx, o);
		} catch (e) {
			if (e instanceof UsageError) return e.hint ? usage(name, e.message, usageStatus) : res('', `${name}: ${e.message}\n`, usageStatus);
			throw e;
		}
	};
}

/** GNU's usage complaint. */
export const usage = (name: string, msg: string, status = 1): CommandResult => res('', `${name}: ${msg}\nTry '${name} --help' for more information.\n`, status);

/** Parses a count operand (`-n 5`), throwing UsageError with `what` on junk. */
export function count(v: string, what: string): number {
	if (!/^\d{1,9}$/.test(v)) throw new UsageError(`${what}: '${v}'`, false);
	return +v;
}
