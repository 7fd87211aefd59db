import { describe, it, expect } from 'vitest';
import type { Pod } from '../../api/types.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { backoffRemainingMs, intervalsText, matchPodFailurePolicy, nextBackoffRecord, parseIntervals, withIndexes, type PodFailurePolicyRule } from './job-utils.ts';

const at = (s: number) => `2026-11-30T08:00:${String(s).padStart(2, '0')}Z`;
const T0 = parseRfc3339('2026-11-30T08:00:00Z');

function failedPod(name: string, finishedSec: number, exitCode = 1, conditions: Array<{ type: string; status: string }> = []): Pod {
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, namespace: 'default', creationTimestamp: at(0) },
		spec: { containers: [{ name: 'main' }] },
		status: {
			phase: exitCode === 0 ? 'Succeeded' : 'Failed',
			conditions: conditions.map((c) => ({ ...c, lastProbeTime: null, lastTransitionTime: at(finishedSec) })) as NonNullable<Pod['status']>['conditions'],
			containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: '', imageID: '', state: { terminated: { exitCode, finishedAt: at(finishedSec) } } }],
		},
	} as Pod;
}

describe('completed indexes as intervals (orderedIntervals)', () => {
	it.each([
		['', 5, ''],
		['0,1,2', 5, '0-2'],
		['1,3-5,7', 10, '1,3-5,7'],
		['3-9', 5, '3-4'],
		['x,2', 5, '2'],
	])('%j with %d completions reads as %j', (text, completions, expected) => {
		expect(intervalsText(parseIntervals(text, completions))).toBe(expected);
	});

	it('merges new indexes into runs', () => {
		expect(intervalsText(withIndexes(parseIntervals('0,2', 5), [1, 4]))).toBe('0-2,4');
	});
});

describe('the pod failure back-off (backoff_utils.go)', () => {
	it.each([
		[0, 0],
		[1, 10_000],
		[2, 20_000],
		[3, 40_000],
		[6, 320_000],
		[7, 600_000],
		[20, 600_000],
	])('after %d consecutive failures, waits %d ms', (failures, ms) => {
		expect(backoffRemainingMs(failures, T0, T0)).toBe(ms);
	});

	it('counts the time already passed since the last failure', () => {
		expect(backoffRemainingMs(2, T0, T0 + 15_000)).toBe(5_000);
		expect(backoffRemainingMs(2, T0, T0 + 25_000)).toBe(0);
	});

	it('adds new failures; a success keeps only the failures after it', () => {
		const one = nextBackoffRecord(undefined, [], [failedPod('a', 5)]);
		expect(one).toEqual({ failuresAfterLastSuccess: 1, lastFailureMs: T0 + 5_000 });
		const two = nextBackoffRecord(one, [], [failedPod('b', 20), failedPod('c', 15)]);
		expect(two).toEqual({ failuresAfterLastSuccess: 3, lastFailureMs: T0 + 20_000 });
		expect(nextBackoffRecord(two, [failedPod('ok', 30, 0)], [failedPod('d', 25), failedPod('e', 40)])).toEqual({ failuresAfterLastSuccess: 1, lastFailureMs: T0 + 40_000 });
		expect(nextBackoffRecord(two, [failedPod('ok', 30, 0)], [])).toEqual({ failuresAfterLastSuccess: 0, lastFailureMs: null });
	});
});

describe('matchPodFailurePolicy', () => {
	const rules: PodFailurePolicyRule[] = [
		{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
		{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
		{ action: 'Count', onExitCodes: { operator: 'NotIn', values: [1] } },
	];
	it.each([
		['exit 42 fails the Job', failedPod('p', 1, 42), { failJobMessage: 'Container main for pod default/p failed with exit code 42 matching FailJob rule at index 0', countFailed: true, action: 'FailJob' }],
		['a disruption is ignored', failedPod('p', 1, 137, [{ type: 'DisruptionTarget', status: 'True' }]), { countFailed: false, action: 'Ignore' }],
		['a False condition does not match', failedPod('p', 1, 1, [{ type: 'DisruptionTarget', status: 'False' }]), { countFailed: true }],
		['NotIn [1] matches 2', failedPod('p', 1, 2), { countFailed: true, action: 'Count' }],
		['no rule: counted', failedPod('p', 1, 1), { countFailed: true }],
	])('%s', (_name, pod, expected) => {
		expect(matchPodFailurePolicy({ rules }, pod)).toEqual(expected);
	});
});
