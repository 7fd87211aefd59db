/**
 * The simulation kernel: one virtual clock, one event queue, seeded random
 * streams, the process table and the trace. Everything that happens in the
 * cluster is an event popped from the queue and handed to the process it
 * targets; nothing reads a wall clock or ambient randomness, so the same
 * seed and the same inputs give the same trace, byte for byte.
 *
 * Processes are the cluster's programs (kube-apiserver, etcd, the scheduler,
 * each kubelet...). Each has volatile state, lost when it stops, and may
 * keep durable state elsewhere (etcd's data, a node's containers). The
 * kernel owns the process table and the volatile state of each process, so
 * a snapshot of the kernel is a snapshot of every process's memory.
 *
 * Mirrors nothing upstream: the simulator's own kernel (virtual clock,
 * process table, seeded randomness, trace).
 */
import { EventQueue, type QueuedEvent } from './event-queue.ts';
import { Rng, deriveRngState, type RngState } from './rng.ts';
import { Trace, type TraceEvent, type TraceState } from './trace.ts';
import { deepCopy } from '../golang/json.ts';

/** A program running in the simulated cluster. Implementations live in the component folders. */
export interface Process {
	readonly id: string;
	/** The initial volatile state, used at every start. Plain JSON. */
	freshState(): unknown;
	/** The current volatile state (the kernel sets it before onStart or on restore). */
	state: unknown;
	/** Runs when the process starts (boot or restart), after state is fresh. */
	onStart(): void;
	/** Runs when the process stops, before its queued events are dropped. */
	onStop?(): void;
	/** Handles one event addressed to this process. */
	handle(event: QueuedEvent): void;
}

/** Plain-JSON snapshot of the kernel. */
export interface KernelState {
	seed: number;
	epochMs: number;
	nowMs: number;
	nextSeq: number;
	queue: QueuedEvent[];
	rng: Record<string, RngState>;
	processes: Record<string, { running: boolean; incarnation: number; state: unknown }>;
	trace: TraceState;
	nextOrigin: number;
	/** Machines whose clock is off the virtual clock, by how much (ms; omitted when every clock agrees). */
	clocks?: Record<string, number>;
}

export interface ScheduleOptions {
	/** The chain to attach the event to; by default the one being handled now. */
	origin?: string;
	/** Housekeeping (heartbeats, resyncs): not "pending work" for settle(). */
	background?: boolean;
	/** A background retry of a call to the API server (implies background): see QueuedEvent.reconnect. */
	reconnect?: boolean;
}

/** Upper bound on events handled in one call, so no input can freeze the caller. */
const MAX_EVENTS_PER_RUN = 2_000_000;

export class Kernel {
	readonly seed: number;
	readonly epochMs: number;
	nowMs = 0;
	private nextSeq = 0;
	private nextOrigin = 0;
	/** Queued events that are not housekeeping: settle() runs until this is 0. */
	private pendingWork = 0;
	private readonly queue: EventQueue;
	private readonly rngStates: Record<string, RngState>;
	private readonly rngs = new Map<string, Rng>();
	private readonly table = new Map<string, { process: Process; running: boolean; incarnation: number }>();
	readonly trace: Trace;
	/** The origin of the event being handled (or of the current input). */
	origin = 'boot';
	/** Listeners told when a process stops (e.g. the API server drops its watches). */
	private readonly stopListeners: Array<(id: string) => void> = [];
	/** machine -> how far its clock is ahead of the virtual clock (behind when negative). */
	private readonly clockOffsets = new Map<string, number>();

	constructor(seed: number, epochMs: number, state?: KernelState) {
		this.seed = seed >>> 0;
		this.epochMs = epochMs;
		this.queue = new EventQueue(state ? state.queue.map((e) => ({ ...e })) : []);
		this.rngStates = state ? deepCopy(state.rng) : {};
		this.trace = state ? new Trace(deepCopy(state.trace)) : Trace.empty();
		this.pendingWork = this.queue.toJSON().filter((e) => !e.background).length;
		if (state) {
			this.nowMs = state.nowMs;
			this.nextSeq = state.nextSeq;
			this.nextOrigin = state.nextOrigin;
			for (const [machine, offset] of Object.entries(state.clocks ?? {})) this.clockOffsets.set(machine, offset);
		}
	}

	// ---- processes --------------------------------------------------------

	/** Adds a process to the table, stopped. */
	register(process: Process): void {
		if (this.table.has(process.id)) throw new Error(`process ${process.id} already registered`);
		this.table.set(process.id, { process, running: false, incarnation: 0 });
	}

	process(id: string): Process | undefined {
		return this.table.get(id)?.process;
	}

	processIds(): string[] {
		return [...this.table.keys()];
	}

	isRunning(id: string): boolean {
		return this.table.get(id)?.running ?? false;
	}

	incarnation(id: string): number {
		return this.table.get(id)?.incarnation ?? 0;
	}

	/** Starts a stopped process with fresh volatile state. */
	start(id: string): boolean {
		const entry = this.table.get(id);
		if (!entry || entry.running) return false;
		entry.running = true;
		entry.incarnation++;
		entry.process.state = entry.process.freshState();
		entry.process.onStart();
		return true;
	}

	/**
	 * Stops a running process: its memory and its queued events are gone.
	 * `abrupt`: the process is killed with its machine (a power cut), so it
	 * gets no chance to run its stop hook and write its last words.
	 */
	stop(id: string, options: { abrupt?: boolean } = {}): boolean {
		const entry = this.table.get(id);
		if (!entry || !entry.running) return false;
		if (!options.abrupt) entry.process.onStop?.();
		entry.running = false;
		this.queue.removeWhere((e) => e.target === id);
		this.pendingWork = this.queue.toJSON().filter((e) => !e.background).length;
		for (const listener of this.stopListeners) listener(id);
		return true;
	}

	onProcessStopped(listener: (id: string) => void): void {
		this.stopListeners.push(listener);
	}

	// ---- time and events ----------------------------------------------------

	/** Schedules an event for process `target` after `delayMs` (>= 0). */
	schedule(target: string, delayMs: number, kind: string, payload?: unknown, options: ScheduleOptions = {}): void {
		const entry = this.table.get(target);
		if (!entry || !entry.running) return;
		const event: QueuedEvent = {
			atMs: this.nowMs + Math.max(0, Math.round(delayMs)),
			seq: this.nextSeq++,
			target,
			incarnation: entry.incarnation,
			kind,
			origin: options.origin ?? this.origin,
		};
		if (payload !== undefined) event.payload = payload;
		if (options.reconnect) event.reconnect = true;
		if (options.background || options.reconnect) event.background = true;
		else this.pendingWork++;
		this.queue.push(event);
	}

	/** A new origin id for a chain of causes that starts now (a reader's input, a periodic timer). */
	newOrigin(prefix: string): string {
		return `${prefix}:${this.nextOrigin++}`;
	}

	/** When the next event fires, if any. */
	nextEventAtMs(): number | undefined {
		return this.queue.peek()?.atMs;
	}

	/** Whether any event that is not housekeeping is queued. */
	hasPendingWork(): boolean {
		return this.pendingWork > 0;
	}

	/** The processes with a reconnecting retry queued (QueuedEvent.reconnect), each once, in id order. */
	reconnecting(): string[] {
		const targets = new Set<string>();
		this.queue.some((e) => {
			if (e.reconnect && this.table.get(e.target)?.incarnation === e.incarnation) targets.add(e.target);
			return false;
		});
		return [...targets].sort();
	}

	/** Queued events in firing order (copies), for inspection and the UI. */
	queuedEvents(): QueuedEvent[] {
		return this.queue.ordered();
	}

	/** Handles the next event, advancing the clock to it. False if the queue is empty. */
	step(): boolean {
		const event = this.queue.pop();
		if (!event) return false;
		if (!event.background) this.pendingWork--;
		this.nowMs = Math.max(this.nowMs, event.atMs);
		const entry = this.table.get(event.target);
		if (!entry || !entry.running || entry.incarnation !== event.incarnation) return true;
		const previous = this.origin;
		this.origin = event.origin;
		try {
			entry.process.handle(event);
		} finally {
			this.origin = previous;
		}
		return true;
	}

	/** Handles every event up to `untilMs`, then sets the clock to `untilMs`. Returns events handled. */
	runUntil(untilMs: number, maxEvents = MAX_EVENTS_PER_RUN): number {
		let handled = 0;
		for (;;) {
			const next = this.queue.peek();
			if (!next || next.atMs > untilMs) break;
			if (handled >= maxEvents) throw new Error(`simulation exceeded ${maxEvents} events before ${untilMs} ms`);
			this.step();
			handled++;
		}
		this.nowMs = Math.max(this.nowMs, untilMs);
		return handled;
	}

	// ---- randomness and trace ---------------------------------------------

	/** The random stream of `name` (one per component), created on first use. */
	rng(name: string): Rng {
		let rng = this.rngs.get(name);
		if (!rng) {
			this.rngStates[name] ??= deriveRngState(this.seed, name);
			rng = new Rng(this.rngStates[name]);
			this.rngs.set(name, rng);
		}
		return rng;
	}

	/** Wall-clock-looking time (epoch ms) of the virtual now. */
	wallMs(): number {
		return this.epochMs + this.nowMs;
	}

	/**
	 * What one machine's clock reads now: the virtual wall clock plus that
	 * machine's skew. Every process reads the clock of the machine it runs
	 * on, so a skewed node writes skewed timestamps and judges certificates
	 * by its own time, as a real one does.
	 */
	wallMsOn(machine: string | undefined): number {
		return this.epochMs + this.nowMs + (machine === undefined ? 0 : (this.clockOffsets.get(machine) ?? 0));
	}

	/** How far a machine's clock is off (ms; positive ahead, negative behind). */
	clockOffset(machine: string): number {
		return this.clockOffsets.get(machine) ?? 0;
	}

	/** Sets a machine's clock `offsetMs` away from the virtual clock (0: in step again). */
	setClockOffset(machine: string, offsetMs: number): void {
		if (offsetMs === 0) this.clockOffsets.delete(machine);
		else this.clockOffsets.set(machine, offsetMs);
	}

	emit(event: Omit<TraceEvent, 'seq' | 'atMs' | 'origin'> & { origin?: string }): TraceEvent {
		return this.trace.append({ atMs: this.nowMs, origin: event.origin ?? this.origin, ...stripUndefined(event) });
	}

	// ---- snapshot -----------------------------------------------------------

	snapshot(): KernelState {
		const processes: KernelState['processes'] = {};
		for (const [id, entry] of this.table) {
			processes[id] = {
				running: entry.running,
				incarnation: entry.incarnation,
				state: entry.running ? deepCopy(entry.process.state) : null,
			};
		}
		return {
			seed: this.seed,
			epochMs: this.epochMs,
			nowMs: this.nowMs,
			nextSeq: this.nextSeq,
			nextOrigin: this.nextOrigin,
			queue: this.queue.toJSON(),
			rng: deepCopy(this.rngStates),
			processes,
			trace: deepCopy(this.trace.state),
			...(this.clockOffsets.size ? { clocks: Object.fromEntries([...this.clockOffsets].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) } : {}),
		};
	}

	/** Puts processes back as a snapshot had them (the processes must be registered first). */
	restoreProcesses(state: KernelState): void {
		for (const [id, saved] of Object.entries(state.processes)) {
			const entry = this.table.get(id);
			if (!entry) throw new Error(`snapshot has unknown process ${id}`);
			entry.running = saved.running;
			entry.incarnation = saved.incarnation;
			entry.process.state = saved.running ? deepCopy(saved.state) : entry.process.freshState();
		}
	}
}

function stripUndefined<T extends object>(value: T): T {
	const out = {} as T;
	for (const key of Object.keys(value) as Array<keyof T>) {
		if (value[key] !== undefined) out[key] = value[key];
	}
	return out;
}
