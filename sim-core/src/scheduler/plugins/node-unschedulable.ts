/**
 * NodeUnschedulable: a cordoned node (spec.unschedulable) takes no new pods,
 * unless the pod tolerates the `node.kubernetes.io/unschedulable:NoSchedule`
 * taint.
 *
 * Mirrors
 * pkg/scheduler/framework/plugins/nodeunschedulable/node_unschedulable.go.
 */
import type { Node, Pod } from '../../api/types.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import type { CycleState } from '../framework/cycle-state.ts';
import type { EnqueueExtensions, FilterPlugin } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import type { NodeInfo } from '../framework/types.ts';
import { tolerationsTolerateTaint } from '../../component-helpers/taints.ts';
import { Names } from './names.ts';

/** ErrReasonUnschedulable. */
export const ERR_REASON_UNSCHEDULABLE = 'node(s) were unschedulable';
/** The taint a cordoned node stands for (v1.TaintNodeUnschedulable). */
const TAINT_NODE_UNSCHEDULABLE = 'node.kubernetes.io/unschedulable';

function toleratesUnschedulable(pod: Pod): boolean {
	return tolerationsTolerateTaint(pod.spec.tolerations, { key: TAINT_NODE_UNSCHEDULABLE, effect: 'NoSchedule' });
}

export class NodeUnschedulable implements FilterPlugin, EnqueueExtensions {
	readonly name = Names.NodeUnschedulable;

	filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		if (!nodeInfo.node?.spec?.unschedulable) return undefined;
		if (toleratesUnschedulable(pod)) return undefined;
		return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_UNSCHEDULABLE]);
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{
				event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint },
				// Queue when a node becomes schedulable, or is added schedulable.
				hint: (_pod, old, updated) => {
					const node = updated as Node | undefined;
					if (!node || node.spec?.unschedulable) return QueueingHint.QueueSkip;
					return old === undefined || (old as Node).spec?.unschedulable ? QueueingHint.Queue : QueueingHint.QueueSkip;
				},
			},
		];
	}
}
