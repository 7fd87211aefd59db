/**
 * CronJobs through the whole cluster
 * (createCluster, kubectl), as kubernetes.io's CronJob task runs them: the
 * `hello` CronJob makes one Job per virtual minute, named after the
 * scheduled minute, keeps three successful Jobs, and its Pods say hello;
 * Forbid holds a minute back while a Job runs; an hourly CronJob costs
 * nothing between its hours.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';
import { parseRfc3339 } from '../../golang/time.ts';

const HELLO = `apiVersion: batch/v1
kind: CronJob
metadata:
  name: hello
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          containers:
          - name: hello
            image: busybox:1.28
            imagePullPolicy: IfNotPresent
            command:
            - /bin/sh
            - -c
            - date; echo Hello from the Kubernetes cluster
          restartPolicy: OnFailure
`;

const minutes = (rfc3339: string) => Math.floor(parseRfc3339(rfc3339) / 60_000);

describe('the CronJob controller in a cluster', () => {
	it("runs kubernetes.io's hello CronJob once a virtual minute and keeps three successful Jobs", () => {
		const c = createCluster({ seed: 7 });
		c.writeFile('cronjob.yaml', HELLO);
		expect(c.exec('kubectl apply -f cronjob.yaml').stdout).toBe('cronjob.batch/hello created\n');
		expect(c.exec('kubectl get cronjob hello').stdout).toBe('NAME    SCHEDULE    TIMEZONE   SUSPEND   ACTIVE   LAST SCHEDULE   AGE\nhello   * * * * *   <none>     False     0        <none>          0s\n');
		const created = JSON.parse(c.exec('kubectl get cronjob hello -o json').stdout) as { metadata: { creationTimestamp: string }; spec: Record<string, unknown> };
		expect(created.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
		const firstMinute = minutes(created.metadata.creationTimestamp) + 1;
		c.advance('5m');
		const jobs = JSON.parse(c.exec('kubectl get jobs -o json').stdout) as { items: Array<{ metadata: { name: string; annotations: Record<string, string> }; status: { succeeded?: number } }> };
		// Five minutes: five Jobs, the two oldest pruned.
		expect(jobs.items.map((j) => j.metadata.name)).toEqual([2, 3, 4].map((i) => `hello-${firstMinute + i}`));
		for (const job of jobs.items) {
			expect(minutes(job.metadata.annotations['batch.kubernetes.io/cronjob-scheduled-timestamp'])).toBe(Number(job.metadata.name.split('-')[1]));
			expect(job.status.succeeded).toBe(1);
		}
		const pods = c.exec('kubectl get pods -o name').stdout.trim().split('\n');
		expect(pods).toHaveLength(3);
		expect(c.exec(`kubectl logs ${pods[2]}`).stdout).toMatch(/^\w{3} \w{3} [ \d]\d \d\d:\d\d:0\d UTC 2026\nHello from the Kubernetes cluster\n$/);
		const describe = c.exec('kubectl describe cronjob hello').stdout;
		expect(describe).toContain(`Created job hello-${firstMinute}\n`);
		expect(describe).toContain(`Saw completed job: hello-${firstMinute}, status: Complete\n`);
		expect(describe).toContain(`Deleted job hello-${firstMinute}\n`);
		expect(c.exec('kubectl get cronjob hello').stdout).toMatch(/\nhello +\* \* \* \* \* +<none> +False +0 +\d+s +5m\d*s?\n$/);
	});

	it('wakes only at schedule times: a quiet hour of an hourly CronJob costs a few controller steps', () => {
		const c = createCluster({ seed: 5 });
		c.exec('kubectl create cronjob tick --image=busybox:1.28 --schedule=@hourly -- echo tick');
		c.advance('2m');
		const afterSeq = c.trace().at(-1)?.seq ?? 0;
		c.advance('50m');
		expect(c.trace({ afterSeq }).filter((e) => e.sub === 'cronjob')).toEqual([]);
		expect(c.exec('kubectl get jobs').stderr).toBe('No resources found in default namespace.\n');
		// Fifty simulated minutes of a whole cluster: more than the default 5 s bound on a loaded 2-core machine.
	}, 60_000);

	it('under concurrencyPolicy Forbid, starts a missed time only once the running Job is done, and says why it waits', () => {
		const c = createCluster({ seed: 9 });
		c.writeFile('slow.yaml', HELLO.replace('name: hello\nspec:', 'name: slow\nspec:\n  concurrencyPolicy: Forbid').replace('date; echo Hello from the Kubernetes cluster', 'sleep 90'));
		c.exec('kubectl apply -f slow.yaml');
		c.advance('3m');
		const jobs = (JSON.parse(c.exec('kubectl get jobs -o json').stdout) as { items: Array<{ metadata: { name: string; creationTimestamp: string } }> }).items;
		expect(jobs).toHaveLength(2);
		const [a, b] = jobs.map((j) => Number(j.metadata.name.split('-').at(-1)));
		// The minute after the first is skipped while it sleeps; without startingDeadlineSeconds it is started late, when the first ends.
		expect(b - a).toBe(1);
		const lateBySeconds = (parseRfc3339(jobs[1].metadata.creationTimestamp) - b * 60_000) / 1000;
		expect(lateBySeconds).toBeGreaterThan(25);
		expect(lateBySeconds).toBeLessThan(40);
		expect(c.exec('kubectl describe cronjob slow').stdout).toMatch(/Normal +JobAlreadyActive +32s \(x2 over 92s\) +cronjob-controller +Not starting job because prior execution is running and concurrency policy is Forbid\n/);
	});

	it('creates a Job from a CronJob on demand (kubectl create job --from=cronjob/NAME)', () => {
		const c = createCluster({ seed: 4 });
		c.writeFile('cronjob.yaml', HELLO.replace('"* * * * *"', '"0 3 * * *"'));
		c.exec('kubectl apply -f cronjob.yaml');
		expect(c.exec('kubectl create job manual --from=cronjob/hello').stdout).toBe('job.batch/manual created\n');
		expect(c.exec('kubectl wait --for=condition=complete job/manual --timeout=60s').stdout).toBe('job.batch/manual condition met\n');
		expect(c.exec('kubectl get job manual -o jsonpath={.metadata.annotations}').stdout).toBe('{"cronjob.kubernetes.io/instantiate":"manual"}');
	});
});
