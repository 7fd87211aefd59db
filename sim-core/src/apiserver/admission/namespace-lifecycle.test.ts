import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import type { Status } from '../../api/types.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionAttributes, AdmissionOperation } from './plugin.ts';
import { namespaceLifecycle } from './namespace-lifecycle.ts';

const ns = (name: string, phase: string): KubeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name }, status: { phase } });
const namespaces = [ns('default', 'Active'), ns('old', 'Terminating')];
const ctx: StrategyContext = {
	now: '2026-11-30T08:00:00Z',
	user: { username: 'kubernetes-admin', groups: [] },
	get: (_g, resource, _ns, name) => (resource === 'namespaces' ? namespaces.find((n) => n.metadata.name === name) : undefined),
	list: () => [],
	random: () => 0,
};

function attrs(operation: AdmissionOperation, resource: string, namespace: string | undefined, name: string): AdmissionAttributes {
	const object: KubeObject = { apiVersion: 'v1', kind: 'X', metadata: { name, namespace } };
	return { operation, info: resourceByName('', resource)!, namespace, name, object, user: ctx.user, dryRun: false };
}

const message = (r: ReturnType<NonNullable<typeof namespaceLifecycle.admit>>) => (r ? `${r.code} ${(r.body as Status).message}` : 'allowed');

describe('NamespaceLifecycle', () => {
	it.each([
		['a create in an active namespace', attrs('CREATE', 'pods', 'default', 'web'), 'allowed'],
		['a create in a missing namespace', attrs('CREATE', 'pods', 'foo', 'web'), '404 namespaces "foo" not found'],
		['an update in a missing namespace', attrs('UPDATE', 'configmaps', 'foo', 'cfg'), '404 namespaces "foo" not found'],
		['a create in a terminating namespace', attrs('CREATE', 'pods', 'old', 'web'), '403 pods "web" is forbidden: unable to create new content in namespace old because it is being terminated'],
		['an update in a terminating namespace', attrs('UPDATE', 'pods', 'old', 'web'), 'allowed'],
		['a cluster-scoped create', attrs('CREATE', 'nodes', undefined, 'node-1'), 'allowed'],
		['creating a namespace', attrs('CREATE', 'namespaces', undefined, 'new'), 'allowed'],
	])('%s → %s', (_name, a, expected) => {
		expect(message(namespaceLifecycle.admit!(a, ctx))).toBe(expected);
	});

	it.each(['default', 'kube-system', 'kube-public'])('forbids deleting %s', (name) => {
		expect(message(namespaceLifecycle.validate!(attrs('DELETE', 'namespaces', undefined, name), ctx))).toBe(`403 namespaces "${name}" is forbidden: this namespace may not be deleted`);
	});

	it('allows deleting other namespaces', () => {
		expect(namespaceLifecycle.validate!(attrs('DELETE', 'namespaces', undefined, 'team-a'), ctx)).toBeUndefined();
	});

	it('adds the NamespaceTerminating cause', () => {
		const r = namespaceLifecycle.admit!(attrs('CREATE', 'pods', 'old', 'web'), ctx)!;
		expect((r.body as Status).details?.causes).toEqual([{ reason: 'NamespaceTerminating', message: 'namespace old is being terminated', field: 'metadata.namespace' }]);
	});
});
