/**
 * One scheduling cycle's algorithm: find the nodes that fit (PreFilter,
 * Filter over a share of the nodes set by percentageOfNodesToScore, starting
 * where the previous cycle stopped), score them (PreScore, Score,
 * NormalizeScore, weights) and pick the best, breaking ties by reservoir
 * sampling; when nothing fits, build the FitError and run PostFilter
 * (preemption).
 *
 * Everything the cycle looks at is recorded into a SchedulingExplanation.
 *
 * Mirrors pkg/scheduler/schedule_one.go (schedulingCycle, schedulePod,
 * findNodesThatFitPod, findNodesThatPassFilters, evaluateNominatedNode,
 * prioritizeNodes, selectHost, numFeasibleNodesToFind).
 */
import type { Pod } from '../api/types.ts';
import type { CycleState } from './framework/cycle-state.ts';
import { addPluginStatus, ERR_NO_NODES_AVAILABLE, FitError, newDiagnosis, type Diagnosis } from './framework/fit-error.ts';
import type { NominatingInfo } from './framework/interface.ts';
import { CODE_NAMES, Code, isRejected, isSuccess, Status } from './framework/status.ts';
import type { FilterVerdict, Framework, NodePluginScores, PluginOutcome } from './framework/runtime.ts';
import type { NodeInfo } from './framework/types.ts';
import { boundNodeRows, type NodeExplanation, type PluginOutcomeRecord, type SchedulingExplanation } from './explanation.ts';

/** minFeasibleNodesToFind: below this many nodes, every node is examined. */
const MIN_FEASIBLE_NODES_TO_FIND = 100;
/** minFeasibleNodesPercentageToFind: the adaptive percentage never drops below 5. */
const MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND = 5;

/**
 * numFeasibleNodesToFind: how many feasible nodes to look for before
 * scoring. Under 100 nodes: all. Otherwise the configured percentage, or
 * when 0 the adaptive `50 − nodes/125` (integer division, at least 5); the
 * result is at least 100.
 */
export function numFeasibleNodesToFind(percentageOfNodesToScore: number, numAllNodes: number): number {
	if (numAllNodes < MIN_FEASIBLE_NODES_TO_FIND) return numAllNodes;
	let percentage = percentageOfNodesToScore;
	if (percentage === 0) {
		percentage = 50 - Math.trunc(numAllNodes / 125);
		if (percentage < MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND) percentage = MIN_FEASIBLE_NODES_PERCENTAGE_TO_FIND;
	}
	const numNodes = Math.trunc((numAllNodes * percentage) / 100);
	return numNodes < MIN_FEASIBLE_NODES_TO_FIND ? MIN_FEASIBLE_NODES_TO_FIND : numNodes;
}

/**
 * selectHost: the highest total score; among equal tops each node is
 * picked with probability 1/count (reservoir sampling), drawing from the
 * given random source: the k-th top node replaces the pick when rand(k) is 0.
 */
export function selectHost(scores: NodePluginScores[], random: (n: number) => number): { host: string; candidates: string[]; topScore: number } {
	let top = -Infinity;
	for (const s of scores) if (s.totalScore > top) top = s.totalScore;
	const candidates = scores.filter((s) => s.totalScore === top).map((s) => s.name);
	let selected = 0;
	for (let k = 2; k <= candidates.length; k++) if (random(k) === 0) selected = k - 1;
	return { host: candidates[selected], candidates, topScore: top };
}

/** What the cycle needs from the scheduler. */
export interface CycleContext {
	/** The node infos of this cycle (the scheduler cache). */
	nodes: { list(): NodeInfo[]; get(name: string): NodeInfo | undefined };
	/** The global percentageOfNodesToScore (a profile may override it). */
	percentageOfNodesToScore: number;
	/** Where the previous cycle's node search stopped (sched.nextStartNodeIndex). */
	nextStartNodeIndex: number;
	random(n: number): number;
	/** How many node rows the explanation keeps. */
	explainNodesMax: number;
	/** Called once the nodes are filtered (and scored), before PostFilter runs: for the trace. */
	afterFilter?: (explain: SchedulingExplanation) => void;
}

/** The outcome of schedulePod. */
type ScheduleResult =
	| { kind: 'scheduled'; host: string; evaluatedNodes: number; feasibleNodes: number }
	| { kind: 'fit-error'; fitError: FitError }
	| { kind: 'error'; status: Status };

const codeName = (c: Code) => CODE_NAMES[c];

function outcomes(list: PluginOutcome[]): PluginOutcomeRecord[] {
	return list.map((o) => ({ plugin: o.plugin, code: codeName(o.code), message: o.message }));
}

/** Builds a node row from the filter verdicts. */
function nodeRow(name: string, verdicts: FilterVerdict[], status: Status | undefined): NodeExplanation {
	const row: NodeExplanation = { node: name, filters: verdicts.map((v) => ({ plugin: v.plugin, code: codeName(v.code), reasons: v.reasons })), feasible: isSuccess(status) };
	if (!isSuccess(status)) {
		row.rejectedBy = status!.plugin;
		row.reasons = status!.allReasons();
	}
	return row;
}

/**
 * Runs the scheduling algorithm for one pod and fills `explain`. Returns
 * the chosen host, or why there is none. `ctx.nextStartNodeIndex` is
 * advanced as upstream advances it.
 */
function schedulePod(ctx: CycleContext, fw: Framework, state: CycleState, pod: Pod, explain: SchedulingExplanation): ScheduleResult {
	const allNodes = ctx.nodes.list();
	explain.numAllNodes = allNodes.length;
	if (allNodes.length === 0) return { kind: 'error', status: new Status(Code.UnschedulableAndUnresolvable, [], ERR_NO_NODES_AVAILABLE) };
	const rows: NodeExplanation[] = [];
	const found = findNodesThatFitPod(ctx, fw, state, pod, allNodes, explain, rows);
	if ('error' in found) {
		explain.nodes = rows;
		return { kind: 'error', status: found.error };
	}
	const { feasible, diagnosis } = found;
	if (feasible.length === 0) {
		finishRows(ctx, explain, rows);
		return { kind: 'fit-error', fitError: new FitError(allNodes.length, diagnosis) };
	}
	if (feasible.length === 1) {
		// When only one node passes the filters, it is used without scoring.
		finishRows(ctx, explain, rows);
		return { kind: 'scheduled', host: feasible[0].name, evaluatedNodes: 1 + diagnosis.nodeToStatus.size, feasibleNodes: 1 };
	}
	const prioritized = prioritizeNodes(fw, state, pod, feasible, explain, rows);
	if ('error' in prioritized) {
		finishRows(ctx, explain, rows);
		return { kind: 'error', status: prioritized.error };
	}
	const { host, candidates, topScore } = selectHost(prioritized.scores, ctx.random);
	if (candidates.length > 1) explain.tie = { topScore, candidates };
	finishRows(ctx, explain, rows);
	return { kind: 'scheduled', host, evaluatedNodes: feasible.length + diagnosis.nodeToStatus.size, feasibleNodes: feasible.length };
}

function finishRows(ctx: CycleContext, explain: SchedulingExplanation, rows: NodeExplanation[]): void {
	const { rows: kept, omitted } = boundNodeRows(rows, ctx.explainNodesMax);
	explain.nodes = kept;
	explain.nodesOmitted = omitted;
}

/** findNodesThatFitPod. */
function findNodesThatFitPod(
	ctx: CycleContext,
	fw: Framework,
	state: CycleState,
	pod: Pod,
	allNodes: NodeInfo[],
	explain: SchedulingExplanation,
	rows: NodeExplanation[],
): { feasible: NodeInfo[]; diagnosis: Diagnosis } | { error: Status } {
	const diagnosis = newDiagnosis();
	const preOutcomes: PluginOutcome[] = [];
	const pre = fw.runPreFilterPlugins(state, pod, allNodes, preOutcomes);
	explain.preFilter = outcomes(preOutcomes);
	diagnosis.unschedulablePlugins = pre.unschedulablePlugins;
	if (!isSuccess(pre.status)) {
		if (!isRejected(pre.status)) return { error: pre.status! };
		// Every node gets the PreFilter status, so preemption sees it; the message replaces the per-node counts.
		diagnosis.nodeToStatus.setAbsentNodesStatus(pre.status!);
		diagnosis.preFilterMsg = pre.status!.message();
		addPluginStatus(diagnosis, pre.status!);
		explain.numNodesToFind = 0;
		return { feasible: [], diagnosis };
	}

	// A node nominated by an earlier preemption is tried first: it is probably the only one that fits.
	const nominated = pod.status?.nominatedNodeName;
	if (nominated) {
		const nodeInfo = ctx.nodes.get(nominated);
		if (nodeInfo) {
			const nominatedRows: NodeExplanation[] = [];
			const feasible = findNodesThatPassFilters(ctx, fw, state, pod, diagnosis, [nodeInfo], nominatedRows);
			explain.nominatedNode = { node: nominated, feasible: feasible.length > 0 };
			if (feasible.length > 0) {
				rows.push(...nominatedRows);
				explain.numNodesToFind = 1;
				return { feasible, diagnosis };
			}
		}
	}

	let nodes = allNodes;
	if (pre.result?.nodeNames) {
		const names = pre.result.nodeNames;
		nodes = allNodes.filter((n) => names.has(n.name));
		const plugins = [...pre.unschedulablePlugins].sort();
		diagnosis.nodeToStatus.setAbsentNodesStatus(new Status(Code.UnschedulableAndUnresolvable, [`node(s) didn't satisfy plugin(s) [${plugins.join(' ')}]`]));
	}
	const feasible = findNodesThatPassFilters(ctx, fw, state, pod, diagnosis, nodes, rows, explain);
	const processed = feasible.length + diagnosis.nodeToStatus.size;
	ctx.nextStartNodeIndex = (ctx.nextStartNodeIndex + processed) % allNodes.length;
	return { feasible, diagnosis };
}

/**
 * findNodesThatPassFilters: from nextStartNodeIndex, run the filters node
 * by node until numFeasibleNodesToFind feasible nodes are found; the nodes
 * after that are not examined this cycle. With `search`, the search's
 * target and the nodes left unexamined are recorded in the explanation.
 */
function findNodesThatPassFilters(
	ctx: CycleContext,
	fw: Framework,
	state: CycleState,
	pod: Pod,
	diagnosis: Diagnosis,
	nodes: NodeInfo[],
	rows: NodeExplanation[],
	search?: SchedulingExplanation,
): NodeInfo[] {
	const percentage = fw.percentageOfNodesToScore ?? ctx.percentageOfNodesToScore;
	const numNodesToFind = numFeasibleNodesToFind(percentage, nodes.length);
	const feasible: NodeInfo[] = [];
	const start = search && nodes.length > 0 ? ctx.nextStartNodeIndex % nodes.length : 0;
	let examined = 0;
	for (let i = 0; i < nodes.length && feasible.length < numNodesToFind; i++) {
		const nodeInfo = nodes[(start + i) % nodes.length];
		examined++;
		if (!fw.hasFilterPlugins()) {
			feasible.push(nodeInfo);
			rows.push({ node: nodeInfo.name, filters: [], feasible: true });
			continue;
		}
		const verdicts: FilterVerdict[] = [];
		const status = fw.runFilterPluginsWithNominatedPods(state, pod, nodeInfo, verdicts);
		rows.push(nodeRow(nodeInfo.name, verdicts, status));
		if (isSuccess(status)) {
			feasible.push(nodeInfo);
			continue;
		}
		diagnosis.nodeToStatus.set(nodeInfo.name, status!);
		addPluginStatus(diagnosis, status!);
	}
	if (search) {
		search.numNodesToFind = numNodesToFind;
		search.notEvaluated = [];
		for (let i = examined; i < nodes.length; i++) search.notEvaluated.push(nodes[(start + i) % nodes.length].name);
	}
	return feasible;
}

/** prioritizeNodes: PreScore, then Score with NormalizeScore and weights (every node scores 1 without Score plugins). */
function prioritizeNodes(fw: Framework, state: CycleState, pod: Pod, nodes: NodeInfo[], explain: SchedulingExplanation, rows: NodeExplanation[]): { scores: NodePluginScores[] } | { error: Status } {
	if (!fw.hasScorePlugins()) {
		const scores = nodes.map((n) => ({ name: n.name, scores: [], totalScore: 1 }));
		for (const row of rows) if (row.feasible) row.totalScore = 1;
		return { scores };
	}
	const preOutcomes: PluginOutcome[] = [];
	const preStatus = fw.runPreScorePlugins(state, pod, nodes, preOutcomes);
	explain.preScore = outcomes(preOutcomes);
	if (!isSuccess(preStatus)) return { error: preStatus! };
	const { scores, details, status } = fw.runScorePlugins(state, pod, nodes);
	explain.scorePlugins = details.map((d) => ({ plugin: d.plugin, weight: d.weight }));
	if (!isSuccess(status)) return { error: status! };
	const byName = new Map(rows.map((r) => [r.node, r]));
	nodes.forEach((n, i) => {
		const row = byName.get(n.name);
		if (!row) return;
		row.scores = details.map((d) => ({ plugin: d.plugin, raw: d.raw[i], normalized: d.normalized[i], weight: d.weight, weighted: d.normalized[i] * d.weight }));
		row.totalScore = scores[i].totalScore;
	});
	return { scores };
}

/** What schedulingCycle hands back to the scheduler process. */
interface CycleOutcome {
	result: ScheduleResult;
	/** PostFilter's request for the pod's nominatedNodeName, if any. */
	nominatingInfo?: NominatingInfo;
	/** The status the failure handler works from (rejected or error) when not scheduled. */
	failure?: Status;
	/** The plugins that rejected the pod (for queueing hints). */
	unschedulablePlugins: Set<string>;
	pendingPlugins: Set<string>;
}

/**
 * schedulingCycle up to the choice of a host: run the algorithm, and when
 * no node fits, PostFilter (preemption). Assume, Reserve and Permit are the
 * caller's (they touch the cache and the queue).
 */
export function schedulingCycle(ctx: CycleContext, fw: Framework, state: CycleState, pod: Pod, explain: SchedulingExplanation): CycleOutcome {
	const result = schedulePod(ctx, fw, state, pod, explain);
	ctx.afterFilter?.(explain);
	if (result.kind === 'scheduled') return { result, unschedulablePlugins: new Set(), pendingPlugins: new Set() };
	if (result.kind === 'error') {
		// No nodes at all is a rejection (UnschedulableAndUnresolvable); anything else is an error.
		return { result, failure: result.status, nominatingInfo: { nominatedNodeName: '', mode: 'Override' }, unschedulablePlugins: new Set(), pendingPlugins: new Set() };
	}
	const fitError = result.fitError;
	let nominatingInfo: NominatingInfo | undefined;
	if (fw.hasPostFilterPlugins()) {
		const { result: post, status } = fw.runPostFilterPlugins(state, pod, fitError.diagnosis.nodeToStatus);
		fitError.diagnosis.postFilterMsg = status.message();
		nominatingInfo = post?.nominatingInfo;
		explain.postFilter = { plugin: status.plugin, code: codeName(status.code), message: status.message(), ...(post?.nominatingInfo?.nominatedNodeName ? { nominatedNodeName: post.nominatingInfo.nominatedNodeName } : {}) };
	}
	return {
		result,
		failure: new Status(Code.Unschedulable, [], fitError.message()),
		nominatingInfo,
		unschedulablePlugins: fitError.diagnosis.unschedulablePlugins,
		pendingPlugins: fitError.diagnosis.pendingPlugins,
	};
}
