/**
 * What the scheduler knows about a node while deciding: the Node object, the
 * pods on it (bound and assumed), their summed requests, the ports they hold
 * and the images present, plus each pod's parsed inter-pod affinity terms.
 *
 * These are derived, in-memory structures: the scheduler cache builds them
 * from its informers' caches (which are in the process state), so they are
 * never snapshotted themselves. Plugins read them and must not change them,
 * except on copies made with `clone()` (preemption's dry runs do that).
 *
 * Mirrors pkg/scheduler/framework/types.go (NodeInfo, PodInfo),
 * staging/src/k8s.io/kube-scheduler/framework/types.go (the NodeInfo and
 * PodInfo interfaces, AffinityTerm, HostPortInfo).
 */
import type { KubeObject, Node, Pod, PodSpec } from '../../api/types.ts';
import { labelSelectorFromObject, matches, NOTHING, SelectorError, type MetaLabelSelector, type Selector } from '../../api/labels.ts';
import { calculatePodResource, cloneResource, emptyResource, resourceFromList, type PodResource, type Resource } from './pod-resources.ts';
import { getHostPorts, HostPortInfo } from '../../component-helpers/host-ports.ts';

/** `namespace/name`, the key the scheduler uses for pods everywhere. */
export function podKey(pod: KubeObject): string {
	return `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
}

/** corev1helpers.PodPriority: spec.priority, 0 when unset. */
export function podPriority(pod: Pod): number {
	return pod.spec.priority ?? 0;
}

// ---- inter-pod affinity terms ----------------------------------------------

/** core/v1 PodAffinityTerm, as it appears in a pod spec. */
export interface PodAffinityTermSpec {
	labelSelector?: MetaLabelSelector | null;
	namespaces?: string[];
	topologyKey: string;
	namespaceSelector?: MetaLabelSelector | null;
}

/** core/v1 WeightedPodAffinityTerm. */
export interface WeightedPodAffinityTermSpec {
	weight: number;
	podAffinityTerm: PodAffinityTermSpec;
}

/** core/v1 PodAffinity / PodAntiAffinity. */
interface PodAffinitySpec {
	requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTermSpec[];
	preferredDuringSchedulingIgnoredDuringExecution?: WeightedPodAffinityTermSpec[];
}

/**
 * fwk.AffinityTerm: a parsed PodAffinityTerm. `namespaces` defaults to the
 * pod's own namespace when neither namespaces nor a namespaceSelector is
 * given; a missing namespaceSelector selects nothing.
 */
export interface AffinityTerm {
	namespaces: Set<string>;
	selector: Selector;
	topologyKey: string;
	namespaceSelector: Selector;
}

export interface WeightedAffinityTerm extends AffinityTerm {
	weight: number;
}

/** AffinityTerm.Matches: the pod is in one of the term's namespaces (or its namespace's labels match) and its labels match. */
export function affinityTermMatches(term: AffinityTerm, pod: KubeObject, namespaceLabels: Record<string, string> | undefined): boolean {
	const ns = pod.metadata.namespace ?? '';
	// A nil label set matches an empty (everything) selector, as labels.Set(nil) does in Go.
	if (term.namespaces.has(ns) || matches(term.namespaceSelector, namespaceLabels ?? {})) {
		return matches(term.selector, pod.metadata.labels ?? {});
	}
	return false;
}

function newAffinityTerm(pod: Pod, term: PodAffinityTermSpec): AffinityTerm {
	const selector = labelSelectorFromObject(term.labelSelector ?? null);
	const namespaces = new Set(term.namespaces ?? []);
	if (namespaces.size === 0 && (term.namespaceSelector === undefined || term.namespaceSelector === null)) namespaces.add(pod.metadata.namespace ?? '');
	const namespaceSelector = term.namespaceSelector ? labelSelectorFromObject(term.namespaceSelector) : NOTHING;
	return { namespaces, selector, topologyKey: term.topologyKey, namespaceSelector };
}

function parseTerms(pod: Pod, terms: PodAffinityTermSpec[] | undefined, errors: string[]): AffinityTerm[] {
	const out: AffinityTerm[] = [];
	for (const term of terms ?? []) {
		try {
			out.push(newAffinityTerm(pod, term));
		} catch (e) {
			errors.push(e instanceof SelectorError ? e.message : String(e));
		}
	}
	return out;
}

function parseWeightedTerms(pod: Pod, terms: WeightedPodAffinityTermSpec[] | undefined, errors: string[]): WeightedAffinityTerm[] {
	const out: WeightedAffinityTerm[] = [];
	for (const term of terms ?? []) {
		try {
			out.push({ ...newAffinityTerm(pod, term.podAffinityTerm), weight: term.weight });
		} catch (e) {
			errors.push(e instanceof SelectorError ? e.message : String(e));
		}
	}
	return out;
}

function podAffinityOf(spec: PodSpec): { affinity?: PodAffinitySpec; antiAffinity?: PodAffinitySpec } {
	const a = spec.affinity as { podAffinity?: PodAffinitySpec; podAntiAffinity?: PodAffinitySpec } | undefined;
	return { affinity: a?.podAffinity, antiAffinity: a?.podAntiAffinity };
}

/**
 * framework.PodInfo: a pod with its parsed affinity terms and its resource
 * contribution, computed once when the scheduler first sees the pod.
 */
export class PodInfo {
	readonly key: string;
	readonly requiredAffinityTerms: AffinityTerm[];
	readonly requiredAntiAffinityTerms: AffinityTerm[];
	readonly preferredAffinityTerms: WeightedAffinityTerm[];
	readonly preferredAntiAffinityTerms: WeightedAffinityTerm[];
	/** Problems parsing the terms (upstream keeps the good terms and reports these). */
	readonly parseErrors: string[] = [];
	private resourceCache?: PodResource;

	constructor(readonly pod: Pod) {
		this.key = podKey(pod);
		const { affinity, antiAffinity } = podAffinityOf(pod.spec);
		this.requiredAffinityTerms = parseTerms(pod, affinity?.requiredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
		this.requiredAntiAffinityTerms = parseTerms(pod, antiAffinity?.requiredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
		this.preferredAffinityTerms = parseWeightedTerms(pod, affinity?.preferredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
		this.preferredAntiAffinityTerms = parseWeightedTerms(pod, antiAffinity?.preferredDuringSchedulingIgnoredDuringExecution, this.parseErrors);
	}

	/** What the pod adds to a node's requested resources. */
	get resource(): PodResource {
		this.resourceCache ??= calculatePodResource(this.pod);
		return this.resourceCache;
	}

	/** podWithAffinity: the pod has pod affinity or anti-affinity of any kind. */
	get hasAffinity(): boolean {
		const { affinity, antiAffinity } = podAffinityOf(this.pod.spec);
		return !!affinity || !!antiAffinity;
	}
}

// ---- host ports -----------------------------------------------------------

// ---- images ---------------------------------------------------------------

/** fwk.ImageStateSummary: an image's size and on how many nodes it is present. */
export interface ImageStateSummary {
	size: number;
	numNodes: number;
}

// ---- node info ------------------------------------------------------------

/**
 * framework.NodeInfo. `requested` sums the pods' real requests (the Fit
 * filter and BalancedAllocation use it); `nonZeroRequested` uses the 100m /
 * 200Mi defaults for containers without requests (Fit's scoring uses it).
 */
export class NodeInfo {
	node?: Node;
	pods: PodInfo[] = [];
	podsWithAffinity: PodInfo[] = [];
	podsWithRequiredAntiAffinity: PodInfo[] = [];
	usedPorts = new HostPortInfo();
	requested: Resource = emptyResource();
	nonZeroRequested: Resource = emptyResource();
	allocatable: Resource = emptyResource();
	/** Images on this node by every name they are known by, with cluster-wide node counts (filled in by the cache). */
	imageStates = new Map<string, ImageStateSummary>();

	constructor(node?: Node) {
		if (node) this.setNode(node);
	}

	get name(): string {
		return this.node?.metadata.name ?? '';
	}

	setNode(node: Node): void {
		this.node = node;
		this.allocatable = resourceFromList(node.status?.allocatable);
	}

	/** NodeInfo.AddPodInfo. */
	addPodInfo(pi: PodInfo): void {
		this.pods.push(pi);
		if (pi.hasAffinity) this.podsWithAffinity.push(pi);
		if (pi.requiredAntiAffinityTerms.length > 0) this.podsWithRequiredAntiAffinity.push(pi);
		this.update(pi, 1);
	}

	/** NodeInfo.RemovePod, by `namespace/name` (upstream matches the UID; keys are unique at any time). */
	removePod(key: string): boolean {
		const index = this.pods.findIndex((p) => p.key === key);
		if (index < 0) return false;
		const [pi] = this.pods.splice(index, 1);
		this.podsWithAffinity = this.podsWithAffinity.filter((p) => p.key !== key);
		this.podsWithRequiredAntiAffinity = this.podsWithRequiredAntiAffinity.filter((p) => p.key !== key);
		this.update(pi, -1);
		return true;
	}

	private update(pi: PodInfo, sign: 1 | -1): void {
		const r = pi.resource;
		this.requested.milliCPU += sign * r.requested.milliCPU;
		this.requested.memory += sign * r.requested.memory;
		this.requested.ephemeralStorage += sign * r.requested.ephemeralStorage;
		for (const [name, v] of Object.entries(r.requested.scalar)) this.requested.scalar[name] = (this.requested.scalar[name] ?? 0) + sign * v;
		this.nonZeroRequested.milliCPU += sign * r.nonZeroMilliCPU;
		this.nonZeroRequested.memory += sign * r.nonZeroMemory;
		for (const port of getHostPorts(pi.pod.spec)) {
			if (sign > 0) this.usedPorts.add(port.hostIP, port.protocol, port.hostPort);
			else this.usedPorts.remove(port.hostIP, port.protocol, port.hostPort);
		}
	}

	/** NodeInfo.Snapshot: a copy that can be changed without touching this one. */
	clone(): NodeInfo {
		const copy = new NodeInfo();
		copy.node = this.node;
		copy.pods = [...this.pods];
		copy.podsWithAffinity = [...this.podsWithAffinity];
		copy.podsWithRequiredAntiAffinity = [...this.podsWithRequiredAntiAffinity];
		copy.usedPorts = this.usedPorts.clone();
		copy.requested = cloneResource(this.requested);
		copy.nonZeroRequested = cloneResource(this.nonZeroRequested);
		copy.allocatable = cloneResource(this.allocatable);
		copy.imageStates = this.imageStates;
		return copy;
	}
}
