/**
 * The TTL-after-finished controller through the whole cluster: a Job with
 * ttlSecondsAfterFinished is gone that long after it finished, its Pods
 * with it (a foreground deletion the garbage collector completes).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('the TTL-after-finished controller in a cluster', () => {
	it('deletes a finished Job ttlSecondsAfterFinished after it completed, and its Pods with it', () => {
		const c = createCluster({ seed: 2 });
		c.writeFile('job.yaml', `apiVersion: batch/v1
kind: Job
metadata:
  name: short-lived
spec:
  ttlSecondsAfterFinished: 30
  template:
    spec:
      containers:
      - name: main
        image: busybox:1.28
        command: ["echo", "done"]
      restartPolicy: Never
`);
		c.exec('kubectl apply -f job.yaml');
		expect(c.exec('kubectl wait --for=condition=complete job/short-lived --timeout=60s').exitCode).toBe(0);
		c.advance('25s');
		expect(c.exec('kubectl get job short-lived -o name').stdout).toBe('job.batch/short-lived\n');
		c.advance('10s');
		expect(c.exec('kubectl get job short-lived').stderr).toBe('Error from server (NotFound): jobs.batch "short-lived" not found\n');
		expect(c.exec('kubectl get pods -l job-name=short-lived').stderr).toBe('No resources found in default namespace.\n');
	});
});
