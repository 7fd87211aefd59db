/**
 * The IPVS proxier against hand-written `ipvsadm -Ln` and `iptables-save -t
 * nat` output: ipvsadm 1.31's layout (print_service_entry's widths, services
 * and destinations sorted as ipvs_cmp_services/ipvs_cmp_dests sort them)
 * and the fixed iptables set of pkg/proxy/ipvs/proxier.go, whose ipset
 * comments are pkg/proxy/ipvs/ipset.go's.
 */
import { describe, expect, it } from 'vitest';
import { emptyDataplane } from '../../host/netfilter/dataplane.ts';
import { listIpvs } from '../../tools/netfilter/ipvsadm.ts';
import { saveTable } from '../../tools/netfilter/iptables.ts';
import { buildEndpoints, buildServicePorts } from '../service-map.ts';
import { CLUSTER_CIDR, fixture, fixtureObjects, NODE, NODE_ADDRESSES, slice } from '../../testing/network.ts';
import { syncIpvsRules, type IpvsProxierConfig } from './proxier.ts';

const CONFIG: IpvsProxierConfig = { clusterCIDR: CLUSTER_CIDR, masqueradeMark: 0x4000, masqueradeAll: false, scheduler: 'rr', nodeAddresses: NODE_ADDRESSES };

describe('the IPVS proxier', () => {
	it('makes a virtual server per ClusterIP and node address:NodePort, a real server per endpoint, scheduler rr', () => {
		const dp = emptyDataplane();
		const { servicePorts, endpoints } = fixture();
		expect(syncIpvsRules(dp.ipvs, dp.iptables, servicePorts, endpoints, CONFIG)).toEqual({ virtualServers: 6, realServers: 11 });
		expect(listIpvs(dp.ipvs.virtualServers, false, false)).toBe(
			[
				'IP Virtual Server version 1.2.1 (size=4096)',
				'Prot LocalAddress:Port Scheduler Flags',
				'  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn',
				'TCP  10.96.5.5:80 rr',
				'TCP  10.96.12.34:80 rr',
				'  -> 10.244.1.2:80                Masq    1      0          0         ',
				'  -> 10.244.1.10:80               Masq    1      0          0         ',
				'  -> 10.244.2.3:80                Masq    1      0          0         ',
				'TCP  10.96.40.5:80 rr',
				'  -> 10.244.1.2:8080              Masq    1      0          0         ',
				'  -> 10.244.2.3:8080              Masq    1      0          0         ',
				'TCP  10.244.1.0:30080 rr',
				'  -> 10.244.1.2:8080              Masq    1      0          0         ',
				'  -> 10.244.2.3:8080              Masq    1      0          0         ',
				'TCP  10.244.1.1:30080 rr',
				'  -> 10.244.1.2:8080              Masq    1      0          0         ',
				'  -> 10.244.2.3:8080              Masq    1      0          0         ',
				'TCP  192.168.56.11:30080 rr',
				'  -> 10.244.1.2:8080              Masq    1      0          0         ',
				'  -> 10.244.2.3:8080              Masq    1      0          0         ',
				'',
			].join('\n'),
		);
		// The service addresses are bound to kube-ipvs0, in the order the services were synced.
		expect(dp.ipvs.dummy?.addresses).toEqual(['10.96.5.5', '10.96.40.5', '10.96.12.34']);
		expect(dp.ipvs.ipsets['KUBE-CLUSTER-IP']).toEqual(['10.96.12.34,tcp:80', '10.96.40.5,tcp:80', '10.96.5.5,tcp:80']);
		expect(dp.ipvs.ipsets['KUBE-NODE-PORT-TCP']).toEqual(['30080']);
	});

	it('keeps a small iptables nat table whatever the number of services', () => {
		const dp = emptyDataplane();
		const { servicePorts, endpoints } = fixture();
		syncIpvsRules(dp.ipvs, dp.iptables, servicePorts, endpoints, CONFIG);
		const nat = saveTable('nat', dp.iptables.nat, 1_796_025_600_000, false)
			.split('\n')
			.filter((l) => l && !l.startsWith('#'));
		expect(nat).toEqual([
			'*nat',
			':PREROUTING ACCEPT [0:0]',
			':INPUT ACCEPT [0:0]',
			':OUTPUT ACCEPT [0:0]',
			':POSTROUTING ACCEPT [0:0]',
			':KUBE-KUBELET-CANARY - [0:0]',
			':KUBE-LOAD-BALANCER - [0:0]',
			':KUBE-MARK-MASQ - [0:0]',
			':KUBE-NODE-PORT - [0:0]',
			':KUBE-POSTROUTING - [0:0]',
			':KUBE-SERVICES - [0:0]',
			'-A PREROUTING -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
			'-A OUTPUT -m comment --comment "kubernetes service portals" -j KUBE-SERVICES',
			'-A POSTROUTING -m comment --comment "kubernetes postrouting rules" -j KUBE-POSTROUTING',
			'-A KUBE-LOAD-BALANCER -j KUBE-MARK-MASQ',
			'-A KUBE-MARK-MASQ -j MARK --set-xmark 0x4000/0x4000',
			'-A KUBE-NODE-PORT -p tcp -m comment --comment "Kubernetes nodeport TCP port for masquerade purpose" -m set --match-set KUBE-NODE-PORT-TCP dst -j KUBE-MARK-MASQ',
			'-A KUBE-POSTROUTING -m comment --comment "Kubernetes endpoints dst ip:port, source ip for solving hairpin purpose" -m set --match-set KUBE-LOOP-BACK dst,dst,src -j MASQUERADE',
			'-A KUBE-POSTROUTING -m mark ! --mark 0x4000/0x4000 -j RETURN',
			'-A KUBE-POSTROUTING -j MARK --set-xmark 0x4000/0x0',
			'-A KUBE-POSTROUTING -m comment --comment "kubernetes service traffic requiring SNAT" -j MASQUERADE --random-fully',
			'-A KUBE-SERVICES -s 127.0.0.0/8 -j RETURN',
			'-A KUBE-SERVICES ! -s 10.244.0.0/16 -m comment --comment "Kubernetes service cluster ip + port for masquerade purpose" -m set --match-set KUBE-CLUSTER-IP dst,dst -j KUBE-MARK-MASQ',
			'-A KUBE-SERVICES -m addrtype --dst-type LOCAL -j KUBE-NODE-PORT',
			'-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT',
			'COMMIT',
		]);
	});

	it('removes a gone endpoint from its virtual servers and keeps the round-robin position in range', () => {
		const dp = emptyDataplane();
		const { services, slices } = fixtureObjects();
		const ports = buildServicePorts(services);
		syncIpvsRules(dp.ipvs, dp.iptables, ports, buildEndpoints(slices, NODE), CONFIG);
		const web = dp.ipvs.virtualServers.find((vs) => vs.address === '10.96.12.34')!;
		web.rrNext = 2;
		const fewer = [slice('web', [{ name: '', port: 80, protocol: 'TCP' }], [slices[0] && { addresses: ['10.244.1.2'], conditions: { ready: true }, nodeName: 'node-1' }]), slices[1], slices[2]];
		syncIpvsRules(dp.ipvs, dp.iptables, ports, buildEndpoints(fewer, NODE), CONFIG);
		const after = dp.ipvs.virtualServers.find((vs) => vs.address === '10.96.12.34')!;
		expect(after.realServers.map((rs) => `${rs.address}:${rs.port}`)).toEqual(['10.244.1.2:80']);
		expect(after.rrNext).toBe(0);
	});
});
