/**
 * printf-style formatting and backslash escapes, shared by `echo -e`, the
 * `printf` builtin and awk's printf/sprintf.
 *
 * Mirrors gnu/bash builtins/printf.def, gnu/bash builtins/echo.def (echo
 * -e), ThomasDickey/mawk-snapshots print.c (printf, sprintf).
 */

import { utf8Decode } from '../golang/utf8.ts';

const ESC: Record<string, string> = { a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', '\\': '\\' };

/**
 * Expands backslash escapes as `echo -e` (octal `\0NNN`), printf (octal
 * `\NNN`) or bash's `$'...'` do. Octal and `\xHH` escapes are bytes: runs of
 * them are decoded as UTF-8, so `printf '\303\251'` prints é as in a UTF-8
 * terminal. `\c` ends the output (`stop`); unknown escapes stay as typed.
 */
export function unescape(s: string, style: 'echo' | 'printf' | 'ansi'): { s: string; stop: boolean } {
	let out = '',
		bytes: number[] = [];
	const flush = () => {
		out += utf8Decode(bytes);
		bytes = [];
	};
	for (let i = 0; i < s.length; i++) {
		const c = s[i];
		if (c !== '\\' || i + 1 >= s.length) {
			flush();
			out += c;
			continue;
		}
		const d = s[++i];
		let m = d === 'x' ? /^[\da-fA-F]{1,2}/.exec(s.slice(i + 1, i + 3)) : null;
		if (m) {
			bytes.push(parseInt(m[0], 16));
			i += m[0].length;
			continue;
		}
		if ((m = (style === 'echo' ? /^0[0-7]{0,3}/ : /^[0-7]{1,3}/).exec(s.slice(i, i + 4)))) {
			bytes.push(parseInt(style === 'echo' ? m[0].slice(1) || '0' : m[0], 8) & 255);
			i += m[0].length - 1;
			continue;
		}
		flush();
		if (Object.hasOwn(ESC, d)) out += ESC[d];
		else if (d === 'c' && style !== 'ansi') return { s: out, stop: true };
		else if (style === 'ansi' && '\'"?'.includes(d)) out += d;
		else out += '\\' + d;
	}
	flush();
	return { s: out, stop: false };
}

/** C's %g: shortest of %e/%f at `p` significant digits, trailing zeros removed. */
function gfmt(n: number, p: number, alt: boolean): string {
	if (!isFinite(n)) return String(n);
	p = p || 1;
	const x = +n.toExponential(p - 1).split('e')[1];
	let s = x < -4 || x >= p ? efmt(n, p - 1) : ffmt(n, Math.max(0, p - 1 - x));
	if (!alt) s = s.includes('e') ? s.replace(/\.?0+e/, 'e') : s.includes('.') ? s.replace(/\.?0+$/, '') : s;
	return s;
}

/** C's %.Nf: like toFixed, but an exact tie rounds to even (printf('%.1f', 2.25) is 2.2), as glibc does. */
function ffmt(n: number, p: number): string {
	const exact = n.toFixed(Math.min(p + 60, 100)),
		dot = exact.indexOf('.');
	const kept = exact.slice(0, p ? dot + p + 1 : dot);
	return dot > 0 && /^50*$/.test(exact.slice(dot + p + 1)) && +kept.slice(-1) % 2 === 0 ? kept : n.toFixed(p);
}

/** C's %e: two-digit exponent at least (`1.5e+02`, not JavaScript's `1.5e+2`). */
const efmt = (n: number, p: number) => n.toExponential(p).replace(/e([+-])(\d)$/, 'e$10$2');

const FMT = /%([-+ #0]*)(\d*)(?:\.(\d*))?([diouxXcsbfFeEgG%])/y;

/**
 * printf(1): `%[flags][width][.precision]conversion` for d i o u x X c s b f F
 * e E g G and %%. `num` turns an argument into a number (bash complains about
 * junk; awk takes the leading number). With `reuse` the format is applied
 * again while arguments remain, as the printf utility does. The format's
 * backslash escapes must already be expanded by the caller.
 */
export function format(fmt: string, args: ReadonlyArray<string | number>, num: (v: string | number) => number, reuse = false): string {
	let out = '',
		ai = 0;
	for (let pass = 0; pass < 100_000; pass++) {
		const before = ai;
		for (let i = 0; i < fmt.length; i++) {
			FMT.lastIndex = i;
			const m = fmt[i] === '%' ? FMT.exec(fmt) : null;
			if (!m) {
				out += fmt[i];
				continue;
			}
			i = FMT.lastIndex - 1;
			const [, flags, width, prec, cv] = m;
			if (cv === '%') {
				out += '%';
				continue;
			}
			const a = ai < args.length ? args[ai++] : undefined;
			let s: string,
				sign = '';
			if (cv === 's' || cv === 'b' || cv === 'c') {
				s = a === undefined ? '' : String(a);
				if (cv === 'b') s = unescape(s, 'echo').s;
				if (cv === 'c') s = typeof a === 'number' ? String.fromCharCode(a) : s.slice(0, 1);
				if (prec !== undefined && cv !== 'c') s = s.slice(0, +prec);
			} else {
				let n = a === undefined ? 0 : num(a);
				if (n < 0 || Object.is(n, -0)) {
					sign = '-';
					n = -n;
				} else if (flags.includes('+')) sign = '+';
				else if (flags.includes(' ')) sign = ' ';
				if ('dioxXu'.includes(cv)) {
					n = Math.trunc(n);
					s = cv === 'o' ? n.toString(8) : cv === 'x' ? n.toString(16) : cv === 'X' ? n.toString(16).toUpperCase() : String(n);
					if (prec) s = s.padStart(+prec, '0');
				} else if (cv === 'f' || cv === 'F') s = ffmt(n, Math.min(prec === undefined ? 6 : +prec || 0, 40));
				else if (cv === 'e' || cv === 'E') s = efmt(n, Math.min(prec === undefined ? 6 : +prec || 0, 100));
				else s = gfmt(n, Math.min(prec === undefined ? 6 : +prec || 0, 100), flags.includes('#'));
				if ('EG'.includes(cv)) s = s.toUpperCase();
				if (flags.includes('0') && !flags.includes('-')) s = s.padStart(+width - sign.length, '0');
				s = sign + s;
			}
			const w = Math.min(+width || 0, 10_000);
			out += flags.includes('-') ? s.padEnd(w) : s.padStart(w);
		}
		if (!reuse || ai >= args.length || ai === before) break;
	}
	return out;
}
