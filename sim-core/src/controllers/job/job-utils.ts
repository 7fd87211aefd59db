/**
 * What the Job controller works out from a Job and its Pods without
 * touching the API: the batch/v1 Job shapes it reads and writes, the
 * completion index of a Pod and the `completedIndexes` interval text
 * (`0-2,5`), when a Pod finished (for the failure back-off), how long to
 * wait before replacing failed Pods (10 s, doubling per failure since the
 * last success, capped at 10 minutes), and what a Pod failure policy says
 * about a failed Pod.
 *
 * Pure functions over plain objects.
 *
 * Mirrors pkg/controller/job/indexed_job_utils.go (orderedIntervals,
 * getCompletionIndex), pkg/controller/job/backoff_utils.go
 * (newBackoffRecord, getFinishedTime, getRemainingTimeForFailuresCount),
 * pkg/controller/job/pod_failure_policy.go (matchPodFailurePolicy),
 * pkg/controller/job/util/utils.go (IsJobFinished).
 */
import type { ContainerStatus, Job, Pod } from '../../api/types.ts';
import { timeMs } from '../pod-util.ts';

/** batch.JobTrackingFinalizer: the Job controller counts a Pod before letting it go. */
export const JOB_TRACKING_FINALIZER = 'batch.kubernetes.io/job-tracking';
/** batch.JobCompletionIndexAnnotation (also a label, PodIndexLabel GA since v1.32). */
export const JOB_COMPLETION_INDEX = 'batch.kubernetes.io/job-completion-index';
/** batch.JobIndexFailureCountAnnotation and JobIndexIgnoredFailureCountAnnotation (backoffLimitPerIndex). */
export const JOB_INDEX_FAILURE_COUNT = 'batch.kubernetes.io/job-index-failure-count';
export const JOB_INDEX_IGNORED_FAILURE_COUNT = 'batch.kubernetes.io/job-index-ignored-failure-count';

/** DefaultJobPodFailureBackOff and MaxJobPodFailureBackOff (job_controller.go). */
export const DEFAULT_JOB_POD_FAILURE_BACKOFF_MS = 10_000;
export const MAX_JOB_POD_FAILURE_BACKOFF_MS = 10 * 60_000;

export interface JobCondition {
	type: 'Complete' | 'Failed' | 'Suspended' | 'FailureTarget' | 'SuccessCriteriaMet' | string;
	status: 'True' | 'False' | 'Unknown';
	lastProbeTime?: string;
	lastTransitionTime?: string;
	reason?: string;
	message?: string;
}

export interface PodFailurePolicyRule {
	action: 'FailJob' | 'FailIndex' | 'Ignore' | 'Count';
	onExitCodes?: { containerName?: string; operator: 'In' | 'NotIn'; values: number[] };
	onPodConditions?: Array<{ type: string; status?: string }>;
}

/** The batch/v1 JobSpec fields the controller reads. */
export interface JobSpec {
	parallelism?: number;
	completions?: number;
	backoffLimit?: number;
	backoffLimitPerIndex?: number;
	maxFailedIndexes?: number;
	activeDeadlineSeconds?: number;
	ttlSecondsAfterFinished?: number;
	completionMode?: string;
	suspend?: boolean;
	podReplacementPolicy?: string;
	podFailurePolicy?: { rules: PodFailurePolicyRule[] };
	successPolicy?: { rules: Array<{ succeededIndexes?: string; succeededCount?: number }> };
	managedBy?: string;
}

/** The batch/v1 JobStatus as the controller writes it. */
export interface JobStatus {
	conditions?: JobCondition[];
	startTime?: string;
	completionTime?: string;
	active?: number;
	succeeded?: number;
	failed?: number;
	terminating?: number;
	completedIndexes?: string;
	failedIndexes?: string;
	uncountedTerminatedPods?: { succeeded?: string[]; failed?: string[] };
	ready?: number;
}

export type JobSpecOf = Job['spec'] & JobSpec;

export function jobSpec(job: Job): JobSpecOf {
	return job.spec as JobSpecOf;
}

export function jobStatus(job: Job): JobStatus {
	return (job.status ?? {}) as JobStatus;
}

/** The condition of that type, if any. */
export function findCondition(job: Job, type: string): JobCondition | undefined {
	return jobStatus(job).conditions?.find((c) => c.type === type);
}

/** util.IsJobFinished: a Complete or Failed condition that is True. */
export function isJobFinished(job: Job): boolean {
	return (jobStatus(job).conditions ?? []).some((c) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True');
}

/** The finished condition type (Complete or Failed) and when, for the TTL controller. */
export function jobFinishTime(job: Job): { type: string; atMs: number } | undefined {
	const c = (jobStatus(job).conditions ?? []).find((x) => (x.type === 'Complete' || x.type === 'Failed') && x.status === 'True');
	return c ? { type: c.type, atMs: timeMs(c.lastTransitionTime) } : undefined;
}

export function isIndexedJob(job: Job): boolean {
	return jobSpec(job).completionMode === 'Indexed';
}

export function hasJobTrackingFinalizer(pod: Pod): boolean {
	return pod.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER) ?? false;
}

// ---- completion indexes --------------------------------------------------------------------

/** getCompletionIndex: the annotation's value, or -1 when it is absent or not a non-negative integer. */
export function completionIndex(pod: Pod): number {
	const text = pod.metadata.annotations?.[JOB_COMPLETION_INDEX];
	if (text === undefined || !/^\d+$/.test(text)) return -1;
	const n = Number(text);
	return Number.isSafeInteger(n) ? n : -1;
}

/** An ordered list of closed intervals of indexes (orderedIntervals). */
export type Intervals = Array<[number, number]>;

/** parseIndexesFromString: `1,3-5` → [[1,1],[3,5]]; malformed parts and indexes ≥ completions are skipped. */
export function parseIntervals(text: string | undefined, completions: number): Intervals {
	const out: Intervals = [];
	if (!text) return out;
	for (const part of text.split(',')) {
		const m = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
		if (!m) continue;
		const first = Number(m[1]);
		const last = Math.min(Number(m[2] ?? m[1]), completions - 1);
		if (first > last) continue;
		const prev = out[out.length - 1];
		if (prev && first <= prev[1] + 1) prev[1] = Math.max(prev[1], last);
		else out.push([first, last]);
	}
	return out;
}

/** withOrderedIndexes: the union with more indexes. */
export function withIndexes(intervals: Intervals, indexes: Iterable<number>): Intervals {
	const all = new Set<number>();
	for (const [a, b] of intervals) for (let i = a; i <= b; i++) all.add(i);
	for (const i of indexes) all.add(i);
	const out: Intervals = [];
	for (const i of [...all].sort((x, y) => x - y)) {
		const prev = out[out.length - 1];
		if (prev && i === prev[1] + 1) prev[1] = i;
		else out.push([i, i]);
	}
	return out;
}

export function intervalsTotal(intervals: Intervals): number {
	return intervals.reduce((n, [a, b]) => n + b - a + 1, 0);
}

export function intervalsHas(intervals: Intervals, ix: number): boolean {
	return intervals.some(([a, b]) => ix >= a && ix <= b);
}

/** orderedIntervals.String: `0-2,5`. */
export function intervalsText(intervals: Intervals): string {
	return intervals.map(([a, b]) => (a === b ? String(a) : `${a}-${b}`)).join(',');
}

// ---- failure back-off ----------------------------------------------------------------------

/** backoffRecord: consecutive failures since the last success, and when the last one finished. */
export interface BackoffRecord {
	failuresAfterLastSuccess: number;
	lastFailureMs: number | null;
}

/**
 * getFinishedTime: the latest container finish time if every container
 * finished, else when Ready turned False, else the deletion time less the
 * grace period, else the creation time.
 */
export function podFinishedMs(pod: Pod): number {
	const statuses = pod.status?.containerStatuses ?? [];
	let latest: number | undefined;
	let allDone = statuses.length > 0;
	for (const s of statuses) {
		const at = s.state?.terminated?.finishedAt;
		if (!at) {
			allDone = false;
			break;
		}
		latest = Math.max(latest ?? 0, timeMs(at));
	}
	if (allDone && latest !== undefined) return latest;
	const ready = pod.status?.conditions?.find((c) => c.type === 'Ready');
	if (ready?.status === 'False' && ready.lastTransitionTime) return timeMs(ready.lastTransitionTime);
	if (pod.metadata.deletionTimestamp) return timeMs(pod.metadata.deletionTimestamp) - (pod.metadata.deletionGracePeriodSeconds ?? 0) * 1000;
	return timeMs(pod.metadata.creationTimestamp);
}

/** newBackoffRecord: new failures add up; a success resets the count to the failures that came after it. */
export function nextBackoffRecord(old: BackoffRecord | undefined, newSucceeded: Pod[], newFailed: Pod[]): BackoffRecord {
	const record: BackoffRecord = { failuresAfterLastSuccess: old?.failuresAfterLastSuccess ?? 0, lastFailureMs: old?.lastFailureMs ?? null };
	const failedTimes = newFailed.map(podFinishedMs).sort((a, b) => a - b);
	if (newSucceeded.length === 0) {
		if (failedTimes.length === 0) return record;
		return { failuresAfterLastSuccess: record.failuresAfterLastSuccess + failedTimes.length, lastFailureMs: failedTimes[failedTimes.length - 1] };
	}
	const lastSuccess = Math.max(...newSucceeded.map(podFinishedMs));
	const after = failedTimes.filter((t) => t > lastSuccess);
	return { failuresAfterLastSuccess: after.length, lastFailureMs: after.length ? after[after.length - 1] : null };
}

/** getRemainingTimeForFailuresCount: 10 s × 2^(failures-1), at most 10 min, less the time since the last failure. */
export function backoffRemainingMs(failures: number, lastFailureMs: number | null, nowMs: number): number {
	if (failures <= 0 || lastFailureMs === null) return 0;
	let backoff = DEFAULT_JOB_POD_FAILURE_BACKOFF_MS;
	for (let i = 1; i < failures; i++) {
		backoff *= 2;
		if (backoff >= MAX_JOB_POD_FAILURE_BACKOFF_MS) {
			backoff = MAX_JOB_POD_FAILURE_BACKOFF_MS;
			break;
		}
	}
	const elapsed = nowMs - lastFailureMs;
	return backoff < elapsed ? 0 : backoff - elapsed;
}

// ---- pod failure policy -------------------------------------------------------------------

export interface PolicyMatch {
	/** The FailJob message, when a FailJob rule matched. */
	failJobMessage?: string;
	/** Whether the failure counts toward backoffLimit (false for Ignore). */
	countFailed: boolean;
	action?: PodFailurePolicyRule['action'];
}

function matchingContainer(statuses: ContainerStatus[] | undefined, req: NonNullable<PodFailurePolicyRule['onExitCodes']>): ContainerStatus | undefined {
	for (const s of statuses ?? []) {
		const code = s.state?.terminated?.exitCode;
		if (code === undefined || code === 0) continue;
		if (req.containerName !== undefined && req.containerName !== s.name) continue;
		const listed = req.values.includes(code);
		if (req.operator === 'In' ? listed : req.operator === 'NotIn' ? !listed : false) return s;
	}
	return undefined;
}

/**
 * matchPodFailurePolicy: the first rule that matches decides. onExitCodes
 * looks at terminated containers with a non-zero code (containers, then
 * init containers); onPodConditions at the pod's conditions (status
 * defaults to True). FailIndex counts as a failure of the index; without
 * backoffLimitPerIndex it is an ordinary failure.
 */
export function matchPodFailurePolicy(policy: JobSpec['podFailurePolicy'], pod: Pod): PolicyMatch {
	if (!policy) return { countFailed: true };
	const ns = pod.metadata.namespace ?? '';
	const name = pod.metadata.name ?? '';
	for (const [index, rule] of (policy.rules ?? []).entries()) {
		if (rule.onExitCodes) {
			const s = matchingContainer(pod.status?.containerStatuses, rule.onExitCodes) ?? matchingContainer(pod.status?.initContainerStatuses, rule.onExitCodes);
			if (!s) continue;
			if (rule.action === 'FailJob') {
				return { failJobMessage: `Container ${s.name} for pod ${ns}/${name} failed with exit code ${s.state?.terminated?.exitCode} matching FailJob rule at index ${index}`, countFailed: true, action: 'FailJob' };
			}
			return { countFailed: rule.action !== 'Ignore', action: rule.action };
		}
		if (rule.onPodConditions) {
			const condition = (pod.status?.conditions ?? []).find((c) => rule.onPodConditions!.some((p) => p.type === c.type && (p.status ?? 'True') === c.status));
			if (!condition) continue;
			if (rule.action === 'FailJob') {
				return { failJobMessage: `Pod ${ns}/${name} has condition ${condition.type} matching FailJob rule at index ${index}`, countFailed: true, action: 'FailJob' };
			}
			return { countFailed: rule.action !== 'Ignore', action: rule.action };
		}
	}
	return { countFailed: true };
}
