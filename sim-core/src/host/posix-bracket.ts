/**
 * POSIX bracket expressions (`[a-z]`, `[[:digit:]]`, `[!x]`), which the
 * machine's glob matching (./fs.ts) and the shell's grep, sed and awk
 * share, as they share them through libc's fnmatch and regcomp.
 *
 * Mirrors gnu/glibc posix/fnmatch_loop.c, gnu/glibc posix/regcomp.c (bracket
 * expressions).
 */

const CLASSES: Record<string, RegExp> = {
	alpha: /[A-Za-z]/,
	digit: /\d/,
	alnum: /[A-Za-z\d]/,
	upper: /[A-Z]/,
	lower: /[a-z]/,
	space: /[ \t\n\r\f\v]/,
	blank: /[ \t]/,
	punct: /[!-/:-@[-`{-~]/,
	xdigit: /[\dA-Fa-f]/,
	print: /[ -~]/,
	graph: /[!-~]/,
	cntrl: /[\0-\x1f\x7f]/,
};

/** Named POSIX character class (`alpha`, `digit`…) as a test, or undefined for an unknown name. ASCII only: the simulated hosts run in the C.UTF-8 locale. */
export function charClass(name: string): ((c: string) => boolean) | undefined {
	const re = Object.hasOwn(CLASSES, name) ? CLASSES[name] : undefined;
	return re && ((c: string) => re.test(c));
}

/**
 * Parses a POSIX bracket expression whose body starts at `src[i]` (just after
 * `[`): `^`/`!` negation, a leading `]`, ranges, `[:class:]`, `[=c=]`, `[.c.]`.
 * Backslash is an ordinary character here, as POSIX says. Returns the test and
 * the index after the closing `]`, or null when there is none (grep reports
 * that; globs then take the `[` literally).
 */
export function bracket(src: string, i: number, negators = '^'): { test: (c: string) => boolean; end: number } | null {
	const neg = i < src.length && negators.includes(src[i]);
	if (neg) i++;
	const parts: Array<(c: string) => boolean> = [];
	for (let first = true; i < src.length; first = false) {
		let c = src[i];
		if (c === ']' && !first) {
			const test = (x: string) => parts.some((p) => p(x)) !== neg;
			return { test, end: i + 1 };
		}
		const d = src[i + 1];
		if (c === '[' && (d === ':' || d === '=' || d === '.')) {
			const j = src.indexOf(d + ']', i + 2);
			if (j < 0) return null;
			const name = src.slice(i + 2, j);
			i = j + 2;
			if (d === ':') {
				parts.push(charClass(name) ?? (() => false));
				continue;
			}
			c = name;
		} else i++;
		if (src[i] === '-' && i + 1 < src.length && src[i + 1] !== ']') {
			const lo = c,
				hi = src[i + 1];
			i += 2;
			parts.push((x) => x >= lo && x <= hi);
		} else parts.push((x) => x === c);
	}
	return null;
}
