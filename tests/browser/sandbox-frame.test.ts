/**
 * The sandbox as a whole: the picture readers without JavaScript get,
 * accessibility (axe, WCAG 2.2 A and AA) idle, running and faulted in both
 * themes, keyboard tabs, reset, full screen, a 360 px phone, reduced motion,
 * and a simulation that fails to load (a message and a reset button, never
 * a blank page).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { launchBrowser, openWatched } from './harness.ts';
import { SANDBOX_PAGE, SANDBOX_PAGE_ZH, clock, openSandbox, openTab, run, startCluster, until } from './sandbox-helpers.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

async function axe(page: import('playwright-core').Page, include?: string): Promise<string[]> {
	const builder = new AxeBuilder({ page }).withTags(WCAG_TAGS);
	const results = await (include ? builder.include(include) : builder).analyze();
	return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

describe('without JavaScript', () => {
	it('shows the scenario\'s starting cluster and says what the live version does', async () => {
		const { page, context, problems } = await openWatched(browser, SANDBOX_PAGE, { javaScriptEnabled: false });
		const section = page.locator('section.ca-sandbox').first();
		expect(await section.locator('h2').innerText()).toBe('A fresh kubeadm cluster');
		const picture = section.locator('.ca-sbx[data-state="static"]');
		expect(await picture.count()).toBe(1);
		// The starting cluster: its nodes and the control plane's pods, as the build computed them.
		for (const node of ['control-plane', 'node-1', 'node-2']) expect(await picture.locator('.ca-node').filter({ hasText: node }).count()).toBeGreaterThan(0);
		expect(await picture.innerText()).toContain('etcd-control-plane');
		expect(await picture.locator('.ca-sbx__nojs').innerText()).toContain('With JavaScript on, it becomes a live cluster you drive');
		// The note is read before the picture, not after a map hundreds of pixels tall.
		const noteBox = (await picture.locator('.ca-sbx__nojs').boundingBox())!;
		const mapBox = (await picture.locator('.ca-map').boundingBox())!;
		expect(noteBox.y + noteBox.height).toBeLessThanOrEqual(mapBox.y);
		expect(noteBox.y - (await picture.boundingBox())!.y).toBeLessThan(40);
		// Nothing to click that would do nothing: the button that starts the live cluster is hidden when scripts are off.
		expect(await picture.locator('input').count()).toBe(0);
		for (const button of await picture.locator('button').all()) expect(await button.isVisible()).toBe(false);
		expect(problems).toEqual([]);
		await context.close();
	});
});

describe('in Chinese', () => {
	it('speaks Chinese on a Chinese page: title, tasks, controls', async () => {
		const s = await openSandbox(browser, { path: SANDBOX_PAGE_ZH });
		expect(await s.page.locator('section.ca-sandbox h2').first().innerText()).toBe('一个刚装好的 kubeadm 集群');
		await openTab(s.sandbox, '任务');
		expect(await s.sandbox.locator('[data-task="find-the-control-plane"] .ca-task__title').innerText()).toContain('找到控制面节点');
		expect(await s.sandbox.getByRole('button', { name: '以 60x 速度运行' }).count()).toBe(1);
		expect(await s.sandbox.locator('.ca-time__clock-label').innerText()).toBe('集群时间');
		expect(s.problems).toEqual([]);
		await s.context.close();
	});
});

describe('accessibility', () => {
	for (const scheme of ['light', 'dark'] as const) {
		it(`has no axe violations idle, running and faulted, with every panel open (${scheme} theme)`, async () => {
			const s = await openSandbox(browser, { colorScheme: scheme });
			await s.page.evaluate((theme) => {
				localStorage.setItem('starlight-theme', theme);
				document.documentElement.dataset.theme = theme;
			}, scheme);
			expect(await axe(s.page), 'idle').toEqual([]);
			await startCluster(s.sandbox);
			await run(s.sandbox, 'kubectl create deployment web --image=nginx:1.27');
			await s.sandbox.getByRole('button', { name: 'Play at 10x' }).click();
			const found: Record<string, string[]> = {};
			// The rest of the page is checked by accessibility.test.ts; here each panel is checked in place.
			for (const tab of await s.sandbox.getByRole('tab').allInnerTexts()) {
				await openTab(s.sandbox, tab);
				await s.page.waitForTimeout(300);
				found[`running, ${tab}`] = await axe(s.page, 'section.ca-sandbox');
			}
			await openTab(s.sandbox, 'Faults');
			await s.sandbox.getByRole('button', { name: 'Stop kube-scheduler' }).click();
			await s.sandbox.getByRole('button', { name: 'Cut off node-1 from the control plane' }).click();
			await s.page.waitForTimeout(1000);
			found.faulted = await axe(s.page, 'section.ca-sandbox');
			await s.sandbox.getByRole('button', { name: 'Pause', exact: true }).click();
			const slider = s.sandbox.getByRole('slider', { name: 'Time travel' });
			await slider.focus();
			await slider.press('Home');
			await until(async () => (await s.sandbox.locator('.ca-time__past').count()) === 1, 'the trip back');
			found['travelled back'] = await axe(s.page);
			for (const [state, violations] of Object.entries(found)) expect(violations, state).toEqual([]);
			expect(s.problems).toEqual([]);
			await s.context.close();
		}, 240_000);
	}

	it('is operable from the keyboard: tabs move with the arrow keys, the focused control is visible', async () => {
		const s = await openSandbox(browser);
		const terminalTab = s.sandbox.getByRole('tab', { name: 'Terminal' });
		await terminalTab.focus();
		await s.page.keyboard.press('ArrowRight');
		const next = s.sandbox.getByRole('tab', { selected: true });
		expect(await next.innerText()).not.toBe('Terminal');
		expect(await next.evaluate((el) => el === document.activeElement)).toBe(true);
		const outline = await next.evaluate((el) => getComputedStyle(el).outlineStyle);
		expect(outline).not.toBe('none');
		await s.page.keyboard.press('End');
		await s.page.keyboard.press('Home');
		expect(await s.sandbox.getByRole('tab', { selected: true }).innerText()).toBe('Terminal');
		await s.context.close();
	});

	it('respects reduced motion: nothing in the sandbox animates', async () => {
		const s = await openSandbox(browser, { reducedMotion: true });
		await startCluster(s.sandbox);
		await s.sandbox.getByRole('button', { name: 'Play at 60x' }).click();
		await s.page.waitForTimeout(800);
		const moving = await s.sandbox.evaluate((root) =>
			[root, ...root.querySelectorAll('*')].filter((el) => {
				const style = getComputedStyle(el);
				const seconds = (v: string) => Math.max(...v.split(',').map((x) => Number.parseFloat(x) * (x.trim().endsWith('ms') ? 0.001 : 1)));
				return (style.animationName !== 'none' && seconds(style.animationDuration) > 0.01) || seconds(style.transitionDuration) > 0.01;
			}).length,
		);
		expect(moving).toBe(0);
		await s.context.close();
	});
});

describe('the frame', () => {
	it('resets to the scenario\'s start', async () => {
		const s = await openSandbox(browser);
		const start = await clock(s.sandbox);
		await startCluster(s.sandbox);
		await run(s.sandbox, 'kubectl create namespace gone-after-reset');
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => clock(s.sandbox)).not.toBe(start);
		await s.sandbox.getByRole('button', { name: 'Reset', exact: true }).click();
		await expect.poll(() => clock(s.sandbox)).toBe(start);
		expect(await s.sandbox.locator('.ca-term__entry').count()).toBe(0);
		expect(await run(s.sandbox, 'kubectl get namespace gone-after-reset')).toContain('NotFound');
		expect(s.problems).toEqual([]);
		await s.context.close();
	});

	it('goes full screen and back', async () => {
		const s = await openSandbox(browser);
		await s.sandbox.getByRole('button', { name: 'Full screen' }).click();
		await expect.poll(() => s.sandbox.getByRole('button', { name: 'Exit full screen' }).count()).toBe(1);
		const box = await s.sandbox.boundingBox();
		const viewport = s.page.viewportSize()!;
		expect(box!.width).toBeGreaterThanOrEqual(viewport.width - 1);
		expect(box!.height).toBeGreaterThanOrEqual(viewport.height - 1);
		// Wide enough for the map beside the panels (the panels first, as in reading and keyboard order).
		const map = await s.sandbox.locator('.ca-sbx__map').boundingBox();
		const tabs = await s.sandbox.locator('.ca-sbx__tabs').boundingBox();
		expect(map!.x).toBeGreaterThan(tabs!.x + tabs!.width - 1);
		await s.sandbox.getByRole('button', { name: 'Exit full screen' }).click();
		await expect.poll(() => s.sandbox.getByRole('button', { name: 'Full screen' }).count()).toBe(1);
		expect((await s.sandbox.boundingBox())!.width).toBeLessThan(viewport.width);
		expect(s.problems).toEqual([]);
		await s.context.close();
	});

	it('fits a 360 px phone: no sideways scrolling, every control reachable, commands run', async () => {
		const s = await openSandbox(browser, { viewport: { width: 360, height: 740 } });
		expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
		const box = await s.sandbox.boundingBox();
		expect(box!.x).toBeGreaterThanOrEqual(0);
		expect(box!.x + box!.width).toBeLessThanOrEqual(360);
		// The terminal comes first: the rest of the controls open from "Time and actions".
		await s.sandbox.getByRole('button', { name: 'Time and actions' }).click();
		for (const name of ['Play', 'Next event', '+10 s', '+1 min', '+5 min', 'Share', 'Reset', 'Full screen']) {
			const b = await s.sandbox.getByRole('button', { name, exact: true }).boundingBox();
			expect(b, name).not.toBeNull();
			expect(b!.x + b!.width, name).toBeLessThanOrEqual(360);
		}
		await startCluster(s.sandbox);
		expect(await run(s.sandbox, 'kubectl get nodes')).toContain('node-2');
		expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
		expect(await axe(s.page, 'section.ca-sandbox')).toEqual([]);
		expect(s.problems).toEqual([]);
		await s.context.close();
	});
});

describe('when the simulation cannot load', () => {
	it('shows a message and a reset button in place of the sandbox, and the page stays', async () => {
		// Refused from the first request: the sandbox fetches its worker as soon as it is idle in view.
		const s = await openSandbox(browser, { prepare: async (context) => void (await context.route('**/worker-*.js', (route) => route.abort())) });
		await s.sandbox.locator('.ca-term__input').focus();
		const alert = s.sandbox.getByRole('alert');
		await expect.poll(() => alert.count(), { timeout: 20_000 }).toBe(1);
		expect(await alert.innerText()).toContain('The sandbox stopped working.');
		// The chapter is still there, and so is the map.
		expect(await s.page.locator('main h1').innerText()).toBeTruthy();
		expect(await s.sandbox.locator('.ca-sbx__map').count()).toBe(1);
		// Reset, once the simulation can load again, brings a working sandbox back.
		await s.context.unroute('**/worker-*.js');
		await alert.getByRole('button', { name: 'Reset the sandbox' }).click();
		const fresh = s.page.locator('section.ca-sandbox').first().locator('.ca-sbx:not([data-state="static"])');
		await fresh.waitFor();
		await startCluster(fresh);
		expect(await run(fresh, 'kubectl get nodes -o name')).toContain('node/node-1');
		// The only errors are the refused worker script's.
		expect(s.problems.filter((p) => !/worker|ERR_FAILED|net::/i.test(p))).toEqual([]);
		await s.context.close();
	});
});
