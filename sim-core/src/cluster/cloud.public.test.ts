/**
 * cloud-controller-manager and the simulated cloud through the public API:
 * `createCluster({ cloud: true })` initializes its Nodes (providerID,
 * labels, the uninitialized taint gone), gives a LoadBalancer Service an
 * address after the cloud has built it (EnsuringLoadBalancer,
 * EnsuredLoadBalancer from service-controller), a curl from the
 * workstation to that address reaches a Pod, the load balancer follows the
 * Nodes and is deleted with its Service; without `cloud` the Service stays
 * `<pending>`, and with the manager stopped new load balancers and new
 * Nodes wait for it.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster, type Cluster } from '../index.ts';
import type { KubeObject } from '../api/types.ts';

const reasons = (cluster: Cluster, name: string) =>
	cluster
		.list('events', 'default')
		.filter((e) => (e as KubeObject & { involvedObject?: { name?: string } }).involvedObject?.name === name)
		.map((e) => `${(e as KubeObject & { source?: { component?: string } }).source?.component}:${(e as KubeObject & { reason?: string }).reason}`);

const ingressIp = (cluster: Cluster, name: string) => (cluster.get('services', 'default', name)?.status as { loadBalancer?: { ingress?: Array<{ ip?: string }> } } | undefined)?.loadBalancer?.ingress?.[0]?.ip;

const node = (cluster: Cluster, name: string) => cluster.get('nodes', undefined, name) as KubeObject & { spec: { providerID?: string; taints?: Array<{ key: string }> } };

function withWeb(options: Parameters<typeof createCluster>[0]): Cluster {
	const cluster = createCluster({ seed: 7, ...options });
	cluster.exec('kubectl create deployment web --image=nginx --replicas=2');
	cluster.exec('kubectl expose deployment web --port=80 --type=LoadBalancer');
	return cluster;
}

describe('a cluster with cloud: true', () => {
	it('initializes every Node: providerID, zone and instance-type labels, the uninitialized taint removed', () => {
		const cluster = createCluster({ seed: 7, cloud: true });
		for (const name of ['control-plane', 'node-1', 'node-2']) {
			const n = node(cluster, name);
			expect(n.spec.providerID).toMatch(new RegExp(`^simcloud://sim-east-1[abc]/${name}$`));
			expect((n.spec.taints ?? []).map((t) => t.key)).not.toContain('node.cloudprovider.kubernetes.io/uninitialized');
			expect(n.metadata.labels?.['topology.kubernetes.io/zone']).toMatch(/^sim-east-1[abc]$/);
			expect(n.metadata.labels?.['node.kubernetes.io/instance-type']).toBe('s1-standard-2');
		}
		const synced = cluster.list('events', 'default').filter((e) => (e as KubeObject & { reason?: string }).reason === 'Synced');
		expect(synced.length).toBe(3);
		expect(cluster.get('leases', 'kube-system', 'cloud-controller-manager')).toBeDefined();
		expect(cluster.exec('ssh node-1 cat /var/lib/kubelet/kubeadm-flags.env').stdout).toContain('--cloud-provider=external');
	});

	it('gives a LoadBalancer Service an address once the cloud has built it, with the service-controller events', () => {
		const cluster = withWeb({ cloud: true });
		cluster.advance('10s');
		expect(cluster.exec('kubectl get svc web').stdout).toContain('<pending>');
		expect(reasons(cluster, 'web')).toContain('service-controller:EnsuringLoadBalancer');
		cluster.settle({ maxMs: 60_000 });
		const ip = ingressIp(cluster, 'web');
		expect(ip).toBe('203.0.113.10');
		expect(reasons(cluster, 'web')).toEqual(expect.arrayContaining(['service-controller:EnsuringLoadBalancer', 'service-controller:EnsuredLoadBalancer']));
		expect(cluster.get('services', 'default', 'web')?.metadata.finalizers).toContain('service.kubernetes.io/load-balancer-cleanup');
		const table = cluster.exec('kubectl get svc web').stdout.split('\n');
		expect(table[0]).toMatch(/EXTERNAL-IP/);
		expect(table[1]).toMatch(/^web\s+LoadBalancer\s+\S+\s+203\.0\.113\.10\s+80:\d+\/TCP/);
	});

	it('carries a curl from the workstation to the load balancer address to a Pod', () => {
		const cluster = withWeb({ cloud: true });
		cluster.settle({ maxMs: 60_000 });
		const result = cluster.exec(`curl -s -m 5 http://${ingressIp(cluster, 'web')}/`);
		expect(result.exitCode).toBe(0);
		expect(result.stdout).toContain('nginx');
		// From inside the cluster kube-proxy's rule for the address catches the packet before any cloud sees it.
		expect(cluster.exec('ssh node-1 iptables-save -t nat').stdout).toMatch(/-A KUBE-SERVICES -d 203\.0\.113\.10\/32 -p tcp -m comment --comment "default\/web loadbalancer IP" -m tcp --dport 80 -j KUBE-EXT-/);
		expect(cluster.exec('ssh node-1 curl -s -m 3 http://203.0.113.10/').stdout).toContain('nginx');
	});

	it('deletes the load balancer with its Service: DeletingLoadBalancer, DeletedLoadBalancer, then the finalizer lets it go', () => {
		const cluster = withWeb({ cloud: true });
		cluster.settle({ maxMs: 60_000 });
		const ip = ingressIp(cluster, 'web');
		cluster.exec('kubectl delete svc web');
		cluster.settle({ maxMs: 30_000 });
		expect(cluster.get('services', 'default', 'web')).toBeUndefined();
		expect(reasons(cluster, 'web')).toEqual(expect.arrayContaining(['service-controller:DeletingLoadBalancer', 'service-controller:DeletedLoadBalancer']));
		expect(cluster.exec(`curl -s -m 2 http://${ip}/`).exitCode).not.toBe(0);
	});

	it('gives the load balancer new hosts when a Node goes (UpdatedLoadBalancer), and deletes the Node of a deleted instance', () => {
		const cluster = withWeb({ cloud: true });
		cluster.settle({ maxMs: 60_000 });
		expect(cluster.cloud?.loadBalancers()[0].nodes).toEqual(['node-1', 'node-2']);
		expect(cluster.cloud?.deleteInstance('node-2')).toBeUndefined();
		// NotReady after the 50 s grace period, then the lifecycle controller's next 5 s look.
		cluster.advance('70s');
		expect(cluster.get('nodes', undefined, 'node-2')).toBeUndefined();
		cluster.settle({ maxMs: 30_000 });
		expect(cluster.cloud?.loadBalancers()[0].nodes).toEqual(['node-1']);
		expect(reasons(cluster, 'web')).toContain('service-controller:UpdatedLoadBalancer');
		expect(cluster.list('events', 'default').some((e) => (e as KubeObject & { reason?: string }).reason === 'DeletingNode')).toBe(true);
	});

	it('has simcloud on the workstation: instances, load balancers with their hosts\' health, instance deletion', () => {
		const cluster = withWeb({ cloud: true });
		cluster.settle({ maxMs: 60_000 });
		expect(cluster.exec('simcloud instances list').stdout).toMatch(/^node-1\s+sim-east-1b\s+s1-standard-2\s+RUNNING\s+192\.168\.56\.11\s+simcloud:\/\/sim-east-1b\/node-1$/m);
		expect(cluster.exec('simcloud lb list').stdout).toMatch(/203\.0\.113\.10\s+80->\d+\/TCP\s+node-1,node-2\s+10256\/healthz\s+ACTIVE\s+default\/web/);
		expect(cluster.exec('simcloud lb hosts default/web').stdout).toMatch(/^node-1\s+192\.168\.56\.11\s+10256\/healthz\s+HEALTHY$/m);
		expect(cluster.exec('simcloud instances delete node-2').stdout).toBe('Deleted instance node-2.\n');
		expect(cluster.exec('simcloud instances list').stdout).toMatch(/^node-2\s.*TERMINATED/m);
		expect(cluster.powerOn('node-2')).toMatch(/deleted from the cloud/);
		expect(cluster.exec('ssh node-1 simcloud instances list').exitCode).toBe(127);
	});

	it('taints the Node of a stopped instance node.cloudprovider.kubernetes.io/shutdown', () => {
		const cluster = createCluster({ seed: 7, cloud: true });
		cluster.powerOff('node-1');
		cluster.advance('70s');
		expect((node(cluster, 'node-1').spec.taints ?? []).map((t) => t.key)).toContain('node.cloudprovider.kubernetes.io/shutdown');
	});

	it('checks the healthCheckNodePort with externalTrafficPolicy Local: only nodes with a ready endpoint pass', () => {
		const cluster = createCluster({ seed: 7, cloud: true });
		cluster.exec('kubectl create deployment web --image=nginx --replicas=1');
		cluster.exec('kubectl expose deployment web --port=80 --type=LoadBalancer');
		cluster.exec(`kubectl patch svc web -p '{"spec":{"externalTrafficPolicy":"Local"}}'`);
		cluster.settle({ maxMs: 60_000 });
		const svc = cluster.get('services', 'default', 'web');
		const hc = (svc?.spec as { healthCheckNodePort?: number }).healthCheckNodePort;
		expect(hc).toBeGreaterThanOrEqual(30000);
		const lb = cluster.cloud!.loadBalancers()[0];
		expect(lb.healthCheck).toEqual({ port: hc, path: '/' });
		const podNode = (cluster.list('pods', 'default')[0].spec as { nodeName?: string }).nodeName;
		for (const n of lb.nodes) expect(cluster.cloud!.hostHealthy(lb, n)).toBe(n === podNode);
		expect(cluster.exec(`curl -s -m 5 http://${ingressIp(cluster, 'web')}/`).exitCode).toBe(0);
	});
});

describe('cloud: { configureCloudRoutes: true }', () => {
	it('writes one route per Pod CIDR into the cloud and marks the Nodes NetworkUnavailable=False RouteCreated', () => {
		const cluster = createCluster({ seed: 7, cloud: { configureCloudRoutes: true } });
		cluster.advance('15s');
		expect(cluster.cloud?.routes.list().map((r) => `${r.targetNode} ${r.destinationCidr}`)).toEqual(['control-plane 10.244.0.0/24', 'node-1 10.244.1.0/24', 'node-2 10.244.2.0/24']);
		const condition = ((cluster.get('nodes', undefined, 'node-1')?.status as { conditions?: Array<{ type: string; status: string; reason?: string }> }).conditions ?? []).find((c) => c.type === 'NetworkUnavailable');
		expect(condition).toMatchObject({ status: 'False', reason: 'RouteCreated' });
	});

	it('is off by default: the manager says so in its log', () => {
		const cluster = createCluster({ seed: 7, cloud: true });
		expect(cluster.cloud?.routes.list()).toEqual([]);
		expect(cluster.exec('kubectl -n kube-system logs -l k8s-app=cloud-controller-manager').stdout).toContain('Will not configure cloud provider routes, --configure-cloud-routes: false');
	});

	it('continues from a snapshot exactly as it would have without one', () => {
		const cluster = withWeb({ cloud: { configureCloudRoutes: true } });
		cluster.advance('5s');
		const copy = restoreCluster(JSON.parse(JSON.stringify(cluster.snapshot())));
		cluster.advance('40s');
		copy.advance('40s');
		expect(copy.fingerprint()).toBe(cluster.fingerprint());
		expect(ingressIp(copy, 'web')).toBe(ingressIp(cluster, 'web'));
	});
});

describe('without cloud', () => {
	it('leaves a LoadBalancer Service <pending>, as on bare metal', () => {
		const cluster = withWeb({});
		cluster.settle({ maxMs: 60_000 });
		cluster.advance('2m');
		expect(cluster.exec('kubectl get svc web').stdout).toMatch(/web\s+LoadBalancer\s+\S+\s+<pending>/);
		expect(reasons(cluster, 'web').filter((r) => r.startsWith('service-controller:'))).toEqual([]);
		expect(node(cluster, 'node-1').spec.providerID).toBeUndefined();
		expect(cluster.stop('cloud-controller-manager')).toMatch(/without a cloud-controller-manager/);
	});
});

describe('with cloud-controller-manager stopped', () => {
	it('leaves new load balancers pending and new Nodes tainted until it runs again', () => {
		const cluster = createCluster({ seed: 7, cloud: true });
		expect(cluster.stop('cloud-controller-manager')).toBeUndefined();
		cluster.exec('kubectl create deployment web --image=nginx --replicas=1');
		cluster.exec('kubectl expose deployment web --port=80 --type=LoadBalancer');
		// node-2 registers again: a fresh Node, with the taint its kubelet adds.
		cluster.exec('kubectl delete node node-2');
		cluster.stop('kubelet', 'node-2');
		cluster.start('kubelet', 'node-2');
		cluster.advance('90s');
		expect(cluster.exec('kubectl get svc web').stdout).toContain('<pending>');
		expect((node(cluster, 'node-2').spec.taints ?? []).map((t) => t.key)).toContain('node.cloudprovider.kubernetes.io/uninitialized');
		expect(cluster.components().find((c) => c.component === 'cloud-controller-manager')).toMatchObject({ running: false, failing: true });
		cluster.start('cloud-controller-manager');
		// Skip the crash-loop back-off: a new pod starts at once; it waits out the old leader's 15 s lease, then works.
		cluster.exec('kubectl -n kube-system delete pod -l k8s-app=cloud-controller-manager');
		cluster.advance('60s');
		expect(ingressIp(cluster, 'web')).toMatch(/^203\.0\.113\./);
		expect((node(cluster, 'node-2').spec.taints ?? []).map((t) => t.key)).not.toContain('node.cloudprovider.kubernetes.io/uninitialized');
	});
});
