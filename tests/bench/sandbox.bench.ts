/**
 * The sandbox's budgets, measured in Debian's Chromium against the built
 * site (run `npm run build` first; DIST_DIR measures another build):
 *
 * - JavaScript (gzip) a chapter with a sandbox loads before the sandbox
 *   scrolls into view, what scrolling it into view adds (the island's UI),
 *   what the island then fetches in idle time (the simulation worker), and
 *   what opening every other panel adds; chunk by chunk in the note and in
 *   tests/.output/sandbox-chunks.json;
 * - time from scrolling the sandbox into view to an interactive island
 *   (median of 9) and to a running cluster; from Enter to the first
 *   command's output, with the page open for 2 s and cold;
 * - the longest main-thread task while the cluster plays at 60x (a
 *   PerformanceObserver for 'longtask', wall time), with the longest task's
 *   CPU time from a trace beside it: on a machine busy with other work the
 *   two differ.
 */
import type { Benchmark } from '../../scripts/bench.ts';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { serveDist } from '../../scripts/serve-dist.mjs';
import { siteConfig } from '../../site.config.mjs';
import { findChromium } from '../find-chromium.ts';

/** The Chromium the browser tests use (tests/find-chromium.ts); '' when none can run. */
const CHROMIUM = await findChromium().then((found) => found.executablePath, () => '');
const DIST = resolve(process.env.DIST_DIR ?? 'dist');
const PAGE = 'start/overview/';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking'];

type Result = { value: number; unit: string; note?: string };

function unavailable(unit: string): Result | undefined {
	if (!existsSync(join(DIST, 'index.html'))) return { value: Number.NaN, unit, note: `no build in ${DIST}: run \`npm run build\` first` };
	if (!existsSync(CHROMIUM)) return { value: Number.NaN, unit, note: 'no Chromium (see tests/find-chromium.ts)' };
	return undefined;
}

async function withPage<T>(fn: (page: Page, url: string, browser: Browser) => Promise<T>): Promise<T> {
	const server = await serveDist({ root: DIST, base: siteConfig.base });
	const browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
	try {
		const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
		return await fn(page, new URL(PAGE, server.url).href, browser);
	} finally {
		await browser.close();
		await server.close();
	}
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Scripts fetched in each phase of a reader's visit, gzip bytes per chunk. */
interface Phases {
	beforeScroll: Record<string, number>;
	atScroll: Record<string, number>;
	firstUse: Record<string, number>;
	panels: Record<string, number>;
}

let phases: Promise<Phases> | undefined;

function measurePhases(): Promise<Phases> {
	phases ??= withPage(async (page, url) => {
		const seen = new Map<string, number>();
		const pending: Promise<unknown>[] = [];
		const grab = (response: import('playwright-core').Response) => {
			if (response.request().resourceType() !== 'script') return;
			pending.push(
				response
					.body()
					.then((body) => seen.set(new URL(response.url()).pathname.split('/').pop()!, gzipSync(body, { level: 9 }).length))
					.catch(() => {}),
			);
		};
		page.on('response', grab);
		// Worker scripts are fetched by the worker, not the page.
		page.on('worker', (worker) => pending.push(Promise.resolve(worker.url())));
		page.context().on('response', grab);
		const settle = async () => {
			await page.waitForLoadState('networkidle');
			await page.waitForTimeout(500);
			await Promise.all(pending);
		};
		const take = (before: Set<string>) => Object.fromEntries([...seen].filter(([name]) => !before.has(name)));
		await page.goto(url, { waitUntil: 'networkidle' });
		await settle();
		const beforeScroll = take(new Set());
		let known = new Set(seen.keys());
		const section = page.locator('section.ca-sandbox').first();
		await section.scrollIntoViewIfNeeded();
		await page.waitForSelector('.ca-sbx:not([data-state="static"]) .ca-term__input');
		const atScroll = take(known);
		known = new Set(seen.keys());
		// The island starts the worker in idle time once it is in view (unless the browser asks to save data).
		await page.waitForSelector('.ca-sbx[data-state="ready"]', { timeout: 60_000 });
		await settle();
		const firstUse = take(known);
		known = new Set(seen.keys());
		for (const tab of await page.getByRole('tab').all()) {
			await tab.click();
			await page.waitForTimeout(200);
		}
		await settle();
		const panels = take(known);
		return { beforeScroll, atScroll, firstUse, panels };
	});
	return phases;
}

function kb(chunks: Record<string, number>): Result {
	const total = Object.values(chunks).reduce((a, b) => a + b, 0);
	const list = Object.entries(chunks)
		.sort((a, b) => b[1] - a[1])
		.map(([name, bytes]) => `${name.replace(/\.[\w-]{8}\.js$/, '.js').replace(/-[\w-]{8}\.js$/, '.js')} ${(bytes / 1024).toFixed(1)}`)
		.join(', ');
	return { value: total / 1024, unit: 'KB gzip JS', note: list };
}

async function phase(name: keyof Phases): Promise<Result> {
	const missing = unavailable('KB gzip JS');
	if (missing) return missing;
	const all = await measurePhases();
	if (name === 'panels') {
		mkdirSync('tests/.output', { recursive: true });
		writeFileSync('tests/.output/sandbox-chunks.json', JSON.stringify(all, null, 2));
	}
	return kb(all[name]);
}

/** Milliseconds from scrolling the first sandbox into view until `selector` matches inside it (and, with `painted`, the next frame is on screen). */
function msFromScrollUntil(page: Page, selector: string, painted: boolean): Promise<number> {
	return page.evaluate(
		({ selector, painted }) =>
			new Promise<number>((done) => {
				const section = document.querySelector('section.ca-sandbox')!;
				const start = performance.now();
				const observer = new MutationObserver(() => {
					if (!section.querySelector(selector)) return;
					observer.disconnect();
					if (painted) requestAnimationFrame(() => setTimeout(() => done(performance.now() - start)));
					else done(performance.now() - start);
				});
				observer.observe(section, { subtree: true, childList: true, attributes: true });
				section.scrollIntoView();
			}),
		{ selector, painted },
	);
}

/** Milliseconds from scrolling the sandbox into view to the island answering input (hydrated), median of `samples`. */
async function interactiveMs(samples = 9): Promise<Result> {
	const missing = unavailable('ms');
	if (missing) return missing;
	return withPage(async (page, url) => {
		const times: number[] = [];
		for (let i = 0; i < samples; i++) {
			await page.goto(url, { waitUntil: 'networkidle' });
			await page.waitForTimeout(300);
			// The island answers once its first frame is painted.
			const ms = await msFromScrollUntil(page, '.ca-sbx:not([data-state="static"]) .ca-term__input', true);
			times.push(ms);
		}
		// Each sample is a fresh page load, so the chunks come from the browser's cache after the first: as on a reader's second chapter.
		return { value: median(times), unit: 'ms (median)', note: `scroll into view -> hydrated and painted; samples ${times.map((t) => t.toFixed(0)).join(' ')}` };
	});
}

/** Milliseconds from scrolling the sandbox into view to a running cluster (the worker fetched in idle time, the scenario at its expected state). */
async function clusterReadyMs(samples = 5): Promise<Result> {
	const missing = unavailable('ms');
	if (missing) return missing;
	return withPage(async (page, url) => {
		const times: number[] = [];
		for (let i = 0; i < samples; i++) {
			await page.goto(url, { waitUntil: 'networkidle' });
			await page.waitForTimeout(300);
			const ms = await msFromScrollUntil(page, '.ca-sbx[data-state="ready"]', false);
			times.push(ms);
		}
		return { value: median(times), unit: 'ms (median)', note: `scroll into view -> cluster running; samples ${times.map((t) => t.toFixed(0)).join(' ')}` };
	});
}

/**
 * Milliseconds from Enter on `kubectl get pods` to its output on screen:
 * `warm`, the page open and the sandbox in view for 2 s first; cold, Enter
 * as soon as the terminal takes input after scrolling to it.
 */
async function firstAnswerMs(warm: boolean, samples = 5): Promise<Result> {
	const missing = unavailable('ms');
	if (missing) return missing;
	return withPage(async (page, url) => {
		const times: number[] = [];
		for (let i = 0; i < samples; i++) {
			await page.goto(url, { waitUntil: 'networkidle' });
			const section = page.locator('section.ca-sandbox').first();
			await section.scrollIntoViewIfNeeded();
			const input = page.locator('.ca-sbx:not([data-state="static"]) .ca-term__input').first();
			await input.waitFor();
			if (warm) await page.waitForTimeout(2000);
			await input.fill('kubectl get pods');
			const ms = await page.evaluate(
				() =>
					new Promise<number>((done) => {
						const screen = document.querySelector('.ca-term__screen')!;
						const field = document.querySelector('.ca-sbx .ca-term__input') as HTMLInputElement;
						const before = screen.querySelectorAll('.ca-term__entry').length;
						const start = performance.now();
						const observer = new MutationObserver(() => {
							const entry = screen.querySelectorAll('.ca-term__entry')[before];
							if (entry && entry.querySelector('.ca-term__out') && !entry.querySelector('.ca-term__pending')) {
								observer.disconnect();
								done(performance.now() - start);
							}
						});
						observer.observe(screen, { subtree: true, childList: true, characterData: true });
						field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
					}),
			);
			times.push(ms);
		}
		return { value: median(times), unit: 'ms (median)', note: `Enter -> output shown (${warm ? 'page open 2 s' : 'cold'}); samples ${times.map((t) => t.toFixed(0)).join(' ')}` };
	});
}

/** The longest main-thread task while playing at 60x for ten seconds. */
async function longestTaskAt60x(): Promise<Result> {
	const missing = unavailable('ms');
	if (missing) return missing;
	return withPage(async (page, url, browser) => {
		await page.goto(url, { waitUntil: 'networkidle' });
		await page.locator('section.ca-sandbox').first().scrollIntoViewIfNeeded();
		await page.waitForSelector('.ca-sbx[data-state="ready"]', { timeout: 60_000 });
		await page.evaluate(() => {
			const w = window as unknown as { __long: number[] };
			w.__long = [];
			new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__long.push(e.duration))).observe({ type: 'longtask' });
		});
		await page.getByRole('button', { name: 'Play at 60x' }).click();
		const trace = resolve('tests/.output/sandbox-60x-trace.json');
		mkdirSync('tests/.output', { recursive: true });
		await browser.startTracing(page, { path: trace, categories: ['toplevel'] });
		await page.waitForTimeout(10_000);
		const buffer = await browser.stopTracing();
		await page.getByRole('button', { name: 'Pause', exact: true }).click();
		const long = await page.evaluate(() => (window as unknown as { __long: number[] }).__long);
		const events = (JSON.parse(buffer.toString()) as { traceEvents: Array<{ name: string; ph: string; dur?: number; tdur?: number; pid: number; tid: number; args?: { name?: string } }> }).traceEvents;
		const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
		const tasks = events.filter((e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask');
		const cpuMax = Math.max(0, ...tasks.map((e) => (e.tdur ?? 0) / 1000));
		const wallMax = Math.max(0, ...long);
		return { value: wallMax, unit: 'ms (wall, longtask)', note: `${long.length} long tasks in 10 s; longest task's CPU time ${cpuMax.toFixed(1)} ms (${tasks.length} tasks traced)` };
	});
}

export const benchmarks: Benchmark[] = [
	{ name: 'sandbox chapter: JS before the sandbox scrolls into view', samples: 1, warmup: 0, run: () => phase('beforeScroll') },
	{ name: 'sandbox: JS fetched when it scrolls into view (island UI, map)', samples: 1, warmup: 0, run: () => phase('atScroll') },
	{ name: 'sandbox: JS fetched in idle time once in view (simulation worker)', samples: 1, warmup: 0, run: () => phase('firstUse') },
	{ name: 'sandbox: JS fetched when every other panel is opened', samples: 1, warmup: 0, run: () => phase('panels') },
	{ name: 'sandbox: interactive after scrolling into view', samples: 1, warmup: 0, run: () => interactiveMs() },
	{ name: 'sandbox: cluster running after scrolling into view', samples: 1, warmup: 0, run: () => clusterReadyMs() },
	{ name: 'sandbox: first answer after Enter, page open 2 s', samples: 1, warmup: 0, run: () => firstAnswerMs(true) },
	{ name: 'sandbox: first answer after Enter, cold', samples: 1, warmup: 0, run: () => firstAnswerMs(false) },
	{ name: 'sandbox: longest main-thread task playing at 60x', samples: 1, warmup: 0, run: () => longestTaskAt60x() },
];
