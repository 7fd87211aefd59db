/**
 * A Deployment adopting a ReplicaSet whose revision is beyond 2^53, as the
 * Conformance suite's RollingUpdateDeployment test does
 * (test/e2e/apps/deployment.go, v1.36): the revision annotation is an
 * int64, so the new ReplicaSet must be revision 3546343826724305833
 * exactly, where a float would round it to 3546343826724305920.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const RS = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: test-rolling-update-controller
  labels: {name: sample-pod, pod: httpd}
  annotations:
    deployment.kubernetes.io/revision: "3546343826724305832"
spec:
  replicas: 1
  selector:
    matchLabels: {name: sample-pod, pod: httpd}
  template:
    metadata:
      labels: {name: sample-pod, pod: httpd}
    spec:
      containers:
      - name: httpd
        image: httpd
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: test-rolling-update-deployment
spec:
  replicas: 1
  selector:
    matchLabels: {name: sample-pod}
  strategy: {type: RollingUpdate}
  template:
    metadata:
      labels: {name: sample-pod}
    spec:
      containers:
      - name: agnhost
        image: registry.k8s.io/e2e-test-images/agnhost:2.53
`;

describe('[sig-apps] Deployment', () => {
	it('RollingUpdateDeployment should delete old pods and create new ones [Conformance]', () => {
		const c = createCluster({ seed: 1 });
		c.writeFile('rs.yaml', RS);
		c.writeFile('deploy.yaml', DEPLOYMENT);
		c.exec('kubectl create -f rs.yaml');
		c.advance('5s');
		expect(c.exec('kubectl wait --for=condition=Ready pod -l name=sample-pod --timeout=60s').exitCode).toBe(0);
		c.exec('kubectl create -f deploy.yaml');
		expect(c.exec('kubectl rollout status deploy/test-rolling-update-deployment --timeout=120s').exitCode).toBe(0);
		expect(c.exec("kubectl get deploy test-rolling-update-deployment -o jsonpath='{.metadata.annotations.deployment\\.kubernetes\\.io/revision}'").stdout).toBe('3546343826724305833');
		// One old ReplicaSet (the adopted one, scaled to 0) beside the new one.
		const sets = c.exec("kubectl get rs -o jsonpath='{range .items[*]}{.metadata.name} {.spec.replicas} {.metadata.annotations.deployment\\.kubernetes\\.io/revision}{\"\\n\"}{end}'").stdout.trim().split('\n').sort();
		expect(sets).toHaveLength(2);
		expect(sets[0]).toBe('test-rolling-update-controller 0 3546343826724305832');
		expect(sets[1]).toMatch(/^test-rolling-update-deployment-[a-z0-9]+ 1 3546343826724305833$/);
		expect(c.exec('kubectl rollout history deploy/test-rolling-update-deployment').stdout).toBe(
			'deployment.apps/test-rolling-update-deployment \nREVISION             CHANGE-CAUSE\n3546343826724305832  <none>\n3546343826724305833  <none>\n\n',
		);
	});
});
