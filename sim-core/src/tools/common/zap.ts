/**
 * One log line as etcd's zap logger writes it to stderr
 * (DefaultZapLoggerConfig: JSON encoding, keys level, ts, logger, caller,
 * msg, then the fields in call order). zap's JSON encoder escapes only
 * quotes, backslashes and control characters (no HTML escaping), unlike
 * encoding/json.
 *
 * Mirrors etcd-io/etcd client/pkg/logutil/zap.go (DefaultZapLoggerConfig),
 * uber-go/zap zapcore/json_encoder.go.
 */

/** A field value: strings are quoted, numbers and booleans bare. */
type ZapValue = string | number | boolean;

function zapString(text: string): string {
	let out = '"';
	for (const ch of text) {
		const c = ch.codePointAt(0) ?? 0;
		if (ch === '"' || ch === '\\') out += '\\' + ch;
		else if (ch === '\n') out += '\\n';
		else if (ch === '\r') out += '\\r';
		else if (ch === '\t') out += '\\t';
		else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
		else out += ch;
	}
	return out + '"';
}

interface ZapEntry {
	level: 'debug' | 'info' | 'warn' | 'error' | 'fatal';
	/** Already formatted (see calendar.ts zapTimestamp). */
	ts: string;
	/** The logger's name (`etcd-client`, `client`), when it has one. */
	logger?: string;
	/** `package/file.go:line`, zap's ShortCallerEncoder. */
	caller: string;
	msg: string;
	fields?: ReadonlyArray<readonly [string, ZapValue]>;
}

/** The JSON line, with its trailing newline. */
export function zapLine(entry: ZapEntry): string {
	const parts = [`"level":"${entry.level}"`, `"ts":${zapString(entry.ts)}`];
	if (entry.logger) parts.push(`"logger":${zapString(entry.logger)}`);
	parts.push(`"caller":${zapString(entry.caller)}`, `"msg":${zapString(entry.msg)}`);
	for (const [key, value] of entry.fields ?? []) parts.push(`${zapString(key)}:${typeof value === 'string' ? zapString(value) : String(value)}`);
	return `{${parts.join(',')}}\n`;
}
