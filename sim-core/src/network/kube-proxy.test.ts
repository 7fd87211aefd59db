/**
 * kube-proxy as a process against a real etcd and kube-apiserver: when it
 * syncs (the BoundedFrequencyRunner of pkg/proxy/runner with iptables'
 * minSyncPeriod 1 s and its one-hour full resync; IPVS's 30 s syncPeriod),
 * partial syncs, the canary monitor, rules left as they were when it
 * stops, its start-up log and events, and its health server
 * (pkg/proxy/healthcheck/proxy_health.go's body).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { R } from '../client/client.ts';
import { createApiHarness } from '../testing/api-harness.ts';
import { defaultConfig, type ProxyMode } from './config.ts';
import { emptyDataplane } from '../host/netfilter/dataplane.ts';
import { KubeProxy } from './kube-proxy.ts';
import { saveTable } from '../tools/netfilter/iptables.ts';
import { CLUSTER_CIDR, fixtureObjects, NODE, NODE_ADDRESSES, NODE_IP, ready, slice } from '../testing/network.ts';

function setup(mode: ProxyMode = 'iptables') {
	const h = createApiHarness({ seed: 3 });
	h.transport.enroll(`kube-proxy/${NODE}`, { username: 'system:serviceaccount:kube-system:kube-proxy', groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system', 'system:authenticated'] }, NODE);
	const admin = h.client('kubectl');
	const { services, slices } = fixtureObjects();
	for (const obj of [...services, ...slices]) admin.createObject(obj);
	admin.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: NODE, labels: { 'kubernetes.io/hostname': NODE } }, spec: {} });
	const dataplane = emptyDataplane();
	const logs: string[] = [];
	const proxy = new KubeProxy(h.kernel, { nodeName: NODE, nodeIp: NODE_IP, client: h.client(`kube-proxy/${NODE}`), dataplane, config: () => defaultConfig(mode, CLUSTER_CIDR), nodeAddresses: () => NODE_ADDRESSES, log: (_s, text) => logs.push(text) });
	h.kernel.register(proxy);
	const syncs = () => h.kernel.trace.events().filter((e) => e.component === proxy.id && e.action === 'sync');
	return { h, admin, proxy, dataplane, logs, syncs };
}

const natText = (d: ReturnType<typeof emptyDataplane>) => saveTable('nat', d.iptables.nat, 0, false);

describe('kube-proxy', () => {
	it('syncs fully once its Service and EndpointSlice caches are filled', () => {
		const { h, proxy, dataplane, syncs } = setup();
		h.kernel.start(proxy.id);
		h.advance(100);
		// nat: KUBE-POSTROUTING 3, KUBE-MARK-MASQ 1, KUBE-SERVICES 3 (two cluster IPs and the NodePort catch-all), KUBE-NODEPORTS 2
		// (127.0.0.0/8 with its nfacct counter, then any address), web-np's EXT 2 and SVC 3 (masquerade + 2 endpoints),
		// web's SVC 4 (masquerade + 3 endpoints) and five SEP chains of 2 rules = 28. filter: KUBE-SERVICES' REJECT for `empty`,
		// KUBE-FIREWALL's localnet drop and KUBE-FORWARD's three rules = 5.
		expect(syncs().map((e) => e.msg)).toEqual(['full iptables sync: 3 service ports, 3 written, 28 nat and 5 filter rules']);
		expect(natText(dataplane)).toContain('-A KUBE-SERVICES -d 10.96.12.34/32 -p tcp -m comment --comment "default/web cluster IP" -m tcp --dport 80 -j KUBE-SVC-LOLE4ISW44XBNF3G');
		// Its canary, in the three tables the iptables monitor watches.
		expect(['mangle', 'nat', 'filter'].every((t) => dataplane.iptables[t as 'nat'].chains.some((c) => c.name === 'KUBE-PROXY-CANARY'))).toBe(true);
	});

	it('runs a sync at once after a quiet second, and folds changes within minSyncPeriod (1 s) into one sync', () => {
		const { h, admin, proxy, syncs } = setup();
		h.kernel.start(proxy.id);
		h.advance(5_000);
		const start = h.kernel.nowMs;
		// Watch events reach kube-proxy 2 ms after each write (the API server's watchLatencyMs).
		admin.createObject(slice('extra', [{ port: 80, protocol: 'TCP' }], [ready('10.244.2.9', 'node-2')]));
		h.advance(100);
		admin.createObject({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'extra', namespace: 'default' }, spec: { type: 'ClusterIP', clusterIP: '10.96.7.7', ports: [{ port: 80, protocol: 'TCP' }] } } as KubeObject);
		h.advance(200);
		admin.delete(R.services, 'default', 'empty');
		h.advance(5_000);
		const times = syncs()
			.slice(1)
			.map((e) => [e.atMs - start, e.msg]);
		// The slice alone (no Service yet) syncs at once and writes no service chain: nat keeps KUBE-POSTROUTING 3,
		// KUBE-MARK-MASQ 1, KUBE-SERVICES 3 and KUBE-NODEPORTS 2 = 9. The Service (+102) and the deletion (+302) come
		// within the cool-down and share one sync 1 s after the first: extra's cluster-IP rule, SVC 2 and SEP 2 make
		// 9 + 5 = 14 nat rules, and `empty`'s REJECT leaves filter (5 - 1 = 4).
		expect(times).toEqual([
			[2, 'partial iptables sync: 3 service ports, 0 written, 9 nat and 5 filter rules'],
			[1_002, 'partial iptables sync: 3 service ports, 1 written, 14 nat and 4 filter rules'],
		]);
	});

	it('resyncs fully after an hour with nothing to do (proxyutil.FullSyncPeriod)', () => {
		const { h, proxy, syncs } = setup();
		h.kernel.start(proxy.id);
		h.advance(3_600_000 + 1_000);
		expect(syncs().map((e) => e.atMs)).toEqual([0, 3_600_000]);
		expect(syncs()[1].msg).toMatch(/^full /);
	});

	it('resyncs every syncPeriod (30 s) in IPVS mode', () => {
		const { h, proxy, syncs } = setup('ipvs');
		h.kernel.start(proxy.id);
		h.advance(61_000);
		expect(syncs().map((e) => e.atMs)).toEqual([0, 30_000, 60_000]);
	});

	it('notices within syncPeriod (30 s) that its canary chain was flushed, and writes everything again', () => {
		const { h, proxy, dataplane, syncs } = setup();
		h.kernel.start(proxy.id);
		h.advance(100);
		// Someone runs `iptables -t nat -F` and deletes the chains.
		dataplane.iptables.nat.chains = dataplane.iptables.nat.chains.filter((c) => c.policy !== undefined).map((c) => ({ ...c, rules: [] }));
		h.advance(30_000);
		expect(syncs().map((e) => [e.atMs, e.msg.split(':')[0]])).toEqual([
			[0, 'full iptables sync'],
			[30_000, 'full iptables sync'],
		]);
		expect(natText(dataplane)).toContain(':KUBE-PROXY-CANARY - [0:0]');
		expect(natText(dataplane)).toContain('-A KUBE-SVC-LOLE4ISW44XBNF3G');
	});

	it('leaves the rules as they were when it stops: a deleted endpoint stays in them', () => {
		const { h, admin, proxy, dataplane } = setup();
		h.kernel.start(proxy.id);
		h.advance(100);
		const before = natText(dataplane);
		h.kernel.stop(proxy.id);
		admin.delete(R.endpointslices, 'default', 'web-abcde');
		h.advance(60_000);
		expect(natText(dataplane)).toBe(before);
		expect(before).toContain('-A KUBE-SEP-7QE66YRUUVCO6FRM -p tcp -m comment --comment "default/web" -m tcp -j DNAT --to-destination 10.244.2.3:80');
		// Started again, it catches up with a full sync: web now has no endpoints and is rejected.
		h.kernel.start(proxy.id);
		h.advance(100);
		expect(saveTable('filter', dataplane.iptables.filter, 0, false)).toContain('-A KUBE-SERVICES -d 10.96.12.34/32 -p tcp -m comment --comment "default/web has no endpoints" -m tcp --dport 80 -j REJECT --reject-with icmp-port-unreachable');
		expect(natText(dataplane)).not.toContain('KUBE-SEP-7QE66YRUUVCO6FRM');
	});

	it('logs its mode at start and, in IPVS mode, the deprecation as an error line and a Warning event', () => {
		const { h, admin, proxy, logs } = setup('ipvs');
		h.kernel.start(proxy.id);
		h.advance(100);
		expect(logs.slice(0, 3).map((l) => l.replace(/^(\w)\d{4} [\d:.]+ +1 /, '$1 '))).toEqual([
			'I server.go:550] "Version info" version="v1.36.3"',
			'I server_linux.go:139] "Using ipvs Proxier"',
			`E server_linux.go:190] "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead."`,
		]);
		const events = admin.list(R.events, 'default');
		const summary = events.ok ? events.object.items.map((e) => [(e as KubeObject & { type: string }).type, (e as KubeObject & { reason: string }).reason, (e as KubeObject & { involvedObject: { name: string } }).involvedObject.name]) : [];
		expect(summary).toEqual([
			['Normal', 'Starting', NODE],
			['Warning', 'IPVSDeprecation', NODE],
		]);
	});

	it('answers /healthz on 10256 with upstream’s body, and /metrics only on 127.0.0.1:10249', () => {
		const { h, proxy } = setup();
		h.kernel.start(proxy.id);
		h.advance(2_500);
		const wall = h.kernel.wallMs();
		const health = proxy.serveHttp(10256, '/healthz', false, wall);
		expect(health).toEqual({ status: 200, contentType: 'application/json', nosniff: true, body: '{"lastUpdated": "2026-11-30 08:00:02.5 +0000 UTC m=+2.500000001","currentTime": "2026-11-30 08:00:02.5 +0000 UTC m=+2.500000001", "nodeEligible": true}' });
		expect(proxy.serveHttp(10256, '/nope', false, wall)?.body).toBe('404 page not found\n');
		expect(proxy.serveHttp(10249, '/metrics', false, wall)).toBeUndefined();
		expect(proxy.serveHttp(10249, '/metrics', true, wall)?.body).toContain('kubeproxy_sync_proxy_rules_iptables_total{ip_family="IPv4",table="nat"} 28\n');
	});
});
