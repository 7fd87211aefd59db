/**
 * Cluster DNS through the public API, as a reader debugging a Service
 * meets it: busybox's nslookup and wget in a Pod resolve Service names
 * through CoreDNS and the search list, busybox 1.28's older nslookup
 * prints what kubernetes.io's "Debugging DNS Resolution" page shows, BIND's
 * tools answer on the nodes, a Pod's dnsPolicy decides its resolv.conf,
 * lookups fail as a resolver fails with no CoreDNS Pod ready, and an edit
 * of the `coredns` ConfigMap reaches the servers through the reload plugin.
 * A container whose own command is `wget` reaches the Service as it is at
 * that instant, and its output is the container's log.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

function dnsCluster(): { cluster: Cluster; clusterIP: string } {
	const cluster = new Cluster({ seed: 11 });
	run(cluster, 'kubectl create deployment web --image=nginx:1.29 --replicas=2');
	run(cluster, 'kubectl expose deployment web --port=80');
	run(cluster, 'kubectl run bb --image=busybox:1.36 -- sleep 3600');
	run(cluster, 'kubectl run old --image=busybox:1.28 -- sleep 3600');
	cluster.settle({ maxMs: 120_000 });
	cluster.advance('5s');
	return { cluster, clusterIP: (cluster.get('services', 'default', 'web')?.spec as { clusterIP: string }).clusterIP };
}

describe('DNS from a Pod', () => {
	it('busybox nslookup of a short name asks for each search domain and prints every answer, NXDOMAIN ones included', () => {
		const { cluster, clusterIP } = dnsCluster();
		const r = cluster.exec('kubectl exec bb -- nslookup web');
		expect(r.stdout).toContain(`Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: ${clusterIP}\n`);
		expect(r.stdout).toContain("** server can't find web.svc.cluster.local: NXDOMAIN");
		// busybox exits 1 when any reply failed.
		expect(r.exitCode).toBe(1);
		expect(run(cluster, 'kubectl exec bb -- nslookup web.default.svc.cluster.local').stdout).not.toContain('NXDOMAIN');
	});

	it("busybox 1.28's nslookup resolves kubernetes.default with the reverse names, as kubernetes.io's DNS page shows", () => {
		const { cluster } = dnsCluster();
		expect(run(cluster, 'kubectl exec old -- nslookup kubernetes.default').stdout).toBe('Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      kubernetes.default\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n');
		expect(cluster.exec('kubectl exec old -- nslookup nothere')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining("nslookup: can't resolve 'nothere'") });
	});

	it('wget reaches the Service by name and by ClusterIP, and fails in its own words', () => {
		const { cluster, clusterIP } = dnsCluster();
		const direct = run(cluster, `ssh node-1 curl -s http://${clusterIP}/`).stdout;
		expect(run(cluster, 'kubectl exec bb -- wget -qO- http://web').stdout).toBe(direct);
		expect(run(cluster, `kubectl exec bb -- wget -qO- http://${clusterIP}`).stdout).toBe(direct);
		expect(cluster.exec('kubectl exec bb -- wget -qO- http://nothere').stderr).toContain("wget: bad address 'nothere'");
		expect(cluster.exec('kubectl exec bb -- wget http://web/missing').stderr).toContain('wget: server returned error: HTTP/1.1 404 Not Found');
		// A download lands in the container's working directory.
		run(cluster, 'kubectl exec bb -- wget http://web');
		expect(run(cluster, 'kubectl exec bb -- cat index.html').stdout).toBe(direct);
	});

	it('with no CoreDNS Pod ready, lookups time out and names stop resolving; IPs still work', () => {
		const { cluster, clusterIP } = dnsCluster();
		run(cluster, 'kubectl -n kube-system scale deployment coredns --replicas=0');
		cluster.advance('40s');
		expect(cluster.exec('kubectl exec bb -- nslookup web').stdout).toBe(';; connection timed out; no servers could be reached\n\n');
		expect(cluster.exec('kubectl exec bb -- wget -qO- http://web').stderr).toContain("wget: bad address 'web'");
		expect(cluster.exec(`kubectl exec bb -- wget -qO- http://${clusterIP}`).exitCode).toBe(0);
	});

	it('dnsPolicy Default gives the node’s upstream resolver (so cluster names fail); None takes only dnsConfig', () => {
		const { cluster } = dnsCluster();
		cluster.writeFile(
			'pods.yaml',
			[
				'apiVersion: v1\nkind: Pod\nmetadata:\n  name: host-dns\nspec:\n  dnsPolicy: Default\n  containers:\n  - name: c\n    image: busybox:1.36\n    command: ["sleep", "3600"]',
				'apiVersion: v1\nkind: Pod\nmetadata:\n  name: custom-dns\nspec:\n  dnsPolicy: None\n  dnsConfig:\n    nameservers: ["10.96.0.10"]\n    searches: ["svc.cluster.local"]\n    options:\n    - name: ndots\n      value: "2"\n  containers:\n  - name: c\n    image: busybox:1.36\n    command: ["sleep", "3600"]',
			].join('\n---\n'),
		);
		run(cluster, 'kubectl apply -f pods.yaml');
		cluster.settle({ maxMs: 60_000 });
		expect(run(cluster, 'kubectl exec host-dns -- cat /etc/resolv.conf').stdout).toBe('nameserver 192.168.56.1\n');
		expect(cluster.exec('kubectl exec host-dns -- wget -qO- http://web').stderr).toContain("bad address 'web'");
		expect(run(cluster, 'kubectl exec custom-dns -- cat /etc/resolv.conf').stdout).toBe('search svc.cluster.local\nnameserver 10.96.0.10\noptions ndots:2\n');
		expect(run(cluster, 'kubectl exec custom-dns -- wget -qO- http://web.default').exitCode).toBe(0);
	});
});

describe('DNS from a node', () => {
	it("BIND's dig asks CoreDNS through the kube-dns Service; the node's own resolver knows no cluster names", () => {
		const { cluster, clusterIP } = dnsCluster();
		const r = run(cluster, 'ssh node-1 dig web.default.svc.cluster.local @10.96.0.10');
		expect(r.stdout).toContain(';; ->>HEADER<<- opcode: QUERY, status: NOERROR');
		expect(r.stdout).toContain(';; flags: qr aa rd; QUERY: 1, ANSWER: 1, AUTHORITY: 0, ADDITIONAL: 1\n;; WARNING: recursion requested but not available');
		expect(r.stdout).toContain(`web.default.svc.cluster.local.\t30\tIN\tA\t${clusterIP}`);
		expect(run(cluster, 'ssh node-1 dig +short web.default.svc.cluster.local @10.96.0.10').stdout).toBe(`${clusterIP}\n`);
		expect(cluster.exec('ssh node-1 nslookup web.default.svc.cluster.local').stdout).toContain("Server:\t\t127.0.0.53\nAddress:\t127.0.0.53#53\n\n** server can't find web.default.svc.cluster.local: SERVFAIL");
	});
});

describe('CoreDNS', () => {
	it('logs its configuration digest at start, reloads an edited Corefile, then logs each query once `log` is added', () => {
		const { cluster } = dnsCluster();
		const first = run(cluster, 'kubectl logs -n kube-system deploy/coredns').stdout;
		const sha = /Running configuration SHA512 = ([0-9a-f]{128})/.exec(first)?.[1];
		expect(sha).toBeDefined();
		const cm = cluster.get('configmaps', 'kube-system', 'coredns') as unknown as { data: { Corefile: string } } & object;
		cluster.writeFile('cm.json', JSON.stringify({ ...cm, data: { Corefile: cm.data.Corefile.replace('    errors\n', '    errors\n    log\n') } }));
		run(cluster, 'kubectl replace -f cm.json');
		// The kubelet remounts the volume within its sync period (1 min); reload looks every 30 s (+ up to 15 s).
		cluster.advance('110s');
		run(cluster, 'kubectl exec bb -- nslookup kubernetes.default.svc.cluster.local');
		const logs = run(cluster, 'kubectl logs -n kube-system -l k8s-app=kube-dns --tail=-1').stdout;
		expect(logs).toContain('[INFO] Reloading\n[INFO] plugin/health: Going into lameduck mode for 5s\n[INFO] plugin/reload: Running configuration SHA512 = ');
		expect(logs).toContain('[INFO] Reloading complete');
		expect(logs).not.toContain(`SHA512 = ${sha}\n[INFO] Reloading complete`);
		expect(logs).toMatch(/\[INFO\] 10\.244\.\d+\.\d+:\d+ - \d+ "A IN kubernetes\.default\.svc\.cluster\.local\. udp 54 false 512" NOERROR qr,aa,rd 70 0\.\d+s/);
	});

	it('only warns about a Corefile that does not parse (a brace missing), before any restart', () => {
		const { cluster } = dnsCluster();
		const cm = cluster.get('configmaps', 'kube-system', 'coredns') as unknown as { data: { Corefile: string } } & object;
		cluster.writeFile('cm.json', JSON.stringify({ ...cm, data: { Corefile: cm.data.Corefile.replace(/\}\n$/, '') } }));
		run(cluster, 'kubectl replace -f cm.json');
		cluster.advance('110s');
		const logs = run(cluster, 'kubectl logs -n kube-system -l k8s-app=kube-dns --tail=-1').stdout;
		expect(logs).toMatch(/\[WARNING\] plugin\/reload: Corefile parse failed: \/etc\/coredns\/Corefile:\d+ - Error during parsing: Unexpected EOF/);
		expect(logs).not.toContain('Restart failed');
	});

	it('keeps its running configuration when the edited Corefile is broken, and says why', () => {
		const { cluster } = dnsCluster();
		const cm = cluster.get('configmaps', 'kube-system', 'coredns') as unknown as { data: { Corefile: string } } & object;
		cluster.writeFile('cm.json', JSON.stringify({ ...cm, data: { Corefile: cm.data.Corefile.replace('    loop\n', '    lop\n') } }));
		run(cluster, 'kubectl replace -f cm.json');
		cluster.advance('110s');
		const logs = run(cluster, 'kubectl logs -n kube-system -l k8s-app=kube-dns --tail=-1').stdout;
		expect(logs).toContain("[ERROR] Restart failed: /etc/coredns/Corefile:20 - Error during parsing: Unknown directive 'lop'\n[ERROR] plugin/reload: Corefile changed but reload failed: /etc/coredns/Corefile:20 - Error during parsing: Unknown directive 'lop'\n");
		expect(run(cluster, 'kubectl exec bb -- nslookup web.default.svc.cluster.local').stdout).toContain('Name:\tweb.default.svc.cluster.local');
	});
});

describe('a container whose own command uses the network', () => {
	it('reaches the Service at the instant it runs: its log shows the page, then the refusals once the Service has no endpoints', () => {
		const { cluster } = dnsCluster();
		run(cluster, 'kubectl run one --image=busybox:1.36 --restart=Never -- wget -qO- http://web');
		run(cluster, `kubectl run loop --image=busybox:1.36 -- sh -c 'while true; do wget -q -O- http://web >/dev/null && echo ok || echo fail; sleep 2; done'`);
		cluster.settle({ maxMs: 60_000 });
		cluster.advance('7s');
		expect(run(cluster, 'kubectl logs one').stdout).toContain('nginx');
		expect(run(cluster, 'kubectl get pod one').stdout).toContain('Completed');
		expect(run(cluster, 'kubectl logs loop').stdout.split('\n').filter((l) => l === 'ok').length).toBeGreaterThanOrEqual(3);
		run(cluster, 'kubectl scale deployment web --replicas=0');
		cluster.advance('10s');
		const tail = run(cluster, 'kubectl logs loop --tail=2').stdout;
		expect(tail).toMatch(/wget: can't connect to remote host \(10\.\d+\.\d+\.\d+\): Connection refused\nfail\n/);
	});
});

describe('Service environment variables (enableServiceLinks)', () => {
	it('a Pod started after a Service exists gets its variables; one started before does not, until it is recreated; enableServiceLinks: false keeps only kubernetes', () => {
		const cluster = new Cluster({ seed: 5 });
		run(cluster, 'kubectl create deployment my-nginx --image=nginx:1.29 --replicas=1');
		cluster.settle({ maxMs: 120_000 });
		const podName = () => cluster.list('pods', 'default').find((p) => !p.metadata.deletionTimestamp)?.metadata.name ?? '';
		const before = run(cluster, `kubectl exec ${podName()} -- printenv`).stdout;
		expect(before).toContain('KUBERNETES_SERVICE_HOST=10.96.0.1\n');
		expect(before).not.toContain('MY_NGINX');
		run(cluster, 'kubectl expose deployment/my-nginx --port=80');
		run(cluster, 'kubectl scale deployment my-nginx --replicas=0');
		cluster.settle({ maxMs: 60_000 });
		run(cluster, 'kubectl scale deployment my-nginx --replicas=1');
		cluster.settle({ maxMs: 60_000 });
		const ip = (cluster.get('services', 'default', 'my-nginx')?.spec as { clusterIP: string }).clusterIP;
		const after = run(cluster, `kubectl exec ${podName()} -- printenv`).stdout;
		for (const line of [`MY_NGINX_SERVICE_HOST=${ip}`, 'MY_NGINX_SERVICE_PORT=80', `MY_NGINX_PORT=tcp://${ip}:80`, `MY_NGINX_PORT_80_TCP_ADDR=${ip}`, 'MY_NGINX_PORT_80_TCP_PROTO=tcp']) expect(after).toContain(`${line}\n`);
		cluster.writeFile('nolinks.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: nolinks\nspec:\n  enableServiceLinks: false\n  containers:\n  - name: c\n    image: busybox:1.36\n    command: ["sleep", "3600"]\n');
		run(cluster, 'kubectl apply -f nolinks.yaml');
		cluster.settle({ maxMs: 60_000 });
		const none = run(cluster, 'kubectl exec nolinks -- printenv').stdout;
		expect(none).toContain('KUBERNETES_SERVICE_HOST=');
		expect(none).not.toContain('MY_NGINX');
	});
});

describe("the DNS debugging images' tools", () => {
	it("jessie-dnsutils (kubernetes.io's dnsutils.yaml) has BIND's nslookup, host and dig; netshoot's dig answers +short", () => {
		const cluster = new Cluster({ seed: 13 });
		run(cluster, 'kubectl create deployment hostnames --image=registry.k8s.io/serve_hostname --replicas=2');
		run(cluster, 'kubectl expose deployment hostnames --port=80 --target-port=9376');
		run(cluster, 'kubectl run dnsutils --image=registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3 -- sleep infinity');
		run(cluster, 'kubectl run ns --image=nicolaka/netshoot -- sleep 3600');
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		const ip = (cluster.get('services', 'default', 'hostnames')?.spec as { clusterIP: string }).clusterIP;
		expect(run(cluster, 'kubectl exec dnsutils -- nslookup kubernetes.default').stdout).toBe('Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n');
		expect(run(cluster, 'kubectl exec dnsutils -- host hostnames').stdout).toBe(`hostnames.default.svc.cluster.local has address ${ip}\n`);
		const dig = run(cluster, 'kubectl exec dnsutils -- dig +search hostnames').stdout;
		expect(dig).toContain('; <<>> DiG 9.9.5-9+deb8u19-Debian <<>> +search hostnames');
		expect(dig).toContain(`hostnames.default.svc.cluster.local.\t30\tIN\tA\t${ip}`);
		expect(run(cluster, 'kubectl exec ns -- dig hostnames.default.svc.cluster.local +short').stdout).toBe(`${ip}\n`);
		// Every search name is NXDOMAIN, and the name as typed goes to the upstream, which this offline lab lacks: SERVFAIL.
		expect(cluster.exec('kubectl exec dnsutils -- host nothere')).toMatchObject({ exitCode: 1, stdout: 'Host nothere not found: 2(SERVFAIL)\n' });
		expect(cluster.exec('kubectl exec dnsutils -- host nothere.default.svc.cluster.local.')).toMatchObject({ exitCode: 1, stdout: 'Host nothere.default.svc.cluster.local. not found: 3(NXDOMAIN)\n' });
	});
});
