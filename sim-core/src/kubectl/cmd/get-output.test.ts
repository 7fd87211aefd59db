import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { createShopPods, deploymentObject } from '../../testing/kubectl/scenario.ts';
import { printGeneric } from './output.ts';

function shop(): KubectlFixture {
	const f = kubectlFixture();
	createShopPods(f);
	f.advance(5 * 60_000);
	return f;
}

/** A ConfigMap as stored, with what the server filled in. */
function configMap(f: KubectlFixture): KubeObject {
	return f.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default', labels: { app: 'web' } }, data: { 'app.properties': 'mode=<fast> & small\n' } });
}

describe('kubectl get -o', () => {
	it('json prints a named object as stored, keys sorted, HTML characters escaped, four-space indent', () => {
		const f = kubectlFixture();
		const cm = configMap(f);
		expect(f.kubectl('get cm cfg -o json').stdout).toBe(
			lines(
				'{',
				'    "apiVersion": "v1",',
				'    "data": {',
				'        "app.properties": "mode=\\u003cfast\\u003e \\u0026 small\\n"',
				'    },',
				'    "kind": "ConfigMap",',
				'    "metadata": {',
				'        "creationTimestamp": "2026-11-30T08:00:00Z",',
				'        "labels": {',
				'            "app": "web"',
				'        },',
				'        "name": "cfg",',
				'        "namespace": "default",',
				`        "resourceVersion": "${cm.metadata.resourceVersion}",`,
				`        "uid": "${cm.metadata.uid}"`,
				'    }',
				'}',
			),
		);
	});

	it('yaml prints a list of several objects as a List whose items carry apiVersion and kind', () => {
		const f = kubectlFixture();
		const cm = configMap(f);
		expect(f.kubectl('get cm -o yaml').stdout).toBe(
			lines(
				'apiVersion: v1',
				'items:',
				'- apiVersion: v1',
				'  data:',
				'    app.properties: |',
				'      mode=<fast> & small',
				'  kind: ConfigMap',
				'  metadata:',
				'    creationTimestamp: "2026-11-30T08:00:00Z"',
				'    labels:',
				'      app: web',
				'    name: cfg',
				'    namespace: default',
				`    resourceVersion: "${cm.metadata.resourceVersion}"`,
				`    uid: ${cm.metadata.uid}`,
				'kind: List',
				'metadata:',
				'  resourceVersion: ""',
			),
		);
	});

	it('name prints kind.group/name, one per line', () => {
		const f = shop();
		f.create(deploymentObject('web', 1));
		expect(f.kubectl('get pods -o name').stdout).toBe(lines('pod/db-0', 'pod/web-1', 'pod/web-2'));
		expect(f.kubectl('get deploy,po -o name').stdout).toBe(lines('deployment.apps/web', 'pod/db-0', 'pod/web-1', 'pod/web-2'));
	});

	it('jsonpath evaluates against the List (or the single object), with no newline added', () => {
		const f = shop();
		expect(f.kubectl('get pods -o jsonpath={.items[*].metadata.name}').stdout).toBe('db-0 web-1 web-2');
		expect(f.kubectl(`get pods -o jsonpath='{range .items[*]}{.metadata.name}{"\\t"}{.status.phase}{"\\n"}{end}'`).stdout).toBe('db-0\tPending\nweb-1\tRunning\nweb-2\tRunning\n');
		expect(f.kubectl('get pod web-1 -o jsonpath={.status.podIP}').stdout).toBe('10.244.1.5');
		expect(f.kubectl('get pod web-1 -o jsonpath-as-json={.spec.nodeName}').stdout).toBe('[\n    "worker-1"\n]\n');
	});

	it('custom-columns prints the given headers, <none> where nothing matches', () => {
		// NAME: web-1 (5) + 3 = 8; NODE last.
		expect(shop().kubectl('get pods -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName').stdout).toBe(lines('NAME    NODE', 'db-0    <none>', 'web-1   worker-1', 'web-2   worker-2'));
		expect(shop().kubectl('get pods -o custom-columns=NAME:.metadata.name --no-headers').stdout).toBe(lines('db-0', 'web-1', 'web-2'));
	});

	it('custom-columns-file and jsonpath-file read their template from a file', () => {
		const f = kubectlFixture({ files: { 'cols.txt': 'NAME          NODE\n.metadata.name   .spec.nodeName\n', 'names.jsonpath': '{.items[*].metadata.name}' } });
		createShopPods(f);
		expect(f.kubectl('get pods -o custom-columns-file=cols.txt').stdout).toBe(lines('NAME    NODE', 'db-0    <none>', 'web-1   worker-1', 'web-2   worker-2'));
		expect(f.kubectl('get pods -o jsonpath-file=names.jsonpath').stdout).toBe('db-0 web-1 web-2');
	});

	it('joins the pages of --chunk-size into one list', () => {
		expect(shop().kubectl('get pods --chunk-size=1 -o name').stdout).toBe(lines('pod/db-0', 'pod/web-1', 'pod/web-2'));
	});

	it('prefixes names with --show-kind even for one kind', () => {
		expect(shop().kubectl('get pod web-1 --show-kind').stdout).toBe(lines('NAME        READY   STATUS    RESTARTS   AGE', 'pod/web-1   1/1     Running   0          5m'));
	});

	it('sorts the List with --sort-by', () => {
		expect(shop().kubectl('get pods --sort-by=.spec.containers[0].image -o name').stdout).toBe(lines('pod/web-1', 'pod/web-2', 'pod/db-0'));
	});

	it('leaves managedFields out of JSON and YAML unless --show-managed-fields', () => {
		const obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', managedFields: [{ manager: 'kubectl', operation: 'Apply' }] } } as KubeObject;
		expect(printGeneric({ kind: 'yaml' }, obj, { printed: 0 })).toEqual({ ok: true, text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: x') });
		expect(printGeneric({ kind: 'yaml' }, obj, { printed: 0 }, { showManagedFields: true })).toEqual({ ok: true, text: lines('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  managedFields:', '  - manager: kubectl', '    operation: Apply', '  name: x') });
		// The YAML printer separates the objects of one run.
		const state = { printed: 0 };
		printGeneric({ kind: 'yaml' }, obj, state);
		expect(printGeneric({ kind: 'yaml' }, obj, state)).toEqual({ ok: true, text: lines('---', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: x') });
	});
});

describe('kubectl get errors', () => {
	it('asks for a resource type when given none', () => {
		expect(shop().kubectl('get')).toEqual({
			stdout: '',
			stderr: lines(
				'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.',
				'',
				'error: Required resource not specified.',
				'Use "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).',
				"See 'kubectl get -h' for help and examples",
			),
			exitCode: 1,
		});
	});

	it.each([
		['get podz', 'error: the server doesn\'t have a resource type "podz"\n'],
		[
			'get pods -o xml',
			'error: unable to match a printer suitable for the output format "xml", allowed formats are: custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,kyaml,name,template,templatefile,wide,yaml\n',
		],
		['get pods --show-labels -o json', 'error: --show-labels option cannot be used with json printer\n'],
		['get pods --output-watch-events', 'error: --output-watch-events option can only be used with --watch or --watch-only\n'],
		['get pods -o jsonpath', 'error: template format specified but no template given\n'],
		['get pods -o custom-columns=NAME', 'error: unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>\n'],
		['get pods -o jsonpath={.items[*].metadata.name', 'error: error parsing jsonpath {.items[*].metadata.name, unclosed action\n'],
		['get pods --bogus', "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage.\n"],
		['get -w -o wide pods,svc', 'error: you may only specify a single resource type\n'],
	])('`kubectl %s` fails with kubectl\'s message', (line, stderr) => {
		expect(shop().kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('says the API server refused the connection when it is down', () => {
		const f = shop();
		f.harness.kernel.stop('kube-apiserver');
		expect(f.kubectl('get pods')).toEqual({ stdout: '', stderr: 'The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n', exitCode: 1 });
		expect(f.kubectl('get pods -o yaml').stderr).toBe('The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n');
	});
});
