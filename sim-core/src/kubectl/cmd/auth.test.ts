import { describe, it, expect } from 'vitest';
import type { Authorizer } from '../../apiserver/auth/authorizer.ts';
import { createApiHarness } from '../../testing/api-harness.ts';
import { createKubectlTestEnv } from '../../testing/kubectl-env.ts';
import { defaultStrategies } from '../../apiserver/registry/index.ts';
import { runKubectl } from '../kubectl.ts';
import { COMMANDS } from './index.ts';
import { splitArgs, world } from './testdata/env.ts';

/**
 * kubeadm's admin may do anything; `jane` (impersonated with --as) may
 * get and list pods in default; everyone may ask the reviews.
 */
const authorizers: Authorizer[] = [
	{
		name: 'Node',
		authorize: (a) => (a.user.groups.includes('kubeadm:cluster-admins') ? { allowed: true, reason: '' } : a.verb === 'create' && /selfsubject/.test(a.resource) ? { allowed: true, reason: '' } : 'no-opinion'),
	},
	{
		name: 'RBAC',
		authorize: (a) => (a.user.username === 'jane' && a.resource === 'pods' && ['get', 'list'].includes(a.verb) && a.namespace === 'default' ? { allowed: true, reason: 'RBAC: allowed by RoleBinding "read/default" of Role "pod-reader" to User "jane"' } : 'no-opinion'),
		rulesFor: (user, namespace) =>
			user.username === 'jane' && namespace === 'default'
				? { resourceRules: [{ verbs: ['get', 'list'], apiGroups: [''], resources: ['pods'] }, { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/version'] }], incomplete: false }
				: { resourceRules: [], nonResourceRules: [], incomplete: false },
	},
];

function cluster() {
	const harness = createApiHarness({ deps: { strategies: defaultStrategies(), authorizers } });
	const env = createKubectlTestEnv(harness);
	return (line: string) => {
		const { stdout, stderr, exitCode } = runKubectl(splitArgs(line), '', env, COMMANDS);
		return { stdout, stderr, exitCode };
	};
}

describe('kubectl auth can-i', () => {
	it.each([
		['auth can-i get pods', 'yes\n', '', 0],
		['auth can-i get pods --as=jane', 'yes\n', '', 0],
		['auth can-i delete pods --as=jane', 'no\n', '', 1],
		['auth can-i list pods -n kube-system --as=jane', 'no\n', '', 1],
		['auth can-i get pods/web --as=jane', 'yes\n', '', 0],
		['auth can-i get pods -q --as=jane', '', '', 0],
		['auth can-i get nodes --as=jane', 'no\n', "Warning: resource 'nodes' is not namespace scoped\n", 1],
		['auth can-i frobnicate pods --as=jane', 'no\n', "Warning: verb 'frobnicate' is not a known verb\n", 1],
		['auth can-i get podz --as=jane', 'no\n', "Warning: the server doesn't have a resource type 'podz'\n", 1],
		['auth can-i get /healthz --as=jane', 'no\n', '', 1],
	])('kubectl %s', (line, stdout, stderr, exitCode) => {
		expect(cluster()(line)).toEqual({ stdout, stderr, exitCode });
	});

	it('lists what a user may do with --list, compacted and sorted as kubectl does', () => {
		expect(cluster()('auth can-i --list --as=jane')).toEqual({
			// Rules sort by their generated String() (`&PolicyRule{Verbs:[get list],...`), so `[get list]` comes before `[get]`; the core group prints as `[]`.
			stdout:
				'Resources                                       Non-Resource URLs   Resource Names   Verbs\n' +
				'selfsubjectaccessreviews.authorization.k8s.io   []                  []               [create]\n' +
				'selfsubjectrulesreviews.authorization.k8s.io    []                  []               [create]\n' +
				'pods                                            []                  []               [get list]\n' +
				'                                                [/healthz]          []               [get]\n' +
				'                                                [/version]          []               [get]\n',
			stderr: '',
			exitCode: 0,
		});
	});

	it('lists everything for an AlwaysAllow cluster', () => {
		expect(world().kubectl('auth can-i --list')).toEqual({
			stdout: 'Resources   Non-Resource URLs   Resource Names   Verbs\n*.*         []                  []               [*]\n            [*]                 []               [*]\n',
			stderr: '',
			exitCode: 0,
		});
	});

	it.each([
		['auth can-i get', "error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.\n"],
		['auth can-i --list pods', 'error: list option must be specified with no arguments\n'],
		['auth can-i --list -A', "error: list option can't be specified with neither quiet, all-namespaces nor subresource options\n"],
		['auth can-i get pods --no-headers', 'error: --no-headers cannot be set without --list specified\n'],
		['auth can-i get /logs --subresource=log', 'error: --subresource can not be used with NonResourceURL\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		expect(cluster()(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});
});

describe('kubectl auth whoami', () => {
	it('prints the authenticated user as a table', () => {
		expect(cluster()('auth whoami')).toEqual({ stdout: 'ATTRIBUTE   VALUE\nUsername    kubernetes-admin\nGroups      [kubeadm:cluster-admins system:authenticated]\n', stderr: '', exitCode: 0 });
	});

	it('shows the impersonated user with --as', () => {
		expect(cluster()('auth whoami --as=jane').stdout).toBe('ATTRIBUTE   VALUE\nUsername    jane\nGroups      [system:authenticated]\n');
	});

	it('prints the SelfSubjectReview with -o yaml', () => {
		expect(cluster()('auth whoami -o yaml').stdout).toBe(
			['apiVersion: authentication.k8s.io/v1', 'kind: SelfSubjectReview', 'metadata: {}', 'status:', '  userInfo:', '    groups:', '    - kubeadm:cluster-admins', '    - system:authenticated', '    username: kubernetes-admin', ''].join('\n'),
		);
	});
});
