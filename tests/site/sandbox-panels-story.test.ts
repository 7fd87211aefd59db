import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type TraceEvent } from '@cluster-anatomy/sim-core';
import {
	buildStory,
	defaultStory,
	formatOffset,
	isDetailStep,
	laneIdOf,
	layoutStory,
	shortenApiText,
	stationOf,
	stepLabel,
	storyChoices,
	storyWrites,
	summarizeStations,
	type StationFact,
} from '../../src/sandbox/panels/story.ts';
import en from '../../src/content/i18n/en.json' with { type: 'json' };

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
		// Wider by what the last lane's notes need: their labels run to the right of it.
		const last = story.lanes.length - 1;
		const longest = Math.max(0, ...story.steps.filter((s) => s.kind === 'note' && s.lane === last).map((s) => s.label.length));
		expect(longest).toBeGreaterThan(10);
		expect(layout.width).toBe(50 + 100 * story.lanes.length + 8 + Math.ceil(9 + longest * 6.5 - 50));
		const noNotes = layoutStory({ ...story, steps: story.steps.filter((s) => s.kind === 'arrow') }, { laneWidth: 100, rowHeight: 20, gutter: 50 });
		expect(noNotes.width).toBe(50 + 100 * story.lanes.length + 8);
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

/** A fact as the English panel writes it. */
function english(fact: StationFact): string {
	const strings = en as Record<string, string>;
	const values: Record<string, string | number> = { ...fact.values };
	if (fact.parts) values.actions = fact.parts.map(english).join(', ');
	const text = strings[fact.key];
	if (text === undefined) throw new Error(`missing string ${fact.key}`);
	return text.replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));
}

describe('the station summary of kubectl create deployment', () => {
	it('has one row per station, in the order a request travels', () => {
		expect(summarizeStations(events).map((s) => s.id)).toEqual(['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'container-runtime']);
	});

	it('counts the steps of each station (the compact view\'s, or every one) and keeps them for the expanded row', () => {
		for (const all of [false, true]) {
			const rows = summarizeStations(events, { all });
			const drawn = buildStory(events, { all, maxSteps: 100_000 }).steps.length;
			expect(rows.reduce((n, r) => n + r.steps, 0)).toBe(drawn);
			for (const r of rows) {
				expect(r.events).toHaveLength(r.steps);
				expect(r.events.every((e) => stationOf(e) === r.id)).toBe(true);
				expect(r.firstMs).toBe(r.events[0].atMs);
				expect(r.lastMs).toBe(r.events.at(-1)!.atMs);
				expect(r.firstMs).toBeLessThanOrEqual(r.lastMs);
			}
		}
		const etcd = summarizeStations(events).find((r) => r.id === 'etcd')!;
		// etcd's steps are the API server's writes to it (Event objects' writes only in the full view).
		expect(etcd.steps).toBe(events.filter((e) => e.peer === 'etcd' && e.action === 'put' && !isDetailStep(e)).length);
		expect(summarizeStations(events, { all: true }).find((r) => r.id === 'etcd')!.steps).toBe(events.filter((e) => e.peer === 'etcd' && e.action === 'put').length);
	});

	it('says in one line what happened at each station', () => {
		const what = Object.fromEntries(summarizeStations(events).map((r) => [r.id, r.facts.map(english).join('; ')]));
		expect(what.kubectl).toBe('sent POST deployments, answered 201');
		expect(what['kube-apiserver']).toMatch(/^answered \d+ requests; admitted and stored deployments\/web, replicasets\/web-[a-z0-9]+, pods \(2\); stored 2 bindings; sent \d+ watch notifications$/);
		const revisions = events.filter((e) => e.action === 'put' && !isDetailStep(e)).map((e) => e.rv!);
		expect(what.etcd).toBe(`wrote ${revisions.length} revisions (${Math.min(...revisions)} to ${Math.max(...revisions)})`);
		expect(what['kube-controller-manager']).toMatch(/^deployment-controller created replicasets ×1, updated deployments\/web\/status ×\d+; replicaset-controller created pods ×2/);
		expect(what['kube-scheduler']).toMatch(/^bound 2 Pods \((node-1 ×2|node-2 ×2|node-1 ×1, node-2 ×1)\)$/);
		expect(what.kubelet).toBe('admitted 2 Pods; last reported Running ×2');
		expect(what['container-runtime']).toMatch(/^(pulled [12] images?; )?created 2 Pod sandboxes; started 2 containers$/);
	});

	it('names the nodes a per-node station acted on', () => {
		const kubelet = summarizeStations(events).find((r) => r.id === 'kubelet')!;
		const nodes = [...new Set(events.filter((e) => e.component.startsWith('kubelet/')).map((e) => e.component.slice(8)))].sort();
		expect(kubelet.nodes).toEqual(nodes);
		expect(summarizeStations(events).find((r) => r.id === 'kube-apiserver')!.nodes).toEqual([]);
	});

	it('tells anything else by what it did', () => {
		const e = (action: string, seq: number): TraceEvent => ({ seq, atMs: seq, component: 'coredns/node-1', action, msg: action, origin: 'input:1' });
		const [row] = summarizeStations([e('sync', 1), e('sync', 2), e('serve', 3)]);
		expect(row.id).toBe('coredns');
		expect(english(row.facts[0])).toBe('serve ×1, sync ×2');
	});
});

describe('choosing whose story to tell', () => {
	const read: TraceEvent = { seq: 10, atMs: 5_000, component: 'kubectl', action: 'request', peer: 'kube-apiserver', msg: 'GET /api/v1/namespaces/default/pods', origin: 'input:3' };
	const write: TraceEvent = { seq: 5, atMs: 1_000, component: 'kube-apiserver', action: 'put', peer: 'etcd', object: '/registry/namespaces/demo', rv: 9, msg: 'txn put /registry/namespaces/demo at revision 9', origin: 'input:2' };
	const commands = [
		{ line: 'kubectl create namespace demo', index: 2 },
		{ line: 'kubectl get pods', index: 3 },
	];

	it('lists the recent commands newest first, with when they ran and whether they wrote', () => {
		expect(storyChoices(commands, [write, read])).toEqual([
			{ origin: 'input:3', line: 'kubectl get pods', atMs: 5_000, writes: false },
			{ origin: 'input:2', line: 'kubectl create namespace demo', atMs: 1_000, writes: true },
		]);
		expect(storyWrites([read])).toBe(false);
		expect(storyWrites([read, write])).toBe(true);
		expect(storyWrites([{ ...write, action: 'delete' }])).toBe(true);
	});

	it('shows the newest command that wrote, so a read does not push it aside, unless the reader chose one', () => {
		const choices = storyChoices(commands, [write, read]);
		expect(defaultStory(choices)?.origin).toBe('input:2');
		expect(defaultStory(choices, 'input:3')?.origin).toBe('input:3');
		// A choice that has left the list (travelled back past it) falls back to the default.
		expect(defaultStory(choices, 'input:99')?.origin).toBe('input:2');
		// Only reads: the newest.
		expect(defaultStory(storyChoices(commands, [read]))?.origin).toBe('input:3');
		expect(defaultStory([])).toBeUndefined();
	});

	it('follows the real cluster: a later kubectl get does not displace the create', () => {
		const cluster = createCluster({});
		cluster.exec('kubectl create deployment web --image=nginx:1.27');
		cluster.advance('5s');
		cluster.exec('kubectl get pods');
		const lines = cluster.inputs().flatMap((input, i) => (input.kind === 'exec' ? [{ line: input.line, index: i + 1 }] : []));
		const choices = storyChoices(lines, cluster.trace({}));
		expect(choices.map((c) => [c.line, c.writes])).toEqual([
			['kubectl get pods', false],
			['kubectl create deployment web --image=nginx:1.27', true],
		]);
		expect(defaultStory(choices)?.line).toBe('kubectl create deployment web --image=nginx:1.27');
	});
});
