/**
 * The etcd v3 API as its clients see it (KV, Watch, Lease, Maintenance):
 * what kube-apiserver's storage layer and etcdctl send, and what they get
 * back, whatever runs behind it. Neither client reaches into the store's
 * own state; ../store/mvcc.ts implements this interface, and the wiring
 * hands each client the member's.
 *
 * Mirrors etcd-io/etcd api/etcdserverpb/rpc.proto, etcd-io/etcd
 * api/mvccpb/kv.proto, etcd-io/etcd client/v3/kv.go (KV), etcd-io/etcd
 * client/v3/watch.go (Watcher), etcd-io/etcd client/v3/lease.go (Lease),
 * etcd-io/etcd client/v3/maintenance.go (Maintenance).
 */

/** One version of one key. */
export interface KeyValue {
	key: string;
	/** Serialized object (JSON text). Empty for a deletion. */
	value: string;
	createRevision: number;
	modRevision: number;
	/** Number of puts since the key was (re)created; 0 after deletion. */
	version: number;
	/** Lease id, for keys that expire (Kubernetes Events use one with a TTL). */
	lease?: number;
}

type WatchEventType = 'PUT' | 'DELETE';

/** What a watcher sees for one change. */
export interface MvccEvent {
	type: WatchEventType;
	kv: KeyValue;
	prevKv?: KeyValue;
}

/** etcd defaults (etcd-io/etcd server/embed/config.go, server/storage/quota.go, v3.6). */
export const ETCD_DEFAULT_QUOTA_BYTES = 2 * 1024 * 1024 * 1024;
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;
/** A member's answer when a request cannot complete within its timeout: no leader, or no quorum (etcdserver ErrTimeout). */
export const REQUEST_TIMED_OUT = 'etcdserver: request timed out';

export class MvccError extends Error {
	constructor(
		readonly code: 'compacted' | 'future-revision' | 'no-space' | 'too-large' | 'unavailable' | 'bad-transferee' | 'member-not-found' | 'not-enough-members',
		message: string,
	) {
		super(message);
		this.name = 'MvccError';
	}
}

export interface RangeOptions {
	/** Read as of this revision (0 or undefined: current). */
	revision?: number;
	/** Treat `key` as a prefix. */
	prefix?: boolean;
	limit?: number;
	/** Answer from the member's own store without confirming with the leader (etcdctl --consistency=s); may be stale. */
	serializable?: boolean;
}

export interface RangeResult {
	kvs: KeyValue[];
	count: number;
	revision: number;
}

/** A comparison in a transaction: the key's mod revision must equal `modRevision` (0 = key absent). */
export interface TxnCompare {
	key: string;
	modRevision: number;
}

export type TxnOp = { put: { key: string; value: string; lease?: number } } | { delete: { key: string } };

export interface TxnResult {
	succeeded: boolean;
	revision: number;
	/** On failure, the current version of each compared key (as Kubernetes' GuaranteedUpdate re-reads). */
	current: Array<KeyValue | undefined>;
}

/** What `endpoint status` reports of the backend (Maintenance.Status). */
export interface EtcdBackendStatus {
	revision: number;
	/** Bytes of the backend file: grows with writes, shrinks only on defragment. */
	sizeBytes: number;
	/** Bytes of live revisions. */
	sizeInUseBytes: number;
	quotaBytes: number;
	/** Active alarms, e.g. NOSPACE once the quota is hit. */
	alarms: readonly string[];
	/** Leases ever granted (each one a Raft entry). */
	leasesGranted: number;
}

/** One etcd member's client API. */
export interface EtcdClient {
	/** The store's current revision (every response header carries it). */
	readonly revision: number;
	/** Revisions below this one are compacted away. */
	readonly compactRevision: number;
	/** KV.Range: one key or a prefix, as of a revision. */
	range(key: string, options?: RangeOptions): RangeResult;
	/** KV.Txn with mod-revision comparisons. */
	txn(compares: TxnCompare[], ops: TxnOp[]): TxnResult;
	/** KV.Put: the new revision. */
	put(key: string, value: string, lease?: number): number;
	/** KV.DeleteRange: how many keys went. */
	delete(key: string, prefix?: boolean): number;
	/** Watch from a revision: the changes after `fromRevision` under `key`. */
	changesSince(fromRevision: number, key: string, prefix: boolean): MvccEvent[];
	/** KV.Compact. */
	compact(revision: number): void;
	/** Lease.Grant: the new lease's id. */
	grantLease(ttlSeconds: number, nowMs: number): number;
	/** Whether a lease is still alive (a put naming a dead lease fails). */
	hasLease(id: number): boolean;
	/** Maintenance.Defragment. */
	defragment(): void;
	/** Maintenance.Alarm(DEACTIVATE). */
	disarmAlarms(): void;
	/** Maintenance.Status. */
	status(): EtcdBackendStatus;
	/** Maintenance.MoveLeader, sent to the leader: hands leadership to the member named `target`. */
	moveLeader(target: string): void;
	/** Cluster.MemberRemove: the member named `target` leaves the voting configuration. */
	memberRemove(target: string): void;
	/** Cluster.MemberAdd: a voting member with these peer URLs joins the configuration, unstarted until a process with them runs; its name in the cluster. */
	memberAdd(peerUrl: string): string;
	/** Live keys (etcd_debugging_mvcc_keys_total). */
	keyCount(): number;
}
