/**
 * The kube-apiserver's strict JSON decoding of a request body, with
 * upstream's error messages, byte for byte where we could check them.
 *
 * Upstream, a create (`kubectl apply` of a new object sends one, with
 * `?fieldValidation=Strict`) goes:
 * apiserver endpoints/handlers/create.go → the JSON serializer
 * (apimachinery runtime/serializer/json/json.go: Interpret, then
 * UnmarshalStrict) → sigs.k8s.io/json, a fork of Go's encoding/json that
 * matches keys case-sensitively and collects unknown fields instead of
 * failing on the first → on error, handlers/rest.go transformDecodeError
 * wraps the message: `Deployment in version "v1" cannot be handled as a
 * Deployment: …`.
 *
 * The rules this file reproduces (sigs.k8s.io/json
 * internal/golang/encoding/json/decode.go and kubernetes_patch.go):
 * - An unknown key is a strict error `unknown field "<path>"`; the path joins
 *   keys with `.` and array indices as `[i]`, map keys included
 *   (`spec.template.spec.containers[0].imagee`). The unknown value is not
 *   looked into. Duplicates are dropped; at most 100 are kept.
 * - A value of the wrong JSON type is an UnmarshalTypeError:
 *   `json: cannot unmarshal <what> into Go struct field <Struct>.<path> of
 *   type <GoType>`, where <Struct> is the innermost Go struct, <path> the
 *   JSON field names from the root without indices or map keys, and <what>
 *   `string`, `number`, `number <literal>` (into integers), `bool`,
 *   `object` or `array`. Decoding goes on; the first one is reported.
 * - The custom decoders (Quantity, IntOrString, Time, MicroTime) stop the
 *   decode at once with their own message, even after an earlier type error.
 * - Any non-strict error hides the strict ones: the server reports only it.
 * - `null` is always accepted.
 *
 * Mirrors kubernetes-sigs/json internal/golang/encoding/json/decode.go,
 * kubernetes-sigs/json internal/golang/encoding/json/kubernetes_patch.go,
 * staging/src/k8s.io/apimachinery/pkg/runtime/serializer/json/json.go
 * (Interpret, UnmarshalStrict),
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
 * (transformDecodeError).
 */

import { timeError, base64Error, quantityError } from './scalars.ts';
import { groupVersionString, typeForKind, typeSchema, type FieldType, type GroupVersionKind } from './schema.ts';

/**
 * What decoding found. `errors` are the parts of the server's message:
 * either the strict-decoding parts (`unknown field "spec.replica"`, all of
 * them, in document order) or one decoding failure (a JSON type error, a
 * bad quantity, …) which, as upstream, hides any unknown fields. `warnings`
 * holds the unknown fields when field validation is `Warn` (kubectl prints
 * each as `Warning: unknown field "…"`). `message` is the whole error the
 * server answers (what kubectl prints after `Error from server
 * (BadRequest): error when creating "x.yaml": `), present when errors is
 * not empty.
 */
export interface DecodeResult {
	errors: string[];
	warnings: string[];
	message?: string;
}

/**
 * The `fieldValidation` query parameter (metav1.FieldValidation*): `Strict`
 * (kubectl's default since v1.27) fails on unknown fields, `Warn` lets them
 * through with warnings, `Ignore` drops them silently.
 */
export interface DecodeOptions {
	fieldValidation?: 'Strict' | 'Warn' | 'Ignore';
}

/** The walk's findings; `fatal` ends it. */
interface State {
	fatal?: string;
	saved?: string;
	strict: string[];
}

/**
 * `json: cannot unmarshal …` with the error context of the innermost struct
 * field being decoded (decode.go addErrorContext; message from Go's
 * encoding/json UnmarshalTypeError.Error).
 */
const typeError = (what: string, go: string, struct: string, fields: string[]): string =>
	`json: cannot unmarshal ${what} into Go struct field ${struct}.${fields.join('.')} of type ${go}`;

/** How Go's decoder names a JSON value in type errors. */
function jsonKind(value: unknown): string {
	return Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value === 'boolean' ? 'bool' : typeof value;
}

/** Whether a JSON value is an integer in [min, max). */
const isInt = (value: unknown, min: number, max: number): boolean => Number.isInteger(value) && (value as number) >= min && (value as number) < max;

/** The JSON text kubectl would send for a number (Go's float formatting matches JS's). */
const numberText = (n: number): string => String(n);

/**
 * Decodes `value` into `type`. `path` is the strict path (with indices and
 * map keys), `fields`/`struct` the type-error context (struct field names
 * only, innermost struct).
 */
function walk(st: State, value: unknown, type: FieldType, path: string, fields: string[], struct: string): void {
	if (value === null || value === undefined || st.fatal) return;
	const kind = jsonKind(value);
	const save = (what: string): void => {
		st.saved ??= typeError(what, type.go, struct, fields);
	};
	switch (type.code) {
		case 'R': {
			if (kind !== 'object') return save(kind);
			const schema = typeSchema(type.ref as string);
			if (!schema) throw new Error(`schema: missing type ${type.ref}`);
			for (const key of Object.keys(value as object)) {
				const field = schema.fields.get(key);
				const at = path ? `${path}.${key}` : key;
				if (!field) {
					// kubernetes_patch.go saveStrictError: deduplicated, capped at 100.
					if (st.strict.length < 100 && !st.strict.includes(at)) st.strict.push(at);
					continue;
				}
				walk(st, (value as Record<string, unknown>)[key], field.type, at, [...fields, key], schema.goName);
				if (st.fatal) return;
			}
			return;
		}
		case '[':
		case 'y':
			if (kind === 'array') {
				(value as unknown[]).forEach((item, i) =>
					// A JSON array into []byte decodes element by element into uint8.
					walk(st, item, type.elem ?? { code: 'i', go: 'uint8' }, `${path}[${i}]`, fields, struct),
				);
				return;
			}
			if (type.code === 'y' && kind === 'string') {
				// A saved error, but not a type error: no field context (decode.go literalStore).
				st.saved ??= base64Error(value as string);
				return;
			}
			return save(kind);
		case '{':
			if (kind !== 'object') return save(kind);
			for (const key of Object.keys(value as object)) {
				walk(st, (value as Record<string, unknown>)[key], type.elem as FieldType, path ? `${path}.${key}` : key, fields, struct);
				if (st.fatal) return;
			}
			return;
		case 'q':
			// Quantity.UnmarshalJSON: the raw JSON text with its quotes stripped (so
			// still escaped: a tab stays `\t`) and spaces trimmed must parse. Any
			// other JSON value fails the same way `{` does.
			st.fatal = quantityError(kind === 'string' ? goJson(value).slice(1, -1).trim() : kind === 'number' ? numberText(value as number) : '{');
			return;
		case 'o':
			// IntOrString.UnmarshalJSON: a string, or else json.Unmarshal into int32;
			// that error is an UnmarshalTypeError, which the outer decoder dresses with
			// the field context.
			if (kind === 'string' || isInt(value, -(2 ** 31), 2 ** 31)) return;
			st.fatal = typeError(kind === 'number' ? `number ${numberText(value as number)}` : kind, 'int32', struct, fields);
			return;
		case 't':
		case 'u':
			// Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse.
			st.fatal = kind === 'string' ? timeError(value as string, type.code === 'u') : typeError(kind, 'string', struct, fields);
			return;
		case 'x':
			return;
		case 's':
			if (kind !== 'string') save(kind);
			return;
		case 'b':
			if (kind !== 'bool') save(kind);
			return;
		case 'n':
			if (kind !== 'number') save(kind);
			return;
		default: {
			// Integers: the literal is quoted when it does not fit (decode.go literalStore).
			if (kind !== 'number') return save(kind);
			const bits = type.go === 'uint8' ? 0 : type.code === 'i' ? 31 : 63;
			if (!isInt(value, bits ? -(2 ** bits) : 0, bits ? 2 ** bits : 256)) save(`number ${numberText(value as number)}`);
		}
	}
}

/**
 * Go's json.Marshal of an unstructured value: compact, map keys sorted,
 * `<`, `>`, `&`, U+2028 and U+2029 escaped (encoding/json encode.go). This is
 * the JSON text kubectl makes from YAML and sends, which upstream messages
 * quote.
 */
export function goJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(goJson).join(',')}]`;
	if (value !== null && typeof value === 'object') {
		const obj = value as Record<string, unknown>;
		return `{${Object.keys(obj)
			.filter((k) => obj[k] !== undefined)
			.sort()
			.map((k) => `${goJson(k)}:${goJson(obj[k])}`)
			.join(',')}}`;
	}
	if (typeof value === 'string') return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
	return value === undefined ? 'null' : JSON.stringify(value);
}

/**
 * Upstream's summarizeData (apiserver endpoints/handlers/rest.go): the body
 * as text when it starts with `{`, else as hex, cut to 30 bytes (counted
 * here in UTF-16 units, the same for ASCII).
 */
function summarize(body: string): string {
	const cut = body.slice(0, 30);
	const more = body.length > 30 ? ' ...' : '';
	return (body[0] === '{' ? cut : [...cut].map((c) => c.charCodeAt(0).toString(16).padStart(2, '0')).join('')) + more;
}

/**
 * The first step of upstream's JSON serializer (runtime/serializer/json
 * meta.go SimpleMetaFactory.Interpret): read apiVersion and kind with the
 * standard library decoder (case-insensitive keys), then parse the group
 * version. Returns the error text, if any.
 */
function interpret(body: unknown): string | undefined {
	const prefix = "couldn't get version/kind; json parse error: json: cannot unmarshal ";
	if (body === null || body === undefined) return undefined;
	if (typeof body !== 'object' || Array.isArray(body)) {
		return `${prefix}${jsonKind(body)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`;
	}
	let apiVersion = '';
	for (const [key, value] of Object.entries(body)) {
		const lower = key.toLowerCase();
		if (lower !== 'kind' && lower !== 'apiversion') continue;
		if (value !== null && typeof value !== 'string') return `${prefix}${jsonKind(value)} into Go struct field .${lower === 'kind' ? 'kind' : 'apiVersion'} of type string`;
		if (lower === 'apiversion') apiVersion = value ?? '';
	}
	if (apiVersion !== '/' && apiVersion.split('/').length > 2) return `unexpected GroupVersion string: ${apiVersion}`;
	return undefined;
}

/**
 * Decodes a request body as the kube-apiserver does for a create of `gvk`
 * with strict field validation (kubectl apply's default since v1.27), and
 * reports what upstream would reject, with its messages. `gvk` is the
 * endpoint's kind (kubectl picks it from the manifest with resolveKind): a
 * body without apiVersion or kind is filled in from it, as upstream does
 * (gvkWithDefaults), so only kubectl complains about those (readTypeMeta).
 *
 * Mirrors apiserver endpoints/handlers/create.go and rest.go
 * (transformDecodeError), apimachinery runtime/serializer/json/json.go and
 * sigs.k8s.io/json. Unknown kinds yield kubectl's REST-mapping error.
 */
export function strictDecode(body: unknown, gvk: GroupVersionKind, options: DecodeOptions = {}): DecodeResult {
	const result: DecodeResult = { errors: [], warnings: [] };
	const key = typeForKind(gvk);
	if (!key) {
		result.errors.push(noKindMatch(gvk.kind, groupVersionString(gvk.group, gvk.version)));
		result.message = result.errors[0];
		return result;
	}
	const badMeta = interpret(body);
	if (badMeta) {
		result.errors.push(badMeta);
		// transformDecodeError without a decoded kind.
		result.message = `the object provided is unrecognized (must be of type ${gvk.kind}): ${badMeta} (${summarize(goJson(body))})`;
		return result;
	}
	const st: State = { strict: [] };
	walk(st, body, { code: 'R', ref: key, go: '' }, '', [], '');
	const failure = st.fatal ?? st.saved;
	const mode = options.fieldValidation ?? 'Strict';
	const unknown = st.strict.map((path) => `unknown field "${path}"`);
	if (failure) result.errors.push(failure);
	else if (mode === 'Strict') result.errors.push(...unknown);
	else if (mode === 'Warn') result.warnings.push(...unknown);
	if (result.errors.length) result.message = decodeErrorMessage(gvk, result.errors);
	return result;
}

/**
 * The API server's message for a body it could not decode (apiserver
 * endpoints/handlers/rest.go transformDecodeError, with
 * runtime.strictDecodingError for unknown fields):
 * `Deployment in version "v1" cannot be handled as a Deployment: strict
 * decoding error: unknown field "spec.replica", unknown field "…"`, or the
 * same prefix with one decoding error (`json: cannot unmarshal …`).
 */
export function decodeErrorMessage(gvk: GroupVersionKind, errors: readonly string[]): string {
	const strict = errors.length > 0 && errors.every((e) => /^(unknown|duplicate) field "/.test(e));
	const detail = strict ? `strict decoding error: ${errors.join(', ')}` : errors[0] ?? '';
	return `${gvk.kind} in version "${gvk.version}" cannot be handled as a ${gvk.kind}: ${detail}`;
}

/**
 * meta.NoKindMatchError's text for one searched version
 * (apimachinery pkg/api/meta/errors.go): what kubectl's REST mapping says of
 * a kind the server does not serve.
 */
export function noKindMatch(kind: string, groupVersion: string): string {
	return `no matches for kind "${kind}" in version "${groupVersion}"`;
}
