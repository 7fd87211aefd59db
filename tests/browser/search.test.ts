import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openWatched } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

/** Opens the search dialog as a reader would (the button), types, and returns result links. */
async function search(page: Page, query: string): Promise<string[]> {
	await page.getByRole('button', { name: /search|搜索/i }).first().click();
	const input = page.locator('#starlight__search input.pagefind-ui__search-input');
	await input.waitFor({ state: 'visible' });
	await input.fill(query);
	const results = page.locator('#starlight__search .pagefind-ui__result-link');
	await results.first().waitFor({ state: 'visible', timeout: 10_000 });
	return results.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
}

describe('search', () => {
	it('finds the overview chapter in English by a component name', async () => {
		const { page, problems, context } = await openWatched(browser, '');
		const hits = await search(page, 'kube-scheduler');
		await context.close();
		expect(hits.some((p) => p.endsWith('/start/overview/') && !p.includes('/zh-cn/'))).toBe(true);
		expect(problems).toEqual([]);
	});

	it('finds the Chinese overview chapter for a Chinese query on a Chinese page', async () => {
		const { page, problems, context } = await openWatched(browser, 'zh-cn/');
		const hits = await search(page, '控制面');
		await context.close();
		expect(hits.some((p) => p.endsWith('/zh-cn/start/overview/'))).toBe(true);
		expect(hits.every((p) => p.includes('/zh-cn/'))).toBe(true);
		expect(problems).toEqual([]);
	});

	it('leaves the sandbox\'s static picture out of the index: no result quotes the map', async () => {
		const { page, context } = await openWatched(browser, '');
		// The picture lists every Pod with a status glyph (● Running); chapters name the Pod in prose and in command output.
		const hits = await search(page, 'kube-scheduler-control-plane');
		const texts = await page.locator('#starlight__search .pagefind-ui__result').allInnerTexts();
		await context.close();
		expect(hits.length).toBeGreaterThan(0);
		expect(texts.filter((text) => text.includes('●'))).toEqual([]);
	});
});
