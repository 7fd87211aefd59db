import { describe, it, expect } from 'vitest';
import { R } from '../../client/client.ts';
import { world } from './testdata/env.ts';

const DEPLOY = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx
  labels:
    app: nginx
    tier: web
spec:
  replicas: 2
  selector:
    matchLabels: {app: nginx}
  template:
    metadata:
      labels: {app: nginx}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
`;

const CONFIGMAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  mode: fast
`;

const TWO_DOCS = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: shop
data:
  mode: fast
`;

/** The annotation kubectl writes for DEPLOY: compact JSON, keys sorted, `annotations: {}` included, a trailing newline. */
const DEPLOY_LAST_APPLIED =
	'{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"annotations":{},"labels":{"app":"nginx","tier":"web"},"name":"nginx","namespace":"default"},' +
	'"spec":{"replicas":2,"selector":{"matchLabels":{"app":"nginx"}},"template":{"metadata":{"labels":{"app":"nginx"}},"spec":{"containers":[{"image":"nginx:1.27","name":"nginx"}]}}}}\n';

describe('kubectl apply', () => {
	it('creates a missing object with the last-applied-configuration annotation', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		expect(w.kubectl('apply -f nginx.yaml')).toEqual({ stdout: 'deployment.apps/nginx created\n', stderr: '', exitCode: 0 });
		const live = w.get(R.deployments, 'default', 'nginx')!;
		expect(live.metadata.annotations).toEqual({ 'kubectl.kubernetes.io/last-applied-configuration': DEPLOY_LAST_APPLIED });
		expect((live.spec as { replicas: number }).replicas).toBe(2);
	});

	it('reports an unchanged object as unchanged and writes nothing', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		w.kubectl('apply -f nginx.yaml');
		const before = w.revision();
		expect(w.kubectl('apply -f nginx.yaml')).toEqual({ stdout: 'deployment.apps/nginx unchanged\n', stderr: '', exitCode: 0 });
		expect(w.revision()).toBe(before);
	});

	it('patches a changed manifest in and prints configured', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		w.kubectl('apply -f nginx.yaml');
		w.env.files['nginx.yaml'] = DEPLOY.replace('replicas: 2', 'replicas: 3').replace('nginx:1.27', 'nginx:1.28');
		expect(w.kubectl('apply -f nginx.yaml')).toEqual({ stdout: 'deployment.apps/nginx configured\n', stderr: '', exitCode: 0 });
		const live = w.get(R.deployments, 'default', 'nginx')!;
		const spec = live.spec as { replicas: number; template: { spec: { containers: Array<{ image: string; imagePullPolicy: string }> } } };
		expect(spec.replicas).toBe(3);
		expect(spec.template.spec.containers[0].image).toBe('nginx:1.28');
		// Server defaults survive: the patch only carries what the manifest changed.
		expect(spec.template.spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
		expect(live.metadata.annotations!['kubectl.kubernetes.io/last-applied-configuration']).toContain('"replicas":3');
	});

	it('removes a label deleted from the manifest but keeps one another client added', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		w.kubectl('apply -f nginx.yaml');
		expect(w.kubectl('label deploy nginx team=blue').exitCode).toBe(0);
		w.env.files['nginx.yaml'] = DEPLOY.replace('    tier: web\n', '');
		expect(w.kubectl('apply -f nginx.yaml').stdout).toBe('deployment.apps/nginx configured\n');
		expect(w.get(R.deployments, 'default', 'nginx')!.metadata.labels).toEqual({ app: 'nginx', team: 'blue' });
	});

	it('applies every document of a file in order', () => {
		const w = world({ files: { 'shop.yaml': TWO_DOCS } });
		expect(w.kubectl('apply -f shop.yaml')).toEqual({ stdout: 'namespace/shop created\nconfigmap/settings created\n', stderr: '', exitCode: 0 });
		expect(w.get(R.configmaps, 'shop', 'settings')?.data).toEqual({ mode: 'fast' });
	});

	it('reads the manifest from stdin with -f -', () => {
		const w = world();
		expect(w.kubectl('apply -f -', CONFIGMAP)).toEqual({ stdout: 'configmap/settings created\n', stderr: '', exitCode: 0 });
	});

	it('fails a misspelt field on create with the server strict-decoding message naming the file, and writes nothing', () => {
		const w = world({ files: { 'bad.yaml': DEPLOY.replace('replicas: 2', 'replica: 2') } });
		const before = w.revision();
		expect(w.kubectl('apply -f bad.yaml')).toEqual({
			stdout: '',
			stderr: 'Error from server (BadRequest): error when creating "bad.yaml": Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica"\n',
			exitCode: 1,
		});
		expect(w.revision()).toBe(before);
	});

	it('lets a misspelt field through with a warning under --validate=warn', () => {
		const w = world({ files: { 'bad.yaml': DEPLOY.replace('replicas: 2', 'replica: 2') } });
		expect(w.kubectl('apply -f bad.yaml --validate=warn')).toEqual({ stdout: 'deployment.apps/nginx created\n', stderr: 'Warning: unknown field "spec.replica"\n', exitCode: 0 });
	});

	it('prints (dry run) and writes nothing with --dry-run=client', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		const before = w.revision();
		expect(w.kubectl('apply -f nginx.yaml --dry-run=client')).toEqual({ stdout: 'deployment.apps/nginx created (dry run)\n', stderr: '', exitCode: 0 });
		expect(w.revision()).toBe(before);
	});

	it('prints (server dry run) and writes nothing with --dry-run=server', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		const before = w.revision();
		expect(w.kubectl('apply -f nginx.yaml --dry-run=server')).toEqual({ stdout: 'deployment.apps/nginx created (server dry run)\n', stderr: '', exitCode: 0 });
		expect(w.revision()).toBe(before);
		expect(w.get(R.deployments, 'default', 'nginx')).toBeUndefined();
	});

	it('prints kind/name only with -o name', () => {
		const w = world({ files: { 'nginx.yaml': DEPLOY } });
		expect(w.kubectl('apply -f nginx.yaml -o name').stdout).toBe('deployment.apps/nginx\n');
	});

	it('prints the object that would be created with --dry-run=client -o yaml', () => {
		const w = world({ files: { 'cm.yaml': CONFIGMAP } });
		expect(w.kubectl('apply -f cm.yaml --dry-run=client -o yaml').stdout).toBe(
			[
				'apiVersion: v1',
				'data:',
				'  mode: fast',
				'kind: ConfigMap',
				'metadata:',
				'  annotations:',
				'    kubectl.kubernetes.io/last-applied-configuration: |',
				'      {"apiVersion":"v1","data":{"mode":"fast"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"settings","namespace":"default"}}',
				'  name: settings',
				'  namespace: default',
				'',
			].join('\n'),
		);
	});

	it('warns when the live object was not created by apply, then configures it', () => {
		const w = world({ files: { 'cm.yaml': CONFIGMAP.replace('fast', 'slow') } });
		expect(w.kubectl('create configmap settings --from-literal=mode=fast').exitCode).toBe(0);
		expect(w.kubectl('apply -f cm.yaml')).toEqual({
			stdout: 'configmap/settings configured\n',
			stderr:
				'Warning: resource configmaps/settings is missing the kubectl.kubernetes.io/last-applied-configuration annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n',
			exitCode: 0,
		});
		expect(w.get(R.configmaps, 'default', 'settings')?.data).toEqual({ mode: 'slow' });
	});

	it('names the file in a REST mapping error and still applies the other objects', () => {
		const typo = `apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: web\n---\n${CONFIGMAP}`;
		const w = world({ files: { 'typo.yaml': typo } });
		expect(w.kubectl('apply -f typo.yaml')).toEqual({
			stdout: 'configmap/settings created\n',
			stderr: 'error: resource mapping not found for name: "web" namespace: "" from "typo.yaml": no matches for kind "Deploymnet" in version "apps/v1"\nensure CRDs are installed first\n',
			exitCode: 1,
		});
	});

	it('prints each error on its own line when several objects fail', () => {
		const w = world({ files: { 'a.yaml': CONFIGMAP.replace('\ndata:', '\ndat:'), 'b.yaml': CONFIGMAP.replace('settings', 'other').replace('\ndata:', '\ndta:') } });
		const result = w.kubectl('apply -f a.yaml -f b.yaml');
		expect(result.exitCode).toBe(1);
		expect(result.stderr).toBe(
			'Error from server (BadRequest): error when creating "a.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dat"\n' +
				'Error from server (BadRequest): error when creating "b.yaml": ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "dta"\n',
		);
	});

	it('explains a manifest without a name as kubectl does before any request', () => {
		const w = world({ files: { 'noname.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n' } });
		expect(w.kubectl('apply -f noname.yaml')).toEqual({
			stdout: '',
			stderr: 'error: error when retrieving current configuration of:\nResource: "/v1, Resource=configmaps", GroupVersionKind: "/v1, Kind=ConfigMap"\nName: "", Namespace: "default"\nfrom server for: "noname.yaml": resource name may not be empty\n',
			exitCode: 1,
		});
	});

	it('checks that a manifest says what it is before sending anything (--validate)', () => {
		const w = world({ files: { 'nokind.yaml': 'apiVersion: v1\nmetadata:\n  name: x\n' } });
		expect(w.kubectl('apply -f nokind.yaml')).toEqual({
			stdout: '',
			stderr: 'error: error validating "nokind.yaml": error validating data: kind not set; if you choose to ignore these errors, turn validation off with --validate=false\n',
			exitCode: 1,
		});
		expect(w.kubectl('apply -f nokind.yaml --validate=false').stderr).toBe('error: unable to decode "nokind.yaml": Object \'Kind\' is missing in \'{"apiVersion":"v1","metadata":{"name":"x"}}\'\n');
	});

	it.each([
		['apply', 'error: must specify one of -f and -k\n'],
		['apply -f nope.yaml', 'error: the path "nope.yaml" does not exist\n'],
		['apply foo -f x.yaml', "error: Unexpected args: [foo]\nSee 'kubectl apply -h' for help and examples\n"],
		['apply -f x.yaml --server-side --dry-run=client', "error: --dry-run=client doesn't work with --server-side (did you mean --dry-run=server instead?)\n"],
		['apply -f x.yaml --force-conflicts', 'error: --force-conflicts only works with --server-side\n'],
		['apply -f x.yaml --dry-run=maybe', 'error: Invalid dry-run value (maybe). Must be "none", "server", or "client".\n'],
		['apply -f x.yaml --validate=sometimes', 'error: invalid - validate option "sometimes"; must be one of: strict (or true), warn, ignore (or false)\n'],
		['apply -f x.yaml -o table', 'error: unable to match a printer suitable for the output format "table", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,yaml\n'],
	])('rejects `kubectl %s` without changing anything', (line, stderr) => {
		const w = world({ files: { 'x.yaml': CONFIGMAP } });
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});

	it('reports a refused connection when the API server is down', () => {
		const w = world({ files: { 'x.yaml': CONFIGMAP } });
		w.harness.kernel.stop('kube-apiserver');
		expect(w.kubectl('apply -f x.yaml')).toEqual({ stdout: '', stderr: 'The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n', exitCode: 1 });
	});
});
