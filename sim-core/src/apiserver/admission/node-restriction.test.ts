import { describe, it, expect } from 'vitest';
import type { KubeObject, Status } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionAttributes, AdmissionOperation } from './plugin.ts';
import { nodeName, nodeRestriction } from './node-restriction.ts';

const NODE_UID = '11111111-2222-4333-8444-555555555555';
const node1: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid: NODE_UID }, spec: {} };
const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'x', groups: [] }, get: (_g, r, _ns, name) => (r === 'nodes' && name === 'node-1' ? node1 : undefined), list: () => [], random: () => 0 };
const kubelet = { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] };

function run(a: Partial<AdmissionAttributes> & { operation: AdmissionOperation; group?: string; resource: string }): string {
	const { group = '', resource, ...rest } = a;
	const attributes = { info: resourceByName(group, resource)!, name: '', user: kubelet, dryRun: false, ...rest } as AdmissionAttributes;
	const r = a.operation === 'DELETE' ? nodeRestriction.validate!(attributes, ctx) : nodeRestriction.admit!(attributes, ctx);
	return r ? (r.body as Status).message ?? '' : 'allowed';
}

const pod = (meta: Record<string, unknown>, spec: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'static-web-node-1', namespace: 'default', ...meta }, spec });
const mirror = { annotations: { 'kubernetes.io/config.mirror': 'hash' }, ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'node-1', uid: NODE_UID, controller: true }] };

describe('NodeRestriction', () => {
	it.each([
		[{ username: 'system:node:node-1', groups: ['system:nodes'] }, 'node-1'],
		[{ username: 'system:node:node-1', groups: [] }, undefined],
		[{ username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins'] }, undefined],
	])('identifies %j as node %s', (user, expected) => {
		expect(nodeName(user)).toBe(expected);
	});

	it.each([
		['updating its own Node status', { operation: 'UPDATE', resource: 'nodes', name: 'node-1', subresource: 'status', object: node1, oldObject: node1 }, 'allowed'],
		['updating another Node', { operation: 'UPDATE', resource: 'nodes', name: 'node-2', object: node1, oldObject: node1 }, 'nodes "node-1" is forbidden: node "node-1" is not allowed to modify node "node-2"'],
		[
			'changing its own taints',
			{ operation: 'UPDATE', resource: 'nodes', name: 'node-1', object: { ...node1, spec: { taints: [] as unknown[] } }, oldObject: { ...node1, spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } } },
			'nodes "node-1" is forbidden: node "node-1" is not allowed to modify taints',
		],
		[
			'registering with a role label',
			{ operation: 'CREATE', resource: 'nodes', name: 'node-1', object: { ...node1, metadata: { name: 'node-1', labels: { 'node-role.kubernetes.io/control-plane': '', 'kubernetes.io/hostname': 'node-1' } } } },
			'nodes "node-1" is forbidden: node "node-1" is not allowed to set the following labels: node-role.kubernetes.io/control-plane',
		],
		['renewing its own lease', { operation: 'UPDATE', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'node-1' }, 'allowed'],
		['renewing another lease', { operation: 'UPDATE', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-node-lease', name: 'node-2' }, 'leases.coordination.k8s.io "node-2" is forbidden: can only access node lease with the same name as the requesting node'],
		['a lease outside kube-node-lease', { operation: 'UPDATE', group: 'coordination.k8s.io', resource: 'leases', namespace: 'kube-system', name: 'node-1' }, 'leases.coordination.k8s.io "node-1" is forbidden: can only access leases in the "kube-node-lease" system namespace'],
		['creating a mirror pod bound to itself', { operation: 'CREATE', resource: 'pods', namespace: 'default', object: pod(mirror, { nodeName: 'node-1' }) }, 'allowed'],
		[
			'creating a regular pod',
			{ operation: 'CREATE', resource: 'pods', namespace: 'default', object: pod({}, { nodeName: 'node-1' }) },
			'pods "static-web-node-1" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "node-1" can only create mirror pods',
		],
		[
			'creating a mirror pod for another node',
			{ operation: 'CREATE', resource: 'pods', namespace: 'default', object: pod(mirror, { nodeName: 'node-2' }) },
			'pods "static-web-node-1" is forbidden: node "node-1" can only create pods with spec.nodeName set to itself',
		],
		[
			'creating a mirror pod without an owner',
			{ operation: 'CREATE', resource: 'pods', namespace: 'default', object: pod({ annotations: mirror.annotations }, { nodeName: 'node-1' }) },
			'pods "static-web-node-1" is forbidden: node "node-1" can only create pods with an owner reference set to itself',
		],
		['updating status of its own pod', { operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'default', name: 'web', object: pod({}, { nodeName: 'node-1' }), oldObject: pod({}, { nodeName: 'node-1' }) }, 'allowed'],
		[
			'updating status of a pod on another node',
			{ operation: 'UPDATE', resource: 'pods', subresource: 'status', namespace: 'default', name: 'web', object: pod({}, { nodeName: 'node-2' }), oldObject: pod({}, { nodeName: 'node-2' }) },
			'pods "static-web-node-1" is forbidden: node "node-1" can only update pod status for pods with spec.nodeName set to itself',
		],
		['deleting its own pod', { operation: 'DELETE', resource: 'pods', namespace: 'default', name: 'web', oldObject: pod({}, { nodeName: 'node-1' }) }, 'allowed'],
		['deleting a pod on another node', { operation: 'DELETE', resource: 'pods', namespace: 'default', name: 'web', oldObject: pod({}, { nodeName: 'node-2' }) }, 'pods "web" is forbidden: node "node-1" can only delete pods with spec.nodeName set to itself'],
		['updating a pod spec', { operation: 'UPDATE', resource: 'pods', namespace: 'default', name: 'web', object: pod({}, { nodeName: 'node-1' }) }, 'pods "static-web-node-1" is forbidden: unexpected operation "UPDATE", node "node-1" can only create and delete mirror pods'],
	] as Array<[string, Partial<AdmissionAttributes> & { operation: AdmissionOperation; resource: string; group?: string }, string]>)('%s', (_name, a, expected) => {
		expect(run(a)).toBe(expected);
	});

	it('lets other users through', () => {
		const r = nodeRestriction.admit!({ operation: 'UPDATE', info: resourceByName('', 'nodes')!, name: 'node-2', object: node1, oldObject: node1, user: { username: 'kubernetes-admin', groups: [] }, dryRun: false }, ctx);
		expect(r).toBeUndefined();
	});
});
