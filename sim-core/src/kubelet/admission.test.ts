import { describe, expect, it } from 'vitest';
import type { Node, Pod } from '../api/types.ts';
import { admitPod, podRequests } from './admission.ts';

function node(extra: Partial<Node['spec']> = {}, labels: Record<string, string> = {}): Node {
	return {
		apiVersion: 'v1',
		kind: 'Node',
		metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1', ...labels } },
		spec: { ...extra },
		status: { allocatable: { cpu: '2', memory: '3996Mi', pods: '3', 'ephemeral-storage': '90Gi' } },
	};
}

function pod(name: string, spec: Partial<Pod['spec']> = {}, requests: Record<string, string> = {}): Pod {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx', resources: { requests } }], ...spec } };
}

describe('the kubelet admits pods against its node (lifecycle/predicate.go)', () => {
	it.each([
		['fits', pod('p', {}, { cpu: '500m', memory: '1Gi' }), [], { admit: true }],
		['asks for more cpu than is left', pod('p', {}, { cpu: '1500m' }), [pod('o', {}, { cpu: '1' })], { admit: false, reason: 'OutOfcpu', message: "Node didn't have enough resource: cpu, requested: 1500, used: 1000, capacity: 2000" }],
		['asks for more memory than allocatable', pod('p', {}, { memory: '4Gi' }), [], { admit: false, reason: 'OutOfmemory', message: "Node didn't have enough resource: memory, requested: 4294967296, used: 0, capacity: 4190109696" }],
		['finds no pod slot left', pod('p'), [pod('a'), pod('b'), pod('c')], { admit: false, reason: 'OutOfpods', message: "Node didn't have enough resource: pods, requested: 1, used: 3, capacity: 3" }],
		['does not match the node selector', pod('p', { nodeSelector: { disktype: 'ssd' } }), [], { admit: false, reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" }],
		[
			'does not match required node affinity',
			pod('p', { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['b'] }] }] } } } }),
			[],
			{ admit: false, reason: 'NodeAffinity', message: "Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector" },
		],
		['wants a host port already taken', pod('p', { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] }), [pod('o', { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80, hostPort: 8080 }] }] })], { admit: false, reason: 'NodePorts', message: "Predicate NodePorts failed: node(s) didn't have free ports for the requested pod ports" }],
	] as const)('rejects or admits a pod that %s', (_what, p, others, expected) => {
		expect(admitPod(p as Pod, node({}, { zone: 'a' }), others as unknown as Pod[])).toEqual(expected);
	});

	it('rejects a pod that does not tolerate a NoExecute taint, and only NoExecute', () => {
		const tainted = node({ taints: [{ key: 'dedicated', value: 'db', effect: 'NoExecute' }] });
		expect(admitPod(pod('p'), tainted, [])).toEqual({ admit: false, reason: 'TaintToleration', message: 'Predicate TaintToleration failed: node(s) had untolerated taint(s)' });
		expect(admitPod(pod('p', { tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'db', effect: 'NoExecute' }] }), tainted, [])).toEqual({ admit: true });
		expect(admitPod(pod('p'), node({ taints: [{ key: 'node-role.kubernetes.io/control-plane', effect: 'NoSchedule' }] }), [])).toEqual({ admit: true });
	});

	it('lets static pods through NoExecute taints', () => {
		const p = pod('p');
		p.metadata.annotations = { 'kubernetes.io/config.source': 'file' };
		expect(admitPod(p, node({ taints: [{ key: 'x', effect: 'NoExecute' }] }), [])).toEqual({ admit: true });
	});

	it('counts the largest init container when it exceeds the app containers (resourcehelper.PodRequests)', () => {
		const p = pod('p', { initContainers: [{ name: 'i', image: 'busybox', resources: { requests: { cpu: '1', memory: '64Mi' } } }] }, { cpu: '200m', memory: '128Mi' });
		expect(podRequests(p)).toEqual({ milliCpu: 1000, memory: 128 * 1024 * 1024, ephemeralStorage: 0 });
	});
});
