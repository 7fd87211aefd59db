/**
 * systemd's time formats, from src/basic/time-util.c (v255):
 * format_timestamp (`%a %Y-%m-%d %H:%M:%S %Z`), format_timestamp_relative
 * (its ladder of units), format_timespan at millisecond accuracy and
 * parse_timestamp's accepted forms. The nodes run in UTC.
 */
import { describe, expect, it } from 'vitest';
import { formatRelative, formatTimespan, formatTimestamp, parseTimestamp, shortTimestamp } from './time.ts';

// 2026-11-30T08:00:00Z, a Monday.
const T0 = 1_796_025_600_000;
const S = 1000;
const MIN = 60 * S;
const H = 60 * MIN;
const D = 24 * H;

describe('systemd timestamps', () => {
	it('formats absolute times with the weekday and the zone', () => {
		expect(formatTimestamp(T0)).toBe('Mon 2026-11-30 08:00:00 UTC');
		expect(shortTimestamp(T0 + 3 * D + 5 * S)).toBe('Dec 03 08:00:05');
	});

	it.each([
		[0, 'now'],
		[250, '250ms ago'],
		[42 * S, '42s ago'],
		[90 * S, '1min 30s ago'],
		[5 * MIN, '5min ago'],
		[65 * MIN, '1h 5min ago'],
		[7 * H, '7h ago'],
		[27 * H, '1 day 3h ago'],
		[3 * D, '3 days ago'],
		[9 * D, '1 week 2 days ago'],
		[15 * D, '2 weeks 1 day ago'],
	])('%d ms ago reads %s', (ms, text) => {
		expect(formatRelative(ms)).toBe(text);
	});

	it.each([
		[345, '345ms'],
		[1_000, '1s'],
		[7_220, '7.220s'],
		[6 * MIN + 12, '6min 12ms'],
		[6 * MIN + 12_345, '6min 12.345s'],
		[H + 2 * MIN, '1h 2min'],
	])('a span of %d ms reads %s', (ms, text) => {
		expect(formatTimespan(ms)).toBe(text);
	});

	it.each([
		['now', T0 + 5 * H],
		['today', T0 - 8 * H],
		['yesterday', T0 - 8 * H - D],
		['2026-11-30 08:05:00', T0 + 5 * MIN],
		['2026-11-30T08:05', T0 + 5 * MIN],
		['2026-11-30', T0 - 8 * H],
		['09:30', T0 + 90 * MIN],
		['-5min', T0 + 5 * H - 5 * MIN],
		['10 min ago', T0 + 5 * H - 10 * MIN],
		['1h 30min ago', T0 + 5 * H - 90 * MIN],
		['@1796025600', T0],
		['2026-11-30 13:00:00 UTC', T0 + 5 * H],
	])('--since %s', (text, at) => {
		expect(parseTimestamp(text, T0 + 5 * H)).toBe(at);
	});

	it.each(['garbage', '2026-13-01', '25:00', '5 parsecs ago'])('rejects %s', (text) => {
		expect(parseTimestamp(text, T0)).toBeUndefined();
	});
});
