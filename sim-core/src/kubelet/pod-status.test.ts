import { describe, expect, it } from 'vitest';
import type { ContainerStatus, Pod } from '../api/types.ts';
import type { ContainerInfo } from '../cri-api/cri.ts';
import { generatePodStatus, podPhase, rejectedPodStatus } from './pod-status.ts';
import { computePodQOS } from '../component-helpers/qos.ts';

import { defaultPod } from '../apiserver/registry/pod-defaults.ts';

/** The class the kubelet reports for a pod as the API server stored it (defaulted: a limit without a request sets the request). */
const podQosClass = (p: Pod) => {
	const spec = structuredClone(p.spec);
	defaultPod(spec as unknown as Parameters<typeof defaultPod>[0]);
	return computePodQOS(spec);
};

const WALL = 1_796_025_600_000; // 2026-11-30T08:00:00Z

function pod(spec: Partial<Pod['spec']> = {}): Pod {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 'default', uid: 'u' }, spec: { containers: [{ name: 'app', image: 'nginx' }], ...spec } };
}

const running: ContainerStatus = { name: 'app', state: { running: {} }, lastState: {}, ready: true, restartCount: 0, image: '', imageID: '' };
const exited = (code: number): ContainerStatus => ({ name: 'app', state: { terminated: { exitCode: code } }, lastState: {}, ready: false, restartCount: 0, image: '', imageID: '' });
const waiting = (lastCode?: number): ContainerStatus => ({ name: 'app', state: { waiting: { reason: 'x' } }, lastState: lastCode === undefined ? {} : { terminated: { exitCode: lastCode } }, ready: false, restartCount: 0, image: '', imageID: '' });

describe('the pod phase (getPhase)', () => {
	it.each([
		['a container still waiting to start', 'Always', [waiting()], false, 'Pending'],
		['a running container', 'Always', [running], false, 'Running'],
		['a crash-looping container under Always', 'Always', [waiting(1)], false, 'Running'],
		['a container that exited 0 under Always', 'Always', [exited(0)], false, 'Running'],
		['a container that exited 0 under Never', 'Never', [exited(0)], false, 'Succeeded'],
		['a container that exited 1 under Never', 'Never', [exited(1)], false, 'Failed'],
		['a container that exited 1 under OnFailure', 'OnFailure', [exited(1)], false, 'Running'],
		['a deleted pod whose container exited 0', 'Always', [exited(0)], true, 'Succeeded'],
		['a deleted pod whose container was killed', 'Always', [exited(137)], true, 'Failed'],
	] as const)('is right for %s', (_what, restartPolicy, statuses, terminal, phase) => {
		expect(podPhase(pod({ restartPolicy }), [], statuses as unknown as ContainerStatus[], terminal)).toBe(phase);
	});

	it('is Pending while init containers run, and Failed when one fails under Never', () => {
		const p = pod({ restartPolicy: 'Never', initContainers: [{ name: 'init', image: 'busybox' }] });
		expect(podPhase(p, [{ ...running, name: 'init' }], [waiting()], false)).toBe('Pending');
		expect(podPhase(p, [{ ...exited(1), name: 'init' }], [waiting()], false)).toBe('Failed');
	});
});

const container = (over: Partial<ContainerInfo>): ContainerInfo => ({
	id: 'c'.repeat(64),
	sandboxId: 's',
	podUid: 'u',
	podName: 'p',
	namespace: 'default',
	name: 'app',
	attempt: 0,
	image: 'docker.io/library/nginx:latest',
	imageRef: 'nginx:latest',
	repoDigest: `docker.io/library/nginx@sha256:${'d'.repeat(64)}`,
	state: 'CONTAINER_RUNNING',
	createdWallMs: WALL,
	startedWallMs: WALL + 1_000,
	labels: {},
	annotations: {},
	mounts: [],
	...over,
});

function status(p: Pod, containers: ContainerInfo[], waitingReasons: Record<string, { reason: string; message?: string }> = {}, ready = true) {
	return generatePodStatus({ pod: p, now: '2026-11-30T08:00:05Z', hostIp: '192.168.56.11', podIp: '10.244.1.2', sandboxReady: true, containers, waiting: waitingReasons, ready: () => ready, started: () => true, startTime: '2026-11-30T08:00:00Z', terminal: false });
}

describe('the pod status the kubelet writes', () => {
	it('describes a running, ready container', () => {
		const s = status(pod(), [container({})]);
		expect(s.phase).toBe('Running');
		expect(s.containerStatuses).toEqual([
			{ name: 'app', state: { running: { startedAt: '2026-11-30T08:00:01Z' } }, lastState: {}, ready: true, restartCount: 0, image: 'docker.io/library/nginx:latest', imageID: `docker.io/library/nginx@sha256:${'d'.repeat(64)}`, started: true, containerID: `containerd://${'c'.repeat(64)}` },
		]);
		expect(s.conditions?.map((c) => [c.type, c.status])).toEqual([
			['PodReadyToStartContainers', 'True'],
			['Initialized', 'True'],
			['Ready', 'True'],
			['ContainersReady', 'True'],
			['PodScheduled', 'True'],
		]);
		expect(s).toMatchObject({ hostIP: '192.168.56.11', hostIPs: [{ ip: '192.168.56.11' }], podIP: '10.244.1.2', podIPs: [{ ip: '10.244.1.2' }], startTime: '2026-11-30T08:00:00Z', qosClass: 'BestEffort' });
	});

	it('shows a container that waits for a pull with the cached reason, and the spec image', () => {
		const s = status(pod(), [], { app: { reason: 'ErrImagePull', message: 'boom' } });
		expect(s.phase).toBe('Pending');
		expect(s.containerStatuses?.[0]).toEqual({ name: 'app', state: { waiting: { reason: 'ErrImagePull', message: 'boom' } }, lastState: {}, ready: false, restartCount: 0, image: 'nginx', imageID: '', started: false });
		expect(s.conditions?.find((c) => c.type === 'ContainersReady')).toMatchObject({ status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [app]' });
	});

	it('shows a crash-looping container as waiting with the last termination', () => {
		const finished = container({ attempt: 2, state: 'CONTAINER_EXITED', exitCode: 1, reason: 'Error', finishedWallMs: WALL + 2_000 });
		const s = status(pod(), [container({ attempt: 1, state: 'CONTAINER_EXITED', exitCode: 1, id: 'a'.repeat(64) }), finished], { app: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=app pod=p_default(u)' } });
		const cs = s.containerStatuses![0];
		expect(cs.state).toEqual({ waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=app pod=p_default(u)' } });
		expect(cs.lastState).toEqual({ terminated: { exitCode: 1, reason: 'Error', startedAt: '2026-11-30T08:00:01Z', finishedAt: '2026-11-30T08:00:02Z', containerID: `containerd://${'c'.repeat(64)}` } });
		expect(cs.restartCount).toBe(2);
		expect(s.phase).toBe('Running');
	});

	it('sorts container statuses by name, as the kubelet does', () => {
		const p = pod({ containers: [{ name: 'web', image: 'nginx' }, { name: 'sidecar', image: 'busybox' }] });
		expect(status(p, []).containerStatuses?.map((c) => c.name)).toEqual(['sidecar', 'web']);
	});

	it('keeps a condition transition time while its status holds', () => {
		const first = status(pod(), [container({})]);
		const again = generatePodStatus({ pod: pod(), previous: first, now: '2026-11-30T08:09:00Z', hostIp: '192.168.56.11', podIp: '10.244.1.2', sandboxReady: true, containers: [container({})], waiting: {}, ready: () => true, started: () => true, startTime: '2026-11-30T08:00:00Z', terminal: false });
		expect(again.conditions?.find((c) => c.type === 'Ready')?.lastTransitionTime).toBe('2026-11-30T08:00:05Z');
	});

	it('words a rejected pod as rejectPod does', () => {
		expect(rejectedPodStatus(pod(), 'OutOfcpu', "Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000", '2026-11-30T08:00:00Z')).toEqual({
			phase: 'Failed',
			reason: 'OutOfcpu',
			message: "Pod was rejected: Node didn't have enough resource: cpu, requested: 3000, used: 0, capacity: 2000",
			qosClass: 'BestEffort',
			startTime: '2026-11-30T08:00:00Z',
		});
	});
});

describe('the QoS class', () => {
	it.each([
		['no requests or limits', {}, 'BestEffort'],
		['requests only', { requests: { cpu: '100m' } }, 'Burstable'],
		['limits equal to requests for cpu and memory', { requests: { cpu: '1', memory: '1Gi' }, limits: { cpu: '1', memory: '1Gi' } }, 'Guaranteed'],
		['limits only (requests default to them)', { limits: { cpu: '1', memory: '1Gi' } }, 'Guaranteed'],
		['a memory limit above the request', { requests: { cpu: '1', memory: '512Mi' }, limits: { cpu: '1', memory: '1Gi' } }, 'Burstable'],
	])('%s → %s', (_what, resources, qos) => {
		expect(podQosClass(pod({ containers: [{ name: 'app', image: 'nginx', resources }] }))).toBe(qos);
	});
});
