import { describe, expect, it } from 'vitest';
import { humanDuration, shortHumanDuration } from './duration.ts';
import { formatGoDurationMs, parseGoDurationMs } from '../golang/duration.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const YEAR = 365 * DAY;
/** One nanosecond, in ms. */
const NS = 1e-6;

describe('formatting a Go time.Duration', () => {
	it.each([
		[0, '0s'],
		[NS, '1ns'],
		[300 * NS, '300ns'],
		[0.001, '1µs'],
		[0.0011, '1.1µs'],
		[0.0015, '1.5µs'],
		[1.2345, '1.2345ms'],
		[2.2, '2.2ms'],
		[300, '300ms'],
		[999, '999ms'],
		[SECOND, '1s'],
		[1500, '1.5s'],
		[3300, '3.3s'],
		[1001, '1.001s'],
		[MINUTE, '1m0s'],
		[90 * SECOND, '1m30s'],
		[4 * MINUTE + 5 * SECOND, '4m5s'],
		[4 * MINUTE + 5001, '4m5.001s'],
		[5 * MINUTE, '5m0s'],
		[HOUR, '1h0m0s'],
		[2 * HOUR + 45 * MINUTE + 30 * SECOND, '2h45m30s'],
		[5 * HOUR + 6 * MINUTE + 7001, '5h6m7.001s'],
		[8 * MINUTE + NS, '8m0.000000001s'],
		[100 * HOUR, '100h0m0s'],
		[-SECOND, '-1s'],
		[-1500, '-1.5s'],
		[-0.5, '-500µs'],
	])('%d ms prints as %s', (ms, text) => {
		expect(formatGoDurationMs(ms)).toBe(text);
	});

	it('uses the micro sign U+00B5, as Go does', () => {
		expect(formatGoDurationMs(0.002).codePointAt(1)).toBe(0xb5);
	});

	it('rejects a non-finite duration', () => {
		expect(() => formatGoDurationMs(Number.NaN)).toThrow(RangeError);
	});
});

describe('parsing a Go duration string', () => {
	it.each([
		['0', 0],
		['-0', 0],
		['+0', 0],
		['0s', 0],
		['5s', 5 * SECOND],
		['30s', 30 * SECOND],
		['1478s', 1478 * SECOND],
		['-5s', -5 * SECOND],
		['+5s', 5 * SECOND],
		['-1s', -SECOND],
		['5.0s', 5 * SECOND],
		['5.6s', 5600],
		['5.s', 5 * SECOND],
		['.5s', 500],
		['1.004s', 1004],
		['1.0040s', 1004],
		['100.00100s', 100_001],
		['13ms', 13],
		['300ms', 300],
		['14s', 14 * SECOND],
		['15m', 15 * MINUTE],
		['16h', 16 * HOUR],
		['1m30s', 90 * SECOND],
		['1.5h', 90 * MINUTE],
		['3h30m', 210 * MINUTE],
		['10.5s4m', 4 * MINUTE + 10_500],
		['-2m3.4s', -(2 * MINUTE + 3400)],
		['39h9m14.425s', 39 * HOUR + 9 * MINUTE + 14_425],
		['52763797000ns', 52_763.797],
		// Go's float64 step keeps fractions of an hour nanosecond-exact here.
		['0.3333333333333333333h', 20 * MINUTE],
		['0.100000000000000000000h', 6 * MINUTE],
	])('%s is %d ms', (text, ms) => {
		expect(parseGoDurationMs(text)).toBe(ms);
	});

	it.each([
		['10ns', 10 * NS],
		['11us', 0.011],
		['12µs', 0.012],
		['12μs', 0.012],
		['1h2m3s4ms5us6ns', 3_723_004.005006],
		['0.830103483285477580700h', 49 * MINUTE + 48_372.539827],
		['9223372036854775807ns', 9_223_372_036_854.775807],
		['-9223372036854775808ns', -9_223_372_036_854.775808],
	])('%s is about %d ms (sub-millisecond parts)', (text, ms) => {
		expect(parseGoDurationMs(text)).toBeCloseTo(ms, 6);
	});

	it.each([
		['', 'time: invalid duration ""'],
		['x', 'time: invalid duration "x"'],
		['-', 'time: invalid duration "-"'],
		['s', 'time: invalid duration "s"'],
		['.', 'time: invalid duration "."'],
		['-.', 'time: invalid duration "-."'],
		['.s', 'time: invalid duration ".s"'],
		['+.s', 'time: invalid duration "+.s"'],
		['3', 'time: missing unit in duration "3"'],
		['1m3', 'time: missing unit in duration "1m3"'],
		['1d', 'time: unknown unit "d" in duration "1d"'],
		['1é', 'time: unknown unit "\\xc3\\xa9" in duration "1\\xc3\\xa9"'],
		['9223372036854775808ns', 'time: invalid duration "9223372036854775808ns"'],
		['9223372036854775810ns', 'time: invalid duration "9223372036854775810ns"'],
		['9223372036854775.808us', 'time: invalid duration "9223372036854775.808us"'],
		['-9223372036854775809ns', 'time: invalid duration "-9223372036854775809ns"'],
		['3000000h', 'time: invalid duration "3000000h"'],
	])('rejects %j with %s', (text, message) => {
		expect(() => parseGoDurationMs(text)).toThrow(new Error(message));
	});

	it('round-trips what formatGoDurationMs prints', () => {
		for (const ms of [0, 0.001, 1.5, 999, 61_001, 9_930_000, -1500]) expect(parseGoDurationMs(formatGoDurationMs(ms))).toBeCloseTo(ms, 9);
	});
});

describe('humanDuration, the AGE column', () => {
	it.each([
		// The examples in FACTS.md section E.
		[5 * SECOND, '5s'],
		[70 * SECOND, '70s'],
		[90 * SECOND, '90s'],
		[119 * SECOND, '119s'],
		[2 * MINUTE, '2m'],
		[150 * SECOND, '2m30s'],
		[190 * SECOND, '3m10s'],
		[9 * MINUTE + 59 * SECOND, '9m59s'],
		[10 * MINUTE, '10m'],
		[70 * MINUTE, '70m'],
		[179 * MINUTE, '179m'],
		[3 * HOUR, '3h'],
		[3 * HOUR + 5 * MINUTE, '3h5m'],
		[7 * HOUR + 59 * MINUTE, '7h59m'],
		[8 * HOUR, '8h'],
		[47 * HOUR, '47h'],
		[2 * DAY, '2d'],
		[49 * HOUR, '2d1h'],
		[7 * DAY + 23 * HOUR, '7d23h'],
		[8 * DAY, '8d'],
		[8 * DAY + 2 * HOUR, '8d'],
		[367 * DAY, '367d'],
		[729 * DAY, '729d'],
		[2 * YEAR, '2y'],
		[2 * YEAR + 25 * HOUR, '2y1d'],
		[7 * YEAR + 364 * DAY, '7y364d'],
		[8 * YEAR, '8y'],
		[8 * YEAR + 2 * HOUR, '8y'],
	])('%d ms reads %s', (ms, text) => {
		expect(humanDuration(ms)).toBe(text);
	});

	it.each([
		// Every boundary of apimachinery's duration_test.go TestHumanDurationBoundaries.
		[-2 * SECOND, '<invalid>'],
		[-2 * SECOND + NS, '0s'],
		[-SECOND, '0s'],
		[0, '0s'],
		[SECOND - 1, '0s'],
		[2 * MINUTE - 1, '119s'],
		[2 * MINUTE, '2m'],
		[2 * MINUTE + SECOND, '2m1s'],
		[10 * MINUTE - 1, '9m59s'],
		[10 * MINUTE, '10m'],
		[10 * MINUTE + SECOND, '10m'],
		[3 * HOUR - 1, '179m'],
		[3 * HOUR, '3h'],
		[3 * HOUR + MINUTE, '3h1m'],
		[8 * HOUR - 1, '7h59m'],
		[8 * HOUR, '8h'],
		[8 * HOUR + 59 * MINUTE, '8h'],
		[2 * DAY - 1, '47h'],
		[2 * DAY, '2d'],
		[2 * DAY + HOUR, '2d1h'],
		[8 * DAY - 1, '7d23h'],
		[8 * DAY, '8d'],
		[8 * DAY + 23 * HOUR, '8d'],
		[2 * YEAR - 1, '729d'],
		[2 * YEAR, '2y'],
		[2 * YEAR + 23 * HOUR, '2y'],
		[2 * YEAR + 23 * HOUR + 59 * MINUTE, '2y'],
		[2 * YEAR + DAY - 1, '2y'],
		[2 * YEAR + DAY, '2y1d'],
		[3 * YEAR, '3y'],
		[7 * YEAR, '7y'],
		[8 * YEAR - 1, '7y364d'],
		[8 * YEAR, '8y'],
		[8 * YEAR + 364 * DAY, '8y'],
		[9 * YEAR, '9y'],
	])('at the boundary %d ms reads %s', (ms, text) => {
		expect(humanDuration(ms)).toBe(text);
	});
});

describe('shortHumanDuration', () => {
	it.each([
		// apimachinery's duration_test.go TestShortHumanDurationBoundaries.
		[-2 * SECOND, '<invalid>'],
		[-2 * SECOND + NS, '0s'],
		[0, '0s'],
		[SECOND - 1, '0s'],
		[SECOND, '1s'],
		[5 * SECOND, '5s'],
		[2 * SECOND - 1, '1s'],
		[MINUTE - 1, '59s'],
		[MINUTE, '1m'],
		[2 * MINUTE - 1, '1m'],
		[150 * SECOND, '2m'],
		[HOUR - 1, '59m'],
		[HOUR, '1h'],
		[2 * HOUR - 1, '1h'],
		[3 * HOUR + 30 * MINUTE, '3h'],
		[DAY - 1, '23h'],
		[DAY, '1d'],
		[2 * DAY - 1, '1d'],
		[4 * DAY, '4d'],
		[YEAR - 1, '364d'],
		[YEAR, '1y'],
		[2 * YEAR - 1, '1y'],
		[2 * YEAR, '2y'],
	])('%d ms reads %s', (ms, text) => {
		expect(shortHumanDuration(ms)).toBe(text);
	});
});
