import { describe, it, expect } from 'vitest';
import { parseRfc3339 } from '../golang/time.ts';
import { klogHeader, klogLine, klogPair, klogStructured } from './klog.ts';

describe('klog text format', () => {
	it('writes the header as klog formatHeader does: severity, mmdd, time with microseconds, pid in seven columns, file:line', () => {
		expect(klogHeader('I', parseRfc3339('2026-11-30T08:12:03.418Z'), 4211, 'loader.go:407')).toBe('I1130 08:12:03.418000    4211 loader.go:407] ');
		expect(klogHeader('W', parseRfc3339('2027-01-02T23:59:59Z'), 1, 'helpers.go:719')).toBe('W0102 23:59:59.000000       1 helpers.go:719] ');
		// nDigits writes exactly seven columns: a longer number loses its leading digits.
		expect(klogHeader('E', parseRfc3339('2026-11-30T08:00:00.007Z'), 12345678, 'x.go:1')).toBe('E1130 08:00:00.007000 2345678 x.go:1] ');
	});

	it.each([
		['status', '200 OK', 'status="200 OK"'],
		['milliseconds', 9, 'milliseconds=9'],
		['enabled', false, 'enabled=false'],
		['url', 'https://h/api?labelSelector=app%3Dweb', 'url="https://h/api?labelSelector=app%3Dweb"'],
		['err', 'say "hi"\ttab', 'err="say \\"hi\\"\\ttab"'],
		['empty', '', 'empty=""'],
		// writeStringValue: a value with a line break is a block, tab-indented, closed by " >".
		['headers', 'Accept: */*\nUser-Agent: kubectl\n', 'headers=<\n\tAccept: */*\n\tUser-Agent: kubectl\n >'],
		['body', 'line one\nline two', 'body=<\n\tline one\n\tline two\n >'],
	] as Array<[string, string | number | boolean, string]>)('writes %s as klog KVFormat does', (key, value, expected) => {
		expect(klogPair(key, value)).toBe(expected);
	});

	it('quotes the message of a structured line and joins the pairs with spaces', () => {
		expect(klogStructured('Response', [['verb', 'GET'], ['status', '200 OK'], ['milliseconds', 9]])).toBe('"Response" verb="GET" status="200 OK" milliseconds=9');
		expect(klogLine('I', parseRfc3339('2026-11-30T08:12:03.431Z'), 4211, 'round_trippers.go:632', '"Response" milliseconds=9')).toBe('I1130 08:12:03.431000    4211 round_trippers.go:632] "Response" milliseconds=9\n');
	});
});
