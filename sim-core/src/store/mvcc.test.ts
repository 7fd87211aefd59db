/**
 * etcd's MVCC store as the API server relies on it: one global revision,
 * per-key versions, reads at a past revision, compare-and-swap on mod
 * revisions (Kubernetes' optimistic concurrency), watching from a revision,
 * compaction and its space accounting, and keys that go with their lease.
 * (etcdctl's wording for the same operations is tested in tools/etcdctl.)
 */
import { describe, expect, it } from 'vitest';
import { MvccError } from '../etcd-api/etcd.ts';
import { createApiHarness } from '../testing/api-harness.ts';
import { MvccStore } from './mvcc.ts';

const COMPACTED = 'mvcc: required revision has been compacted';

/** What a read returns, as key=value pairs. */
function read(store: MvccStore, key: string, options: { revision?: number; prefix?: boolean } = {}): string[] {
	return store.range(key, options).kvs.map((kv) => `${kv.key}=${kv.value}`);
}

/** A change as `TYPE key value (prev: value)`. */
function changes(store: MvccStore, from: number, key: string, prefix: boolean): string[] {
	return store.changesSince(from, key, prefix).map((c) => `${c.kv.modRevision} ${c.type} ${c.kv.key}${c.type === 'PUT' ? `=${c.kv.value}` : ''}${c.prevKv ? ` (was ${c.prevKv.value})` : ''}`);
}

/** Bytes one stored version costs in the sizes this store reports. */
function cost(key: string, value: string): number {
	return key.length + value.length + 64;
}

function compactedError(fn: () => unknown): void {
	expect(fn).toThrow(MvccError);
	expect(fn).toThrow(COMPACTED);
}

describe('revisions and versions', () => {
	it('starts at revision 1 and moves the global revision by one per write transaction, however many keys it writes', () => {
		const store = MvccStore.empty();
		expect(store.revision).toBe(1);
		expect(store.put('/a', '1')).toBe(2);
		const result = store.txn([], [{ put: { key: '/b', value: '1' } }, { put: { key: '/c', value: '1' } }]);
		expect(result).toMatchObject({ succeeded: true, revision: 3 });
		expect(store.range('/', { prefix: true }).kvs.map((kv) => [kv.key, kv.modRevision])).toEqual([
			['/a', 2],
			['/b', 3],
			['/c', 3],
		]);
	});

	it('counts the versions of a key from its creation; a re-created key starts again at version 1 with a new create revision', () => {
		const store = MvccStore.empty();
		store.put('/k', 'a');
		store.put('/k', 'b');
		expect(store.range('/k').kvs[0]).toMatchObject({ value: 'b', createRevision: 2, modRevision: 3, version: 2 });
		store.delete('/k');
		expect(store.range('/k').kvs).toEqual([]);
		store.put('/k', 'c');
		expect(store.range('/k').kvs[0]).toMatchObject({ value: 'c', createRevision: 5, modRevision: 5, version: 1 });
	});

	it('reads keys as they were at an earlier revision, and refuses a revision that does not exist yet', () => {
		const store = MvccStore.empty();
		store.put('/a', '1'); // 2
		store.put('/b', '1'); // 3
		store.put('/a', '2'); // 4
		store.delete('/b'); // 5
		expect(read(store, '/', { prefix: true, revision: 2 })).toEqual(['/a=1']);
		expect(read(store, '/', { prefix: true, revision: 4 })).toEqual(['/a=2', '/b=1']);
		expect(read(store, '/', { prefix: true })).toEqual(['/a=2']);
		expect(() => store.range('/a', { revision: 6 })).toThrow('mvcc: required revision is a future revision');
	});

	it('returns a prefix range sorted by key, with the count of all matches even when limited', () => {
		const store = MvccStore.empty();
		for (const key of ['/registry/pods/b', '/registry/pods/a', '/registry/podsx', '/registry/services/a']) store.put(key, 'v');
		expect(read(store, '/registry/pods/', { prefix: true })).toEqual(['/registry/pods/a=v', '/registry/pods/b=v']);
		const limited = store.range('/registry/', { prefix: true, limit: 2 });
		expect(limited.kvs.map((kv) => kv.key)).toEqual(['/registry/pods/a', '/registry/pods/b']);
		expect(limited.count).toBe(4);
	});

	it('uses no revision for a delete of a key that does not exist', () => {
		const store = MvccStore.empty();
		store.put('/a', '1');
		expect(store.delete('/missing')).toBe(0);
		expect(store.txn([], [{ delete: { key: '/missing' } }])).toMatchObject({ succeeded: true, revision: 2 });
		expect(store.revision).toBe(2);
		expect(store.changesSince(1, '/', true)).toHaveLength(1);
	});
});

describe('transactions comparing mod revisions', () => {
	it('creates a key only if it does not exist when compared with mod revision 0', () => {
		const store = MvccStore.empty();
		const create = () => store.txn([{ key: '/k', modRevision: 0 }], [{ put: { key: '/k', value: 'mine' } }]);
		expect(create()).toMatchObject({ succeeded: true, revision: 2 });
		const again = create();
		expect(again.succeeded).toBe(false);
		expect(again.current[0]).toMatchObject({ key: '/k', value: 'mine', modRevision: 2 });
	});

	it('applies an update only against the mod revision it read; a stale one changes nothing, uses no revision and returns the current version', () => {
		const store = MvccStore.empty();
		const read2 = store.put('/k', 'v1');
		const read3 = store.put('/k', 'v2');
		const stale = store.txn([{ key: '/k', modRevision: read2 }], [{ put: { key: '/k', value: 'lost update' } }]);
		expect(stale).toEqual({ succeeded: false, revision: 3, current: [expect.objectContaining({ value: 'v2', modRevision: read3 })] });
		expect(read(store, '/k')).toEqual(['/k=v2']);
		expect(store.revision).toBe(3);
		expect(store.txn([{ key: '/k', modRevision: read3 }], [{ put: { key: '/k', value: 'v3' } }])).toMatchObject({ succeeded: true, revision: 4 });
	});

	it('deletes under a comparison too, and fails when the key changed since it was read', () => {
		const store = MvccStore.empty();
		const rev = store.put('/k', 'v1');
		store.put('/k', 'v2');
		expect(store.txn([{ key: '/k', modRevision: rev }], [{ delete: { key: '/k' } }]).succeeded).toBe(false);
		expect(read(store, '/k')).toEqual(['/k=v2']);
		expect(store.txn([{ key: '/k', modRevision: rev + 1 }], [{ delete: { key: '/k' } }]).succeeded).toBe(true);
		expect(read(store, '/k')).toEqual([]);
	});
});

describe('watching from a revision', () => {
	function history(): MvccStore {
		const store = MvccStore.empty();
		store.put('/a', '1'); // 2
		store.put('/ab', '1'); // 3
		store.put('/a', '2'); // 4
		store.put('/b', '1'); // 5
		store.delete('/a'); // 6
		return store;
	}

	it('returns exactly the changes after the revision, in order, with the previous value of updated and deleted keys', () => {
		expect(changes(history(), 3, '/', true)).toEqual(['4 PUT /a=2 (was 1)', '5 PUT /b=1', '6 DELETE /a (was 2)']);
		expect(changes(history(), 1, '/', true)).toHaveLength(5);
		expect(changes(history(), 6, '/', true)).toEqual([]);
	});

	it('follows one key exactly, or every key under a prefix', () => {
		expect(changes(history(), 1, '/a', false)).toEqual(['2 PUT /a=1', '4 PUT /a=2 (was 1)', '6 DELETE /a (was 2)']);
		expect(changes(history(), 1, '/a', true)).toEqual(['2 PUT /a=1', '3 PUT /ab=1', '4 PUT /a=2 (was 1)', '6 DELETE /a (was 2)']);
	});

	it('refuses to watch from a revision below the compaction revision, and serves what followed the compaction revision', () => {
		const store = history();
		store.compact(4);
		compactedError(() => store.changesSince(3, '/', true));
		expect(changes(store, 4, '/', true)).toEqual(['5 PUT /b=1', '6 DELETE /a (was 2)']);
	});
});

describe('compaction', () => {
	it('refuses reads below the compaction revision and serves reads at it and after', () => {
		const store = MvccStore.empty();
		store.put('/k', 'v1'); // 2
		store.put('/k', 'v2'); // 3
		store.put('/k', 'v3'); // 4
		store.compact(3);
		expect(store.compactRevision).toBe(3);
		compactedError(() => store.range('/k', { revision: 2 }));
		expect(read(store, '/k', { revision: 3 })).toEqual(['/k=v2']);
		expect(read(store, '/k', { revision: 4 })).toEqual(['/k=v3']);
		expect(read(store, '/k')).toEqual(['/k=v3']);
	});

	it('keeps, for every key, the version live at the compaction revision however old it is', () => {
		const store = MvccStore.empty();
		store.put('/old', 'kept'); // 2
		for (let i = 0; i < 5; i++) store.put('/busy', String(i)); // 3..7
		store.compact(7);
		expect(read(store, '/', { prefix: true, revision: 7 })).toEqual(['/busy=4', '/old=kept']);
		expect(store.range('/old').kvs[0]).toMatchObject({ createRevision: 2, modRevision: 2, version: 1 });
		expect(store.range('/busy').kvs[0]).toMatchObject({ createRevision: 3, modRevision: 7, version: 5 });
	});

	it('forgets a key deleted before the compaction revision, but a key deleted after it stays readable at that revision', () => {
		const store = MvccStore.empty();
		store.put('/early', 'x'); // 2
		store.put('/late', 'y'); // 3
		store.delete('/early'); // 4
		store.put('/other', 'z'); // 5
		store.delete('/late'); // 6
		store.compact(5);
		expect(read(store, '/', { prefix: true, revision: 5 })).toEqual(['/late=y', '/other=z']);
		expect(read(store, '/', { prefix: true })).toEqual(['/other=z']);
		expect(store.keyCount()).toBe(1);
		// The deleted key's history is gone entirely: re-creating it starts a new life.
		store.put('/early', 'again');
		expect(store.range('/early').kvs[0]).toMatchObject({ createRevision: 7, version: 1 });
	});

	it('refuses to compact to a revision already compacted or one that does not exist yet', () => {
		const store = MvccStore.empty();
		store.put('/k', '1');
		store.put('/k', '2');
		store.compact(2);
		compactedError(() => store.compact(2));
		compactedError(() => store.compact(1));
		expect(() => store.compact(4)).toThrow('mvcc: required revision is a future revision');
		expect(store.compactRevision).toBe(2);
	});

	it('frees the space of forgotten versions from what is in use, while the file keeps its size until it is defragmented', () => {
		const store = MvccStore.empty();
		store.put('/k', 'aaaa');
		store.put('/k', 'bbbb');
		store.put('/k', 'cccc');
		const written = 3 * cost('/k', 'aaaa');
		expect(store.status()).toMatchObject({ sizeBytes: written, sizeInUseBytes: written });
		store.compact(4);
		expect(store.status()).toMatchObject({ sizeBytes: written, sizeInUseBytes: cost('/k', 'cccc') });
		// Freed pages are reused: the file grows again only once in-use passes its size.
		store.put('/k', 'dddd');
		expect(store.status()).toMatchObject({ sizeBytes: written, sizeInUseBytes: 2 * cost('/k', 'cccc') });
		store.defragment();
		expect(store.status()).toMatchObject({ sizeBytes: 2 * cost('/k', 'cccc'), sizeInUseBytes: 2 * cost('/k', 'cccc') });
	});

	it('frees a deleted key\'s last value and its deletion record once both are behind the compaction revision', () => {
		const store = MvccStore.empty();
		store.put('/gone', 'xxxx'); // 2
		store.put('/stays', 'yy'); // 3
		store.delete('/gone'); // 4
		const before = store.status().sizeInUseBytes;
		store.compact(4);
		expect(before - store.status().sizeInUseBytes).toBe(cost('/gone', 'xxxx') + cost('/gone', ''));
		expect(store.status().sizeInUseBytes).toBe(cost('/stays', 'yy'));
	});
});

describe('leases', () => {
	it('deletes every key attached to a lease when it expires, in one revision, and forgets the lease', () => {
		const store = MvccStore.empty();
		const lease = store.grantLease(60, 0);
		store.put('/events/a', '1', lease);
		store.put('/events/b', '1', lease);
		store.put('/pods/p', '1');
		expect(store.expireLeases(59_999)).toBe(0);
		expect(read(store, '/', { prefix: true })).toHaveLength(3);
		const revision = store.revision;
		expect(store.expireLeases(60_000)).toBe(2);
		expect(store.hasLease(lease)).toBe(false);
		expect(read(store, '/', { prefix: true })).toEqual(['/pods/p=1']);
		expect(store.revision).toBe(revision + 1);
		// Watchers see the deletions.
		expect(changes(store, revision, '/', true)).toEqual([`${revision + 1} DELETE /events/a (was 1)`, `${revision + 1} DELETE /events/b (was 1)`]);
	});

	it('does not delete a key put again without the lease', () => {
		const store = MvccStore.empty();
		const lease = store.grantLease(10, 0);
		store.put('/k', 'leased', lease);
		store.put('/k', 'kept');
		expect(store.expireLeases(10_000)).toBe(0);
		expect(read(store, '/k')).toEqual(['/k=kept']);
		expect(store.hasLease(lease)).toBe(false);
	});

	it('lets a lease with no keys expire without a write', () => {
		const store = MvccStore.empty();
		const lease = store.grantLease(1, 0);
		expect(store.expireLeases(1_000)).toBe(0);
		expect(store.hasLease(lease)).toBe(false);
		expect(store.revision).toBe(1);
	});

	it('expires leased keys on the running etcd member within a second of their TTL, by virtual time', () => {
		const h = createApiHarness();
		const lease = h.etcd.grantLease(10, h.kernel.nowMs);
		h.etcd.put('/registry/events/default/e1', '{}', lease);
		h.advance(9_999);
		expect(read(h.etcd, '/registry/events/', { prefix: true })).toHaveLength(1);
		h.advance(1_001);
		expect(read(h.etcd, '/registry/events/', { prefix: true })).toEqual([]);
		expect(h.etcd.hasLease(lease)).toBe(false);
	});
});
