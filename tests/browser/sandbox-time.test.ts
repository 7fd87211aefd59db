/**
 * Virtual time in the sandbox, through its controls: play and pause, the
 * speeds, the next event, the jumps ahead (the clock moves and pods
 * progress on the map), time travel back to an earlier state and carrying
 * on from there, and a main thread that stays responsive at 60x.
 */
import { describe, expect, it } from 'vitest';
import { availableParallelism, loadavg } from 'node:os';
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

	it('keeps every main-thread task under 50 ms while playing at 60x', async () => {
		await s.page.evaluate(() => {
			const w = window as unknown as { __longTasks: number[] };
			w.__longTasks = [];
			new PerformanceObserver((list) => {
				for (const entry of list.getEntries()) w.__longTasks.push(Math.round(entry.duration));
			}).observe({ type: 'longtask' });
		});
		// A window of five seconds at 60x with no long task passes. Long tasks are wall time: a task
		// that is really too long shows in every window, one stretched by other work on the machine
		// (the page's thread descheduled mid-task) does not.
		const windows: number[][] = [];
		const play = async (ms: number) => {
			await s.sandbox.getByRole('button', { name: 'Play at 60x' }).click();
			const t0 = seconds(await clock(s.sandbox));
			await s.page.waitForTimeout(ms);
			await button('Pause').click();
			// Five seconds at 60x is five virtual minutes (less whatever the machine could not keep up with).
			expect(seconds(await clock(s.sandbox)) - t0).toBeGreaterThan(60);
		};
		for (let attempt = 0; attempt < 3; attempt++) {
			await s.page.evaluate(() => ((window as unknown as { __longTasks: number[] }).__longTasks = []));
			await play(5000);
			windows.push(await s.page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks));
			if (windows[windows.length - 1].length === 0) return;
		}
		// Every window had a long task. On a machine running more than it has cores, wall time says
		// little about our code: then the tasks' own CPU time (from a trace) must stay under 50 ms.
		const load = loadavg()[0];
		const cores = availableParallelism();
		expect(load, `long tasks (ms) in each five-second window: ${JSON.stringify(windows)}; load ${load.toFixed(1)} on ${cores} cores`).toBeGreaterThan(cores);
		await s.browser.startTracing(s.page, { categories: ['toplevel'] });
		await play(5000);
		const trace = JSON.parse((await s.browser.stopTracing()).toString()) as { traceEvents: Array<{ name: string; ph: string; tdur?: number; pid: number; tid: number; args?: { name?: string } }> };
		const main = trace.traceEvents.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
		const cpuMs = trace.traceEvents.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask').map((e) => (e.tdur ?? 0) / 1000);
		expect(cpuMs.length).toBeGreaterThan(50);
		expect(Math.max(...cpuMs), `longest task's CPU time; wall-time long tasks ${JSON.stringify(windows)} at load ${load.toFixed(1)} on ${cores} cores`).toBeLessThan(50);
	});

	it('logged no console error and no CSP violation', () => {
		expect(s.problems).toEqual([]);
	});
});
