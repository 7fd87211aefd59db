/**
 * ReplicationControllers through the whole cluster, as the Conformance
 * suite drives them (test/e2e/apps/rc.go, v1.36): the manager keeps the
 * replicas, adopts matching orphans, releases Pods whose labels stop
 * matching, and reports an exceeded quota as a ReplicaFailure condition.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const rc = (name: string, replicas: number, image = 'registry.k8s.io/e2e-test-images/agnhost:2.53') => `apiVersion: v1
kind: ReplicationController
metadata:
  name: ${name}
spec:
  replicas: ${replicas}
  selector:
    name: ${name}
  template:
    metadata:
      labels:
        name: ${name}
    spec:
      containers:
      - name: ${name}
        image: ${image}
        args: ["serve-hostname"]
`;

describe('[sig-apps] ReplicationController [Conformance]', () => {
	it('should serve a basic image on each replica with a public image', () => {
		const c = createCluster({ seed: 1 });
		c.writeFile('rc.yaml', rc('my-hostname-basic', 2));
		expect(c.exec('kubectl apply -f rc.yaml').stdout).toBe('replicationcontroller/my-hostname-basic created\n');
		c.advance('1s');
		expect(c.exec('kubectl wait --for=condition=Ready pod -l name=my-hostname-basic --timeout=60s').exitCode).toBe(0);
		const pods = c.exec(`kubectl get pods -l name=my-hostname-basic -o jsonpath='{range .items[*]}{.metadata.name}{" "}{.status.podIP}{"\\n"}{end}'`).stdout.trim().split('\n');
		expect(pods).toHaveLength(2);
		// Each replica answers with its own name (serve-hostname listens on 9376).
		for (const line of pods) {
			const [name, ip] = line.split(' ');
			expect(c.exec(`kubectl exec ${name} -- wget -qO- http://${ip}:9376`).stdout).toBe(name);
		}
		expect(c.exec('kubectl get rc my-hostname-basic').stdout).toMatch(/my-hostname-basic {3}2 {9}2 {9}2 {7}/);
		expect(c.exec('kubectl get pods -l name=my-hostname-basic -o jsonpath={.items[0].metadata.ownerReferences[0].kind}').stdout).toBe('ReplicationController');
	});

	it('should adopt matching pods on creation', () => {
		const c = createCluster({ seed: 2 });
		c.exec('kubectl run pod-adoption --image=registry.k8s.io/pause:3.10 --labels=name=pod-adoption');
		c.writeFile('rc.yaml', rc('pod-adoption', 1, 'registry.k8s.io/pause:3.10'));
		c.exec('kubectl apply -f rc.yaml');
		c.advance('2s');
		expect(c.exec('kubectl get pod pod-adoption -o jsonpath={.metadata.ownerReferences[0].name}').stdout).toBe('pod-adoption');
		expect(c.exec('kubectl get pods -l name=pod-adoption -o name').stdout).toBe('pod/pod-adoption\n');
	});

	it('should release no longer matching pods', () => {
		const c = createCluster({ seed: 3 });
		c.writeFile('rc.yaml', rc('pod-release', 1, 'registry.k8s.io/pause:3.10'));
		c.exec('kubectl apply -f rc.yaml');
		c.advance('5s');
		const first = c.exec('kubectl get pods -l name=pod-release -o jsonpath={.items[0].metadata.name}').stdout;
		c.exec(`kubectl label pod ${first} name=not-matching --overwrite`);
		c.advance('5s');
		expect(c.exec(`kubectl get pod ${first} -o jsonpath={.metadata.ownerReferences}`).stdout).toBe('');
		// A replacement took its place.
		const now = c.exec('kubectl get pods -l name=pod-release -o name').stdout.trim().split('\n');
		expect(now).toHaveLength(1);
		expect(now[0]).not.toBe(`pod/${first}`);
	});

	it('should surface a failure condition on a common issue like exceeded quota', () => {
		const c = createCluster({ seed: 4 });
		c.writeFile('q.yaml', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: condition-test\nspec:\n  hard:\n    pods: "2"\n');
		c.exec('kubectl apply -f q.yaml');
		c.advance('1s');
		c.writeFile('rc.yaml', rc('condition-test', 3, 'registry.k8s.io/pause:3.10'));
		c.exec('kubectl apply -f rc.yaml');
		c.advance('5s');
		const condition = JSON.parse(c.exec('kubectl get rc condition-test -o jsonpath={.status.conditions[0]}').stdout);
		expect(condition).toMatchObject({ type: 'ReplicaFailure', status: 'True', reason: 'FailedCreate' });
		expect(condition.message).toMatch(/^pods "condition-test-[a-z0-9]{5}" is forbidden: exceeded quota: condition-test, requested: pods=1, used: pods=2, limited: pods=2$/);
		c.exec('kubectl scale rc condition-test --replicas=2');
		c.advance('5s');
		expect(c.exec('kubectl get rc condition-test -o jsonpath={.status.conditions}').stdout).toBe('');
		expect(c.exec('kubectl describe rc condition-test').stdout).toContain('From                    Message');
	});
});
