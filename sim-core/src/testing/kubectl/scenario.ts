/**
 * For the reading commands' tests: object builders and a small "shop"
 * cluster (nodes, pods in several states, a deployment with its replica
 * set, services of every type, endpoints, config). Times are fixed so that
 * expected outputs can be worked out by hand: everything is created at the
 * harness's start (2026-11-30T08:00:00Z) unless a test says otherwise.
 * Not used by the simulation itself.
 *
 * Mirrors nothing upstream: the shop cluster of kubectl's reading commands'
 * tests.
 */
import type { KubeObject, Pod, PodStatus } from '../../api/types.ts';
import type { KubectlFixture } from './fixtures.ts';

/** The harness's start plus `minutes`, as an RFC 3339 time. */
export function at(minutes: number, seconds = 0): string {
	const total = 8 * 3600 + minutes * 60 + seconds;
	const pad = (n: number) => String(n).padStart(2, '0');
	return `2026-11-30T${pad(Math.floor(total / 3600))}:${pad(Math.floor(total / 60) % 60)}:${pad(total % 60)}Z`;
}

export function podObject(name: string, options: { labels?: Record<string, string>; node?: string; image?: string; containers?: Pod['spec']['containers']; namespace?: string; owner?: KubeObject } = {}): Pod {
	const pod: Pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, namespace: options.namespace ?? 'default', labels: options.labels },
		spec: { containers: options.containers ?? [{ name: 'main', image: options.image ?? 'nginx:1.25' }] },
	};
	if (options.node) pod.spec.nodeName = options.node;
	if (options.owner) pod.metadata.ownerReferences = [{ apiVersion: options.owner.apiVersion, kind: options.owner.kind, name: options.owner.metadata.name ?? '', uid: options.owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }];
	return pod;
}

/** A running, ready pod's status on a node. */
export function runningStatus(podIP: string, hostIP: string, containers = ['main'], startedAt = at(0, 5)): PodStatus {
	return {
		phase: 'Running',
		hostIP,
		hostIPs: [{ ip: hostIP }],
		podIP,
		podIPs: [{ ip: podIP }],
		startTime: at(0, 1),
		qosClass: 'BestEffort',
		conditions: [
			{ type: 'PodReadyToStartContainers', status: 'True', lastProbeTime: null, lastTransitionTime: at(0, 4) },
			{ type: 'Initialized', status: 'True', lastProbeTime: null, lastTransitionTime: at(0, 1) },
			{ type: 'Ready', status: 'True', lastProbeTime: null, lastTransitionTime: at(0, 5) },
			{ type: 'ContainersReady', status: 'True', lastProbeTime: null, lastTransitionTime: at(0, 5) },
			{ type: 'PodScheduled', status: 'True', lastProbeTime: null, lastTransitionTime: at(0, 1) },
		],
		containerStatuses: containers.map((name) => ({
			name,
			ready: true,
			restartCount: 0,
			started: true,
			image: 'docker.io/library/nginx:1.25',
			imageID: 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
			containerID: `containerd://${name.padEnd(8, '0')}aaaabbbbccccdddd`,
			state: { running: { startedAt } },
		})),
	};
}

export function nodeObject(name: string, options: { labels?: Record<string, string>; unschedulable?: boolean; podCIDR?: string } = {}): KubeObject {
	const node: KubeObject = { apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', ...options.labels } }, spec: {} };
	const spec = node.spec as Record<string, unknown>;
	if (options.unschedulable) spec.unschedulable = true;
	if (options.podCIDR) {
		spec.podCIDR = options.podCIDR;
		spec.podCIDRs = [options.podCIDR];
	}
	return node;
}

/** A node's status as its kubelet reports it. */
export function nodeStatus(ip: string, ready: 'True' | 'False' | 'Unknown', options: { cpu?: string; memory?: string } = {}): Record<string, unknown> {
	const heartbeat = at(4, 50);
	return {
		capacity: { cpu: options.cpu ?? '2', 'ephemeral-storage': '30Gi', memory: options.memory ?? '4Gi', pods: '110' },
		allocatable: { cpu: options.cpu ?? '2', 'ephemeral-storage': '30Gi', memory: options.memory ?? '4Gi', pods: '110' },
		conditions: [
			{ type: 'MemoryPressure', status: 'False', lastHeartbeatTime: heartbeat, lastTransitionTime: at(0), reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
			{ type: 'Ready', status: ready, lastHeartbeatTime: heartbeat, lastTransitionTime: at(0, 30), reason: ready === 'True' ? 'KubeletReady' : 'KubeletNotReady', message: ready === 'True' ? 'kubelet is posting ready status' : 'container runtime network not ready' },
		],
		addresses: [
			{ type: 'InternalIP', address: ip },
			{ type: 'Hostname', address: 'node' },
		],
		nodeInfo: {
			machineID: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
			systemUUID: '4c4c4544-0042-3510-8053-b4c04f4a4d32',
			bootID: '5f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0',
			kernelVersion: '6.8.0-45-generic',
			osImage: 'Ubuntu 24.04.1 LTS',
			containerRuntimeVersion: 'containerd://2.1.4',
			kubeletVersion: 'v1.36.3',
			operatingSystem: 'linux',
			architecture: 'amd64',
		},
	};
}

export function deploymentObject(name: string, replicas: number, image = 'nginx:1.25'): KubeObject {
	return {
		apiVersion: 'apps/v1',
		kind: 'Deployment',
		metadata: { name, namespace: 'default', labels: { app: name } },
		spec: {
			replicas,
			selector: { matchLabels: { app: name } },
			template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
		},
	};
}

export function replicaSetObject(name: string, hash: string, replicas: number, owner: KubeObject, image = 'nginx:1.25'): KubeObject {
	const labels = { app: name, 'pod-template-hash': hash };
	return {
		apiVersion: 'apps/v1',
		kind: 'ReplicaSet',
		metadata: {
			name: `${name}-${hash}`,
			namespace: 'default',
			labels,
			annotations: { 'deployment.kubernetes.io/desired-replicas': String(replicas), 'deployment.kubernetes.io/max-replicas': String(replicas + 1), 'deployment.kubernetes.io/revision': '1' },
			ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name, uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true }],
		},
		spec: {
			replicas,
			selector: { matchLabels: labels },
			template: { metadata: { labels }, spec: { containers: [{ name: 'nginx', image, ports: [{ containerPort: 80 }] }] } },
		},
	};
}

export function serviceObject(name: string, spec: Record<string, unknown>, namespace = 'default', labels?: Record<string, string>): KubeObject {
	return { apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, labels }, spec };
}

/** Pods of the "shop": db-0 pending, web-1 running on worker-1, web-2 crash-looping on worker-2 (restarted twice, last at 08:03). */
export function createShopPods(f: KubectlFixture): void {
	f.create(podObject('db-0', { labels: { app: 'db' }, image: 'postgres:16' }));
	f.create(podObject('web-1', { labels: { app: 'web', tier: 'frontend' }, node: 'worker-1' }));
	f.create(podObject('web-2', { labels: { app: 'web' }, node: 'worker-2' }));
	f.setStatus(podObject('web-1'), runningStatus('10.244.1.5', '192.168.56.11'));
	const crashing = runningStatus('10.244.2.7', '192.168.56.12');
	crashing.conditions = crashing.conditions?.map((c) => (c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False' as const, reason: 'ContainersNotReady' } : c));
	crashing.containerStatuses = [
		{
			name: 'main',
			ready: false,
			started: false,
			restartCount: 2,
			image: 'docker.io/library/nginx:1.25',
			imageID: 'docker.io/library/nginx@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31',
			containerID: 'containerd://2222aaaabbbbccccdddd',
			state: { waiting: { reason: 'CrashLoopBackOff', message: 'back-off 20s restarting failed container=main pod=web-2_default(uid)' } },
			lastState: { terminated: { exitCode: 1, reason: 'Error', startedAt: at(2, 50), finishedAt: at(3), containerID: 'containerd://2222aaaabbbbccccdddd' } },
		},
	];
	f.setStatus(podObject('web-2'), crashing);
}
