/**
 * Why the scheduler put a pod where it did (or nowhere): the last decision
 * for each pod it tried, as plain JSON the sandbox draws as a table. This is
 * the simulator's counterpart of kube-scheduler-simulator's result
 * annotations (filter-result, score-result, finalscore-result,
 * selected-node), one record per pod.
 *
 * Every pod the scheduler has tried can be explained, at any cluster size,
 * without keeping per-node rows for all of them: the last MAX_EXPLANATIONS
 * decisions keep their node rows (at most `maxNodes` each: the scored nodes
 * first, best first, then the rejected ones, with a count of the rows left
 * out); an older decision is folded into a summary (the outcome, the
 * message, the node counts, preemption's answer) with `detail: 'summary'`.
 * A summary is forgotten when its pod is deleted, so the store grows with
 * the live pods only.
 *
 * Mirrors kubernetes-sigs/kube-scheduler-simulator
 * simulator/scheduler/plugin/annotation/annotation.go (the result
 * annotations).
 */

/** One Filter plugin's verdict on one node. `code` is a framework Code name: 'Success', 'Unschedulable', 'UnschedulableAndUnresolvable', 'Error'. */
interface FilterVerdictRecord {
	plugin: string;
	code: string;
	reasons: string[];
}

/** One Score plugin's numbers for one node: raw Score(), after NormalizeScore, the weight, and normalized × weight. */
interface ScoreRecord {
	plugin: string;
	raw: number;
	normalized: number;
	weight: number;
	weighted: number;
}

/** One row of the table: a node the scheduler examined. */
export interface NodeExplanation {
	node: string;
	/** Filter plugins in order; evaluation stops at the first rejection, so later plugins are absent. */
	filters: FilterVerdictRecord[];
	/** The plugin that rejected the node (absent when it passed). */
	rejectedBy?: string;
	/** Why, as the plugin said it (these feed the FitError counts). */
	reasons?: string[];
	/** Passed every filter. */
	feasible: boolean;
	/** Per Score plugin, when the node was scored (absent when only one node was feasible: then nothing is scored). */
	scores?: ScoreRecord[];
	/** Σ weighted scores. */
	totalScore?: number;
}

/** A PreFilter, PreScore or PostFilter plugin's outcome. */
export interface PluginOutcomeRecord {
	plugin: string;
	code: string;
	message: string;
}

/**
 * SchedulingExplanation: the last scheduling attempt of one pod.
 *
 * - `result`: 'Scheduled' (bound to `node`), 'Unschedulable' (no node fits;
 *   `message` is the FitError text of the FailedScheduling event),
 *   'Error' (a plugin or API error; `message` says which), or 'Skipped'
 *   (the pod was deleted or already assumed when popped).
 * - `numAllNodes`: nodes in the cluster; `numNodesToFind`: how many feasible
 *   nodes the search stopped at (percentageOfNodesToScore, adaptive when 0);
 *   `notEvaluated`: nodes never examined because enough feasible nodes were
 *   found first (the search resumes after them next cycle).
 * - `preFilter`, `preScore`: each plugin's outcome ('Skip' means the
 *   plugin sat out its Filter or Score this cycle).
 * - `scorePlugins`: the Score plugins that ran, with weights.
 * - `nodes`: one row per examined node (bounded; `nodesOmitted` counts the
 *   rest), in evaluation order.
 * - `tie`: the nodes that shared the top total; one was picked by reservoir
 *   sampling with the scheduler's seeded random stream.
 * - `postFilter`: what preemption did or why it could not help.
 */
export interface SchedulingExplanation {
	pod: string;
	uid: string;
	schedulerName: string;
	/** The pod's scheduling attempts so far, this one included. */
	attempt: number;
	/** The scheduler's cycle counter. */
	cycle: number;
	atMs: number;
	result: 'Scheduled' | 'Unschedulable' | 'Error' | 'Skipped';
	node?: string;
	message?: string;
	numAllNodes: number;
	numNodesToFind: number;
	/** The configured percentage (0 = adaptive). */
	percentageOfNodesToScore: number;
	/** The nominated node tried first, if the pod had one. */
	nominatedNode?: { node: string; feasible: boolean };
	preFilter: PluginOutcomeRecord[];
	preScore: PluginOutcomeRecord[];
	scorePlugins: Array<{ plugin: string; weight: number }>;
	nodes: NodeExplanation[];
	nodesOmitted: number;
	notEvaluated: string[];
	tie?: { topScore: number; candidates: string[] };
	postFilter?: PluginOutcomeRecord & { nominatedNodeName?: string };
	/** The binding step, when it failed. */
	bind?: { code: string; message: string };
	/** 'summary': an older decision whose per-node rows and plugin outcomes were dropped (nodesOmitted counts the rows). */
	detail?: 'summary';
}

/** Plain-JSON store of explanations (in the scheduler's state). */
export interface ExplanationStoreState {
	byPod: Record<string, SchedulingExplanation>;
	/** Pod keys, least recently explained first. */
	order: string[];
	/** Older decisions, folded (absent in snapshots taken before summaries existed). */
	summaries?: Record<string, SchedulingExplanation>;
}

/** How many pods' last decisions keep their node rows. */
export const MAX_EXPLANATIONS = 500;
/** How many node rows one explanation keeps by default. */
export const DEFAULT_EXPLAIN_NODES_MAX = 100;

export function emptyExplanations(): ExplanationStoreState {
	return { byPod: {}, order: [], summaries: {} };
}

/** The decision without its per-node rows and plugin outcomes. */
function summarize(e: SchedulingExplanation): SchedulingExplanation {
	return { ...e, preFilter: [], preScore: [], nodes: [], nodesOmitted: e.nodes.length + e.nodesOmitted, notEvaluated: [], detail: 'summary' };
}

/** Records `e` as the pod's last decision; the oldest full records beyond the bound are folded into summaries. */
export function recordExplanation(store: ExplanationStoreState, e: SchedulingExplanation, max = MAX_EXPLANATIONS): void {
	const summaries = (store.summaries ??= {});
	if (store.byPod[e.pod]) store.order = store.order.filter((k) => k !== e.pod);
	delete summaries[e.pod];
	store.byPod[e.pod] = e;
	store.order.push(e.pod);
	while (store.order.length > max) {
		const oldest = store.order.shift()!;
		summaries[oldest] = summarize(store.byPod[oldest]);
		delete store.byPod[oldest];
	}
}

/** The pod's last decision, full or summarized. */
export function lookupExplanation(store: ExplanationStoreState, podKey: string): SchedulingExplanation | undefined {
	return store.byPod[podKey] ?? store.summaries?.[podKey];
}

/** Forgets the summary of a deleted pod (its full record, if recent, ages out with the others). */
export function forgetSummary(store: ExplanationStoreState, podKey: string): void {
	if (store.summaries) delete store.summaries[podKey];
}

/** Keeps at most `max` rows: scored nodes by total (best first), then the others in evaluation order. */
export function boundNodeRows(rows: NodeExplanation[], max: number): { rows: NodeExplanation[]; omitted: number } {
	if (rows.length <= max) return { rows, omitted: 0 };
	const ranked = [...rows].sort((a, b) => (b.totalScore ?? -1) - (a.totalScore ?? -1));
	const keep = new Set(ranked.slice(0, max));
	return { rows: rows.filter((r) => keep.has(r)), omitted: rows.length - max };
}
