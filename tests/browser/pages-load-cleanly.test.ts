import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { builtPages, launchBrowser, openWatched } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

describe('every built page', () => {
	const pages = builtPages();

	it('the build has the landing page and the overview chapter in both languages', () => {
		expect(pages).toEqual(expect.arrayContaining(['', 'zh-cn/', 'start/overview/', 'zh-cn/start/overview/']));
	});

	it.each(pages)('/%s loads with no console error, exception or CSP violation', async (path) => {
		const { page, problems, context } = await openWatched(browser, path);
		// Let idle-time work (search UI, islands) run and report.
		await page.waitForLoadState('networkidle');
		await page.waitForTimeout(300);
		await context.close();
		expect(problems).toEqual([]);
	});
});
