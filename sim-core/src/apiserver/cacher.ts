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
import { SortedKeyIndex, SortedKeys } from '../golang/sort.ts';

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

/** Every resource by its etcd prefix (without the trailing slash). */
let resourcesByPrefix: Map<string, ResourceInfo> | undefined;

/**
 * Finds which resource an etcd key belongs to: the longest resource prefix
 * the key starts with. Keys are a few segments deep, so trying each cut of
 * the key against a map beats scanning every resource per change.
 */
export function resourceOfKey(key: string): ResourceInfo | undefined {
	if (!resourcesByPrefix) {
		resourcesByPrefix = new Map();
		for (const info of RESOURCES) {
			const prefix = etcdPrefix(info).slice(0, -1);
			if (!resourcesByPrefix.has(prefix)) resourcesByPrefix.set(prefix, info);
		}
	}
	for (let cut = key.lastIndexOf('/'); cut > 0; cut = key.lastIndexOf('/', cut - 1)) {
		const info = resourcesByPrefix.get(key.slice(0, cut));
		if (info) return info;
	}
	return undefined;
}

/** Finds which resource an object is, from its apiVersion and kind. */
export function resourceOf(obj: KubeObject): ResourceInfo | undefined {
	const gv = obj.apiVersion;
	return RESOURCES.find((r) => groupVersion(r) === gv && r.kind === obj.kind);
}

function cacheKeyOf(info: ResourceInfo): string {
	return `${info.group}/${info.resource}`;
}

/**
 * The watch cache's indexes, as the pod registry declares its
 * `spec.nodeName` indexer (pkg/registry/core/pod/storage: Indexers): the
 * node authorizer and every kubelet's field-selected list ask for a node's
 * pods, which must not mean walking every pod in the cluster.
 */
const INDEXERS: Record<string, Record<string, (obj: KubeObject) => string | undefined>> = {
	'/pods': { 'spec.nodeName': (obj) => ((obj.spec as { nodeName?: string } | undefined)?.nodeName || undefined) },
};

/**
 * One resource's objects: by key, with the keys kept in etcd's (byte)
 * order so a list or a namespace's list is a range, not a sort, and with
 * the resource's indexes kept up to date on every change.
 */
class ResourceBucket {
	readonly objects = new Map<string, KubeObject>();
	private readonly sorted = new SortedKeys();
	private readonly indexes = new Map<string, SortedKeyIndex>();

	constructor(private readonly indexers: Record<string, (obj: KubeObject) => string | undefined> = {}) {
		for (const name of Object.keys(indexers)) this.indexes.set(name, new SortedKeyIndex());
	}

	get(key: string): KubeObject | undefined {
		return this.objects.get(key);
	}

	set(key: string, object: KubeObject): void {
		const previous = this.objects.get(key);
		if (previous) this.unindex(key, previous);
		else this.sorted.add(key);
		this.objects.set(key, object);
		for (const [name, indexer] of Object.entries(this.indexers)) {
			const value = indexer(object);
			if (value !== undefined) this.indexes.get(name)!.add(value, key);
		}
	}

	delete(key: string): void {
		const previous = this.objects.get(key);
		if (!previous) return;
		this.unindex(key, previous);
		this.objects.delete(key);
		this.sorted.delete(key);
	}

	private unindex(key: string, object: KubeObject): void {
		for (const [name, indexer] of Object.entries(this.indexers)) {
			const value = indexer(object);
			if (value !== undefined) this.indexes.get(name)!.delete(value, key);
		}
	}

	/** The entries under a key prefix, in key order. */
	range(prefix: string): Array<[string, KubeObject]> {
		return this.sorted.withPrefix(prefix).map((key) => [key, this.objects.get(key)!]);
	}

	/** The objects whose index `name` has `value`, in key order; undefined when no such index exists. */
	byIndex(name: string, value: string): KubeObject[] | undefined {
		const index = this.indexes.get(name);
		if (!index) return undefined;
		return index.keys(value).map((key) => this.objects.get(key)!);
	}
}

export class Cacher {
	/** group/resource -> its objects. */
	private readonly objects = new Map<string, ResourceBucket>();
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

	private bucket(info: ResourceInfo): ResourceBucket {
		const key = cacheKeyOf(info);
		let bucket = this.objects.get(key);
		if (!bucket) {
			bucket = new ResourceBucket(INDEXERS[key]);
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
		return this.objects.get(cacheKeyOf(info))?.range(etcdPrefix(info, namespace)) ?? [];
	}

	/**
	 * Objects by one of the cache's indexes (`spec.nodeName` for pods), in
	 * key order, optionally in one namespace; undefined when the resource
	 * has no such index, so the caller falls back to a list.
	 */
	byIndex(info: ResourceInfo, index: string, value: string, namespace?: string): KubeObject[] | undefined {
		const bucket = this.objects.get(cacheKeyOf(info));
		if (!bucket) return INDEXERS[cacheKeyOf(info)]?.[index] ? [] : undefined;
		const found = bucket.byIndex(index, value);
		return found && namespace ? found.filter((o) => o.metadata.namespace === namespace) : found;
	}
}
