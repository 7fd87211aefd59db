/**
 * The kernel's single queue of future events, ordered by (time, sequence):
 * two events at the same virtual millisecond run in the order they were
 * scheduled, which makes every run reproducible.
 *
 * Events are plain data (target process, kind, payload), never closures, so
 * the queue snapshots as JSON and a restored cluster continues exactly.
 *
 * Mirrors nothing upstream: the simulator's discrete-event queue; a real
 * cluster's processes run concurrently on wall-clock time.
 */

/** One scheduled event. Created by the kernel; read by the target process. */
export interface QueuedEvent {
	/** Virtual time at which it fires, in ms since the cluster's start. */
	atMs: number;
	/** Global scheduling order; breaks ties between equal times. */
	seq: number;
	/** Id of the process that handles it (e.g. 'kube-scheduler', 'kubelet/node-1'). */
	target: string;
	/** Incarnation of the target when scheduled: events for an earlier life are dropped. */
	incarnation: number;
	/** What happens: the target dispatches on this string. */
	kind: string;
	/** Housekeeping (heartbeats, resyncs): not pending work for settle(). */
	background?: boolean;
	/**
	 * A background retry of a call to the API server (an informer relisting,
	 * a kubelet registering): settle() counts it as work while the API server
	 * is reachable from the target, since the retry will then succeed and
	 * change what the cluster does; while it is unreachable it is only waiting.
	 */
	reconnect?: boolean;
	/** Plain-JSON data for the handler. */
	payload?: unknown;
	/** The chain this event belongs to (see Trace): carried to whatever it causes. */
	origin: string;
}

function before(a: QueuedEvent, b: QueuedEvent): boolean {
	return a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq);
}

/** A binary min-heap of QueuedEvent. Its array is its snapshot. */
export class EventQueue {
	constructor(private readonly heap: QueuedEvent[] = []) {}

	get size(): number {
		return this.heap.length;
	}

	peek(): QueuedEvent | undefined {
		return this.heap[0];
	}

	push(event: QueuedEvent): void {
		const heap = this.heap;
		heap.push(event);
		let i = heap.length - 1;
		while (i > 0) {
			const parent = (i - 1) >> 1;
			if (!before(heap[i], heap[parent])) break;
			[heap[i], heap[parent]] = [heap[parent], heap[i]];
			i = parent;
		}
	}

	pop(): QueuedEvent | undefined {
		const heap = this.heap;
		if (heap.length === 0) return undefined;
		const top = heap[0];
		const last = heap.pop()!;
		if (heap.length > 0) {
			heap[0] = last;
			let i = 0;
			for (;;) {
				const l = 2 * i + 1;
				const r = l + 1;
				let m = i;
				if (l < heap.length && before(heap[l], heap[m])) m = l;
				if (r < heap.length && before(heap[r], heap[m])) m = r;
				if (m === i) break;
				[heap[i], heap[m]] = [heap[m], heap[i]];
				i = m;
			}
		}
		return top;
	}

	/** Removes every event matching `predicate` (used when a process stops). */
	removeWhere(predicate: (e: QueuedEvent) => boolean): number {
		const kept = this.heap.filter((e) => !predicate(e));
		const removed = this.heap.length - kept.length;
		if (removed > 0) {
			this.heap.length = 0;
			for (const e of kept) this.push(e);
		}
		return removed;
	}

	/** Whether any queued event matches `predicate` (no copy). */
	some(predicate: (e: QueuedEvent) => boolean): boolean {
		return this.heap.some(predicate);
	}

	/** Events in firing order (a copy), for inspection. */
	ordered(): QueuedEvent[] {
		return [...this.heap].sort((a, b) => a.atMs - b.atMs || a.seq - b.seq);
	}

	toJSON(): QueuedEvent[] {
		return this.heap.map((e) => ({ ...e }));
	}
}
