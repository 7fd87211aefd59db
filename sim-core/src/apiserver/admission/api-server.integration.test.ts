import { describe, it, expect } from 'vitest';
import type { KubeObject, KubeList } from '../../api/types.ts';
import { createApiHarness } from '../../testing/api-harness.ts';
import { R } from '../../client/client.ts';
import { defaultStrategies } from '../registry/index.ts';
import { defaultAdmissionPlugins } from './index.ts';

/** A real etcd + kube-apiserver with every strategy and the admission chain, seeded with what bootstrap would create. */
function cluster() {
	const h = createApiHarness({ deps: { strategies: defaultStrategies(), admission: defaultAdmissionPlugins() } });
	const admin = h.client('kubectl');
	for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) {
		expect(admin.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }).ok).toBe(true);
	}
	// The service account controller's job, played here.
	expect(admin.create(R.serviceaccounts, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default' } }).ok).toBe(true);
	return { h, admin };
}

const container = { name: 'web', image: 'nginx:1.27' };

describe('the API server with default strategies and admission', () => {
	it('gives a Deployment created with only selector, template and a container every default', () => {
		const { admin } = cluster();
		const created = admin.create(R.deployments, 'default', {
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			metadata: { name: 'web' },
			spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } },
		});
		expect(created.ok).toBe(true);
		const got = admin.get(R.deployments, 'default', 'web');
		const d = (got as { object: KubeObject }).object;
		expect(d.metadata.generation).toBe(1);
		expect(d.status).toBeUndefined();
		expect(d.spec).toEqual({
			replicas: 1,
			selector: { matchLabels: { app: 'web' } },
			strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
			revisionHistoryLimit: 10,
			progressDeadlineSeconds: 600,
			template: {
				metadata: { labels: { app: 'web' } },
				spec: {
					containers: [{ name: 'web', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }],
					restartPolicy: 'Always',
					terminationGracePeriodSeconds: 30,
					dnsPolicy: 'ClusterFirst',
					securityContext: {},
					schedulerName: 'default-scheduler',
				},
			},
		});
	});

	it('rejects a Pod with a missing image with 422 and the upstream message', () => {
		const { admin } = cluster();
		const result = admin.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'x' }, spec: { containers: [{ name: 'web' }] } });
		expect(result).toMatchObject({ ok: false, code: 422, reason: 'Invalid', message: 'Pod "x" is invalid: spec.containers[0].image: Required value' });
	});

	it('rejects a Deployment whose selector does not match, listing both causes in brackets', () => {
		const { admin } = cluster();
		const result = admin.create(R.deployments, 'default', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [container] } } } });
		// The causes, in upstream's order and wording; errors.ts prints the kind without its group.
		expect(!result.ok && result.message).toBe(
			'Deployment.apps "web" is invalid: [spec.selector: Required value, spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`]',
		);
	});

	it('admits a Pod: service account volume, default tolerations, priority, phase Pending and QoS class', () => {
		const { admin } = cluster();
		const created = admin.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { containers: [container] } });
		expect(created.ok).toBe(true);
		const pod = (created as { object: KubeObject }).object;
		const spec = pod.spec as Record<string, unknown>;
		expect(spec.serviceAccountName).toBe('default');
		expect(spec.serviceAccount).toBe('default');
		expect(spec.priority).toBe(0);
		expect(spec.preemptionPolicy).toBe('PreemptLowerPriority');
		expect(spec.enableServiceLinks).toBe(true);
		expect(spec.tolerations).toEqual([
			{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
			{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
		]);
		const volumes = spec.volumes as Array<{ name: string }>;
		expect(volumes).toHaveLength(1);
		expect(volumes[0].name).toMatch(/^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
		expect((spec.containers as Array<{ volumeMounts: unknown }>)[0].volumeMounts).toEqual([{ name: volumes[0].name, readOnly: true, mountPath: '/var/run/secrets/kubernetes.io/serviceaccount' }]);
		expect(pod.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
		expect(pod.metadata.generation).toBe(1);
	});

	it('gives a Service a cluster IP in 10.96.0.0/12 and rejects a second Service asking for the same IP', () => {
		const { admin } = cluster();
		const created = admin.create(R.services, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web' }, spec: { selector: { app: 'web' }, ports: [{ port: 80 }] } });
		const ip = ((created as { object: KubeObject }).object.spec as { clusterIP: string }).clusterIP;
		const [a, b] = ip.split('.').map(Number);
		expect(a).toBe(10);
		expect(b).toBeGreaterThanOrEqual(96);
		expect(b).toBeLessThanOrEqual(111);
		const clash = admin.create(R.services, 'default', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'api' }, spec: { clusterIP: ip, ports: [{ port: 80 }] } });
		expect(!clash.ok && clash.message).toBe(`Service "api" is invalid: spec.clusterIPs: Invalid value: ["${ip}"]: failed to allocate IP ${ip}: provided IP is already allocated`);
	});

	it('refuses to create in a missing namespace with 404 namespaces "foo" not found', () => {
		const { admin } = cluster();
		const result = admin.create(R.configmaps, 'foo', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } });
		expect(result).toMatchObject({ ok: false, code: 404, reason: 'NotFound', message: 'namespaces "foo" not found' });
	});

	it('refuses new content in a terminating namespace, and refuses to delete kube-system', () => {
		const { admin } = cluster();
		admin.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'old' } });
		expect(admin.delete(R.namespaces, undefined, 'old').ok).toBe(true);
		const result = admin.create(R.configmaps, 'old', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg' } });
		expect(result).toMatchObject({ ok: false, code: 403, message: 'configmaps "cfg" is forbidden: unable to create new content in namespace old because it is being terminated' });
		expect(admin.delete(R.namespaces, undefined, 'kube-system')).toMatchObject({ ok: false, code: 403, message: 'namespaces "kube-system" is forbidden: this namespace may not be deleted' });
	});

	it('taints a node a kubelet registers, and keeps the kubelet to its own Node', () => {
		const { h } = cluster();
		h.transport.enroll('kubelet/node-1', { username: 'system:node:node-1', groups: ['system:nodes', 'system:authenticated'] });
		const kubelet = h.client('kubelet/node-1');
		const created = kubelet.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', labels: { 'kubernetes.io/hostname': 'node-1' } }, status: { capacity: { cpu: '2', memory: '4Gi', pods: '110' } } });
		expect(created.ok).toBe(true);
		const node = (created as { object: KubeObject }).object;
		expect(node.spec).toEqual({ taints: [{ key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' }] });
		expect((node.status as { allocatable: unknown }).allocatable).toEqual({ cpu: '2', memory: '4Gi', pods: '110' });
		const other = kubelet.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-2' } });
		expect(!other.ok && other.message).toBe('nodes "node-2" is forbidden: node "node-1" is not allowed to modify node "node-2"');
	});

	it('serves field selectors and deletes a bound pod gracefully with its 30s grace period', () => {
		const { admin } = cluster();
		admin.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'a' }, spec: { containers: [container], nodeName: 'node-1' } });
		admin.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'b' }, spec: { containers: [container] } });
		const listed = admin.list(R.pods, 'default', { fieldSelector: 'spec.nodeName=node-1' });
		expect((listed as { object: KubeList }).object.items.map((p) => p.metadata.name)).toEqual(['a']);
		const deleted = admin.delete(R.pods, 'default', 'a');
		expect((deleted as { object: KubeObject }).object.metadata.deletionGracePeriodSeconds).toBe(30);
		// The unscheduled pod goes at once.
		admin.delete(R.pods, 'default', 'b');
		expect(admin.get(R.pods, 'default', 'b')).toMatchObject({ ok: false, code: 404 });
	});

	it('stores a Secret with stringData folded into data', () => {
		const { admin } = cluster();
		const created = admin.create(R.secrets, 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, stringData: { password: 's3cret' } });
		const secret = (created as { object: KubeObject }).object;
		expect(secret.type).toBe('Opaque');
		expect(secret.data).toEqual({ password: 'czNjcmV0' });
		expect(secret.stringData).toBeUndefined();
	});
});
