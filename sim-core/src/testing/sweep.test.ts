/**
 * The fast fault sweep on every `npm test` (the long one: `npm run sweep`):
 * random schedules of faults and reader actions, the safety invariants after
 * every step, and every workload back to its desired state within five
 * simulated minutes of healing. A failure message carries the seed and the
 * schedule that replay it.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster.ts';
import { drawSchedule, livenessGaps, runSweep, safetyViolations } from './sweep.ts';

const SEEDS = Number(process.env.SWEEP_SEEDS ?? 6);
const FIRST = Number(process.env.SWEEP_FROM ?? 20261202);

describe('the fault sweep', () => {
	for (let seed = FIRST; seed < FIRST + SEEDS; seed++) {
		it(`seed ${seed}: invariants hold throughout and the cluster heals`, () => {
			const result = runSweep(seed, { steps: 20 });
			expect(result.violations, `replay: ${JSON.stringify({ seed, schedule: result.schedule })}`).toEqual([]);
			expect(result.stepsRun).toBe(20);
		});
	}

	it('draws the same schedule from the same seed, and a replayed schedule runs the same', () => {
		expect(drawSchedule(7, 12)).toEqual(drawSchedule(7, 12));
		expect(drawSchedule(7, 12)).not.toEqual(drawSchedule(8, 12));
		const schedule = JSON.parse(JSON.stringify(drawSchedule(7, 12)));
		expect(runSweep(7, { schedule })).toEqual(runSweep(7, { steps: 12 }));
	});

	it('schedules every kind of fault over its seeds', () => {
		const kinds = new Set<string>();
		for (let seed = 1; seed <= 40; seed++) for (const step of drawSchedule(seed, 24).steps) kinds.add('component' in step ? `${step.kind} ${step.component}` : step.kind);
		for (const expected of ['stop kube-apiserver', 'stop etcd', 'stop kube-scheduler', 'stop kube-controller-manager', 'stop kubelet', 'stop container-runtime', 'stop kube-proxy', 'partition', 'powerOff', 'killPod', 'scale']) {
			expect(kinds).toContain(expected);
		}
		// Some runs keep etcd as three members, and stop and cut off members other than the first.
		const ha = Array.from({ length: 40 }, (_, i) => drawSchedule(i + 1, 24)).filter((s) => s.etcdMembers === 3);
		expect(ha.length).toBeGreaterThan(5);
		const steps = ha.flatMap((s) => s.steps);
		expect(steps.some((s) => s.kind === 'stop' && s.component === 'etcd' && s.node === 'control-plane-3')).toBe(true);
		expect(steps.some((s) => s.kind === 'partition' && s.node === 'control-plane-2')).toBe(true);
	});

	it('catches a lost write and a workload that never converges (the checks can fail)', () => {
		const cluster = new Cluster({ seed: 3 });
		cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		cluster.settle({ maxMs: 120_000 });
		const memory = { bindings: new Map<string, string>(), resourceVersions: new Map<string, number>(), revision: 0 };
		expect(safetyViolations(cluster, memory, new Map([['web', 2]]))).toEqual([]);
		// An acknowledged scale to 4 that the store does not hold is a lost write.
		expect(safetyViolations(cluster, memory, new Map([['web', 4]]))).toEqual(['Deployment web has 2 replicas, acknowledged 4']);
		expect(livenessGaps(cluster)).toEqual([]);
		// With the scheduler held down, a scale-up leaves Pods Pending: not converged.
		cluster.stop('kube-scheduler');
		cluster.exec('kubectl scale deployment web --replicas=3');
		cluster.advance('1m');
		expect(livenessGaps(cluster).join('\n')).toMatch(/Deployment web: 2 ready of 3/);
	});
});
