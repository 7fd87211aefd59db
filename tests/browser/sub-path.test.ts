/**
 * The site can be served under a sub-path by setting SITE_BASE at build
 * time: every link, asset, the search index and the policy's stylesheet
 * follow it. This builds a second copy under /docs/anatomy/ and checks it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { brokenLinks, chromiumPath, builtPages } from './harness.ts';

const OUT = resolve('tests/.output/sub-path-dist');
const BASE = '/docs/anatomy';
let server: { url: string; close(): Promise<unknown> };
let browser: Browser;

beforeAll(async () => {
	// A clean environment: Vitest sets BASE_URL, MODE, NODE_ENV... which Vite
	// would read back into the build.
	const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', SITE_BASE: BASE, ASTRO_TELEMETRY_DISABLED: '1' };
	execFileSync(process.execPath, ['node_modules/astro/bin/astro.mjs', 'build', '--outDir', OUT], { env, stdio: 'pipe' });
	server = await serveDist({ root: OUT, base: BASE });
	browser = await chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
}, 180_000);

afterAll(async () => {
	await browser?.close();
	await server?.close();
});

describe(`the site built with SITE_BASE=${BASE}`, () => {
	it('has every internal link and asset under the sub-path, all resolving', async () => {
		const pages = builtPages(OUT);
		const { broken, checked } = await brokenLinks(pages, (path) => new URL(path, server.url).href);
		expect(checked).toBeGreaterThan(20);
		expect(broken).toEqual([]);
	});

	it('navigates from the landing page to a chapter and searches, with no error', async () => {
		const page = await browser.newPage();
		const problems: string[] = [];
		page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
		page.on('pageerror', (e) => problems.push(e.message));
		await page.goto(server.url, { waitUntil: 'networkidle' });
		await page.locator('.hero a.sl-link-button').first().click();
		await page.waitForURL(`**${BASE}/start/overview/`);
		await page.getByRole('button', { name: /search/i }).first().click();
		await page.locator('#starlight__search input.pagefind-ui__search-input').fill('etcd');
		const first = page.locator('#starlight__search .pagefind-ui__result-link').first();
		await first.waitFor({ state: 'visible', timeout: 10_000 });
		expect(await first.evaluate((a) => (a as HTMLAnchorElement).pathname.startsWith('/docs/anatomy/'))).toBe(true);
		expect(problems).toEqual([]);
	});
});
