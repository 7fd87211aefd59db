/**
 * What the sandbox browser tests share: open a chapter with a sandbox,
 * bring it into view (which hydrates it), start its cluster, run commands
 * in its terminal and read what the reader sees.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser, openWatched } from './harness.ts';

/** A chapter with a sandbox (the cluster at a glance), its scenario, and the same chapter in Chinese. */
export const SANDBOX_PAGE = 'start/overview/';
export const SANDBOX_PAGE_ZH = 'zh-cn/start/overview/';
export const SANDBOX_SCENARIO = 'start/overview';

export interface OpenSandbox {
	page: Page;
	context: BrowserContext;
	problems: string[];
	/** The sandbox's live frame. */
	sandbox: Locator;
}

/** One browser and one started sandbox shared by a test file. */
export interface SharedSandbox extends OpenSandbox {
	browser: Browser;
}

/**
 * Registers the file's beforeAll and afterAll: a browser, the sandbox page
 * opened and its cluster started, both closed at the end. The object is
 * filled in by beforeAll, so read its fields inside tests only.
 */
export function useStartedSandbox(options: { path?: string; scenario?: string; clock?: 'running' | 'paused' } = {}): SharedSandbox {
	const shared = {} as SharedSandbox;
	beforeAll(async () => {
		const browser = await launchBrowser();
		Object.assign(shared, await openSandbox(browser, options), { browser });
		await startCluster(shared.sandbox, { clock: options.clock });
	}, 90_000);
	afterAll(async () => {
		await shared.context?.close();
		await shared.browser?.close();
	});
	return shared;
}

/** Opens the page, scrolls its first sandbox (or the one of `scenario`, on a page with several) into view and waits until it is hydrated. */
export async function openSandbox(
	browser: Browser,
	options: {
		path?: string;
		hash?: string;
		scenario?: string;
		viewport?: { width: number; height: number };
		colorScheme?: 'light' | 'dark';
		reducedMotion?: boolean;
		prepare?: (context: BrowserContext) => Promise<void>;
	} = {},
): Promise<OpenSandbox> {
	const { page, problems, context } = await openWatched(browser, (options.path ?? SANDBOX_PAGE) + (options.hash ?? ''), { viewport: options.viewport, colorScheme: options.colorScheme, prepare: options.prepare });
	if (options.reducedMotion) await page.emulateMedia({ reducedMotion: 'reduce' });
	const section = (options.scenario ? page.locator(`section.ca-sandbox[data-ca-scenario="${options.scenario}"]`) : page.locator('section.ca-sandbox')).first();
	await section.scrollIntoViewIfNeeded();
	const sandbox = section.locator('.ca-sbx:not([data-state="static"])');
	await sandbox.waitFor({ state: 'visible', timeout: 20_000 });
	return { page, context, problems, sandbox };
}

/** Waits until a condition holds (usable in hooks, where expect.poll is not). */
export async function until(check: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		if (await check()) return;
		if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
		await new Promise((done) => setTimeout(done, 100));
	}
}

/**
 * Starts the cluster (the worker loads when the reader reaches for the
 * sandbox) and waits until it answers. Its clock runs at 1x from then on, as
 * a real cluster's does; tests that count virtual seconds exactly pause it
 * first with the Pause button, as a reader who wants to watch step by step
 * does (`clock: 'paused'`, the default here). The first-minute tests keep it
 * running.
 */
export async function startCluster(sandbox: Locator, options: { clock?: 'running' | 'paused' } = {}): Promise<void> {
	await sandbox.locator('.ca-term__input').focus();
	await until(async () => (await sandbox.getAttribute('data-state')) === 'ready', 'the cluster to start');
	if ((options.clock ?? 'paused') === 'paused') await pauseClock(sandbox);
}

/** Pauses the clock with the play/pause button (if it is running), in any locale, and waits until it says so. */
export async function pauseClock(sandbox: Locator): Promise<void> {
	const playing = sandbox.locator('.ca-time__state--playing');
	if ((await playing.count()) === 0) return;
	await sandbox.locator('.ca-time button.ca-sbx-btn--primary[aria-pressed="true"]').click();
	await until(async () => (await playing.count()) === 0, 'the clock to pause');
}

/** Opens a tab of the sandbox by its visible name. */
export async function openTab(sandbox: Locator, name: string | RegExp): Promise<void> {
	await sandbox.getByRole('tab', { name }).click();
}

/** Types a command in the terminal, presses Enter and returns the output the reader sees for it. */
export async function run(sandbox: Locator, command: string): Promise<string> {
	const tab = sandbox.getByRole('tab', { name: 'Terminal' });
	if ((await tab.count()) && (await tab.getAttribute('aria-selected')) !== 'true') await tab.click();
	const input = sandbox.locator('.ca-term__input');
	// Notes the sandbox writes on its own (a task just done, a read in the past) are not the command's entry.
	const commands = sandbox.locator('.ca-term__entry:not(.ca-term__entry--note)');
	const before = await commands.count();
	await input.fill(command);
	await input.press('Enter');
	const entry = commands.nth(before);
	await entry.locator('.ca-term__out, .ca-term__cmd').first().waitFor();
	await until(async () => (await entry.locator('.ca-term__pending').count()) === 0, `\`${command}\` to finish`);
	const out = entry.locator('.ca-term__out');
	return (await out.count()) ? out.innerText() : '';
}

/** The virtual clock as shown (HH:MM:SS). */
export async function clock(sandbox: Locator): Promise<string> {
	return sandbox.locator('.ca-time__now').innerText();
}

/** Seconds of an HH:MM:SS clock. */
export function seconds(clockText: string): number {
	const [h, m, s] = clockText.split(':').map(Number);
	return h * 3600 + m * 60 + s;
}

/** The status text of a pod on the map. */
export function podOnMap(sandbox: Locator, name: string | RegExp): Locator {
	return sandbox.locator('.ca-sbx__map .ca-pod').filter({ hasText: name });
}
