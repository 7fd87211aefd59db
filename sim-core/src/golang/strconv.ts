/**
 * Go's strconv number formats: the shortest 'g' form that `%v` and
 * json/yaml/Prometheus printers use, the `%.Nf` rounding, and uint64s too
 * large for a JavaScript number.
 *
 * Mirrors golang/go src/strconv/number.go (FormatFloat, FormatUint),
 * golang/go src/internal/strconv/ftoa.go, golang/go
 * src/internal/strconv/itoa.go.
 */

/**
 * strconv.FormatFloat(f, 'g', -1, bitSize), what `%v` prints: the shortest
 * decimal that reads back as the same float64 (or float32), in exponent
 * form below 1e-4 and from 1e6 on (`1e+06`, `1.5e-05`), with at least two
 * exponent digits.
 */
export function formatFloatG(f: number, bitSize: 32 | 64 = 64): string {
	if (Number.isNaN(f)) return 'NaN';
	if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
	if (f === 0) return Object.is(f, -0) ? '-0' : '0';
	let e = f.toExponential();
	if (bitSize === 32) {
		const t = Math.fround(f);
		// Shortest decimal that reads back as the same float32.
		for (let p = 1; p <= 9; p++) if (Math.fround(Number((e = t.toExponential(p - 1)))) === t) break;
	}
	const [mantissa, exponent] = e.split('e');
	const x = Number(exponent);
	// 'g' with the shortest precision decides with eprec = 6 (ftoa.go).
	if (x < -4 || x >= 6) return `${mantissa}e${x < 0 ? '-' : '+'}${String(Math.abs(x)).padStart(2, '0')}`;
	return String(Number(e));
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

/** A uint64 written as 16 hex digits, in decimal (Go's `%d` of a uint64 ID). */
export function hexToDecimal(hex: string): string {
	return BigInt('0x' + (hex || '0')).toString(10);
}

/**
 * strconv.ParseInt(text, 10, 64): the int64 as a bigint (a JavaScript
 * number would round beyond 2^53, as `3546343826724305833` shows), or
 * undefined for a syntax or range error.
 */
export function parseInt64(text: string): bigint | undefined {
	if (!/^[+-]?\d+$/.test(text)) return undefined;
	const value = BigInt(text);
	return value >= -(2n ** 63n) && value < 2n ** 63n ? value : undefined;
}
