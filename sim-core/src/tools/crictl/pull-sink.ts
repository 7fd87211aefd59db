/**
 * The other end of `crictl pull`'s gRPC call. containerd answers a
 * PullImage only when the pull is done, which in the simulation is a `cri`
 * kernel event addressed to whoever asked; this process (`crictl/<node>`)
 * receives those events for crictl and keeps the outcomes until crictl,
 * waiting in virtual time, reads them. Registered and started by the
 * cluster wiring, one per node.
 *
 * Mirrors nothing upstream: the simulator's receiver for the completion of
 * crictl's PullImage call, which gRPC answers directly.
 */
import type { QueuedEvent } from '../../sim/event-queue.ts';
import type { Kernel } from '../../sim/kernel.ts';
import { ProcessBase } from '../../sim/process-base.ts';
import { CRI_EVENT_KIND, type CriEvent } from '../../cri-api/cri.ts';
import type { PullOutcome, PullReceiver } from './types.ts';

/** How many finished pulls the sink remembers (crictl reads its outcome right away; a few is plenty). */
const OUTCOMES_MAX = 16;

interface PullSinkState {
	/** Finished pulls, oldest first: [opId, outcome]. */
	outcomes: Array<[number, PullOutcome]>;
}

export class CrictlPullSink extends ProcessBase<PullSinkState> implements PullReceiver {
	constructor(kernel: Kernel, node: string) {
		super(`crictl/${node}`, kernel);
	}

	freshState(): PullSinkState {
		return { outcomes: [] };
	}

	onStart(): void {}

	handle(event: QueuedEvent): void {
		if (event.kind !== CRI_EVENT_KIND) return;
		const cri = event.payload as CriEvent;
		if (cri.type !== 'pull-done') return;
		const outcome: PullOutcome = cri.ok ? { ok: true, imageRef: cri.imageRef } : { ok: false, code: cri.error.code, desc: cri.error.desc };
		this.state.outcomes.push([cri.opId, outcome]);
		if (this.state.outcomes.length > OUTCOMES_MAX) this.state.outcomes.splice(0, this.state.outcomes.length - OUTCOMES_MAX);
	}

	/** Drops what the sink holds for `opId` (op ids restart with containerd, so an old outcome may share a new pull's id). */
	forget(opId: number): void {
		if (this.state) this.state.outcomes = this.state.outcomes.filter(([id]) => id !== opId);
	}

	outcome(opId: number): PullOutcome | undefined {
		return this.state?.outcomes.find(([id]) => id === opId)?.[1];
	}
}
