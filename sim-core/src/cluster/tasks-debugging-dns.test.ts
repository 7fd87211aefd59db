/**
 * kubernetes.io's task "Debugging DNS Resolution" (tasks/administer-cluster/
 * dns-debugging-resolution), replayed step by step through the public API
 * with the page's own manifest (dnsutils.yaml, fetched by URL) and commands,
 * checking what each step shows. Where the page is dated, the v1.36 answer
 * is checked and the comment says what changed:
 * - its `nslookup kubernetes.default` output is busybox's (`Address 1:`);
 *   the dnsutils image (jessie-dnsutils) carries BIND's nslookup, which
 *   prints `Address: 10.96.0.10#53` and the fully qualified name;
 * - its healthy CoreDNS log (CoreDNS 1.2, 2018) has dated lines and an MD5
 *   configuration hash; CoreDNS 1.14 prints no date and a SHA512;
 * - its `kubectl get ep` now warns that v1 Endpoints is deprecated (v1.33);
 *   EndpointSlices, labelled kubernetes.io/service-name, are the current way;
 * - its example Corefile uses the `proxy` plugin (removed in CoreDNS 1.6),
 *   kubeadm's uses `forward`.
 * The addresses are kubeadm's (10.96.0.10 for kube-dns), not the page's 10.0.0.10.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

describe('Debugging DNS Resolution, step by step', () => {
	const cluster = new Cluster({ seed: 22 });
	let corednsIps: string[] = [];

	beforeAll(() => {
		cluster.settle({ maxMs: 120_000 });
		corednsIps = cluster
			.list('pods', 'kube-system')
			.filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns')
			.map((p) => (p.status as { podIP: string }).podIP)
			.sort();
	});

	it('Create a simple Pod to use as a test environment: dnsutils.yaml by URL, then Running', () => {
		expect(run(cluster, 'kubectl apply -f https://k8s.io/examples/admin/dns/dnsutils.yaml').stdout).toBe('pod/dnsutils created\n');
		cluster.settle({ maxMs: 120_000 });
		expect(run(cluster, 'kubectl get pods dnsutils').stdout).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\ndnsutils\s+1\/1\s+Running\s+0\s+\d+s\n$/);
		const pod = cluster.get('pods', 'default', 'dnsutils');
		expect((pod?.spec as { containers: Array<{ image: string }> }).containers[0].image).toBe('registry.k8s.io/e2e-test-images/jessie-dnsutils:1.3');
	});

	it('DNS works: nslookup kubernetes.default answers the kubernetes Service’s ClusterIP', () => {
		expect(run(cluster, 'kubectl exec -i -t dnsutils -- nslookup kubernetes.default').stdout).toBe(
			'Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\tkubernetes.default.svc.cluster.local\nAddress: 10.96.0.1\n\n',
		);
	});

	it('Check the local DNS configuration first: the search path and the name server', () => {
		// A bare-metal kubeadm cluster adds no cloud search domains (the page's google.internal lines).
		expect(run(cluster, 'kubectl exec -ti dnsutils -- cat /etc/resolv.conf').stdout).toBe('search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
	});

	it('Check if the DNS pod is running: two coredns Pods behind the k8s-app=kube-dns label', () => {
		const rows = run(cluster, 'kubectl get pods --namespace=kube-system -l k8s-app=kube-dns').stdout.trim().split('\n');
		expect(rows[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE$/);
		expect(rows.slice(1)).toHaveLength(2);
		for (const row of rows.slice(1)) expect(row).toMatch(/^coredns-[a-z0-9]+-[a-z0-9]{5}\s+1\/1\s+Running\s+0\s+/);
	});

	it('Check for errors in the DNS pod: the page’s for loop prints each Pod’s healthy start', () => {
		const out = run(cluster, 'for p in $(kubectl get pods --namespace=kube-system -l k8s-app=kube-dns -o name); do kubectl logs --namespace=kube-system $p; done').stdout;
		const starts = out.split('\n').filter((l) => l === '.:53');
		expect(starts).toHaveLength(2);
		expect(out).toMatch(/^\.:53\n\[INFO\] plugin\/reload: Running configuration SHA512 = [0-9a-f]{128}\nCoreDNS-1\.14\.2\nlinux\/amd64, go1\.26\.1, [0-9a-f]{7}\n/);
		expect(out).not.toMatch(/\[ERROR\]|\[WARNING\]/);
	});

	it('Is DNS service up? kube-dns on 10.96.0.10 with 53/UDP, 53/TCP and the metrics port', () => {
		expect(run(cluster, 'kubectl get svc --namespace=kube-system').stdout).toMatch(/\nkube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s+\d+s\n/);
	});

	it('Are DNS endpoints exposed? Both CoreDNS Pods, in the v1 Endpoints (deprecated) and in the EndpointSlice', () => {
		const ep = run(cluster, 'kubectl get ep kube-dns --namespace=kube-system');
		expect(ep.stderr).toBe('Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n');
		expect(ep.stdout).toMatch(new RegExp(`\\nkube-dns\\s+${corednsIps[0].replace(/\./g, '\\.')}:53,`));
		const slices = run(cluster, 'kubectl get endpointslices -l kubernetes.io/service-name=kube-dns --namespace=kube-system').stdout;
		const row = slices.trim().split('\n')[1];
		expect(row).toMatch(/^kube-dns-[a-z0-9]{5}\s+IPv4\s+53,53,9153\s+\S+\s+\d+s$/);
		expect(row.split(/\s+/)[3].split(',').sort()).toEqual(corednsIps);
	});

	it('Are DNS queries being received? With `log` added to the Corefile, CoreDNS reloads and logs each query', () => {
		// `kubectl edit` opens an editor; the same change through a file, as a script would make it.
		run(cluster, 'kubectl -n kube-system get configmap coredns -o yaml > coredns.yaml');
		run(cluster, "sed -i 's/^        errors$/        log\\n        errors/' coredns.yaml");
		expect(run(cluster, 'kubectl apply -f coredns.yaml').stdout).toBe('configmap/coredns configured\n');
		// "It may take up to a minute or two": the kubelet's ConfigMap refresh, then the reload plugin's 30 s check.
		cluster.advance('2m');
		const logs = run(cluster, 'kubectl logs --namespace=kube-system -l k8s-app=kube-dns').stdout;
		expect(logs.match(/^\[INFO\] Reloading complete$/gm)).toHaveLength(2);
		run(cluster, 'kubectl exec -i -t dnsutils -- nslookup kubernetes.default');
		const after = run(cluster, 'kubectl logs --namespace=kube-system -l k8s-app=kube-dns').stdout;
		const dnsutilsIp = (cluster.get('pods', 'default', 'dnsutils')?.status as { podIP: string }).podIP;
		// ndots:5 sends the first search-list name first: NXDOMAIN, then the Service's own name.
		const queries = after.split('\n').filter((l) => l.includes(dnsutilsIp));
		expect(queries).toHaveLength(2);
		expect(queries[0]).toMatch(new RegExp(`^\\[INFO\\] ${dnsutilsIp.replace(/\./g, '\\.')}:\\d+ - \\d+ "A IN kubernetes\\.default\\.default\\.svc\\.cluster\\.local\\. udp \\d+ false 512" NXDOMAIN qr,aa,rd \\d+ [\\d.]+s$`));
		expect(queries[1]).toMatch(/"A IN kubernetes\.default\.svc\.cluster\.local\. udp 54 false 512" NOERROR qr,aa,rd \d+ [\d.]+s$/);
	});

	it('Does CoreDNS have sufficient permissions? system:coredns lists and watches what the kubernetes plugin reads', () => {
		const out = run(cluster, 'kubectl describe clusterrole system:coredns -n kube-system').stdout;
		for (const resource of ['endpoints', 'namespaces', 'pods', 'services', 'endpointslices.discovery.k8s.io']) {
			expect(out).toMatch(new RegExp(`\\n  ${resource.replace(/\./g, '\\.')}\\s+\\[\\]\\s+\\[\\]\\s+\\[list watch\\]\\n`));
		}
	});

	it('Are you in the right namespace for the service? A short name resolves only in the Pod’s own namespace', () => {
		expect(cluster.exec('kubectl exec -i -t dnsutils -- nslookup kube-dns')).toMatchObject({ exitCode: 1 });
		expect(run(cluster, 'kubectl exec -i -t dnsutils -- nslookup kube-dns.kube-system').stdout).toContain('Name:\tkube-dns.kube-system.svc.cluster.local\nAddress: 10.96.0.10\n');
	});

	it('When CoreDNS is down, lookups fail as the page shows: busybox cannot resolve, BIND reaches no server', () => {
		run(cluster, 'kubectl run bb --image=busybox:1.28 --restart=Never -- sleep 3600');
		run(cluster, 'kubectl -n kube-system scale deployment coredns --replicas=0');
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		const busybox = cluster.exec('kubectl exec bb -- nslookup kubernetes.default');
		expect(busybox.stdout).toBe('Server:    10.96.0.10\nAddress 1: 10.96.0.10\n\n');
		expect(busybox.stderr).toBe("nslookup: can't resolve 'kubernetes.default'\ncommand terminated with exit code 1\n");
		const bind = cluster.exec('kubectl exec -i -t dnsutils -- nslookup kubernetes.default');
		expect(bind.exitCode).toBe(1);
		expect(bind.stdout).toContain(';; no servers could be reached');
		// Scaled back, DNS answers again once the new Pods pass their readiness probe (/ready on 8181, every 10 s).
		run(cluster, 'kubectl -n kube-system scale deployment coredns --replicas=2');
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('30s');
		expect(run(cluster, 'kubectl exec -i -t dnsutils -- nslookup kubernetes.default').stdout).toContain('Address: 10.96.0.1\n');
	});
});
