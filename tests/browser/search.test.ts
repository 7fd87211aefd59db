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

	it('offers a Chinese query typed on an English page to the Chinese pages, and the link lands on their results', async () => {
		const { page, problems, context } = await openWatched(browser, 'start/overview/');
		await page.getByRole('button', { name: /search/i }).first().click();
		await page.locator('#starlight__search input.pagefind-ui__search-input').fill('控制面');
		const offer = page.locator('.ca-search-elsewhere');
		await offer.waitFor({ state: 'visible' });
		expect(await offer.innerText()).toBe('The Chinese pages have their own search index. Search the 简体中文 pages for “控制面”');
		await offer.getByRole('link').click();
		await page.waitForURL(/\/zh-cn\/start\/overview\/$/);
		// The same chapter in Chinese, its search open with the query and answering it.
		const input = page.locator('#starlight__search input.pagefind-ui__search-input');
		await input.waitFor({ state: 'visible' });
		expect(await input.inputValue()).toBe('控制面');
		const results = page.locator('#starlight__search .pagefind-ui__result-link');
		await results.first().waitFor({ state: 'visible', timeout: 10_000 });
		const hits = await results.evaluateAll((links) => links.map((a) => (a as HTMLAnchorElement).pathname));
		expect(hits.some((p) => p.endsWith('/zh-cn/start/overview/'))).toBe(true);
		expect(await page.locator('.ca-search-elsewhere').isVisible()).toBe(false);
		await context.close();
		expect(problems).toEqual([]);
	});

	it('offers an English word the Chinese pages do not use to the English pages', async () => {
		const { page, problems, context } = await openWatched(browser, 'zh-cn/');
		await page.getByRole('button', { name: /搜索/ }).first().click();
		await page.locator('#starlight__search input.pagefind-ui__search-input').fill('meanwhile');
		const offer = page.locator('.ca-search-elsewhere');
		await offer.waitFor({ state: 'visible' });
		expect(await offer.innerText()).toBe('英文页面有自己的搜索索引。在 English 页面中搜索“meanwhile”');
		expect(await offer.getByRole('link').getAttribute('href')).toMatch(/\/\?search=meanwhile$/);
		await offer.getByRole('link').click();
		const results = page.locator('#starlight__search .pagefind-ui__result-link');
		await results.first().waitFor({ state: 'visible', timeout: 10_000 });
		expect(await results.count()).toBeGreaterThan(0);
		await context.close();
		expect(problems).toEqual([]);
	});
});
