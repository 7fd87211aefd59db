/**
 * POSIX regular expressions, basic (BRE) and extended (ERE) with the GNU
 * extensions tutorials rely on (`\+ \? \|` in BRE, `\w \s \b \< \>`, back-
 * references), for grep, sed and awk.
 *
 * Why a matcher of our own rather than translating to RegExp: a translated
 * pattern like `(a*)*b` can backtrack for minutes and freeze the page. This
 * backtracking matcher counts its steps and gives up with an error past a
 * budget, so every pattern on every input ends. Repetition of single
 * characters (`.*`, `[a-z]+`) runs as a loop, so long lines do not exhaust
 * the stack. Matching is leftmost, greedy-first (not POSIX leftmost-longest:
 * they differ only for alternations like `a|ab`).
 *
 * Mirrors gnu/glibc posix/regcomp.c, gnu/glibc posix/regexec.c.
 */
import { bracket } from '../../host/posix-bracket.ts';

/** How to read the pattern: ERE instead of BRE, ignore case, fixed string (-F), whole words (-w), whole lines (-x). */
export interface RegexOptions {
	ere?: boolean;
	icase?: boolean;
	fixed?: boolean;
	word?: boolean;
	line?: boolean;
}

/** Invalid pattern, or a match that ran past its step budget; the message is GNU's wording where one exists. */
export class RegexError extends Error {}

/** Steps one compiled pattern may take over all the lines of one command. */
const REGEX_STEPS = 20_000_000;

/** A compiled pattern. */
export interface Regex {
	/** Number of capture groups. */
	groups: number;
	/** Leftmost match at or after `from`: [start, end, g1start, g1end, …] (-1 for groups that did not take part), or null. */
	exec(s: string, from?: number): number[] | null;
}

type K = (i: number) => boolean;
type M = (i: number, k: K) => boolean;
/** A parsed piece: its matcher, plus a single-character test (t) or literal (l) when it is that simple. */
interface Atom {
	m: M;
	t?: (c: string) => boolean;
	l?: string;
	z?: boolean;
}

const isW = (c: string | undefined) => c !== undefined && /\w/.test(c);

/** Compiles a POSIX pattern. Throws RegexError for malformed ones. */
export function compileRegex(src: string, o: RegexOptions = {}): Regex {
	const ere = !!o.ere;
	let s = '',
		caps: number[] = [],
		steps = 0,
		groups = 0,
		p = 0,
		depth = 0;
	const tick = () => {
		if (++steps > REGEX_STEPS) throw new RegexError('regular expression too complex (step limit reached)');
	};
	const fold = (x: string) => (o.icase ? x.toLowerCase() : x);
	const one = (t: (c: string) => boolean, l?: string): Atom => {
		const u = o.icase ? (c: string) => t(c) || t(c.toLowerCase()) || t(c.toUpperCase()) : t;
		return { t: u, l, m: (i, k) => (tick(), i < s.length && u(s[i]) && k(i + 1)) };
	};
	const lit = (c: string) => one((x) => x === c, c);
	const zero = (t: (i: number) => boolean): Atom => ({ z: true, m: (i, k) => (tick(), t(i) && k(i)) });
	const str = (w: string): M => {
		const fw = fold(w);
		return (i, k) => (tick(), fold(s.slice(i, i + w.length)) === fw && k(i + w.length));
	};
	const at = (x: string) => src.startsWith(x, p);
	const isAlt = () => !o.fixed && (ere ? src[p] === '|' : at('\\|'));
	const isClose = () => !o.fixed && (ere ? src[p] === ')' && depth > 0 : at('\\)'));

	function alt(): M {
		const opts = [seq()];
		while (p < src.length && isAlt()) {
			p += ere ? 1 : 2;
			opts.push(seq());
		}
		return opts.length === 1 ? opts[0] : (i, k) => opts.some((m) => m(i, k));
	}

	function seq(): M {
		const items: M[] = [];
		let run = '';
		for (let first = true; p < src.length && !isAlt() && !isClose(); first = false) {
			const a = piece(first);
			if (a.l !== undefined) {
				run += a.l;
				continue;
			}
			if (run) {
				items.push(str(run));
				run = '';
			}
			items.push(a.m);
		}
		if (run) items.push(str(run));
		if (items.length === 1) return items[0];
		return items.reduceRight<M>(
			(next, m) => (i, k) => m(i, (j) => next(j, k)),
			(i, k) => k(i),
		);
	}

	function piece(first: boolean): Atom {
		let a = atom(first);
		while (!a.z && !o.fixed && p < src.length) {
			let min = 0,
				max = -1;
			if (src[p] === '*') p++;
			else if (ere ? src[p] === '+' : at('\\+')) {
				p += ere ? 1 : 2;
				min = 1;
			} else if (ere ? src[p] === '?' : at('\\?')) {
				p += ere ? 1 : 2;
				max = 1;
			} else if (ere ? src[p] === '{' : at('\\{')) {
				const re = ere ? /\{(\d*)(,(\d*))?\}/y : /\\\{(\d*)(,(\d*))?\\\}/y;
				re.lastIndex = p;
				const r = re.exec(src);
				if (!r || (!r[1] && !r[2])) {
					if (ere) break;
					throw new RegexError('Unmatched \\{');
				}
				min = +(r[1] || 0);
				max = r[2] ? (r[3] ? +r[3] : -1) : min;
				if ((max >= 0 && max < min) || min > 255 || max > 255) throw new RegexError('Invalid content of \\{\\}');
				p = re.lastIndex;
			} else break;
			a = { m: rep(a, min, max) };
		}
		return a;
	}

	function rep(a: Atom, min: number, max: number): M {
		const t = a.t;
		if (t)
			return (i, k) => {
				tick();
				const lim = max < 0 ? s.length : Math.min(s.length, i + max);
				let j = i;
				while (j < lim && t(s[j])) j++;
				steps += j - i;
				for (; j >= i + min; j--) if (k(j)) return true;
				return false;
			};
		const m = a.m;
		const go = (n: number, i: number, k: K): boolean => {
			tick();
			// An iteration that matched nothing cannot make progress: stop there.
			if ((max < 0 || n < max) && m(i, (j) => (j !== i || n < min) && go(n + 1, j, k))) return true;
			return n >= min && k(i);
		};
		return (i, k) => go(0, i, k);
	}

	function atom(first: boolean): Atom {
		const c = src[p++];
		if (o.fixed) return lit(c);
		if (c === '.') return one((x) => x !== '\n');
		if (c === '[') {
			const b = bracket(src, p);
			if (!b) throw new RegexError('Unmatched [, [^, [:, [., or [=');
			p = b.end;
			return one(b.test);
		}
		if (c === '^' && (ere || first)) return zero((i) => i === 0);
		if (c === '$' && (ere || p === src.length || at('\\)') || at('\\|'))) return zero((i) => i === s.length);
		if (ere && c === '(') return group();
		if (c !== '\\') return lit(c);
		const d = src[p++];
		if (d === undefined) throw new RegexError('Trailing backslash');
		if (!ere && d === '(') return group();
		if (d >= '1' && d <= '9') {
			const n = +d;
			if (n > groups) throw new RegexError('Invalid back reference');
			return {
				m: (i, k) => {
					tick();
					const a = caps[2 * n],
						b = caps[2 * n + 1];
					if (a === undefined || a < 0) return false;
					const w = s.slice(a, b);
					return fold(s.slice(i, i + w.length)) === fold(w) && k(i + w.length);
				},
			};
		}
		switch (d) {
			case 'w':
				return one(isW);
			case 'W':
				return one((x) => !isW(x));
			case 's':
				return one((x) => /\s/.test(x));
			case 'S':
				return one((x) => !/\s/.test(x));
			case 'b':
				return zero((i) => isW(s[i - 1]) !== isW(s[i]));
			case 'B':
				return zero((i) => isW(s[i - 1]) === isW(s[i]));
			case '<':
				return zero((i) => !isW(s[i - 1]) && isW(s[i]));
			case '>':
				return zero((i) => isW(s[i - 1]) && !isW(s[i]));
			case '`':
				return zero((i) => i === 0);
			case "'":
				return zero((i) => i === s.length);
			case 'n':
				return lit('\n');
			case 't':
				return lit('\t');
		}
		return lit(d);
	}

	function group(): Atom {
		const n = ++groups;
		depth++;
		const inner = alt();
		if (ere ? src[p] !== ')' : !at('\\)')) throw new RegexError('Unmatched ( or \\(');
		p += ere ? 1 : 2;
		depth--;
		return {
			m: (i, k) =>
				inner(i, (j) => {
					const a = caps[2 * n],
						b = caps[2 * n + 1];
					caps[2 * n] = i;
					caps[2 * n + 1] = j;
					if (k(j)) return true;
					caps[2 * n] = a;
					caps[2 * n + 1] = b;
					return false;
				}),
		};
	}

	let root = alt();
	if (p < src.length) throw new RegexError(ere ? 'Unmatched ) or \\)' : 'Unmatched ) or \\)');
	if (o.word) {
		const inner = root;
		root = (i, k) => !isW(s[i - 1]) && inner(i, (j) => !isW(s[j]) && k(j));
	}
	if (o.line) {
		const inner = root;
		root = (i, k) => i === 0 && inner(i, (j) => j === s.length && k(j));
	}
	return {
		groups,
		exec(str: string, from = 0) {
			s = str;
			try {
				for (let st = from; st <= s.length; st++) {
					caps = [];
					let end = -1;
					if (root(st, (j) => ((end = j), true))) {
						const r = [st, end];
						for (let g = 1; g <= groups; g++) r.push(caps[2 * g] ?? -1, caps[2 * g + 1] ?? -1);
						return r;
					}
				}
			} catch (e) {
				if (e instanceof RangeError) throw new RegexError('regular expression too complex (recursion limit)');
				throw e;
			}
			return null;
		},
	};
}

/**
 * Replaces matches of `re` in `s` (the first, the `nth`, or with `global`
 * that one and all after it), as sed's `s` and awk's sub/gsub do. An empty
 * match right after the previous match does not count, so `s/a*\/x/g` turns
 * `baaac` into `xbxcx` as GNU sed does.
 */
export function substitute(re: Regex, s: string, rep: (m: number[]) => string, global: boolean, nth = 1): { out: string; n: number } {
	let out = '',
		pos = 0,
		k = 0,
		n = 0,
		prevEnd = -1;
	while (pos <= s.length) {
		const m = re.exec(s, pos);
		if (!m) break;
		const empty = m[1] === m[0];
		if (!(empty && m[0] === prevEnd)) {
			const hit = ++k >= nth && (global || k === nth);
			out += s.slice(pos, m[0]) + (hit ? rep(m) : s.slice(m[0], m[1]));
			if (hit) n++;
			prevEnd = m[1];
			pos = m[1];
			if (hit && !global) break;
		} else {
			out += s.slice(pos, m[0]);
			pos = m[0];
		}
		if (empty) {
			out += s.slice(pos, pos + 1);
			pos++;
		}
	}
	return { out: out + s.slice(pos), n };
}
