/**
 * How etcd names its members and its cluster, so `member list` shows the IDs
 * a real cluster with the same flags would show.
 *
 * Mirrors etcd-io/etcd server/etcdserver/api/membership/member.go
 * (computeMemberID: SHA-1 of the sorted peer URLs joined, then the cluster
 * token; first 8 bytes big-endian), etcd-io/etcd
 * server/etcdserver/api/membership/cluster.go (genID: SHA-1 of the member
 * IDs as 8-byte big-endian words).
 */
import { sha1 } from '../../golang/sha1.ts';
import { toHex } from '../../golang/sha256.ts';
import { utf8Encode } from '../../golang/utf8.ts';

/** --initial-cluster-token's default; kubeadm does not set it (server/embed/config.go). */
export const DEFAULT_CLUSTER_TOKEN = 'etcd-cluster';

/** A new member's ID from its peer URLs and the cluster token, as 16 hex digits. */
export function memberId(peerUrls: readonly string[], clusterToken = DEFAULT_CLUSTER_TOKEN): string {
	// Go's sort.Strings compares bytes; URLs are ASCII, where that equals JS's default order.
	const joined = [...peerUrls].sort().join('');
	return toHex(sha1(utf8Encode(joined + clusterToken)).slice(0, 8));
}

/** The cluster ID from its members' IDs (sorted numerically, as MemberIDs returns them). */
export function clusterId(memberIds: readonly string[]): string {
	const sorted = [...memberIds].sort((a, b) => (BigInt('0x' + a) < BigInt('0x' + b) ? -1 : 1));
	const bytes = sorted.flatMap((id) => id.padStart(16, '0').match(/../g)!.map((pair) => parseInt(pair, 16)));
	return toHex(sha1(bytes).slice(0, 8));
}
