/**
 * How much a Pod asks for and may use, computed once for everyone who needs
 * it: the scheduler's NodeResourcesFit, the kubelet's admission, kubectl
 * describe and the sandbox's map. Upstream keeps this in one package for the
 * same reason: the scheduler and the kubelet must agree, or the kubelet
 * turns away Pods the scheduler placed (OutOfcpu).
 *
 * The rules (KEP-753 sidecars, KEP-2837 pod-level resources):
 * - the app containers' requests are summed;
 * - each init container, while it runs, needs its own request plus the
 *   restartable init containers ("sidecars", `restartPolicy: Always`)
 *   started before it; sidecars keep running, so they are also added to the
 *   app containers' sum; the pod needs the larger of the two;
 * - pod-level `spec.resources` (cpu, memory, hugepages-*) replaces the
 *   aggregate for the resources it names (PodLevelResources, beta and on by
 *   default since v1.34);
 * - the RuntimeClass overhead is added to requests, and to limits that are
 *   set and non-zero.
 *
 * Quantities are summed exactly (../api/quantity.ts), as resource.Quantity
 * is; callers convert at the end (MilliValue for CPU, Value for the rest).
 * In-place resize (status resources) and DRA are not modelled: the spec is
 * what counts.
 *
 * Mirrors staging/src/k8s.io/component-helpers/resource/helpers.go
 * (PodRequests, PodLimits, AggregateContainerRequests/Limits,
 * IsPodLevelResourcesSet).
 */
import type { Container, PodSpec } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';

/** A resource list of exact quantities, keyed by resource name (v1.ResourceList). */
export type ResourceList = Map<string, Quantity>;

/** The options of PodRequests and PodLimits that this cluster uses. */
interface PodResourcesOptions {
	/** Leave the RuntimeClass overhead out (ExcludeOverhead). */
	excludeOverhead?: boolean;
	/**
	 * Requests filled in for containers that do not set the key
	 * (NonMissingContainerRequests: the scheduler's 100m / 200Mi for
	 * scoring); an explicit 0 stays 0. Ignored for limits.
	 */
	nonMissingContainerRequests?: ResourceList;
	/** Ignore pod-level `spec.resources` (SkipPodLevelResources). */
	skipPodLevelResources?: boolean;
}

const ZERO = Quantity.fromValue(0);

/** resource.ParseQuantity of one value; unparsable counts as zero (validation refused it before it got here). */
export function parseQuantityOrZero(value: string | number | undefined): Quantity {
	if (value === undefined) return ZERO;
	try {
		return Quantity.parse(String(value));
	} catch {
		return ZERO;
	}
}

/** A `{ cpu: '500m' }` record as a ResourceList. */
export function toResourceList(record: Record<string, string | number> | undefined): ResourceList {
	const list: ResourceList = new Map();
	for (const [name, value] of Object.entries(record ?? {})) list.set(name, parseQuantityOrZero(value));
	return list;
}

/** addResourceList: adds `add` into `target`. */
function addResourceList(target: ResourceList, add: ResourceList): void {
	for (const [name, q] of add) target.set(name, (target.get(name) ?? ZERO).add(q));
}

/** maxResourceList: keeps the larger of each resource. */
function maxResourceList(target: ResourceList, other: ResourceList): void {
	for (const [name, q] of other) {
		const current = target.get(name);
		if (!current || q.cmp(current) > 0) target.set(name, q);
	}
}

/** IsSupportedPodLevelResource: cpu, memory and hugepages-*. */
function isSupportedPodLevelResource(name: string): boolean {
	return name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
}

function namesSupported(record: Record<string, unknown> | undefined): boolean {
	return Object.keys(record ?? {}).some(isSupportedPodLevelResource);
}

/** IsPodLevelResourcesSet: pod-level requests or limits name a supported resource. */
export function isPodLevelResourcesSet(spec: PodSpec): boolean {
	return namesSupported(spec.resources?.requests) || namesSupported(spec.resources?.limits);
}

/** IsPodLevelRequestsSet. */
function isPodLevelRequestsSet(spec: PodSpec): boolean {
	return namesSupported(spec.resources?.requests);
}

/** A restartable init container: a sidecar (`restartPolicy: Always`, KEP-753). */
export function isRestartableInitContainer(container: Pick<Container, 'restartPolicy'> | undefined): boolean {
	return container?.restartPolicy === 'Always';
}

/**
 * aggregateContainerResourcesByFn: the app containers summed, sidecars
 * added, the init containers' peak (each one plus the sidecars before it)
 * taken as a floor.
 */
function aggregate(spec: PodSpec, of: (c: Container) => ResourceList): ResourceList {
	const result: ResourceList = new Map();
	for (const container of spec.containers ?? []) addResourceList(result, of(container));
	const sidecars: ResourceList = new Map();
	const initPeak: ResourceList = new Map();
	for (const container of spec.initContainers ?? []) {
		let need = of(container);
		if (isRestartableInitContainer(container)) {
			addResourceList(result, need);
			addResourceList(sidecars, need);
			need = new Map(sidecars);
		} else {
			const combined: ResourceList = new Map();
			addResourceList(combined, need);
			addResourceList(combined, sidecars);
			need = combined;
		}
		maxResourceList(initPeak, need);
	}
	maxResourceList(result, initPeak);
	return result;
}

/** Pod-level values override the aggregate for the resources they name (applyPodLevelResources). */
function applyPodLevel(result: ResourceList, podLevel: Record<string, string | number> | undefined): void {
	for (const [name, value] of Object.entries(podLevel ?? {})) if (isSupportedPodLevelResource(name)) result.set(name, parseQuantityOrZero(value));
}

/** PodRequests: what the scheduler reserves and the kubelet admits against. */
export function podRequests(spec: PodSpec, opts: PodResourcesOptions = {}): ResourceList {
	const fill = opts.nonMissingContainerRequests;
	const reqs = aggregate(spec, (c) => {
		const list = toResourceList(c.resources?.requests);
		if (fill) for (const [name, q] of fill) if (!list.has(name)) list.set(name, q);
		return list;
	});
	if (!opts.skipPodLevelResources && isPodLevelRequestsSet(spec)) applyPodLevel(reqs, spec.resources?.requests);
	if (!opts.excludeOverhead && spec.overhead) addResourceList(reqs, toResourceList(spec.overhead));
	return reqs;
}

/** PodLimits: the aggregate of the limits; the overhead only adds to limits that are set and non-zero. */
export function podLimits(spec: PodSpec, opts: PodResourcesOptions = {}): ResourceList {
	const limits = aggregate(spec, (c) => toResourceList(c.resources?.limits));
	if (!opts.skipPodLevelResources && isPodLevelResourcesSet(spec)) applyPodLevel(limits, spec.resources?.limits);
	if (!opts.excludeOverhead && spec.overhead) {
		for (const [name, q] of toResourceList(spec.overhead)) {
			const current = limits.get(name);
			if (current && !current.isZero()) limits.set(name, current.add(q));
		}
	}
	return limits;
}

/** One resource of a list in the unit Kubernetes counts it in: millicores for CPU, whole units (bytes) for the rest. */
export function resourceValue(list: ResourceList, name: string): number {
	const q = list.get(name);
	if (!q) return 0;
	return name === 'cpu' ? q.milliValue() : q.value();
}
