/**
 * A linearizability checker for key-value histories: given every operation
 * clients issued (when each was called, when its answer came back, what it
 * asked and what it got), is there one order of the operations, each taking
 * effect at an instant between its call and its return, in which every read
 * returns the last value written? That is the guarantee etcd gives its
 * clients (and what kube-apiserver's optimistic concurrency relies on).
 *
 * The search is Wing and Gong's, with Lowe's memoization of (operations
 * linearized so far, model state), as the Porcupine checker implements it;
 * histories are split per key first, since operations on different keys of
 * a register map never constrain each other (a P-compositional model).
 *
 * An operation whose answer never came (a timeout, a crash) may or may not
 * have happened: its return is at infinity, so it may be linearized at any
 * point after its call or not at all (Porcupine's convention for a write);
 * a read without an answer tells nothing and is dropped by the caller.
 *
 * Mirrors nothing upstream: a test checker, the technique of Porcupine's
 * checker.go (anishathalye/porcupine), which etcd's robustness tests use.
 */

/** One client operation on one key. */
export interface KvOperation {
	client: number;
	key: string;
	kind: 'put' | 'get';
	/** The value written (put) or read (get; undefined: the key was absent). */
	value: string | undefined;
	/** When the client sent it. */
	callMs: number;
	/** When the answer arrived; Infinity for a write whose outcome is unknown. */
	returnMs: number;
}

interface Entry {
	kind: 'call' | 'return';
	op: number;
	timeMs: number;
	prev: Entry | undefined;
	next: Entry | undefined;
	/** A call's return entry. */
	match?: Entry;
}

/** The register's step: can `op` take effect in `state`, and what state follows. */
function step(state: string | undefined, op: KvOperation): { ok: boolean; state: string | undefined } {
	if (op.kind === 'put') return { ok: true, state: op.value };
	return { ok: op.value === state, state };
}

/** Whether the operations on one key are linearizable (from the key's absent state). */
function checkKey(ops: readonly KvOperation[]): boolean {
	// Entries in time order; at equal times a call comes first, so touching operations count as concurrent.
	const events: Array<{ kind: 'call' | 'return'; op: number; timeMs: number }> = [];
	ops.forEach((op, i) => {
		events.push({ kind: 'call', op: i, timeMs: op.callMs });
		events.push({ kind: 'return', op: i, timeMs: op.returnMs });
	});
	events.sort((a, b) => a.timeMs - b.timeMs || (a.kind === b.kind ? a.op - b.op : a.kind === 'call' ? -1 : 1));
	const head: Entry = { kind: 'call', op: -1, timeMs: -Infinity, prev: undefined, next: undefined };
	let tail = head;
	const calls = new Map<number, Entry>();
	for (const e of events) {
		const entry: Entry = { ...e, prev: tail, next: undefined };
		tail.next = entry;
		tail = entry;
		if (e.kind === 'call') calls.set(e.op, entry);
		else calls.get(e.op)!.match = entry;
	}
	const lift = (call: Entry) => {
		// Take the call and its return out of the list.
		call.prev!.next = call.next;
		if (call.next) call.next.prev = call.prev;
		const ret = call.match!;
		ret.prev!.next = ret.next;
		if (ret.next) ret.next.prev = ret.prev;
	};
	const unlift = (call: Entry) => {
		const ret = call.match!;
		ret.prev!.next = ret;
		if (ret.next) ret.next.prev = ret;
		call.prev!.next = call;
		if (call.next) call.next.prev = call;
	};
	const words = Math.ceil(ops.length / 32);
	const linearized = new Uint32Array(words);
	const seen = new Set<string>();
	const stack: Array<{ call: Entry; state: string | undefined }> = [];
	let state: string | undefined;
	let entry = head.next;
	while (head.next !== undefined) {
		if (entry === undefined) return false;
		if (entry.kind === 'call') {
			const result = step(state, ops[entry.op]);
			if (result.ok) {
				linearized[entry.op >> 5] |= 1 << (entry.op & 31);
				const key = `${linearized.join(',')}|${result.state ?? '\u0000'}`;
				if (!seen.has(key)) {
					seen.add(key);
					stack.push({ call: entry, state });
					state = result.state;
					lift(entry);
					entry = head.next;
					continue;
				}
				linearized[entry.op >> 5] &= ~(1 << (entry.op & 31));
			}
			entry = entry.next;
		} else {
			// A return whose call is not linearized yet: undo the last choice and try the next one.
			const top = stack.pop();
			if (!top) return false;
			state = top.state;
			linearized[top.call.op >> 5] &= ~(1 << (top.call.op & 31));
			unlift(top.call);
			entry = top.call.next;
		}
	}
	return true;
}

/** The keys whose histories are not linearizable (empty: the history is linearizable). */
export function nonLinearizableKeys(history: readonly KvOperation[]): string[] {
	const byKey = new Map<string, KvOperation[]>();
	for (const op of history) {
		let list = byKey.get(op.key);
		if (!list) byKey.set(op.key, (list = []));
		list.push(op);
	}
	return [...byKey.entries()].filter(([, ops]) => !checkKey(ops)).map(([key]) => key).sort();
}
