/**
 * klog's text format, the one every Kubernetes component writes: kubectl's
 * `-v` lines on stderr, the kubelet's journal, kube-proxy's and the control
 * plane's container logs:
 *
 *     I1130 08:12:03.418220    4211 round_trippers.go:632] "Response" verb="GET" url="https://…" status="200 OK" milliseconds=9
 *
 * The header is the severity letter, month and day, the time with
 * microseconds, the thread id right-aligned in seven columns (on Linux
 * klog prints the process id there), then `file:line] `. Structured
 * messages (logger.Info(msg, key, value, …)) quote the message and every
 * string value with strconv.Quote, print numbers and booleans bare, and
 * print a string holding a line break as a block: `key=<`, each line
 * indented by a tab, then ` >` (so the end marker cannot be mistaken for
 * content). Plain messages (Infoln) join their operands with spaces.
 *
 * Mirrors kubernetes/klog klog.go (formatHeader, println-style Infoln),
 * kubernetes/klog internal/buffer/buffer.go (FormatHeader), kubernetes/klog
 * internal/serialize/keyvalues.go (KVFormat, writeStringValue).
 */
import { goQuote } from '../golang/json.ts';
import { civilFromDays } from '../golang/time.ts';

/** One structured value: a string, a number, a boolean; anything else prints as JSON, and null as `<nil>`. */
export type KlogValue = string | number | boolean | null | object;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * `I1130 08:12:03.418220    4211 file.go:12] ` for a wall-clock instant
 * (epoch ms). The virtual clock counts milliseconds, so the microseconds
 * end in 000 unless the caller draws the sub-millisecond part (`micros`,
 * 0..999) from its own seeded sequence.
 */
export function klogHeader(severity: 'I' | 'W' | 'E', wallMs: number, pid: number, fileLine: string, micros = 0): string {
	const days = Math.floor(wallMs / 86_400_000);
	const msOfDay = wallMs - days * 86_400_000;
	const { month, day } = civilFromDays(days);
	const seconds = Math.floor(msOfDay / 1000);
	const fraction = (msOfDay % 1000) * 1000 + (micros % 1000);
	// Buffer.nDigits(7, …, pid, ' '): seven columns exactly, space-padded; a longer number keeps its last seven digits.
	const pidColumns = String(pid % 10_000_000).padStart(7);
	return `${severity}${pad(month)}${pad(day)} ${pad(Math.floor(seconds / 3600))}:${pad(Math.floor(seconds / 60) % 60)}:${pad(seconds % 60)}.${pad(fraction, 6)} ${pidColumns} ${fileLine}] `;
}

/** writeStringValue: quoted, or as a `<` block when the text holds a line break. */
function stringValue(text: string): string {
	if (!text.includes('\n')) return goQuote(text);
	const lines = text.split('\n');
	// A text ending with a line break gets no extra empty line: the end marker follows at once.
	const endsWithBreak = text.endsWith('\n');
	if (endsWithBreak) lines.pop();
	return `<\n${lines.map((l) => `\t${l}\n`).join('')} >`;
}

/** One `key=value` pair as KVFormat writes it. */
export function klogPair(key: string, value: KlogValue): string {
	if (typeof value === 'string') return `${key}=${stringValue(value)}`;
	if (value === null) return `${key}=<nil>`;
	if (typeof value === 'object') return `${key}=${JSON.stringify(value)}`;
	return `${key}=${String(value)}`;
}

/** A structured message: `"Response" verb="GET" …`. */
export function klogStructured(message: string, pairs: ReadonlyArray<readonly [string, KlogValue]>): string {
	return [goQuote(message), ...pairs.map(([k, v]) => klogPair(k, v))].join(' ');
}

/** A whole log line (with its trailing newline). */
export function klogLine(severity: 'I' | 'W' | 'E', wallMs: number, pid: number, fileLine: string, text: string): string {
	return `${klogHeader(severity, wallMs, pid, fileLine)}${text}\n`;
}

/**
 * One InfoS/ErrorS record as a daemon writes it (no trailing newline): the
 * header, the quoted message and the key/value pairs; pairs whose value is
 * undefined are left out.
 */
export function klogRecord(severity: 'I' | 'W' | 'E', wallMs: number, pid: number, fileLine: string, message: string, kv: Record<string, KlogValue | undefined> = {}, micros = 0): string {
	const pairs = Object.entries(kv).filter((e): e is [string, KlogValue] => e[1] !== undefined);
	return klogHeader(severity, wallMs, pid, fileLine, micros) + klogStructured(message, pairs);
}
