/**
 * C's broken-down time and strftime(3) on the virtual clock (epoch
 * milliseconds, UTC), for `date`; the calendar is ../golang/time.ts.
 *
 * Mirrors gnu/glibc time/strftime_l.c, coreutils/coreutils src/date.c.
 */
import { civilTime } from '../golang/time.ts';

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
