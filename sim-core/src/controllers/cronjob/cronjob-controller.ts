/**
 * The CronJob controller (the v2 controller, the only one since v1.23):
 * creates a Job from `jobTemplate` at each time the schedule names, read
 * on the virtual wall clock in `spec.timeZone` (UTC by default). A Job is
 * named `<cronjob>-<scheduled time in minutes since the epoch>` (the name
 * is the lock: one Job per scheduled time) and carries the
 * `batch.kubernetes.io/cronjob-scheduled-timestamp` annotation.
 *
 * Each sync looks at the CronJob's Jobs (moving finished ones out of
 * `status.active`, with `SawCompletedJob`, and noting
 * `lastSuccessfulTime`), finds the most recent unmet schedule time since
 * the last one (or the creation; no earlier than `startingDeadlineSeconds`
 * ago), skips it if it is too late (`MissSchedule`), already done, or
 * forbidden by `concurrencyPolicy: Forbid` while a Job runs
 * (`JobAlreadyActive`); with `Replace` it first deletes the running Jobs.
 * It then prunes finished Jobs beyond `successfulJobsHistoryLimit` (3) and
 * `failedJobsHistoryLimit` (1), oldest first, and requeues itself for the
 * next schedule time plus 100 ms: no polling, one sync per schedule time
 * (plus those the Jobs' changes cause).
 *
 * Mirrors pkg/controller/cronjob/cronjob_controllerv2.go (sync,
 * syncCronJob, cleanupFinishedJobs, removeOldestJobs),
 * pkg/controller/cronjob/utils.go (mostRecentScheduleTime,
 * nextScheduleTimeDuration, getJobFromTemplate2, getTimeHashInMinutes).
 */
import type { Job, KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { nextCronTime, parseCronSchedule, type CronSchedule } from '../../golang/cron.ts';
import { deepCopy } from '../../golang/json.ts';
import { formatRfc1123z, formatRfc3339 } from '../../golang/time.ts';
import { formatRfc3339In, loadLocationError } from '../../golang/timezone.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';
import { canonicalJson } from '../hash.ts';
import { controllerOf, isNamespaceTerminating, keyFor, newControllerRef, timeMs } from '../pod-util.ts';
import { jobStatus, type JobCondition } from '../job/job-utils.ts';

const CRONJOB_CONTROLLER = 'cronjob-controller';

/** nextScheduleDelta: the requeue lands this long after the schedule time. */
const NEXT_SCHEDULE_DELTA_MS = 100;
/** mostRecentScheduleTime gives up reporting after this many missed start times. */
const TOO_MANY_MISSED = 100;
/** batchv1.CronJobScheduledTimestampAnnotation. */
export const CRONJOB_SCHEDULED_TIMESTAMP = 'batch.kubernetes.io/cronjob-scheduled-timestamp';

/** The batch/v1 CronJob fields the controller reads and writes. */
interface CronJob extends KubeObject {
	spec: {
		schedule: string;
		timeZone?: string;
		startingDeadlineSeconds?: number;
		concurrencyPolicy?: 'Allow' | 'Forbid' | 'Replace';
		suspend?: boolean;
		successfulJobsHistoryLimit?: number;
		failedJobsHistoryLimit?: number;
		jobTemplate: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec: Job['spec'] };
	};
	status?: { active?: ObjectReference[]; lastScheduleTime?: string; lastSuccessfulTime?: string };
}

interface ObjectReference {
	kind: string;
	namespace?: string;
	name: string;
	uid: string;
	apiVersion: string;
	resourceVersion?: string;
}

type CronJobStatus = NonNullable<CronJob['status']>;

/** getTimeHashInMinutes. */
export function jobNameFor(cronJobName: string, scheduledMs: number): string {
	return `${cronJobName}-${Math.floor(scheduledMs / 60_000)}`;
}

/** getFinishedStatus: Complete or Failed, when the Job has finished. */
function finishedType(job: Job): string | undefined {
	return (jobStatus(job).conditions ?? []).find((c: JobCondition) => (c.type === 'Complete' || c.type === 'Failed') && c.status === 'True')?.type;
}

/**
 * mostRecentScheduleTime: the latest schedule time in (earliest, now],
 * where earliest is the last schedule time (or the creation) and no
 * earlier than startingDeadlineSeconds ago; and how many were missed.
 */
export function mostRecentScheduleTime(schedule: CronSchedule, zone: string | undefined, earliestMs: number, nowMs: number): { timeMs: number | null; missed: number } {
	let t = nextCronTime(schedule, earliestMs, zone);
	if (t === null || t > nowMs) return { timeMs: null, missed: 0 };
	let missed = 1;
	for (let guard = 0; guard < 1_000_000; guard++) {
		const next = nextCronTime(schedule, t, zone);
		if (next === null || next > nowMs) break;
		t = next;
		missed++;
	}
	return { timeMs: t, missed };
}

export class CronJobController extends ControllerBase<Record<string, never>> {
	readonly name = CRONJOB_CONTROLLER;
	readonly sub = 'cronjob';
	readonly resources = ['cronjobs', 'jobs'] as const;
	/** --concurrent-cron-job-syncs default 5. */
	override readonly workers = 5;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'cronjobs') this.enqueue(keyOf(obj));
		else if (resource === 'jobs') this.enqueueOwner(obj);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'jobs') {
			this.enqueueOwner(newObj);
			if (canonicalJson(controllerOf(oldObj) ?? null) !== canonicalJson(controllerOf(newObj) ?? null)) this.enqueueOwner(oldObj);
			return;
		}
		if (resource !== 'cronjobs') return;
		const old = oldObj as CronJob;
		const cj = newObj as CronJob;
		// A new schedule or time zone: the next time changes (updateCronJob requeues at it).
		if (old.spec.schedule !== cj.spec.schedule || old.spec.timeZone !== cj.spec.timeZone) {
			const parsed = parseCronSchedule(cj.spec.schedule);
			if (parsed.ok) {
				const next = nextCronTime(parsed.schedule, this.wallMs, cj.spec.timeZone);
				if (next !== null) this.host.enqueueAfter(this.sub, keyOf(cj), next - this.wallMs + NEXT_SCHEDULE_DELTA_MS, true);
			}
			return;
		}
		this.enqueue(keyOf(cj));
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'jobs') this.enqueueOwner(obj);
	}

	private enqueueOwner(job: KubeObject): void {
		const ref = controllerOf(job);
		if (!ref || ref.kind !== 'CronJob') return;
		const cj = this.host.informer('cronjobs').get(keyFor(job.metadata.namespace, ref.name));
		if (cj && cj.metadata.uid === ref.uid) this.enqueue(keyOf(cj));
	}

	sync(key: string): SyncError {
		const cached = this.host.informer('cronjobs').get(key) as CronJob | undefined;
		if (!cached) return undefined;
		this.trace('reconcile', `cronjobs/${key}`, `syncing cronjob ${key}`);
		const cj = deepCopy(cached);
		cj.status = { ...(cj.status ?? {}) };
		const jobs = this.host.listInNamespace<Job>('jobs', cj.metadata.namespace).filter((j) => controllerOf(j)?.uid === cj.metadata.uid);
		const { requeueMs, updateStatus: fromSync, error } = this.syncCronJob(cj, jobs);
		let updateStatus = fromSync;
		if (this.cleanupFinishedJobs(cj, jobs)) updateStatus = true;
		if (updateStatus && canonicalJson(normalizeStatus(cj.status)) !== canonicalJson(normalizeStatus(cached.status))) {
			const written = this.host.client.updateStatus(R.cronjobs, { ...cj, status: normalizeStatus(cj.status) });
			if (!written.ok) return `unable to update status for ${key}: ${written.message}`;
		}
		if (requeueMs !== undefined) {
			this.trace('requeue', `cronjobs/${key}`, `next schedule time of ${key} in ${Math.round(requeueMs / 100) / 10}s`);
			this.host.enqueueAfter(this.sub, key, requeueMs, true);
		}
		return error;
	}

	/** nextScheduleTimeDuration: until the next schedule time after the most recent one (or now), plus 100 ms. */
	private nextDelay(cj: CronJob, schedule: CronSchedule, nowMs: number): number | undefined {
		const earliest = cj.status?.lastScheduleTime ? timeMs(cj.status.lastScheduleTime) : timeMs(cj.metadata.creationTimestamp);
		const recent = mostRecentScheduleTime(schedule, cj.spec.timeZone, earliest, nowMs).timeMs;
		const next = nextCronTime(schedule, recent ?? nowMs, cj.spec.timeZone);
		if (next === null) return undefined;
		return Math.max(0, next - nowMs) + NEXT_SCHEDULE_DELTA_MS;
	}

	private syncCronJob(cj: CronJob, jobs: Job[]): { requeueMs?: number; updateStatus: boolean; error?: string } {
		const now = this.wallMs;
		const recorder = this.host.recorder(CRONJOB_CONTROLLER);
		const status = cj.status as CronJobStatus;
		let updateStatus = false;
		const active = () => status.active ?? [];
		const inActive = (uid: string | undefined) => active().some((r) => r.uid === uid);
		const children = new Set<string>();
		for (const job of jobs) {
			children.add(job.metadata.uid ?? '');
			const finished = finishedType(job);
			const found = inActive(job.metadata.uid);
			if (!found && !finished) {
				recorder.record(cj, 'Warning', 'UnexpectedJob', `Saw a job that the controller did not create or forgot: ${job.metadata.name}`);
			} else if (found && finished) {
				status.active = active().filter((r) => r.uid !== job.metadata.uid);
				recorder.record(cj, 'Normal', 'SawCompletedJob', `Saw completed job: ${job.metadata.name}, status: ${finished}`);
				updateStatus = true;
			} else if (finished === 'Complete') {
				const done = jobStatus(job).completionTime;
				if (done && (!status.lastSuccessfulTime || timeMs(done) > timeMs(status.lastSuccessfulTime))) {
					status.lastSuccessfulTime = done;
					updateStatus = true;
				}
			}
		}
		for (const ref of active()) {
			if (children.has(ref.uid)) continue;
			// A fresh read: the Job informer may lag.
			const got = this.host.client.get(R.jobs, ref.namespace, ref.name);
			if (!got.ok && got.code === 404) {
				recorder.record(cj, 'Normal', 'MissingJob', `Active job went missing: ${ref.name}`);
				status.active = active().filter((r) => r.uid !== ref.uid);
				updateStatus = true;
			} else if (!got.ok) return { updateStatus, error: got.message };
		}
		if (cj.metadata.deletionTimestamp) return { updateStatus };
		if (cj.spec.timeZone !== undefined) {
			const zoneError = loadLocationError(cj.spec.timeZone);
			if (zoneError) {
				recorder.record(cj, 'Warning', 'UnknownTimeZone', `invalid timeZone: "${cj.spec.timeZone}": ${zoneError}`);
				return { updateStatus };
			}
		}
		if (cj.spec.suspend) {
			this.trace('suspended', `cronjobs/${keyOf(cj)}`, `not starting job because the cron is suspended`);
			return { updateStatus };
		}
		const parsed = parseCronSchedule(cj.spec.schedule);
		if (!parsed.ok) {
			recorder.record(cj, 'Warning', 'UnparseableSchedule', `unparseable schedule: "${cj.spec.schedule}" : ${parsed.error}`);
			return { updateStatus };
		}
		const schedule = parsed.schedule;
		let earliest = status.lastScheduleTime ? timeMs(status.lastScheduleTime) : timeMs(cj.metadata.creationTimestamp);
		if (cj.spec.startingDeadlineSeconds !== undefined) earliest = Math.max(earliest, now - cj.spec.startingDeadlineSeconds * 1000);
		const recent = mostRecentScheduleTime(schedule, cj.spec.timeZone, earliest, now);
		if (recent.missed > TOO_MANY_MISSED) {
			recorder.record(cj, 'Warning', 'TooManyMissedTimes', `too many missed start times: ${recent.missed}. Set or decrease .spec.startingDeadlineSeconds or check clock skew`);
		}
		const scheduled = recent.timeMs;
		const requeueMs = this.nextDelay(cj, schedule, now);
		if (scheduled === null) return { requeueMs, updateStatus };
		if (cj.spec.startingDeadlineSeconds !== undefined && scheduled + cj.spec.startingDeadlineSeconds * 1000 < now) {
			recorder.record(cj, 'Warning', 'MissSchedule', `Missed scheduled time to start a job: ${formatRfc1123z(scheduled)}`);
			return { requeueMs, updateStatus };
		}
		const name = jobNameFor(cj.metadata.name ?? '', scheduled);
		if (active().some((r) => r.name === name) || (status.lastScheduleTime && timeMs(status.lastScheduleTime) === scheduled)) {
			return { requeueMs, updateStatus };
		}
		if (cj.spec.concurrencyPolicy === 'Forbid' && active().length > 0) {
			recorder.record(cj, 'Normal', 'JobAlreadyActive', 'Not starting job because prior execution is running and concurrency policy is Forbid');
			return { requeueMs, updateStatus };
		}
		if (cj.spec.concurrencyPolicy === 'Replace') {
			for (const ref of active()) {
				if (!this.deleteJob(cj, ref.namespace, ref.name, ref.uid)) return { updateStatus, error: `could not replace job ${ref.namespace}/${ref.name}` };
				updateStatus = true;
			}
		}
		const created = this.host.client.create<Job>(R.jobs, cj.metadata.namespace, this.jobFromTemplate(cj, scheduled, name));
		let job: Job;
		if (created.ok) {
			job = created.object;
			recorder.record(cj, 'Normal', 'SuccessfulCreate', `Created job ${job.metadata.name}`);
			this.trace('create', `jobs/${keyFor(cj.metadata.namespace, name)}`, `created job ${name} for the schedule time ${formatRfc3339(scheduled)}`);
		} else if (isNamespaceTerminating(created)) {
			return { updateStatus, error: created.message };
		} else if (created.code === 409) {
			// Created before, but the status update was lost: add it to the active list again, if it is ours.
			const got = this.host.client.get<Job>(R.jobs, cj.metadata.namespace, name);
			if (!got.ok) return { updateStatus, error: got.message };
			job = got.object;
			if (controllerOf(job)?.uid !== cj.metadata.uid || inActive(job.metadata.uid)) return { updateStatus };
		} else {
			recorder.record(cj, 'Warning', 'FailedCreate', `Error creating job: ${created.message}`);
			return { updateStatus, error: created.message };
		}
		status.active = [...active(), { kind: 'Job', namespace: job.metadata.namespace, name: job.metadata.name ?? '', uid: job.metadata.uid ?? '', apiVersion: 'batch/v1', resourceVersion: job.metadata.resourceVersion }];
		status.lastScheduleTime = formatRfc3339(scheduled);
		return { requeueMs, updateStatus: true };
	}

	/** getJobFromTemplate2: the template's labels and annotations, the scheduled-timestamp annotation, a controller reference. */
	private jobFromTemplate(cj: CronJob, scheduledMs: number, name: string): Job {
		const template = cj.spec.jobTemplate;
		const annotations = { ...(template.metadata?.annotations ?? {}), [CRONJOB_SCHEDULED_TIMESTAMP]: formatRfc3339In(cj.spec.timeZone, scheduledMs) };
		const metadata: Job['metadata'] = { name, namespace: cj.metadata.namespace, annotations, ownerReferences: [newControllerRef(cj)] };
		if (template.metadata?.labels && Object.keys(template.metadata.labels).length) metadata.labels = { ...template.metadata.labels };
		return { apiVersion: 'batch/v1', kind: 'Job', metadata, spec: deepCopy(template.spec) };
	}

	/** deleteJob: a background deletion (the garbage collector takes the Pods), and out of the active list. */
	private deleteJob(cj: CronJob, namespace: string | undefined, name: string, uid: string | undefined): boolean {
		const recorder = this.host.recorder(CRONJOB_CONTROLLER);
		const deleted = this.host.client.delete(R.jobs, namespace, name, { propagationPolicy: 'Background' });
		if (!deleted.ok && deleted.code !== 404) {
			recorder.record(cj, 'Warning', 'FailedDelete', `Deleted job: ${deleted.message}`);
			return false;
		}
		const status = cj.status as CronJobStatus;
		status.active = (status.active ?? []).filter((r) => r.uid !== uid);
		recorder.record(cj, 'Normal', 'SuccessfulDelete', `Deleted job ${name}`);
		return true;
	}

	/** cleanupFinishedJobs and removeOldestJobs: the oldest finished Jobs beyond each history limit go (by start time). */
	private cleanupFinishedJobs(cj: CronJob, jobs: Job[]): boolean {
		const { successfulJobsHistoryLimit: okLimit, failedJobsHistoryLimit: failedLimit } = cj.spec;
		if (okLimit === undefined && failedLimit === undefined) return false;
		let updated = false;
		const byStart = (a: Job, b: Job) => {
			const sa = jobStatus(a).startTime;
			const sb = jobStatus(b).startTime;
			// byJobStartTime: a Job that never started sorts last; ties by name.
			if (!sa || !sb) return sa ? -1 : sb ? 1 : (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
			return timeMs(sa) - timeMs(sb) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? '');
		};
		for (const [type, limit] of [['Complete', okLimit], ['Failed', failedLimit]] as const) {
			if (limit === undefined) continue;
			const finished = jobs.filter((j) => finishedType(j) === type && !j.metadata.deletionTimestamp).sort(byStart);
			for (const job of finished.slice(0, Math.max(0, finished.length - limit))) {
				if (this.deleteJob(cj, job.metadata.namespace, job.metadata.name ?? '', job.metadata.uid)) updated = true;
			}
		}
		return updated;
	}
}

/** The status as batch/v1 serializes it (empty fields left out). */
function normalizeStatus(status: CronJob['status'] | undefined): CronJobStatus {
	const out: CronJobStatus = {};
	if (status?.active?.length) out.active = status.active;
	if (status?.lastScheduleTime) out.lastScheduleTime = status.lastScheduleTime;
	if (status?.lastSuccessfulTime) out.lastSuccessfulTime = status.lastSuccessfulTime;
	return out;
}
