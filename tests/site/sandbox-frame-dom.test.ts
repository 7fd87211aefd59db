// @vitest-environment happy-dom
/**
 * The sandbox frame's components in a DOM: an error while rendering shows a
 * message and a reset button instead of blanking the page; tasks check
 * themselves from the view and keep progress; the faults panel says each
 * component's state in words; the static picture has nothing to click.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { h, render } from 'preact';
import { act } from 'preact/test-utils';
import { readFileSync } from 'node:fs';
import { parseScenario, startScenario } from '@cluster-anatomy/sim-core';
import { ErrorBoundary } from '../../src/islands/sandbox/ErrorBoundary.tsx';
import { Tasks, type TasksProps } from '../../src/islands/sandbox/Tasks.tsx';
import { useTaskProgress } from '../../src/islands/sandbox/use-task-progress.ts';
import { Faults } from '../../src/islands/sandbox/Faults.tsx';
import SandboxIsland from '../../src/islands/sandbox/SandboxIsland.tsx';
import { buildView } from '../../src/sandbox/view.ts';
import { translator } from '../../src/sandbox/format.ts';
import { progressKey } from '../../src/sandbox/progress.ts';
import en from '../../src/content/i18n/en.json' with { type: 'json' };
import type { ClusterView } from '../../src/sandbox/protocol.ts';

const t = translator(en as Record<string, string>);
const overview = parseScenario(readFileSync('content/scenarios/start/overview.yaml', 'utf8'), 'start/overview');
const { cluster } = startScenario(overview);
const view: ClusterView = buildView(cluster, { playing: false, speed: 1, earliestMs: cluster.now(), latestMs: cluster.now(), tasks: overview.tasks });

let root: HTMLElement;
function mount<P>(vnode: preact.VNode<P>): HTMLElement {
	root = document.createElement('div');
	document.body.append(root);
	act(() => render(vnode, root));
	return root;
}
afterEach(() => {
	render(null, root);
	root.remove();
	localStorage.clear();
});

function Boom(): never {
	throw new Error('the map fell over');
}

describe('the error boundary', () => {
	it('shows what went wrong and a reset button, not a blank', () => {
		const onReset = vi.fn();
		const el = mount(h(ErrorBoundary, { t, onReset, children: h(Boom, {}) }));
		const alert = el.querySelector('[role="alert"]')!;
		expect(alert.textContent).toContain('The sandbox stopped working.');
		expect(alert.textContent).toContain('the map fell over');
		act(() => (alert.querySelector('button') as HTMLButtonElement).click());
		expect(onReset).toHaveBeenCalledOnce();
	});
});

/** The Tasks tab with the progress the sandbox keeps for it (use-task-progress.ts). */
function TasksWithProgress(props: Omit<TasksProps, 'progress'> & { onDone: (ids: string[]) => void }) {
	const progress = useTaskProgress(props.scenarioId, props.view.tasks, props.onDone);
	return h(Tasks, { ...props, progress });
}

describe('the tasks panel', () => {
	it('marks a task done when the view says its checks hold, keeps it, and tells the sandbox once', () => {
		const onDone = vi.fn();
		const props = { scenarioId: 'start/overview', tasks: overview.tasks!, t, locale: 'en' as const, tryCommand: () => {}, onDone };
		const el = mount(h(TasksWithProgress, { ...props, view }));
		const first = () => el.querySelector('[data-task="find-the-control-plane"] .ca-task__state')!.textContent;
		expect(first()).toBe('Not done yet');
		const done: ClusterView = { ...view, tasks: view.tasks.map((task) => (task.id === 'find-the-control-plane' ? { ...task, done: true } : task)) };
		act(() => render(h(TasksWithProgress, { ...props, view: done }), root));
		expect(first()).toBe('Done');
		expect(onDone.mock.calls).toEqual([[['find-the-control-plane']]]);
		expect(JSON.parse(localStorage.getItem(progressKey('start/overview'))!).tasks['find-the-control-plane'].done).toBe(true);
		// A later view where the check fails again does not take it back, nor tell it twice.
		act(() => render(h(TasksWithProgress, { ...props, view }), root));
		act(() => render(h(TasksWithProgress, { ...props, view: done }), root));
		expect(first()).toBe('Done');
		expect(onDone).toHaveBeenCalledOnce();
	});
});

describe('the faults panel', () => {
	it('says each state in words and offers the opposite action', () => {
		const stopped: ClusterView = { ...view, components: view.components.map((c) => (c.component === 'kube-scheduler' ? { ...c, failing: true, running: false } : c)), nodes: view.nodes.map((n) => (n.name === 'node-1' ? { ...n, partitioned: true } : n)) };
		const el = mount(h(Faults, { view: stopped, t, request: async () => ({ type: 'view' as const, view }) }));
		const row = [...el.querySelectorAll('.ca-faults__row')].find((r) => r.textContent!.startsWith('kube-scheduler'))!;
		expect(row.querySelector('.ca-faults__state')!.textContent).toContain('Stopped');
		expect(row.querySelector('button')!.getAttribute('aria-label')).toBe('Start kube-scheduler');
		expect(el.querySelector('[aria-label="Reconnect node-1 to the control plane"]')).not.toBeNull();
		expect(el.querySelector('[aria-label="Cut off node-2 from the control plane"]')).not.toBeNull();
	});

	it('offers to power each node off, and a powered-off node on, sending one power request', async () => {
		const sent: unknown[] = [];
		const dark: ClusterView = { ...view, nodes: view.nodes.map((n) => (n.name === 'node-1' ? { ...n, poweredOff: true } : n)) };
		const el = mount(h(Faults, { view: dark, t, request: async (r) => (sent.push(r), { type: 'view' as const, view }) }));
		const powerRows = [...el.querySelectorAll('.ca-faults__row')].filter((r) => r.textContent!.startsWith('Power'));
		expect(powerRows.map((r) => r.querySelector('.ca-faults__state')!.textContent)).toEqual(['● On', '✕ Off', '● On']);
		const powerOn = el.querySelector<HTMLButtonElement>('[aria-label="Power on node-1"]')!;
		expect(powerOn.textContent).toBe('Power on');
		expect(el.querySelector('[aria-label="Power off node-2"]')!.textContent).toBe('Power off');
		// Nothing to start or stop on a machine without power.
		expect(el.querySelector<HTMLButtonElement>('[aria-label="Stop kubelet (node-1)"]')!.disabled).toBe(true);
		expect(el.querySelector<HTMLButtonElement>('[aria-label="Stop kubelet (node-2)"]')!.disabled).toBe(false);
		await act(async () => powerOn.click());
		expect(sent).toEqual([{ type: 'power', verb: 'powerOn', node: 'node-1' }]);
		expect(el.textContent).not.toContain('not simulated');
	});
});

describe('the faults panel: clocks', () => {
	it('says whether each node keeps time, sets one back a day and puts a skewed one back in step', async () => {
		const sent: unknown[] = [];
		const skewed: ClusterView = { ...view, nodes: view.nodes.map((n) => (n.name === 'node-1' ? { ...n, clockOffsetMs: -86_400_000 } : n)) };
		const el = mount(h(Faults, { view: skewed, t, request: async (r) => (sent.push(r), { type: 'view' as const, view }) }));
		const clockRows = [...el.querySelectorAll('.ca-faults__row')].filter((r) => r.textContent!.startsWith('Clock'));
		expect(clockRows.map((r) => r.querySelector('.ca-faults__state')!.textContent)).toEqual(['● In step', '✕ 1d behind', '● In step']);
		await act(async () => el.querySelector<HTMLButtonElement>('[aria-label="Fix the clock of node-1"]')!.click());
		await act(async () => el.querySelector<HTMLButtonElement>('[aria-label="Set back the clock of node-2 by a day"]')!.click());
		expect(sent).toEqual([
			{ type: 'clock', node: 'node-1', offsetMs: 0 },
			{ type: 'clock', node: 'node-2', offsetMs: -86_400_000 },
		]);
	});
});

describe('the island before it goes live', () => {
	it('renders the static picture: the map, the sentence and one button a keyboard reaches, which starts it', async () => {
		const { renderToString } = await import('preact-render-to-string');
		const html = renderToString(h(SandboxIsland, { scenario: overview, view, strings: en as Record<string, string>, locale: 'en', panels: ['map', 'terminal', 'tasks'], height: 'medium' }));
		expect(html).toContain('data-state="static"');
		expect(html).toContain('etcd-control-plane');
		expect(html).toContain('With JavaScript on, it becomes a live cluster you drive');
		expect(html.match(/<(button|input|a)\b[^>]*>/g)).toEqual(['<button type="button" class="ca-sbx-btn ca-sbx-btn--primary ca-sbx__wake">']);
		expect(html).toContain('Start the live cluster');
		expect(html).not.toMatch(/\sstyle=/);
	});
});
