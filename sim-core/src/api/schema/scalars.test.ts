import { describe, expect, it } from 'vitest';
import { base64Error, quantityError, timeError } from './scalars.ts';

const FORMAT = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX = "unable to parse quantity's suffix";

describe('quantityError', () => {
	// `Gi` alone is zero gibibytes to upstream's parser, whatever its regexp says.
	it.each(['0', '1', '100m', '0.5', '.5', '1.5Gi', '1Ki', '2Ei', '1k', '1M', '1E', '1e3', '1E-2', '+1k', '-1', '1n', '1u', '007', 'Gi'])('accepts %s', (q) => {
		expect(quantityError(q)).toBeUndefined();
	});
	it.each([
		['', FORMAT],
		['128mb', FORMAT],
		['1GB', FORMAT],
		['2 Gi', FORMAT],
		['1.2.3', FORMAT],
		['500mi', SUFFIX],
		['1ki', SUFFIX],
		['1e', SUFFIX],
		['1Mi3', SUFFIX],
		['1KiB', FORMAT],
	])('rejects %j: %s', (q, message) => {
		expect(quantityError(q)).toBe(message);
	});
});

describe('timeError', () => {
	const LAYOUT = '"2006-01-02T15:04:05Z07:00"';
	it.each(['2026-01-01T00:00:00Z', '2024-02-29T23:59:59+02:00', '2026-01-01T00:00:00.123456789Z', '2026-01-01T1:00:00-05:30'])('accepts %s', (t) => {
		expect(timeError(t)).toBeUndefined();
	});
	it.each([
		['2026-01-01', `parsing time "2026-01-01" as ${LAYOUT}: cannot parse "" as "T"`],
		['yesterday', `parsing time "yesterday" as ${LAYOUT}: cannot parse "yesterday" as "2006"`],
		['26-01-01T00:00:00Z', `parsing time "26-01-01T00:00:00Z" as ${LAYOUT}: cannot parse "26-01-01T00:00:00Z" as "2006"`],
		['2026-01-01 00:00:00Z', `parsing time "2026-01-01 00:00:00Z" as ${LAYOUT}: cannot parse " 00:00:00Z" as "T"`],
		['2026-1-01T00:00:00Z', `parsing time "2026-1-01T00:00:00Z" as ${LAYOUT}: cannot parse "1-01T00:00:00Z" as "01"`],
		['2026-01-01T00:00:00', `parsing time "2026-01-01T00:00:00" as ${LAYOUT}: cannot parse "" as "Z07:00"`],
		['2026-01-01T00:00:00+0100', `parsing time "2026-01-01T00:00:00+0100" as ${LAYOUT}: cannot parse "+0100" as "Z07:00"`],
		['2026-13-01T00:00:00Z', 'parsing time "2026-13-01T00:00:00Z": month out of range'],
		['2026-00-01T00:00:00Z', 'parsing time "2026-00-01T00:00:00Z": month out of range'],
		['2026-01-01T24:00:00Z', 'parsing time "2026-01-01T24:00:00Z": hour out of range'],
		['2026-01-01T00:60:00Z', 'parsing time "2026-01-01T00:60:00Z": minute out of range'],
		['2026-01-01T00:00:60Z', 'parsing time "2026-01-01T00:00:60Z": second out of range'],
		['2023-02-29T00:00:00Z', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
		['2026-04-31T00:00:00Z', 'parsing time "2026-04-31T00:00:00Z": day out of range'],
		['2026-01-01T00:00:00+25:00', 'parsing time "2026-01-01T00:00:00+25:00": time zone offset hour out of range'],
		['2026-01-01T00:00:00Zjunk', 'parsing time "2026-01-01T00:00:00Zjunk": extra text: "junk"'],
		['2026-01-01T00:00:00Z\n', 'parsing time "2026-01-01T00:00:00Z\\x0a": extra text: "\\x0a"'],
		['2026-01-01T00:00:00Zé', 'parsing time "2026-01-01T00:00:00Z\\xc3\\xa9": extra text: "\\xc3\\xa9"'],
	])('rejects %j', (t, message) => {
		expect(timeError(t)).toBe(message);
	});
	it('MicroTime wants exactly six fractional digits', () => {
		expect(timeError('2026-01-01T00:00:00.000000Z', true)).toBeUndefined();
		expect(timeError('2026-01-01T00:00:00.123456+01:00', true)).toBeUndefined();
		expect(timeError('2026-01-01T00:00:00.123Z', true)).toBe(
			'parsing time "2026-01-01T00:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"',
		);
		expect(timeError('2026-01-01T00:00:00.1234567Z', true)).toBe(
			'parsing time "2026-01-01T00:00:00.1234567Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "7Z" as "Z07:00"',
		);
	});
});

describe('base64Error', () => {
	it.each(['', 'YWRtaW4=', 'czNjcjN0IQ==', 'YWJj', 'YWRt\naW4=', 'YQ==\n', 'YWJj\r\nZGVm'])('accepts %j', (s) => {
		expect(base64Error(s)).toBeUndefined();
	});
	it.each([
		['admin', 4],
		['s3cr3t!', 6],
		['YQ', 0],
		['YWRtaW4', 4],
		['Y===', 1],
		['YQ=', 3],
		['YQ==extra', 4],
		['YWJj ZA==', 4],
		['é', 0],
		['YWJjé', 4],
	])('rejects %j at byte %i', (s, at) => {
		expect(base64Error(s)).toBe(`illegal base64 data at input byte ${at}`);
	});
});
