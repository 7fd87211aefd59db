/**
 * Calendar arithmetic on the virtual clock (epoch milliseconds, UTC), done by
 * hand because the simulation may not touch `Date`. The days-to-civil
 * conversion is the well-known proleptic Gregorian algorithm over 400-year eras.
 */

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
const CUM = [0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

/** gmtime(3) for epoch milliseconds. */
export function gmtime(ms: number): Tm {
	const t = Math.floor(ms / 1000),
		days = Math.floor(t / 86400),
		secs = t - days * 86400;
	// Shift the epoch to 0000-03-01 so leap days fall at the end of each year.
	const z = days + 719468,
		era = Math.floor(z / 146097),
		doe = z - era * 146097;
	const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100)),
		mp = Math.floor((5 * doy + 2) / 153);
	const day = doy - Math.floor((153 * mp + 2) / 5) + 1,
		month = mp < 10 ? mp + 3 : mp - 9;
	const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
	const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
	return {
		year,
		month,
		day,
		hour: Math.floor(secs / 3600),
		min: Math.floor(secs / 60) % 60,
		sec: secs % 60,
		wday: (((days + 4) % 7) + 7) % 7,
		yday: CUM[month - 1] + day - 1 + (leap && month > 2 ? 1 : 0),
	};
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
