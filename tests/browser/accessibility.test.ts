import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { builtPages, launchBrowser, openWatched } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser?.close();
});

/** WCAG 2.2 levels A and AA, with the 2.0 and 2.1 rules they include. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

describe('accessibility (axe-core, WCAG 2.2 A and AA)', () => {
	const cases = builtPages().flatMap((path) => (['dark', 'light'] as const).map((scheme) => [path, scheme] as const));
	it.each(cases)('/%s in the %s theme has no violations', async (path, scheme) => {
		const { page, context } = await openWatched(browser, path, { colorScheme: scheme });
		await page.evaluate((s) => {
			localStorage.setItem('starlight-theme', s);
			document.documentElement.dataset.theme = s;
		}, scheme);
		// Expressive Code's script makes overflowing code blocks focusable once
		// it has measured them; a reader's page has run it, so wait for it too
		// (on a loaded machine axe could otherwise run first).
		await page.waitForFunction(() =>
			[...document.querySelectorAll('.expressive-code pre')].every((pre) => pre.scrollWidth <= pre.clientWidth || pre.getAttribute('tabindex') === '0'),
		);
		const results = await new AxeBuilder({ page }).withTags(WCAG_TAGS).analyze();
		await context.close();
		const summary = results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
		expect(summary).toEqual([]);
	});
});
