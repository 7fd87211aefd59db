/**
 * TaintToleration: Filter rejects a node with a NoSchedule or NoExecute
 * taint the pod does not tolerate; Score counts the node's PreferNoSchedule
 * taints the pod does not tolerate, and NormalizeScore reverses the counts
 * so the node with the fewest gets 100 (`100 − count × 100 / maxCount`).
 * Since v1.35 the filter reason no longer names the taint.
 *
 * Mirrors
 * pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.
 */
import type { Node, Pod, Toleration } from '../../api/types.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import { MAX_NODE_SCORE, type EnqueueExtensions, type FilterPlugin, type NodeScore, type PreScorePlugin, type ScoreExtensions, type ScorePlugin } from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import type { NodeInfo } from '../framework/types.ts';
import { defaultNormalizeScore } from './helper/normalize-score.ts';
import { isDoNotScheduleTaint } from './helper/taints.ts';
import { findMatchingUntoleratedTaint, tolerationsTolerateTaint } from '../../component-helpers/taints.ts';
import { Names } from './names.ts';

/** The Filter's reason (v1.35+). */
export const ERR_REASON_UNTOLERATED_TAINT = 'node(s) had untolerated taint(s)';

const PRE_SCORE_KEY = `PreScore${Names.TaintToleration}`;

class PreScoreState implements StateData {
	constructor(readonly tolerationsPreferNoSchedule: Toleration[]) {}
	clone(): StateData {
		return this;
	}
}

/** getAllTolerationPreferNoSchedule: tolerations with an empty effect (all effects) or PreferNoSchedule. */
function tolerationsPreferNoSchedule(tolerations: Toleration[] | undefined): Toleration[] {
	return (tolerations ?? []).filter((t) => !t.effect || t.effect === 'PreferNoSchedule');
}

/** countIntolerableTaintsPreferNoSchedule. */
function countIntolerableTaintsPreferNoSchedule(node: Node | undefined, tolerations: Toleration[]): number {
	let count = 0;
	for (const taint of node?.spec?.taints ?? []) {
		if (taint.effect !== 'PreferNoSchedule') continue;
		if (!tolerationsTolerateTaint(tolerations, taint)) count++;
	}
	return count;
}

export class TaintToleration implements FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions {
	readonly name = Names.TaintToleration;

	filter(_state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const taint = findMatchingUntoleratedTaint(nodeInfo.node?.spec?.taints, pod.spec.tolerations, isDoNotScheduleTaint);
		if (!taint) return undefined;
		return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_UNTOLERATED_TAINT]);
	}

	preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | undefined {
		if (nodes.length === 0) return undefined;
		state.write(PRE_SCORE_KEY, new PreScoreState(tolerationsPreferNoSchedule(pod.spec.tolerations)));
		return undefined;
	}

	score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		const s = state.read<PreScoreState>(PRE_SCORE_KEY) ?? new PreScoreState(tolerationsPreferNoSchedule(pod.spec.tolerations));
		return { score: countIntolerableTaintsPreferNoSchedule(nodeInfo.node, s.tolerationsPreferNoSchedule) };
	}

	scoreExtensions(): ScoreExtensions {
		return this;
	}

	normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
		defaultNormalizeScore(MAX_NODE_SCORE, true, scores);
		return undefined;
	}

	eventsToRegister(): ClusterEventWithHint[] {
		const untolerated = (pod: Pod, node: Node | undefined) => !!findMatchingUntoleratedTaint(node?.spec?.taints, pod.spec.tolerations, isDoNotScheduleTaint);
		return [
			{
				event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeTaint },
				// Queue only when the change turned an untolerated node into a tolerated one.
				hint: (pod, old, updated) => {
					const wasUntolerated = old === undefined ? true : untolerated(pod, old as Node);
					return wasUntolerated && !untolerated(pod, updated as Node | undefined) ? QueueingHint.Queue : QueueingHint.QueueSkip;
				},
			},
			{
				event: { resource: 'Pod', actionType: ActionType.UpdatePodToleration },
				hint: (pod, _old, updated) => (updated?.metadata.uid === pod.metadata.uid ? QueueingHint.Queue : QueueingHint.QueueSkip),
			},
		];
	}
}
