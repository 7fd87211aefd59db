import { describe, expect, it } from 'vitest';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import ClusterMap from '../../src/islands/sandbox/panels/ClusterMap.tsx';
import type { PanelProps } from '../../src/islands/sandbox/panel-props.ts';
import { componentLook, drawableMessages, flowLayout, formatBytes, formatCpu, inspectTargetOfComponent, nodeLook, percentOf, podTone, podsByNode, widthClass } from '../../src/sandbox/panels/map.ts';
import { translator, view } from './fixtures/sandbox-view.ts';

function props(overrides: Partial<PanelProps> = {}): PanelProps {
	return {
		view,
		request: async () => ({ type: 'error', message: 'no worker in this test' }),
		t: translator('en'),
		locale: 'en',
		open: () => {},
		has: () => true,
		live: false,
		...overrides,
	};
}

/** The visible text of some HTML, tags dropped and spaces squeezed. */
function text(html: string): string {
	return html
		.replace(/<[^>]+>/g, ' ')
		.replace(/\s+/g, ' ')
		.trim();
}

describe('the cluster map, rendered on the server (the picture without JavaScript)', () => {
	const html = render(h(ClusterMap, props()));

	it("says each component's health in words, and marks the leader", () => {
		expect(text(html)).toContain('kube-scheduler fault injected');
		expect(text(html)).toContain('kube-controller-manager running ★ leader');
	});

	it('shows each node with its status, conditions, taints and resource use as text', () => {
		const t = text(html);
		expect(t).toContain('control-plane Ready');
		expect(t).toContain('node-2 Unknown (no heartbeat)');
		expect(t).toContain('SchedulingDisabled');
		expect(t).toContain('cut off from the control plane');
		expect(t).toContain('MemoryPressure');
		expect(t).toContain('node-role.kubernetes.io/control-plane:NoSchedule');
		expect(t).toContain('CPU 950m / 2 requested (48%)');
		expect(t).toContain('Memory 290Mi / 3.9Gi requested (7%)');
		expect(t).toContain('Pods 8 / 110 requested (7%)');
	});

	it('lists pods by node with their kubectl status, and pods without a node apart', () => {
		const t = text(html);
		expect(t).toContain('web-766486c5b6-wkxb4 ContainerCreating');
		expect(t).toMatch(/Pods without a node .*picky Pending/);
		expect(html).toContain('class="ca-pod ca-tone-bad"');
	});

	it('says a powered-off node is off in words, not only in its look', () => {
		const dark = { ...view, nodes: view.nodes.map((n) => (n.name === 'node-1' ? { ...n, poweredOff: true } : n)) };
		const out = render(h(ClusterMap, props({ view: dark })));
		expect(text(out)).toContain('Powered off: nothing runs on this machine. The control plane only notices when its heartbeats stop.');
		expect(out.match(/ca-node--powered-off/g)).toHaveLength(1);
		expect(text(html)).not.toContain('Powered off');
	});

	it('has nothing to click and no inline styles (the page forbids them)', () => {
		expect(html).not.toContain('<button');
		expect(html).not.toMatch(/\sstyle=/);
		expect(html).not.toMatch(/\son[a-z]+=/);
	});

	it('draws bars with width classes', () => {
		expect(html).toContain('ca-bar__fill ca-w-95 ca-bar__fill--high');
	});

	it('draws only the messages between parties it knows, with a text summary', () => {
		expect(html.match(/class="ca-flow__pulse"/g)).toHaveLength(4);
		expect(text(html)).toContain('Latest: kubelet/node-1 → kube-apiserver: request pods/default/web-766486c5b6-wkxb4');
	});

	it('is written in Chinese on Chinese pages', () => {
		const zh = text(render(h(ClusterMap, props({ t: translator('zh-cn'), locale: 'zh-cn' }))));
		expect(zh).toContain('控制面');
		expect(zh).toContain('kube-scheduler 已注入故障');
		expect(zh).toContain('还没有分配节点的 Pod');
	});
});

describe('the live map', () => {
	it('opens the inspector on what was clicked', async () => {
		const { Window } = await import('happy-dom');
		const window = new Window();
		const g = globalThis as unknown as Record<string, unknown>;
		const saved = { document: g.document, window: g.window };
		g.document = window.document;
		g.window = window;
		try {
			const { render: mount } = await import('preact');
			const opened: unknown[] = [];
			const root = window.document.createElement('div');
			window.document.body.appendChild(root);
			mount(h(ClusterMap, props({ live: true, open: (panel, target) => opened.push([panel, target]) })), root as unknown as Element);
			const buttons = [...root.querySelectorAll('button')];
			buttons.find((b) => b.textContent?.includes('picky'))!.click();
			buttons.find((b) => b.textContent?.includes('node-2'))!.click();
			buttons.find((b) => b.textContent?.includes('kube-scheduler'))!.click();
			expect(opened).toEqual([
				['inspector', { resource: 'pods', namespace: 'default', name: 'picky' }],
				['inspector', { resource: 'nodes', name: 'node-2' }],
				['inspector', { resource: 'pods', namespace: 'kube-system', name: 'kube-scheduler-control-plane' }],
			]);
			// What a screen reader reads: the visible words first, then the details.
			expect(
				buttons
					.find((b) => b.textContent?.includes('picky'))!
					.textContent!.replace(/\s+/g, ' ')
					.trim(),
			).toBe('▲ picky Pending, in namespace default, 0/1 ready');
		} finally {
			g.document = saved.document;
			g.window = saved.window;
			await window.happyDOM.close();
		}
	});
});

describe('map helpers', () => {
	it('never says status by colour alone: every tone has its own glyph and words', () => {
		const looks = [componentLook({ running: true, failing: false }), componentLook({ running: false, failing: false }), componentLook({ running: false, failing: true })];
		expect(new Set(looks.map((l) => l.glyph)).size).toBe(3);
		expect(looks.map((l) => l.key)).toEqual(['sandbox.map.status.running', 'sandbox.map.status.stopped', 'sandbox.map.status.failing']);
		expect(nodeLook({ ready: 'False' })).toMatchObject({ tone: 'bad', key: 'sandbox.map.status.notReady' });
		expect(nodeLook({ ready: 'Missing' }).key).toBe('sandbox.map.status.notRegistered');
	});

	it('colours pods by phase, and by trouble within a phase', () => {
		expect(podTone({ phase: 'Running', status: 'Running' })).toBe('ok');
		expect(podTone({ phase: 'Running', status: 'CrashLoopBackOff' })).toBe('bad');
		expect(podTone({ phase: 'Pending', status: 'ContainerCreating' })).toBe('warn');
		expect(podTone({ phase: 'Pending', status: 'ImagePullBackOff' })).toBe('bad');
		expect(podTone({ phase: 'Succeeded', status: 'Completed' })).toBe('info');
		expect(podTone({ phase: 'Running', status: 'Terminating' })).toBe('off');
	});

	it('writes quantities as kubectl does', () => {
		expect(formatCpu(250)).toBe('250m');
		expect(formatCpu(2000)).toBe('2');
		expect(formatCpu(1500)).toBe('1.5');
		expect(formatBytes(128 * 2 ** 20)).toBe('128Mi');
		expect(formatBytes(3996 * 2 ** 20)).toBe('3.9Gi');
		expect(formatBytes(0)).toBe('0');
	});

	it('turns use into a percentage and a width class in 5 % steps', () => {
		expect(percentOf(950, 2000)).toBe(48);
		expect(percentOf(5, 0)).toBe(0);
		expect(widthClass(48)).toBe('ca-w-50');
		expect(widthClass(2)).toBe('ca-w-0');
		expect(widthClass(140)).toBe('ca-w-100');
	});

	it('groups pods by node, workloads before kube-system', () => {
		const { byNode, unscheduled } = podsByNode(view.nodes, view.pods);
		expect(unscheduled.map((p) => p.name)).toEqual(['picky']);
		expect(byNode.get('control-plane')!.map((p) => p.name)).toEqual(['etcd-control-plane', 'kube-scheduler-control-plane']);
		expect(byNode.get('node-1')!.map((p) => p.name)).toEqual(['web-766486c5b6-j4kqx', 'web-766486c5b6-wkxb4']);
	});

	it('inspects a control-plane component through its static pod, a node component through its node', () => {
		expect(inspectTargetOfComponent({ component: 'etcd', node: 'control-plane' })).toEqual({ resource: 'pods', namespace: 'kube-system', name: 'etcd-control-plane' });
		expect(inspectTargetOfComponent({ component: 'kubelet', node: 'node-1' })).toEqual({ resource: 'nodes', name: 'node-1' });
	});

	it('places one kubelet per node and draws per-node messages at their node', () => {
		const layout = flowLayout(['a', 'b', 'c', 'd']);
		expect(layout.points.filter((p) => p.id.startsWith('node/')).map((p) => p.id)).toEqual(['node/a', 'node/b', 'node/c', 'node/d']);
		const drawn = drawableMessages([{ seq: 1, atMs: 0, from: 'container-runtime/b', to: 'kube-apiserver', label: 'x' }], layout);
		expect(drawn[0].a.id).toBe('node/b');
		expect(drawableMessages(view.messages, flowLayout(view.nodes.map((n) => n.name)), 2).map((m) => m.seq)).toEqual([12, 13]);
	});
});
