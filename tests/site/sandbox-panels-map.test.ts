import { describe, expect, it } from 'vitest';
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import ClusterMap from '../../src/islands/sandbox/panels/ClusterMap.tsx';
import type { PanelProps } from '../../src/islands/sandbox/panel-props.ts';
import { componentLook, drawableMessages, flowLayout, formatBytes, formatCpu, inspectTargetOfComponent, mapNotices, nodeLook, percentOf, podTone, podsByNode, statesAsLastRecorded, widthClass } from '../../src/sandbox/panels/map.ts';
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

describe('what the map says about its own picture', () => {
	type C = PanelProps['view']['components'][number];
	const healthy: C[] = [
		{ component: 'etcd', node: 'control-plane', running: true, failing: false },
		{ component: 'kube-apiserver', node: 'control-plane', running: true, failing: false },
		{ component: 'kube-controller-manager', node: 'control-plane', running: true, failing: false, leader: true },
		{ component: 'kube-scheduler', node: 'control-plane', running: true, failing: false, leader: true },
		{ component: 'kubelet', node: 'node-1', running: true, failing: false },
	];
	const with_ = (name: string, change: Partial<C>, list = healthy) => list.map((c) => (c.component === name ? { ...c, ...change } : c));
	const keys = (components: C[]) => mapNotices(components).map((n) => `${n.tone}: ${n.keys.join(' + ')}${n.values ? ` ${JSON.stringify(n.values)}` : ''}`);

	it('says nothing about a healthy cluster, nor about a component the reader stopped on its own', () => {
		expect(mapNotices(healthy)).toEqual([]);
		expect(mapNotices(with_('kube-scheduler', { running: false, failing: true, leader: false }))).toEqual([]);
		expect(statesAsLastRecorded(healthy)).toBe(false);
	});

	it('marks the states as last recorded while etcd or kube-apiserver is down, stopped or restarting', () => {
		expect(keys(with_('etcd', { running: false, failing: true }))).toEqual(['bad: sandbox.map.notice.etcdStopped + sandbox.map.notice.leasesLost']);
		expect(keys(with_('etcd', { running: false, failing: false }))).toEqual(['bad: sandbox.map.notice.etcdStarting + sandbox.map.notice.leasesLost']);
		expect(keys(with_('kube-apiserver', { running: false, failing: true }))).toEqual(['bad: sandbox.map.notice.apiserverStopped + sandbox.map.notice.leasesLost']);
		expect(keys(with_('kube-apiserver', { running: false, failing: false }))).toEqual(['bad: sandbox.map.notice.apiserverStarting + sandbox.map.notice.leasesLost']);
		expect(statesAsLastRecorded(with_('etcd', { running: false, failing: true }))).toBe(true);
	});

	it('after they return, names the components still waiting to take their Lease, until a leader is back', () => {
		const back = with_('kube-scheduler', { leader: false }, with_('kube-controller-manager', { leader: false }));
		expect(keys(back)).toEqual(['warn: sandbox.map.notice.noLeader {"components":"kube-controller-manager, kube-scheduler"}']);
		// Restarting (not running) but not stopped by the reader: still waiting.
		expect(keys(with_('kube-scheduler', { running: false }, back))).toEqual(['warn: sandbox.map.notice.noLeader {"components":"kube-controller-manager, kube-scheduler"}']);
		expect(keys(with_('kube-controller-manager', { leader: true }, back))).toEqual(['warn: sandbox.map.notice.noLeader {"components":"kube-scheduler"}']);
		expect(mapNotices(healthy)).toEqual([]);
		// A standby takes over from a leader the reader stopped: it waits too.
		const standby: C[] = [...with_('kube-scheduler', { running: false, failing: true, leader: false }), { component: 'kube-scheduler', node: 'control-plane-2', running: true, failing: false, leader: false }];
		expect(keys(standby)).toEqual(['warn: sandbox.map.notice.noLeader {"components":"kube-scheduler"}']);
	});

	it('says a three-member etcd that lost its majority has no leader, and nothing while one member is down', () => {
		const members = (leaders: boolean[], running: boolean[]): C[] => [
			...healthy.filter((c) => c.component !== 'etcd'),
			...['control-plane', 'control-plane-2', 'control-plane-3'].map((node, i) => ({ component: 'etcd', node, running: running[i], failing: !running[i], leader: leaders[i] })),
		];
		expect(mapNotices(members([true, false, false], [true, true, false]))).toEqual([]);
		expect(keys(members([false, false, false], [true, false, false]))).toEqual(['bad: sandbox.map.notice.etcdNoLeader + sandbox.map.notice.leasesLost']);
		expect(statesAsLastRecorded(members([false, false, false], [true, false, false]))).toBe(true);
		// The map names each member by its machine, and marks the one that leads.
		const html = text(render(h(ClusterMap, props({ view: { ...view, components: members([false, true, false], [true, true, true]) } }))));
		expect(html).toContain('etcd (control-plane) running');
		expect(html).toContain('etcd (control-plane-2) running ★ leader');
		expect(html).toContain('kube-apiserver running');
	});

	it('shows the note on the map and marks the node list, in both languages', () => {
		const stopped = { ...view, components: with_('etcd', { running: false, failing: true }) };
		const en = text(render(h(ClusterMap, props({ view: stopped }))));
		expect(en).toContain('etcd is stopped. The Node and Pod states below are as etcd last recorded them');
		expect(en).toContain('Nodes (as last recorded)');
		const zh = text(render(h(ClusterMap, props({ view: stopped, t: translator('zh-cn'), locale: 'zh-cn' }))));
		expect(zh).toContain('etcd 已停止。');
		expect(zh).toContain('（最后记录的状态）');
		const fine = text(render(h(ClusterMap, props({ view: { ...view, components: healthy } }))));
		expect(fine).not.toContain('as last recorded');
		expect(fine).not.toContain('Waiting for a leader');
	});
});
