/**
 * A convenient base for the cluster's processes: typed volatile state, and
 * short helpers to schedule events, draw random numbers and write the trace
 * under the process's own name.
 *
 * Mirrors nothing upstream: a base class for the simulator's processes.
 */
import type { QueuedEvent } from './event-queue.ts';
import type { Kernel, Process, ScheduleOptions } from './kernel.ts';
import type { Rng } from './rng.ts';
import type { TraceEvent } from './trace.ts';

export abstract class ProcessBase<S> implements Process {
	/** Set by the kernel at start and on restore; plain JSON only. */
	state!: S;

	constructor(
		readonly id: string,
		protected readonly kernel: Kernel,
	) {}

	abstract freshState(): S;
	abstract onStart(): void;
	abstract handle(event: QueuedEvent): void;

	/** Virtual now, ms since the cluster started. */
	protected get nowMs(): number {
		return this.kernel.nowMs;
	}

	/** This process's own random stream. */
	protected get rng(): Rng {
		return this.kernel.rng(this.id);
	}

	/** Schedules an event for this process. */
	protected after(delayMs: number, kind: string, payload?: unknown, options?: ScheduleOptions): void {
		this.kernel.schedule(this.id, delayMs, kind, payload, options);
	}

	/** Starts a new chain of causes for periodic work, and schedules it. */
	protected periodic(delayMs: number, kind: string, payload?: unknown): void {
		this.kernel.schedule(this.id, delayMs, kind, payload, { background: true, origin: `periodic:${this.id}:${kind}` });
	}

	/** Writes a trace event as this process. */
	protected emit(event: Omit<TraceEvent, 'seq' | 'atMs' | 'origin' | 'component'> & { component?: string }): TraceEvent {
		return this.kernel.emit({ component: this.id, ...event });
	}
}
