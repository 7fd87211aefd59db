/**
 * PodTopologySpread: spreads matching pods evenly over topology domains
 * (nodes, zones...). Filter enforces `whenUnsatisfiable: DoNotSchedule`
 * constraints: in the node's domain, matching pods + 1 (if the pod itself
 * matches) − the smallest domain count must not exceed maxSkew. Score
 * prefers domains with fewer matching pods for `ScheduleAnyway` constraints.
 * A pod without constraints gets the system defaults (hostname maxSkew 3,
 * zone maxSkew 5, ScheduleAnyway) when it belongs to a Service, ReplicaSet
 * or StatefulSet, with that owner's selector. It has NodeInclusionPolicy
 * (nodeAffinityPolicy Honor, nodeTaintsPolicy Ignore by default),
 * matchLabelKeys and minDomains.
 *
 * Mirrors pkg/scheduler/framework/plugins/podtopologyspread/plugin.go,
 * pkg/scheduler/framework/plugins/podtopologyspread/common.go,
 * pkg/scheduler/framework/plugins/podtopologyspread/filtering.go,
 * pkg/scheduler/framework/plugins/podtopologyspread/scoring.go.
 */
import type { KubeObject, Node, Pod } from '../../api/types.ts';
import { labelSelectorFromObject, matches, selectorFromSet, SelectorError, type MetaLabelSelector, type Requirement, type Selector } from '../../api/labels.ts';
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
import type { NodeInfo, PodInfo } from '../framework/types.ts';
import { ArgsError, invalid, notSupported } from './args-validation.ts';
import { RequiredNodeAffinity } from '../../component-helpers/node-affinity.ts';
import { isDoNotScheduleTaint } from './helper/taints.ts';
import { findMatchingUntoleratedTaint } from '../../component-helpers/taints.ts';
import { Names } from './names.ts';
import { deepCopy } from '../../golang/json.ts';

/** core/v1 TopologySpreadConstraint. */
export interface TopologySpreadConstraintSpec {
	maxSkew: number;
	topologyKey: string;
	whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway';
	labelSelector?: MetaLabelSelector | null;
	minDomains?: number;
	nodeAffinityPolicy?: 'Honor' | 'Ignore';
	nodeTaintsPolicy?: 'Honor' | 'Ignore';
	matchLabelKeys?: string[];
}

/** PodTopologySpreadArgs. */
export interface PodTopologySpreadArgs {
	defaultConstraints?: TopologySpreadConstraintSpec[];
	/** `System` (the default) uses the built-in defaults; `List` uses defaultConstraints. */
	defaultingType?: 'System' | 'List';
}

/** ErrReasonConstraintsNotMatch. */
export const ERR_REASON_CONSTRAINTS_NOT_MATCH = "node(s) didn't match pod topology spread constraints";
/** ErrReasonNodeLabelNotMatch. */
export const ERR_REASON_NODE_LABEL_NOT_MATCH = `${ERR_REASON_CONSTRAINTS_NOT_MATCH} (missing required label)`;

const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_TOPOLOGY_ZONE = 'topology.kubernetes.io/zone';

/** systemDefaultConstraints (plugin.go): hostname maxSkew 3, zone maxSkew 5, both ScheduleAnyway. */
const SYSTEM_DEFAULT_CONSTRAINTS: TopologySpreadConstraintSpec[] = [
	{ topologyKey: LABEL_HOSTNAME, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 3 },
	{ topologyKey: LABEL_TOPOLOGY_ZONE, whenUnsatisfiable: 'ScheduleAnyway', maxSkew: 5 },
];

/** The MaxInt32 a critical path starts from. */
const MAX_INT32 = 2147483647;
/** invalidScore: marks nodes that are not scored. */
const INVALID_SCORE = -1;

/** topologySpreadConstraint (common.go): a parsed constraint. */
interface Constraint {
	maxSkew: number;
	topologyKey: string;
	selector: Selector;
	minDomains: number;
	nodeAffinityPolicy: 'Honor' | 'Ignore';
	nodeTaintsPolicy: 'Honor' | 'Ignore';
}

function addRequirements(selector: Selector, requirements: readonly Requirement[]): Selector {
	if (selector.nothing) return selector;
	return { requirements: [...selector.requirements, ...requirements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)) };
}

/** filterTopologySpreadConstraints: the constraints of one `whenUnsatisfiable`, parsed, with matchLabelKeys merged in. */
function filterConstraints(specs: TopologySpreadConstraintSpec[], podLabels: Record<string, string>, action: 'DoNotSchedule' | 'ScheduleAnyway'): Constraint[] {
	const out: Constraint[] = [];
	for (const c of specs) {
		if (c.whenUnsatisfiable !== action) continue;
		let selector = labelSelectorFromObject(c.labelSelector ?? null);
		if (c.matchLabelKeys?.length) {
			const matchLabels: Record<string, string> = {};
			for (const key of c.matchLabelKeys) if (Object.hasOwn(podLabels, key)) matchLabels[key] = podLabels[key];
			if (Object.keys(matchLabels).length > 0 && !selector.nothing) selector = addRequirements(selectorFromSet(matchLabels), selector.requirements);
		}
		out.push({
			maxSkew: c.maxSkew,
			topologyKey: c.topologyKey,
			selector,
			minDomains: c.minDomains ?? 1,
			nodeAffinityPolicy: c.nodeAffinityPolicy ?? 'Honor',
			nodeTaintsPolicy: c.nodeTaintsPolicy ?? 'Ignore',
		});
	}
	return out;
}

/** nodeLabelsMatchSpreadConstraints: the node has every topology key. */
function nodeLabelsMatchSpreadConstraints(labels: Record<string, string> | undefined, constraints: Constraint[]): boolean {
	return constraints.every((c) => Object.hasOwn(labels ?? {}, c.topologyKey));
}

/** matchNodeInclusionPolicies: whether a node counts for a constraint. */
function matchNodeInclusionPolicies(c: Constraint, pod: Pod, node: Node, required: RequiredNodeAffinity): boolean {
	if (c.nodeAffinityPolicy === 'Honor' && !required.match(node)) return false;
	if (c.nodeTaintsPolicy === 'Honor' && findMatchingUntoleratedTaint(node.spec?.taints, pod.spec.tolerations, isDoNotScheduleTaint)) return false;
	return true;
}

/** countPodsMatchSelector: pods in the namespace, not terminating, whose labels match. */
function countPodsMatchSelector(pods: PodInfo[], selector: Selector, namespace: string): number {
	if (selector.nothing) return 0;
	let count = 0;
	for (const p of pods) {
		if (p.pod.metadata.deletionTimestamp || p.pod.metadata.namespace !== namespace) continue;
		if (matches(selector, p.pod.metadata.labels ?? {})) count++;
	}
	return count;
}

/** The controller owner reference of an object (metav1.GetControllerOf). */
function controllerOf(obj: KubeObject): { apiVersion: string; kind: string; name: string } | undefined {
	return obj.metadata.ownerReferences?.find((r) => r.controller);
}

class PreFilterState implements StateData {
	constructor(
		readonly constraints: Constraint[],
		/** Per constraint: topology value -> matching pods. */
		readonly tpValueToMatchNum: Array<Map<string, number>>,
	) {}

	clone(): StateData {
		return new PreFilterState(this.constraints, this.tpValueToMatchNum.map((m) => new Map(m)));
	}

	/** minMatchNum: the smallest domain count, or 0 when there are fewer domains than minDomains. */
	minMatchNum(i: number, minDomains: number): number {
		const counts = this.tpValueToMatchNum[i];
		if (counts.size < minDomains) return 0;
		let min = MAX_INT32;
		for (const n of counts.values()) if (n < min) min = n;
		return min;
	}
}

class PreScoreState implements StateData {
	constructor(
		readonly constraints: Constraint[],
		readonly ignoredNodes: Set<string>,
		readonly topologyValueToPodCounts: Array<Map<string, number>>,
		readonly topologyNormalizingWeight: number[],
	) {}
	clone(): StateData {
		return this;
	}
}

const PRE_FILTER_KEY = `PreFilter${Names.PodTopologySpread}`;
const PRE_SCORE_KEY = `PreScore${Names.PodTopologySpread}`;

/** topologyNormalizingWeight: log(size + 2). */
function topologyNormalizingWeight(size: number): number {
	return Math.log(size + 2);
}

/** scoreForCount: count × weight + (maxSkew − 1). */
function scoreForCount(count: number, maxSkew: number, weight: number): number {
	return count * weight + (maxSkew - 1);
}

/** SetDefaults_PodTopologySpreadArgs and ValidatePodTopologySpreadArgs (the parts read here). */
function defaultPodTopologySpreadArgs(args: PodTopologySpreadArgs | undefined): PodTopologySpreadArgs {
	const out: PodTopologySpreadArgs = deepCopy(args ?? {});
	out.defaultingType ??= 'System';
	return out;
}

function validatePodTopologySpreadArgs(args: PodTopologySpreadArgs): string[] {
	const errors: string[] = [];
	if (args.defaultingType !== 'System' && args.defaultingType !== 'List') errors.push(notSupported('defaultingType', args.defaultingType, ['List', 'System']));
	if (args.defaultingType === 'System' && (args.defaultConstraints?.length ?? 0) > 0) errors.push(invalid('defaultConstraints', '', 'when .defaultingType is "System", .defaultConstraints must be empty'));
	(args.defaultConstraints ?? []).forEach((c, i) => {
		if (!(c.maxSkew > 0)) errors.push(invalid(`defaultConstraints[${i}].maxSkew`, c.maxSkew, 'not in valid range (0, inf)'));
		if (c.labelSelector) errors.push(`defaultConstraints[${i}].labelSelector: Forbidden: constraint must not define a selector, as they deduced for each pod`);
	});
	return errors;
}

export class PodTopologySpread implements PreFilterPlugin, FilterPlugin, PreScorePlugin, ScorePlugin, ScoreExtensions, EnqueueExtensions, PreFilterExtensions {
	readonly name = Names.PodTopologySpread;
	private readonly defaultConstraints: TopologySpreadConstraintSpec[];
	/** Whether the defaults are the system's (then nodes without a key are not ignored when scoring). */
	private readonly systemDefaulted: boolean;

	constructor(
		rawArgs: PodTopologySpreadArgs | undefined,
		private readonly handle: Handle,
	) {
		const args = defaultPodTopologySpreadArgs(rawArgs);
		const errors = validatePodTopologySpreadArgs(args);
		if (errors.length) throw new ArgsError(errors);
		this.systemDefaulted = args.defaultingType === 'System';
		this.defaultConstraints = this.systemDefaulted ? SYSTEM_DEFAULT_CONSTRAINTS : (args.defaultConstraints ?? []);
	}

	/** helper.DefaultSelector: the selectors of the Services selecting the pod, and of its ReplicaSet or StatefulSet owner. */
	private defaultSelector(pod: Pod): Selector {
		const namespace = pod.metadata.namespace ?? '';
		const labels = pod.metadata.labels ?? {};
		const labelSet: Record<string, string> = {};
		for (const svc of this.handle.listers.services(namespace)) {
			const sel = (svc.spec as { selector?: Record<string, string> } | undefined)?.selector;
			if (!sel) continue;
			if (matches(selectorFromSet(sel), labels)) Object.assign(labelSet, sel);
		}
		let selector = selectorFromSet(labelSet);
		const owner = controllerOf(pod);
		if (!owner) return selector;
		const find = (list: KubeObject[]) => list.find((o) => o.metadata.name === owner.name);
		let ownerObj: KubeObject | undefined;
		if (owner.apiVersion === 'apps/v1' && owner.kind === 'ReplicaSet') ownerObj = find(this.handle.listers.replicaSets(namespace));
		else if (owner.apiVersion === 'apps/v1' && owner.kind === 'StatefulSet') ownerObj = find(this.handle.listers.statefulSets(namespace));
		else if (owner.apiVersion === 'v1' && owner.kind === 'ReplicationController') {
			const rc = find(this.handle.listers.replicationControllers(namespace));
			const rcSel = (rc?.spec as { selector?: Record<string, string> } | undefined)?.selector;
			if (rcSel) return selectorFromSet({ ...labelSet, ...rcSel });
			return selector;
		}
		if (ownerObj) {
			try {
				const other = labelSelectorFromObject((ownerObj.spec as { selector?: MetaLabelSelector } | undefined)?.selector ?? null);
				if (!other.nothing) selector = addRequirements(selector, other.requirements);
			} catch (e) {
				if (!(e instanceof SelectorError)) throw e;
			}
		}
		return selector;
	}

	/** buildDefaultConstraints: the defaults of one action, with the pod's default selector; none when that selector is empty. */
	private buildDefaultConstraints(pod: Pod, action: 'DoNotSchedule' | 'ScheduleAnyway'): Constraint[] {
		const constraints = filterConstraints(this.defaultConstraints, pod.metadata.labels ?? {}, action);
		if (constraints.length === 0) return [];
		const selector = this.defaultSelector(pod);
		if (selector.nothing || selector.requirements.length === 0) return [];
		return constraints.map((c) => ({ ...c, selector }));
	}

	private constraintsOf(pod: Pod, action: 'DoNotSchedule' | 'ScheduleAnyway'): Constraint[] {
		const own = (pod.spec.topologySpreadConstraints ?? []) as unknown as TopologySpreadConstraintSpec[];
		if (own.length > 0) return filterConstraints(own, pod.metadata.labels ?? {}, action);
		return this.buildDefaultConstraints(pod, action);
	}

	// ---- filtering -------------------------------------------------------------

	preFilter(state: CycleState, pod: Pod): { result?: PreFilterResult; status?: Status } {
		let constraints: Constraint[];
		try {
			constraints = this.constraintsOf(pod, 'DoNotSchedule');
		} catch (e) {
			return { status: Status.asError(e instanceof Error ? e.message : String(e)) };
		}
		if (constraints.length === 0) return { status: new Status(Code.Skip) };
		const counts = constraints.map(() => new Map<string, number>());
		const required = new RequiredNodeAffinity(pod.spec);
		const namespace = pod.metadata.namespace ?? '';
		for (const nodeInfo of this.handle.snapshot.list()) {
			const node = nodeInfo.node!;
			if (!nodeLabelsMatchSpreadConstraints(node.metadata.labels, constraints)) continue;
			constraints.forEach((c, i) => {
				if (!matchNodeInclusionPolicies(c, pod, node, required)) return;
				const value = node.metadata.labels![c.topologyKey];
				counts[i].set(value, (counts[i].get(value) ?? 0) + countPodsMatchSelector(nodeInfo.pods, c.selector, namespace));
			});
		}
		state.write(PRE_FILTER_KEY, new PreFilterState(constraints, counts));
		return {};
	}

	preFilterExtensions(): PreFilterExtensions {
		return this;
	}

	/** updateWithPod: adjust the counts as if a pod were added (+1) or removed (−1). */
	private updateWithPod(state: CycleState, updated: Pod, preemptor: Pod, node: Node | undefined, delta: number): void {
		const s = state.read<PreFilterState>(PRE_FILTER_KEY);
		if (!s || !node || updated.metadata.namespace !== preemptor.metadata.namespace) return;
		if (!nodeLabelsMatchSpreadConstraints(node.metadata.labels, s.constraints)) return;
		const required = new RequiredNodeAffinity(preemptor.spec);
		const labels = updated.metadata.labels ?? {};
		s.constraints.forEach((c, i) => {
			if (!matches(c.selector, labels)) return;
			if (!matchNodeInclusionPolicies(c, preemptor, node, required)) return;
			const value = node.metadata.labels![c.topologyKey];
			s.tpValueToMatchNum[i].set(value, (s.tpValueToMatchNum[i].get(value) ?? 0) + delta);
		});
	}

	addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined {
		this.updateWithPod(state, podInfoToAdd.pod, podToSchedule, nodeInfo.node, 1);
		return undefined;
	}

	removePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined {
		this.updateWithPod(state, podInfoToRemove.pod, podToSchedule, nodeInfo.node, -1);
		return undefined;
	}

	filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined {
		const s = state.read<PreFilterState>(PRE_FILTER_KEY);
		if (!s || s.constraints.length === 0) return undefined;
		const labels = nodeInfo.node?.metadata.labels ?? {};
		const podLabels = pod.metadata.labels ?? {};
		for (let i = 0; i < s.constraints.length; i++) {
			const c = s.constraints[i];
			if (!Object.hasOwn(labels, c.topologyKey)) return new Status(Code.UnschedulableAndUnresolvable, [ERR_REASON_NODE_LABEL_NOT_MATCH]);
			const minMatchNum = s.minMatchNum(i, c.minDomains);
			const selfMatchNum = matches(c.selector, podLabels) ? 1 : 0;
			const matchNum = s.tpValueToMatchNum[i].get(labels[c.topologyKey]) ?? 0;
			if (matchNum + selfMatchNum - minMatchNum > c.maxSkew) return new Status(Code.Unschedulable, [ERR_REASON_CONSTRAINTS_NOT_MATCH]);
		}
		return undefined;
	}

	// ---- scoring ---------------------------------------------------------------

	preScore(state: CycleState, pod: Pod, filteredNodes: NodeInfo[]): Status | undefined {
		const allNodes = this.handle.snapshot.list();
		if (filteredNodes.length === 0 || allNodes.length === 0) return new Status(Code.Skip);
		let constraints: Constraint[];
		try {
			constraints = this.constraintsOf(pod, 'ScheduleAnyway');
		} catch (e) {
			return Status.asError(e instanceof Error ? e.message : String(e));
		}
		if (constraints.length === 0) return new Status(Code.Skip);
		const requireAllTopologies = (pod.spec.topologySpreadConstraints?.length ?? 0) > 0 || !this.systemDefaulted;
		const ignoredNodes = new Set<string>();
		const counts = constraints.map(() => new Map<string, number>());
		const topoSize = constraints.map(() => 0);
		for (const nodeInfo of filteredNodes) {
			const labels = nodeInfo.node!.metadata.labels ?? {};
			if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(labels, constraints)) {
				ignoredNodes.add(nodeInfo.name);
				continue;
			}
			constraints.forEach((c, i) => {
				// Per-node counts are taken at Score time.
				if (c.topologyKey === LABEL_HOSTNAME) return;
				// A missing label reads as "" (a Go map lookup), which counts as a domain of its own.
				const value = labels[c.topologyKey] ?? '';
				if (!counts[i].has(value)) {
					counts[i].set(value, 0);
					topoSize[i]++;
				}
			});
		}
		const weights = constraints.map((c, i) => topologyNormalizingWeight(c.topologyKey === LABEL_HOSTNAME ? filteredNodes.length - ignoredNodes.size : topoSize[i]));
		const required = new RequiredNodeAffinity(pod.spec);
		const namespace = pod.metadata.namespace ?? '';
		for (const nodeInfo of allNodes) {
			const node = nodeInfo.node!;
			if (requireAllTopologies && !nodeLabelsMatchSpreadConstraints(node.metadata.labels, constraints)) continue;
			constraints.forEach((c, i) => {
				if (!matchNodeInclusionPolicies(c, pod, node, required)) return;
				const value = (node.metadata.labels ?? {})[c.topologyKey] ?? '';
				if (!counts[i].has(value)) return;
				counts[i].set(value, counts[i].get(value)! + countPodsMatchSelector(nodeInfo.pods, c.selector, namespace));
			});
		}
		state.write(PRE_SCORE_KEY, new PreScoreState(constraints, ignoredNodes, counts, weights));
		return undefined;
	}

	score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status } {
		const s = state.read<PreScoreState>(PRE_SCORE_KEY);
		if (!s) return { score: 0, status: Status.asError(`reading "${PRE_SCORE_KEY}" from cycleState: not found`) };
		if (s.ignoredNodes.has(nodeInfo.name)) return { score: 0 };
		const labels = nodeInfo.node?.metadata.labels ?? {};
		let score = 0;
		s.constraints.forEach((c, i) => {
			if (!Object.hasOwn(labels, c.topologyKey)) return;
			const count = c.topologyKey === LABEL_HOSTNAME ? countPodsMatchSelector(nodeInfo.pods, c.selector, pod.metadata.namespace ?? '') : (s.topologyValueToPodCounts[i].get(labels[c.topologyKey]) ?? 0);
			score += scoreForCount(count, c.maxSkew, s.topologyNormalizingWeight[i]);
		});
		// Go's math.Round: half away from zero (scores are never negative).
		return { score: Math.round(score) };
	}

	scoreExtensions(): ScoreExtensions {
		return this;
	}

	/** NormalizeScore: `100 × (max + min − score) / max`; ignored nodes get 0; all-zero gives 100. */
	normalizeScore(state: CycleState, _pod: Pod, scores: NodeScore[]): Status | undefined {
		const s = state.read<PreScoreState>(PRE_SCORE_KEY);
		if (!s) return undefined;
		let min = Number.MAX_SAFE_INTEGER;
		let max = 0;
		for (const entry of scores) {
			if (s.ignoredNodes.has(entry.name)) {
				entry.score = INVALID_SCORE;
				continue;
			}
			if (entry.score < min) min = entry.score;
			if (entry.score > max) max = entry.score;
		}
		for (const entry of scores) {
			if (entry.score === INVALID_SCORE) entry.score = 0;
			else if (max === 0) entry.score = MAX_NODE_SCORE;
			else entry.score = Math.trunc((MAX_NODE_SCORE * (max + min - entry.score)) / max);
		}
		return undefined;
	}

	eventsToRegister(): ClusterEventWithHint[] {
		const involved = (incoming: Pod, pod: Pod) => incoming.metadata.uid === pod.metadata.uid || (!!incoming.spec.nodeName && incoming.metadata.namespace === pod.metadata.namespace);
		const hardConstraints = (pod: Pod) => {
			try {
				return this.constraintsOf(pod, 'DoNotSchedule');
			} catch {
				return [];
			}
		};
		return [
			{
				event: { resource: 'Pod', actionType: ActionType.Add | ActionType.UpdatePodLabel | ActionType.Delete },
				hint: (pod, old, updated) => {
					const o = old as Pod | undefined;
					const n = updated as Pod | undefined;
					if ((n && !involved(n, pod)) || (o && !involved(o, pod))) return QueueingHint.QueueSkip;
					const constraints = hardConstraints(pod);
					if (o && n) {
						if (JSON.stringify(o.metadata.labels ?? {}) === JSON.stringify(n.metadata.labels ?? {})) return QueueingHint.QueueSkip;
						return constraints.some((c) => matches(c.selector, o.metadata.labels ?? {}) !== matches(c.selector, n.metadata.labels ?? {})) ? QueueingHint.Queue : QueueingHint.QueueSkip;
					}
					const changed = n ?? o;
					return changed && constraints.some((c) => matches(c.selector, changed.metadata.labels ?? {})) ? QueueingHint.Queue : QueueingHint.QueueSkip;
				},
			},
			{
				event: { resource: 'Node', actionType: ActionType.Add | ActionType.Delete | ActionType.UpdateNodeLabel | ActionType.UpdateNodeTaint },
				hint: (pod, old, updated) => {
					const constraints = hardConstraints(pod);
					const o = old as Node | undefined;
					const n = updated as Node | undefined;
					const oMatch = !!o && nodeLabelsMatchSpreadConstraints(o.metadata.labels, constraints);
					const nMatch = !!n && nodeLabelsMatchSpreadConstraints(n.metadata.labels, constraints);
					if (o && n) {
						if (oMatch !== nMatch) return QueueingHint.Queue;
						const keysChanged = constraints.some((c) => (o.metadata.labels ?? {})[c.topologyKey] !== (n.metadata.labels ?? {})[c.topologyKey]);
						const taintsChanged = JSON.stringify(o.spec?.taints ?? []) !== JSON.stringify(n.spec?.taints ?? []);
						return nMatch && (keysChanged || taintsChanged) ? QueueingHint.Queue : QueueingHint.QueueSkip;
					}
					if (n) return nMatch ? QueueingHint.Queue : QueueingHint.QueueSkip;
					return oMatch ? QueueingHint.Queue : QueueingHint.QueueSkip;
				},
			},
		];
	}
}
