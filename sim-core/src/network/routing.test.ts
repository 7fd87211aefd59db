/**
 * Routing a new connection through each mode's rules. The expected
 * endpoints follow from the rules' semantics: iptables' statistic match
 * takes endpoint i when the draw is below 1/(n-i) (as the kernel's 31-bit
 * fraction), nft's `numgen random mod n` picks floor(draw · n), IPVS's rr
 * scheduler goes round in the order the real servers were added.
 */
import { describe, expect, it } from 'vitest';
import { emptyDataplane, type NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import { syncIptablesRules } from './iptables/proxier.ts';
import { syncIpvsRules } from './ipvs/proxier.ts';
import { emptyNftMemory, newKubeProxyTable, syncNftablesRules } from './nftables/proxier.ts';
import { kernelProbability, routeOnNode, type PacketSource } from './routing.ts';
import { CLUSTER_CIDR, draws, fixture, NODE_ADDRESSES, NODE_IP } from '../testing/network.ts';

function iptablesNode(): NodeDataplaneState {
	const dp = emptyDataplane();
	const { servicePorts, endpoints } = fixture();
	syncIptablesRules(dp.iptables, servicePorts, endpoints, { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, localhostNodePorts: true, masqueradeAll: false, nodeIp: NODE_IP }, { fullSync: true, changed: new Set() });
	return dp;
}

function nftNode(): NodeDataplaneState {
	const dp = emptyDataplane();
	const table = newKubeProxyTable('ip');
	dp.nftables.push(table);
	const { servicePorts, endpoints } = fixture();
	syncNftablesRules(table, servicePorts, endpoints, { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, nodePortIPs: [NODE_IP], nodeIp: NODE_IP, serviceCIDRs: ['10.96.0.0/12'] }, emptyNftMemory(), { fullSync: true, changed: new Set(), nowMs: 0 });
	return dp;
}

function ipvsNode(): NodeDataplaneState {
	const dp = emptyDataplane();
	const { servicePorts, endpoints } = fixture();
	syncIpvsRules(dp.ipvs, dp.iptables, servicePorts, endpoints, { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, scheduler: 'rr', nodeAddresses: NODE_ADDRESSES });
	return dp;
}

const HOST: PacketSource = { kind: 'host', ip: NODE_IP };
const route = (dp: NodeDataplaneState, source: PacketSource, ip: string, port: number, random = draws(0)) => {
	const localAddresses = [...NODE_ADDRESSES, ...(dp.ipvs.dummy?.addresses ?? [])];
	const r = routeOnNode({ dataplane: dp, localAddresses, nowMs: 0 }, source, ip, port, random);
	return { kind: r.kind, to: `${r.ip}:${r.port}`, masquerade: r.masquerade };
};

describe('routing through the iptables rules', () => {
	it.each([
		['a draw below 1/3 takes the first endpoint', [0.2], '10.244.1.10:80'],
		['a draw above 1/3, then below 1/2, takes the second', [0.5, 0.3], '10.244.1.2:80'],
		['two draws above take the last', [0.9, 0.9], '10.244.2.3:80'],
	])('%s', (_name, values, to) => {
		expect(route(iptablesNode(), HOST, '10.96.12.34', 80, draws(...values))).toEqual({ kind: 'dnat', to, masquerade: true });
	});

	it('reads 0.3333333333 as the kernel does: 715827883 / 2^31', () => {
		expect(kernelProbability('0.3333333333')).toBe(715827883 / 2 ** 31);
	});

	it('does not masquerade a Pod, except one that reaches itself through its Service (hairpin)', () => {
		expect(route(iptablesNode(), { kind: 'pod', ip: '10.244.1.5' }, '10.96.12.34', 80, draws(0.2))).toEqual({ kind: 'dnat', to: '10.244.1.10:80', masquerade: false });
		expect(route(iptablesNode(), { kind: 'pod', ip: '10.244.1.10' }, '10.96.12.34', 80, draws(0.2))).toEqual({ kind: 'dnat', to: '10.244.1.10:80', masquerade: true });
	});

	it('rejects a Service without endpoints, and lets a port no Service has go by', () => {
		expect(route(iptablesNode(), HOST, '10.96.5.5', 80)).toEqual({ kind: 'reject', to: '10.96.5.5:80', masquerade: false });
		expect(route(iptablesNode(), HOST, '10.96.12.34', 81)).toEqual({ kind: 'pass', to: '10.96.12.34:81', masquerade: false });
	});

	it('answers a NodePort on the node IP from outside and on 127.0.0.1 from the node, masqueraded', () => {
		expect(route(iptablesNode(), { kind: 'remote', ip: '192.168.56.1' }, NODE_IP, 30080, draws(0.7))).toEqual({ kind: 'dnat', to: '10.244.2.3:8080', masquerade: true });
		expect(route(iptablesNode(), { kind: 'host', ip: '127.0.0.1' }, '127.0.0.1', 30080, draws(0.1))).toEqual({ kind: 'dnat', to: '10.244.1.2:8080', masquerade: true });
	});
});

describe('routing through the nftables table', () => {
	it.each([
		[0.1, '10.244.1.10:80'],
		[0.5, '10.244.1.2:80'],
		[0.99, '10.244.2.3:80'],
	])('numgen random mod 3 with a draw of %d picks %s', (value, to) => {
		expect(route(nftNode(), HOST, '10.96.12.34', 80, draws(value))).toEqual({ kind: 'dnat', to, masquerade: true });
	});

	it('rejects a Service without endpoints and an undefined port of a ClusterIP', () => {
		expect(route(nftNode(), HOST, '10.96.5.5', 80).kind).toBe('reject');
		expect(route(nftNode(), HOST, '10.96.12.34', 81).kind).toBe('reject');
	});

	it('answers NodePorts on the primary IP only', () => {
		expect(route(nftNode(), { kind: 'remote', ip: '192.168.56.1' }, NODE_IP, 30080, draws(0.7))).toEqual({ kind: 'dnat', to: '10.244.2.3:8080', masquerade: true });
		// A local process talking to 127.0.0.1 has 127.0.0.1 as its source too.
		expect(route(nftNode(), { kind: 'host', ip: '127.0.0.1' }, '127.0.0.1', 30080).kind).toBe('pass');
	});
});

describe('routing through IPVS', () => {
	it('goes round the real servers in turn (rr)', () => {
		const dp = ipvsNode();
		const picks = [1, 2, 3, 4].map(() => route(dp, HOST, '10.96.12.34', 80).to);
		expect(picks).toEqual(['10.244.1.10:80', '10.244.1.2:80', '10.244.2.3:80', '10.244.1.10:80']);
	});

	it('refuses a virtual server without real servers (ICMP port unreachable)', () => {
		expect(route(ipvsNode(), HOST, '10.96.5.5', 80).kind).toBe('reject');
	});

	it('masquerades traffic from outside the cluster CIDR (KUBE-CLUSTER-IP) and NodePort traffic (KUBE-NODE-PORT-TCP)', () => {
		expect(route(ipvsNode(), HOST, '10.96.12.34', 80).masquerade).toBe(true);
		expect(route(ipvsNode(), { kind: 'pod', ip: '10.244.1.5' }, '10.96.12.34', 80).masquerade).toBe(false);
		expect(route(ipvsNode(), { kind: 'remote', ip: '192.168.56.1' }, NODE_IP, 30080)).toEqual({ kind: 'dnat', to: '10.244.1.2:8080', masquerade: true });
	});
});
