/**
 * The journeys a first-time reader took through the built site, played as
 * they played them: keyboard only from page load to a command's output; a
 * map click on every page with a sandbox; the map beside the terminal on a
 * 1280 px chapter page; a task completed with the terminal tab open; time
 * travel, then a read-only command and a change; a 360 px phone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtPages, launchBrowser, openWatched } from './harness.ts';
import { openSandbox, openTab, run, startCluster, until } from './sandbox-helpers.ts';

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

/** Whether keyboard focus is in the terminal's command line. */
const inTerminal = (page: Page) => page.evaluate(() => document.activeElement?.classList.contains('ca-term__input') ?? false);

describe('keyboard only', () => {
	it.each([
		['control-plane/etcd/', 'Terminal'],
		['zh-cn/control-plane/etcd/', '终端'],
	])('%s: Tab from page load reaches the sandbox, which starts, and Enter runs a command', async (path) => {
		const { page, context, problems } = await openWatched(browser, path, { viewport: { width: 1280, height: 800 } });
		// The sandbox as a whole is a named region.
		const title = await page.locator('.ca-sandbox__title').first().innerText();
		expect(await page.getByRole('region', { name: title }).count()).toBe(1);
		let presses = 0;
		while (!(await inTerminal(page)) && presses < 400) {
			await page.keyboard.press('Tab');
			presses++;
			// The island goes live while the reader keeps pressing Tab: give it a moment once the sandbox's button has focus.
			if (await page.evaluate(() => document.activeElement?.classList.contains('ca-sbx__wake') ?? false)) await until(() => inTerminal(page), 'the terminal to take focus', 20_000);
		}
		expect(await inTerminal(page), `focus after ${presses} Tabs: ${await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120))}`).toBe(true);
		await page.keyboard.type('kubectl get nodes');
		await page.keyboard.press('Enter');
		const out = page.locator('.ca-term__out').first();
		await expect.poll(() => out.count(), { timeout: 30_000 }).toBe(1);
		expect(await out.innerText()).toMatch(/^NAME\s+STATUS\s+ROLES\s+AGE\s+VERSION\ncontrol-plane\s+Ready/);
		expect(problems).toEqual([]);
		await context.close();
	}, 90_000);
});

describe('a click on the map', () => {
	const pages = builtPages()
		.filter((p) => (p === '' || p.endsWith('/')) && !p.startsWith('zh-cn/'))
		.filter((p) => readFileSync(join('dist', p, 'index.html'), 'utf8').includes('data-ca-scenario'));
	it('opens the Inspector on the object clicked, on every page whose sandbox draws a map', async () => {
		let checked = 0;
		for (const path of pages) {
			const { sandbox, context } = await openSandbox(browser, { path });
			if ((await sandbox.locator('.ca-sbx__map').count()) === 0) {
				await context.close();
				continue;
			}
			// A Pod where the map draws one, else a component or a node: the legend says anything can be clicked.
			await sandbox.locator('.ca-sbx__map :is(.ca-pod, .ca-chip)').first().waitFor({ timeout: 20_000 });
			const pods = sandbox.locator('.ca-sbx__map .ca-pod');
			const target = (await pods.count()) ? pods.first() : sandbox.locator('.ca-sbx__map .ca-chip').first();
			const name = await target.locator('.ca-pod__name, .ca-chip__name').innerText();
			await target.click();
			const shown = sandbox.locator('.ca-sbx__panel:not([hidden])');
			expect(await shown.count(), `${path}: panels shown after a map click`).toBe(1);
			expect(await sandbox.getByRole('tab', { name: 'Inspector' }).getAttribute('aria-selected'), path).toBe('true');
			await expect.poll(() => shown.innerText(), { timeout: 20_000 }).toContain(name.trim());
			await context.close();
			checked++;
		}
		expect(checked).toBeGreaterThan(10);
	}, 600_000);
});

describe('a 1280 px chapter page', () => {
	it('shows the map beside the terminal, over the contents column, and the whole sandbox on one screen', async () => {
		const s = await openSandbox(browser, { path: 'control-plane/etcd/', viewport: { width: 1280, height: 800 } });
		await startCluster(s.sandbox);
		await s.sandbox.scrollIntoViewIfNeeded();
		const terminal = (await s.sandbox.locator('.ca-sbx__tabs').boundingBox())!;
		const map = (await s.sandbox.locator('.ca-sbx__map').boundingBox())!;
		expect(map.x).toBeGreaterThanOrEqual(terminal.x + terminal.width);
		expect(map.y).toBeLessThan(terminal.y + 50);
		expect(terminal.width).toBeGreaterThan(450);
		const frame = (await s.sandbox.boundingBox())!;
		expect(frame.height).toBeLessThanOrEqual(800);
		// Where the frame covers the contents column, what is seen there is the sandbox, not the contents list.
		const toc = (await s.page.locator('.right-sidebar').boundingBox())!;
		const covered = await s.page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.closest('.ca-sbx') !== null, [toc.x + toc.width / 2, frame.y + frame.height / 2]);
		expect(covered).toBe(true);
		// The chapter's own text keeps its measure.
		const text = (await s.page.locator('.sl-markdown-content > p').first().boundingBox())!;
		expect(text.width).toBeLessThanOrEqual(720);
		expect(s.problems).toEqual([]);
		await s.context.close();
	}, 90_000);
});

describe('a task', () => {
	it('says it is done in the terminal and on the Tasks tab while the terminal is open', async () => {
		const s = await openSandbox(browser, { path: 'start/overview/' });
		await startCluster(s.sandbox);
		const tasksTab = s.sandbox.getByRole('tab', { name: /^Tasks/ });
		expect(await tasksTab.innerText()).toBe('Tasks 0/2');
		await run(s.sandbox, 'kubectl label node control-plane tier=brain');
		const note = s.sandbox.locator('.ca-term__entry--note').filter({ hasText: '✓ Task done: Find the control plane' });
		await expect.poll(() => note.count(), { timeout: 20_000 }).toBe(1);
		expect(await tasksTab.innerText()).toBe('Tasks 1/2');
		expect(await s.sandbox.getByRole('tab', { name: 'Terminal' }).getAttribute('aria-selected')).toBe('true');
		// The Tasks tab agrees.
		await openTab(s.sandbox, /^Tasks/);
		expect(await s.sandbox.locator('[data-task="find-the-control-plane"] .ca-task__state').innerText()).toBe('Done');
		await s.context.close();
	}, 90_000);
});

describe('time travel', () => {
	it('reads the past without losing the future; a change says what it sets aside, and undo brings it back', async () => {
		const s = await openSandbox(browser, { path: 'start/overview/' });
		await startCluster(s.sandbox);
		await run(s.sandbox, 'kubectl create namespace later-one');
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		const past = s.sandbox.locator('.ca-time__past');
		const slider = s.sandbox.getByRole('slider', { name: 'Time travel' });
		await until(async () => Number(await slider.getAttribute('max')) - Number(await slider.getAttribute('min')) >= 60_000, 'the jump to land');
		await slider.focus();
		await slider.press('Home');
		await expect.poll(() => past.count(), { timeout: 20_000 }).toBe(1);
		expect(await past.innerText()).toMatch(/sets aside the 1 min \d+ s after it \(1 command\)/);

		// Reading: answered as the earlier moment, and still in the past afterwards.
		const answer = await run(s.sandbox, 'kubectl get namespaces');
		expect(answer).not.toContain('later-one');
		expect(await s.sandbox.locator('.ca-term__entry--note').last().innerText()).toContain('Read at the earlier moment shown: nothing was recorded');
		expect(await past.count()).toBe(1);

		// A change: continues from here, says what it set aside.
		await run(s.sandbox, 'kubectl create namespace instead');
		const aside = s.sandbox.locator('.ca-time__aside');
		await expect.poll(() => aside.count()).toBe(1);
		expect(await aside.innerText()).toMatch(/the 1 min \d+ s that came after it \(1 command\) are set aside/);
		await s.sandbox.getByRole('button', { name: 'Undo: bring them back' }).click();
		// Back at the earlier moment, the later history there again and the change gone.
		await expect.poll(() => past.count(), { timeout: 20_000 }).toBe(1);
		expect(await aside.count()).toBe(0);
		await s.sandbox.getByRole('button', { name: 'Back to the latest' }).click();
		await expect.poll(() => past.count(), { timeout: 20_000 }).toBe(0);
		const latest = await run(s.sandbox, 'kubectl get namespaces');
		expect(latest).toContain('later-one');
		expect(latest).not.toContain('instead');
		await s.context.close();
	}, 120_000);

	it('Next event says what it stepped to, to the millisecond', async () => {
		const s = await openSandbox(browser, { path: 'start/overview/' });
		await startCluster(s.sandbox);
		await s.sandbox.getByRole('button', { name: 'Next event', exact: true }).click();
		const stepped = s.sandbox.locator('.ca-time__stepped');
		await expect.poll(() => stepped.innerText()).toMatch(/^Next event, at \d\d:\d\d:\d\d\.\d{3}: \S+/);
		await s.context.close();
	}, 90_000);
});

describe('a 360 px phone', () => {
	it.each([
		['start/overview/', 'Time and actions'],
		['zh-cn/start/overview/', '时间与操作'],
	])('%s: the terminal comes first, the controls open on request, nothing wider than the screen', async (path, toggle) => {
		const s = await openSandbox(browser, { path, viewport: { width: 360, height: 740 } });
		await startCluster(s.sandbox);
		const frame = (await s.sandbox.boundingBox())!;
		const tabs = (await s.sandbox.locator('.ca-sbx__tabs').boundingBox())!;
		expect(tabs.y - frame.y).toBeLessThan(200);
		const speeds = s.sandbox.locator('.ca-time__speeds');
		expect(await speeds.isVisible()).toBe(false);
		await s.sandbox.getByRole('button', { name: toggle }).click();
		expect(await speeds.isVisible()).toBe(true);
		await run(s.sandbox, 'kubectl get pods -A -o wide');
		// The output scrolls inside the terminal; the page itself never scrolls sideways.
		expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
		const prompt = s.sandbox.locator('.ca-term__prompt--live');
		expect(await prompt.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
		const input = (await s.sandbox.locator('.ca-term__input').boundingBox())!;
		expect(input.width).toBeGreaterThan(250);
		expect(frame.height).toBeLessThan(1800);
		await s.context.close();
	}, 90_000);
});
