/**
 * Turning parsed nodes into plain JS values the way go-yaml's decode.go does
 * for sigs.k8s.io/yaml: typing scalars by tag or content, copying alias
 * targets, applying merge keys, and turning map keys into JSON strings.
 *
 * Mirrors yaml/go-yaml decode.go, kubernetes-sigs/yaml yaml.go
 * (convertToJSONableObject).
 */
import type { YamlLimits } from './limits.ts';
import { formatGoFloat, resolvePlain, type Resolved } from './resolve.ts';
import { failAt, type Token } from './tokens.ts';

export type Obj = Record<string, unknown>;
const isMap = (x: unknown): x is Obj => x !== null && typeof x === 'object' && !Array.isArray(x);
const RESOLVED_TAGS = ['!!null', '!!bool', '!!int', '!!float', '!!timestamp'];

/** The keys a mapping set itself; tracked only once a merge key has copied others in. */
export interface MapKeys {
	keys?: Set<string>;
}

/** Types a scalar token: by its tag when it has one, by its content when it is plain. */
export function decodeScalar(t: Token, tag: string | undefined): Resolved {
	const s = t.v;
	if (tag === undefined) return !t.plain ? ['str', s] : s === '<<' ? ['merge', s] : resolvePlain(s);
	if (tag === '!!merge') return ['merge', s];
	// !!str, !!binary (kept as its base64 text) and any other tag leave the text alone, as go-yaml does.
	if (!RESOLVED_TAGS.includes(tag)) return ['str', s];
	const r = resolvePlain(s);
	if (r[0] === tag.slice(2)) return r;
	if (tag === '!!float' && r[0] === 'int') return ['float', r[1]];
	return failAt(`cannot decode !!${r[0]} \`${s}\` as a ${tag}`, t);
}

/** Deep-copies an alias target placed at depth `d`, so aliases never share objects and still obey `maxDepth`. */
export function copyAlias(v: unknown, d: number, at: Token, lim: YamlLimits): unknown {
	if (v === null || typeof v !== 'object') return v;
	if (++d > lim.maxDepth) failAt(`exceeded max depth of ${lim.maxDepth}`, at);
	if (Array.isArray(v)) return v.map((x) => copyAlias(x, d, at, lim));
	const o: Obj = {};
	for (const k of Object.keys(v)) o[k] = copyAlias((v as Obj)[k], d, at, lim);
	return o;
}

/** Applies a merge key's value (a map or a sequence of maps) to `obj` where it appears, as go-yaml v2 does. */
export function mergeInto(obj: Obj, v: unknown, explicit: MapKeys, kt: Token): void {
	const sources = Array.isArray(v) ? [...v].reverse() : [v]; // earlier maps win
	explicit.keys ??= new Set(Object.keys(obj));
	for (const m of sources) {
		if (!isMap(m)) failAt('map merge requires map or sequence of maps as the value', kt);
		for (const k of Object.keys(m)) obj[k] = m[k];
	}
}

/** Sets `key: value` in `obj`; `r` is the typing of the key's scalar, `kt` its first token. */
export function setPair(obj: Obj, kv: unknown, r: Resolved | undefined, v: unknown, explicit: MapKeys, kt: Token): void {
	if (kv === null) failAt('null mapping keys are not supported', kt);
	if (typeof kv === 'object') failAt('complex (non-scalar) mapping keys are not supported', kt);
	// sigs.k8s.io/yaml turns every key into a JSON string: ints in decimal, floats as float32 text.
	const key =
		typeof kv === 'number'
			? r?.[2] !== undefined
				? String(r[2])
				: r?.[0] === 'int' || (!r && Number.isInteger(kv))
					? String(kv)
					: formatGoFloat(kv, true)
			: String(kv);
	if (key === '__proto__') failAt('key "__proto__" is not allowed', kt);
	if (explicit.keys ? explicit.keys.has(key) : Object.hasOwn(obj, key)) failAt(`key ${JSON.stringify(key)} already set in map`, kt);
	explicit.keys?.add(key);
	obj[key] = v;
}
