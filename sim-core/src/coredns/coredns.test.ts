/**
 * CoreDNS's pieces on their own: the Corefile as kubeadm writes it and as
 * readers break it, and the kubernetes plugin's records for each kind of
 * Service, endpoint, port and Pod.
 */
import { describe, expect, it } from 'vitest';
import { parseCorefile } from './corefile.ts';
import { kubernetesAnswer, type ClusterView } from './kubernetes.ts';

const KUBEADM = `.:53 {
    errors
    health {
       lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       pods insecure
       fallthrough in-addr.arpa ip6.arpa
       ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf {
       max_concurrent 1000
    }
    cache 30
    loop
    reload
    loadbalance
}
`;

describe('the Corefile', () => {
	it("reads kubeadm's: one server on :53 with the kubernetes plugin's options and reload's defaults", () => {
		const r = parseCorefile(KUBEADM);
		if (!r.ok) throw new Error(r.error);
		const [server] = r.servers;
		expect(server.zones).toEqual(['.']);
		expect(server.port).toBe(53);
		expect(server.kubernetes).toMatchObject({ zones: ['cluster.local.', 'in-addr.arpa.', 'ip6.arpa.'], pods: 'insecure', ttl: 30, fallthrough: ['in-addr.arpa.', 'ip6.arpa.'] });
		expect(server.forward).toEqual({ from: '.', to: ['/etc/resolv.conf'] });
		expect(server.reload).toEqual({ intervalMs: 30_000, jitterMs: 15_000 });
		expect(server.has('log')).toBe(false);
	});

	it("cuts reload's jitter to half the interval, as reload/setup.go does", () => {
		const r = parseCorefile(KUBEADM.replace('    reload\n', '    reload 10s 8s\n'));
		expect(r.ok && r.servers[0].reload).toEqual({ intervalMs: 10_000, jitterMs: 5_000 });
	});

	it('refuses an unknown directive, a missing brace and a bad ttl with the line CoreDNS names', () => {
		expect(parseCorefile(KUBEADM.replace('    loop\n', '    lop\n'))).toEqual({ ok: false, kind: 'setup', error: "Corefile:17 - Error during parsing: Unknown directive 'lop'" });
		expect(parseCorefile(KUBEADM.replace(/\}\n$/, ''), '/etc/coredns/Corefile')).toMatchObject({ ok: false, kind: 'syntax', error: expect.stringMatching(/^\/etc\/coredns\/Corefile:\d+ - Error during parsing: Unexpected EOF$/) });
		expect(parseCorefile(KUBEADM.replace('ttl 30', 'ttl 4000'))).toMatchObject({ ok: false, error: 'plugin/kubernetes: ttl must be in range [0, 3600]: 4000' });
	});
});

const view: ClusterView = {
	namespaces: ['default', 'kube-system'],
	services: [
		{ name: 'web', namespace: 'default', type: 'ClusterIP', clusterIPs: ['10.96.10.10'], ports: [{ name: 'http', port: 80, protocol: 'TCP' }] },
		{ name: 'db', namespace: 'default', type: 'ClusterIP', clusterIPs: [], ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] },
		{ name: 'ext', namespace: 'default', type: 'ExternalName', clusterIPs: [], externalName: 'example.com', ports: [] },
	],
	endpoints: [
		{ service: 'db', namespace: 'default', ip: '10.244.1.5', hostname: 'db-0', ready: true, ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] },
		{ service: 'db', namespace: 'default', ip: '10.244.2.6', ready: true, ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] },
		{ service: 'db', namespace: 'default', ip: '10.244.2.7', ready: false, ports: [{ name: 'pg', port: 5432, protocol: 'TCP' }] },
	],
	pods: [{ namespace: 'default', ip: '10.244.1.5' }],
	serial: 1_700_000_000,
};
const options = { zones: ['cluster.local.', 'in-addr.arpa.'], pods: 'insecure' as const, ttl: 30, namespaces: [], fallthrough: ['in-addr.arpa.'] };
const ask = (name: string, type: 'A' | 'SRV' | 'PTR' | 'AAAA' | 'CNAME', zone = 'cluster.local.') => {
	const a = kubernetesAnswer(options, zone, name, type, view);
	return a.kind === 'reply' ? a.reply : 'fallthrough';
};

describe("the kubernetes plugin's records", () => {
	it('a ClusterIP Service is one A record; a missing one is NXDOMAIN; AAAA of an IPv4 Service is NODATA with the SOA', () => {
		expect(ask('web.default.svc.cluster.local.', 'A')).toMatchObject({ rcode: 'NOERROR', aa: true, answer: [{ type: 'A', ttl: 30, data: '10.96.10.10' }] });
		expect(ask('nope.default.svc.cluster.local.', 'A')).toMatchObject({ rcode: 'NXDOMAIN', answer: [] });
		const nodata = ask('web.default.svc.cluster.local.', 'AAAA');
		expect(nodata).toMatchObject({ rcode: 'NOERROR', answer: [], authority: [{ type: 'SOA', data: 'ns.dns.cluster.local. hostmaster.cluster.local. 1700000000 7200 1800 86400 30' }] });
	});

	it('a headless Service answers one A record per ready endpoint, and each endpoint by its hostname or dashed address', () => {
		const r = ask('db.default.svc.cluster.local.', 'A');
		expect(r !== 'fallthrough' && r.answer.map((a) => a.data)).toEqual(['10.244.1.5', '10.244.2.6']);
		expect(ask('db-0.db.default.svc.cluster.local.', 'A')).toMatchObject({ answer: [{ data: '10.244.1.5' }] });
		expect(ask('10-244-2-6.db.default.svc.cluster.local.', 'A')).toMatchObject({ answer: [{ data: '10.244.2.6' }] });
	});

	it('SRV records for a named port: the Service itself for a ClusterIP, each endpoint for a headless one', () => {
		expect(ask('_http._tcp.web.default.svc.cluster.local.', 'SRV')).toMatchObject({ answer: [{ type: 'SRV', data: '0 100 80 web.default.svc.cluster.local.' }], additional: [{ name: 'web.default.svc.cluster.local.', data: '10.96.10.10' }] });
		const r = ask('_pg._tcp.db.default.svc.cluster.local.', 'SRV');
		expect(r !== 'fallthrough' && r.answer.map((a) => a.data)).toEqual(['0 50 5432 db-0.db.default.svc.cluster.local.', '0 50 5432 10-244-2-6.db.default.svc.cluster.local.']);
	});

	it('an ExternalName Service is a CNAME; Pod names answer with pods insecure; reverse names of cluster IPs are PTRs and others fall through', () => {
		expect(ask('ext.default.svc.cluster.local.', 'A')).toMatchObject({ answer: [{ type: 'CNAME', data: 'example.com.' }] });
		expect(ask('10-244-9-9.default.pod.cluster.local.', 'A')).toMatchObject({ answer: [{ data: '10.244.9.9' }] });
		expect(ask('10.10.96.10.in-addr.arpa.', 'PTR', 'in-addr.arpa.')).toMatchObject({ answer: [{ type: 'PTR', data: 'web.default.svc.cluster.local.' }] });
		expect(ask('4.3.2.1.in-addr.arpa.', 'PTR', 'in-addr.arpa.')).toBe('fallthrough');
	});
});
