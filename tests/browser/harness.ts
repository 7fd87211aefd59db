/**
 * What every browser test shares: Debian's Chromium driven by playwright-core
 * (no downloaded browser), the served site's URL, the list of built pages,
 * and a page wrapper that records console errors, uncaught exceptions and
 * Content-Security-Policy violations.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep Chromium quiet on a machine with no outside network. */
const CHROMIUM_FLAGS = [
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

export function siteUrl(path = ''): string {
	return new URL(path.replace(/^\//, ''), inject('siteUrl')).href;
}

export async function launchBrowser(): Promise<Browser> {
	return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
}

/** Every page of the build, as a path relative to the site base ('' for the landing page, '404.html' for the not-found page). */
export function builtPages(): string[] {
	const root = 'dist';
	const pages: string[] = [];
	for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
		if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
		const dir = relative(root, entry.parentPath).split(sep).join('/');
		if (entry.name === 'index.html') pages.push(dir ? `${dir}/` : '');
		else pages.push(dir ? `${dir}/${entry.name}` : entry.name);
	}
	return pages.sort();
}

export interface WatchedPage {
	page: Page;
	/** Console errors, uncaught exceptions and CSP violations seen so far. */
	problems: string[];
}

/** Opens a page in a fresh context and records everything that goes wrong in it. */
export async function openWatched(
	browser: Browser,
	path: string,
	options: { javaScriptEnabled?: boolean; colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<WatchedPage & { context: BrowserContext }> {
	const context = await browser.newContext({
		javaScriptEnabled: options.javaScriptEnabled ?? true,
		colorScheme: options.colorScheme,
		viewport: options.viewport ?? { width: 1280, height: 900 },
	});
	const page = await context.newPage();
	const problems: string[] = [];
	page.on('console', (message) => {
		if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
	});
	page.on('pageerror', (error) => problems.push(`uncaught exception: ${error.message}`));
	await page.exposeFunction('__reportCspViolation', (text: string) => problems.push(`CSP violation: ${text}`));
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			(window as unknown as { __reportCspViolation(t: string): void }).__reportCspViolation(
				`${event.violatedDirective} blocked ${event.blockedURI || 'inline'} (${event.sourceFile}:${event.lineNumber})`,
			);
		});
	});
	await page.goto(siteUrl(path), { waitUntil: 'load' });
	return { page, problems, context };
}

export { join };
