/**
 * A set of slice endpoints keyed by what identifies an endpoint across
 * syncs, so the reconciler can tell an endpoint that moved on (new
 * conditions, node, zone) from a new one.
 *
 * Differences: upstream's set is a Go map and PopAny takes whatever the map
 * iteration yields first; here the set keeps insertion order and PopAny
 * takes the oldest, so which endpoint lands in which slice is reproducible.
 *
 * Mirrors staging/src/k8s.io/endpointslice/util/endpointset.go.
 */
import type { SliceEndpoint } from '../util/endpoint.ts';

/** hashEndpoint: what identifies an endpoint across syncs (addresses, hostname, the Pod's namespace and name). */
function endpointHash(endpoint: SliceEndpoint): string {
	const ref = (endpoint.targetRef ?? {}) as { namespace?: string; name?: string };
	return JSON.stringify([[...endpoint.addresses].sort(), endpoint.hostname ?? '', ref.namespace ?? '', ref.name ?? '']);
}

/** An insertion-ordered set of endpoints keyed by endpointHash (EndpointSet; PopAny takes the oldest). */
export class EndpointSet {
	private readonly items = new Map<string, SliceEndpoint>();
	insert(endpoint: SliceEndpoint): void {
		this.items.set(endpointHash(endpoint), endpoint);
	}
	get(endpoint: SliceEndpoint): SliceEndpoint | undefined {
		return this.items.get(endpointHash(endpoint));
	}
	delete(endpoint: SliceEndpoint): void {
		this.items.delete(endpointHash(endpoint));
	}
	popAny(): SliceEndpoint | undefined {
		const first = this.items.entries().next();
		if (first.done) return undefined;
		this.items.delete(first.value[0]);
		return first.value[1];
	}
	get size(): number {
		return this.items.size;
	}
}
