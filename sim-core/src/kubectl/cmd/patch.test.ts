import { describe, it, expect } from 'vitest';
import { R } from '../../client/client.ts';
import { world, type World } from './testdata/env.ts';

function withDeployment(): World {
	const w = world({
		files: {
			'web.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.29\n',
			'ghost.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ghost\n',
		},
	});
	w.kubectl('create deployment web --image=nginx:1.27 --replicas=2');
	return w;
}
const spec = (w: World) => w.get(R.deployments, 'default', 'web')!.spec as { replicas: number; template: { spec: { containers: Array<{ image: string }> } } };

describe('kubectl patch', () => {
	it('applies a strategic merge patch by default', () => {
		const w = withDeployment();
		expect(w.kubectl(`patch deploy web -p '{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.28"}]}}}}'`)).toEqual({ stdout: 'deployment.apps/web patched\n', stderr: '', exitCode: 0 });
		expect(spec(w).template.spec.containers[0].image).toBe('nginx:1.28');
	});

	it('accepts YAML and the merge and json patch types', () => {
		const w = withDeployment();
		expect(w.kubectl(`patch deploy web --type=merge -p 'spec: {replicas: 5}'`).stdout).toBe('deployment.apps/web patched\n');
		expect(spec(w).replicas).toBe(5);
		expect(w.kubectl(`patch deploy web --type=json -p '[{"op":"replace","path":"/spec/replicas","value":1}]'`).stdout).toBe('deployment.apps/web patched\n');
		expect(spec(w).replicas).toBe(1);
	});

	it('says (no change) when the object comes back the same, and writes nothing', () => {
		const w = withDeployment();
		const before = w.revision();
		expect(w.kubectl(`patch deploy web -p '{"spec":{"replicas":2}}'`).stdout).toBe('deployment.apps/web patched (no change)\n');
		expect(w.revision()).toBe(before);
	});

	it.each([
		[`patch deploy web`, 'error: must specify --patch or --patch-file containing the contents of the patch\n'],
		[`patch deploy web -p '{}' --type=xml`, 'error: --type must be one of [json merge strategic], not "xml"\n'],
		[`patch deploy ghost -p '{}'`, 'Error from server (NotFound): deployments.apps "ghost" not found\n'],
		// The shell ate the unquoted JSON's double quotes; go-yaml names the line only.
		[`patch deploy web -p {"spec":{"replicas":3}}`, `error: unable to parse "{spec:{replicas:3}}": yaml: line 1: did not find expected ',' or '}'\n`],
		[`patch deploy web -p '{"spec":{"replicas":-1}}'`, 'The Deployment "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = withDeployment();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl replace', () => {
	it('puts the manifest in place of the live object', () => {
		const w = withDeployment();
		expect(w.kubectl('replace -f web.yaml')).toEqual({ stdout: 'deployment.apps/web replaced\n', stderr: '', exitCode: 0 });
		expect(spec(w).replicas).toBe(4);
		expect(spec(w).template.spec.containers.map((c) => c.image)).toEqual(['nginx:1.29']);
	});

	it('deletes and recreates with --force', () => {
		const w = withDeployment();
		const uid = w.get(R.deployments, 'default', 'web')!.metadata.uid;
		expect(w.kubectl('replace -f web.yaml --force')).toEqual({ stdout: 'deployment.apps "web" deleted from default namespace\ndeployment.apps/web replaced\n', stderr: '', exitCode: 0 });
		expect(w.get(R.deployments, 'default', 'web')!.metadata.uid).not.toBe(uid);
	});

	it.each([
		['replace -f ghost.yaml', 'Error from server (NotFound): error when replacing "ghost.yaml": configmaps "ghost" not found\n'],
		['replace', 'error: must specify --filename to replace\n'],
		['replace -f web.yaml --grace-period=1', 'error: --grace-period must have --force specified\n'],
		['replace -f web.yaml --force --dry-run=client', 'error: --dry-run can not be used when --force is set\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = withDeployment();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl expose', () => {
	it('prints the Service it would create for a deployment', () => {
		const w = withDeployment();
		expect(w.kubectl('expose deployment web --port=80 --target-port=8080 --dry-run=client -o yaml').stdout).toBe(
			['apiVersion: v1', 'kind: Service', 'metadata:', '  labels:', '    app: web', '  name: web', 'spec:', '  ports:', '  - port: 80', '    protocol: TCP', '    targetPort: 8080', '  selector:', '    app: web', 'status:', '  loadBalancer: {}', ''].join('\n'),
		);
	});

	it('creates a NodePort Service and finds the port in the pod template', () => {
		const w = world();
		w.kubectl('create deployment web --image=nginx --port=80');
		expect(w.kubectl('expose deploy web --type=NodePort --name=web-np')).toEqual({ stdout: 'service/web-np exposed\n', stderr: '', exitCode: 0 });
		const svc = w.get(R.services, 'default', 'web-np')!.spec as { type: string; ports: Array<{ port: number; targetPort: number; nodePort?: number }> };
		expect(svc.type).toBe('NodePort');
		expect(svc.ports[0]).toMatchObject({ port: 80, targetPort: 80 });
	});

	it.each([
		['expose deploy web', "error: couldn't find port via --port flag or introspection\n"],
		['expose configmap c --port=80', 'error: cannot expose a ConfigMap\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = withDeployment();
		w.kubectl('create configmap c');
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl wait', () => {
	const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'nginx' }] }, status: { phase: 'Pending' } };
	const ready = (w: World) => {
		const live = w.get(R.pods, 'default', 'web')!;
		w.admin.updateStatus(R.pods, { ...live, status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] } });
	};

	it('runs the clock until the condition holds', () => {
		const w = world();
		w.create(pod);
		w.at(3000, () => ready(w));
		const start = w.harness.kernel.nowMs;
		expect(w.kubectl('wait --for=condition=Ready pod/web --timeout=60s')).toEqual({ stdout: 'pod/web condition met\n', stderr: '', exitCode: 0 });
		expect(w.harness.kernel.nowMs - start).toBeGreaterThanOrEqual(3000);
		expect(w.harness.kernel.nowMs - start).toBeLessThan(3200);
	});

	it('times out after --timeout (30s by default)', () => {
		const w = world();
		w.create(pod);
		expect(w.kubectl('wait --for=condition=Ready pod/web')).toEqual({ stdout: '', stderr: 'error: timed out waiting for the condition on pods/web\n', exitCode: 1 });
		expect(w.kubectl('wait --for=condition=Ready pod/web --timeout=0')).toEqual({ stdout: '', stderr: 'error: condition not met for pods/web\n', exitCode: 1 });
	});

	it('waits for a JSONPath value and for deletion', () => {
		const w = world();
		w.create(pod);
		w.at(1000, () => ready(w));
		expect(w.kubectl("wait --for=jsonpath='{.status.phase}'=Running pod/web").stdout).toBe('pod/web condition met\n');
		w.at(2000, () => w.admin.delete(R.pods, 'default', 'web', { gracePeriodSeconds: 0 }));
		expect(w.kubectl('wait --for=delete pod/web --timeout=10s').stdout).toBe('pod/web condition met\n');
		expect(w.kubectl('wait --for=delete pod/web').stdout).toBe('');
	});

	it('waits for an object to be created with --for=create', () => {
		const w = world();
		w.at(1500, () => w.create(pod));
		expect(w.kubectl('wait --for=create pod/web --timeout=5s').stdout).toBe('pod/web condition met\n');
	});

	it.each([
		['wait pod/web --for=nonsense', 'error: unrecognized condition: "nonsense"\n'],
		["wait pod/web --for=jsonpath='{.status.phase}'=", "error: jsonpath wait has to have a value after equal sign, like --for=jsonpath='{.status.readyReplicas}'=3\n"],
		['wait pod/ghost --for=condition=Ready', 'Error from server (NotFound): pods "ghost" not found\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = world();
		w.create(pod);
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});
});
