import { describe, expect, it } from 'vitest';
import { nextCronTime, parseCronSchedule, type CronSchedule } from './cron.ts';
import { formatRfc3339, parseRfc3339 } from './time.ts';
import { formatRfc3339In, loadLocationError, offsetMinutesAt } from './timezone.ts';

function sched(text: string): CronSchedule {
	const parsed = parseCronSchedule(text);
	if (!parsed.ok) throw new Error(parsed.error);
	return parsed.schedule;
}

/** The next `n` firing times after `from`, in UTC RFC 3339. */
function next(text: string, from: string, n = 3, zone?: string): string[] {
	const out: string[] = [];
	let t = parseRfc3339(from);
	for (let i = 0; i < n; i++) {
		const at = nextCronTime(sched(text), t, zone);
		if (at === null) break;
		out.push(formatRfc3339(at));
		t = at;
	}
	return out;
}

describe('cron schedules (robfig/cron ParseStandard)', () => {
	it.each([
		['* * * * *', '2026-11-30T08:00:31Z', ['2026-11-30T08:01:00Z', '2026-11-30T08:02:00Z', '2026-11-30T08:03:00Z']],
		['*/15 * * * *', '2026-11-30T08:00:00Z', ['2026-11-30T08:15:00Z', '2026-11-30T08:30:00Z', '2026-11-30T08:45:00Z']],
		['5/20 9-10 * * *', '2026-11-30T08:00:00Z', ['2026-11-30T09:05:00Z', '2026-11-30T09:25:00Z', '2026-11-30T09:45:00Z']],
		['0 0 * * MON-FRI', '2026-12-04T12:00:00Z', ['2026-12-07T00:00:00Z', '2026-12-08T00:00:00Z', '2026-12-09T00:00:00Z']],
		['@hourly', '2026-11-30T08:59:59Z', ['2026-11-30T09:00:00Z', '2026-11-30T10:00:00Z', '2026-11-30T11:00:00Z']],
		['@monthly', '2026-11-30T08:00:00Z', ['2026-12-01T00:00:00Z', '2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z']],
		['@weekly', '2026-11-30T08:00:00Z', ['2026-12-06T00:00:00Z', '2026-12-13T00:00:00Z', '2026-12-20T00:00:00Z']],
		// Both day fields restricted: either matches (the 13th, or a Friday).
		['0 0 13 * 5', '2026-11-30T00:00:00Z', ['2026-12-04T00:00:00Z', '2026-12-11T00:00:00Z', '2026-12-13T00:00:00Z']],
		['0 0 29 2 *', '2026-11-30T00:00:00Z', ['2028-02-29T00:00:00Z', '2032-02-29T00:00:00Z', '2036-02-29T00:00:00Z']],
		['0 0 30 2 *', '2026-11-30T00:00:00Z', []],
	])('%s after %s', (text, from, expected) => {
		expect(next(text, from, 3)).toEqual(expected);
	});

	it.each([
		['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
		['60 * * * *', 'end of range (60) above maximum (59): 60'],
		['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
		['5-1 * * * *', 'beginning of range (5) beyond end of range (1): 5-1'],
		['@sometimes', 'unrecognized descriptor: @sometimes'],
		['a * * * *', 'failed to parse int from a: strconv.Atoi: parsing "a": invalid syntax'],
		['', 'empty spec string'],
	])('refuses %j: %s', (text, error) => {
		expect(parseCronSchedule(text)).toEqual({ ok: false, error });
	});

	it('reads the fields in the time zone', () => {
		// 09:00 in New York is 14:00 UTC in winter, 13:00 UTC in summer.
		expect(next('0 9 * * *', '2026-11-30T00:00:00Z', 1, 'America/New_York')).toEqual(['2026-11-30T14:00:00Z']);
		expect(next('0 9 * * *', '2026-07-01T00:00:00Z', 1, 'America/New_York')).toEqual(['2026-07-01T13:00:00Z']);
		expect(next('0 9 * * *', '2026-11-30T00:00:00Z', 1, 'Asia/Kolkata')).toEqual(['2026-11-30T03:30:00Z']);
		expect(formatRfc3339In('America/New_York', parseRfc3339('2026-11-30T14:00:00Z'))).toBe('2026-11-30T09:00:00-05:00');
		expect(formatRfc3339In('Europe/Berlin', parseRfc3339('2026-07-01T10:00:00Z'))).toBe('2026-07-01T12:00:00+02:00');
	});

	it('switches to and from daylight saving time on the rule days', () => {
		// 2026: the US moves on 8 March and 1 November; the EU on 29 March and 25 October.
		expect([offsetMinutesAt('America/New_York', parseRfc3339('2026-03-08T06:59:00Z')), offsetMinutesAt('America/New_York', parseRfc3339('2026-03-08T07:00:00Z'))]).toEqual([-300, -240]);
		expect([offsetMinutesAt('America/New_York', parseRfc3339('2026-11-01T05:59:00Z')), offsetMinutesAt('America/New_York', parseRfc3339('2026-11-01T06:00:00Z'))]).toEqual([-240, -300]);
		expect([offsetMinutesAt('Europe/London', parseRfc3339('2026-03-29T00:59:00Z')), offsetMinutesAt('Europe/London', parseRfc3339('2026-03-29T01:00:00Z'))]).toEqual([0, 60]);
		expect(offsetMinutesAt('Australia/Sydney', parseRfc3339('2026-01-15T00:00:00Z'))).toBe(660);
		expect(offsetMinutesAt('Australia/Sydney', parseRfc3339('2026-06-15T00:00:00Z'))).toBe(600);
	});

	it("knows the zones it models and refuses the rest with Go's message", () => {
		expect(loadLocationError('Europe/Paris')).toBeUndefined();
		expect(loadLocationError('Mars/Olympus_Mons')).toBe('unknown time zone Mars/Olympus_Mons');
	});
});
