/**
 * LimitRange through the whole cluster, after the Conformance suite's
 * test/e2e/scheduling/limit_range.go (v1.36): the defaults land in Pods
 * that leave them out, min and max refuse what is outside them, and the
 * error reads as the API server words it.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

const LIMIT_RANGE = `apiVersion: v1
kind: LimitRange
metadata:
  name: limit-range
spec:
  limits:
  - type: Container
    min: {cpu: 50m, memory: 100Mi, ephemeral-storage: 100Gi}
    max: {cpu: 500m, memory: 500Mi, ephemeral-storage: 500Gi}
    default: {cpu: 500m, memory: 500Mi, ephemeral-storage: 500Gi}
    defaultRequest: {cpu: 100m, memory: 200Mi, ephemeral-storage: 200Gi}
`;

const resources = (c: ReturnType<typeof createCluster>, pod: string) => JSON.parse(c.exec(`kubectl get pod ${pod} -o jsonpath={.spec.containers[0].resources}`).stdout);

describe('[sig-scheduling] LimitRange [Conformance]', () => {
	it('should create a LimitRange with defaults and ensure pod has those defaults applied.', () => {
		const c = createCluster({ seed: 1 });
		c.writeFile('lr.yaml', LIMIT_RANGE);
		expect(c.exec('kubectl apply -f lr.yaml').stdout).toBe('limitrange/limit-range created\n');

		// A Pod with no resource requirements gets the defaults.
		c.exec('kubectl run pod-no-resources --image=registry.k8s.io/pause:3.10');
		expect(resources(c, 'pod-no-resources')).toEqual({
			limits: { cpu: '500m', memory: '500Mi', 'ephemeral-storage': '500Gi' },
			requests: { cpu: '100m', memory: '200Mi', 'ephemeral-storage': '200Gi' },
		});
		expect(c.exec("kubectl get pod pod-no-resources -o jsonpath='{.metadata.annotations.kubernetes\\.io/limit-ranger}'").stdout).toBe(
			'LimitRanger plugin set: cpu, ephemeral-storage, memory request for container pod-no-resources; cpu, ephemeral-storage, memory limit for container pod-no-resources',
		);

		// A Pod with some requirements keeps them and gets the rest.
		c.writeFile('partial.yaml', `apiVersion: v1
kind: Pod
metadata:
  name: pod-partial-resources
spec:
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 300m}
      limits: {cpu: 300m, memory: 150Mi}
`);
		c.exec('kubectl apply -f partial.yaml');
		expect(resources(c, 'pod-partial-resources')).toEqual({
			limits: { cpu: '300m', memory: '150Mi', 'ephemeral-storage': '500Gi' },
			// memory's request came from its limit (API defaulting) before LimitRanger looked.
			requests: { cpu: '300m', memory: '150Mi', 'ephemeral-storage': '200Gi' },
		});

		// Outside min and max: refused.
		c.writeFile('over.yaml', `apiVersion: v1
kind: Pod
metadata:
  name: pod-over-max
spec:
  containers:
  - name: pause
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 600m, memory: 10Mi}
      limits: {cpu: 600m, memory: 10Mi}
`);
		expect(c.exec('kubectl apply -f over.yaml').stderr).toBe(
			'Error from server (Forbidden): error when creating "over.yaml": pods "pod-over-max" is forbidden: [minimum memory usage per Container is 100Mi, but request is 10Mi, maximum cpu usage per Container is 500m, but limit is 600m]\n',
		);
		expect(c.exec('kubectl get pod pod-over-max').exitCode).toBe(1);

		// The stored LimitRange shows what its defaults defaulted to; describe prints its table.
		expect(c.exec('kubectl describe limitrange limit-range').stdout).toBe(`Name:       limit-range
Namespace:  default
Type        Resource           Min    Max    Default Request  Default Limit  Max Limit/Request Ratio
----        --------           ---    ---    ---------------  -------------  -----------------------
Container   cpu                50m    500m   100m             500m           -
Container   ephemeral-storage  100Gi  500Gi  200Gi            500Gi          -
Container   memory             100Mi  500Mi  200Mi            500Mi          -
`);
	});
});

describe('LimitRange defaulting and other limit types', () => {
	it('defaults a Container limit from max and its request from the limit', () => {
		const c = createCluster({ seed: 2 });
		c.writeFile('lr.yaml', 'apiVersion: v1\nkind: LimitRange\nmetadata:\n  name: mem\nspec:\n  limits:\n  - type: Container\n    max: {memory: 1Gi}\n');
		c.exec('kubectl apply -f lr.yaml');
		expect(JSON.parse(c.exec('kubectl get limitrange mem -o jsonpath={.spec.limits[0]}').stdout)).toEqual({ type: 'Container', max: { memory: '1Gi' }, default: { memory: '1Gi' }, defaultRequest: { memory: '1Gi' } });
	});

	it('checks a Pod limit against the sum of its containers, and a claim against its storage request', () => {
		const c = createCluster({ seed: 3 });
		c.writeFile('lr.yaml', `apiVersion: v1
kind: LimitRange
metadata:
  name: sums
spec:
  limits:
  - type: Pod
    max: {cpu: "1"}
  - type: PersistentVolumeClaim
    min: {storage: 1Gi}
    max: {storage: 2Gi}
`);
		c.exec('kubectl apply -f lr.yaml');
		c.writeFile('two.yaml', `apiVersion: v1
kind: Pod
metadata:
  name: two
spec:
  containers:
  - {name: a, image: nginx, resources: {limits: {cpu: 600m}}}
  - {name: b, image: nginx, resources: {limits: {cpu: 600m}}}
`);
		expect(c.exec('kubectl apply -f two.yaml').stderr).toContain('pods "two" is forbidden: maximum cpu usage per Pod is 1, but limit is 1200m');
		c.writeFile('pvc.yaml', 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: big\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 5Gi\n');
		expect(c.exec('kubectl apply -f pvc.yaml').stderr).toContain('persistentvolumeclaims "big" is forbidden: maximum storage usage per PersistentVolumeClaim is 2Gi, but request is 5Gi');
	});
});
