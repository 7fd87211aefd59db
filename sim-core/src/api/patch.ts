/**
 * The three patch formats the API server accepts on PATCH:
 *
 * - JSON merge patch (RFC 7386): maps merge, `null` deletes, lists replace.
 * - Strategic merge patch (Kubernetes' own, k8s.io/apimachinery/pkg/util/
 *   strategicpatch): like a merge patch, but lists that carry a merge key in
 *   the API types (containers by `name`, volumes by `name`, ports by
 *   `containerPort`, conditions by `type`...) are merged element by element,
 *   and `$patch: delete | replace` directives are understood. kubectl uses it
 *   for apply, label, set image, rollout restart, cordon...
 * - JSON patch (RFC 6902): a list of add/remove/replace/move/copy/test
 *   operations on JSON pointers.
 *
 * Mirrors evanphx/json-patch merge.go (JSON merge patch),
 * staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go
 * (strategic merge patch), evanphx/json-patch patch.go (JSON patch).
 */
import type { PatchType } from './request.ts';
import { deepCopy } from '../golang/json.ts';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sets a key without ever touching the prototype chain. */
function setKey(target: JsonObject, key: string, value: Json): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** RFC 7386. */
function mergePatch(target: Json, patch: Json): Json {
	if (!isObject(patch)) return deepCopy(patch);
	const result: JsonObject = isObject(target) ? deepCopy(target) : {};
	for (const [key, value] of Object.entries(patch)) {
		if (value === null) delete result[key];
		else setKey(result, key, mergePatch(result[key] ?? null, value));
	}
	return result;
}

/**
 * The merge key of a list field, by the field's name and where it sits, as
 * the `patchMergeKey` struct tags of k8s.io/api declare. `primitive` marks
 * lists of scalars merged as sets (e.g. metadata.finalizers).
 */
function mergeKeyFor(path: string[], kind: string): string | 'primitive' | undefined {
	const field = path[path.length - 1];
	const parent = path[path.length - 2];
	switch (field) {
		case 'containers':
		case 'initContainers':
		case 'ephemeralContainers':
		case 'volumes':
		case 'env':
		case 'imagePullSecrets':
		case 'resourceClaims':
		case 'schedulingGates':
			return 'name';
		case 'volumeMounts':
			return 'mountPath';
		case 'volumeDevices':
			return 'devicePath';
		case 'ports':
			// Container ports merge by containerPort; a Service's by port.
			return parent === 'spec' && kind === 'Service' ? 'port' : 'containerPort';
		case 'ownerReferences':
			return 'uid';
		case 'conditions':
		case 'addresses':
			return 'type';
		case 'hostAliases':
			return 'ip';
		case 'topologySpreadConstraints':
			return 'topologyKey';
		case 'finalizers':
			return 'primitive';
		default:
			return undefined;
	}
}

function strategicMerge(target: Json, patch: Json, path: string[], kind: string): Json {
	if (!isObject(patch)) return deepCopy(patch);
	if (patch.$patch === 'replace') {
		const { $patch: _ignored, ...rest } = patch;
		void _ignored;
		return deepCopy(rest) as Json;
	}
	if (patch.$patch === 'delete') return null;
	const result: JsonObject = isObject(target) ? deepCopy(target) : {};
	for (const [key, value] of Object.entries(patch)) {
		if (key.startsWith('$setElementOrder/') || key === '$retainKeys' || key === '$patch') continue;
		if (key.startsWith('$deleteFromPrimitiveList/')) {
			const field = key.slice('$deleteFromPrimitiveList/'.length);
			const current = result[field];
			if (Array.isArray(current) && Array.isArray(value)) {
				const left = current.filter((v) => !value.includes(v));
				// An emptied list is gone from the stored object, as Go's omitempty drops it (finalizers: the last one removed).
				if (left.length) setKey(result, field, left);
				else delete result[field];
			}
			continue;
		}
		if (value === null) {
			delete result[key];
			continue;
		}
		const childPath = [...path, key];
		const current = result[key];
		if (Array.isArray(value)) {
			const mergeKey = mergeKeyFor(childPath, kind);
			if (mergeKey === 'primitive') {
				const merged = Array.isArray(current) ? [...current] : [];
				for (const v of value) if (!merged.some((m) => JSON.stringify(m) === JSON.stringify(v))) merged.push(deepCopy(v));
				setKey(result, key, merged);
			} else if (mergeKey && Array.isArray(current)) {
				const merged = mergeList(current, value, mergeKey, childPath, kind);
				// Emptied by `$patch: delete` (an owner reference released): omitempty drops it on the way back to JSON.
				if (merged.length === 0 && current.length > 0) delete result[key];
				else setKey(result, key, merged);
			} else {
				setKey(result, key, value.filter((v) => !(isObject(v) && v.$patch === 'delete')).map((v) => deepCopy(v)));
			}
		} else if (isObject(value)) {
			setKey(result, key, strategicMerge(current ?? null, value, childPath, kind));
		} else {
			setKey(result, key, value);
		}
	}
	return result;
}

function mergeList(current: Json[], patch: Json[], mergeKey: string, path: string[], kind: string): Json[] {
	const result = current.map((v) => deepCopy(v));
	for (const item of patch) {
		if (!isObject(item)) {
			result.push(deepCopy(item));
			continue;
		}
		const index = result.findIndex((existing) => isObject(existing) && existing[mergeKey] === item[mergeKey]);
		if (item.$patch === 'delete') {
			if (index >= 0) result.splice(index, 1);
			continue;
		}
		if (index >= 0) result[index] = strategicMerge(result[index], item, path, kind);
		else result.push(strategicMerge(null, item, path, kind));
	}
	return result;
}

/** Kubernetes strategic merge patch for an object of `kind`. */
function strategicMergePatch(target: Json, patch: Json, kind: string): Json {
	return strategicMerge(target, patch, [], kind);
}

/** Decodes one RFC 6901 pointer into path tokens. */
function pointerTokens(pointer: string): string[] {
	if (pointer === '') return [];
	if (!pointer.startsWith('/')) throw new Error(`invalid JSON pointer ${JSON.stringify(pointer)}`);
	return pointer
		.slice(1)
		.split('/')
		.map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolveParent(doc: Json, tokens: string[]): { parent: Json; key: string } {
	let node = doc;
	for (const token of tokens.slice(0, -1)) {
		if (Array.isArray(node)) node = node[Number(token)];
		else if (isObject(node)) node = node[token];
		else node = undefined as unknown as Json;
		if (node === undefined) throw new Error(`doc is missing path: /${tokens.join('/')}`);
	}
	return { parent: node, key: tokens[tokens.length - 1] };
}

function getAt(doc: Json, pointer: string): Json {
	let node: Json | undefined = doc;
	for (const token of pointerTokens(pointer)) {
		node = Array.isArray(node) ? node[Number(token)] : isObject(node) ? node[token] : undefined;
		if (node === undefined) throw new Error(`doc is missing path: ${pointer}`);
	}
	return node;
}

/** RFC 6902. */
function jsonPatch(target: Json, operations: Json): Json {
	if (!Array.isArray(operations)) throw new Error('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
	let doc = deepCopy(target);
	for (const raw of operations) {
		if (!isObject(raw)) throw new Error('json: cannot unmarshal into Go value of type jsonpatch.Operation');
		const op = String(raw.op);
		const path = String(raw.path ?? '');
		const tokens = pointerTokens(path);
		const value = deepCopy(raw.value);
		if (op === 'test') {
			if (JSON.stringify(getAt(doc, path)) !== JSON.stringify(value)) throw new Error(`testing value ${path} failed`);
			continue;
		}
		if (op === 'move' || op === 'copy') {
			const from = String(raw.from ?? '');
			const moved = deepCopy(getAt(doc, from));
			if (op === 'move') doc = jsonPatch(doc, [{ op: 'remove', path: from }]);
			doc = jsonPatch(doc, [{ op: 'add', path, value: moved }]);
			continue;
		}
		if (tokens.length === 0) {
			if (op === 'remove') throw new Error('unable to remove the document root');
			doc = value;
			continue;
		}
		const { parent, key } = resolveParent(doc, tokens);
		if (Array.isArray(parent)) {
			const index = key === '-' ? parent.length : Number(key);
			if (!Number.isInteger(index) || index < 0 || index > parent.length) throw new Error(`Unable to access invalid index: ${key}`);
			if (op === 'add') parent.splice(index, 0, value);
			else if (op === 'remove') {
				if (index >= parent.length) throw new Error(`Unable to remove nonexistent key: ${key}: missing value`);
				parent.splice(index, 1);
			} else if (op === 'replace') {
				if (index >= parent.length) throw new Error(`replace operation does not apply: doc is missing key: ${path}: missing value`);
				parent[index] = value;
			} else throw new Error(`Unexpected kind: ${op}`);
		} else if (isObject(parent)) {
			if (op === 'add') setKey(parent, key, value);
			else if (op === 'remove') {
				if (!(key in parent)) throw new Error(`Unable to remove nonexistent key: ${key}: missing value`);
				delete parent[key];
			} else if (op === 'replace') {
				if (!(key in parent)) throw new Error(`replace operation does not apply: doc is missing key: ${path}: missing value`);
				setKey(parent, key, value);
			} else throw new Error(`Unexpected kind: ${op}`);
		} else {
			throw new Error(`doc is missing path: ${path}`);
		}
	}
	return doc;
}

/** Applies a patch of the given type; returns the new object or an error message. */
export function applyPatch(target: unknown, patch: unknown, type: PatchType, kind: string): { value: unknown } | { error: string } {
	let body = patch;
	if (typeof body === 'string') {
		try {
			body = JSON.parse(body);
		} catch {
			return { error: 'invalid JSON in the patch' };
		}
	}
	try {
		switch (type) {
			case 'application/merge-patch+json':
				return { value: mergePatch(target as Json, body as Json) };
			case 'application/strategic-merge-patch+json':
				return { value: strategicMergePatch(target as Json, body as Json, kind) };
			case 'application/json-patch+json':
				return { value: jsonPatch(target as Json, body as Json) };
			default:
				return { error: `the server does not support patch type ${type} in this simulation` };
		}
	} catch (error) {
		return { error: error instanceof Error ? error.message : String(error) };
	}
}
