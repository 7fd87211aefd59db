/**
 * Kubernetes `resource.Quantity`: exact fixed-point numbers such as `500m`,
 * `8Gi` or `129e6`, parsed and printed the way apimachinery does.
 *
 * Values are held exactly as `unscaled × 10^scale` with BigInt, never as
 * floats, so milli-cores and bytes add up exactly.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/api/resource/quantity.go,
 * staging/src/k8s.io/apimachinery/pkg/api/resource/suffix.go,
 * staging/src/k8s.io/apimachinery/pkg/api/resource/amount.go.
 */

/** The three spellings a quantity keeps when re-serialized (quantity.go `Format`). */
export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** Upstream ErrFormatWrong text: the regex is only quoted in the message, the scanner below decides. */
export const QUANTITY_FORMAT_ERROR =
	"quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
/** Upstream ErrNumeric text. */
export const QUANTITY_NUMERIC_ERROR = 'unable to parse numeric part of quantity';
/** Upstream ErrSuffix text. */
export const QUANTITY_SUFFIX_ERROR = "unable to parse quantity's suffix";

/** A quantity string that ParseQuantity rejects; the message is upstream's error text. */
export class QuantityParseError extends Error {
	override name = 'QuantityParseError';
}

const DECIMAL_SUFFIXES = new Map<string, number>([['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18]]);
const BINARY_SUFFIXES = new Map<string, number>([['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60]]);
const invert = (m: Map<string, number>) => new Map([...m].map(([k, v]) => [v, k]));
const DECIMAL_BY_EXPONENT = invert(DECIMAL_SUFFIXES);
const BINARY_BY_EXPONENT = invert(BINARY_SUFFIXES);
const MAX_INT64 = (1n << 63n) - 1n;
/** Quantity precision: parsing rounds anything finer than 1n up (quantity.go, inf.RoundUp at Nano). */
const NANO = -9;
const SUFFIX_CHARS = 'eEinumkKMGTP';
const isDigit = (c: string | undefined) => c !== undefined && c >= '0' && c <= '9';
const pow10 = (n: number) => 10n ** BigInt(n);
const abs = (n: bigint) => (n < 0n ? -n : n);

/** n / 10^k rounded away from zero (inf.RoundUp and negativeScaleInt64 both round away from zero). */
function divAwayFromZero(n: bigint, k: number): { value: bigint; exact: boolean } {
	if (k <= 0) return { value: n * pow10(-k), exact: true };
	// A divisor longer than the number: the quotient is 0 with a remainder.
	if (k > abs(n).toString().length) return { value: n === 0n ? 0n : n > 0n ? 1n : -1n, exact: n === 0n };
	const d = pow10(k);
	const q = n / d;
	const exact = n % d === 0n;
	return { value: exact ? q : n > 0n ? q + 1n : q - 1n, exact };
}

interface Scanned {
	positive: boolean;
	value: string;
	num: string;
	denom: string;
	suffix: string;
}

/** Splits `-1.5Gi` into sign, integer digits, fraction digits and suffix, like parseQuantityString. */
function scan(str: string): Scanned {
	const end = str.length;
	let pos = 0;
	let positive = true;
	if (str[0] === '-' || str[0] === '+') {
		positive = str[0] === '+';
		pos++;
	}
	let i = pos;
	while (i < end && str[i] === '0') i++;
	// Only zeros (or only a sign): the number is 0 whatever follows... which is nothing.
	if (i >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
	pos = i;
	while (isDigit(str[i])) i++;
	if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
	const num = str.slice(pos, i) || '0';
	pos = i;
	let denom = '';
	if (str[pos] === '.') {
		i = ++pos;
		while (isDigit(str[i])) i++;
		denom = str.slice(pos, i);
		if (i >= end) return { positive, value: str, num, denom, suffix: '' };
		pos = i;
	}
	const value = str.slice(0, pos);
	const suffixStart = pos;
	while (i < end && SUFFIX_CHARS.includes(str[i])) i++;
	if (i < end && (str[i] === '-' || str[i] === '+')) i++;
	while (isDigit(str[i])) i++;
	if (i < end) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
	return { positive, value, num, denom, suffix: str.slice(suffixStart) };
}

/** suffix.go interpret: base, power and format of a suffix such as `Mi`, `k` or `e-3`. */
function interpret(suffix: string): { base: 2 | 10; exponent: number; format: QuantityFormat } | undefined {
	const dec = DECIMAL_SUFFIXES.get(suffix);
	if (dec !== undefined) return { base: 10, exponent: dec, format: 'DecimalSI' };
	const bin = BINARY_SUFFIXES.get(suffix);
	if (bin !== undefined) return { base: 2, exponent: bin, format: 'BinarySI' };
	// `e`/`E` plus strconv.ParseInt(rest, 10, 64), then truncated to int32 as upstream does.
	if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && /^[+-]?\d+$/.test(suffix.slice(1))) {
		const parsed = BigInt(suffix.slice(1));
		if (abs(parsed) > MAX_INT64 + (parsed < 0n ? 1n : 0n)) return undefined;
		return { base: 10, exponent: Number(BigInt.asIntN(32, parsed)), format: 'DecimalExponent' };
	}
	return undefined;
}

/**
 * An immutable `resource.Quantity` (apimachinery pkg/api/resource/quantity.go).
 * Arithmetic is exact; `toString()` gives upstream's canonical form.
 */
export class Quantity {
	/**
	 * @param unscaled the value is `unscaled × 10^scale`
	 * @param text a string kept from parsing that String() returns verbatim (upstream's `s` cache)
	 */
	private constructor(
		private readonly unscaled: bigint,
		private readonly scale: number,
		/** The format String() uses (quantity.go `Format`). */
		readonly format: QuantityFormat,
		private readonly text?: string,
	) {}

	/** resource.ParseQuantity: throws QuantityParseError with upstream's message. */
	static parse(str: string): Quantity {
		if (str.length === 0) throw new QuantityParseError(QUANTITY_FORMAT_ERROR);
		if (str === '0') return new Quantity(0n, 0, 'DecimalSI', str);
		const { positive, value, num, denom, suffix } = scan(str);
		const meaning = interpret(suffix);
		if (!meaning) throw new QuantityParseError(QUANTITY_SUFFIX_ERROR);
		const { base, exponent } = meaning;
		let format = meaning.format;

		// Upstream's int64 fast path keeps the input string as the canonical
		// text when it "looks" canonical. The test is loose, so `+1`, `01`
		// and `1.500` print back unchanged (kubernetes/kubernetes#138165, open
		// at v1.36); we reproduce exactly which inputs are kept.
		let text: string | undefined;
		let fast = false;
		const shifted = num + denom;
		if (base === 10) {
			const scale = exponent - denom.length;
			fast = shifted.length <= 18 && scale >= NANO;
			if (fast && scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0') text = str;
		} else if (denom.length === 0 && 15 - num.length - Math.trunc((exponent * 3) / 10) - 1 >= 0) {
			const v = BigInt(num);
			fast = v << BigInt(exponent) <= MAX_INT64;
			if (fast && (v & 7n) !== 0n) text = str;
		}
		// The slow path hands `value` to inf.Dec, which needs a digit: so `Ki` is 0 but `Pi` is an error.
		if (!fast && !/\d/.test(value)) throw new QuantityParseError(QUANTITY_NUMERIC_ERROR);
		let unscaled = BigInt(shifted);
		let scale = -denom.length;
		if (base === 10) scale += exponent;
		else unscaled <<= BigInt(exponent);
		if (!positive) unscaled = -unscaled;
		if (scale < NANO) {
			unscaled = divAwayFromZero(unscaled, NANO - scale).value;
			scale = NANO;
		}
		if (format === 'BinarySI') {
			const q = new Quantity(unscaled, scale, format);
			// Binary values are capped at 2^63-1 in magnitude; fractions below 1 print as decimal.
			if (q.cmpInt(MAX_INT64) > 0 || q.cmpInt(-MAX_INT64) < 0) return new Quantity(unscaled < 0n ? -MAX_INT64 : MAX_INT64, 0, format);
			if (unscaled !== 0n && q.cmpInt(1n) < 0 && q.cmpInt(-1n) > 0) format = 'DecimalSI';
		}
		return new Quantity(unscaled, scale, format, text);
	}

	/** resource.NewMilliQuantity: `milli / 1000` in the given format. */
	static fromMilli(milli: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
		return new Quantity(BigInt(milli), -3, format);
	}

	/** resource.NewQuantity: an integer value in the given format (bytes usually BinarySI). */
	static fromValue(value: number | bigint, format: QuantityFormat = 'DecimalSI'): Quantity {
		return new Quantity(BigInt(value), 0, format);
	}

	/** Quantity.IsZero. */
	isZero(): boolean {
		return this.unscaled === 0n;
	}

	/** Quantity.Sign: -1, 0 or 1. */
	sign(): -1 | 0 | 1 {
		return this.unscaled === 0n ? 0 : this.unscaled > 0n ? 1 : -1;
	}

	/** Quantity.Cmp: -1, 0 or 1 comparing exact values (formats are ignored). */
	cmp(other: Quantity): -1 | 0 | 1 {
		const s = Math.min(this.scale, other.scale);
		const a = this.unscaled * pow10(this.scale - s);
		const b = other.unscaled * pow10(other.scale - s);
		return a === b ? 0 : a < b ? -1 : 1;
	}

	private cmpInt(n: bigint): -1 | 0 | 1 {
		return this.cmp(new Quantity(n, 0, 'DecimalSI'));
	}

	/** Quantity.Add: exact sum; if this is zero the result takes `other`'s format. */
	add(other: Quantity): Quantity {
		const s = Math.min(this.scale, other.scale);
		const sum = this.unscaled * pow10(this.scale - s) + other.unscaled * pow10(other.scale - s);
		return new Quantity(sum, s, this.isZero() ? other.format : this.format);
	}

	/** Quantity.Sub: exact difference; if this is zero the result takes `other`'s format. */
	sub(other: Quantity): Quantity {
		return this.add(other.neg());
	}

	/** Quantity.Neg. */
	neg(): Quantity {
		return new Quantity(-this.unscaled, this.scale, this.format);
	}

	/** The same value printed in another format (setting `q.Format`). */
	withFormat(format: QuantityFormat): Quantity {
		return new Quantity(this.unscaled, this.scale, format);
	}

	/**
	 * Quantity.ScaledValue: the value in units of 10^scale, rounded up away
	 * from zero (ceil for positives). Upstream's int64 path rounds negatives
	 * away from zero too; its inf.Dec path differs for negatives, which
	 * resources never are.
	 */
	scaledValue(scale: number): bigint {
		return divAwayFromZero(this.unscaled, scale - this.scale).value;
	}

	/** Quantity.Value: whole units, rounded up (`1500m` → 2). As a JS number, exact up to 2^53. */
	value(): number {
		return Number(this.scaledValue(0));
	}

	/** Quantity.MilliValue: thousandths, rounded up (`1n` → 1). */
	milliValue(): number {
		return Number(this.scaledValue(-3));
	}

	/**
	 * Quantity.String: the text kept from parsing, else the canonical form
	 * (CanonicalizeBytes): no fraction digits, the largest suffix or exponent
	 * that loses nothing, in the quantity's own format family. BinarySI
	 * values within (-1024, 1024) or with a fraction print as DecimalSI.
	 * A DecimalSI exponent above 18 has no suffix and upstream (v1.36) then
	 * drops it, so `1000E` prints `1`; reproduced on purpose
	 * (fixed after v1.36 by kubernetes/kubernetes#140459).
	 */
	toString(): string {
		if (this.text !== undefined) return this.text;
		if (this.unscaled === 0n) return '0';
		let format = this.format;
		if (format === 'BinarySI') {
			const whole = divAwayFromZero(this.unscaled, -this.scale);
			if ((this.cmpInt(-1024n) > 0 && this.cmpInt(1024n) < 0) || !whole.exact) format = 'DecimalSI';
			else {
				let n = whole.value;
				let e = 0;
				while (n % 1024n === 0n) {
					n /= 1024n;
					e += 10;
				}
				return `${n}${BINARY_BY_EXPONENT.get(e) ?? ''}`;
			}
		}
		let n = this.unscaled;
		let e = this.scale;
		while (n % 10n === 0n) {
			n /= 10n;
			e++;
		}
		while (e % 3 !== 0) {
			n *= 10n;
			e--;
		}
		const suffix = format === 'DecimalSI' ? (DECIMAL_BY_EXPONENT.get(e) ?? '') : e === 0 ? '' : `e${e}`;
		return `${n}${suffix}`;
	}

	/** Quantity.MarshalJSON: a JSON string of String(). */
	toJSON(): string {
		return this.toString();
	}
}

/** resource.ParseQuantity as a function; throws QuantityParseError. */
export function parseQuantity(text: string): Quantity {
	return Quantity.parse(text);
}

/** resource.MustParse-style check: the upstream error message, or undefined when `text` parses. */
export function quantityError(text: string): string | undefined {
	try {
		Quantity.parse(text);
		return undefined;
	} catch (e) {
		if (e instanceof QuantityParseError) return e.message;
		throw e;
	}
}

/** Quantity.Cmp as a comparator, for sorting. */
export function compareQuantities(a: Quantity, b: Quantity): -1 | 0 | 1 {
	return a.cmp(b);
}
