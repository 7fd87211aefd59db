/**
 * Builders for validation errors, as apimachinery's field package makes
 * them, and the Go `%#v` renderings upstream puts in messages for values
 * that are not plain strings or numbers (maps, label selectors,
 * IntOrString...). The text of each error is produced by ../errors.ts
 * (formatFieldError).
 *
 * Mirrors
 * staging/src/k8s.io/apimachinery/pkg/util/validation/field/errors.go,
 * staging/src/k8s.io/apimachinery/pkg/util/validation/field/path.go.
 */
import type { FieldError } from '../errors.ts';
import { compareGoStrings, goQuote } from '../../golang/json.ts';

export type { FieldError };

/** field.Required. */
export function required(field: string, detail = ''): FieldError {
	return detail ? { field, type: 'FieldValueRequired', detail } : { field, type: 'FieldValueRequired' };
}

/** field.Invalid; `rendered` is the Go `%#v` text when the value is not a string or a number. */
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

// ---- Go %#v renderings --------------------------------------------------------

/** `map[string]string{"a":"1", "b":"2"}`: fmt sorts map keys; a nil map prints `map[string]string(nil)`. */
export function goStringMap(map: Record<string, string> | undefined | null): string {
	if (!map) return 'map[string]string(nil)';
	const keys = Object.keys(map).sort(compareGoStrings);
	return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(map[k])}`).join(', ')}}`;
}

/** `[]string{"a", "b"}`, or `[]string(nil)`. */
export function goStringSlice(values: readonly string[] | undefined | null): string {
	if (!values) return '[]string(nil)';
	return `[]string{${values.map((v) => goQuote(v)).join(', ')}}`;
}

/** intstr.IntOrString as `%#v` prints the value type (its String method has a pointer receiver). */
export function goIntOrString(value: number | string | undefined): string {
	if (typeof value === 'string') return `intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(value)}}`;
	return `intstr.IntOrString{Type:0, IntVal:${value ?? 0}, StrVal:""}`;
}

interface SelectorLike {
	matchLabels?: Record<string, string> | null;
	matchExpressions?: Array<{ key: string; operator: string; values?: string[] | null }> | null;
}

/** A metav1.LabelSelector as `%#v` prints the dereferenced value (`v1.LabelSelector{...}`). */
export function goLabelSelector(selector: SelectorLike | undefined | null, pkg = 'v1'): string {
	if (!selector) return 'null';
	const expressions = selector.matchExpressions
		? `[]${pkg}.LabelSelectorRequirement{${selector.matchExpressions
				.map((e) => `${pkg}.LabelSelectorRequirement{Key:${goQuote(e.key)}, Operator:${goQuote(e.operator)}, Values:${goStringSlice(e.values)}}`)
				.join(', ')}}`
		: `[]${pkg}.LabelSelectorRequirement(nil)`;
	return `${pkg}.LabelSelector{MatchLabels:${goStringMap(selector.matchLabels)}, MatchExpressions:${expressions}}`;
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

