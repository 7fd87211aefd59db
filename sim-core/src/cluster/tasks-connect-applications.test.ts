/**
 * kubernetes.io's tutorial "Connecting Applications with Services"
 * (tutorials/services/connect-applications-service), replayed step by step
 * through the public API with the page's own manifest (run-my-nginx.yaml by
 * URL), commands and images, checking what the page says each step shows.
 * Adapted to v1.36 where the page is dated, and said so where it matters:
 * the addresses are kubeadm's (10.96.0.0/12 Services, 10.244.0.0/16 Pods);
 * the page's `kubectl get svc` shows kube-dns with 53/UDP,53/TCP only, where
 * CoreDNS's Service also has its 9153/TCP metrics port. The part that
 * secures the Service with TLS (openssl, Secrets, nginxhttps) is not replayed.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

function run(cluster: Cluster, line: string) {
	const r = cluster.exec(line);
	expect(r.exitCode, `${line}: ${r.stderr}`).toBe(0);
	return r;
}

const escape = (s: string) => s.replace(/\./g, '\\.');

describe('Connecting Applications with Services, step by step', () => {
	const cluster = new Cluster({ seed: 23 });
	const nginxPods = () =>
		cluster
			.list('pods', 'default')
			.filter((p) => p.metadata.labels?.run === 'my-nginx' && !p.metadata.deletionTimestamp)
			.map((p) => ({ name: p.metadata.name ?? '', ip: (p.status as { podIP: string }).podIP, node: (p.spec as { nodeName: string }).nodeName }));
	let clusterIP = '';

	beforeAll(() => {
		cluster.settle({ maxMs: 120_000 });
	});

	it('Exposing Pods to the cluster: two nginx Pods on two nodes, each with its own IP', () => {
		expect(run(cluster, 'kubectl apply -f https://k8s.io/examples/service/networking/run-my-nginx.yaml').stdout).toBe('deployment.apps/my-nginx created\n');
		cluster.settle({ maxMs: 120_000 });
		const wide = run(cluster, 'kubectl get pods -l run=my-nginx -o wide').stdout.trim().split('\n');
		expect(wide[0]).toMatch(/^NAME\s+READY\s+STATUS\s+RESTARTS\s+AGE\s+IP\s+NODE\s+NOMINATED NODE\s+READINESS GATES$/);
		const pods = nginxPods();
		expect(pods).toHaveLength(2);
		expect(new Set(pods.map((p) => p.node)).size).toBe(2);
		for (const p of pods) expect(wide.slice(1).join('\n')).toMatch(new RegExp(`^${p.name}\\s+1/1\\s+Running\\s+0\\s+\\S+\\s+${escape(p.ip)}\\s+${p.node}\\s+<none>\\s+<none>$`, 'm'));
		// The page's custom column prints the podIPs list in Go's map notation.
		const columns = run(cluster, 'kubectl get pods -l run=my-nginx -o custom-columns=POD_IP:.status.podIPs').stdout;
		expect(columns.split('\n')[0]).toBe('POD_IP');
		expect(columns.trim().split('\n').slice(1).sort()).toEqual(pods.map((p) => `[map[ip:${p.ip}]]`).sort());
	});

	it('Creating a Service: expose gives a ClusterIP, and its endpoints are the two Pods', () => {
		expect(run(cluster, 'kubectl expose deployment/my-nginx').stdout).toBe('service/my-nginx exposed\n');
		cluster.advance('1s');
		clusterIP = (cluster.get('services', 'default', 'my-nginx')?.spec as { clusterIP: string }).clusterIP;
		expect(clusterIP).toMatch(/^10\.(9[6-9]|10[0-9]|11[01])\./);
		expect(run(cluster, 'kubectl get svc my-nginx').stdout).toMatch(new RegExp(`\\nmy-nginx\\s+ClusterIP\\s+${escape(clusterIP)}\\s+<none>\\s+80/TCP\\s+1s\\n$`));
		const described = run(cluster, 'kubectl describe svc my-nginx').stdout;
		expect(described).toMatch(/\nSelector:\s+run=my-nginx\n/);
		expect(described).toMatch(/\nPort:\s+<unset>\s+80\/TCP\nTargetPort:\s+80\/TCP\n/);
		const endpoints = /\nEndpoints:\s+(\S+)\n/.exec(described)?.[1] ?? '';
		expect(endpoints.split(',').sort()).toEqual(nginxPods().map((p) => `${p.ip}:80`).sort());
		const slice = run(cluster, 'kubectl get endpointslices -l kubernetes.io/service-name=my-nginx').stdout.trim().split('\n')[1];
		expect(slice).toMatch(/^my-nginx-[a-z0-9]{5}\s+IPv4\s+80\s+\S+\s+1s$/);
		expect(slice.split(/\s+/)[3].split(',').sort()).toEqual(nginxPods().map((p) => p.ip).sort());
	});

	it('Environment variables: Pods older than the Service lack its variables; recreated ones have them', () => {
		const before = run(cluster, `kubectl exec ${nginxPods()[0].name} -- printenv | grep SERVICE`).stdout;
		expect(before.trim().split('\n').sort()).toEqual(['KUBERNETES_SERVICE_HOST=10.96.0.1', 'KUBERNETES_SERVICE_PORT=443', 'KUBERNETES_SERVICE_PORT_HTTPS=443']);
		const old = nginxPods().map((p) => p.name);
		// The page's one line: the second scale runs after the first has taken effect, as on a real cluster.
		run(cluster, 'kubectl scale deployment my-nginx --replicas=0; kubectl scale deployment my-nginx --replicas=2;');
		cluster.settle({ maxMs: 120_000 });
		const now = nginxPods();
		expect(now).toHaveLength(2);
		expect(now.some((p) => old.includes(p.name))).toBe(false);
		const after = run(cluster, `kubectl exec ${now[0].name} -- printenv | grep SERVICE`).stdout;
		expect(after.trim().split('\n').sort()).toEqual(['KUBERNETES_SERVICE_HOST=10.96.0.1', 'KUBERNETES_SERVICE_PORT=443', 'KUBERNETES_SERVICE_PORT_HTTPS=443', `MY_NGINX_SERVICE_HOST=${clusterIP}`, 'MY_NGINX_SERVICE_PORT=80'].sort());
	});

	it('DNS: the kube-dns Service, then nslookup and curl by name from radial/busyboxplus:curl', () => {
		expect(run(cluster, 'kubectl get services kube-dns --namespace=kube-system').stdout).toMatch(/\nkube-dns\s+ClusterIP\s+10\.96\.0\.10\s+<none>\s+53\/UDP,53\/TCP,9153\/TCP\s+\S+\n$/);
		const attach = run(cluster, 'kubectl run curl --image=radial/busyboxplus:curl -i --tty --rm');
		expect(attach.stderr).toContain("If you don't see a command prompt, try pressing enter.");
		// busyboxplus is busybox 1.22: its nslookup prints the reverse names on the Address lines.
		expect(run(cluster, 'nslookup my-nginx').stdout).toBe(
			`Server:    10.96.0.10\nAddress 1: 10.96.0.10 kube-dns.kube-system.svc.cluster.local\n\nName:      my-nginx\nAddress 1: ${clusterIP} my-nginx.default.svc.cluster.local\n`,
		);
		expect(run(cluster, 'curl -s my-nginx').stdout).toContain('<title>Welcome to nginx!</title>');
		expect(run(cluster, 'exit').stdout).toContain('pod "curl" deleted from default namespace\n');
	});

	it('Exposing the Service: as a NodePort it answers on every node’s address', () => {
		expect(run(cluster, `kubectl patch svc my-nginx -p '{"spec":{"type":"NodePort"}}'`).stdout).toBe('service/my-nginx patched\n');
		const grep = run(cluster, 'kubectl get svc my-nginx -o yaml | grep nodePort -C 5').stdout;
		const nodePort = Number(/- nodePort: (\d+)\n/.exec(grep)?.[1]);
		expect(nodePort).toBeGreaterThanOrEqual(30000);
		expect(nodePort).toBeLessThanOrEqual(32767);
		cluster.advance('2s');
		// A bare-metal kubeadm cluster's nodes have no ExternalIP (the page's cloud has one): their InternalIPs serve.
		expect(cluster.exec('kubectl get nodes -o yaml | grep ExternalIP -C 1')).toMatchObject({ stdout: '', exitCode: 1 });
		for (const ip of ['192.168.56.10', '192.168.56.11', '192.168.56.12']) {
			expect(run(cluster, `curl -s http://${ip}:${nodePort}/`).stdout, ip).toContain('<title>Welcome to nginx!</title>');
		}
	});

	it('Exposing the Service: as a LoadBalancer it stays <pending> without a cloud', () => {
		run(cluster, `kubectl patch svc my-nginx -p '{"spec":{"type":"LoadBalancer"}}'`);
		cluster.advance('30s');
		expect(run(cluster, 'kubectl get svc my-nginx').stdout).toMatch(new RegExp(`\\nmy-nginx\\s+LoadBalancer\\s+${escape(clusterIP)}\\s+<pending>\\s+80:\\d+/TCP\\s+`));
	});
});
