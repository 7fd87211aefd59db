import { describe, expect, it } from 'vitest';
import { createCluster, type TraceEvent } from '@cluster-anatomy/sim-core';
import { appendEvents, componentChoices, formatClock, matchesTraceFilter } from '../../src/sandbox/panels/trace-filter.ts';
import { YAML_TEMPLATES } from '../../src/sandbox/panels/yaml-templates.ts';
import { formatScore, podChoices, whyModel } from '../../src/sandbox/panels/why.ts';

const event = (seq: number, component: string, object?: string): TraceEvent => ({ seq, atMs: seq, component, action: 'x', msg: '', origin: 'o', ...(object ? { object } : {}) });

describe('the timeline filter', () => {
	it('matches a component and every identity under it', () => {
		expect(matchesTraceFilter(event(1, 'kubelet/node-1'), { component: 'kubelet' })).toBe(true);
		expect(matchesTraceFilter(event(1, 'kubelet/node-1'), { component: 'kubelet/node-2' })).toBe(false);
		expect(matchesTraceFilter(event(1, 'kube-controller-manager/deployment-controller'), { component: 'kube-controller-manager' })).toBe(true);
		// A prefix of a name is not a family.
		expect(matchesTraceFilter(event(1, 'kube-proxy/node-1'), { component: 'kube' })).toBe(false);
	});

	it('matches objects by the text they contain, ignoring case, and anything when empty', () => {
		expect(matchesTraceFilter(event(1, 'etcd', 'pods/default/Web-1'), { object: 'web-' })).toBe(true);
		expect(matchesTraceFilter(event(1, 'etcd'), { object: 'web' })).toBe(false);
		expect(matchesTraceFilter(event(1, 'etcd'), { component: '', object: ' ' })).toBe(true);
	});

	it('offers each component family, then its identities, control plane first', () => {
		expect(componentChoices(['kubelet/node-2', 'etcd', 'kubelet/node-1', 'scenario', 'kube-controller-manager/replicaset-controller', 'kubectl'])).toEqual([
			'kubectl',
			'etcd',
			'kube-controller-manager',
			'kube-controller-manager/replicaset-controller',
			'kubelet',
			'kubelet/node-1',
			'kubelet/node-2',
			'scenario',
		]);
	});

	it('keeps the newest events, once each, within its bound', () => {
		let buffer: TraceEvent[] = [];
		buffer = appendEvents(buffer, [event(1, 'a'), event(2, 'a')], 3);
		buffer = appendEvents(buffer, [event(2, 'a'), event(3, 'a'), event(4, 'a')], 3);
		expect(buffer.map((e) => e.seq)).toEqual([2, 3, 4]);
		expect(appendEvents(buffer, [], 3)).toBe(buffer);
	});

	it('writes virtual time as minutes, seconds and milliseconds', () => {
		expect(formatClock(0)).toBe('0:00.000');
		expect(formatClock(64_005)).toBe('1:04.005');
		expect(formatClock(3_723_004)).toBe('1:02:03.004');
	});
});

describe('the why table', () => {
	const cluster = createCluster({});
	cluster.exec('kubectl create deployment web --image=nginx:1.27 --replicas=2');
	cluster.exec('kubectl apply -f -', { stdin: YAML_TEMPLATES.find((t) => t.id === 'pending')!.yaml });
	cluster.advance('10s');

	it('explains an unschedulable pod node by node, with the plugin that said no and why', () => {
		const pod = cluster.list('pods', 'default').find((p) => p.metadata.name === 'picky');
		expect(pod).toBeDefined();
		const model = whyModel(cluster.explain('default/picky')!);
		expect(model.result).toBe('Unschedulable');
		const byNode = Object.fromEntries(model.rows.map((r) => [r.node, r]));
		expect(byNode['control-plane'].verdict).toBe('rejected');
		expect(byNode['control-plane'].filters.at(-1)).toMatchObject({ plugin: 'TaintToleration', passed: false, reasons: ['node(s) had untolerated taint(s)'] });
		expect(byNode['node-1'].filters.at(-1)).toMatchObject({ plugin: 'NodeAffinity', passed: false, reasons: ["node(s) didn't match Pod's node affinity/selector"] });
		expect(model.outcomes.map((o) => `${o.stage} ${o.plugin}`)).toContain('postFilter DefaultPreemption');
	});

	it('marks the chosen node of a scheduled pod and shows its scores', () => {
		const pod = cluster.list('pods', 'default').find((p) => p.metadata.name!.startsWith('web-'))!;
		const e = cluster.explain(`default/${pod.metadata.name}`)!;
		const model = whyModel(e);
		expect(model.result).toBe('Scheduled');
		const chosen = model.rows.filter((r) => r.verdict === 'chosen');
		expect(chosen.map((r) => r.node)).toEqual([e.node]);
		expect(chosen[0].scores.map((s) => s.plugin)).toEqual(e.scorePlugins.map((s) => s.plugin));
		expect(chosen[0].total).toBe(chosen[0].scores.reduce((n, s) => n + s.weighted, 0));
	});

	it('puts pods without a node first in the picker', () => {
		expect(
			podChoices([
				{ namespace: 'b', name: 'x', phase: 'Running', node: 'n' },
				{ namespace: 'a', name: 'y', phase: 'Pending' },
			]).map((c) => c.key),
		).toEqual(['a/y', 'b/x']);
		expect(formatScore(3)).toBe('3');
		expect(formatScore(2.456)).toBe('2.5');
	});
});
