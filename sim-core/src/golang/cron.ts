/**
 * Cron schedules as robfig/cron v3's ParseStandard reads them, which is
 * what a CronJob's `spec.schedule` is: five fields (minute, hour, day of
 * month, month, day of week) with `*`, `?`, lists, ranges, steps (a star or a range, a slash, a step:
 * `1-30/5`, `5/10`), month and day names (`JAN`, `mon`), or a descriptor
 * (`@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`,
 * `@hourly`, `@every 1h30m`); and the next time a schedule fires after a
 * given instant, in a time zone. When both day fields are restricted, a
 * day matches either (cron's historical OR); a `*` in one of them means
 * only the other counts. Errors carry the library's wording.
 *
 * Pure functions over plain data and epoch milliseconds.
 *
 * Mirrors robfig/cron parser.go (ParseStandard, getRange, parseDescriptor),
 * robfig/cron spec.go (SpecSchedule.Next, dayMatches),
 * robfig/cron constantdelay.go (Every).
 */
import { civilTime, daysFromCivil } from './time.ts';
import { parseGoDurationMs } from './duration.ts';
import { localToUtc, offsetMinutesAt } from './timezone.ts';

/** A parsed schedule: the allowed values of each field, or a constant delay. */
export type CronSchedule =
	| { kind: 'spec'; minute: number[]; hour: number[]; dom: number[]; month: number[]; dow: number[]; domStar: boolean; dowStar: boolean }
	| { kind: 'every'; delayMs: number };

interface Bounds {
	min: number;
	max: number;
	names?: Record<string, number>;
}

const MONTHS: Bounds = { min: 1, max: 12, names: { jan: 1, feb: 2, mar: 3, apr: 4, may: 5, jun: 6, jul: 7, aug: 8, sep: 9, oct: 10, nov: 11, dec: 12 } };
const DOW: Bounds = { min: 0, max: 6, names: { sun: 0, mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6 } };
const FIELDS: Bounds[] = [{ min: 0, max: 59 }, { min: 0, max: 23 }, { min: 1, max: 31 }, MONTHS, DOW];

const DESCRIPTORS: Record<string, string> = {
	'@yearly': '0 0 1 1 *',
	'@annually': '0 0 1 1 *',
	'@monthly': '0 0 1 * *',
	'@weekly': '0 0 * * 0',
	'@daily': '0 0 * * *',
	'@midnight': '0 0 * * *',
	'@hourly': '0 * * * *',
};

/** A cron error, worded as the library words it. */
class CronError extends Error {}

function parseIntOrName(expr: string, b: Bounds): number {
	const named = b.names?.[expr.toLowerCase()];
	if (named !== undefined) return named;
	if (!/^\d+$/.test(expr)) throw new CronError(/^-?\d/.test(expr) ? `negative number (${expr}) not allowed: ${expr}` : `failed to parse int from ${expr}: strconv.Atoi: parsing "${expr}": invalid syntax`);
	return Number(expr);
}

/** getRange: one comma-separated part of a field; returns its values and whether it was a bare star. */
function getRange(expr: string, b: Bounds): { values: number[]; star: boolean } {
	const [rangePart, stepPart, extra] = expr.split('/');
	if (extra !== undefined) throw new CronError(`too many slashes: ${expr}`);
	const lowHigh = rangePart.split('-');
	let start: number;
	let end: number;
	let star = false;
	if (lowHigh[0] === '*' || lowHigh[0] === '?') {
		start = b.min;
		end = b.max;
		star = true;
	} else {
		start = parseIntOrName(lowHigh[0], b);
		if (lowHigh.length === 1) end = start;
		else if (lowHigh.length === 2) end = parseIntOrName(lowHigh[1], b);
		else throw new CronError(`too many hyphens: ${expr}`);
	}
	let step = 1;
	if (stepPart !== undefined) {
		if (!/^\d+$/.test(stepPart)) throw new CronError(`failed to parse int from ${stepPart}: strconv.Atoi: parsing "${stepPart}": invalid syntax`);
		step = Number(stepPart);
		// "N/step" means "N-max/step".
		if (lowHigh.length === 1 && !star) end = b.max;
		if (step > 1) star = false;
	}
	if (start < b.min) throw new CronError(`beginning of range (${start}) below minimum (${b.min}): ${expr}`);
	if (end > b.max) throw new CronError(`end of range (${end}) above maximum (${b.max}): ${expr}`);
	if (start > end) throw new CronError(`beginning of range (${start}) beyond end of range (${end}): ${expr}`);
	if (step === 0) throw new CronError(`step of range should be a positive number: ${expr}`);
	const values: number[] = [];
	for (let v = start; v <= end; v += step) values.push(v);
	return { values, star };
}

function getField(field: string, b: Bounds): { values: number[]; star: boolean } {
	const all = new Set<number>();
	let star = false;
	for (const part of field.split(',')) {
		const r = getRange(part, b);
		for (const v of r.values) all.add(v);
		star ||= r.star;
	}
	return { values: [...all].sort((x, y) => x - y), star };
}

/** ParseStandard: a schedule, or robfig/cron's error message. */
export function parseCronSchedule(text: string): { ok: true; schedule: CronSchedule } | { ok: false; error: string } {
	try {
		const spec = text.trim();
		if (spec.length === 0) return { ok: false, error: 'empty spec string' };
		if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
			// The zone prefix robfig accepts; the CronJob API refuses it in validation.
			const rest = spec.slice(spec.indexOf(' ') + 1);
			return parseCronSchedule(rest);
		}
		if (spec.startsWith('@')) {
			if (spec.startsWith('@every ')) {
				let ms: number;
				try {
					ms = parseGoDurationMs(spec.slice('@every '.length));
				} catch (error) {
					return { ok: false, error: `failed to parse duration ${spec}: ${error instanceof Error ? error.message : String(error)}` };
				}
				// Every: at least one second, rounded down to the second.
				return { ok: true, schedule: { kind: 'every', delayMs: Math.max(1000, Math.floor(ms / 1000) * 1000) } };
			}
			const expanded = DESCRIPTORS[spec];
			if (!expanded) return { ok: false, error: `unrecognized descriptor: ${spec}` };
			return parseCronSchedule(expanded);
		}
		const fields = spec.split(/\s+/);
		if (fields.length !== 5) return { ok: false, error: `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]` };
		const [minute, hour, dom, month, dow] = fields.map((f, i) => getField(f, FIELDS[i]));
		return { ok: true, schedule: { kind: 'spec', minute: minute.values, hour: hour.values, dom: dom.values, month: month.values, dow: dow.values, domStar: dom.star, dowStar: dow.star } };
	} catch (error) {
		if (error instanceof CronError) return { ok: false, error: error.message };
		throw error;
	}
}

const MINUTE_MS = 60_000;

/**
 * SpecSchedule.Next: the first instant strictly after `afterMs` (whole
 * minutes) that the schedule matches, reading fields in time zone `zone`;
 * null when nothing matches within five years (`0 0 30 2 *`).
 */
export function nextCronTime(schedule: CronSchedule, afterMs: number, zone?: string): number | null {
	if (schedule.kind === 'every') return Math.floor(afterMs / 1000) * 1000 + schedule.delayMs;
	const s = schedule;
	// Work in the zone's wall-clock time, read as UTC.
	let local = Math.floor((afterMs + offsetMinutesAt(zone, afterMs) * MINUTE_MS) / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
	const limitYear = civilTime(local).year + 5;
	for (let guard = 0; guard < 100_000; guard++) {
		const c = civilTime(local);
		if (c.year > limitYear) return null;
		if (!s.month.includes(c.month)) {
			local = (c.month === 12 ? daysFromCivil(c.year + 1, 1, 1) : daysFromCivil(c.year, c.month + 1, 1)) * 86_400_000;
			continue;
		}
		const domMatch = s.dom.includes(c.day);
		const dowMatch = s.dow.includes(c.weekday);
		const dayOk = s.domStar || s.dowStar ? domMatch && dowMatch : domMatch || dowMatch;
		if (!dayOk) {
			local = (daysFromCivil(c.year, c.month, c.day) + 1) * 86_400_000;
			continue;
		}
		if (!s.hour.includes(c.hour)) {
			local = Math.floor(local / 3_600_000) * 3_600_000 + 3_600_000;
			continue;
		}
		if (!s.minute.includes(c.minute)) {
			local += MINUTE_MS;
			continue;
		}
		return localToUtc(zone, local);
	}
	return null;
}
