/**
 * Plain-scalar typing shared by the parser and the emitter. Kubernetes reads
 * YAML through sigs.k8s.io/yaml, which sits on go-yaml v2, so an unquoted
 * scalar is typed with YAML 1.1 rules (`yes`, `on`, `0755` octal, ...). The
 * emitter needs the very same rules to know when a string must be quoted to
 * survive a round trip, which is why both sides import this file.
 *
 * Mirrors yaml/go-yaml resolve.go.
 */
import { formatFloatG } from '../golang/strconv.ts';

/** What go-yaml v2 makes of an untagged plain scalar: its kind, the JS value, and the exact integer when a double cannot hold it. */
export type Resolved = [kind: 'str' | 'null' | 'bool' | 'int' | 'float' | 'timestamp' | 'merge', value: unknown, exact?: bigint];

// Words go-yaml looks up before trying numbers; YAML 1.1 booleans included.
const WORDS = new Map<string, Resolved>([['', ['null', null]]]);
for (const [kind, value, words] of [
	['bool', true, 'y Y yes Yes YES true True TRUE on On ON'],
	['bool', false, 'n N no No NO false False FALSE off Off OFF'],
	['null', null, '~ null Null NULL'],
	['float', NaN, '.nan .NaN .NAN'],
	['float', Infinity, '.inf .Inf .INF +.inf +.Inf +.INF'],
	['float', -Infinity, '-.inf -.Inf -.INF'],
] as const) {
	for (const w of words.split(' ')) WORDS.set(w, [kind, value]);
}

// Go's strconv.ParseInt with base 0, applied after go-yaml has deleted every `_`:
// 0x hex, 0b binary, 0o octal, a bare leading 0 means octal, otherwise decimal.
const INT = /^([-+]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;
const DOT_FLOAT = /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/;
// The four layouts go-yaml hands to time.Parse: date, or date + time with a
// `T`/`t` and a zone, or date + time after a space and without a zone.
const STAMP = /^(\d{4})-(\d\d?)-(\d\d?)(?:([Tt ])(\d\d?):(\d\d?):(\d\d?)(?:[.,]\d+)?(Z|[+-](\d\d):(\d\d))?)?$/;

function isTimestamp(s: string): boolean {
	const m = STAMP.exec(s);
	if (!m) return false;
	const [, y, mo, d, , h, mi, sec, , zh, zm] = m.map(Number);
	const leap = y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
	// 31 days for Jan, Mar, May, Jul, Aug, Oct, Dec: odd months up to July, even ones after.
	const days = mo === 2 ? (leap ? 29 : 28) : 30 + ((mo + (mo >> 3)) & 1);
	if (mo < 1 || mo > 12 || d < 1 || d > days) return false;
	if (m[4] === undefined) return true;
	// time.Parse range checks; a `T` layout needs a zone, the space layout forbids one.
	return (m[4] === ' ') === (m[8] === undefined) && h < 24 && mi < 60 && sec < 60 && !(zh > 24 || zm > 60);
}

/**
 * Types an untagged plain scalar the way go-yaml v2's `resolve` does
 * (sigs.k8s.io/yaml fork): word table, then timestamps (kept as strings),
 * then int64/uint64, then floats, then over-long non-decimal ints.
 */
export function resolvePlain(s: string): Resolved {
	const word = WORDS.get(s);
	if (word) return word;
	const c = s[0];
	if (c === '.') return DOT_FLOAT.test(s) ? ['float', Number(s)] : ['str', s];
	if (!(c === '-' || c === '+' || (c >= '0' && c <= '9'))) return ['str', s];
	if (s[4] === '-' && isTimestamp(s)) return ['timestamp', s];
	const p = s.replaceAll('_', '');
	const m = INT.exec(p);
	let big: bigint | undefined;
	if (m) {
		const octal = /^0[0-7]/.test(m[2]);
		// Most integers are small: skip BigInt when a double holds the value exactly.
		const quick = octal ? parseInt(m[2], 8) : Number(m[2]);
		if (Number.isSafeInteger(quick)) return ['int', m[1] === '-' ? -quick : quick];
		const abs = BigInt(octal ? '0o' + m[2].slice(1) : m[2]);
		const v = m[1] === '-' ? -abs : abs;
		if ((v >= INT64_MIN && v <= INT64_MAX) || (!m[1] && v <= UINT64_MAX)) return ['int', Number(v), v];
		// Go's ParseUint fails with a range error (not a syntax error) only
		// for unsigned text; go-yaml then keeps it as a big integer.
		if (!m[1]) big = v;
	}
	if (FLOAT.test(p)) {
		const f = Number(p);
		// Go's ParseFloat reports overflow as an error, leaving the text a string.
		if (Number.isFinite(f)) return ['float', f];
	}
	return big === undefined ? ['str', s] : ['int', Number(big), big];
}

/**
 * Go's `strconv.FormatFloat(f, 'g', -1, bits)` as go-yaml prints a float
 * (`.inf`/`.nan` spelled the YAML way). `single` rounds to float32 first,
 * which is how sigs.k8s.io/yaml turns a float map key into a string.
 */
export function formatGoFloat(f: number, single = false): string {
	if (Number.isNaN(f)) return '.nan';
	if (!Number.isFinite(f)) return f > 0 ? '.inf' : '-.inf';
	return formatFloatG(f, single ? 32 : 64);
}
