/**
 * The Job controller: runs a Job's Pods to completion. It creates Pods from
 * the template (`<job>-<random>`, or `<job>-<index>-<random>` for an
 * Indexed Job, whose Pods carry their completion index), never more than
 * `parallelism` at once nor more than the completions still missing; it
 * counts each finished Pod exactly once, through the
 * `batch.kubernetes.io/job-tracking` finalizer and
 * `status.uncountedTerminatedPods` (a Pod's UID is written there before its
 * finalizer goes, and moves into `succeeded`/`failed` after); it waits
 * before replacing failed Pods (10 s, doubling with each failure since the
 * last success, at most 10 minutes); and it ends the Job.
 *
 * Ending takes two steps in v1.36 (JobPodReplacementPolicy and
 * JobManagedBy delay the terminal condition): first `SuccessCriteriaMet`
 * or `FailureTarget` (reason `BackoffLimitExceeded`, `DeadlineExceeded`,
 * `PodFailurePolicy`, `FailedIndexes`, `MaxFailedIndexesExceeded`), while
 * the remaining Pods are deleted, then `Complete` or `Failed` once no Pod
 * is terminating, with the event upstream records (`Completed` "Job
 * completed", or the reason and message as a Warning).
 *
 * `restartPolicy: OnFailure` Pods restart in place (the kubelet does it);
 * their restarts count toward backoffLimit. `suspend` deletes the active
 * Pods and sets `Suspended`; resuming resets `startTime`, from which
 * `activeDeadlineSeconds` is measured.
 *
 * Pod events sync the Job one second later (syncJobBatchPeriod), a Job
 * creation or spec change at once; a back-off or a deadline is a timed
 * requeue.
 *
 * Mirrors pkg/controller/job/job_controller.go (syncJob, manageJob,
 * trackJobStatusAndRemoveFinalizers, enactJobFinished,
 * pastBackoffLimitOnFailure, pastActiveDeadline),
 * pkg/controller/job/indexed_job_utils.go (firstPendingIndexes,
 * calculateSucceededIndexes, addCompletionIndexEnvVariables),
 * pkg/controller/job/tracking_utils.go (uidTrackingExpectations).
 */
import type { Container, EnvVar, Job, KubeObject, Pod } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { deepCopy } from '../../golang/json.ts';
import { deletePodFirst } from '../active-pods.ts';
import { ControllerBase, ownersSelecting, resolveControllerRef, type SyncError } from '../controller-context.ts';
import { Expectations, type ExpectationsState } from '../expectations.ts';
import { canonicalJson } from '../hash.ts';
import { compileSelector, controllerOf, isNamespaceTerminating, isPodActive, isPodReady, keyFor, splitKey, timeMs } from '../pod-util.ts';
import { claimObjects } from '../ref-manager.ts';
import { podFromTemplate, slowStartBatch } from '../replicaset.ts';
import {
	JOB_COMPLETION_INDEX,
	JOB_INDEX_FAILURE_COUNT,
	JOB_INDEX_IGNORED_FAILURE_COUNT,
	JOB_TRACKING_FINALIZER,
	backoffRemainingMs,
	completionIndex,
	findCondition,
	hasJobTrackingFinalizer,
	intervalsHas,
	intervalsText,
	intervalsTotal,
	isIndexedJob,
	isJobFinished,
	jobSpec,
	jobStatus,
	matchPodFailurePolicy,
	nextBackoffRecord,
	parseIntervals,
	podFinishedMs,
	withIndexes,
	type BackoffRecord,
	type Intervals,
	type JobCondition,
	type JobStatus,
} from './job-utils.ts';

const JOB_CONTROLLER = 'job-controller';

/** syncJobBatchPeriod: Pod events and status updates sync the Job this much later. */
const SYNC_JOB_BATCH_PERIOD_MS = 1_000;
/** MaxPodCreateDeletePerSync and MaxUncountedPods. */
const MAX_POD_CREATE_DELETE_PER_SYNC = 500;
const MAX_UNCOUNTED_PODS = 500;
/** Orphan Pods whose tracking finalizer is to be removed are queued under this prefix. */
const ORPHAN_PREFIX = 'orphan-pod:';

interface JobControllerState {
	expectations: ExpectationsState;
	/** finalizerExpectations: per Job, the Pod UIDs whose finalizer removal is not yet seen. */
	rmFinalizers: Record<string, string[]>;
	/** podBackoffStore. */
	backoff: Record<string, BackoffRecord>;
	/** When a batched sync of each key is due (virtual ms), so a burst of Pod events syncs once (AddAfter's dedup). */
	pendingMs: Record<string, number>;
}

/** A finished condition in the making (syncJobCtx.finishedCondition). */
type Finished = JobCondition;

/** What one sync knows (syncJobCtx). */
interface SyncCtx {
	job: Job;
	key: string;
	pods: Pod[];
	activePods: Pod[];
	succeeded: number;
	failed: number;
	ready: number;
	terminating: number;
	finished: Finished | undefined;
	uncountedSucceeded: Set<string>;
	uncountedFailed: Set<string>;
	expectedRm: Set<string>;
	newBackoff: BackoffRecord;
	prevSucceededIndexes: Intervals;
	succeededIndexes: Intervals;
	failedIndexes: Intervals | undefined;
	/** The last failed Pod of each index (backoffLimitPerIndex): the replacement's counts come from it. */
	lastFailedPerIndex: Map<number, Pod>;
}

/** The status as batch/v1 serializes it: counters omitted when zero, ready and terminating always. */
function normalizeStatus(s: JobStatus): JobStatus {
	const out: JobStatus = {};
	if (s.conditions?.length) out.conditions = s.conditions;
	if (s.startTime) out.startTime = s.startTime;
	if (s.completionTime) out.completionTime = s.completionTime;
	if (s.active) out.active = s.active;
	if (s.succeeded) out.succeeded = s.succeeded;
	if (s.failed) out.failed = s.failed;
	if (s.terminating !== undefined) out.terminating = s.terminating;
	if (s.completedIndexes) out.completedIndexes = s.completedIndexes;
	if (s.failedIndexes !== undefined) out.failedIndexes = s.failedIndexes;
	const u: NonNullable<JobStatus['uncountedTerminatedPods']> = {};
	if (s.uncountedTerminatedPods?.succeeded?.length) u.succeeded = s.uncountedTerminatedPods.succeeded;
	if (s.uncountedTerminatedPods?.failed?.length) u.failed = s.uncountedTerminatedPods.failed;
	out.uncountedTerminatedPods = u;
	if (s.ready !== undefined) out.ready = s.ready;
	return out;
}

/** isPodFailed: Failed, or (unless only failed Pods are replaced) being deleted without having succeeded. */
function isPodFailed(pod: Pod, job: Job): boolean {
	if (pod.status?.phase === 'Failed') return true;
	if (onlyReplaceFailedPods(job)) return false;
	return !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded';
}

/** onlyReplaceFailedPods: podReplacementPolicy Failed, which a pod failure policy implies. */
function onlyReplaceFailedPods(job: Job): boolean {
	return jobSpec(job).podReplacementPolicy === 'Failed' || jobSpec(job).podFailurePolicy !== undefined;
}

function isTerminating(pod: Pod): boolean {
	return !!pod.metadata.deletionTimestamp && pod.status?.phase !== 'Succeeded' && pod.status?.phase !== 'Failed';
}

function hasBackoffLimitPerIndex(job: Job): boolean {
	return isIndexedJob(job) && jobSpec(job).backoffLimitPerIndex !== undefined;
}

/** addCompletionIndexEnvVariables: JOB_COMPLETION_INDEX from the annotation, in every container that lacks it. */
function addCompletionIndexEnv(containers: Container[] | undefined): void {
	for (const c of containers ?? []) {
		if ((c.env ?? []).some((e) => e.name === 'JOB_COMPLETION_INDEX')) continue;
		const env: EnvVar = { name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: `metadata.annotations['${JOB_COMPLETION_INDEX}']` } } };
		c.env = [...(c.env ?? []), env];
	}
}

function newCondition(type: string, status: JobCondition['status'], reason: string, message: string, now: string): JobCondition {
	return { type, status, lastProbeTime: now, lastTransitionTime: now, reason, message };
}

/** ensureJobConditionStatus: updates a condition of that type, or appends it unless it would be False. */
function ensureCondition(list: JobCondition[], type: string, status: JobCondition['status'], reason: string, message: string, now: string): { list: JobCondition[]; changed: boolean } {
	const i = list.findIndex((c) => c.type === type);
	if (i >= 0) {
		const c = list[i];
		if (c.status === status && (c.reason ?? '') === reason && (c.message ?? '') === message) return { list, changed: false };
		const next = [...list];
		next[i] = newCondition(type, status, reason, message, now);
		return { list: next, changed: true };
	}
	if (status === 'False') return { list, changed: false };
	return { list: [...list, newCondition(type, status, reason, message, now)], changed: true };
}

export class JobController extends ControllerBase<JobControllerState> {
	readonly name = JOB_CONTROLLER;
	readonly sub = 'job';
	readonly resources = ['jobs', 'pods'] as const;
	/** --concurrent-job-syncs default 5 (pkg/controller/job/config/v1alpha1/defaults.go). */
	override readonly workers = 5;

	private readonly expectations = new Expectations(
		() => this.state.expectations,
		() => this.host.clock.nowMs(),
	);

	freshState(): JobControllerState {
		return { expectations: {}, rmFinalizers: {}, backoff: {}, pendingMs: {} };
	}

	// ---- event handlers --------------------------------------------------------------

	/** enqueueSyncJobImmediately / enqueueSyncJobBatched / enqueueSyncJobWithDelay. */
	private enqueueJob(key: string, delayMs: number): void {
		if (delayMs <= 0) {
			this.enqueue(key);
			return;
		}
		const due = this.host.clock.nowMs() + delayMs;
		const pending = this.state.pendingMs[key];
		if (pending !== undefined && pending <= due && pending >= this.host.clock.nowMs()) return;
		this.state.pendingMs[key] = due;
		this.host.enqueueAfter(this.sub, key, delayMs);
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'jobs') this.enqueueJob(keyOf(obj), 0);
		else if (resource === 'pods') this.addPod(obj as Pod);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'pods') {
			this.updatePod(oldObj as Pod, newObj as Pod);
			return;
		}
		if (resource !== 'jobs') return;
		const job = newObj as Job;
		const old = oldObj as Job;
		const key = keyOf(job);
		this.enqueueJob(key, (job.metadata.generation ?? 0) === (old.metadata.generation ?? 0) ? SYNC_JOB_BATCH_PERIOD_MS : 0);
		if (isJobFinished(job)) this.cleanupPodFinalizers(job);
		// A new or changed activeDeadlineSeconds: look again when it passes.
		const ads = jobSpec(job).activeDeadlineSeconds;
		const start = jobStatus(job).startTime;
		if (start && ads !== undefined && ads !== jobSpec(old).activeDeadlineSeconds) {
			const left = ads * 1000 - (this.wallMs - timeMs(start));
			this.host.enqueueAfter(this.sub, key, Math.max(0, left), true);
		}
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'jobs') {
			this.enqueueJob(keyOf(obj), 0);
			this.cleanupPodFinalizers(obj as Job);
		} else if (resource === 'pods') this.deletePod(obj as Pod, true);
	}

	private resolveControllerRef(namespace: string | undefined, ref: { kind: string; name: string; uid: string }): Job | undefined {
		return resolveControllerRef<Job>(this.host, 'jobs', 'Job', namespace, ref);
	}

	private jobsSelecting(pod: Pod): Job[] {
		return ownersSelecting<Job>(this.host, 'jobs', pod);
	}

	private enqueueOrphan(pod: Pod): void {
		this.enqueue(`${ORPHAN_PREFIX}${keyFor(pod.metadata.namespace, pod.metadata.name ?? '')}`);
	}

	private addPod(pod: Pod): void {
		if (pod.metadata.deletionTimestamp) {
			this.deletePod(pod, false);
			return;
		}
		const ref = controllerOf(pod);
		if (ref) {
			const job = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (!job) return;
			this.expectations.creationObserved(keyOf(job));
			this.enqueueJob(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
			return;
		}
		if (hasJobTrackingFinalizer(pod)) this.enqueueOrphan(pod);
		for (const job of this.jobsSelecting(pod)) this.enqueueJob(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
	}

	private updatePod(oldPod: Pod, pod: Pod): void {
		if (oldPod.metadata.resourceVersion === pod.metadata.resourceVersion) return;
		if (pod.metadata.deletionTimestamp) {
			this.deletePod(pod, false);
			return;
		}
		const finalizerRemoved = !hasJobTrackingFinalizer(pod);
		const ref = controllerOf(pod);
		const oldRef = controllerOf(oldPod);
		const refChanged = canonicalJson(ref ?? null) !== canonicalJson(oldRef ?? null);
		if (refChanged && oldRef) {
			const old = this.resolveControllerRef(oldPod.metadata.namespace, oldRef);
			if (old) {
				if (finalizerRemoved) this.finalizerRemovalObserved(keyOf(old), pod.metadata.uid ?? '');
				this.enqueueJob(keyOf(old), SYNC_JOB_BATCH_PERIOD_MS);
			}
		}
		if (ref) {
			const job = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (!job) return;
			if (finalizerRemoved) this.finalizerRemovalObserved(keyOf(job), pod.metadata.uid ?? '');
			this.enqueueJob(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
			return;
		}
		if (hasJobTrackingFinalizer(pod)) this.enqueueOrphan(pod);
		const labelsChanged = canonicalJson(pod.metadata.labels ?? {}) !== canonicalJson(oldPod.metadata.labels ?? {});
		if (labelsChanged || refChanged) for (const job of this.jobsSelecting(pod)) this.enqueueJob(keyOf(job), SYNC_JOB_BATCH_PERIOD_MS);
	}

	private deletePod(pod: Pod, final: boolean): void {
		const ref = controllerOf(pod);
		const hasFinalizer = hasJobTrackingFinalizer(pod);
		if (!ref) {
			if (hasFinalizer) this.enqueueOrphan(pod);
			return;
		}
		const job = this.resolveControllerRef(pod.metadata.namespace, ref);
		if (!job || isJobFinished(job)) {
			if (hasFinalizer) this.enqueueOrphan(pod);
			return;
		}
		const key = keyOf(job);
		this.expectations.anyDeletionObserved(key);
		if (final || !hasFinalizer) this.finalizerRemovalObserved(key, pod.metadata.uid ?? '');
		this.enqueueJob(key, SYNC_JOB_BATCH_PERIOD_MS);
	}

	private finalizerRemovalObserved(key: string, uid: string): void {
		const uids = this.state.rmFinalizers[key];
		if (!uids) return;
		const i = uids.indexOf(uid);
		if (i >= 0) uids.splice(i, 1);
		if (uids.length === 0) delete this.state.rmFinalizers[key];
	}

	/** cleanupPodFinalizers: a finished or deleted Job's Pods that still carry the finalizer. */
	private cleanupPodFinalizers(job: Job): void {
		const selector = compileSelector(job.spec.selector);
		if (!selector.ok) return;
		for (const pod of this.host.listInNamespace<Pod>('pods', job.metadata.namespace)) {
			if (controllerOf(pod)?.uid === job.metadata.uid && hasJobTrackingFinalizer(pod) && selector.matches(pod.metadata.labels)) this.enqueueOrphan(pod);
		}
	}

	// ---- sync ----------------------------------------------------------------------------

	sync(key: string): SyncError {
		if (key.startsWith(ORPHAN_PREFIX)) return this.syncOrphanPod(key.slice(ORPHAN_PREFIX.length));
		if ((this.state.pendingMs[key] ?? Number.POSITIVE_INFINITY) <= this.host.clock.nowMs()) delete this.state.pendingMs[key];
		const cached = this.host.informer('jobs').get(key) as Job | undefined;
		if (!cached) {
			this.trace('reconcile', `jobs/${key}`, `job ${key} has been deleted`);
			this.expectations.delete(key);
			delete this.state.rmFinalizers[key];
			delete this.state.backoff[key];
			return undefined;
		}
		// A Job another controller manages (spec.managedBy) is left alone.
		const managedBy = jobSpec(cached).managedBy;
		if (managedBy !== undefined && managedBy !== 'kubernetes.io/job-controller') return undefined;
		if (isJobFinished(cached)) {
			delete this.state.backoff[key];
			return undefined;
		}
		const job = deepCopy(cached);
		const spec = jobSpec(job);
		if (spec.completionMode !== undefined && spec.completionMode !== 'NonIndexed' && spec.completionMode !== 'Indexed') {
			this.host.recorder(JOB_CONTROLLER).record(job, 'Warning', 'UnknownCompletionMode', 'Skipped Job sync because completion mode is unknown');
			return undefined;
		}
		const status = jobStatus(job);
		status.uncountedTerminatedPods ??= {};
		job.status = status as Job['status'];
		const satisfied = this.expectations.satisfied(key);
		this.trace('reconcile', `jobs/${key}`, satisfied ? `syncing job ${key}` : `syncing job ${key}: waiting for earlier creations or deletions to show`);

		const pods = this.podsForJob(job);
		if (typeof pods === 'string') return pods;
		const activePods = pods.filter(isPodActive);
		const ctx: SyncCtx = {
			job,
			key,
			pods,
			activePods,
			succeeded: 0,
			failed: 0,
			ready: activePods.filter(isPodReady).length,
			terminating: pods.filter(isTerminating).length,
			finished: undefined,
			uncountedSucceeded: new Set(status.uncountedTerminatedPods.succeeded ?? []),
			uncountedFailed: new Set(status.uncountedTerminatedPods.failed ?? []),
			expectedRm: new Set(this.state.rmFinalizers[key] ?? []),
			newBackoff: { failuresAfterLastSuccess: 0, lastFailureMs: null },
			prevSucceededIndexes: [],
			succeededIndexes: [],
			failedIndexes: undefined,
			lastFailedPerIndex: new Map(),
		};
		let active = activePods.length;
		const { newSucceeded, newFailed } = this.newFinishedPods(ctx);
		ctx.succeeded = (status.succeeded ?? 0) + newSucceeded.length + ctx.uncountedSucceeded.size;
		ctx.failed = (status.failed ?? 0) + newFailed.filter((p) => matchPodFailurePolicy(spec.podFailurePolicy, p).countFailed).length + ctx.uncountedFailed.size;

		const now = this.nowRfc3339();
		if (!status.startTime && !spec.suspend) status.startTime = now;
		ctx.newBackoff = nextBackoffRecord(this.state.backoff[key], newSucceeded, newFailed);

		const backoffLimit = spec.backoffLimit ?? 6;
		ctx.finished = findCondition(job, 'SuccessCriteriaMet')?.status === 'True' ? findCondition(job, 'SuccessCriteriaMet') : undefined;
		if (!ctx.finished) {
			const target = findCondition(job, 'FailureTarget');
			if (target?.status === 'True') ctx.finished = newCondition('Failed', 'True', target.reason ?? '', target.message ?? '', now);
			else {
				const message = this.failJobMessage(job, pods);
				if (message) ctx.finished = newCondition('FailureTarget', 'True', 'PodFailurePolicy', message, now);
			}
		}
		if (!ctx.finished) {
			if (ctx.failed > backoffLimit || this.pastBackoffLimitOnFailure(job, pods)) {
				ctx.finished = newCondition('FailureTarget', 'True', 'BackoffLimitExceeded', 'Job has reached the specified backoff limit', now);
			} else if (this.pastActiveDeadline(job)) {
				ctx.finished = newCondition('FailureTarget', 'True', 'DeadlineExceeded', 'Job was active longer than specified deadline', now);
			} else if (spec.activeDeadlineSeconds !== undefined && !spec.suspend && status.startTime) {
				const left = spec.activeDeadlineSeconds * 1000 - (this.wallMs - timeMs(status.startTime));
				this.host.enqueueAfter(this.sub, key, Math.max(0, left), true);
			}
		}

		if (isIndexedJob(job)) {
			this.calculateIndexes(ctx);
			ctx.succeeded = intervalsTotal(ctx.succeededIndexes);
			if (hasBackoffLimitPerIndex(job) && !ctx.finished && ctx.failedIndexes) {
				const failedTotal = intervalsTotal(ctx.failedIndexes);
				if (spec.maxFailedIndexes !== undefined && failedTotal > spec.maxFailedIndexes) {
					ctx.finished = newCondition('FailureTarget', 'True', 'MaxFailedIndexesExceeded', 'Job has exceeded the specified maximal number of failed indexes', now);
				} else if (failedTotal > 0 && failedTotal + intervalsTotal(ctx.succeededIndexes) >= (spec.completions ?? 0)) {
					ctx.finished = newCondition('FailureTarget', 'True', 'FailedIndexes', 'Job has failed indexes', now);
				}
			}
			if (!ctx.finished) {
				const met = this.matchSuccessPolicy(job, ctx.succeededIndexes);
				if (met) ctx.finished = newCondition('SuccessCriteriaMet', 'True', 'SuccessPolicy', met, now);
			}
		}

		let suspendChanged = false;
		let manageError: string | undefined;
		if (ctx.finished) {
			// The Job is done one way or the other: its remaining Pods go (their finalizers are removed below).
			const { deleted, deletedReady, error } = this.deletePods(job, activePods, false);
			if (deleted !== active || !satisfied) ctx.finished = undefined;
			active -= deleted;
			ctx.terminating += deleted;
			ctx.ready -= deletedReady;
			manageError = error;
		} else {
			let manageCalled = false;
			if (satisfied && !job.metadata.deletionTimestamp) {
				const managed = this.manageJob(ctx);
				active = managed.active;
				manageError = managed.error;
				manageCalled = true;
			}
			const complete = spec.completions === undefined ? ctx.succeeded > 0 && active === 0 : ctx.succeeded >= spec.completions && active === 0;
			if (complete) {
				ctx.finished = newCondition('SuccessCriteriaMet', 'True', 'CompletionsReached', 'Reached expected number of succeeded pods', now);
			} else if (manageCalled) {
				const recorder = this.host.recorder(JOB_CONTROLLER);
				if (spec.suspend) {
					const r = ensureCondition(status.conditions ?? [], 'Suspended', 'True', 'JobSuspended', 'Job suspended', now);
					status.conditions = r.list;
					if (r.changed) {
						suspendChanged = true;
						recorder.record(job, 'Normal', 'Suspended', 'Job suspended');
					}
				} else {
					const r = ensureCondition(status.conditions ?? [], 'Suspended', 'False', 'JobResumed', 'Job resumed', now);
					status.conditions = r.list;
					if (r.changed) {
						suspendChanged = true;
						recorder.record(job, 'Normal', 'Resumed', 'Job resumed');
						// activeDeadlineSeconds counts the time the Job is continuously active.
						status.startTime = now;
					}
				}
			}
		}

		const needsUpdate = suspendChanged || active !== (status.active ?? 0) || ctx.ready !== status.ready || ctx.terminating !== status.terminating;
		status.active = active;
		status.ready = ctx.ready;
		status.terminating = ctx.terminating;
		const tracked = this.trackStatusAndRemoveFinalizers(ctx, needsUpdate);
		if (tracked !== undefined) return `tracking status: ${tracked}`;
		return manageError;
	}

	/** getPodsForJob: every Pod the Job owns or adopts (adoption adds the tracking finalizer in the same patch upstream; here the next sync sees it). */
	private podsForJob(job: Job): Pod[] | string {
		const selector = compileSelector(job.spec.selector);
		if (!selector.ok) return `couldn't convert Job selector: ${selector.error}`;
		const { namespace } = splitKey(keyOf(job));
		const all = this.host.listInNamespace<Pod>('pods', namespace);
		const claimed = claimObjects({ client: this.host.client, owner: job, ownerResource: R.jobs, childResource: R.pods, matches: (p) => selector.matches(p.metadata.labels) }, all);
		if (claimed.errors.length) return claimed.errors.join('; ');
		return claimed.claimed as Pod[];
	}

	/** getNewFinishedPods: finished Pods still carrying the finalizer and not yet in uncountedTerminatedPods. */
	private newFinishedPods(ctx: SyncCtx): { newSucceeded: Pod[]; newFailed: Pod[] } {
		const valid = (p: Pod, uncounted: Set<string>) => {
			const uid = p.metadata.uid ?? '';
			if (!hasJobTrackingFinalizer(p) || uncounted.has(uid) || ctx.expectedRm.has(uid)) return false;
			if (isIndexedJob(ctx.job)) {
				const ix = completionIndex(p);
				if (ix < 0 || ix >= (jobSpec(ctx.job).completions ?? 0)) return false;
			}
			return true;
		};
		return {
			newSucceeded: ctx.pods.filter((p) => valid(p, ctx.uncountedSucceeded) && p.status?.phase === 'Succeeded'),
			newFailed: ctx.pods.filter((p) => valid(p, ctx.uncountedFailed) && isPodFailed(p, ctx.job)),
		};
	}

	/** getFailJobMessage: the message of the first failed Pod a FailJob rule matches. */
	private failJobMessage(job: Job, pods: Pod[]): string | undefined {
		const policy = jobSpec(job).podFailurePolicy;
		if (!policy) return undefined;
		for (const pod of pods) {
			if (!isPodFailed(pod, job)) continue;
			const match = matchPodFailurePolicy(policy, pod);
			if (match.failJobMessage) return match.failJobMessage;
		}
		return undefined;
	}

	/** pastBackoffLimitOnFailure: with restartPolicy OnFailure, the container restarts of running and pending Pods. */
	private pastBackoffLimitOnFailure(job: Job, pods: Pod[]): boolean {
		if (job.spec.template.spec?.restartPolicy !== 'OnFailure') return false;
		let restarts = 0;
		for (const pod of pods) {
			if (pod.status?.phase !== 'Running' && pod.status?.phase !== 'Pending') continue;
			for (const s of [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])]) restarts += s.restartCount ?? 0;
		}
		const limit = jobSpec(job).backoffLimit ?? 6;
		return limit === 0 ? restarts > 0 : restarts >= limit;
	}

	/** pastActiveDeadline: never while suspended. */
	private pastActiveDeadline(job: Job): boolean {
		const ads = jobSpec(job).activeDeadlineSeconds;
		const start = jobStatus(job).startTime;
		if (ads === undefined || !start || jobSpec(job).suspend) return false;
		return this.wallMs - timeMs(start) >= ads * 1000;
	}

	/**
	 * calculateSucceededIndexes and calculateFailedIndexes: the indexes in
	 * completedIndexes plus those of newly succeeded Pods; with
	 * backoffLimitPerIndex, the indexes whose last failure exhausted their
	 * budget (or matched a FailIndex rule).
	 */
	private calculateIndexes(ctx: SyncCtx): void {
		const job = ctx.job;
		const completions = jobSpec(job).completions ?? 0;
		const status = jobStatus(job);
		ctx.prevSucceededIndexes = parseIntervals(status.completedIndexes, completions);
		const fresh: number[] = [];
		for (const p of ctx.pods) {
			const ix = completionIndex(p);
			if (p.status?.phase === 'Succeeded' && ix >= 0 && ix < completions && hasJobTrackingFinalizer(p) && !ctx.expectedRm.has(p.metadata.uid ?? '')) fresh.push(ix);
		}
		ctx.succeededIndexes = withIndexes(ctx.prevSucceededIndexes, fresh);
		if (!hasBackoffLimitPerIndex(job)) return;
		const limit = jobSpec(job).backoffLimitPerIndex ?? 0;
		const failed: number[] = [];
		for (const p of ctx.pods) {
			const ix = completionIndex(p);
			if (ix < 0 || ix >= completions || !isPodFailed(p, job)) continue;
			const last = ctx.lastFailedPerIndex.get(ix);
			if (!last || podFinishedMs(p) >= podFinishedMs(last)) ctx.lastFailedPerIndex.set(ix, p);
		}
		for (const [ix, p] of ctx.lastFailedPerIndex) {
			if (intervalsHas(ctx.succeededIndexes, ix)) continue;
			const match = matchPodFailurePolicy(jobSpec(job).podFailurePolicy, p);
			const count = Number(p.metadata.annotations?.[JOB_INDEX_FAILURE_COUNT] ?? 0) + (match.countFailed ? 1 : 0);
			if (match.action === 'FailIndex' || count > limit) failed.push(ix);
		}
		ctx.failedIndexes = withIndexes(parseIntervals(status.failedIndexes, completions), failed);
	}

	/** matchSuccessPolicy: the first rule whose succeededIndexes and/or succeededCount are met. */
	private matchSuccessPolicy(job: Job, succeeded: Intervals): string | undefined {
		const policy = jobSpec(job).successPolicy;
		const completions = jobSpec(job).completions ?? 0;
		for (const rule of policy?.rules ?? []) {
			const wanted = rule.succeededIndexes !== undefined ? parseIntervals(rule.succeededIndexes, completions) : undefined;
			let have = intervalsTotal(succeeded);
			if (wanted) {
				const all = wanted.every(([a, b]) => {
					for (let i = a; i <= b; i++) if (!intervalsHas(succeeded, i)) return false;
					return true;
				});
				if (!all && rule.succeededCount === undefined) continue;
				have = 0;
				for (const [a, b] of wanted) for (let i = a; i <= b; i++) if (intervalsHas(succeeded, i)) have++;
			}
			if (rule.succeededCount === undefined || have >= rule.succeededCount) return 'Matched rules at index ' + (policy?.rules ?? []).indexOf(rule);
		}
		return undefined;
	}

	/** manageJob: deletes the surplus, or creates what is missing once the back-off has passed. */
	private manageJob(ctx: SyncCtx): { active: number; error?: string } {
		const job = ctx.job;
		const spec = jobSpec(job);
		const key = ctx.key;
		let active = ctx.activePods.length;
		const parallelism = spec.parallelism ?? 1;
		if (spec.suspend) {
			const victims = this.podsForRemoval(job, ctx.activePods, active);
			this.expectations.set(key, 0, victims.length);
			const { deleted, deletedReady, error } = this.deletePods(job, victims, true);
			ctx.terminating += deleted;
			ctx.ready -= deletedReady;
			return { active: active - deleted, error };
		}
		let wantActive: number;
		if (spec.completions === undefined) wantActive = ctx.succeeded > 0 ? active : parallelism;
		else wantActive = Math.max(0, Math.min(spec.completions - ctx.succeeded, parallelism));

		const victims = this.podsForRemoval(job, ctx.activePods, Math.max(0, active - wantActive)).slice(0, MAX_POD_CREATE_DELETE_PER_SYNC);
		if (victims.length > 0) {
			this.expectations.set(key, 0, victims.length);
			this.trace('manage', `jobs/${key}`, `too many pods running for job ${key}: deleting ${victims.length}, target ${wantActive}`);
			const { deleted, deletedReady, error } = this.deletePods(job, victims, true);
			ctx.terminating += deleted;
			ctx.ready -= deletedReady;
			return { active: active - deleted, error };
		}
		const terminating = onlyReplaceFailedPods(job) ? ctx.terminating : 0;
		let diff = wantActive - terminating - active;
		if (diff <= 0) return { active };
		if (!hasBackoffLimitPerIndex(job)) {
			const remaining = backoffRemainingMs(ctx.newBackoff.failuresAfterLastSuccess, ctx.newBackoff.lastFailureMs, this.wallMs);
			if (remaining > 0) {
				this.trace('backoff', `jobs/${key}`, `job ${key}: ${ctx.newBackoff.failuresAfterLastSuccess} failure(s) since the last success, creating pods again in ${Math.ceil(remaining / 1000)}s`);
				this.enqueueJob(key, Math.max(remaining, SYNC_JOB_BATCH_PERIOD_MS));
				return { active: 0 };
			}
		}
		diff = Math.min(diff, MAX_POD_CREATE_DELETE_PER_SYNC);
		let indexes: number[] = [];
		if (isIndexedJob(job)) {
			indexes = this.firstPendingIndexes(ctx, diff);
			if (hasBackoffLimitPerIndex(job)) {
				const now = this.wallMs;
				const ready: number[] = [];
				let soonest: number | undefined;
				for (const ix of indexes) {
					const last = ctx.lastFailedPerIndex.get(ix);
					const failures = last ? Number(last.metadata.annotations?.[JOB_INDEX_FAILURE_COUNT] ?? 0) + 1 : 0;
					const left = last ? backoffRemainingMs(failures, podFinishedMs(last), now) : 0;
					if (left === 0) ready.push(ix);
					else soonest = Math.min(soonest ?? left, left);
				}
				if (ready.length === 0 && soonest !== undefined) {
					this.enqueueJob(key, Math.max(soonest, SYNC_JOB_BATCH_PERIOD_MS));
					return { active: 0 };
				}
				indexes = ready;
			}
			diff = indexes.length;
			if (diff === 0) return { active };
		}
		this.expectations.set(key, diff, 0);
		const template = deepCopy(job.spec.template);
		if (isIndexedJob(job)) {
			addCompletionIndexEnv(template.spec?.containers);
			addCompletionIndexEnv(template.spec?.initContainers);
		}
		const meta = (template.metadata ??= {});
		if (!meta.finalizers?.includes(JOB_TRACKING_FINALIZER)) meta.finalizers = [...(meta.finalizers ?? []), JOB_TRACKING_FINALIZER];
		const recorder = this.host.recorder(JOB_CONTROLLER);
		let queue = [...indexes];
		let attempted = 0;
		let failed = 0;
		const result = slowStartBatch(
			diff,
			1,
			() => {
				attempted++;
				const pod = podFromTemplate(template, job, job.metadata.namespace);
				const ix = queue.length ? queue[0] : -1;
				queue = queue.slice(1);
				if (ix >= 0) {
					pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [JOB_COMPLETION_INDEX]: String(ix) };
					pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [JOB_COMPLETION_INDEX]: String(ix) };
					pod.spec.hostname = `${job.metadata.name}-${ix}`;
					pod.metadata.generateName = `${job.metadata.name}-${ix}-`;
					if (hasBackoffLimitPerIndex(job)) this.addIndexFailureCounts(pod, job, ctx.lastFailedPerIndex.get(ix));
				}
				const created = this.host.client.create<Pod>(R.pods, job.metadata.namespace, pod);
				if (created.ok) {
					recorder.record(job, 'Normal', 'SuccessfulCreate', `Created pod: ${created.object.metadata.name}`);
					return undefined;
				}
				if (isNamespaceTerminating(created)) return undefined;
				this.expectations.creationObserved(key);
				failed++;
				recorder.record(job, 'Warning', 'FailedCreate', `Error creating: ${created.message}`);
				return created.message;
			},
			(size) => this.trace('slow-start', `jobs/${key}`, `creating a batch of ${size} pod${size === 1 ? '' : 's'} (want ${wantActive} active, have ${active})`),
		);
		// Pods never attempted (after a failed batch) are not expected; the next sync tries again.
		for (let i = attempted; i < diff; i++) this.expectations.creationObserved(key);
		active += attempted - failed;
		return { active, error: result.error };
	}

	/** addIndexFailureCountAnnotation: the replacement carries the index's failure counts so far. */
	private addIndexFailureCounts(pod: Pod, job: Job, lastFailed: Pod | undefined): void {
		let failures = 0;
		let ignored = 0;
		if (lastFailed) {
			failures = Number(lastFailed.metadata.annotations?.[JOB_INDEX_FAILURE_COUNT] ?? 0);
			ignored = Number(lastFailed.metadata.annotations?.[JOB_INDEX_IGNORED_FAILURE_COUNT] ?? 0);
			if (matchPodFailurePolicy(jobSpec(job).podFailurePolicy, lastFailed).countFailed) failures++;
			else ignored++;
		}
		pod.metadata.annotations = { ...(pod.metadata.annotations ?? {}), [JOB_INDEX_FAILURE_COUNT]: String(failures) };
		if (ignored > 0) pod.metadata.annotations[JOB_INDEX_IGNORED_FAILURE_COUNT] = String(ignored);
	}

	/** firstPendingIndexes: the lowest indexes with neither a success nor an active Pod (nor, per index, a failure). */
	private firstPendingIndexes(ctx: SyncCtx, count: number): number[] {
		const completions = jobSpec(ctx.job).completions ?? 0;
		const busy = new Set(ctx.activePods.map(completionIndex));
		const out: number[] = [];
		for (let ix = 0; ix < completions && out.length < count; ix++) {
			if (intervalsHas(ctx.succeededIndexes, ix) || busy.has(ix)) continue;
			if (ctx.failedIndexes && intervalsHas(ctx.failedIndexes, ix)) continue;
			out.push(ix);
		}
		return out;
	}

	/**
	 * activePodsForRemoval: for an Indexed Job first the Pods with a
	 * repeated, succeeded or invalid index; then, to remove at least
	 * `atLeast`, the least advanced Pods first (controller.ActivePods).
	 */
	private podsForRemoval(job: Job, pods: Pod[], atLeast: number): Pod[] {
		let rm: Pod[] = [];
		let left: Pod[] = pods;
		if (isIndexedJob(job)) {
			const completions = jobSpec(job).completions ?? 0;
			const seen = new Set<number>();
			left = [];
			const sorted = [...pods].sort((a, b) => completionIndex(a) - completionIndex(b));
			for (const p of sorted) {
				const ix = completionIndex(p);
				if (ix < 0 || ix >= completions || seen.has(ix)) rm.push(p);
				else {
					seen.add(ix);
					left.push(p);
				}
			}
		}
		if (rm.length < atLeast) {
			const now = this.wallMs;
			const ordered = [...left].sort((a, b) => (deletePodFirst(a, 0, b, 0, now) ? -1 : deletePodFirst(b, 0, a, 0, now) ? 1 : 0));
			rm = [...rm, ...ordered.slice(0, atLeast - rm.length)];
		}
		return rm;
	}

	/**
	 * deleteJobPods (removeFinalizer: suspension and surplus, the finalizer
	 * goes first) or deleteActivePods (the Job is ending: finalizers stay,
	 * so the Pods are counted).
	 */
	private deletePods(job: Job, pods: Pod[], removeFinalizer: boolean): { deleted: number; deletedReady: number; error?: string } {
		const recorder = this.host.recorder(JOB_CONTROLLER);
		let deleted = 0;
		let deletedReady = 0;
		let error: string | undefined;
		for (const pod of pods) {
			const name = pod.metadata.name ?? '';
			if (removeFinalizer && hasJobTrackingFinalizer(pod)) {
				const patched = this.host.client.patch(R.pods, pod.metadata.namespace, name, { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } });
				if (!patched.ok) {
					this.expectations.anyDeletionObserved(keyOf(job));
					if (patched.code !== 404) error ??= `removing completion finalizer: ${patched.message}`;
					continue;
				}
			}
			const result = this.host.client.delete(R.pods, pod.metadata.namespace, name);
			if (result.ok) {
				recorder.record(job, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
				deleted++;
			} else if (result.code === 404) deleted++;
			else {
				if (removeFinalizer) this.expectations.anyDeletionObserved(keyOf(job));
				recorder.record(job, 'Warning', 'FailedDelete', `Error deleting: ${result.message}`);
				error ??= result.message;
			}
			if (isPodReady(pod)) deletedReady++;
		}
		return { deleted, deletedReady, error };
	}

	/**
	 * trackJobStatusAndRemoveFinalizers: finished Pods go into
	 * uncountedTerminatedPods (flushed), lose their finalizer, then move to
	 * the counters; the terminal condition is set once nothing is uncounted
	 * or terminating.
	 */
	private trackStatusAndRemoveFinalizers(ctx: SyncCtx, needsFlushIn: boolean): string | undefined {
		let needsFlush = needsFlushIn;
		let job = ctx.job;
		const status = jobStatus(job);
		const uncounted = (status.uncountedTerminatedPods ??= {});
		const indexed = isIndexedJob(job);
		const completions = jobSpec(job).completions ?? 0;
		const pods = indexed ? [...ctx.pods].sort((a, b) => completionIndex(a) - completionIndex(b)) : ctx.pods;
		const withFinalizer = new Set(pods.filter((p) => hasJobTrackingFinalizer(p) && !ctx.expectedRm.has(p.metadata.uid ?? '')).map((p) => p.metadata.uid ?? ''));
		if (cleanUncounted(status, withFinalizer)) needsFlush = true;
		const toRemove: Pod[] = [];
		const newSucceededIndexes: number[] = [];
		let reachedMax = false;
		for (const pod of pods) {
			const uid = pod.metadata.uid ?? '';
			if (!hasJobTrackingFinalizer(pod) || ctx.expectedRm.has(uid)) continue;
			const failed = isPodFailed(pod, job);
			// canRemoveFinalizer (a failed Pod's finalizer waits for its replacement only with backoffLimitPerIndex, not modelled).
			if (!(job.metadata.deletionTimestamp || ctx.finished || pod.status?.phase === 'Succeeded' || failed)) continue;
			toRemove.push(pod);
			if (pod.status?.phase === 'Succeeded' && !ctx.uncountedFailed.has(uid)) {
				if (indexed) {
					const ix = completionIndex(pod);
					if (ix >= 0 && ix < completions && !intervalsHas(ctx.prevSucceededIndexes, ix)) {
						newSucceededIndexes.push(ix);
						needsFlush = true;
					}
				} else if (!ctx.uncountedSucceeded.has(uid)) {
					needsFlush = true;
					uncounted.succeeded = [...(uncounted.succeeded ?? []), uid];
				}
			} else if (failed || (ctx.finished && ctx.finished.type !== 'SuccessCriteriaMet')) {
				// Once the Job is failing, every Pod that did not succeed counts as failed.
				const ix = completionIndex(pod);
				if (!ctx.uncountedFailed.has(uid) && (!indexed || (ix >= 0 && ix < completions))) {
					if (matchPodFailurePolicy(jobSpec(job).podFailurePolicy, pod).countFailed) {
						needsFlush = true;
						uncounted.failed = [...(uncounted.failed ?? []), uid];
					}
				}
			}
			if (newSucceededIndexes.length + (uncounted.succeeded?.length ?? 0) + (uncounted.failed?.length ?? 0) >= MAX_UNCOUNTED_PODS) {
				reachedMax = true;
				break;
			}
		}
		if (indexed) {
			ctx.succeededIndexes = withIndexes(ctx.succeededIndexes, newSucceededIndexes);
			const text = intervalsText(ctx.succeededIndexes);
			if (text !== (status.completedIndexes ?? '')) needsFlush = true;
			status.succeeded = intervalsTotal(ctx.succeededIndexes);
			status.completedIndexes = text;
			const failedText = ctx.failedIndexes ? intervalsText(ctx.failedIndexes) : undefined;
			if (failedText !== status.failedIndexes) {
				status.failedIndexes = failedText;
				needsFlush = true;
			}
		}
		const now = this.nowRfc3339();
		if (ctx.finished?.type === 'FailureTarget') {
			// The interim condition is written before the Pods' finalizers go; Failed follows.
			status.conditions = [...(status.conditions ?? []), ctx.finished];
			needsFlush = true;
			ctx.finished = newCondition('Failed', 'True', ctx.finished.reason ?? '', ctx.finished.message ?? '', now);
		}
		if (ctx.finished?.type === 'SuccessCriteriaMet') {
			if (!findCondition(job, 'SuccessCriteriaMet')) {
				status.conditions = [...(status.conditions ?? []), ctx.finished];
				needsFlush = true;
			}
			ctx.finished = newCondition('Complete', 'True', ctx.finished.reason ?? '', ctx.finished.message ?? '', now);
		}
		// flushUncountedAndRemoveFinalizers.
		if (needsFlush) {
			const written = this.writeStatus(job);
			if (typeof written === 'string') return `adding uncounted pods to status: ${written}`;
			job = ctx.job = written;
			this.state.backoff[ctx.key] = ctx.newBackoff;
			needsFlush = false;
		}
		let rmError: string | undefined;
		if (toRemove.length) {
			const expected = (this.state.rmFinalizers[ctx.key] ??= []);
			for (const p of toRemove) if (!expected.includes(p.metadata.uid ?? '')) expected.push(p.metadata.uid ?? '');
			for (const pod of toRemove) {
				const patched = this.host.client.patch(R.pods, pod.metadata.namespace, pod.metadata.name ?? '', { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } });
				if (patched.ok || patched.code === 404) {
					withFinalizer.delete(pod.metadata.uid ?? '');
					if (!patched.ok) this.finalizerRemovalObserved(ctx.key, pod.metadata.uid ?? '');
				} else {
					this.finalizerRemovalObserved(ctx.key, pod.metadata.uid ?? '');
					rmError ??= `removing tracking finalizer: ${patched.message}`;
				}
			}
		}
		const current = jobStatus(job);
		if (cleanUncounted(current, withFinalizer)) needsFlush = true;
		if (rmError !== undefined) {
			if (needsFlush) {
				const written = this.writeStatus(job);
				if (typeof written === 'string') return `removing uncounted pods from status: ${written}`;
			}
			return rmError;
		}
		const finished = !reachedMax && this.enactJobFinished(ctx, job);
		if (finished) needsFlush = true;
		if (needsFlush) {
			const written = this.writeStatus(job);
			if (typeof written === 'string') return `removing uncounted pods from status: ${written}`;
			if (finished && ctx.finished) this.recordJobFinished(written, ctx.finished);
		}
		return undefined;
	}

	/** enactJobFinished: the Complete or Failed condition, once nothing is uncounted or terminating. */
	private enactJobFinished(ctx: SyncCtx, job: Job): boolean {
		const finished = ctx.finished;
		if (!finished) return false;
		const status = jobStatus(job);
		const uncounted = (status.uncountedTerminatedPods?.succeeded?.length ?? 0) + (status.uncountedTerminatedPods?.failed?.length ?? 0);
		if (uncounted > 0) return false;
		if (ctx.terminating > 0) {
			this.trace('finish', `jobs/${ctx.key}`, `delaying marking job ${ctx.key} ${finished.type}: ${ctx.terminating} pod(s) still terminating`);
			return false;
		}
		const now = this.nowRfc3339();
		status.conditions = ensureCondition(status.conditions ?? [], finished.type, finished.status, finished.reason ?? '', finished.message ?? '', now).list;
		if (finished.type === 'Complete') status.completionTime = status.conditions.find((c) => c.type === 'Complete')?.lastTransitionTime ?? now;
		job.status = status as Job['status'];
		return true;
	}

	/** recordJobFinished: the event of the ending. */
	private recordJobFinished(job: Job, finished: JobCondition): void {
		const recorder = this.host.recorder(JOB_CONTROLLER);
		const spec = jobSpec(job);
		if (finished.type === 'Complete') {
			if (spec.completions !== undefined && (jobStatus(job).succeeded ?? 0) > spec.completions) recorder.record(job, 'Warning', 'TooManySucceededPods', 'Too many succeeded pods running after completion count reached');
			recorder.record(job, 'Normal', 'Completed', 'Job completed');
			this.trace('finish', `jobs/${keyOf(job)}`, `job ${keyOf(job)} completed`);
		} else {
			recorder.record(job, 'Warning', finished.reason ?? '', finished.message ?? '');
			this.trace('finish', `jobs/${keyOf(job)}`, `job ${keyOf(job)} failed: ${finished.reason}`);
		}
	}

	/** updateJobStatus: the status as batch/v1 serializes it. */
	private writeStatus(job: Job): Job | string {
		const body = { ...deepCopy(job), status: normalizeStatus(jobStatus(job)) } as Job;
		const written = this.host.client.updateStatus<Job>(R.jobs, body);
		if (!written.ok) return written.message;
		// Keep working on a copy (the answer is shared, and frozen).
		const next = deepCopy(written.object);
		next.status = { ...normalizeStatus(jobStatus(next)) } as Job['status'];
		return next;
	}

	/** syncOrphanPod: a Pod whose Job is gone or finished loses the tracking finalizer. */
	private syncOrphanPod(podKey: string): SyncError {
		const pod = this.host.informer('pods').get(podKey) as Pod | undefined;
		if (!pod || !hasJobTrackingFinalizer(pod)) return undefined;
		const ref = controllerOf(pod);
		if (ref) {
			if (ref.kind !== 'Job' || ref.apiVersion !== 'batch/v1') return undefined;
			const job = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (job && !isJobFinished(job)) return undefined;
		}
		const patched = this.host.client.patch(R.pods, pod.metadata.namespace, pod.metadata.name ?? '', { metadata: { [`$deleteFromPrimitiveList/finalizers`]: [JOB_TRACKING_FINALIZER] } });
		if (!patched.ok && patched.code !== 404) return patched.message;
		this.trace('orphan', `pods/${podKey}`, `removed the job tracking finalizer from orphan pod ${podKey}`);
		return undefined;
	}
}

/** cleanUncountedPodsWithoutFinalizers: UIDs whose finalizer is gone move from the uncounted lists to the counters. */
function cleanUncounted(status: JobStatus, withFinalizer: Set<string>): boolean {
	let updated = false;
	const u = (status.uncountedTerminatedPods ??= {});
	const keepS = (u.succeeded ?? []).filter((uid) => withFinalizer.has(uid));
	if (keepS.length !== (u.succeeded ?? []).length) {
		status.succeeded = (status.succeeded ?? 0) + (u.succeeded ?? []).length - keepS.length;
		u.succeeded = keepS;
		updated = true;
	}
	const keepF = (u.failed ?? []).filter((uid) => withFinalizer.has(uid));
	if (keepF.length !== (u.failed ?? []).length) {
		status.failed = (status.failed ?? 0) + (u.failed ?? []).length - keepF.length;
		u.failed = keepF;
		updated = true;
	}
	return updated;
}
