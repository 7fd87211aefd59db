/**
 * The etcd member process. Its data (./mvcc.ts) is durable: stopping etcd
 * makes the data unreachable, not lost. While it runs it tells its watchers
 * (the API server's watch cache) about every new revision, and expires
 * leases (Kubernetes Events carry a one-hour lease).
 *
 * Alone, the member is the whole cluster: writes apply at once. As one of
 * 3 or 5 members (`raft`, ./etcd-cluster.ts) it ticks every heartbeat
 * interval to drive its Raft state, its leader sweeps expired leases through
 * the log, and its clients get answers only while it can reach a leader
 * that has a quorum (`store()`).
 *
 * Mirrors etcd-io/etcd server/embed/etcd.go (the member), etcd-io/etcd
 * server/storage/mvcc/watchable_store.go (notifying watchers of each
 * revision), etcd-io/etcd server/lease/lessor.go (expiring leases).
 */
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import type { EtcdClient } from '../etcd-api/etcd.ts';
import type { EtcdCluster } from './etcd-cluster.ts';
import type { MvccStore } from './mvcc.ts';
import { HEARTBEAT_INTERVAL_MS } from './raft/raft.ts';

/** etcd's defaults that the tools report (etcd-io/etcd server/embed/config.go, v3.6). */
export const ETCD_CLIENT_PORT = 2379;
const ETCD_PEER_PORT = 2380;
/** The etcd version kubeadm ships with Kubernetes 1.34 to 1.36 (cmd/kubeadm/app/constants). */
export const ETCD_VERSION = '3.6.10';

/** Volatile state of the member: who watches it. */
interface EtcdMemberState {
	watchers: string[];
	/** Revision last announced to watchers. */
	announcedRevision: number;
}

/** How often expired leases are swept. */
const LEASE_SWEEP_MS = 1000;

export class EtcdMember extends ProcessBase<EtcdMemberState> {
	/** The member's store: the database in the data directory it last started on. */
	data: MvccStore;

	constructor(
		kernel: Kernel,
		data: MvccStore,
		id = 'etcd',
		/** Name of the node the member runs on, for `member list`. */
		readonly nodeName = 'control-plane',
		/** The member's IP address. */
		readonly address = '127.0.0.1',
		/** Its place in a Raft cluster of several members (absent: a cluster of one, kubeadm's default). */
		readonly raft?: { cluster: EtcdCluster; name: string; /** The process exits (its container with it): after it was removed from the cluster. */ exit?: () => void },
		/** The store in the data directory its static pod's manifest points at now (a lone member: a restored directory is another store). */
		private readonly openDataDir?: () => MvccStore | undefined,
	) {
		super(id, kernel);
		this.data = data;
	}

	private raftClient: EtcdClient | undefined;

	freshState(): EtcdMemberState {
		return { watchers: [], announcedRevision: this.data.revision };
	}

	onStart(): void {
		if (!this.raft) {
			this.data = this.openDataDir?.() ?? this.data;
			this.state.announcedRevision = this.data.revision;
		}
		this.emit({ action: 'start', rv: this.data.revision, msg: `etcd ${ETCD_VERSION} serving clients on ${ETCD_CLIENT_PORT}, peers on ${ETCD_PEER_PORT}, at revision ${this.data.revision}` });
		this.periodic(LEASE_SWEEP_MS, 'sweep-leases');
		if (this.raft) {
			this.raft.cluster.started(this.raft.name);
			this.periodic(HEARTBEAT_INTERVAL_MS, 'raft-tick');
		}
	}

	/**
	 * The member's client API if it answers requests now (what
	 * kube-apiserver's connection reaches): it is up and, in a Raft cluster,
	 * it can reach a leader that has a quorum.
	 */
	store(): EtcdClient | undefined {
		if (!this.kernel.isRunning(this.id)) return undefined;
		if (!this.raft) return this.data;
		return this.raft.cluster.serves(this.raft.name, this.kernel.nowMs) ? this.connect() : undefined;
	}

	/** A connection to the member while it runs, whether or not its requests can succeed (etcdctl's dial). */
	connect(): EtcdClient | undefined {
		if (!this.kernel.isRunning(this.id)) return undefined;
		if (!this.raft) return this.data;
		this.raftClient ??= this.raft.cluster.client(this.raft.name);
		return this.raftClient;
	}

	/** Registers a process to be told of new revisions (an etcd watch on /registry/). */
	addWatcher(processId: string): void {
		if (!this.kernel.isRunning(this.id)) return;
		if (!this.state.watchers.includes(processId)) this.state.watchers.push(processId);
	}

	handle(event: QueuedEvent): void {
		switch (event.kind) {
			case 'notify-watchers':
				this.announce();
				break;
			case 'removed-exit':
				this.raft?.exit?.();
				break;
			case 'raft-tick':
				this.raft?.cluster.tick(this.raft.name);
				this.periodic(HEARTBEAT_INTERVAL_MS, 'raft-tick');
				break;
			case 'sweep-leases': {
				if (this.raft) {
					// Only the leader's lessor revokes, through the log; every member then deletes the keys.
					this.raft.cluster.sweepLeases(this.raft.name, this.kernel.nowMs);
					this.periodic(LEASE_SWEEP_MS, 'sweep-leases');
					break;
				}
				const removed = this.data.expireLeases(this.kernel.nowMs);
				if (removed > 0) {
					this.emit({ action: 'expire', rv: this.data.revision, msg: `${removed} key(s) removed with their expired lease` });
					this.announce();
				}
				this.periodic(LEASE_SWEEP_MS, 'sweep-leases');
				break;
			}
		}
	}

	/** Learned it was removed from the cluster: says so, as etcd logs it, and exits right after. */
	shutDownRemoved(): void {
		this.emit({ action: 'removed', rv: this.data.revision, msg: 'the member has been permanently removed from the cluster' });
		this.after(0, 'removed-exit');
	}

	/** Writes to the process's trace (the cluster reports Raft role changes through it). */
	log(action: string, msg: string): void {
		this.emit({ action, rv: this.data.revision, msg });
	}

	/** Tells every watcher about revisions they have not heard of (after writes from any client). */
	announce(): void {
		if (this.data.revision === this.state.announcedRevision) return;
		this.state.announcedRevision = this.data.revision;
		this.state.watchers = this.state.watchers.filter((w) => this.kernel.isRunning(w));
		for (const watcher of this.state.watchers) this.kernel.schedule(watcher, 1, 'etcd-changed', { revision: this.data.revision });
	}
}
