import { describe, expect, it } from 'vitest';
import { Cluster } from './cluster.ts';

const COMPONENTS = 'https://github.com/kubernetes-sigs/metrics-server/releases/latest/download/components.yaml';
const INSECURE_TLS = `kubectl patch deployment metrics-server -n kube-system --type=json -p '[{"op":"add","path":"/spec/template/spec/containers/0/args/-","value":"--kubelet-insecure-tls"}]'`;

/**
 * Load as the walkthrough's load generator would bring it: `rps` requests a
 * second for `seconds`, round-robin over the php-apache Service's ready
 * endpoints (as kube-proxy spreads them), answered by the Pods' servers
 * through the runtime's serveHttp (the hook the Pod network uses).
 */
function load(cluster: Cluster, seconds: number, rps: number): void {
	let next = 0;
	const stepMs = 1000 / rps;
	for (let t = 0; t < seconds * 1000; t += stepMs) {
		cluster.advance(stepMs);
		const endpoints = cluster.get('endpoints', 'default', 'php-apache') as { subsets?: Array<{ addresses?: Array<{ ip: string; nodeName?: string }> }> } | undefined;
		const addresses = (endpoints?.subsets ?? []).flatMap((s) => s.addresses ?? []);
		if (addresses.length === 0) continue;
		const a = addresses[next++ % addresses.length];
		cluster.hosts.get(a.nodeName ?? '')?.runtime.serveHttp(a.ip, 80, '/', '10.244.0.1', 'Wget');
	}
}

const replicasOf = (cluster: Cluster) => (cluster.get('horizontalpodautoscalers', 'default', 'php-apache') as { status?: { currentReplicas?: number } } | undefined)?.status?.currentReplicas;

describe('metrics-server from its release URL, kubectl top and the HPA walkthrough', () => {
	it('fails to scrape kubeadm kubelets until --kubelet-insecure-tls, then serves top and drives the HPA up, down, and not at all without metrics', () => {
		const cluster = new Cluster({ seed: 7 });
		const sh = (line: string) => cluster.exec(line);

		// kubeadm installs no metrics-server.
		expect(sh('kubectl top node')).toMatchObject({ stdout: '', stderr: 'error: Metrics API not available\n', exitCode: 1 });

		expect(sh(`kubectl apply -f ${COMPONENTS}`).stdout).toContain('apiservice.apiregistration.k8s.io/v1beta1.metrics.k8s.io created');
		cluster.advance('60s');
		expect(sh('kubectl get apiservice v1beta1.metrics.k8s.io').stdout).toMatch(/v1beta1\.metrics\.k8s\.io {3}kube-system\/metrics-server {3}False \(MissingEndpoints\) {3}60s/);
		const logs = sh('kubectl logs -n kube-system deploy/metrics-server').stdout;
		expect(logs).toContain('"Failed to scrape node" err="Get \\"https://192.168.56.11:10250/metrics/resource\\": tls: failed to verify certificate: x509: cannot validate certificate for 192.168.56.11 because it doesn\'t contain any IP SANs" node="node-1"');
		expect(logs).toContain('"Failed probe" probe="metric-storage-ready" err="no metrics to serve"');
		expect(sh('kubectl top pod -A').stderr).toBe('error: Metrics API not available\n');

		expect(sh(INSECURE_TLS).stdout).toBe('deployment.apps/metrics-server patched\n');
		cluster.advance('60s');
		expect(sh('kubectl get apiservice v1beta1.metrics.k8s.io').stdout).toMatch(/kube-system\/metrics-server {3}True {8}/);
		const nodes = sh('kubectl top node').stdout.split('\n');
		expect(nodes[0]).toBe('NAME            CPU(cores)   CPU(%)   MEMORY(bytes)   MEMORY(%)');
		expect(nodes.slice(1, 4).map((l) => l.split(/\s+/)[0])).toEqual(['control-plane', 'node-1', 'node-2']);
		expect(nodes[1]).toMatch(/^control-plane {3}\d+m {9,}\d+% {4,}\d+Mi {8,}\d+%$/);
		const pods = sh('kubectl top pod -A --sort-by=cpu').stdout.split('\n');
		// kube-flannel is the longest namespace.
		expect(pods[0]).toBe('NAMESPACE      NAME                                    CPU(cores)   MEMORY(bytes)');
		expect(pods[1]).toMatch(/^kube-system {4}kube-apiserver-control-plane {12}\d+m/);
		expect(sh('kubectl get --raw /apis/metrics.k8s.io/v1beta1/nodes/node-1').stdout.trim()).toMatch(/^\{"kind":"NodeMetrics","apiVersion":"metrics.k8s.io\/v1beta1","metadata":\{"name":"node-1",.*"window":"15s","usage":\{"cpu":"[0-9]+[nu]?m?","memory":"[0-9]+Ki"\}\}$/);

		// The HPA walkthrough.
		sh('kubectl apply -f https://k8s.io/examples/application/php-apache.yaml');
		cluster.advance('40s');
		expect(sh('kubectl top pod').stdout).toMatch(/^NAME +CPU\(cores\) {3}MEMORY\(bytes\)\nphp-apache-\S+ {3}[01]m /);
		expect(sh('kubectl autoscale deployment php-apache --cpu=50% --min=1 --max=10').stdout).toBe('horizontalpodautoscaler.autoscaling/php-apache autoscaled\n');
		expect(sh('kubectl get hpa').stdout).toContain('php-apache   Deployment/php-apache   cpu: <unknown>/50%   1         10        0          0s');
		cluster.advance('20s');
		expect(sh('kubectl get hpa').stdout).toContain('cpu: 0%/50%');

		load(cluster, 90, 22);
		const up = replicasOf(cluster) ?? 0;
		expect(up).toBeGreaterThanOrEqual(5);
		const described = sh('kubectl describe hpa php-apache').stdout;
		expect(described).toContain('Normal  SuccessfulRescale');
		expect(described).toContain('New size: 4; reason: cpu resource utilization (percentage of request) above target');
		expect(described).toMatch(/ScalingActive {3}True {4}ValidMetricFound/);

		// Load stops: the 5-minute stabilization window holds the count, then it comes down.
		cluster.advance('4m');
		expect(replicasOf(cluster)).toBeGreaterThan(1);
		cluster.advance('4m');
		expect(replicasOf(cluster)).toBe(1);
		expect(sh('kubectl get events --field-selector involvedObject.kind=HorizontalPodAutoscaler').stdout).toContain('reason: All metrics below target');

		// Without metrics-server the HPA stops acting.
		sh('kubectl scale deployment metrics-server -n kube-system --replicas=0');
		cluster.advance('60s');
		expect(sh('kubectl get apiservice v1beta1.metrics.k8s.io').stdout).toContain('False (MissingEndpoints)');
		load(cluster, 60, 22);
		expect(replicasOf(cluster)).toBe(1);
		const stopped = sh('kubectl describe hpa php-apache').stdout;
		expect(stopped).toContain('resource cpu on pods  (as a percentage of request):  <unknown> / 50%');
		expect(stopped).toMatch(/ScalingActive {3}False {3}FailedGetResourceMetric {2}the HPA was unable to compute the replica count: failed to get cpu utilization: unable to get metrics for resource cpu: unable to fetch metrics from resource metrics API: the server is currently unable to handle the request \(get pods\.metrics\.k8s\.io\)/);
		expect(stopped).toContain('Warning  FailedComputeMetricsReplicas');
		expect(sh('kubectl top node').stderr).toBe('error: Metrics API not available\n');
	}, 120_000);
});

describe("the HPA walkthrough with its own load generator", () => {
	it('`while sleep 0.01; do wget -q -O- http://php-apache; done` in a busybox Pod raises the replicas; deleting it lets them fall after the stabilization window', () => {
		const cluster = new Cluster({ seed: 7 });
		for (const line of [`kubectl apply -f ${COMPONENTS}`, INSECURE_TLS, 'kubectl apply -f https://k8s.io/examples/application/php-apache.yaml']) expect(cluster.exec(line).exitCode).toBe(0);
		cluster.settle({ maxMs: 120_000 });
		cluster.advance('60s');
		expect(cluster.exec('kubectl autoscale deployment php-apache --cpu=50% --min=1 --max=10').exitCode).toBe(0);
		cluster.advance('30s');
		expect(cluster.exec('kubectl get hpa php-apache').stdout).toContain('cpu: 0%/50%');
		expect(cluster.exec(`kubectl run load-generator --image=busybox:1.28 --restart=Never -- /bin/sh -c "while sleep 0.01; do wget -q -O- http://php-apache; done"`).exitCode).toBe(0);
		cluster.advance('120s');
		// Each wget waits for php-apache's CPU-bound answer, so the loop sends a realistic rate, not one request per 10 ms.
		expect(replicasOf(cluster)).toBeGreaterThanOrEqual(4);
		expect(cluster.exec('kubectl logs load-generator --tail=1').stdout).toContain('OK!');
		expect(cluster.exec('kubectl get pod load-generator').stdout).toMatch(/load-generator\s+1\/1\s+Running/);
		const peak = replicasOf(cluster) ?? 0;
		expect(cluster.exec('kubectl delete pod load-generator').exitCode).toBe(0);
		cluster.advance('120s');
		// Within the 300 s scale-down stabilization window the count holds.
		expect(replicasOf(cluster)).toBe(peak);
		cluster.advance('300s');
		expect(replicasOf(cluster)).toBe(1);
	}, 60_000);
});
