/**
 * Plays a scenario on a cluster: builds the cluster it asks for, runs its
 * setup steps as a reader would, arms its timed faults (kept in the
 * simulation itself, so they replay and snapshot like everything else), and
 * checks its declared state.
 *
 * Mirrors nothing upstream: the site's scenario player.
 */
import type { KubeObject } from '../api/types.ts';
import { parseGoDurationMs } from '../golang/duration.ts';
import { matches, parseLabelSelector } from '../api/labels.ts';
import { executeJsonPath } from '../kubectl/printers/jsonpath.ts';
import { Cluster, type ClusterInput } from '../cluster/cluster.ts';
import type { Scenario, ScenarioStep, StateCheck } from './types.ts';

/** The input a setup step stands for: a step is what a reader could have done. */
function stepInput(step: ScenarioStep): ClusterInput {
	if ('run' in step) return { kind: 'exec', line: step.run };
	if ('apply' in step) return { kind: 'exec', line: 'kubectl apply -f -', stdin: step.apply };
	if ('writeFile' in step) return { kind: 'writeFile', path: step.writeFile.path, text: step.writeFile.content };
	if ('advance' in step) return { kind: 'advance', ms: parseGoDurationMs(step.advance) };
	if ('settle' in step) return { kind: 'settle', maxMs: parseGoDurationMs(step.settle) };
	if ('stop' in step) return step.node ? { kind: 'stop', component: step.stop, node: step.node } : { kind: 'stop', component: step.stop };
	if ('start' in step) return step.node ? { kind: 'start', component: step.start, node: step.node } : { kind: 'start', component: step.start };
	if ('partition' in step) return { kind: 'partition', node: step.partition };
	if ('heal' in step) return { kind: 'heal', node: step.heal };
	if ('powerOff' in step) return { kind: 'powerOff', node: step.powerOff };
	if ('setClock' in step) return { kind: 'setClock', node: step.setClock, offsetMs: parseGoDurationMs(step.offset) };
	return { kind: 'powerOn', node: (step as { powerOn: string }).powerOn };
}

/** Performs one step through the cluster's one entry point for inputs. Returns an error message for a step that could not be done. */
export function applyStep(cluster: Cluster, step: ScenarioStep): string | undefined {
	const outcome = cluster.apply(stepInput(step));
	if (outcome.error !== undefined) return outcome.error;
	const result = outcome.result;
	if (!result || result.exitCode === 0) return undefined;
	return 'run' in step ? `\`${step.run}\` failed (exit ${result.exitCode}): ${result.stderr.trim()}` : `applying a manifest failed: ${result.stderr.trim()}`;
}

export interface ScenarioRun {
	cluster: Cluster;
	/** Problems met while running the setup (a broken scenario). */
	problems: string[];
	/** Virtual time at which the reader takes over. */
	startMs: number;
}

/**
 * Builds the scenario's cluster and runs its setup; unless the scenario
 * starts the reader in the middle of things (`readerArrives: after-setup`),
 * it then runs the clock until the declared `expect` state holds, so that
 * the reader lands in the cluster the summary describes. The reader takes
 * over from there.
 */
export function startScenario(scenario: Scenario, options: { seed?: number } = {}): ScenarioRun {
	const cluster = new Cluster({
		seed: options.seed ?? scenario.cluster?.seed,
		nodes: scenario.cluster?.nodes,
		scheduler: scenario.cluster?.scheduler,
		kubeProxyMode: scenario.cluster?.kubeProxyMode,
		...(scenario.cluster?.controlPlane ? { controlPlane: scenario.cluster.controlPlane } : {}),
		...(scenario.cluster?.cloud !== undefined ? { cloud: scenario.cluster.cloud } : {}),
		...(scenario.cluster?.cni !== undefined ? { cni: scenario.cluster.cni } : {}),
		...(scenario.cluster?.kubeadm !== undefined ? { kubeadm: scenario.cluster.kubeadm } : {}),
	});
	const problems: string[] = [];
	for (const step of scenario.setup ?? []) {
		const problem = applyStep(cluster, step);
		if (problem) problems.push(problem);
	}
	if (scenario.expect && (scenario.readerArrives ?? 'expected') === 'expected') {
		const arrived = runUntilExpected(cluster, scenario.expect);
		if (!arrived.ok) problems.push(`the setup did not reach the expected state within ${scenario.expect.within}: ${arrived.results.filter((r) => !r.ok).map((r) => r.found).join('; ')}`);
	}
	const startMs = cluster.now();
	for (const fault of scenario.faults ?? []) {
		const atMs = startMs + parseGoDurationMs(fault.at);
		if ('stop' in fault) cluster.planFault({ atMs, verb: 'stop', component: fault.stop, node: fault.node });
		else if ('start' in fault) cluster.planFault({ atMs, verb: 'start', component: fault.start, node: fault.node });
		else if ('partition' in fault) cluster.planFault({ atMs, verb: 'partition', node: fault.partition });
		else if ('heal' in fault) cluster.planFault({ atMs, verb: 'heal', node: fault.heal });
		else if ('powerOff' in fault) cluster.planFault({ atMs, verb: 'powerOff', node: fault.powerOff });
		else if ('powerOn' in fault) cluster.planFault({ atMs, verb: 'powerOn', node: fault.powerOn });
		else if ('setClock' in fault) cluster.planFault({ atMs, verb: 'setClock', node: fault.setClock, offsetMs: parseGoDurationMs(fault.offset) });
	}
	return { cluster, problems, startMs };
}

/** The outcome of one check, with what was found (for task feedback and test messages). */
export interface CheckResult {
	ok: boolean;
	check: StateCheck;
	/** What the cluster had, in words. */
	found: string;
}

function selectorMatches(obj: KubeObject, selector: string | undefined): boolean {
	if (!selector) return true;
	return matches(parseLabelSelector(selector), obj.metadata.labels ?? {});
}

function valueAt(obj: KubeObject, path: string): string {
	try {
		return executeJsonPath(path, obj as unknown as Parameters<typeof executeJsonPath>[1], { allowMissingKeys: true });
	} catch {
		return '';
	}
}

/** Evaluates one check against the cluster's state (no request, no trace). */
export function evaluateCheck(cluster: Cluster, check: StateCheck): CheckResult {
	const all = cluster.list(check.resource, check.namespace);
	const objects = all.filter((o) => (check.name === undefined || o.metadata.name === check.name) && selectorMatches(o, check.selector));
	const describe = (n: number) => `${n} ${check.resource}${check.name ? ` named ${check.name}` : ''}${check.selector ? ` matching ${check.selector}` : ''}`;
	if (check.absent) return { ok: objects.length === 0, check, found: describe(objects.length) };
	if (!check.path) {
		if (check.count !== undefined) return { ok: objects.length === check.count, check, found: describe(objects.length) };
		if (check.atLeast !== undefined) return { ok: objects.length >= check.atLeast, check, found: describe(objects.length) };
		if (check.equals !== undefined) return { ok: String(objects.length) === String(check.equals), check, found: describe(objects.length) };
		return { ok: objects.length > 0, check, found: describe(objects.length) };
	}
	const values = objects.map((o) => valueAt(o, check.path!));
	const good = values.filter((v) => {
		if (check.equals !== undefined && v !== String(check.equals)) return false;
		if (check.notEquals !== undefined && v === check.notEquals) return false;
		if (check.contains !== undefined && !v.includes(check.contains)) return false;
		return true;
	});
	const found = objects.length ? `${check.path} = ${values.map((v) => JSON.stringify(v)).join(', ')}` : describe(0);
	if (check.atLeast !== undefined) return { ok: good.length >= check.atLeast, check, found };
	if (check.count !== undefined) return { ok: good.length === check.count, check, found };
	return { ok: objects.length > 0 && good.length === objects.length, check, found };
}

/** Whether every check holds now. */
export function checkAll(cluster: Cluster, checks: StateCheck[]): { ok: boolean; results: CheckResult[] } {
	const results = checks.map((c) => evaluateCheck(cluster, c));
	return { ok: results.every((r) => r.ok), results };
}

/** The step by which the clock runs while waiting for a declared state: checks are cheap, but not free. */
const EXPECT_POLL_MS = 1000;

/**
 * Runs the clock, as recorded inputs (so a replay of the inputs reaches the
 * same moment), until the checks hold or `within` has passed.
 */
function runUntilExpected(cluster: Cluster, expect: NonNullable<Scenario['expect']>): { ok: boolean; results: CheckResult[]; elapsedMs: number } {
	const start = cluster.now();
	const deadline = start + parseGoDurationMs(expect.within);
	for (;;) {
		const outcome = checkAll(cluster, expect.checks);
		if (outcome.ok || cluster.now() >= deadline) return { ...outcome, elapsedMs: cluster.now() - start };
		cluster.apply({ kind: 'advance', ms: Math.min(EXPECT_POLL_MS, deadline - cluster.now()) });
	}
}

/**
 * Runs the cluster until the scenario's `expect` checks hold, within its
 * `within` time. Used by the content tests: a scenario that does not reach
 * its declared state is broken. A scenario the reader arrives in after its
 * expected state (the default) has reached it in `startScenario` already.
 */
export function reachesExpectedState(run: ScenarioRun, scenario: Scenario): { ok: boolean; results: CheckResult[]; elapsedMs: number } {
	if (!scenario.expect) return { ok: true, results: [], elapsedMs: 0 };
	return runUntilExpected(run.cluster, scenario.expect);
}

