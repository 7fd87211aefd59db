/**
 * Faults and tasks in the sandbox, through the UI: stopping a control-plane
 * component (its pod goes into CrashLoopBackOff on the map) and starting it
 * again, cutting a node off, powering a node off and on, and a task whose
 * check turns done by itself, with its hints and answer, and progress that
 * survives a reload.
 */
import { describe, expect, it } from 'vitest';
import { openTab, podOnMap, run, useStartedSandbox } from './sandbox-helpers.ts';

const s = useStartedSandbox();

describe('faults', () => {
	it('stops kube-scheduler: the panel says so and its pod shows CrashLoopBackOff on the map', async () => {
		await openTab(s.sandbox, 'Faults');
		const row = s.sandbox.locator('.ca-faults__row').filter({ hasText: 'kube-scheduler' });
		expect(await row.locator('.ca-faults__state').innerText()).toContain('Running');
		await s.sandbox.getByRole('button', { name: 'Stop kube-scheduler' }).click();
		await expect.poll(() => row.locator('.ca-faults__state').innerText()).toContain('Stopped');
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => podOnMap(s.sandbox, 'kube-scheduler-control-plane').innerText(), { timeout: 20_000 }).toContain('CrashLoopBackOff');
	});

	it('leaves new pods Pending without a scheduler, and schedules them once it is started again', async () => {
		await run(s.sandbox, 'kubectl create deployment patient --image=nginx:1.27 --replicas=2');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await expect.poll(() => podOnMap(s.sandbox, /patient-/).count()).toBe(2);
		for (const pod of await podOnMap(s.sandbox, /patient-/).all()) expect(await pod.innerText()).toContain('Pending');
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Start kube-scheduler' }).click();
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(async () => Promise.all((await podOnMap(s.sandbox, /patient-/).all()).map((p) => p.innerText())), { timeout: 20_000 }).toEqual([
			expect.stringContaining('Running'),
			expect.stringContaining('Running'),
		]);
	});

	it('cuts a node off and reconnects it; the map shows it', async () => {
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Cut off node-2 from the control plane' }).click();
		const card = s.sandbox.locator('.ca-sbx__map .ca-node').filter({ hasText: 'node-2' });
		await expect.poll(() => card.innerText()).toMatch(/cut off/i);
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		// The node lifecycle controller marks it Unknown once its heartbeats stop (40 s grace period).
		await expect.poll(() => run(s.sandbox, 'kubectl get node node-2 --no-headers'), { timeout: 20_000 }).toMatch(/node-2\s+NotReady/);
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Reconnect node-2 to the control plane' }).click();
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get node node-2 --no-headers'), { timeout: 20_000 }).toMatch(/node-2\s+Ready/);
	});

	it('powers node-2 off: the map says so at once; powered on, it boots and is Ready again', async () => {
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Power off node-2' }).click();
		const card = s.sandbox.locator('.ca-sbx__map .ca-node').filter({ hasText: 'node-2' });
		await expect.poll(() => card.innerText()).toContain('Powered off: nothing runs on this machine.');
		const power = s.sandbox.locator('.ca-faults__row').filter({ hasText: /^Power/ }).nth(2);
		expect(await power.locator('.ca-faults__state').innerText()).toContain('Off');
		expect(await s.sandbox.getByRole('button', { name: 'Stop kubelet (node-2)' }).isDisabled()).toBe(true);
		expect(await run(s.sandbox, 'ssh node-2')).toContain('ssh: connect to host node-2 port 22: No route to host');
		// Past the 50 s grace the node lifecycle controller marks it Unknown (kubectl prints NotReady).
		await s.sandbox.getByRole('button', { name: '+1 min', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get node node-2 --no-headers'), { timeout: 20_000 }).toMatch(/node-2\s+NotReady/);
		await openTab(s.sandbox, 'Faults');
		await s.sandbox.getByRole('button', { name: 'Power on node-2' }).click();
		await expect.poll(() => card.innerText()).not.toContain('Powered off');
		await s.sandbox.getByRole('button', { name: '+10 s', exact: true }).click();
		await expect.poll(() => run(s.sandbox, 'kubectl get node node-2 --no-headers'), { timeout: 20_000 }).toMatch(/node-2\s+Ready/);
	});
});

describe('tasks', () => {
	it('reveals hints one by one and the answer, whose commands go to the terminal', async () => {
		await openTab(s.sandbox, 'Tasks');
		const task = s.sandbox.locator('[data-task="find-the-control-plane"]');
		expect(await task.locator('.ca-task__state').innerText()).toBe('Not done yet');
		await task.getByRole('button', { name: 'Show hint 1 of 2' }).click();
		await expect.poll(() => task.locator('.ca-task__hints li').count()).toBe(1);
		await task.getByRole('button', { name: 'Show hint 2 of 2' }).click();
		await expect.poll(() => task.locator('.ca-task__hints li').count()).toBe(2);
		await task.getByRole('button', { name: 'Reveal the answer' }).click();
		await task.getByRole('button', { name: 'Type it in the terminal: kubectl label node control-plane tier=brain' }).click();
		await expect.poll(() => s.sandbox.locator('.ca-term__input').inputValue()).toBe('kubectl label node control-plane tier=brain');
	});

	it('checks itself after every change: the task turns done when the cluster matches', async () => {
		await s.sandbox.locator('.ca-term__input').press('Enter');
		await openTab(s.sandbox, 'Tasks');
		const task = s.sandbox.locator('[data-task="find-the-control-plane"]');
		await expect.poll(() => task.locator('.ca-task__state').innerText()).toBe('Done');
		// The summary counts what is done now (the faults above may already have made `patient` ready: task two).
		const done = await s.sandbox.locator('.ca-task__state').filter({ hasText: /^Done$/ }).count();
		expect(done).toBeGreaterThanOrEqual(1);
		expect(await s.sandbox.locator('.ca-tasks__summary').innerText()).toContain(`${done} of 2 tasks done`);
	});

	it('keeps the progress across a reload', async () => {
		await s.page.reload({ waitUntil: 'load' });
		const section = s.page.locator('section.ca-sandbox').first();
		await section.scrollIntoViewIfNeeded();
		s.sandbox = section.locator('.ca-sbx:not([data-state="static"])');
		await s.sandbox.waitFor();
		await openTab(s.sandbox, 'Tasks');
		const task = s.sandbox.locator('[data-task="find-the-control-plane"]');
		await expect.poll(() => task.locator('.ca-task__state').innerText()).toBe('Done');
		// The hints shown and the answer revealed are remembered too.
		expect(await task.locator('.ca-task__hints li').count()).toBe(2);
		expect(await task.locator('.ca-task__answer').count()).toBe(1);
	});

	it('logged no console error and no CSP violation', () => {
		expect(s.problems).toEqual([]);
	});
});
