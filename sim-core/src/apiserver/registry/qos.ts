/**
 * The pod's quality-of-service class, computed once when the pod is
 * created and stored in status.qosClass. Mirrors ComputePodQOS in
 * k8s.io/kubernetes/pkg/apis/core/helper/qos/qos.go (container-level
 * resources; pod-level resources are not modelled).
 *
 * - BestEffort: no container requests or limits any cpu or memory.
 * - Guaranteed: every container has cpu and memory limits, and the pod's
 *   summed requests equal its summed limits for both.
 * - Burstable: anything else.
 */
import { Quantity, QuantityParseError } from '../../api/quantity.ts';
import { asArray, asRecord } from './field.ts';

export type QOSClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** supportedQoSComputeResources. */
const QOS_RESOURCES = ['cpu', 'memory'];

function positive(value: unknown): Quantity | undefined {
	try {
		const q = Quantity.parse(String(value));
		return q.sign() > 0 ? q : undefined;
	} catch (e) {
		if (e instanceof QuantityParseError) return undefined;
		throw e;
	}
}

/** ComputePodQOS over a pod spec (regular and init containers). */
export function computePodQOS(spec: unknown): QOSClass {
	const s = asRecord(spec) ?? {};
	const requests = new Map<string, Quantity>();
	const limits = new Map<string, Quantity>();
	let guaranteed = true;
	const add = (into: Map<string, Quantity>, name: string, q: Quantity) => into.set(name, into.has(name) ? into.get(name)!.add(q) : q);
	for (const c of [...asArray(s.containers), ...asArray(s.initContainers)]) {
		const resources = asRecord(asRecord(c)?.resources);
		for (const [name, value] of Object.entries(asRecord(resources?.requests) ?? {})) {
			const q = QOS_RESOURCES.includes(name) ? positive(value) : undefined;
			if (q) add(requests, name, q);
		}
		const found = new Set<string>();
		for (const [name, value] of Object.entries(asRecord(resources?.limits) ?? {})) {
			const q = QOS_RESOURCES.includes(name) ? positive(value) : undefined;
			if (!q) continue;
			found.add(name);
			add(limits, name, q);
		}
		if (!QOS_RESOURCES.every((r) => found.has(r))) guaranteed = false;
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
