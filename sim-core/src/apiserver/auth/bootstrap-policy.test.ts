import { describe, it, expect } from 'vitest';
import type { KubeObject, Role, RoleBinding } from '../../api/types.ts';
import type { AuthorizationAttributes } from './authorizer.ts';
import { bootstrapPolicyObjects, controllerServiceAccounts, kubeadmRbacObjects, nodeRules } from './bootstrap-policy.ts';
import { effectiveClusterRoleRules, rulesAllow } from './rbac.ts';

const objects = bootstrapPolicyObjects();
const clusterRoles = objects.filter((o) => o.kind === 'ClusterRole') as Role[];
const byKindName = (list: KubeObject[], kind: string, name: string, namespace?: string) => list.find((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === namespace);
const clusterRole = (name: string) => byKindName(objects, 'ClusterRole', name) as Role;
const effective = (name: string) => effectiveClusterRoleRules(clusterRole(name), clusterRoles);

function can(rules: Parameters<typeof rulesAllow>[1], verb: string, group: string, resource: string, subresource?: string, name?: string): boolean {
	const a: AuthorizationAttributes = { user: { username: 'u', groups: [] }, verb, resourceRequest: true, group, resource, subresource, name, namespace: 'default' };
	return rulesAllow(a, rules);
}

describe('the bootstrap RBAC policy (rbac/bootstrap-roles)', () => {
	it('marks every object with the bootstrapping label and the autoupdate annotation', () => {
		for (const o of objects) {
			expect(o.apiVersion).toBe('rbac.authorization.k8s.io/v1');
			expect(o.metadata.labels?.['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
			expect(o.metadata.annotations).toEqual({ 'rbac.authorization.kubernetes.io/autoupdate': 'true' });
		}
	});

	it('names every object once per kind and namespace', () => {
		const keys = objects.map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
		expect(new Set(keys).size).toBe(keys.length);
	});

	it.each([
		'cluster-admin',
		'admin',
		'edit',
		'view',
		'system:basic-user',
		'system:discovery',
		'system:public-info-viewer',
		'system:node',
		'system:node-proxier',
		'system:kube-scheduler',
		'system:kube-controller-manager',
		'system:volume-scheduler',
		'system:monitoring',
		'system:service-account-issuer-discovery',
		'system:controller:deployment-controller',
		'system:controller:replicaset-controller',
		'system:controller:daemon-set-controller',
		'system:controller:namespace-controller',
		'system:controller:generic-garbage-collector',
		'system:controller:node-controller',
		'system:controller:service-account-controller',
		'system:controller:root-ca-cert-publisher',
		'system:controller:endpointslice-controller',
		'system:controller:endpoint-controller',
		'system:controller:statefulset-controller',
		'system:controller:job-controller',
		'system:controller:ttl-after-finished-controller',
		'system:controller:disruption-controller',
		'system:controller:pod-garbage-collector',
	])('has the ClusterRole %s', (name) => {
		expect(clusterRole(name)).toBeDefined();
	});

	it('gives cluster-admin everything, resources and paths', () => {
		expect(clusterRole('cluster-admin').rules).toEqual([
			{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
			{ verbs: ['*'], nonResourceURLs: ['*'] },
		]);
	});

	it('aggregates admin ← edit ← view through their labels', () => {
		expect(clusterRole('admin').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' } }] });
		expect(clusterRole('edit').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' } }] });
		expect(clusterRole('view').aggregationRule).toEqual({ clusterRoleSelectors: [{ matchLabels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } }] });
		expect(clusterRole('edit').metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-admin']).toBe('true');
		expect(clusterRole('view').metadata.labels?.['rbac.authorization.k8s.io/aggregate-to-edit']).toBe('true');
		// Written without rules: the aggregation controller fills them.
		expect(clusterRole('view').rules).toBeUndefined();
	});

	// What each default user-facing role allows, as the Kubernetes RBAC documentation describes them.
	const roleTable: Array<[string, string, string, string, string | undefined, boolean]> = [
		['view', 'list', '', 'pods', undefined, true],
		['view', 'get', '', 'pods', 'log', true],
		['view', 'get', '', 'secrets', undefined, false],
		['view', 'create', '', 'pods', undefined, false],
		['view', 'list', 'apps', 'deployments', undefined, true],
		['view', 'list', 'rbac.authorization.k8s.io', 'roles', undefined, false],
		['edit', 'get', '', 'secrets', undefined, true],
		['edit', 'create', '', 'pods', undefined, true],
		['edit', 'create', '', 'pods', 'exec', true],
		['edit', 'patch', 'apps', 'deployments', 'scale', true],
		['edit', 'list', 'apps', 'deployments', undefined, true],
		['edit', 'create', 'rbac.authorization.k8s.io', 'rolebindings', undefined, false],
		['edit', 'update', '', 'resourcequotas', undefined, false],
		['admin', 'create', 'rbac.authorization.k8s.io', 'rolebindings', undefined, true],
		['admin', 'delete', '', 'pods', undefined, true],
		['admin', 'list', '', 'pods', undefined, true],
		['admin', 'update', '', 'resourcequotas', undefined, false],
	];
	it.each(roleTable)('%s: %s %s/%s (subresource %s) → %s', (name, verb, group, resource, subresource, allowed) => {
		expect(can(effective(name), verb, group, resource, subresource)).toBe(allowed);
	});

	it('lets the scheduler bind pods and read nodes, but not delete nodes', () => {
		const rules = clusterRole('system:kube-scheduler').rules ?? [];
		expect(can(rules, 'create', '', 'pods', 'binding')).toBe(true);
		expect(can(rules, 'list', '', 'nodes')).toBe(true);
		expect(can(rules, 'delete', '', 'nodes')).toBe(false);
		expect(can(rules, 'update', 'coordination.k8s.io', 'leases', undefined, 'kube-scheduler')).toBe(true);
		expect(can(rules, 'update', 'coordination.k8s.io', 'leases', undefined, 'kube-controller-manager')).toBe(false);
	});

	it('lets the garbage collector read and delete anything, but not create', () => {
		const rules = clusterRole('system:controller:generic-garbage-collector').rules ?? [];
		expect(rules[0]).toEqual({ verbs: ['delete', 'get', 'list', 'patch', 'update', 'watch'], apiGroups: ['*'], resources: ['*'] });
		expect(can(rules, 'create', '', 'pods')).toBe(false);
	});

	it('uses the node rules for system:node, sorted as upstream renders them', () => {
		expect(clusterRole('system:node').rules).toEqual(nodeRules());
		expect(nodeRules()[1]).toEqual({ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews', 'subjectaccessreviews'] });
	});

	const bindingTable: Array<[string, string, Array<{ kind: string; name: string; namespace?: string }>]> = [
		['cluster-admin', 'cluster-admin', [{ kind: 'Group', name: 'system:masters' }]],
		['system:basic-user', 'system:basic-user', [{ kind: 'Group', name: 'system:authenticated' }]],
		['system:discovery', 'system:discovery', [{ kind: 'Group', name: 'system:authenticated' }]],
		['system:public-info-viewer', 'system:public-info-viewer', [{ kind: 'Group', name: 'system:authenticated' }, { kind: 'Group', name: 'system:unauthenticated' }]],
		['system:kube-scheduler', 'system:kube-scheduler', [{ kind: 'User', name: 'system:kube-scheduler' }]],
		['system:volume-scheduler', 'system:volume-scheduler', [{ kind: 'User', name: 'system:kube-scheduler' }]],
		['system:kube-controller-manager', 'system:kube-controller-manager', [{ kind: 'User', name: 'system:kube-controller-manager' }]],
		['system:node-proxier', 'system:node-proxier', [{ kind: 'User', name: 'system:kube-proxy' }]],
		['system:monitoring', 'system:monitoring', [{ kind: 'Group', name: 'system:monitoring' }]],
		['system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', [{ kind: 'Group', name: 'system:serviceaccounts' }]],
		['system:controller:deployment-controller', 'system:controller:deployment-controller', [{ kind: 'ServiceAccount', name: 'deployment-controller', namespace: 'kube-system' }]],
		['system:controller:generic-garbage-collector', 'system:controller:generic-garbage-collector', [{ kind: 'ServiceAccount', name: 'generic-garbage-collector', namespace: 'kube-system' }]],
	];
	it.each(bindingTable)('binds %s to ClusterRole %s', (name, roleName, subjects) => {
		const binding = byKindName(objects, 'ClusterRoleBinding', name) as RoleBinding;
		expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName });
		expect((binding.subjects ?? []).map(({ kind, name: n, namespace }) => (namespace ? { kind, name: n, namespace } : { kind, name: n }))).toEqual(subjects);
	});

	it('keeps the system:node binding without subjects', () => {
		expect((byKindName(objects, 'ClusterRoleBinding', 'system:node') as RoleBinding).subjects).toBeUndefined();
	});

	it('binds every controller role to its service account in kube-system', () => {
		for (const sa of controllerServiceAccounts()) {
			const binding = byKindName(objects, 'ClusterRoleBinding', `system:controller:${sa}`) as RoleBinding;
			expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: sa, namespace: 'kube-system' }]);
			expect(byKindName(objects, 'ClusterRole', `system:controller:${sa}`)).toBeDefined();
		}
	});

	it('creates the leader-locking and authentication-reader Roles in kube-system', () => {
		expect((byKindName(objects, 'Role', 'extension-apiserver-authentication-reader', 'kube-system') as Role).rules).toEqual([{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['extension-apiserver-authentication'] }]);
		const binding = byKindName(objects, 'RoleBinding', 'system::leader-locking-kube-scheduler', 'kube-system') as RoleBinding;
		expect(binding.roleRef.name).toBe('system::leader-locking-kube-scheduler');
		expect(binding.subjects?.map((s) => s.name)).toEqual(['system:kube-scheduler', 'kube-scheduler']);
		expect(byKindName(objects, 'Role', 'system:controller:bootstrap-signer', 'kube-public')).toBeDefined();
	});
});

describe("kubeadm's RBAC objects", () => {
	const kubeadm = kubeadmRbacObjects();
	const table: Array<[string, string | undefined, string, string, string[]]> = [
		['kubeadm:cluster-admins', undefined, 'ClusterRole', 'cluster-admin', ['Group:kubeadm:cluster-admins']],
		['kubeadm:get-nodes', undefined, 'ClusterRole', 'kubeadm:get-nodes', ['Group:system:bootstrappers:kubeadm:default-node-token']],
		['kubeadm:kubelet-bootstrap', undefined, 'ClusterRole', 'system:node-bootstrapper', ['Group:system:bootstrappers:kubeadm:default-node-token']],
		['kubeadm:node-autoapprove-bootstrap', undefined, 'ClusterRole', 'system:certificates.k8s.io:certificatesigningrequests:nodeclient', ['Group:system:bootstrappers:kubeadm:default-node-token']],
		['kubeadm:node-autoapprove-certificate-rotation', undefined, 'ClusterRole', 'system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', ['Group:system:nodes']],
		['kubeadm:node-proxier', undefined, 'ClusterRole', 'system:node-proxier', ['ServiceAccount:kube-proxy']],
		['system:coredns', undefined, 'ClusterRole', 'system:coredns', ['ServiceAccount:coredns']],
		['kubeadm:nodes-kubeadm-config', 'kube-system', 'Role', 'kubeadm:nodes-kubeadm-config', ['Group:system:bootstrappers:kubeadm:default-node-token', 'Group:system:nodes']],
		['kube-proxy', 'kube-system', 'Role', 'kube-proxy', ['Group:system:bootstrappers:kubeadm:default-node-token']],
		['kubeadm:bootstrap-signer-clusterinfo', 'kube-public', 'Role', 'kubeadm:bootstrap-signer-clusterinfo', ['User:system:anonymous']],
	];
	it.each(table)('binds %s (namespace %s) to %s %s', (name, namespace, roleKind, roleName, subjects) => {
		const binding = byKindName(kubeadm, namespace ? 'RoleBinding' : 'ClusterRoleBinding', name, namespace) as RoleBinding;
		expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: roleKind, name: roleName });
		expect(binding.subjects?.map((s) => `${s.kind}:${s.name}`)).toEqual(subjects);
	});

	it('gives CoreDNS list and watch on what it serves', () => {
		expect((byKindName(kubeadm, 'ClusterRole', 'system:coredns') as Role).rules).toEqual([
			{ apiGroups: [''], resources: ['endpoints', 'services', 'pods', 'namespaces'], verbs: ['list', 'watch'] },
			{ apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] },
		]);
	});

	it('lets nodes read only the kubeadm-config ConfigMap', () => {
		expect((byKindName(kubeadm, 'Role', 'kubeadm:nodes-kubeadm-config', 'kube-system') as Role).rules).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['kubeadm-config'] }]);
	});

	it('does not collide with the API server’s own objects', () => {
		const all = [...objects, ...kubeadm].map((o) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`);
		expect(new Set(all).size).toBe(all.length);
	});
});
