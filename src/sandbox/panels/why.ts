/**
 * The rows of the "why" table: one per node the scheduler examined, with
 * each Filter plugin's verdict and each Score plugin's numbers, read from
 * sim-core's SchedulingExplanation (the scheduler's own record; nothing is
 * recomputed here).
 */
import type { SchedulingExplanation } from '@cluster-anatomy/sim-core';

type NodeExplanation = SchedulingExplanation['nodes'][number];

/** How a node fared. */
export type NodeVerdict = 'chosen' | 'feasible' | 'rejected';

export interface WhyRow {
	node: string;
	verdict: NodeVerdict;
	/** Filter plugins in evaluation order: passed, or rejected with reasons (the first rejection ends the list). */
	filters: Array<{ plugin: string; passed: boolean; code: string; reasons: string[] }>;
	/** Score plugins, when the node was scored. */
	scores: Array<{ plugin: string; raw: number; normalized: number; weight: number; weighted: number }>;
	total?: number;
	/** Tied for the top total with other nodes (one was picked at random). */
	tied: boolean;
}

export interface WhyModel {
	result: SchedulingExplanation['result'];
	node?: string;
	message?: string;
	rows: WhyRow[];
	/** Score plugins with weights, the table's score columns. */
	scorePlugins: Array<{ plugin: string; weight: number }>;
	/** PreFilter / PreScore / PostFilter outcomes worth showing (not plain Success). */
	outcomes: Array<{ stage: 'preFilter' | 'preScore' | 'postFilter'; plugin: string; code: string; message: string }>;
	notEvaluated: string[];
	nodesOmitted: number;
	attempt: number;
	atMs: number;
}

function verdictOf(e: SchedulingExplanation, n: NodeExplanation): NodeVerdict {
	if (!n.feasible) return 'rejected';
	return e.result === 'Scheduled' && e.node === n.node ? 'chosen' : 'feasible';
}

/** Builds the table model of one explanation. */
export function whyModel(e: SchedulingExplanation): WhyModel {
	const tied = new Set(e.tie && e.tie.candidates.length > 1 ? e.tie.candidates : []);
	const rows: WhyRow[] = e.nodes.map((n) => ({
		node: n.node,
		verdict: verdictOf(e, n),
		filters: n.filters.map((f) => ({ plugin: f.plugin, passed: f.code === 'Success', code: f.code, reasons: f.reasons })),
		scores: (n.scores ?? []).map((s) => ({ ...s })),
		total: n.totalScore,
		tied: tied.has(n.node),
	}));
	const outcomes: WhyModel['outcomes'] = [];
	for (const o of e.preFilter) if (o.code !== 'Success' && o.code !== 'Skip') outcomes.push({ stage: 'preFilter', ...o });
	for (const o of e.preScore) if (o.code !== 'Success' && o.code !== 'Skip') outcomes.push({ stage: 'preScore', ...o });
	if (e.postFilter) outcomes.push({ stage: 'postFilter', plugin: e.postFilter.plugin, code: e.postFilter.code, message: e.postFilter.message });
	return {
		result: e.result,
		node: e.node,
		message: e.message,
		rows,
		scorePlugins: e.scorePlugins,
		outcomes,
		notEvaluated: e.notEvaluated,
		nodesOmitted: e.nodesOmitted,
		attempt: e.attempt,
		atMs: e.atMs,
	};
}

/** A score for the table: integers as they are, fractions to one decimal. */
export function formatScore(value: number): string {
	return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** Pod keys (`namespace/name`) for the pod picker: Pending pods first (they are why one asks), then the rest, each group by name. */
export function podChoices(pods: ReadonlyArray<{ namespace: string; name: string; phase: string; node?: string }>): Array<{ key: string; pending: boolean }> {
	return pods.map((p) => ({ key: `${p.namespace}/${p.name}`, pending: !p.node })).sort((a, b) => Number(b.pending) - Number(a.pending) || a.key.localeCompare(b.key));
}
