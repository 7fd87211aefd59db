// @vitest-environment happy-dom
/**
 * The panels in a DOM, each talking to a fake worker that answers with a
 * real sim-core cluster: what a reader sees after clicking, filtering and
 * applying. (The browser tests drive the same through the real worker.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { h, render, type ComponentType } from 'preact';
import type { PanelProps } from '../../src/islands/sandbox/panel-props.ts';
import Inspector from '../../src/islands/sandbox/panels/Inspector.tsx';
import Timeline from '../../src/islands/sandbox/panels/Timeline.tsx';
import Story from '../../src/islands/sandbox/panels/Story.tsx';
import Why from '../../src/islands/sandbox/panels/Why.tsx';
import YamlEditor from '../../src/islands/sandbox/panels/YamlEditor.tsx';
import { YAML_TEMPLATES } from '../../src/sandbox/panels/yaml-templates.ts';
import { translator, view } from './fixtures/sandbox-view.ts';
import { fakeWorker, type FakeWorker } from './fixtures/fake-worker.ts';

let root: HTMLElement | undefined;
afterEach(() => {
	if (root) render(null, root);
	root?.remove();
	root = undefined;
});

function mount(Panel: ComponentType<PanelProps>, worker: FakeWorker, overrides: Partial<PanelProps> = {}) {
	root = document.createElement('div');
	document.body.appendChild(root);
	const opened: unknown[] = [];
	const props: PanelProps = { view: { ...view, lastSeq: 1 }, request: worker.request, t: translator('en'), locale: 'en', open: (p, target) => opened.push([p, target]), has: () => true, live: true, ...overrides };
	render(h(Panel, props), root);
	return { root, opened, rerender: (more: Partial<PanelProps>) => render(h(Panel, { ...props, ...more }), root!) };
}

/** Waits until `check` passes (effects, answers and re-renders are asynchronous). */
async function until(check: () => void, timeoutMs = 3000): Promise<void> {
	const end = Date.now() + timeoutMs;
	for (;;) {
		try {
			check();
			return;
		} catch (error) {
			if (Date.now() > end) throw error;
			await new Promise((r) => setTimeout(r, 20));
		}
	}
}

const textOf = (el: Element | null | undefined) => (el?.textContent ?? '').replace(/\s+/g, ' ');

/** Opens a <details> as a click on its summary would. */
async function expand(details: Element | null): Promise<void> {
	const el = details as HTMLDetailsElement;
	el.open = true;
	el.dispatchEvent(new Event('toggle'));
	await until(() => expect(el.querySelector('li')).not.toBeNull());
}

describe('the inspector', () => {
	it('shows the YAML, describe and events of the object it was opened on, switching tabs with the arrow keys', async () => {
		const worker = fakeWorker();
		const { root } = mount(Inspector, worker, { target: { resource: 'nodes', name: 'node-1' } });
		await until(() => expect(textOf(root.querySelector('pre'))).toContain('kind: Node'));
		const tabs = [...root.querySelectorAll('[role="tab"]')] as HTMLElement[];
		expect(tabs.map((t) => t.getAttribute('aria-selected'))).toEqual(['true', 'false', 'false']);
		tabs[0].dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
		await until(() => expect(textOf(root.querySelector('pre'))).toContain('Name: node-1'));
		expect(root.querySelector('[role="tab"][aria-selected="true"]')?.textContent).toBe('Describe');
		expect(document.activeElement?.textContent).toBe('Describe');
		(root.querySelectorAll('[role="tab"]')[2] as HTMLElement).click();
		await until(() => expect(worker.seen.at(-1)).toMatchObject({ type: 'inspect', as: 'events', resource: 'nodes', name: 'node-1' }));
		// Looking changes nothing: no input recorded.
		expect(worker.cluster.inputs()).toEqual([]);
	});

	it('offers the "why" table for a pod', async () => {
		const worker = fakeWorker();
		const { root, opened } = mount(Inspector, worker, { target: { resource: 'pods', namespace: 'kube-system', name: 'etcd-control-plane' } });
		const why = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Why this node?')!;
		why.click();
		expect(opened).toEqual([['why', { resource: 'pods', namespace: 'kube-system', name: 'etcd-control-plane' }]]);
	});

	it('asks the reader to pick something when opened on nothing', () => {
		const { root } = mount(Inspector, fakeWorker());
		expect(textOf(root)).toContain('Click a node, a pod or a component on the map');
	});
});

describe('the timeline', () => {
	it('lists trace events and narrows them by component and object', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create deployment web --image=nginx:1.27');
		worker.cluster.advance('5s');
		const lastSeq = worker.cluster.trace({}).at(-1)!.seq;
		const { root } = mount(Timeline, worker, { view: { ...view, lastSeq } });
		await until(() => expect(root.querySelectorAll('.ca-event').length).toBe(200));
		expect(textOf(root)).toContain('Showing the newest 200 of 1000 events');

		const select = root.querySelector('select')!;
		select.value = 'kube-scheduler';
		select.dispatchEvent(new Event('change', { bubbles: true }));
		await until(() => {
			const components = [...root.querySelectorAll('.ca-event__component')].map((e) => e.textContent);
			expect(components.length).toBeGreaterThan(0);
			expect(new Set(components)).toEqual(new Set(['kube-scheduler']));
		});

		const input = root.querySelector('input[type="search"]') as HTMLInputElement;
		input.value = 'pods/default/web-';
		input.dispatchEvent(new Event('input', { bubbles: true }));
		await until(() => {
			const objects = [...root.querySelectorAll('.ca-event__object')].map((e) => e.textContent ?? '');
			expect(objects.length).toBeGreaterThan(0);
			expect(objects.every((o) => o.startsWith('pods/default/web-'))).toBe(true);
		});
	});

	it('opens the story of a run of events', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create deployment web --image=nginx:1.27');
		const { root, opened } = mount(Timeline, worker, { view: { ...view, lastSeq: worker.cluster.trace({}).at(-1)!.seq } });
		await until(() => expect(root.querySelector('button[aria-label^="Story of input:"]')).not.toBeNull());
		(root.querySelector('button[aria-label^="Story of input:"]') as HTMLElement).click();
		expect(opened[0]).toEqual(['story', { resource: 'story', name: 'input:1', origin: 'input:1' }]);
	});
});

describe('the story of a request', () => {
	it('draws the last command as a sequence diagram with a text alternative', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		worker.cluster.advance('30s');
		const { root } = mount(Story, worker);
		await until(() => expect(root.querySelector('.ca-story__diagram')).not.toBeNull());
		// The diagram is drawn on demand, below the station summary.
		expect(root.querySelector('svg[role="img"]')).toBeNull();
		const diagram = root.querySelector('.ca-story__diagram') as HTMLDetailsElement;
		diagram.open = true;
		diagram.dispatchEvent(new Event('toggle'));
		await until(() => expect(root.querySelector('svg[role="img"]')).not.toBeNull());
		expect(textOf(root.querySelector('.ca-story__subject'))).toBe('$ kubectl create deployment web --image=nginx:1.27 --replicas=2');
		const svg = root.querySelector('svg[role="img"]')!;
		const labelled = (svg.getAttribute('aria-labelledby') ?? '').split(' ').map((id) => textOf(document.getElementById(id)));
		expect(labelled[0]).toBe('What happened because of $ kubectl create deployment web --image=nginx:1.27 --replicas=2');
		const heads = [...root.querySelectorAll('.ca-story__head')].map((g) => [...g.querySelectorAll('text')].map((t) => t.textContent).join(' '));
		expect(heads.slice(0, 5)).toEqual(['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler']);
		expect(heads).toContain('kubelet node-1');
		expect(heads).toContain('container-runtime node-1');
		expect(root.querySelector('.ca-story__text li')).toBeNull();
		await expand(root.querySelector('.ca-story__text'));
		const steps = [...root.querySelectorAll('.ca-story__text li')].map((li) => textOf(li));
		expect(steps[0]).toMatch(/^\+0 ms kubectl → kube-apiserver: POST \/apis\/apps\/v1\/namespaces\/default\/deployments$/);
		expect(steps[1]).toMatch(/kube-apiserver → etcd: txn put \/registry\/deployments\/default\/web/);
	});

	it('tells the story of an origin chosen elsewhere, with every step on request', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create namespace demo');
		worker.cluster.exec('kubectl get pods');
		const { root } = mount(Story, worker, { target: { resource: 'story', name: 'input:1', origin: 'input:1' } });
		await until(() => expect(textOf(root.querySelector('.ca-story__subject'))).toBe('$ kubectl create namespace demo'));
		await expand(root.querySelector('.ca-story__text'));
		const before = root.querySelectorAll('.ca-story__text li').length;
		const box = root.querySelector('input.ca-story__all') as HTMLInputElement;
		box.click();
		await until(() => expect(root.querySelectorAll('.ca-story__text li').length).toBeGreaterThan(before));
		expect(textOf(root.querySelector('.ca-story__text'))).toContain('kube-apiserver: user kubernetes-admin');
	});
});

describe('the story of a chosen command', () => {
	it('sums the story up station by station, in road order, each row opening to its steps', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		worker.cluster.advance('30s');
		const { root } = mount(Story, worker);
		await until(() => expect(root.querySelectorAll('.ca-station').length).toBeGreaterThan(5));
		const names = [...root.querySelectorAll('.ca-station__name')].map((n) => n.textContent);
		expect(names.slice(0, 6)).toEqual(['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet']);
		const scheduler = [...root.querySelectorAll('.ca-station')].find((li) => li.querySelector('.ca-station__name')?.textContent === 'kube-scheduler')!;
		expect(textOf(scheduler.querySelector('.ca-station__what'))).toMatch(/^bound 2 Pods \(node-/);
		const toggle = scheduler.querySelector('button') as HTMLButtonElement;
		expect(toggle.getAttribute('aria-expanded')).toBe('false');
		expect(scheduler.querySelector('.ca-station__steps')).toBeNull();
		toggle.click();
		await until(() => expect(toggle.getAttribute('aria-expanded')).toBe('true'));
		const steps = scheduler.querySelector(`#${CSS.escape(toggle.getAttribute('aria-controls')!)}`)!;
		expect(steps.querySelectorAll('li').length).toBeGreaterThan(2);
		expect(textOf(steps)).toContain('kube-scheduler → kube-apiserver: bound default/web-');
	});

	it('keeps the story of the command that changed something when a read follows, and holds a kept one', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		worker.cluster.advance('10s');
		worker.cluster.exec('kubectl get pods');
		const { root, rerender } = mount(Story, worker);
		await until(() => expect(textOf(root.querySelector('.ca-story__subject'))).toBe('$ kubectl create deployment web --image=nginx:1.27 --replicas=2'));
		const options = [...root.querySelectorAll('.ca-story__choice option')].map((o) => textOf(o));
		expect(options).toEqual(['$ kubectl get pods (read only)', '$ kubectl create deployment web --image=nginx:1.27 --replicas=2']);
		// Keep it, then a later write does not replace it either.
		(root.querySelector('input.ca-story__keep') as HTMLInputElement).click();
		await until(() => expect((root.querySelector('input.ca-story__keep') as HTMLInputElement).checked).toBe(true));
		worker.cluster.exec('kubectl create namespace later');
		rerender({ view: { ...view, lastSeq: 2 } });
		await until(() => expect(root.querySelectorAll('.ca-story__choice option').length).toBe(3));
		expect(textOf(root.querySelector('.ca-story__subject'))).toBe('$ kubectl create deployment web --image=nginx:1.27 --replicas=2');
		// Unticked, it follows the newest command that wrote.
		(root.querySelector('input.ca-story__keep') as HTMLInputElement).click();
		await until(() => expect(textOf(root.querySelector('.ca-story__subject'))).toBe('$ kubectl create namespace later'));
		// Choosing a command from the list shows it and keeps it.
		const select = root.querySelector('.ca-story__choice') as HTMLSelectElement;
		select.value = select.options[1].value;
		select.dispatchEvent(new Event('change'));
		await until(() => expect(textOf(root.querySelector('.ca-story__subject'))).toBe('$ kubectl get pods'));
		expect((root.querySelector('input.ca-story__keep') as HTMLInputElement).checked).toBe(true);
	});
});

describe('why', () => {
	it('explains a Pending pod: each node, the filter that rejected it, and why', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl apply -f -', { stdin: YAML_TEMPLATES.find((t) => t.id === 'pending')!.yaml });
		worker.cluster.advance('5s');
		const { root } = mount(Why, worker, { target: { resource: 'pods', namespace: 'default', name: 'picky' } });
		await until(() => expect(root.querySelector('table')).not.toBeNull());
		expect(textOf(root)).toContain('Unschedulable: no node fits');
		expect(textOf(root.querySelector('caption'))).toBe('How kube-scheduler judged 3 of 3 nodes for default/picky');
		const rows = [...root.querySelectorAll('tbody tr')].map((tr) => textOf(tr));
		expect(rows.find((r) => r.startsWith('node-1'))).toMatch(/Rejected by NodeAffinity.*NodeAffinity: UnschedulableAndUnresolvable — node\(s\) didn't match Pod's node affinity\/selector/);
		expect(rows.find((r) => r.startsWith('control-plane'))).toMatch(/Rejected by TaintToleration/);
		expect(root.querySelector('tbody th[scope="row"]')).not.toBeNull();
	});

	it('shows the winner of a scheduled pod with its scores', async () => {
		const worker = fakeWorker();
		worker.cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
		worker.cluster.advance('5s');
		const pod = worker.cluster.list('pods', 'default')[0];
		const { root } = mount(Why, worker, { target: { resource: 'pods', namespace: 'default', name: pod.metadata.name! } });
		await until(() => expect(textOf(root)).toContain('Scheduled to'));
		const chosen = textOf(root.querySelector('.ca-why__row--chosen'));
		expect(chosen).toContain('Chosen');
		expect(chosen).toMatch(/TaintToleration: \d+ → \d+ × 3 = \d+/);
	});
});

describe('the YAML editor', () => {
	const setText = (root: HTMLElement, text: string) => {
		const area = root.querySelector('textarea')!;
		area.value = text;
		area.dispatchEvent(new Event('input', { bubbles: true }));
	};
	const applyButton = (root: HTMLElement) => [...root.querySelectorAll('button')].find((b) => b.textContent === 'Apply')!;

	it('marks a YAML error at its line as the reader types', async () => {
		const worker = fakeWorker();
		worker.lint = (yaml) => (yaml.includes('   labels') ? [{ line: 5, column: 10, message: 'mapping values are not allowed in this context' }] : []);
		const { root } = mount(YamlEditor, worker);
		setText(root, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   labels: {a: b}\n');
		await until(() => expect(textOf(root.querySelector('.ca-yaml__errors'))).toContain('Line 5, column 10: mapping values are not allowed in this context'));
		expect(root.querySelector('.ca-yaml__ln--error')?.textContent).toBe('! 5');
		expect(root.querySelector('textarea')!.getAttribute('aria-invalid')).toBe('true');
	});

	it("applies, shows kubectl's answer, and marks the line of a strict-decoding error", async () => {
		const worker = fakeWorker();
		const { root } = mount(YamlEditor, worker);
		setText(root, 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec:\n  containerz:\n  - name: a\n    image: nginx\n');
		applyButton(root).click();
		await until(() => expect(textOf(root.querySelector('[role="status"].ca-yaml__result'))).toContain('unknown field "spec.containerz"'));
		expect(textOf(root.querySelector('.ca-yaml__result'))).toContain('kubectl apply failed');
		expect(root.querySelector('.ca-yaml__ln--error')?.textContent).toBe('! 6');

		setText(root, YAML_TEMPLATES[0].yaml);
		applyButton(root).click();
		await until(() => expect(textOf(root.querySelector('.ca-yaml__result'))).toContain('pod/hello created'));
		expect(root.querySelector('.ca-yaml__ln--error')).toBeNull();
		expect(worker.cluster.list('pods', 'default').map((p) => p.metadata.name)).toContain('hello');
	});

	it("offers the scenario's manifests next to the templates", async () => {
		const { root } = mount(YamlEditor, fakeWorker());
		await until(() => expect(textOf(root.querySelector('select'))).toContain('From this scenario: deployment/from-scenario'));
		const select = root.querySelector('select')!;
		select.value = 'builtin:service';
		select.dispatchEvent(new Event('change', { bubbles: true }));
		await until(() => expect(select.value).toBe('builtin:service'));
		[...root.querySelectorAll('button')].find((b) => b.textContent === 'Load')!.click();
		await until(() => expect(root.querySelector('textarea')!.value).toContain('kind: Service'));
	});

	it('colours the text it shows under the textarea, character for character', () => {
		const { root } = mount(YamlEditor, fakeWorker());
		expect(root.querySelector('.ca-yaml__highlight')!.textContent).toBe(`${YAML_TEMPLATES[0].yaml}\n`);
		expect(root.querySelector('.ca-yaml__highlight .ca-tok-key')?.textContent).toBe('apiVersion');
	});
});
