/**
 * Small formatting helpers of the sandbox's UI: the UI-string translator,
 * the virtual clock, inline `code` in scenario texts, and terminal output
 * cleaning. Pure functions, unit-tested in tests/site/sandbox-format.test.ts.
 */

/** A translator over one locale's `sandbox.*` strings; `{name}` placeholders are filled from `values`. */
export function translator(strings: Readonly<Record<string, string>>): (key: string, values?: Record<string, string | number>) => string {
	return (key, values) => {
		const text = strings[key] ?? key;
		if (!values) return text;
		return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
	};
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock-looking time of the cluster (UTC), e.g. `08:03:15`. */
export function formatClock(wallMs: number): string {
	const seconds = Math.floor(wallMs / 1000);
	const day = ((seconds % 86_400) + 86_400) % 86_400;
	return `${pad(Math.floor(day / 3600))}:${pad(Math.floor((day % 3600) / 60))}:${pad(day % 60)}`;
}

/** The clock to the millisecond, e.g. `08:00:33.009`: Next event often steps between events milliseconds apart. */
export function formatClockMs(wallMs: number): string {
	return `${formatClock(wallMs)}.${String(((Math.floor(wallMs) % 1000) + 1000) % 1000).padStart(3, '0')}`;
}

type Translate = (key: string, values?: Record<string, string | number>) => string;

/** A span of virtual time in the locale's words, e.g. `3 min 19 s`, `1 h 5 min`. */
export function formatSpan(ms: number, t: Translate): string {
	const total = Math.max(0, Math.round(ms / 1000));
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	if (h) return t('sandbox.time.span.h', { h, m });
	if (m) return t('sandbox.time.span.m', { m, s });
	return t('sandbox.time.span.s', { s });
}

/** A count of commands in the locale's words (`1 command`, `4 commands`). */
export function formatCommands(n: number, t: Translate): string {
	return n === 1 ? t('sandbox.time.commands.one') : t('sandbox.time.commands.other', { n });
}

/** Virtual time since the reader took over, e.g. `+0:05`, `+12:30`, `+1:02:03`. */
export function formatElapsed(ms: number): string {
	const total = Math.max(0, Math.floor(ms / 1000));
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	return h ? `+${h}:${pad(m)}:${pad(s)}` : `+${m}:${pad(s)}`;
}

/** Splits text with `code` spans into plain and code segments. */
export function codeSegments(text: string): Array<{ code: boolean; text: string }> {
	const out: Array<{ code: boolean; text: string }> = [];
	const re = /`([^`]+)`/g;
	let last = 0;
	let match: RegExpExecArray | null;
	while ((match = re.exec(text))) {
		if (match.index > last) out.push({ code: false, text: text.slice(last, match.index) });
		out.push({ code: true, text: match[1] });
		last = match.index + match[0].length;
	}
	if (last < text.length) out.push({ code: false, text: text.slice(last) });
	return out;
}

/** What `clear` writes (sim-core's shell: cursor home, erase screen). */
export const CLEAR_SCREEN = '\x1b[H\x1b[2J';

/**
 * Terminal output as text: whether it cleared the screen (only what follows
 * the last clear is shown) and the text without escape sequences.
 */
export function terminalText(output: string): { cleared: boolean; text: string } {
	const at = output.lastIndexOf(CLEAR_SCREEN);
	const rest = at >= 0 ? output.slice(at + CLEAR_SCREEN.length) : output;
	return { cleared: at >= 0, text: rest.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '') };
}

/** The longest text every completion candidate starts with (what Tab inserts when several match). */
export function commonPrefix(candidates: readonly string[]): string {
	if (!candidates.length) return '';
	let prefix = candidates[0];
	for (const c of candidates) while (!c.startsWith(prefix)) prefix = prefix.slice(0, -1);
	return prefix;
}
