/**
 * Raft as etcd runs it: elections, pre-vote, check-quorum, replication,
 * ReadIndex and leadership transfer on a perfect network (messages
 * delivered at once, cuts chosen by the test), then the safety and
 * linearizability properties over many seeds on a hostile one
 * (../../testing/raft-harness.ts).
 */
import { describe, expect, it } from 'vitest';
import { Rng, deriveRngState } from '../../sim/rng.ts';
import { nonLinearizableKeys, type KvOperation } from '../../testing/linearizability.ts';
import { runRaftHarness } from '../../testing/raft-harness.ts';
import { ELECTION_TIMEOUT_MS, HEARTBEAT_INTERVAL_MS, RaftNode, newRaftState, restartedRaftState, type RaftMessage } from './raft.ts';

/** Members on a network that delivers at once, except across the cuts the test makes. */
function group(size: number, seed = 1) {
	const ids = Array.from({ length: size }, (_, i) => `m${i + 1}`);
	const nodes = new Map(ids.map((id) => [id, new RaftNode(newRaftState(id, ids), new Rng(deriveRngState(seed, id)))]));
	const down = new Set<string>();
	const cut = new Set<string>();
	const reachable = (a: string, b: string) => !down.has(a) && !down.has(b) && (a === b || (!cut.has(a) && !cut.has(b)));
	const applied = new Map(ids.map((id) => [id, [] as string[]]));
	const deliver = () => {
		const queue: RaftMessage[] = [];
		for (const [id, node] of nodes) {
			const out = node.takeMessages();
			if (!down.has(id)) queue.push(...out);
		}
		while (queue.length) {
			const m = queue.shift()!;
			if (!reachable(m.from, m.to)) continue;
			const node = nodes.get(m.to)!;
			node.step(m);
			queue.push(...node.takeMessages());
		}
		for (const [id, node] of nodes) if (!down.has(id)) applied.get(id)!.push(...node.takeCommitted().filter((e) => e.data !== '').map((e) => e.data));
	};
	const tick = (times = 1) => {
		for (let i = 0; i < times; i++) {
			for (const [id, node] of nodes) if (!down.has(id)) node.tick();
			deliver();
		}
	};
	const leaders = () => [...nodes.values()].filter((n) => n.isLeader && !down.has(n.id));
	const leader = () => {
		const all = leaders();
		expect(all.length).toBe(1);
		return all[0];
	};
	const propose = (data: string) => {
		const result = leader().propose(data);
		deliver();
		return result;
	};
	return { ids, nodes, down, cut, applied, deliver, tick, leaders, leader, propose };
}

/** Ticks in one election timeout (etcd's 1000 ms over its 100 ms heartbeat). */
const ELECTION_TICKS = ELECTION_TIMEOUT_MS / HEARTBEAT_INTERVAL_MS;

describe('Raft elections', () => {
	it('elects one leader within two election timeouts, using etcd defaults (100 ms heartbeat, 1000 ms election timeout)', () => {
		expect([HEARTBEAT_INTERVAL_MS, ELECTION_TIMEOUT_MS]).toEqual([100, 1000]);
		for (let seed = 1; seed <= 20; seed++) {
			const g = group(3, seed);
			let ticks = 0;
			while (g.leaders().length === 0 && ticks < 2 * ELECTION_TICKS) {
				g.tick();
				ticks++;
			}
			// The randomized timeout is drawn from [10, 19] ticks: nobody campaigns before one full timeout.
			expect(ticks).toBeGreaterThanOrEqual(ELECTION_TICKS);
			expect(ticks).toBeLessThan(2 * ELECTION_TICKS);
			expect(g.leaders()).toHaveLength(1);
			// Every member follows it, at its term.
			const leader = g.leader();
			for (const node of g.nodes.values()) expect([node.state.lead, node.state.term]).toEqual([leader.id, leader.state.term]);
		}
	});

	it('a stopped leader is replaced by a majority; the lone minority never elects itself', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const old = g.leader();
		g.down.add(old.id);
		g.tick(2 * ELECTION_TICKS + 1);
		const next = g.leader();
		expect(next.id).not.toBe(old.id);
		expect(next.state.term).toBeGreaterThan(old.state.term);
		// Now stop the new one too: one member of three is no quorum.
		g.down.add(next.id);
		g.tick(10 * ELECTION_TICKS);
		expect(g.leaders()).toHaveLength(0);
	});

	it('check-quorum: a leader cut off from the others steps down within two election timeouts', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const old = g.leader();
		g.cut.add(old.id);
		// It checks once per election timeout whether a quorum was heard from since the last check: the first check after the cut may still count answers from before it.
		g.tick(2 * ELECTION_TICKS);
		expect(old.state.role).toBe('follower');
		expect(old.state.lead).toBe('');
	});

	it('pre-vote: a member that was cut off rejoins without raising the term or deposing the leader', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const leader = g.leader();
		const follower = g.ids.find((id) => id !== leader.id)!;
		g.cut.add(follower);
		g.tick(10 * ELECTION_TICKS);
		// Cut off, it kept asking whether it could win, without a real election.
		expect(g.nodes.get(follower)!.state.term).toBe(leader.state.term);
		g.cut.delete(follower);
		g.tick(2);
		expect(g.leader().id).toBe(leader.id);
		expect(leader.state.term).toBe(g.nodes.get(follower)!.state.term);
	});

	it('without pre-vote, the same rejoin forces an election at a higher term', () => {
		const ids = ['m1', 'm2', 'm3'];
		const config = { electionTick: ELECTION_TICKS, heartbeatTick: 1, preVote: false, checkQuorum: false };
		const nodes = ids.map((id) => new RaftNode(newRaftState(id, ids), new Rng(deriveRngState(1, id)), config));
		const cut = new Set<string>();
		const run = (ticks: number) => {
			for (let t = 0; t < ticks; t++) {
				for (const n of nodes) n.tick();
				const queue = nodes.flatMap((n) => n.takeMessages());
				while (queue.length) {
					const m = queue.shift()!;
					if (cut.has(m.from) || cut.has(m.to)) continue;
					const n = nodes.find((x) => x.id === m.to)!;
					n.step(m);
					queue.push(...n.takeMessages());
				}
			}
		};
		run(2 * ELECTION_TICKS);
		const leader = nodes.find((n) => n.isLeader)!;
		const termBefore = leader.state.term;
		const follower = nodes.find((n) => !n.isLeader)!;
		cut.add(follower.id);
		run(5 * ELECTION_TICKS);
		expect(follower.state.term).toBeGreaterThan(termBefore);
		cut.delete(follower.id);
		run(3 * ELECTION_TICKS);
		expect(nodes.find((n) => n.isLeader)!.state.term).toBeGreaterThan(termBefore);
	});
});

describe('Raft replication', () => {
	it('commits an entry once a quorum stores it, and every member applies it in order', () => {
		const g = group(5);
		g.tick(2 * ELECTION_TICKS);
		for (const id of g.ids.filter((id) => id !== g.leader().id).slice(0, 2)) g.down.add(id);
		// Three of five up: a quorum.
		expect(g.propose('a')).toBeDefined();
		expect(g.propose('b')).toBeDefined();
		expect(g.leader().state.commit).toBe(g.leader().lastIndex());
		const [third] = g.ids.filter((id) => !g.down.has(id) && id !== g.leader().id);
		g.down.add(third);
		// Two of five: appended on the leader, never committed.
		const before = g.leader().state.commit;
		g.propose('c');
		expect(g.leader().state.commit).toBe(before);
		// The members come back and catch up, the uncommitted entry included (it was never refused).
		g.down.clear();
		g.tick(3);
		for (const id of g.ids) expect(g.applied.get(id)!.slice(-3)).toEqual(['a', 'b', 'c']);
	});

	it('a deposed leader’s uncommitted entries are replaced by the new leader’s log', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const old = g.leader();
		g.propose('kept');
		g.cut.add(old.id);
		old.propose('lost');
		g.deliver();
		g.tick(3 * ELECTION_TICKS);
		const next = g.leaders().find((n) => n.id !== old.id)!;
		next.propose('new');
		g.deliver();
		g.cut.clear();
		g.tick(3);
		for (const id of g.ids) {
			expect(g.applied.get(id)).toContain('kept');
			expect(g.applied.get(id)).toContain('new');
			expect(g.applied.get(id)).not.toContain('lost');
		}
	});

	it('a member that restarts keeps its term, vote and log (the WAL) and starts as a follower', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		g.propose('x');
		const follower = g.nodes.get(g.ids.find((id) => id !== g.leader().id)!)!;
		const restarted = restartedRaftState(follower.state);
		expect([restarted.term, restarted.vote, restarted.entries, restarted.commit, restarted.role, restarted.lead]).toEqual([follower.state.term, follower.state.vote, follower.state.entries, follower.state.commit, 'follower', '']);
	});

	it('a follower behind the compacted log catches up from a snapshot of the leader’s state', () => {
		let restored: string | undefined;
		const ids = ['m1', 'm2', 'm3'];
		const nodes = ids.map((id) => new RaftNode(newRaftState(id, ids), new Rng(deriveRngState(3, id)), undefined, () => `state-of-${id}`, (s) => (restored = s.data)));
		const down = new Set<string>();
		const flush = () => {
			const queue = nodes.flatMap((n) => n.takeMessages());
			while (queue.length) {
				const m = queue.shift()!;
				if (down.has(m.from) || down.has(m.to)) continue;
				const n = nodes.find((x) => x.id === m.to)!;
				n.step(m);
				queue.push(...n.takeMessages());
			}
			for (const n of nodes) if (!down.has(n.id)) n.takeCommitted();
		};
		for (let t = 0; t < 2 * ELECTION_TICKS; t++) {
			for (const n of nodes) n.tick();
			flush();
		}
		const leader = nodes.find((n) => n.isLeader)!;
		const lagging = nodes.find((n) => !n.isLeader)!;
		down.add(lagging.id);
		for (let i = 0; i < 30; i++) {
			leader.propose(`e${i}`);
			flush();
		}
		leader.compactLog(5);
		expect(leader.state.snapshotIndex).toBeGreaterThan(lagging.lastIndex());
		down.delete(lagging.id);
		leader.tick();
		flush();
		leader.tick();
		flush();
		expect(restored).toBe(`state-of-${leader.id}`);
		expect(lagging.state.commit).toBe(leader.state.commit);
	});
});

describe('Raft reads and leadership transfer', () => {
	it('ReadIndex confirms leadership with a quorum; a leader cut off from it never confirms', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const leader = g.leader();
		expect(leader.readIndex('r1')).toBe(true);
		g.deliver();
		expect(leader.state.readStates.map((r) => r.context)).toEqual(['r1']);
		g.cut.add(leader.id);
		expect(leader.readIndex('r2')).toBe(true);
		g.deliver();
		expect(leader.state.readStates.map((r) => r.context)).toEqual(['r1']);
	});

	it('ReadIndex waits until the new leader has committed an entry of its own term', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const leader = g.leader();
		// Right after winning, before its empty entry commits, its commit index could be stale.
		leader.state.commit = leader.lastIndex() - 1;
		expect(leader.readIndex('early')).toBe(false);
	});

	it('transfers leadership to a caught-up member at once (etcdctl move-leader)', () => {
		const g = group(3);
		g.tick(2 * ELECTION_TICKS);
		const old = g.leader();
		const target = g.ids.find((id) => id !== old.id)!;
		expect(old.transferLeadership(target)).toBe(true);
		g.deliver();
		expect(g.leader().id).toBe(target);
		expect(old.state.role).toBe('follower');
	});

	it('adds a member through the log: the quorum grows with it', () => {
		const solo = new RaftNode(newRaftState('m1', ['m1']), new Rng(deriveRngState(1, 'm1')));
		solo.campaign();
		expect(solo.isLeader).toBe(true);
		expect(solo.propose('before')!.index).toBe(solo.state.commit);
		solo.addPeer('m2');
		solo.takeMessages();
		// Two voters now: nothing commits without the newcomer.
		const commit = solo.state.commit;
		solo.propose('after');
		expect(solo.state.commit).toBe(commit);
	});
});

describe('linearizability checker', () => {
	const op = (client: number, kind: 'put' | 'get', value: string | undefined, callMs: number, returnMs: number): KvOperation => ({ client, key: 'k', kind, value, callMs, returnMs });

	it('accepts a read that overlaps the write it sees, and one that precedes it', () => {
		expect(nonLinearizableKeys([op(0, 'put', 'a', 0, 10), op(1, 'get', 'a', 5, 6), op(2, 'get', undefined, 1, 2)])).toEqual([]);
	});

	it('rejects a stale read: the write finished before the read began', () => {
		expect(nonLinearizableKeys([op(0, 'put', 'a', 0, 10), op(1, 'get', undefined, 11, 12)])).toEqual(['k']);
	});

	it('rejects reads that see two writes in opposite orders', () => {
		const history = [op(0, 'put', 'a', 0, 100), op(1, 'put', 'b', 0, 100), op(2, 'get', 'a', 10, 20), op(3, 'get', 'b', 30, 40), op(2, 'get', 'a', 50, 60)];
		expect(nonLinearizableKeys(history)).toEqual(['k']);
	});

	it('lets a write with an unknown outcome take effect late, or never', () => {
		const pending = op(0, 'put', 'a', 0, Infinity);
		expect(nonLinearizableKeys([pending, op(1, 'get', undefined, 50, 60), op(1, 'get', 'a', 70, 80)])).toEqual([]);
		expect(nonLinearizableKeys([pending, op(1, 'get', undefined, 50, 60)])).toEqual([]);
	});
});

describe('Raft under a hostile network (property tests)', () => {
	/** Every property for one run; a failure names its seed, which replays it exactly. */
	function check(seed: number, members: 3 | 5) {
		const run = runRaftHarness({ seed, members });
		const failures: string[] = [...run.violations];
		const keys = nonLinearizableKeys(run.history);
		if (keys.length) failures.push(`history not linearizable on ${keys.join(', ')}`);
		for (const [member, ids] of run.committedIds) {
			const lost = run.acknowledged.filter((id) => !ids.has(id));
			if (lost.length) failures.push(`${member} lacks acknowledged writes ${lost.slice(0, 3).join(', ')}`);
		}
		if (!run.finalLeader) failures.push('no leader after the faults healed');
		if (new Set(run.finalCommit.values()).size !== 1) failures.push(`commit indexes differ after healing: ${JSON.stringify([...run.finalCommit])}`);
		return { failures: failures.map((f) => `seed ${seed} (${members} members): ${f}`), run };
	}

	it('three members: one leader per term, one entry per index, linearizable histories, no acknowledged write lost, a leader again after healing (200 seeds)', () => {
		const failures: string[] = [];
		let operations = 0;
		let faults = 0;
		for (let seed = 1; seed <= 200; seed++) {
			const { failures: f, run } = check(seed, 3);
			failures.push(...f);
			operations += run.history.length;
			faults += run.faultsInjected;
		}
		expect(failures).toEqual([]);
		// The runs did exercise something: thousands of operations under hundreds of faults.
		expect(operations).toBeGreaterThan(20_000);
		expect(faults).toBeGreaterThan(1_000);
	});

	it('five members: the same properties (100 seeds)', () => {
		const failures: string[] = [];
		for (let seed = 1; seed <= 100; seed++) failures.push(...check(seed, 5).failures);
		expect(failures).toEqual([]);
	});

	it('one seed gives one run', () => {
		const a = runRaftHarness({ seed: 42 });
		const b = runRaftHarness({ seed: 42 });
		expect(JSON.stringify(a.history)).toBe(JSON.stringify(b.history));
		expect(a.leaderTerms).toBe(b.leaderTerms);
	});
});
