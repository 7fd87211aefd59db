/**
 * NodeAffinity: Filter enforces spec.nodeSelector and the required node
 * affinity (and the profile's `addedAffinity`, which every pod of the
 * profile must also satisfy); Score sums the weights of the preferred terms
 * a node matches (plus `addedAffinity`'s preferred terms), normalized so the
 * best node gets 100 (`raw × 100 / maxRaw`). PreFilter narrows the nodes
 * when every required term pins `metadata.name`.
 *
 * Mirrors pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go.
 */
import type { Node, NodeAffinity as NodeAffinitySpec, NodeSelectorTerm, Pod } from '../../api/types.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import {
	MAX_NODE_SCORE,
	type EnqueueExtensions,
	type FilterPlugin,
	type NodeScore,
	type PreFilterPlugin,
	type PreFilterResult,
	type PreScorePlugin,
	type ScoreExtensions,
	type ScorePlugin,
} from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import type { NodeInfo } from '../framework/types.ts';
import { NodeSelectorMatcher, PreferredSchedulingTerms, RequiredNodeAffinity } from '../../component-helpers/node-affinity.ts';
import { defaultNormalizeScore } from './helper/normalize-score.ts';
import { Names } from './names.ts';

/** NodeAffinityArgs. */
export interface NodeAffinityArgs {
	/** Node affinity every pod of the profile gets in addition to its own. */
	addedAffinity?: NodeAffinitySpec;
}

/** ErrReasonPod. */
export const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
/** errReasonEnforced. */
export const ERR_REASON_ENFORCED = "node(s) didn't match scheduler-enforced node affinity";
/** errReasonConflict. */
export const ERR_REASON_CONFLICT = 'pod affinity terms conflict';

const PRE_FILTER_KEY = `PreFilter${Names.NodeAffinity}`;
const PRE_SCORE_KEY = `PreScore${Names.NodeAffinity}`;

class PreFilterState implements StateData {
	constructor(readonly required: RequiredNodeAffinity) {}
	clone(): StateData {
		return this;
	}
}

class PreScoreState implements StateData {
	constructor(readonly preferred: PreferredSchedulingTerms | undefined) {}
	clone(): StateData {
		return this;
	}
}

/** getPodPreferredNodeAffinity; an error when a term does not parse. */
function podPreferredNodeAffinity(pod: Pod): { terms?: PreferredSchedulingTerms; error?: string } {
	const preferred = pod.spec.affinity?.nodeAffinity?.preferredDuringSchedulingIgnoredDuringExecution;
	if (!preferred) return {};
	const terms = new PreferredSchedulingTerms(preferred);
	const error = terms.error();
	return error ? { error } : { terms };
}

/** The node names required terms pin via matchFields metadata.name In; undefined means "all nodes". */
function pinnedNodeNames(terms: NodeSelectorTerm[]): Set<string> | undefined {
	let names: Set<string> | undefined;
	for (const term of terms) {
		let termNames: Set<string> | undefined;
		for (const r of term.matchFields ?? []) {
			if (r.key !== 'metadata.name' || r.operator !== 'In') continue;
			const s = new Set(r.values ?? []);
			termNames = termNames ? new Set([...termNames].filter((n) => s.has(n))) : s;
		}
		// A term without a name requirement admits every node, and terms are ORed.
		if (!termNames) return undefined;
		names = new Set([...(names ?? []), ...termNames]);
	}
	return names;
}

export class NodeAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions {
	readonly name = Names.NodeAffinity;
	private readonly addedNodeSelector?: NodeSelectorMatcher;
	private readonly addedPrefSchedTerms?: PreferredSchedulingTerms;

	constructor(args: NodeAffinityArgs = {}) {
		const added = args.addedAffinity;
		if (added?.requiredDuringSchedulingIgnoredDuringExecution) this.addedNodeSelector = new NodeSelectorMatcher(added.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms ?? []);
		if (added?.preferredDuringSchedulingIgnoredDuringExecution?.length) this.addedPrefSchedTerms = new PreferredSchedulingTerms(added.preferredDuringSchedulingIgnoredDuringExecution);
	}

	preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } {
		const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
		if (!required && !this.addedNodeSelector && !pod.spec.nodeSelector) return { status: new Status(Code.Skip) };
		state.write(PRE_FILTER_KEY, new PreFilterState(new RequiredNodeAffinity(pod.spec)));
		const terms = required?.nodeSelectorTerms ?? [];
		if (terms.length === 0) return {};
		const names = pinnedNodeNames(terms);
		if (names && names.size === 0) return { status: new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_CONFLICT]) };
		if (names) return { result: { nodeNames: names } };
		return {};
	}

	filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const node = nodeInfo.node!;
		if (this.addedNodeSelector && !this.addedNodeSelector.match(node)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_ENFORCED]);
		const s = state.read<PreFilterState>(PRE_FILTER_KEY) ?? new PreFilterState(new RequiredNodeAffinity(pod.spec));
		if (!s.required.match(node)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_POD]);
		return undefined;
	}

	preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | undefined {
		if (nodes.length === 0) return undefined;
		const { terms, error } = podPreferredNodeAffinity(pod);
		if (error) return Status.asError(error);
		if (!terms && !this.addedPrefSchedTerms) return new Status(Code.Skip);
		state.write(PRE_SCORE_KEY, new PreScoreState(terms));
		return undefined;
	}

	score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		const node = nodeInfo.node!;
		let count = this.addedPrefSchedTerms?.score(node) ?? 0;
		let s = state.read<PreScoreState>(PRE_SCORE_KEY);
		if (!s) {
			const { terms, error } = podPreferredNodeAffinity(pod);
			if (error) return { score: 0, status: Status.asError(error) };
			s = new PreScoreState(terms);
		}
		count += s.preferred?.score(node) ?? 0;
		return { score: count };
	}

	scoreExtensions(): ScoreExtensions {
		return this;
	}

	normalizeScore(_state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
		defaultNormalizeScore(MAX_NODE_SCORE, false, scores);
		return undefined;
	}

	eventsToRegister(): ClusterEventWithHint[] {
		return [
			{
				event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel },
				// Queue when the node now matches and did not before (or is new).
				hint: (pod, old, updated) => {
					const node = updated as Node | undefined;
					if (!node) return QueueingHint.QueueSkip;
					if (this.addedNodeSelector && !this.addedNodeSelector.match(node)) return QueueingHint.QueueSkip;
					const required = new RequiredNodeAffinity(pod.spec);
					if (!required.match(node)) return QueueingHint.QueueSkip;
					if (old === undefined) return QueueingHint.Queue;
					return required.match(old as Node) ? QueueingHint.QueueSkip : QueueingHint.Queue;
				},
			},
		];
	}
}
