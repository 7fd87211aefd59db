/**
 * What every browser test shares: a Chromium driven by playwright-core (the
 * system's, or the npm registry's: see tests/find-chromium.ts), the served site's URL, the list of built pages,
 * and a page wrapper that records console errors, uncaught exceptions and
 * Content-Security-Policy violations.
 */
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The Chromium global-setup.ts found for this run. */
export function chromiumPath(): string {
	return inject('chromiumPath');
}

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
	return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
}

/** Every page of a build, as a path relative to the site base ('' for the landing page, '404.html' for the not-found page). */
export function builtPages(root = process.env.DIST_DIR ?? 'dist'): string[] {
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
	options: {
		javaScriptEnabled?: boolean;
		colorScheme?: 'light' | 'dark';
		viewport?: { width: number; height: number };
		/** Runs on the new context before the page loads (routes that must be in place from the first request). */
		prepare?: (context: BrowserContext) => Promise<void>;
	} = {},
): Promise<WatchedPage & { context: BrowserContext }> {
	const context = await browser.newContext({
		javaScriptEnabled: options.javaScriptEnabled ?? true,
		colorScheme: options.colorScheme,
		viewport: options.viewport ?? { width: 1280, height: 900 },
	});
	await options.prepare?.(context);
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

/** href/src values of one page. */
function references(html: string): string[] {
	const refs: string[] = [];
	for (const match of html.matchAll(/<(a|link|script|img|source|iframe)\b[^>]*?\s(href|src)="([^"]*)"/g)) refs.push(match[3].replace(/&amp;/g, '&'));
	return refs;
}

function ids(html: string): Set<string> {
	return new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
}

/**
 * Fetches every page and every same-origin URL it links to or loads, and
 * checks each answers 200 and each #fragment names an element of its page.
 */
export async function brokenLinks(pages: string[], urlOf: (path: string) => string): Promise<{ broken: string[]; checked: number }> {
	const origin = new URL(urlOf('')).origin;
	const cache = new Map<string, { status: number; body: string }>();
	const fetchOnce = async (url: string) => {
		let hit = cache.get(url);
		if (!hit) {
			const response = await fetch(url);
			hit = { status: response.status, body: (response.headers.get('content-type') ?? '').includes('text/html') ? await response.text() : '' };
			cache.set(url, hit);
		}
		return hit;
	};
	const broken: string[] = [];
	let checked = 0;
	for (const path of pages) {
		const pageUrl = urlOf(path);
		const { body } = await fetchOnce(pageUrl);
		for (const ref of references(body)) {
			if (/^(mailto:|data:|javascript:)/.test(ref)) continue;
			const target = new URL(ref, pageUrl);
			if (target.origin !== origin) continue;
			checked++;
			const hit = await fetchOnce(target.href.split('#')[0]);
			if (hit.status !== 200) {
				broken.push(`${path || '/'} -> ${ref} (${hit.status})`);
				continue;
			}
			if (target.hash.length > 1 && !ids(hit.body).has(decodeURIComponent(target.hash.slice(1)))) {
				broken.push(`${path || '/'} -> ${ref} (no element with that id)`);
			}
		}
	}
	return { broken, checked };
}
