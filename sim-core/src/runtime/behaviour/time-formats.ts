/**
 * The wall-clock formats the images' programs print: `date` in the C
 * locale, nginx's (and httpd's) error-log time, and the Common Log Format
 * of access logs. All UTC, as containers run without a TZ.
 *
 * Mirrors coreutils/coreutils src/date.c, mirror/busybox coreutils/date.c,
 * nginx/nginx src/core/ngx_times.c (ngx_cached_err_log_time), nginx/nginx
 * src/http/modules/ngx_http_log_module.c (the CLF), apache/httpd
 * modules/loggers/mod_log_config.c.
 */
import { civilTime, MONTH_NAMES, WEEKDAY_NAMES } from '../../golang/time.ts';

const DAYS = WEEKDAY_NAMES;
const MONTHS = MONTH_NAMES;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function split(wallMs: number) {
	const t = civilTime(wallMs);
	return { year: t.year, month: t.month, day: t.day, weekday: t.weekday, h: t.hour, m: t.minute, s: t.second };
}

/** `date` in the C locale, UTC: `Mon Nov 30 08:00:05 UTC 2026`. */
export function formatDateCommand(wallMs: number): string {
	const t = split(wallMs);
	return `${DAYS[t.weekday]} ${MONTHS[t.month - 1]} ${pad(t.day)} ${pad(t.h)}:${pad(t.m)}:${pad(t.s)} UTC ${t.year}`;
}

/** nginx error-log time: `2026/11/30 08:00:05`. */
export function nginxTime(wallMs: number): string {
	const t = split(wallMs);
	return `${t.year}/${pad(t.month)}/${pad(t.day)} ${pad(t.h)}:${pad(t.m)}:${pad(t.s)}`;
}

/** Common Log Format time: `30/Nov/2026:08:00:15 +0000`. */
export function clfTime(wallMs: number): string {
	const t = split(wallMs);
	return `${pad(t.day)}/${MONTHS[t.month - 1]}/${t.year}:${pad(t.h)}:${pad(t.m)}:${pad(t.s)} +0000`;
}
