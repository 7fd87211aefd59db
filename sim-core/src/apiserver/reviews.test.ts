import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { createApiHarness } from '../testing/api-harness.ts';
import { defaultStrategies } from './registry/index.ts';
import type { Authorizer } from './auth/authorizer.ts';
import { rbacRulesFor } from './reviews.ts';

const RBAC = 'rbac.authorization.k8s.io';
const SSAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' };
const SSRR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews' };
const SAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'subjectaccessreviews' };
const SSR = { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews' };

/** A tiny RBAC stand-in: allows what a Role bound to the user grants (get/list pods in default). */
const podReader: Authorizer = {
	name: 'RBAC',
	authorize: (a) => (a.user.username === 'jane' && a.resource === 'pods' && ['get', 'list'].includes(a.verb) && a.namespace === 'default' ? { allowed: true, reason: 'RBAC: allowed by RoleBinding "read/default" of Role "pod-reader" to User "jane"' } : 'no-opinion'),
};

/** The administrator may do anything; everyone may ask the reviews (the system:basic-user ClusterRole). */
const basics: Authorizer = {
	name: 'Basics',
	authorize: (a) => (a.user.username === 'admin' || (a.verb === 'create' && /selfsubject/.test(a.resource)) ? { allowed: true, reason: '' } : 'no-opinion'),
};

function cluster() {
	const h = createApiHarness({ deps: { strategies: defaultStrategies(), authorizers: [basics, podReader] } });
	h.transport.enroll('admin', { username: 'admin', groups: ['system:authenticated'] });
	h.transport.enroll('jane', { username: 'jane', groups: ['devs', 'system:authenticated'] });
	const admin = h.client('admin');
	// RBAC objects as `kubectl create role/rolebinding` would make them.
	admin.create({ group: RBAC, version: 'v1', resource: 'roles' }, 'default', { apiVersion: `${RBAC}/v1`, kind: 'Role', metadata: { name: 'pod-reader' }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] });
	admin.create({ group: RBAC, version: 'v1', resource: 'rolebindings' }, 'default', { apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'read' }, roleRef: { apiGroup: RBAC, kind: 'Role', name: 'pod-reader' }, subjects: [{ kind: 'User', apiGroup: RBAC, name: 'jane' }] });
	admin.create({ group: RBAC, version: 'v1', resource: 'clusterroles' }, undefined, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name: 'viewer' }, rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }] });
	admin.create({ group: RBAC, version: 'v1', resource: 'clusterrolebindings' }, undefined, { apiVersion: `${RBAC}/v1`, kind: 'ClusterRoleBinding', metadata: { name: 'devs-view' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'viewer' }, subjects: [{ kind: 'Group', apiGroup: RBAC, name: 'devs' }] });
	return { h, jane: h.client('jane') };
}

describe('authorization reviews (pkg/registry/authorization)', () => {
	it('answers a SelfSubjectAccessReview for the caller, with the allowing reason', () => {
		const { jane } = cluster();
		const allowed = jane.create<KubeObject>(SSAR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'default', verb: 'get', resource: 'pods' } } });
		expect(allowed).toMatchObject({ ok: true, code: 201, object: { kind: 'SelfSubjectAccessReview', status: { allowed: true, reason: 'RBAC: allowed by RoleBinding "read/default" of Role "pod-reader" to User "jane"' } } });
		const denied = jane.create<KubeObject>(SSAR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: { resourceAttributes: { namespace: 'default', verb: 'delete', resource: 'pods' } } });
		expect(denied).toMatchObject({ ok: true, object: { status: { allowed: false } } });
	});

	it('stores nothing', () => {
		const { h, jane } = cluster();
		const before = h.etcd.revision;
		jane.create(SSAR, undefined, { spec: { resourceAttributes: { verb: 'get', resource: 'pods' } } });
		expect(h.etcd.revision).toBe(before);
	});

	it('asks about another user with a SubjectAccessReview', () => {
		const { h } = cluster();
		const review = h.client('admin').create<KubeObject>(SAR, undefined, { spec: { user: 'jane', resourceAttributes: { namespace: 'default', verb: 'list', resource: 'pods' } } });
		expect(review).toMatchObject({ ok: true, object: { status: { allowed: true } } });
	});

	it('rejects a spec with neither or both attribute kinds as upstream validation does', () => {
		const { jane } = cluster();
		expect(jane.create(SSAR, undefined, { spec: {} })).toMatchObject({ ok: false, code: 422, message: 'SelfSubjectAccessReview.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: null: exactly one of nonResourceAttributes or resourceAttributes must be specified' });
	});

	it('lists the RBAC rules of a namespace in a SelfSubjectRulesReview', () => {
		const { jane } = cluster();
		const review = jane.create<KubeObject>(SSRR, undefined, { spec: { namespace: 'default' } });
		expect(review).toMatchObject({
			ok: true,
			object: {
				status: {
					resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }],
					nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
					incomplete: false,
				},
			},
		});
		expect(jane.create(SSRR, undefined, { spec: {} })).toMatchObject({ ok: false, code: 400, message: 'no namespace on request' });
	});

	it('tells the caller who they are in a SelfSubjectReview', () => {
		const { jane } = cluster();
		expect(jane.create(SSR, undefined, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' })).toMatchObject({
			ok: true,
			code: 201,
			object: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', status: { userInfo: { username: 'jane', groups: ['devs', 'system:authenticated'] } } },
		});
	});

	it('resolves service account subjects in the binding namespace (rbacRulesFor)', () => {
		const reader = {
			list: (_g: string, resource: string) =>
				resource === 'rolebindings' ? [{ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', metadata: { name: 'b', namespace: 'apps' }, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'edit' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] } as KubeObject] : [],
			get: (_g: string, resource: string, _ns: string | undefined, name: string) => (resource === 'clusterroles' && name === 'edit' ? ({ apiVersion: `${RBAC}/v1`, kind: 'ClusterRole', metadata: { name }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] } as KubeObject) : undefined),
		};
		expect(rbacRulesFor({ username: 'system:serviceaccount:apps:robot', groups: [] }, 'apps', reader).resourceRules).toEqual([{ verbs: ['*'], apiGroups: ['apps'], resources: ['deployments'] }]);
		expect(rbacRulesFor({ username: 'system:serviceaccount:other:robot', groups: [] }, 'apps', reader).resourceRules).toEqual([]);
	});
});
