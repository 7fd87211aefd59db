/**
 * Time zones as Go's `time.LoadLocation` knows them, for a CronJob's
 * `spec.timeZone`: a small built-in subset of the IANA tz database (the
 * zones tutorials use), each with its standard offset and, where the zone
 * observes it, today's daylight-saving rule (the US rule since 2007, the EU
 * rule, the southern-Australian rule). Historical transitions are not
 * modelled. An unknown name fails with Go's `unknown time zone NAME`.
 *
 * Pure functions over epoch milliseconds.
 *
 * Mirrors golang/go src/time/zoneinfo.go (LoadLocation),
 * golang/go src/time/format.go (RFC3339 with a numeric offset).
 */
import { civilTime, daysFromCivil } from './time.ts';

type DstRule = 'us' | 'eu' | 'au';

interface Zone {
	/** Standard offset, minutes east of UTC. */
	offsetMin: number;
	dst?: DstRule;
}

const H = 60;

const ZONES: Readonly<Record<string, Zone>> = {
	UTC: { offsetMin: 0 },
	'Etc/UTC': { offsetMin: 0 },
	GMT: { offsetMin: 0 },
	'Etc/GMT': { offsetMin: 0 },
	'America/New_York': { offsetMin: -5 * H, dst: 'us' },
	'America/Toronto': { offsetMin: -5 * H, dst: 'us' },
	'America/Chicago': { offsetMin: -6 * H, dst: 'us' },
	'America/Denver': { offsetMin: -7 * H, dst: 'us' },
	'America/Phoenix': { offsetMin: -7 * H },
	'America/Los_Angeles': { offsetMin: -8 * H, dst: 'us' },
	'America/Sao_Paulo': { offsetMin: -3 * H },
	'Europe/London': { offsetMin: 0, dst: 'eu' },
	'Europe/Dublin': { offsetMin: 0, dst: 'eu' },
	'Europe/Lisbon': { offsetMin: 0, dst: 'eu' },
	'Europe/Paris': { offsetMin: H, dst: 'eu' },
	'Europe/Berlin': { offsetMin: H, dst: 'eu' },
	'Europe/Madrid': { offsetMin: H, dst: 'eu' },
	'Europe/Rome': { offsetMin: H, dst: 'eu' },
	'Europe/Amsterdam': { offsetMin: H, dst: 'eu' },
	'Europe/Warsaw': { offsetMin: H, dst: 'eu' },
	'Europe/Athens': { offsetMin: 2 * H, dst: 'eu' },
	'Europe/Helsinki': { offsetMin: 2 * H, dst: 'eu' },
	'Europe/Moscow': { offsetMin: 3 * H },
	'Asia/Dubai': { offsetMin: 4 * H },
	'Asia/Kolkata': { offsetMin: 5 * H + 30 },
	'Asia/Shanghai': { offsetMin: 8 * H },
	'Asia/Hong_Kong': { offsetMin: 8 * H },
	'Asia/Singapore': { offsetMin: 8 * H },
	'Asia/Tokyo': { offsetMin: 9 * H },
	'Asia/Seoul': { offsetMin: 9 * H },
	'Australia/Sydney': { offsetMin: 10 * H, dst: 'au' },
	'Australia/Melbourne': { offsetMin: 10 * H, dst: 'au' },
	'Pacific/Auckland': { offsetMin: 12 * H },
};

/** time.LoadLocation: undefined when the zone is known, else Go's error text. */
export function loadLocationError(name: string): string | undefined {
	if (name === '' || name === 'UTC' || name === 'Local') return undefined;
	return Object.hasOwn(ZONES, name) ? undefined : `unknown time zone ${name}`;
}

/** The `n`th (1-based; -1 for the last) Sunday of a month, as days since the epoch. */
function sunday(year: number, month: number, n: number): number {
	if (n > 0) {
		const first = daysFromCivil(year, month, 1);
		// 1970-01-01 was a Thursday: (days + 4) % 7 is the weekday, 0 = Sunday.
		const weekday = (((first + 4) % 7) + 7) % 7;
		return first + ((7 - weekday) % 7) + 7 * (n - 1);
	}
	const next = month === 12 ? daysFromCivil(year + 1, 1, 1) : daysFromCivil(year, month + 1, 1);
	const last = next - 1;
	const weekday = (((last + 4) % 7) + 7) % 7;
	return last - weekday;
}

const DAY_MS = 86_400_000;

/** Whether daylight-saving time is in force at `utcMs` under `rule` for a zone of standard offset `stdMin`. */
function inDst(rule: DstRule, stdMin: number, utcMs: number): boolean {
	const { year } = civilTime(utcMs + stdMin * 60_000);
	const std = stdMin * 60_000;
	let start: number;
	let end: number;
	if (rule === 'us') {
		// Second Sunday of March 02:00 standard time, first Sunday of November 02:00 daylight time.
		start = sunday(year, 3, 2) * DAY_MS + 2 * 3_600_000 - std;
		end = sunday(year, 11, 1) * DAY_MS + 2 * 3_600_000 - std - 3_600_000;
		return utcMs >= start && utcMs < end;
	}
	if (rule === 'eu') {
		// Last Sunday of March to the last Sunday of October, 01:00 UTC.
		start = sunday(year, 3, -1) * DAY_MS + 3_600_000;
		end = sunday(year, 10, -1) * DAY_MS + 3_600_000;
		return utcMs >= start && utcMs < end;
	}
	// Southern hemisphere: from the first Sunday of October 02:00 standard to the first Sunday of April 03:00 daylight.
	end = sunday(year, 4, 1) * DAY_MS + 3 * 3_600_000 - std - 3_600_000;
	start = sunday(year, 10, 1) * DAY_MS + 2 * 3_600_000 - std;
	return utcMs < end || utcMs >= start;
}

/** The zone's offset from UTC at an instant, in minutes (0 for UTC, Local and unknown names). */
export function offsetMinutesAt(name: string | undefined, utcMs: number): number {
	const zone = name ? ZONES[name] : undefined;
	if (!zone) return 0;
	return zone.offsetMin + (zone.dst && inDst(zone.dst, zone.offsetMin, utcMs) ? 60 : 0);
}

/** The instant whose wall-clock reading in the zone is `localMs` (read as if UTC); in a DST gap, the later offset wins. */
export function localToUtc(name: string | undefined, localMs: number): number {
	const guess = localMs - offsetMinutesAt(name, localMs) * 60_000;
	return localMs - offsetMinutesAt(name, guess) * 60_000;
}

/** Time.In(loc).Format(time.RFC3339): `2026-11-30T03:00:00-05:00`, or `...Z` at offset zero. */
export function formatRfc3339In(name: string | undefined, utcMs: number): string {
	const off = offsetMinutesAt(name, utcMs);
	const c = civilTime(utcMs + off * 60_000);
	const p = (n: number, w = 2) => String(n).padStart(w, '0');
	const body = `${p(c.year, 4)}-${p(c.month)}-${p(c.day)}T${p(c.hour)}:${p(c.minute)}:${p(c.second)}`;
	if (off === 0) return `${body}Z`;
	const sign = off < 0 ? '-' : '+';
	return `${body}${sign}${p(Math.floor(Math.abs(off) / 60))}:${p(Math.abs(off) % 60)}`;
}
