/**
 * The etcd member process. Its data (./mvcc.ts) is durable: stopping etcd
 * makes the data unreachable, not lost. While it runs it tells its watchers
 * (the API server's watch cache) about every new revision, and expires
 * leases (Kubernetes Events carry a one-hour lease).
 *
 * One member for now; the Raft cluster of 3 or 5 members comes with the
 * HA chapter (see ROADMAP), behind the same `store()` seam.
 *
 * Mirrors etcd-io/etcd server/embed/etcd.go (the member), etcd-io/etcd
 * server/storage/mvcc/watchable_store.go (notifying watchers of each
 * revision), etcd-io/etcd server/lease/lessor.go (expiring leases).
 */
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';
import type { MvccStore } from './mvcc.ts';

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
	constructor(
		kernel: Kernel,
		readonly data: MvccStore,
		id = 'etcd',
		/** Name of the node the member runs on, for `member list`. */
		readonly nodeName = 'control-plane',
		/** The member's IP address. */
		readonly address = '127.0.0.1',
	) {
		super(id, kernel);
	}

	freshState(): EtcdMemberState {
		return { watchers: [], announcedRevision: this.data.revision };
	}

	onStart(): void {
		this.emit({ action: 'start', rv: this.data.revision, msg: `etcd ${ETCD_VERSION} serving clients on ${ETCD_CLIENT_PORT}, peers on ${ETCD_PEER_PORT}, at revision ${this.data.revision}` });
		this.periodic(LEASE_SWEEP_MS, 'sweep-leases');
	}

	/** The store, if this member is up (what a client connection reaches). */
	store(): MvccStore | undefined {
		return this.kernel.isRunning(this.id) ? this.data : undefined;
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
			case 'sweep-leases': {
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

	/** Tells every watcher about revisions they have not heard of (after writes from any client). */
	announce(): void {
		if (this.data.revision === this.state.announcedRevision) return;
		this.state.announcedRevision = this.data.revision;
		this.state.watchers = this.state.watchers.filter((w) => this.kernel.isRunning(w));
		for (const watcher of this.state.watchers) this.kernel.schedule(watcher, 1, 'etcd-changed', { revision: this.data.revision });
	}
}
