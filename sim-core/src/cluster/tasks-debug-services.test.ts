/**
 * kubernetes.io's task "Debug Services" (tasks/debug/debug-application/
 * debug-service), replayed step by step through the public API with the
 * page's own commands and images, checking what the page says each step
 * shows. Where the page is dated, the v1.36 answer is checked and the
 * comment says what changed: its `wget -O- hostnames` output is GNU wget's
 * (busybox says `bad address`), its `kubectl get svc` error had a `No
 * resources found.` line before v1.19, `kubectl get endpoints` now warns
 * that v1 Endpoints is deprecated (v1.33), and its iptables probabilities
 * are printed with 11 decimals by kube-proxy since v1.27 (0.33333333349).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

describe('Debug Services, step by step', () => {
	const cluster = new Cluster({ seed: 21 });
	let podIps: string[] = [];
	let podNames: string[] = [];
	let clusterIP = '';

	beforeAll(() => {
		// A Pod to run commands from (the page's interactive busybox); busybox:1.28 has the nslookup the page shows.
		run(cluster, 'kubectl run busybox --image=busybox:1.28 -- sleep 3600');
	});

	it('Setup: the hostnames Deployment, scaled to 3, serves each Pod’s name on 9376', () => {
		expect(run(cluster, 'kubectl create deployment hostnames --image=registry.k8s.io/serve_hostname').stdout).toBe('deployment.apps/hostnames created\n');
		expect(run(cluster, 'kubectl scale deployment hostnames --replicas=3').stdout).toBe('deployment.apps/hostnames scaled\n');
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('5s');
		const rows = run(cluster, 'kubectl get pods -l app=hostnames').stdout.trim().split('\n').slice(1);
		expect(rows).toHaveLength(3);
		for (const row of rows) expect(row).toMatch(/^hostnames-\w+-\w+\s+1\/1\s+Running\s+0\s+/);
		const pods = cluster.list('pods', 'default').filter((p) => p.metadata.labels?.app === 'hostnames');
		podIps = pods.map((p) => (p.status as { podIP: string }).podIP);
		podNames = pods.map((p) => p.metadata.name ?? '');
		const out = run(cluster, `kubectl exec busybox -- sh -c 'for ep in ${podIps.map((ip) => `${ip}:9376`).join(' ')}; do wget -qO- $ep; echo; done'`).stdout;
		// serve_hostname writes no newline; busybox's output is kept line by line here, so the `echo`s add empty lines.
		expect(out.split('\n').filter(Boolean).sort()).toEqual([...podNames].sort());
	});

	it('Does the Service exist? Not yet: the name does not resolve and kubectl says so', () => {
		expect(cluster.exec('kubectl exec busybox -- wget -O- hostnames').stderr).toContain("wget: bad address 'hostnames'");
		expect(cluster.exec('kubectl get svc hostnames')).toMatchObject({ exitCode: 1, stderr: 'Error from server (NotFound): services "hostnames" not found\n' });
		expect(run(cluster, 'kubectl expose deployment hostnames --port=80 --target-port=9376').stdout).toBe('service/hostnames exposed\n');
		clusterIP = (cluster.get('services', 'default', 'hostnames')?.spec as { clusterIP: string }).clusterIP;
		expect(run(cluster, 'kubectl get svc hostnames').stdout).toMatch(new RegExp(`^NAME\\s+TYPE\\s+CLUSTER-IP\\s+EXTERNAL-IP\\s+PORT\\(S\\)\\s+AGE\\nhostnames\\s+ClusterIP\\s+${clusterIP.replace(/\./g, '\\.')}\\s+<none>\\s+80/TCP\\s+0s\\n$`));
	});

	it('Does the Service work by DNS name? By short, namespaced and full name from a Pod, and from a node through 10.96.0.10', () => {
		cluster.advance('2s');
		const server = 'Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\n';
		expect(run(cluster, 'kubectl exec busybox -- nslookup hostnames').stdout).toBe(`${server}Name:      hostnames\nAddress 1: ${clusterIP} hostnames.default.svc.cluster.local\n`);
		expect(run(cluster, 'kubectl exec busybox -- nslookup hostnames.default').stdout).toBe(`${server}Name:      hostnames.default\nAddress 1: ${clusterIP} hostnames.default.svc.cluster.local\n`);
		expect(run(cluster, 'kubectl exec busybox -- nslookup hostnames.default.svc.cluster.local').stdout).toBe(`${server}Name:      hostnames.default.svc.cluster.local\nAddress 1: ${clusterIP} hostnames.default.svc.cluster.local\n`);
		expect(run(cluster, 'ssh node-1 nslookup hostnames.default.svc.cluster.local 10.96.0.10').stdout).toBe(`Server:\t\t10.96.0.10\nAddress:\t10.96.0.10#53\n\nName:\thostnames.default.svc.cluster.local\nAddress: ${clusterIP}\n\n`);
		expect(run(cluster, 'kubectl exec busybox -- cat /etc/resolv.conf').stdout).toBe('search default.svc.cluster.local svc.cluster.local cluster.local\nnameserver 10.96.0.10\noptions ndots:5\n');
		expect(run(cluster, 'kubectl exec busybox -- nslookup kubernetes.default').stdout).toBe(`${server}Name:      kubernetes.default\nAddress 1: 10.96.0.1 kubernetes.default.svc.cluster.local\n`);
	});

	it('Does the Service work by IP? Each request lands on one of the three Pods', () => {
		const out = run(cluster, `kubectl exec busybox -- sh -c 'for i in $(seq 1 3); do wget -qO- ${clusterIP}:80; echo; done'`).stdout.split('\n').filter(Boolean);
		expect(out).toHaveLength(3);
		for (const name of out) expect(podNames).toContain(name);
	});

	it('Is the Service defined correctly, and does it have Endpoints?', () => {
		const svc = JSON.parse(run(cluster, 'kubectl get service hostnames -o json').stdout) as { spec: { ports: Array<{ port: number; targetPort: number; protocol: string }>; selector: Record<string, string>; type: string; sessionAffinity: string } };
		expect(svc.spec).toMatchObject({ ports: [{ port: 80, targetPort: 9376, protocol: 'TCP' }], selector: { app: 'hostnames' }, type: 'ClusterIP', sessionAffinity: 'None' });
		const ep = run(cluster, 'kubectl get endpoints hostnames');
		expect(ep.stderr).toBe('Warning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\n');
		for (const ip of podIps) expect(ep.stdout).toContain(`${ip}:9376`);
	});

	it('Is kube-proxy working? Its rules name the Service, and curl from a node reaches a Pod', () => {
		const rules = run(cluster, 'ssh node-1 iptables-save | grep hostnames').stdout.trim().split('\n');
		expect(rules.filter((r) => /^-A KUBE-SVC-\w+ .*-m statistic --mode random --probability 0\.33333333349 -j KUBE-SEP-/.test(r))).toHaveLength(1);
		expect(rules.filter((r) => /^-A KUBE-SVC-\w+ .*-m statistic --mode random --probability 0\.50000000000 -j KUBE-SEP-/.test(r))).toHaveLength(1);
		expect(rules.filter((r) => /-j DNAT --to-destination 10\.244\.\d+\.\d+:9376$/.test(r))).toHaveLength(3);
		expect(rules.some((r) => r.includes(`-A KUBE-SERVICES -d ${clusterIP}/32 -p tcp -m comment --comment "default/hostnames cluster IP" -m tcp --dport 80 -j KUBE-SVC-`))).toBe(true);
		expect(podNames).toContain(run(cluster, `ssh node-1 curl -s ${clusterIP}:80`).stdout);
	});

	it('Edge case: a Pod reaches itself through its own Service IP (hairpin traffic)', () => {
		// serve_hostname's image has no shell or client; nginx's has curl.
		run(cluster, 'kubectl create deployment self --image=nginx:1.29');
		run(cluster, 'kubectl expose deployment self --port=80');
		cluster.settle({ maxMs: 60_000 });
		cluster.advance('5s');
		const pod = cluster.list('pods', 'default').find((p) => p.metadata.labels?.app === 'self')?.metadata.name ?? '';
		const ip = (cluster.get('services', 'default', 'self')?.spec as { clusterIP: string }).clusterIP;
		expect(run(cluster, `kubectl exec ${pod} -- curl -s http://${ip}/`).stdout).toContain('<title>Welcome to nginx!</title>');
		// The request came back through the Service, masqueraded to the node's bridge address (KUBE-MARK-MASQ for a hairpin).
		expect(run(cluster, `kubectl logs ${pod} --tail=1`).stdout).toMatch(/^10\.244\.\d+\.1 - - \[/);
	});
});
