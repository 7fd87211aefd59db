/**
 * `npm test` on a machine with no system Chromium: the browser tests fall
 * back to the Chromium the npm registry ships (tests/find-chromium.ts).
 * Proven here by searching with an empty PATH and driving what was found
 * against the built site.
 */
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { locateChromium } from '../find-chromium.ts';
import { siteUrl } from './harness.ts';

describe('a Chromium for the browser tests', () => {
	it('comes from the npm registry when no system Chromium is on PATH, and renders the site', async () => {
		const found = await locateChromium({ PATH: '' });
		expect(found.source).toBe('@sparticuz/chromium');
		const browser = await chromium.launch({ executablePath: found.executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
		try {
			const page = await browser.newPage();
			await page.goto(siteUrl('start/overview/'));
			expect(await page.title()).toBe('The cluster at a glance: control plane and worker nodes | Cluster Anatomy');
		} finally {
			await browser.close();
		}
	}, 120_000);

	it('says what to do when CHROMIUM_PATH names no program', async () => {
		await expect(locateChromium({ CHROMIUM_PATH: '/nowhere/chromium', PATH: '' })).rejects.toThrow('CHROMIUM_PATH is /nowhere/chromium, which is not an executable file.');
	});
});
