/**
 * What etcdctl (and etcdutl) need from the cluster, passed in by the cluster
 * wiring: the member's data when it can be reached, the facts `member list`
 * and `endpoint status` report, the virtual clock and the node's seeded
 * random stream. Nothing here reaches into another component's folder: the
 * member is reached through etcd's own client API (etcd-api/etcd.ts).
 *
 * Mirrors nothing upstream: what the cluster wiring hands etcdctl and
 * etcdutl (the member, the facts member list and endpoint status report, the
 * clock).
 */
import type { EtcdClient } from '../../etcd-api/etcd.ts';

/** The etcd version kubeadm v1.34–v1.36 deploys (cmd/kubeadm/app/constants, FACTS.md F). */
export const ETCD_VERSION = '3.6.10';
/** The storage (schema) version an etcd 3.6 member reports and writes into snapshots: major.minor.0 (server/storage/schema). */
export const ETCD_STORAGE_VERSION = '3.6.0';
/** `API version` that `etcdctl version` prints: major.minor of the binary (api/version/version.go). */
export const ETCD_API_VERSION = '3.6';
/** Client port (server/embed/config.go DefaultListenClientURLs). */
export const ETCD_CLIENT_PORT = 2379;

/**
 * The facts one etcd member reports about itself. For a kubeadm cluster:
 * name = the node name, peer URL `https://<node-ip>:2380`, client URL
 * `https://<node-ip>:2379`, and it listens on 127.0.0.1:2379 too
 * (kubeadm's etcd static pod: --listen-client-urls).
 */
export interface EtcdMemberFacts {
	/** --name: the control-plane node's name under kubeadm. */
	name: string;
	/** Member ID, 16 lower-case hex digits (see ids.ts memberId). */
	memberId: string;
	/** Cluster ID, 16 lower-case hex digits (see ids.ts clusterId). */
	clusterId: string;
	/** --initial-advertise-peer-urls. */
	peerUrls: string[];
	/** --advertise-client-urls (what `member list` shows and `--cluster` dials). */
	clientUrls: string[];
	/** --listen-client-urls: the URLs the member answers on. `127.0.0.1` ones answer only on `nodeName`. */
	listenClientUrls: string[];
	/** The host the member runs on (its loopback addresses are only reachable from there). */
	nodeName: string;
	/** `3.6.10`. */
	version: string;
	/** Current Raft term: 2 after a fresh single-member start (it campaigns once), one more per restart. */
	raftTerm: number;
	isLeader: boolean;
	/** How the wiring names the member when `name` is empty (a member added by hand and never started). */
	memberKey?: string;
	/** The member ID of the leader this member follows ('0': none known). Default: itself when `isLeader`. */
	leaderId?: string;
	isLearner?: boolean;
	/** The member's last and applied Raft indexes, when a Raft cluster reports them (otherwise derived, see status.ts). */
	raftIndex?: number;
	raftAppliedIndex?: number;
	/**
	 * Raft entries that are not key writes: the initial membership entry, the
	 * leader's empty entry, the published member attributes and the cluster
	 * version (4 for a fresh single member). The raft index is this plus
	 * one entry per revision and per lease grant (see status.ts).
	 */
	raftBootEntries?: number;
}

/**
 * Which TLS material the member accepts, by file path on the host where
 * etcdctl runs. kubeadm's etcd serves TLS only and requires client
 * certificates (--client-cert-auth=true, --trusted-ca-file=etcd/ca.crt).
 */
export interface EtcdTlsPolicy {
	/** CA bundles that verify the member's serving certificate. */
	trustedCaFiles: string[];
	/** Client certificates signed by etcd's CA (any other certificate is refused). */
	clientCertFiles: string[];
}

/** kubeadm's layout under /etc/kubernetes/pki (cmd/kubeadm/app/constants: EtcdCACertName, EtcdHealthcheckClientCertName, APIServerEtcdClientCertName, EtcdServerCertName, EtcdPeerCertName). */
export const KUBEADM_ETCD_TLS: EtcdTlsPolicy = {
	trustedCaFiles: ['/etc/kubernetes/pki/etcd/ca.crt'],
	clientCertFiles: [
		'/etc/kubernetes/pki/etcd/healthcheck-client.crt',
		'/etc/kubernetes/pki/apiserver-etcd-client.crt',
		'/etc/kubernetes/pki/etcd/server.crt',
		'/etc/kubernetes/pki/etcd/peer.crt',
	],
};

/** What etcdctl is wired to. */
export interface EtcdctlDeps {
	/**
	 * A connection to the member named `memberName` if its process is up and
	 * its machine reachable from `hostName` (the shell host etcdctl runs on),
	 * else undefined. Its requests may still time out (no quorum).
	 */
	store(hostName: string, memberName: string): EtcdClient | undefined;
	/** Every member's facts now, in member-ID order (as MemberList returns them). */
	members(): EtcdMemberFacts[];
	/** Tells the member a client wrote (so it announces the new revision to its watchers). */
	notify(): void;
	/** Virtual wall clock, epoch milliseconds (log timestamps). */
	wallMs(): number;
	/** The node's seeded random stream: a number in [0, 1). Latencies and pointer-like values come from it. */
	random(): number;
	/** Lets virtual time pass while etcdctl waits (a command timeout): the wiring advances the cluster. */
	elapse?(ms: number): void;
	/** The IP address of a shell host (the client side of gRPC's Peer string in warnings). */
	hostIp?(hostName: string): string | undefined;
	/** TLS files the member accepts (default: kubeadm's). */
	tls?: EtcdTlsPolicy;
}
