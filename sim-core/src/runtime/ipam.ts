/**
 * Pod IP allocation on one node, as the host-local IPAM plugin does it
 * under flannel or the bridge CNI plugin: addresses come from the node's
 * pod CIDR, `.1` is the bridge (cni0) gateway, and the allocator hands out
 * the next free address after the last one it gave, wrapping around, so a
 * deleted pod's IP is not reused at once.
 *
 * IPv4 /16–/30 ranges only.
 *
 * Mirrors containernetworking/plugins
 * plugins/ipam/host-local/backend/allocator/allocator.go.
 */
import type { RuntimeHostState } from './host-state.ts';

function parseCidr(cidr: string): { base: number; size: number } | undefined {
	const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)\/(\d+)$/.exec(cidr);
	if (!m) return undefined;
	const prefix = Number(m[5]);
	if (prefix < 16 || prefix > 30) return undefined;
	const ip = ((Number(m[1]) << 24) >>> 0) + (Number(m[2]) << 16) + (Number(m[3]) << 8) + Number(m[4]);
	const size = 2 ** (32 - prefix);
	return { base: ip - (ip % size), size };
}

function toIp(n: number): string {
	return [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** The bridge address of the node's pod network (`10.244.1.1`): probes from the kubelet come from it. */
export function gatewayIp(podCidr: string): string | undefined {
	const net = parseCidr(podCidr);
	return net ? toIp(net.base + 1) : undefined;
}

/** Allocates a pod IP for `owner`; undefined when the range is exhausted. */
export function allocateIp(state: RuntimeHostState, owner: string): string | undefined {
	const net = parseCidr(state.podCidr);
	if (!net) return undefined;
	// Usable hosts: .2 .. broadcast-1 (network, gateway and broadcast excluded).
	const first = 2;
	const last = net.size - 2;
	const count = last - first + 1;
	for (let i = 1; i <= count; i++) {
		const host = first + ((state.ipam.lastHost - first + i + count) % count);
		const ip = toIp(net.base + host);
		if (state.ipam.allocated[ip]) continue;
		state.ipam.allocated[ip] = owner;
		state.ipam.lastHost = host;
		return ip;
	}
	return undefined;
}

/** Returns an IP to the pool. */
export function releaseIp(state: RuntimeHostState, ip: string): void {
	delete state.ipam.allocated[ip];
}
