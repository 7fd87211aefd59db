/**
 * The time formats systemctl and journalctl print and read, in UTC (the
 * nodes' timezone): `Mon 2026-11-30 08:00:00 UTC`, relative ages (`5min
 * ago`), time spans (`6min 12.345s`), journal prefixes (`Nov 30
 * 08:00:01`) and the timestamps `--since`/`--until` accept.
 *
 * Mirrors systemd/systemd src/basic/time-util.c (format_timestamp_style,
 * format_timestamp_relative_full, format_timespan, parse_timestamp),
 * systemd/systemd src/shared/logs-show.c (output_timestamp_realtime).
 */
import { civilTime, daysFromCivil, MONTH_NAMES, WEEKDAY_NAMES } from '../../golang/time.ts';

const WEEKDAYS = WEEKDAY_NAMES;
const MONTHS = MONTH_NAMES;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
// time-util.h: a month is 30.44 days and a year 365.25 days.
const MONTH = 2_629_800_000;
const YEAR = 31_557_600_000;

/** format_timestamp: `Mon 2026-11-30 08:00:00 UTC`. */
export function formatTimestamp(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${WEEKDAYS[t.weekday]} ${t.year}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} UTC`;
}

/** format_timestamp_relative: `5min ago`, `1min 30s ago`, `1h 5min ago`, `2 days ago`, `now`. */
export function formatRelative(ms: number): string {
	const d = Math.max(0, ms);
	const n = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
	if (d >= YEAR) return `${n(Math.floor(d / YEAR), 'year', 'years')} ${n(Math.floor((d % YEAR) / MONTH), 'month', 'months')} ago`;
	if (d >= MONTH) return `${n(Math.floor(d / MONTH), 'month', 'months')} ${n(Math.floor((d % MONTH) / DAY), 'day', 'days')} ago`;
	if (d >= WEEK) return `${n(Math.floor(d / WEEK), 'week', 'weeks')} ${n(Math.floor((d % WEEK) / DAY), 'day', 'days')} ago`;
	if (d >= 2 * DAY) return `${Math.floor(d / DAY)} days ago`;
	if (d >= 25 * HOUR) return `1 day ${Math.floor((d - DAY) / HOUR)}h ago`;
	if (d >= 6 * HOUR) return `${Math.floor(d / HOUR)}h ago`;
	if (d >= HOUR) return `${Math.floor(d / HOUR)}h ${Math.floor((d % HOUR) / MINUTE)}min ago`;
	if (d >= 5 * MINUTE) return `${Math.floor(d / MINUTE)}min ago`;
	if (d >= MINUTE) return `${Math.floor(d / MINUTE)}min ${Math.floor((d % MINUTE) / SECOND)}s ago`;
	if (d >= SECOND) return `${Math.floor(d / SECOND)}s ago`;
	if (d >= 1) return `${Math.floor(d)}ms ago`;
	return 'now';
}

/**
 * format_timespan with millisecond accuracy: `6min 12.345s`, `1h 2min`,
 * `345ms`. Larger units come first; seconds carry their milliseconds as a
 * three-digit decimal fraction.
 */
export function formatTimespan(ms: number): string {
	let rest = Math.max(0, Math.round(ms));
	if (rest === 0) return '0';
	const parts: string[] = [];
	const units: Array<[number, string]> = [
		[YEAR, 'y'],
		[MONTH, 'month'],
		[WEEK, 'w'],
		[DAY, 'd'],
		[HOUR, 'h'],
		[MINUTE, 'min'],
	];
	for (const [size, name] of units) {
		if (rest < size) continue;
		parts.push(`${Math.floor(rest / size)}${name}`);
		rest %= size;
	}
	if (rest >= SECOND) {
		const s = Math.floor(rest / SECOND);
		const frac = rest % SECOND;
		// Dot notation below a minute, with as many digits as the accuracy (ms) gives: 7.220s.
		parts.push(frac ? `${s}.${pad(frac, 3)}s` : `${s}s`);
	} else if (rest > 0) parts.push(`${rest}ms`);
	return parts.join(' ');
}

/** journalctl's short format prefix: `Nov 30 08:00:01`. */
export function shortTimestamp(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${MONTHS[t.month - 1]} ${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/** short-precise: `Nov 30 08:00:01.123000` (the journal keeps microseconds; the simulation's clock has milliseconds). */
export function shortPreciseTimestamp(epochMs: number): string {
	return `${shortTimestamp(epochMs)}.${pad(civilTime(epochMs).millisecond, 3)}000`;
}

/** short-iso: `2026-11-30T08:00:01+00:00`. */
export function isoTimestamp(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${t.year}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}+00:00`;
}

/** short-full: `Mon 2026-11-30 08:00:01 UTC`. */
export const fullTimestamp = formatTimestamp;

const SPAN_UNITS: Record<string, number> = {
	us: 0.001, usec: 0.001, ms: 1, msec: 1,
	s: SECOND, sec: SECOND, second: SECOND, seconds: SECOND,
	m: MINUTE, min: MINUTE, minute: MINUTE, minutes: MINUTE,
	h: HOUR, hr: HOUR, hour: HOUR, hours: HOUR,
	d: DAY, day: DAY, days: DAY,
	w: WEEK, week: WEEK, weeks: WEEK,
	M: MONTH, month: MONTH, months: MONTH,
	y: YEAR, year: YEAR, years: YEAR,
};

/** parse_time: `5min`, `1h 30min`, `90` (seconds); undefined if invalid. */
function parseSpan(text: string): number | undefined {
	const s = text.trim();
	if (s === '') return undefined;
	if (/^\d+(\.\d+)?$/.test(s)) return Number(s) * SECOND;
	const re = /\s*(\d+(?:\.\d+)?)\s*([a-zA-Z]+)/y;
	let total = 0;
	let i = 0;
	while (i < s.length) {
		re.lastIndex = i;
		const m = re.exec(s);
		if (!m || SPAN_UNITS[m[2]] === undefined) return undefined;
		total += Number(m[1]) * SPAN_UNITS[m[2]];
		i = re.lastIndex;
		while (s[i] === ' ') i++;
	}
	return total;
}

/**
 * parse_timestamp for `--since`/`--until`, in UTC: `now`, `today`,
 * `yesterday`, `tomorrow`, `@<unix seconds>`, `-5min`/`+1h`/`5min ago`,
 * `YYYY-MM-DD[ HH:MM[:SS]]` (a `T` may separate date and time), `HH:MM[:SS]`
 * (today), with an optional ` UTC`. Undefined when it does not parse.
 */
export function parseTimestamp(text: string, nowMs: number): number | undefined {
	let s = text.trim();
	if (s.endsWith(' UTC')) s = s.slice(0, -4).trim();
	const today = Math.floor(nowMs / DAY) * DAY;
	switch (s) {
		case 'now':
			return nowMs;
		case 'today':
			return today;
		case 'yesterday':
			return today - DAY;
		case 'tomorrow':
			return today + DAY;
	}
	if (s.startsWith('@')) return /^@\d+(\.\d+)?$/.test(s) ? Math.round(Number(s.slice(1)) * SECOND) : undefined;
	if (s.startsWith('-') || s.startsWith('+')) {
		const span = parseSpan(s.slice(1));
		return span === undefined ? undefined : nowMs + (s[0] === '-' ? -span : span);
	}
	if (s.endsWith(' ago')) {
		const span = parseSpan(s.slice(0, -4));
		return span === undefined ? undefined : nowMs - span;
	}
	if (s.endsWith(' left')) {
		const span = parseSpan(s.slice(0, -5));
		return span === undefined ? undefined : nowMs + span;
	}
	const date = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?)?$/.exec(s);
	if (date) {
		const [, y, mo, d, h = '0', mi = '0', sec = '0', frac = ''] = date;
		if (+mo < 1 || +mo > 12 || +d < 1 || +d > 31 || +h > 23 || +mi > 59 || +sec > 60) return undefined;
		return daysFromCivil(+y, +mo, +d) * DAY + (+h * 3600 + +mi * 60 + +sec) * SECOND + Math.floor(Number(`0.${frac || '0'}`) * SECOND);
	}
	const time = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(s);
	if (time) {
		const [, h, mi, sec = '0'] = time;
		if (+h > 23 || +mi > 59 || +sec > 60) return undefined;
		return today + (+h * 3600 + +mi * 60 + +sec) * SECOND;
	}
	return undefined;
}
