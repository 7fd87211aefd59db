/**
 * The Node object the kubelet registers and the status it keeps posting:
 * labels, addresses, capacity and allocatable, node info, images, and the
 * conditions MemoryPressure, DiskPressure, PIDPressure and Ready (Ready
 * last, as upstream keeps it), with upstream's reasons and messages.
 *
 * Allocatable is capacity minus kube-reserved and system-reserved (none on
 * a kubeadm node) minus the hard eviction thresholds that reserve
 * resources: memory.available<100Mi and nodefs.available<10% (the
 * kubelet's Linux defaults), so memory loses 100Mi and ephemeral-storage
 * a tenth; cpu and pods are untouched.
 *
 * Mirrors pkg/kubelet/kubelet_node_status.go (initialNode,
 * nodeStatusHasChanged), pkg/kubelet/nodestatus/setters.go,
 * pkg/kubelet/cm/node_container_manager_linux.go (hardEvictionReservation).
 */
import type { Node, NodeCondition, NodeStatus, Taint } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';
import type { ImageInfo } from '../cri-api/cri.ts';

/** The Linux default hard thresholds that reserve capacity (pkg/kubelet/eviction/defaults_linux.go). */
const DEFAULT_RESERVING_THRESHOLDS: Readonly<Record<string, string>> = { 'memory.available': '100Mi', 'nodefs.available': '10%' };
/** The kubelet's port (daemonEndpoints.kubeletEndpoint). */
const KUBELET_PORT = 10250;
/** Node status lists at most this many images, largest first (nodeStatusMaxImages). */
const NODE_STATUS_MAX_IMAGES = 50;

export interface NodeCapacity {
	cpu: string;
	memory: string;
	/** maxPods (default 110, FACTS.md F). */
	pods?: number;
	/** Root filesystem size (default 100Gi). */
	ephemeralStorage?: string;
}

export interface NodeIdentity {
	name: string;
	ip: string;
	labels?: Record<string, string>;
	annotations?: Record<string, string>;
	taints?: Taint[];
	capacity: NodeCapacity;
	kubeletVersion: string;
	containerRuntimeVersion: string;
	osImage: string;
	kernelVersion: string;
	machineId: string;
	systemUuid: string;
	bootId: string;
}

/** Capacity as the kubelet reports it (with the hugepages it always lists). */
export function nodeCapacity(c: NodeCapacity): Record<string, string> {
	return {
		cpu: Quantity.parse(c.cpu).toString(),
		'ephemeral-storage': Quantity.parse(c.ephemeralStorage ?? '100Gi').toString(),
		'hugepages-1Gi': '0',
		'hugepages-2Mi': '0',
		memory: Quantity.parse(c.memory).toString(),
		pods: String(c.pods ?? 110),
	};
}

/**
 * Allocatable = capacity − hard-eviction reservations: the evictionHard
 * thresholds of memory.available and nodefs.available (by default 100Mi
 * of memory and 10% of ephemeral-storage), a percentage counted against
 * the capacity.
 */
export function nodeAllocatable(capacity: Record<string, string>, evictionHard: Readonly<Record<string, string>> = DEFAULT_RESERVING_THRESHOLDS): Record<string, string> {
	const out: Record<string, string> = { ...capacity };
	const reserve = (resource: string, signal: string) => {
		const total = Quantity.parse(capacity[resource]);
		const value = evictionHard[signal];
		if (value === undefined) return;
		// GetThresholdQuantity: int64(float64(capacity) * percentage), BinarySI.
		const reserved = value.endsWith('%') ? Quantity.fromValue(BigInt(Math.trunc(total.value() * (Number(value.slice(0, -1)) / 100))), 'BinarySI') : Quantity.parse(value);
		const left = total.sub(reserved);
		out[resource] = (left.sign() < 0 ? Quantity.fromValue(0, 'BinarySI') : left).toString();
	};
	reserve('memory', 'memory.available');
	reserve('ephemeral-storage', 'nodefs.available');
	return out;
}

/** The labels the kubelet sets on its Node (kubelet_node_status.go initialNode + well-known labels). */
export function nodeLabels(identity: NodeIdentity): Record<string, string> {
	return {
		'beta.kubernetes.io/arch': 'amd64',
		'beta.kubernetes.io/os': 'linux',
		'kubernetes.io/arch': 'amd64',
		'kubernetes.io/hostname': identity.name,
		'kubernetes.io/os': 'linux',
		...(identity.labels ?? {}),
	};
}

/** The Node the kubelet creates at registration. */
export function initialNode(identity: NodeIdentity, evictionHard?: Readonly<Record<string, string>>): Node {
	const capacity = nodeCapacity(identity.capacity);
	const node: Node = {
		apiVersion: 'v1',
		kind: 'Node',
		metadata: {
			name: identity.name,
			labels: nodeLabels(identity),
			annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true', ...(identity.annotations ?? {}) },
		},
		spec: identity.taints && identity.taints.length ? { taints: identity.taints.map((t) => ({ ...t })) } : {},
		status: {
			capacity,
			allocatable: nodeAllocatable(capacity, evictionHard),
			conditions: [],
			addresses: [
				{ type: 'InternalIP', address: identity.ip },
				{ type: 'Hostname', address: identity.name },
			],
			daemonEndpoints: { kubeletEndpoint: { Port: KUBELET_PORT } },
			nodeInfo: {
				machineID: identity.machineId,
				systemUUID: identity.systemUuid,
				bootID: identity.bootId,
				kernelVersion: identity.kernelVersion,
				osImage: identity.osImage,
				containerRuntimeVersion: identity.containerRuntimeVersion,
				kubeletVersion: identity.kubeletVersion,
				operatingSystem: 'linux',
				architecture: 'amd64',
			},
		},
	};
	return node;
}

/** The node's images, largest first, at most NODE_STATUS_MAX_IMAGES (setters.go Images). */
export function nodeImages(images: ImageInfo[]): Array<{ names: string[]; sizeBytes: number }> {
	return [...images]
		.sort((a, b) => b.sizeBytes - a.sizeBytes)
		.slice(0, NODE_STATUS_MAX_IMAGES)
		.map((i) => ({ names: [...i.repoDigests, ...i.repoTags], sizeBytes: i.sizeBytes }));
}

/** What the Ready condition depends on, computed by the kubelet. */
interface ReadinessInputs {
	/** Runtime errors (`container runtime is down`, PLEG...). */
	runtimeErrors: string[];
	/** Network errors (`container runtime network not ready: ...`). */
	networkErrors: string[];
	/** The pressure conditions the eviction manager reports (MemoryPressure, DiskPressure, PIDPressure). */
	pressure?: readonly string[];
}

/** Node events the setters record (`NodeHasSufficientMemory`, `NodeReady`...). */
type NodeEventRecorder = (type: 'Normal' | 'Warning', reason: string) => void;

/** utilerrors.NewAggregate(...).Error(): one error as is, several as `[a, b]`. */
export function aggregateErrors(errors: string[]): string {
	return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}

/**
 * Applies the condition setters to `status` at time `now` (RFC 3339):
 * each condition's heartbeat is now; its transition time changes only
 * when its status does. The pressure conditions follow the eviction
 * manager.
 */
export function setNodeConditions(status: NodeStatus, now: string, inputs: ReadinessInputs, record: NodeEventRecorder): void {
	const conditions: NodeCondition[] = (status.conditions ?? []).map((c) => ({ ...c }));
	const pressure = (type: string, reason: string, message: string, event: string, under = false) => {
		let c = conditions.find((x) => x.type === type);
		if (!c) {
			c = { type, status: 'Unknown' };
			conditions.push(c);
		}
		c.lastHeartbeatTime = now;
		const status = under ? 'True' : 'False';
		if (c.status !== status) {
			c.status = status;
			c.reason = reason;
			c.message = message;
			c.lastTransitionTime = now;
			record('Normal', event);
		}
	};
	const under = (type: string) => inputs.pressure?.includes(type) === true;
	if (under('MemoryPressure')) pressure('MemoryPressure', 'KubeletHasInsufficientMemory', 'kubelet has insufficient memory available', 'NodeHasInsufficientMemory', true);
	else pressure('MemoryPressure', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available', 'NodeHasSufficientMemory');
	if (under('DiskPressure')) pressure('DiskPressure', 'KubeletHasDiskPressure', 'kubelet has disk pressure', 'NodeHasDiskPressure', true);
	else pressure('DiskPressure', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure', 'NodeHasNoDiskPressure');
	if (under('PIDPressure')) pressure('PIDPressure', 'KubeletHasInsufficientPID', 'kubelet has insufficient PID available', 'NodeHasInsufficientPID', true);
	else pressure('PIDPressure', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available', 'NodeHasSufficientPID');
	const errors: string[] = [];
	if (inputs.runtimeErrors.length) errors.push(aggregateErrors(inputs.runtimeErrors));
	if (inputs.networkErrors.length) errors.push(aggregateErrors(inputs.networkErrors));
	const ready: NodeCondition = errors.length
		? { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: aggregateErrors(errors), lastHeartbeatTime: now }
		: { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status', lastHeartbeatTime: now };
	const index = conditions.findIndex((c) => c.type === 'Ready');
	if (index >= 0) {
		const old = conditions[index];
		if (old.status === ready.status) ready.lastTransitionTime = old.lastTransitionTime;
		else {
			ready.lastTransitionTime = now;
			record('Normal', ready.status === 'True' ? 'NodeReady' : 'NodeNotReady');
		}
		conditions.splice(index, 1);
	} else ready.lastTransitionTime = now;
	conditions.push(ready);
	status.conditions = conditions;
}

/** nodeStatusHasChanged: any difference but the conditions' heartbeat times. */
export function nodeStatusHasChanged(before: NodeStatus | undefined, after: NodeStatus | undefined): boolean {
	const strip = (s: NodeStatus | undefined) => JSON.stringify({ ...(s ?? {}), conditions: (s?.conditions ?? []).map((c) => ({ ...c, lastHeartbeatTime: undefined })) });
	return strip(before) !== strip(after);
}
