/**
 * kubectl's kustomize as kubernetes.io's task "Declarative Management of
 * Kubernetes Objects Using Kustomize" runs it, in the reader's shell: the
 * page's here-documents, then `kubectl kustomize ./` printing what the page
 * prints (generated names with their hash suffixes, cross-cutting fields,
 * patches, images, vars, overlays), and `-k` on apply, get, diff and delete.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: my-nginx
spec:
  selector:
    matchLabels:
      run: my-nginx
  replicas: 2
  template:
    metadata:
      labels:
        run: my-nginx
    spec:
      containers:
      - name: my-nginx
        image: nginx
        ports:
        - containerPort: 80
`;

function shell() {
	const cluster = createCluster({ seed: 5 });
	return {
		cluster,
		file: (path: string, text: string) => cluster.writeFile(path, text),
		run: (line: string) => cluster.exec(line),
	};
}

describe('kubectl kustomize', () => {
	it('generates ConfigMaps and Secrets with the names kubernetes.io shows', () => {
		const { file, run } = shell();
		expect(run('cat <<EOF >application.properties\nFOO=Bar\nEOF').exitCode).toBe(0);
		file('kustomization.yaml', 'configMapGenerator:\n- name: example-configmap-1\n  files:\n  - application.properties\n');
		expect(run('kubectl kustomize ./').stdout).toBe('apiVersion: v1\ndata:\n  application.properties: |\n    FOO=Bar\nkind: ConfigMap\nmetadata:\n  name: example-configmap-1-8mbdf7882g\n');
		file('kustomization.yaml', 'configMapGenerator:\n- name: example-configmap-2\n  literals:\n  - FOO=Bar\n');
		expect(run('kubectl kustomize ./').stdout).toBe('apiVersion: v1\ndata:\n  FOO: Bar\nkind: ConfigMap\nmetadata:\n  name: example-configmap-2-g2hdhfc6tk\n');
		file('password.txt', 'username=admin\npassword=secret\n');
		file('kustomization.yaml', 'secretGenerator:\n- name: example-secret-1\n  files:\n  - password.txt\n');
		expect(run('kubectl kustomize ./').stdout).toBe('apiVersion: v1\ndata:\n  password.txt: dXNlcm5hbWU9YWRtaW4KcGFzc3dvcmQ9c2VjcmV0Cg==\nkind: Secret\nmetadata:\n  name: example-secret-1-t2kt65hgtb\ntype: Opaque\n');
		file('kustomization.yaml', 'configMapGenerator:\n- name: example-configmap-3\n  literals:\n  - FOO=Bar\ngeneratorOptions:\n  disableNameSuffixHash: true\n  labels:\n    type: generated\n  annotations:\n    note: generated\n');
		expect(run('kubectl kustomize ./').stdout).toBe('apiVersion: v1\ndata:\n  FOO: Bar\nkind: ConfigMap\nmetadata:\n  annotations:\n    note: generated\n  labels:\n    type: generated\n  name: example-configmap-3\n');
	});

	it('points a Deployment at the generated name, and a changed file changes the name', () => {
		const { file, run } = shell();
		file('application.properties', 'FOO=Bar\n');
		file('deployment.yaml', DEPLOYMENT.replace('        ports:\n        - containerPort: 80\n', '        volumeMounts:\n        - name: config\n          mountPath: /config\n      volumes:\n      - name: config\n        configMap:\n          name: example-configmap-1\n'));
		file('kustomization.yaml', 'resources:\n- deployment.yaml\nconfigMapGenerator:\n- name: example-configmap-1\n  files:\n  - application.properties\n');
		const out = run('kubectl kustomize ./').stdout;
		// The ConfigMap comes first (kustomize's legacy kind order), then the Deployment naming it.
		expect(out.split('---\n').map((doc) => /^kind: (\w+)$/m.exec(doc)?.[1])).toEqual(['ConfigMap', 'Deployment']);
		expect(out).toContain('      - configMap:\n          name: example-configmap-1-8mbdf7882g\n        name: config\n');
		file('application.properties', 'FOO=Baz\n');
		expect(run('kubectl kustomize ./').stdout).not.toContain('example-configmap-1-8mbdf7882g');
	});

	it('sets namespace, prefix, suffix, labels (selectors too) and annotations, warning that commonLabels is deprecated', () => {
		const { file, run } = shell();
		file('deployment.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: nginx-deployment\n  labels:\n    app: nginx\nspec:\n  selector:\n    matchLabels:\n      app: nginx\n  template:\n    metadata:\n      labels:\n        app: nginx\n    spec:\n      containers:\n      - name: nginx\n        image: nginx\n');
		file('kustomization.yaml', 'namespace: my-namespace\nnamePrefix: dev-\nnameSuffix: "-001"\ncommonLabels:\n  app: bingo\ncommonAnnotations:\n  oncallPager: 800-555-1212\nresources:\n- deployment.yaml\n');
		const r = run('kubectl kustomize ./');
		expect(r.stderr).toBe("# Warning: 'commonLabels' is deprecated. Please use 'labels' instead. Run 'kustomize edit fix' to update your Kustomization automatically.\n");
		expect(r.stdout).toBe(
			'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  annotations:\n    oncallPager: 800-555-1212\n  labels:\n    app: bingo\n  name: dev-nginx-deployment-001\n  namespace: my-namespace\nspec:\n  selector:\n    matchLabels:\n      app: bingo\n  template:\n    metadata:\n      annotations:\n        oncallPager: 800-555-1212\n      labels:\n        app: bingo\n    spec:\n      containers:\n      - image: nginx\n        name: nginx\n',
		);
	});

	it('applies strategic-merge and JSON patches, images and vars as the page shows', () => {
		const { file, run } = shell();
		file('deployment.yaml', DEPLOYMENT);
		file('increase_replicas.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: my-nginx\nspec:\n  replicas: 3\n');
		file('set_memory.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: my-nginx\nspec:\n  template:\n    spec:\n      containers:\n      - name: my-nginx\n        resources:\n          limits:\n            memory: 512Mi\n');
		file('kustomization.yaml', 'resources:\n- deployment.yaml\npatchesStrategicMerge:\n- increase_replicas.yaml\n- set_memory.yaml\n');
		expect(run('kubectl kustomize ./').stdout).toContain('  replicas: 3\n  selector:\n');
		expect(run('kubectl kustomize ./').stdout).toContain('        ports:\n        - containerPort: 80\n        resources:\n          limits:\n            memory: 512Mi\n');
		file('patch.yaml', '- op: replace\n  path: /spec/replicas\n  value: 3\n');
		file('kustomization.yaml', 'resources:\n- deployment.yaml\n\npatchesJson6902:\n- target:\n    group: apps\n    version: v1\n    kind: Deployment\n    name: my-nginx\n  path: patch.yaml\n');
		expect(run('kubectl kustomize ./').stdout).toContain('  replicas: 3\n');
		file('kustomization.yaml', 'resources:\n- deployment.yaml\npatches:\n- path: increase_replicas.yaml\n');
		expect(run('kubectl kustomize ./')).toMatchObject({ stderr: '', stdout: expect.stringContaining('  replicas: 3\n') });
		file('kustomization.yaml', 'resources:\n- deployment.yaml\nimages:\n- name: nginx\n  newName: my.image.registry/nginx\n  newTag: 1.4.0\n');
		expect(run('kubectl kustomize ./').stdout).toContain('      - image: my.image.registry/nginx:1.4.0\n');
		file('deployment.yaml', DEPLOYMENT.replace('        ports:\n        - containerPort: 80\n', '        command: ["start", "--host", "$(MY_SERVICE_NAME)"]\n'));
		file('service.yaml', 'apiVersion: v1\nkind: Service\nmetadata:\n  name: my-nginx\n  labels:\n    run: my-nginx\nspec:\n  ports:\n  - port: 80\n    protocol: TCP\n  selector:\n    run: my-nginx\n');
		file('kustomization.yaml', 'namePrefix: dev-\nnameSuffix: "-001"\n\nresources:\n- deployment.yaml\n- service.yaml\n\nvars:\n- name: MY_SERVICE_NAME\n  objref:\n    kind: Service\n    name: my-nginx\n    apiVersion: v1\n');
		expect(run('kubectl kustomize ./').stdout).toContain('      - command:\n        - start\n        - --host\n        - dev-my-nginx-001\n        image: nginx\n');
	});

	it('builds overlays over a base, and says what is missing as kustomize does', () => {
		const { file, run } = shell();
		file('base/deployment.yaml', DEPLOYMENT);
		file('base/kustomization.yaml', 'resources:\n- deployment.yaml\n');
		file('dev/kustomization.yaml', 'resources:\n- ../base\nnamePrefix: dev-\n');
		file('prod/kustomization.yaml', 'resources:\n- ../base\nnamePrefix: prod-\n');
		expect(run('kubectl kustomize dev').stdout).toContain('  name: dev-my-nginx\n');
		expect(run('kubectl kustomize prod').stdout).toContain('  name: prod-my-nginx\n');
		expect(run('kubectl kustomize /home')).toMatchObject({ stderr: "error: unable to find one of 'kustomization.yaml', 'kustomization.yml' or 'Kustomization' in directory '/home'\n", exitCode: 1 });
		expect(run('kubectl kustomize nope').stderr).toBe("error: must build at directory: not a valid directory: evalsymlink failure on '/home/reader/nope' : lstat /home/reader/nope: no such file or directory\n");
		file('broken/kustomization.yaml', 'resources:\n- missing.yaml\n');
		expect(run('kubectl kustomize broken').stderr).toMatch(/^error: accumulating resources: .*missing\.yaml/);
	});
});

describe('-k on the other commands', () => {
	it('apply, get, diff and delete a kustomization as kubernetes.io does', () => {
		const { file, run } = shell();
		file('deployment.yaml', DEPLOYMENT);
		file('kustomization.yaml', 'namePrefix: dev-\ncommonLabels:\n  app: my-nginx\nresources:\n- deployment.yaml\n');
		const applied = run('kubectl apply -k ./');
		expect(applied.stdout).toBe('deployment.apps/dev-my-nginx created\n');
		expect(applied.stderr).toMatch(/^# Warning: 'commonLabels' is deprecated/);
		expect(run('kubectl get -k ./').stdout).toMatch(/^NAME {11}READY {3}UP-TO-DATE {3}AVAILABLE {3}AGE\ndev-my-nginx /);
		expect(run('kubectl diff -k ./').exitCode).toBe(0);
		expect(run('kubectl delete -k ./').stdout).toBe('deployment.apps "dev-my-nginx" deleted from default namespace\n');
		expect(run('kubectl get -k ./ -f deployment.yaml')).toMatchObject({ stderr: 'error: only one of -f or -k can be specified\n', exitCode: 1 });
	});
});
