import { describe, it, expect } from 'vitest';
import type { Job, Pod } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { deepCopy } from '../../golang/json.ts';
import { createControllerHarness, type ControllerHarness } from '../../testing/controllers/harness.ts';
import { eventsFor, get, isReady, waitFor } from '../../testing/controllers/builders.ts';
import { timeMs } from '../pod-util.ts';
import { JOB_TRACKING_FINALIZER, type JobCondition, type JobStatus } from './job-utils.ts';

function job(name: string, spec: Record<string, unknown> = {}, restartPolicy = 'Never'): Job {
	return {
		apiVersion: 'batch/v1',
		kind: 'Job',
		metadata: { name, namespace: 'default' },
		spec: { template: { spec: { restartPolicy, containers: [{ name: 'main', image: 'busybox:1.28' }] } }, ...spec },
	} as Job;
}

const podsOf = (c: ControllerHarness, name: string) => c.list<Pod>(R.pods, 'default').filter((p) => p.metadata.labels?.['batch.kubernetes.io/job-name'] === name);
const live = (c: ControllerHarness, name: string) => podsOf(c, name).filter((p) => !p.metadata.deletionTimestamp && p.status?.phase !== 'Succeeded' && p.status?.phase !== 'Failed');
const jobNamed = (c: ControllerHarness, name: string) => get<Job>(c, R.jobs, 'default', name)!;
const statusOf = (c: ControllerHarness, name: string) => (jobNamed(c, name).status ?? {}) as JobStatus;
const conditionTypes = (c: ControllerHarness, name: string) => (statusOf(c, name).conditions ?? []).filter((x) => x.status === 'True').map((x) => x.type);

/** The kubelet's report of a finished pod: phase, a terminated container, Ready False. */
function finishPod(c: ControllerHarness, pod: Pod, exitCode: number, extraConditions: JobCondition[] = []): void {
	const fresh = deepCopy(get<Pod>(c, R.pods, 'default', pod.metadata.name ?? '')!);
	const at = formatRfc3339(c.kernel.wallMs());
	fresh.status = {
		...(fresh.status ?? {}),
		phase: exitCode === 0 ? 'Succeeded' : 'Failed',
		conditions: [
			{ type: 'Ready', status: 'False', reason: 'PodCompleted', lastProbeTime: null, lastTransitionTime: at },
			...extraConditions.map((x) => ({ type: x.type, status: x.status, lastProbeTime: null, lastTransitionTime: at })),
		],
		containerStatuses: [{ name: 'main', ready: false, restartCount: 0, image: 'busybox:1.28', imageID: '', state: { terminated: { exitCode, reason: exitCode === 0 ? 'Completed' : 'Error', finishedAt: at } } }],
	};
	const written = c.kubectl.updateStatus(R.pods, fresh);
	if (!written.ok) throw new Error(written.message);
}

function runningPods(c: ControllerHarness, name: string, n: number): Pod[] {
	waitFor(c, `${n} running pods of ${name}`, () => live(c, name).filter(isReady).length === n);
	return live(c, name);
}

describe('the Job controller', () => {
	it('runs one pod to completion, labelled, owned and tracked with a finalizer, then reports SuccessCriteriaMet and Complete', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.jobs, 'default', job('pi'));
		const [pod] = runningPods(c, 'pi', 1);
		const uid = jobNamed(c, 'pi').metadata.uid;
		expect(pod.metadata.name).toMatch(/^pi-[a-z0-9]{5}$/);
		expect(pod.metadata.labels).toEqual({ 'batch.kubernetes.io/controller-uid': uid, 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'job-name': 'pi' });
		expect(pod.metadata.finalizers).toEqual([JOB_TRACKING_FINALIZER]);
		expect(pod.metadata.ownerReferences).toEqual([{ apiVersion: 'batch/v1', kind: 'Job', name: 'pi', uid, controller: true, blockOwnerDeletion: true }]);
		waitFor(c, 'the ready count', () => statusOf(c, 'pi').ready === 1, 5_000);
		expect(statusOf(c, 'pi')).toMatchObject({ active: 1, ready: 1, terminating: 0, uncountedTerminatedPods: {} });
		expect(statusOf(c, 'pi').startTime).toBeDefined();

		finishPod(c, pod, 0);
		waitFor(c, 'the job to complete', () => conditionTypes(c, 'pi').includes('Complete'));
		const status = statusOf(c, 'pi');
		expect(status.conditions?.map((x) => [x.type, x.reason, x.message])).toEqual([
			['SuccessCriteriaMet', 'CompletionsReached', 'Reached expected number of succeeded pods'],
			['Complete', 'CompletionsReached', 'Reached expected number of succeeded pods'],
		]);
		expect(status).toMatchObject({ succeeded: 1, ready: 0, terminating: 0, uncountedTerminatedPods: {} });
		expect(status.active).toBeUndefined();
		expect(status.completionTime).toBe(status.conditions?.[1].lastTransitionTime);
		expect(get<Pod>(c, R.pods, 'default', pod.metadata.name ?? '')?.metadata.finalizers).toBeUndefined();
		expect(eventsFor(c, 'default', 'pi')).toEqual([`SuccessfulCreate: Created pod: ${pod.metadata.name}`, 'Completed: Job completed']);
	});

	it('keeps at most parallelism pods running and stops at the number of completions', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.jobs, 'default', job('batch', { completions: 5, parallelism: 2 }));
		let finished = 0;
		for (let round = 0; round < 10 && finished < 5; round++) {
			const running = runningPods(c, 'batch', Math.min(2, 5 - finished));
			expect(live(c, 'batch').length).toBeLessThanOrEqual(2);
			finishPod(c, running[0], 0);
			finished++;
			waitFor(c, 'the count', () => (statusOf(c, 'batch').succeeded ?? 0) === finished);
		}
		waitFor(c, 'completion', () => conditionTypes(c, 'batch').includes('Complete'));
		expect(podsOf(c, 'batch')).toHaveLength(5);
		expect(statusOf(c, 'batch').succeeded).toBe(5);
	});

	it('waits 10 s, then 20 s, then 40 s before replacing failed pods, and fails the Job past backoffLimit', () => {
		const c = createControllerHarness({ fakeNodes: { readyAfterMs: 500 } });
		c.kubectl.create(R.jobs, 'default', job('flaky', { backoffLimit: 2 }));
		const gapsMs: number[] = [];
		for (let attempt = 0; attempt < 3; attempt++) {
			const [pod] = runningPods(c, 'flaky', 1);
			finishPod(c, pod, 1);
			if (attempt === 2) break;
			const failedAt = c.kernel.wallMs();
			waitFor(c, 'a replacement', () => podsOf(c, 'flaky').length === attempt + 2, 120_000);
			const replacement = podsOf(c, 'flaky').find((p) => p.status?.phase !== 'Failed')!;
			gapsMs.push(timeMs(replacement.metadata.creationTimestamp) - failedAt);
		}
		// Measured from the container's finish time (whole seconds), so up to a second early; never late by more than a sync.
		expect(gapsMs.map((ms) => Math.floor((ms + 1000) / 10_000) * 10)).toEqual([10, 20]);
		expect(gapsMs.every((ms, i) => ms >= (10_000 << i) - 1000 && ms <= (10_000 << i) + 1000)).toBe(true);
		waitFor(c, 'the failure', () => conditionTypes(c, 'flaky').includes('Failed'));
		const status = statusOf(c, 'flaky');
		expect(status.failed).toBe(3);
		expect(status.conditions?.map((x) => [x.type, x.reason])).toEqual([
			['FailureTarget', 'BackoffLimitExceeded'],
			['Failed', 'BackoffLimitExceeded'],
		]);
		expect(eventsFor(c, 'default', 'flaky').at(-1)).toBe('BackoffLimitExceeded: Job has reached the specified backoff limit');
		c.advance(60_000);
		expect(podsOf(c, 'flaky')).toHaveLength(3);
	});

	it('ends a Job past activeDeadlineSeconds: FailureTarget while its pod terminates, then Failed with DeadlineExceeded', () => {
		const c = createControllerHarness({ fakeNodes: { terminateAfterMs: 3000 } });
		c.kubectl.create(R.jobs, 'default', job('slow', { activeDeadlineSeconds: 5 }));
		const [pod] = runningPods(c, 'slow', 1);
		waitFor(c, 'the interim condition', () => conditionTypes(c, 'slow').includes('FailureTarget'), 10_000);
		expect(conditionTypes(c, 'slow')).toEqual(['FailureTarget']);
		expect(get<Pod>(c, R.pods, 'default', pod.metadata.name ?? '')?.metadata.deletionTimestamp).toBeDefined();
		waitFor(c, 'the failure', () => conditionTypes(c, 'slow').includes('Failed'), 10_000);
		const failed = statusOf(c, 'slow').conditions!.find((x) => x.type === 'Failed')!;
		expect([failed.reason, failed.message]).toEqual(['DeadlineExceeded', 'Job was active longer than specified deadline']);
		expect(timeMs(failed.lastTransitionTime) - timeMs(statusOf(c, 'slow').startTime)).toBeGreaterThanOrEqual(8_000);
		expect(eventsFor(c, 'default', 'slow')).toEqual([
			`SuccessfulCreate: Created pod: ${pod.metadata.name}`,
			`SuccessfulDelete: Deleted pod: ${pod.metadata.name}`,
			'DeadlineExceeded: Job was active longer than specified deadline',
		]);
		expect(statusOf(c, 'slow').failed).toBe(1);
	});

	it('follows the pod failure policy: FailJob on an exit code ends the Job at once, Ignore does not count', () => {
		const c = createControllerHarness();
		const policy = {
			rules: [
				{ action: 'FailJob', onExitCodes: { containerName: 'main', operator: 'In', values: [42] } },
				{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] },
			],
		};
		c.kubectl.create(R.jobs, 'default', job('policy', { podFailurePolicy: policy, backoffLimit: 0 }));
		const [first] = runningPods(c, 'policy', 1);
		finishPod(c, first, 137, [{ type: 'DisruptionTarget', status: 'True' }]);
		// An ignored failure does not count toward backoffLimit, but it still delays the replacement (upstream PR #119434).
		c.advance(5_000);
		expect(live(c, 'policy')).toHaveLength(0);
		waitFor(c, 'a replacement after the back-off', () => live(c, 'policy').length === 1, 10_000);
		expect(statusOf(c, 'policy').failed ?? 0).toBe(0);
		expect(conditionTypes(c, 'policy')).toEqual([]);
		const [second] = runningPods(c, 'policy', 1);
		finishPod(c, second, 42);
		waitFor(c, 'the failure', () => conditionTypes(c, 'policy').includes('Failed'));
		const failed = statusOf(c, 'policy').conditions!.find((x) => x.type === 'Failed')!;
		expect(failed.reason).toBe('PodFailurePolicy');
		expect(failed.message).toBe(`Container main for pod default/${second.metadata.name} failed with exit code 42 matching FailJob rule at index 0`);
		expect(statusOf(c, 'policy').failed).toBe(1);
	});

	it('gives Indexed pods their index: name, annotation, label, hostname and JOB_COMPLETION_INDEX; completedIndexes as intervals', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.jobs, 'default', job('idx', { completions: 3, parallelism: 3, completionMode: 'Indexed' }));
		const pods = runningPods(c, 'idx', 3).sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
		pods.forEach((pod, i) => {
			expect(pod.metadata.name).toMatch(new RegExp(`^idx-${i}-[a-z0-9]{5}$`));
			expect(pod.metadata.annotations?.['batch.kubernetes.io/job-completion-index']).toBe(String(i));
			expect(pod.metadata.labels?.['batch.kubernetes.io/job-completion-index']).toBe(String(i));
			expect(pod.spec.hostname).toBe(`idx-${i}`);
			expect(pod.spec.containers[0].env).toEqual([{ name: 'JOB_COMPLETION_INDEX', valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } } }]);
		});
		finishPod(c, pods[0], 0);
		finishPod(c, pods[2], 0);
		waitFor(c, 'two indexes', () => statusOf(c, 'idx').completedIndexes === '0,2');
		finishPod(c, pods[1], 1);
		waitFor(c, 'index 1 again', () => live(c, 'idx').length === 1, 30_000);
		expect(live(c, 'idx')[0].metadata.name).toMatch(/^idx-1-/);
		finishPod(c, runningPods(c, 'idx', 1)[0], 0);
		waitFor(c, 'completion', () => conditionTypes(c, 'idx').includes('Complete'));
		expect(statusOf(c, 'idx')).toMatchObject({ completedIndexes: '0-2', succeeded: 3, failed: 1 });
	});

	it('deletes the pods of a suspended Job and says so; resuming restarts the clock', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.jobs, 'default', job('paused', { parallelism: 2, completions: 4 }));
		runningPods(c, 'paused', 2);
		const firstStart = statusOf(c, 'paused').startTime;
		expect(c.kubectl.patch(R.jobs, 'default', 'paused', { spec: { suspend: true } }).ok).toBe(true);
		waitFor(c, 'no pods', () => podsOf(c, 'paused').length === 0);
		expect(conditionTypes(c, 'paused')).toEqual(['Suspended']);
		expect(statusOf(c, 'paused').conditions?.[0]).toMatchObject({ reason: 'JobSuspended', message: 'Job suspended' });
		c.advance(5_000);
		expect(c.kubectl.patch(R.jobs, 'default', 'paused', { spec: { suspend: false } }).ok).toBe(true);
		runningPods(c, 'paused', 2);
		expect(statusOf(c, 'paused').conditions?.[0]).toMatchObject({ type: 'Suspended', status: 'False', reason: 'JobResumed', message: 'Job resumed' });
		expect(timeMs(statusOf(c, 'paused').startTime)).toBeGreaterThan(timeMs(firstStart));
		const events = eventsFor(c, 'default', 'paused');
		expect(events.filter((e) => e.startsWith('SuccessfulDelete'))).toHaveLength(2);
		expect(events).toContain('Suspended: Job suspended');
		expect(events).toContain('Resumed: Job resumed');
	});

	it('counts container restarts of OnFailure pods toward backoffLimit', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.jobs, 'default', job('restarts', { backoffLimit: 2 }, 'OnFailure'));
		const [pod] = runningPods(c, 'restarts', 1);
		const restarted = deepCopy(get<Pod>(c, R.pods, 'default', pod.metadata.name ?? '')!);
		restarted.status!.containerStatuses = [{ name: 'main', ready: true, restartCount: 2, image: 'busybox:1.28', imageID: '', state: { running: { startedAt: formatRfc3339(c.kernel.wallMs()) } } }];
		expect(c.kubectl.updateStatus(R.pods, restarted).ok).toBe(true);
		waitFor(c, 'the failure', () => conditionTypes(c, 'restarts').includes('Failed'));
		expect(statusOf(c, 'restarts').conditions?.find((x) => x.type === 'Failed')?.reason).toBe('BackoffLimitExceeded');
	});

	it('lets go of the pods of a deleted Job (their finalizer is removed)', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.jobs, 'default', job('gone'));
		const [pod] = runningPods(c, 'gone', 1);
		expect(c.kubectl.delete(R.jobs, 'default', 'gone', { propagationPolicy: 'Orphan' }).ok).toBe(true);
		waitFor(c, 'the finalizer to go', () => !get<Pod>(c, R.pods, 'default', pod.metadata.name ?? '')?.metadata.finalizers?.includes(JOB_TRACKING_FINALIZER));
	});
});
