import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { Strategy, StrategyContext } from './strategy.ts';
import { clusterRoleBindingStrategy, clusterRoleStrategy, roleBindingStrategy, roleStrategyNamespaced } from './rbac.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };

function create(strategy: Strategy, o: KubeObject): { obj: KubeObject; errors: string[] } {
	strategy.defaults?.(o);
	return { obj: o, errors: strategy.validate!(o, ctx).map(formatFieldError) };
}

const binding = (fields: Record<string, unknown>, kind = 'RoleBinding'): KubeObject => ({
	apiVersion: 'rbac.authorization.k8s.io/v1',
	kind,
	metadata: kind === 'RoleBinding' ? { name: 'read', namespace: 'default' } : { name: 'read' },
	roleRef: { kind: 'Role', name: 'reader' },
	...fields,
});

describe('RBAC defaults', () => {
	it('fills roleRef.apiGroup and the apiGroup of User and Group subjects; a service account\'s, "", is omitted', () => {
		const { obj, errors } = create(roleBindingStrategy, binding({ subjects: [{ kind: 'User', name: 'jane' }, { kind: 'Group', name: 'devs' }, { kind: 'ServiceAccount', name: 'ci', namespace: 'default' }] }));
		expect(errors).toEqual([]);
		expect(obj.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'reader' });
		expect(obj.subjects).toEqual([
			{ kind: 'User', name: 'jane', apiGroup: 'rbac.authorization.k8s.io' },
			{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' },
			{ kind: 'ServiceAccount', name: 'ci', namespace: 'default' },
		]);
	});
});

describe('RBAC validation', () => {
	it.each([
		['an unknown subject kind', roleBindingStrategy, binding({ subjects: [{ kind: 'Robot', name: 'r2' }] }), ['subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"']],
		['a subject without a name', roleBindingStrategy, binding({ subjects: [{ kind: 'User' }] }), ['subjects[0].name: Required value']],
		['a ClusterRoleBinding to a Role', clusterRoleBindingStrategy, binding({}, 'ClusterRoleBinding'), ['roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole"']],
		[
			'a ClusterRoleBinding service account without a namespace',
			clusterRoleBindingStrategy,
			binding({ roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'ServiceAccount', name: 'ci' }] }, 'ClusterRoleBinding'),
			['subjects[0].namespace: Required value'],
		],
		[
			'a rule without verbs or resources',
			roleStrategyNamespaced,
			{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules: [{ apiGroups: [''] }] },
			['rules[0].verbs: Required value: verbs must contain at least one value', 'rules[0].resources: Required value: resource rules must supply at least one resource'],
		],
		[
			'non-resource URLs in a namespaced Role',
			roleStrategyNamespaced,
			{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default' }, rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }] },
			['rules[0].nonResourceURLs: Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs'],
		],
		['a ClusterRole name with a slash', clusterRoleStrategy, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'a/b' }, rules: [] }, ["metadata.name: Invalid value: \"a/b\": may not contain '/'"]],
	])('rejects %s', (_name, strategy, o, expected) => {
		expect(create(strategy, o as KubeObject).errors).toEqual(expected);
	});

	it('refuses to change roleRef', () => {
		const old = create(roleBindingStrategy, binding({})).obj;
		const next = create(roleBindingStrategy, binding({ roleRef: { kind: 'Role', name: 'writer' } })).obj;
		expect(roleBindingStrategy.validateUpdate!(next, old, ctx).map(formatFieldError)).toEqual([
			'roleRef: Invalid value: {"APIGroup":"rbac.authorization.k8s.io","Kind":"Role","Name":"writer"}: cannot change roleRef',
		]);
	});
});
