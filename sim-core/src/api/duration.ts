/**
 * apimachinery's human ages (the `AGE` column), from milliseconds.
 * Go's own Duration text is ../golang/duration.ts.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/util/duration/duration.go
 * (HumanDuration, ShortHumanDuration).
 */

/**
 * apimachinery `duration.HumanDuration` (pkg/util/duration/duration.go),
 * the AGE column: about two significant figures (`90s`, `2m30s`, `10m`,
 * `3h5m`, `8h`, `2d1h`, `8d`, `2y1d`, `8y`); `<invalid>` below -1s and `0s`
 * for other negatives, tolerating small clock skew.
 */
export function humanDuration(durationMs: number): string {
	const seconds = Math.trunc(durationMs / 1000);
	if (seconds < -1) return '<invalid>';
	if (seconds < 0) return '0s';
	if (seconds < 120) return `${seconds}s`;
	const minutes = Math.floor(durationMs / 60_000);
	if (minutes < 10) {
		const s = seconds % 60;
		return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
	}
	if (minutes < 180) return `${minutes}m`;
	const hours = Math.floor(durationMs / 3_600_000);
	if (hours < 8) {
		const m = minutes % 60;
		return m === 0 ? `${hours}h` : `${hours}h${m}m`;
	}
	if (hours < 48) return `${hours}h`;
	const days = Math.floor(hours / 24);
	if (hours < 24 * 8) {
		const h = hours % 24;
		return h === 0 ? `${days}d` : `${days}d${h}h`;
	}
	if (hours < 24 * 365 * 2) return `${days}d`;
	const years = Math.floor(days / 365);
	if (hours < 24 * 365 * 8) {
		const d = days % 365;
		return d === 0 ? `${years}y` : `${years}y${d}d`;
	}
	return `${years}y`;
}

/**
 * apimachinery `duration.ShortHumanDuration` (pkg/util/duration/duration.go):
 * one unit only (`5s`, `2m`, `3h`, `4d`, `2y`), same negative rules as
 * humanDuration.
 */
export function shortHumanDuration(durationMs: number): string {
	const seconds = Math.trunc(durationMs / 1000);
	if (seconds < -1) return '<invalid>';
	if (seconds < 0) return '0s';
	if (seconds < 60) return `${seconds}s`;
	const minutes = Math.trunc(durationMs / 60_000);
	if (minutes < 60) return `${minutes}m`;
	const hours = Math.trunc(durationMs / 3_600_000);
	if (hours < 24) return `${hours}h`;
	if (hours < 24 * 365) return `${Math.trunc(hours / 24)}d`;
	return `${Math.trunc(durationMs / 3_600_000 / 24 / 365)}y`;
}
