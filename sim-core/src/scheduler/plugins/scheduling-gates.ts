/**
 * SchedulingGates: a pod with spec.schedulingGates stays out of the active
 * queue until every gate is removed; the update that removes the last gate
 * sends it back.
 *
 * Mirrors
 * pkg/scheduler/framework/plugins/schedulinggates/scheduling_gates.go.
 */
import type { Pod } from '../../api/types.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import type { EnqueueExtensions, PreEnqueuePlugin } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import { Names } from './names.ts';

export class SchedulingGates implements PreEnqueuePlugin, EnqueueExtensions {
	readonly name = Names.SchedulingGates;

	preEnqueue(pod: Pod): Status | undefined {
		const gates = pod.spec.schedulingGates ?? [];
		if (gates.length === 0) return undefined;
		// fmt.Sprintf("waiting for scheduling gates: %v", gates) prints the names as a Go slice.
		return new Status(Code.UnschedulableAndUnresolvable, [`waiting for scheduling gates: [${gates.map((g) => g.name).join(' ')}]`]);
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{
				event: { resource: 'Pod', actionType: ActionType.UpdatePodSchedulingGatesEliminated },
				// Only the gated pod's own update can ungate it.
				hint: (pod, _old, updated) => (updated && updated.metadata.uid === pod.metadata.uid && ((updated as Pod).spec.schedulingGates?.length ?? 0) === 0 ? QueueingHint.Queue : QueueingHint.QueueSkip),
			},
		];
	}
}
