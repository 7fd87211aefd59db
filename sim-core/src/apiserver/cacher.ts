/**
 * The API server's watch cache: an in-memory copy of every object, fed by a
 * watch on etcd, from which lists are served and watch events are fanned out
 * to clients.
 *
 * Feeding it from etcd's change stream, not from the write path, is what
 * real clusters do; it is also why a key written straight into etcd with
 * etcdctl still reaches controllers (and why doing so is dangerous: nothing
 * validated it).
 *
 * The cache itself is rebuilt from etcd when the API server starts or a
 * snapshot is restored; only `revision` (how far it has read) is state.
 *
 * Mirrors staging/src/k8s.io/apiserver/pkg/storage/cacher/cacher.go,
 * staging/src/k8s.io/apiserver/pkg/storage/cacher/watch_cache.go.
 */
import type { KubeObject } from '../api/types.ts';
import { RESOURCES, etcdPrefix, groupVersion, type ResourceInfo } from '../api/resources.ts';
import type { EtcdClient } from '../etcd-api/etcd.ts';
import type { MvccEvent } from '../etcd-api/etcd.ts';

/** An object change as the cache sees it, ready to fan out. */
export interface CacheChange {
	info: ResourceInfo;
	type: 'ADDED' | 'MODIFIED' | 'DELETED';
	object: KubeObject;
	/** The previous object (for MODIFIED and DELETED): selectors are checked on both. */
	previous?: KubeObject;
	revision: number;
}

/** Recursively freezes a decoded object: cached objects are shared read-only. */
function deepFreeze<T>(value: T): T {
	if (value && typeof value === 'object' && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
	}
	return value;
}

/** Decodes a stored value and stamps its resourceVersion (etcd's mod revision), as the etcd3 storage layer does. */
export function decodeStored(value: string, modRevision: number): KubeObject {
	const object = JSON.parse(value) as KubeObject;
	object.metadata = { ...object.metadata, resourceVersion: String(modRevision) };
	return deepFreeze(object);
}

/** Finds which resource an etcd key belongs to. */
export function resourceOfKey(key: string): ResourceInfo | undefined {
	let best: ResourceInfo | undefined;
	let bestLength = -1;
	for (const info of RESOURCES) {
		const prefix = etcdPrefix(info);
		if (key.startsWith(prefix) && prefix.length > bestLength) {
			best = info;
			bestLength = prefix.length;
		}
	}
	return best;
}

/** Finds which resource an object is, from its apiVersion and kind. */
export function resourceOf(obj: KubeObject): ResourceInfo | undefined {
	const gv = obj.apiVersion;
	return RESOURCES.find((r) => groupVersion(r) === gv && r.kind === obj.kind);
}

function cacheKeyOf(info: ResourceInfo): string {
	return `${info.group}/${info.resource}`;
}

export class Cacher {
	/** group/resource -> etcd key -> object. */
	private readonly objects = new Map<string, Map<string, KubeObject>>();
	/** How far the cache has read etcd's change stream. */
	revision = 0;

	/** Loads every object as of `revision` (the cache's saved position, or etcd's current revision). */
	rebuild(store: EtcdClient, revision: number): void {
		this.objects.clear();
		const at = Math.max(revision, store.compactRevision);
		const { kvs } = store.range('/registry/', { prefix: true, revision: at });
		for (const kv of kvs) {
			const info = resourceOfKey(kv.key);
			if (!info) continue;
			this.bucket(info).set(kv.key, decodeStored(kv.value, kv.modRevision));
		}
		this.revision = at;
	}

	private bucket(info: ResourceInfo): Map<string, KubeObject> {
		const key = cacheKeyOf(info);
		let bucket = this.objects.get(key);
		if (!bucket) {
			bucket = new Map();
			this.objects.set(key, bucket);
		}
		return bucket;
	}

	/** Applies etcd changes after the cache's revision; returns them as object changes, in order. */
	catchUp(store: EtcdClient): CacheChange[] {
		if (store.revision <= this.revision) return [];
		let changes: MvccEvent[];
		try {
			changes = store.changesSince(this.revision, '/registry/', true);
		} catch {
			// Compacted past us (only if the cache fell far behind): reload.
			this.rebuild(store, store.revision);
			return [];
		}
		const out: CacheChange[] = [];
		for (const change of changes) {
			const info = resourceOfKey(change.kv.key);
			if (!info) continue;
			const bucket = this.bucket(info);
			const previous = bucket.get(change.kv.key);
			if (change.type === 'PUT') {
				const object = decodeStored(change.kv.value, change.kv.modRevision);
				bucket.set(change.kv.key, object);
				out.push({ info, type: previous ? 'MODIFIED' : 'ADDED', object, previous, revision: change.kv.modRevision });
			} else if (previous) {
				bucket.delete(change.kv.key);
				// A deleted object carries the deletion's revision, as upstream's watch does.
				const object = deepFreeze({ ...previous, metadata: { ...previous.metadata, resourceVersion: String(change.kv.modRevision) } });
				out.push({ info, type: 'DELETED', object, previous, revision: change.kv.modRevision });
			}
		}
		this.revision = store.revision;
		return out;
	}

	get(info: ResourceInfo, key: string): KubeObject | undefined {
		return this.objects.get(cacheKeyOf(info))?.get(key);
	}

	/** Objects of a resource (optionally one namespace), sorted by key as etcd would return them. */
	list(info: ResourceInfo, namespace?: string): KubeObject[] {
		return this.entries(info, namespace).map(([, object]) => object);
	}

	/** The same, with each object's etcd key (what a continue token points into). */
	entries(info: ResourceInfo, namespace?: string): Array<[string, KubeObject]> {
		const bucket = this.objects.get(cacheKeyOf(info));
		if (!bucket) return [];
		const prefix = etcdPrefix(info, namespace);
		return [...bucket.entries()].filter(([key]) => key.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	}
}
