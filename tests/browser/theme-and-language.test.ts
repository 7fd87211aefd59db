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

	it('the logo stands out from the header in both themes (WCAG 1.4.11: 3:1 for graphics)', async () => {
		for (const colorScheme of ['dark', 'light'] as const) {
			const { page, problems, context } = await openWatched(browser, '', { colorScheme });
			const logo = page.locator('.site-title img:visible');
			expect(await logo.count(), colorScheme).toBe(1);
			await logo.evaluate((img: HTMLImageElement) => img.decode());
			// The logo's own drawn colour (its most opaque pixel) against the header's background, as the reader sees them.
			const ratio = await logo.evaluate((img: HTMLImageElement) => {
				const canvas = document.createElement('canvas');
				canvas.width = img.naturalWidth || 64;
				canvas.height = img.naturalHeight || 64;
				const g = canvas.getContext('2d')!;
				g.drawImage(img, 0, 0, canvas.width, canvas.height);
				const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
				let best = 0;
				for (let i = 3; i < data.length; i += 4) if (data[i] > data[best + 3]) best = i - 3;
				const luminance = (rgb: number[]) => {
					const [r, gr, b] = rgb.map((c) => {
						const v = c / 255;
						return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
					});
					return 0.2126 * r + 0.7152 * gr + 0.0722 * b;
				};
				const header = document.querySelector('header.header') ?? document.body;
				const bg = getComputedStyle(header).backgroundColor.match(/[\d.]+/g)!.slice(0, 3).map(Number);
				const [a, b] = [luminance([data[best], data[best + 1], data[best + 2]]), luminance(bg)];
				return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
			});
			expect(ratio, colorScheme).toBeGreaterThanOrEqual(3);
			await context.close();
			expect(problems).toEqual([]);
		}
	});

	it('the Chinese landing title never breaks inside a word (集群 stays whole)', async () => {
		for (const width of [360, 390, 768, 1024, 1280]) {
			const { page, context } = await openWatched(browser, 'zh-cn/', { viewport: { width, height: 800 } });
			// The line each character of the title sits on, by its box's top.
			const tops = await page.locator('.hero h1').evaluate((h1) => {
				const text = h1.firstChild as Text;
				const out: Record<number, number> = {};
				const range = document.createRange();
				const value = h1.textContent ?? '';
				let node: Node | null = text;
				let offset = 0;
				const walker = document.createTreeWalker(h1, NodeFilter.SHOW_TEXT);
				while ((node = walker.nextNode())) {
					for (let i = 0; i < node.textContent!.length; i++) {
						range.setStart(node, i);
						range.setEnd(node, i + 1);
						out[offset + i] = Math.round(range.getBoundingClientRect().top);
					}
					offset += node.textContent!.length;
				}
				return { value, out };
			});
			const at = (word: string) => tops.value.indexOf(word);
			expect(tops.value).toContain('集群');
			for (const word of ['集群', '如何', '思考', '一个']) {
				const i = at(word);
				expect(tops.out[i], `${word} at ${width} px`).toBe(tops.out[i + 1]);
			}
			await context.close();
		}
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
