/**
 * The kubelet and its container runtime against a real etcd and
 * kube-apiserver (testing/api-harness.ts). The tests play the scheduler
 * (pods are created with spec.nodeName set) and the operator (stopping
 * processes); expected values come from upstream behaviour and wording
 * (FACTS.md A and B) and from the documented simulation constants.
 */
import { describe, expect, it } from 'vitest';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.ts';
import { ContainerRuntime, PULL_BYTES_PER_MS, PULL_OVERHEAD_MS, SANDBOX_SETUP_MS, type SystemContainerHooks } from '../runtime/container-runtime.ts';
import { emptyRuntimeHostState, type RuntimeHostState } from '../runtime/host-state.ts';
import { Kubelet, type KubeletDeps } from './kubelet.ts';
import { emptyKubeletUnitRecord } from '../host/systemd/records.ts';
import { R } from '../client/client.ts';
import type { CoreEvent, Lease, Node, Pod } from '../api/types.ts';
import type { Strategy } from '../apiserver/registry/strategy.ts';
import { parseRfc3339 } from '../golang/time.ts';

/** The parts of the pod registry the kubelet relies on: the spec.nodeName field selector, graceful deletion, the status subresource. */
const podStrategy: Strategy = {
	hasStatusSubresource: true,
	fields: (o) => ({ 'spec.nodeName': (o.spec as { nodeName?: string }).nodeName ?? '' }),
	gracePeriodSeconds: (o, requested) => requested ?? o.metadata.deletionGracePeriodSeconds ?? (o.spec as { terminationGracePeriodSeconds?: number }).terminationGracePeriodSeconds ?? 30,
};

const NODE = 'node-1';
const NODE_IP = '192.168.56.11';

interface Rig {
	h: ApiHarness;
	runtime: ContainerRuntime;
	kubelet: Kubelet;
	runtimeHost: RuntimeHostState;
	tester: ReturnType<ApiHarness['client']>;
}

function rig(options: { manifests?: () => Array<{ path: string; text: string }>; hooks?: SystemContainerHooks; startApi?: boolean; config?: KubeletDeps['config'] } = {}): Rig {
	const h = createApiHarness({ deps: { strategies: { '/pods': podStrategy, '/nodes': { hasStatusSubresource: true, allowStatusOnCreate: true } } } });
	if (options.startApi === false) h.kernel.stop('kube-apiserver');
	h.transport.enroll(`kubelet/${NODE}`, { username: `system:node:${NODE}`, groups: ['system:nodes', 'system:authenticated'] }, NODE);
	const runtimeHost = emptyRuntimeHostState(NODE, NODE_IP, '10.244.1.0/24');
	const runtime = new ContainerRuntime(h.kernel, NODE, { host: runtimeHost, hooks: options.hooks });
	const kubelet = new Kubelet(h.kernel, {
		nodeName: NODE,
		nodeIp: NODE_IP,
		podCidr: '10.244.1.0/24',
		capacity: { cpu: '2', memory: '4Gi' },
		runtime,
		client: h.client(`kubelet/${NODE}`),
		host: emptyKubeletUnitRecord(),
		staticPodManifests: options.manifests,
		config: options.config,
	});
	h.kernel.register(runtime);
	h.kernel.register(kubelet);
	h.kernel.start(runtime.id);
	h.kernel.start(kubelet.id);
	return { h, runtime, kubelet, runtimeHost, tester: h.client('tester') };
}

function createPod(r: Rig, name: string, spec: Record<string, unknown>, metadata: Record<string, unknown> = {}): void {
	const created = r.tester.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name, ...metadata }, spec: { nodeName: NODE, ...spec } });
	expect(created.ok).toBe(true);
}

function getPod(r: Rig, name: string): Pod | undefined {
	const got = r.tester.get<Pod>(R.pods, 'default', name);
	return got.ok ? got.object : undefined;
}

function events(r: Rig, name: string): CoreEvent[] {
	const listed = r.tester.list<CoreEvent>(R.events, 'default');
	if (!listed.ok) return [];
	return listed.object.items.filter((e) => e.involvedObject.name === name).sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

const START = parseRfc3339('2026-11-30T08:00:00Z');

describe('the kubelet runs a pod through the container runtime', () => {
	it('brings an nginx pod to Running and Ready with the events Pulling, Pulled, Created, Started', () => {
		const r = rig();
		r.h.advance(1_000);
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.14.2', ports: [{ containerPort: 80 }] }] });
		r.h.advance(10_000);
		const pod = getPod(r, 'web')!;
		expect(pod.status?.phase).toBe('Running');
		expect(pod.status?.conditions?.map((c) => `${c.type}=${c.status}`)).toEqual(['PodReadyToStartContainers=True', 'Initialized=True', 'Ready=True', 'ContainersReady=True', 'PodScheduled=True']);
		const cs = pod.status!.containerStatuses![0];
		expect(cs.ready).toBe(true);
		expect(cs.started).toBe(true);
		expect(cs.restartCount).toBe(0);
		expect(cs.image).toBe('docker.io/library/nginx:1.14.2');
		expect(cs.imageID).toMatch(/^docker\.io\/library\/nginx@sha256:[0-9a-f]{64}$/);
		expect(cs.containerID).toMatch(/^containerd:\/\/[0-9a-f]{64}$/);
		expect(pod.status?.podIP).toBe('10.244.1.2');
		expect(pod.status?.hostIP).toBe(NODE_IP);
		expect(pod.status?.qosClass).toBe('BestEffort');
		// 44.71 MB at the documented throughput plus the fixed cost.
		const pullMs = PULL_OVERHEAD_MS + Math.round(44_710_000 / PULL_BYTES_PER_MS);
		expect(pullMs).toBe(2736);
		expect(events(r, 'web').map((e) => [e.type, e.reason, e.involvedObject.fieldPath, e.message, e.source?.component])).toEqual([
			['Normal', 'Pulling', 'spec.containers{nginx}', 'Pulling image "nginx:1.14.2"', 'kubelet'],
			['Normal', 'Pulled', 'spec.containers{nginx}', 'Successfully pulled image "nginx:1.14.2" in 2.736s (2.736s including waiting). Image size: 44710000 bytes.', 'kubelet'],
			['Normal', 'Created', 'spec.containers{nginx}', 'Container created', 'kubelet'],
			['Normal', 'Started', 'spec.containers{nginx}', 'Container started', 'kubelet'],
		]);
		// Started = pod seen + pause pull + sandbox set-up + image pull.
		const pausePullMs = PULL_OVERHEAD_MS + Math.round(320_450 / PULL_BYTES_PER_MS);
		const seenAt = START + 1_000 + 2;
		expect(parseRfc3339(cs.state!.running!.startedAt!)).toBe(Math.floor((seenAt + pausePullMs + SANDBOX_SETUP_MS + pullMs) / 1000) * 1000);
	});

	it('reports an image already on the node as present, with no pull', () => {
		const r = rig();
		r.runtime.preload('nginx:1.25');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.25' }] });
		r.h.advance(5_000);
		expect(events(r, 'web').map((e) => e.message)).toEqual(['Container image "nginx:1.25" already present on machine and can be accessed by the pod', 'Container created', 'Container started']);
	});

	it('shows ErrImagePull, then ImagePullBackOff, for a tag that does not exist', () => {
		const r = rig();
		createPod(r, 'bad', { containers: [{ name: 'app', image: 'nginx:1.99' }] });
		const reasons: string[] = [];
		for (let i = 0; i < 40; i++) {
			r.h.advance(250);
			const reason = getPod(r, 'bad')?.status?.containerStatuses?.[0]?.state?.waiting?.reason;
			if (reason && reasons[reasons.length - 1] !== reason) reasons.push(reason);
		}
		expect(reasons.slice(0, 3)).toEqual(['ContainerCreating', 'ErrImagePull', 'ImagePullBackOff']);
		const error = 'rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginx:1.99": failed to resolve reference "docker.io/library/nginx:1.99": docker.io/library/nginx:1.99: not found';
		const waiting = getPod(r, 'bad')!.status!.containerStatuses![0].state!.waiting!;
		expect(waiting).toEqual({ reason: 'ImagePullBackOff', message: `Back-off pulling image "nginx:1.99": ErrImagePull: ${error}` });
		expect(getPod(r, 'bad')!.status!.phase).toBe('Pending');
		expect(events(r, 'bad').map((e) => [e.type, e.reason, e.message])).toEqual([
			['Normal', 'Pulling', 'Pulling image "nginx:1.99"'],
			['Warning', 'Failed', `Failed to pull image "nginx:1.99": ${error}`],
			['Warning', 'Failed', 'Error: ErrImagePull'],
			['Normal', 'BackOff', 'Back-off pulling image "nginx:1.99"'],
			['Warning', 'Failed', 'Error: ImagePullBackOff'],
		]);
	});

	it('reports a repository the registry mirror does not carry as not found', () => {
		const r = rig();
		createPod(r, 'bad', { containers: [{ name: 'app', image: 'nginxx' }] });
		r.h.advance(3_000);
		const failed = events(r, 'bad').find((e) => e.message?.startsWith('Failed to pull image'));
		expect(failed?.message).toBe(
			'Failed to pull image "nginxx": rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/library/nginxx:latest": failed to resolve reference "docker.io/library/nginxx:latest": docker.io/library/nginxx:latest: not found',
		);
	});

	it('restarts a crashing container after 10, 20 and 40 s, in CrashLoopBackOff meanwhile', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'crash', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'echo starting; exit 1'] }] });
		r.h.advance(120_000);
		const containers = Object.values(r.runtimeHost.containers)
			.filter((c) => c.name === 'app')
			.sort((a, b) => a.attempt - b.attempt);
		const starts = containers.map((c) => c.startedMs!);
		const gaps = starts.slice(1).map((s, i) => s - starts[i]);
		// The first restart is immediate (no back-off entry yet), then 10 s, 20 s, 40 s.
		expect(gaps.slice(0, 4)).toEqual([0, 10_000, 20_000, 40_000]);
		const pod = getPod(r, 'crash')!;
		const cs = pod.status!.containerStatuses![0];
		expect(pod.status!.phase).toBe('Running');
		expect(cs.state?.waiting?.reason).toBe('CrashLoopBackOff');
		expect(cs.state?.waiting?.message).toBe(`back-off 1m20s restarting failed container=app pod=crash_default(${pod.metadata.uid})`);
		expect(cs.lastState?.terminated?.exitCode).toBe(1);
		expect(cs.lastState?.terminated?.reason).toBe('Error');
		expect(cs.restartCount).toBe(4);
		const backoff = events(r, 'crash').find((e) => e.reason === 'BackOff')!;
		expect(backoff.type).toBe('Warning');
		expect(backoff.message).toBe(`Back-off restarting failed container app in pod crash_default(${pod.metadata.uid})`);
		expect(r.kubelet.serveLog('default', 'crash', undefined)).toEqual({ ok: true, value: 'starting\n' });
	});

	it('runs init containers first, in order, then the app container', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'init', {
			initContainers: [
				{ name: 'first', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 2'] },
				{ name: 'second', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 3'] },
			],
			containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }],
		});
		r.h.advance(2_000);
		let pod = getPod(r, 'init')!;
		expect(pod.status!.phase).toBe('Pending');
		expect(pod.status!.initContainerStatuses!.map((s) => Object.keys(s.state!)[0])).toEqual(['running', 'waiting']);
		expect(pod.status!.containerStatuses![0].state?.waiting?.reason).toBe('PodInitializing');
		expect(pod.status!.conditions!.find((c) => c.type === 'Initialized')).toMatchObject({ status: 'False', reason: 'ContainersNotInitialized', message: 'containers with incomplete status: [first second]' });
		r.h.advance(6_000);
		pod = getPod(r, 'init')!;
		expect(pod.status!.phase).toBe('Running');
		expect(pod.status!.initContainerStatuses!.map((s) => s.state?.terminated?.reason)).toEqual(['Completed', 'Completed']);
		const [first, second, app] = ['first', 'second', 'app'].map((n) => Object.values(r.runtimeHost.containers).find((c) => c.name === n)!);
		expect(second.startedMs).toBe(first.finishedMs);
		expect(app.startedMs).toBe(second.finishedMs);
	});

	it('replaces a container whose image was changed in the pod spec', () => {
		const r = rig();
		r.runtime.preload('nginx:1.24');
		r.runtime.preload('nginx:1.25');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.24' }] });
		r.h.advance(3_000);
		// Objects served by the API are frozen: edit a copy, as client-go's DeepCopy rule says.
		const pod: Pod = JSON.parse(JSON.stringify(getPod(r, 'web')));
		pod.spec.containers[0].image = 'nginx:1.25';
		expect(r.tester.update(R.pods, pod).ok).toBe(true);
		r.h.advance(3_000);
		const cs = getPod(r, 'web')!.status!.containerStatuses![0];
		expect(cs.image).toBe('docker.io/library/nginx:1.25');
		expect(cs.restartCount).toBe(1);
		expect(events(r, 'web').find((e) => e.reason === 'Killing')?.message).toBe('Container nginx definition changed, will be restarted');
	});

	it('starts a sidecar (restartable init container) and keeps it running beside the app', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'with-sidecar', {
			initContainers: [
				{ name: 'setup', image: 'busybox:1.36', command: ['sh', '-c', 'sleep 1'] },
				{ name: 'logger', image: 'busybox:1.36', restartPolicy: 'Always', command: ['sh', '-c', 'while true; do sleep 5; done'] },
			],
			containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }],
		});
		r.h.advance(5_000);
		const pod = getPod(r, 'with-sidecar')!;
		expect(pod.status!.phase).toBe('Running');
		expect(pod.status!.initContainerStatuses!.map((s) => [s.name, Object.keys(s.state!)[0], s.ready])).toEqual([
			['setup', 'terminated', true],
			['logger', 'running', true],
		]);
		expect(pod.status!.conditions!.filter((c) => c.status !== 'True')).toEqual([]);
	});

	it('marks a pod with restartPolicy Never whose container exits 0 as Succeeded', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'job', { restartPolicy: 'Never', containers: [{ name: 'main', image: 'busybox:1.36', command: ['sh', '-c', 'echo hello; sleep 5'] }] });
		r.h.advance(3_000);
		expect(getPod(r, 'job')!.status!.phase).toBe('Running');
		r.h.advance(5_000);
		const pod = getPod(r, 'job')!;
		expect(pod.status!.phase).toBe('Succeeded');
		expect(pod.status!.containerStatuses![0].state?.terminated).toMatchObject({ exitCode: 0, reason: 'Completed' });
		expect(pod.status!.conditions!.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'PodCompleted' });
	});

	it('rejects a pod asking for more cpu than the node has, as OutOfcpu', () => {
		const r = rig();
		r.h.advance(1_000);
		createPod(r, 'big', { containers: [{ name: 'app', image: 'nginx', resources: { requests: { cpu: '3' } } }] });
		r.h.advance(1_000);
		const pod = getPod(r, 'big')!;
		expect(pod.status).toMatchObject({ phase: 'Failed', reason: 'OutOfcpu', message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000", qosClass: 'Burstable' });
		expect(events(r, 'big').map((e) => [e.type, e.reason, e.message])).toEqual([['Warning', 'OutOfcpu', "Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000"]]);
		expect(Object.keys(r.runtimeHost.sandboxes)).toEqual([]);
		// A rejected pod is terminal: deleting it completes at once.
		r.tester.delete(R.pods, 'default', 'big');
		r.h.advance(100);
		expect(getPod(r, 'big')).toBeUndefined();
	});
});

describe('deleting a pod', () => {
	it('stops nginx at once (it handles SIGQUIT) and removes the pod with a final delete', () => {
		const r = rig();
		r.runtime.preload('nginx:1.27');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.27' }] });
		r.h.advance(3_000);
		const uid = getPod(r, 'web')!.metadata.uid;
		expect(r.tester.delete(R.pods, 'default', 'web').ok).toBe(true);
		expect(getPod(r, 'web')?.metadata.deletionGracePeriodSeconds).toBe(30);
		r.h.advance(1_000);
		expect(getPod(r, 'web')).toBeUndefined();
		const killing = events(r, 'web').find((e) => e.reason === 'Killing')!;
		expect([killing.type, killing.message, killing.involvedObject.fieldPath]).toEqual(['Normal', 'Stopping container nginx', 'spec.containers{nginx}']);
		const c = Object.values(r.runtimeHost.containers).find((x) => x.podUid === uid);
		expect(c).toBeUndefined();
		expect(Object.values(r.runtimeHost.sandboxes).filter((s) => s.podUid === uid)).toEqual([]);
	});

	it('waits the whole grace period for busybox sleep, which ignores SIGTERM as PID 1', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'sleeper', { terminationGracePeriodSeconds: 10, containers: [{ name: 'app', image: 'busybox:1.36', command: ['sleep', '3600'] }] });
		r.h.advance(3_000);
		const uid = getPod(r, 'sleeper')!.metadata.uid!;
		const deletedAt = r.h.kernel.nowMs;
		r.tester.delete(R.pods, 'default', 'sleeper');
		// The kubelet sees the deletion one watch hop (2 ms) later and stops the container with the
		// remaining grace, ceil(9.998 s) = 10 s; SIGTERM is ignored, SIGKILL lands 10 s later.
		r.h.advance(9_900);
		expect(getPod(r, 'sleeper')?.metadata.deletionTimestamp).toBeDefined();
		expect(Object.values(r.runtimeHost.containers).find((c) => c.podUid === uid)?.state).toBe('CONTAINER_RUNNING');
		expect(r.runtimeHost.journal.join('\n')).toContain('with timeout 10 (s)');
		r.h.advance(200);
		expect(getPod(r, 'sleeper')).toBeUndefined();
		expect(r.h.kernel.nowMs - deletedAt).toBe(10_100);
	});
});

describe('node registration, status and lease', () => {
	it('registers the Node with the kubelet labels, capacity and allocatable', () => {
		const r = rig();
		r.h.advance(1_000);
		const node = r.tester.get<Node>(R.nodes, undefined, NODE);
		expect(node.ok).toBe(true);
		const n = (node as { object: Node }).object;
		expect(n.metadata.labels).toEqual({ 'beta.kubernetes.io/arch': 'amd64', 'beta.kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64', 'kubernetes.io/hostname': NODE, 'kubernetes.io/os': 'linux' });
		expect(n.status?.capacity).toEqual({ cpu: '2', 'ephemeral-storage': '100Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '4Gi', pods: '110' });
		expect(n.status?.allocatable).toEqual({ cpu: '2', 'ephemeral-storage': '90Gi', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory: '3996Mi', pods: '110' });
		expect(n.status?.addresses).toEqual([
			{ type: 'InternalIP', address: NODE_IP },
			{ type: 'Hostname', address: NODE },
		]);
		expect(n.status?.daemonEndpoints).toEqual({ kubeletEndpoint: { Port: 10250 } });
		expect(n.status?.nodeInfo?.kubeletVersion).toBe('v1.36.3');
		expect(n.status?.nodeInfo?.containerRuntimeVersion).toBe('containerd://2.2.1');
		const ready = n.status?.conditions?.find((c) => c.type === 'Ready');
		expect(ready).toMatchObject({ status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' });
		expect(n.status?.conditions?.map((c) => c.type)).toEqual(['MemoryPressure', 'DiskPressure', 'PIDPressure', 'Ready']);
		expect(n.status?.conditions?.[0]).toMatchObject({ status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' });
	});

	it('retries registration with back-off while the API server is down', () => {
		const r = rig({ startApi: false });
		r.h.advance(5_000);
		const journal = r.kubelet.hostState.journal.map((j) => j.line);
		expect(journal.filter((l) => l.includes('Node registration failed')).length).toBeGreaterThanOrEqual(5);
		expect(journal.find((l) => l.includes('Node registration failed'))).toContain('err="Post \\"https://192.168.56.10:6443/api/v1/nodes\\": dial tcp 192.168.56.10:6443: connect: connection refused"');
		r.h.kernel.start('kube-apiserver');
		r.h.advance(8_000);
		expect(r.tester.get(R.nodes, undefined, NODE).ok).toBe(true);
	});

	it('renews the Lease every 10 s, and stops when the kubelet stops while the container keeps running', () => {
		const r = rig();
		r.runtime.preload('nginx:1.27');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.27' }] });
		r.h.advance(25_000);
		const lease = (r.tester.get<Lease>(R.leases, 'kube-node-lease', NODE) as { object: Lease }).object;
		expect(lease.spec.holderIdentity).toBe(NODE);
		expect(lease.spec.leaseDurationSeconds).toBe(40);
		expect(parseRfc3339(lease.spec.renewTime!)).toBe(START + 20_000);
		r.h.kernel.stop(r.kubelet.id);
		r.h.advance(60_000);
		const after = (r.tester.get<Lease>(R.leases, 'kube-node-lease', NODE) as { object: Lease }).object;
		expect(after.spec.renewTime).toBe(lease.spec.renewTime);
		const container = Object.values(r.runtimeHost.containers).find((c) => c.name === 'nginx')!;
		expect(r.runtime.containerStatus(container.id)).toMatchObject({ ok: true, value: { state: 'CONTAINER_RUNNING' } });
		expect(r.kubelet.hostState.service.active).toBe(false);
	});

	it('reports the node NotReady when containerd stops, while its containers keep running', () => {
		const r = rig();
		r.runtime.preload('nginx:1.27');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.27' }] });
		r.h.advance(5_000);
		r.h.kernel.stop(r.runtime.id);
		r.h.advance(40_000);
		const n = (r.tester.get<Node>(R.nodes, undefined, NODE) as { object: Node }).object;
		expect(n.status?.conditions?.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'KubeletNotReady', message: 'container runtime is down' });
		expect(Object.values(r.runtimeHost.containers).find((c) => c.name === 'nginx')?.state).toBe('CONTAINER_RUNNING');
		expect(r.runtime.listImages()).toEqual({ ok: false, error: { code: 'Unavailable', desc: 'connection error: desc = "transport: Error while dialing: dial unix /var/run/containerd/containerd.sock: connect: connection refused"' } });
		r.h.kernel.start(r.runtime.id);
		r.h.advance(10_000);
		const back = (r.tester.get<Node>(R.nodes, undefined, NODE) as { object: Node }).object;
		expect(back.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
	});

	it('posts an unchanged node status only every 5 minutes, while the heartbeat goes to the Lease', () => {
		const r = rig();
		r.h.advance(2_000);
		const first = (r.tester.get<Node>(R.nodes, undefined, NODE) as { object: Node }).object;
		r.h.advance(250_000);
		const later = (r.tester.get<Node>(R.nodes, undefined, NODE) as { object: Node }).object;
		expect(later.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
		r.h.advance(60_000);
		const reported = (r.tester.get<Node>(R.nodes, undefined, NODE) as { object: Node }).object;
		expect(reported.metadata.resourceVersion).not.toBe(first.metadata.resourceVersion);
		const heartbeat = parseRfc3339(reported.status!.conditions!.find((c) => c.type === 'Ready')!.lastHeartbeatTime!);
		// Posted at the first 10 s tick at or after 5 min since the last post (t ≈ 0.1 s).
		expect(heartbeat).toBe(START + 300_000);
	});

	it('adopts running containers after a kubelet restart instead of restarting them', () => {
		const r = rig();
		r.runtime.preload('nginx:1.27');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.27' }] });
		r.h.advance(5_000);
		const before = getPod(r, 'web')!.status!.containerStatuses![0];
		r.h.kernel.stop(r.kubelet.id);
		r.h.advance(30_000);
		r.h.kernel.start(r.kubelet.id);
		r.h.advance(10_000);
		const after = getPod(r, 'web')!.status!.containerStatuses![0];
		expect(after.containerID).toBe(before.containerID);
		expect(after.restartCount).toBe(0);
		expect(after.ready).toBe(true);
		expect(Object.values(r.runtimeHost.containers).filter((c) => c.name === 'nginx')).toHaveLength(1);
	});
});

describe('probes', () => {
	it('restarts the container of the kubernetes.io exec liveness example when /tmp/healthy disappears', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'liveness-exec', {
			containers: [
				{
					name: 'liveness',
					image: 'busybox:1.36',
					args: ['/bin/sh', '-c', 'touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600'],
					livenessProbe: { exec: { command: ['cat', '/tmp/healthy'] }, initialDelaySeconds: 5, periodSeconds: 5 },
				},
			],
		});
		r.h.advance(30_000);
		expect(events(r, 'liveness-exec').filter((e) => e.reason === 'Unhealthy')).toEqual([]);
		r.h.advance(50_000);
		const unhealthy = events(r, 'liveness-exec').find((e) => e.reason === 'Unhealthy')!;
		expect([unhealthy.type, unhealthy.message]).toEqual(['Warning', "Liveness probe failed: cat: can't open '/tmp/healthy': No such file or directory\n"]);
		expect(unhealthy.count).toBe(3);
		const killing = events(r, 'liveness-exec').find((e) => e.reason === 'Killing')!;
		expect(killing.message).toBe('Container liveness failed liveness probe, will be restarted');
		expect(getPod(r, 'liveness-exec')!.status!.containerStatuses![0].restartCount).toBe(1);
	});

	it('keeps a container unready while its readiness probe answers 500, ready when it answers 200', () => {
		const r = rig();
		r.runtime.preload('nginx:1.27');
		createPod(r, 'good', { containers: [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 5 } }] });
		createPod(r, 'failing', { containers: [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/fail', port: 80 }, periodSeconds: 5 } }] });
		r.h.advance(20_000);
		expect(getPod(r, 'good')!.status!.containerStatuses![0].ready).toBe(true);
		const failing = getPod(r, 'failing')!;
		expect(failing.status!.containerStatuses![0].ready).toBe(false);
		expect(failing.status!.conditions!.find((c) => c.type === 'Ready')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [nginx]' });
		expect(events(r, 'failing').find((e) => e.reason === 'Unhealthy')?.message).toBe('Readiness probe failed: HTTP probe failed with statuscode: 500');
		// nginx wrote an access-log line for each probe.
		expect(r.kubelet.serveLog('default', 'good', 'nginx', { tailLines: 1 })).toMatchObject({ ok: true, value: expect.stringContaining('"GET / HTTP/1.1" 200') });
	});
});

describe('static pods and mirror pods', () => {
	const manifest = `apiVersion: v1
kind: Pod
metadata:
  name: web
  namespace: kube-system
  labels:
    tier: demo
spec:
  containers:
  - name: nginx
    image: nginx:1.27
`;

	it('runs a static pod without the API server and publishes its mirror pod once the API server is up', () => {
		const r = rig({ startApi: false, manifests: () => [{ path: '/etc/kubernetes/manifests/web.yaml', text: manifest }] });
		r.runtime.preload('nginx:1.27');
		r.h.advance(5_000);
		const running = Object.values(r.runtimeHost.containers).filter((c) => c.name === 'nginx' && c.state === 'CONTAINER_RUNNING');
		expect(running).toHaveLength(1);
		expect(running[0].podName).toBe(`web-${NODE}`);
		r.h.kernel.start('kube-apiserver');
		r.h.advance(40_000);
		const mirror = r.tester.get<Pod>(R.pods, 'kube-system', `web-${NODE}`);
		expect(mirror.ok).toBe(true);
		const m = (mirror as { object: Pod }).object;
		const hash = running[0].podUid;
		expect(m.metadata.annotations).toMatchObject({ 'kubernetes.io/config.hash': hash, 'kubernetes.io/config.mirror': hash, 'kubernetes.io/config.source': 'file' });
		expect(m.metadata.annotations!['kubernetes.io/config.seen']).toMatch(/^2026-11-30T08:00:00\.\d+Z$/);
		const node = (r.tester.get<Node>(R.nodes, undefined, NODE) as { object: Node }).object;
		expect(m.metadata.ownerReferences).toEqual([{ apiVersion: 'v1', kind: 'Node', name: NODE, uid: node.metadata.uid, controller: true }]);
		expect(m.metadata.uid).not.toBe(hash);
		expect(m.status?.phase).toBe('Running');
		expect(m.spec.tolerations).toEqual([{ operator: 'Exists', effect: 'NoExecute' }]);
		// The container was not restarted to publish the mirror.
		expect(Object.values(r.runtimeHost.containers).filter((c) => c.name === 'nginx')).toHaveLength(1);
	});

	it('stops the static pod and deletes its mirror pod when the manifest is removed', () => {
		let files = [{ path: '/etc/kubernetes/manifests/web.yaml', text: manifest }];
		const r = rig({ manifests: () => files });
		r.runtime.preload('nginx:1.27');
		r.h.advance(10_000);
		expect(r.tester.get(R.pods, 'kube-system', `web-${NODE}`).ok).toBe(true);
		files = [];
		// The directory is read again within fileCheckFrequency (20 s); nginx stops at once.
		r.h.advance(21_000);
		expect(r.tester.get(R.pods, 'kube-system', `web-${NODE}`).ok).toBe(false);
		expect(Object.values(r.runtimeHost.containers)).toEqual([]);
	});

	it('publishes the mirror pod again when someone deletes it, without touching the static pod', () => {
		const r = rig({ manifests: () => [{ path: '/etc/kubernetes/manifests/web.yaml', text: manifest }] });
		r.runtime.preload('nginx:1.27');
		r.h.advance(10_000);
		const before = (r.tester.get<Pod>(R.pods, 'kube-system', `web-${NODE}`) as { object: Pod }).object;
		r.tester.delete(R.pods, 'kube-system', `web-${NODE}`, { gracePeriodSeconds: 0 });
		r.h.advance(3_000);
		const after = (r.tester.get<Pod>(R.pods, 'kube-system', `web-${NODE}`) as { object: Pod }).object;
		expect(after.metadata.uid).not.toBe(before.metadata.uid);
		expect(Object.values(r.runtimeHost.containers).filter((c) => c.name === 'nginx')).toHaveLength(1);
	});

	it('starts and stops the control-plane process of a system image through the runtime hooks', () => {
		const calls: string[] = [];
		let failing = false;
		const hooks: SystemContainerHooks = {
			onSystemContainerStart: (node, c) => calls.push(`start ${node} ${c}`),
			onSystemContainerStop: (node, c) => calls.push(`stop ${node} ${c}`),
			isComponentFailing: () => failing,
		};
		const scheduler = `apiVersion: v1
kind: Pod
metadata:
  name: kube-scheduler
  namespace: kube-system
spec:
  hostNetwork: true
  containers:
  - name: kube-scheduler
    image: registry.k8s.io/kube-scheduler:v1.36.3
    command: ["kube-scheduler", "--kubeconfig=/etc/kubernetes/scheduler.conf", "--leader-elect=true"]
`;
		const r = rig({ hooks, manifests: () => [{ path: '/etc/kubernetes/manifests/kube-scheduler.yaml', text: scheduler }] });
		r.runtime.preload('registry.k8s.io/kube-scheduler:v1.36.3');
		r.h.advance(3_000);
		expect(calls).toEqual([`start ${NODE} kube-scheduler`]);
		failing = true;
		const c = Object.values(r.runtimeHost.containers).find((x) => x.name === 'kube-scheduler')!;
		expect(r.runtime.markComponentExited('kube-scheduler', 1)).toBe(true);
		r.h.advance(30_000);
		// It died; restarts while the fault lasts exit 1 at once: CrashLoopBackOff.
		const latest = Object.values(r.runtimeHost.containers)
			.filter((x) => x.name === 'kube-scheduler')
			.sort((a, b) => b.attempt - a.attempt)[0];
		expect(latest.id).not.toBe(c.id);
		expect(latest.exitCode).toBe(1);
		expect(calls).toEqual([`start ${NODE} kube-scheduler`]);
		failing = false;
		r.h.advance(60_000);
		expect(calls).toEqual([`start ${NODE} kube-scheduler`, `start ${NODE} kube-scheduler`]);
	});
});

describe('container endings', () => {
	it('reports OOMKilled when the polinux/stress example allocates past its memory limit', () => {
		const r = rig();
		r.runtime.preload('polinux/stress');
		createPod(r, 'memory-demo-2', {
			containers: [{ name: 'memory-demo-2-ctr', image: 'polinux/stress', resources: { requests: { memory: '50Mi' }, limits: { memory: '100Mi' } }, command: ['stress'], args: ['--vm', '1', '--vm-bytes', '250M', '--vm-hang', '1'] }],
		});
		r.h.advance(5_000);
		const cs = getPod(r, 'memory-demo-2')!.status!.containerStatuses![0];
		const ended = cs.state?.terminated ?? cs.lastState?.terminated;
		expect(ended).toMatchObject({ exitCode: 137, reason: 'OOMKilled' });
	});

	it('reports a command missing from the image as RunContainerError, the container as StartError with exit code 128', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'typo', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['slep', '10'] }] });
		r.h.advance(1_000);
		const message = 'failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: error during container init: exec: "slep": executable file not found in $PATH: unknown';
		const cs = getPod(r, 'typo')!.status!.containerStatuses![0];
		expect(cs.state?.waiting).toEqual({ reason: 'RunContainerError', message });
		expect(cs.lastState?.terminated).toMatchObject({ exitCode: 128, reason: 'StartError', message, startedAt: '1970-01-01T00:00:00Z' });
		expect(events(r, 'typo').find((e) => e.type === 'Warning')?.message).toBe(`Error: ${message}`);
		// The reason stays until a sync shows the back-off: the kubelet builds the status before it syncs the containers.
		r.h.advance(3_000);
		expect(getPod(r, 'typo')!.status!.containerStatuses![0].state?.waiting?.reason).toBe('RunContainerError');
		r.h.advance(20_000);
		expect(getPod(r, 'typo')!.status!.containerStatuses![0].state?.waiting?.reason).toBe('CrashLoopBackOff');
	});

	it('gates liveness and readiness behind a startup probe', () => {
		const r = rig();
		r.runtime.preload('registry.k8s.io/e2e-test-images/agnhost:2.40');
		// A kubelet that started less than a period ago spreads first probes randomly; start later.
		r.h.advance(15_000);
		createPod(r, 'slow', {
			containers: [
				{
					name: 'app',
					image: 'registry.k8s.io/e2e-test-images/agnhost:2.40',
					args: ['netexec', '--http-port=8080'],
					startupProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 10, failureThreshold: 30 },
					readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 5 },
				},
			],
		});
		// Probe workers tick every period from when the kubelet took the pod: startup first at +10 s.
		r.h.advance(9_000);
		expect(getPod(r, 'slow')!.status!.containerStatuses![0]).toMatchObject({ started: false, ready: false });
		r.h.advance(1_500);
		expect(getPod(r, 'slow')!.status!.containerStatuses![0]).toMatchObject({ started: true, ready: true });
	});
});

describe('logs and exec', () => {
	it('serves container logs and runs commands in the container', () => {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'counter', { containers: [{ name: 'count', image: 'busybox:1.36', args: ['/bin/sh', '-c', 'i=0; while true; do echo "$i: $(date)"; i=$((i+1)); sleep 1; done'] }] });
		r.h.advance(5_000);
		const logs = r.kubelet.serveLog('default', 'counter', undefined, { tailLines: 2 });
		// The container started after the pause pull (0.516 s) and the sandbox set-up (0.25 s): lines 0..4 by t=5 s.
		expect(logs.ok && logs.value.split('\n').filter(Boolean).map((l) => l.replace(/:.*/, ''))).toEqual(['3', '4']);
		expect(r.kubelet.exec('default', 'counter', undefined, ['hostname'])).toEqual({ ok: true, value: { exitCode: 0, stdout: 'counter\n', stderr: '' } });
		expect(r.kubelet.exec('default', 'counter', undefined, ['cat', '/nope'])).toEqual({ ok: true, value: { exitCode: 1, stdout: '', stderr: "cat: can't open '/nope': No such file or directory\n" } });
		const missing = r.kubelet.exec('default', 'counter', undefined, ['bash']);
		expect(missing.ok).toBe(false);
		expect(!missing.ok && missing.message).toMatch(/^Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "[0-9a-f]{64}": OCI runtime exec failed: exec failed: unable to start container process: exec: "bash": executable file not found in \$PATH: unknown$/);
		expect(r.kubelet.serveLog('default', 'counter', undefined, { previous: true })).toEqual({ ok: false, code: 400, reason: 'BadRequest', message: 'previous terminated container "count" in pod "counter" not found' });
	});
});

describe('simulation properties', () => {
	function scenario(): Rig {
		const r = rig();
		r.runtime.preload('busybox:1.36');
		createPod(r, 'web', { containers: [{ name: 'nginx', image: 'nginx:1.27', readinessProbe: { httpGet: { path: '/', port: 80 } } }] });
		createPod(r, 'crash', { containers: [{ name: 'app', image: 'busybox:1.36', command: ['sh', '-c', 'exit 1'] }] });
		createPod(r, 'bad', { containers: [{ name: 'app', image: 'nginx:1.99' }] });
		return r;
	}

	it('replays byte for byte: same seed and inputs, same trace fingerprint', () => {
		const a = scenario();
		const b = scenario();
		a.h.advance(120_000);
		b.h.advance(120_000);
		expect(a.h.kernel.trace.fingerprint()).toBe(b.h.kernel.trace.fingerprint());
		expect(JSON.stringify(a.runtimeHost)).toBe(JSON.stringify(b.runtimeHost));
	});

	it('leaves no pending work once pods run, crash-loop or back off (settle can stop)', () => {
		const r = scenario();
		let steps = 0;
		while (r.h.kernel.hasPendingWork() && steps++ < 100_000) r.h.kernel.step();
		expect(r.h.kernel.hasPendingWork()).toBe(false);
		expect(getPod(r, 'web')!.status!.phase).toBe('Running');
		// The crash is shown as it ended; the pod worker's retries that would show CrashLoopBackOff are background work.
		expect(getPod(r, 'crash')!.status!.containerStatuses![0].state?.terminated?.reason).toBe('Error');
		expect(getPod(r, 'bad')!.status!.containerStatuses![0].state?.waiting?.reason).toBe('ImagePullBackOff');
	});

	it('keeps its process state as plain JSON', () => {
		const r = scenario();
		r.h.advance(30_000);
		expect(JSON.parse(JSON.stringify(r.kubelet.state))).toEqual(r.kubelet.state);
		expect(JSON.parse(JSON.stringify(r.runtime.state))).toEqual(r.runtime.state);
	});
});

describe('the kubelet journal', () => {
	it('writes klog-shaped lines with the service PID', () => {
		const r = rig();
		r.h.advance(100);
		const first = r.kubelet.hostState.journal[0];
		// klog: severity, MMDD, time with microseconds, the thread id right-aligned in 7 columns, file:line].
		expect(first.line).toBe(`I1130 08:00:00.000000 ${String(first.pid).padStart(7)} server.go:525] "Kubelet starting" version="v1.36.3" node="node-1"`);
		expect(r.kubelet.hostState.service).toMatchObject({ active: true, mainPid: first.pid, sinceWallMs: START, starts: 1 });
	});
});
