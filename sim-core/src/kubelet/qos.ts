/**
 * A pod's QoS class, from its containers' requests and limits: Guaranteed
 * when every container sets cpu and memory limits equal to its requests,
 * BestEffort when none sets any, Burstable otherwise.
 *
 * Mirrors pkg/apis/core/v1/helper/qos/qos.go (GetPodQOS), for cpu and memory.
 */
import type { Container, Pod } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';

const COMPUTE = ['cpu', 'memory'] as const;

function quantity(value: string | number | undefined): Quantity | undefined {
	if (value === undefined) return undefined;
	try {
		return Quantity.parse(String(value));
	} catch {
		return undefined;
	}
}

export function podQosClass(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
	const containers: Container[] = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
	const requests: Record<string, Quantity> = {};
	const limits: Record<string, Quantity> = {};
	let isGuaranteed = true;
	for (const c of containers) {
		for (const name of COMPUTE) {
			const r = quantity(c.resources?.requests?.[name]);
			if (r && !r.isZero()) requests[name] = requests[name] ? requests[name].add(r) : r;
		}
		const seen = new Set<string>();
		for (const name of COMPUTE) {
			const l = quantity(c.resources?.limits?.[name]);
			if (l && !l.isZero()) {
				seen.add(name);
				limits[name] = limits[name] ? limits[name].add(l) : l;
			}
		}
		if (seen.size !== COMPUTE.length) isGuaranteed = false;
	}
	if (Object.keys(requests).length === 0 && Object.keys(limits).length === 0) return 'BestEffort';
	if (isGuaranteed) {
		for (const name of COMPUTE) {
			if (requests[name] && limits[name] && requests[name].cmp(limits[name]) !== 0) return 'Burstable';
		}
		return 'Guaranteed';
	}
	return 'Burstable';
}
