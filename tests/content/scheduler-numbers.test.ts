/**
 * The kube-scheduler chapter prints a table of the scores its sandbox
 * produces. This plays the sandbox's first task the way a reader does and
 * compares what the Why panel would show (cluster.explain) with the table
 * on the page, in both languages, so neither the page nor the simulation
 * can drift alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStep, parseScenario, startScenario } from '@cluster-anatomy/sim-core';
import { CONTENT_DIR } from './book.ts';

const SCENARIO = 'control-plane/kube-scheduler';

/** The chapter's score table: node -> its total and the per-plugin numbers, as written. */
function tableOf(locale: 'en' | 'zh-cn'): Map<string, { cells: string[] }> {
	const file = join(CONTENT_DIR, locale === 'en' ? '' : locale, 'control-plane/kube-scheduler.mdx');
	const rows = new Map<string, { cells: string[] }>();
	for (const line of readFileSync(file, 'utf8').split('\n')) {
		const cells = line.split('|').map((c) => c.trim());
		if (/^(node-[abc]|control-plane)$/.test(cells[1] ?? '') && cells.length >= 8) rows.set(cells[1]!, { cells: cells.slice(2, -1) });
	}
	return rows;
}

describe('the kube-scheduler chapter', () => {
	const scenario = parseScenario(readFileSync(join(CONTENT_DIR, 'scenarios', `${SCENARIO}.yaml`), 'utf8'), SCENARIO);
	const run = startScenario(scenario);
	const task = scenario.tasks!.find((t) => t.id === 'read-the-decision')!;
	for (const command of task.reveal!.commands!) applyStep(run.cluster, { run: command });
	run.cluster.advance('10s');
	const explained = run.cluster.explain('default/web')!;

	it('shows the decision the sandbox makes: node-c, over node-b, with node-a and the control plane filtered out', () => {
		expect(explained.result).toBe('Scheduled');
		expect(explained.node).toBe('node-c');
		const rejected = Object.fromEntries(explained.nodes.filter((n) => !n.feasible).map((n) => [n.node, n.reasons]));
		expect(rejected).toEqual({ 'control-plane': ['node(s) had untolerated taint(s)'], 'node-a': ['Insufficient memory'] });
	});

	it.each(['en', 'zh-cn'] as const)('prints, in %s, the totals and plugin scores the Why panel shows', (locale) => {
		const table = tableOf(locale);
		expect([...table.keys()].sort()).toEqual(['control-plane', 'node-a', 'node-b', 'node-c']);
		for (const row of explained.nodes.filter((n) => n.feasible)) {
			const cells = table.get(row.node)!.cells;
			const score = (plugin: string) => row.scores!.find((s) => s.plugin === plugin)!;
			// Columns: filter, TaintToleration (normalized → weighted), NodeResourcesFit, BalancedAllocation, ImageLocality, total.
			expect(cells[1], `${row.node} TaintToleration`).toContain(`${score('TaintToleration').normalized} → ${score('TaintToleration').weighted}`);
			expect(cells[2], `${row.node} NodeResourcesFit`).toBe(String(score('NodeResourcesFit').weighted));
			expect(cells[3], `${row.node} BalancedAllocation`).toBe(String(score('NodeResourcesBalancedAllocation').weighted));
			expect(cells[4], `${row.node} ImageLocality`).toBe(String(score('ImageLocality').weighted));
			expect(cells[5], `${row.node} total`).toContain(`**${row.totalScore}**`);
		}
	});
});
