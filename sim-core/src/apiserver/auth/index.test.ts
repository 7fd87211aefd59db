import { describe, it, expect } from 'vitest';
import type { AuthorizationAttributes, AuthorizerReader } from './authorizer.ts';
import { authorizationName, defaultAuthorizers } from './index.ts';
import { decide } from '../reviews.ts';

const empty: AuthorizerReader = { list: () => [], get: () => undefined };

function attributes(username: string, groups: string[]): AuthorizationAttributes {
	return { user: { username, groups }, verb: 'delete', resourceRequest: true, group: '', resource: 'nodes', name: 'node-1' };
}

describe('the authorization chain', () => {
	it('asks system:masters first, then Node, then RBAC, as kubeadm configures it', () => {
		expect(defaultAuthorizers('Node,RBAC').map((a) => a.name)).toEqual(['PrivilegedGroups', 'Node', 'RBAC']);
		expect(defaultAuthorizers('AlwaysAllow').map((a) => a.name)).toEqual(['PrivilegedGroups', 'AlwaysAllow']);
	});

	it('lets system:masters do anything even before any RBAC object exists', () => {
		expect(decide(defaultAuthorizers('Node,RBAC'), attributes('system:apiserver', ['system:masters', 'system:authenticated']), empty)).toEqual({ allowed: true, reason: '' });
	});

	it('forbids everyone else when no RBAC object exists', () => {
		expect(decide(defaultAuthorizers('Node,RBAC'), attributes('kubernetes-admin', ['kubeadm:cluster-admins', 'system:authenticated']), empty)).toEqual({ allowed: false, reason: '' });
	});

	it('allows anything in AlwaysAllow mode', () => {
		expect(decide(defaultAuthorizers('AlwaysAllow'), attributes('jane', ['system:authenticated']), empty)).toEqual({ allowed: true, reason: 'AlwaysAllow' });
	});
});

describe('the name a request is authorized for (requestinfo.go)', () => {
	const cases: Array<[string, string, string | undefined, string | undefined, string | undefined]> = [
		['a get keeps its name', 'get', 'a', 'metadata.name=b', 'a'],
		['a list pinned by metadata.name', 'list', undefined, 'metadata.name=web-tls', 'web-tls'],
		['a watch pinned with ==', 'watch', undefined, 'metadata.name==web-tls,metadata.namespace=default', 'web-tls'],
		['a != term pins nothing', 'list', undefined, 'metadata.name!=web-tls', undefined],
		['another field pins nothing', 'list', undefined, 'spec.nodeName=node-1', undefined],
		['a delete is never pinned', 'delete', undefined, 'metadata.name=x', undefined],
		['an unparsable selector pins nothing', 'list', undefined, 'metadata.name', undefined],
	];
	it.each(cases)('%s', (_name, verb, name, fieldSelector, expected) => {
		expect(authorizationName(verb, name, fieldSelector)).toBe(expected);
	});
});
