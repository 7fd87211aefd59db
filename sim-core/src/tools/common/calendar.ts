/**
 * Wall-clock formats of the tools' own libraries, over the calendar of
 * ../../golang/time.ts: zap's log timestamp (etcd) and OpenSSL's
 * certificate dates (curl -v).
 *
 * Mirrors uber-go/zap zapcore/encoder.go (ISO8601TimeEncoder),
 * openssl/openssl crypto/asn1/a_time.c (ASN1_TIME_print).
 */
import { civilTime, MONTH_NAMES } from '../../golang/time.ts';

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

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

/** OpenSSL's ASN1_TIME_print form, as curl -v shows certificate dates: `Nov 30 07:55:00 2026 GMT` (day padded with a space). */
export function opensslDate(epochMs: number): string {
	const t = civilTime(epochMs);
	return `${MONTH_NAMES[t.month - 1]} ${String(t.day).padStart(2, ' ')} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)} ${t.year} GMT`;
}
