/**
 * The Go formats crictl's output is made of: logrus's text lines on stderr,
 * text/tabwriter tables, docker/go-units' human durations and sizes,
 * RFC 3339 timestamps with nanoseconds, and the two JSON encoders crictl
 * uses (protojson for `-o json` lists, encoding/json over maps for
 * `inspect`/`info`, which sorts keys).
 *
 * Mirrors sirupsen/logrus text_formatter.go, golang/go
 * src/text/tabwriter/tabwriter.go, docker/go-units duration.go,
 * docker/go-units size.go, kubernetes-sigs/cri-tools cmd/crictl/util.go
 * (outputStatusData).
 */
import { civilTime } from '../../golang/time.ts';
import { GoRaw, goMarshalIndent, type GoJsonValue } from '../../golang/json.ts';

// ---- logrus -------------------------------------------------------------------------------

export type LogrusLevel = 'fatal' | 'error' | 'warning' | 'info' | 'debug';

const LEVEL_TEXT: Record<LogrusLevel, string> = { fatal: 'FATA', error: 'ERRO', warning: 'WARN', info: 'INFO', debug: 'DEBU' };

/**
 * One line as logrus's TextFormatter writes it to a terminal: the level cut
 * to four letters, the whole seconds since the program started in
 * brackets, the message padded to 44 columns, then a space (the separator
 * before fields, written even when there are none). logrus colours the
 * level on a terminal; the simulated terminal shows no colours, so the
 * escape codes are left out.
 */
export function logrusLine(level: LogrusLevel, message: string, elapsedSeconds = 0): string {
	const seconds = String(Math.max(0, Math.floor(elapsedSeconds))).padStart(4, '0');
	// text_formatter.go: `%s[%04d]%s %-44s ` with the trailing newline of the message removed.
	return `${LEVEL_TEXT[level]}[${seconds}] ${message.replace(/\n$/, '').padEnd(44)} \n`;
}

// ---- text/tabwriter -----------------------------------------------------------------------------

/**
 * A table as crictl's display writes it: text/tabwriter with minwidth 20,
 * tabwidth 1, padding 3 and padchar ' ' (display.go newDefaultTableDisplay).
 * Every cell but the last of a row is padded to its column's width, which
 * is the widest cell plus the padding, at least minwidth. Rows passed here
 * have the same number of cells, as crictl's rows always do.
 */
export function crictlTable(rows: readonly (readonly string[])[], minWidth = 20, padding = 3): string {
	const widths: number[] = [];
	for (const row of rows)
		row.forEach((cell, j) => {
			if (j === row.length - 1) return;
			widths[j] = Math.max(widths[j] ?? minWidth, [...cell].length + padding);
		});
	return rows.map((row) => row.map((cell, j) => (j === row.length - 1 ? cell : cell + ' '.repeat(widths[j] - [...cell].length))).join('') + '\n').join('');
}

// ---- docker/go-units ------------------------------------------------------------------------------

/** go-units HumanDuration: `Less than a second`, `1 second`, `42 seconds`, `About a minute`, `5 minutes`, `About an hour`, `3 hours`, `2 days`... */
export function humanDuration(ms: number): string {
	const seconds = Math.trunc(ms / 1000);
	if (seconds < 1) return 'Less than a second';
	if (seconds === 1) return '1 second';
	if (seconds < 60) return `${seconds} seconds`;
	const minutes = Math.trunc(ms / 60_000);
	if (minutes === 1) return 'About a minute';
	if (minutes < 60) return `${minutes} minutes`;
	// duration.go rounds hours half up: int(d.Hours() + 0.5).
	const hours = Math.trunc(ms / 3_600_000 + 0.5);
	if (hours === 1) return 'About an hour';
	if (hours < 48) return `${hours} hours`;
	if (hours < 24 * 7 * 2) return `${Math.trunc(hours / 24)} days`;
	if (hours < 24 * 30 * 2) return `${Math.trunc(hours / 24 / 7)} weeks`;
	if (hours < 24 * 365 * 2) return `${Math.trunc(hours / 24 / 30)} months`;
	return `${Math.trunc(ms / 3_600_000 / 24 / 365)} years`;
}

const DECIMAL_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'];

/** Go's `%.*g`: `precision` significant digits, trailing zeros dropped, exponent form when the exponent is < -4 or >= precision. */
export function goG(value: number, precision: number): string {
	if (value === 0) return '0';
	// The exponent after rounding to `precision` digits decides the form (strconv's %g).
	const exp = Number(value.toExponential(precision - 1).split('e')[1]);
	if (exp < -4 || exp >= precision) {
		const [mantissa, e] = value.toExponential(precision - 1).split('e');
		const exponent = Number(e);
		return `${mantissa.includes('.') ? mantissa.replace(/\.?0+$/, '') : mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
	}
	const text = value.toFixed(Math.max(0, precision - 1 - exp));
	return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** go-units HumanSizeWithPrecision(size, 3), as `crictl images` prints SIZE: `71.4MB`, `320kB`, `1.02GB`. */
export function humanSize(bytes: number, precision = 3): string {
	let size = bytes;
	let i = 0;
	// size.go getSizeAndUnit: divide by 1000 while the size is at least 1000.
	while (size >= 1000 && i < DECIMAL_UNITS.length - 1) {
		size /= 1000;
		i++;
	}
	return `${goG(size, precision)}${DECIMAL_UNITS[i]}`;
}

// ---- times ------------------------------------------------------------------------------------

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Go's time.RFC3339Nano in UTC: fractional seconds with trailing zeros removed (`2026-11-30T08:00:01.25Z`). */
export function rfc3339Nano(epochMs: number): string {
	const t = civilTime(epochMs);
	const fraction = t.millisecond ? '.' + pad(t.millisecond, 3).replace(/0+$/, '') : '';
	return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}${fraction}Z`;
}

/** Go's zero time.Time formatted as RFC 3339 (what crictl prints for a container that never started or finished). */
export const GO_ZERO_TIME = '0001-01-01T00:00:00Z';

/** Epoch milliseconds as the nanoseconds a CRI timestamp (int64) holds, as a decimal string (protojson writes int64 as strings). */
export function unixNanos(epochMs: number): string {
	return `${Math.round(epochMs)}000000`;
}

// ---- JSON ---------------------------------------------------------------------------------------

/** Object keys sorted recursively, as encoding/json writes a map[string]any. */
export function sortKeysDeep(value: GoJsonValue): GoJsonValue {
	if (Array.isArray(value)) return value.map(sortKeysDeep);
	if (value === null || value === undefined || typeof value !== 'object' || value instanceof GoRaw) return value;
	const out: { [key: string]: GoJsonValue } = {};
	for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = sortKeysDeep(value[key]);
	return out;
}

/**
 * crictl's `outputStatusData` in JSON: each status becomes a map (its keys
 * sorted, as encoding/json sorts map keys), one status is printed bare,
 * several as an array, indented by two spaces, then a newline (fmt.Println).
 */
export function statusDataJson(statuses: readonly { [key: string]: GoJsonValue }[]): string {
	const value = statuses.length === 1 ? sortKeysDeep(statuses[0]) : statuses.map(sortKeysDeep);
	return goMarshalIndent(value) + '\n';
}

/** protojson with EmitDefaultValues and a two-space indent (fields in .proto order, built by the caller), then fmt.Println's newline. */
export function protoJson(value: GoJsonValue): string {
	return goMarshalIndent(value) + '\n';
}

// ---- klog --------------------------------------------------------------------------------------

/** A Go-quoted string as klog writes a string value (strconv.Quote, close enough for the ASCII the simulation produces). */
function klogQuote(text: string): string {
	return JSON.stringify(text);
}

/** A key, its value, and whether the value is printed bare (not a string). */
export type KlogValue = readonly [string, string, boolean?];

/**
 * An error line of klog's text format, as k8s.io/cri-client writes one to
 * crictl's stderr when an RPC fails (`logger.Error(err, msg, kv...)`):
 * `E1130 08:00:01.250000    3001 remote_runtime.go:569] "msg" err="..." key="value"`.
 */
export function klogErrorLine(epochMs: number, pid: number, source: string, message: string, err: string, kv: ReadonlyArray<KlogValue> = []): string {
	const t = civilTime(epochMs);
	const header = `E${pad(t.month)}${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}.${pad(t.millisecond, 3)}000 ${String(pid).padStart(7)} ${source}]`;
	// Strings are quoted; other values (a []string) print as Go's %+v does, unquoted.
	return [header, klogQuote(message), `err=${klogQuote(err)}`, ...kv.map(([k, v, raw]) => `${k}=${raw ? v : klogQuote(v)}`)].join(' ') + '\n';
}
