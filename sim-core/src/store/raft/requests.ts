/**
 * What a member puts in a Raft entry and how every member applies it to its
 * own MVCC store. Every write to etcd (a transaction, a put, a delete, a
 * compaction, a lease grant or revocation, clearing an alarm, a membership
 * change) goes through the log, so every member applies the same requests
 * in the same order and ends with the same keys and revisions. A request
 * the store refuses (over quota, too large, a compacted revision) is
 * refused the same way on every member: the error is the apply's result.
 *
 * Time enters only through the request (a lease's grant time, the instant
 * the leader found leases expired), never from a member's own clock, so
 * applying is deterministic.
 *
 * Mirrors etcd-io/etcd api/etcdserverpb/raft_internal.proto
 * (InternalRaftRequest), etcd-io/etcd server/etcdserver/apply/apply.go
 * (applierV3: Put, Range, DeleteRange, Txn, Compaction, LeaseGrant,
 * LeaseRevoke, Alarm), etcd-io/etcd server/etcdserver/server.go
 * (applyConfChange).
 */
import { MvccError, type TxnCompare, type TxnOp } from '../../etcd-api/etcd.ts';
import type { MvccStore } from '../mvcc.ts';

export type EtcdRequest =
	| { op: 'txn'; compares: TxnCompare[]; ops: TxnOp[] }
	| { op: 'put'; key: string; value: string; lease?: number }
	| { op: 'delete'; key: string; prefix: boolean }
	| { op: 'compact'; revision: number }
	| { op: 'lease-grant'; ttlSeconds: number; nowMs: number }
	| { op: 'lease-expire'; nowMs: number }
	| { op: 'alarm-disarm' }
	| { op: 'member-add'; name: string }
	| { op: 'member-remove'; name: string };

/** The outcome of applying one request: its value, or the store's refusal. */
export type ApplyResult = { value: unknown } | { error: { code: MvccError['code']; message: string } };

export function encodeRequest(request: EtcdRequest): string {
	return JSON.stringify(request);
}

export function decodeRequest(data: string): EtcdRequest {
	return JSON.parse(data) as EtcdRequest;
}

/** Applies a (non-membership) request to a member's store. */
export function applyRequest(store: MvccStore, request: EtcdRequest): ApplyResult {
	try {
		switch (request.op) {
			case 'txn':
				return { value: store.txn(request.compares, request.ops) };
			case 'put':
				return { value: store.put(request.key, request.value, request.lease) };
			case 'delete':
				return { value: store.delete(request.key, request.prefix) };
			case 'compact':
				store.compact(request.revision);
				return { value: undefined };
			case 'lease-grant':
				return { value: store.grantLease(request.ttlSeconds, request.nowMs) };
			case 'lease-expire':
				return { value: store.expireLeases(request.nowMs) };
			case 'alarm-disarm':
				store.disarmAlarms();
				return { value: undefined };
			case 'member-add':
			case 'member-remove':
				// Membership lives in Raft, not in the key space.
				return { value: undefined };
		}
	} catch (error) {
		if (error instanceof MvccError) return { error: { code: error.code, message: error.message } };
		throw error;
	}
}

/** The result as the client sees it: the value, or the store's error thrown again. */
export function unwrap<T>(result: ApplyResult): T {
	if ('error' in result) throw new MvccError(result.error.code, result.error.message);
	return result.value as T;
}
