import { describe, expect, it } from 'vitest';
import { CalculatorError, getResourceReplicas, type CalcPod, type PodMetric } from './replica-calculator.ts';

// After upstream's replica calculator table (pkg/controller/podautoscaler/replica_calculator_test.go, the
// TestReplicaCalc* cases named here): CPU levels and requests in millicores, one container per Pod, Pods
// started long ago and Ready unless a case says otherwise; `undefined` levels are Pods without metrics.
const NOW = 1_800_000_000_000;
const WINDOW = 60_000;
const COOL_START = NOW - 10 * 60_000; // coolCPUCreationTime: past the 5 min CPU initialization period
const HOT_START = NOW - 2 * 60_000; // hotCPUCreationTime: inside it

interface Case {
	name: string;
	currentReplicas: number;
	expectedReplicas: number;
	expectedUtilization?: number;
	expectedValue?: number;
	levels: Array<number | undefined>;
	requests: Array<number | undefined>;
	target: number;
	readiness?: Array<'True' | 'False'>;
	phases?: string[];
	deleting?: boolean[];
	startTimes?: number[];
	error?: string;
}

function run(c: Case) {
	const pods: CalcPod[] = c.requests.map((request, i) => {
		const start = c.startTimes?.[i] ?? COOL_START;
		const status = c.readiness?.[i] ?? 'True';
		return {
			name: `test-pod-${i}`,
			phase: c.phases?.[i] ?? 'Running',
			deleting: c.deleting?.[i] ?? false,
			// upstream's fixtures: the Ready transition is at the start (True) or a little after (never ready: False)
			ready: { status, lastTransitionMs: start },
			startTimeMs: start,
			containerRequests: [{ name: 'container', request }],
		};
	});
	const metrics = new Map<string, PodMetric>();
	c.levels.forEach((value, i) => {
		if (value !== undefined) metrics.set(`test-pod-${i}`, { value, timestampMs: NOW - 30_000, windowMs: WINDOW });
	});
	return getResourceReplicas({ currentReplicas: c.currentReplicas, targetUtilization: c.target, resource: 'cpu', metrics, pods, nowMs: NOW });
}

const CASES: Case[] = [
	{ name: 'TestReplicaCalcScaleUp', currentReplicas: 3, expectedReplicas: 5, expectedUtilization: 50, expectedValue: 500, levels: [300, 500, 700], requests: [1000, 1000, 1000], target: 30 },
	{ name: 'TestReplicaCalcScaleUpUnreadyLessScale', currentReplicas: 3, expectedReplicas: 4, expectedUtilization: 60, expectedValue: 600, levels: [300, 500, 700], requests: [1000, 1000, 1000], target: 30, readiness: ['False', 'True', 'True'] },
	{ name: 'TestReplicaCalcScaleUpHotCpuLessScale', currentReplicas: 3, expectedReplicas: 4, expectedUtilization: 60, expectedValue: 600, levels: [300, 500, 700], requests: [1000, 1000, 1000], target: 30, startTimes: [NOW - 10_000, COOL_START, COOL_START] },
	{ name: 'TestReplicaCalcScaleUpUnreadyNoScale', currentReplicas: 3, expectedReplicas: 3, expectedUtilization: 40, expectedValue: 400, levels: [400, 500, 700], requests: [1000, 1000, 1000], target: 30, readiness: ['True', 'False', 'False'] },
	{ name: 'TestReplicaCalcScaleUpIgnoresFailedPods', currentReplicas: 2, expectedReplicas: 4, expectedUtilization: 60, expectedValue: 600, levels: [500, 700], requests: [1000, 1000, 1000, 1000], target: 30, phases: ['Running', 'Running', 'Failed', 'Failed'], readiness: ['True', 'True', 'False', 'False'] },
	{ name: 'TestReplicaCalcScaleUpIgnoresDeletionPods', currentReplicas: 2, expectedReplicas: 4, expectedUtilization: 60, expectedValue: 600, levels: [500, 700], requests: [1000, 1000, 1000, 1000], target: 30, deleting: [false, false, true, true], readiness: ['True', 'True', 'False', 'False'] },
	{ name: 'TestReplicaCalcScaleDown', currentReplicas: 5, expectedReplicas: 3, expectedUtilization: 28, expectedValue: 280, levels: [100, 300, 500, 250, 250], requests: [1000, 1000, 1000, 1000, 1000], target: 50 },
	{ name: 'TestReplicaCalcScaleDownIgnoresUnreadyPods', currentReplicas: 5, expectedReplicas: 2, expectedUtilization: 30, expectedValue: 300, levels: [100, 300, 500, 250, 250], requests: [1000, 1000, 1000, 1000, 1000], target: 50, readiness: ['True', 'True', 'True', 'False', 'False'], startTimes: [COOL_START, COOL_START, COOL_START, HOT_START, HOT_START] },
	{ name: 'TestReplicaCalcTolerance', currentReplicas: 3, expectedReplicas: 3, expectedUtilization: 102, expectedValue: 1020, levels: [1010, 1030, 1020], requests: [900, 1000, 1100], target: 100 },
	{ name: 'TestReplicaCalcMissingMetricsNoChangeEq', currentReplicas: 2, expectedReplicas: 2, expectedUtilization: 100, expectedValue: 1000, levels: [1000, undefined], requests: [1000, 1000], target: 100 },
	{ name: 'TestReplicaCalcMissingMetricsNoChangeGt', currentReplicas: 2, expectedReplicas: 2, expectedUtilization: 190, expectedValue: 1900, levels: [1900, undefined], requests: [1000, 1000], target: 100 },
	{ name: 'TestReplicaCalcMissingMetricsNoChangeLt', currentReplicas: 2, expectedReplicas: 2, expectedUtilization: 60, expectedValue: 600, levels: [600, undefined], requests: [1000, 1000], target: 100 },
	{ name: 'TestReplicaCalcMissingMetricsUnreadyChange', currentReplicas: 3, expectedReplicas: 3, expectedUtilization: 45, expectedValue: 450, levels: [100, 450, undefined], requests: [1000, 1000, 1000], target: 50, readiness: ['False', 'True', 'True'] },
	{ name: 'TestReplicaCalcMissingMetricsUnreadyScaleDown', currentReplicas: 4, expectedReplicas: 3, expectedUtilization: 10, expectedValue: 100, levels: [100, 100, 100, undefined], requests: [1000, 1000, 1000, 1000], target: 50, readiness: ['True', 'True', 'True', 'False'] },
	{ name: 'TestReplicaCalcMissingMetricsScaleUpTargetOver100', currentReplicas: 2, expectedReplicas: 2, expectedUtilization: 300, expectedValue: 3000, levels: [3000, undefined], requests: [1000, 1000], target: 300 },
	{ name: 'TestReplicaCalcEmptyCPURequest', currentReplicas: 1, expectedReplicas: 0, levels: [200], requests: [undefined], target: 100, error: 'missing request for cpu in container container of Pod test-pod-0' },
	{ name: 'TestReplicaCalcNoPods', currentReplicas: 2, expectedReplicas: 0, levels: [], requests: [], target: 100, error: 'no pods returned by selector while calculating replica count' },
	{ name: 'TestReplicaCalcAllPodsUnready', currentReplicas: 2, expectedReplicas: 0, levels: [100, 100], requests: [1000, 1000], target: 50, readiness: ['False', 'False'], startTimes: [HOT_START, HOT_START], error: 'did not receive metrics for targeted pods (pods might be unready)' },
];

describe('getResourceReplicas: upstream replica calculator cases', () => {
	it.each(CASES)('$name', (c) => {
		if (c.error) {
			expect(() => run(c)).toThrow(new CalculatorError(c.error));
			return;
		}
		const result = run(c);
		expect(result.replicas).toBe(c.expectedReplicas);
		if (c.expectedUtilization !== undefined) expect(result.utilization).toBe(c.expectedUtilization);
		if (c.expectedValue !== undefined) expect(result.rawUtilization).toBe(c.expectedValue);
	});

	it('computes desired = ceil(current × utilization / target) when every Pod is ready and measured', () => {
		// The HPA walkthrough: one php-apache Pod at 250 % of its 200m request, target 50 %.
		const result = run({ name: 'walkthrough', currentReplicas: 1, expectedReplicas: 5, levels: [500], requests: [200], target: 50 });
		expect(result).toMatchObject({ replicas: 5, utilization: 250, rawUtilization: 500 });
	});
});
