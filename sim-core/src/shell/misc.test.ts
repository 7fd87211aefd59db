import { describe, expect, it } from 'vitest';
import { performance as perf } from 'node:perf_hooks';
import { gmtime, strftime } from './date.ts';
import { format, unescape } from './format.ts';
import { base64Decode, base64Encode } from '../golang/base64.ts';
import { utf8Decode, utf8Encode, utf8Length } from '../golang/utf8.ts';
import { compileRegex, substitute, RegexError } from './utils/regex.ts';

describe('calendar', () => {
	it.each([
		[0, '1970-01-01 00:00:00 Thu 001'],
		[951_782_400_000, '2000-02-29 00:00:00 Tue 060'],
		[978_307_199_000, '2000-12-31 23:59:59 Sun 366'],
		[-86_400_000, '1969-12-31 00:00:00 Wed 365'],
		[-2_208_988_800_000, '1900-01-01 00:00:00 Mon 001'],
		[4_107_542_400_000, '2100-03-01 00:00:00 Mon 060'],
		[1_796_023_286_999, '2026-11-30 07:21:26 Mon 334'],
	])('%d', (ms, expected) => {
		expect(strftime('%F %T %a %j', ms)).toBe(expected);
	});
	it('gmtime fields', () => {
		expect(gmtime(1_796_023_286_000)).toEqual({ year: 2026, month: 11, day: 30, hour: 7, min: 21, sec: 26, wday: 1, yday: 333 });
	});
	it('unknown conversions stay', () => {
		expect(strftime('%Q %%', 0)).toBe('%Q %');
	});
});

describe('printf formatting', () => {
	const num = (v: string | number) => Number(v) || 0;
	it.each<[string, Array<string | number>, string]>([
		['%s|%5s|%-5s|%.2s', ['a', 'b', 'c', 'xyz'], 'a|    b|c    |xy'],
		['%d %i %+d % d %05d %-4d|', [1, 2, 3, 4, -5, 6], '1 2 +3  4 -0005 6   |'],
		['%x %X %o %#g', [255, 255, 8, 1], 'ff FF 10 1.00000'],
		['%f %.0f %.1f %.1f %.2f', [1.5, 2.5, 0.25, 0.35, 1.005], '1.500000 2 0.2 0.3 1.00'],
		['%e %E %.1e', [12345.678, 0.00012, 5], '1.234568e+04 1.200000E-04 5.0e+00'],
		['%g %g %g %g %g', [100000, 1000000, 0.0001, 0.00001, 123.456], '100000 1e+06 0.0001 1e-05 123.456'],
		['%c%c', ['hello', 65], 'hA'],
		['%%|%s', [], '%|'],
	])('%s', (fmt, args, expected) => {
		expect(format(fmt, args, num)).toBe(expected);
	});
	it('reuses the format for extra arguments', () => {
		expect(format('%s=%s;', ['a', '1', 'b'], num, true)).toBe('a=1;b=;');
	});
	it('escapes', () => {
		expect(unescape('a\\tb\\nc\\\\d\\x41\\101\\q', 'printf').s).toBe('a\tb\nc\\dAA\\q');
		expect(unescape('\\0101\\101', 'echo').s).toBe('A\\101');
		expect(unescape('ab\\cde', 'echo')).toEqual({ s: 'ab', stop: true });
		expect(unescape('\\303\\251\\xc3\\xa9', 'printf').s).toBe('éé');
	});
});

describe('UTF-8 and base64', () => {
	it.each(['', 'a', 'héllo', '€', '𝄞 clef', 'mixed ascii ✓'])('%j round-trips', (s) => {
		const b = utf8Encode(s);
		expect(b.length).toBe(utf8Length(s));
		expect(utf8Decode(b)).toBe(s);
		expect(utf8Decode(base64Decode(base64Encode(b)).bytes)).toBe(s);
	});
	it('matches RFC 4648 vectors', () => {
		expect(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((s) => base64Encode(utf8Encode(s)))).toEqual([
			'',
			'Zg==',
			'Zm8=',
			'Zm9v',
			'Zm9vYg==',
			'Zm9vYmE=',
			'Zm9vYmFy',
		]);
	});
	it('replaces invalid UTF-8', () => {
		expect(utf8Decode([0x61, 0xff, 0xc3])).toBe('a\ufffd\ufffd');
		expect(utf8Decode([0xe0, 0x80, 0x80])).toBe('\ufffd\ufffd\ufffd');
	});
});

describe('regex engine', () => {
	const m = (re: string, s: string, o = {}) => compileRegex(re, o).exec(s);
	it.each<[string, string, object, number[] | null]>([
		['abc', 'xxabcx', {}, [2, 5]],
		['a.c', 'abc', {}, [0, 3]],
		['^a', 'ba', {}, null],
		['a$', 'ba', {}, [1, 2]],
		['a*', 'aaa', {}, [0, 3]],
		['x\\{2,3\\}', 'xxxx', {}, [0, 3]],
		['x{2,3}', 'x{2,3}', {}, [0, 6]],
		['x{2,3}', 'xxxx', { ere: true }, [0, 3]],
		['\\(a\\)\\(b\\)', 'ab', {}, [0, 2, 0, 1, 1, 2]],
		['(a)|(b)', 'b', { ere: true }, [0, 1, -1, -1, 0, 1]],
		['[[:upper:]]+', 'abCDe', { ere: true }, [2, 4]],
		['[]a]', ']', {}, [0, 1]],
		['[^]a]', 'a]b', {}, [2, 3]],
		['[a-c\\]', '\\', {}, [0, 1]],
		['HELLO', 'say hello', { icase: true }, [4, 9]],
		['[A-Z]', 'q', { icase: true }, [0, 1]],
		['ab', 'xab abx ab', { word: true }, [8, 10]],
		['a.', 'ab', { fixed: true }, null],
		['a.', 'xa.', { fixed: true }, [1, 3]],
		['\\bfoo\\b', 'a foo b', {}, [2, 5]],
		['(a|ab)(c|bcd)', 'abcd', { ere: true }, [0, 4, 0, 1, 1, 4]],
		['a^b', 'a^b', {}, [0, 3]],
		['a$b', 'a$b', {}, [0, 3]],
	])('%s on %j', (re, s, o, expected) => {
		expect(m(re, s, o)).toEqual(expected);
	});

	it.each([
		['\\(', {}, 'Unmatched ( or \\('],
		['a\\)', {}, 'Unmatched ) or \\)'],
		['(', { ere: true }, 'Unmatched ( or \\('],
		['[a', {}, 'Unmatched [, [^, [:, [., or [='],
		['a\\', {}, 'Trailing backslash'],
		['\\1', {}, 'Invalid back reference'],
		['a\\{3,1\\}', {}, 'Invalid content of \\{\\}'],
	])('rejects %s', (re, o, msg) => {
		expect(() => compileRegex(re, o)).toThrow(new RegexError(msg));
	});

	it('stops catastrophic patterns with an error', () => {
		const started = perf.now();
		expect(() => compileRegex('(a*)*b', { ere: true }).exec('a'.repeat(64))).toThrow(RegexError);
		expect(() => compileRegex('(a|aa)*c', { ere: true }).exec('a'.repeat(64))).toThrow(RegexError);
		expect(perf.now() - started).toBeLessThan(10_000);
	});

	it('handles long lines without deep recursion', () => {
		const long = 'k'.repeat(200_000) + '=v';
		expect(compileRegex('^.*=\\(.*\\)$').exec(long)).toEqual([0, long.length, long.length - 1, long.length]);
	});

	it('substitutes like sed', () => {
		const sub = (re: string, s: string, g: boolean, nth = 1) => substitute(compileRegex(re), s, () => 'X', g, nth).out;
		expect(sub('a*', 'baaac', true)).toBe('XbXcX');
		expect(sub('x*', 'abc', true)).toBe('XaXbXcX');
		expect(sub('o', 'foo boo', false, 3)).toBe('foo bXo');
		expect(sub('^', 'ab', true)).toBe('Xab');
		expect(sub('$', 'ab', true)).toBe('abX');
	});
});
