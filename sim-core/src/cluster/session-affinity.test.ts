/**
 * `sessionAffinity: ClientIP`, followed in each kube-proxy mode with the
 * state where the kernel keeps it: iptables' xt_recent tables (`-m recent
 * --set` in the endpoint's chain, `--rcheck --seconds <timeout> --reap` in
 * the Service's), nftables' affinity sets with a timeout (`update
 * @affinity-...`), IPVS's persistence templates (`persistent <timeout>`).
 * The same client lands on the same endpoint until the timeout
 * (`sessionAffinityConfig.clientIP.timeoutSeconds`, default 10800) has
 * passed since its last connection or its endpoint is gone; different
 * clients spread; the state is the node's, so it goes with the power.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

type Mode = 'iptables' | 'ipvs' | 'nftables';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

const lastSeq = (cluster: Cluster) => cluster.trace().at(-1)?.seq ?? 0;

/** The endpoint one curl connection landed on (the curl `connect` trace event names it). */
function landOnce(cluster: Cluster, line: string): string {
	const since = lastSeq(cluster);
	run(cluster, line);
	const hits = cluster
		.trace({ afterSeq: since })
		.filter((e) => e.component === 'curl' && e.action === 'connect')
		.map((e) => /→ (\d+\.\d+\.\d+\.\d+):\d+/.exec(e.msg)?.[1] ?? e.msg);
	expect(hits).toHaveLength(1);
	return hits[0];
}

/** Three nginx Pods behind `web` with ClientIP affinity (`timeoutSeconds` when given), and four client Pods. */
function affinityCluster(mode: Mode, timeoutSeconds?: number) {
	const cluster = new Cluster({ seed: 7, kubeProxyMode: mode });
	run(cluster, 'kubectl create deployment web --image=nginx:1.29 --replicas=3');
	run(cluster, 'kubectl create deployment client --image=nginx:1.29 --replicas=4');
	run(cluster, 'kubectl expose deployment web --port=80');
	const config = timeoutSeconds === undefined ? '' : `,"sessionAffinityConfig":{"clientIP":{"timeoutSeconds":${timeoutSeconds}}}`;
	run(cluster, `kubectl patch service web -p '{"spec":{"sessionAffinity":"ClientIP"${config}}}'`);
	cluster.settle({ maxMs: 120_000 });
	cluster.advance('5s');
	const clusterIP = (cluster.get('services', 'default', 'web')?.spec as { clusterIP: string }).clusterIP;
	const podsOf = (app: string) => cluster.list('pods', 'default').filter((p) => p.metadata.labels?.app === app);
	const web = podsOf('web').map((p) => ({ name: p.metadata.name ?? '', ip: (p.status as { podIP: string }).podIP }));
	const clients = podsOf('client').map((p) => p.metadata.name ?? '');
	expect(web).toHaveLength(3);
	expect(clients).toHaveLength(4);
	return { cluster, clusterIP, web, clients };
}

const RULES: Record<Mode, { list: string; affinity: (seconds: number) => string }> = {
	iptables: { list: 'iptables-save -t nat', affinity: (s) => `-m recent --rcheck --seconds ${s} --reap --name KUBE-SEP-` },
	ipvs: { list: 'ipvsadm -Ln', affinity: (s) => ` rr persistent ${s}\n` },
	nftables: { list: 'nft list ruleset', affinity: (s) => `flags dynamic,timeout\n\t\ttimeout ${s === 10_800 ? '3h' : `${s}s`}\n` },
};

describe.each(['iptables', 'ipvs', 'nftables'] as const)('session affinity in %s mode', (mode) => {
	it('writes the default timeout of 10800 s into the rules and keeps each client on one endpoint; different clients spread', () => {
		const { cluster, clusterIP, web, clients } = affinityCluster(mode);
		expect(run(cluster, `ssh node-1 ${RULES[mode].list}`).stdout).toContain(RULES[mode].affinity(10_800));
		const chosen = new Set<string>();
		const curl = (client: string) => landOnce(cluster, `kubectl exec ${client} -- curl -s http://${clusterIP}/`);
		const firsts = clients.map(curl);
		for (const first of firsts) expect(web.map((w) => w.ip)).toContain(first);
		for (let round = 0; round < 3; round++) {
			clients.forEach((client, i) => expect(curl(client)).toBe(firsts[i]));
			cluster.advance('20m');
		}
		for (const first of firsts) chosen.add(first);
		// Nodes are clients too (their own address), each with its own node's rules and state.
		for (const node of ['control-plane', 'node-1', 'node-2']) {
			const first = landOnce(cluster, `ssh ${node} curl -s http://${clusterIP}/`);
			for (let i = 0; i < 4; i++) expect(landOnce(cluster, `ssh ${node} curl -s http://${clusterIP}/`)).toBe(first);
			chosen.add(first);
		}
		expect(chosen.size).toBeGreaterThan(1);
	}, 60_000);

	it('forgets a client once the timeout has passed since its last connection, so it may land elsewhere', () => {
		const { cluster, clusterIP } = affinityCluster(mode, 30);
		expect(run(cluster, `ssh node-1 ${RULES[mode].list}`).stdout).toContain(RULES[mode].affinity(30));
		const curl = `ssh node-1 curl -s http://${clusterIP}/`;
		const periods: string[] = [];
		for (let period = 0; period < 8; period++) {
			const first = landOnce(cluster, curl);
			// Within the timeout of the last connection: sticky, even long after the first.
			for (let i = 0; i < 3; i++) {
				cluster.advance('25s');
				expect(landOnce(cluster, curl)).toBe(first);
			}
			periods.push(first);
			cluster.advance('31s');
		}
		expect(new Set(periods).size).toBeGreaterThan(1);
	}, 60_000);

	it('sends the client elsewhere when its endpoint goes, and keeps it there', () => {
		const { cluster, clusterIP, web } = affinityCluster(mode);
		const curl = `ssh node-2 curl -s http://${clusterIP}/`;
		const first = landOnce(cluster, curl);
		const gone = web.find((w) => w.ip === first)!;
		run(cluster, `kubectl delete pod ${gone.name}`);
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		const next = landOnce(cluster, curl);
		expect(next).not.toBe(first);
		const ready = cluster.list('pods', 'default').filter((p) => p.metadata.labels?.app === 'web').map((p) => (p.status as { podIP: string }).podIP);
		expect(ready).toContain(next);
		for (let i = 0; i < 4; i++) expect(landOnce(cluster, curl)).toBe(next);
	}, 60_000);

	it('keeps the affinity state in the node’s kernel: a power cycle forgets it', () => {
		const { cluster, clusterIP } = affinityCluster(mode);
		// The clients the node's kernel remembers: its xt_recent tables, IPVS templates, nftables affinity sets.
		const remembered = () => {
			const dp = cluster.hosts.get('node-1')!.network.dataplane;
			return [
				...Object.values(dp.recent ?? {}).flatMap((entries) => entries.map((e) => e.address)),
				...dp.ipvs.virtualServers.flatMap((vs) => (vs.templates ?? []).map((t) => t.client)),
				...dp.nftables.flatMap((t) => t.sets.filter((set) => set.name.startsWith('affinity-')).flatMap((set) => set.elements.map((e) => e.key))),
			];
		};
		expect(remembered()).toEqual([]);
		landOnce(cluster, `ssh node-1 curl -s http://${clusterIP}/`);
		// The node's own address is the client.
		expect(remembered()).toEqual(['192.168.56.11']);
		if (mode === 'ipvs') {
			// ipvsadm -Lnc lists the template: state NONE, client port 0, three hours left.
			const table = run(cluster, 'ssh node-1 ipvsadm -Lnc').stdout;
			expect(table).toMatch(/^IPVS connection entries\npro expire state {7}source {13}virtual {12}destination {7}\n/);
			expect(table).toMatch(new RegExp(`^TCP 180:00  NONE {8}192\\.168\\.56\\.11:0 +${clusterIP.replace(/\./g, '\\.')}:80 +10\\.244\\.\\d+\\.\\d+:80 *$`, 'm'));
		}
		if (mode === 'nftables') expect(run(cluster, 'ssh node-1 nft list ruleset').stdout).toContain('elements = { 192.168.56.11 expires 3h }');
		expect(cluster.powerOff('node-1')).toBeUndefined();
		expect(remembered()).toEqual([]);
		expect(cluster.powerOn('node-1')).toBeUndefined();
		cluster.settle({ maxMs: 180_000 });
		cluster.advance('10s');
		expect(remembered()).toEqual([]);
	}, 60_000);
});
