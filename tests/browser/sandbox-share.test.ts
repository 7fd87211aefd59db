/**
 * Share links: the link the Share button makes reproduces the session in a
 * fresh browser (same clock, same objects, same faults); a tampered,
 * truncated, oversized or foreign link gives a clear message and the
 * scenario as written, with no error on the page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './harness.ts';
import { SANDBOX_PAGE, SANDBOX_PAGE_ZH, clock, openSandbox, openTab, run, seconds, startCluster, until, type OpenSandbox } from './sandbox-helpers.ts';

let browser: Browser;
let link: string;
let original: { clock: string; namespaces: string; pods: string };
let startClock: string;

beforeAll(async () => {
	browser = await launchBrowser();
	const s = await openSandbox(browser);
	startClock = await clock(s.sandbox);
	await startCluster(s.sandbox);
	await run(s.sandbox, 'kubectl create namespace shared-here');
	await run(s.sandbox, 'kubectl create deployment shared --image=nginx:1.27 --replicas=2');
	await s.sandbox.getByRole('button', { name: 'Play at 10x' }).click();
	await s.page.waitForTimeout(1500);
	await s.sandbox.getByRole('button', { name: 'Pause', exact: true }).click();
	await openTab(s.sandbox, 'Faults');
	await s.sandbox.getByRole('button', { name: 'Stop kube-scheduler' }).click();
	const before = seconds(await clock(s.sandbox));
	await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
	await until(async () => seconds(await clock(s.sandbox)) === before + 10, 'the jump');
	original = {
		clock: await clock(s.sandbox),
		namespaces: await run(s.sandbox, 'kubectl get namespaces -o name'),
		pods: await run(s.sandbox, 'kubectl get pods -o wide'),
	};
	await s.sandbox.getByRole('button', { name: 'Share', exact: true }).click();
	const field = s.sandbox.getByRole('textbox', { name: 'Link to this session' });
	await field.waitFor();
	link = await field.inputValue();
	expect(s.problems).toEqual([]);
	await s.context.close();
}, 120_000);
afterAll(async () => {
	await browser?.close();
});

/** Opens the chapter at a fragment; the share link's own script scrolls the sandbox into view. */
async function openAt(hash: string, path = SANDBOX_PAGE): Promise<OpenSandbox> {
	return openSandbox(browser, { path, hash });
}

describe('share links', () => {
	it('puts the scenario, seed and inputs in the URL fragment, compressed', () => {
		expect(link).toMatch(/\/start\/overview\/#sandbox=start\/overview:z[A-Za-z0-9_-]+$/);
		expect(link.length).toBeLessThan(2000);
	});

	it('reproduces the session exactly in a fresh browser', async () => {
		const s = await openAt(link.slice(link.indexOf('#')));
		await until(async () => (await s.sandbox.getAttribute('data-state')) === 'ready', 'the shared session to replay');
		await expect.poll(() => s.sandbox.locator('.ca-sbx__notice').innerText()).toContain('This is the shared session, replayed.');
		// The recipient sees what the sender typed and what came back, before typing anything.
		const screen = s.sandbox.locator('.ca-term__screen');
		await expect.poll(() => screen.innerText()).toContain('The shared session\'s commands, replayed');
		const transcript = await screen.innerText();
		expect(transcript).toContain('kubectl create namespace shared-here\nnamespace/shared-here created');
		expect(transcript).toContain('kubectl create deployment shared --image=nginx:1.27 --replicas=2\ndeployment.apps/shared created');
		expect(transcript).toContain(original.pods.trim().split('\n')[0]!);
		expect(await clock(s.sandbox)).toBe(original.clock);
		expect(await run(s.sandbox, 'kubectl get namespaces -o name')).toBe(original.namespaces);
		// The pods and the stopped scheduler are exactly as they were (names come from the seed).
		expect(await run(s.sandbox, 'kubectl get pods -o wide')).toBe(original.pods);
		await openTab(s.sandbox, 'Faults');
		expect(await s.sandbox.locator('.ca-faults__row').filter({ hasText: 'kube-scheduler' }).locator('.ca-faults__state').innerText()).toContain('Stopped');
		expect(s.problems).toEqual([]);
		await s.context.close();
	});

	const broken: Array<[string, () => string, string]> = [
		['tampered', () => link.slice(link.indexOf('#')).replace(/:z(.{20})(.)/, (_m, a: string, c: string) => `:z${a}${c === 'A' ? 'B' : 'A'}`), 'damaged'],
		['truncated', () => { const h = link.slice(link.indexOf('#')); return h.slice(0, Math.floor(h.length * 0.6)); }, 'damaged'],
		['oversized', () => `#sandbox=start/overview:z${'A'.repeat(70_000)}`, 'larger than the sandbox accepts'],
		['for a scenario not on the page', () => `#sandbox=nowhere/else:zAAAA`, 'does not describe a session of this sandbox'],
		['not base64', () => `#sandbox=start/overview:z%%%***`, 'damaged'],
	];

	it.each(broken)('a %s link shows a clear message and the scenario as written, without errors', async (_name, hash, message) => {
		const s = await openAt(hash());
		await expect.poll(() => s.sandbox.locator('.ca-sbx__notice').innerText(), { timeout: 20_000 }).toContain(message);
		expect(await clock(s.sandbox)).toBe(startClock);
		await startCluster(s.sandbox);
		expect(await run(s.sandbox, 'kubectl get namespaces -o name')).not.toContain('shared-here');
		expect(await clock(s.sandbox)).toBe(startClock);
		expect(s.problems).toEqual([]);
		await s.context.close();
	});

	it('says so in Chinese on a Chinese page', async () => {
		const s = await openAt('#sandbox=start/overview:zAAAA', SANDBOX_PAGE_ZH);
		await expect.poll(() => s.sandbox.locator('.ca-sbx__notice').innerText(), { timeout: 20_000 }).toContain('分享链接已损坏');
		expect(s.problems).toEqual([]);
		await s.context.close();
	});

	it('reset after a shared session returns to the scenario as written and drops the fragment', async () => {
		const s = await openAt(link.slice(link.indexOf('#')));
		await until(async () => (await s.sandbox.getAttribute('data-state')) === 'ready', 'the shared session to replay');
		await s.sandbox.getByRole('button', { name: 'Reset', exact: true }).click();
		await expect.poll(() => s.sandbox.locator('.ca-sbx__notice').innerText()).toContain('back at the start of the scenario');
		expect(await clock(s.sandbox)).toBe(startClock);
		expect(await s.page.evaluate(() => location.hash)).toBe('');
		expect(await run(s.sandbox, 'kubectl get namespaces -o name')).not.toContain('shared-here');
		expect(s.problems).toEqual([]);
		await s.context.close();
	});
});
