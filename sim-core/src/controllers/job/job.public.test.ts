/**
 * Jobs through the whole cluster (createCluster, kubectl), as a reader meets
 * them on kubernetes.io's Job page: the pi Job runs its Pod for a realistic
 * time (the perl image's pull, then about ten seconds of arithmetic) and
 * `kubectl logs jobs/pi` prints π to 2000 digits; a failing Job's Pods are
 * replaced 10 s, then 20 s after each failure and the Job fails with
 * BackoffLimitExceeded; the same seed gives the same trace.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';
import { bpi } from '../../runtime/behaviour/perl.ts';
import { timeMs } from '../pod-util.ts';

const PI_JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: pi
spec:
  template:
    spec:
      containers:
      - name: pi
        image: perl:5.34.0
        command: ["perl",  "-Mbignum=bpi", "-wle", "print bpi(2000)"]
      restartPolicy: Never
  backoffLimit: 4
`;

const FAILING_JOB = `apiVersion: batch/v1
kind: Job
metadata:
  name: flaky
spec:
  backoffLimit: 2
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.28
        command: ["sh", "-c", "echo trying; exit 1"]
      restartPolicy: Never
`;

interface PodView {
	metadata: { name: string; creationTimestamp: string };
	status?: { containerStatuses?: Array<{ state?: { terminated?: { finishedAt?: string } } }> };
}

describe('the Job controller in a cluster', () => {
	it("runs kubernetes.io's pi Job: a pod, about half a minute with the image pull, π to 2000 digits in its log", () => {
		const c = createCluster({ seed: 7 });
		c.writeFile('job.yaml', PI_JOB);
		expect(c.exec('kubectl apply -f job.yaml').stdout).toBe('job.batch/pi created\n');
		c.advance('15s');
		expect(c.exec('kubectl get jobs').stdout).toBe('NAME   STATUS    COMPLETIONS   DURATION   AGE\npi     Running   0/1           15s        15s\n');
		const wait = c.exec('kubectl wait --for=condition=complete job/pi --timeout=60s');
		expect(wait.stdout).toBe('job.batch/pi condition met\n');
		const job = JSON.parse(c.exec('kubectl get job pi -o json').stdout) as { status: { startTime: string; completionTime: string; succeeded: number } };
		const durationMs = timeMs(job.status.completionTime) - timeMs(job.status.startTime);
		// 326 MB at the mirror's 20 MB/s, then 10 s of bignum arithmetic.
		expect(durationMs).toBeGreaterThanOrEqual(26_000);
		expect(durationMs).toBeLessThanOrEqual(32_000);
		expect(job.status.succeeded).toBe(1);
		expect(c.exec('kubectl logs jobs/pi').stdout).toBe(`${bpi(2000)}\n`);
		expect(c.exec('kubectl get jobs').stdout).toMatch(/^NAME {3}STATUS {5}COMPLETIONS {3}DURATION {3}AGE\npi {5}Complete {3}1\/1 {11}2\ds {8}\d+s\n$/);
		const describe = c.exec('kubectl describe job pi').stdout;
		expect(describe).toMatch(/Pods Statuses:\s+0 Active \(0 Ready\) \/ 1 Succeeded \/ 0 Failed\n/);
		expect(describe).toMatch(/\n {2}Normal +SuccessfulCreate +\d+s +job-controller +Created pod: pi-[a-z0-9]{5}\n {2}Normal +Completed +\d+s +job-controller +Job completed\n$/);
		expect(c.exec('kubectl get pods -l batch.kubernetes.io/job-name=pi').stdout).toMatch(/^NAME +READY +STATUS +RESTARTS +AGE\npi-[a-z0-9]{5} +0\/1 +Completed +0 +\d+s\n$/);
	});

	it('replaces a failing pod after 10 s, then 20 s, and fails the Job past backoffLimit', () => {
		const c = createCluster({ seed: 3 });
		c.writeFile('job.yaml', FAILING_JOB);
		c.exec('kubectl apply -f job.yaml');
		c.advance('2m');
		const pods = (JSON.parse(c.exec('kubectl get pods -l job-name=flaky -o json').stdout) as { items: PodView[] }).items.sort((a, b) => timeMs(a.metadata.creationTimestamp) - timeMs(b.metadata.creationTimestamp));
		expect(pods).toHaveLength(3);
		const finished = pods.map((p) => timeMs(p.status?.containerStatuses?.[0]?.state?.terminated?.finishedAt));
		const created = pods.map((p) => timeMs(p.metadata.creationTimestamp));
		// From a pod's failure to its replacement: the back-off, then up to a second for the batched sync and the kubelet's report.
		const gaps = [created[1] - finished[0], created[2] - finished[1]];
		expect(gaps[0]).toBeGreaterThanOrEqual(10_000);
		expect(gaps[0]).toBeLessThanOrEqual(13_000);
		expect(gaps[1]).toBeGreaterThanOrEqual(20_000);
		expect(gaps[1]).toBeLessThanOrEqual(23_000);
		// A failed Job has no completionTime: its DURATION keeps counting, as printJob does.
		expect(c.exec('kubectl get job flaky').stdout).toBe('NAME    STATUS   COMPLETIONS   DURATION   AGE\nflaky   Failed   0/1           2m         2m\n');
		const describe = c.exec('kubectl describe job flaky').stdout;
		expect(describe).toMatch(/\nPods Statuses: +0 Active \(0 Ready\) \/ 0 Succeeded \/ 3 Failed\n/);
		expect(describe).toMatch(/\n {2}Warning +BackoffLimitExceeded +89s +job-controller +Job has reached the specified backoff limit\n$/);
		expect(c.exec(`kubectl logs ${pods[2].metadata.name}`).stdout).toBe('trying\n');
	});

	it('is deterministic: the same seed and the same commands give the same trace', () => {
		const run = () => {
			const c = createCluster({ seed: 11 });
			c.writeFile('job.yaml', FAILING_JOB);
			c.exec('kubectl apply -f job.yaml');
			c.exec('kubectl create job once --image=busybox:1.28 -- echo done');
			c.advance('90s');
			return { fingerprint: c.fingerprint(), pods: c.exec('kubectl get pods -o name').stdout };
		};
		const a = run();
		expect(a.pods).toMatch(/pod\/once-[a-z0-9]{5}\n/);
		expect(run()).toEqual(a);
	});
});
