/**
 * Node IPAM with the range allocator: with --allocate-node-cidrs, each node
 * gets a /24 (--node-cidr-mask-size-ipv4) from --cluster-cidr written into
 * spec.podCIDR and spec.podCIDRs, which CNI plugins such as flannel then
 * use; CIDRs already on nodes are kept, and a deleted node's CIDR is
 * released. IPv4 single-stack only.
 *
 * Mirrors pkg/controller/nodeipam/ipam/range_allocator.go,
 * pkg/controller/nodeipam/ipam/cidrset/cidr_set.go.
 */
import type { KubeObject, Node } from '../api/types.ts';
import { R } from '../client/client.ts';
import { ControllerBase, type ControllerHost, type SyncError } from './controller-context.ts';

/** The options of kube-controller-manager this controller reads. */
interface NodeIpamOptions {
	allocateNodeCidrs: boolean;
	clusterCidr: string;
	nodeCidrMaskSize: number;
}

interface NodeIpamState {
	/** Indexes of the allocated blocks. */
	used: number[];
	/** cidrset nextCandidate: allocation goes round from here. */
	nextCandidate: number;
}

function parseIpv4(text: string): number | undefined {
	const parts = text.split('.');
	if (parts.length !== 4 || parts.some((p) => !/^\d{1,3}$/.test(p) || Number(p) > 255)) return undefined;
	return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

function formatIpv4(n: number): string {
	return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** A CIDR set: the cluster CIDR cut into blocks of `maskSize` (cidr_set.go). */
export class CidrSet {
	readonly base: number;
	readonly clusterMask: number;
	readonly maxCidrs: number;

	constructor(
		clusterCidr: string,
		readonly maskSize: number,
	) {
		const [ip, bits] = clusterCidr.split('/');
		const base = parseIpv4(ip);
		const mask = Number(bits);
		if (base === undefined || !Number.isInteger(mask) || mask < 0 || mask > 32 || maskSize < mask || maskSize > 32) throw new Error(`invalid cluster CIDR ${clusterCidr} for /${maskSize} blocks`);
		this.clusterMask = mask;
		const size = 2 ** (32 - mask);
		this.base = base - (base % size);
		this.maxCidrs = 2 ** (maskSize - mask);
	}

	/** indexToCIDRBlock. */
	cidr(index: number): string {
		return `${formatIpv4(this.base + index * 2 ** (32 - this.maskSize))}/${this.maskSize}`;
	}

	/** The block index of a CIDR inside the set, or undefined. */
	index(cidr: string): number | undefined {
		const [ip, bits] = cidr.split('/');
		const addr = parseIpv4(ip);
		if (addr === undefined || Number(bits) !== this.maskSize) return undefined;
		const offset = addr - this.base;
		if (offset < 0 || offset >= this.maxCidrs * 2 ** (32 - this.maskSize)) return undefined;
		return Math.floor(offset / 2 ** (32 - this.maskSize));
	}

	/** AllocateNext: the first free block at or after nextCandidate, wrapping round. */
	allocateNext(state: NodeIpamState): string | undefined {
		if (state.used.length >= this.maxCidrs) return undefined;
		let candidate = state.nextCandidate;
		const used = new Set(state.used);
		for (let i = 0; i < this.maxCidrs && used.has(candidate); i++) candidate = (candidate + 1) % this.maxCidrs;
		state.nextCandidate = (candidate + 1) % this.maxCidrs;
		state.used.push(candidate);
		return this.cidr(candidate);
	}
}

export class NodeIpamController extends ControllerBase<NodeIpamState> {
	readonly name = 'node-ipam-controller';
	readonly sub = 'nodeipam';
	readonly resources = ['nodes'] as const;
	private readonly cidrs: CidrSet;

	constructor(
		host: ControllerHost,
		private readonly options: NodeIpamOptions,
	) {
		super(host);
		this.cidrs = new CidrSet(options.clusterCidr, options.nodeCidrMaskSize);
	}

	freshState(): NodeIpamState {
		return { used: [], nextCandidate: 0 };
	}

	override onAdd(_resource: string, obj: KubeObject): void {
		if (!this.options.allocateNodeCidrs) return;
		this.occupy(obj as Node);
		this.enqueue(obj.metadata.name ?? '');
	}

	override onUpdate(_resource: string, _old: KubeObject, obj: KubeObject): void {
		if (!this.options.allocateNodeCidrs) return;
		if (!(obj as Node).spec?.podCIDRs?.length) this.enqueue(obj.metadata.name ?? '');
	}

	override onDelete(_resource: string, obj: KubeObject): void {
		if (!this.options.allocateNodeCidrs) return;
		// ReleaseCIDR.
		for (const cidr of (obj as Node).spec?.podCIDRs ?? []) {
			const i = this.cidrs.index(cidr);
			if (i !== undefined) this.state.used = this.state.used.filter((u) => u !== i);
		}
	}

	/** occupyCIDRs: a node that already has its CIDR keeps it. */
	private occupy(node: Node): void {
		for (const cidr of node.spec?.podCIDRs ?? []) {
			const i = this.cidrs.index(cidr);
			if (i !== undefined && !this.state.used.includes(i)) this.state.used.push(i);
		}
	}

	sync(key: string): SyncError {
		const node = this.host.informer('nodes').get(key) as Node | undefined;
		if (!node) return undefined;
		if (node.spec?.podCIDRs?.length) {
			this.occupy(node);
			return undefined;
		}
		const cidr = this.cidrs.allocateNext(this.state);
		if (!cidr) {
			this.host.recorder('cidrAllocator').record({ apiVersion: 'v1', kind: 'Node', metadata: { name: key, uid: node.metadata.uid } }, 'Normal', 'CIDRNotAvailable', `Node ${key} status is now: CIDRNotAvailable`);
			return `failed to allocate cidr from cluster cidr ${this.options.clusterCidr}: CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range`;
		}
		this.trace('reconcile', `nodes/${key}`, `allocated pod CIDR ${cidr} to node ${key}`);
		const patched = this.host.client.patch(R.nodes, undefined, key, { spec: { podCIDR: cidr, podCIDRs: [cidr] } });
		if (patched.ok) return undefined;
		// Give the block back; the retry allocates again.
		const i = this.cidrs.index(cidr);
		this.state.used = this.state.used.filter((u) => u !== i);
		if (patched.code === 404) return undefined;
		this.host.recorder('cidrAllocator').record({ apiVersion: 'v1', kind: 'Node', metadata: { name: key, uid: node.metadata.uid } }, 'Normal', 'CIDRAssignmentFailed', `Node ${key} status is now: CIDRAssignmentFailed`);
		return patched.message;
	}
}
