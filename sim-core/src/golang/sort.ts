/**
 * Sorted string keys, as Go code keeps them with sort.SearchStrings: a
 * cache that must answer "every key in order" or "every key under this
 * prefix" many times between changes keeps its keys sorted as they come
 * and go, instead of sorting on every read.
 *
 * Keys compare as JavaScript strings (UTF-16 code units), the order
 * `Array.prototype.sort()` gives and the order of etcd keys for the ASCII
 * keys Kubernetes uses.
 *
 * Mirrors golang/go src/sort/search.go (SearchStrings).
 */

/** sort.SearchStrings: the first index whose key is not less than `key` (the length if none). */
export function searchStrings(sorted: readonly string[], key: string): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (sorted[mid] < key) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

/** A set of keys that stays in order. */
export class SortedKeys {
	private readonly keys: string[] = [];

	get size(): number {
		return this.keys.length;
	}

	has(key: string): boolean {
		return this.keys[searchStrings(this.keys, key)] === key;
	}

	/** Adds a key; false if it was there. */
	add(key: string): boolean {
		const at = searchStrings(this.keys, key);
		if (this.keys[at] === key) return false;
		this.keys.splice(at, 0, key);
		return true;
	}

	/** Removes a key; false if it was not there. */
	delete(key: string): boolean {
		const at = searchStrings(this.keys, key);
		if (this.keys[at] !== key) return false;
		this.keys.splice(at, 1);
		return true;
	}

	/** Every key, in order (the live array: do not change it). */
	all(): readonly string[] {
		return this.keys;
	}

	/** The keys starting with `prefix`, in order. */
	withPrefix(prefix: string): string[] {
		const out: string[] = [];
		for (let i = searchStrings(this.keys, prefix); i < this.keys.length && this.keys[i].startsWith(prefix); i++) out.push(this.keys[i]);
		return out;
	}
}

/** Sorted keys grouped by a value (an index: value -> keys), groups dropped when they empty. */
export class SortedKeyIndex {
	private readonly groups = new Map<string, SortedKeys>();

	add(value: string, key: string): void {
		let keys = this.groups.get(value);
		if (!keys) this.groups.set(value, (keys = new SortedKeys()));
		keys.add(key);
	}

	delete(value: string, key: string): void {
		const keys = this.groups.get(value);
		if (!keys) return;
		keys.delete(key);
		if (keys.size === 0) this.groups.delete(value);
	}

	/** The keys under a value, in order (the live array: do not change it). */
	keys(value: string): readonly string[] {
		return this.groups.get(value)?.all() ?? [];
	}
}
