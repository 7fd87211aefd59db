/**
 * The view of a cluster (src/sandbox/view.ts): what the map draws, read
 * without changing anything, and matching what kubectl says.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { parseScenario, podResourceRequests, startScenario } from '@cluster-anatomy/sim-core';
import { MESSAGES_MAX, buildView, componentOf } from '../../src/sandbox/view.ts';

const overview = parseScenario(readFileSync('content/scenarios/start/overview.yaml', 'utf8'), 'start/overview');
const context = { playing: false, speed: 1 as const, earliestMs: 0, latestMs: 0, tasks: overview.tasks };

describe('the cluster view', () => {
	const { cluster } = startScenario(overview);
	const view = buildView(cluster, context);

	it('draws the nodes with their role, readiness, taints and allocatable resources', () => {
		expect(view.nodes.map((n) => [n.name, n.roles, n.ready])).toEqual([
			['control-plane', ['control-plane'], 'True'],
			['node-1', [], 'True'],
			['node-2', [], 'True'],
		]);
		expect(view.nodes[0].taints).toEqual(['node-role.kubernetes.io/control-plane:NoSchedule']);
		expect(view.nodes[1].cpu.allocatableMilli).toBe(2000);
		expect(view.nodes[0].cpu.requestedMilli).toBeGreaterThan(0);
		expect(view.nodes[1].pods.count).toBe(view.pods.filter((p) => p.node === 'node-1').length);
	});

	it('gives every pod the STATUS and READY kubectl prints', () => {
		const table = cluster.observe('kubectl get pods -A --no-headers').stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 4).join(' '));
		expect(view.pods.map((p) => `${p.namespace} ${p.name} ${p.ready} ${p.status}`)).toEqual(table);
		const coredns = view.pods.find((p) => p.name.startsWith('coredns-'));
		expect(coredns?.owner).toMatch(/^ReplicaSet\/coredns-/);
	});

	it('lists components with their health and leaders, and the newest messages', () => {
		expect(view.components.find((c) => c.component === 'kube-scheduler')).toMatchObject({ running: true, failing: false, leader: true });
		expect(view.messages.length).toBeGreaterThan(0);
		expect(view.messages.length).toBeLessThanOrEqual(MESSAGES_MAX);
		expect(view.messages.every((m) => m.from !== m.to)).toBe(true);
		expect(view.tasks.map((t) => [t.id, t.done])).toEqual([
			['find-the-control-plane', false],
			['scheduler-away', false],
		]);
	});

	it('changes nothing: no input, no trace event', () => {
		const before = cluster.fingerprint();
		buildView(cluster, context);
		expect(cluster.fingerprint()).toBe(before);
		expect(cluster.inputs()).toEqual(startScenario(overview).cluster.inputs());
	});

	it('shows a stopped component and a cut-off node', () => {
		const { cluster: broken } = startScenario(overview);
		broken.stop('kube-scheduler');
		broken.partition('node-2');
		broken.advance('2m');
		const v = buildView(broken, context);
		expect(v.components.find((c) => c.component === 'kube-scheduler')).toMatchObject({ failing: true });
		expect(v.nodes.find((n) => n.name === 'node-2')).toMatchObject({ partitioned: true, ready: 'Unknown' });
		expect(v.pods.find((p) => p.name === 'kube-scheduler-control-plane')?.status).toBe('CrashLoopBackOff');
	});

	it('shows a powered-off node as such at once, before its Ready condition changes', () => {
		const { cluster: dark } = startScenario(overview);
		dark.powerOff('node-1');
		const v = buildView(dark, context);
		expect(v.nodes.find((n) => n.name === 'node-1')).toMatchObject({ poweredOff: true, ready: 'True' });
		expect(v.nodes.filter((n) => n.name !== 'node-1').every((n) => !n.poweredOff)).toBe(true);
		expect(v.components.filter((c) => c.node === 'node-1').map((c) => [c.component, c.running])).toEqual([
			['kubelet', false],
			['container-runtime', false],
			['kube-proxy', false],
		]);
	});

	it('counts pod requests as the scheduler does (the larger of the init containers and the sum of the others)', () => {
		const pod = {
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'p' },
			spec: {
				containers: [{ resources: { requests: { cpu: '100m', memory: '64Mi' } } }, { resources: { requests: { cpu: '200m' } } }],
				initContainers: [{ resources: { requests: { cpu: '500m', memory: '32Mi' } } }],
			},
		};
		expect(podResourceRequests(pod)).toEqual({ cpuMilli: 500, memoryBytes: 64 * 2 ** 20 });
	});

	it('folds controllers into kube-controller-manager', () => {
		expect(componentOf('kube-controller-manager/deployment-controller')).toBe('kube-controller-manager');
		expect(componentOf('kubelet/node-1')).toBe('kubelet/node-1');
	});
});
