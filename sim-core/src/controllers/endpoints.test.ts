import { describe, it, expect } from 'vitest';
import type { Endpoints, Pod, Service } from '../api/types.ts';
import { defaultStrategies } from '../apiserver/registry/index.ts';
import { R } from '../client/client.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.ts';
import { KubeControllerManager } from './controller-manager.ts';
import { ANNOTATION_OVER_CAPACITY, ENDPOINTS_MAX_CAPACITY, repackSubsets, truncateEndpoints, type EndpointSubset, type SubsetAddress } from './endpoints.ts';
import { ANNOTATION_LAST_CHANGE_TRIGGER_TIME, LABEL_HEADLESS_SERVICE } from './endpointslice.ts';

// ---- a cluster of one API server and one controller manager; the tests play the kubelets ----

interface Env {
	h: ApiHarness;
	kubectl: ReturnType<ApiHarness['client']>;
	advance(ms: number): void;
}

function setup(): Env {
	const h = createApiHarness({ seed: 5, deps: { strategies: defaultStrategies(), admission: [] } });
	h.transport.enroll('kube-controller-manager', { username: 'system:kube-controller-manager', groups: ['system:authenticated'] });
	const kubectl = h.client('kubectl');
	kubectl.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
	kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} });
	const manager = new KubeControllerManager(h.kernel, h.transport, { controllers: ['endpoint'] });
	h.kernel.register(manager);
	h.kernel.start('kube-controller-manager');
	h.advance(100);
	return { h, kubectl, advance: (ms) => h.advance(ms) };
}

function createService(env: Env, name: string, spec: Partial<Service['spec']> = {}, labels: Record<string, string> = { app: name }): Service {
	const svc: Service = { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', labels }, spec: { selector: { app: name }, ports: [{ name: 'http', port: 80, targetPort: 8080 }], ...spec } };
	const created = env.kubectl.create<Service>(R.services, 'default', svc);
	if (!created.ok) throw new Error(created.message);
	return created.object;
}

/** Plays the scheduler and the kubelet: a bound Pod with an IP, Running, Ready or not. */
function runPod(env: Env, name: string, ip: string, ready = true, app = 'web'): Pod {
	const created = env.kubectl.create<Pod>(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default', labels: { app } }, spec: { nodeName: 'node-1', containers: [{ name: 'main', image: 'nginx:1.27' }] } });
	if (!created.ok) throw new Error(created.message);
	const pod = JSON.parse(JSON.stringify(created.object)) as Pod;
	const at = formatRfc3339(env.h.kernel.wallMs());
	pod.status = { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at }] };
	const written = env.kubectl.updateStatus<Pod>(R.pods, pod);
	if (!written.ok) throw new Error(written.message);
	return written.object;
}

function endpointsOf(env: Env, name: string): Endpoints | undefined {
	const got = env.kubectl.get<Endpoints>(R.endpoints, 'default', name);
	return got.ok ? got.object : undefined;
}

const addr = (ip: string, uid: string): SubsetAddress => ({ ip, nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: uid, uid } });

describe('repackSubsets', () => {
	it.each<[string, EndpointSubset[], EndpointSubset[]]>([
		[
			'merges one-Pod subsets serving the same ports, addresses sorted by IP',
			[
				{ addresses: [addr('10.0.0.9', 'b')], ports: [{ port: 80, protocol: 'TCP' }] },
				{ addresses: [addr('10.0.0.10', 'a')], ports: [{ port: 80, protocol: 'TCP' }] },
			],
			// IPs compare as strings: "10.0.0.10" < "10.0.0.9".
			[{ addresses: [addr('10.0.0.10', 'a'), addr('10.0.0.9', 'b')], ports: [{ port: 80, protocol: 'TCP' }] }],
		],
		[
			'keeps ready and not-ready addresses of the same ports in one subset',
			[
				{ addresses: [addr('10.0.0.1', 'a')], ports: [{ port: 80, protocol: 'TCP' }] },
				{ notReadyAddresses: [addr('10.0.0.2', 'b')], ports: [{ port: 80, protocol: 'TCP' }] },
			],
			[{ addresses: [addr('10.0.0.1', 'a')], notReadyAddresses: [addr('10.0.0.2', 'b')], ports: [{ port: 80, protocol: 'TCP' }] }],
		],
		[
			'gives addresses with different ports their own subsets',
			[
				{ addresses: [addr('10.0.0.1', 'a')], ports: [{ name: 'web', port: 8080, protocol: 'TCP' }] },
				{ addresses: [addr('10.0.0.2', 'b')], ports: [{ name: 'web', port: 9090, protocol: 'TCP' }] },
			],
			[
				{ addresses: [addr('10.0.0.1', 'a')], ports: [{ name: 'web', port: 8080, protocol: 'TCP' }] },
				{ addresses: [addr('10.0.0.2', 'b')], ports: [{ name: 'web', port: 9090, protocol: 'TCP' }] },
			],
		],
		['keeps addresses without ports (a headless Service)', [{ addresses: [addr('10.0.0.1', 'a')] }], [{ addresses: [addr('10.0.0.1', 'a')] }]],
		[
			'an address not ready on one port is not ready on it, however it shows elsewhere',
			[
				{ addresses: [addr('10.0.0.1', 'a')], ports: [{ port: 80, protocol: 'TCP' }] },
				{ notReadyAddresses: [addr('10.0.0.1', 'a')], ports: [{ port: 80, protocol: 'TCP' }] },
			],
			[{ notReadyAddresses: [addr('10.0.0.1', 'a')], ports: [{ port: 80, protocol: 'TCP' }] }],
		],
		['gives nothing for nothing', [], []],
	])('%s', (_name, input, expected) => {
		expect(repackSubsets(input)).toEqual(expected);
	});
});

describe('truncateEndpoints', () => {
	const many = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => addr(`${prefix}.${Math.floor(i / 250)}.${i % 250}`, `${prefix}-${i}`));
	it('keeps everything up to the capacity of 1000 addresses', () => {
		const subsets: EndpointSubset[] = [{ addresses: many(600, '10.1'), notReadyAddresses: many(400, '10.2') }];
		expect(truncateEndpoints(subsets)).toBe(false);
		expect(subsets[0].addresses).toHaveLength(600);
	});
	it('drops not-ready addresses first, sharing the room among subsets in proportion', () => {
		const subsets: EndpointSubset[] = [
			{ addresses: many(900, '10.1'), notReadyAddresses: many(100, '10.2') },
			{ notReadyAddresses: many(100, '10.3') },
		];
		expect(truncateEndpoints(subsets)).toBe(true);
		// Room for 100 not-ready addresses, half each (ceil(100 / 200 * 100) = 50).
		expect(subsets.map((s) => [s.addresses?.length ?? 0, s.notReadyAddresses?.length ?? 0])).toEqual([
			[900, 50],
			[0, 50],
		]);
	});
	it('keeps only ready addresses when they alone exceed the capacity', () => {
		const subsets: EndpointSubset[] = [{ addresses: many(1200, '10.1'), notReadyAddresses: many(5, '10.2') }];
		expect(truncateEndpoints(subsets)).toBe(true);
		expect(subsets[0].addresses).toHaveLength(ENDPOINTS_MAX_CAPACITY);
		expect(subsets[0].notReadyAddresses).toBeUndefined();
	});
});

describe('the Endpoints controller', () => {
	it('keeps an Endpoints object named after the Service, with ready and not-ready addresses', () => {
		const env = setup();
		const a = runPod(env, 'web-a', '10.244.1.8');
		const b = runPod(env, 'web-b', '10.244.1.7', false);
		runPod(env, 'other', '10.244.1.9', true, 'other');
		const svc = createService(env, 'web', {}, { app: 'web', tier: 'front' });
		env.advance(100);
		const ep = endpointsOf(env, 'web');
		expect(ep?.metadata.labels).toEqual({ app: 'web', tier: 'front' });
		expect(ep?.metadata.annotations).toEqual({ [ANNOTATION_LAST_CHANGE_TRIGGER_TIME]: svc.metadata.creationTimestamp });
		expect(ep?.subsets).toEqual([
			{
				addresses: [{ ip: '10.244.1.8', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-a', uid: a.metadata.uid } }],
				notReadyAddresses: [{ ip: '10.244.1.7', nodeName: 'node-1', targetRef: { kind: 'Pod', namespace: 'default', name: 'web-b', uid: b.metadata.uid } }],
				ports: [{ name: 'http', port: 8080, protocol: 'TCP' }],
			},
		]);
	});

	it('leaves terminating Pods out, and exists with no subsets when no Pod is left', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.8');
		createService(env, 'web');
		env.advance(100);
		expect(endpointsOf(env, 'web')?.subsets?.[0].addresses?.map((a) => a.ip)).toEqual(['10.244.1.8']);
		expect(env.kubectl.delete(R.pods, 'default', 'web-a').ok).toBe(true);
		env.advance(100);
		const ep = endpointsOf(env, 'web');
		expect(ep).toBeDefined();
		expect(ep?.subsets).toBeUndefined();
	});

	it('marks the Endpoints of a headless Service and lists Pods without ports when the Service has none', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.8');
		createService(env, 'web', { clusterIP: 'None', ports: undefined });
		env.advance(100);
		const ep = endpointsOf(env, 'web');
		expect(ep?.metadata.labels).toEqual({ app: 'web', [LABEL_HEADLESS_SERVICE]: '' });
		expect(ep?.subsets).toEqual([{ addresses: [expect.objectContaining({ ip: '10.244.1.8' })] }]);
	});

	it('puts a deleted Endpoints object back, and deletes it with its Service', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.8');
		createService(env, 'web');
		env.advance(100);
		expect(env.kubectl.delete(R.endpoints, 'default', 'web').ok).toBe(true);
		env.advance(100);
		expect(endpointsOf(env, 'web')?.subsets?.[0].addresses?.map((a) => a.ip)).toEqual(['10.244.1.8']);
		expect(env.kubectl.delete(R.services, 'default', 'web').ok).toBe(true);
		env.advance(100);
		expect(endpointsOf(env, 'web')).toBeUndefined();
	});

	it('leaves Services without a selector alone, and writes nothing when nothing changed', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.8');
		createService(env, 'manual', { selector: undefined });
		createService(env, 'web');
		env.advance(100);
		expect(endpointsOf(env, 'manual')).toBeUndefined();
		const rv = endpointsOf(env, 'web')?.metadata.resourceVersion;
		env.kubectl.patch(R.services, 'default', 'web', { metadata: { annotations: { note: 'x' } } });
		env.advance(100);
		expect(endpointsOf(env, 'web')?.metadata.resourceVersion).toBe(rv);
	});

	it('gets the v1.33 deprecation warning from the API server on every read', () => {
		const env = setup();
		createService(env, 'web');
		env.advance(100);
		const got = env.kubectl.get(R.endpoints, 'default', 'web');
		expect(got.warnings).toEqual(['v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice']);
	});

	it('caps an Endpoints object at 1000 addresses and says so', () => {
		const env = setup();
		for (let i = 0; i < 1005; i++) runPod(env, `web-${i}`, `10.244.${1 + Math.floor(i / 250)}.${(i % 250) + 2}`);
		createService(env, 'web');
		env.advance(200);
		const ep = endpointsOf(env, 'web');
		expect(ep?.metadata.annotations?.[ANNOTATION_OVER_CAPACITY]).toBe('truncated');
		expect(ep?.subsets?.[0].addresses).toHaveLength(1000);
	});
});
