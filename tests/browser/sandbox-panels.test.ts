/**
 * The sandbox's visual panels in Chromium, driven as a reader drives them:
 * open an object from the map and read it, filter the timeline, read the
 * story of a command, ask why a pod is Pending, apply YAML with a mistake
 * and then without; axe on each panel; the map at 360 px, without motion
 * and without JavaScript.
 */
import { describe, expect, it } from 'vitest';
import type { Locator } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { openWatched } from './harness.ts';
import { openSandbox, openTab, run, SANDBOX_PAGE, seconds, useStartedSandbox } from './sandbox-helpers.ts';

/** WCAG 2.2 levels A and AA, with the 2.0 and 2.1 rules they include. */
const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa'];

const s = useStartedSandbox();

/** Presses a time button (`+10 s`, `+1 min`) and waits for the clock to move. */
async function jump(sandbox: Locator, name: string): Promise<void> {
	const clock = sandbox.locator('.ca-time__now');
	const before = await clock.innerText();
	await sandbox.getByRole('button', { name, exact: true }).click();
	await expect.poll(() => clock.innerText()).not.toBe(before);
}

/** Violations axe finds inside the sandbox, as `rule: targets`. */
async function axeViolations(): Promise<string[]> {
	const results = await new AxeBuilder({ page: s.page }).include('section.ca-sandbox').withTags(WCAG_TAGS).analyze();
	return results.violations.map(
		(v) =>
			`${v.id} (${v.impact}): ${v.nodes
				.map((n) => n.target.join(' '))
				.slice(0, 3)
				.join(' | ')}`,
	);
}

describe('the inspector', () => {
	it('opens a node from the map and shows its YAML, then describe with the arrow keys', async () => {
		await s.sandbox
			.locator('.ca-sbx__map')
			.getByRole('button', { name: /^node-1\b/ })
			.click();
		const inspector = s.sandbox.locator('.ca-inspector');
		await expect.poll(() => s.sandbox.getByRole('tab', { name: 'Inspector', exact: true }).getAttribute('aria-selected')).toBe('true');
		await expect.poll(() => inspector.locator('pre').innerText(), { timeout: 20_000 }).toMatch(/kind: Node[\s\S]*name: node-1/);
		await inspector.getByRole('tab', { name: 'YAML' }).press('ArrowRight');
		await expect.poll(() => inspector.getByRole('tab', { name: 'Describe' }).getAttribute('aria-selected')).toBe('true');
		await expect.poll(() => inspector.locator('pre').innerText()).toMatch(/^Name:\s+node-1$/m);
		expect(await inspector.locator('pre').innerText()).toMatch(/Taints:\s+<none>/);
	});

	it('opens a pod from the map and shows its events', async () => {
		await s.sandbox
			.locator('.ca-sbx__map .ca-pod')
			.filter({ hasText: /^.?\s*coredns-/ })
			.first()
			.click();
		const inspector = s.sandbox.locator('.ca-inspector');
		await inspector.getByRole('tab', { name: 'Events' }).click();
		await expect.poll(() => inspector.locator('pre').innerText(), { timeout: 20_000 }).toMatch(/Scheduled\s+pod\/coredns-.*Successfully assigned kube-system\/coredns-/);
	});

	it('has no accessibility violations', async () => {
		expect(await axeViolations()).toEqual([]);
	});
});

describe('the story of a request', () => {
	it('draws what kubectl create deployment caused, component by component', async () => {
		await run(s.sandbox, 'kubectl create deployment web --image=nginx:1.27 --replicas=2');
		await jump(s.sandbox, '+10 s');
		await openTab(s.sandbox, 'Story');
		const story = s.sandbox.locator('.ca-story');
		// The station summary comes first; the diagram is drawn when asked for.
		await expect.poll(() => story.locator('.ca-station').count(), { timeout: 20_000 }).toBeGreaterThan(6);
		await story.getByText(/^Sequence diagram \(\d+ participants\)$/).click();
		await expect.poll(() => story.locator('.ca-story__head').count(), { timeout: 20_000 }).toBeGreaterThan(6);
		const heads = await story.locator('.ca-story__head').evaluateAll((gs) => gs.map((g) => [...g.querySelectorAll('text')].map((t) => t.textContent).join(' ')));
		expect(heads.slice(0, 5)).toEqual(['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler']);
		expect(heads.some((h) => /^kubelet node-\d$/.test(h))).toBe(true);
		expect(heads.some((h) => /^container-runtime node-\d$/.test(h))).toBe(true);

		const svg = story.locator('svg[role="img"]');
		const title = await svg.locator('title').first().textContent();
		expect(title).toMatch(/^What happened because of /);
		await story.getByText(/^The \d+ steps as text$/).click();
		// The list is drawn once the details element has opened (a render after the toggle).
		await expect.poll(() => story.locator('.ca-story__text li').count(), { timeout: 20_000 }).toBeGreaterThan(10);
		const steps = await story.locator('.ca-story__text li').allInnerTexts();
		expect(steps[0]).toMatch(/^\+0 ms kubectl → kube-apiserver: POST \/apis\/apps\/v1\/namespaces\/default\/deployments$/);
		expect(steps.some((t) => /kube-apiserver → etcd: txn put \/registry\/deployments\/default\/web/.test(t))).toBe(true);
		expect(steps.some((t) => /kube-controller-manager\/replicaset-controller → kube-apiserver: POST \/api\/v1\/namespaces\/default\/pods/.test(t))).toBe(true);
		expect(steps.some((t) => /kube-scheduler → kube-apiserver: POST .*\/binding/.test(t))).toBe(true);
		expect(steps.some((t) => /container-runtime\/node-\d: started container nginx/.test(t))).toBe(true);
	});

	it('has no accessibility violations', async () => {
		expect(await axeViolations()).toEqual([]);
	});
});

describe('the timeline', () => {
	it('lists the trace and narrows it by component and by object', async () => {
		await openTab(s.sandbox, 'Timeline');
		const timeline = s.sandbox.locator('.ca-timeline');
		await expect.poll(() => timeline.locator('.ca-event').count(), { timeout: 20_000 }).toBeGreaterThan(10);

		await timeline.getByLabel('Component').selectOption('kube-scheduler');
		await expect.poll(async () => [...new Set(await timeline.locator('.ca-event__component').allInnerTexts())]).toEqual(['kube-scheduler']);

		await timeline.getByLabel('Component').selectOption('');
		await timeline.getByLabel('Object').fill('deployments/default/web');
		// The Deployment as the API names it, and its key in etcd.
		await expect.poll(async () => (await timeline.locator('.ca-event__object').allInnerTexts()).every((o) => o.endsWith('deployments/default/web'))).toBe(true);
		expect(await timeline.locator('.ca-event').count()).toBeGreaterThan(3);
	});

	it('opens the story of the events of one command', async () => {
		const timeline = s.sandbox.locator('.ca-timeline');
		await timeline
			.getByRole('button', { name: /^Story of input:/ })
			.first()
			.click();
		await expect.poll(() => s.sandbox.getByRole('tab', { name: 'Story', exact: true }).getAttribute('aria-selected')).toBe('true');
		await expect.poll(() => s.sandbox.locator('.ca-story .ca-station').count()).toBeGreaterThan(2);
	});

	it('has no accessibility violations', async () => {
		await openTab(s.sandbox, 'Timeline');
		expect(await axeViolations()).toEqual([]);
	});
});

describe('the YAML editor and why', () => {
	it('shows a YAML mistake at its line, then applies a good manifest', async () => {
		await openTab(s.sandbox, 'YAML');
		const editor = s.sandbox.locator('.ca-yaml');
		const text = editor.getByLabel('YAML to apply');
		await text.fill('apiVersion: v1\nkind: Pod\nmetadata:\n  name: broken\n   labels: {a: b}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n');
		await editor.getByRole('button', { name: 'Apply' }).click();
		await expect.poll(() => editor.locator('.ca-yaml__result').innerText(), { timeout: 20_000 }).toContain('yaml: line 5: mapping values are not allowed in this context');
		await expect.poll(() => editor.locator('.ca-yaml__ln--error').allInnerTexts()).toEqual(['! 5']);
		expect(await editor.locator('.ca-yaml__errors').innerText()).toMatch(/Line 5.*mapping values are not allowed in this context/);
		expect(await text.getAttribute('aria-invalid')).toBe('true');
		await editor.getByRole('button', { name: 'Go to line 5' }).click();
		expect(await text.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe('   labels: {a: b}');

		await editor.getByLabel('Start from').selectOption({ label: 'A Pod that no node accepts' });
		await editor.getByRole('button', { name: 'Load' }).click();
		await expect.poll(() => text.inputValue()).toContain('disktype: ssd');
		await editor.getByRole('button', { name: 'Apply' }).click();
		await expect.poll(() => editor.locator('.ca-yaml__result').innerText()).toContain('pod/picky created');
		await expect.poll(() => editor.locator('.ca-yaml__ln--error').count()).toBe(0);
		await jump(s.sandbox, '+10 s');
		await expect.poll(() => s.sandbox.locator('.ca-sbx__map .ca-pod').filter({ hasText: 'picky' }).innerText()).toMatch(/picky\s+Pending/);
	});

	it('has no accessibility violations', async () => {
		expect(await axeViolations()).toEqual([]);
	});

	it('explains why the Pending pod has no node: each node and the filter that said no', async () => {
		await openTab(s.sandbox, 'Why');
		const why = s.sandbox.locator('.ca-why');
		await why.getByLabel('Pod').selectOption({ label: 'default/picky (no node)' });
		await expect.poll(() => why.locator('caption').innerText(), { timeout: 20_000 }).toBe('How kube-scheduler judged 3 of 3 nodes for default/picky');
		expect(await why.locator('.ca-why__result').innerText()).toContain('Unschedulable: no node fits');
		const row = (node: string) => why.locator('tbody tr').filter({ has: s.page.locator('th', { hasText: node }) });
		expect(await row('node-1').innerText()).toMatch(/Rejected by NodeAffinity[\s\S]*NodeAffinity: UnschedulableAndUnresolvable — node\(s\) didn't match Pod's node affinity\/selector/);
		expect(await row('control-plane').innerText()).toMatch(/Rejected by TaintToleration[\s\S]*untolerated taint/);
		expect(await why.innerText()).toMatch(/PostFilter \(preemption\) DefaultPreemption/);
	});

	it('opens from the inspector for the pod shown there', async () => {
		await s.sandbox.locator('.ca-sbx__map .ca-pod').filter({ hasText: 'web-' }).first().click();
		await s.sandbox.locator('.ca-inspector').getByRole('button', { name: 'Why this node?' }).click();
		const why = s.sandbox.locator('.ca-why');
		await expect.poll(() => why.locator('.ca-why__result').innerText(), { timeout: 20_000 }).toMatch(/Scheduled to node-\d/);
		expect(await why.locator('.ca-why__row--chosen').innerText()).toMatch(/Chosen[\s\S]*TaintToleration: \d+ → \d+ × 3 = \d+/);
	});

	it('has no accessibility violations', async () => {
		expect(await axeViolations()).toEqual([]);
	});

	it('left no errors, exceptions or CSP violations behind', () => {
		expect(s.problems).toEqual([]);
	});
});

describe('while the cluster plays at 60x', () => {
	// How long the page's main-thread tasks take is wall time, so it is measured by
	// `npm run bench -- "playing at 60x"` (tests/bench/sandbox.bench.ts), not asserted here.
	// What a reader relies on is asserted: time runs with the panel open (the timeline follows it), the
	// terminal still takes keystrokes, and Pause stops the clock.
	it.each(['Timeline', 'Story', 'Inspector', 'Why'])('with the %s panel open the clock runs, the terminal takes keystrokes and Pause stops time', async (tab) => {
		await openTab(s.sandbox, tab);
		const clock = s.sandbox.locator('.ca-time__now');
		const before = seconds(await clock.innerText());
		await s.sandbox.getByRole('button', { name: 'Play at 60x' }).click();
		try {
			await expect.poll(async () => seconds(await clock.innerText()), { timeout: 20_000 }).toBeGreaterThan(before + 60);
			if (tab === 'Timeline') {
				const times = s.sandbox.locator('.ca-timeline .ca-event__time');
				// An event's time reads [H:]M:SS.mmm.
				const newestSeconds = async () => (await times.allInnerTexts()).at(-1)!.split(':').reduce((sum, part) => sum * 60 + Number(part), 0);
				const newest = await newestSeconds();
				await expect.poll(newestSeconds, { timeout: 20_000 }).toBeGreaterThan(newest);
				expect(await times.count()).toBeLessThanOrEqual(200);
			}
			// Back to the terminal with the clock still running: it takes the reader's keystrokes.
			await openTab(s.sandbox, 'Terminal');
			const input = s.sandbox.locator('.ca-term__input');
			await input.pressSequentially('kubectl get no');
			await expect.poll(() => input.inputValue()).toBe('kubectl get no');
			await input.fill('');
		} finally {
			// A failure above must not leave the clock running for the tests after it.
			await s.sandbox.getByRole('button', { name: 'Pause', exact: true }).click();
		}
		// Views the worker pushed before it took the Pause may still land: read the clock once the sandbox says it is paused.
		await expect.poll(() => s.sandbox.locator('.ca-time__state--playing').count()).toBe(0);
		const paused = await clock.innerText();
		await s.page.waitForTimeout(1500);
		expect(await clock.innerText()).toBe(paused);
	});

	it('the timeline followed the cluster', async () => {
		await openTab(s.sandbox, 'Timeline');
		const times = await s.sandbox.locator('.ca-timeline .ca-event__time').allInnerTexts();
		expect(times.at(-1)! > times[0]).toBe(true);
	});
});

describe('in the light theme', () => {
	it.each(['Inspector', 'Timeline', 'Story', 'Why', 'YAML'])('the %s panel has no accessibility violations', async (tab) => {
		await s.page.evaluate(() => {
			localStorage.setItem('starlight-theme', 'light');
			document.documentElement.dataset.theme = 'light';
		});
		await openTab(s.sandbox, tab);
		await s.page.waitForTimeout(300);
		expect(await axeViolations()).toEqual([]);
	});
});

describe('the map', () => {
	it('fits a 360 px phone and keeps every panel inside the page', async () => {
		const phone = await openSandbox(s.browser, { viewport: { width: 360, height: 740 } });
		try {
			const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
			expect(overflow).toBe(0);
			const box = await phone.sandbox.locator('.ca-sbx__map .ca-node').first().boundingBox();
			expect(box!.width).toBeLessThanOrEqual(360);
			expect(phone.problems).toEqual([]);
		} finally {
			await phone.context.close();
		}
	});

	it('moves messages only when motion is welcome', async () => {
		await run(s.sandbox, 'kubectl get pods');
		const pulse = s.sandbox.locator('.ca-flow__pulse').last();
		await pulse.waitFor({ state: 'attached' });
		expect(await pulse.evaluate((el) => getComputedStyle(el).animationName)).toBe('ca-pulse');
		await s.page.emulateMedia({ reducedMotion: 'reduce' });
		expect(await pulse.evaluate((el) => getComputedStyle(el).display)).toBe('none');
		expect(await s.sandbox.locator('.ca-flow__caption').innerText()).toMatch(/^Latest: .+ → .+/);
		await s.page.emulateMedia({ reducedMotion: 'no-preference' });
	});

	it('is the picture readers without JavaScript see', async () => {
		const { page, context } = await openWatched(s.browser, SANDBOX_PAGE, { javaScriptEnabled: false });
		try {
			const map = page.locator('section.ca-sandbox .ca-map').first();
			const text = await map.innerText();
			expect(text).toMatch(/kube-apiserver\s+running/);
			expect(text).toMatch(/node-1\s+Ready/);
			expect(text).toMatch(/CPU\s+\S+ \/ 2 requested/);
			expect(await map.locator('button').count()).toBe(0);
		} finally {
			await context.close();
		}
	});
});
