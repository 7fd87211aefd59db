/**
 * The kube-scheduler chapter's sandbox in Chromium, as its reader uses it:
 * apply the Pod the page talks about, open the Why panel and read the same
 * verdicts and scores the chapter's table prints; then fix the Pending Pod
 * the way the chapter teaches and see it placed.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

/** Moves the virtual clock on by ten seconds, as the reader does with the time bar. */
async function tenSeconds(sandbox: Locator): Promise<void> {
	const clock = sandbox.locator('.ca-time__now');
	const before = await clock.innerText();
	await sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
	await expect.poll(() => clock.innerText()).not.toBe(before);
}

const s = useStartedSandbox({ path: 'control-plane/kube-scheduler/' });

describe('the kube-scheduler sandbox', () => {
	it('places web on node-c and the Why panel shows each node\'s verdict and the winning total', async () => {
		expect(await run(s.sandbox, 'kubectl apply -f web.yaml')).toMatch(/^pod\/web created\s*$/);
		await tenSeconds(s.sandbox);
		await expect.poll(() => run(s.sandbox, 'kubectl get pod web -o wide'), { timeout: 20_000 }).toMatch(/^web\s+1\/1\s+Running\s.*\snode-c\s/m);
		await openTab(s.sandbox, 'Why');
		const why = s.sandbox.locator('.ca-why');
		await why.getByLabel('Pod').selectOption({ label: 'default/web' });
		await expect.poll(() => why.locator('.ca-why__result').innerText(), { timeout: 20_000 }).toContain('Scheduled to node-c');
		const row = (node: string) => why.locator('tbody tr').filter({ has: s.page.locator('th', { hasText: node }) });
		expect(await row('node-a').innerText()).toMatch(/NodeResourcesFit[\s\S]*Insufficient memory/);
		expect(await row('control-plane').innerText()).toMatch(/TaintToleration[\s\S]*untolerated taint/);
		// The totals of the chapter's score table (flannel's Pod on every node counts in NodeResourcesFit).
		expect(await why.locator('.ca-why__row--chosen').innerText()).toMatch(/node-c[\s\S]*455/);
		expect(await row('node-b').innerText()).toMatch(/385/);
		// SCREENSHOT_DIR=... keeps a picture of the panel for a human to look at.
		if (process.env.SCREENSHOT_DIR) await s.page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/scheduler-why.png` });
	});

	it('labelling node-b lets the Pending ssd-app run there, as the chapter\'s task asks', async () => {
		expect(await run(s.sandbox, 'kubectl get pod ssd-app')).toMatch(/ssd-app\s+0\/1\s+Pending/);
		expect(await run(s.sandbox, 'kubectl describe pod ssd-app')).toMatch(/FailedScheduling .*0\/4 nodes are available: 1 node\(s\) had untolerated taint\(s\), 3 node\(s\) didn't match Pod's node affinity\/selector\./);
		expect(await run(s.sandbox, 'kubectl label nodes node-b disktype=ssd')).toMatch(/^node\/node-b labeled\s*$/);
		await tenSeconds(s.sandbox);
		await expect.poll(() => run(s.sandbox, 'kubectl get pod ssd-app -o wide'), { timeout: 20_000 }).toMatch(/^ssd-app\s+1\/1\s+Running\s.*\snode-b\s/m);
	});
});
