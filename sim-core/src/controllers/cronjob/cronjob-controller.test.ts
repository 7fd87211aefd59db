import { describe, expect, it } from 'vitest';
import { parseCronSchedule } from '../../golang/cron.ts';
import { formatRfc3339, parseRfc3339 } from '../../golang/time.ts';
import { jobNameFor, mostRecentScheduleTime } from './cronjob-controller.ts';

const every5 = (() => {
	const p = parseCronSchedule('*/5 * * * *');
	if (!p.ok) throw new Error(p.error);
	return p.schedule;
})();
const t = (s: string) => parseRfc3339(`2026-11-30T${s}Z`);

describe('mostRecentScheduleTime', () => {
	it.each([
		['nothing due yet', '08:00:30', '08:04:59', null, 0],
		['exactly on time', '08:00:30', '08:05:00', '08:05:00', 1],
		['three missed: the latest counts', '08:00:30', '08:17:00', '08:15:00', 3],
		['from the last schedule time, exclusive', '08:05:00', '08:09:00', null, 0],
	])('%s', (_name, earliest, now, expected, missed) => {
		const got = mostRecentScheduleTime(every5, undefined, t(earliest), t(now));
		expect(got.timeMs === null ? null : formatRfc3339(got.timeMs).slice(11, 19)).toBe(expected);
		expect(got.missed).toBe(missed);
	});
});

describe('the name of a scheduled Job', () => {
	it('is the CronJob name and the scheduled time in minutes since the epoch', () => {
		expect(jobNameFor('hello', t('08:05:00'))).toBe(`hello-${Math.floor(t('08:05:00') / 60_000)}`);
		expect(jobNameFor('hello', t('08:05:00'))).toBe('hello-29933765');
	});
});
