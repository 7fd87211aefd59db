/**
 * The workload controllers' reference page, as a reader drives its
 * sandbox: one of each workload is running when they arrive, a Pod names
 * its owner, the CronJob has made Jobs on the virtual clock, a StatefulSet
 * Pod resolves by its stable DNS name from busybox, and the two tasks
 * (roll web forward, grow db) complete by what the reader types.
 */
import { describe, expect, it } from 'vitest';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox({ path: 'reference/workload-controllers/', scenario: 'reference/workload-controllers' });

describe('the workload controllers sandbox', () => {
	it('opens with one of each workload running and the CronJob making Jobs', async () => {
		const all = await run(s.sandbox, 'kubectl get deploy,sts,ds,cronjob');
		expect(all).toMatch(/deployment\.apps\/web\s+3\/3\s+3\s+3/);
		expect(all).toMatch(/statefulset\.apps\/db\s+2\/2/);
		expect(all).toMatch(/daemonset\.apps\/agent\s+2\s+2\s+2\s+2\s+2/);
		expect(all).toMatch(/cronjob\.batch\/tick\s+\* \* \* \* \*\s+<none>\s+False\s+\d+/);
		// The clock is paused (as a reader who watches step by step pauses it): a minute brings the next schedule time.
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get jobs'), { timeout: 20_000 }).toMatch(/^tick-\d+\s+Complete\s+1\/1/m);
		const owner = await run(s.sandbox, "kubectl get pod db-0 -o jsonpath='{.metadata.ownerReferences[0].kind}/{.metadata.ownerReferences[0].name}'");
		expect(owner).toBe('StatefulSet/db');
	});

	it('resolves a StatefulSet Pod by its stable name from inside a Pod', async () => {
		const lookup = await run(s.sandbox, 'kubectl run -it --rm dns --image=busybox:1.28 --restart=Never -- nslookup db-0.db');
		expect(lookup).toMatch(/Name:\s+db-0\.db\s*\nAddress 1: 10\.244\.\d+\.\d+ db-0\.db\.default\.svc\.cluster\.local/);
	});

	it('completes both tasks from the commands the reader types', async () => {
		await run(s.sandbox, 'kubectl set image deployment/web nginx=nginx:1.29');
		await expect.poll(() => run(s.sandbox, 'kubectl rollout status deployment/web'), { timeout: 30_000 }).toContain('deployment "web" successfully rolled out');
		await run(s.sandbox, 'kubectl scale statefulset db --replicas=3');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get pods -l app=db -L apps.kubernetes.io/pod-index'), { timeout: 30_000 }).toMatch(/^db-2\s+1\/1\s+Running\s+0\s+\S+\s+2$/m);
		await openTab(s.sandbox, 'Tasks');
		await expect.poll(() => s.sandbox.locator('.ca-tasks__summary').innerText(), { timeout: 20_000 }).toContain('2 of 2 tasks done');
	});
});
