/**
 * grep: GNU grep's common options, output format and exit statuses (0 selected, 1 none, 2 trouble).
 *
 * Mirrors gnu/grep src/grep.c.
 */
import type { CommandHandler } from '../types.ts';
import { Out, UsageError, fsErr, getopt, lines, opt, res, READ_MAX, type Opts } from './common.ts';
import { RegexError, compileRegex, type Regex } from './regex.ts';

const USAGE = 'Usage: grep [OPTION]... PATTERNS [FILE]...\n';
const LONG: Record<string, string> = {
	color: '',
	colour: '',
	'ignore-case': 'i',
	'invert-match': 'v',
	count: 'c',
	'extended-regexp': 'E',
	quiet: 'q',
	recursive: 'r',
};

/** grep [OPTION]... PATTERNS [FILE]... */
export const grep: CommandHandler = (ctx) => {
	let o: Opts;
	try {
		o = getopt(ctx.argv, 'ivcnwxoEFqrRlhse:A:B:C:m:', LONG);
	} catch (e) {
		if (e instanceof UsageError) return res('', `grep: ${e.message}\n${USAGE}Try 'grep --help' for more information.\n`, 2);
		throw e;
	}
	const has = (c: string) => o.f.has(c),
		files = [...o.a];
	const pats = o.f.get('e') ?? [];
	if (!pats.length) {
		if (!files.length) return res('', USAGE + "Try 'grep --help' for more information.\n", 2);
		pats.push(files.shift() as string);
	}
	const num = (c: string, d: number) => {
		const v = opt(o, c);
		if (v !== undefined && !/^\d+$/.test(v)) throw new UsageError(`${v}: invalid ${c === 'm' ? 'max count' : 'context length argument'}`, false);
		return v === undefined ? d : Math.min(+v, 1e9);
	};
	let before: number, after: number, max: number, res_: Regex[];
	try {
		const C = num('C', 0);
		before = num('B', C);
		after = num('A', C);
		max = num('m', Infinity);
		const ro = { ere: has('E'), fixed: has('F'), icase: has('i'), word: has('w'), line: has('x') };
		res_ = pats.flatMap((p) => p.split('\n')).map((p) => compileRegex(p, ro));
	} catch (e) {
		if (e instanceof RegexError || e instanceof UsageError) return res('', `grep: ${e.message}\n`, 2);
		throw e;
	}
	const context = o.f.has('A') || o.f.has('B') || o.f.has('C');
	const inv = has('v'),
		only = has('o') && !inv,
		fs = ctx.host.fs;
	let err = '',
		trouble = false,
		total = 0,
		printed = false,
		read = 0;
	const out = new Out();

	// Operands: stdin by default; with -r, directories are walked (the working directory if none given).
	const names: string[] = [];
	for (const f of files.length ? files : has('r') || has('R') ? ['.'] : ['-']) {
		if ((has('r') || has('R')) && f !== '-' && fs.isDir(f)) {
			const root = fs.resolve(f);
			for (const p of fs.walk(f)) if (!fs.isDir(p)) names.push(f.replace(/\/$/, '') + p.slice(root.length));
		} else names.push(f);
	}
	const prefixName = !has('h') && (names.length > 1 || has('r') || has('R'));

	try {
		for (const name of names) {
			let text: string;
			try {
				text = name === '-' ? ctx.stdin : name === '/dev/null' ? '' : fs.readFile(name);
				if ((read += text.length) > READ_MAX) throw new RegexError('input too large for the simulated shell');
			} catch (e) {
				if (e instanceof RegexError) throw e;
				const msg = fsErr('grep', name, e);
				if (!has('s')) err += msg;
				trouble = true;
				continue;
			}
			const shown = name === '-' ? '(standard input)' : name;
			const pre = (i: number, sep: string) => (prefixName ? shown + sep : '') + (has('n') ? i + 1 + sep : '');
			const ls = lines(text);
			let n = 0,
				last = -2,
				left = 0;
			for (let i = 0; i < ls.length; i++) {
				const l = ls[i];
				if (n < max && res_.some((r) => r.exec(l)) !== inv) {
					n++;
					if (has('q')) return res('', '', 0);
					if (has('l')) break;
					if (has('c')) continue;
					const from = Math.max(last + 1, i - before);
					if (context && printed && from > last + 1) out.add('--\n');
					for (let j = from; j < i; j++) out.add(pre(j, '-') + ls[j] + '\n');
					if (only) {
						for (let pos = 0; pos <= l.length;) {
							let best: number[] | null = null;
							for (const r of res_) {
								const m = r.exec(l, pos);
								if (m && (!best || m[0] < best[0] || (m[0] === best[0] && m[1] > best[1]))) best = m;
							}
							if (!best) break;
							if (best[1] > best[0]) out.add(pre(i, ':') + l.slice(best[0], best[1]) + '\n');
							pos = best[1] > best[0] ? best[1] : best[0] + 1;
						}
					} else out.add(pre(i, ':') + l + '\n');
					printed = true;
					last = i;
					left = after;
				} else if (left > 0) {
					out.add(pre(i, '-') + l + '\n');
					last = i;
					left--;
				} else if (n >= max) break;
			}
			total += n;
			if (has('c')) out.add((prefixName ? shown + ':' : '') + n + '\n');
			if (has('l') && n) out.add(shown + '\n');
		}
	} catch (e) {
		if (e instanceof RegexError) return res(out.toString(), err + `grep: ${e.message}\n`, 2);
		throw e;
	}
	return res(out.toString(), err, trouble ? 2 : total ? 0 : 1);
};
