/**
 * Where a new TCP connection ends up on the cluster's network, for the
 * tools that open one (curl on a node or the workstation, curl inside a
 * Pod): the source's node applies its rules (./routing.ts) and the packet
 * is delivered to the address it ends up with.
 *
 * - From a node: the node's output path. If nothing rewrote the address
 *   and it is another node's, that node's input path runs too (a NodePort
 *   reached on another node's IP).
 * - From a Pod: its node's prerouting path, with the Pod's address as the
 *   source.
 * - From the workstation (on the nodes' LAN, 192.168.56.0/24): only node
 *   addresses are reachable; the node that owns the address applies its
 *   rules. Service and Pod addresses are not routed there, so the
 *   connection waits until it times out.
 * - Delivery: a Pod address goes to that Pod's sandbox (flannel carries it
 *   across nodes, where both nodes have the Pod network's route to the
 *   other's pod CIDR; without one the packet leaves by the default route
 *   and nothing answers); an address nobody holds gets no answer to the ARP
 *   request, `No route to host` after 3 s (the kernel's 3 probes, 1 s
 *   apart: mcast_solicit 3 × retrans_time 1 s); a node address reaches that
 *   node's host network (kube-apiserver on 6443, kube-proxy's 10256...).
 * - The source address the server sees: the client's, unless the rules
 *   masqueraded it, in which case it is the address of the interface the
 *   packet leaves by: the cni0 bridge's for a Pod on the same node, the
 *   flannel.1 VXLAN device's for a Pod elsewhere, the NIC's for a node.
 * - A connection from another machine DNATed to a Pod on a third node
 *   without SNAT gets no reply it can use (the Pod answers from its own
 *   address, straight to the client): it times out.
 *
 * A powered-off or partitioned node answers nothing (timeout). This is a
 * routing function over the rules, not a packet simulation: no conntrack,
 * no retransmissions, no MTU; session affinity is the one connection state
 * kept (in each node's kernel, ./routing.ts).
 *
 * Mirrors flannel-io/flannel pkg/backend/vxlan/vxlan.go (Pod traffic across
 * nodes), torvalds/linux net/ipv4/arp.c (no answer to ARP: No route to
 * host).
 */
import type { NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import { routeOnNode, type RouteDecision } from './routing.ts';

/** What the traffic model needs to know about each node. */
export interface NodeNetworkView {
	name: string;
	ip: string;
	/** The node's pod CIDR (`10.244.1.0/24`). */
	podCidr: string;
	dataplane: NodeDataplaneState;
	/** Every address the node owns (NIC, flannel.1, cni0, kube-ipvs0's). */
	localAddresses: string[];
	/** Ready pod sandboxes (not host-network) with their IPs. */
	podIps: string[];
	/**
	 * The other nodes' pod CIDRs this node has a route to (the Pod network's
	 * routes: flannel's `via ... dev flannel.1`, Calico's `via ... dev
	 * tunl0`); undefined: every one. A packet for a Pod elsewhere with no
	 * route leaves by the default route and is never answered; so is the
	 * reply of a Pod whose node has no route back.
	 */
	podRoutes?: string[];
	/** The machine is off or cut off: nothing it owns answers. */
	unreachable: boolean;
	/**
	 * The machine is off, not just cut off: its NIC answers no ARP, so a
	 * sender on the same LAN gets EHOSTUNREACH (no route to host) after the
	 * ARP probes, where a cut-off node's dropped packets end in a timeout.
	 */
	poweredOff?: boolean;
	/** The kernel's clock, virtual ms (session affinity timeouts). */
	nowMs: number;
	/** The node's seeded random stream (statistic matches, numgen, ipvs). */
	random(): number;
}

export type ConnectSource = { kind: 'workstation'; ip: string } | { kind: 'node'; node: string } | { kind: 'pod'; node: string; ip: string };

/** Where the connection lands. */
export type Landing =
	| { kind: 'pod'; node: string; ip: string; port: number; clientIp: string; decision?: RouteDecision }
	| { kind: 'host'; node: string; ip: string; port: number; clientIp: string; decision?: RouteDecision }
	| { kind: 'refused'; decision?: RouteDecision }
	| { kind: 'timeout'; decision?: RouteDecision }
	| { kind: 'unreachable'; afterMs: number; decision?: RouteDecision };

/** ARP resolution gives up after mcast_solicit (3) probes, retrans_time (1 s) apart: EHOSTUNREACH after 3 s. */
const NO_ROUTE_AFTER_MS = 3_000;

function ipToNumber(ip: string): number {
	return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function inCidr(ip: string, cidr: string): boolean {
	const [base, bits] = cidr.split('/');
	if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip)) return false;
	const size = 2 ** (32 - Number(bits ?? 32));
	return Math.floor(ipToNumber(ip) / size) === Math.floor(ipToNumber(base) / size);
}

/** The address a masqueraded packet leaves `node` with on its way to `dst`. */
function egressAddress(node: NodeNetworkView, dst: string, nodes: readonly NodeNetworkView[]): string {
	const podNet = (cidr: string, host: number) => {
		const base = cidr.split('/')[0].split('.').map(Number);
		base[3] += host;
		return base.join('.');
	};
	if (inCidr(dst, node.podCidr)) return podNet(node.podCidr, 1);
	if (nodes.some((n) => n !== node && inCidr(dst, n.podCidr))) return podNet(node.podCidr, 0);
	return node.ip;
}

/** Whether `from` has a route to `to`'s pod CIDR (the Pod network's overlay or tunnel route). */
function routed(from: NodeNetworkView, to: NodeNetworkView): boolean {
	return from.podRoutes === undefined || from.podRoutes.includes(to.podCidr);
}

/** A node that answers nothing: ARP fails for a machine that is off, packets vanish for one that is cut off. */
function silentNode(owner: NodeNetworkView, decision?: RouteDecision): Landing {
	return owner.poweredOff ? { kind: 'unreachable', afterMs: NO_ROUTE_AFTER_MS, decision } : { kind: 'timeout', decision };
}

/**
 * Delivers a packet that left `via` (after its rules) with destination
 * ip:port. `fromOutside`: the client is not on `via` (another machine sent
 * the packet there), so a DNAT to a Pod on a third node without SNAT gets
 * no usable reply: the Pod answers the client directly from its own
 * address, which the client never asked for (the IPVS proxier's
 * externalTrafficPolicy Local fallback, kubernetes PR 97081).
 */
function deliver(via: NodeNetworkView, ip: string, port: number, clientIp: string, decision: RouteDecision | undefined, nodes: readonly NodeNetworkView[], fromOutside = false): Landing {
	if (decision && (decision.kind === 'reject' || decision.kind === 'drop')) return decision.kind === 'reject' ? { kind: 'refused', decision } : { kind: 'timeout', decision };
	const source = decision?.masquerade ? egressAddress(via, ip, nodes) : clientIp;
	if (ip.startsWith('127.') || via.localAddresses.includes(ip)) return { kind: 'host', node: via.name, ip, port, clientIp: source, decision };
	const owner = nodes.find((n) => n.ip === ip);
	if (owner) return owner.unreachable ? silentNode(owner, decision) : { kind: 'host', node: owner.name, ip, port, clientIp: source, decision };
	const podNode = nodes.find((n) => inCidr(ip, n.podCidr));
	if (podNode) {
		if (podNode.unreachable) return { kind: 'timeout', decision };
		if (podNode !== via && (!routed(via, podNode) || !routed(podNode, via))) return { kind: 'timeout', decision };
		if (podNode.podIps.includes(ip)) {
			if (fromOutside && podNode !== via && decision?.kind === 'dnat' && !decision.masquerade) return { kind: 'timeout', decision };
			return { kind: 'pod', node: podNode.name, ip, port, clientIp: source, decision };
		}
		return { kind: 'unreachable', afterMs: NO_ROUTE_AFTER_MS, decision };
	}
	// Anything else leaves by the default route and is never answered.
	return { kind: 'timeout', decision };
}

/** Where a connection from `source` to ip:port lands. */
export function connect(nodes: readonly NodeNetworkView[], source: ConnectSource, ip: string, port: number, proto: 'tcp' | 'udp' = 'tcp'): Landing {
	if (source.kind === 'workstation') {
		const owner = nodes.find((n) => n.ip === ip);
		if (!owner) {
			// On the LAN but nobody's address: ARP fails. Elsewhere: the default route, and silence.
			return inCidr(ip, '192.168.56.0/24') && ip !== source.ip ? { kind: 'unreachable', afterMs: NO_ROUTE_AFTER_MS } : { kind: 'timeout' };
		}
		if (owner.unreachable) return silentNode(owner);
		const decision = routeOnNode({ dataplane: owner.dataplane, localAddresses: owner.localAddresses, nowMs: owner.nowMs }, { kind: 'remote', ip: source.ip }, ip, port, () => owner.random(), proto);
		return deliver(owner, decision.ip, decision.port, source.ip, decision, nodes, true);
	}
	const node = nodes.find((n) => n.name === source.node);
	if (!node) return { kind: 'timeout' };
	// Inside a Pod's network namespace, loopback and the Pod's own address reach its own containers; no node rule sees it.
	if (source.kind === 'pod' && (ip.startsWith('127.') || ip === source.ip)) return { kind: 'pod', node: node.name, ip: source.ip, port, clientIp: ip.startsWith('127.') ? '127.0.0.1' : source.ip };
	const srcIp = source.kind === 'pod' ? source.ip : ip.startsWith('127.') ? '127.0.0.1' : node.ip;
	const decision = routeOnNode({ dataplane: node.dataplane, localAddresses: node.localAddresses, nowMs: node.nowMs }, { kind: source.kind === 'pod' ? 'pod' : 'host', ip: srcIp }, ip, port, () => node.random(), proto);
	if (decision.kind === 'reject' || decision.kind === 'drop') return deliver(node, decision.ip, decision.port, srcIp, decision, nodes);
	// Not rewritten and addressed to another node: that node's rules apply when it arrives (a NodePort there).
	const other = nodes.find((n) => n !== node && n.ip === decision.ip);
	if (decision.kind === 'pass' && other) {
		if (other.unreachable) return silentNode(other, decision);
		const next = routeOnNode({ dataplane: other.dataplane, localAddresses: other.localAddresses, nowMs: other.nowMs }, { kind: 'remote', ip: source.kind === 'pod' ? egressAddress(node, other.ip, nodes) : node.ip }, decision.ip, decision.port, () => other.random(), proto);
		const from = source.kind === 'pod' ? egressAddress(node, other.ip, nodes) : node.ip;
		return deliver(other, next.ip, next.port, from, next, nodes, true);
	}
	return deliver(node, decision.ip, decision.port, srcIp, decision, nodes);
}
