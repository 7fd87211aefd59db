import { describe, it, expect } from 'vitest';
import type { KubeObject, PolicyRule, Role, Subject } from '../../api/types.ts';
import type { UserInfo } from '../../api/request.ts';
import type { AuthorizationAttributes, AuthorizerReader } from './authorizer.ts';
import { appliesToUser, authorizeRbac, effectiveClusterRoleRules, rbacDenialLog, rbacSubjectRules, ruleAllows } from './rbac.ts';

const RBAC = 'rbac.authorization.k8s.io';

/** A reader over a fixed set of objects, as the API server's cache would answer. */
function readerOf(objects: KubeObject[]): AuthorizerReader {
	const plural: Record<string, string> = { ClusterRole: 'clusterroles', Role: 'roles', ClusterRoleBinding: 'clusterrolebindings', RoleBinding: 'rolebindings', Pod: 'pods' };
	return {
		list: (_group, resource, namespace) => objects.filter((o) => plural[o.kind] === resource && (!namespace || o.metadata.namespace === namespace)),
		get: (_group, resource, namespace, name) => objects.find((o) => plural[o.kind] === resource && o.metadata.name === name && (o.metadata.namespace ?? undefined) === namespace),
	};
}

const jane: UserInfo = { username: 'jane', groups: ['system:authenticated'] };

function resource(verb: string, group: string, res: string, extra: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes {
	return { user: jane, verb, resourceRequest: true, group, resource: res, ...extra };
}

function path(verb: string, p: string): AuthorizationAttributes {
	return { user: jane, verb, resourceRequest: false, group: '', resource: '', path: p };
}

function clusterRole(name: string, rules: PolicyRule[] | undefined, options: { labels?: Record<string, string>; aggregateFrom?: string } = {}): Role {
	const obj: Role = { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name } };
	if (options.labels) obj.metadata.labels = options.labels;
	if (rules) obj.rules = rules;
	if (options.aggregateFrom) obj.aggregationRule = { clusterRoleSelectors: [{ matchLabels: { [options.aggregateFrom]: 'true' } }] };
	return obj;
}
const role = (namespace: string, name: string, rules: PolicyRule[]): KubeObject => ({ apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name, namespace }, rules });
const crb = (name: string, roleName: string, subjects: Subject[]): KubeObject => ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: roleName }, subjects });
const rb = (namespace: string, name: string, kind: 'Role' | 'ClusterRole', roleName: string, subjects: Subject[]): KubeObject => ({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name, namespace }, roleRef: { apiGroup: RBAC, kind, name: roleName }, subjects });

describe('RBAC rule matching (evaluation_helpers.go)', () => {
	const cases: Array<[string, PolicyRule, AuthorizationAttributes, boolean]> = [
		['an exact verb, group and resource', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, resource('get', '', 'pods'), true],
		['another verb', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, resource('list', '', 'pods'), false],
		['the verb wildcard', { verbs: ['*'], apiGroups: [''], resources: ['pods'] }, resource('deletecollection', '', 'pods'), true],
		['another group', { verbs: ['get'], apiGroups: [''], resources: ['deployments'] }, resource('get', 'apps', 'deployments'), false],
		['the group wildcard', { verbs: ['get'], apiGroups: ['*'], resources: ['deployments'] }, resource('get', 'apps', 'deployments'), true],
		['the resource wildcard', { verbs: ['get'], apiGroups: ['apps'], resources: ['*'] }, resource('get', 'apps', 'statefulsets'), true],
		['`*` also covers subresources', { verbs: ['get'], apiGroups: [''], resources: ['*'] }, resource('get', '', 'pods', { subresource: 'log' }), true],
		['a resource does not cover its subresources', { verbs: ['get'], apiGroups: [''], resources: ['pods'] }, resource('get', '', 'pods', { subresource: 'log' }), false],
		['resource/subresource exactly', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, resource('get', '', 'pods', { subresource: 'log' }), true],
		['a subresource rule does not cover the resource', { verbs: ['get'], apiGroups: [''], resources: ['pods/log'] }, resource('get', '', 'pods'), false],
		['*/scale covers any scale subresource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, resource('get', 'apps', 'deployments', { subresource: 'scale' }), true],
		['*/scale does not cover another subresource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, resource('get', 'apps', 'deployments', { subresource: 'status' }), false],
		['*/scale does not cover the resource', { verbs: ['get'], apiGroups: ['*'], resources: ['*/scale'] }, resource('get', 'apps', 'deployments'), false],
		['pods/* is not a wildcard', { verbs: ['get'], apiGroups: [''], resources: ['pods/*'] }, resource('get', '', 'pods', { subresource: 'log' }), false],
		['a listed resource name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a', 'b'] }, resource('get', '', 'configmaps', { name: 'b' }), true],
		['an unlisted resource name', { verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, resource('get', '', 'configmaps', { name: 'c' }), false],
		['resourceNames never cover a list (no name)', { verbs: ['list'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, resource('list', '', 'configmaps'), false],
		['resourceNames never cover a create (no name)', { verbs: ['create'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['a'] }, resource('create', '', 'configmaps'), false],
		['an exact non-resource URL', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz'), true],
		['a non-resource URL is not a prefix', { verbs: ['get'], nonResourceURLs: ['/healthz'] }, path('get', '/healthz/etcd'), false],
		['a trailing * is a prefix', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, path('get', '/healthz/etcd'), true],
		['a trailing * needs the prefix', { verbs: ['get'], nonResourceURLs: ['/healthz/*'] }, path('get', '/livez'), false],
		['`/apis*` covers `/apis` itself', { verbs: ['get'], nonResourceURLs: ['/apis*'] }, path('get', '/apis'), true],
		['the URL wildcard', { verbs: ['get'], nonResourceURLs: ['*'] }, path('get', '/metrics'), true],
		['a non-resource rule checks the verb', { verbs: ['get'], nonResourceURLs: ['*'] }, path('post', '/metrics'), false],
		['a resource rule never covers a path', { verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, path('get', '/healthz'), false],
		['a non-resource rule never covers a resource', { verbs: ['*'], nonResourceURLs: ['*'] }, resource('get', '', 'pods'), false],
	];
	it.each(cases)('%s', (_name, rule, attributes, allowed) => {
		expect(ruleAllows(attributes, rule)).toBe(allowed);
	});
});

describe('RBAC subject matching (rule.go appliesToUser)', () => {
	const sa: UserInfo = { username: 'system:serviceaccount:team-a:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:team-a', 'system:authenticated'] };
	const cases: Array<[string, UserInfo, Subject, string, boolean]> = [
		['a User by name', jane, { kind: 'User', name: 'jane' }, '', true],
		['a User with another name', jane, { kind: 'User', name: 'joe' }, '', false],
		['a User subject does not match a group of that name', { username: 'x', groups: ['jane'] }, { kind: 'User', name: 'jane' }, '', false],
		['a Group the user is in', jane, { kind: 'Group', name: 'system:authenticated' }, '', true],
		['a Group the user is not in', jane, { kind: 'Group', name: 'system:masters' }, '', false],
		['a ServiceAccount with its namespace', sa, { kind: 'ServiceAccount', name: 'builder', namespace: 'team-a' }, '', true],
		['a ServiceAccount in another namespace', sa, { kind: 'ServiceAccount', name: 'builder', namespace: 'team-b' }, '', false],
		['a ServiceAccount without namespace takes the binding namespace', sa, { kind: 'ServiceAccount', name: 'builder' }, 'team-a', true],
		['a ServiceAccount without any namespace matches nobody', sa, { kind: 'ServiceAccount', name: 'builder' }, '', false],
		['the all-service-accounts group', sa, { kind: 'Group', name: 'system:serviceaccounts' }, '', true],
		['the per-namespace service accounts group', sa, { kind: 'Group', name: 'system:serviceaccounts:team-a' }, '', true],
		['a user named like a service account is matched by username only', { username: 'system:serviceaccount:team-a:builder', groups: [] }, { kind: 'ServiceAccount', name: 'builder', namespace: 'team-a' }, '', true],
	];
	it.each(cases)('%s', (_name, user, subject, ns, expected) => {
		expect(appliesToUser(user, subject, ns)).toBe(expected);
	});
});

describe('the RBAC authorizer', () => {
	const podReader = clusterRole('pod-reader', [{ verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['pods'] }]);

	it('allows through a ClusterRoleBinding and names it as upstream does', () => {
		const reader = readerOf([clusterRole('cluster-admin', [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }]), crb('kubeadm:cluster-admins', 'cluster-admin', [{ kind: 'Group', name: 'kubeadm:cluster-admins' }])]);
		const admin: UserInfo = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };
		expect(authorizeRbac({ ...resource('delete', '', 'nodes', { name: 'n1' }), user: admin }, reader)).toEqual({
			allowed: true,
			reason: 'RBAC: allowed by ClusterRoleBinding "kubeadm:cluster-admins" of ClusterRole "cluster-admin" to Group "kubeadm:cluster-admins"',
		});
	});

	it('grants a RoleBinding only in its namespace, even when it references a ClusterRole', () => {
		const reader = readerOf([podReader, rb('dev', 'read-pods', 'ClusterRole', 'pod-reader', [{ kind: 'User', name: 'jane' }])]);
		expect(authorizeRbac(resource('list', '', 'pods', { namespace: 'dev' }), reader)).toEqual({ allowed: true, reason: 'RBAC: allowed by RoleBinding "read-pods/dev" of ClusterRole "pod-reader" to User "jane"' });
		expect(authorizeRbac(resource('list', '', 'pods', { namespace: 'prod' }), reader).allowed).toBe(false);
		// Cluster scope (all namespaces) is not granted by a RoleBinding.
		expect(authorizeRbac(resource('list', '', 'pods'), reader).allowed).toBe(false);
	});

	it('names a ServiceAccount subject "name/namespace", defaulting to the binding namespace', () => {
		const reader = readerOf([role('ci', 'deployer', [{ verbs: ['create'], apiGroups: ['apps'], resources: ['deployments'] }]), rb('ci', 'deployer', 'Role', 'deployer', [{ kind: 'ServiceAccount', name: 'bot' }])]);
		const bot: UserInfo = { username: 'system:serviceaccount:ci:bot', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci', 'system:authenticated'] };
		expect(authorizeRbac({ ...resource('create', 'apps', 'deployments', { namespace: 'ci' }), user: bot }, reader).reason).toBe('RBAC: allowed by RoleBinding "deployer/ci" of Role "deployer" to ServiceAccount "bot/ci"');
	});

	it('has no opinion, with an empty reason, when no rule matches; the log line says why', () => {
		const reader = readerOf([podReader, crb('read-pods', 'pod-reader', [{ kind: 'User', name: 'joe' }])]);
		const attributes = resource('list', '', 'pods', { namespace: 'default' });
		const decision = authorizeRbac(attributes, reader);
		expect(decision.allowed).toBe(false);
		expect(decision.reason).toBe('');
		expect(decision.log).toBe('RBAC: no rules authorize user "jane" with groups ["system:authenticated"] to "list" resource "pods" in namespace "default"');
	});

	it('words the log line for groups, subresources, names and paths as klog prints them', () => {
		const user: UserInfo = { username: 'u', groups: ['g1', 'system:authenticated'] };
		expect(rbacDenialLog({ ...resource('update', 'apps', 'deployments', { subresource: 'scale', name: 'web' }), user })).toBe('RBAC: no rules authorize user "u" with groups ["g1" "system:authenticated"] to "update" resource "deployments.apps/scale" named "web" cluster-wide');
		expect(rbacDenialLog({ ...path('get', '/metrics'), user })).toBe('RBAC: no rules authorize user "u" with groups ["g1" "system:authenticated"] to "get" nonResourceURL "/metrics" cluster-wide');
	});

	it('reports bindings whose role is missing after "RBAC: ", and still allows through other bindings', () => {
		const objects = [crb('ghost', 'no-such-role', [{ kind: 'User', name: 'jane' }]), rb('dev', 'ghost', 'Role', 'missing', [{ kind: 'User', name: 'jane' }])];
		expect(authorizeRbac(resource('get', '', 'pods', { namespace: 'dev', name: 'x' }), readerOf(objects)).reason).toBe(
			'RBAC: [clusterrole.rbac.authorization.k8s.io "no-such-role" not found, role.rbac.authorization.k8s.io "missing" not found]',
		);
		expect(authorizeRbac(resource('get', '', 'pods', { namespace: 'other', name: 'x' }), readerOf(objects)).reason).toBe('RBAC: clusterrole.rbac.authorization.k8s.io "no-such-role" not found');
		const withGrant = [...objects, podReader, crb('read-pods', 'pod-reader', [{ kind: 'User', name: 'jane' }])];
		expect(authorizeRbac(resource('get', '', 'pods', { namespace: 'dev', name: 'x' }), readerOf(withGrant)).allowed).toBe(true);
	});

	it('ignores bindings without subjects (system:node since v1.8)', () => {
		const reader = readerOf([podReader, { ...crb('empty', 'pod-reader', []), subjects: undefined }]);
		expect(authorizeRbac(resource('get', '', 'pods', { namespace: 'a', name: 'p' }), reader).allowed).toBe(false);
	});
});

describe('aggregated ClusterRoles (the clusterrole-aggregation controller, computed at evaluation)', () => {
	const view = clusterRole('view', undefined, { labels: { 'x/aggregate-to-edit': 'true' }, aggregateFrom: 'x/aggregate-to-view' });
	const edit = clusterRole('edit', undefined, { aggregateFrom: 'x/aggregate-to-edit' });
	const viewPods = clusterRole('b-view-pods', [{ verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { labels: { 'x/aggregate-to-view': 'true' } });
	const viewSvcs = clusterRole('a-view-svcs', [{ verbs: ['get'], apiGroups: [''], resources: ['services'] }, { verbs: ['get'], apiGroups: [''], resources: ['pods'] }], { labels: { 'x/aggregate-to-view': 'true' } });
	const editPods = clusterRole('edit-pods', [{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] }], { labels: { 'x/aggregate-to-edit': 'true' } });
	const all = [view, edit, viewPods, viewSvcs, editPods];

	it('takes the union of the selected roles, sorted by name, each equal rule once', () => {
		expect(effectiveClusterRoleRules(view, all)).toEqual([
			{ verbs: ['get'], apiGroups: [''], resources: ['services'] },
			{ verbs: ['get'], apiGroups: [''], resources: ['pods'] },
		]);
	});

	it('nests: an aggregated role selected by another brings its own aggregated rules', () => {
		expect(effectiveClusterRoleRules(edit, all)).toEqual([
			{ verbs: ['delete'], apiGroups: [''], resources: ['pods'] },
			{ verbs: ['get'], apiGroups: [''], resources: ['services'] },
			{ verbs: ['get'], apiGroups: [''], resources: ['pods'] },
		]);
	});

	it('authorizes through an aggregated role and sees roles added later', () => {
		const objects: KubeObject[] = [view, viewPods, crb('viewers', 'view', [{ kind: 'User', name: 'jane' }])];
		expect(authorizeRbac(resource('get', '', 'pods', { namespace: 'a', name: 'p' }), readerOf(objects)).reason).toBe('RBAC: allowed by ClusterRoleBinding "viewers" of ClusterRole "view" to User "jane"');
		expect(authorizeRbac(resource('get', '', 'services', { namespace: 'a', name: 's' }), readerOf(objects)).allowed).toBe(false);
		expect(authorizeRbac(resource('get', '', 'services', { namespace: 'a', name: 's' }), readerOf([...objects, viewSvcs])).allowed).toBe(true);
	});

	it('stops on selection cycles', () => {
		const a = clusterRole('a', [{ verbs: ['get'], apiGroups: [''], resources: ['a'] }], { labels: { 'l/a': 'true' }, aggregateFrom: 'l/b' });
		const b = clusterRole('b', [{ verbs: ['get'], apiGroups: [''], resources: ['b'] }], { labels: { 'l/b': 'true' }, aggregateFrom: 'l/a' });
		// a selects b, whose own aggregation selects a again: the cycle falls back to a's stored rules.
		expect(effectiveClusterRoleRules(a, [a, b])).toEqual([{ verbs: ['get'], apiGroups: [''], resources: ['a'] }]);
	});
});

describe('RBAC rules for SelfSubjectRulesReview', () => {
	it('lists cluster-wide then namespaced rules, splitting resource and non-resource rules', () => {
		const objects = [
			clusterRole('basic', [{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] }, { verbs: ['get'], nonResourceURLs: ['/healthz'] }]),
			crb('basic', 'basic', [{ kind: 'Group', name: 'system:authenticated' }]),
			role('dev', 'cm', [{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] }]),
			rb('dev', 'cm', 'Role', 'cm', [{ kind: 'User', name: 'jane' }]),
			rb('dev', 'broken', 'Role', 'gone', [{ kind: 'User', name: 'jane' }]),
		];
		expect(rbacSubjectRules(jane, 'dev', readerOf(objects))).toEqual({
			resourceRules: [
				{ verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews'] },
				{ verbs: ['get'], apiGroups: [''], resources: ['configmaps'], resourceNames: ['settings'] },
			],
			nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
			incomplete: false,
			evaluationError: 'role.rbac.authorization.k8s.io "gone" not found',
		});
	});
});
