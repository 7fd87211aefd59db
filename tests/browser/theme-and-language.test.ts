import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, openWatched } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

describe('theme and language', () => {
	it('the theme menu switches the page and its diagrams between dark and light', async () => {
		const { page, problems, context } = await openWatched(browser, 'start/overview/', { colorScheme: 'dark' });
		const diagramText = page.locator('figure.ca-diagram svg text').first();
		const fillIn = () => diagramText.evaluate((el) => getComputedStyle(el).fill);
		expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
		const darkFill = await fillIn();
		await page.locator('starlight-theme-select select').first().selectOption('light');
		expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
		const lightFill = await fillIn();
		expect(lightFill).not.toBe(darkFill);
		// The choice persists across pages.
		await page.goto(page.url().replace('start/overview/', ''));
		expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
		await context.close();
		expect(problems).toEqual([]);
	});

	it('the language menu goes to the same chapter in Chinese, with Chinese interface labels', async () => {
		const { page, problems, context } = await openWatched(browser, 'start/overview/');
		await Promise.all([page.waitForURL(/\/zh-cn\/start\/overview\/$/), page.locator('starlight-lang-select select').first().selectOption({ label: '简体中文' })]);
		expect(await page.locator('html').getAttribute('lang')).toBe('zh-CN');
		await expect.poll(() => page.locator('h1').first().textContent()).toBe('集群全景');
		// Starlight's own labels are Chinese too: the table of contents, search, and the footnote heading.
		expect(await page.locator('.right-sidebar h2').first().textContent()).toContain('本页内容');
		expect(await page.getByRole('button', { name: '搜索' }).count()).toBeGreaterThan(0);
		expect(await page.locator('#footnote-label').textContent()).toBe('资料来源');
		await context.close();
		expect(problems).toEqual([]);
	});
});

describe('diagrams without JavaScript', () => {
	for (const path of ['start/overview/', 'zh-cn/start/overview/']) {
		it(`/${path} shows its diagram as a titled SVG with scripts disabled`, async () => {
			const { page, context } = await openWatched(browser, path, { javaScriptEnabled: false });
			const svg = page.locator('figure.ca-diagram svg').first();
			await svg.waitFor({ state: 'visible' });
			const box = await svg.boundingBox();
			expect(box!.height).toBeGreaterThan(200);
			expect(await svg.getAttribute('role')).toBe('img');
			const [titleId, descId] = (await svg.getAttribute('aria-labelledby'))!.split(' ');
			expect(await page.locator(`[id="${titleId}"]`).textContent()).not.toBe('');
			expect(await page.locator(`[id="${descId}"]`).textContent()).not.toBe('');
			// Every node label is drawn.
			expect(await svg.locator('text', { hasText: 'kube-apiserver' }).count()).toBeGreaterThan(0);
			await context.close();
		});
	}
});
