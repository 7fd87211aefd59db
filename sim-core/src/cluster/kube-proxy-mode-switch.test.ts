/**
 * Switching kube-proxy's mode the way a kubeadm cluster does it: edit
 * `mode:` in the `kube-proxy` ConfigMap's config.conf, then restart the
 * DaemonSet's Pods (`kubectl rollout restart` or deleting them). Each new
 * kube-proxy reads the file at start, logs the mode it runs in and cleans
 * up what it can of the other modes (platformCleanup in
 * cmd/kube-proxy/app/server_linux.go): nftables mode removes the iptables
 * and IPVS proxiers' rules; iptables and IPVS modes remove kube-proxy's
 * nftables tables; between iptables and IPVS nothing is removed (both are
 * "iptables-based"), so the old mode's chains stay, unreferenced, until a
 * `kube-proxy --cleanup` or a reboot.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

type Mode = 'iptables' | 'ipvs' | 'nftables';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

function webCluster(mode?: Mode) {
	const cluster = new Cluster({ seed: 5, ...(mode ? { kubeProxyMode: mode } : {}) });
	run(cluster, 'kubectl create deployment web --image=nginx:1.29 --replicas=2');
	run(cluster, 'kubectl expose deployment web --port=80');
	cluster.settle({ maxMs: 120_000 });
	cluster.advance('5s');
	const clusterIP = (cluster.get('services', 'default', 'web')?.spec as { clusterIP: string }).clusterIP;
	return { cluster, clusterIP };
}

/** Rewrites `mode:` in the ConfigMap's config.conf with get | sed | apply, as the articles do. */
function setMode(cluster: Cluster, from: string, to: Mode): void {
	run(cluster, `kubectl -n kube-system get cm kube-proxy -o yaml | sed 's/mode: ${from}$/mode: ${to}/' | kubectl apply -f -`);
	expect(run(cluster, 'kubectl -n kube-system get cm kube-proxy -o yaml').stdout).toMatch(new RegExp(`\\n {4}mode: ${to}\\n`));
}

function proxyLogs(cluster: Cluster): string[] {
	return cluster
		.list('pods', 'kube-system')
		.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-proxy')
		.map((p) => run(cluster, `kubectl -n kube-system logs ${p.metadata.name ?? ''}`).stdout);
}

function curlWorks(cluster: Cluster, clusterIP: string): void {
	for (const node of ['node-1', 'node-2']) for (let i = 0; i < 3; i++) expect(cluster.exec(`ssh ${node} curl -s -o /dev/null http://${clusterIP}/`).exitCode).toBe(0);
}

describe('switching kube-proxy’s mode through its ConfigMap', () => {
	it('iptables to nftables: the new Pods run the nftables proxier and remove the iptables rules', () => {
		const { cluster, clusterIP } = webCluster();
		expect(run(cluster, 'ssh node-1 iptables-save -t nat').stdout).toContain('-j KUBE-SVC-');
		setMode(cluster, '""', 'nftables');
		// Editing the ConfigMap alone changes nothing: kube-proxy reads its file only at start.
		cluster.advance('30s');
		expect(run(cluster, 'ssh node-1 nft list tables').stdout).toBe('');
		run(cluster, 'kubectl -n kube-system rollout restart ds kube-proxy');
		run(cluster, 'kubectl -n kube-system rollout status ds kube-proxy --timeout=2m');
		cluster.advance('5s');
		const logs = proxyLogs(cluster);
		expect(logs).toHaveLength(3);
		for (const log of logs) expect(log).toContain('"Using nftables Proxier"');
		// serveMetrics' /proxyMode answers the running mode, on 127.0.0.1:10249 only.
		expect(run(cluster, 'ssh node-1 curl -s http://127.0.0.1:10249/proxyMode').stdout).toBe('nftables');
		expect(cluster.exec('ssh node-2 curl -s http://192.168.56.11:10249/proxyMode').exitCode).toBe(7);
		for (const node of ['control-plane', 'node-1', 'node-2']) {
			const nat = run(cluster, `ssh ${node} iptables-save -t nat`).stdout;
			expect(nat).not.toMatch(/KUBE-(SVC|SEP|SERVICES|POSTROUTING)/);
			expect(run(cluster, `ssh ${node} nft list tables`).stdout).toBe('table ip kube-proxy\ntable ip6 kube-proxy\n');
			expect(run(cluster, `ssh ${node} nft list ruleset`).stdout).toContain(`${clusterIP} . tcp . 80 : goto service-`);
		}
		curlWorks(cluster, clusterIP);
	}, 60_000);

	it('iptables to ipvs by deleting the Pods: IPVS serves the Services and the iptables chains stay behind, unused', () => {
		const { cluster, clusterIP } = webCluster();
		setMode(cluster, '""', 'ipvs');
		run(cluster, 'kubectl -n kube-system delete pod -l k8s-app=kube-proxy');
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		for (const log of proxyLogs(cluster)) {
			expect(log).toContain('"Using ipvs Proxier"');
			expect(log).toContain("The ipvs proxier is now deprecated and may be removed in a future release. Please use 'nftables' instead.");
		}
		expect(run(cluster, 'ssh node-1 ipvsadm -Ln').stdout).toContain(`TCP  ${clusterIP}:80 rr\n`);
		const nat = run(cluster, 'ssh node-1 iptables-save -t nat').stdout;
		// Left by the iptables proxier (nothing cleans up between the two iptables-based modes)...
		expect(nat).toMatch(/^-A KUBE-SVC-\S+ .*-j KUBE-SEP-/m);
		// ...but KUBE-SERVICES is the IPVS proxier's now, and jumps to none of them.
		expect(nat).not.toMatch(/^-A KUBE-SERVICES .*-j KUBE-SVC-/m);
		expect(nat).toContain('-A KUBE-SERVICES -m set --match-set KUBE-CLUSTER-IP dst,dst -j ACCEPT\n');
		curlWorks(cluster, clusterIP);
	}, 60_000);

	it('ipvs to nftables removes the virtual servers, kube-ipvs0 and the IPVS chains; nftables back to iptables removes the nftables tables', () => {
		const { cluster, clusterIP } = webCluster('ipvs');
		expect(run(cluster, 'ssh node-1 ipvsadm -Ln').stdout).toContain(`${clusterIP}:80`);
		setMode(cluster, 'ipvs', 'nftables');
		run(cluster, 'kubectl -n kube-system rollout restart ds kube-proxy');
		run(cluster, 'kubectl -n kube-system rollout status ds kube-proxy --timeout=2m');
		cluster.advance('5s');
		expect(run(cluster, 'ssh node-1 ipvsadm -Ln').stdout).not.toContain(`${clusterIP}:80`);
		expect(run(cluster, 'ssh node-1 ip -br addr').stdout).not.toContain('kube-ipvs0');
		expect(run(cluster, 'ssh node-1 iptables-save').stdout).not.toMatch(/KUBE-(SERVICES|NODE-PORT|IPVS-FILTER|MARK-MASQ)/);
		curlWorks(cluster, clusterIP);

		setMode(cluster, 'nftables', 'iptables');
		run(cluster, 'kubectl -n kube-system rollout restart ds kube-proxy');
		run(cluster, 'kubectl -n kube-system rollout status ds kube-proxy --timeout=2m');
		cluster.advance('5s');
		for (const log of proxyLogs(cluster)) expect(log).toContain('"Using iptables Proxier"');
		expect(run(cluster, 'ssh node-1 nft list tables').stdout).toBe('');
		expect(run(cluster, 'ssh node-1 iptables-save -t nat').stdout).toMatch(/^-A KUBE-SERVICES .*-j KUBE-SVC-/m);
		curlWorks(cluster, clusterIP);
	}, 60_000);
});
