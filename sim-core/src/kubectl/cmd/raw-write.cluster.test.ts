/**
 * `kubectl create|replace|delete --raw` and the scale subresource they
 * reach as client-go reaches it: a PUT of an autoscaling/v1 Scale sets
 * spec.replicas, as the Conformance suite's scale subresource tests do for
 * Deployments, ReplicaSets, StatefulSets and ReplicationControllers
 * (test/e2e/apps/deployment.go, replica_set.go, statefulset.go, rc.go, v1.36).
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

function scaleThroughRaw(kind: 'deployment' | 'replicaset' | 'statefulset' | 'replicationcontroller', path: string, manifest: string) {
	const c = createCluster({ seed: 7 });
	c.writeFile('obj.yaml', manifest);
	expect(c.exec('kubectl apply -f obj.yaml').exitCode).toBe(0);
	c.advance('10s');
	const scale = JSON.parse(c.exec(`kubectl get --raw ${path}`).stdout);
	expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 1 }, status: { replicas: 1, selector: 'app=scaled' } });
	scale.spec.replicas = 2;
	c.writeFile('scale.json', JSON.stringify(scale));
	const put = c.exec(`kubectl replace --raw ${path} -f scale.json`);
	expect(put.exitCode).toBe(0);
	expect(JSON.parse(put.stdout).spec.replicas).toBe(2);
	c.advance('15s');
	expect(c.exec(`kubectl get ${kind} scaled -o jsonpath={.spec.replicas}/{.status.replicas}`).stdout).toBe('2/2');
	// A stale resourceVersion conflicts, as an optimistic update should.
	const stale = c.exec(`kubectl replace --raw ${path} -f scale.json`);
	expect(stale.stderr).toMatch(/^Error from server \(Conflict\): .*"scaled": the object has been modified; please apply your changes to the latest version and try again\n$/);
}

const template = `  selector:
    matchLabels:
      app: scaled
  template:
    metadata:
      labels:
        app: scaled
    spec:
      containers:
      - name: pause
        image: registry.k8s.io/pause:3.10
`;

describe('the scale subresource through kubectl --raw [Conformance]', () => {
	it('[sig-apps] Deployment should have a working scale subresource', () => {
		scaleThroughRaw('deployment', '/apis/apps/v1/namespaces/default/deployments/scaled/scale', `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: scaled\nspec:\n  replicas: 1\n${template}`);
	});

	it('[sig-apps] ReplicaSet Replicaset should have a working scale subresource', () => {
		scaleThroughRaw('replicaset', '/apis/apps/v1/namespaces/default/replicasets/scaled/scale', `apiVersion: apps/v1\nkind: ReplicaSet\nmetadata:\n  name: scaled\nspec:\n  replicas: 1\n${template}`);
	});

	it('[sig-apps] ReplicationController should get and update a ReplicationController scale', () => {
		scaleThroughRaw(
			'replicationcontroller',
			'/api/v1/namespaces/default/replicationcontrollers/scaled/scale',
			'apiVersion: v1\nkind: ReplicationController\nmetadata:\n  name: scaled\nspec:\n  replicas: 1\n  selector:\n    app: scaled\n  template:\n    metadata:\n      labels:\n        app: scaled\n    spec:\n      containers:\n      - name: pause\n        image: registry.k8s.io/pause:3.10\n',
		);
	});
});

describe('kubectl --raw writes', () => {
	it('posts, and refuses what RawWrite refuses', () => {
		const c = createCluster({ seed: 8 });
		c.writeFile('cm.json', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'raw' }, data: { a: 'b' } }));
		const created = c.exec('kubectl create --raw /api/v1/namespaces/default/configmaps -f cm.json');
		expect(JSON.parse(created.stdout).metadata.name).toBe('raw');
		expect(c.exec('kubectl get cm raw -o jsonpath={.data.a}').stdout).toBe('b');
		expect(c.exec('kubectl create --raw /api/v1/namespaces/default/configmaps -f cm.json -f cm.json').stderr).toBe('error: --raw can only use a single local file or stdin\n');
		expect(c.exec('kubectl replace --raw api/v1 -f cm.json').stderr).toBe('error: --raw must be a valid URL path: parse "api/v1": invalid URI for request\n');
		expect(c.exec('kubectl create --raw /api/v1/namespaces/default/configmaps -f cm.json -o yaml').stderr).toBe('error: --raw and --output are mutually exclusive\n');
		const deleted = c.exec('kubectl delete --raw /api/v1/namespaces/default/configmaps/raw');
		expect(deleted.exitCode).toBe(0);
		expect(deleted.stdout.startsWith('{')).toBe(true);
		expect(c.exec('kubectl get cm raw').stderr).toBe('Error from server (NotFound): configmaps "raw" not found\n');
	});
});
