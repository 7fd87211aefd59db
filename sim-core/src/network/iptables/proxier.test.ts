/**
 * The iptables proxier against hand-written iptables-save output. Chain
 * names are upstream's hash (sha256 then base32), computed for these
 * expectations with Python's hashlib and base64 (independently of our
 * code); probabilities are kube-proxy's `%0.10f` of 1/n read back through
 * the kernel's 31-bit fraction (`%.11f`). The layout follows
 * pkg/proxy/iptables/proxier.go and published iptables-save dumps of
 * kube-proxy nodes.
 */
import { describe, expect, it } from 'vitest';
import { emptyDataplane } from '../../host/netfilter/dataplane.ts';
import { buildEndpoints, buildServicePorts } from '../service-map.ts';
import { saveTable } from '../../tools/netfilter/iptables.ts';
import { CLUSTER_CIDR, fixture, fixtureObjects, NODE, NODE_IP, ready, slice } from '../../testing/network.ts';
import { computeProbability, syncIptablesRules, type IptablesProxierConfig } from './proxier.ts';

const CONFIG: IptablesProxierConfig = { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, localhostNodePorts: true, masqueradeAll: false, nodeIp: NODE_IP };
/** 2026-11-30T08:00:00Z. */
const WALL = 1_796_025_600_000;

/** The rules of a table in save form, without the banner lines. */
function rules(text: string): string {
	return text
		.split('\n')
		.filter((l) => l && !l.startsWith('#'))
		.join('\n');
}

describe('the iptables proxier', () => {
	it('writes the nat table for a 3-endpoint ClusterIP, a NodePort and a Service without endpoints', () => {
		const dp = emptyDataplane();
		const { servicePorts, endpoints } = fixture();
		syncIptablesRules(dp.iptables, servicePorts, endpoints, CONFIG, { fullSync: true, changed: new Set() });
		expect(rules(saveTable('nat', dp.iptables.nat, WALL, false))).toBe(
			[
				'*nat',
				':PREROUTING ACCEPT [0:0]',
				':INPUT ACCEPT [0:0]',
				':OUTPUT ACCEPT [0:0]',
				':POSTROUTING ACCEPT [0:0]',
				':KUBE-EXT-2262UYG6EQJDKK3I - [0:0]',
				':KUBE-KUBELET-CANARY - [0:0]',
				':KUBE-MARK-MASQ - [0:0]',
				':KUBE-NODEPORTS - [0:0]',
				':KUBE-POSTROUTING - [0:0]',
				':KUBE-SEP-6E6ODH4XAXYJOLUZ - [0:0]',
				':KUBE-SEP-7QE66YRUUVCO6FRM - [0:0]',
				':KUBE-SEP-AJBBDO55FKRUM2RC - [0:0]',
				':KUBE-SEP-MQ4W7Q2CV67URU6Q - [0:0]',
				':KUBE-SEP-WGQ4XJAQCUC4K3OI - [0:0]',
				':KUBE-SERVICES - [0:0]',
				':KUBE-SVC-2262UYG6EQJDKK3I - [0:0]',
				':KUBE-SVC-LOLE4ISW44XBNF3G - [0:0]',
				'-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
				'-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
				'-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
				'-A KUBE-EXT-2262UYG6EQJDKK3I -m comment --comment "masquerade traffic for default/web-np:http external destinations" -j KUBE-MARK-MASQ',
				'-A KUBE-EXT-2262UYG6EQJDKK3I -j KUBE-SVC-2262UYG6EQJDKK3I',
				'-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
				'-A KUBE-NODEPORTS -d 127.0.0.0/8 -p tcp -m comment --comment "default/web-np:http" -m tcp --dport 30080 -m nfacct --nfacct-name  localhost_nps_accepted_pkts -j KUBE-EXT-2262UYG6EQJDKK3I',
				'-A KUBE-NODEPORTS -p tcp -m comment --comment "default/web-np:http" -m tcp --dport 30080 -j KUBE-EXT-2262UYG6EQJDKK3I',
				'-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
				'-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0',
				'-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
				'-A KUBE-SEP-6E6ODH4XAXYJOLUZ -s 10.244.1.10/32 -m comment --comment "default/web" -j KUBE-MARK-MASQ',
				'-A KUBE-SEP-6E6ODH4XAXYJOLUZ -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.1.10:80',
				'-A KUBE-SEP-7QE66YRUUVCO6FRM -s 10.244.2.3/32 -m comment --comment "default/web" -j KUBE-MARK-MASQ',
				'-A KUBE-SEP-7QE66YRUUVCO6FRM -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.2.3:80',
				'-A KUBE-SEP-AJBBDO55FKRUM2RC -s 10.244.1.2/32 -m comment --comment "default/web-np:http" -j KUBE-MARK-MASQ',
				'-A KUBE-SEP-AJBBDO55FKRUM2RC -p tcp -m comment --comment "default/web-np:http" -m tcp -j DNAT --to-destination 10.244.1.2:8080',
				'-A KUBE-SEP-MQ4W7Q2CV67URU6Q -s 10.244.1.2/32 -m comment --comment "default/web" -j KUBE-MARK-MASQ',
				'-A KUBE-SEP-MQ4W7Q2CV67URU6Q -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.1.2:80',
				'-A KUBE-SEP-WGQ4XJAQCUC4K3OI -s 10.244.2.3/32 -m comment --comment "default/web-np:http" -j KUBE-MARK-MASQ',
				'-A KUBE-SEP-WGQ4XJAQCUC4K3OI -p tcp -m comment --comment "default/web-np:http" -m tcp -j DNAT --to-destination 10.244.2.3:8080',
				'-A KUBE-SERVICES -d 10.96.40.5/32 -p tcp -m comment --comment "default/web-np:http cluster IP" -m tcp --dport 80 -j KUBE-SVC-2262UYG6EQJDKK3I',
				'-A KUBE-SERVICES -d 10.96.12.34/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-LOLE4ISW44XBNF3G',
				'-A KUBE-SERVICES -m comment --comment "kubernetes service nodeports; NOTE: this must be the last rule in this chain" -m addrtype --dst-type LOCAL -j KUBE-NODEPORTS',
				'-A KUBE-SVC-2262UYG6EQJDKK3I ! -s 10.244.0.0/16 -d 10.96.40.5/32 -p tcp -m comment --comment "default/web-np:http cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ',
				'-A KUBE-SVC-2262UYG6EQJDKK3I -m comment --comment "default/web-np:http -> 10.244.1.2:8080" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-AJBBDO55FKRUM2RC',
				'-A KUBE-SVC-2262UYG6EQJDKK3I -m comment --comment "default/web-np:http -> 10.244.2.3:8080" -j KUBE-SEP-WGQ4XJAQCUC4K3OI',
				'-A KUBE-SVC-LOLE4ISW44XBNF3G ! -s 10.244.0.0/16 -d 10.96.12.34/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ',
				'-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.1.10:80" -m statistic --mode random --probability 0.33333333349 -j KUBE-SEP-6E6ODH4XAXYJOLUZ',
				'-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.1.2:80" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-MQ4W7Q2CV67URU6Q',
				'-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.2.3:80" -j KUBE-SEP-7QE66YRUUVCO6FRM',
				'COMMIT',
			].join('\n'),
		);
	});

	it('writes the filter table: the jumps, the REJECT of a Service without endpoints, KUBE-FORWARD and the localnet rule', () => {
		const dp = emptyDataplane();
		const { servicePorts, endpoints } = fixture();
		syncIptablesRules(dp.iptables, servicePorts, endpoints, CONFIG, { fullSync: true, changed: new Set() });
		expect(rules(saveTable('filter', dp.iptables.filter, WALL, false))).toBe(
			[
				'*filter',
				':INPUT ACCEPT [0:0]',
				':FORWARD ACCEPT [0:0]',
				':OUTPUT ACCEPT [0:0]',
				':KUBE-EXTERNAL-SERVICES - [0:0]',
				':KUBE-FIREWALL - [0:0]',
				':KUBE-FORWARD - [0:0]',
				':KUBE-KUBELET-CANARY - [0:0]',
				':KUBE-NODEPORTS - [0:0]',
				':KUBE-PROXY-FIREWALL - [0:0]',
				':KUBE-SERVICES - [0:0]',
				'-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
				'-A INPUT -m comment --comment "kubernetes health check service ports" -j KUBE-NODEPORTS',
				'-A INPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
				'-A INPUT -j KUBE-FIREWALL',
				'-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
				'-A FORWARD -m comment --comment "kubernetes forwarding rules" -j KUBE-FORWARD',
				'-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
				'-A FORWARD -m conntrack --ctstate NEW -m comment --comment "kubernetes externally-visible service portals" -j KUBE-EXTERNAL-SERVICES',
				'-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes load balancer firewall" -j KUBE-PROXY-FIREWALL',
				'-A OUTPUT -m conntrack --ctstate NEW -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
				'-A OUTPUT -j KUBE-FIREWALL',
				'-A KUBE-FIREWALL ! -s 127.0.0.0/8 -d 127.0.0.0/8 -m comment --comment "block incoming localnet connections" -m conntrack ! --ctstate RELATED,ESTABLISHED,DNAT -j DROP',
				'-A KUBE-FORWARD -m conntrack --ctstate INVALID -m nfacct --nfacct-name  ct_state_invalid_dropped_pkts -j DROP',
				'-A KUBE-FORWARD -m comment --comment "kubernetes forwarding rules" -m mark --mark 0x4000/0x4000 -j ACCEPT',
				'-A KUBE-FORWARD -m comment --comment "kubernetes forwarding conntrack rule" -m conntrack --ctstate RELATED,ESTABLISHED -j ACCEPT',
				'-A KUBE-SERVICES -d 10.96.5.5/32 -p tcp -m comment --comment "default/empty has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable',
				'COMMIT',
			].join('\n'),
		);
	});

	it.each([
		[2, '0.5000000000'],
		[3, '0.3333333333'],
		[4, '0.2500000000'],
		[6, '0.1666666667'],
	])('computes the probability for %i endpoints as %s (1/n with ten decimals)', (n, expected) => {
		expect(computeProbability(n)).toBe(expected);
	});

	it('rewrites only the changed service on a partial sync, and deletes the chains of a gone endpoint', () => {
		const dp = emptyDataplane();
		const { services, slices } = fixtureObjects();
		const ports = buildServicePorts(services);
		syncIptablesRules(dp.iptables, ports, buildEndpoints(slices, NODE), CONFIG, { fullSync: true, changed: new Set() });
		const webNpChain = dp.iptables.nat.chains.find((c) => c.name === 'KUBE-SVC-2262UYG6EQJDKK3I');
		const webNpRules = webNpChain?.rules;
		// web loses 10.244.2.3 (its Pod was deleted); the change tracker reports default/web.
		const changedSlices = [slice('web', [{ name: '', port: 80, protocol: 'TCP' }], [ready('10.244.1.2', 'node-1'), ready('10.244.1.10', 'node-1')]), slices[1], slices[2]];
		const result = syncIptablesRules(dp.iptables, ports, buildEndpoints(changedSlices, NODE), CONFIG, { fullSync: false, changed: new Set(['default/web']) });
		// Restored: KUBE-POSTROUTING 3 + KUBE-MARK-MASQ 1 + KUBE-SERVICES 3 + KUBE-NODEPORTS 2 + web's SVC 3 and two SEPs 2 each = 16 nat rules.
		// Skipped, only counted for the rules-total metric: web-np's SVC 3, EXT 2 and two SEPs 2 each = 9, so 25 in all.
		expect(result).toEqual({ natRules: 16, natRulesTotal: 25, filterRules: 5, servicesWritten: 1, deletedChains: 1 });
		const nat = rules(saveTable('nat', dp.iptables.nat, WALL, false)).split('\n');
		expect(nat.filter((l) => l.startsWith('-A KUBE-SVC-LOLE4ISW44XBNF3G'))).toEqual([
			'-A KUBE-SVC-LOLE4ISW44XBNF3G ! -s 10.244.0.0/16 -d 10.96.12.34/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-MARK-MASQ',
			'-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.1.10:80" -m statistic --mode random --probability 0.50000000000 -j KUBE-SEP-6E6ODH4XAXYJOLUZ',
			'-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.1.2:80" -j KUBE-SEP-MQ4W7Q2CV67URU6Q',
		]);
		expect(nat).not.toContain(':KUBE-SEP-7QE66YRUUVCO6FRM - [0:0]');
		// web-np's chains were not part of the restore at all: the very same rules are still in the kernel.
		expect(dp.iptables.nat.chains.find((c) => c.name === 'KUBE-SVC-2262UYG6EQJDKK3I')?.rules).toBe(webNpRules);
		// A full sync of the same state writes the same tables.
		const fresh = emptyDataplane();
		syncIptablesRules(fresh.iptables, ports, buildEndpoints(changedSlices, NODE), CONFIG, { fullSync: true, changed: new Set() });
		expect(rules(saveTable('nat', dp.iptables.nat, WALL, false))).toBe(rules(saveTable('nat', fresh.iptables.nat, WALL, false)));
	});

	it('falls back to serving terminating endpoints when none is ready (ProxyTerminatingEndpoints)', () => {
		const dp = emptyDataplane();
		const { services } = fixtureObjects();
		const terminating = slice('web', [{ name: '', port: 80, protocol: 'TCP' }], [{ addresses: ['10.244.1.2'], conditions: { ready: false, serving: true, terminating: true }, nodeName: 'node-1' }]);
		syncIptablesRules(dp.iptables, buildServicePorts([services[0]]), buildEndpoints([terminating], NODE), CONFIG, { fullSync: true, changed: new Set() });
		expect(rules(saveTable('nat', dp.iptables.nat, WALL, false))).toContain('-A KUBE-SVC-LOLE4ISW44XBNF3G -m comment --comment "default/web -> 10.244.1.2:80" -j KUBE-SEP-MQ4W7Q2CV67URU6Q');
	});

	it('marks traffic for masquerading only from outside the cluster CIDR, and not at all with detect-local disabled', () => {
		const dp = emptyDataplane();
		const { servicePorts, endpoints } = fixture();
		syncIptablesRules(dp.iptables, servicePorts, endpoints, { ...CONFIG, clusterCIDR: '' }, { fullSync: true, changed: new Set() });
		const nat = rules(saveTable('nat', dp.iptables.nat, WALL, false));
		expect(nat).not.toContain('! -s 10.244.0.0/16');
		expect(nat.split('\n').filter((l) => l.startsWith('-A KUBE-SVC-LOLE4ISW44XBNF3G'))).toHaveLength(3);
	});
});
