/**
 * A Raft group on a hostile network, for property tests: three or five
 * members (../store/raft/raft.ts) each applying committed entries to a
 * key-value map, clients that write and read keys through whichever member
 * they reach, and a network that delays (1 to 20 ms, so messages overtake
 * each other), drops and duplicates messages, splits the members into two
 * sides, and crashes and restarts members (a restarted member keeps what
 * etcd keeps on disk: its term, vote, log and applied state).
 *
 * A run records what the properties need: every client operation with its
 * call and return times (for ../testing/linearizability.ts), the leader of
 * every term, and every entry each member applied. One seed gives one run.
 *
 * Mirrors nothing upstream: a test bed in the manner of etcd's robustness
 * tests (etcd-io/etcd tests/robustness) and raft's interaction tests
 * (etcd-io/raft rafttest), over this project's Raft.
 */
import { ETCD_RAFT_CONFIG, RaftNode, newRaftState, restartedRaftState, type RaftConfig, type RaftEntry, type RaftMessage, type RaftState } from '../store/raft/raft.ts';
import { Rng, deriveRngState } from '../sim/rng.ts';
import type { KvOperation } from './linearizability.ts';

export interface RaftHarnessOptions {
	seed: number;
	members?: 3 | 5;
	clients?: number;
	keys?: number;
	/** Virtual time with clients and faults; a quiet, healed period follows. */
	durationMs?: number;
	faults?: boolean;
	/** Probability that the network drops / duplicates a message. */
	loss?: number;
	duplication?: number;
	/** How long a client waits for an answer before giving up (the outcome then unknown). */
	clientTimeoutMs?: number;
	/** The members' Raft settings (etcd's by default). */
	raft?: RaftConfig;
}

export interface RaftHarnessRun {
	history: KvOperation[];
	/** Violations of Raft's safety properties seen during the run. */
	violations: string[];
	/** Puts whose success a client saw, by id. */
	acknowledged: string[];
	/** Ids of every put in the final committed log of each member, after healing. */
	committedIds: Map<string, Set<string>>;
	/** A leader after the quiet period, if any. */
	finalLeader: string | undefined;
	/** Each member's commit index after the quiet period. */
	finalCommit: Map<string, number>;
	faultsInjected: number;
	/** Leadership changes (distinct terms with a leader). */
	leaderTerms: number;
}

const TICK_MS = 100;

interface Member {
	node: RaftNode;
	state: RaftState;
	up: boolean;
	kv: Map<string, string>;
	/** Answers waiting for an entry to apply: put id -> client callback. */
	waitingApply: Map<string, (applied: boolean) => void>;
	/** Reads waiting for their ReadIndex and then the apply of that index. */
	waitingRead: Map<string, { index?: number; answer: (value: string | undefined) => void }>;
	/** The index each waiting put was given, to tell when another entry took its place. */
	proposedAt: Map<string, number>;
}

interface Event {
	atMs: number;
	seq: number;
	run: () => void;
}

interface Command {
	id: string;
	key: string;
	value: string;
}

export function runRaftHarness(options: RaftHarnessOptions): RaftHarnessRun {
	const rng = new Rng(deriveRngState(options.seed, 'raft-harness'));
	const memberCount = options.members ?? 3;
	const clientCount = options.clients ?? 4;
	const keyCount = options.keys ?? 3;
	const durationMs = options.durationMs ?? 15_000;
	const loss = options.loss ?? 0.05;
	const duplication = options.duplication ?? 0.02;
	const clientTimeoutMs = options.clientTimeoutMs ?? 2_000;
	const ids = Array.from({ length: memberCount }, (_, i) => `m${i + 1}`);
	const events: Event[] = [];
	let seq = 0;
	let now = 0;
	const at = (atMs: number, run: () => void) => {
		const event = { atMs, seq: seq++, run };
		// Kept sorted by time then insertion; the queue stays small.
		let i = events.length;
		while (i > 0 && (events[i - 1].atMs > atMs || (events[i - 1].atMs === atMs && events[i - 1].seq > event.seq))) i--;
		events.splice(i, 0, event);
	};

	const violations: string[] = [];
	const leaderOfTerm = new Map<number, string>();
	/** index -> the entry first applied there, by any member. */
	const appliedAt = new Map<number, RaftEntry>();
	/** Each member's applied entries' put ids, in order (rebuilt from snapshots). */
	const appliedIds = new Map<string, string[]>();
	/** Sides of the current partition: member -> side. */
	let side = new Map<string, number>();
	const history: KvOperation[] = [];
	const acknowledged: string[] = [];
	let faultsInjected = 0;

	const members = new Map<string, Member>();
	const makeNode = (id: string, state: RaftState, memberRng: Rng): RaftNode => {
		const snapshotData = () => {
			const m = members.get(id)!;
			return JSON.stringify({ kv: [...m.kv.entries()], ids: appliedIds.get(id) });
		};
		const restore = (snapshot: { index: number; data: string }) => {
			const m = members.get(id)!;
			const parsed = JSON.parse(snapshot.data) as { kv: Array<[string, string]>; ids: string[] };
			m.kv = new Map(parsed.kv);
			appliedIds.set(id, [...parsed.ids]);
		};
		return new RaftNode(state, memberRng, options.raft ?? ETCD_RAFT_CONFIG, snapshotData, restore);
	};
	for (const id of ids) {
		const state = newRaftState(id, ids);
		const memberRng = new Rng(deriveRngState(options.seed, `raft-harness/${id}`));
		members.set(id, { node: undefined as unknown as RaftNode, state, up: true, kv: new Map(), waitingApply: new Map(), waitingRead: new Map(), proposedAt: new Map() });
		members.get(id)!.node = makeNode(id, state, memberRng);
		appliedIds.set(id, []);
	}

	const reachable = (a: string, b: string) => members.get(a)!.up && members.get(b)!.up && (side.get(a) ?? 0) === (side.get(b) ?? 0);

	const deliver = (message: RaftMessage) => {
		if (!reachable(message.from, message.to)) return;
		const target = members.get(message.to)!;
		target.node.step(message);
		afterStep(message.to);
	};

	const send = (message: RaftMessage) => {
		if (!reachable(message.from, message.to) || rng.float() < loss) return;
		const copies = rng.float() < duplication ? 2 : 1;
		for (let i = 0; i < copies; i++) at(now + 1 + rng.int(20), () => deliver(message));
	};

	/** What every step leaves behind: messages to send, entries to apply, reads to answer, and the safety checks. */
	const afterStep = (id: string) => {
		const m = members.get(id)!;
		const s = m.state;
		if (s.role === 'leader') {
			const known = leaderOfTerm.get(s.term);
			if (known !== undefined && known !== id) violations.push(`term ${s.term} has two leaders: ${known} and ${id}`);
			leaderOfTerm.set(s.term, id);
		}
		for (const message of m.node.takeMessages()) send(message);
		for (const entry of m.node.takeCommitted()) {
			const first = appliedAt.get(entry.index);
			if (!first) appliedAt.set(entry.index, entry);
			else if (first.term !== entry.term || first.data !== entry.data) violations.push(`index ${entry.index}: ${id} applied term ${entry.term} where another member applied term ${first.term}`);
			if (entry.data === '') continue;
			const command = JSON.parse(entry.data) as Command;
			m.kv.set(command.key, command.value);
			appliedIds.get(id)!.push(command.id);
			m.waitingApply.get(command.id)?.(true);
			m.waitingApply.delete(command.id);
			m.proposedAt.delete(command.id);
		}
		// A put whose index is applied without it (another entry took its place) never will be; one that came in a snapshot was.
		for (const [putId, index] of m.proposedAt) {
			if (index <= s.applied) {
				m.waitingApply.get(putId)?.(appliedIds.get(id)!.includes(putId));
				m.waitingApply.delete(putId);
				m.proposedAt.delete(putId);
			}
		}
		for (const read of s.readStates.splice(0)) {
			const waiting = m.waitingRead.get(read.context);
			if (waiting) waiting.index = read.index;
		}
		for (const [context, waiting] of m.waitingRead) {
			if (waiting.index !== undefined && s.applied >= waiting.index) {
				m.waitingRead.delete(context);
				waiting.answer(undefined);
			}
		}
		if (s.applied - s.snapshotIndex > 50) m.node.compactLog(20);
	};

	// Ticks: each member on its own phase.
	for (const id of ids) {
		const phase = rng.int(TICK_MS);
		const tick = () => {
			const m = members.get(id)!;
			if (m.up) {
				m.node.tick();
				afterStep(id);
			}
			at(now + TICK_MS, tick);
		};
		at(phase, tick);
	}

	// Clients: each sends one operation at a time to a member it picks at random.
	let opCounter = 0;
	const endOfTraffic = durationMs;
	for (let client = 0; client < clientCount; client++) {
		const issue = () => {
			if (now >= endOfTraffic) return;
			const target = ids[rng.int(ids.length)];
			const key = `k${rng.int(keyCount)}`;
			const id = `c${client}-${opCounter++}`;
			const isPut = rng.float() < 0.5;
			const callMs = now;
			let settled = false;
			const finish = (op: KvOperation | undefined, retryInMs: number) => {
				if (settled) return;
				settled = true;
				if (op) history.push(op);
				at(now + retryInMs, issue);
			};
			// The client gives up after its timeout: a put's outcome is then unknown, a read's tells nothing.
			at(callMs + clientTimeoutMs, () => finish(isPut ? { client, key, kind: 'put', value: id, callMs, returnMs: Infinity } : undefined, 1));
			const m = members.get(target)!;
			if (!m.up) {
				// Connection refused: nothing happened.
				at(now + 1, () => finish(undefined, 10));
				return;
			}
			const arriveMs = now + 1 + rng.int(5);
			at(arriveMs, () => {
				if (!m.up || settled) return;
				const reply = (run: () => void) => at(now + 1 + rng.int(5), run);
				if (isPut) {
					const proposed = m.node.propose(JSON.stringify({ id, key, value: id } satisfies Command));
					if (!proposed) {
						reply(() => finish(undefined, 20));
						return;
					}
					m.proposedAt.set(id, proposed.index);
					m.waitingApply.set(id, (applied) => {
						if (applied) acknowledged.push(id);
						reply(() => finish(applied ? { client, key, kind: 'put', value: id, callMs, returnMs: now } : { client, key, kind: 'put', value: id, callMs, returnMs: Infinity }, 1));
					});
					afterStep(target);
				} else {
					if (!m.node.readIndex(id)) {
						reply(() => finish(undefined, 20));
						return;
					}
					m.waitingRead.set(id, {
						answer: () => {
							const value = m.kv.get(key);
							reply(() => finish({ client, key, kind: 'get', value, callMs, returnMs: now }, 1));
						},
					});
					afterStep(target);
				}
			});
		};
		at(rng.int(50), issue);
	}

	// Faults: crashes, restarts and partitions at random moments of the traffic period.
	if (options.faults !== false) {
		const fault = () => {
			if (now >= endOfTraffic) return;
			faultsInjected++;
			const roll = rng.float();
			const id = ids[rng.int(ids.length)];
			const m = members.get(id)!;
			if (roll < 0.3 && m.up) {
				m.up = false;
				// What was waiting on this member gets no answer: the clients time out.
				m.waitingApply.clear();
				m.waitingRead.clear();
				m.proposedAt.clear();
			} else if (roll < 0.6 && !m.up) {
				restart(id);
			} else if (roll < 0.85) {
				side = new Map(ids.map((member) => [member, rng.int(2)]));
			} else {
				side = new Map();
			}
			at(now + 500 + rng.int(3000), fault);
		};
		at(500 + rng.int(1000), fault);
	}

	const restart = (id: string) => {
		const m = members.get(id)!;
		m.state = restartedRaftState(m.state);
		m.node = makeNode(id, m.state, new Rng(deriveRngState(options.seed, `raft-harness/${id}/${now}`)));
		m.up = true;
	};

	// Heal everything at the end of the traffic, then let the group settle.
	at(endOfTraffic, () => {
		side = new Map();
		for (const id of ids) if (!members.get(id)!.up) restart(id);
	});
	const quietMs = 10_000;
	while (events.length > 0) {
		const event = events.shift()!;
		if (event.atMs > endOfTraffic + quietMs) break;
		now = event.atMs;
		event.run();
	}

	const committedIds = new Map<string, Set<string>>();
	const finalCommit = new Map<string, number>();
	let finalLeader: string | undefined;
	for (const [id, m] of members) {
		committedIds.set(id, new Set(appliedIds.get(id)));
		finalCommit.set(id, m.state.commit);
		if (m.state.role === 'leader') finalLeader = id;
	}
	return { history, violations, acknowledged, committedIds, finalLeader, finalCommit, faultsInjected, leaderTerms: leaderOfTerm.size };
}
