/**
 * sed: the stream edits tutorials show. Commands s (flags g p i N), d, p, q,
 * a, i; addresses N, $, /re/ and ranges, `!`; options -n -e -E/-r -i.
 * No hold space, branches or blocks: without them every script ends.
 *
 * Mirrors gnu/sed sed/compile.c, gnu/sed sed/execute.c.
 */
import type { CommandHandler } from '../types.ts';
import { Out, fsErr, lines, res } from './common.ts';
import { RegexError, compileRegex, substitute, type Regex } from './regex.ts';

interface Addr {
	n?: number;
	last?: boolean;
	re?: Regex;
}
interface Cmd {
	a1?: Addr;
	a2?: Addr;
	neg: boolean;
	c: string;
	re?: Regex;
	rep?: Array<string | number>;
	g?: boolean;
	nth?: number;
	p?: boolean;
	text?: string;
	on?: boolean;
}

class SedError extends Error {}

function parse(src: string, ere: boolean): Cmd[] {
	let i = 0;
	const fail = (msg: string): never => {
		throw new SedError(`-e expression #1, char ${i}: ${msg}`);
	};
	const ws = () => {
		while (src[i] === ' ' || src[i] === '\t') i++;
	};
	// Text up to an unescaped delimiter; `\delim` becomes the delimiter, other escapes are kept for the regex or replacement.
	const part = (d: string, what: string) => {
		let s = '';
		for (;;) {
			if (i >= src.length || src[i] === '\n') fail(what);
			const c = src[i++];
			if (c === d) return s;
			if (c === '\\' && i < src.length) {
				const e = src[i++];
				s += e === d ? e : e === 'n' ? '\n' : '\\' + e;
			} else s += c;
		}
	};
	const regex = (s: string, icase = false) => {
		if (!s) fail('no previous regular expression');
		return compileRegex(s, { ere, icase });
	};
	const addr = (): Addr | undefined => {
		const m = /^\d+/.exec(src.slice(i, i + 12));
		if (m) return ((i += m[0].length), { n: +m[0] });
		if (src[i] === '$') return (i++, { last: true });
		if (src[i] === '/') return (i++, { re: regex(part('/', 'unterminated address regex')) });
		return undefined;
	};
	const cmds: Cmd[] = [];
	for (;;) {
		while (i < src.length && ' \t\n;'.includes(src[i])) i++;
		if (i >= src.length) return cmds;
		if (src[i] === '#') {
			while (i < src.length && src[i] !== '\n') i++;
			continue;
		}
		const cmd: Cmd = { neg: false, c: '', a1: addr() };
		if (cmd.a1 && src[i] === ',') {
			i++;
			cmd.a2 = addr() ?? fail("unexpected `,'");
		}
		ws();
		if (src[i] === '!') {
			i++;
			ws();
			cmd.neg = true;
		}
		cmd.c = src[i++] ?? fail('missing command');
		switch (cmd.c) {
			case 's': {
				const d = src[i++];
				if (!d || d === '\n' || d === '\\') fail("unterminated `s' command");
				const pat = part(d, "unterminated `s' command"),
					rep = part(d, "unterminated `s' command");
				let icase = false;
				for (let m: RegExpExecArray | null; (m = /^(?:[gpiI]|\d+)/.exec(src.slice(i, i + 10))); i += m[0].length) {
					if (m[0] === 'g') cmd.g = true;
					else if (m[0] === 'p') cmd.p = true;
					else if (m[0] === 'i' || m[0] === 'I') icase = true;
					else if (+m[0] > 0) cmd.nth = +m[0];
					else fail("number option to `s' command may not be zero");
				}
				cmd.re = regex(pat, icase);
				cmd.rep = [];
				for (let j = 0; j < rep.length; j++) {
					const c = rep[j];
					if (c === '&') cmd.rep.push(0);
					else if (c === '\\' && j + 1 < rep.length) {
						const e = rep[++j];
						if (e >= '0' && e <= '9') {
							if (+e > cmd.re.groups) fail(`invalid reference \\${e} on \`s' command's RHS`);
							cmd.rep.push(+e);
						} else cmd.rep.push(e === 't' ? '\t' : e);
					} else cmd.rep.push(c);
				}
				break;
			}
			case 'a':
			case 'i': {
				ws();
				if (src[i] === '\\') {
					i++;
					if (src[i] === '\n') i++;
					ws();
				}
				const j = src.indexOf('\n', i);
				cmd.text = src.slice(i, j < 0 ? src.length : j);
				i = j < 0 ? src.length : j;
				break;
			}
			case 'q':
			case 'd':
			case 'p':
				break;
			default:
				fail(`unknown command: \`${cmd.c}'`);
		}
		ws();
		if (i < src.length && !';\n}#'.includes(src[i])) fail(`extra characters after command`);
		cmds.push(cmd);
	}
}

/** sed [-n] [-E|-r] [-i[SUFFIX]] [-s] [-e SCRIPT]... [SCRIPT] [FILE]... */
export const sed: CommandHandler = (ctx) => {
	const fs = ctx.host.fs,
		scripts: string[] = [],
		files: string[] = [];
	let quiet = false,
		ere = false,
		inPlace = false;
	const argv = ctx.argv;
	for (let k = 1; k < argv.length; k++) {
		const a = argv[k];
		if (a === '--') {
			files.push(...argv.slice(k + 1));
			break;
		}
		if (a.startsWith('--in-place')) inPlace = true;
		else if (a.length > 1 && a[0] === '-' && a[1] !== '-') {
			for (let j = 1; j < a.length; j++) {
				const c = a[j];
				if (c === 'n') quiet = true;
				else if (c === 'E' || c === 'r') ere = true;
				else if (c === 'i') {
					inPlace = true;
					break;
				} else if (c === 'e') {
					const v = j + 1 < a.length ? a.slice(j + 1) : argv[++k];
					if (v === undefined) return res('', `sed: option requires an argument -- 'e'\n`, 1);
					scripts.push(v);
					break;
				} else return res('', `sed: invalid option -- '${c}'\nUsage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n`, 1);
			}
		} else files.push(a);
	}
	if (!scripts.length) {
		if (!files.length) return res('', 'Usage: sed [OPTION]... {script-only-if-no-other-script} [input-file]...\n', 1);
		scripts.push(files.shift() as string);
	}
	if (inPlace && !files.length) return res('', 'sed: no input files\n', 1);
	let cmds: Cmd[];
	try {
		cmds = parse(scripts.join('\n'), ere);
	} catch (e) {
		if (e instanceof SedError || e instanceof RegexError) return res('', `sed: ${e instanceof RegexError ? '-e expression #1: ' : ''}${e.message}\n`, 1);
		throw e;
	}

	let err = '',
		status = 0,
		n = 0,
		quit = false;
	const inputs: Array<{ name: string; text: string }> = [];
	for (const f of files.length ? files : ['-']) {
		try {
			inputs.push({ name: f, text: f === '-' ? ctx.stdin : fs.readFile(f) });
		} catch (e) {
			err += fsErr('sed', `can't read ${f}`, e);
			status = 2;
		}
	}
	const matches = (a: Addr, l: string, last: boolean) => (a.last ? last : a.n !== undefined ? n === a.n : !!a.re?.exec(l));
	const selected = (c: Cmd, l: string, last: boolean): boolean => {
		if (!c.a1) return true;
		if (!c.a2) return matches(c.a1, l, last);
		if (c.on) {
			if (c.a2.n !== undefined ? n >= c.a2.n : matches(c.a2, l, last)) c.on = false;
			return true;
		}
		if (!matches(c.a1, l, last)) return false;
		c.on = !(c.a2.n !== undefined && c.a2.n <= n) && !(c.a2.last && last);
		return true;
	};
	// One stream: all inputs together, or each file on its own with -i/-s (line numbers and `$` restart).
	const run = (text: string, out: Out) => {
		const ls = lines(text);
		ls.forEach((line, idx) => {
			if (quit) return;
			n++;
			const last = idx === ls.length - 1,
				eol = last && !text.endsWith('\n') ? '' : '\n';
			let ps = line,
				del = false;
			const after: string[] = [];
			for (const c of cmds) {
				if (selected(c, ps, last) === c.neg) continue;
				if (c.c === 's' && c.re && c.rep) {
					const rep = c.rep,
						src = ps;
					const r = substitute(
						c.re,
						src,
						(m) => rep.map((x) => (typeof x === 'string' ? x : m[2 * x] >= 0 ? src.slice(m[2 * x], m[2 * x + 1]) : '')).join(''),
						!!c.g,
						c.nth,
					);
					ps = r.out;
					if (r.n && c.p) out.add(ps + '\n');
				} else if (c.c === 'd') {
					del = true;
					break;
				} else if (c.c === 'p') out.add(ps + '\n');
				else if (c.c === 'i') out.add(c.text + '\n');
				else if (c.c === 'a') after.push(c.text + '\n');
				else if (c.c === 'q') {
					quit = true;
					break;
				}
			}
			if (!del && !quiet) out.add(ps + eol);
			for (const a of after) out.add(a);
		});
	};
	try {
		if (inPlace) {
			for (const { name, text } of inputs) {
				const o = new Out();
				n = 0;
				cmds.forEach((c) => (c.on = false));
				run(text, o);
				fs.writeFile(name, o.toString());
			}
			return res('', err, status);
		}
		const out = new Out();
		run(inputs.map((x) => x.text).join(''), out);
		return res(out.toString(), err, status);
	} catch (e) {
		if (e instanceof RegexError) return res('', `sed: ${e.message}\n`, 4);
		throw e;
	}
};
