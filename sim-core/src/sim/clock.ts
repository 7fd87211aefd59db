/**
 * Calendar arithmetic for the virtual clock, without the `Date` object (which
 * would read the wall clock). Virtual time is ms since the cluster started;
 * the cluster's `epochMs` says which instant that was, so timestamps such as
 * `creationTimestamp` read like real ones.
 */

/** Days since 1970-01-01 to a civil date (proleptic Gregorian), after H. Hinnant's algorithm. */
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

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** RFC 3339 in UTC with second precision, as metav1.Time serializes: `2026-11-30T08:00:00Z`. */
export function formatRfc3339(epochMs: number): string {
	const days = Math.floor(epochMs / 86_400_000);
	const msOfDay = epochMs - days * 86_400_000;
	const { year, month, day } = civilFromDays(days);
	const s = Math.floor(msOfDay / 1000);
	return `${year}-${pad(month)}-${pad(day)}T${pad(Math.floor(s / 3600))}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}Z`;
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
	let ms = daysFromCivil(+y, +mo, +d) * 86_400_000 + ((+h * 60 + +mi) * 60 + +s) * 1000;
	if (frac) ms += Math.round(Number(`0${frac}`) * 1000);
	if (zone !== 'Z' && zone !== 'z') {
		const sign = zone[0] === '-' ? -1 : 1;
		ms -= sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6))) * 60_000;
	}
	return ms;
}
