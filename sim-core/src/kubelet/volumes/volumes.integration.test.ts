/**
 * The kubelet's volumes against a real etcd and kube-apiserver
 * (testing/api-harness.ts), with containerd and the node's disk: the tests
 * play the scheduler (pods come with spec.nodeName), the ServiceAccount
 * admission plugin (the kube-api-access volume is written into the pod) and
 * the root-CA publisher (kube-root-ca.crt). Expected values come from
 * upstream's wording and constants: the FailedMount message
 * (operation_generator.go, configmap.go), the mount back-off (500 ms
 * doubling to 2 min 2 s, retried on the next 100 ms reconciler pass), the
 * 2 min 3 s wait, the 1 min resync, and subPath semantics.
 */
import { describe, expect, it } from 'vitest';
import type { ConfigMap, CoreEvent, Pod, Volume } from '../../api/types.ts';
import type { Strategy } from '../../apiserver/registry/strategy.ts';
import { R } from '../../client/client.ts';
import { ContainerRuntime, SANDBOX_SETUP_MS } from '../../runtime/container-runtime.ts';
import { emptyRuntimeHostState, type RuntimeHostState } from '../../runtime/host-state.ts';
import { MemoryFs } from '../../host/fs.ts';
import { decodeBase64 } from '../../golang/base64.ts';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.ts';
import { emptyKubeletUnitRecord } from '../../host/systemd/records.ts';
import { Kubelet } from '../kubelet.ts';
import { nodeDiskFromFs } from '../../host/disk.ts';

const podStrategy: Strategy = {
	hasStatusSubresource: true,
	fields: (o) => ({ 'spec.nodeName': (o.spec as { nodeName?: string }).nodeName ?? '' }),
	gracePeriodSeconds: (o, requested) => requested ?? o.metadata.deletionGracePeriodSeconds ?? (o.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30,
};

const NODE = 'node-1';

interface Rig {
	h: ApiHarness;
	fs: MemoryFs;
	runtime: ContainerRuntime;
	runtimeHost: RuntimeHostState;
	kubelet: Kubelet;
	tester: ReturnType<ApiHarness['client']>;
}

function rig(): Rig {
	const h = createApiHarness({ deps: { strategies: { '/pods': podStrategy, '/nodes': { hasStatusSubresource: true, allowStatusOnCreate: true } } } });
	h.transport.enroll(`kubelet/${NODE}`, { username: `system:node:${NODE}`, groups: ['system:nodes', 'system:authenticated'] }, NODE);
	const fs = new MemoryFs();
	const disk = nodeDiskFromFs(fs);
	const runtimeHost = emptyRuntimeHostState(NODE, '192.168.56.11', '10.244.1.0/24');
	const runtime = new ContainerRuntime(h.kernel, NODE, { host: runtimeHost, hostFiles: disk });
	const kubelet = new Kubelet(h.kernel, { nodeName: NODE, nodeIp: '192.168.56.11', podCidr: '10.244.1.0/24', capacity: { cpu: '2', memory: '4Gi' }, runtime, client: h.client(`kubelet/${NODE}`), host: emptyKubeletUnitRecord(), disk });
	h.kernel.register(runtime);
	h.kernel.register(kubelet);
	h.kernel.start(runtime.id);
	h.kernel.start(kubelet.id);
	runtime.preload('registry.k8s.io/pause:3.10.2');
	runtime.preload('nginx:1.27');
	runtime.preload('busybox:1.36');
	h.advance(1_000);
	return { h, fs, runtime, runtimeHost, kubelet, tester: h.client('tester') };
}

function createPod(r: Rig, name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): void {
	const created = r.tester.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { nodeName: NODE, serviceAccountName: 'default', ...spec } });
	expect(created.ok).toBe(true);
}

function putConfigMap(r: Rig, name: string, data: Record<string, string>): void {
	const existing = r.tester.get<ConfigMap>(R.configmaps, 'default', name);
	const body: ConfigMap = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data };
	const result = existing.ok ? r.tester.update(R.configmaps, { ...body, metadata: { ...body.metadata, resourceVersion: existing.object.metadata.resourceVersion } }) : r.tester.create(R.configmaps, 'default', body);
	expect(result.ok).toBe(true);
}

function getPod(r: Rig, name: string): Pod {
	const got = r.tester.get<Pod>(R.pods, 'default', name);
	if (!got.ok) throw new Error(`no pod ${name}`);
	return got.object;
}

function events(r: Rig, name: string): CoreEvent[] {
	const listed = r.tester.list<CoreEvent>(R.events, 'default');
	return listed.ok ? listed.object.items.filter((e) => e.involvedObject.name === name) : [];
}

function exec(r: Rig, pod: string, argv: string[], container?: string): string {
	const result = r.kubelet.exec('default', pod, container, argv);
	if (!result.ok) return `error: ${result.message}`;
	return result.value.stdout + result.value.stderr;
}

const content: Volume = { name: 'content', configMap: { name: 'web-content' } };
const nginx = (mounts: Array<Record<string, unknown>> = [{ name: 'content', mountPath: '/usr/share/nginx/html' }]) => ({ name: 'nginx', image: 'nginx:1.27', volumeMounts: mounts });

describe('a pod whose ConfigMap does not exist yet', () => {
	it('stays Pending in ContainerCreating, with no sandbox, and counts its FailedMount events', () => {
		const r = rig();
		createPod(r, 'web', { containers: [nginx()], volumes: [content] });
		r.h.advance(130_000);
		const pod = getPod(r, 'web');
		expect(pod.status?.phase).toBe('Pending');
		expect(pod.status?.containerStatuses?.[0].state?.waiting?.reason).toBe('ContainerCreating');
		expect(pod.status?.podIP).toBeUndefined();
		expect(pod.status?.conditions?.find((c) => c.type === 'PodReadyToStartContainers')?.status).toBe('False');
		expect(Object.keys(r.runtimeHost.sandboxes)).toEqual([]);
		// Failures at 0, 0.6, 1.7, 3.8, 7.9, 16.0, 32.1, 64.2 and 128.3 s: one event object, counted.
		expect(events(r, 'web').map((e) => [e.type, e.reason, e.message, e.count, e.source?.component])).toEqual([['Warning', 'FailedMount', 'MountVolume.SetUp failed for volume "content" : configmap "web-content" not found', 9, 'kubelet']]);
	});

	it('logs the 2 min 3 s wait running out, without the Unable to attach or mount volumes event of old releases', () => {
		const r = rig();
		createPod(r, 'web', { containers: [nginx()], volumes: [content] });
		r.h.advance(124_000);
		const journal = r.kubelet.hostState.journal.map((j) => j.line);
		expect(journal.some((l) => l.includes('unmounted volumes=[content], unattached volumes=[], failed to process volumes=[]: context deadline exceeded'))).toBe(true);
		expect(journal.some((l) => l.includes('nestedpendingoperations.go') && l.includes('(durationBeforeRetry 500ms)') && l.includes('configmap \\"web-content\\" not found'))).toBe(true);
		expect(events(r, 'web').map((e) => e.message).filter((m) => m?.startsWith('Unable to attach or mount volumes'))).toEqual([]);
	});

	it('starts by itself at the next retry once the ConfigMap is created, and serves its content', () => {
		const r = rig();
		const t0 = r.h.kernel.nowMs;
		createPod(r, 'web', { containers: [nginx()], volumes: [content] });
		r.h.advance(130_000);
		putConfigMap(r, 'web-content', { 'index.html': '<h1>from a ConfigMap</h1>\n' });
		// The back-off after the failure at 128.3 s is 2 min 2 s: the next try is at 250.4 s.
		r.h.kernel.runUntil(t0 + 250_300);
		expect(getPod(r, 'web').status?.phase).toBe('Pending');
		r.h.kernel.runUntil(t0 + 252_000);
		const pod = getPod(r, 'web');
		expect(pod.status?.phase).toBe('Running');
		expect(pod.status?.podIP).toBe('10.244.1.2');
		expect(exec(r, 'web', ['cat', '/usr/share/nginx/html/index.html'])).toBe('<h1>from a ConfigMap</h1>\n');
		expect(exec(r, 'web', ['ls', '/usr/share/nginx/html'])).toBe('index.html\n');
		expect(events(r, 'web').find((e) => e.reason === 'FailedMount')?.count).toBe(9);
	});
});

describe('volumes of a running pod', () => {
	it('a Secret volume holds the decoded values, read-only', () => {
		const r = rig();
		expect(r.tester.create(R.secrets, 'default', { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default' }, type: 'Opaque', data: { password: 'czNjcjN0' } }).ok).toBe(true);
		createPod(r, 'app', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'], volumeMounts: [{ name: 'creds', mountPath: '/etc/creds' }] }], volumes: [{ name: 'creds', secret: { secretName: 'db' } }] });
		r.h.advance(2_000);
		// `czNjcjN0` is base64 for s3cr3t (the simulated cat ends its last line).
		expect(exec(r, 'app', ['cat', '/etc/creds/password'])).toBe('s3cr3t\n');
		expect(exec(r, 'app', ['sh', '-c', 'echo x > /etc/creds/password'])).toBe("sh: can't create /etc/creds/password: Read-only file system\n");
	});

	const kubeApiAccess = {
		name: 'kube-api-access-x7k2p',
		projected: { defaultMode: 420, sources: [{ serviceAccountToken: { expirationSeconds: 3607, path: 'token' } }, { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } }, { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } }] },
	};

	it('the kube-api-access volume gives token, ca.crt and namespace under /var/run/secrets/kubernetes.io/serviceaccount; the token is the API server\'s, signed for the pod', () => {
		const r = rig();
		putConfigMap(r, 'kube-root-ca.crt', { 'ca.crt': '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n' });
		// The ServiceAccount controller's part: the namespace's default account exists.
		expect(r.tester.create(R.serviceaccounts, 'default', { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'default', namespace: 'default' } }).ok).toBe(true);
		createPod(r, 'web', { containers: [nginx([{ name: 'kube-api-access-x7k2p', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }])], volumes: [kubeApiAccess] });
		r.h.advance(2_000);
		const dir = '/var/run/secrets/kubernetes.io/serviceaccount';
		expect(exec(r, 'web', ['ls', dir])).toBe('ca.crt\nnamespace\ntoken\n');
		expect(exec(r, 'web', ['cat', `${dir}/namespace`])).toBe('default\n');
		expect(exec(r, 'web', ['cat', `${dir}/ca.crt`])).toBe('-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n');
		const token = exec(r, 'web', ['cat', `${dir}/token`]).trim();
		const payload = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
		const claims = JSON.parse(decodeBase64(payload + '='.repeat((4 - (payload.length % 4)) % 4)) ?? '{}') as { sub: string; 'kubernetes.io': { pod: { name: string; uid: string } } };
		expect(claims.sub).toBe('system:serviceaccount:default:default');
		expect(claims['kubernetes.io'].pod).toEqual({ name: 'web', uid: getPod(r, 'web').metadata.uid });
		// The kubelet asked for it with a TokenRequest; the API server's authenticator accepts what it signed.
		const requests = r.h.kernel.trace.state.events.filter((e) => e.component === 'kube-apiserver' && /serviceaccounts\/default\/token|signed a token/.test(`${e.object ?? ''} ${e.msg}`));
		expect(requests.length).toBeGreaterThan(0);
		expect(r.h.apiServer.authenticateToken(token)?.username).toBe('system:serviceaccount:default:default');
	});

	it('with no such ServiceAccount the token cannot be fetched and the volume fails to mount', () => {
		const r = rig();
		putConfigMap(r, 'kube-root-ca.crt', { 'ca.crt': '-----BEGIN CERTIFICATE-----\nCA\n-----END CERTIFICATE-----\n' });
		createPod(r, 'web', { containers: [nginx([{ name: 'kube-api-access-x7k2p', mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', readOnly: true }])], volumes: [kubeApiAccess] });
		r.h.advance(2_000);
		const failed = r.tester.list<CoreEvent>(R.events, 'default');
		expect(failed.ok && failed.object.items.map((e) => `${e.reason}: ${e.message}`)).toContain('FailedMount: MountVolume.SetUp failed for volume "kube-api-access-x7k2p" : failed to fetch token: serviceaccounts "default" not found');
	});

	it('a ConfigMap update reaches the files at the next resync (1 min), never a subPath mount', () => {
		const r = rig();
		putConfigMap(r, 'web-content', { 'index.html': 'v1\n', 'default.conf': 'conf v1\n' });
		createPod(r, 'web', { containers: [nginx([{ name: 'content', mountPath: '/usr/share/nginx/html' }, { name: 'content', mountPath: '/etc/nginx/conf.d/default.conf', subPath: 'default.conf' }])], volumes: [content] });
		const mountedAt = r.h.kernel.nowMs;
		r.h.advance(10_000);
		putConfigMap(r, 'web-content', { 'index.html': 'v2\n', 'default.conf': 'conf v2\n' });
		r.h.kernel.runUntil(mountedAt + 59_000);
		expect(exec(r, 'web', ['cat', '/usr/share/nginx/html/index.html'])).toBe('v1\n');
		r.h.kernel.runUntil(mountedAt + 61_000);
		expect(exec(r, 'web', ['cat', '/usr/share/nginx/html/index.html'])).toBe('v2\n');
		r.h.advance(120_000);
		// The subPath file is the version the container started with.
		expect(exec(r, 'web', ['cat', '/etc/nginx/conf.d/default.conf'])).toBe('conf v1\n');
		// Env vars never change either; a restarted container gets the current file.
		const [running] = Object.values(r.runtimeHost.containers).filter((c) => c.name === 'nginx' && c.state === 'CONTAINER_RUNNING');
		r.runtime.stopContainer(running.id, 0);
		r.h.advance(15_000);
		expect(exec(r, 'web', ['cat', '/etc/nginx/conf.d/default.conf'])).toBe('conf v2\n');
	});

	it('a deleted ConfigMap leaves the files in place, and each remount failure is an event', () => {
		const r = rig();
		putConfigMap(r, 'web-content', { 'index.html': 'v1\n' });
		createPod(r, 'web', { containers: [nginx()], volumes: [content] });
		r.h.advance(2_000);
		expect(r.tester.delete(R.configmaps, 'default', 'web-content').ok).toBe(true);
		r.h.advance(70_000);
		expect(getPod(r, 'web').status?.phase).toBe('Running');
		expect(exec(r, 'web', ['cat', '/usr/share/nginx/html/index.html'])).toBe('v1\n');
		expect(events(r, 'web').find((e) => e.reason === 'FailedMount')?.message).toBe('MountVolume.SetUp failed for volume "content" : configmap "web-content" not found');
	});

	it('downward API files follow the pod labels at once', () => {
		const r = rig();
		createPod(r, 'web', { containers: [nginx([{ name: 'info', mountPath: '/etc/podinfo' }])], volumes: [{ name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } }] }, { labels: { app: 'web' } });
		r.h.advance(2_000);
		expect(exec(r, 'web', ['cat', '/etc/podinfo/labels'])).toBe('app="web"\n');
		const pod = JSON.parse(JSON.stringify(getPod(r, 'web'))) as Pod;
		pod.metadata.labels = { ...pod.metadata.labels, tier: 'frontend' };
		expect(r.tester.update(R.pods, pod).ok).toBe(true);
		r.h.advance(100);
		expect(exec(r, 'web', ['cat', '/etc/podinfo/labels'])).toBe('app="web"\ntier="frontend"\n');
	});

	it('an optional missing ConfigMap is an empty directory and does not hold the pod', () => {
		const r = rig();
		createPod(r, 'web', { containers: [nginx()], volumes: [{ name: 'content', configMap: { name: 'web-content', optional: true } }] });
		r.h.advance(2_000);
		expect(getPod(r, 'web').status?.phase).toBe('Running');
		expect(exec(r, 'web', ['ls', '/usr/share/nginx/html'])).toBe('');
		expect(events(r, 'web').filter((e) => e.reason === 'FailedMount')).toEqual([]);
	});

	it('the pod directory goes with the pod; a restarted kubelet finds the volumes it left', () => {
		const r = rig();
		putConfigMap(r, 'web-content', { 'index.html': 'v1\n' });
		createPod(r, 'web', { containers: [nginx()], volumes: [content] });
		r.h.advance(2_000);
		const uid = getPod(r, 'web').metadata.uid ?? '';
		expect(r.fs.list(`/var/lib/kubelet/pods/${uid}/volumes`)).toEqual(['kubernetes.io~configmap']);
		r.h.kernel.stop(r.kubelet.id);
		r.h.advance(5_000);
		r.h.kernel.start(r.kubelet.id);
		r.h.advance(5_000);
		expect(getPod(r, 'web').status?.containerStatuses?.[0].restartCount).toBe(0);
		expect(exec(r, 'web', ['cat', '/usr/share/nginx/html/index.html'])).toBe('v1\n');
		expect(r.tester.delete(R.pods, 'default', 'web').ok).toBe(true);
		r.h.advance(10_000);
		expect(r.fs.exists(`/var/lib/kubelet/pods/${uid}`)).toBe(false);
	});

	it('an emptyDir is shared by the pod containers', () => {
		const r = rig();
		createPod(r, 'pair', {
			containers: [
				{ name: 'writer', image: 'busybox:1.36', command: ['sh', '-c', 'echo hello > /data/msg; sleep 3600'], volumeMounts: [{ name: 'shared', mountPath: '/data' }] },
				nginx([{ name: 'shared', mountPath: '/usr/share/nginx/html' }]),
			],
			volumes: [{ name: 'shared', emptyDir: {} }],
		});
		r.h.advance(2_000 + SANDBOX_SETUP_MS);
		expect(exec(r, 'pair', ['cat', '/usr/share/nginx/html/msg'], 'nginx')).toBe('hello\n');
	});
});
