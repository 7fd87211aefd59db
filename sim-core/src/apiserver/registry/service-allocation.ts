/**
 * ClusterIP and NodePort allocation for Services. Upstream keeps bitmaps (or
 * IPAddress objects); here the allocation state is derived from the Services
 * the API server already stores, which gives the same answers without state
 * of its own.
 *
 * Both allocators prefer the upper part of their range for dynamic
 * allocation and leave the lower part for addresses users ask for
 * (KEP-3070 and KEP-3668); dynamic allocation falls back to the lower part
 * once the upper one is full.
 *
 * Mirrors pkg/registry/core/service/ipallocator/ipallocator.go
 * (ErrAllocated, ErrNotInRange, calculateRangeOffset),
 * pkg/registry/core/service/portallocator/allocator.go,
 * pkg/registry/core/service/storage/alloc.go (the error wording).
 */
import type { KubeObject } from '../../api/types.ts';
import type { StrategyContext } from './strategy.ts';
import { asArray, asRecord } from './field.ts';
import { formatIPv4, parseIPv4 } from './objectmeta.ts';

/** kubeadm's `--service-cluster-ip-range` (kubeadm constants DefaultServicesSubnet = 10.96.0.0/12). */
const SERVICE_CIDR = '10.96.0.0/12';
/** `--service-node-port-range` default (kube-apiserver options: 30000-32767). */
const NODE_PORT_MIN = 30000;
const NODE_PORT_MAX = 32767;

const [cidrBase, cidrBits] = SERVICE_CIDR.split('/');
const NETWORK = parseIPv4(cidrBase)!;
/** 2^(32-12) addresses in the CIDR. */
const CIDR_SIZE = 2 ** (32 - Number(cidrBits));
/** Usable addresses: all but the network and broadcast addresses. */
const USABLE = CIDR_SIZE - 2;

/**
 * ipallocator calculateRangeOffset: min 16, max 256, step 16. The first
 * `offset` usable addresses are the static band.
 */
export function ipRangeOffset(size: number): number {
	if (size <= 16) return 0;
	return Math.min(Math.floor(size / 16), 256);
}

/** portallocator calculateRangeOffset: min 16, max 128, step 32. */
export function portRangeOffset(size: number): number {
	if (size <= 16) return 0;
	return Math.min(Math.floor(size / 32), 128);
}

/** ErrNotInRange text for cluster IPs. */
function ipNotInRange(ip: string): string {
	return `the provided IP (${ip}) is not in the valid range. The range of valid IPs is ${SERVICE_CIDR}`;
}

/** ErrAllocated text for cluster IPs. */
const IP_ALREADY_ALLOCATED = 'provided IP is already allocated';
/** ErrAllocated text for node ports. */
const PORT_ALREADY_ALLOCATED = 'provided port is already allocated';
/** ErrNotInRange text for node ports. */
const PORT_NOT_IN_RANGE = `provided port is not in the valid range. The range of valid ports is ${NODE_PORT_MIN}-${NODE_PORT_MAX}`;

function sameService(a: KubeObject, namespace: string | undefined, name: string | undefined): boolean {
	return a.metadata.namespace === namespace && a.metadata.name === name;
}

/** Cluster IPs held by the other Services. */
function usedClusterIPs(ctx: StrategyContext, self: KubeObject): Set<string> {
	const used = new Set<string>();
	for (const svc of ctx.list('', 'services')) {
		if (sameService(svc, self.metadata.namespace, self.metadata.name)) continue;
		const spec = asRecord(svc.spec) ?? {};
		for (const ip of asArray<string>(spec.clusterIPs)) used.add(ip);
		if (typeof spec.clusterIP === 'string') used.add(spec.clusterIP);
	}
	return used;
}

/** Node ports held by the other Services (including health-check node ports). */
function usedNodePorts(ctx: StrategyContext, self: KubeObject): Set<number> {
	const used = new Set<number>();
	for (const svc of ctx.list('', 'services')) {
		if (sameService(svc, self.metadata.namespace, self.metadata.name)) continue;
		const spec = asRecord(svc.spec) ?? {};
		for (const p of asArray<Record<string, unknown>>(spec.ports)) if (typeof p?.nodePort === 'number' && p.nodePort) used.add(p.nodePort);
		if (typeof spec.healthCheckNodePort === 'number' && spec.healthCheckNodePort) used.add(spec.healthCheckNodePort);
	}
	return used;
}

/**
 * Picks a free slot in [0, size): a random start in the dynamic band
 * [offset, size), probing forward; then the static band. Bounded by `size`
 * probes per band, and in practice by the number of slots in use.
 */
function pickFree(size: number, offset: number, isUsed: (i: number) => boolean, usedCount: number, random: (n: number) => number): number | undefined {
	const bands: Array<[number, number]> = [
		[offset, size],
		[0, offset],
	];
	for (const [lo, hi] of bands) {
		const width = hi - lo;
		if (width <= 0) continue;
		const start = random(width);
		// A free slot is found within usedCount + 1 probes.
		const probes = Math.min(width, usedCount + 1);
		for (let k = 0; k < probes; k++) {
			const i = lo + ((start + k) % width);
			if (!isUsed(i)) return i;
		}
	}
	return undefined;
}

/** AllocateNext: a random free cluster IP, or undefined when the range is full. */
export function allocateClusterIP(ctx: StrategyContext, self: KubeObject): string | undefined {
	const used = usedClusterIPs(ctx, self);
	const offset = ipRangeOffset(CIDR_SIZE);
	const slot = pickFree(USABLE, offset, (i) => used.has(formatIPv4(NETWORK + 1 + i)), used.size, ctx.random);
	return slot === undefined ? undefined : formatIPv4(NETWORK + 1 + slot);
}

/** Why a requested cluster IP cannot be had: the part after `failed to allocate IP <ip>: `; undefined if it can. */
export function clusterIPProblem(ctx: StrategyContext, self: KubeObject, ip: string): string | undefined {
	const n = parseIPv4(ip);
	if (n === undefined || n <= NETWORK || n >= NETWORK + CIDR_SIZE - 1) return ipNotInRange(ip);
	return usedClusterIPs(ctx, self).has(ip) ? IP_ALREADY_ALLOCATED : undefined;
}

/** AllocateNext for node ports; `taken` adds the ports this Service already holds in the request. */
export function allocateNodePort(ctx: StrategyContext, self: KubeObject, taken: Set<number>): number | undefined {
	const used = usedNodePorts(ctx, self);
	const size = NODE_PORT_MAX - NODE_PORT_MIN + 1;
	const slot = pickFree(size, portRangeOffset(size), (i) => used.has(NODE_PORT_MIN + i) || taken.has(NODE_PORT_MIN + i), used.size + taken.size, ctx.random);
	return slot === undefined ? undefined : NODE_PORT_MIN + slot;
}

/** Why a requested node port cannot be had; undefined if it can. */
export function nodePortProblem(ctx: StrategyContext, self: KubeObject, port: number): string | undefined {
	if (port < NODE_PORT_MIN || port > NODE_PORT_MAX) return PORT_NOT_IN_RANGE;
	return usedNodePorts(ctx, self).has(port) ? PORT_ALREADY_ALLOCATED : undefined;
}
