import { describe, it, expect } from 'vitest';
import type { CoreEvent, Pod, Service } from '../api/types.ts';
import { defaultStrategies } from '../apiserver/registry/index.ts';
import { R } from '../client/client.ts';
import { createCluster } from '../index.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.ts';
import { KubeControllerManager, type KubeControllerManagerOptions } from './controller-manager.ts';
import {
	ANNOTATION_LAST_CHANGE_TRIGGER_TIME,
	CONTROLLER_QUALIFIED_NAME,
	LABEL_HEADLESS_SERVICE,
	LABEL_MANAGED_BY,
	LABEL_SERVICE_NAME,
	computeEndpointLastChangeTriggerTime,
	endpointSlicePrefix,
	findPort,
	formatRfc3339Nano,
	podEndpointsChanged,
	servicesToUpdateOnPodChange,
	sliceToFill,
	type TriggerTimeState,
	type WireEndpointSlice,
} from './endpointslice.ts';
import { timeMs } from './pod-util.ts';

const START = '2026-11-30T08:00:00Z';

// ---- a cluster of one API server and one controller manager; the tests play the kubelets ----

interface Env {
	h: ApiHarness;
	kubectl: ReturnType<ApiHarness['client']>;
	advance(ms: number): void;
	now(): number;
}

function setup(kcm: Partial<KubeControllerManagerOptions> = {}): Env {
	const h = createApiHarness({ seed: 11, deps: { strategies: defaultStrategies(), admission: [] } });
	h.transport.enroll('kube-controller-manager', { username: 'system:kube-controller-manager', groups: ['system:authenticated'] });
	const kubectl = h.client('kubectl');
	kubectl.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
	for (const [name, zone] of [
		['node-1', 'zone-a'],
		['node-2', 'zone-b'],
	]) {
		kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'topology.kubernetes.io/zone': zone } }, spec: {} });
	}
	const manager = new KubeControllerManager(h.kernel, h.transport, { controllers: ['endpointslice', 'endpoint', 'garbagecollector'], ...kcm });
	h.kernel.register(manager);
	h.kernel.start('kube-controller-manager');
	h.advance(100);
	return { h, kubectl, advance: (ms) => h.advance(ms), now: () => h.kernel.nowMs };
}

function service(name: string, spec: Partial<Service['spec']> = {}, labels: Record<string, string> = { app: name }): Service {
	return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default', labels }, spec: { selector: { app: name }, ports: [{ port: 80, targetPort: 8080 }], ...spec } };
}

function createService(env: Env, svc: Service): Service {
	const created = env.kubectl.create<Service>(R.services, 'default', svc);
	if (!created.ok) throw new Error(created.message);
	return created.object;
}

/** Plays the scheduler and the kubelet: a bound Pod with an IP, Running, Ready or not. */
function runPod(env: Env, name: string, ip: string, opts: { app?: string; node?: string; ready?: boolean; ports?: Array<{ name?: string; containerPort: number }> } = {}): Pod {
	const pod: Pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, namespace: 'default', labels: { app: opts.app ?? 'web' } },
		spec: { nodeName: opts.node ?? 'node-1', containers: [{ name: 'main', image: 'nginx:1.27', ports: opts.ports }] },
	};
	if (!opts.ports) delete pod.spec.containers[0].ports;
	const created = env.kubectl.create<Pod>(R.pods, 'default', pod);
	if (!created.ok) throw new Error(created.message);
	return setReady(env, name, opts.ready ?? true, ip);
}

function setReady(env: Env, name: string, ready: boolean, ip?: string): Pod {
	const got = env.kubectl.get<Pod>(R.pods, 'default', name);
	if (!got.ok) throw new Error(got.message);
	const pod = JSON.parse(JSON.stringify(got.object)) as Pod;
	const at = formatRfc3339(env.h.kernel.wallMs());
	const podIP = ip ?? pod.status?.podIP;
	pod.status = {
		...(pod.status ?? {}),
		phase: 'Running',
		podIP,
		podIPs: podIP ? [{ ip: podIP }] : [],
		conditions: [{ type: 'Ready', status: ready ? 'True' : 'False', lastProbeTime: null, lastTransitionTime: at }],
	};
	const written = env.kubectl.updateStatus<Pod>(R.pods, pod);
	if (!written.ok) throw new Error(written.message);
	return written.object;
}

function slicesOf(env: Env, svc: string): WireEndpointSlice[] {
	const listed = env.kubectl.list<WireEndpointSlice>(R.endpointslices, 'default', { labelSelector: `${LABEL_SERVICE_NAME}=${svc}` });
	return listed.ok ? listed.object.items : [];
}

function onlySlice(env: Env, svc: string): WireEndpointSlice {
	const slices = slicesOf(env, svc);
	expect(slices).toHaveLength(1);
	return slices[0];
}

/** Endpoint summaries: `name ip ready/serving/terminating`, in name order. */
function summary(slice: WireEndpointSlice): string[] {
	return (slice.endpoints ?? [])
		.map((e) => {
			const c = e.conditions ?? {};
			return `${(e.targetRef as { name?: string }).name} ${e.addresses.join(',')} ${c.ready}/${c.serving}/${c.terminating}`;
		})
		.sort();
}

// ---- pure helpers --------------------------------------------------------------------

describe('findPort', () => {
	const pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name: 'p' },
		spec: {
			containers: [{ name: 'app', ports: [{ name: 'http', containerPort: 8080 }, { name: 'dns', containerPort: 5353, protocol: 'UDP' }] }],
			initContainers: [
				{ name: 'proxy', restartPolicy: 'Always', ports: [{ name: 'admin', containerPort: 15000 }] },
				{ name: 'setup', ports: [{ name: 'setup', containerPort: 9999 }] },
			],
		},
	} as Pod;
	it.each([
		['a number is used as is, whether or not a container declares it', { port: 80, targetPort: 9000 }, 9000],
		['a name is looked up among the containers ports', { port: 80, targetPort: 'http' }, 8080],
		['a name must match the protocol too', { port: 53, targetPort: 'dns' }, undefined],
		['a UDP name matches a UDP port', { port: 53, targetPort: 'dns', protocol: 'UDP' }, 5353],
		['restartable init containers (sidecars) are searched', { port: 80, targetPort: 'admin' }, 15000],
		['ordinary init containers are not', { port: 80, targetPort: 'setup' }, undefined],
		['an unknown name does not resolve', { port: 80, targetPort: 'metrics' }, undefined],
	])('%s', (_name, servicePort, expected) => {
		expect(findPort(pod, servicePort)).toBe(expected);
	});
});

describe('endpointSlicePrefix', () => {
	it('is the Service name and a dash', () => {
		expect(endpointSlicePrefix('web')).toBe('web-');
	});
});

describe('formatRfc3339Nano', () => {
	it.each([
		[timeMs('2026-11-30T08:00:05Z'), '2026-11-30T08:00:05Z'],
		[timeMs('2026-11-30T08:00:05Z') + 250, '2026-11-30T08:00:05.25Z'],
	])('%d prints as %s (trailing zeros of the fraction dropped)', (ms, text) => {
		expect(formatRfc3339Nano(ms)).toBe(text);
	});
});

describe('sliceToFill', () => {
	const slice = (name: string, n: number) => ({ metadata: { name }, endpoints: Array.from({ length: n }, () => ({ addresses: ['10.0.0.1'] })) }) as WireEndpointSlice;
	it.each([
		['the slice closest to full once the endpoints are in', [slice('a', 10), slice('b', 60), slice('c', 95)], 5, 'c'],
		['a slice that would overflow is passed over', [slice('a', 10), slice('b', 60), slice('c', 96)], 5, 'b'],
		['none when nothing has room', [slice('a', 100)], 1, undefined],
	])('%s', (_name, slices, count, expected) => {
		expect(sliceToFill(slices, count, 100)?.metadata.name).toBe(expected);
	});
});

describe('the trigger time tracker', () => {
	const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'default', creationTimestamp: '2026-11-30T08:00:00Z' }, spec: {} } as Service;
	const pod = (name: string, readySince?: string) =>
		({ apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { containers: [] }, status: readySince ? { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: readySince }] } : {} }) as Pod;

	it('reports the Service creation time at the first sync, then the earliest change since the previous sync, and nothing when nothing changed', () => {
		const states: Record<string, TriggerTimeState> = {};
		expect(computeEndpointLastChangeTriggerTime(states, svc, [pod('a', '2026-11-30T08:00:10Z')])).toBe(timeMs('2026-11-30T08:00:00Z'));
		expect(computeEndpointLastChangeTriggerTime(states, svc, [pod('a', '2026-11-30T08:00:10Z')])).toBe(0);
		expect(computeEndpointLastChangeTriggerTime(states, svc, [pod('a', '2026-11-30T08:00:10Z'), pod('b', '2026-11-30T08:00:30Z'), pod('c', '2026-11-30T08:00:20Z')])).toBe(timeMs('2026-11-30T08:00:20Z'));
		// A Pod without a Ready condition triggers nothing.
		expect(computeEndpointLastChangeTriggerTime(states, svc, [pod('a', '2026-11-30T08:00:10Z'), pod('d')])).toBe(0);
	});
});

describe('which Services a Pod change concerns', () => {
	const svc = (name: string, selector?: Record<string, string>) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'default' }, spec: { selector } }) as Service;
	const services = [svc('web', { app: 'web' }), svc('canary', { track: 'canary' }), svc('manual'), svc('empty', {})];
	const pod = (rv: string, labels: Record<string, string>, extra: { ready?: boolean; ip?: string; deleting?: boolean; annotations?: Record<string, string> } = {}) =>
		({
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'p', namespace: 'default', resourceVersion: rv, labels, annotations: extra.annotations, deletionTimestamp: extra.deleting ? START : undefined },
			spec: { containers: [] },
			status: { podIPs: [{ ip: extra.ip ?? '10.244.1.5' }], conditions: [{ type: 'Ready', status: extra.ready === false ? 'False' : 'True' }] },
		}) as Pod;
	it.each([
		['nothing when the resourceVersion is the same (a resync)', pod('5', { app: 'web' }), pod('5', { app: 'web' }, { ready: false }), []],
		['nothing when only an annotation changed', pod('5', { app: 'web' }), pod('6', { app: 'web' }, { annotations: { a: 'b' } }), []],
		['the selecting Services when readiness changed', pod('5', { app: 'web' }), pod('6', { app: 'web' }, { ready: false }), ['default/web']],
		['the selecting Services when deletion started', pod('5', { app: 'web' }), pod('6', { app: 'web' }, { deleting: true }), ['default/web']],
		['the selecting Services when the IP changed', pod('5', { app: 'web' }), pod('6', { app: 'web' }, { ip: '10.244.1.6' }), ['default/web']],
		['only Services whose membership changed when only labels changed', pod('5', { app: 'web' }), pod('6', { app: 'web', track: 'canary' }), ['default/canary']],
		['old and new Services when labels and the endpoint changed', pod('5', { app: 'web' }), pod('6', { track: 'canary' }, { ready: false }), ['default/canary', 'default/web']],
	])('%s', (_name, before, after, expected) => {
		expect([...servicesToUpdateOnPodChange(services, before, after)].sort()).toEqual(expected);
	});

	it('tells endpoint changes from membership changes', () => {
		expect(podEndpointsChanged(pod('5', { app: 'web' }), pod('6', { app: 'web' }, { ready: false }))).toEqual({ podChanged: true, labelsChanged: false });
		expect(podEndpointsChanged(pod('5', { app: 'web' }), pod('6', { app: 'x' }))).toEqual({ podChanged: false, labelsChanged: true });
	});
});

// ---- the controller against a real API server ------------------------------------------------

describe('the EndpointSlice controller', () => {
	it('lists the ready Pods of a Service in one slice, labelled, owned and annotated as upstream does', () => {
		const env = setup();
		const pods = [runPod(env, 'web-a', '10.244.1.5'), runPod(env, 'web-b', '10.244.2.7', { node: 'node-2' }), runPod(env, 'other', '10.244.1.9', { app: 'other' })];
		const svc = createService(env, service('web'));
		env.advance(100);
		const slice = onlySlice(env, 'web');
		expect(slice.metadata.name).toMatch(/^web-[a-z0-9]{5}$/);
		expect(slice.metadata.generateName).toBe('web-');
		expect(slice.metadata.labels).toEqual({ app: 'web', [LABEL_SERVICE_NAME]: 'web', [LABEL_MANAGED_BY]: CONTROLLER_QUALIFIED_NAME });
		expect(slice.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Service', name: 'web', uid: svc.metadata.uid, controller: true, blockOwnerDeletion: true }]);
		// First sync of a Service: the trigger time is the Service's creation.
		expect(slice.metadata.annotations).toEqual({ [ANNOTATION_LAST_CHANGE_TRIGGER_TIME]: svc.metadata.creationTimestamp });
		expect(slice.addressType).toBe('IPv4');
		expect(slice.ports).toEqual([{ name: '', port: 8080, protocol: 'TCP' }]);
		const byName = Object.fromEntries((slice.endpoints ?? []).map((e) => [(e.targetRef as { name: string }).name, e]));
		expect(Object.keys(byName).sort()).toEqual(['web-a', 'web-b']);
		expect(byName['web-b']).toEqual({
			addresses: ['10.244.2.7'],
			conditions: { ready: true, serving: true, terminating: false },
			nodeName: 'node-2',
			zone: 'zone-b',
			targetRef: { kind: 'Pod', namespace: 'default', name: 'web-b', uid: pods[1].metadata.uid },
		});
	});

	it('follows readiness and termination, and keeps an empty placeholder slice once no Pod is left', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		runPod(env, 'web-b', '10.244.1.6');
		createService(env, service('web'));
		env.advance(100);
		const name = onlySlice(env, 'web').metadata.name;
		expect(summary(onlySlice(env, 'web'))).toEqual(['web-a 10.244.1.5 true/true/false', 'web-b 10.244.1.6 true/true/false']);

		env.advance(5_000);
		setReady(env, 'web-a', false);
		env.advance(100);
		// Not serving, so not ready; the trigger time is the Ready condition's transition.
		expect(summary(onlySlice(env, 'web'))).toEqual(['web-a 10.244.1.5 false/false/false', 'web-b 10.244.1.6 true/true/false']);
		const readyChange = env.kubectl.get<Pod>(R.pods, 'default', 'web-a');
		const transition = readyChange.ok ? readyChange.object.status?.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime : undefined;
		expect(onlySlice(env, 'web').metadata.annotations?.[ANNOTATION_LAST_CHANGE_TRIGGER_TIME]).toBe(transition);

		// A graceful deletion: still serving (its Ready condition says so) but terminating, hence not ready.
		expect(env.kubectl.delete(R.pods, 'default', 'web-b').ok).toBe(true);
		env.advance(100);
		expect(summary(onlySlice(env, 'web'))).toEqual(['web-a 10.244.1.5 false/false/false', 'web-b 10.244.1.6 false/true/true']);

		// The kubelet finishes both deletions.
		expect(env.kubectl.delete(R.pods, 'default', 'web-b', { gracePeriodSeconds: 0 }).ok).toBe(true);
		expect(env.kubectl.delete(R.pods, 'default', 'web-a', { gracePeriodSeconds: 0 }).ok).toBe(true);
		env.advance(100);
		const placeholder = onlySlice(env, 'web');
		// The same object, updated in place: no endpoints, no ports.
		expect(placeholder.metadata.name).toBe(name);
		expect(placeholder.endpoints).toBeNull();
		expect(placeholder.ports).toBeNull();
	});

	it('publishes not-ready Pods as ready when the Service asks for it', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5', { ready: false });
		createService(env, service('web', { publishNotReadyAddresses: true }));
		env.advance(100);
		expect(summary(onlySlice(env, 'web'))).toEqual(['web-a 10.244.1.5 true/false/false']);
	});

	it('resolves named target ports on each Pod and groups Pods by the ports they resolve to', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5', { ports: [{ name: 'http', containerPort: 8080 }] });
		runPod(env, 'web-b', '10.244.1.6', { ports: [{ name: 'http', containerPort: 9090 }] });
		runPod(env, 'web-c', '10.244.1.7');
		createService(env, service('web', { ports: [{ name: 'web', port: 80, targetPort: 'http' }] }));
		env.advance(100);
		const byPorts = Object.fromEntries(slicesOf(env, 'web').map((s) => [JSON.stringify(s.ports), summary(s)]));
		expect(byPorts).toEqual({
			[JSON.stringify([{ name: 'web', port: 8080, protocol: 'TCP' }])]: ['web-a 10.244.1.5 true/true/false'],
			[JSON.stringify([{ name: 'web', port: 9090, protocol: 'TCP' }])]: ['web-b 10.244.1.6 true/true/false'],
			// A Pod on which the port does not resolve is listed without ports.
			[JSON.stringify(null)]: ['web-c 10.244.1.7 true/true/false'],
		});
	});

	it('splits more than 100 endpoints into slices of at most 100, and puts a newcomer in the slice with room', () => {
		const env = setup();
		for (let i = 0; i < 250; i++) runPod(env, `web-${String(i).padStart(3, '0')}`, `10.244.${1 + Math.floor(i / 200)}.${(i % 200) + 2}`);
		createService(env, service('web'));
		env.advance(100);
		const sizes = () => slicesOf(env, 'web').map((s) => (s.endpoints ?? []).length).sort((a, b) => a - b);
		expect(sizes()).toEqual([50, 100, 100]);
		runPod(env, 'web-new', '10.244.9.9');
		env.advance(100);
		expect(sizes()).toEqual([51, 100, 100]);
	});

	it('honours --max-endpoints-per-slice', () => {
		const env = setup({ maxEndpointsPerSlice: 2 });
		for (const i of [1, 2, 3]) runPod(env, `web-${i}`, `10.244.1.${i + 1}`);
		createService(env, service('web'));
		env.advance(100);
		expect(slicesOf(env, 'web').map((s) => (s.endpoints ?? []).length).sort()).toEqual([1, 2]);
	});

	it('leaves Services without a selector alone', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		createService(env, service('manual', { selector: undefined }));
		env.advance(2_000);
		expect(slicesOf(env, 'manual')).toEqual([]);
		expect(env.kubectl.get(R.endpoints, 'default', 'manual').ok).toBe(false);
	});

	it('marks the slices of a headless Service and names endpoints after Pods whose subdomain is the Service', () => {
		const env = setup();
		const created = env.kubectl.create<Pod>(R.pods, 'default', {
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'db-0', namespace: 'default', labels: { app: 'db' } },
			spec: { nodeName: 'node-1', hostname: 'db-0', subdomain: 'db', containers: [{ name: 'main', image: 'postgres:17' }] },
		});
		expect(created.ok).toBe(true);
		setReady(env, 'db-0', true, '10.244.1.20');
		createService(env, service('db', { clusterIP: 'None', ports: undefined }));
		env.advance(100);
		const slice = onlySlice(env, 'db');
		expect(slice.metadata.labels).toEqual({ app: 'db', [LABEL_HEADLESS_SERVICE]: '', [LABEL_SERVICE_NAME]: 'db', [LABEL_MANAGED_BY]: CONTROLLER_QUALIFIED_NAME });
		expect(slice.ports).toBeNull();
		expect(slice.endpoints?.map((e) => [e.addresses, e.hostname])).toEqual([[['10.244.1.20'], 'db-0']]);
	});

	it('gives ExternalName Services no slices, even with a selector', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		createService(env, service('web', { type: 'ExternalName', externalName: 'web.example.com' }));
		env.advance(2_000);
		expect(slicesOf(env, 'web')).toEqual([]);
	});

	it('lets the garbage collector remove the slices of a deleted Service', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		createService(env, service('web'));
		env.advance(100);
		expect(slicesOf(env, 'web')).toHaveLength(1);
		expect(env.kubectl.delete(R.services, 'default', 'web').ok).toBe(true);
		env.advance(2_000);
		expect(slicesOf(env, 'web')).toEqual([]);
		const deletions = env.h.kernel.trace.events().filter((e) => e.component === 'kube-controller-manager' && e.object?.startsWith('endpointslices/') && e.sub !== 'garbagecollector' && e.action === 'delete');
		expect(deletions).toEqual([]);
	});

	it('writes nothing when a Pod change does not touch its endpoint', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		createService(env, service('web'));
		env.advance(100);
		const before = onlySlice(env, 'web').metadata.resourceVersion;
		const patched = env.kubectl.patch(R.pods, 'default', 'web-a', { metadata: { annotations: { note: 'hello' } } });
		expect(patched.ok).toBe(true);
		env.advance(100);
		// A Service update queues a sync, which finds the slices up to date.
		env.kubectl.patch(R.services, 'default', 'web', { metadata: { annotations: { note: 'hello' } } });
		env.advance(100);
		expect(onlySlice(env, 'web').metadata.resourceVersion).toBe(before);
		expect(env.h.kernel.trace.events().filter((e) => e.sub === 'endpointslice' && e.action === 'reconcile').at(-1)?.msg).toBe('service default/web: 1 endpoint; endpoint slices up to date');
	});

	it('copies the Service labels onto its slices', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		createService(env, service('web'));
		env.advance(100);
		env.kubectl.patch(R.services, 'default', 'web', { metadata: { labels: { tier: 'front' } } });
		env.advance(100);
		expect(onlySlice(env, 'web').metadata.labels).toEqual({ app: 'web', tier: 'front', [LABEL_SERVICE_NAME]: 'web', [LABEL_MANAGED_BY]: CONTROLLER_QUALIFIED_NAME });
	});

	it('recreates a slice someone deleted, at least a second later', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		createService(env, service('web'));
		env.advance(100);
		const old = onlySlice(env, 'web');
		expect(env.kubectl.delete(R.endpointslices, 'default', old.metadata.name ?? '').ok).toBe(true);
		env.advance(900);
		expect(slicesOf(env, 'web')).toEqual([]);
		env.advance(200);
		const fresh = onlySlice(env, 'web');
		expect(fresh.metadata.name).not.toBe(old.metadata.name);
		expect(summary(fresh)).toEqual(['web-a 10.244.1.5 true/true/false']);
	});

	it('leaves out a Pod whose Node is unknown, reports it, and retries with a back-off starting at one second', () => {
		const env = setup();
		runPod(env, 'web-a', '10.244.1.5');
		runPod(env, 'web-z', '10.244.7.5', { node: 'node-7' });
		createService(env, service('web'));
		env.advance(100);
		expect(summary(onlySlice(env, 'web'))).toEqual(['web-a 10.244.1.5 true/true/false']);
		const events = env.kubectl.list<CoreEvent>(R.events, 'default');
		const warning = events.ok ? events.object.items.find((e) => e.reason === 'FailedToUpdateEndpointSlices') : undefined;
		expect(warning?.type).toBe('Warning');
		expect(warning?.source).toEqual({ component: 'endpoint-slice-controller' });
		expect(warning?.message).toBe('Error updating Endpoint Slices for Service default/web: skipping Pod web-z for Service default/web: Node node-7 Not Found');
		// The node registers; no Node event wakes the Service, the retry does (1 s, then 2 s ...).
		env.kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-7' }, spec: {} });
		env.advance(1_000);
		expect(summary(onlySlice(env, 'web'))).toEqual(['web-a 10.244.1.5 true/true/false', 'web-z 10.244.7.5 true/true/false']);
	});

	it('batches Pod changes for --endpointslice-updates-batch-period', () => {
		const env = setup({ endpointSliceUpdatesBatchPeriodMs: 5_000 });
		runPod(env, 'web-a', '10.244.1.5');
		runPod(env, 'web-b', '10.244.1.6');
		createService(env, service('web'));
		env.advance(100);
		const rv = onlySlice(env, 'web').metadata.resourceVersion;
		setReady(env, 'web-a', false);
		env.advance(1_000);
		setReady(env, 'web-b', false);
		env.advance(3_800);
		expect(onlySlice(env, 'web').metadata.resourceVersion).toBe(rv);
		env.advance(300);
		const slice = onlySlice(env, 'web');
		expect(summary(slice)).toEqual(['web-a 10.244.1.5 false/false/false', 'web-b 10.244.1.6 false/false/false']);
		// Both changes in one write.
		expect(Number(slice.metadata.resourceVersion)).toBeGreaterThan(Number(rv));
		const writes = env.h.kernel.trace.events().filter((e) => e.component === 'kube-apiserver' && e.action === 'put' && e.object?.startsWith('/registry/endpointslices/'));
		expect(writes).toHaveLength(2);
	});
});

// ---- the whole cluster ---------------------------------------------------------------------

describe('endpoints in a booted cluster', () => {
	it('gives an exposed Deployment one slice with its three Pods, and warns on v1 Endpoints', () => {
		const c = createCluster();
		expect(c.exec('kubectl create deployment web --image=nginx:1.27 --replicas=3').exitCode).toBe(0);
		expect(c.exec('kubectl expose deployment web --port 80')).toMatchObject({ stdout: 'service/web exposed\n', exitCode: 0 });
		c.settle({ maxMs: 120_000 });
		const got = c.exec('kubectl get endpointslices');
		expect(got.exitCode).toBe(0);
		const lines = got.stdout.trimEnd().split('\n');
		expect(lines[0]).toMatch(/^NAME\s+ADDRESSTYPE\s+PORTS\s+ENDPOINTS\s+AGE$/);
		const web = lines.filter((l) => l.startsWith('web-'));
		expect(web).toHaveLength(1);
		const pods = (c.list('pods', 'default') as Pod[]).filter((p) => p.metadata.labels?.app === 'web');
		expect(pods).toHaveLength(3);
		const ips = pods.map((p) => p.status?.podIP ?? '').sort();
		const [name, addressType, ports, endpoints] = web[0].split(/\s+/);
		expect(name).toMatch(/^web-[a-z0-9]{5}$/);
		expect(addressType).toBe('IPv4');
		expect(ports).toBe('80');
		expect(endpoints.split(',').sort()).toEqual(ips);

		const ep = c.exec('kubectl get endpoints web');
		expect(ep.stderr).toBe('Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n');
		expect(ep.stdout.split('\n')[0]).toMatch(/^NAME\s+ENDPOINTS\s+AGE$/);
		const [epName, epList] = ep.stdout.split('\n')[1].split(/\s+/);
		expect(epName).toBe('web');
		expect(epList.split(',').sort()).toEqual(ips.map((ip) => `${ip}:80`).sort());

		// Each controller writes as its own service account, allowed by its bootstrap ClusterRole.
		const allowed = c.trace().filter((e) => e.action === 'authorize' && e.msg.startsWith('RBAC allowed'));
		expect(allowed.some((e) => e.msg.startsWith('RBAC allowed system:serviceaccount:kube-system:endpointslice-controller to create endpointslices: RBAC: allowed by ClusterRoleBinding "system:controller:endpointslice-controller"'))).toBe(true);
		expect(allowed.some((e) => e.msg.startsWith('RBAC allowed system:serviceaccount:kube-system:endpoint-controller to create endpoints: RBAC: allowed by ClusterRoleBinding "system:controller:endpoint-controller"'))).toBe(true);
	});
});
