/**
 * The order in which the scheduler walks nodes: zone by zone, round robin
 * (node 1 of zone A, node 1 of zone B, node 2 of zone A...), so a partial
 * search (percentageOfNodesToScore) samples every zone. Zones appear in the
 * order their first node was added, nodes within a zone in arrival order.
 *
 * Mirrors pkg/scheduler/backend/cache/node_tree.go,
 * staging/src/k8s.io/component-helpers/node/topology/helpers.go
 * (GetZoneKey).
 */
import type { Node } from '../../api/types.ts';

/** utilnode.GetZoneKey: `region:\0:zone` from the topology labels (beta names first), '' when neither is set. */
export function zoneKey(node: Node): string {
	const labels = node.metadata.labels ?? {};
	const zone = labels['failure-domain.beta.kubernetes.io/zone'] ?? labels['topology.kubernetes.io/zone'] ?? '';
	const region = labels['failure-domain.beta.kubernetes.io/region'] ?? labels['topology.kubernetes.io/region'] ?? '';
	if (region === '' && zone === '') return '';
	return `${region}:\u0000:${zone}`;
}

export class NodeTree {
	private readonly zones: string[] = [];
	private readonly tree = new Map<string, string[]>();
	private count = 0;

	get numNodes(): number {
		return this.count;
	}

	add(node: Node): void {
		const zone = zoneKey(node);
		const name = node.metadata.name ?? '';
		let names = this.tree.get(zone);
		if (!names) {
			names = [];
			this.tree.set(zone, names);
			this.zones.push(zone);
		}
		if (names.includes(name)) return;
		names.push(name);
		this.count++;
	}

	remove(node: Node): void {
		const zone = zoneKey(node);
		const names = this.tree.get(zone);
		const i = names?.indexOf(node.metadata.name ?? '') ?? -1;
		if (!names || i < 0) return;
		names.splice(i, 1);
		this.count--;
		if (names.length === 0) {
			this.tree.delete(zone);
			this.zones.splice(this.zones.indexOf(zone), 1);
		}
	}

	/** A node whose zone changed moves to the end of its new zone. */
	update(oldNode: Node, newNode: Node): void {
		if (zoneKey(oldNode) === zoneKey(newNode)) return;
		this.remove(oldNode);
		this.add(newNode);
	}

	/** nodeTree.list: the zone-interleaved order. */
	list(): string[] {
		const out: string[] = [];
		for (let index = 0; out.length < this.count; index++) {
			for (const zone of this.zones) {
				const names = this.tree.get(zone)!;
				if (index < names.length) out.push(names[index]);
			}
		}
		return out;
	}
}
