/**
 * Go's encoding/json for structs: keys in the order the caller lists them
 * (a Go struct's field order, not a map's sorted order), `<`, `>`, `&`,
 * U+2028 and U+2029 escaped as json.Marshal, json.MarshalIndent and
 * json.Encoder do, `undefined` members left out (the `omitempty` the caller
 * already applied). kube-apiserver's JSON serializer and etcdctl's JSON
 * printer both write this way (apimachinery runtime/serializer/json,
 * etcdctl printer_json.go).
 */

/** A value written verbatim: a uint64 that JavaScript numbers cannot hold exactly (`10276657743932975437`). */
export class GoRaw {
	constructor(readonly text: string) {}
}

/** What the encoder accepts. */
export type GoJsonValue = null | undefined | boolean | number | string | GoRaw | GoJsonValue[] | { [key: string]: GoJsonValue };

const hex4 = (c: number) => '\\u' + c.toString(16).padStart(4, '0');

/** A string as encoding/json quotes it (HTML-safe escaping, `\b` and `\f` short forms as Go ≥ 1.22 writes them). */
export function goJsonString(text: string): string {
	let out = '"';
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x22) out += '\\"';
		else if (c === 0x5c) out += '\\\\';
		else if (c === 0x0a) out += '\\n';
		else if (c === 0x0d) out += '\\r';
		else if (c === 0x09) out += '\\t';
		else if (c === 0x08) out += '\\b';
		else if (c === 0x0c) out += '\\f';
		else if (c < 0x20 || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) out += hex4(c);
		else if (c >= 0xd800 && c <= 0xdfff) {
			const paired = c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
			if (paired) {
				out += text[i] + text[i + 1];
				i++;
			} else out += '\\ufffd';
		} else out += text[i];
	}
	return out + '"';
}

function encode(value: GoJsonValue, indent: string | null, depth: number): string {
	if (value === null || value === undefined) return 'null';
	if (value instanceof GoRaw) return value.text;
	switch (typeof value) {
		case 'string':
			return goJsonString(value);
		case 'number':
			return Number.isFinite(value) ? String(value) : 'null';
		case 'boolean':
			return value ? 'true' : 'false';
	}
	const isArray = Array.isArray(value);
	const items: string[] = [];
	if (isArray) for (const item of value) items.push(encode(item === undefined ? null : item, indent, depth + 1));
	else
		for (const [key, item] of Object.entries(value)) {
			if (item === undefined) continue;
			items.push(goJsonString(key) + (indent === null ? ':' : ': ') + encode(item, indent, depth + 1));
		}
	const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
	// json.Indent leaves empty containers as `{}` and `[]`.
	if (indent === null || items.length === 0) return open + items.join(',') + close;
	const inner = '\n' + indent.repeat(depth + 1);
	return open + inner + items.join(',' + inner) + '\n' + indent.repeat(depth) + close;
}

/** json.Marshal: compact, no trailing newline. */
export function goMarshal(value: GoJsonValue): string {
	return encode(value, null, 0);
}

/** json.MarshalIndent(v, "", "  "): two-space indentation, no trailing newline. */
export function goMarshalIndent(value: GoJsonValue): string {
	return encode(value, '  ', 0);
}
