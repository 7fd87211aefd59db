/**
 * etcd as a Raft cluster: the members, each with its own Raft state
 * (./raft/raft.ts) and its own MVCC store (./mvcc.ts), the peer network
 * between them, and what a client connected to one member gets (the same
 * EtcdClient interface a single member offers, ../etcd-api/etcd.ts):
 *
 * - a write becomes a Raft entry, proposed to the leader this member knows
 *   (a follower forwards it, as etcd's do), and is answered once this
 *   member has applied it: committed on a quorum. Without a reachable leader
 *   with a quorum, the request fails as etcd's does after its timeout:
 *   `etcdserver: request timed out` (an entry the leader appended may
 *   still commit later, exactly as in etcd: a timed-out write may land);
 * - a read is linearizable (ReadIndex: the leader confirms with a heartbeat
 *   round that it still leads, and this member applies up to that index
 *   first) unless the client asks for a serializable one (etcdctl
 *   `--consistency=s`), which answers from this member's store even when it
 *   is cut off, possibly stale;
 * - watches, status and defragmentation are this member's own.
 *
 * Members join as `kubeadm join --control-plane` adds them: the first
 * bootstraps a one-member cluster, and each further member is added by a
 * membership change through the log when its static Pod first starts, then
 * catches up from the leader's log (or a snapshot of its store).
 *
 * Peer messages take no virtual time here: they are delivered at the
 * instant they are sent, to members that are running and can reach each
 * other (a stopped member, a powered-off or cut-off machine, drops them).
 * Elections still take the time etcd's do, since they run on the members'
 * ticks (100 ms heartbeats, a randomized 1000 to 1900 ms election timeout).
 * Latency and loss between members are exercised by the Raft property
 * tests (../testing/raft-harness.ts).
 *
 * Mirrors etcd-io/etcd server/etcdserver/server.go (the raft node, apply,
 * applyConfChange, the lessor's revocation by the leader), etcd-io/etcd
 * server/etcdserver/v3_server.go (raftRequest, linearizableReadNotify,
 * ErrTimeout), etcd-io/etcd server/etcdserver/api/membership/cluster.go
 * (members), cmd/kubeadm/app/phases/etcd/local.go (joining a stacked
 * member).
 */
import { MvccError, REQUEST_TIMED_OUT, type EtcdBackendStatus, type EtcdClient, type MvccEvent, type RangeOptions, type RangeResult, type TxnCompare, type TxnOp, type TxnResult } from '../etcd-api/etcd.ts';
import { MvccStore, type MvccState } from './mvcc.ts';
import { ETCD_RAFT_CONFIG, RaftNode, SNAPSHOT_CATCH_UP_ENTRIES, SNAPSHOT_COUNT, newRaftState, restartedRaftState, type RaftMessage, type RaftRandom, type RaftRole, type RaftState } from './raft/raft.ts';
import { applyRequest, decodeRequest, encodeRequest, unwrap, type ApplyResult, type EtcdRequest } from './raft/requests.ts';


/** A member's durable record, plain JSON: its Raft state and its store. */
export interface EtcdClusterMemberState {
	name: string;
	/** The kernel process that runs it (its static Pod's container). */
	processId: string;
	/** When it was added by a membership change (virtual wall ms; absent for the first member): part of its member ID. */
	addedAtWallMs?: number;
	/** Removed from the cluster (etcdctl member remove): it never rejoins by itself, and its process exits at start. */
	removed?: boolean;
	/** A member added by hand (etcdctl member add) that no process runs: its peer URL; it counts toward the quorum and never answers. */
	unstartedPeerUrl?: string;
	raft: RaftState;
	data: MvccState;
}

export type EtcdClusterSnapshot = EtcdClusterMemberState[];

/** What the cluster needs from the machines and processes around it. */
export interface EtcdClusterDeps {
	isRunning(processId: string): boolean;
	/** Whether two machines can exchange packets (both powered on, neither cut off). */
	reachable(machineA: string, machineB: string): boolean;
	/** The member process's seeded stream, for its randomized election timeout. */
	random(processId: string): RaftRandom;
	/** Virtual wall clock, epoch ms. */
	wallMs(): number;
	/** A member's peer URL (`https://<machine ip>:2380`), for member add's duplicate check. */
	peerUrl?(name: string): string | undefined;
	/** A member applied entries: its watchers should hear about new revisions. */
	applied(name: string): void;
	/** A member learned it was removed: its process exits ("the member has been permanently removed from the cluster"). */
	removed(name: string): void;
	/** A member's role, term or leader changed (for the trace and the logs). */
	raftChanged(name: string, before: RaftView, after: RaftView): void;
}

/** The part of a member's Raft state that its log lines and etcdctl report. */
export interface RaftView {
	role: RaftRole;
	term: number;
	lead: string;
}

interface Member {
	record: EtcdClusterMemberState;
	data: MvccStore;
	node: RaftNode;
	/** Indexes whose apply result a client of this member waits for. */
	awaiting: Map<number, { term: number; result?: ApplyResult }>;
	reported: RaftView;
}

const view = (s: RaftState): RaftView => ({ role: s.role, term: s.term, lead: s.lead });
const sameView = (a: RaftView, b: RaftView) => a.role === b.role && a.term === b.term && a.lead === b.lead;

export class EtcdCluster {
	private readonly members = new Map<string, Member>();
	private readCounter = 0;
	/** The last readiness probe, by what it depended on: requests at one instant ask many times. */
	private probe: { fingerprint: string; ok: boolean } | undefined;

	constructor(
		private readonly deps: EtcdClusterDeps,
		restore?: EtcdClusterSnapshot,
	) {
		for (const record of restore ?? []) this.attach(record);
	}

	private attach(record: EtcdClusterMemberState): Member {
		const data = new MvccStore(record.data);
		const member: Member = { record, data, node: this.nodeFor(record, data), awaiting: new Map(), reported: view(record.raft) };
		this.members.set(record.name, member);
		return member;
	}

	private nodeFor(record: EtcdClusterMemberState, data: MvccStore): RaftNode {
		return new RaftNode(
			record.raft,
			this.deps.random(record.processId),
			undefined,
			() => JSON.stringify(data.state),
			(snapshot) => Object.assign(data.state, JSON.parse(snapshot.data) as MvccState),
		);
	}

	/** The first member: a cluster of one, over the store it already has (kubeadm init's local etcd). */
	bootstrap(name: string, processId: string, data: MvccStore): MvccStore {
		const existing = this.members.get(name);
		if (existing) return existing.data;
		const raft = newRaftState(name, [name]);
		// etcd's bootstrap: the initial membership is entry 1 of term 1, committed before the member first campaigns (which makes term 2).
		raft.term = 1;
		raft.entries = [{ term: 1, index: 1, data: encodeRequest({ op: 'member-add', name }) }];
		raft.commit = 1;
		raft.applied = 1;
		const record: EtcdClusterMemberState = { name, processId, raft, data: data.state };
		return this.attach(record).data;
	}

	/** A member that will join when its process first starts, with an empty store; its store. */
	prepare(name: string, processId: string): MvccStore {
		const existing = this.members.get(name);
		if (existing) return existing.data;
		// Not a voter until its membership change commits: its own config lists only itself as a non-voter.
		const record: EtcdClusterMemberState = { name, processId, raft: newRaftState(name, []), data: MvccStore.empty().state };
		return this.attach(record).data;
	}

	/** Names of the members in the voting configuration, as the first member's log has it. */
	voters(): string[] {
		for (const m of this.members.values()) if (m.record.raft.peers.includes(m.record.name)) return [...m.record.raft.peers];
		return [];
	}

	memberNames(): string[] {
		return [...this.members.keys()];
	}

	/** Members added by hand that no process runs (etcdctl member add), still in the configuration: name, peer URL, when added. */
	unstarted(): Array<{ name: string; peerUrl: string; addedAtWallMs: number }> {
		return [...this.members.values()].filter((m) => m.record.unstartedPeerUrl && !m.record.removed).map((m) => ({ name: m.record.name, peerUrl: m.record.unstartedPeerUrl!, addedAtWallMs: m.record.addedAtWallMs ?? 0 }));
	}

	/**
	 * MemberAdd through member `via`, with etcd's --strict-reconfig-check: a
	 * peer URL already in use is refused; so is an add that would leave fewer
	 * started members than the new quorum (`not enough started members`), or
	 * one made while the leader is not connected to every voter
	 * (`unhealthy cluster`). The new member counts toward the quorum at once;
	 * until a process with its peer URL runs (none does here), it is
	 * `unstarted` and never answers, which is why etcd says to start it right
	 * after adding it.
	 */
	addMember(via: string, peerUrl: string, peerUrlOf: (name: string) => string | undefined): string {
		const { leader } = this.leaderOrTimeout(via);
		const voters = leader.record.raft.peers;
		const urlOf = (name: string) => this.members.get(name)?.record.unstartedPeerUrl ?? peerUrlOf(name);
		if (voters.some((v) => urlOf(v) === peerUrl)) throw new MvccError('not-enough-members', 'etcdserver: Peer URLs already exists');
		const started = voters.filter((v) => !this.members.get(v)?.record.unstartedPeerUrl).length;
		const members = voters.length + 1;
		if (!(started === 1 && members === 2) && started < Math.floor(members / 2) + 1) throw new MvccError('not-enough-members', 'etcdserver: re-configuration failed due to not enough started members');
		if (voters.some((v) => !this.canReach(leader, this.members.get(v) ?? leader) || !this.members.has(v) || !!this.members.get(v)!.record.unstartedPeerUrl)) throw new MvccError('unavailable', 'etcdserver: unhealthy cluster');
		const name = `unstarted-${this.members.size + 1}`;
		this.attach({ name, processId: '', raft: newRaftState(name, []), data: MvccStore.empty().state, addedAtWallMs: this.deps.wallMs(), unstartedPeerUrl: peerUrl });
		this.propose(via, { op: 'member-add', name });
		return name;
	}

	/** Whether `name` was removed from the cluster. */
	isRemoved(name: string): boolean {
		return !!this.members.get(name)?.record.removed;
	}

	store(name: string): MvccStore | undefined {
		return this.members.get(name)?.data;
	}

	/** When a joined member was added (absent for the first member). */
	addedAtWallMs(name: string): number | undefined {
		return this.members.get(name)?.record.addedAtWallMs;
	}

	raftState(name: string): RaftState | undefined {
		return this.members.get(name)?.record.raft;
	}

	snapshot(): EtcdClusterSnapshot {
		return [...this.members.values()].map((m) => structuredClone(m.record));
	}

	// ---- the member processes ---------------------------------------------------

	/**
	 * A member's process started: it comes back with what its disk kept (term,
	 * vote, log, applied store), or, the first time a prepared member starts,
	 * joins through a membership change.
	 */
	started(name: string): void {
		const member = this.members.get(name)!;
		if (member.record.removed) {
			this.deps.removed(name);
			return;
		}
		if (!member.record.raft.peers.includes(name)) {
			this.join(member);
			return;
		}
		member.record.raft = restartedRaftState(member.record.raft);
		// etcd's --initial-election-tick-advance: a lone member campaigns on its next tick, one with peers two ticks later, so it can hear from a leader first.
		const advance = member.record.raft.peers.length === 1 ? 1 : 2;
		member.record.raft.electionElapsed = ETCD_RAFT_CONFIG.electionTick - advance;
		member.node = this.nodeFor(member.record, member.data);
		member.awaiting.clear();
		this.settle();
	}

	/** kubeadm's join: MemberAdd through the leader, then the newcomer starts with the configuration it was added to (--initial-cluster-state=existing). */
	private join(member: Member): void {
		const name = member.record.name;
		const leader = this.anyLeaderReachableFrom(name);
		if (!leader) return;
		const before = member.record.raft;
		member.record.raft = newRaftState(name, [...leader.record.raft.peers, name]);
		member.node = this.nodeFor(member.record, member.data);
		const proposed = leader.node.propose(encodeRequest({ op: 'member-add', name }));
		if (!proposed) {
			member.record.raft = before;
			member.node = this.nodeFor(member.record, member.data);
			return;
		}
		member.record.addedAtWallMs = this.deps.wallMs();
		this.settle();
	}

	/** One heartbeat interval passed for a running member (a member not yet added tries to join again). */
	tick(name: string): void {
		const member = this.members.get(name);
		if (!member || !this.running(member) || member.record.removed) return;
		if (!member.record.raft.peers.includes(name)) {
			this.join(member);
			return;
		}
		member.node.tick();
		this.settle();
	}

	/** The leader sweeps expired leases through the log (only the leader's lessor revokes). */
	sweepLeases(name: string, nowMs: number): void {
		const member = this.members.get(name);
		if (!member || !this.running(member) || !member.node.isLeader) return;
		const due = Object.values(member.data.state.leases).some((l) => l.expiresAtMs <= nowMs);
		if (!due) return;
		member.node.propose(encodeRequest({ op: 'lease-expire', nowMs }));
		this.settle();
	}

	/**
	 * MoveLeader on member `from`: refused unless it leads (`etcdserver: not
	 * leader`) and `target` is another voter (`bad leader transferee`); done
	 * once the target has won its election, else the request times out.
	 */
	moveLeader(from: string, target: string): void {
		const member = this.members.get(from);
		if (!member || !this.running(member) || !member.node.isLeader) throw new MvccError('unavailable', 'etcdserver: not leader');
		if (target === from) return;
		const transferee = this.members.get(target);
		if (!transferee || !member.record.raft.peers.includes(target)) throw new MvccError('bad-transferee', 'etcdserver: bad leader transferee');
		member.node.transferLeadership(target);
		this.settle();
		this.probe = undefined;
		if (!transferee.node.isLeader) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
	}

	/**
	 * MemberRemove through member `via`: refused for a name that is no voter
	 * (`member not found`), and, as etcd's --strict-reconfig-check does, when
	 * the members left that are running and reachable would be no quorum of
	 * the new configuration.
	 */
	removeMember(via: string, target: string): void {
		const { leader } = this.leaderOrTimeout(via);
		const voters = leader.record.raft.peers;
		if (!voters.includes(target)) throw new MvccError('member-not-found', 'etcdserver: member not found');
		const remaining = voters.filter((v) => v !== target);
		const started = remaining.filter((v) => this.canReach(leader, this.members.get(v)!)).length;
		if (remaining.length === 0 || started < Math.floor(remaining.length / 2) + 1) throw new MvccError('not-enough-members', 'etcdserver: re-configuration failed due to not enough started members');
		this.propose(via, { op: 'member-remove', name: target });
		// A member that was down when it was removed learns it when it starts (its own log has no such entry).
		const removed = this.members.get(target);
		if (removed) removed.record.removed = true;
	}

	// ---- the network ------------------------------------------------------------

	private running(member: Member): boolean {
		return this.deps.isRunning(member.record.processId);
	}

	private canReach(a: Member, b: Member): boolean {
		return this.running(a) && this.running(b) && (a === b || this.deps.reachable(a.record.name, b.record.name));
	}

	/** Delivers every message in flight (and those they cause), then applies what committed. */
	private settle(): void {
		const queue: RaftMessage[] = [];
		const collect = () => {
			for (const m of this.members.values()) if (this.running(m)) queue.push(...m.node.takeMessages());
			// A stopped member's outbox is lost with the process.
			for (const m of this.members.values()) if (!this.running(m)) m.node.takeMessages();
		};
		collect();
		// Bounded: each message answers at most once, and a term only grows.
		for (let steps = 0; queue.length > 0 && steps < 100_000; steps++) {
			const message = queue.shift()!;
			const from = this.members.get(message.from);
			const to = this.members.get(message.to);
			if (!from || !to || !this.canReach(from, to)) continue;
			to.node.step(message);
			queue.push(...to.node.takeMessages());
			this.apply(to);
		}
		for (const m of this.members.values()) if (this.running(m)) this.apply(m);
		for (const m of this.members.values()) {
			const now = view(m.record.raft);
			if (!sameView(now, m.reported)) {
				const before = m.reported;
				m.reported = now;
				this.deps.raftChanged(m.record.name, before, now);
			}
		}
	}

	private apply(member: Member): void {
		const entries = member.node.takeCommitted();
		if (entries.length === 0) return;
		for (const entry of entries) {
			if (entry.data === '') continue;
			const request = decodeRequest(entry.data);
			let result: ApplyResult;
			if (request.op === 'member-add') {
				member.node.addPeer(request.name);
				result = { value: undefined };
			} else if (request.op === 'member-remove') {
				member.node.removePeer(request.name);
				const removed = this.members.get(request.name);
				if (removed) removed.record.removed = true;
				// The removed member learns it from the entry itself and shuts down.
				if (request.name === member.record.name) this.deps.removed(request.name);
				result = { value: undefined };
			} else {
				result = applyRequest(member.data, request);
			}
			const waiting = member.awaiting.get(entry.index);
			if (waiting && waiting.term === entry.term) waiting.result = result;
		}
		if (member.record.raft.applied - member.record.raft.snapshotIndex > SNAPSHOT_COUNT) member.node.compactLog(SNAPSHOT_CATCH_UP_ENTRIES);
		this.deps.applied(member.record.name);
	}

	// ---- serving clients ----------------------------------------------------------

	/** The leader `name` follows, if it is running, reachable and still leads. */
	private leaderFor(name: string): Member | undefined {
		const member = this.members.get(name);
		if (!member || !this.running(member)) return undefined;
		const lead = this.members.get(member.record.raft.lead);
		if (!lead || !lead.node.isLeader || lead.record.raft.term !== member.record.raft.term || !this.canReach(member, lead)) return undefined;
		return lead;
	}

	/** The member and the leader it follows, or the timeout a request to it ends in. */
	private leaderOrTimeout(name: string): { member: Member; leader: Member } {
		const member = this.members.get(name);
		const leader = this.leaderFor(name);
		if (!member || !leader) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
		return { member, leader };
	}

	/** For a joining member, which knows no leader yet: the leader its machine can reach. */
	private anyLeaderReachableFrom(name: string): Member | undefined {
		const member = this.members.get(name)!;
		return [...this.members.values()].find((m) => m.node.isLeader && this.running(m) && (m === member || this.deps.reachable(m.record.name, name)));
	}

	/** A request through the log, answered once the member it was sent to applied it. */
	propose(name: string, request: EtcdRequest): ApplyResult {
		const { member, leader } = this.leaderOrTimeout(name);
		const proposed = leader.node.propose(encodeRequest(request));
		if (!proposed) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
		member.awaiting.set(proposed.index, { term: proposed.term });
		this.settle();
		const waiting = member.awaiting.get(proposed.index)!;
		member.awaiting.delete(proposed.index);
		if (!waiting.result) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
		this.probe = undefined;
		return waiting.result;
	}

	/** ReadIndex: confirms the leader still leads, then makes sure this member applied up to its commit index. */
	linearizableRead(name: string): void {
		const { member, leader } = this.leaderOrTimeout(name);
		const context = `read-${++this.readCounter}`;
		if (!leader.node.readIndex(context)) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
		this.settle();
		const s = leader.record.raft;
		const at = s.readStates.findIndex((r) => r.context === context);
		// An unconfirmed round is abandoned (the request timed out).
		s.pendingReads = s.pendingReads.filter((r) => r.context !== context);
		if (at < 0) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
		const [read] = s.readStates.splice(at, 1);
		if (member.record.raft.applied < read.index) throw new MvccError('unavailable', REQUEST_TIMED_OUT);
	}

	/**
	 * Whether a client of `name` gets answers now (what kube-apiserver's etcd
	 * health check and every request find out): a linearizable read succeeds.
	 * Probed once per state of the members and the network.
	 */
	serves(name: string, nowMs: number): boolean {
		const fingerprint = this.fingerprint(nowMs);
		if (this.probe?.fingerprint === fingerprint) return this.probe.ok;
		let ok = true;
		try {
			this.linearizableRead(name);
		} catch (error) {
			if (!(error instanceof MvccError)) throw error;
			ok = false;
		}
		this.probe = { fingerprint: this.fingerprint(nowMs), ok };
		return ok;
	}

	private fingerprint(nowMs: number): string {
		const members = [...this.members.values()];
		const parts = [String(nowMs)];
		for (const m of members) {
			const s = m.record.raft;
			parts.push(`${this.running(m) ? 1 : 0}${s.role[0]}${s.term}.${s.lead}.${s.commit}.${s.applied}`);
		}
		for (let i = 0; i < members.length; i++) for (let j = i + 1; j < members.length; j++) parts.push(this.deps.reachable(members[i].record.name, members[j].record.name) ? '1' : '0');
		return parts.join('|');
	}

	/** The client API of one member (what a connection to its 2379 gets). */
	client(name: string): EtcdClient {
		return new MemberClient(this, name, this.members.get(name)!.data, (member) => this.deps.peerUrl?.(member));
	}

	/** Facts etcdctl reports of a member: its term, the leader it knows, its last and applied indexes. */
	raftFacts(name: string): { term: number; leader: string; isLeader: boolean; raftIndex: number; appliedIndex: number } | undefined {
		const member = this.members.get(name);
		if (!member) return undefined;
		const s = member.record.raft;
		return { term: s.term, leader: s.lead, isLeader: member.node.isLeader, raftIndex: member.node.lastIndex(), appliedIndex: s.applied };
	}
}

/** A connection to one member: writes through the log, linearizable reads, the rest local. */
class MemberClient implements EtcdClient {
	constructor(
		private readonly cluster: EtcdCluster,
		private readonly name: string,
		private readonly local: MvccStore,
		private readonly peerUrlOf: (name: string) => string | undefined,
	) {}

	get revision(): number {
		return this.local.revision;
	}

	get compactRevision(): number {
		return this.local.compactRevision;
	}

	range(key: string, options?: RangeOptions): RangeResult {
		if (!options?.serializable) this.cluster.linearizableRead(this.name);
		return this.local.range(key, options);
	}

	txn(compares: TxnCompare[], ops: TxnOp[]): TxnResult {
		return unwrap<TxnResult>(this.cluster.propose(this.name, { op: 'txn', compares, ops }));
	}

	put(key: string, value: string, lease?: number): number {
		return unwrap<number>(this.cluster.propose(this.name, { op: 'put', key, value, ...(lease !== undefined ? { lease } : {}) }));
	}

	delete(key: string, prefix = false): number {
		return unwrap<number>(this.cluster.propose(this.name, { op: 'delete', key, prefix }));
	}

	changesSince(fromRevision: number, key: string, prefix: boolean): MvccEvent[] {
		return this.local.changesSince(fromRevision, key, prefix);
	}

	compact(revision: number): void {
		unwrap<void>(this.cluster.propose(this.name, { op: 'compact', revision }));
	}

	grantLease(ttlSeconds: number, nowMs: number): number {
		return unwrap<number>(this.cluster.propose(this.name, { op: 'lease-grant', ttlSeconds, nowMs }));
	}

	hasLease(id: number): boolean {
		return this.local.hasLease(id);
	}

	defragment(): void {
		this.local.defragment();
	}

	disarmAlarms(): void {
		unwrap<void>(this.cluster.propose(this.name, { op: 'alarm-disarm' }));
	}

	status(): EtcdBackendStatus {
		return this.local.status();
	}

	moveLeader(target: string): void {
		this.cluster.moveLeader(this.name, target);
	}

	memberRemove(target: string): void {
		this.cluster.removeMember(this.name, target);
	}

	memberAdd(peerUrl: string): string {
		return this.cluster.addMember(this.name, peerUrl, this.peerUrlOf);
	}

	keyCount(): number {
		return this.local.keyCount();
	}
}
