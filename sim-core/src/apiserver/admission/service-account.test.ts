import { describe, it, expect } from 'vitest';
import type { KubeObject, Status } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import { serviceAccountAdmission } from './service-account.ts';

function context(accounts: Array<Record<string, unknown>>, draws: number[] = [0, 1, 2, 3, 4]): StrategyContext {
	let i = 0;
	return {
		now: '2026-11-30T08:00:00Z',
		user: { username: 'kubernetes-admin', groups: [] },
		get: (_g, resource, namespace, name) =>
			resource === 'serviceaccounts' ? (accounts.map((a) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: a.name as string, namespace: 'default' }, ...a })) as KubeObject[]).find((a) => a.metadata.name === name && namespace === 'default') : undefined,
		list: () => [],
		random: () => draws[i++ % draws.length],
	};
}

function admit(spec: Record<string, unknown>, ctx: StrategyContext, annotations?: Record<string, string>) {
	const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...(annotations ? { annotations } : {}) }, spec };
	const result = serviceAccountAdmission.admit!({ operation: 'CREATE', info: resourceByName('', 'pods')!, namespace: 'default', name: 'web', object: pod, user: ctx.user, dryRun: false }, ctx);
	return { pod, message: result ? (result.body as Status).message : undefined };
}

const tokenVolume = (name: string) => ({
	name,
	projected: {
		defaultMode: 420,
		sources: [
			{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
			{ configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
			{ downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
		],
	},
});

describe('ServiceAccount admission', () => {
	it('runs the pod as default and mounts kube-api-access-<5 random chars> read-only in every container', () => {
		const { pod, message } = admit({ initContainers: [{ name: 'init', image: 'busybox' }], containers: [{ name: 'web', image: 'nginx' }] }, context([{ name: 'default' }]));
		expect(message).toBeUndefined();
		// Draws 0..4 pick the first five letters of bcdfghjklmnpqrstvwxz2456789.
		expect(pod.spec).toEqual({
			serviceAccountName: 'default',
			serviceAccount: 'default',
			initContainers: [{ name: 'init', image: 'busybox', volumeMounts: [{ name: 'kube-api-access-bcdfg', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
			containers: [{ name: 'web', image: 'nginx', volumeMounts: [{ name: 'kube-api-access-bcdfg', readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }],
			volumes: [tokenVolume('kube-api-access-bcdfg')],
		});
	});

	it('rejects a missing service account with the upstream message', () => {
		expect(admit({ serviceAccountName: 'builder', containers: [{ name: 'web', image: 'nginx' }] }, context([{ name: 'default' }])).message).toBe(
			'pods "web" is forbidden: error looking up service account default/builder: serviceaccount "builder" not found',
		);
	});

	it.each([
		['the pod opts out', { automountServiceAccountToken: false }, [{ name: 'default' }]],
		['the service account opts out', {}, [{ name: 'default', automountServiceAccountToken: false }]],
	])('mounts nothing when %s', (_name, extra, accounts) => {
		const { pod } = admit({ ...extra, containers: [{ name: 'web', image: 'nginx' }] }, context(accounts));
		expect((pod.spec as { volumes?: unknown }).volumes).toBeUndefined();
	});

	it('lets the pod win over the service account', () => {
		const { pod } = admit({ automountServiceAccountToken: true, containers: [{ name: 'web', image: 'nginx' }] }, context([{ name: 'default', automountServiceAccountToken: false }]));
		expect((pod.spec as { volumes: unknown[] }).volumes).toHaveLength(1);
	});

	it('leaves a container that already mounts the token path alone', () => {
		const { pod } = admit({ containers: [{ name: 'web', image: 'nginx', volumeMounts: [{ name: 'mine', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }] }], volumes: [{ name: 'mine', emptyDir: {} }] }, context([{ name: 'default' }]));
		expect((pod.spec as { volumes: unknown[] }).volumes).toEqual([{ name: 'mine', emptyDir: {} }]);
	});

	it('exempts mirror pods but forbids them a service account', () => {
		const mirror = { 'kubernetes.io/config.mirror': 'abc' };
		expect(admit({ containers: [{ name: 'web', image: 'nginx' }] }, context([]), mirror)).toEqual({
			pod: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', annotations: mirror }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
			message: undefined,
		});
		expect(admit({ serviceAccountName: 'x', containers: [] }, context([]), mirror).message).toBe('pods "web" is forbidden: a mirror pod may not reference service accounts');
	});
});
