/**
 * A newcomer's first minute on a chapter: scroll to the sandbox, type what
 * the page says, and see the cluster do it, without touching the time
 * controls. The clock runs at 1x from the start, as a real cluster's does,
 * and the scenario's objects are ready at the first command (the reader
 * lands in the cluster its summary describes).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { clock, openSandbox, run, seconds, startCluster, type OpenSandbox } from './sandbox-helpers.ts';

let browser: Browser;
let s: OpenSandbox;

beforeAll(async () => {
	browser = await launchBrowser();
	// The etcd chapter: its summary promises a Deployment `web` with two replicas.
	s = await openSandbox(browser, { path: 'control-plane/etcd/' });
	await startCluster(s.sandbox, { clock: 'running' });
}, 90_000);

afterAll(async () => {
	await s?.context.close();
	await browser?.close();
});

describe("a newcomer's first minute", () => {
	it('finds the clock already running at 1x', async () => {
		expect(await s.sandbox.locator('.ca-time__state').innerText()).toContain('playing at 1x');
		const t0 = seconds(await clock(s.sandbox));
		await expect.poll(async () => seconds(await clock(s.sandbox)), { timeout: 10_000 }).toBeGreaterThanOrEqual(t0 + 2);
	});

	it('finds the objects the summary promises ready at the first command', async () => {
		expect(await run(s.sandbox, 'kubectl get deploy web')).toMatch(/\nweb\s+2\/2\s+2\s+2\s/);
	});

	it('sees a new Deployment\'s Pods Running without touching the time controls', async () => {
		expect(await run(s.sandbox, 'kubectl create deployment hello --image=nginx:1.25 --replicas=2')).toContain('deployment.apps/hello created');
		await expect
			.poll(async () => (await run(s.sandbox, 'kubectl get pods -l app=hello --no-headers')).match(/\s1\/1\s+Running\s/g)?.length ?? 0, { timeout: 60_000, interval: 1_000 })
			.toBe(2);
		expect(await s.sandbox.locator('.ca-time__state').innerText()).toContain('playing at 1x');
		expect(s.problems).toEqual([]);
	});
});
