/**
 * Services that answer, in a whole cluster and in each kube-proxy mode: curl
 * to a ClusterIP from a node, to a NodePort from the workstation and from
 * inside a Pod reaches one of the Service's Pods and gets exactly what that
 * Pod answers directly; a Service without endpoints is refused at once
 * (iptables' REJECT, nftables' reject-chain, IPVS's empty virtual server on
 * a local address), with curl 8's `Failed to connect to <ip> port <port>
 * after 0 ms: Couldn't connect to server`; and when kube-proxy stops, its
 * node keeps the rules it last wrote, so some connections still go to a
 * deleted Pod's address, where nobody answers ARP and connect() fails with
 * EHOSTUNREACH after the kernel's three one-second probes.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { Cluster } from './cluster.ts';

type Mode = 'iptables' | 'ipvs' | 'nftables';

interface Fixture {
	cluster: Cluster;
	clusterIP: string;
	emptyIP: string;
	nodePort: number;
	pods: Array<{ name: string; ip: string; node: string }>;
}

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

/** Three nginx Pods behind `web` (a NodePort Service), and `empty`, a Service that selects nothing. */
function serviceCluster(mode: Mode): Fixture {
	const cluster = new Cluster({ seed: 7, kubeProxyMode: mode });
	run(cluster, 'kubectl create deployment web --image=nginx:1.29 --replicas=3');
	run(cluster, 'kubectl expose deployment web --port=80 --type=NodePort');
	run(cluster, 'kubectl create service clusterip empty --tcp=80:80');
	cluster.settle({ maxMs: 120_000 });
	// A Pod without a readiness probe is Ready once its container started, a moment before nginx listens.
	cluster.advance('5s');
	const spec = (name: string) => cluster.get('services', 'default', name)?.spec as { clusterIP: string; ports: Array<{ nodePort?: number }> };
	const pods = cluster.list('pods', 'default').map((p) => ({ name: p.metadata.name ?? '', ip: (p.status as { podIP: string }).podIP, node: (p.spec as { nodeName: string }).nodeName }));
	expect(pods).toHaveLength(3);
	return { cluster, clusterIP: spec('web').clusterIP, emptyIP: spec('empty').clusterIP, nodePort: spec('web').ports[0].nodePort!, pods };
}

/** Where each curl connection landed since `afterSeq` (the `curl` `connect` trace events name the endpoint). */
function landings(cluster: Cluster, afterSeq: number): string[] {
	return cluster
		.trace({ afterSeq })
		.filter((e) => e.component === 'curl' && e.action === 'connect')
		.map((e) => /→ (\d+\.\d+\.\d+\.\d+):\d+/.exec(e.msg)?.[1] ?? e.msg);
}

const lastSeq = (cluster: Cluster) => cluster.trace().at(-1)?.seq ?? 0;

const shared = new Map<Mode, Fixture>();
/** One cluster per mode for the tests that only read (curl changes nothing but the clock). */
function fixtureFor(mode: Mode): Fixture {
	let f = shared.get(mode);
	if (!f) shared.set(mode, (f = serviceCluster(mode)));
	return f;
}

describe.each(['iptables', 'ipvs', 'nftables'] as const)('Services in %s mode', (mode) => {
	it('a ClusterIP reached from a node shell lands on the Service’s Pods and returns the Pod’s own answer', () => {
		const { cluster, clusterIP, pods } = fixtureFor(mode);
		const direct = run(cluster, `ssh node-1 curl -s http://${pods[0].ip}/`).stdout;
		expect(direct).toContain('nginx');
		const since = lastSeq(cluster);
		for (let i = 0; i < 9; i++) expect(run(cluster, `ssh node-1 curl -s http://${clusterIP}/`).stdout).toBe(direct);
		const reached = landings(cluster, since);
		expect(reached).toHaveLength(9);
		expect(reached.every((ip) => pods.some((p) => p.ip === ip))).toBe(true);
		// Spread over the endpoints: random draws (iptables' statistic rules, nftables' numgen) or IPVS's round robin.
		expect(new Set(reached).size).toBeGreaterThan(1);
		if (mode === 'ipvs') expect(new Set(reached.slice(0, 3)).size).toBe(3);
	});

	it('a NodePort answers from the workstation on every node’s address', () => {
		const { cluster, nodePort, pods } = fixtureFor(mode);
		const page = cluster.exec(`ssh node-2 curl -s http://${pods[1].ip}/`).stdout;
		for (const nodeIp of ['192.168.56.10', '192.168.56.11', '192.168.56.12']) {
			expect(cluster.exec(`curl -s http://${nodeIp}:${nodePort}/`)).toMatchObject({ stdout: page, exitCode: 0 });
		}
	});

	it('a Service without endpoints is refused at once', () => {
		const { cluster, emptyIP } = fixtureFor(mode);
		const r = cluster.exec(`ssh node-1 curl http://${emptyIP}/`);
		expect(r).toMatchObject({ stdout: '', stderr: `curl: (7) Failed to connect to ${emptyIP} port 80 after 0 ms: Couldn't connect to server\n`, exitCode: 7 });
	});

	it('curl inside a Pod resolves the Service’s name through cluster DNS and reaches a Pod', () => {
		const { cluster, pods } = fixtureFor(mode);
		const page = cluster.exec(`ssh node-1 curl -s http://${pods[2].ip}/`).stdout;
		for (const name of ['web', 'web.default', 'web.default.svc.cluster.local']) {
			expect(cluster.exec(`kubectl exec ${pods[0].name} -- curl -s http://${name}`)).toMatchObject({ stdout: page, exitCode: 0 });
		}
		expect(cluster.exec(`kubectl exec ${pods[0].name} -- curl -s http://nope`)).toMatchObject({ exitCode: 6 });
	});

	it('kube-proxy names its mode in its log, and only the IPVS proxier warns that it is deprecated', () => {
		const { cluster } = fixtureFor(mode);
		const proxyPod = cluster.list('pods', 'kube-system').find((p) => (p.metadata.name ?? '').startsWith('kube-proxy-') && (p.spec as { nodeName: string }).nodeName === 'node-1')!;
		const log = run(cluster, `kubectl -n kube-system logs ${proxyPod.metadata.name ?? ''}`).stdout;
		expect(log).toContain(` "Using ${mode} Proxier"\n`);
		expect(log).toContain(' "Caches are synced" controller="node config"\n');
		const deprecation = "The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.";
		expect(log.includes(`] "${deprecation}"`)).toBe(mode === 'ipvs');
		const events = cluster.list('events', 'default').filter((e) => (e as KubeObject & { involvedObject: { name: string } }).involvedObject.name === 'node-1' && (e as KubeObject & { reportingComponent?: string }).reportingComponent === 'kube-proxy');
		expect(events.map((e) => [(e as KubeObject & { type: string }).type, (e as KubeObject & { reason: string }).reason])).toEqual(mode === 'ipvs' ? [['Normal', 'Starting'], ['Warning', 'IPVSDeprecation']] : [['Normal', 'Starting']]);
		// events.k8s.io: reported by kube-proxy-<hostname>, action StartKubeProxy (server.go).
		expect(events.map((e) => [(e as KubeObject & { reportingInstance: string }).reportingInstance, (e as KubeObject & { action: string }).action])[0]).toEqual(['kube-proxy-node-1', 'StartKubeProxy']);
	});

	it('kube-proxy’s health server answers on 10256 from anywhere, its metrics only on 127.0.0.1:10249', () => {
		const { cluster } = fixtureFor(mode);
		const health = cluster.exec('curl -s http://192.168.56.11:10256/healthz');
		expect(health.exitCode).toBe(0);
		expect(JSON.parse(health.stdout)).toMatchObject({ nodeEligible: true });
		expect(cluster.exec('ssh node-1 curl -s http://127.0.0.1:10249/metrics').stdout).toContain('# TYPE kubeproxy_sync_proxy_rules_last_timestamp_seconds gauge\n');
		expect(cluster.exec('curl http://192.168.56.11:10249/metrics')).toMatchObject({ stderr: "curl: (7) Failed to connect to 192.168.56.11 port 10249 after 0 ms: Couldn't connect to server\n", exitCode: 7 });
	});

	it(mode === 'ipvs' ? 'binds every ClusterIP to the kube-ipvs0 dummy device' : 'has no kube-ipvs0 device', () => {
		const { cluster } = fixtureFor(mode);
		const r = cluster.exec('ssh node-1 ip addr show kube-ipvs0');
		if (mode !== 'ipvs') {
			expect(r).toMatchObject({ stdout: '', stderr: 'Device "kube-ipvs0" does not exist.\n', exitCode: 1 });
			return;
		}
		const lines = r.stdout.split('\n');
		expect(lines[0]).toMatch(/^\d+: kube-ipvs0: <BROADCAST,NOARP> mtu 1500 qdisc noop state DOWN group default $/);
		const bound = lines.filter((l) => l.startsWith('    inet ')).map((l) => /inet (\S+)\/32 scope global kube-ipvs0$/.exec(l)?.[1]);
		const clusterIPs = cluster.list('services').map((s) => (s.spec as { clusterIP: string }).clusterIP);
		expect([...bound].sort()).toEqual([...clusterIPs].sort());
	});
});

/** What lists a node's rules in each mode, and how a rule that sends traffic to an endpoint reads there. */
const RULES: Record<Mode, { list: string; to: (ip: string) => string }> = {
	iptables: { list: 'iptables-save -t nat', to: (ip) => `-j DNAT --to-destination ${ip}:80` },
	ipvs: { list: 'ipvsadm -Ln', to: (ip) => `  -> ${ip}:80 ` },
	// A gone endpoint's chain is flushed at once and deleted by a later sync, so only its dnat rule tells.
	nftables: { list: 'nft list ruleset', to: (ip) => `dnat to ${ip}:80` },
};

describe.each(['iptables', 'ipvs', 'nftables'] as const)('stale rules in %s mode', (mode) => {
	it('after kube-proxy stops, its node still sends some connections to a deleted Pod; started again, it catches up', () => {
		const { cluster, clusterIP, pods } = serviceCluster(mode);
		const gone = pods.find((p) => p.node === 'node-2')!;
		expect(cluster.stop('kube-proxy', 'node-1')).toBeUndefined();
		run(cluster, `kubectl delete pod ${gone.name}`);
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		const now = cluster.list('pods', 'default').map((p) => (p.status as { podIP: string }).podIP);
		expect(now).not.toContain(gone.ip);
		const fresh = now.find((ip) => !pods.some((p) => p.ip === ip))!;

		// node-1's rules are the ones kube-proxy wrote before it stopped; node-2's are current.
		const rulesOn = (node: string) => cluster.exec(`ssh ${node} ${RULES[mode].list}`).stdout;
		const to = RULES[mode].to;
		expect(rulesOn('node-1')).toContain(to(gone.ip));
		expect(rulesOn('node-1')).not.toContain(to(fresh));
		expect(rulesOn('node-2')).not.toContain(to(gone.ip));
		expect(rulesOn('node-2')).toContain(to(fresh));

		const results = Array.from({ length: 9 }, () => {
			const before = cluster.now();
			const r = cluster.exec(`ssh node-1 curl -s -S http://${clusterIP}/`);
			return { ...r, tookMs: cluster.now() - before };
		});
		const failed = results.filter((r) => r.exitCode !== 0);
		expect(failed.length).toBeGreaterThan(0);
		expect(failed.length).toBeLessThan(9);
		for (const r of failed) {
			// Three unanswered ARP probes a second apart, then EHOSTUNREACH.
			expect(r.exitCode).toBe(7);
			expect(r.stderr).toMatch(new RegExp(`^curl: \\(7\\) Failed to connect to ${clusterIP.replace(/\./g, '\\.')} port 80 after 3\\d{3} ms: Couldn't connect to server\\n$`));
			expect(r.tookMs).toBeGreaterThanOrEqual(3_000);
		}
		// IPVS's round robin takes the gone server in turn: every third connection.
		if (mode === 'ipvs') expect(failed).toHaveLength(3);

		// The same Service from node-2, whose kube-proxy runs, always answers.
		for (let i = 0; i < 6; i++) expect(cluster.exec(`ssh node-2 curl -s http://${clusterIP}/`).exitCode).toBe(0);

		// Once the fault is cleared, the kubelet restarts the crash-looping container when its back-off (at most 5 min) runs out.
		expect(cluster.start('kube-proxy', 'node-1')).toBeUndefined();
		cluster.advance('5m');
		expect(cluster.components().find((c) => c.component === 'kube-proxy' && c.node === 'node-1')?.running).toBe(true);
		expect(rulesOn('node-1')).not.toContain(to(gone.ip));
		expect(rulesOn('node-1')).toContain(to(fresh));
		for (let i = 0; i < 6; i++) expect(cluster.exec(`ssh node-1 curl -s http://${clusterIP}/`).exitCode).toBe(0);
	});
});

/** The address the Pod saw the connection come from, per the `curl` `connect` trace events since `afterSeq`. */
function seenFrom(cluster: Cluster, afterSeq: number): string[] {
	return cluster
		.trace({ afterSeq })
		.filter((e) => e.component === 'curl' && e.action === 'connect')
		.map((e) => /seen from (\S+)$/.exec(e.msg)?.[1] ?? e.msg);
}

describe.each(['iptables', 'nftables'] as const)('externalTrafficPolicy in %s mode', (mode) => {
	it('Cluster hides the client behind the node; Local keeps the client address and drops NodePort traffic on nodes without a local Pod', () => {
		const cluster = new Cluster({ seed: 11, kubeProxyMode: mode });
		run(cluster, 'kubectl create deployment solo --image=nginx:1.29');
		run(cluster, 'kubectl expose deployment solo --port=80 --type=NodePort');
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		const pod = cluster.list('pods', 'default')[0];
		const home = (pod.spec as { nodeName: string }).nodeName;
		const ipOf = (node: string) => ({ 'control-plane': '192.168.56.10', 'node-1': '192.168.56.11', 'node-2': '192.168.56.12' })[node]!;
		const away = home === 'node-1' ? 'node-2' : 'node-1';
		const nodePort = (cluster.get('services', 'default', 'solo')?.spec as { ports: Array<{ nodePort: number }> }).ports[0].nodePort;

		// Cluster (the default): any node forwards, and the Pod sees a node's address, not the workstation's.
		let since = lastSeq(cluster);
		expect(cluster.exec(`curl -s http://${ipOf(away)}:${nodePort}/`).exitCode).toBe(0);
		expect(seenFrom(cluster, since)[0]).not.toBe('192.168.56.1');

		run(cluster, `kubectl patch service solo -p '{"spec":{"externalTrafficPolicy":"Local"}}'`);
		cluster.settle({ maxMs: 30_000 });
		since = lastSeq(cluster);
		expect(cluster.exec(`curl -s http://${ipOf(home)}:${nodePort}/`).exitCode).toBe(0);
		expect(seenFrom(cluster, since)).toEqual(['192.168.56.1']);
		const before = cluster.now();
		expect(cluster.exec(`curl -sS -m 2 http://${ipOf(away)}:${nodePort}/`)).toMatchObject({ stderr: `curl: (28) Failed to connect to ${ipOf(away)} port ${nodePort} after 2000 ms: Timeout was reached\n`, exitCode: 28 });
		expect(cluster.now() - before).toBe(2_000);
		// The ClusterIP still reaches the Pod from anywhere: internalTrafficPolicy stays Cluster.
		const clusterIP = (cluster.get('services', 'default', 'solo')?.spec as { clusterIP: string }).clusterIP;
		expect(cluster.exec(`ssh ${away} curl -s http://${clusterIP}/`).exitCode).toBe(0);
		if (mode === 'iptables') expect(cluster.exec(`ssh ${away} iptables-save -t filter`).stdout).toContain(`-A KUBE-EXTERNAL-SERVICES -p tcp -m comment --comment "default/solo has no local endpoints" -m addrtype --dst-type LOCAL -m tcp --dport ${nodePort} -j DROP`);
	});
});

describe('nftables mode: an address in the service range that no Service holds', () => {
	it('is dropped by cluster-ips-check (v1.34+), so the connection times out', () => {
		const { cluster } = fixtureFor('nftables');
		const since = lastSeq(cluster);
		expect(cluster.exec('ssh node-1 curl -sS -m 2 http://10.96.200.200/')).toMatchObject({ stderr: 'curl: (28) Failed to connect to 10.96.200.200 port 80 after 2000 ms: Timeout was reached\n', exitCode: 28 });
		const connect = cluster.trace({ afterSeq: since }).find((e) => e.component === 'curl' && e.action === 'connect');
		expect(connect?.msg).toBe('10.96.200.200:80: no answer via firewall-check → services → service-endpoints-check → cluster-ips-check');
		expect(cluster.exec('ssh node-1 nft list chain ip kube-proxy cluster-ips-check').stdout).toContain('ip daddr 10.96.0.0/12 drop comment "Drop traffic to unallocated ClusterIPs"');
	});
});
