/**
 * The generic registry store's way to etcd: objects are read from the
 * watch cache and written with a transaction whose comparison is the mod
 * revision the writer read (optimistic concurrency: resourceVersion is
 * etcd's mod revision, and a stale write fails), each write traced as a
 * message to etcd. Events are stored under a lease of `--event-ttl`, so
 * etcd forgets them by itself. etcd's own errors become API statuses.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go (the
 * reads and writes of Create, Update and Delete),
 * staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go
 * (GuaranteedUpdate's compare-and-swap, the lease for a TTL, decoding what
 * etcd returns).
 */
import type { KubeObject } from '../../api/types.ts';
import { etcdKey, type ResourceInfo } from '../../api/resources.ts';
import type { ApiResponse } from '../../api/request.ts';
import type { EtcdClient, MvccError } from '../../etcd-api/etcd.ts';
import type { ApiServerContext } from '../config.ts';
import * as errors from '../errors.ts';

/** The object as written to etcd: without resourceVersion, which is etcd's own revision. */
export function encodeForStorage(obj: KubeObject): string {
	const { resourceVersion: _rv, ...metadata } = obj.metadata;
	return JSON.stringify({ ...obj, metadata });
}

/** The outcome of a write: whether the transaction succeeded, and etcd's revision after it. */
interface WriteResult {
	ok: boolean;
	revision: number;
}

export class GenericStore {
	constructor(private readonly server: ApiServerContext) {}

	/** The object as the watch cache has it now. */
	get(info: ResourceInfo, namespace: string | undefined, name: string): KubeObject | undefined {
		return this.server.cacher.get(info, etcdKey(info, namespace, name));
	}

	/** Writes to etcd under a mod-revision precondition (0: the key must not exist); traced as a message to etcd. */
	put(store: EtcdClient, info: ResourceInfo, obj: KubeObject, expectedModRevision: number, dryRun: boolean): WriteResult {
		const key = etcdKey(info, obj.metadata.namespace, obj.metadata.name!);
		if (dryRun) return { ok: true, revision: store.revision };
		const lease = info.resource === 'events' ? store.grantLease(Math.round(this.server.options.eventTtlMs / 1000), this.server.kernel.nowMs) : undefined;
		const result = store.txn([{ key, modRevision: expectedModRevision }], [{ put: lease ? { key, value: encodeForStorage(obj), lease } : { key, value: encodeForStorage(obj) } }]);
		this.server.emit({ action: 'put', peer: 'etcd', object: key, rv: result.succeeded ? result.revision : undefined, msg: result.succeeded ? `txn put ${key} at revision ${result.revision}` : `txn on ${key} failed: mod revision changed` });
		if (result.succeeded) this.server.deps.etcd.notify();
		return { ok: result.succeeded, revision: result.revision };
	}

	/** Deletes from etcd if the object is still at the revision it was read at. */
	remove(store: EtcdClient, info: ResourceInfo, obj: KubeObject, dryRun: boolean): WriteResult {
		const key = etcdKey(info, obj.metadata.namespace, obj.metadata.name!);
		if (dryRun) return { ok: true, revision: store.revision };
		const result = store.txn([{ key, modRevision: Number(obj.metadata.resourceVersion) }], [{ delete: { key } }]);
		this.server.emit({ action: 'delete', peer: 'etcd', object: key, rv: result.succeeded ? result.revision : undefined, msg: result.succeeded ? `txn delete ${key} at revision ${result.revision}` : `txn delete ${key} failed: mod revision changed` });
		if (result.succeeded) this.server.deps.etcd.notify();
		return { ok: result.succeeded, revision: result.revision };
	}

	/** Reads back what was just written (with its resourceVersion). */
	readBack(info: ResourceInfo, namespace: string | undefined, name: string): KubeObject | undefined {
		this.server.pump();
		return this.get(info, namespace, name);
	}
}

/** An etcd error as the client sees it: 410 Gone for a compacted revision, 413 for a too-large value, else a 500. */
export function storageError(error: MvccError): ApiResponse {
	switch (error.code) {
		case 'compacted':
			return errors.gone(error.message);
		case 'too-large':
			return errors.requestEntityTooLarge(error.message);
		case 'no-space':
		case 'unavailable':
		default:
			return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: error.message, code: 500 } };
	}
}
