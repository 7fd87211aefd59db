/**
 * Go's `time.Duration` as text (`1m30s`, `300ms`): Duration.String and
 * time.ParseDuration, with Go's error messages. Everything here takes
 * milliseconds, the simulator's clock unit; Go counts nanoseconds, so
 * sub-millisecond values are fractional ms.
 *
 * Mirrors golang/go src/time/time.go (Duration.String), golang/go
 * src/time/format.go (ParseDuration).
 */

import { utf8Encode } from './utf8.ts';

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

function msToNs(ms: number): bigint {
	if (!Number.isFinite(ms)) throw new RangeError(`not a finite duration: ${ms}`);
	return Number.isInteger(ms) ? BigInt(ms) * NS_PER_MS : BigInt(Math.round(ms * 1e6));
}

/** `whole.fraction` of v / 10^digits with trailing zeros (and a bare dot) dropped, like Go's fmtFrac + fmtInt. */
function withFraction(v: bigint, digits: number): string {
	const unit = 10n ** BigInt(digits);
	const fraction = (v % unit).toString().padStart(digits, '0').replace(/0+$/, '');
	return `${v / unit}${fraction ? '.' + fraction : ''}`;
}

/**
 * Go's `time.Duration.String()` (Go src/time/time.go): `0s`, `1.5µs`,
 * `300ms`, `1.5s`, `5m0s`, `2h45m30s`; sub-second values use the largest
 * unit below a second, and the micro sign is U+00B5.
 */
export function formatGoDurationMs(durationMs: number): string {
	const ns = msToNs(durationMs);
	const sign = ns < 0n ? '-' : '';
	const u = ns < 0n ? -ns : ns;
	if (u === 0n) return '0s';
	if (u < 1000n) return `${sign}${u}ns`;
	if (u < NS_PER_MS) return `${sign}${withFraction(u, 3)}µs`;
	if (u < NS_PER_S) return `${sign}${withFraction(u, 6)}ms`;
	const seconds = u / NS_PER_S;
	let text = withFraction((seconds % 60n) * NS_PER_S + (u % NS_PER_S), 9) + 's';
	const minutes = seconds / 60n;
	if (minutes > 0n) {
		text = `${minutes % 60n}m${text}`;
		const hours = minutes / 60n;
		if (hours > 0n) text = `${hours}h${text}`;
	}
	return sign + text;
}

/** Nanoseconds per unit; both micro signs (U+00B5, U+03BC) are accepted, as in Go's unitMap. */
const UNITS = new Map<string, bigint>([
	['ns', 1n],
	['us', 1000n],
	['\u00b5s', 1000n],
	['\u03bcs', 1000n],
	['ms', NS_PER_MS],
	['s', NS_PER_S],
	['m', 60n * NS_PER_S],
	['h', 3600n * NS_PER_S],
]);
const MAX_ABS = 1n << 63n;

/** The time package's own quote(): non-ASCII and control bytes as `\xNN`, `"` and `\` escaped. */
function timeQuote(text: string): string {
	let out = '"';
	for (const ch of text) {
		const cp = ch.codePointAt(0) ?? 0;
		if (cp < 0x20 || cp >= 0x80) {
			for (const b of utf8Encode(ch)) out += '\\x' + b.toString(16).padStart(2, '0');
		} else out += (ch === '"' || ch === '\\' ? '\\' : '') + ch;
	}
	return out + '"';
}

/**
 * Go's `time.ParseDuration` (Go src/time/format.go), returning milliseconds:
 * a signed sequence of decimal numbers with units (`300ms`, `-1.5h`,
 * `2h45m`). Errors carry Go's messages: `time: invalid duration "x"`,
 * `time: missing unit in duration "1"`, `time: unknown unit "d" in duration "1d"`.
 */
export function parseGoDurationMs(text: string): number {
	const invalid = () => new Error(`time: invalid duration ${timeQuote(text)}`);
	let s = text;
	let negative = false;
	if (s[0] === '-' || s[0] === '+') {
		negative = s[0] === '-';
		s = s.slice(1);
	}
	if (s === '0') return 0;
	if (s === '') throw invalid();
	let total = 0n;
	while (s !== '') {
		if (!(s[0] === '.' || (s[0] >= '0' && s[0] <= '9'))) throw invalid();
		// Integer part; more than 2^63 is an overflow error.
		let i = 0;
		let whole = 0n;
		for (; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
			whole = whole * 10n + BigInt(s.charCodeAt(i) - 48);
			if (whole > MAX_ABS) throw invalid();
		}
		const hadWhole = i > 0;
		s = s.slice(i);
		// Fraction: digits past uint64 precision are consumed but ignored, as Go's leadingFraction does.
		let fraction = 0n;
		let scale = 1;
		let hadFraction = false;
		if (s[0] === '.') {
			let overflow = false;
			for (i = 1; i < s.length && s[i] >= '0' && s[i] <= '9'; i++) {
				if (overflow) continue;
				const next = fraction * 10n + BigInt(s.charCodeAt(i) - 48);
				if (fraction > (MAX_ABS - 1n) / 10n || next > MAX_ABS) {
					overflow = true;
					continue;
				}
				fraction = next;
				scale *= 10;
			}
			hadFraction = i > 1;
			s = s.slice(i);
		}
		if (!hadWhole && !hadFraction) throw invalid();
		for (i = 0; i < s.length && s[i] !== '.' && !(s[i] >= '0' && s[i] <= '9'); i++);
		if (i === 0) throw new Error(`time: missing unit in duration ${timeQuote(text)}`);
		const unitText = s.slice(0, i);
		s = s.slice(i);
		const unit = UNITS.get(unitText);
		if (unit === undefined) throw new Error(`time: unknown unit ${timeQuote(unitText)} in duration ${timeQuote(text)}`);
		if (whole > MAX_ABS / unit) throw invalid();
		let v = whole * unit;
		// Go uses float64 here so fractions of an hour stay nanosecond-accurate.
		if (fraction > 0n) {
			v += BigInt(Math.trunc(Number(fraction) * (Number(unit) / scale)));
			if (v > MAX_ABS) throw invalid();
		}
		total += v;
		if (total > MAX_ABS) throw invalid();
	}
	if (!negative && total > MAX_ABS - 1n) throw invalid();
	const ns = negative ? -total : total;
	return Number(ns / NS_PER_MS) + Number(ns % NS_PER_MS) / 1e6;
}

/** time.ParseDuration for flags that report their own error: milliseconds, or undefined when Go would fail. */
export function tryParseGoDurationMs(text: string): number | undefined {
	try {
		return parseGoDurationMs(text);
	} catch {
		return undefined;
	}
}

/** Duration.String of a duration in nanoseconds (etcd's `took` fields). */
export function goDuration(ns: number): string {
	return formatGoDurationMs(ns / 1e6);
}
