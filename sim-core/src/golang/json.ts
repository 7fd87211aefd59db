/**
 * JSON values the way kubectl sees them, and the Go string conventions that
 * leak into its output.
 *
 * kubectl handles API objects as "unstructured" data (apimachinery
 * `pkg/apis/meta/v1/unstructured`): `map[string]interface{}`, `[]interface{}`,
 * string, int64/float64, bool and nil. The printers then serialize them with
 * Go's `encoding/json`, which differs from `JSON.stringify` in three visible
 * ways: map keys come out sorted, `<`, `>` and `&` are escaped as `\u003c`,
 * `\u003e`, `\u0026` (HTML-safe escaping is on in both `json.Marshal` and
 * `json.NewEncoder`), and U+2028/U+2029 are escaped too.
 *
 * Mirrors golang/go src/encoding/json/encode.go (sorted map keys, HTML-safe
 * escaping), golang/go src/strconv/quote.go (Quote),
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructured.go,
 * staging/src/k8s.io/apimachinery/pkg/runtime/converter.go
 * (DeepCopyJSONValue).
 */

/** A decoded JSON value, as apimachinery's unstructured content holds it (unstructured/helpers.go). */
export type JsonValue = null | boolean | number | string | JsonValue[] | JsonObject;
/** A JSON object (Go `map[string]interface{}`). */
export interface JsonObject {
	[key: string]: JsonValue;
}

/** True for a JSON object (not null, not an array): Go's `map[string]interface{}` case. */
export function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Go's `<` on strings: byte-wise over UTF-8, which is code-point order. JS's
 * default sort compares UTF-16 units and disagrees above U+FFFF, so every
 * sort that must match a Go program (map keys, `sort.Strings`) uses this.
 */
export function compareGoStrings(a: string, b: string): number {
	if (a === b) return 0;
	const n = Math.min(a.length, b.length);
	for (let i = 0; i < n; i++) {
		const x = a.codePointAt(i) ?? 0;
		const y = b.codePointAt(i) ?? 0;
		if (x !== y) return x < y ? -1 : 1;
		if (x > 0xffff) i++;
	}
	return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** The keys of an object in Go's map order (sorted by UTF-8 bytes), as encoding/json and fmt print them. */
export function goSortedKeys(object: JsonObject): string[] {
	return Object.keys(object).sort(compareGoStrings);
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
const isLoneSurrogate = (cp: number) => cp >= 0xd800 && cp <= 0xdfff;
/** Go's unicode.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space. */
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

/**
 * Go's `strconv.Quote` (what `%q` prints): printable runes stay, the rest
 * become `\n`-style, `\xNN`, `\uNNNN` or `\UNNNNNNNN` escapes. Mirrors Go's
 * strconv/quote.go. A lone surrogate (which Go cannot hold) prints as U+FFFD.
 */
export function goQuote(text: string): string {
	let out = '"';
	for (const ch of text) {
		const cp = ch.codePointAt(0) ?? 0;
		if (ch === '"' || ch === '\\') out += '\\' + ch;
		else if (cp >= 0x20 && cp < 0x7f) out += ch;
		else if (cp >= 0x80 && !isLoneSurrogate(cp) && printable.test(ch)) out += ch;
		else if (isLoneSurrogate(cp)) out += '\ufffd';
		else {
			const short = { 7: '\\a', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t', 11: '\\v' }[cp];
			out += short ?? (cp < 0x80 ? '\\x' + hex(cp, 2) : cp < 0x10000 ? '\\u' + hex(cp, 4) : '\\U' + hex(cp, 8));
		}
	}
	return out + '"';
}

/**
 * A string as encoding/json writes it with HTML escaping on (Go ≥ 1.22:
 * `\b` and `\f` use short escapes). Mirrors encoding/json encode.go
 * (appendString). Lone surrogates, like invalid UTF-8 in Go, become `\ufffd`.
 */
function quoteJsonString(text: string): string {
	let out = '"';
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		let esc: string | undefined;
		if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26 || c === 0x2028 || c === 0x2029) {
			esc = { 0x22: '\\"', 0x5c: '\\\\', 8: '\\b', 12: '\\f', 10: '\\n', 13: '\\r', 9: '\\t' }[c] ?? '\\u' + hex(c, 4);
		} else if (c >= 0xd800 && c <= 0xdfff) {
			const pair = c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
			if (pair) i++;
			else esc = '\\ufffd';
		}
		if (esc !== undefined) {
			out += text.slice(start, i) + esc;
			start = i + 1;
		}
	}
	return out + text.slice(start) + '"';
}

/** A number as encoding/json writes it: JS's shortest form uses the same 1e-6 / 1e21 exponent thresholds as Go. */
function jsonNumber(n: number): string {
	if (!Number.isFinite(n)) throw new Error(`json: unsupported value: ${Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf'}`);
	return String(n);
}

// One encoder for both kinds of Go value: a map (unstructured objects, as
// kubectl prints them) has its keys sorted; a struct keeps the order the
// caller lists its fields in, with `undefined` members left out (the
// omitempty the caller already applied), as kube-apiserver's JSON
// serializer and etcdctl's JSON printer write (apimachinery
// runtime/serializer/json, etcdctl printer_json.go). Both escape `<`, `>`,
// `&`, U+2028 and U+2029 as json.Marshal does.

/** A value written verbatim: a uint64 that JavaScript numbers cannot hold exactly (`10276657743932975437`). */
export class GoRaw {
	constructor(readonly text: string) {}
}

/** What the encoder accepts. */
export type GoJsonValue = null | undefined | boolean | number | string | GoRaw | GoJsonValue[] | { [key: string]: GoJsonValue };

/** How one encoder call writes: its indentation, whether keys are sorted (a Go map) or kept in order (a Go struct), and what a NaN or infinity becomes. */
interface EncodeStyle {
	indent: string | null;
	sortKeys: boolean;
	/** A map encoder fails on NaN/Inf as json.Marshal does; the struct writers here print null. */
	nonFinite: 'throw' | 'null';
}

function encode(value: GoJsonValue, style: EncodeStyle, depth: number): string {
	if (value === null || value === undefined) return 'null';
	if (value instanceof GoRaw) return value.text;
	switch (typeof value) {
		case 'string':
			return quoteJsonString(value);
		case 'number':
			return Number.isFinite(value) || style.nonFinite === 'throw' ? jsonNumber(value) : 'null';
		case 'boolean':
			return value ? 'true' : 'false';
	}
	const items: string[] = [];
	const isArray = Array.isArray(value);
	if (isArray) for (const item of value) items.push(encode(item, style, depth + 1));
	else {
		const object = value as { [key: string]: GoJsonValue };
		for (const key of style.sortKeys ? goSortedKeys(object as JsonObject) : Object.keys(object)) {
			const item = object[key];
			// JSON.stringify's rule for `undefined` members (a Go map can't hold them; a struct's omitempty already left them out).
			if (item === undefined) continue;
			items.push(quoteJsonString(key) + (style.indent === null ? ':' : ': ') + encode(item, style, depth + 1));
		}
	}
	const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
	// json.Indent keeps empty containers as `{}` and `[]`.
	if (style.indent === null || items.length === 0) return open + items.join(',') + close;
	const inner = '\n' + style.indent.repeat(depth + 1);
	return open + inner + items.join(',' + inner) + '\n' + style.indent.repeat(depth) + close;
}

const MAP_COMPACT: EncodeStyle = { indent: null, sortKeys: true, nonFinite: 'throw' };
const MAP_KUBECTL: EncodeStyle = { indent: '    ', sortKeys: true, nonFinite: 'throw' };
const STRUCT_COMPACT: EncodeStyle = { indent: null, sortKeys: false, nonFinite: 'null' };
const STRUCT_INDENTED: EncodeStyle = { indent: '  ', sortKeys: false, nonFinite: 'null' };
const STRUCT_KUBECTL: EncodeStyle = { indent: '    ', sortKeys: false, nonFinite: 'null' };

/**
 * Go's `json.Marshal` of unstructured data: compact, map keys sorted, HTML
 * characters escaped. Used for JSONPath results and annotations. Note that
 * `kubectl.kubernetes.io/last-applied-configuration` is this text plus a
 * trailing `\n`, because kubectl writes it with `json.NewEncoder(w).Encode`
 * (kubectl pkg/util/apply.go, unstructured/helpers.go doEncode).
 */
export function compactJson(value: JsonValue): string {
	return encode(value, MAP_COMPACT, 0);
}

/**
 * The exact text `kubectl get -o json` prints: `json.MarshalIndent(obj, "",
 * "    ")` plus a newline (cli-runtime pkg/printers/json.go). Keys are sorted
 * because unstructured objects are Go maps; `<`, `>`, `&` print as `\u003c`,
 * `\u003e`, `\u0026`.
 */
export function stringifyJsonLikeKubectl(value: JsonValue): string {
	return encode(value, MAP_KUBECTL, 0) + '\n';
}

/**
 * A deep copy of a JSON value. Own keys named `__proto__` are copied as data
 * (with defineProperty) rather than assigned, which would swap the copy's
 * prototype; so a parsed `{"__proto__": …}` survives intact and nothing is
 * polluted. Mirrors runtime.DeepCopyJSONValue (apimachinery runtime/converter.go).
 */
export function jsonClone<T extends JsonValue>(value: T): T {
	return cloneAny(value) as T;
}

function cloneAny(value: JsonValue): JsonValue {
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map(cloneAny);
	const out: JsonObject = {};
	for (const key of Object.keys(value)) {
		const item = cloneAny(value[key]);
		if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
		else out[key] = item;
	}
	return out;
}

/** Deep equality of JSON values (own keys only; `__proto__` keys compare as data), like reflect.DeepEqual on unstructured content. */
export function jsonEqual(a: JsonValue, b: JsonValue): boolean {
	if (a === b) return true;
	if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
	if (Array.isArray(a) || Array.isArray(b)) {
		if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
		for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
		return true;
	}
	const keys = Object.keys(a);
	if (keys.length !== Object.keys(b).length) return false;
	for (const key of keys) if (!Object.hasOwn(b, key) || !jsonEqual(a[key], b[key])) return false;
	return true;
}


/** json.Marshal: compact, no trailing newline. */
export function goMarshal(value: GoJsonValue): string {
	return encode(value, STRUCT_COMPACT, 0);
}

/**
 * kubectl's JSON printer over a typed object (what client-go's typed
 * clients return, as `cluster-info dump` prints): `json.MarshalIndent(obj,
 * "", "    ")` in the fields' own order, plus a newline.
 */
export function typedJsonLikeKubectl(value: GoJsonValue): string {
	return encode(value, STRUCT_KUBECTL, 0) + '\n';
}

/** json.MarshalIndent(v, "", "  "): two-space indentation, no trailing newline. */
export function goMarshalIndent(value: GoJsonValue): string {
	return encode(value, STRUCT_INDENTED, 0);
}

/**
 * A deep copy of plain JSON data (objects, arrays, strings, numbers,
 * booleans, null): what generated DeepCopy methods give Go code. Members
 * set to `undefined` are dropped, as JSON has no such value. Every
 * component copies a cached object this way before changing it.
 */
export function deepCopy<T>(value: T): T {
	return value === undefined ? value : (copyJson(value) as T);
}

/**
 * The copy itself, walking the value once instead of printing and parsing
 * it (several times faster, and this runs on every write). It keeps what a
 * JSON round trip keeps: undefined, functions and symbols vanish from
 * objects and become null in arrays, non-finite numbers become null, and an
 * object with toJSON is copied as what toJSON returns.
 */
function copyJson(value: unknown): unknown {
	if (value === null) return null;
	switch (typeof value) {
		case 'string':
		case 'boolean':
			return value;
		case 'number':
			return Number.isFinite(value) ? (value === 0 ? 0 : value) : null;
		case 'object': {
			if (Array.isArray(value)) {
				const out = new Array<unknown>(value.length);
				for (let i = 0; i < value.length; i++) {
					const item = copyJson(value[i]);
					out[i] = item === undefined ? null : item;
				}
				return out;
			}
			const json = (value as { toJSON?: () => unknown }).toJSON;
			if (typeof json === 'function') return copyJson(json.call(value));
			const out: Record<string, unknown> = {};
			for (const key in value) {
				if (!Object.hasOwn(value, key)) continue;
				const item = copyJson((value as Record<string, unknown>)[key]);
				if (item === undefined) continue;
				// An own "__proto__" key (JSON.parse makes one) must stay a key, not become the prototype.
				if (key === '__proto__') Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
				else out[key] = item;
			}
			return out;
		}
		case 'bigint':
			// As JSON.stringify does.
			throw new TypeError('Do not know how to serialize a BigInt');
		default:
			return undefined;
	}
}
