/**
 * etcd's multi-version key-value store (the `mvcc` package of etcd v3.6),
 * as Kubernetes uses it: one global revision that every write increments;
 * for each key, its versions; reads at the current or an earlier revision;
 * watch from a revision; compare-and-swap transactions on a key's mod
 * revision; compaction, after which reads and watches of older revisions get
 * `mvcc: required revision has been compacted` (the API server turns that
 * into 410 Gone); the backend quota (`mvcc: database space exceeded`) and the
 * request size limit (`etcdserver: request is too large`).
 *
 * This is durable state (etcd's data directory): it survives an etcd
 * restart. Its whole state is plain JSON.
 *
 * Mirrors etcd-io/etcd server/storage/mvcc/kvstore.go, etcd-io/etcd
 * server/storage/mvcc/kvstore_txn.go, etcd-io/etcd
 * server/storage/mvcc/kvstore_compaction.go, etcd-io/etcd
 * server/storage/mvcc/index.go, etcd-io/etcd
 * server/storage/mvcc/watchable_store.go, etcd-io/etcd
 * server/storage/quota.go (the backend quota), etcd-io/etcd
 * server/etcdserver/errors/errors.go (request too large), etcd-io/etcd
 * api/v3rpc/rpctypes/error.go (the error texts).
 */
import { ETCD_DEFAULT_QUOTA_BYTES, ETCD_MAX_REQUEST_BYTES, MvccError, type EtcdBackendStatus, type EtcdClient, type KeyValue, type MvccEvent, type RangeOptions, type RangeResult, type TxnCompare, type TxnOp, type TxnResult } from '../etcd-api/etcd.ts';


/** Bytes a revision costs beyond its key and value (bbolt page and index overhead, estimated). */
const REVISION_OVERHEAD_BYTES = 64;

/** Plain-JSON state of the store. */
export interface MvccState {
	revision: number;
	compactRevision: number;
	/** Versions of each key, oldest first; a deletion is a version with empty value and version 0. */
	keys: Record<string, KeyValue[]>;
	/** Every change after compactRevision, in revision order, for watchers. */
	changes: MvccEvent[];
	/** Bytes of live revisions (what `endpoint status` calls "in use"). */
	sizeInUseBytes: number;
	/** Bytes of the backend file: grows with writes, shrinks only on defragment. */
	sizeBytes: number;
	quotaBytes: number;
	/** Active alarms, e.g. NOSPACE once the quota is hit. */
	alarms: string[];
	/** Leases: id -> { ttl seconds, expiry in virtual ms }. */
	leases: Record<string, { ttlSeconds: number; expiresAtMs: number }>;
	nextLeaseId: number;
}

function sizeOf(kv: KeyValue): number {
	return kv.key.length + kv.value.length + REVISION_OVERHEAD_BYTES;
}

export class MvccStore implements EtcdClient {
	constructor(readonly state: MvccState) {}

	static empty(quotaBytes = ETCD_DEFAULT_QUOTA_BYTES): MvccStore {
		return new MvccStore({
			// etcd starts at revision 1; the first write makes it 2.
			revision: 1,
			compactRevision: 0,
			keys: {},
			changes: [],
			sizeInUseBytes: 0,
			sizeBytes: 0,
			quotaBytes,
			alarms: [],
			leases: {},
			nextLeaseId: 1,
		});
	}

	/**
	 * A store restored from a snapshot's keys (etcdutl snapshot restore): the
	 * snapshot's revision, each key's last version, no older history (the
	 * compacted revision is the snapshot's). Keys held by a lease keep it, and
	 * the lessor grants every such lease its TTL afresh from the restore, as
	 * etcd's recovered leases are renewed by the new leader; the snapshot
	 * keeps no TTLs, so Kubernetes' event TTL (one hour) stands in.
	 */
	static restored(revision: number, kvs: readonly KeyValue[], nowMs: number, leaseTtlSeconds = 3600, quotaBytes = ETCD_DEFAULT_QUOTA_BYTES): MvccStore {
		const store = MvccStore.empty(quotaBytes);
		const s = store.state;
		s.revision = revision;
		s.compactRevision = revision;
		for (const kv of kvs) {
			s.keys[kv.key] = [{ ...kv }];
			s.sizeInUseBytes += sizeOf(kv);
			if (kv.lease) {
				s.leases[String(kv.lease)] = { ttlSeconds: leaseTtlSeconds, expiresAtMs: nowMs + leaseTtlSeconds * 1000 };
				s.nextLeaseId = Math.max(s.nextLeaseId, kv.lease + 1);
			}
		}
		s.sizeBytes = s.sizeInUseBytes;
		return store;
	}

	get revision(): number {
		return this.state.revision;
	}

	get compactRevision(): number {
		return this.state.compactRevision;
	}

	hasLease(id: number): boolean {
		return this.state.leases[String(id)] !== undefined;
	}

	status(): EtcdBackendStatus {
		const st = this.state;
		return { revision: st.revision, sizeBytes: st.sizeBytes, sizeInUseBytes: st.sizeInUseBytes, quotaBytes: st.quotaBytes, alarms: [...st.alarms], leasesGranted: st.nextLeaseId - 1 };
	}

	/** The live version of `key` at `revision` (current by default), if any. */
	private versionAt(key: string, revision: number): KeyValue | undefined {
		const versions = this.state.keys[key];
		if (!versions) return undefined;
		for (let i = versions.length - 1; i >= 0; i--) {
			const kv = versions[i];
			if (kv.modRevision <= revision) return kv.version === 0 ? undefined : kv;
		}
		return undefined;
	}

	private checkReadRevision(revision: number): number {
		const rev = revision > 0 ? revision : this.state.revision;
		if (rev < this.state.compactRevision) throw new MvccError('compacted', 'mvcc: required revision has been compacted');
		if (rev > this.state.revision) throw new MvccError('future-revision', 'mvcc: required revision is a future revision');
		return rev;
	}

	/** Reads one key or a prefix range, as of a revision. Keys come back sorted, as etcd returns them. */
	range(key: string, options: RangeOptions = {}): RangeResult {
		const rev = this.checkReadRevision(options.revision ?? 0);
		const kvs: KeyValue[] = [];
		if (options.prefix) {
			const names = Object.keys(this.state.keys)
				.filter((k) => k.startsWith(key))
				.sort();
			for (const name of names) {
				const kv = this.versionAt(name, rev);
				if (kv) kvs.push(kv);
			}
		} else {
			const kv = this.versionAt(key, rev);
			if (kv) kvs.push(kv);
		}
		const count = kvs.length;
		return { kvs: options.limit && options.limit > 0 ? kvs.slice(0, options.limit) : kvs, count, revision: this.state.revision };
	}

	/** Compare-and-swap: applies `ops` only if every comparison holds. One revision for the whole transaction. */
	txn(compares: TxnCompare[], ops: TxnOp[]): TxnResult {
		const current = compares.map((c) => this.versionAt(c.key, this.state.revision));
		const holds = compares.every((c, i) => (current[i]?.modRevision ?? 0) === c.modRevision);
		if (!holds) return { succeeded: false, revision: this.state.revision, current };
		const bytes = ops.reduce((n, op) => n + ('put' in op ? op.put.key.length + op.put.value.length : op.delete.key.length), 0);
		if (bytes > ETCD_MAX_REQUEST_BYTES) throw new MvccError('too-large', 'etcdserver: request is too large');
		const writes = ops.filter((op) => 'put' in op || this.versionAt(op.delete.key, this.state.revision));
		if (writes.length === 0) return { succeeded: true, revision: this.state.revision, current };
		if (this.state.alarms.includes('NOSPACE') && ops.some((op) => 'put' in op)) {
			throw new MvccError('no-space', 'etcdserver: mvcc: database space exceeded');
		}
		const growth = ops.reduce((n, op) => n + ('put' in op ? op.put.key.length + op.put.value.length + REVISION_OVERHEAD_BYTES : 0), 0);
		if (this.state.sizeInUseBytes + growth > this.state.quotaBytes && ops.some((op) => 'put' in op)) {
			if (!this.state.alarms.includes('NOSPACE')) this.state.alarms.push('NOSPACE');
			throw new MvccError('no-space', 'etcdserver: mvcc: database space exceeded');
		}
		const revision = ++this.state.revision;
		for (const op of writes) {
			if ('put' in op) this.applyPut(op.put.key, op.put.value, revision, op.put.lease);
			else this.applyDelete(op.delete.key, revision);
		}
		return { succeeded: true, revision, current };
	}

	/** An unconditional put (etcdctl put). */
	put(key: string, value: string, lease?: number): number {
		return this.txn([], [{ put: lease ? { key, value, lease } : { key, value } }]).revision;
	}

	/** An unconditional delete (etcdctl del). Returns the number of keys deleted. */
	delete(key: string, prefix = false): number {
		const keys = prefix ? this.range(key, { prefix: true }).kvs.map((kv) => kv.key) : this.versionAt(key, this.state.revision) ? [key] : [];
		if (keys.length) this.txn([], keys.map((k) => ({ delete: { key: k } })));
		return keys.length;
	}

	private applyPut(key: string, value: string, revision: number, lease?: number): void {
		const versions = (this.state.keys[key] ??= []);
		const prev = this.versionAt(key, revision - 1);
		const kv: KeyValue = {
			key,
			value,
			createRevision: prev ? prev.createRevision : revision,
			modRevision: revision,
			version: prev ? prev.version + 1 : 1,
		};
		if (lease) kv.lease = lease;
		versions.push(kv);
		this.state.changes.push(prev ? { type: 'PUT', kv, prevKv: prev } : { type: 'PUT', kv });
		this.grow(sizeOf(kv));
	}

	private applyDelete(key: string, revision: number): void {
		const prev = this.versionAt(key, revision - 1);
		if (!prev) return;
		const tombstone: KeyValue = { key, value: '', createRevision: 0, modRevision: revision, version: 0 };
		this.state.keys[key].push(tombstone);
		this.state.changes.push({ type: 'DELETE', kv: tombstone, prevKv: prev });
		this.grow(sizeOf(tombstone));
	}

	private grow(bytes: number): void {
		this.state.sizeInUseBytes += bytes;
		this.state.sizeBytes = Math.max(this.state.sizeBytes, this.state.sizeInUseBytes);
	}

	/** Changes after `fromRevision` (exclusive) under `key` (a prefix if `prefix`). */
	changesSince(fromRevision: number, key: string, prefix: boolean): MvccEvent[] {
		if (fromRevision < this.state.compactRevision) throw new MvccError('compacted', 'mvcc: required revision has been compacted');
		const changes = this.state.changes;
		// The feed is in revision order: find the first change after
		// fromRevision by bisection, so a watcher that is nearly caught up
		// pays for what it has not seen, not for the whole history.
		let lo = 0;
		let hi = changes.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (changes[mid].kv.modRevision <= fromRevision) lo = mid + 1;
			else hi = mid;
		}
		const out: MvccEvent[] = [];
		for (let i = lo; i < changes.length; i++) {
			const change = changes[i];
			if (prefix ? change.kv.key.startsWith(key) : change.kv.key === key) out.push(change);
		}
		return out;
	}

	/**
	 * Forgets every version older than `revision` except the one live at that
	 * revision, as etcd's compaction does. Space is freed for reuse; the file
	 * keeps its size until `defragment()`.
	 */
	compact(revision: number): void {
		if (revision <= this.state.compactRevision) throw new MvccError('compacted', 'mvcc: required revision has been compacted');
		if (revision > this.state.revision) throw new MvccError('future-revision', 'mvcc: required revision is a future revision');
		let freed = 0;
		for (const key of Object.keys(this.state.keys)) {
			const versions = this.state.keys[key];
			// Index of the last version at or before the compaction revision.
			let keep = -1;
			for (let i = versions.length - 1; i >= 0; i--) {
				if (versions[i].modRevision <= revision) {
					keep = i;
					break;
				}
			}
			if (keep <= 0 && !(keep === 0 && versions[0].version === 0)) continue;
			const dropped = versions[keep].version === 0 ? versions.splice(0, keep + 1) : versions.splice(0, keep);
			for (const kv of dropped) freed += sizeOf(kv);
			if (versions.length === 0) delete this.state.keys[key];
		}
		this.state.changes = this.state.changes.filter((c) => c.kv.modRevision > revision);
		this.state.sizeInUseBytes -= freed;
		this.state.compactRevision = revision;
	}

	/** A lone member leads itself: it has nobody to hand leadership to (etcdserver's ErrBadLeaderTransferee). */
	moveLeader(): void {
		throw new MvccError('bad-transferee', 'etcdserver: bad leader transferee');
	}

	/** A lone member cannot remove itself: nobody would be left to commit the change (--strict-reconfig-check). */
	memberRemove(): void {
		throw new MvccError('not-enough-members', 'etcdserver: re-configuration failed due to not enough started members');
	}

	/** Growing a lone member into a cluster by hand is not simulated (a cluster of several comes from controlPlane.etcdMembers). */
	memberAdd(): string {
		throw new MvccError('unavailable', 'member add: not simulated for a lone member (start the cluster with controlPlane.etcdMembers for several)');
	}

	/** Shrinks the backend file to what is in use (etcdctl defrag). */
	defragment(): void {
		this.state.sizeBytes = this.state.sizeInUseBytes;
	}

	/** Clears the NOSPACE alarm (etcdctl alarm disarm); it comes back at the next write over quota. */
	disarmAlarms(): void {
		this.state.alarms = [];
	}

	/** Grants a lease of `ttlSeconds`; keys attached to it go when it expires. */
	grantLease(ttlSeconds: number, nowMs: number): number {
		const id = this.state.nextLeaseId++;
		this.state.leases[String(id)] = { ttlSeconds, expiresAtMs: nowMs + ttlSeconds * 1000 };
		return id;
	}

	/** Deletes the keys of every lease expired at `nowMs`. Returns how many keys went. */
	expireLeases(nowMs: number): number {
		const expired = Object.entries(this.state.leases)
			.filter(([, l]) => l.expiresAtMs <= nowMs)
			.map(([id]) => Number(id));
		if (expired.length === 0) return 0;
		const doomed: string[] = [];
		for (const key of Object.keys(this.state.keys).sort()) {
			const kv = this.versionAt(key, this.state.revision);
			if (kv?.lease && expired.includes(kv.lease)) doomed.push(key);
		}
		for (const id of expired) delete this.state.leases[String(id)];
		if (doomed.length) this.txn([], doomed.map((key) => ({ delete: { key } })));
		return doomed.length;
	}

	/** Number of live keys (for `endpoint status` and metrics). */
	keyCount(): number {
		return Object.keys(this.state.keys).filter((k) => this.versionAt(k, this.state.revision)).length;
	}
}
