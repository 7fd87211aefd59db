/**
 * The numbers `etcdctl endpoint status` reports, derived from the simulated
 * store: the backend file size and the part in use, and the Raft index. They
 * are what the Status call fills in (DbSize = backend size, DbSizeInUse =
 * size minus free pages, RaftIndex, RaftAppliedIndex).
 *
 * The store counts bytes per revision (key + value + an estimated page and
 * index overhead); a real bbolt file grows in 4 KiB pages and a fresh etcd
 * data file is already 20 kB, so both are added here.
 *
 * Mirrors etcd-io/etcd server/etcdserver/api/v3rpc/maintenance.go (Status).
 */
import type { EtcdClient } from '../../etcd-api/etcd.ts';
import type { EtcdMemberFacts } from './types.ts';

/** bbolt's page size on Linux amd64: the file grows in whole pages. */
const BOLT_PAGE_BYTES = 4096;
/** A fresh etcd v3 data file: 5 pages = 20480 bytes, printed `20 kB` (meta pages, freelist and etcd's buckets). */
const EMPTY_BACKEND_BYTES = 5 * BOLT_PAGE_BYTES;
/** Raft entries a fresh single member writes before any key: membership, the leader's empty entry, its attributes, the cluster version. */
const DEFAULT_RAFT_BOOT_ENTRIES = 4;

const pages = (bytes: number) => Math.ceil(Math.max(0, bytes) / BOLT_PAGE_BYTES) * BOLT_PAGE_BYTES;

/** Everything Status answers about one member. */
export interface MemberStatus {
	revision: number;
	dbSizeBytes: number;
	dbSizeInUseBytes: number;
	dbSizeQuotaBytes: number;
	raftTerm: number;
	raftIndex: number;
	raftAppliedIndex: number;
	/** `memberID:<id> alarm:NOSPACE ` style strings, as the member reports alarms in `errors`. */
	errors: string[];
}

/** Status of the member whose data is `store`. */
export function memberStatus(store: EtcdClient, facts: EtcdMemberFacts): MemberStatus {
	const backend = store.status();
	const dbSizeBytes = EMPTY_BACKEND_BYTES + pages(backend.sizeBytes);
	const dbSizeInUseBytes = Math.min(dbSizeBytes, EMPTY_BACKEND_BYTES + pages(backend.sizeInUseBytes));
	// One Raft entry per write (a revision) and per lease grant, after the boot entries.
	const raftIndex = (facts.raftBootEntries ?? DEFAULT_RAFT_BOOT_ENTRIES) + (store.revision - 1) + (backend.leasesGranted);
	return {
		revision: store.revision,
		dbSizeBytes,
		dbSizeInUseBytes,
		dbSizeQuotaBytes: backend.quotaBytes,
		raftTerm: facts.raftTerm,
		raftIndex: facts.raftIndex ?? raftIndex,
		raftAppliedIndex: facts.raftAppliedIndex ?? raftIndex,
		// A member that knows no leader says so first, then its alarms (maintenance.go Status: ErrNoLeader).
		errors: [...(facts.leaderId === '0' ? ['etcdserver: no leader'] : []), ...backend.alarms.map((alarm) => `memberID:${BigInt('0x' + facts.memberId).toString(10)} alarm:${alarm} `)],
	};
}
