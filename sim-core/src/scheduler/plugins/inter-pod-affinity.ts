/**
 * InterPodAffinity: places pods relative to other pods. Filter enforces the
 * incoming pod's required affinity (some matching pod in the node's topology
 * domain), its required anti-affinity (none there), and the required
 * anti-affinity of pods already running (the incoming pod must not land in a
 * domain they exclude it from). Score adds the weights of the preferred
 * terms on both sides (and `hardPodAffinityWeight` for existing pods'
 * required affinity), per topology domain, then scales min..max to 0..100.
 *
 * matchLabelKeys / mismatchLabelKeys are merged into the label selector by
 * kube-apiserver when a pod is created (since v1.33), not here.
 *
 * Mirrors pkg/scheduler/framework/plugins/interpodaffinity/plugin.go,
 * pkg/scheduler/framework/plugins/interpodaffinity/filtering.go,
 * pkg/scheduler/framework/plugins/interpodaffinity/scoring.go.
 */
import type { KubeObject, Node, Pod } from '../../api/types.ts';
import { isEmptySelector, matches, NOTHING } from '../../api/labels.ts';
import type { CycleState, StateData } from '../framework/cycle-state.ts';
import { ActionType, QueueingHint, type ClusterEventWithHint } from '../framework/events.ts';
import {
	MAX_NODE_SCORE,
	type EnqueueExtensions,
	type FilterPlugin,
	type Handle,
	type NodeScore,
	type PreFilterExtensions,
	type PreFilterPlugin,
	type PreFilterResult,
	type PreScorePlugin,
	type ScoreExtensions,
	type ScorePlugin,
} from '../framework/interface.ts';
import { Code, Status } from '../framework/status.ts';
import { affinityTermMatches, PodInfo, type AffinityTerm, type NodeInfo, type WeightedAffinityTerm } from '../framework/types.ts';
import { ArgsError, invalid } from './args-validation.ts';
import { Names } from './names.ts';

/** InterPodAffinityArgs. */
export interface InterPodAffinityArgs {
	/** Weight of an existing pod's required affinity term in scoring (default 1, 0..100). */
	hardPodAffinityWeight?: number;
	/** Ignore existing pods' preferred terms when the incoming pod has none. */
	ignorePreferredTermsOfExistingPods?: boolean;
}

/** ErrReasonExistingAntiAffinityRulesNotMatch. */
export const ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't satisfy existing pods anti-affinity rules";
/** ErrReasonAffinityRulesNotMatch. */
export const ERR_REASON_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod affinity rules";
/** ErrReasonAntiAffinityRulesNotMatch. */
export const ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH = "node(s) didn't match pod anti-affinity rules";

/** topologyToMatchedTermCount: "key\u0000value" -> count. */
type TopologyCounts = Map<string, number>;
const pairKey = (key: string, value: string) => `${key}\u0000${value}`;

function updateCount(m: TopologyCounts, node: Node, topologyKey: string, value: number): void {
	const labels = node.metadata.labels ?? {};
	if (!Object.hasOwn(labels, topologyKey)) return;
	const k = pairKey(topologyKey, labels[topologyKey]);
	const n = (m.get(k) ?? 0) + value;
	if (n === 0) m.delete(k);
	else m.set(k, n);
}

/** podMatchesAllAffinityTerms: the pod matches every term (and there is at least one). */
function podMatchesAllAffinityTerms(terms: AffinityTerm[], pod: KubeObject): boolean {
	if (terms.length === 0) return false;
	return terms.every((t) => affinityTermMatches(t, pod, undefined));
}

/** updateWithAffinityTerms: if the pod matches all terms, count the node's domain for each. */
function updateWithAffinityTerms(m: TopologyCounts, terms: AffinityTerm[], pod: KubeObject, node: Node, value: number): void {
	if (podMatchesAllAffinityTerms(terms, pod)) for (const t of terms) updateCount(m, node, t.topologyKey, value);
}

/** updateWithAntiAffinityTerms: count the node's domain for each term the pod matches. */
function updateWithAntiAffinityTerms(m: TopologyCounts, terms: AffinityTerm[], pod: KubeObject, nsLabels: Record<string, string> | undefined, node: Node, value: number): void {
	for (const t of terms) if (affinityTermMatches(t, pod, nsLabels)) updateCount(m, node, t.topologyKey, value);
}

class PreFilterState implements StateData {
	constructor(
		readonly podInfo: PodInfo,
		readonly namespaceLabels: Record<string, string> | undefined,
		readonly existingAntiAffinityCounts: TopologyCounts,
		readonly affinityCounts: TopologyCounts,
		readonly antiAffinityCounts: TopologyCounts,
	) {}

	clone(): StateData {
		return new PreFilterState(this.podInfo, this.namespaceLabels, new Map(this.existingAntiAffinityCounts), new Map(this.affinityCounts), new Map(this.antiAffinityCounts));
	}

	/** updateWithPod: account for a pod added to (+1) or removed from (−1) a node. */
	updateWithPod(pi: PodInfo, node: Node, multiplier: number): void {
		updateWithAntiAffinityTerms(this.existingAntiAffinityCounts, pi.requiredAntiAffinityTerms, this.podInfo.pod, this.namespaceLabels, node, multiplier);
		updateWithAffinityTerms(this.affinityCounts, this.podInfo.requiredAffinityTerms, pi.pod, node, multiplier);
		updateWithAntiAffinityTerms(this.antiAffinityCounts, this.podInfo.requiredAntiAffinityTerms, pi.pod, undefined, node, multiplier);
	}
}

class PreScoreState implements StateData {
	constructor(readonly topologyScore: Map<string, Map<string, number>>) {}
	clone(): StateData {
		return this;
	}
}

const PRE_FILTER_KEY = `PreFilter${Names.InterPodAffinity}`;
const PRE_SCORE_KEY = `PreScore${Names.InterPodAffinity}`;

/** SetDefaults_InterPodAffinityArgs: hardPodAffinityWeight 1. */
function defaultInterPodAffinityArgs(args: InterPodAffinityArgs | undefined): InterPodAffinityArgs {
	return { hardPodAffinityWeight: args?.hardPodAffinityWeight ?? 1, ignorePreferredTermsOfExistingPods: args?.ignorePreferredTermsOfExistingPods ?? false };
}

export class InterPodAffinity implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions, PreFilterExtensions {
	readonly name = Names.InterPodAffinity;
	private readonly args: Required<InterPodAffinityArgs>;

	constructor(
		rawArgs: InterPodAffinityArgs | undefined,
		private readonly handle: Handle,
	) {
		this.args = defaultInterPodAffinityArgs(rawArgs) as Required<InterPodAffinityArgs>;
		const w = this.args.hardPodAffinityWeight;
		if (w < 0 || w > 100) throw new ArgsError([invalid('hardPodAffinityWeight', w, 'not in valid range [0, 100]')]);
	}

	/** GetNamespaceLabelsSnapshot: the labels of the pod's namespace, if the namespace is known. */
	private namespaceLabels(namespace: string): Record<string, string> | undefined {
		const ns = this.handle.listers.namespace(namespace);
		return ns ? { ...(ns.metadata.labels ?? {}) } : undefined;
	}

	/** mergeAffinityTermNamespacesIfNotEmpty: resolve a non-empty namespaceSelector into namespace names. */
	private mergeNamespaces(term: AffinityTerm): void {
		if (isEmptySelector(term.namespaceSelector)) return;
		for (const ns of this.handle.listers.namespaces()) if (matches(term.namespaceSelector, ns.metadata.labels ?? {})) term.namespaces.add(ns.metadata.name ?? '');
		term.namespaceSelector = NOTHING;
	}

	// ---- filtering -------------------------------------------------------------

	preFilter(state: CycleState, pod: Pod, allNodes: NodeInfo[]): { result?: PreFilterResult; status?: Status } {
		const podInfo = new PodInfo(pod);
		if (podInfo.parseErrors.length) return { status: new Status(Code.UnschedulableAndUnresolvable, [`parsing pod: ${podInfo.parseErrors.join(', ')}`]) };
		for (const t of podInfo.requiredAffinityTerms) this.mergeNamespaces(t);
		for (const t of podInfo.requiredAntiAffinityTerms) this.mergeNamespaces(t);
		const nsLabels = this.namespaceLabels(pod.metadata.namespace ?? '');

		const existingAntiAffinityCounts: TopologyCounts = new Map();
		for (const nodeInfo of this.handle.snapshot.havePodsWithRequiredAntiAffinityList()) {
			for (const existing of nodeInfo.podsWithRequiredAntiAffinity) updateWithAntiAffinityTerms(existingAntiAffinityCounts, existing.requiredAntiAffinityTerms, pod, nsLabels, nodeInfo.node!, 1);
		}
		const affinityCounts: TopologyCounts = new Map();
		const antiAffinityCounts: TopologyCounts = new Map();
		if (podInfo.requiredAffinityTerms.length > 0 || podInfo.requiredAntiAffinityTerms.length > 0) {
			for (const nodeInfo of allNodes) {
				for (const existing of nodeInfo.pods) {
					updateWithAffinityTerms(affinityCounts, podInfo.requiredAffinityTerms, existing.pod, nodeInfo.node!, 1);
					updateWithAntiAffinityTerms(antiAffinityCounts, podInfo.requiredAntiAffinityTerms, existing.pod, undefined, nodeInfo.node!, 1);
				}
			}
		}
		if (existingAntiAffinityCounts.size === 0 && podInfo.requiredAffinityTerms.length === 0 && podInfo.requiredAntiAffinityTerms.length === 0) return { status: new Status(Code.Skip) };
		state.write(PRE_FILTER_KEY, new PreFilterState(podInfo, nsLabels, existingAntiAffinityCounts, affinityCounts, antiAffinityCounts));
		return {};
	}

	preFilterExtensions(): PreFilterExtensions {
		return this;
	}

	addPod(state: CycleState, _podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined {
		state.read<PreFilterState>(PRE_FILTER_KEY)?.updateWithPod(podInfoToAdd, nodeInfo.node!, 1);
		return undefined;
	}

	removePod(state: CycleState, _podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined {
		state.read<PreFilterState>(PRE_FILTER_KEY)?.updateWithPod(podInfoToRemove, nodeInfo.node!, -1);
		return undefined;
	}

	filter(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const s = state.read<PreFilterState>(PRE_FILTER_KEY);
		if (!s) return Status.asError(`reading "${PRE_FILTER_KEY}" from cycleState: not found`);
		const labels = nodeInfo.node?.metadata.labels ?? {};
		if (!satisfyPodAffinity(s, labels)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_AFFINITY_RULES_NOT_MATCH]);
		if (!satisfyPodAntiAffinity(s, labels)) return new Status(Code.Unschedulable, [ERR_REASON_ANTI_AFFINITY_RULES_NOT_MATCH]);
		if (!satisfyExistingPodsAntiAffinity(s, labels)) return new Status(Code.Unschedulable, [ERR_REASON_EXISTING_ANTI_AFFINITY_RULES_NOT_MATCH]);
		return undefined;
	}

	// ---- scoring ---------------------------------------------------------------

	preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | undefined {
		if (nodes.length === 0) return new Status(Code.Skip);
		const affinity = pod.spec.affinity as { podAffinity?: { preferredDuringSchedulingIgnoredDuringExecution?: unknown[] }; podAntiAffinity?: { preferredDuringSchedulingIgnoredDuringExecution?: unknown[] } } | undefined;
		const hasConstraints = (affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0 || (affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution?.length ?? 0) > 0;
		if (this.args.ignorePreferredTermsOfExistingPods && !hasConstraints) return new Status(Code.Skip);
		const allNodes = hasConstraints ? this.handle.snapshot.list() : this.handle.snapshot.havePodsWithAffinityList();
		const podInfo = new PodInfo(pod);
		for (const t of podInfo.preferredAffinityTerms) this.mergeNamespaces(t);
		for (const t of podInfo.preferredAntiAffinityTerms) this.mergeNamespaces(t);
		const nsLabels = this.namespaceLabels(pod.metadata.namespace ?? '');
		const topologyScore = new Map<string, Map<string, number>>();
		// Whether any term matched anywhere (upstream: some node produced a non-empty score map).
		let touched = false;
		const processTerm = (term: AffinityTerm, weight: number, target: KubeObject, labels: Record<string, string> | undefined, node: Node, multiplier: number) => {
			if (!affinityTermMatches(term, target, labels)) return;
			const nodeLabels = node.metadata.labels ?? {};
			if (!Object.hasOwn(nodeLabels, term.topologyKey)) return;
			touched = true;
			let byValue = topologyScore.get(term.topologyKey);
			if (!byValue) topologyScore.set(term.topologyKey, (byValue = new Map()));
			const value = nodeLabels[term.topologyKey];
			byValue.set(value, (byValue.get(value) ?? 0) + weight * multiplier);
		};
		const processTerms = (terms: WeightedAffinityTerm[], target: KubeObject, labels: Record<string, string> | undefined, node: Node, multiplier: number) => {
			for (const t of terms) processTerm(t, t.weight, target, labels, node, multiplier);
		};
		for (const nodeInfo of allNodes) {
			const node = nodeInfo.node!;
			if (Object.keys(node.metadata.labels ?? {}).length === 0) continue;
			const podsToProcess = hasConstraints ? nodeInfo.pods : nodeInfo.podsWithAffinity;
			for (const existing of podsToProcess) {
				processTerms(podInfo.preferredAffinityTerms, existing.pod, undefined, node, 1);
				processTerms(podInfo.preferredAntiAffinityTerms, existing.pod, undefined, node, -1);
				if (this.args.hardPodAffinityWeight > 0) for (const t of existing.requiredAffinityTerms) processTerm(t, this.args.hardPodAffinityWeight, pod, nsLabels, node, 1);
				processTerms(existing.preferredAffinityTerms, pod, nsLabels, node, 1);
				processTerms(existing.preferredAntiAffinityTerms, pod, nsLabels, node, -1);
			}
		}
		if (!touched) return new Status(Code.Skip);
		state.write(PRE_SCORE_KEY, new PreScoreState(topologyScore));
		return undefined;
	}

	score(state: CycleState, _pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		const s = state.read<PreScoreState>(PRE_SCORE_KEY);
		if (!s) return { score: 0, status: Status.asError(`reading "${PRE_SCORE_KEY}" from cycleState: not found`) };
		const labels = nodeInfo.node?.metadata.labels ?? {};
		let score = 0;
		for (const [key, byValue] of s.topologyScore) if (Object.hasOwn(labels, key)) score += byValue.get(labels[key]) ?? 0;
		return { score };
	}

	scoreExtensions(): ScoreExtensions {
		return this;
	}

	/** NormalizeScore: (score − min) / (max − min) × 100, truncated; all 0 when max = min. */
	normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
		const s = state.read<PreScoreState>(PRE_SCORE_KEY);
		if (!s || s.topologyScore.size === 0) return undefined;
		let min = Number.MAX_SAFE_INTEGER;
		let max = Number.MIN_SAFE_INTEGER;
		for (const entry of scores) {
			if (entry.score > max) max = entry.score;
			if (entry.score < min) min = entry.score;
		}
		const diff = max - min;
		for (const entry of scores) entry.score = diff > 0 ? Math.trunc(MAX_NODE_SCORE * ((entry.score - min) / diff)) : 0;
		return undefined;
	}

	eventsToRegister(): ClusterEventWithHint[] {
		const termsOf = (pod: Pod) => {
			const pi = new PodInfo(pod);
			return [...pi.requiredAffinityTerms, ...pi.requiredAntiAffinityTerms];
		};
		return [
			{
				event: { resource: 'Pod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
				// Queue when the changed pod matches one of the pod's terms, or (on delete) carried required anti-affinity.
				hint: (pod, old, updated) => {
					const changed = (updated ?? old) as Pod | undefined;
					if (!changed) return QueueingHint.QueueSkip;
					const nsLabels = this.namespaceLabels(changed.metadata.namespace ?? '');
					if (termsOf(pod).some((t) => affinityTermMatches(t, changed, nsLabels) || (old ? affinityTermMatches(t, old, nsLabels) : false))) return QueueingHint.Queue;
					if (!updated && old && new PodInfo(old as Pod).requiredAntiAffinityTerms.length > 0) return QueueingHint.Queue;
					return QueueingHint.QueueSkip;
				},
			},
			{ event: { resource: 'Node', actionType: ActionType.Add | ActionType.UpdateNodeLabel } },
		];
	}
}

/** satisfyPodAffinity: every term's domain on this node has a matching pod (or the pod is the first of a self-affine group). */
function satisfyPodAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
	let podsExist = true;
	for (const term of s.podInfo.requiredAffinityTerms) {
		if (!Object.hasOwn(labels, term.topologyKey)) return false;
		if ((s.affinityCounts.get(pairKey(term.topologyKey, labels[term.topologyKey])) ?? 0) <= 0) podsExist = false;
	}
	if (!podsExist) {
		// The first pod of a group with affinity to itself may go anywhere its terms' topologies exist.
		return s.affinityCounts.size === 0 && podMatchesAllAffinityTerms(s.podInfo.requiredAffinityTerms, s.podInfo.pod);
	}
	return true;
}

/** satisfyPodAntiAffinity: no matching pod in any term's domain on this node. */
function satisfyPodAntiAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
	if (s.antiAffinityCounts.size === 0) return true;
	for (const term of s.podInfo.requiredAntiAffinityTerms) {
		if (!Object.hasOwn(labels, term.topologyKey)) continue;
		if ((s.antiAffinityCounts.get(pairKey(term.topologyKey, labels[term.topologyKey])) ?? 0) > 0) return false;
	}
	return true;
}

/** satisfyExistingPodsAntiAffinity: no existing pod excludes this pod from any of the node's domains. */
function satisfyExistingPodsAntiAffinity(s: PreFilterState, labels: Record<string, string>): boolean {
	if (s.existingAntiAffinityCounts.size === 0) return true;
	for (const [key, value] of Object.entries(labels)) if ((s.existingAntiAffinityCounts.get(pairKey(key, value)) ?? 0) > 0) return false;
	return true;
}
