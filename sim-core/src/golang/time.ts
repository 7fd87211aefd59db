/**
 * Calendar arithmetic and the time formats Go's standard library writes,
 * from epoch milliseconds (UTC) and without the `Date` object, which would
 * read the wall clock. Virtual time is ms since the cluster started; the
 * cluster's `epochMs` says which instant that was, so timestamps such as
 * `creationTimestamp` read like real ones.
 *
 * The day arithmetic is H. Hinnant's days-from-civil algorithm over
 * 400-year eras (proleptic Gregorian). Every clock format in sim-core is
 * built on civilTime() below.
 *
 * Mirrors golang/go src/time/time.go (the calendar), golang/go
 * src/time/format.go (RFC3339, RFC1123Z, Time.String),
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/time.go,
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/micro_time.go, golang/go
 * src/net/http/server.go (TimeFormat).
 */

export const DAY_MS = 86_400_000;
export const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
export const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;

/** A civil date and time of day in UTC. */
interface CivilTime {
	year: number;
	/** 1..12 */
	month: number;
	/** 1..31 */
	day: number;
	hour: number;
	minute: number;
	second: number;
	/** 0..999 */
	millisecond: number;
	/** 0 = Sunday .. 6 = Saturday. */
	weekday: number;
	/** 0-based day of the year. */
	yearDay: number;
}

/** Days since 1970-01-01 to a civil date. */
export function civilFromDays(days: number): { year: number; month: number; day: number } {
	const z = days + 719468;
	const era = Math.floor(z / 146097);
	const doe = z - era * 146097;
	const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
	const y = yoe + era * 400;
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	return { year: month <= 2 ? y + 1 : y, month, day };
}

/** A civil date to days since 1970-01-01. */
export function daysFromCivil(year: number, month: number, day: number): number {
	const y = month <= 2 ? year - 1 : year;
	const era = Math.floor(y / 400);
	const yoe = y - era * 400;
	const mp = (month + 9) % 12;
	const doy = Math.floor((153 * mp + 2) / 5) + day - 1;
	const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
	return era * 146097 + doe - 719468;
}

/** Splits epoch milliseconds into a UTC civil time. */
export function civilTime(epochMs: number): CivilTime {
	const days = Math.floor(epochMs / DAY_MS);
	const msOfDay = epochMs - days * DAY_MS;
	const { year, month, day } = civilFromDays(days);
	const seconds = Math.floor(msOfDay / 1000);
	return {
		year,
		month,
		day,
		hour: Math.floor(seconds / 3600),
		minute: Math.floor(seconds / 60) % 60,
		second: seconds % 60,
		millisecond: Math.floor(msOfDay % 1000),
		// 1970-01-01 was a Thursday (weekday 4).
		weekday: (((days % 7) + 7 + 4) % 7) as number,
		yearDay: days - daysFromCivil(year, 1, 1),
	};
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** RFC 3339 in UTC with second precision, as metav1.Time serializes: `2026-11-30T08:00:00Z`. */
export function formatRfc3339(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}Z`;
}

/** RFC 3339 with microseconds, as metav1.MicroTime serializes (Lease renewTime, events.k8s.io eventTime). */
export function formatRfc3339Micro(epochMs: number): string {
	const base = formatRfc3339(epochMs);
	const micros = pad(Math.floor(((epochMs % 1000) + 1000) % 1000) * 1000, 6);
	return `${base.slice(0, -1)}.${micros}Z`;
}

/** Parses `2026-11-30T08:00:00Z` (optionally with fraction or offset) to epoch ms; NaN if invalid. */
export function parseRfc3339(text: string): number {
	const m = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.exec(text);
	if (!m) return Number.NaN;
	const [, y, mo, d, h, mi, s, frac, zone] = m;
	let ms = daysFromCivil(+y, +mo, +d) * DAY_MS + ((+h * 60 + +mi) * 60 + +s) * 1000;
	if (frac) ms += Math.round(Number(`0${frac}`) * 1000);
	if (zone !== 'Z' && zone !== 'z') {
		const sign = zone[0] === '-' ? -1 : 1;
		ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
	}
	return ms;
}

/** The HTTP `Date` header (net/http.TimeFormat, RFC 7231 IMF-fixdate): `Mon, 30 Nov 2026 08:00:00 GMT`. */
export function httpDate(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${WEEKDAY_NAMES[t.weekday]}, ${pad(t.day)} ${MONTH_NAMES[t.month - 1]} ${t.year} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} GMT`;
}

/** RFC 1123 with a numeric zone (time.RFC1123Z) for a UTC instant: `Mon, 30 Nov 2026 08:00:00 +0000`. */
export function formatRfc1123z(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${WEEKDAY_NAMES[t.weekday]}, ${pad(t.day)} ${MONTH_NAMES[t.month - 1]} ${t.year} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} +0000`;
}

/**
 * time.Time.String() for a UTC time with a monotonic reading:
 * `2026-11-30 08:05:03.25 +0000 UTC m=+183.250000001` (fraction without
 * trailing zeros; the monotonic offset with nine decimals, counted from the
 * process's start, plus the nanosecond Go's clock had already run).
 */
export function goTimeString(epochMs: number, sinceStartMs: number): string {
	const t = civilTime(epochMs);
	const frac = t.millisecond ? `.${pad(t.millisecond, 3).replace(/0+$/, '')}` : '';
	const mono = (sinceStartMs / 1000 + 1e-9).toFixed(9);
	return `${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${frac} +0000 UTC m=+${mono}`;
}
