/**
 * Page weight: the JavaScript each kind of page makes the browser fetch, in
 * gzip bytes, measured in Chromium against the built site (run `npm run
 * build` first). Scripts loaded at idle time (Pagefind's search UI) count.
 */
import type { Benchmark } from '../../scripts/bench.ts';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { siteConfig } from '../../site.config.mjs';
import { findChromium } from '../find-chromium.ts';

/** The Chromium the browser tests use (tests/find-chromium.ts); '' when none can run. */
const CHROMIUM = await findChromium().then((found) => found.executablePath, () => '');

/** Gzip bytes of the JavaScript a page loads, settling after load and idle work. */
async function javascriptBytes(path: string): Promise<{ value: number; unit: string; note?: string }> {
	if (!existsSync('dist/index.html')) return { value: Number.NaN, unit: 'KB', note: 'no build: run `npm run build` first' };
	if (!existsSync(CHROMIUM)) return { value: Number.NaN, unit: 'KB', note: 'no Chromium (see tests/find-chromium.ts)' };
	const server = await serveDist({ base: siteConfig.base });
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
	try {
		const page = await browser.newPage();
		const seen = new Map<string, number>();
		page.on('response', async (response) => {
			if (response.request().resourceType() !== 'script') return;
			const body = await response.body().catch(() => undefined);
			if (body) seen.set(response.url(), gzipSync(body, { level: 9 }).length);
		});
		await page.goto(new URL(path, server.url).href, { waitUntil: 'networkidle' });
		await page.waitForTimeout(500);
		const total = [...seen.values()].reduce((a, b) => a + b, 0);
		return { value: total / 1024, unit: 'KB gzip JS', note: `${seen.size} scripts` };
	} finally {
		await browser.close();
		await server.close();
	}
}

export const benchmarks: Benchmark[] = [
	{ name: 'landing page: JavaScript loaded', samples: 1, warmup: 0, run: () => javascriptBytes('') },
	{ name: 'chapter page (with diagrams): JavaScript loaded', samples: 1, warmup: 0, run: () => javascriptBytes('start/overview/') },
	{ name: 'Chinese chapter page: JavaScript loaded', samples: 1, warmup: 0, run: () => javascriptBytes('zh-cn/start/overview/') },
];
