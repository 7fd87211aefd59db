import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type TraceEvent } from '@cluster-anatomy/sim-core';
import { buildStory, formatOffset, isDetailStep, laneIdOf, layoutStory, shortenApiText, stepLabel } from '../../src/sandbox/panels/story.ts';

/** The events of `kubectl create deployment web` on a fresh cluster, after 30 s. */
let events: TraceEvent[];
beforeAll(() => {
	const cluster = createCluster({});
	cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
	cluster.advance('30s');
	const origin = cluster.trace({}).find((e) => e.component === 'kubectl')!.origin;
	events = cluster.trace({ origin });
});

describe('the story of kubectl create deployment', () => {
	it('has every participant, in the order a reader expects', () => {
		const lanes = buildStory(events).lanes.map((l) => l.id);
		expect(lanes.slice(0, 5)).toEqual(['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler']);
		// Node by node: the kubelet, then its runtime.
		expect(lanes).toContain('kubelet/node-1');
		expect(lanes.indexOf('container-runtime/node-1')).toBe(lanes.indexOf('kubelet/node-1') + 1);
	});

	it('starts with kubectl asking kube-apiserver, which writes to etcd and answers', () => {
		const story = buildStory(events);
		const name = (i: number) => story.lanes[i].id;
		const arrows = story.steps.filter((s) => s.kind === 'arrow').map((s) => (s.kind === 'arrow' ? `${name(s.from)}->${name(s.to)}: ${s.label}` : ''));
		expect(arrows[0]).toBe('kubectl->kube-apiserver: POST deployments');
		expect(arrows).toContain('kube-apiserver->etcd: put deployments/default/web @' + events.find((e) => e.action === 'put')!.rv);
		expect(arrows.some((a) => a.startsWith('kube-apiserver->kubectl: 201'))).toBe(true);
		expect(arrows.some((a) => a.startsWith('kube-scheduler->kube-apiserver: POST pods/web-') && a.endsWith('/binding'))).toBe(true);
		expect(arrows.some((a) => a.startsWith('kube-controller-manager->kube-apiserver: replicaset-controller: POST pods'))).toBe(true);
	});

	it('draws what a component does on its own as a note on its lane', () => {
		const story = buildStory(events);
		const runtimeNotes = story.steps.filter((s) => s.kind === 'note' && story.lanes[s.lane].label === 'container-runtime');
		expect(runtimeNotes.map((s) => s.label).join('\n')).toMatch(/start: started container nginx/);
	});

	it('leaves out authentication, admission and Event writes unless asked, and says how many', () => {
		const compact = buildStory(events, { maxSteps: 10_000 });
		const full = buildStory(events, { all: true, maxSteps: 10_000 });
		expect(full.steps).toHaveLength(events.length);
		expect(compact.hidden).toBe(events.length - compact.steps.length);
		expect(compact.steps.some((s) => s.actor === 'kube-apiserver' && /^(authenticate|authorize|admit|validate):/.test(s.label))).toBe(false);
		// The kubelet admitting a pod is part of the story, not an API server detail.
		expect(compact.steps.some((s) => s.actor === 'kubelet/node-1' && s.label.startsWith('admit:'))).toBe(true);
		expect(full.steps.some((s) => s.label.startsWith('authenticate:'))).toBe(true);
	});

	it('caps the steps it draws and counts the rest', () => {
		const story = buildStory(events, { all: true, maxSteps: 10 });
		expect(story.steps).toHaveLength(10);
		expect(story.omitted).toBe(events.length - 10);
	});

	it('lays lanes out side by side and steps one under another', () => {
		const story = buildStory(events);
		const layout = layoutStory(story, { laneWidth: 100, rowHeight: 20, gutter: 50 });
		expect(layout.laneX.slice(0, 2)).toEqual([100, 200]);
		expect(layout.stepY.slice(0, 2)).toEqual([20, 40]);
		expect(layout.width).toBe(50 + 100 * story.lanes.length + 8);
	});
});

describe('story helpers', () => {
	it('keeps per-node lanes and folds sub-identities into their component', () => {
		expect(laneIdOf('kubelet/node-2')).toBe('kubelet/node-2');
		expect(laneIdOf('kube-controller-manager/deployment-controller')).toBe('kube-controller-manager');
		expect(laneIdOf('etcd')).toBe('etcd');
	});

	it('shortens API paths and etcd keys', () => {
		expect(shortenApiText('POST /apis/apps/v1/namespaces/default/deployments')).toBe('POST deployments');
		expect(shortenApiText('PUT /api/v1/namespaces/default/pods/web-1/status')).toBe('PUT pods/web-1/status');
		expect(shortenApiText('GET /api/v1/nodes')).toBe('GET nodes');
		expect(shortenApiText('txn put /registry/pods/default/web-1 at revision 9')).toBe('put pods/default/web-1 at revision 9');
	});

	it('labels watch events with their verb and object name', () => {
		const e: TraceEvent = {
			seq: 1,
			atMs: 0,
			component: 'kube-apiserver',
			action: 'watch-event',
			object: 'pods/default/web-1',
			peer: 'kubelet/node-1',
			msg: 'ADDED pods to kubelet/node-1',
			origin: 'input:1',
		};
		expect(stepLabel(e)).toBe('watch: ADDED web-1');
		expect(isDetailStep(e)).toBe(false);
		expect(isDetailStep({ ...e, action: 'request', object: 'events', msg: 'POST /api/v1/namespaces/default/events' })).toBe(true);
	});

	it('writes time offsets the way people say them', () => {
		expect(formatOffset(0)).toBe('+0 ms');
		expect(formatOffset(12)).toBe('+12 ms');
		expect(formatOffset(4_100)).toBe('+4.1 s');
		expect(formatOffset(125_000)).toBe('+2 min 5 s');
	});
});
