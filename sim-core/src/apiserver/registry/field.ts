/**
 * Builders for validation errors, as apimachinery's field package makes
 * them, and the renderings upstream puts in messages for values that are
 * not plain strings or numbers (maps, label selectors, IntOrString...: their
 * JSON). The text of each error is produced by ../errors.ts
 * (formatFieldError).
 *
 * Mirrors
 * staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go,
 * staging/src/k8s.io/apimachinery/pkg/util/validation/field/path.go.
 */
import type { FieldError } from '../errors.ts';
import { compactJson, goQuote } from '../../golang/json.ts';

export type { FieldError };

/** field.Required. */
export function required(field: string, detail = ''): FieldError {
	return detail ? { field, type: 'FieldValueRequired', detail } : { field, type: 'FieldValueRequired' };
}

/** field.Invalid; `rendered` is the value's text as ErrorBody prints it when that is not a string or a number (its JSON). */
export function invalid(field: string, value: unknown, detail: string, rendered?: string): FieldError {
	const e: FieldError = { field, type: 'FieldValueInvalid', value, detail };
	if (rendered !== undefined) e.rendered = rendered;
	return e;
}

/** field.NotSupported: the detail lists the supported values, each `%q`-quoted, in the order given. */
export function notSupported(field: string, value: unknown, supported: readonly string[], rendered?: string): FieldError {
	const e: FieldError = { field, type: 'FieldValueNotSupported', value };
	if (supported.length) e.detail = `supported values: ${supported.map((v) => goQuote(v)).join(', ')}`;
	if (rendered !== undefined) e.rendered = rendered;
	return e;
}

/** field.Forbidden. */
export function forbidden(field: string, detail: string): FieldError {
	return { field, type: 'FieldValueForbidden', detail };
}

/** field.Duplicate (some callers add a detail, e.g. node taints). */
export function duplicate(field: string, value: unknown, rendered?: string, detail?: string): FieldError {
	const e: FieldError = { field, type: 'FieldValueDuplicate', value };
	if (rendered !== undefined) e.rendered = rendered;
	if (detail) e.detail = detail;
	return e;
}

/** field.NotFound. */
export function notFound(field: string, value: unknown): FieldError {
	return { field, type: 'FieldValueNotFound', value };
}

/** field.TooLong with a byte limit: `may not be more than N bytes`. */
export function tooLong(field: string, maxBytes: number): FieldError {
	return { field, type: 'FieldValueTooLong', detail: `may not be more than ${maxBytes} ${maxBytes === 1 ? 'byte' : 'bytes'}` };
}

/** Path.Index: `spec.containers[0]`. */
export function index(path: string, i: number): string {
	return `${path}[${i}]`;
}

/** Path.Key: `data[my key]` (the key is not quoted). */
export function key(path: string, k: string): string {
	return `${path}[${k}]`;
}

/** Path.Child: `spec.template`, or just the child at the root. */
export function child(path: string, ...names: string[]): string {
	return [path, ...names].filter((p) => p !== '').join('.');
}

// ---- how ErrorBody renders a bad value -------------------------------------------
// field.Error.ErrorBody prints a string `%q`, a number or bool `%v`, and
// anything else as its json.Marshal text (since v1.34; before, Go's `%#v`:
// `map[string]string{"app":"web"}`, `v1.LabelSelector{MatchLabels:...}`).

/** A map[string]string as json.Marshal writes it (keys sorted), `null` for a nil map: `{"app":"web"}`. */
export function jsonStringMap(map: Record<string, string> | undefined | null): string {
	return map ? compactJson(map) : 'null';
}

/** A []string as json.Marshal writes it, `null` for a nil slice: `["a","b"]`. */
export function jsonStringSlice(values: readonly string[] | undefined | null): string {
	return values ? compactJson([...values]) : 'null';
}

/** An intstr.IntOrString through its MarshalJSON: `25` or `"25%"`. */
export function jsonIntOrString(value: number | string | undefined): string {
	return typeof value === 'string' ? compactJson(value) : String(value ?? 0);
}

interface SelectorLike {
	matchLabels?: Record<string, string> | null;
	matchExpressions?: Array<{ key: string; operator: string; values?: string[] | null }> | null;
}

/** A metav1.LabelSelector as json.Marshal writes the struct: its fields in order, empty ones omitted (`omitempty`): `{"matchLabels":{"app":"b"}}`. */
export function jsonLabelSelector(selector: SelectorLike | undefined | null): string {
	if (!selector) return 'null';
	const fields: string[] = [];
	if (selector.matchLabels && Object.keys(selector.matchLabels).length) fields.push(`"matchLabels":${compactJson(selector.matchLabels)}`);
	if (selector.matchExpressions?.length) {
		const requirements = selector.matchExpressions.map((e) => `{"key":${compactJson(e.key)},"operator":${compactJson(e.operator)}${e.values?.length ? `,"values":${compactJson([...e.values])}` : ''}}`);
		fields.push(`"matchExpressions":[${requirements.join(',')}]`);
	}
	return `{${fields.join(',')}}`;
}

// ---- small readers for untyped JSON ---------------------------------------------

/** The object at `value` when it is a plain object, else undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The array at `value`, or an empty one. */
export function asArray<T = unknown>(value: unknown): T[] {
	return Array.isArray(value) ? (value as T[]) : [];
}

/** A string-to-string map (labels, selectors), or undefined. */
export function asStringMap(value: unknown): Record<string, string> | undefined {
	const record = asRecord(value);
	if (!record) return undefined;
	const out: Record<string, string> = {};
	for (const [k, v] of Object.entries(record)) out[k] = typeof v === 'string' ? v : String(v);
	return out;
}

/** Deep equality of two JSON values (key order ignored). */
export function jsonEquals(a: unknown, b: unknown): boolean {
	if (a === b) return true;
	if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
	if (Array.isArray(a) !== Array.isArray(b)) return false;
	if (Array.isArray(a)) {
		const bb = b as unknown[];
		return a.length === bb.length && a.every((v, i) => jsonEquals(v, bb[i]));
	}
	const ra = a as Record<string, unknown>;
	const rb = b as Record<string, unknown>;
	const ka = Object.keys(ra).filter((k) => ra[k] !== undefined);
	const kb = Object.keys(rb).filter((k) => rb[k] !== undefined);
	return ka.length === kb.length && ka.every((k) => Object.hasOwn(rb, k) && jsonEquals(ra[k], rb[k]));
}

