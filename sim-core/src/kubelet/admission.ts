/**
 * Pod admission on the node: before running a pod the kubelet checks it
 * against what the node can give, with the scheduler's own predicates
 * (resources, node affinity/selector, node name, host ports) plus the
 * node's NoExecute taints, all computed by the helpers the scheduler uses
 * (../component-helpers/), so the two agree. A pod bound with
 * `spec.nodeName` never met the scheduler, so this is where it is turned
 * away; the first failure becomes the pod's reason (`OutOfcpu`,
 * `OutOfmemory`, `OutOfpods`, `NodeAffinity`, `TaintToleration`...) and the
 * message is the predicate's error.
 *
 * Mirrors pkg/kubelet/lifecycle/predicate.go (Admit, generalFilter),
 * pkg/scheduler/framework/plugins/noderesources/fit.go (Fits),
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity.go,
 * pkg/scheduler/framework/plugins/nodeports/node_ports.go,
 * pkg/scheduler/framework/plugins/tainttoleration/taint_toleration.go.
 */
import type { Node, Pod } from '../api/types.ts';
import { getHostPorts, HostPortInfo } from '../component-helpers/host-ports.ts';
import { RequiredNodeAffinity } from '../component-helpers/node-affinity.ts';
import { podRequests as effectiveRequests, resourceValue, toResourceList } from '../component-helpers/resource.ts';
import { findMatchingUntoleratedTaint } from '../component-helpers/taints.ts';

type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

/** cpu in millicores, memory and ephemeral-storage in bytes. */
interface ResourceAmounts {
	milliCpu: number;
	memory: number;
	ephemeralStorage: number;
}

/** A pod's effective requests (the scheduler's numbers: sidecars, init containers, pod-level resources and overhead counted). */
export function podRequests(pod: Pod): ResourceAmounts {
	const list = effectiveRequests(pod.spec);
	return { milliCpu: resourceValue(list, 'cpu'), memory: resourceValue(list, 'memory'), ephemeralStorage: resourceValue(list, 'ephemeral-storage') };
}

/** Allocatable amounts and pod slots of a node. */
export function nodeAllocatable(node: Node): ResourceAmounts & { pods: number } {
	const a = toResourceList(node.status?.allocatable);
	return { milliCpu: resourceValue(a, 'cpu'), memory: resourceValue(a, 'memory'), ephemeralStorage: resourceValue(a, 'ephemeral-storage'), pods: resourceValue(a, 'pods') };
}

/** Whether a pod came from a manifest file (static pods skip the taint check and are never evicted). */
export function isStaticPod(pod: Pod): boolean {
	const source = pod.metadata.annotations?.['kubernetes.io/config.source'];
	return source !== undefined && source !== 'api';
}

/**
 * Admits `pod` on `node` given the pods already admitted there (`others`).
 * Returns the first failure as upstream does: resources (pods, cpu,
 * memory, ephemeral-storage), then node affinity, node name, host ports,
 * then untolerated NoExecute taints.
 */
export function admitPod(pod: Pod, node: Node, others: Pod[]): AdmitResult {
	const reasons: Array<{ reason: string; message: string }> = [];
	const alloc = nodeAllocatable(node);
	if (others.length + 1 > alloc.pods) reasons.push(insufficient('pods', 1, others.length, alloc.pods));
	const want = podRequests(pod);
	if (want.milliCpu > 0 || want.memory > 0 || want.ephemeralStorage > 0) {
		const used: ResourceAmounts = { milliCpu: 0, memory: 0, ephemeralStorage: 0 };
		for (const p of others) {
			const r = podRequests(p);
			used.milliCpu += r.milliCpu;
			used.memory += r.memory;
			used.ephemeralStorage += r.ephemeralStorage;
		}
		if (want.milliCpu > 0 && want.milliCpu > alloc.milliCpu - used.milliCpu) reasons.push(insufficient('cpu', want.milliCpu, used.milliCpu, alloc.milliCpu));
		if (want.memory > 0 && want.memory > alloc.memory - used.memory) reasons.push(insufficient('memory', want.memory, used.memory, alloc.memory));
		if (want.ephemeralStorage > 0 && want.ephemeralStorage > alloc.ephemeralStorage - used.ephemeralStorage) reasons.push(insufficient('ephemeral-storage', want.ephemeralStorage, used.ephemeralStorage, alloc.ephemeralStorage));
	}
	if (!new RequiredNodeAffinity(pod.spec).match(node)) reasons.push(predicate('NodeAffinity', "node(s) didn't match Pod's node affinity/selector"));
	if (pod.spec.nodeName && pod.spec.nodeName !== node.metadata.name) reasons.push(predicate('NodeName', "node(s) didn't match the requested node name"));
	const taken = new HostPortInfo();
	for (const other of others) for (const p of getHostPorts(other.spec)) taken.add(p.hostIP, p.protocol, p.hostPort);
	if (getHostPorts(pod.spec).some((p) => taken.checkConflict(p.hostIP, p.protocol, p.hostPort))) reasons.push(predicate('NodePorts', "node(s) didn't have free ports for the requested pod ports"));
	if (!isStaticPod(pod)) {
		const untolerated = findMatchingUntoleratedTaint(node.spec.taints, pod.spec.tolerations, (t) => t.effect === 'NoExecute');
		if (untolerated) reasons.push(predicate('TaintToleration', 'node(s) had untolerated taint(s)'));
	}
	return reasons.length === 0 ? { admit: true } : { admit: false, ...reasons[0] };
}

/** InsufficientResourceError: reason `OutOf<resource>`. */
function insufficient(resource: string, requested: number, used: number, capacity: number): { reason: string; message: string } {
	return { reason: `OutOf${resource}`, message: `Node didn't have enough resource: ${resource}, requested: ${requested}, used: ${used}, capacity: ${capacity}` };
}

/** PredicateFailureError: reason is the predicate's name. */
function predicate(name: string, description: string): { reason: string; message: string } {
	return { reason: name, message: `Predicate ${name} failed: ${description}` };
}
