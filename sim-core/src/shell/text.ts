/**
 * Text helpers shared by the shell and its tools: UTF-8 and base64 done by
 * hand (the simulation has no TextEncoder/atob: they are DOM/Node APIs), and
 * POSIX bracket expressions, which grep, sed, awk and glob patterns share.
 */

/** UTF-8 bytes of `s`, as a real file would store them (lone surrogates become U+FFFD, as TextEncoder does). */
export function utf8Encode(s: string): number[] {
	const b: number[] = [];
	for (const ch of s) {
		let c = ch.codePointAt(0) ?? 0;
		if (c >= 0xd800 && c < 0xe000) c = 0xfffd;
		if (c < 0x80) b.push(c);
		else if (c < 0x800) b.push(0xc0 | (c >> 6), 0x80 | (c & 63));
		else if (c < 0x10000) b.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
		else b.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
	}
	return b;
}

/** Byte length of `s` in UTF-8 without building the bytes: what `wc -c` and `ls -l` report. */
export function utf8Len(s: string): number {
	let n = 0;
	for (let i = 0; i < s.length; i++) {
		const c = s.charCodeAt(i);
		if (c < 0x80) n += 1;
		else if (c < 0x800) n += 2;
		else if (c >= 0xd800 && c < 0xdc00 && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			n += 4;
			i++;
		} else n += 3;
	}
	return n;
}

/** Decodes UTF-8 bytes; malformed sequences become U+FFFD, one per bad byte, so binary data stays visible rather than throwing. */
export function utf8Decode(b: ArrayLike<number>): string {
	let out = '';
	for (let i = 0; i < b.length;) {
		const x = b[i];
		const n = x < 0x80 ? 0 : x >= 0xc2 && x < 0xe0 ? 1 : x >= 0xe0 && x < 0xf0 ? 2 : x >= 0xf0 && x < 0xf5 ? 3 : -1;
		let c = n > 0 ? x & (0x3f >> n) : x;
		let ok = n >= 0 && i + n < b.length;
		for (let k = 1; ok && k <= n; k++) ok = (b[i + k] & 0xc0) === 0x80;
		if (ok) for (let k = 1; k <= n; k++) c = (c << 6) | (b[i + k] & 63);
		// Overlong forms and surrogates are invalid in UTF-8.
		if (!ok || (n === 2 && (c < 0x800 || (c >= 0xd800 && c < 0xe000))) || (n === 3 && (c < 0x10000 || c > 0x10ffff))) {
			out += '\ufffd';
			i++;
		} else {
			out += String.fromCodePoint(c);
			i += n + 1;
		}
	}
	return out;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** RFC 4648 base64 of raw bytes, with `=` padding, unwrapped (as `base64 -w 0`). */
export function base64Encode(b: ArrayLike<number>): string {
	let out = '';
	for (let i = 0; i < b.length; i += 3) {
		const n = (b[i] << 16) | ((b[i + 1] ?? 0) << 8) | (b[i + 2] ?? 0);
		out += B64[n >> 18] + B64[(n >> 12) & 63] + (i + 1 < b.length ? B64[(n >> 6) & 63] : '=') + (i + 2 < b.length ? B64[n & 63] : '=');
	}
	return out;
}

/** Decodes base64 (whitespace must already be removed); returns the bytes decoded so far and whether the input was valid, as `base64 -d` prints the good prefix before complaining. */
export function base64Decode(s: string): { bytes: number[]; ok: boolean } {
	const bytes: number[] = [];
	let acc = 0,
		bits = 0,
		i = 0;
	for (; i < s.length && s[i] !== '='; i++) {
		const v = B64.indexOf(s[i]);
		if (v < 0) return { bytes, ok: false };
		acc = ((acc << 6) | v) & 0xffffff;
		bits += 6;
		if (bits >= 8) bytes.push((acc >> (bits -= 8)) & 255);
	}
	// Only padding may follow, and only as much as makes a whole quantum.
	const pad = s.length - i;
	const ok = /^=*$/.test(s.slice(i)) && s.length % 4 === 0 && pad < 3;
	return { bytes, ok };
}

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
