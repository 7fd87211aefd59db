import { describe, it, expect } from 'vitest';
import type { ConfigMap, KubeObject, Namespace, ServiceAccount } from '../api/types.ts';
import { R } from '../client/client.ts';
import { remainingConditions, updateNamespaceConditions } from './namespace.ts';
import { ROOT_CA_DESCRIPTION } from './root-ca-cert-publisher.ts';
import { PLACEHOLDER_ROOT_CA_PEM } from './controller-manager.ts';
import { createControllerHarness, type ControllerHarness } from '../testing/controllers/harness.ts';
import { deployment, get, waitFor } from '../testing/controllers/builders.ts';

const NOW = '2026-11-30T08:00:00Z';

describe('namespace deletion conditions', () => {
	it('words what remains as upstream does', () => {
		const failing = remainingConditions({ 'pods.': 2, 'deployments.apps': 1 }, { foregroundDeletion: 1 }, [], NOW);
		expect(failing.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
			['NamespaceContentRemaining', 'True', 'SomeResourcesRemain', 'Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances'],
			['NamespaceFinalizersRemaining', 'True', 'SomeFinalizersRemain', 'Some content in the namespace has finalizers remaining: foregroundDeletion in 1 resource instances'],
		]);
	});

	it('sets every maintained condition, healthy ones to False with their reason, and reports changes', () => {
		const conditions: Array<{ type: string; status: 'True' | 'False' | 'Unknown'; lastTransitionTime?: string; reason?: string; message?: string }> = [];
		expect(updateNamespaceConditions(conditions, [], NOW)).toBe(true);
		expect(conditions.map((c) => [c.type, c.status, c.reason, c.message])).toEqual([
			['NamespaceDeletionDiscoveryFailure', 'False', 'ResourcesDiscovered', 'All resources successfully discovered'],
			['NamespaceDeletionGroupVersionParsingFailure', 'False', 'ParsedGroupVersions', 'All legacy kube types successfully parsed'],
			['NamespaceDeletionContentFailure', 'False', 'ContentDeleted', 'All content successfully deleted, may be waiting on finalization'],
			['NamespaceContentRemaining', 'False', 'ContentRemoved', 'All content successfully removed'],
			['NamespaceFinalizersRemaining', 'False', 'ContentHasNoFinalizers', 'All content-preserving finalizers finished'],
		]);
		expect(updateNamespaceConditions(conditions, [], NOW)).toBe(false);
	});
});

function namespace(c: ControllerHarness, name: string): Namespace | undefined {
	return get<Namespace>(c, R.namespaces, undefined, name);
}

describe('the namespace, service account and root CA controllers', () => {
	it('give a new namespace its default ServiceAccount and the kube-root-ca.crt ConfigMap', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
		c.advance(100);
		expect(get<ServiceAccount>(c, R.serviceaccounts, 'shop', 'default')?.metadata.name).toBe('default');
		const cm = get<ConfigMap>(c, R.configmaps, 'shop', 'kube-root-ca.crt');
		expect(cm?.data).toEqual({ 'ca.crt': PLACEHOLDER_ROOT_CA_PEM });
		expect(cm?.metadata.annotations).toEqual({ 'kubernetes.io/description': ROOT_CA_DESCRIPTION });

		// Both come back when deleted, and the CA is restored when edited.
		c.kubectl.delete(R.serviceaccounts, 'shop', 'default');
		c.kubectl.update(R.configmaps, { ...cm!, data: { 'ca.crt': 'tampered' } });
		c.advance(100);
		expect(get<ServiceAccount>(c, R.serviceaccounts, 'shop', 'default')).toBeDefined();
		expect(get<ConfigMap>(c, R.configmaps, 'shop', 'kube-root-ca.crt')?.data).toEqual({ 'ca.crt': PLACEHOLDER_ROOT_CA_PEM });
	});

	it('empty a deleted namespace, wait for its pods, then finalize it so it disappears', () => {
		const c = createControllerHarness();
		c.kubectl.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
		const d = deployment('web', 2, 'nginx:1.27');
		d.metadata.namespace = 'shop';
		c.kubectl.create(R.deployments, 'shop', d);
		c.kubectl.create(R.configmaps, 'shop', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { a: '1' } });
		waitFor(c, 'the pods', () => c.list(R.pods, 'shop').length === 2 && c.list(R.pods, 'shop').every((p) => (p.status as { phase?: string }).phase === 'Running'));

		expect(c.kubectl.delete(R.namespaces, undefined, 'shop').ok).toBe(true);
		const deletedAt = c.kernel.nowMs;
		expect(namespace(c, 'shop')?.status?.phase).toBe('Terminating');
		// The controller waits namespaceDeletionGracePeriod (5 s) before its first look.
		c.advance(4900);
		expect(c.list(R.configmaps, 'shop')).toHaveLength(2);
		c.advance(200);
		const ns = namespace(c, 'shop');
		const remaining = ns?.status?.conditions?.find((x) => x.type === 'NamespaceContentRemaining') as { status?: string; message?: string } | undefined;
		expect(remaining?.status).toBe('True');
		expect(remaining?.message).toBe('Some resources are remaining: pods. has 2 resource instances');
		expect(c.list(R.configmaps, 'shop')).toHaveLength(0);

		waitFor(c, 'the namespace to disappear', () => !namespace(c, 'shop'));
		// Terminating pods asked for a look in estimate/2 + 1 = 16 s (terminationGracePeriodSeconds 30),
		// but writing the conditions updated the namespace, which queues it again after the 5 s grace
		// period: by then the kubelets had finished the pods.
		expect(c.kernel.nowMs - deletedAt).toBeGreaterThanOrEqual(10_000);
		expect(c.kernel.nowMs - deletedAt).toBeLessThanOrEqual(10_200);
		for (const resource of [R.pods, R.replicasets, R.deployments, R.configmaps, R.serviceaccounts]) expect(c.list<KubeObject>(resource, 'shop')).toEqual([]);
		expect(c.kernel.trace.events().some((e) => e.sub === 'namespace' && e.action === 'finalize' && e.msg === 'namespace shop is empty; removing the kubernetes finalizer')).toBe(true);
	});
});
