import { describe, it, expect } from 'vitest';
import type { KubeObject, Pod } from '../../api/types.ts';
import type { UserInfo } from '../../api/request.ts';
import type { AuthorizationAttributes, AuthorizerReader } from './authorizer.ts';
import { authorizeNodeRequest, nodeIdentity, nodeSubjectRules, podConfigMapNames, podSecretNames } from './node.ts';

const PLURALS: Record<string, string> = { Pod: 'pods', PersistentVolumeClaim: 'persistentvolumeclaims' };

function readerOf(objects: KubeObject[]): AuthorizerReader {
	return {
		list: (_g, resource, namespace) => objects.filter((o) => PLURALS[o.kind] === resource && (!namespace || o.metadata.namespace === namespace)),
		get: (_g, resource, namespace, name) => objects.find((o) => PLURALS[o.kind] === resource && o.metadata.name === name && o.metadata.namespace === namespace),
	};
}

/** A pod bound to `node` that uses a secret volume, env from a configmap, an image pull secret and a claim. */
function pod(namespace: string, name: string, node: string | undefined, refs: { secret?: string; configMap?: string; pullSecret?: string; claim?: string; serviceAccount?: string } = {}): Pod {
	const volumes: Array<Record<string, unknown> & { name: string }> = [];
	if (refs.secret) volumes.push({ name: 'creds', secret: { secretName: refs.secret } });
	if (refs.claim) volumes.push({ name: 'data', persistentVolumeClaim: { claimName: refs.claim } });
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, namespace },
		spec: {
			nodeName: node,
			serviceAccountName: refs.serviceAccount ?? 'default',
			imagePullSecrets: refs.pullSecret ? [{ name: refs.pullSecret }] : undefined,
			containers: [{ name: 'app', image: 'nginx', envFrom: refs.configMap ? [{ configMapRef: { name: refs.configMap } }] : undefined }],
			volumes,
		},
	};
}

const kubelet = (node: string): UserInfo => ({ username: `system:node:${node}`, groups: ['system:nodes', 'system:authenticated'] });

function attrs(user: UserInfo, verb: string, group: string, resource: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
	return { user, verb, resourceRequest: true, group, resource, ...extra };
}

const cluster = readerOf([
	pod('default', 'web-1', 'node-1', { secret: 'web-tls', configMap: 'web-config', pullSecret: 'registry', claim: 'web-data', serviceAccount: 'web' }),
	pod('default', 'db-1', 'node-2', { secret: 'db-password', configMap: 'db-config' }),
	pod('default', 'pending', undefined, { secret: 'pending-secret' }),
	{ apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'web-data', namespace: 'default' }, spec: { volumeName: 'pv-7' } },
]);

const ALLOW = { allowed: true, reason: '' };
const noRelation = (node: string) => ({ allowed: false, reason: `no relationship found between node '${node}' and this object` });

describe('the Node authorizer', () => {
	const n1 = kubelet('node-1');
	const cases: Array<[string, AuthorizationAttributes, ReturnType<typeof authorizeNodeRequest>]> = [
		// Secrets and configmaps: only those its pods use.
		['gets a secret its pod mounts', attrs(n1, 'get', '', 'secrets', { namespace: 'default', name: 'web-tls' }), ALLOW],
		['gets its pod image pull secret', attrs(n1, 'get', '', 'secrets', { namespace: 'default', name: 'registry' }), ALLOW],
		['watches one secret by name', attrs(n1, 'watch', '', 'secrets', { namespace: 'default', name: 'web-tls' }), ALLOW],
		["cannot get another node's pod secret", attrs(n1, 'get', '', 'secrets', { namespace: 'default', name: 'db-password' }), noRelation('node-1')],
		['cannot get the secret of an unscheduled pod', attrs(n1, 'get', '', 'secrets', { namespace: 'default', name: 'pending-secret' }), noRelation('node-1')],
		['cannot get its secret from another namespace', attrs(n1, 'get', '', 'secrets', { namespace: 'other', name: 'web-tls' }), noRelation('node-1')],
		['cannot list secrets', attrs(n1, 'list', '', 'secrets', { namespace: 'default' }), { allowed: false, reason: 'No Object name found' }],
		['cannot update a secret', attrs(n1, 'update', '', 'secrets', { namespace: 'default', name: 'web-tls' }), { allowed: false, reason: 'can only read resources of this type' }],
		['gets a configmap its pod uses as env', attrs(n1, 'get', '', 'configmaps', { namespace: 'default', name: 'web-config' }), ALLOW],
		["cannot get another node's configmap", attrs(n1, 'get', '', 'configmaps', { namespace: 'default', name: 'db-config' }), noRelation('node-1')],
		// Claims and volumes through its pods.
		['gets the claim its pod mounts', attrs(n1, 'get', '', 'persistentvolumeclaims', { namespace: 'default', name: 'web-data' }), ALLOW],
		['gets the volume bound to that claim', attrs(n1, 'get', '', 'persistentvolumes', { name: 'pv-7' }), ALLOW],
		['cannot list claims', attrs(n1, 'list', '', 'persistentvolumeclaims', { namespace: 'default' }), { allowed: false, reason: 'can only get individual resources of this type' }],
		// Service account tokens.
		['creates a token for its pod service account', attrs(n1, 'create', '', 'serviceaccounts', { subresource: 'token', namespace: 'default', name: 'web' }), ALLOW],
		['cannot create a token for another service account', attrs(n1, 'create', '', 'serviceaccounts', { subresource: 'token', namespace: 'default', name: 'admin' }), noRelation('node-1')],
		['cannot get a service account', attrs(n1, 'get', '', 'serviceaccounts', { namespace: 'default', name: 'web' }), { allowed: false, reason: 'can only create tokens for individual service accounts' }],
		// Its Node object.
		['gets its own Node', attrs(n1, 'get', '', 'nodes', { name: 'node-1' }), ALLOW],
		['cannot get another Node', attrs(n1, 'get', '', 'nodes', { name: 'node-2' }), { allowed: false, reason: "node 'node-1' cannot read 'node-2', only its own Node object" }],
		['cannot list all Nodes', attrs(n1, 'list', '', 'nodes'), { allowed: false, reason: "node 'node-1' cannot read all nodes, only its own Node object" }],
		['creates a Node (NodeRestriction checks which)', attrs(n1, 'create', '', 'nodes'), ALLOW],
		['updates its node status', attrs(n1, 'update', '', 'nodes', { subresource: 'status', name: 'node-1' }), ALLOW],
		['patches any node status here; NodeRestriction refuses another node', attrs(n1, 'patch', '', 'nodes', { subresource: 'status', name: 'node-2' }), ALLOW],
		['has no opinion on deleting a Node', attrs(n1, 'delete', '', 'nodes', { name: 'node-1' }), 'no-opinion'],
		// Pods.
		['gets its own pod', attrs(n1, 'get', '', 'pods', { namespace: 'default', name: 'web-1' }), ALLOW],
		["cannot get another node's pod", attrs(n1, 'get', '', 'pods', { namespace: 'default', name: 'db-1' }), noRelation('node-1')],
		['lists pods with its spec.nodeName field selector', attrs(n1, 'list', '', 'pods', { fieldSelector: 'spec.nodeName=node-1' }), ALLOW],
		['watches pods with spec.nodeName== and another term', attrs(n1, 'watch', '', 'pods', { fieldSelector: 'metadata.namespace!=x,spec.nodeName==node-1' }), ALLOW],
		["cannot list another node's pods", attrs(n1, 'list', '', 'pods', { fieldSelector: 'spec.nodeName=node-2' }), { allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector' }],
		['cannot list all pods', attrs(n1, 'list', '', 'pods'), { allowed: false, reason: 'can only list/watch pods with spec.nodeName field selector' }],
		['creates a mirror pod', attrs(n1, 'create', '', 'pods', { namespace: 'kube-system' }), ALLOW],
		['deletes a pod', attrs(n1, 'delete', '', 'pods', { namespace: 'default', name: 'web-1' }), ALLOW],
		['updates pod status', attrs(n1, 'update', '', 'pods', { subresource: 'status', namespace: 'default', name: 'web-1' }), ALLOW],
		['evicts a pod', attrs(n1, 'create', '', 'pods', { subresource: 'eviction', namespace: 'default', name: 'web-1' }), ALLOW],
		['has no opinion on updating a pod spec', attrs(n1, 'update', '', 'pods', { namespace: 'default', name: 'web-1' }), 'no-opinion'],
		// Its Lease.
		['renews its Lease', attrs(n1, 'update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'node-1' }), ALLOW],
		['creates a Lease in kube-node-lease', attrs(n1, 'create', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease' }), ALLOW],
		["cannot renew another node's Lease", attrs(n1, 'update', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease', name: 'node-2' }), { allowed: false, reason: 'can only access node lease with the same name as the requesting node' }],
		['cannot touch Leases elsewhere', attrs(n1, 'get', 'coordination.k8s.io', 'leases', { namespace: 'kube-system', name: 'node-1' }), { allowed: false, reason: 'can only access leases in the "kube-node-lease" system namespace' }],
		['cannot list Leases', attrs(n1, 'list', 'coordination.k8s.io', 'leases', { namespace: 'kube-node-lease' }), { allowed: false, reason: 'can only get, create, update, patch, or delete a node lease' }],
		// The static node rules.
		['lists services (env vars)', attrs(n1, 'list', '', 'services'), ALLOW],
		['creates events', attrs(n1, 'create', '', 'events', { namespace: 'default' }), ALLOW],
		['has no opinion on deployments', attrs(n1, 'list', 'apps', 'deployments', { namespace: 'default' }), 'no-opinion'],
		['has no opinion on deleting services', attrs(n1, 'delete', '', 'services', { namespace: 'default', name: 'web' }), 'no-opinion'],
	];
	it.each(cases)('%s', (_name, attributes, expected) => {
		expect(authorizeNodeRequest(attributes, cluster)).toEqual(expected);
	});

	it('has no opinion on anyone who is not a node', () => {
		const users: UserInfo[] = [
			{ username: 'jane', groups: ['system:authenticated'] },
			// A node-like name without the group, and the group without the name, are not nodes.
			{ username: 'system:node:node-1', groups: ['system:authenticated'] },
			{ username: 'mallory', groups: ['system:nodes', 'system:authenticated'] },
		];
		for (const user of users) expect(authorizeNodeRequest(attrs(user, 'get', '', 'secrets', { namespace: 'default', name: 'web-tls' }), cluster)).toBe('no-opinion');
	});

	it('refuses a node user without a name', () => {
		const user = { username: 'system:node:', groups: ['system:nodes'] };
		expect(nodeIdentity(user)).toEqual({ isNode: true, nodeName: '' });
		expect(authorizeNodeRequest(attrs(user, 'get', '', 'services'), cluster)).toEqual({ allowed: false, reason: 'unknown node for user "system:node:"' });
	});

	it('cannot enumerate a node’s rules (SelfSubjectRulesReview is incomplete)', () => {
		expect(nodeSubjectRules(kubelet('node-1'))).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'node authorizer does not support user rule resolution' });
		expect(nodeSubjectRules({ username: 'jane', groups: [] })).toEqual({ resourceRules: [], nonResourceRules: [], incomplete: false });
	});
});

describe('the references of a pod (podutil.VisitPodSecretNames / VisitPodConfigmapNames)', () => {
	const p: Pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name: 'p', namespace: 'default' },
		spec: {
			imagePullSecrets: [{ name: 'pull' }],
			initContainers: [{ name: 'init', env: [{ name: 'A', valueFrom: { secretKeyRef: { name: 'init-secret', key: 'k' } } }] }],
			containers: [
				{
					name: 'c',
					env: [{ name: 'B', valueFrom: { configMapKeyRef: { name: 'env-cm', key: 'k' } } }],
					envFrom: [{ secretRef: { name: 'envfrom-secret' } }, { configMapRef: { name: 'envfrom-cm' } }],
				},
			],
			volumes: [
				{ name: 'v1', secret: { secretName: 'vol-secret' } },
				{ name: 'v2', configMap: { name: 'vol-cm' } },
				{ name: 'v3', projected: { sources: [{ secret: { name: 'proj-secret' } }, { configMap: { name: 'proj-cm' } }, { serviceAccountToken: { path: 'token' } }] } },
				{ name: 'v4', csi: { driver: 'x', nodePublishSecretRef: { name: 'csi-secret' } } },
			],
		},
	};
	it('finds every secret', () => {
		expect([...podSecretNames(p)].sort()).toEqual(['csi-secret', 'envfrom-secret', 'init-secret', 'proj-secret', 'pull', 'vol-secret']);
	});
	it('finds every configmap', () => {
		expect([...podConfigMapNames(p)].sort()).toEqual(['env-cm', 'envfrom-cm', 'proj-cm', 'vol-cm']);
	});
});
