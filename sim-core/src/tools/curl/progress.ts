/**
 * curl's progress meter: shown on stderr when the body does not go to the
 * terminal and -s is not given. It prints its two header lines and a first
 * all-zero line when the transfer starts, then, when it ends, a final line
 * after a carriage return and a newline (Curl_pgrsDone).
 *
 *       % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current
 *                                      Dload  Upload   Total   Spent    Left  Speed
 *     100  2951  100  2951    0     0   240k      0 --:--:-- --:--:-- --:--:--  262k
 *
 * Mirrors curl/curl lib/progress.c (progress_meter, time2str, max5data,
 * Curl_pgrsDone).
 */

const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** max5data: a byte count in at most 5 characters. */
function max5(bytes: number): string {
	if (bytes < 100_000) return String(bytes).padStart(5, ' ');
	if (bytes < 10_000 * KB) return `${String(Math.floor(bytes / KB)).padStart(4, ' ')}k`;
	if (bytes < 100 * MB) return `${String(Math.floor(bytes / MB)).padStart(2, ' ')}.${Math.floor((bytes % MB) / (MB / 10))}M`;
	if (bytes < 10_000 * MB) return `${String(Math.floor(bytes / MB)).padStart(4, ' ')}M`;
	return `${String(Math.floor(bytes / GB)).padStart(4, ' ')}G`;
}

/** time2str: `--:--:--` for zero seconds, else `HH:MM:SS` (hours padded to 2). */
function time2(seconds: number): string {
	if (seconds <= 0) return '--:--:--';
	const h = Math.floor(seconds / 3600);
	const m = Math.floor((seconds % 3600) / 60);
	const s = seconds % 60;
	return `${String(h).padStart(2, ' ')}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** One meter line (without the leading carriage return). */
function line(totalPct: number, total: number, dlPct: number, dl: number, ulPct: number, ul: number, dlSpeed: number, ulSpeed: number, seconds: number, current: number): string {
	const pct = (n: number) => String(n).padStart(3, ' ');
	return `${pct(totalPct)} ${max5(total)}  ${pct(dlPct)} ${max5(dl)}  ${pct(ulPct)} ${max5(ul)}  ${max5(dlSpeed)}  ${max5(ulSpeed)} ${time2(0)} ${time2(seconds)} ${time2(0)} ${max5(current)}`;
}

const HEADER = '  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n                                 Dload  Upload   Total   Spent    Left  Speed\n';

/**
 * The meter for a transfer of `downloaded` bytes (and `uploaded` bytes of
 * request body) that took `elapsedMs`: `start` is written when it begins,
 * `end` when it finishes.
 */
export function progressMeter(downloaded: number, sizeKnown: boolean, uploaded: number, elapsedMs: number): { start: string; end: string } {
	const seconds = Math.max(elapsedMs, 1) / 1000;
	const dlSpeed = Math.floor(downloaded / seconds);
	const ulSpeed = Math.floor(uploaded / seconds);
	const expected = uploaded + downloaded;
	const percent = (part: number, whole: number) => (whole > 10_000 ? Math.floor(part / Math.floor(whole / 100)) : whole > 0 ? Math.floor((part * 100) / whole) : 0);
	const final = line(
		percent(downloaded + uploaded, expected),
		expected,
		sizeKnown && dlSpeed > 0 ? percent(downloaded, downloaded) : 0,
		downloaded,
		uploaded > 0 && ulSpeed > 0 ? 100 : 0,
		uploaded,
		dlSpeed,
		ulSpeed,
		Math.floor(seconds),
		dlSpeed + ulSpeed,
	);
	return { start: HEADER + '\r' + line(0, 0, 0, 0, 0, 0, 0, 0, 0, 0), end: '\r' + final + '\n' };
}
