/**
 * `npm run dev` works too: the dev server (Vite, modules served one by one,
 * no build) serves a chapter whose sandbox starts and answers a command. Its
 * code paths differ from the build's (the worker is a module worker loaded
 * from source), so a break there would otherwise go unseen.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { openSandbox, run } from './sandbox-helpers.ts';
import { siteConfig } from '../../site.config.mjs';

/** A port nothing listens on now. */
function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
		});
	});
}

let dev: ChildProcess | undefined;
let devUrl = '';
let browser: Browser;
let log = '';

beforeAll(async () => {
	const port = await freePort();
	// As `npm run dev` runs it: not under Vitest's NODE_ENV=test and VITEST variables.
	const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('VITEST')));
	dev = spawn(process.execPath, ['node_modules/astro/bin/astro.mjs', 'dev', '--host', '127.0.0.1', '--port', String(port)], {
		stdio: ['ignore', 'pipe', 'pipe'],
		env: { ...env, NODE_ENV: 'development', ASTRO_TELEMETRY_DISABLED: '1' },
	});
	const url = new URL(siteConfig.base, `http://127.0.0.1:${port}`).href;
	await new Promise<void>((resolve, reject) => {
		const timer = setTimeout(() => reject(new Error(`astro dev did not start within 60 s:\n${log}`)), 60_000);
		const seen = (chunk: Buffer) => {
			log += chunk.toString();
			if (log.includes(`:${port}`)) {
				clearTimeout(timer);
				resolve();
			}
		};
		dev!.stdout!.on('data', seen);
		dev!.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
		dev!.once('exit', (code) => reject(new Error(`astro dev exited with ${code}:\n${log}`)));
	});
	devUrl = url;
	browser = await launchBrowser();
	// The first visit compiles the page and its islands on demand, and the dev server reloads the
	// page once when its first compile settles (a reader sees the page load twice). Warm it up.
	const warm = await browser.newPage();
	await warm.goto(`${devUrl}start/overview/`, { timeout: 90_000 });
	await warm.waitForTimeout(5_000);
	await warm.close();
}, 150_000);

afterAll(async () => {
	await browser?.close();
	dev?.kill('SIGTERM');
});

describe('the dev server (npm run dev)', () => {
	it('serves a chapter whose sandbox answers a command', async () => {
		const s = await openSandbox(browser, { path: `${devUrl}start/overview/` });
		try {
			expect(await s.page.title()).toBe('The cluster at a glance: control plane and worker nodes | Cluster Anatomy');
			expect(await run(s.sandbox, 'kubectl get nodes')).toMatch(/control-plane\s+Ready\s+control-plane/);
			expect(s.problems.filter((p) => !/\[vite\]/.test(p))).toEqual([]);
		} finally {
			await s.context.close();
		}
	}, 180_000);
});
