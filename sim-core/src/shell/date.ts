/**
 * C's broken-down time and strftime(3) on the virtual clock (epoch
 * milliseconds, UTC), for `date`; the calendar is ../golang/time.ts.
 *
 * Mirrors gnu/glibc time/strftime_l.c, coreutils/coreutils src/date.c.
 */
import { civilFromDays, civilTime, daysFromCivil } from '../golang/time.ts';

/** Broken-down UTC time, like C's struct tm. */
export interface Tm {
	year: number;
	/** 1–12 */
	month: number;
	/** 1–31 */
	day: number;
	hour: number;
	min: number;
	sec: number;
	/** 0 = Sunday */
	wday: number;
	/** 0-based day of the year */
	yday: number;
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** gmtime(3) for epoch milliseconds. */
export function gmtime(ms: number): Tm {
	const t = civilTime(Math.floor(ms / 1000) * 1000);
	return { year: t.year, month: t.month, day: t.day, hour: t.hour, min: t.minute, sec: t.second, wday: t.weekday, yday: t.yearDay };
}

/** GNU `date`'s default output format. */
export const DATE_DEFAULT = '%a %b %e %H:%M:%S %Z %Y';

/** strftime(3) for UTC, covering the conversions tutorials use: %Y %y %m %d %e %H %M %S %s %a %b %j %Z %z %F %T %%. Others stay as typed, like GNU date does for unknown ones. */
export function strftime(fmt: string, ms: number): string {
	const t = gmtime(ms),
		p2 = (n: number) => String(n).padStart(2, '0');
	const one = (c: string): string | undefined => {
		switch (c) {
			case 'Y':
				return String(t.year);
			case 'y':
				return p2(t.year % 100);
			case 'm':
				return p2(t.month);
			case 'd':
				return p2(t.day);
			case 'e':
				return String(t.day).padStart(2);
			case 'H':
				return p2(t.hour);
			case 'M':
				return p2(t.min);
			case 'S':
				return p2(t.sec);
			case 's':
				return String(Math.floor(ms / 1000));
			case 'a':
				return DAYS[t.wday];
			case 'b':
				return MONTHS[t.month - 1];
			case 'j':
				return String(t.yday + 1).padStart(3, '0');
			case 'Z':
				return 'UTC';
			case 'z':
				return '+0000';
			case 'F':
				return strftime('%Y-%m-%d', ms);
			case 'T':
				return strftime('%H:%M:%S', ms);
			case '%':
				return '%';
		}
		return undefined;
	};
	return fmt.replace(/%(.)/g, (all, c: string) => one(c) ?? all);
}

const UNIT_MS: Record<string, number> = { second: 1000, sec: 1000, minute: 60_000, min: 60_000, hour: 3_600_000, day: 86_400_000, week: 604_800_000, fortnight: 1_209_600_000 };

/**
 * The date strings `date -d` and `date -s` take that tutorials use, read as
 * UTC: `@SECONDS`, `2026-11-29 08:00[:00]` (a `T` or a trailing `Z`
 * allowed), `now`, `yesterday`, `tomorrow`, and relative items such as
 * `-1 day`, `+2 hours`, `3 days ago`, `1 year` (months and years in
 * calendar terms), several in one string. Undefined when the string is not
 * one of them (GNU date: `invalid date`).
 */
export function parseDateString(text: string, nowMs: number): number | undefined {
	const s = text.trim().toLowerCase();
	if (/^@-?\d+$/.test(s)) return Number(s.slice(1)) * 1000;
	const absolute = /^(\d{4})-(\d{2})-(\d{2})(?:[ t](\d{2}):(\d{2})(?::(\d{2}))?)?\s*(?:z|utc)?$/.exec(s);
	if (absolute) {
		const [year, month, day, hour, minute, second] = absolute.slice(1).map((part) => Number(part ?? 0));
		if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return undefined;
		return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute) * 60 + second) * 1000;
	}
	let ms = nowMs;
	let rest = s;
	let matched = false;
	while (rest.length) {
		const word = /^(now|today|yesterday|tomorrow)\s*/.exec(rest);
		if (word) {
			ms += word[1] === 'yesterday' ? -86_400_000 : word[1] === 'tomorrow' ? 86_400_000 : 0;
			rest = rest.slice(word[0].length);
			matched = true;
			continue;
		}
		const item = /^([+-]?\s*\d+)?\s*(years?|months?|fortnights?|weeks?|days?|hours?|minutes?|mins?|seconds?|secs?)(\s+ago)?\s*/.exec(rest);
		if (!item || (!item[1] && !item[2])) return undefined;
		const amount = (item[1] === undefined ? 1 : Number(item[1].replace(/\s+/g, ''))) * (item[3] ? -1 : 1);
		const unit = item[2].replace(/s$/, '');
		if (unit === 'year' || unit === 'month') {
			// Calendar arithmetic, as GNU date does it: the same day and time, months later (an overflowing day rolls over).
			const days = Math.floor(ms / 86_400_000);
			const civil = civilFromDays(days);
			const total = civil.year * 12 + (civil.month - 1) + (unit === 'year' ? amount * 12 : amount);
			ms = daysFromCivil(Math.floor(total / 12), (total % 12) + 1, 1) * 86_400_000 + (civil.day - 1) * 86_400_000 + (ms - days * 86_400_000);
		} else ms += amount * UNIT_MS[unit];
		rest = rest.slice(item[0].length);
		matched = true;
	}
	return matched ? ms : undefined;
}
