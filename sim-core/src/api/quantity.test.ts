import { describe, expect, it } from 'vitest';
import {
	Quantity,
	QUANTITY_FORMAT_ERROR,
	QUANTITY_NUMERIC_ERROR,
	QUANTITY_SUFFIX_ERROR,
	QuantityParseError,
	compareQuantities,
	parseQuantity,
	quantityError,
	type QuantityFormat,
} from './quantity.ts';

const Gi = 1n << 30n;
const Mi = 1n << 20n;

describe('parsing a quantity and printing its canonical form', () => {
	// [input, String(), exact milli-units, Format]; values worked out by hand from the
	// canonicalization rules, many inputs taken from apimachinery's quantity_test.go.
	const table: [string, string, bigint, QuantityFormat][] = [
		['0', '0', 0n, 'DecimalSI'],
		['00', '0', 0n, 'DecimalSI'],
		['-0', '0', 0n, 'DecimalSI'],
		['0Ki', '0', 0n, 'BinarySI'],
		['4', '4', 4000n, 'DecimalSI'],
		['500m', '500m', 500n, 'DecimalSI'],
		['1.5', '1500m', 1500n, 'DecimalSI'],
		['0.5', '500m', 500n, 'DecimalSI'],
		['1000m', '1', 1000n, 'DecimalSI'],
		['5000m', '5', 5000n, 'DecimalSI'],
		['1.08', '1080m', 1080n, 'DecimalSI'],
		['1080000000n', '1080m', 1080n, 'DecimalSI'],
		['9.01', '9010m', 9010n, 'DecimalSI'],
		['100n', '100n', 1n, 'DecimalSI'],
		['2u', '2u', 1n, 'DecimalSI'],
		['1000u', '1m', 1n, 'DecimalSI'],
		['1k', '1k', 1_000_000n, 'DecimalSI'],
		['50k', '50k', 50_000_000n, 'DecimalSI'],
		['8.1k', '8100', 8_100_000n, 'DecimalSI'],
		['.0001k', '100m', 100n, 'DecimalSI'],
		['0.0005k', '500m', 500n, 'DecimalSI'],
		['129M', '129M', 129_000_000_000n, 'DecimalSI'],
		['1000M', '1G', 1_000_000_000_000n, 'DecimalSI'],
		['0.001T', '1G', 1_000_000_000_000n, 'DecimalSI'],
		['40T', '40T', 40n * 10n ** 15n, 'DecimalSI'],
		['1.01E', '1010P', 101n * 10n ** 19n, 'DecimalSI'],
		['12E', '12E', 12n * 10n ** 21n, 'DecimalSI'],
		['128974848', '128974848', 128_974_848_000n, 'DecimalSI'],
		['8Gi', '8Gi', 8n * Gi * 1000n, 'BinarySI'],
		['123Mi', '123Mi', 123n * Mi * 1000n, 'BinarySI'],
		['1536Mi', '1536Mi', 1536n * Mi * 1000n, 'BinarySI'],
		['1.5Gi', '1536Mi', 1536n * Mi * 1000n, 'BinarySI'],
		['1024Ki', '1Mi', Mi * 1000n, 'BinarySI'],
		['1024Mi', '1Gi', Gi * 1000n, 'BinarySI'],
		['2000Mi', '2000Mi', 2000n * Mi * 1000n, 'BinarySI'],
		['307200Ki', '300Mi', 300n * Mi * 1000n, 'BinarySI'],
		['1025024Mi', '1001Gi', 1001n * Gi * 1000n, 'BinarySI'],
		['0.5Mi', '512Ki', 512n * 1024n * 1000n, 'BinarySI'],
		['1Ei', '1Ei', (1n << 60n) * 1000n, 'BinarySI'],
		// 100.035 × 1024 = 102435.84: not a whole number of bytes, so it prints in decimal.
		['100.035Ki', '102435840m', 102_435_840n, 'BinarySI'],
		['0.05Gi', '53687091200m', 53_687_091_200n, 'BinarySI'],
		// Below 1024 a binary quantity prints as decimal; below 1 it even changes format.
		['.001Ki', '1024m', 1024n, 'BinarySI'],
		['.000001Ki', '1024u', 2n, 'DecimalSI'],
		['.000000001Ki', '1024n', 1n, 'DecimalSI'],
		['.000000000001Ki', '2n', 1n, 'DecimalSI'],
		// Binary values are capped at 2^63-1.
		['9Ei', '9223372036854775807', ((1n << 63n) - 1n) * 1000n, 'BinarySI'],
		['129e6', '129e6', 129_000_000_000n, 'DecimalExponent'],
		['12e1', '120', 120_000n, 'DecimalExponent'],
		['1.2e3', '1200', 1_200_000n, 'DecimalExponent'],
		['1.3E+6', '1300e3', 1_300_000_000n, 'DecimalExponent'],
		['1.53E12', '1530e9', 1_530_000_000_000_000n, 'DecimalExponent'],
		['.001e12', '1e9', 1_000_000_000_000n, 'DecimalExponent'],
		['0.001e0', '1e-3', 1n, 'DecimalExponent'],
		['1000e-12', '1e-9', 1n, 'DecimalExponent'],
		['1000e18', '1e21', 10n ** 24n, 'DecimalExponent'],
		// Finer than 1n rounds up (away from zero) to the next nano.
		['3.001n', '4n', 1n, 'DecimalSI'],
		['0.0000000001', '1n', 1n, 'DecimalSI'],
		['0.00000012345', '124n', 1n, 'DecimalSI'],
		['1.1E-9', '2e-9', 1n, 'DecimalExponent'],
		['-1.5', '-1500m', -1500n, 'DecimalSI'],
		['-1536Mi', '-1536Mi', -1536n * Mi * 1000n, 'BinarySI'],
		['-0.0000000001', '-1n', -1n, 'DecimalSI'],
		// A missing number reads as 0 when the int64 fast path takes it.
		['Ki', '0', 0n, 'BinarySI'],
		['.', '0', 0n, 'DecimalSI'],
	];
	it.each(table)('parses %s and prints %s', (input, canonical, milli, format) => {
		const q = parseQuantity(input);
		expect(q.toString()).toBe(canonical);
		expect(q.scaledValue(-3)).toBe(milli);
		expect(q.format).toBe(format);
		// The canonical text parses back to the same value.
		expect(parseQuantity(canonical).cmp(q)).toBe(0);
	});
});

describe('upstream quirks that v1.36 still has', () => {
	it.each([
		// Kept verbatim because the int64 fast path thinks they are canonical (kubernetes#138165).
		['+1', '+1'],
		['01', '01'],
		['007m', '007m'],
		['1.500', '1.500'],
		['-1.500', '-1.500'],
		['100.035k', '100.035k'],
		['10.035M', '10.035M'],
		['7.123456M', '7.123456M'],
		['6.987654321G', '6.987654321G'],
		['1.G', '1.G'],
		['1E6', '1E6'],
		['1E-3', '1E-3'],
		['+1Ki', '+1Ki'],
		// ...while these fail the fast path's test and are canonicalized.
		['1.000', '1'],
		['+1024Ki', '1Mi'],
		['+1.5', '1500m'],
		// A DecimalSI exponent past E (10^18) has no suffix and is dropped (fixed after v1.36 by #140459).
		['1000E', '1'],
	])('prints %s as %s', (input, printed) => {
		expect(parseQuantity(input).toString()).toBe(printed);
	});

	it('keeps the exact value of a quantity whose text is preserved', () => {
		expect(parseQuantity('1.500').milliValue()).toBe(1500);
		expect(parseQuantity('100.035k').milliValue()).toBe(100_035_000);
		expect(parseQuantity('6.987654321G').value()).toBe(6_987_654_321);
		// Any arithmetic drops the preserved text and canonicalizes.
		expect(parseQuantity('10.035M').add(parseQuantity('0')).toString()).toBe('10035k');
		expect(parseQuantity('1.G').add(parseQuantity('0')).toString()).toBe('1G');
		expect(parseQuantity('1000E').scaledValue(0)).toBe(10n ** 21n);
	});
});

describe('rejecting malformed quantities with upstream messages', () => {
	it.each([
		['', QUANTITY_FORMAT_ERROR],
		['1.1.M', QUANTITY_FORMAT_ERROR],
		['1+1.0M', QUANTITY_FORMAT_ERROR],
		['0.1am', QUANTITY_FORMAT_ERROR],
		['aoeu', QUANTITY_FORMAT_ERROR],
		[' 1', QUANTITY_FORMAT_ERROR],
		['1 ', QUANTITY_FORMAT_ERROR],
		['1e3i', QUANTITY_FORMAT_ERROR],
		['0.1mi', QUANTITY_SUFFIX_ERROR],
		['.5i', QUANTITY_SUFFIX_ERROR],
		['1i', QUANTITY_SUFFIX_ERROR],
		['-3.01i', QUANTITY_SUFFIX_ERROR],
		['-3.01e-', QUANTITY_SUFFIX_ERROR],
		['1e', QUANTITY_SUFFIX_ERROR],
		['1Mi5', QUANTITY_SUFFIX_ERROR],
		['1KiB', QUANTITY_FORMAT_ERROR],
		['Pi', QUANTITY_NUMERIC_ERROR],
		['e-10', QUANTITY_NUMERIC_ERROR],
	])('rejects %j', (input, message) => {
		expect(() => parseQuantity(input)).toThrow(QuantityParseError);
		expect(quantityError(input)).toBe(message);
	});

	it('quotes the regular expression exactly as upstream does', () => {
		expect(QUANTITY_FORMAT_ERROR).toBe("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
		expect(quantityError('250m')).toBeUndefined();
	});
});

describe('reading values', () => {
	it.each([
		['1500m', 2, 1500],
		['1', 1, 1000],
		['100m', 1, 100],
		['1n', 1, 1],
		['0', 0, 0],
		['8Gi', 8 * 2 ** 30, 8 * 2 ** 30 * 1000],
		['-1500m', -2, -1500],
		['-1n', -1, -1],
	])('%s has value() %d and milliValue() %d (rounded up away from zero)', (input, value, milli) => {
		const q = parseQuantity(input);
		expect(q.value()).toBe(value);
		expect(q.milliValue()).toBe(milli);
	});

	it('reports sign and zero', () => {
		expect([parseQuantity('-1').sign(), parseQuantity('0m').sign(), parseQuantity('1n').sign()]).toEqual([-1, 0, 1]);
		expect(parseQuantity('0Gi').isZero()).toBe(true);
	});
});

describe('exact arithmetic', () => {
	const q = parseQuantity;
	it.each([
		['100m', '1', '1100m'],
		['1Gi', '512Mi', '1536Mi'],
		['250m', '750m', '1'],
		['0', '1Gi', '1Gi'],
		['1', '1Gi', '1073741825'],
		['1Mi', '0', '1Mi'],
		['0.1', '0.2', '300m'],
	])('%s + %s = %s', (a, b, sum) => {
		expect(q(a).add(q(b)).toString()).toBe(sum);
	});

	it.each([
		['1Gi', '512Mi', '512Mi'],
		['1', '1', '0'],
		['0', '500m', '-500m'],
		['0', '1Gi', '-1Gi'],
		['100m', '1', '-900m'],
		['1.5Gi', '1Gi', '512Mi'],
	])('%s - %s = %s', (a, b, difference) => {
		expect(q(a).sub(q(b)).toString()).toBe(difference);
	});

	it('sums many milli-cores without drift', () => {
		let total = Quantity.fromMilli(0);
		for (let i = 0; i < 1000; i++) total = total.add(q('100m'));
		expect(total.toString()).toBe('100');
		expect(total.milliValue()).toBe(100_000);
	});

	it.each([
		['1Gi', '1073741824', 0],
		['999m', '1', -1],
		['1G', '1Gi', -1],
		['1Ki', '1k', 1],
		['100n', '1u', -1],
		['1000n', '1u', 0],
		['-1', '0', -1],
		['1500m', '1.5', 0],
	])('compares %s with %s as %d', (a, b, expected) => {
		expect(compareQuantities(q(a), q(b))).toBe(expected);
		expect(q(b).cmp(q(a))).toBe(-expected || 0);
	});

	it('sorts with compareQuantities', () => {
		const sorted = ['1Gi', '500Mi', '1G', '2'].map(q).sort(compareQuantities).map(String);
		expect(sorted).toEqual(['2', '500Mi', '1G', '1Gi']);
	});
});

describe('constructing quantities', () => {
	it.each([
		[Quantity.fromMilli(1500), '1500m'],
		[Quantity.fromMilli(2000), '2'],
		[Quantity.fromMilli(0), '0'],
		[Quantity.fromMilli(1500, 'BinarySI'), '1500m'],
		[Quantity.fromValue(1048576, 'BinarySI'), '1Mi'],
		[Quantity.fromValue(2048, 'BinarySI'), '2Ki'],
		[Quantity.fromValue(1536, 'BinarySI'), '1536'],
		[Quantity.fromValue(1000, 'BinarySI'), '1k'],
		[Quantity.fromValue(5, 'BinarySI'), '5'],
		[Quantity.fromValue(123000, 'DecimalExponent'), '123e3'],
		[Quantity.fromValue(209715200n, 'BinarySI'), '200Mi'],
		[parseQuantity('1536Mi').withFormat('DecimalSI'), '1610612736'],
	])('prints %s', (quantity, text) => {
		expect(quantity.toString()).toBe(text);
	});

	it('serializes to JSON as its string, like Quantity.MarshalJSON', () => {
		expect(JSON.stringify({ cpu: parseQuantity('1.5'), memory: parseQuantity('1024Mi') })).toBe('{"cpu":"1500m","memory":"1Gi"}');
	});
});
