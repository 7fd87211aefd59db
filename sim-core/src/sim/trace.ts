/**
 * The structured trace: every step of every component, in order. The
 * timeline, the sequence diagrams ("the story of a request") and the tests
 * all read it.
 *
 * Events that follow from one cause share an `origin` (for example
 * `input:7`, the reader's seventh command): the kernel hands the origin of
 * the event being handled to everything it schedules, and the API server
 * passes a write's origin on to the watch events it causes. Following one
 * origin therefore tells the whole story of one command.
 *
 * The trace keeps the most recent `capacity` events (memory stays bounded
 * however long a cluster runs) and a running hash of every event ever
 * emitted, so two runs can be compared byte for byte without keeping both.
 *
 * Mirrors nothing upstream: the simulator's structured trace, which stands
 * in for the components' logs, events and metrics.
 */

/** One step of one component. Written by components through the kernel; read by everyone. */
export interface TraceEvent {
	/** Position in the whole run (never reused). */
	seq: number;
	/** Virtual time, ms since the cluster started. */
	atMs: number;
	/** Who acted: 'kubectl', 'kube-apiserver', 'etcd', 'kube-scheduler', 'kube-controller-manager', 'kubelet/node-1', 'container-runtime/node-1'... */
	component: string;
	/** For components that host several loops: which one ('deployment', 'replicaset', 'garbagecollector'...). */
	sub?: string;
	/** What it did, a short verb: 'request', 'response', 'put', 'watch-event', 'reconcile', 'bind', 'pull', 'start'... */
	action: string;
	/** The object concerned, as resource/namespace/name or resource/name ('pods/default/web-1', 'nodes/node-1'). */
	object?: string;
	/** The resourceVersion (etcd revision) involved, when there is one. */
	rv?: number;
	/** The other party when this is a message between components (drawn as an arrow). */
	peer?: string;
	/** A short human sentence. */
	msg: string;
	/** The chain of causes this belongs to. */
	origin: string;
}

/** Plain-JSON state of a Trace. */
export interface TraceState {
	capacity: number;
	nextSeq: number;
	/** Running FNV-1a-style hash (two 32-bit lanes) over every event's JSON. */
	hash: [number, number];
	events: TraceEvent[];
}

export class Trace {
	constructor(readonly state: TraceState) {}

	static empty(capacity = 50_000): Trace {
		return new Trace({ capacity, nextSeq: 0, hash: [0x811c9dc5, 0x01000193], events: [] });
	}

	append(event: Omit<TraceEvent, 'seq'>): TraceEvent {
		const full: TraceEvent = { seq: this.state.nextSeq++, ...event };
		const s = this.state;
		s.events.push(full);
		// Drop the oldest tenth at once: amortized O(1) per event.
		if (s.events.length > s.capacity) s.events.splice(0, Math.ceil(s.capacity / 10));
		const text = JSON.stringify(full);
		let [a, b] = s.hash;
		for (let i = 0; i < text.length; i++) {
			const c = text.charCodeAt(i);
			a = Math.imul(a ^ c, 0x01000193) >>> 0;
			b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
		}
		s.hash = [a, b];
		return full;
	}

	/** Events still held, optionally only those at or after a time or after a seq. */
	events(filter: { sinceMs?: number; afterSeq?: number; origin?: string } = {}): TraceEvent[] {
		return this.state.events.filter(
			(e) =>
				(filter.sinceMs === undefined || e.atMs >= filter.sinceMs) &&
				(filter.afterSeq === undefined || e.seq > filter.afterSeq) &&
				(filter.origin === undefined || e.origin === filter.origin),
		);
	}

	/** A fingerprint of the whole run so far: equal runs have equal fingerprints. */
	fingerprint(): string {
		const [a, b] = this.state.hash;
		return `${this.state.nextSeq}:${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
	}
}
