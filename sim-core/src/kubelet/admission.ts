/**
 * Pod admission on the node: before running a pod the kubelet checks it
 * against what the node can give, with the scheduler's own predicates
 * (resources, node affinity/selector, node name, host ports) plus the
 * node's NoExecute taints. A pod bound with `spec.nodeName` never met the
 * scheduler, so this is where it is turned away; the first failure becomes
 * the pod's reason (`OutOfcpu`, `OutOfmemory`, `OutOfpods`, `NodeAffinity`,
 * `TaintToleration`...) and the message is the predicate's error.
 *
 * Mirrors pkg/kubelet/lifecycle/predicate.go (Admit, generalFilter) and
 * pkg/scheduler (AdmissionCheck, noderesources.Fits, nodeaffinity,
 * nodeports, tainttoleration).
 */
import type { Container, Node, NodeSelectorRequirement, NodeSelectorTerm, Pod, Taint, Toleration } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';

export type AdmitResult = { admit: true } | { admit: false; reason: string; message: string };

/** cpu in millicores, memory and ephemeral-storage in bytes. */
export interface ResourceAmounts {
	milliCpu: number;
	memory: number;
	ephemeralStorage: number;
}

function parse(value: string | number | undefined): Quantity | undefined {
	if (value === undefined) return undefined;
	try {
		return Quantity.parse(String(value));
	} catch {
		return undefined;
	}
}

function containerRequests(c: Container): ResourceAmounts {
	// A limit without a request defaults the request (API defaulting; repeated here for pods written without it).
	const get = (name: string) => parse(c.resources?.requests?.[name]) ?? parse(c.resources?.limits?.[name]);
	return {
		milliCpu: get('cpu')?.milliValue() ?? 0,
		memory: get('memory')?.value() ?? 0,
		ephemeralStorage: get('ephemeral-storage')?.value() ?? 0,
	};
}

/** A pod's effective requests: the larger of the sum of its containers and its largest init container, plus overhead. */
export function podRequests(pod: Pod): ResourceAmounts {
	const sum: ResourceAmounts = { milliCpu: 0, memory: 0, ephemeralStorage: 0 };
	for (const c of pod.spec.containers) {
		const r = containerRequests(c);
		sum.milliCpu += r.milliCpu;
		sum.memory += r.memory;
		sum.ephemeralStorage += r.ephemeralStorage;
	}
	for (const c of pod.spec.initContainers ?? []) {
		const r = containerRequests(c);
		sum.milliCpu = Math.max(sum.milliCpu, r.milliCpu);
		sum.memory = Math.max(sum.memory, r.memory);
		sum.ephemeralStorage = Math.max(sum.ephemeralStorage, r.ephemeralStorage);
	}
	const overhead = (pod.spec as { overhead?: Record<string, string> }).overhead;
	if (overhead) {
		sum.milliCpu += parse(overhead.cpu)?.milliValue() ?? 0;
		sum.memory += parse(overhead.memory)?.value() ?? 0;
	}
	return sum;
}

/** Allocatable amounts and pod slots of a node. */
export function nodeAllocatable(node: Node): ResourceAmounts & { pods: number } {
	const a = node.status?.allocatable ?? {};
	return {
		milliCpu: parse(a.cpu)?.milliValue() ?? 0,
		memory: parse(a.memory)?.value() ?? 0,
		ephemeralStorage: parse(a['ephemeral-storage'])?.value() ?? 0,
		pods: parse(a.pods)?.value() ?? 0,
	};
}

function requirementMatches(r: NodeSelectorRequirement, value: string | undefined): boolean {
	switch (r.operator) {
		case 'In':
			return value !== undefined && (r.values ?? []).includes(value);
		case 'NotIn':
			return value === undefined || !(r.values ?? []).includes(value);
		case 'Exists':
			return value !== undefined;
		case 'DoesNotExist':
			return value === undefined;
		case 'Gt':
		case 'Lt': {
			if (value === undefined || !/^-?\d+$/.test(value) || (r.values ?? []).length !== 1) return false;
			const a = Number(value);
			const b = Number(r.values![0]);
			return r.operator === 'Gt' ? a > b : a < b;
		}
	}
	return false;
}

function termMatches(term: NodeSelectorTerm, node: Node): boolean {
	const expressions = term.matchExpressions ?? [];
	const fields = term.matchFields ?? [];
	// An empty term matches no node.
	if (expressions.length === 0 && fields.length === 0) return false;
	const labels = node.metadata.labels ?? {};
	return expressions.every((r) => requirementMatches(r, labels[r.key])) && fields.every((r) => r.key === 'metadata.name' && requirementMatches(r, node.metadata.name));
}

/** nodeSelector plus requiredDuringSchedulingIgnoredDuringExecution (component-helpers nodeaffinity.GetRequiredNodeAffinity). */
export function matchesRequiredNodeAffinity(pod: Pod, node: Node): boolean {
	const labels = node.metadata.labels ?? {};
	for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
	const required = pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
	if (!required) return true;
	return required.nodeSelectorTerms.some((t) => termMatches(t, node));
}

/** v1helper.TolerationsTolerateTaint. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
	if (toleration.effect && toleration.effect !== taint.effect) return false;
	if (toleration.key && toleration.key !== taint.key) return false;
	if (!toleration.key && toleration.operator !== 'Exists') return false;
	if (toleration.operator === 'Exists') return true;
	return (toleration.value ?? '') === (taint.value ?? '');
}

function hostPorts(pod: Pod): string[] {
	const out: string[] = [];
	for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
		for (const p of c.ports ?? []) if (p.hostPort) out.push(`${p.protocol ?? 'TCP'}/${p.hostIP ?? '0.0.0.0'}/${p.hostPort}`);
	}
	return out;
}

function portsConflict(a: string, b: string): boolean {
	const [pa, ia, na] = a.split('/');
	const [pb, ib, nb] = b.split('/');
	return pa === pb && na === nb && (ia === ib || ia === '0.0.0.0' || ib === '0.0.0.0');
}

/** Whether a pod came from a manifest file (static pods skip the taint check). */
function isStaticPod(pod: Pod): boolean {
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
	if (!matchesRequiredNodeAffinity(pod, node)) reasons.push(predicate('NodeAffinity', "node(s) didn't match Pod's node affinity/selector"));
	if (pod.spec.nodeName && pod.spec.nodeName !== node.metadata.name) reasons.push(predicate('NodeName', "node(s) didn't match the requested node name"));
	const taken = others.flatMap(hostPorts);
	if (hostPorts(pod).some((p) => taken.some((t) => portsConflict(p, t)))) reasons.push(predicate('NodePorts', "node(s) didn't have free ports for the requested pod ports"));
	if (!isStaticPod(pod)) {
		const untolerated = (node.spec.taints ?? []).filter((t) => t.effect === 'NoExecute').some((t) => !(pod.spec.tolerations ?? []).some((tol) => toleratesTaint(tol, t)));
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
