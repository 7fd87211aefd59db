/**
 * `kubectl get --raw PATH`: a GET of any API server path with the
 * kubeconfig's credentials, the body printed as it came (compact JSON for
 * kubectl's User-Agent, no newline added to `ok`), failures worded as
 * every kubectl request words them.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('kubectl get --raw', () => {
	it('reads health endpoints and resources as the admin', () => {
		const cluster = createCluster({ seed: 6 });
		expect(cluster.exec('kubectl get --raw /healthz')).toMatchObject({ stdout: 'ok', stderr: '', exitCode: 0 });
		expect(cluster.exec("kubectl get --raw='/readyz?verbose'").stdout.split('\n').slice(-2)).toEqual(['readyz check passed', '']);
		const pods = JSON.parse(cluster.exec('kubectl get --raw /api/v1/namespaces/kube-system/pods').stdout) as { kind: string; items: unknown[] };
		expect(pods.kind).toBe('PodList');
		expect(pods.items.length).toBeGreaterThan(5);
		// The root lists every path the server answers, sorted; each one listed answers.
		const root = JSON.parse(cluster.exec('kubectl get --raw /').stdout) as { paths: string[] };
		expect(root.paths).toEqual([...root.paths].sort());
		expect(root.paths).toEqual(expect.arrayContaining(['/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/healthz', '/livez/etcd', '/readyz/shutdown', '/metrics', '/version']));
		for (const path of root.paths) expect(cluster.exec(`kubectl get --raw ${path}`).exitCode, path).toBe(0);
		// The request is kubectl's in the trace, not curl's.
		expect(cluster.trace().some((e) => e.component === 'kubectl' && /pods/.test(e.msg))).toBe(true);
	});

	it('reports what the server or the network says, as other requests do', () => {
		const cluster = createCluster({ seed: 6 });
		expect(cluster.exec('kubectl get --raw /nope')).toMatchObject({ stdout: '', stderr: 'Error from server (NotFound): the server could not find the requested resource\n', exitCode: 1 });
		expect(cluster.exec('kubectl get --raw healthz')).toMatchObject({ stderr: 'error: parse "healthz": invalid URI for request\n', exitCode: 1 });
		expect(cluster.exec('ssh node-1 kubectl get --raw /api --kubeconfig /etc/kubernetes/kubelet.conf').exitCode).toBe(0);
		cluster.stop('kube-apiserver');
		expect(cluster.exec('kubectl get --raw /healthz')).toMatchObject({ stderr: 'The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n', exitCode: 1 });
	});

	it("reaches a kubelet's own routes through the API server's node proxy", () => {
		const cluster = createCluster({ seed: 6 });
		cluster.settle();
		const base = '/api/v1/nodes/node-1/proxy';
		expect(cluster.exec(`kubectl get --raw ${base}/healthz`)).toMatchObject({ stdout: 'ok', exitCode: 0 });
		// The kubelet's Prometheus text, as metrics-server scrapes it: not the Node object.
		const metrics = cluster.exec(`kubectl get --raw ${base}/metrics/resource`).stdout;
		expect(metrics).toMatch(/^# HELP container_cpu_usage_seconds_total /);
		expect(metrics).toMatch(/^node_memory_working_set_bytes \S+ \d+$/m);
		expect(metrics).toMatch(/container="kube-proxy",namespace="kube-system",pod="kube-proxy-/);
		const pods = JSON.parse(cluster.exec(`kubectl get --raw ${base}/pods`).stdout) as { kind: string; items: Array<{ spec: { nodeName: string } }> };
		expect(pods.kind).toBe('PodList');
		expect(pods.items.length).toBeGreaterThan(0);
		expect(pods.items.every((p) => p.spec.nodeName === 'node-1')).toBe(true);
		expect(JSON.parse(cluster.exec(`kubectl get --raw ${base}/configz`).stdout)).toMatchObject({ kubeletconfig: { clusterDNS: ['10.96.0.10'], staticPodPath: '/etc/kubernetes/manifests' } });
		expect(cluster.exec(`kubectl get --raw ${base}/no-such-route`)).toMatchObject({ stderr: 'Error from server (NotFound): the server could not find the requested resource\n', exitCode: 1 });
		expect(cluster.exec('kubectl get --raw /api/v1/nodes/node-9/proxy/healthz')).toMatchObject({ stderr: 'Error from server (NotFound): nodes "node-9" not found\n', exitCode: 1 });
		cluster.exec('ssh node-1 sudo systemctl stop kubelet');
		expect(cluster.exec(`kubectl get --raw ${base}/healthz`)).toMatchObject({ stderr: 'Error from server (ServiceUnavailable): error trying to reach service: dial tcp 192.168.56.11:10250: connect: connection refused\n', exitCode: 1 });
	});

	it('lists metrics.k8s.io once its APIService exists, and serves it once Available', () => {
		const cluster = createCluster({ seed: 6 });
		cluster.settle();
		const groups = () => (JSON.parse(cluster.exec('kubectl get --raw /apis').stdout) as { groups: Array<{ name: string }> }).groups.map((g) => g.name);
		expect(groups()).not.toContain('metrics.k8s.io');
		expect(cluster.exec('kubectl get --raw /apis/metrics.k8s.io/v1beta1').stderr).toBe('Error from server (NotFound): the server could not find the requested resource\n');
		cluster.exec('kubectl apply -f https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml');
		// Registered at once; its Pod is not ready yet, so the group version answers 503.
		expect(groups()).toContain('metrics.k8s.io');
		expect(cluster.exec('kubectl get --raw /apis/metrics.k8s.io/v1beta1').stderr).toBe('Error from server (ServiceUnavailable): the server is currently unable to handle the request\n');
		// On kubeadm the kubelets' serving certificates are self-signed: metrics-server needs --kubelet-insecure-tls to become ready.
		cluster.exec(`kubectl patch deployment metrics-server -n kube-system --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/args/-","value":"--kubelet-insecure-tls"}]'`);
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('60s');
		const list = JSON.parse(cluster.exec('kubectl get --raw /apis/metrics.k8s.io/v1beta1').stdout) as { resources: Array<{ name: string }> };
		expect(list.resources.map((r) => r.name)).toEqual(['nodes', 'pods']);
	});
});

describe('kubectl api-resources and api-versions with an aggregated group', () => {
	it('lists metrics.k8s.io once Available, and reports it as failed discovery while its APIService is not', () => {
		const cluster = createCluster({ seed: 6 });
		cluster.settle();
		expect(cluster.exec('kubectl api-versions').stdout).not.toContain('metrics.k8s.io');
		cluster.exec('kubectl apply -f https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml');
		const failing = cluster.exec('kubectl api-resources --api-group=metrics.k8s.io');
		expect(failing).toMatchObject({ stdout: 'NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n', exitCode: 1 });
		expect(failing.stderr).toBe('error: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request\n');
		expect(cluster.exec('kubectl api-versions').stdout).toContain('metrics.k8s.io/v1beta1\n');
		cluster.exec(`kubectl patch deployment metrics-server -n kube-system --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/args/-","value":"--kubelet-insecure-tls"}]'`);
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('60s');
		const served = cluster.exec('kubectl api-resources --api-group=metrics.k8s.io');
		expect(served.exitCode).toBe(0);
		expect(served.stdout).toMatch(/\nnodes\s+metrics\.k8s\.io\/v1beta1\s+false\s+NodeMetrics\npods\s+metrics\.k8s\.io\/v1beta1\s+true\s+PodMetrics\n$/);
	});
});
