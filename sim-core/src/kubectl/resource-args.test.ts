import { describe, it, expect } from 'vitest';
import { GLOBAL_FLAGS, parseFlags, type FlagSpec } from './flags.ts';
import type { KubectlEnvironment } from './kubectl.ts';
import { errorText, parseResourceArgs, readManifests, resolveResourceType, type ResourceArgsOptions } from './resource-args.ts';
import { GET_FLAGS } from './cmd/get.ts';

/** A command's invocation over an in-memory file system: enough for the builder, which talks to no server. */
function invocation(argv: string[], files: Record<string, string> = {}, stdin = '', specs: FlagSpec[] = GET_FLAGS) {
	const args = parseFlags(argv, [...specs, ...GLOBAL_FLAGS.filter((g) => !specs.some((s) => s.name === g.name))]);
	const env = {
		defaultNamespace: 'default',
		serverUrl: 'https://192.168.56.10:6443',
		readFile: (path: string) => files[path],
		listDir: (path: string) => {
			const prefix = path.endsWith('/') ? path : `${path}/`;
			const names = Object.keys(files)
				.filter((f) => f.startsWith(prefix))
				.map((f) => f.slice(prefix.length));
			return names.length ? names : undefined;
		},
	} as unknown as KubectlEnvironment;
	return { args, env, stdin, namespace: String(args.flags.namespace || 'default') };
}

const parse = (argv: string[], options: ResourceArgsOptions = { allowEmptySelector: true }, files: Record<string, string> = {}, specs: FlagSpec[] = GET_FLAGS) => parseResourceArgs(invocation(argv, files, '', specs), options);

/** What a parse gave, compactly: `resource/group name@namespace [selector]`. */
const summary = (argv: string[], options?: ResourceArgsOptions, files?: Record<string, string>) => {
	const parsed = parse(argv, options, files);
	if (parsed.error) return parsed.error;
	return parsed.targets.map((t) => `${t.info.resource}${t.info.group ? `.${t.info.group}` : ''} ${t.name ?? '*'}@${t.namespace ?? '-'}${t.labelSelector !== undefined ? ` l=${t.labelSelector}` : ''}${t.fieldSelector !== undefined ? ` f=${t.fieldSelector}` : ''}`);
};

describe('resolveResourceType', () => {
	it.each([
		['pods', 'pods', ''],
		['pod', 'pods', ''],
		['po', 'pods', ''],
		['Pods', 'pods', ''],
		['Pod', 'pods', ''],
		['deploy', 'deployments', 'apps'],
		['deployments.apps', 'deployments', 'apps'],
		['deployment.v1.apps', 'deployments', 'apps'],
		['svc', 'services', ''],
		['ev', 'events', ''],
		['events', 'events', ''],
		['events.events.k8s.io', 'events', 'events.k8s.io'],
		['cj', 'cronjobs', 'batch'],
		['pc', 'priorityclasses', 'scheduling.k8s.io'],
		['no', 'nodes', ''],
		['ns', 'namespaces', ''],
		['clusterrolebinding', 'clusterrolebindings', 'rbac.authorization.k8s.io'],
	])('maps %j to %s in group %j', (text, resource, group) => {
		const resolved = resolveResourceType(text);
		expect(resolved.ok && { resource: resolved.info.resource, group: resolved.info.group }).toEqual({ resource, group });
	});

	it.each([
		['podz', 'the server doesn\'t have a resource type "podz"'],
		// mappingFor names the part before the first dot.
		['foo.apps', 'the server doesn\'t have a resource type "foo"'],
		['deployments.batch', 'the server doesn\'t have a resource type "deployments"'],
	])('rejects %j with %j', (text, error) => {
		expect(resolveResourceType(text)).toEqual({ ok: false, error });
	});
});

describe('parseResourceArgs', () => {
	it.each([
		['a type lists everything in the namespace', ['pods'], ['pods *@default l=']],
		['a short name with names gets each object', ['po', 'web-1', 'web-2'], ['pods web-1@default', 'pods web-2@default']],
		['resource/name pairs may mix types', ['deploy/nginx', 'svc/nginx'], ['deployments.apps nginx@default', 'services nginx@default']],
		['a comma list of types lists each', ['pods,svc'], ['pods *@default l=', 'services *@default l=']],
		['a comma list of types with a name names it in each type', ['pods,svc', 'web'], ['pods web@default', 'services web@default']],
		['duplicate types collapse', ['pods,po,pod'], ['pods *@default l=']],
		['`all` expands to the all category in discovery order', ['all'], ['pods *@default l=', 'replicationcontrollers *@default l=', 'services *@default l=', 'daemonsets.apps *@default l=', 'deployments.apps *@default l=', 'replicasets.apps *@default l=', 'statefulsets.apps *@default l=', 'horizontalpodautoscalers.autoscaling *@default l=', 'cronjobs.batch *@default l=', 'jobs.batch *@default l=']],
		['cluster-scoped types ignore the namespace', ['nodes', 'node-1'], ['nodes node-1@-']],
		['-n picks the namespace', ['pods', '-n', 'kube-system'], ['pods *@kube-system l=']],
		['-A lists across namespaces', ['pods', '-A'], ['pods *@- l=']],
		['-l is sent as the label selector', ['pods', '-l', 'app=web'], ['pods *@default l=app=web']],
		['--field-selector is sent too', ['pods', '--field-selector', 'spec.nodeName=node-1'], ['pods *@default l= f=spec.nodeName=node-1']],
	])('%s', (_name, argv, expected) => {
		expect(summary(argv)).toEqual(expected);
	});

	it.each([
		['a type and a resource/name', ['pods', 'pod/web'], "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'\n"],
		['two slashes', ['pod/a/b'], 'error: arguments in resource/name form may not have more than one slash\n'],
		['an empty name', ['pod/'], 'error: arguments in resource/name form must have a single resource and name\n'],
		['an unknown type', ['podz'], 'error: the server doesn\'t have a resource type "podz"\n'],
		['an unknown type among names', ['podz', 'x'], 'error: the server doesn\'t have a resource type "podz"\n'],
		['a name with a selector', ['pods', 'web', '-l', 'app=web'], 'error: name cannot be provided when a selector is specified\n'],
		['a name across all namespaces', ['pod', 'web', '-A'], 'error: a resource cannot be retrieved by name across all namespaces\n'],
		['a resource/name across all namespaces', ['pod/web', '-A'], 'error: a resource cannot be retrieved by name across all namespaces\n'],
		['names of a category', ['all', 'web'], 'error: you must specify only one resource\n'],
	])('rejects %s', (_name, argv, error) => {
		expect(parse(argv).error).toBe(error);
	});

	it('needs a name when bare types are not allowed (delete, label)', () => {
		expect(parse(['pods'], { allowEmptySelector: false }).error).toBe('error: resource(s) were provided, but no name was specified\n');
		expect(parse(['podz'], { allowEmptySelector: false }).error).toBe('error: the server doesn\'t have a resource type "podz"\n');
	});

	it('asks for resources when given nothing', () => {
		expect(parse([], { allowEmptySelector: true }).error).toBe(
			"error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'\n",
		);
	});

	it('refuses several types where one is required (get -w)', () => {
		expect(parse(['pods,svc'], { allowEmptySelector: true, singleResourceType: true }).error).toBe('error: you may only specify a single resource type\n');
		expect(parse(['pod/a', 'svc/b'], { allowEmptySelector: true, singleResourceType: true }).error).toBe('error: you may only specify a single resource type\n');
		expect(summary(['pod/a', 'po/b'], { allowEmptySelector: true, singleResourceType: true })).toEqual(['pods a@default', 'pods b@default']);
	});

	it('selects everything with --all, and refuses --all with a selector', () => {
		const specs: FlagSpec[] = [...GET_FLAGS, { name: 'all', kind: 'bool' }];
		expect(parse(['pods', '--all'], { allowEmptySelector: false }, {}, specs).targets.map((t) => t.labelSelector)).toEqual(['']);
		expect(parse(['pods', '--all', '-l', 'a=b'], { allowEmptySelector: false }, {}, specs).error).toBe("error: setting 'all' parameter but found a non empty selector. \n");
	});

	it('says whether exactly one object was named', () => {
		expect(parse(['pod/web']).singleItemImplied).toBe(true);
		expect(parse(['pod', 'web']).singleItemImplied).toBe(true);
		expect(parse(['pod', 'a', 'b']).singleItemImplied).toBe(false);
		expect(parse(['pods']).singleItemImplied).toBe(false);
	});

	it('turns manifests into named targets, defaulting their namespace', () => {
		const files = { 'app.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: shop\n' };
		expect(summary(['-f', 'app.yaml'], undefined, files)).toEqual(['deployments.apps web@default', 'namespaces shop@-']);
		expect(summary(['-f', 'app.yaml', '-n', 'shop'], undefined, files)).toEqual(['deployments.apps web@shop', 'namespaces shop@-']);
	});

	it('refuses a manifest whose namespace -n contradicts', () => {
		const files = { 'web.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n' };
		expect(parse(['-f', 'web.yaml', '-n', 'default'], undefined, files).error).toBe(
			'error: the namespace from the provided object "shop" does not match the namespace "default". You must pass \'--namespace=shop\' to perform this operation.\n',
		);
		expect(summary(['-f', 'web.yaml'], undefined, files)).toEqual(['pods web@shop']);
	});

	it('refuses -f together with resource arguments, and unknown kinds in manifests', () => {
		const files = { 'web.yaml': 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n', 'typo.yaml': 'apiVersion: apps/v1\nkind: Deploymnet\nmetadata:\n  name: web\n' };
		expect(parse(['pods', '-f', 'web.yaml'], undefined, files).error).toBe('error: when paths, URLs, or stdin is provided as input, you may not specify resource arguments as well\n');
		expect(parse(['-f', 'typo.yaml'], undefined, files).error).toBe('error: resource mapping not found for name: "web" namespace: "" from "typo.yaml": no matches for kind "Deploymnet" in version "apps/v1"\nensure CRDs are installed first\n');
	});
});

describe('readManifests', () => {
	const read = (argv: string[], files: Record<string, string>, stdin = '') => readManifests(invocation(argv, files, stdin));
	const names = (argv: string[], files: Record<string, string>, stdin = '') => {
		const result = read(argv, files, stdin);
		return result.ok ? result.manifests.map((m) => `${m.source}:${m.object.kind}/${m.object.metadata.name}`) : result.error;
	};

	it('reads every document of a stream, skipping empty ones and flattening Lists', () => {
		const text = [
			'# a comment-only document is empty',
			'---',
			'apiVersion: v1',
			'kind: ConfigMap',
			'metadata:',
			'  name: one',
			'---',
			'apiVersion: v1',
			'kind: List',
			'items:',
			'- apiVersion: v1',
			'  kind: Service',
			'  metadata:',
			'    name: two',
			'- apiVersion: v1',
			'  kind: Secret',
			'  metadata:',
			'    name: three',
			'--- # a separator may carry a comment',
			'',
		].join('\n');
		expect(names(['-f', 'all.yaml'], { 'all.yaml': text })).toEqual(['all.yaml:ConfigMap/one', 'all.yaml:Service/two', 'all.yaml:Secret/three']);
	});

	it('reads JSON, and stdin as STDIN', () => {
		expect(names(['-f', 'cm.json'], { 'cm.json': '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"j"}}' })).toEqual(['cm.json:ConfigMap/j']);
		expect(names(['-f', '-'], {}, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: s\n')).toEqual(['STDIN:ConfigMap/s']);
		expect(names(['-f', '-', '-f', '-'], {}, '')).toBe('error: standard input cannot be used for multiple arguments\n');
	});

	it('reads the manifest files of a directory in name order, subdirectories only with -R', () => {
		const files = {
			'app/b.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
			'app/a.yml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
			'app/README.md': '# not a manifest',
			'app/sub/c.json': '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}',
		};
		expect(names(['-f', 'app/'], files)).toEqual(['app/a.yml:ConfigMap/a', 'app/b.yaml:ConfigMap/b']);
		expect(names(['-f', 'app', '-R'], files)).toEqual(['app/a.yml:ConfigMap/a', 'app/b.yaml:ConfigMap/b', 'app/sub/c.json:ConfigMap/c']);
		expect(read(['-f', 'app/'], files).ok && (read(['-f', 'app/'], files) as { singleSource: boolean }).singleSource).toBe(false);
		expect(names(['-f', 'docs/'], { 'docs/notes.txt': 'x' })).toBe('error: error reading [docs/]: recognized file extensions are [.json .yaml .yml]\n');
	});

	it('names missing paths, one error bare per line when there are several', () => {
		expect(names(['-f', 'nope.yaml'], {})).toBe('error: the path "nope.yaml" does not exist\n');
		expect(names(['-f', 'a.yaml', '-f', 'b.yaml'], {})).toBe('the path "a.yaml" does not exist\nthe path "b.yaml" does not exist\n');
	});

	it('reports YAML errors with the line counted from the start of their document', () => {
		const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: ok\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b: c\n';
		expect(names(['-f', 'nginx.yaml'], { 'nginx.yaml': text })).toBe('error: error parsing nginx.yaml: error converting YAML to JSON: yaml: line 4: mapping values are not allowed in this context\n');
		expect(names(['-f', 'sep.yaml'], { 'sep.yaml': 'a: 1\n--- b: 2\n' })).toBe('error: error parsing sep.yaml: invalid Yaml document separator: b: 2\n');
	});

	it('refuses a document without a kind', () => {
		expect(names(['-f', 'x.yaml'], { 'x.yaml': 'apiVersion: v1\nmetadata:\n  name: x\n' })).toBe(`error: unable to decode "x.yaml": Object 'Kind' is missing in '{"apiVersion":"v1","metadata":{"name":"x"}}'\n`);
	});
});

describe('errorText', () => {
	it('prefixes one plain error and prints several bare, keeping server messages as they are', () => {
		expect(errorText(['boom'])).toBe('error: boom\n');
		expect(errorText(['Error from server (NotFound): pods "x" not found'])).toBe('Error from server (NotFound): pods "x" not found\n');
		expect(errorText(['a', 'Error from server (NotFound): pods "x" not found'])).toBe('a\nError from server (NotFound): pods "x" not found\n');
	});
});
