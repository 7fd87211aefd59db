/**
 * One member's Raft state machine, as etcd runs it: terms, votes and a log;
 * leader election with a randomized election timeout, pre-vote (a member
 * that was cut off asks whether it could win before it bumps its term, so
 * rejoining does not depose a healthy leader) and check-quorum (a leader
 * that has not heard from a quorum for an election timeout steps down, and
 * members that hear from a leader ignore vote requests for that long);
 * log replication with the log-matching check and conflict truncation;
 * commit once a quorum stores an entry of the current term; linearizable
 * reads through ReadIndex (the leader confirms with a heartbeat round that
 * it still leads, then the read waits for that commit index to be applied);
 * leadership transfer (`etcdctl move-leader`); snapshots for a follower that
 * fell behind the compacted log.
 *
 * It is driven from outside: `tick()` every heartbeat interval (etcd's
 * `--heartbeat-interval`, 100 ms), `step(message)` for each message that
 * arrives, and `propose`/`readIndex` for clients. It never sends anything
 * itself: messages pile up in `outbox` and the driver delivers them (the
 * cluster's network, or the test harness's lossy one). Committed entries
 * are handed out by `takeCommitted()` for the member to apply. All of its
 * state is plain JSON (the part etcd persists: term, vote, log, commit; and
 * the volatile rest), so it snapshots with the cluster.
 *
 * Mirrors etcd-io/raft raft.go (roles, stepLeader, stepCandidate,
 * stepFollower, campaign, checkQuorum, pre-vote), etcd-io/raft log.go (the
 * log, matchTerm, findConflict, maybeAppend), etcd-io/raft
 * tracker/progress.go (per-follower match/next), etcd-io/raft
 * quorum/majority.go (the committed index), etcd-io/raft read_only.go
 * (ReadIndex), etcd-io/etcd server/embed/config.go (the 100 ms heartbeat,
 * the 1000 ms election timeout).
 */
/** Where the randomized election timeout comes from (the member's seeded stream). */
export interface RaftRandom {
	int(n: number): number;
}

/** The heartbeat interval: etcd's `--heartbeat-interval` default (ms). One tick. */
export const HEARTBEAT_INTERVAL_MS = 100;
/** The election timeout: etcd's `--election-timeout` default (ms), 10 ticks. */
export const ELECTION_TIMEOUT_MS = 1000;
/** Log entries kept after a snapshot for slow followers (etcd's SnapshotCatchUpEntries). */
export const SNAPSHOT_CATCH_UP_ENTRIES = 5000;
/** Applied entries between snapshots: etcd's `--snapshot-count` default since v3.2. */
export const SNAPSHOT_COUNT = 10000;

export type RaftRole = 'follower' | 'pre-candidate' | 'candidate' | 'leader';

/** One log entry. `data` is the member's own encoding of a request; '' is a new leader's empty entry. */
export interface RaftEntry {
	term: number;
	index: number;
	data: string;
}

/** The state of the applied state machine at a log position, shipped to a follower that fell too far behind. */
export interface RaftSnapshot {
	index: number;
	term: number;
	/** The state machine's own encoding of itself. */
	data: string;
}

interface MessageBase {
	from: string;
	to: string;
	term: number;
}

export type RaftMessage =
	/** AppendEntries: entries after (index, logTerm), and the leader's commit index. */
	| (MessageBase & { type: 'app'; index: number; logTerm: number; entries: RaftEntry[]; commit: number })
	| (MessageBase & { type: 'app-resp'; index: number; reject: boolean; rejectHint: number })
	/** Heartbeat: the commit index the follower may trust, and the ReadIndex round it confirms. */
	| (MessageBase & { type: 'heartbeat'; commit: number; context: string })
	| (MessageBase & { type: 'heartbeat-resp'; context: string })
	/** RequestVote and its pre-vote probe: the candidate's last log position. */
	| (MessageBase & { type: 'vote' | 'pre-vote'; index: number; logTerm: number; transfer: boolean })
	| (MessageBase & { type: 'vote-resp' | 'pre-vote-resp'; reject: boolean })
	| (MessageBase & { type: 'snap'; snapshot: RaftSnapshot })
	/** Leadership transfer: campaign now. */
	| (MessageBase & { type: 'timeout-now' });

/** Per follower, as the leader tracks it. */
interface Progress {
	match: number;
	next: number;
	/** Heard from since the last check-quorum round. */
	recentActive: boolean;
}

/** A ReadIndex request waiting for a quorum of heartbeat acknowledgements. */
interface PendingRead {
	context: string;
	index: number;
	acks: string[];
}

/** A confirmed read: once `index` is applied, the read may be served. */
export interface ReadState {
	context: string;
	index: number;
}

/** The whole member state, plain JSON. `term`, `vote`, the log and `commit` are what etcd's WAL keeps. */
export interface RaftState {
	id: string;
	/** Every voting member, this one included. */
	peers: string[];
	term: number;
	/** Who this member voted for in `term` ('' none). */
	vote: string;
	/** The leader this member follows in `term` ('' unknown). */
	lead: string;
	role: RaftRole;
	/** The log after the snapshot: entry i is at position i - snapshotIndex - 1. */
	entries: RaftEntry[];
	snapshotIndex: number;
	snapshotTerm: number;
	commit: number;
	applied: number;
	electionElapsed: number;
	heartbeatElapsed: number;
	randomizedElectionTimeout: number;
	votes: Record<string, boolean>;
	progress: Record<string, Progress>;
	/** The member leadership is being handed to ('' none). */
	leadTransferee: string;
	pendingReads: PendingRead[];
	readStates: ReadState[];
}

export interface RaftConfig {
	electionTick: number;
	heartbeatTick: number;
	preVote: boolean;
	checkQuorum: boolean;
}

/** etcd's settings: 100 ms ticks, an election after 10, pre-vote and check-quorum on (the v3.6 defaults). */
export const ETCD_RAFT_CONFIG: RaftConfig = {
	electionTick: ELECTION_TIMEOUT_MS / HEARTBEAT_INTERVAL_MS,
	heartbeatTick: 1,
	preVote: true,
	checkQuorum: true,
};

/** A fresh member that has never run: term 0, an empty log. */
export function newRaftState(id: string, peers: readonly string[]): RaftState {
	return {
		id,
		peers: [...peers],
		term: 0,
		vote: '',
		lead: '',
		role: 'follower',
		entries: [],
		snapshotIndex: 0,
		snapshotTerm: 0,
		commit: 0,
		applied: 0,
		electionElapsed: 0,
		heartbeatElapsed: 0,
		randomizedElectionTimeout: 0,
		votes: {},
		progress: {},
		leadTransferee: '',
		pendingReads: [],
		readStates: [],
	};
}

/** What survives a crash: the WAL (term, vote, log, commit) and the applied index the backend recorded. The rest starts over. */
export function restartedRaftState(persisted: RaftState): RaftState {
	return {
		...newRaftState(persisted.id, persisted.peers),
		term: persisted.term,
		vote: persisted.vote,
		entries: persisted.entries.map((e) => ({ ...e })),
		snapshotIndex: persisted.snapshotIndex,
		snapshotTerm: persisted.snapshotTerm,
		commit: persisted.commit,
		applied: persisted.applied,
	};
}

export class RaftNode {
	/** Messages to deliver, in the order they were sent. */
	outbox: RaftMessage[] = [];

	constructor(
		readonly state: RaftState,
		private readonly rng: RaftRandom,
		private readonly config: RaftConfig = ETCD_RAFT_CONFIG,
		/** The applied state machine's snapshot at the applied index (for a follower behind the compacted log). */
		private readonly snapshotData: () => string = () => '',
		/** Replaces the state machine with a snapshot the leader sent. */
		private readonly restoreSnapshot: (snapshot: RaftSnapshot) => void = () => {},
	) {
		if (state.randomizedElectionTimeout === 0) this.resetRandomizedElectionTimeout();
	}

	get id(): string {
		return this.state.id;
	}

	get isLeader(): boolean {
		return this.state.role === 'leader';
	}

	// ---- the log ----------------------------------------------------------------

	lastIndex(): number {
		const s = this.state;
		return s.entries.length ? s.entries[s.entries.length - 1].index : s.snapshotIndex;
	}

	/** The term of the entry at `index`, or undefined when it is compacted away or not there. */
	termAt(index: number): number | undefined {
		const s = this.state;
		if (index === s.snapshotIndex) return s.snapshotTerm;
		if (index < s.snapshotIndex || index > this.lastIndex()) return undefined;
		return s.entries[index - s.snapshotIndex - 1].term;
	}

	private lastTerm(): number {
		return this.termAt(this.lastIndex()) ?? 0;
	}

	private entriesFrom(index: number): RaftEntry[] {
		const s = this.state;
		return s.entries.slice(index - s.snapshotIndex - 1);
	}

	/** Whether a candidate whose log ends at (index, term) is at least as up to date as this one (§5.4.1). */
	private isUpToDate(index: number, term: number): boolean {
		const lastTerm = this.lastTerm();
		return term > lastTerm || (term === lastTerm && index >= this.lastIndex());
	}

	private quorum(): number {
		return Math.floor(this.state.peers.length / 2) + 1;
	}

	/** Entries committed but not yet applied; the caller applies them in order. */
	takeCommitted(): RaftEntry[] {
		const s = this.state;
		if (s.applied >= s.commit) return [];
		const out = s.entries.slice(Math.max(0, s.applied - s.snapshotIndex), s.commit - s.snapshotIndex);
		s.applied = s.commit;
		return out;
	}

	/** Drops the log up to `index` (applied), keeping SNAPSHOT_CATCH_UP_ENTRIES for followers a little behind. */
	compactLog(keep = SNAPSHOT_CATCH_UP_ENTRIES): void {
		const s = this.state;
		const upTo = s.applied - keep;
		if (upTo <= s.snapshotIndex) return;
		const term = this.termAt(upTo)!;
		s.entries = this.entriesFrom(upTo + 1);
		s.snapshotIndex = upTo;
		s.snapshotTerm = term;
	}

	// ---- roles ----------------------------------------------------------------------

	private resetRandomizedElectionTimeout(): void {
		// [electiontimeout, 2 * electiontimeout - 1], as raft.go draws it.
		this.state.randomizedElectionTimeout = this.config.electionTick + this.rng.int(this.config.electionTick);
	}

	private reset(term: number): void {
		const s = this.state;
		if (s.term !== term) {
			s.term = term;
			s.vote = '';
		}
		s.lead = '';
		s.electionElapsed = 0;
		s.heartbeatElapsed = 0;
		this.resetRandomizedElectionTimeout();
		s.votes = {};
		s.progress = {};
		s.leadTransferee = '';
		s.pendingReads = [];
	}

	private becomeFollower(term: number, lead: string): void {
		this.reset(term);
		this.state.role = 'follower';
		this.state.lead = lead;
	}

	private becomePreCandidate(): void {
		const s = this.state;
		// Neither the term nor the vote changes: a pre-vote that fails leaves no trace.
		s.votes = {};
		s.lead = '';
		s.role = 'pre-candidate';
	}

	private becomeCandidate(): void {
		this.reset(this.state.term + 1);
		this.state.vote = this.id;
		this.state.role = 'candidate';
	}

	private becomeLeader(): void {
		const s = this.state;
		this.reset(s.term);
		s.role = 'leader';
		s.lead = this.id;
		const next = this.lastIndex() + 1;
		for (const peer of s.peers) s.progress[peer] = { match: peer === this.id ? this.lastIndex() : 0, next, recentActive: peer === this.id };
		// An empty entry of the new term: committing it commits everything before it (§5.4.2).
		this.appendEntry('');
		this.broadcastAppend();
	}

	/**
	 * Starts a pre-vote round (`pre`), a real election (`election`: after a
	 * won pre-vote, or without pre-vote), or a transfer's election, which
	 * skips pre-vote and the other members' leader lease, as MsgTimeoutNow does.
	 */
	campaign(kind: 'pre' | 'election' | 'transfer' = this.config.preVote ? 'pre' : 'election'): void {
		const s = this.state;
		if (!s.peers.includes(this.id)) return;
		const pre = kind === 'pre';
		const transfer = kind === 'transfer';
		if (pre) this.becomePreCandidate();
		else this.becomeCandidate();
		const term = pre ? s.term + 1 : s.term;
		this.recordVote(this.id, true);
		if (this.tally() === 'won') {
			if (pre) this.campaign('election');
			else this.becomeLeader();
			return;
		}
		for (const peer of s.peers) {
			if (peer === this.id) continue;
			this.send({ type: pre ? 'pre-vote' : 'vote', from: this.id, to: peer, term, index: this.lastIndex(), logTerm: this.lastTerm(), transfer });
		}
	}

	private recordVote(from: string, granted: boolean): void {
		if (!(from in this.state.votes)) this.state.votes[from] = granted;
	}

	private tally(): 'won' | 'lost' | 'pending' {
		const votes = Object.values(this.state.votes);
		const granted = votes.filter(Boolean).length;
		if (granted >= this.quorum()) return 'won';
		if (votes.length - granted >= this.quorum()) return 'lost';
		return 'pending';
	}

	// ---- the clock ----------------------------------------------------------------

	/** One heartbeat interval passed. */
	tick(): void {
		const s = this.state;
		s.electionElapsed++;
		if (s.role !== 'leader') {
			if (s.electionElapsed >= s.randomizedElectionTimeout) {
				s.electionElapsed = 0;
				this.campaign();
			}
			return;
		}
		s.heartbeatElapsed++;
		if (s.electionElapsed >= this.config.electionTick) {
			s.electionElapsed = 0;
			if (this.config.checkQuorum) {
				const active = s.peers.filter((p) => p === this.id || s.progress[p]?.recentActive).length;
				for (const p of s.peers) if (p !== this.id && s.progress[p]) s.progress[p].recentActive = false;
				if (active < this.quorum()) {
					this.becomeFollower(s.term, '');
					return;
				}
			}
			// A transfer that did not finish within an election timeout is abandoned.
			s.leadTransferee = '';
		}
		if (s.heartbeatElapsed >= this.config.heartbeatTick) {
			s.heartbeatElapsed = 0;
			this.broadcastHeartbeat('');
		}
	}

	// ---- clients ------------------------------------------------------------------

	/** Appends a client's request to the leader's log; its index, or undefined when this member cannot take it (not the leader, or handing leadership over). */
	propose(data: string): { index: number; term: number } | undefined {
		const s = this.state;
		if (s.role !== 'leader' || s.leadTransferee !== '') return undefined;
		const index = this.appendEntry(data);
		this.broadcastAppend();
		return { index, term: s.term };
	}

	/**
	 * A linearizable read: the leader notes its commit index and confirms it
	 * still leads with a heartbeat round; `readStates` gets the index once a
	 * quorum answers. False when this member cannot (not the leader, or no
	 * entry of its term committed yet: its commit index might be stale).
	 */
	readIndex(context: string): boolean {
		const s = this.state;
		if (s.role !== 'leader' || this.termAt(s.commit) !== s.term) return false;
		const read: PendingRead = { context, index: s.commit, acks: [this.id] };
		if (read.acks.length >= this.quorum()) {
			s.readStates.push({ context, index: read.index });
			return true;
		}
		s.pendingReads.push(read);
		this.broadcastHeartbeat(context);
		return true;
	}

	/** Hands leadership to `target` (etcd's MoveLeader): it campaigns at once when its log is current. */
	transferLeadership(target: string): boolean {
		const s = this.state;
		if (s.role !== 'leader' || target === this.id || !s.peers.includes(target)) return false;
		s.leadTransferee = target;
		s.electionElapsed = 0;
		const progress = s.progress[target];
		if (progress.match === this.lastIndex()) this.send({ type: 'timeout-now', from: this.id, to: target, term: s.term });
		else this.sendAppend(target);
		return true;
	}

	private appendEntry(data: string): number {
		const s = this.state;
		const index = this.lastIndex() + 1;
		s.entries.push({ term: s.term, index, data });
		s.progress[this.id].match = index;
		s.progress[this.id].next = index + 1;
		this.maybeCommit();
		return index;
	}

	// ---- membership ----------------------------------------------------------------

	/**
	 * Applies a committed membership change (etcd's ApplyConfChange): the
	 * member joins the voters, and a leader starts replicating to it from
	 * the end of its log (it backs off to what the newcomer has).
	 */
	addPeer(id: string): void {
		const s = this.state;
		if (s.peers.includes(id)) return;
		s.peers.push(id);
		if (s.role === 'leader') {
			s.progress[id] = { match: 0, next: this.lastIndex() + 1, recentActive: true };
			this.sendAppend(id);
		}
	}

	/** Applies a committed removal: the member no longer votes or counts toward the quorum. */
	removePeer(id: string): void {
		const s = this.state;
		if (!s.peers.includes(id)) return;
		s.peers = s.peers.filter((p) => p !== id);
		delete s.progress[id];
		delete s.votes[id];
		if (s.leadTransferee === id) s.leadTransferee = '';
		// A leader that removed itself steps down; the others elect a new one.
		if (id === this.id) {
			if (s.role === 'leader') this.becomeFollower(s.term, '');
			return;
		}
		// With fewer voters, entries already on a quorum of the rest may now be committed.
		if (s.role === 'leader' && s.peers.includes(this.id) && this.maybeCommit()) this.broadcastAppend();
	}

	// ---- sending --------------------------------------------------------------------

	private send(message: RaftMessage): void {
		this.outbox.push(message);
	}

	/** Hands the outbox to the driver. */
	takeMessages(): RaftMessage[] {
		const out = this.outbox;
		this.outbox = [];
		return out;
	}

	private broadcastAppend(): void {
		for (const peer of this.state.peers) if (peer !== this.id) this.sendAppend(peer);
	}

	private sendAppend(to: string): void {
		const s = this.state;
		const progress = s.progress[to];
		const prevIndex = progress.next - 1;
		const prevTerm = this.termAt(prevIndex);
		if (prevTerm === undefined) {
			// The entries it needs are compacted away: send the state machine itself.
			this.send({ type: 'snap', from: this.id, to, term: s.term, snapshot: { index: s.applied, term: this.termAt(s.applied) ?? s.snapshotTerm, data: this.snapshotData() } });
			progress.next = s.applied + 1;
			return;
		}
		this.send({ type: 'app', from: this.id, to, term: s.term, index: prevIndex, logTerm: prevTerm, entries: this.entriesFrom(progress.next).map((e) => ({ ...e })), commit: s.commit });
		progress.next = this.lastIndex() + 1;
	}

	private broadcastHeartbeat(context: string): void {
		const s = this.state;
		for (const peer of s.peers) {
			if (peer === this.id) continue;
			// A follower may only trust a commit index up to what it is known to hold.
			this.send({ type: 'heartbeat', from: this.id, to: peer, term: s.term, commit: Math.min(s.progress[peer].match, s.commit), context });
		}
	}

	// ---- receiving ------------------------------------------------------------------

	step(m: RaftMessage): void {
		const s = this.state;
		if (m.term > s.term) {
			if (m.type === 'vote' || m.type === 'pre-vote') {
				// Check-quorum's lease: a member that heard from its leader within the election timeout does not vote the leader out.
				const inLease = this.config.checkQuorum && s.lead !== '' && s.electionElapsed < this.config.electionTick;
				if (inLease && !m.transfer) return;
			}
			if (m.type === 'pre-vote') {
				// A pre-vote never changes this member's term.
			} else if (m.type === 'pre-vote-resp' && !m.reject) {
				// A granted pre-vote carries the future term; the term changes only when the election starts.
			} else {
				const fromLeader = m.type === 'app' || m.type === 'heartbeat' || m.type === 'snap';
				this.becomeFollower(m.term, fromLeader ? m.from : '');
			}
		} else if (m.term < s.term) {
			if ((this.config.checkQuorum || this.config.preVote) && (m.type === 'heartbeat' || m.type === 'app')) {
				// A stale leader learns the newer term from the answer and steps down.
				this.send({ type: 'app-resp', from: this.id, to: m.from, term: s.term, index: 0, reject: false, rejectHint: 0 });
			} else if (m.type === 'pre-vote') {
				this.send({ type: 'pre-vote-resp', from: this.id, to: m.from, term: s.term, reject: true });
			}
			return;
		}

		if (m.type === 'vote' || m.type === 'pre-vote') {
			const canVote = s.vote === m.from || (s.vote === '' && s.lead === '') || (m.type === 'pre-vote' && m.term > s.term);
			if (canVote && this.isUpToDate(m.index, m.logTerm)) {
				this.send({ type: m.type === 'vote' ? 'vote-resp' : 'pre-vote-resp', from: this.id, to: m.from, term: m.term, reject: false });
				if (m.type === 'vote') {
					s.electionElapsed = 0;
					s.vote = m.from;
				}
			} else {
				this.send({ type: m.type === 'vote' ? 'vote-resp' : 'pre-vote-resp', from: this.id, to: m.from, term: s.term, reject: true });
			}
			return;
		}

		switch (s.role) {
			case 'leader':
				this.stepLeader(m);
				break;
			case 'candidate':
			case 'pre-candidate':
				this.stepCandidate(m);
				break;
			case 'follower':
				this.stepFollower(m);
				break;
		}
	}

	private stepLeader(m: RaftMessage): void {
		const s = this.state;
		const progress = s.progress[m.from];
		if (!progress) return;
		switch (m.type) {
			case 'app-resp': {
				progress.recentActive = true;
				if (m.reject) {
					// Back off to the follower's hint and try again.
					progress.next = Math.max(1, Math.min(m.index, m.rejectHint + 1));
					this.sendAppend(m.from);
					return;
				}
				if (m.index > progress.match) {
					progress.match = m.index;
					if (progress.next <= m.index) progress.next = m.index + 1;
					if (this.maybeCommit()) this.broadcastAppend();
					else if (progress.match < this.lastIndex() && progress.next <= this.lastIndex()) this.sendAppend(m.from);
				}
				if (m.from === s.leadTransferee && progress.match === this.lastIndex()) this.send({ type: 'timeout-now', from: this.id, to: m.from, term: s.term });
				return;
			}
			case 'heartbeat-resp': {
				progress.recentActive = true;
				if (progress.match < this.lastIndex()) this.sendAppend(m.from);
				if (m.context === '') return;
				for (const read of s.pendingReads) if (read.context === m.context && !read.acks.includes(m.from)) read.acks.push(m.from);
				// Reads are confirmed in order: a quorum for one confirms every read queued before it.
				const confirmedAt = s.pendingReads.findIndex((r) => r.acks.length >= this.quorum());
				if (confirmedAt >= 0) {
					for (const read of s.pendingReads.splice(0, confirmedAt + 1)) s.readStates.push({ context: read.context, index: read.index });
				}
				return;
			}
			default:
				return;
		}
	}

	private stepCandidate(m: RaftMessage): void {
		const s = this.state;
		switch (m.type) {
			case 'app':
			case 'heartbeat':
			case 'snap':
				this.becomeFollower(m.term, m.from);
				this.stepFollower(m);
				return;
			case 'vote-resp':
			case 'pre-vote-resp': {
				if ((m.type === 'pre-vote-resp') !== (s.role === 'pre-candidate')) return;
				this.recordVote(m.from, !m.reject);
				const result = this.tally();
				if (result === 'won') {
					if (s.role === 'pre-candidate') this.campaign('election');
					else this.becomeLeader();
				} else if (result === 'lost') {
					this.becomeFollower(s.term, '');
				}
				return;
			}
			default:
				return;
		}
	}

	private stepFollower(m: RaftMessage): void {
		const s = this.state;
		switch (m.type) {
			case 'app':
				s.electionElapsed = 0;
				s.lead = m.from;
				this.handleAppend(m);
				return;
			case 'heartbeat':
				s.electionElapsed = 0;
				s.lead = m.from;
				if (m.commit > s.commit) s.commit = Math.min(m.commit, this.lastIndex());
				this.send({ type: 'heartbeat-resp', from: this.id, to: m.from, term: s.term, context: m.context });
				return;
			case 'snap':
				s.electionElapsed = 0;
				s.lead = m.from;
				this.handleSnapshot(m.snapshot, m.from);
				return;
			case 'timeout-now':
				this.campaign('transfer');
				return;
			default:
				return;
		}
	}

	private handleAppend(m: Extract<RaftMessage, { type: 'app' }>): void {
		const s = this.state;
		const reply = (index: number, reject = false, rejectHint = 0) => this.send({ type: 'app-resp', from: this.id, to: m.from, term: s.term, index, reject, rejectHint });
		if (m.index < s.commit) {
			reply(s.commit);
			return;
		}
		if (this.termAt(m.index) !== m.logTerm) {
			reply(m.index, true, Math.min(m.index - 1, this.lastIndex()));
			return;
		}
		for (const entry of m.entries) {
			const existing = this.termAt(entry.index);
			if (existing === entry.term) continue;
			// A conflicting entry and everything after it go; the leader's take their place (§5.3).
			if (existing !== undefined) s.entries = s.entries.slice(0, entry.index - s.snapshotIndex - 1);
			s.entries.push({ ...entry });
		}
		const lastNew = m.index + m.entries.length;
		if (m.commit > s.commit) s.commit = Math.max(s.commit, Math.min(m.commit, lastNew));
		reply(lastNew);
	}

	private handleSnapshot(snapshot: RaftSnapshot, from: string): void {
		const s = this.state;
		if (snapshot.index <= s.commit) {
			this.send({ type: 'app-resp', from: this.id, to: from, term: s.term, index: s.commit, reject: false, rejectHint: 0 });
			return;
		}
		this.restoreSnapshot(snapshot);
		s.entries = [];
		s.snapshotIndex = snapshot.index;
		s.snapshotTerm = snapshot.term;
		s.commit = snapshot.index;
		s.applied = snapshot.index;
		this.send({ type: 'app-resp', from: this.id, to: from, term: s.term, index: snapshot.index, reject: false, rejectHint: 0 });
	}

	/** Advances the commit index to what a quorum stores, if that entry is of the current term. */
	private maybeCommit(): boolean {
		const s = this.state;
		const matches = s.peers.map((p) => s.progress[p]?.match ?? 0).sort((a, b) => b - a);
		const quorumIndex = matches[this.quorum() - 1];
		if (quorumIndex > s.commit && this.termAt(quorumIndex) === s.term) {
			s.commit = quorumIndex;
			return true;
		}
		return false;
	}
}
