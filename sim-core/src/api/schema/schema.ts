/**
 * The compact field schema of the simulated API types, expanded lazily.
 *
 * The data (types.generated.ts) is one line per type, written by
 * generate.mjs from the upstream OpenAPI document:
 *
 *     TypeKey field field …
 *     field := name ['!'] [':' type]        no type means string; '!' means required
 *     type  := base ['@' GoName]            GoName overrides the Go type name
 *     base  := '[' type ']'                 array
 *            | '{' ['@' GoName ','] type '}' map from string (or a named key type)
 *            | Ref                           a struct type: another TypeKey
 *            | s i l n b y q o t u x         scalars, see ScalarCode
 *
 * A GoName without a dot lives in package v1 (`@PullPolicy` is
 * `v1.PullPolicy`). Type keys are Go struct names, with `_<group>` appended
 * where two groups share a name (`Event_events` is events.k8s.io/v1 Event).
 *
 * Parsing the whole table up front would cost the browser ~1 ms and a few
 * hundred kilobytes it rarely needs; each type is expanded on first use.
 *
 * Mirrors api/openapi-spec/swagger.json (the data generate.mjs compacts).
 */

import { KIND_LIST, TYPE_LINES } from './types.generated.ts';
import { EXTRA_KIND_LIST, EXTRA_TYPE_LINES } from './types.autoscaling.ts';

/**
 * The leaf codes of the schema, one per way the API server's JSON decoder
 * treats a value:
 * `s` string, `i` int32, `l` int64, `n` float64, `b` bool,
 * `y` []byte (base64 string), `q` resource.Quantity (string or number),
 * `o` intstr.IntOrString, `t` metav1.Time (RFC 3339 string),
 * `u` metav1.MicroTime (RFC 3339 with microseconds), `x` free-form
 * (runtime.RawExtension, metav1.FieldsV1: anything goes).
 */
export type ScalarCode = 's' | 'i' | 'l' | 'n' | 'b' | 'y' | 'q' | 'o' | 't' | 'u' | 'x';

/**
 * The type of one field, or of an array element or map value. Mirrors the
 * OpenAPI property schema it came from, plus the Go type name that upstream
 * error messages quote.
 */
export interface FieldType {
	/** A scalar code, `[` for an array, `{` for a map, or `R` for a struct. */
	readonly code: ScalarCode | '[' | '{' | 'R';
	/** Element type of an array or value type of a map. */
	readonly elem?: FieldType;
	/** Type key of a struct (`R`). */
	readonly ref?: string;
	/** The Go type as reflect prints it (`int32`, `[]v1.Container`, `v1.ResourceList`). */
	readonly go: string;
}

/** One field of an API type: its JSON name, type and whether the OpenAPI document marks it required. */
export interface FieldSchema {
	readonly name: string;
	readonly type: FieldType;
	readonly required: boolean;
}

/** One API type (a Go struct upstream, an OpenAPI definition in the spec). */
export interface TypeSchema {
	/** The key in this schema (`PodSpec`, `Event_events`). */
	readonly key: string;
	/** The Go struct name, as upstream decode errors print it (`Go struct field PodSpec.…`). */
	readonly goName: string;
	/** Fields by JSON name, in alphabetical order. */
	readonly fields: ReadonlyMap<string, FieldSchema>;
}

const SCALAR_GO: Record<ScalarCode, string> = {
	s: 'string',
	i: 'int32',
	l: 'int64',
	n: 'float64',
	b: 'bool',
	y: '[]uint8',
	q: 'resource.Quantity',
	o: 'intstr.IntOrString',
	t: 'v1.Time',
	u: 'v1.MicroTime',
	x: 'runtime.RawExtension',
};

let rawLines: Map<string, string> | undefined;
const parsed = new Map<string, TypeSchema>();

function lines(): Map<string, string> {
	if (!rawLines) {
		rawLines = new Map();
		for (const line of `${TYPE_LINES}\n${EXTRA_TYPE_LINES}`.split('\n')) {
			const space = line.indexOf(' ');
			rawLines.set(space < 0 ? line : line.slice(0, space), line);
		}
	}
	return rawLines;
}

const goOf = (name: string): string => (name.includes('.') ? name : 'v1.' + name);

/** Reads one type expression starting at `at`; returns it and where it ended. */
function parseType(text: string, at: number): [FieldType, number] {
	const c = text[at];
	let type: FieldType;
	let end: number;
	if (c === '[' || c === '{') {
		let key = 'string';
		let i = at + 1;
		if (c === '{' && text[i] === '@') {
			const comma = text.indexOf(',', i);
			key = goOf(text.slice(i + 1, comma));
			i = comma + 1;
		}
		const [elem, after] = parseType(text, i);
		type = { code: c, elem, go: c === '[' ? '[]' + elem.go : `map[${key}]${elem.go}` };
		end = after + 1; // the closing bracket
	} else if (c >= 'A' && c <= 'Z') {
		end = at;
		while (end < text.length && /\w/.test(text[end])) end++;
		const ref = text.slice(at, end);
		type = { code: 'R', ref, go: 'v1.' + ref.replace(/_.*/, '') };
	} else {
		type = { code: c as ScalarCode, go: SCALAR_GO[c as ScalarCode] };
		end = at + 1;
	}
	if (text[end] === '@') {
		let stop = end + 1;
		while (stop < text.length && /[\w.]/.test(text[stop])) stop++;
		type = { ...type, go: goOf(text.slice(end + 1, stop)) };
		end = stop;
	}
	return [type, end];
}

const STRING: FieldType = { code: 's', go: 'string' };

/**
 * The schema of one API type by key (`PodSpec`, `ObjectMeta`,
 * `Event_events`), or undefined when the simulator has no such type.
 */
export function typeSchema(key: string): TypeSchema | undefined {
	const cached = parsed.get(key);
	if (cached) return cached;
	const line = lines().get(key);
	if (line === undefined) return undefined;
	const fields = new Map<string, FieldSchema>();
	for (const word of line.split(' ').slice(1)) {
		const colon = word.indexOf(':');
		let name = colon < 0 ? word : word.slice(0, colon);
		const required = name.endsWith('!');
		if (required) name = name.slice(0, -1);
		fields.set(name, { name, required, type: colon < 0 ? STRING : parseType(word, colon + 1)[0] });
	}
	const schema: TypeSchema = { key, goName: key.replace(/_.*/, ''), fields };
	parsed.set(key, schema);
	return schema;
}

/** Every type key in the schema, sorted. */
export function typeKeys(): string[] {
	return [...lines().keys()].sort();
}

/**
 * An API group, version and kind, as in apimachinery's
 * schema.GroupVersionKind (k8s.io/apimachinery/pkg/runtime/schema).
 * The core group is the empty string.
 */
export interface GroupVersionKind {
	readonly group: string;
	readonly version: string;
	readonly kind: string;
}

/** `apps/v1`, or `v1` for the core group: GroupVersion.String() upstream. */
export function groupVersionString(group: string, version: string): string {
	return group ? `${group}/${version}` : version;
}

let kindTable: Map<string, string> | undefined;

/**
 * The type key that decodes a kind (`Deployment` for apps/v1 Deployment,
 * `Event_events` for events.k8s.io/v1 Event), or undefined when the
 * simulator has no schema for it. Data from the upstream
 * `x-kubernetes-group-version-kind` extensions.
 */
export function typeForKind(gvk: GroupVersionKind): string | undefined {
	if (!kindTable) {
		kindTable = new Map();
		for (const entry of `${KIND_LIST} ${EXTRA_KIND_LIST}`.split(' ')) {
			const [gvkText, key] = entry.split('=');
			kindTable.set(gvkText, key ?? gvkText.slice(gvkText.lastIndexOf('/') + 1));
		}
	}
	return kindTable.get(`${groupVersionString(gvk.group, gvk.version)}/${gvk.kind}`);
}
