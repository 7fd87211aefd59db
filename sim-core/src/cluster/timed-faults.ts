/**
 * Faults planned ahead (a scenario's `faults:` list: "stop the kubelet on
 * node-1 two minutes in"), and the node's own plans: a rebooting machine
 * coming back up, logind's scheduled shutdown. They fire from inside the
 * simulation, so they replay, snapshot and travel in time like everything
 * else.
 *
 * Mirrors nothing upstream: the simulator's planned faults, fired on the
 * virtual clock.
 */
import type { QueuedEvent } from '../sim/event-queue.ts';
import type { Kernel } from '../sim/kernel.ts';
import { ProcessBase } from '../sim/process-base.ts';

/** One planned fault, at an absolute virtual time. */
export interface PlannedFault {
	atMs: number;
	/**
	 * `stop`/`start` a component, `partition`/`heal` a node's network,
	 * `powerOff`/`powerOn` a node, `setClock` a node's clock. `scheduled-shutdown` is the node's own:
	 * at that time it acts on logind's schedule file, if still there.
	 */
	verb: 'stop' | 'start' | 'partition' | 'heal' | 'powerOff' | 'powerOn' | 'setClock' | 'scheduled-shutdown';
	component?: string;
	node?: string;
	/** `setClock`: how far from true time the node's clock is set (ms). */
	offsetMs?: number;
	/** Who the trace credits (default `scenario`), e.g. `systemd/node-1` for a reboot coming back up. */
	by?: string;
	/** A reboot's power-on: the boot that ended with it. If the machine was booted since, the plan is stale. */
	afterBoot?: string;
}

/** Plans kept at most: each `shutdown +N` adds one; a scenario a handful. */
const MAX_PLANNED = 10_000;

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

	/**
	 * Plans a fault; it fires at `fault.atMs`. A scenario's faults are
	 * background (settle() does not wait for them); `work` makes one pending
	 * work instead (a machine that is rebooting: settle() waits for it).
	 * `origin`: the chain it continues (a reader's `reboot` command), else
	 * its own. False when too many are planned.
	 */
	plan(fault: PlannedFault, options: { work?: boolean; origin?: string } = {}): boolean {
		if (this.state.planned.length >= MAX_PLANNED) return false;
		const index = this.state.planned.push(fault) - 1;
		this.after(Math.max(0, fault.atMs - this.nowMs), 'fire', { index }, { background: !options.work, origin: options.origin ?? `planned-fault:${index}` });
		return true;
	}

	handle(event: QueuedEvent): void {
		const fault = this.state.planned[(event.payload as { index: number }).index];
		if (!fault) return;
		try {
			this.fire(fault);
		} catch (error) {
			// A fault that cannot be carried out is reported, never thrown out of the kernel's loop.
			this.emit({ action: 'error', msg: `planned ${fault.verb} failed: ${error instanceof Error ? error.message : String(error)}` });
		}
	}
}
