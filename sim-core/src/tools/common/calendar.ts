/**
 * Wall-clock formats the tools print, computed from epoch milliseconds
 * without the `Date` object (the simulation has no wall clock): zap's log
 * timestamp, the HTTP `date` header (RFC 7231 IMF-fixdate) and OpenSSL's
 * certificate dates. The calendar arithmetic is H. Hinnant's days-from-civil
 * algorithm, the same one sim/clock.ts uses (tools may not import sim/).
 */

/** A civil date and time of day in UTC. */
export interface CivilTime {
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
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const DAY_MS = 86_400_000;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Splits epoch milliseconds into a UTC civil time. */
export function civilTime(epochMs: number): CivilTime {
	const days = Math.floor(epochMs / DAY_MS);
	const msOfDay = epochMs - days * DAY_MS;
	const z = days + 719468;
	const era = Math.floor(z / 146097);
	const doe = z - era * 146097;
	const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
	const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
	const mp = Math.floor((5 * doy + 2) / 153);
	const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
	const month = mp < 10 ? mp + 3 : mp - 9;
	const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
	const seconds = Math.floor(msOfDay / 1000);
	// 1970-01-01 was a Thursday (weekday 4).
	const weekday = (((days % 7) + 7 + 4) % 7) as number;
	return { year, month, day, hour: Math.floor(seconds / 3600), minute: Math.floor(seconds / 60) % 60, second: seconds % 60, millisecond: Math.floor(msOfDay % 1000), weekday };
}

/**
 * zap's timestamp as etcd configures it (client/pkg/logutil/zap.go:
 * `2006-01-02T15:04:05.000000Z0700`): microseconds, `Z` in UTC. The
 * simulation's clock has millisecond resolution, so the caller passes the
 * sub-millisecond part (`micros`, 0..999) drawn from its seeded stream.
 */
export function zapTimestamp(epochMs: number, micros = 0): string {
	const t = civilTime(epochMs);
	return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}.${pad(t.millisecond, 3)}${pad(micros, 3)}Z`;
}

/** The HTTP `date` header (Go's http.TimeFormat): `Mon, 30 Nov 2026 08:00:00 GMT`. */
export function httpDate(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${WEEKDAYS[t.weekday]}, ${pad(t.day)} ${MONTHS[t.month - 1]} ${t.year} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} GMT`;
}

/** OpenSSL's ASN1_TIME_print form, as curl -v shows certificate dates: `Nov 30 07:55:00 2026 GMT` (day padded with a space). */
export function opensslDate(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${MONTHS[t.month - 1]} ${String(t.day).padStart(2, ' ')} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} ${t.year} GMT`;
}
