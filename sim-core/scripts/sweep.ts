/**
 * The long fault sweep (`npm run sweep -- --seeds 200`): runs the sweep of
 * src/testing/sweep.ts over many seeds and prints, for every failing run,
 * its seed and the schedule that replays it. The unit tests run a few seeds
 * of the same sweep on every `npm test`.
 *
 *   npm run sweep -- --seeds 200 [--from 1] [--steps 24]
 *   npm run sweep -- --replay failing-run.json   (a JSON {seed, schedule} this script printed)
 */
import { readFileSync } from 'node:fs';
import { runSweep, type SweepResult, type SweepSchedule } from '../src/testing/sweep.ts';

function flag(name: string): string | undefined {
	const args = process.argv.slice(2);
	const i = args.indexOf(`--${name}`);
	if (i >= 0) return args[i + 1];
	return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

function report(result: SweepResult): void {
	console.log(`FAILED seed ${result.seed} after ${result.stepsRun} steps:`);
	for (const v of result.violations) console.log(`  ${v}`);
	console.log(`  replay with: npm run sweep -- --replay FILE, FILE holding:`);
	console.log(`  ${JSON.stringify({ seed: result.seed, schedule: result.schedule })}`);
}

const replay = flag('replay');
if (replay) {
	const { seed, schedule } = JSON.parse(readFileSync(replay, 'utf8')) as { seed: number; schedule: SweepSchedule };
	const result = runSweep(seed, { schedule });
	if (result.violations.length > 0) {
		report(result);
		process.exit(1);
	}
	console.log(`seed ${seed}: passed (${result.stepsRun} steps, ${Math.round(result.simulatedMs / 1000)} s simulated)`);
	process.exit(0);
}

const seeds = Number(flag('seeds') ?? 50);
const from = Number(flag('from') ?? 1);
const steps = Number(flag('steps') ?? 24);
if (![seeds, from, steps].every((n) => Number.isInteger(n) && n > 0)) {
	console.error('usage: npm run sweep -- [--seeds N] [--from SEED] [--steps K] | --replay FILE');
	process.exit(2);
}
const started = performance.now();
let failed = 0;
let stepsRun = 0;
let simulatedMs = 0;
for (let seed = from; seed < from + seeds; seed++) {
	const result = runSweep(seed, { steps });
	stepsRun += result.stepsRun;
	simulatedMs += result.simulatedMs;
	if (result.violations.length > 0) {
		failed++;
		report(result);
	}
}
const wall = (performance.now() - started) / 1000;
console.log(`${seeds - failed}/${seeds} seeds passed (seeds ${from}-${from + seeds - 1}, ${steps} steps each, ${stepsRun} steps run, ${(simulatedMs / 3_600_000).toFixed(1)} h simulated) in ${wall.toFixed(1)} s`);
process.exit(failed > 0 ? 1 : 0);
