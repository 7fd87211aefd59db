/**
 * Line-oriented text tools: head, tail, wc, sort, uniq, cut, tr, column, seq, base64.
 *
 * Mirrors coreutils/coreutils src/head.c, coreutils/coreutils src/tail.c,
 * coreutils/coreutils src/wc.c, coreutils/coreutils src/sort.c,
 * coreutils/coreutils src/uniq.c, coreutils/coreutils src/cut.c,
 * coreutils/coreutils src/tr.c, util-linux/util-linux text-utils/column.c,
 * coreutils/coreutils src/seq.c, coreutils/coreutils src/basenc.c (base64).
 */
import { charClass } from '../../host/posix-bracket.ts';
import { base64Decode, base64Encode } from '../../golang/base64.ts';
import { utf8Decode, utf8Encode, utf8Length } from '../../golang/utf8.ts';
import type { CommandHandler } from '../types.ts';
import { Out, UsageError, count, lines, opt, readAll, res, tool, usage } from './common.ts';

/** Pieces of text, each line keeping its newline, so a missing final newline survives head/tail. */
const chunks = (s: string) => s.match(/[^\n]*\n|[^\n]+$/g) ?? [];

/**
 * head and tail: `-n N` (also GNU's old `-N`), `-n -N` for head (all but the
 * last N), `-n +N` for tail (from line N); `-c` counts characters the same
 * ways; `==> name <==` headers for several files. tail -f is accepted: there
 * is nothing more to follow.
 */
const headTail =
	(name: 'head' | 'tail'): CommandHandler =>
	(ctx) =>
		tool(name, 'n:c:fF', 1, (c, o) => {
			const bytes = opt(o, 'c'),
				v = bytes ?? opt(o, 'n') ?? '10',
				n = count(v.replace(/^[-+]/, ''), `invalid number of ${bytes ? 'bytes' : 'lines'}`);
			const { ins, err: e } = readAll(c, o.a, name, 'standard input');
			const err = e.replace(/^(\w+): (.*): (.*)$/gm, "$1: cannot open '$2' for reading: $3");
			// Lines (with their newlines) or single characters, cut from the front or the back.
			const pick = <T>(l: T[]): T[] => {
				if (name === 'head') return v[0] === '-' ? l.slice(0, Math.max(0, l.length - n)) : l.slice(0, n);
				return v[0] === '+' ? l.slice(Math.max(0, n - 1)) : n ? l.slice(-n) : [];
			};
			const out = ins
				.map((x, i) => (o.a.length > 1 ? `${i ? '\n' : ''}==> ${x.name} <==\n` : '') + pick(bytes ? [...x.text] : chunks(x.text)).join(''))
				.join('');
			return res(out, err, err ? 1 : 0);
		})({ ...ctx, argv: ctx.argv.map((a, i) => (i && /^-\d+$/.test(a) && !/^-[nc]$/.test(ctx.argv[i - 1]) ? '-n' + a.slice(1) : a)) });

/** head [-n N | -N | -n -N] [-c N] [FILE]... */
export const head = headTail('head');
/** tail [-n N | -N | -n +N] [-c N | -c +N] [FILE]... */
export const tail = headTail('tail');

/** wc [-l] [-w] [-c] [FILE]...: GNU's column widths (7 when reading a pipe, else the digits of the total size; 1 for a lone count). */
export const wc = tool('wc', 'lwc', 1, (ctx, o) => {
	let keys = [...'lwc'].filter((k) => o.f.has(k));
	if (!keys.length) keys = ['l', 'w', 'c'];
	const names = o.a.length ? o.a : ['-'];
	const { ins, err } = readAll(ctx, o.a, 'wc');
	const stats = ins.map(({ name, text }) => ({
		name,
		v: {
			l: text.split('\n').length - 1,
			w: text.split(/[ \t\n\r\f\v]+/).filter(Boolean).length,
			c: utf8Length(text),
		} as Record<string, number>,
	}));
	let width = 1;
	if (keys.length > 1 || names.length > 1) {
		const size = stats.reduce((t, s) => t + (s.name === '-' ? 0 : s.v.c), 0);
		width = Math.max(String(size).length, stats.some((s) => s.name === '-') ? 7 : 1);
	}
	const row = (v: Record<string, number>, name: string) => keys.map((k) => String(v[k]).padStart(width)).join(' ') + (name ? ' ' + name : '') + '\n';
	let out = stats.map((s) => row(s.v, o.a.length ? s.name : '')).join('');
	if (names.length > 1) {
		const t: Record<string, number> = {};
		for (const k of keys) t[k] = stats.reduce((a, s) => a + s.v[k], 0);
		out += row(t, 'total');
	}
	return res(out, err, err ? 1 : 0);
});

interface Key {
	from: number;
	to: number;
	n: boolean;
	r: boolean;
}

/** sort [-n] [-r] [-u] [-k F[,G][nr]]... [-t C] [FILE]...: byte order (C locale), ties broken by whole-line comparison as GNU does. */
export const sort = tool('sort', 'nruk:t:', 2, (ctx, o) => {
	const t = opt(o, 't');
	if (t !== undefined && t.length !== 1) return res('', `sort: multi-character tab '${t}'\n`, 2);
	const keys: Key[] = (o.f.get('k') ?? []).map((k) => {
		const m = /^(\d+)([nr]*)(?:,(\d+)([nr]*))?$/.exec(k);
		if (!m || +m[1] < 1) throw new UsageError(`invalid number at field start: invalid count at start of '${k}'`, false);
		const fl = m[2] + (m[4] ?? '');
		return { from: +m[1], to: m[3] ? +m[3] : Infinity, n: fl.includes('n'), r: fl.includes('r') };
	});
	const { ins, err } = readAll(ctx, o.a, 'sort');
	const all = ins.flatMap((x) => lines(x.text));
	const has = (c: string) => o.f.has(c);
	const field = (l: string, k: Key) => {
		const parts = t !== undefined ? l.split(t) : (l.match(/[ \t]*[^ \t]+/g) ?? []);
		return parts.slice(k.from - 1, k.to).join(t ?? '');
	};
	const numOf = (s: string) => parseFloat(/^\s*-?(\d+\.?\d*|\.\d+)?/.exec(s)?.[0].replace(/\s/g, '') || '0') || 0;
	const cmpStr = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
	const keyed = keys.length ? keys : [{ from: 1, to: Infinity, n: false, r: false }];
	const cmpKeys = (a: string, b: string) => {
		for (const k of keyed) {
			const x = keys.length ? field(a, k) : a,
				y = keys.length ? field(b, k) : b;
			const c = k.n || has('n') ? numOf(x) - numOf(y) : cmpStr(x, y);
			if (c) return k.r ? -c : c;
		}
		return 0;
	};
	const dir = has('r') ? -1 : 1;
	all.sort((a, b) => dir * (cmpKeys(a, b) || (has('u') ? 0 : cmpStr(a, b))));
	const out = has('u') ? all.filter((l, i) => !i || cmpKeys(all[i - 1], l) !== 0) : all;
	return res(out.map((l) => l + '\n').join(''), err, err ? 2 : 0);
});

/** uniq [-c] [-d] [-u] [INPUT]: adjacent duplicates; `-c` prints counts as `%7d `. */
export const uniq = tool('uniq', 'cdu', 1, (ctx, o) => {
	const { ins, err } = readAll(ctx, o.a.slice(0, 1), 'uniq');
	const ls = lines(ins[0]?.text ?? '');
	let out = '';
	for (let i = 0; i < ls.length;) {
		let j = i + 1;
		while (j < ls.length && ls[j] === ls[i]) j++;
		const n = j - i;
		if (!(o.f.has('d') && n < 2) && !(o.f.has('u') && n > 1)) out += (o.f.has('c') ? String(n).padStart(7) + ' ' : '') + ls[i] + '\n';
		i = j;
	}
	return res(out, err, err ? 1 : 0);
});

/** Parses a cut LIST (`1,3`, `2-`, `-4`, `2-5`) into a membership test. */
function ranges(list: string, what: string): (i: number) => boolean {
	const rs = list.split(',').map((part) => {
		const m = /^(\d*)(-?)(\d*)$/.exec(part);
		if (!m || (!m[1] && !m[3])) throw new UsageError(`invalid ${what} list`, false);
		const lo = m[1] ? +m[1] : 1,
			hi = m[3] ? +m[3] : m[2] ? Infinity : lo;
		if (lo < 1 || hi < 1) throw new UsageError(`${what === 'field' ? 'fields are' : 'byte/character positions are'} numbered from 1`);
		if (hi < lo) throw new UsageError('invalid decreasing range');
		return [lo, hi];
	});
	return (i) => rs.some(([lo, hi]) => i >= lo && i <= hi);
}

/** cut -f LIST [-d C] [-s] | -c LIST [FILE]... */
export const cut = tool('cut', 'd:f:c:s', 1, (ctx, o) => {
	const f = opt(o, 'f'),
		c = opt(o, 'c'),
		d = opt(o, 'd') ?? '\t';
	if ((f === undefined) === (c === undefined))
		throw new UsageError(f === undefined ? 'you must specify a list of bytes, characters, or fields' : 'only one type of list may be specified');
	if (d.length !== 1) throw new UsageError('the delimiter must be a single character');
	if (o.f.has('d') && f === undefined) throw new UsageError('an input delimiter may be specified only when operating on fields');
	const pick = ranges((f ?? c) as string, f !== undefined ? 'field' : 'byte/character');
	const { ins, err } = readAll(ctx, o.a, 'cut');
	let out = '';
	for (const l of ins.flatMap((x) => lines(x.text))) {
		if (c !== undefined) out += [...l].filter((_, i) => pick(i + 1)).join('') + '\n';
		else if (!l.includes(d)) out += o.f.has('s') ? '' : l + '\n';
		else
			out +=
				l
					.split(d)
					.filter((_, i) => pick(i + 1))
					.join(d) + '\n';
	}
	return res(out, err, err ? 1 : 0);
});

/** Expands a tr SET: escapes, ranges `a-z`, classes `[:upper:]`. */
function trSet(s: string): string[] {
	const out: string[] = [];
	const ch = (i: number): [string, number] => {
		if (s[i] !== '\\' || i + 1 >= s.length) return [s[i], i + 1];
		const m = /^[0-7]{1,3}/.exec(s.slice(i + 1, i + 4));
		if (m) return [String.fromCharCode(parseInt(m[0], 8)), i + 1 + m[0].length];
		const e: Record<string, string> = { n: '\n', t: '\t', r: '\r', f: '\f', v: '\v', a: '\x07', b: '\b' };
		return [e[s[i + 1]] ?? s[i + 1], i + 2];
	};
	for (let i = 0; i < s.length;) {
		const cls = /^\[:(\w+):\]/.exec(s.slice(i, i + 12));
		const test = cls && charClass(cls[1]);
		if (test) {
			for (let c = 0; c < 128; c++) if (test(String.fromCharCode(c))) out.push(String.fromCharCode(c));
			i += cls[0].length;
			continue;
		}
		const [a, j] = ch(i);
		if (s[j] === '-' && j + 1 < s.length) {
			const [b, k] = ch(j + 1);
			if (b < a) throw new UsageError(`range-endpoints of '${a}-${b}' are in reverse collating sequence order`, false);
			for (let c = a.charCodeAt(0); c <= b.charCodeAt(0) && out.length < 70_000; c++) out.push(String.fromCharCode(c));
			i = k;
		} else {
			out.push(a);
			i = j;
		}
	}
	return out;
}

/** tr [-d] [-s] SET1 [SET2]: translate, delete or squeeze characters of stdin. */
export const tr = tool('tr', 'ds', 1, (ctx, o) => {
	const [s1, s2] = o.a,
		del = o.f.has('d'),
		sq = o.f.has('s');
	if (s1 === undefined) throw new UsageError('missing operand');
	if (!del && !sq && s2 === undefined) throw new UsageError(`missing operand after '${s1}'\nTwo strings must be given when translating.`);
	if (o.a.length > (del && !sq ? 1 : 2)) throw new UsageError(`extra operand '${o.a[del && !sq ? 1 : 2]}'`);
	const a1 = trSet(s1),
		a2 = s2 === undefined ? [] : trSet(s2),
		set1 = new Set(a1);
	const map = new Map<string, string>();
	if (!del && a2.length) a1.forEach((c, i) => map.set(c, a2[Math.min(i, a2.length - 1)]));
	const squeeze = new Set(del || !a2.length ? (del ? a2 : a1) : a2);
	let out = '',
		prev = '';
	for (const c of ctx.stdin) {
		if (del && set1.has(c)) continue;
		const x = map.get(c) ?? c;
		if (sq && x === prev && squeeze.has(x)) continue;
		out += x;
		prev = x;
	}
	return res(out);
});

/** column -t [-s SEPS]: aligns whitespace- (or SEPS-) separated fields into a table, two spaces apart like util-linux. */
export const column = tool('column', 'ts:', 1, (ctx, o) => {
	const { ins, err } = readAll(ctx, o.a, 'column');
	const ls = ins.flatMap((x) => lines(x.text)).filter((l) => l.trim());
	if (!o.f.has('t')) return res(ls.map((l) => l + '\n').join(''), err, err ? 1 : 0);
	const seps = opt(o, 's');
	const rows = ls.map((l) => (seps ? l.split(new RegExp(`[${seps.replace(/[\]\\^-]/g, '\\$&')}]+`)) : l.trim().split(/\s+/)));
	const w: number[] = [];
	for (const r of rows) r.forEach((c, i) => (w[i] = Math.max(w[i] ?? 0, c.length)));
	return res(rows.map((r) => r.map((c, i) => (i < r.length - 1 ? c.padEnd(w[i]) : c)).join('  ') + '\n').join(''), err, err ? 1 : 0);
});

/** seq [-s SEP] [FIRST [INCREMENT]] LAST; negative numbers are operands, not options. */
export const seq: CommandHandler = (ctx) => {
	const nums: string[] = [];
	let sep = '\n';
	for (let i = 1; i < ctx.argv.length; i++) {
		const a = ctx.argv[i];
		if (a.startsWith('-s')) sep = a === '-s' ? (ctx.argv[++i] ?? '') : a.slice(2);
		else if (/^-?(\d+\.?\d*|\.\d+)$/.test(a) || !a.startsWith('-')) nums.push(a);
		else return usage('seq', `invalid option -- '${a[1]}'`);
	}
	if (!nums.length) return usage('seq', 'missing operand');
	if (nums.length > 3) return usage('seq', `extra operand '${nums[3]}'`);
	const bad = nums.find((n) => !/^[-+]?(\d+\.?\d*|\.\d+)$/.test(n));
	if (bad !== undefined) return usage('seq', `invalid floating point argument: '${bad}'`);
	const [first, inc, last] = nums.length === 1 ? ['1', '1', nums[0]] : nums.length === 2 ? [nums[0], '1', nums[1]] : nums;
	if (+inc === 0) return usage('seq', `invalid Zero increment value: '${inc}'`);
	const dec = Math.max(...[first, inc].map((n) => (n.split('.')[1] ?? '').length));
	const out = new Out();
	for (let k = 0; ; k++) {
		const x = +first + k * +inc;
		if (+inc > 0 ? x > +last + 1e-9 : x < +last - 1e-9) break;
		out.add((k ? sep : '') + x.toFixed(dec));
	}
	const s = out.toString();
	return res(s ? s + '\n' : '');
};

/** base64 [-d] [-w COLS] [FILE]: RFC 4648 over the UTF-8 bytes of the text; wraps at 76 columns by default. */
export const base64 = tool(
	'base64',
	'dw:',
	1,
	(ctx, o) => {
		if (o.a.length > 1) throw new UsageError(`extra operand '${o.a[1]}'`);
		const { ins, err } = readAll(ctx, o.a, 'base64');
		if (err) return res('', err, 1);
		const text = ins[0].text;
		if (o.f.has('d')) {
			const { bytes, ok } = base64Decode(text.replace(/[\n\r]/g, ''));
			return res(utf8Decode(bytes), ok ? '' : 'base64: invalid input\n', ok ? 0 : 1);
		}
		const w = count(opt(o, 'w') ?? '76', 'invalid wrap size');
		const b = base64Encode(utf8Encode(text));
		// GNU ends wrapped output with a newline, but not unwrapped (-w 0) output.
		return res(w ? (b.match(new RegExp(`.{1,${w}}`, 'g')) ?? []).map((l) => l + '\n').join('') : b);
	},
	{ decode: 'd', wrap: 'w' },
);
