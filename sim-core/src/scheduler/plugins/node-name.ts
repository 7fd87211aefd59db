/**
 * NodeName: a pod that names its node (spec.nodeName) fits only there.
 *
 * Mirrors pkg/scheduler/framework/plugins/nodename/node_name.go.
 */
import type { Pod } from '../../api/types.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import type { CycleState } from '../framework/cycle-state.ts';
import type { EnqueueExtensions, FilterPlugin } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import type { NodeInfo } from '../framework/types.ts';
import { Names } from './names.ts';

/** ErrReason. */
export const ERR_REASON_NODE_NAME = "node(s) didn't match the requested node name";

export class NodeName implements FilterPlugin, EnqueueExtensions {
	readonly name = Names.NodeName;

	filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		if (!pod.spec.nodeName || pod.spec.nodeName === nodeInfo.name) return undefined;
		return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_NODE_NAME]);
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{
				event: { resource: 'Node', actionType: ActionType.Add },
				hint: (pod, _old, node) => (!pod.spec.nodeName || pod.spec.nodeName === node?.metadata.name ? QueueingHint.Queue : QueueingHint.QueueSkip),
			},
		];
	}
}
