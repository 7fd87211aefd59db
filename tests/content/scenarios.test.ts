/**
 * Every scenario of the book, played as a reader would meet it: it
 * validates, its setup runs without an error, the cluster reaches the state
 * the scenario declares, and each exercise is open at the start (its checks
 * fail) and solved by the commands its reveal shows.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyStep, checkAll, parseScenario, reachesExpectedState, startScenario, type Scenario } from '@cluster-anatomy/sim-core';
import { CONTENT_DIR } from './book.ts';

const SCENARIO_DIR = join(CONTENT_DIR, 'scenarios');
/** How long the test lets the cluster work after a reveal's commands (virtual time). */
const SOLVE_WITHIN_MS = 5 * 60_000;

const scenarios: [string, Scenario][] = readdirSync(SCENARIO_DIR, { recursive: true, withFileTypes: true })
	.filter((e) => e.isFile() && e.name.endsWith('.yaml'))
	.map((e) => {
		const id = join(e.parentPath, e.name).slice(SCENARIO_DIR.length + 1).replace(/\.yaml$/, '');
		return [id, parseScenario(readFileSync(join(SCENARIO_DIR, `${id}.yaml`), 'utf8'), id)] as [string, Scenario];
	})
	.sort(([a], [b]) => a.localeCompare(b));

/** A fresh run of the scenario, at the moment the reader takes over. */
function begin(scenario: Scenario) {
	const run = startScenario(scenario);
	expect(run.problems, 'setup steps that failed').toEqual([]);
	const reached = reachesExpectedState(run, scenario);
	expect(reached.results.filter((r) => !r.ok).map((r) => `${JSON.stringify(r.check)}: found ${r.found}`), 'declared state not reached').toEqual([]);
	return run;
}

describe.each(scenarios)('scenario %s', (_id, scenario) => {
	it('sets up without an error and reaches its declared state', () => {
		const run = begin(scenario);
		expect(scenario.expect, 'a scenario declares the state the reader starts from').toBeDefined();
		expect(run.cluster.now()).toBeGreaterThan(0);
	});

	const tasks = scenario.tasks ?? [];
	if (tasks.length === 0) return;
	// A reader meets the tasks in order, and a later one may build on an
	// earlier one (apply first, then change it): play them in order, on one cluster.
	it(`its ${tasks.length} task(s), done in order, are each open first and solved by their reveal`, () => {
		const { cluster } = begin(scenario);
		for (const task of tasks) {
			const before = checkAll(cluster, task.checks);
			expect(before.ok, `task "${task.id}" is already solved before the reader does anything`).toBe(false);

			const steps = task.reveal?.steps ?? (task.reveal?.commands ?? []).map((run) => ({ run }));
			for (const step of steps) {
				if (!('run' in step)) {
					expect(applyStep(cluster, step), `reveal step ${JSON.stringify(step)}`).toBeUndefined();
					continue;
				}
				const command = step.run;
				const result = cluster.exec(command);
				// A reveal may show a command that answers "no" (kubectl auth can-i) or
				// is refused on purpose; it must never be one the cluster does not know.
				expect(result.exitCode, `\`${command}\`: ${result.stderr}`).not.toBe(127);
				expect(result.stderr, `\`${command}\``).not.toMatch(/unknown (command|flag|shorthand flag)|command not found|not supported by this simulated/);
			}
			const deadline = cluster.now() + SOLVE_WITHIN_MS;
			let outcome = checkAll(cluster, task.checks);
			while (!outcome.ok && cluster.now() < deadline) {
				cluster.advance(1000);
				outcome = checkAll(cluster, task.checks);
			}
			expect(outcome.results.filter((r) => !r.ok).map((r) => `${JSON.stringify(r.check)}: found ${r.found}`), `task "${task.id}": checks still failing after its reveal`).toEqual([]);
		}
		// Some scenarios play many virtual minutes under load (the HPA walkthrough's): seconds of CPU on a busy machine.
	}, 60_000);
});

it('every task of every scenario has a reveal with commands or steps, so the content tests can prove it solvable', () => {
	const missing = scenarios.flatMap(([id, s]) => (s.tasks ?? []).filter((t) => !t.reveal?.commands?.length && !t.reveal?.steps?.length).map((t) => `${id}#${t.id}`));
	expect(missing).toEqual([]);
});
