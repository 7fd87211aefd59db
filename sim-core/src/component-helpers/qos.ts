/**
 * A Pod's quality-of-service class, computed when the Pod is created and
 * kept in `status.qosClass` (the API server), reported by the kubelet, and
 * used to rank Pods for eviction under node pressure:
 *
 * - BestEffort: nothing requests or limits any cpu or memory;
 * - Guaranteed: cpu and memory limits are set (for every container, or at
 *   pod level) and the summed requests equal the summed limits;
 * - Burstable: anything else.
 *
 * With pod-level resources (PodLevelResources, beta and on by default since
 * v1.34) the pod-level requests and limits alone decide, as upstream does
 * once PodLevelResourcesFixKubeletQOSClass is on. Init containers count;
 * zero quantities do not.
 *
 * Mirrors pkg/apis/core/helper/qos/qos.go (ComputePodQOS),
 * staging/src/k8s.io/kubectl/pkg/util/qos/qos.go (kubectl's copy).
 */
import type { Container, PodSpec } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';
import { isPodLevelResourcesSet, parseQuantityOrZero } from './resource.ts';

type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** supportedQoSComputeResources. */
const QOS_RESOURCES = ['cpu', 'memory'];

/** processResourceList: adds the positive cpu and memory quantities; returns the names it added. */
function addPositive(into: Map<string, Quantity>, record: Record<string, string | number> | undefined): Set<string> {
	const found = new Set<string>();
	for (const [name, value] of Object.entries(record ?? {})) {
		if (!QOS_RESOURCES.includes(name)) continue;
		const q = parseQuantityOrZero(value);
		if (q.sign() <= 0) continue;
		found.add(name);
		into.set(name, into.has(name) ? into.get(name)!.add(q) : q);
	}
	return found;
}

/** ComputePodQOS over a pod spec. */
export function computePodQOS(spec: PodSpec): QOSClass {
	const requests = new Map<string, Quantity>();
	const limits = new Map<string, Quantity>();
	let guaranteed = true;
	if (isPodLevelResourcesSet(spec)) {
		addPositive(requests, spec.resources?.requests);
		if (Object.keys(spec.resources?.limits ?? {}).length > 0) {
			const found = addPositive(limits, spec.resources?.limits);
			if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
		}
	} else {
		const containers: Container[] = [...(spec.containers ?? []), ...(spec.initContainers ?? [])];
		for (const c of containers) {
			addPositive(requests, c.resources?.requests);
			const found = addPositive(limits, c.resources?.limits);
			if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
		}
	}
	if (requests.size === 0 && limits.size === 0) return 'BestEffort';
	if (guaranteed) {
		for (const [name, req] of requests) {
			const lim = limits.get(name);
			if (!lim || lim.cmp(req) !== 0) {
				guaranteed = false;
				break;
			}
		}
	}
	return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}
