/**
 * Two journeys a first-time reader takes, in Chromium against the built
 * site: the story of a command survives the `kubectl get` that follows it
 * (or any command, once kept), summed up station by station with rows that
 * open; and while etcd is stopped the map says its Node and Pod states are
 * as last recorded, then, once etcd is back, what the cluster still waits
 * for (its leaders' Leases), until it has recovered.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { openTab, run, useStartedSandbox } from './sandbox-helpers.ts';

const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const s = useStartedSandbox();

async function jump(sandbox: Locator, name: string): Promise<void> {
	const clock = sandbox.locator('.ca-time__now');
	const before = await clock.innerText();
	await sandbox.getByRole('button', { name, exact: true }).click();
	await expect.poll(() => clock.innerText()).not.toBe(before);
}

async function axeViolations(): Promise<string[]> {
	const results = await new AxeBuilder({ page: s.page }).include('section.ca-sandbox').withTags(WCAG_TAGS).analyze();
	return results.violations.map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(' | ')}`);
}

const CREATE = 'kubectl create deployment web --image=nginx:1.27 --replicas=3';

describe('the story of a chosen command', () => {
	const story = () => s.sandbox.locator('.ca-story');
	const subject = () => story().locator('.ca-story__subject').innerText();

	it('still tells the Deployment\'s story after kubectl get pods, station by station', async () => {
		await run(s.sandbox, CREATE);
		await jump(s.sandbox, '+10 s');
		expect(await run(s.sandbox, 'kubectl get pods')).toMatch(/^NAME\s+READY\s+STATUS/);
		await openTab(s.sandbox, 'Story');
		await expect.poll(subject, { timeout: 20_000 }).toBe(`$ ${CREATE}`);
		// The reader's commands, newest first; the read is marked and not shown by default.
		await expect.poll(() => story().locator('.ca-story__choice option').allInnerTexts()).toEqual(['$ kubectl get pods (read only)', `$ ${CREATE}`]);
		const names = await story().locator('.ca-station__name').allInnerTexts();
		expect(names.slice(0, 7)).toEqual(['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'container-runtime']);
		const row = (name: string) => story().locator('.ca-station').filter({ has: s.page.locator('.ca-station__name', { hasText: new RegExp(`^${name}$`) }) });
		expect(await row('kube-apiserver').locator('.ca-station__what').innerText()).toMatch(/admitted and stored deployments\/web, replicasets\/web-[a-z0-9]+, pods \(3\)/);
		expect(await row('kube-scheduler').locator('.ca-station__what').innerText()).toMatch(/^bound 3 Pods \(node-/);
		expect(await row('kube-scheduler').locator('.ca-station__count').innerText()).toMatch(/^\d+ steps$/);
		// The diagram waits until asked for.
		expect(await story().locator('svg[role="img"]').count()).toBe(0);
	});

	it('opens a station to its steps', async () => {
		const row = story().locator('.ca-station').filter({ has: s.page.locator('.ca-station__name', { hasText: /^kube-scheduler$/ }) });
		const toggle = row.getByRole('button');
		expect(await toggle.getAttribute('aria-expanded')).toBe('false');
		await toggle.click();
		await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true');
		const steps = s.page.locator(`[id="${await toggle.getAttribute('aria-controls')}"]`);
		await expect.poll(() => steps.locator('li').count()).toBeGreaterThan(3);
		expect((await steps.allInnerTexts()).join('\n')).toMatch(/kube-scheduler → kube-apiserver: bound default\/web-[a-z0-9-]+ to node-\d/);
		await toggle.press('Enter');
		await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('false');
	});

	it('draws the sequence diagram on demand, for one station and whom it talks to', async () => {
		await story().getByText(/^Sequence diagram \(\d+ participants\)$/).click();
		await expect.poll(() => story().locator('.ca-story__head').count()).toBeGreaterThan(6);
		await story().getByLabel('Draw').selectOption({ label: 'kube-scheduler and whom it talks to' });
		await expect.poll(() => story().locator('.ca-story__head').evaluateAll((gs) => gs.map((g) => g.textContent))).toEqual(['kube-apiserver', 'kube-scheduler']);
	});

	it('keeps a kept story when a command that writes follows, and shows another when the reader picks it', async () => {
		await story().getByLabel('Keep this story').check();
		await run(s.sandbox, 'kubectl create namespace later');
		await openTab(s.sandbox, 'Story');
		await expect.poll(() => story().locator('.ca-story__choice option').count(), { timeout: 20_000 }).toBe(3);
		expect(await subject()).toBe(`$ ${CREATE}`);
		await story().getByLabel('Story of').selectOption({ label: '$ kubectl create namespace later' });
		await expect.poll(subject).toBe('$ kubectl create namespace later');
		expect(await story().getByLabel('Keep this story').isChecked()).toBe(true);
		expect(await story().locator('.ca-station__name').allInnerTexts()).toEqual(['kubectl', 'kube-apiserver', 'etcd']);
	});

	it('has no accessibility violations', async () => {
		await story().locator('.ca-station').first().getByRole('button').click();
		expect(await axeViolations()).toEqual([]);
	});
});

describe('the map while etcd is away, and while the cluster recovers', () => {
	const notices = () => s.sandbox.locator('.ca-sbx__map .ca-notice');
	const noticeText = async () => (await notices().allInnerTexts()).join('\n');
	const nodesHeading = () => s.sandbox.locator('.ca-sbx__map .ca-map__section h3').nth(1);

	it('says nothing while the control plane is healthy', async () => {
		expect(await notices().count()).toBe(0);
		expect(await nodesHeading().innerText()).toBe('Nodes');
	});

	it('marks the Node and Pod states as last recorded while etcd is stopped', async () => {
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Stop etcd' }).click();
		await expect.poll(noticeText).toMatch(/^✕ etcd is stopped\. The Node and Pod states below are as etcd last recorded them/);
		expect(await noticeText()).toContain('cannot renew their leader Leases');
		expect(await nodesHeading().innerText()).toBe('Nodes (as last recorded)');
		// The etcd Pod still says what etcd last held.
		expect(await s.sandbox.locator('.ca-sbx__map .ca-pod').filter({ hasText: 'etcd-control-plane' }).innerText()).toContain('Running');
		expect(await run(s.sandbox, 'kubectl get pods')).toContain('Error from server: etcdserver: request timed out');
		await jump(s.sandbox, '+1 min');
		expect(await noticeText()).toMatch(/etcd is stopped/);
		expect(await s.sandbox.locator('.ca-sbx__map .ca-badge').count()).toBe(0);
	});

	it('has no accessibility violations with the note shown', async () => {
		expect(await axeViolations()).toEqual([]);
	});

	it('once etcd is back, lists the Pods again and says who waits for a leader, until the leaders are back', async () => {
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Start etcd' }).click();
		// The kubelet restarts etcd's container at its next back-off; then the leaders wait out their Leases
		// (at least the 15 s lease duration), so 10 s steps see every phase.
		const seen: string[] = [];
		let listed = '';
		for (let i = 0; i < 20; i++) {
			await jump(s.sandbox, '+10 s');
			const now = await noticeText();
			seen.push(now);
			if (!listed && !/etcd is/.test(now)) {
				expect(await nodesHeading().innerText()).toBe('Nodes');
				listed = await run(s.sandbox, 'kubectl get pods');
			}
			if (now === '') break;
		}
		// Served again at once from the watch cache: the Pods that exist, not "No resources found".
		expect(listed).not.toContain('No resources found');
		expect(listed.match(/^web-\S+\s+1\/1\s+Running/gm)).toHaveLength(3);
		// The leaders gave up their Leases while etcd was away: their replicas waited to take them again.
		expect(seen.some((n) => /^▲ Waiting for a leader: kube-controller-manager, kube-scheduler\. .*lease duration \(15 s\)/.test(n))).toBe(true);
		expect(seen.at(-1)).toBe('');
		expect(await notices().count()).toBe(0);
		await expect.poll(() => s.sandbox.locator('.ca-sbx__map .ca-badge').count()).toBe(2);
	});
});
