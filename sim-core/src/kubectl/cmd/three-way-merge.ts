/**
 * Client-side apply's patch: the three-way strategic merge patch kubectl
 * computes from the last-applied configuration (original), the manifest
 * (modified) and the live object (current). The patch holds every change
 * from current to modified (never deleting what the server or others
 * added), plus the deletions from original to modified (what the user
 * removed from their manifest since the last apply). An empty patch `{}`
 * means "unchanged".
 *
 * Lists whose API field carries `patchStrategy:"merge"` are diffed element
 * by element on their merge key (containers by name, ports by
 * containerPort...), with `$patch: delete` directives for removed elements,
 * `$deleteFromPrimitiveList/<field>` for removed scalars and
 * `$setElementOrder/<field>` to keep the manifest's order; other lists are
 * replaced whole. Fields tagged `retainKeys` get a `$retainKeys` list.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
 * (CreateThreeWayMergePatch, diffMaps, diffLists, mergeMap),
 * staging/src/k8s.io/api/core/v1/types.go (the patchStrategy, patchMergeKey
 * and retainKeys struct tags).
 */
import { compactJson, isJsonObject, jsonClone, jsonEqual, type JsonObject, type JsonValue } from '../../golang/json.ts';

/** A field's patch metadata (its `patchStrategy` and `patchMergeKey` tags). */
interface PatchMeta {
	strategy?: 'merge' | 'replace';
	/** For merge lists of objects; absent for merge lists of scalars (finalizers). */
	mergeKey?: string;
	retainKeys?: boolean;
}

/**
 * The patch metadata of the field at `path` (struct field names from the
 * object's root, list indices left out) in an object of `kind`, from the
 * k8s.io/api v0.36 tags.
 */
export function lookupPatchMeta(path: readonly string[], kind: string): PatchMeta {
	const field = path[path.length - 1];
	const parent = path[path.length - 2];
	const merge = (mergeKey?: string, retainKeys = false): PatchMeta => (mergeKey ? { strategy: 'merge', mergeKey, retainKeys } : { strategy: 'merge', retainKeys });
	switch (field) {
		case 'containers':
		case 'initContainers':
		case 'ephemeralContainers':
		case 'imagePullSecrets':
		case 'schedulingGates':
		case 'env':
			return merge('name');
		case 'volumes':
		case 'resourceClaims':
			return merge('name', true);
		case 'volumeMounts':
			return merge('mountPath');
		case 'volumeDevices':
			return merge('devicePath');
		case 'hostAliases':
			return merge('ip');
		case 'topologySpreadConstraints':
			return merge('topologyKey');
		case 'ports':
			// A Service's ports merge by port, a container's by containerPort.
			return kind === 'Service' && parent === 'spec' && path.length === 2 ? merge('port') : merge('containerPort');
		case 'secrets':
			return kind === 'ServiceAccount' && path.length === 1 ? merge('name') : {};
		case 'ownerReferences':
			return parent === 'metadata' ? merge('uid') : {};
		case 'finalizers':
			return parent === 'metadata' ? merge() : {};
		case 'conditions':
			return parent === 'status' ? merge('type') : {};
		case 'addresses':
			return kind === 'Node' && parent === 'status' ? merge('type') : {};
		case 'strategy':
			// DeploymentSpec.Strategy: patchStrategy:"retainKeys".
			return kind === 'Deployment' && parent === 'spec' && path.length === 2 ? { retainKeys: true } : {};
		case 'selector':
			return kind === 'PodDisruptionBudget' && path.length === 2 ? { strategy: 'replace' } : {};
		default:
			return {};
	}
}

interface DiffOptions {
	ignoreDeletions: boolean;
	ignoreChangesAndAdditions: boolean;
	setElementOrder: boolean;
	buildRetainKeys: boolean;
}

const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';
const RETAIN_KEYS = '$retainKeys';

/** The type of a JSON value, as reflect.TypeOf distinguishes them after json.Unmarshal. */
function typeOf(value: JsonValue): string {
	if (value === null) return 'nil';
	if (Array.isArray(value)) return 'slice';
	return typeof value === 'object' ? 'map' : typeof value;
}

/** Sets a key as data (never touching the prototype chain). */
function put(target: JsonObject, key: string, value: JsonValue): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Go's `fmt.Sprintf("%v")` of a merge key value: how upstream sorts and matches elements. */
function keyString(value: JsonValue | undefined): string {
	if (value === undefined || value === null) return '<nil>';
	return typeof value === 'object' ? compactJson(value) : String(value);
}

function diffMaps(original: JsonObject, modified: JsonObject, path: string[], kind: string, options: DiffOptions): JsonObject {
	const patch: JsonObject = {};
	const retainKeys: string[] = [];
	for (const key of Object.keys(modified)) {
		const modifiedValue = modified[key];
		if (options.buildRetainKeys && modifiedValue !== null) retainKeys.push(key);
		if (!Object.hasOwn(original, key)) {
			if (!options.ignoreChangesAndAdditions) put(patch, key, jsonClone(modifiedValue));
			continue;
		}
		const originalValue = original[key];
		if (typeOf(originalValue) !== typeOf(modifiedValue)) {
			if (!options.ignoreChangesAndAdditions) put(patch, key, jsonClone(modifiedValue));
			continue;
		}
		const childPath = [...path, key];
		if (isJsonObject(originalValue) && isJsonObject(modifiedValue)) {
			const meta = lookupPatchMeta(childPath, kind);
			if (meta.strategy === 'replace') {
				if (!options.ignoreChangesAndAdditions) put(patch, key, jsonClone(modifiedValue));
			} else {
				const sub = diffMaps(originalValue, modifiedValue, childPath, kind, { ...options, buildRetainKeys: !!meta.retainKeys });
				if (Object.keys(sub).length > 0) put(patch, key, sub);
			}
		} else if (Array.isArray(originalValue) && Array.isArray(modifiedValue)) {
			diffSlice(key, originalValue, modifiedValue, patch, childPath, kind, options);
		} else if (!options.ignoreChangesAndAdditions && !jsonEqual(originalValue, modifiedValue)) {
			put(patch, key, jsonClone(modifiedValue));
		}
	}
	// updatePatchIfMissing: keys the user removed become nulls.
	if (!options.ignoreDeletions) for (const key of Object.keys(original)) if (!Object.hasOwn(modified, key)) put(patch, key, null);
	if (retainKeys.length > 0 && (Object.keys(patch).length > 0 || Object.keys(original).some((k) => !Object.hasOwn(modified, k)))) {
		put(patch, RETAIN_KEYS, [...retainKeys].sort());
	}
	return patch;
}

function diffSlice(key: string, original: JsonValue[], modified: JsonValue[], patch: JsonObject, path: string[], kind: string, options: DiffOptions): void {
	const meta = lookupPatchMeta(path, kind);
	if (meta.strategy !== 'merge') {
		if (!options.ignoreChangesAndAdditions && !jsonEqual(original, modified)) put(patch, key, jsonClone(modified));
		return;
	}
	const { add, remove, order } = diffLists(original, modified, path, kind, meta, options);
	if (add.length > 0) put(patch, key, add);
	if (remove.length > 0) put(patch, `${DELETE_FROM_PRIMITIVE_LIST}/${key}`, remove);
	if (order.length > 0) put(patch, `${SET_ELEMENT_ORDER}/${key}`, order);
}

function diffLists(original: JsonValue[], modified: JsonValue[], path: string[], kind: string, meta: PatchMeta, options: DiffOptions): { add: JsonValue[]; remove: JsonValue[]; order: JsonValue[] } {
	if (original.length === 0) {
		if (modified.length === 0 || options.ignoreChangesAndAdditions) return { add: [], remove: [], order: [] };
		return { add: jsonClone(modified), remove: [], order: [] };
	}
	const objects = [...original, ...modified].every(isJsonObject);
	if (objects && meta.mergeKey) {
		const mergeKey = meta.mergeKey;
		const add: JsonValue[] = [];
		const deletions: JsonValue[] = [];
		const byKey = (list: JsonValue[]) => [...(list as JsonObject[])].sort((a, b) => (keyString(a[mergeKey]) < keyString(b[mergeKey]) ? -1 : keyString(a[mergeKey]) > keyString(b[mergeKey]) ? 1 : 0));
		const o = byKey(original);
		const m = byKey(modified);
		let i = 0;
		let j = 0;
		while (i < o.length || j < m.length) {
			const ok = i < o.length ? keyString(o[i][mergeKey]) : undefined;
			const mk = j < m.length ? keyString(m[j][mergeKey]) : undefined;
			if (ok !== undefined && mk !== undefined && ok === mk) {
				const sub = diffMaps(o[i], m[j], path, kind, { ...options, buildRetainKeys: !!meta.retainKeys });
				if (Object.keys(sub).length > 0) {
					put(sub, mergeKey, m[j][mergeKey] ?? null);
					add.push(sub);
				}
				i++;
				j++;
			} else if (ok === undefined || (mk !== undefined && ok > mk)) {
				if (!options.ignoreChangesAndAdditions) add.push(jsonClone(m[j]));
				j++;
			} else {
				if (!options.ignoreDeletions) deletions.push({ $patch: 'delete', [mergeKey]: o[i][mergeKey] ?? null });
				i++;
			}
		}
		// The patch lists elements in the manifest's order, then the deletions.
		const position = (v: JsonValue) => modified.findIndex((e) => isJsonObject(e) && isJsonObject(v) && keyString(e[mergeKey]) === keyString(v[mergeKey]));
		add.sort((a, b) => position(a) - position(b));
		const orderSame = original.length === modified.length && original.every((e, k) => keyString((e as JsonObject)[mergeKey]) === keyString((modified[k] as JsonObject)[mergeKey]));
		const patchList = [...add, ...deletions];
		const wantOrder = options.setElementOrder && ((!options.ignoreChangesAndAdditions && (patchList.length > 0 || !orderSame)) || (!options.ignoreDeletions && patchList.length > 0));
		const order = wantOrder ? modified.map((e) => ({ [mergeKey]: (e as JsonObject)[mergeKey] ?? null })) : [];
		return { add: patchList, remove: [], order };
	}
	// Lists of scalars merged as sets (metadata.finalizers).
	const has = (list: JsonValue[], v: JsonValue) => list.some((e) => jsonEqual(e, v));
	const add = options.ignoreChangesAndAdditions ? [] : modified.filter((v) => !has(original, v));
	const remove = options.ignoreDeletions ? [] : original.filter((v) => !has(modified, v));
	const wantOrder = options.setElementOrder && ((!options.ignoreDeletions && remove.length > 0) || (!options.ignoreChangesAndAdditions && !jsonEqual(original, modified)));
	return { add: jsonClone(add), remove: jsonClone(remove), order: wantOrder ? jsonClone(modified) : [] };
}

/**
 * mergeMap(deletions, delta) with MergeParallelList off: the delta merged
 * into the deletions, directives kept as they are.
 */
function mergePatches(base: JsonObject, patch: JsonObject, path: string[], kind: string): JsonObject {
	const out = jsonClone(base);
	for (const key of Object.keys(patch)) {
		const value = patch[key];
		const existing = out[key];
		if (key.startsWith('$') || !Object.hasOwn(out, key) || value === null || existing === null) {
			put(out, key, jsonClone(value));
			continue;
		}
		const childPath = [...path, key];
		if (isJsonObject(existing) && isJsonObject(value)) {
			put(out, key, mergePatches(existing, value, childPath, kind));
		} else if (Array.isArray(existing) && Array.isArray(value)) {
			const meta = lookupPatchMeta(childPath, kind);
			if (meta.strategy === 'merge' && meta.mergeKey) {
				const mergeKey = meta.mergeKey;
				const merged = jsonClone(existing);
				for (const element of value) {
					const at = merged.findIndex((e) => isJsonObject(e) && isJsonObject(element) && keyString(e[mergeKey]) === keyString(element[mergeKey]));
					if (at >= 0 && isJsonObject(merged[at]) && isJsonObject(element)) merged[at] = mergePatches(merged[at] as JsonObject, element, childPath, kind);
					else merged.push(jsonClone(element));
				}
				put(out, key, merged);
			} else if (meta.strategy === 'merge') {
				put(out, key, [...existing, ...value.filter((v) => !existing.some((e) => jsonEqual(e, v)))]);
			} else put(out, key, jsonClone(value));
		} else put(out, key, jsonClone(value));
	}
	return out;
}

/**
 * strategicpatch.CreateThreeWayMergePatch(original, modified, current,
 * overwrite=true), as `kubectl apply` calls it. `original` is the parsed
 * last-applied configuration, or undefined when the object has none.
 */
export function createThreeWayMergePatch(original: JsonObject | undefined, modified: JsonObject, current: JsonObject, kind: string): JsonObject {
	const delta = diffMaps(current, modified, [], kind, { ignoreDeletions: true, ignoreChangesAndAdditions: false, setElementOrder: true, buildRetainKeys: false });
	const deletions = diffMaps(original ?? {}, modified, [], kind, { ignoreDeletions: false, ignoreChangesAndAdditions: true, setElementOrder: true, buildRetainKeys: false });
	return mergePatches(deletions, delta, [], kind);
}
