/**
 * The four walks server-side apply makes over objects, each guided by the
 * merge schema (./merge-schema.ts):
 * - fieldSetOf: the fields an apply configuration sets (what its manager
 *   will own);
 * - compare: which fields one write added, modified and removed (what an
 *   update takes over, and where an apply conflicts);
 * - merge: an apply configuration laid over the live object (scalars and
 *   atomic parts replaced, structs and maps merged by key, keyed lists and
 *   sets merged by item, keeping the order of both sides);
 * - removeFields: a manager's dropped fields taken out of the object.
 *
 * Values are plain JSON. `undefined` is an absent field (Go's nil value in
 * SMD); `null` is a present null.
 *
 * Mirrors kubernetes-sigs/structured-merge-diff typed/tofieldset.go,
 * typed/compare.go (Comparison, the leaf rule and the "empty counts as a
 * leaf" rule), typed/merge.go (the item order of merged lists),
 * typed/remove.go.
 */
import { FieldSet } from './field-set.ts';
import { childType, isAtomic, itemElement, type MergeType } from './merge-schema.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const emptyish = (v: unknown) => v === undefined || v === null || (isObj(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0);

/** A struct's field or a map's key: `f:name`. */
export const field = (name: string) => 'f:' + name;

/** The fields a configuration sets: its scalars, atomic parts, list items, map keys, and empty or null fields. */
export function fieldSetOf(value: unknown, type: MergeType): FieldSet {
	const set = new FieldSet();
	walkSet(value, type, [], set);
	return set;
}

function walkSet(value: unknown, type: MergeType, path: string[], set: FieldSet): void {
	if (isAtomic(type)) {
		set.insert(path);
		return;
	}
	if (type.kind === 'list') {
		if (!Array.isArray(value)) return set.insert(path);
		for (const item of value) {
			const pe = itemElement(type, item);
			if (!pe) continue;
			set.insert([...path, pe]);
			walkSet(item, type.item, [...path, pe], set);
		}
		return;
	}
	if (!isObj(value)) {
		// Untyped scalars and lists are leaves.
		set.insert(path);
		return;
	}
	const freeKeys = type.kind === 'map' || type.kind === 'untyped';
	for (const [key, child] of Object.entries(value)) {
		if (child === undefined) continue;
		const childPath = [...path, field(key)];
		if (child === null || (isObj(child) && Object.keys(child).length === 0) || freeKeys) set.insert(childPath);
		walkSet(child, childType(type, key), childPath, set);
	}
}

/** What changed from `lhs` to `rhs`, path by path. */
export interface Comparison {
	readonly added: FieldSet;
	readonly modified: FieldSet;
	readonly removed: FieldSet;
}

export function compare(lhs: unknown, rhs: unknown, type: MergeType): Comparison {
	const out: Comparison = { added: new FieldSet(), modified: new FieldSet(), removed: new FieldSet() };
	walkCompare(lhs, rhs, type, [], out);
	return out;
}

/** `path` is one stack shared by the whole walk (pushed and popped), so comparing allocates no path arrays. */
function walkCompare(lhs: unknown, rhs: unknown, type: MergeType, path: string[], out: Comparison): void {
	const leaf = isAtomic(type) || (type.kind !== 'scalar' && emptyish(lhs) && emptyish(rhs)) || (type.kind === 'untyped' && !(isObj(lhs) || isObj(rhs)));
	if (leaf) {
		if (lhs === undefined) out.added.insert(path);
		else if (rhs === undefined) out.removed.insert(path);
		else if (lhs !== rhs && JSON.stringify(lhs) !== JSON.stringify(rhs)) out.modified.insert(path);
		return;
	}
	if (type.kind === 'list') {
		const left = indexItems(type, lhs);
		const right = indexItems(type, rhs);
		for (const pe of new Set([...left.keys(), ...right.keys()])) {
			path.push(pe);
			walkCompare(left.get(pe), right.get(pe), type.item, path, out);
			path.pop();
		}
	} else {
		const l = isObj(lhs) ? lhs : {};
		const r = isObj(rhs) ? rhs : {};
		const visit = (key: string) => {
			if (l[key] === undefined && r[key] === undefined) return;
			path.push(field(key));
			walkCompare(l[key], r[key], childType(type, key), path, out);
			path.pop();
		};
		for (const key of Object.keys(l)) visit(key);
		for (const key of Object.keys(r)) if (!Object.hasOwn(l, key)) visit(key);
	}
	if (path.length === 0) return;
	if (lhs === undefined) out.added.insert(path);
	else if (rhs === undefined) out.removed.insert(path);
}

/** A list's items by path element; the first of duplicate items wins. */
function indexItems(type: MergeType & { kind: 'list' }, list: unknown): Map<string, unknown> {
	const items = new Map<string, unknown>();
	if (!Array.isArray(list)) return items;
	for (const item of list) {
		const pe = itemElement(type, item);
		if (pe && !items.has(pe)) items.set(pe, item);
	}
	return items;
}

/** `config` laid over `live`: what an apply produces before pruning. */
export function merge(live: unknown, config: unknown, type: MergeType): unknown {
	if (config === undefined) return structuredClone(live);
	if (live === undefined || isAtomic(type) || config === null) return structuredClone(config);
	if (type.kind === 'list') {
		if (!Array.isArray(live) || !Array.isArray(config)) return structuredClone(config);
		return mergeItems(type, live, config);
	}
	if (!isObj(live) || !isObj(config)) return structuredClone(config);
	const out: Obj = structuredClone(live);
	for (const [key, value] of Object.entries(config)) {
		if (value === undefined) continue;
		out[key] = merge(live[key], value, childType(type, key));
	}
	return out;
}

/**
 * A keyed list or set merged item by item. Items only in the live list keep
 * their place; shared items follow the configuration's order; new items
 * come where the configuration puts them (the walk of SMD's
 * mergingWalker.visitListItems).
 */
function mergeItems(type: MergeType & { kind: 'list' }, live: unknown[], config: unknown[]): unknown[] {
	const lhsPes = live.map((item) => itemElement(type, item));
	const rhsPes = config.map((item) => itemElement(type, item));
	const lhsAt = new Map<string, unknown>();
	lhsPes.forEach((pe, i) => pe && !lhsAt.has(pe) && lhsAt.set(pe, live[i]));
	const rhsAt = new Map<string, unknown>();
	rhsPes.forEach((pe, i) => pe && !rhsAt.has(pe) && rhsAt.set(pe, config[i]));
	// The items both sides hold, in the configuration's order: the one to meet next is `shared[next]`.
	const shared = rhsPes.filter((pe): pe is string => !!pe && lhsAt.has(pe));
	let next = 0;
	const mergedRhs = new Set<string>();
	const out: unknown[] = [];
	const takeRhs = (pe: string) => {
		mergedRhs.add(pe);
		out.push(merge(lhsAt.get(pe), rhsAt.get(pe), type.item));
		if (shared[next] === pe) next++;
	};
	let l = 0;
	let r = 0;
	while (l < live.length || r < config.length) {
		if (l < live.length && r < config.length) {
			const pe = lhsPes[l];
			if (pe && pe === rhsPes[r]) {
				if (!mergedRhs.has(pe)) takeRhs(pe);
				l++;
				r++;
				continue;
			}
			// A shared item met out of the configuration's order waits for its turn.
			if (pe && rhsAt.has(pe) && next < shared.length && shared[next] !== pe) {
				l++;
				continue;
			}
		}
		if (l < live.length) {
			const pe = lhsPes[l];
			if (!pe || !rhsAt.has(pe)) {
				out.push(structuredClone(live[l]));
				l++;
				continue;
			}
			if (mergedRhs.has(pe)) l++;
		}
		if (r < config.length) {
			const pe = rhsPes[r];
			if (pe && !mergedRhs.has(pe)) takeRhs(pe);
			else if (!pe) out.push(structuredClone(config[r]));
			r++;
		}
	}
	return out;
}

/**
 * `value` without the paths of `remove`, except where `keep` still holds
 * something at or below them. Structs left empty by a removal go too, as
 * SMD's prune drops a named field nobody owns any more.
 */
export function removeFields(value: unknown, type: MergeType, remove: FieldSet, keep: FieldSet): unknown {
	return walkRemove(structuredClone(value), type, [], remove, keep);
}

function walkRemove(value: unknown, type: MergeType, path: string[], remove: FieldSet, keep: FieldSet): unknown {
	if (type.kind === 'list') {
		if (!Array.isArray(value) || isAtomic(type)) return value;
		const out: unknown[] = [];
		for (const item of value) {
			const pe = itemElement(type, item);
			if (!pe) {
				out.push(item);
				continue;
			}
			const itemPath = [...path, pe];
			if (remove.has(itemPath) && !keep.touches(itemPath)) continue;
			out.push(remove.touches(itemPath) ? walkRemove(item, type.item, itemPath, remove, keep) : item);
		}
		return out;
	}
	if (!isObj(value) || isAtomic(type)) return value;
	for (const key of Object.keys(value)) {
		const childPath = [...path, field(key)];
		if (!remove.touches(childPath)) continue;
		if (remove.has(childPath) && !keep.touches(childPath)) {
			delete value[key];
			continue;
		}
		const childT = childType(type, key);
		const before = value[key];
		const after = walkRemove(before, childT, childPath, remove, keep);
		const emptied = isObj(after) && Object.keys(after).length === 0 && isObj(before) && !keep.touches(childPath);
		if (emptied && type.kind !== 'map') delete value[key];
		else value[key] = after;
	}
	return value;
}
