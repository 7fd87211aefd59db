import { describe, expect, it } from 'vitest';
import { emptyConntrack, trackFlow } from '../host/netfilter/conntrack.ts';
import { cleanStaleEntries } from './conntrack-cleanup.ts';
import type { EndpointInfo, ServicePortInfo } from './service-map.ts';

const dns: ServicePortInfo = {
	namespace: 'kube-system', name: 'kube-dns', portName: 'dns', nameString: 'kube-system/kube-dns:dns', protocol: 'UDP', clusterIP: '10.96.0.10', port: 53, nodePort: 0,
	externalIPs: [], loadBalancerVIPs: [], loadBalancerSourceRanges: [], affinityClientIP: false, stickyMaxAgeSeconds: 0, internalPolicyLocal: false, externalPolicyLocal: false, healthCheckNodePort: 0,
};
const ep = (ip: string): EndpointInfo => ({ ip, port: 53, ready: true, serving: true, terminating: false, isLocal: false });
const flow = (sport: number, to: string) => ({ proto: 'udp' as const, orig: { src: '10.244.1.5', dst: '10.96.0.10', sport, dport: 53 }, reply: { src: to, dst: '10.244.1.5', sport: 53, dport: sport }, result: 'answered' as const });

describe("kube-proxy's conntrack cleanup", () => {
	it('deletes the UDP flows DNATed to an endpoint that is gone, and the un-NATed ones once the service has an endpoint', () => {
		const t = emptyConntrack();
		trackFlow(t, flow(40001, '10.244.2.3'), 0);
		trackFlow(t, flow(40002, '10.244.0.2'), 0);
		trackFlow(t, { ...flow(40003, '10.96.0.10'), result: 'silent' }, 0);
		trackFlow(t, { ...flow(40004, '10.244.2.3'), proto: 'tcp' }, 0);
		expect(cleanStaleEntries(t, [dns], { 'kube-system/kube-dns:dns/UDP': [ep('10.244.0.2')] })).toBe(2);
		expect(t.entries.map((e) => e.orig.sport)).toEqual([40002, 40004]);
	});
});
