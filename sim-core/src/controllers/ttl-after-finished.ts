/**
 * The TTL-after-finished controller: deletes a finished Job
 * `ttlSecondsAfterFinished` seconds after its Complete or Failed condition
 * turned True, in the foreground (the garbage collector deletes its Pods
 * first, then the Job). Before deleting it reads the Job afresh and checks
 * again, and deletes only that version (UID and resourceVersion
 * preconditions): a TTL changed meanwhile is honoured. It records no
 * events; it requeues each Job for the moment it expires.
 *
 * Mirrors pkg/controller/ttlafterfinished/ttlafterfinished_controller.go
 * (processJob, processTTL, timeLeft, jobFinishTime).
 */
import type { Job, KubeObject } from '../api/types.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { jobFinishTime, jobSpec } from './job/job-utils.ts';
import { splitKey } from './pod-util.ts';

const TTL_AFTER_FINISHED_CONTROLLER = 'ttl-after-finished-controller';

/** needsCleanup: a TTL and a finished condition. */
function needsCleanup(job: Job): boolean {
	return jobSpec(job).ttlSecondsAfterFinished !== undefined && jobFinishTime(job) !== undefined;
}

export class TtlAfterFinishedController extends ControllerBase<Record<string, never>> {
	readonly name = TTL_AFTER_FINISHED_CONTROLLER;
	readonly sub = 'ttl-after-finished';
	readonly resources = ['jobs'] as const;
	/** --concurrent-ttl-after-finished-syncs default 5. */
	override readonly workers = 5;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (!obj.metadata.deletionTimestamp && needsCleanup(obj as Job)) this.enqueue(keyOf(obj));
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		this.onAdd(resource, obj);
	}

	/** timeLeft: until finish + TTL (negative when past). */
	private timeLeftMs(job: Job): number | undefined {
		const finished = jobFinishTime(job);
		const ttl = jobSpec(job).ttlSecondsAfterFinished;
		if (!finished || ttl === undefined) return undefined;
		return finished.atMs + ttl * 1000 - this.wallMs;
	}

	sync(key: string): SyncError {
		const cached = this.host.informer('jobs').get(key) as Job | undefined;
		if (!cached || cached.metadata.deletionTimestamp || !needsCleanup(cached)) return undefined;
		const left = this.timeLeftMs(cached);
		if (left === undefined) return undefined;
		if (left > 0) {
			this.host.enqueueAfter(this.sub, key, left);
			return undefined;
		}
		// The TTL may have changed since the cache saw the Job: read it again and decide on the fresh copy.
		const { namespace, name } = splitKey(key);
		const fresh = this.host.client.get<Job>(R.jobs, namespace, name);
		if (!fresh.ok) return fresh.code === 404 ? undefined : fresh.message;
		const job = fresh.object;
		if (job.metadata.deletionTimestamp || !needsCleanup(job)) return undefined;
		const freshLeft = this.timeLeftMs(job) ?? 0;
		if (freshLeft > 0) {
			this.host.enqueueAfter(this.sub, key, freshLeft);
			return undefined;
		}
		this.trace('delete', `jobs/${key}`, `cleaning up job ${key}: finished ${jobSpec(job).ttlSecondsAfterFinished}s ago or more`);
		const deleted = this.host.client.delete(R.jobs, namespace, name, { propagationPolicy: 'Foreground', preconditions: { uid: job.metadata.uid, resourceVersion: job.metadata.resourceVersion } });
		if (!deleted.ok && deleted.code !== 404 && deleted.code !== 409) return deleted.message;
		return undefined;
	}
}
