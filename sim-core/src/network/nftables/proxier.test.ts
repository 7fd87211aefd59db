/**
 * The nftables proxier against a hand-written `nft list table ip
 * kube-proxy`. Chain names carry upstream's 8-character hash of the
 * readable part (sha256, base32), computed for these expectations with
 * Python's hashlib and base64; the layout is nft 1.0's listing format and
 * pkg/proxy/nftables/proxier.go's table.
 */
import { describe, expect, it } from 'vitest';
import { tableText } from '../../tools/netfilter/nft.ts';
import { buildEndpoints, buildServicePorts } from '../service-map.ts';
import { CLUSTER_CIDR, fixture, fixtureObjects, NODE, NODE_IP, ready, slice } from '../../testing/network.ts';
import { emptyNftMemory, newKubeProxyTable, syncNftablesRules, type NftablesProxierConfig } from './proxier.ts';

const CONFIG: NftablesProxierConfig = { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, nodePortIPs: [NODE_IP], nodeIp: NODE_IP, serviceCIDRs: ['10.96.0.0/12'] };

const EXPECTED = `table ip kube-proxy {
	comment "rules for kube-proxy"
	set cluster-ips {
		type ipv4_addr
		comment "Active ClusterIPs"
		elements = { 10.96.5.5, 10.96.12.34,
			     10.96.40.5 }
	}

	set nodeport-ips {
		type ipv4_addr
		comment "IPs that accept NodePort traffic"
		elements = { 192.168.56.11 }
	}

	map no-endpoint-services {
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "vmap to drop or reject packets to services with no endpoints"
		elements = { 10.96.5.5 . tcp . 80 comment "default/empty" : goto reject-chain }
	}

	map no-endpoint-nodeports {
		type inet_proto . inet_service : verdict
		comment "vmap to drop or reject packets to service nodeports with no endpoints"
	}

	map firewall-ips {
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "destinations that are subject to LoadBalancerSourceRanges"
	}

	map service-ips {
		type ipv4_addr . inet_proto . inet_service : verdict
		comment "ClusterIP, ExternalIP and LoadBalancer IP traffic"
		elements = { 10.96.12.34 . tcp . 80 : goto service-PFISGYVC-default/web/tcp/,
			     10.96.40.5 . tcp . 80 : goto service-4OLDCMEK-default/web-np/tcp/http }
	}

	map service-nodeports {
		type inet_proto . inet_service : verdict
		comment "NodePort traffic"
		elements = { tcp . 30080 : goto external-4OLDCMEK-default/web-np/tcp/http }
	}

	chain filter-prerouting-pre-dnat {
		type filter hook prerouting priority dstnat - 10; policy accept;
		ct state new jump firewall-check
	}

	chain filter-output-pre-dnat {
		type filter hook output priority dstnat - 10; policy accept;
		ct state new jump firewall-check
	}

	chain filter-input {
		type filter hook input priority filter; policy accept;
		ct state new jump nodeport-endpoints-check
		ct state new jump service-endpoints-check
	}

	chain filter-forward {
		type filter hook forward priority filter; policy accept;
		ct state new jump service-endpoints-check
		ct state new jump cluster-ips-check
	}

	chain filter-output {
		type filter hook output priority filter; policy accept;
		ct state new jump service-endpoints-check
		ct state new jump cluster-ips-check
	}

	chain nat-prerouting {
		type nat hook prerouting priority dstnat; policy accept;
		jump services
	}

	chain nat-output {
		type nat hook output priority dstnat; policy accept;
		jump services
	}

	chain nat-postrouting {
		type nat hook postrouting priority srcnat; policy accept;
		jump masquerading
	}

	chain nodeport-endpoints-check {
		ip daddr @nodeport-ips meta l4proto . th dport vmap @no-endpoint-nodeports
	}

	chain service-endpoints-check {
		ip daddr . meta l4proto . th dport vmap @no-endpoint-services
	}

	chain firewall-check {
		ip daddr . meta l4proto . th dport vmap @firewall-ips
	}

	chain services {
		ip daddr . meta l4proto . th dport vmap @service-ips
		ip daddr @nodeport-ips meta l4proto . th dport vmap @service-nodeports
	}

	chain masquerading {
		meta mark & 0x00004000 == 0x00000000 return
		meta mark set meta mark ^ 0x00004000
		masquerade fully-random
	}

	chain cluster-ips-check {
		ip daddr @cluster-ips reject comment "Reject traffic to invalid ports of ClusterIPs"
		ip daddr 10.96.0.0/12 drop comment "Drop traffic to unallocated ClusterIPs"
	}

	chain mark-for-masquerade {
		meta mark set meta mark | 0x00004000
	}

	chain reject-chain {
		comment "helper for @no-endpoint-services / @no-endpoint-nodeports"
		reject
	}

	chain endpoint-I3MHJQFS-default/web-np/tcp/http__10.244.1.2/8080 {
		ip saddr 10.244.1.2 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.244.1.2:8080
	}

	chain endpoint-HWLPMSBI-default/web-np/tcp/http__10.244.2.3/8080 {
		ip saddr 10.244.2.3 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.244.2.3:8080
	}

	chain service-4OLDCMEK-default/web-np/tcp/http {
		ip daddr 10.96.40.5 ip saddr != 10.244.0.0/16 jump mark-for-masquerade
		numgen random mod 2 vmap { 0 : goto endpoint-I3MHJQFS-default/web-np/tcp/http__10.244.1.2/8080, 1 : goto endpoint-HWLPMSBI-default/web-np/tcp/http__10.244.2.3/8080 }
	}

	chain external-4OLDCMEK-default/web-np/tcp/http {
		jump mark-for-masquerade
		goto service-4OLDCMEK-default/web-np/tcp/http
	}

	chain endpoint-5WQECUFU-default/web/tcp/__10.244.1.10/80 {
		ip saddr 10.244.1.10 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.244.1.10:80
	}

	chain endpoint-5V4SALOI-default/web/tcp/__10.244.1.2/80 {
		ip saddr 10.244.1.2 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.244.1.2:80
	}

	chain endpoint-UGIWMMTN-default/web/tcp/__10.244.2.3/80 {
		ip saddr 10.244.2.3 jump mark-for-masquerade
		meta l4proto tcp dnat to 10.244.2.3:80
	}

	chain service-PFISGYVC-default/web/tcp/ {
		ip daddr 10.96.12.34 ip saddr != 10.244.0.0/16 jump mark-for-masquerade
		numgen random mod 3 vmap { 0 : goto endpoint-5WQECUFU-default/web/tcp/__10.244.1.10/80, 1 : goto endpoint-5V4SALOI-default/web/tcp/__10.244.1.2/80, 2 : goto endpoint-UGIWMMTN-default/web/tcp/__10.244.2.3/80 }
	}
}
`;

describe('the nftables proxier', () => {
	it('writes the kube-proxy table for a 3-endpoint ClusterIP, a NodePort and a Service without endpoints', () => {
		const table = newKubeProxyTable('ip');
		const { servicePorts, endpoints } = fixture();
		syncNftablesRules(table, servicePorts, endpoints, CONFIG, emptyNftMemory(), { fullSync: true, changed: new Set(), nowMs: 0 });
		expect(tableText(table)).toBe(EXPECTED);
	});

	it('flushes a gone endpoint chain at once and deletes it on a sync more than a second later', () => {
		const table = newKubeProxyTable('ip');
		const memory = emptyNftMemory();
		const { services, slices } = fixtureObjects();
		const ports = buildServicePorts(services);
		syncNftablesRules(table, ports, buildEndpoints(slices, NODE), CONFIG, memory, { fullSync: true, changed: new Set(), nowMs: 0 });
		const fewer = [slice('web', [{ name: '', port: 80, protocol: 'TCP' }], [ready('10.244.1.2', 'node-1'), ready('10.244.1.10', 'node-1')]), slices[1], slices[2]];
		syncNftablesRules(table, ports, buildEndpoints(fewer, NODE), CONFIG, memory, { fullSync: false, changed: new Set(['default/web']), nowMs: 5_000 });
		const stale = table.chains.find((c) => c.name === 'endpoint-UGIWMMTN-default/web/tcp/__10.244.2.3/80');
		expect(stale?.rules).toEqual([]);
		expect(table.chains.find((c) => c.name === 'service-PFISGYVC-default/web/tcp/')?.rules[1]).toBe('numgen random mod 2 vmap { 0 : goto endpoint-5WQECUFU-default/web/tcp/__10.244.1.10/80, 1 : goto endpoint-5V4SALOI-default/web/tcp/__10.244.1.2/80 }');
		// Half a second later it is still there; past the second it goes.
		syncNftablesRules(table, ports, buildEndpoints(fewer, NODE), CONFIG, memory, { fullSync: false, changed: new Set(), nowMs: 5_500 });
		expect(table.chains.some((c) => c.name === stale?.name)).toBe(true);
		const result = syncNftablesRules(table, ports, buildEndpoints(fewer, NODE), CONFIG, memory, { fullSync: false, changed: new Set(), nowMs: 6_200 });
		expect(result.deletedChains).toBe(1);
		expect(table.chains.some((c) => c.name === stale?.name)).toBe(false);
	});

	it('recreates its base chains once per process, so after a restart they list after the other chains', () => {
		const table = newKubeProxyTable('ip');
		const { servicePorts, endpoints } = fixture();
		syncNftablesRules(table, servicePorts, endpoints, CONFIG, emptyNftMemory(), { fullSync: true, changed: new Set(), nowMs: 0 });
		expect(table.chains[0].name).toBe('filter-prerouting-pre-dnat');
		syncNftablesRules(table, servicePorts, endpoints, CONFIG, emptyNftMemory(), { fullSync: true, changed: new Set(), nowMs: 60_000 });
		expect(table.chains[0].name).toBe('nodeport-endpoints-check');
		expect(table.chains.slice(-8).map((c) => c.name)).toEqual(['filter-prerouting-pre-dnat', 'filter-output-pre-dnat', 'filter-input', 'filter-forward', 'filter-output', 'nat-prerouting', 'nat-output', 'nat-postrouting']);
	});
});
