/**
 * Number and duration formats of the Go programs the tools imitate: Go's
 * `time.Duration.String()` (time/time.go), go-humanize's `Bytes` (SI sizes,
 * dustin/go-humanize v1.0.1 bytes.go, which etcdctl 3.6 uses), and Go's
 * `%.Nf` rounding (exact decimal, ties to even).
 */

const NANOS_PER = { us: 1_000, ms: 1_000_000, s: 1_000_000_000 } as const;

/** The fraction of `v / 10^prec` as Go prints it: trailing zeros and a bare dot dropped. */
function fraction(v: number, prec: number): { text: string; rest: number } {
	let digits = '';
	let printed = false;
	for (let i = 0; i < prec; i++) {
		const digit = v % 10;
		printed ||= digit !== 0;
		if (printed) digits = String(digit) + digits;
		v = Math.floor(v / 10);
	}
	return { text: printed ? '.' + digits : '', rest: v };
}

/**
 * Go's Duration.String() for a duration in nanoseconds: `0s`, `850ns`,
 * `903.138µs`, `2.345678ms`, `1.5s`, `2m3.5s`, `1h0m0s`. Mirrors
 * time/time.go (Duration.format). Precise for |ns| < 2^53.
 */
export function goDuration(ns: number): string {
	const neg = ns < 0;
	let u = Math.round(Math.abs(ns));
	let out: string;
	if (u < NANOS_PER.s) {
		if (u === 0) return '0s';
		let unit: string;
		let prec: number;
		if (u < NANOS_PER.us) [unit, prec] = ['ns', 0];
		else if (u < NANOS_PER.ms) [unit, prec] = ['µs', 3];
		else [unit, prec] = ['ms', 6];
		const { text, rest } = fraction(u, prec);
		out = `${rest}${text}${unit}`;
	} else {
		const { text, rest } = fraction(u, 9);
		u = rest;
		out = `${u % 60}${text}s`;
		u = Math.floor(u / 60);
		if (u > 0) {
			out = `${u % 60}m${out}`;
			u = Math.floor(u / 60);
			if (u > 0) out = `${u}h${out}`;
		}
	}
	return neg ? '-' + out : out;
}

/** Go's `%.0f` or `%.1f` of a value: exact decimal expansion, ties to even (strconv.FormatFloat). */
export function goFixed(value: number, digits: 0 | 1): string {
	const scale = digits === 0 ? 1 : 10;
	const scaled = value * scale;
	const floor = Math.floor(scaled);
	const diff = scaled - floor;
	let rounded: number;
	// A tie in decimal is a tie in binary only when exactly representable; others round normally.
	if (diff === 0.5) rounded = floor % 2 === 0 ? floor : floor + 1;
	else rounded = Math.round(scaled);
	return digits === 0 ? String(rounded) : (rounded / 10).toFixed(1);
}

/**
 * go-humanize v1.0.1 `Bytes`: SI units with a space, one decimal below 10
 * (`20 kB`, `5.3 MB`, `2.1 GB`, `7 B`). etcdctl prints DB SIZE, IN USE and
 * QUOTA with it, and the snapshot lines' `size`.
 */
export function humanizeBytes(bytes: number): string {
	if (bytes < 10) return `${bytes} B`;
	const sizes = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];
	const e = Math.floor(Math.log(bytes) / Math.log(1000));
	const value = Math.floor((bytes / Math.pow(1000, e)) * 10 + 0.5) / 10;
	return `${goFixed(value, value < 10 ? 1 : 0)} ${sizes[e]}`;
}

/** Unsigned 64-bit value from 16 hex digits, in decimal (Go's `%d` of a uint64 ID). */
export function hexToDecimal(hex: string): string {
	return BigInt('0x' + (hex || '0')).toString(10);
}
