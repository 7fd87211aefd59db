/**
 * Sets of field paths: what one field manager owns in an object. A path is
 * a list of path elements, each written the way metadata.managedFields
 * writes it: `f:name` (a field of a struct or a key of a map), `k:{...}`
 * (an item of a list keyed by some of its fields, the key as JSON with
 * sorted names), `v:<json>` (an item of a list used as a set), `i:N` (an
 * item by index, for lists without keys).
 *
 * A set is a tree: each node knows which of its children are members
 * themselves (the paths a manager owns) and which have members below them.
 * Serialized as FieldsV1, a member with nothing below it is `{}`, and a
 * member with children carries `".": {}` beside them.
 *
 * Mirrors kubernetes-sigs/structured-merge-diff fieldpath/set.go (Set, Insert,
 * Union, Difference, Intersection), fieldpath/element.go (PathElement and
 * its string form), fieldpath/serialize.go (FieldsV1), fieldpath/path.go
 * (Path.String, as conflict messages print paths).
 */
import { compareGoStrings } from '../../golang/json.ts';

/** One path element in its FieldsV1 spelling (`f:spec`, `k:{"name":"web"}`, `v:"a"`, `i:0`). */
export type PathElement = string;
export type FieldPath = readonly PathElement[];

/** A set of field paths, as one manager's entry in metadata.managedFields holds it. */
export class FieldSet {
	/** Children that are members of the set themselves. */
	readonly members = new Set<PathElement>();
	/** Children with members below them. */
	readonly children = new Map<PathElement, FieldSet>();

	insert(path: FieldPath): void {
		if (path.length === 0) return;
		this.nodeAt(path, true)!.members.add(path[path.length - 1]);
	}

	has(path: FieldPath): boolean {
		const node = this.nodeAt(path, false);
		return !!node && path.length > 0 && node.members.has(path[path.length - 1]);
	}

	/** True when the set holds `path` or anything below it. */
	touches(path: FieldPath): boolean {
		if (path.length === 0) return !this.empty();
		const node = this.nodeAt(path, false);
		if (!node) return false;
		const last = path[path.length - 1];
		return node.members.has(last) || !!node.children.get(last)?.nonEmpty();
	}

	empty(): boolean {
		if (this.members.size) return false;
		for (const child of this.children.values()) if (!child.empty()) return false;
		return true;
	}

	nonEmpty(): boolean {
		return !this.empty();
	}

	union(other: FieldSet): FieldSet {
		const out = this.copy();
		out.addAll(other);
		return out;
	}

	difference(other: FieldSet): FieldSet {
		const out = new FieldSet();
		for (const pe of this.members) if (!other.members.has(pe)) out.members.add(pe);
		for (const [pe, child] of this.children) {
			const theirs = other.children.get(pe);
			const rest = theirs ? child.difference(theirs) : child.copy();
			if (!rest.empty()) out.children.set(pe, rest);
		}
		return out;
	}

	intersection(other: FieldSet): FieldSet {
		const out = new FieldSet();
		for (const pe of this.members) if (other.members.has(pe)) out.members.add(pe);
		for (const [pe, child] of this.children) {
			const theirs = other.children.get(pe);
			if (!theirs) continue;
			const both = child.intersection(theirs);
			if (!both.empty()) out.children.set(pe, both);
		}
		return out;
	}

	copy(): FieldSet {
		const out = new FieldSet();
		out.addAll(this);
		return out;
	}

	/** Every member path, in sorted order (as SMD's Set.Iterate visits them). */
	paths(): FieldPath[] {
		const out: FieldPath[] = [];
		const walk = (node: FieldSet, prefix: PathElement[]) => {
			for (const pe of [...new Set([...node.members, ...node.children.keys()])].sort(compareGoStrings)) {
				if (node.members.has(pe)) out.push([...prefix, pe]);
				const child = node.children.get(pe);
				if (child) walk(child, [...prefix, pe]);
			}
		};
		walk(this, []);
		return out;
	}

	/** The FieldsV1 form: nested objects keyed by path element, `"."` marking a member that has children. */
	toFieldsV1(): Record<string, unknown> {
		const out: Record<string, unknown> = {};
		for (const pe of [...new Set([...this.members, ...this.children.keys()])].sort(compareGoStrings)) {
			const child = this.children.get(pe);
			if (child && !child.empty()) {
				const inner = child.toFieldsV1();
				out[pe] = this.members.has(pe) ? { '.': {}, ...inner } : inner;
			} else out[pe] = {};
		}
		return out;
	}

	static fromFieldsV1(value: unknown): FieldSet {
		const set = new FieldSet();
		if (!value || typeof value !== 'object' || Array.isArray(value)) return set;
		for (const [pe, inner] of Object.entries(value as Record<string, unknown>)) {
			if (pe === '.') continue;
			const hasChildren = !!inner && typeof inner === 'object' && Object.keys(inner).some((k) => k !== '.');
			if (!hasChildren || Object.hasOwn(inner as object, '.')) set.members.add(pe);
			if (hasChildren) set.children.set(pe, FieldSet.fromFieldsV1(inner));
		}
		return set;
	}

	/** The node holding the last element of `path` (created on the way when asked). */
	private nodeAt(path: FieldPath, create: boolean): FieldSet | undefined {
		// eslint-disable-next-line @typescript-eslint/no-this-alias -- the walk starts at this node
		let node: FieldSet | undefined = this;
		for (let i = 0; i < path.length - 1 && node; i++) node = create ? node.child(path[i]) : node.children.get(path[i]);
		return node;
	}

	private child(pe: PathElement): FieldSet {
		let node = this.children.get(pe);
		if (!node) {
			node = new FieldSet();
			this.children.set(pe, node);
		}
		return node;
	}

	private addAll(other: FieldSet): void {
		for (const pe of other.members) this.members.add(pe);
		for (const [pe, child] of other.children) this.child(pe).addAll(child);
	}
}

/** A path as conflict messages print it: `.spec.containers[name="web"].image`. */
export function pathString(path: FieldPath): string {
	return path.map(elementString).join('');
}

function elementString(pe: PathElement): string {
	const body = pe.slice(2);
	switch (pe[0]) {
		case 'f':
			return '.' + body;
		case 'k': {
			const key = JSON.parse(body) as Record<string, unknown>;
			return '[' + Object.entries(key).map(([name, value]) => `${name}=${JSON.stringify(value)}`).join(',') + ']';
		}
		case 'v':
			return `[=${body}]`;
		default:
			return `[${body}]`;
	}
}
