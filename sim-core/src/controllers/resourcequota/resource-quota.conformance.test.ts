/**
 * ResourceQuota through the whole cluster, as the Conformance suite drives
 * it (test/e2e/apimachinery/resource_quota.go, v1.36): each test is titled
 * with the suite's own name and makes the suite's assertions, through
 * kubectl and the API only. The quota is the suite's newTestResourceQuota.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const TEST_QUOTA = `apiVersion: v1
kind: ResourceQuota
metadata:
  name: test-quota
spec:
  hard:
    pods: "5"
    services: "10"
    services.nodeports: "1"
    services.loadbalancers: "1"
    replicationcontrollers: "10"
    resourcequotas: "1"
    cpu: "1"
    memory: 500Mi
    configmaps: "2"
    secrets: "10"
    persistentvolumeclaims: "10"
    requests.storage: 10Gi
    ephemeral-storage: 50Gi
    count/replicasets.apps: "5"
    requests.example.com/dongle: "3"
`;

function withQuota(seed = 1) {
	const c = createCluster({ seed });
	c.writeFile('quota.yaml', TEST_QUOTA);
	expect(c.exec('kubectl apply -f quota.yaml').stdout).toBe('resourcequota/test-quota created\n');
	c.advance('1s');
	return c;
}

/** status.used of test-quota, parsed. */
function used(c: ReturnType<typeof createCluster>, name = 'test-quota'): Record<string, string> {
	return JSON.parse(c.exec(`kubectl get quota ${name} -o jsonpath={.status.used}`).stdout || '{}');
}

function pod(name: string, requests: Record<string, string>, limits: Record<string, string> = {}): string {
	const list = (r: Record<string, string>) => Object.entries(r).map(([k, v]) => `          ${k}: "${v}"`).join('\n');
	return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.10
    resources:
${Object.keys(requests).length ? `      requests:\n${list(requests)}` : ''}
${Object.keys(limits).length ? `      limits:\n${list(limits)}` : ''}
`;
}

describe('[sig-api-machinery] ResourceQuota [Conformance]', () => {
	it('should create a ResourceQuota and ensure its status is promptly calculated.', () => {
		const c = withQuota();
		const status = JSON.parse(c.exec('kubectl get quota test-quota -o jsonpath={.status}').stdout);
		expect(status.hard.pods).toBe('5');
		expect(status.used).toMatchObject({ resourcequotas: '1', pods: '0', services: '1', configmaps: '1', secrets: '0', 'count/replicasets.apps': '0' });
		// Every hard limit has a used value, and nothing else does.
		expect(Object.keys(status.used).sort()).toEqual(Object.keys(status.hard).sort());
	});

	it('should create a ResourceQuota and capture the life of a service.', () => {
		const c = withQuota();
		expect(c.exec('kubectl create service clusterip test-service --tcp=80').exitCode).toBe(0);
		expect(c.exec('kubectl create service nodeport test-service-np --tcp=80').exitCode).toBe(0);
		const lb = c.exec('kubectl create service loadbalancer test-service-lb --tcp=80');
		expect(lb.exitCode).toBe(1);
		expect(lb.stderr).toContain('services "test-service-lb" is forbidden: exceeded quota: test-quota, requested: services.nodeports=1, used: services.nodeports=1, limited: services.nodeports=1');
		// The default namespace's kubernetes Service counts too.
		expect(used(c)).toMatchObject({ services: '3', 'services.nodeports': '1', 'services.loadbalancers': '0' });
		c.exec('kubectl delete service test-service test-service-np');
		c.advance('1s');
		expect(used(c)).toMatchObject({ services: '1', 'services.nodeports': '0' });
	});

	it('should create a ResourceQuota and capture the life of a secret.', () => {
		const c = withQuota();
		expect(used(c).secrets).toBe('0');
		c.exec('kubectl create secret generic test-secret --from-literal=a=b');
		expect(used(c).secrets).toBe('1');
		c.exec('kubectl delete secret test-secret');
		c.advance('1s');
		expect(used(c).secrets).toBe('0');
	});

	it('should create a ResourceQuota and capture the life of a configMap.', () => {
		const c = withQuota();
		// kube-root-ca.crt is already there.
		expect(used(c).configmaps).toBe('1');
		expect(c.exec('kubectl create configmap test-configmap --from-literal=a=b').exitCode).toBe(0);
		expect(used(c).configmaps).toBe('2');
		const over = c.exec('kubectl create configmap one-too-many --from-literal=a=b');
		expect(over.stderr).toBe('error: failed to create configmap: configmaps "one-too-many" is forbidden: exceeded quota: test-quota, requested: configmaps=1, used: configmaps=2, limited: configmaps=2\n');
		c.exec('kubectl delete configmap test-configmap');
		c.advance('1s');
		expect(used(c).configmaps).toBe('1');
	});

	it('should create a ResourceQuota and capture the life of a pod.', () => {
		const c = withQuota();
		c.writeFile('pod.yaml', pod('test-pod', { cpu: '500m', memory: '252Mi', 'ephemeral-storage': '30Gi', 'example.com/dongle': '2' }, { 'example.com/dongle': '2' }));
		expect(c.exec('kubectl apply -f pod.yaml').exitCode).toBe(0);
		expect(used(c)).toMatchObject({ pods: '1', cpu: '500m', memory: '252Mi', 'ephemeral-storage': '30Gi', 'requests.example.com/dongle': '2' });

		c.writeFile('fail.yaml', pod('fail-pod', { cpu: '600m', memory: '100Mi' }));
		expect(c.exec('kubectl apply -f fail.yaml').stderr).toBe(
			'Error from server (Forbidden): error when creating "fail.yaml": pods "fail-pod" is forbidden: exceeded quota: test-quota, requested: cpu=600m, used: cpu=500m, limited: cpu=1\n',
		);
		c.writeFile('fail-ext.yaml', pod('fail-pod-for-extended-resource', { cpu: '500m', memory: '100Mi', 'ephemeral-storage': '30Gi', 'example.com/dongle': '2' }, { 'example.com/dongle': '2' }));
		expect(c.exec('kubectl apply -f fail-ext.yaml').stderr).toContain('exceeded quota: test-quota, requested: ephemeral-storage=30Gi,requests.example.com/dongle=2, used: ephemeral-storage=30Gi,requests.example.com/dongle=2, limited: ephemeral-storage=50Gi,requests.example.com/dongle=3');
		// Usage is unchanged by the refusals.
		expect(used(c)).toMatchObject({ pods: '1', cpu: '500m' });

		c.exec('kubectl delete pod test-pod --grace-period=0 --force');
		c.advance('1s');
		expect(used(c)).toMatchObject({ pods: '0', cpu: '0', memory: '0', 'ephemeral-storage': '0', 'requests.example.com/dongle': '0' });
	});

	it('should create a ResourceQuota and capture the life of a replication controller.', () => {
		const c = withQuota();
		c.writeFile('rc.yaml', `apiVersion: v1
kind: ReplicationController
metadata:
  name: test-rc
spec:
  replicas: 0
  selector:
    name: test-rc
  template:
    metadata:
      labels:
        name: test-rc
    spec:
      containers:
      - name: pause
        image: registry.k8s.io/pause:3.10
`);
		c.exec('kubectl apply -f rc.yaml');
		expect(used(c).replicationcontrollers).toBe('1');
		c.exec('kubectl delete rc test-rc');
		c.advance('1s');
		expect(used(c).replicationcontrollers).toBe('0');
	});

	it('should create a ResourceQuota and capture the life of a replica set.', () => {
		const c = withQuota();
		c.writeFile('rs.yaml', `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: test-rs
spec:
  replicas: 0
  selector:
    matchLabels:
      name: test-rs
  template:
    metadata:
      labels:
        name: test-rs
    spec:
      containers:
      - name: pause
        image: registry.k8s.io/pause:3.10
`);
		c.exec('kubectl apply -f rs.yaml');
		expect(used(c)['count/replicasets.apps']).toBe('1');
		c.exec('kubectl delete rs test-rs');
		c.advance('1s');
		expect(used(c)['count/replicasets.apps']).toBe('0');
	});

	it('should verify ResourceQuota with terminating scopes.', () => {
		const c = createCluster({ seed: 3 });
		const scoped = (name: string, scope: string) => `apiVersion: v1
kind: ResourceQuota
metadata:
  name: ${name}
spec:
  scopes: ["${scope}"]
  hard:
    pods: "5"
    requests.cpu: "1"
    requests.memory: 500Mi
    limits.cpu: "2"
    limits.memory: 1Gi
`;
		c.writeFile('t.yaml', scoped('quota-terminating', 'Terminating'));
		c.writeFile('nt.yaml', scoped('quota-not-terminating', 'NotTerminating'));
		c.exec('kubectl apply -f t.yaml');
		c.exec('kubectl apply -f nt.yaml');
		c.advance('1s');
		c.writeFile('long.yaml', pod('test-pod', { cpu: '500m', memory: '200Mi' }, { cpu: '1', memory: '400Mi' }));
		expect(c.exec('kubectl apply -f long.yaml').exitCode).toBe(0);
		expect(used(c, 'quota-not-terminating')).toMatchObject({ pods: '1', 'requests.cpu': '500m', 'requests.memory': '200Mi', 'limits.cpu': '1', 'limits.memory': '400Mi' });
		expect(used(c, 'quota-terminating')).toMatchObject({ pods: '0', 'requests.cpu': '0' });

		c.writeFile('short.yaml', pod('terminating-pod', { cpu: '500m', memory: '200Mi' }, { cpu: '1', memory: '400Mi' }).replace('spec:\n', 'spec:\n  activeDeadlineSeconds: 3600\n'));
		expect(c.exec('kubectl apply -f short.yaml').exitCode).toBe(0);
		expect(used(c, 'quota-terminating')).toMatchObject({ pods: '1', 'limits.memory': '400Mi' });
		expect(used(c, 'quota-not-terminating').pods).toBe('1');
		expect(c.exec('kubectl describe quota quota-terminating').stdout).toContain('Scopes:     Terminating\n * Matches all pods that have an active deadline.');
	});

	it('should verify ResourceQuota with best effort scope.', () => {
		const c = createCluster({ seed: 4 });
		c.writeFile('be.yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: quota-besteffort\nspec:\n  scopes: ["BestEffort"]\n  hard:\n    pods: "5"\n');
		c.writeFile('nbe.yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: quota-not-besteffort\nspec:\n  scopes: ["NotBestEffort"]\n  hard:\n    pods: "5"\n');
		c.exec('kubectl apply -f be.yaml -f nbe.yaml');
		c.advance('1s');
		c.exec('kubectl run best-effort --image=registry.k8s.io/pause:3.10');
		expect(used(c, 'quota-besteffort').pods).toBe('1');
		expect(used(c, 'quota-not-besteffort').pods).toBe('0');
		c.writeFile('burst.yaml', pod('not-best-effort', { cpu: '100m' }));
		c.exec('kubectl apply -f burst.yaml');
		expect(used(c, 'quota-not-besteffort').pods).toBe('1');
		c.exec('kubectl delete pod best-effort --grace-period=0 --force');
		c.advance('1s');
		expect(used(c, 'quota-besteffort').pods).toBe('0');
	});

	it('should be able to update and delete ResourceQuota.', () => {
		const c = withQuota();
		expect(c.exec(`kubectl patch quota test-quota -p '{"spec":{"hard":{"cpu":"2"}}}'`).exitCode).toBe(0);
		c.advance('1s');
		expect(c.exec('kubectl get quota test-quota -o jsonpath={.status.hard.cpu}').stdout).toBe('2');
		expect(c.exec('kubectl delete quota test-quota').exitCode).toBe(0);
		expect(c.exec('kubectl get quota test-quota').stderr).toBe('Error from server (NotFound): resourcequotas "test-quota" not found\n');
	});

	it('should apply changes to a resourcequota status.', () => {
		const c = withQuota();
		// A hand-written status is put right by the controller's next full resync (5 minutes).
		expect(c.exec(`kubectl patch quota test-quota --subresource=status --type=merge -p '{"status":{"hard":{"pods":"99"}}}'`).exitCode).toBe(0);
		expect(c.exec('kubectl get quota test-quota -o jsonpath={.status.hard.pods}').stdout).toBe('99');
		c.advance('5m');
		expect(c.exec('kubectl get quota test-quota -o jsonpath={.status.hard.pods}').stdout).toBe('5');
	});
});

describe('ResourceQuota admission', () => {
	it('enforces a quota only once the controller has counted it, then refuses Pods without the cpu and memory it limits', () => {
		const c = createCluster({ seed: 5 });
		c.writeFile('q.yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: compute\nspec:\n  hard:\n    requests.cpu: "1"\n    limits.memory: 1Gi\n');
		// Stop the controller manager: nobody counts the new quota, and admission matches quotas by status.hard.
		c.exec('ssh control-plane mv /etc/kubernetes/manifests/kube-controller-manager.yaml /tmp/');
		c.advance('30s');
		c.exec('kubectl apply -f q.yaml');
		expect(c.exec('kubectl run early --image=nginx').stdout).toBe('pod/early created\n');
		expect(c.exec('kubectl get quota compute -o jsonpath={.status}').stdout).toBe('');
		c.exec('ssh control-plane mv /tmp/kube-controller-manager.yaml /etc/kubernetes/manifests/');
		c.advance('60s');
		// Counted: the early Pod states neither, so it uses nothing the quota limits.
		expect(used(c, 'compute')).toEqual({ 'limits.memory': '0', 'requests.cpu': '0' });
		expect(c.exec('kubectl run p --image=nginx').stderr).toBe('Error from server (Forbidden): pods "p" is forbidden: failed quota: compute: must specify limits.memory for: p; requests.cpu for: p\n');
		c.writeFile('ok.yaml', pod('ok', { cpu: '100m' }, { memory: '100Mi' }));
		expect(c.exec('kubectl apply -f ok.yaml').exitCode).toBe(0);
		expect(used(c, 'compute')).toEqual({ 'limits.memory': '100Mi', 'requests.cpu': '100m' });
	});

	it('charges nothing for a dry run', () => {
		const c = withQuota();
		expect(c.exec('kubectl create configmap dry --from-literal=a=b --dry-run=server').exitCode).toBe(0);
		expect(used(c).configmaps).toBe('1');
	});

	it('lets a ReplicaSet create no more Pods than the quota allows, and reports why', () => {
		const c = createCluster({ seed: 6 });
		c.writeFile('q.yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: pods-max\nspec:\n  hard:\n    pods: "2"\n');
		c.exec('kubectl apply -f q.yaml');
		c.advance('1s');
		c.exec('kubectl create deployment web --image=nginx --replicas=3');
		c.advance('10s');
		expect(c.exec('kubectl get pods --no-headers').stdout.trim().split('\n')).toHaveLength(2);
		expect(c.exec('kubectl get quota pods-max').stdout).toContain('pods: 2/2');
		const rs = c.exec('kubectl describe rs').stdout;
		expect(rs).toMatch(/ReplicaFailure {3}True {4}FailedCreate/);
		expect(rs).toMatch(/Warning {2}FailedCreate .* Error creating: pods "web-[a-z0-9]+-[a-z0-9]{5}" is forbidden: exceeded quota: pods-max, requested: pods=1, used: pods=2, limited: pods=2/);
	});
});
