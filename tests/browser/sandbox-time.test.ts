/**
 * Virtual time in the sandbox, through its controls: play and pause, the
 * speeds, the next event, the jumps ahead (the clock moves and pods
 * progress on the map), time travel back to an earlier state and carrying
 * on from there, and playing at 60x (its main-thread cost is a benchmark).
 */
import { describe, expect, it } from 'vitest';
import { clock, podOnMap, run, seconds, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox();

const button = (name: string | RegExp) => s.sandbox.getByRole('button', { name, exact: typeof name === 'string' });

describe('time in the sandbox', () => {
	it('shows the virtual clock, which, once paused, only moves when asked', async () => {
		const start = await clock(s.sandbox);
		expect(start).toMatch(/^\d\d:\d\d:\d\d$/);
		expect(await s.sandbox.locator('.ca-time__state').innerText()).toContain('paused');
		await s.page.waitForTimeout(600);
		expect(await clock(s.sandbox)).toBe(start);
	});

	it('jumps ahead by 10 s, 1 min and 5 min', async () => {
		const t0 = seconds(await clock(s.sandbox));
		await button('+10 s').click();
		await expect.poll(async () => seconds(await clock(s.sandbox))).toBe(t0 + 10);
		await button('+1 min').click();
		await expect.poll(async () => seconds(await clock(s.sandbox))).toBe(t0 + 70);
		await button('+5 min').click();
		await expect.poll(async () => seconds(await clock(s.sandbox)), { timeout: 20_000 }).toBe(t0 + 370);
	});

	it('steps to the next event', async () => {
		const t0 = seconds(await clock(s.sandbox));
		await button('Next event').click();
		await expect.poll(async () => seconds(await clock(s.sandbox))).toBeGreaterThanOrEqual(t0);
		const traced = s.sandbox.locator('.ca-time__now');
		expect(await traced.count()).toBe(1);
	});

	it('plays and pauses; a speed button plays at that speed', async () => {
		await button('Play').click();
		await expect.poll(() => s.sandbox.locator('.ca-time__state').innerText()).toContain('playing at 1x');
		const t0 = seconds(await clock(s.sandbox));
		await expect.poll(async () => seconds(await clock(s.sandbox)), { timeout: 10_000 }).toBeGreaterThanOrEqual(t0 + 2);
		await s.sandbox.getByRole('button', { name: 'Play at 10x' }).click();
		await expect.poll(() => s.sandbox.locator('.ca-time__state').innerText()).toContain('playing at 10x');
		expect(await s.sandbox.getByRole('button', { name: 'Play at 10x' }).getAttribute('aria-pressed')).toBe('true');
		const t1 = seconds(await clock(s.sandbox));
		await expect.poll(async () => seconds(await clock(s.sandbox)), { timeout: 10_000 }).toBeGreaterThanOrEqual(t1 + 10);
		await button('Pause').click();
		await expect.poll(() => s.sandbox.locator('.ca-time__state').innerText()).toContain('paused');
		const stopped = await clock(s.sandbox);
		await s.page.waitForTimeout(500);
		expect(await clock(s.sandbox)).toBe(stopped);
	});

	it('moves pods on as time passes: a new Deployment\'s pods become Running on the map', async () => {
		expect(await run(s.sandbox, 'kubectl create deployment web --image=nginx:1.27 --replicas=2')).toContain('deployment.apps/web created');
		await button('+1 min').click();
		await expect.poll(() => podOnMap(s.sandbox, /^.*web-/).count()).toBe(2);
		for (const pod of await podOnMap(s.sandbox, /web-/).all()) expect(await pod.innerText()).toContain('Running');
	});

	it('travels back to an earlier moment, shows the cluster as it was, and carries on from there', async () => {
		const latest = seconds(await clock(s.sandbox));
		const slider = s.sandbox.getByRole('slider', { name: 'Time travel' });
		const min = Number(await slider.getAttribute('min'));
		// Back to the scenario's start: no web pods existed then.
		await slider.focus();
		await slider.press('Home');
		await expect.poll(() => s.sandbox.locator('.ca-time__past').count(), { timeout: 20_000 }).toBe(1);
		await expect.poll(async () => Number(await slider.inputValue())).toBe(min);
		await expect.poll(() => podOnMap(s.sandbox, /web-/).count()).toBe(0);
		expect(seconds(await clock(s.sandbox))).toBeLessThan(latest);
		expect(await s.sandbox.locator('.ca-time__past').innerText()).toContain('You are looking at the cluster as it was');

		// Back to the latest moment: the pods are there again.
		await s.sandbox.getByRole('button', { name: 'Back to the latest' }).click();
		await expect.poll(() => s.sandbox.locator('.ca-time__past').count(), { timeout: 20_000 }).toBe(0);
		expect(seconds(await clock(s.sandbox))).toBe(latest);
		await expect.poll(() => podOnMap(s.sandbox, /web-/).count()).toBe(2);

		// Back again, then continue from there: the later history (the web Deployment) is gone.
		await slider.focus();
		await slider.press('Home');
		await expect.poll(() => s.sandbox.locator('.ca-time__past').count(), { timeout: 20_000 }).toBe(1);
		await s.sandbox.getByRole('button', { name: 'Continue from here' }).click();
		await expect.poll(() => s.sandbox.locator('.ca-time__past').count()).toBe(0);
		expect(await run(s.sandbox, 'kubectl get deployments')).toContain('No resources found in default namespace.');
		expect(await slider.getAttribute('max')).not.toBe(String(latest));
	});

	it('plays at 60x: a minute of virtual time passes in wall seconds, and Pause stops it', async () => {
		// How long the page's main-thread tasks take while playing is wall time, measured by
		// `npm run bench -- "playing at 60x"`, not asserted here.
		await s.sandbox.getByRole('button', { name: 'Play at 60x' }).click();
		const t0 = seconds(await clock(s.sandbox));
		try {
			await expect.poll(async () => seconds(await clock(s.sandbox)) - t0, { timeout: 20_000 }).toBeGreaterThan(60);
		} finally {
			await button('Pause').click();
		}
		// Views the worker pushed before it took the Pause may still land: read the clock once the sandbox says it is paused.
		await expect.poll(() => s.sandbox.locator('.ca-time__state--playing').count()).toBe(0);
		const paused = await clock(s.sandbox);
		await s.page.waitForTimeout(1500);
		expect(await clock(s.sandbox)).toBe(paused);
	});

	it('logged no console error and no CSP violation', () => {
		expect(s.problems).toEqual([]);
	});
});
