/**
 * Faults planned ahead (a scenario's `faults:` list: "stop the kubelet on
 * node-1 two minutes in"). They fire from inside the simulation, so they
 * replay, snapshot and travel in time like everything else.
 */
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';

/** One planned fault, at an absolute virtual time. */
export interface PlannedFault {
	atMs: number;
	verb: 'stop' | 'start' | 'partition' | 'heal';
	component?: string;
	node?: string;
}

export class TimedFaults extends ProcessBase<{ planned: PlannedFault[] }> {
	constructor(
		kernel: Kernel,
		private readonly fire: (fault: PlannedFault) => void,
	) {
		super('timed-faults', kernel);
	}

	freshState() {
		return { planned: [] as PlannedFault[] };
	}

	onStart(): void {}

	/** Plans a fault; it fires at `fault.atMs`. */
	plan(fault: PlannedFault): void {
		const index = this.state.planned.push(fault) - 1;
		this.after(Math.max(0, fault.atMs - this.nowMs), 'fire', { index }, { background: true, origin: `planned-fault:${index}` });
	}

	handle(event: QueuedEvent): void {
		const fault = this.state.planned[(event.payload as { index: number }).index];
		if (fault) this.fire(fault);
	}
}
