import { describe, it, expect } from 'vitest';
import { R } from '../../client/client.ts';
import { world } from './testdata/env.ts';
import { base64, containerNameFromImage } from './create-generators.ts';

const yaml = (...lines: string[]) => `${lines.join('\n')}\n`;

describe('kubectl create <generator> --dry-run=client -o yaml prints the object kubectl would send', () => {
	const cases: Array<[string, string]> = [
		[
			'create deployment nginx --image=nginx',
			yaml(
				'apiVersion: apps/v1',
				'kind: Deployment',
				'metadata:',
				'  labels:',
				'    app: nginx',
				'  name: nginx',
				'spec:',
				'  replicas: 1',
				'  selector:',
				'    matchLabels:',
				'      app: nginx',
				'  strategy: {}',
				'  template:',
				'    metadata:',
				'      labels:',
				'        app: nginx',
				'    spec:',
				'      containers:',
				'      - image: nginx',
				'        name: nginx',
				'        resources: {}',
				'status: {}',
			),
		],
		[
			'create deployment web --image=registry.k8s.io/nginx:1.27 --replicas=3 --port=80 -n shop',
			yaml(
				'apiVersion: apps/v1',
				'kind: Deployment',
				'metadata:',
				'  labels:',
				'    app: web',
				'  name: web',
				'  namespace: shop',
				'spec:',
				'  replicas: 3',
				'  selector:',
				'    matchLabels:',
				'      app: web',
				'  strategy: {}',
				'  template:',
				'    metadata:',
				'      labels:',
				'        app: web',
				'    spec:',
				'      containers:',
				'      - image: registry.k8s.io/nginx:1.27',
				'        name: nginx',
				'        ports:',
				'        - containerPort: 80',
				'        resources: {}',
				'status: {}',
			),
		],
		['create namespace shop', yaml('apiVersion: v1', 'kind: Namespace', 'metadata:', '  name: shop', 'spec: {}', 'status: {}')],
		['create serviceaccount robot', yaml('apiVersion: v1', 'kind: ServiceAccount', 'metadata:', '  name: robot')],
		['create configmap empty', yaml('apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: empty')],
		['create configmap app --from-literal=mode=fast --from-literal=list=a,b', yaml('apiVersion: v1', 'data:', '  list: a,b', '  mode: fast', 'kind: ConfigMap', 'metadata:', '  name: app')],
		['create secret generic db --from-literal=password=s3cr3t', yaml('apiVersion: v1', 'data:', '  password: czNjcjN0', 'kind: Secret', 'metadata:', '  name: db')],
		['create secret generic db --from-literal=a=b --type=kubernetes.io/basic-auth', yaml('apiVersion: v1', 'data:', '  a: Yg==', 'kind: Secret', 'metadata:', '  name: db', 'type: kubernetes.io/basic-auth')],
		[
			'create service clusterip web --tcp=80:8080',
			yaml('apiVersion: v1', 'kind: Service', 'metadata:', '  labels:', '    app: web', '  name: web', 'spec:', '  ports:', '  - name: 80-8080', '    port: 80', '    protocol: TCP', '    targetPort: 8080', '  selector:', '    app: web', '  type: ClusterIP', 'status:', '  loadBalancer: {}'),
		],
		[
			// The alias: `svc` is dropped on the way to the subcommand, as cobra drops `service`.
			'create svc clusterip web --tcp=80:8080',
			yaml('apiVersion: v1', 'kind: Service', 'metadata:', '  labels:', '    app: web', '  name: web', 'spec:', '  ports:', '  - name: 80-8080', '    port: 80', '    protocol: TCP', '    targetPort: 8080', '  selector:', '    app: web', '  type: ClusterIP', 'status:', '  loadBalancer: {}'),
		],
		[
			'create service nodeport web --tcp=80:http --node-port=30080',
			yaml('apiVersion: v1', 'kind: Service', 'metadata:', '  labels:', '    app: web', '  name: web', 'spec:', '  ports:', '  - name: 80-http', '    nodePort: 30080', '    port: 80', '    protocol: TCP', '    targetPort: http', '  selector:', '    app: web', '  type: NodePort', 'status:', '  loadBalancer: {}'),
		],
		[
			'create job pi --image=perl -- perl -e 1',
			yaml('apiVersion: batch/v1', 'kind: Job', 'metadata:', '  name: pi', 'spec:', '  template:', '    metadata: {}', '    spec:', '      containers:', '      - command:', '        - perl', '        - -e', '        - "1"', '        image: perl', '        name: pi', '        resources: {}', '      restartPolicy: Never', 'status: {}'),
		],
		[
			"create cronjob tick --image=busybox --schedule=*/1_*_*_*_*",
			yaml(
				'apiVersion: batch/v1',
				'kind: CronJob',
				'metadata:',
				'  name: tick',
				'spec:',
				'  jobTemplate:',
				'    metadata:',
				'      name: tick',
				'    spec:',
				'      template:',
				'        metadata: {}',
				'        spec:',
				'          containers:',
				'          - image: busybox',
				'            name: tick',
				'            resources: {}',
				'          restartPolicy: OnFailure',
				"  schedule: '*/1_*_*_*_*'",
				'status: {}',
			),
		],
		[
			'create role pod-reader --verb=get,list --verb=watch --resource=pods,deployments.apps --resource-name=web',
			yaml(
				'apiVersion: rbac.authorization.k8s.io/v1',
				'kind: Role',
				'metadata:',
				'  name: pod-reader',
				'rules:',
				'- apiGroups:',
				'  - ""',
				'  resourceNames:',
				'  - web',
				'  resources:',
				'  - pods',
				'  verbs:',
				'  - get',
				'  - list',
				'  - watch',
				'- apiGroups:',
				'  - apps',
				'  resourceNames:',
				'  - web',
				'  resources:',
				'  - deployments',
				'  verbs:',
				'  - get',
				'  - list',
				'  - watch',
			),
		],
		[
			'create clusterrole metrics --verb=get --non-resource-url=/metrics',
			yaml('apiVersion: rbac.authorization.k8s.io/v1', 'kind: ClusterRole', 'metadata:', '  name: metrics', 'rules:', '- nonResourceURLs:', '  - /metrics', '  verbs:', '  - get'),
		],
		[
			'create rolebinding read --role=pod-reader --user=jane --group=devs --serviceaccount=default:robot',
			yaml(
				'apiVersion: rbac.authorization.k8s.io/v1',
				'kind: RoleBinding',
				'metadata:',
				'  name: read',
				'roleRef:',
				'  apiGroup: rbac.authorization.k8s.io',
				'  kind: Role',
				'  name: pod-reader',
				'subjects:',
				'- apiGroup: rbac.authorization.k8s.io',
				'  kind: User',
				'  name: jane',
				'- apiGroup: rbac.authorization.k8s.io',
				'  kind: Group',
				'  name: devs',
				'- kind: ServiceAccount',
				'  name: robot',
				'  namespace: default',
			),
		],
		[
			'create clusterrolebinding admins --clusterrole=cluster-admin --user=root',
			yaml('apiVersion: rbac.authorization.k8s.io/v1', 'kind: ClusterRoleBinding', 'metadata:', '  name: admins', 'roleRef:', '  apiGroup: rbac.authorization.k8s.io', '  kind: ClusterRole', '  name: cluster-admin', 'subjects:', '- apiGroup: rbac.authorization.k8s.io', '  kind: User', '  name: root'),
		],
		[
			'create pdb web --selector=app=web --min-available=2',
			yaml('apiVersion: policy/v1', 'kind: PodDisruptionBudget', 'metadata:', '  name: web', 'spec:', '  minAvailable: 2', '  selector:', '    matchLabels:', '      app: web', 'status:', '  currentHealthy: 0', '  desiredHealthy: 0', '  disruptionsAllowed: 0', '  expectedPods: 0'),
		],
		[
			"create poddisruptionbudget db --selector='tier in (db)' --max-unavailable=50%",
			yaml('apiVersion: policy/v1', 'kind: PodDisruptionBudget', 'metadata:', '  name: db', 'spec:', '  maxUnavailable: 50%', '  selector:', '    matchExpressions:', '    - key: tier', '      operator: In', '      values:', '      - db', 'status:', '  currentHealthy: 0', '  desiredHealthy: 0', '  disruptionsAllowed: 0', '  expectedPods: 0'),
		],
		['create priorityclass high --value=1000 --description=urgent', yaml('apiVersion: scheduling.k8s.io/v1', 'description: urgent', 'kind: PriorityClass', 'metadata:', '  name: high', 'preemptionPolicy: PreemptLowerPriority', 'value: 1000')],
	];
	it.each(cases)('kubectl %s', (line, expected) => {
		const w = world();
		const before = w.revision();
		// Flags go before `--`: what follows it is the container's command.
		const [head, tail] = line.split(' -- ');
		expect(w.kubectl(`${head} --dry-run=client -o yaml${tail ? ` -- ${tail}` : ''}`)).toEqual({ stdout: expected, stderr: '', exitCode: 0 });
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl create <generator>', () => {
	it('creates the object and prints kind.group/name created', () => {
		const w = world();
		expect(w.kubectl('create deployment nginx --image=nginx:1.27 --replicas=3')).toEqual({ stdout: 'deployment.apps/nginx created\n', stderr: '', exitCode: 0 });
		const live = w.get(R.deployments, 'default', 'nginx')!;
		expect((live.spec as { replicas: number }).replicas).toBe(3);
		expect(live.metadata.labels).toEqual({ app: 'nginx' });
	});

	it('wraps the server error the way each generator does', () => {
		const w = world();
		w.kubectl('create deployment nginx --image=nginx');
		w.kubectl('create namespace shop');
		expect(w.kubectl('create deployment nginx --image=nginx').stderr).toBe('error: failed to create deployment: deployments.apps "nginx" already exists\n');
		expect(w.kubectl('create namespace shop').stderr).toBe('Error from server (AlreadyExists): namespaces "shop" already exists\n');
		expect(w.kubectl('create configmap nginx').exitCode).toBe(0);
		expect(w.kubectl('create configmap nginx').stderr).toBe('error: failed to create configmap: configmaps "nginx" already exists\n');
	});

	it('reads --from-file keys from the base name and --from-env-file lines', () => {
		const w = world({ files: { 'conf/app.properties': 'color=blue\n', 'vars.env': '# comment\n\nA=1\nB=two words\n' } });
		expect(w.kubectl('create configmap app --from-file=conf/app.properties --from-file=custom=conf/app.properties --from-env-file=vars.env --dry-run=client -o yaml').stdout).toBe(
			yaml('apiVersion: v1', 'data:', '  A: "1"', '  B: two words', '  app.properties: |', '    color=blue', '  custom: |', '    color=blue', 'kind: ConfigMap', 'metadata:', '  name: app'),
		);
	});

	it.each([
		['create deployment', 'error: required flag(s) "image" not set\n'],
		['create deployment --image=nginx', "error: exactly one NAME is required, got 0\nSee 'kubectl create deployment -h' for help and examples\n"],
		['create deployment a b --image=nginx', "error: exactly one NAME is required, got 2\nSee 'kubectl create deployment -h' for help and examples\n"],
		['create deployment a --image=nginx --image=redis -- sleep 1', 'error: cannot specify multiple --image options and command\n'],
		['create configmap c --from-literal=novalue', 'error: invalid literal source novalue, expected key=value\n'],
		['create configmap c --from-literal=a=1 --from-literal=a=2', 'error: cannot add key "a", another key by that name already exists in Data for ConfigMap "c"\n'],
		['create configmap c --from-file=missing.txt', 'error: error reading missing.txt: no such file or directory\n'],
		['create secret generic s --from-env-file=x.env --from-literal=a=b', 'error: from-env-file cannot be combined with from-file or from-literal\n'],
		['create service clusterip web', 'error: at least one tcp port specifier must be provided\n'],
		['create service nodeport web --tcp=80 --clusterip=None', 'error: unknown flag: --clusterip\nSee \'kubectl create service nodeport --help\' for usage.\n'],
		['create role r --resource=pods', 'error: at least one verb must be specified\n'],
		['create role r --verb=get', 'error: at least one resource must be specified\n'],
		['create role r --verb=get --resource=podz', 'error: the server doesn\'t have a resource type "podz"\n'],
		['create role r --verb=bind --resource=pods', "error: can not perform 'bind' on 'pods' in group ''\n"],
		['create rolebinding rb --user=jane', 'error: exactly one of clusterrole or role must be specified\n'],
		['create rolebinding rb --role=r --serviceaccount=robot', 'error: serviceaccount must be <namespace>:<name>\n'],
		['create clusterrolebinding crb --user=x', 'error: required flag(s) "clusterrole" not set\n'],
		['create job j', 'error: either --image or --from must be specified\n'],
		['create cronjob c --image=busybox', 'error: required flag(s) "schedule" not set\n'],
		['create foo', "error: Unexpected args: [foo]\nSee 'kubectl create -h' for help and examples\n"],
		['create secret foo x', "error: unknown command \"foo x\"\nSee 'kubectl create secret -h' for help and examples\n"],
		['create', 'error: must specify one of -f and -k\n'],
		['create pdb p --min-available=1', 'error: a selector must be specified\n'],
		['create pdb p --selector=a=b --min-available=1 --max-unavailable=1', 'error: min-available and max-unavailable cannot be both specified\n'],
		['create pdb p --selector=a=b --min-available=10Gb', 'error: invalid format specified for min-available\n'],
	])('rejects `kubectl %s` and changes nothing', (line, stderr) => {
		const w = world();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});

	it('warns about a verb kubectl does not know, and creates the role anyway', () => {
		const w = world();
		expect(w.kubectl('create role r --verb=frobnicate --resource=pods')).toEqual({ stdout: 'role.rbac.authorization.k8s.io/r created\n', stderr: "Warning: 'frobnicate' is not a standard resource verb\n", exitCode: 0 });
	});
});

describe('kubectl create -f', () => {
	const CM = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  a: "1"\n';
	it('creates each object and names the file in errors', () => {
		const w = world({ files: { 'cm.yaml': CM } });
		expect(w.kubectl('create -f cm.yaml')).toEqual({ stdout: 'configmap/settings created\n', stderr: '', exitCode: 0 });
		expect(w.kubectl('create -f cm.yaml')).toEqual({ stdout: '', stderr: 'Error from server (AlreadyExists): error when creating "cm.yaml": configmaps "settings" already exists\n', exitCode: 1 });
	});

	it('stores the manifest as last-applied with --save-config', () => {
		const w = world({ files: { 'cm.yaml': CM } });
		w.kubectl('create -f cm.yaml --save-config');
		expect(w.get(R.configmaps, 'default', 'settings')!.metadata.annotations).toEqual({
			'kubectl.kubernetes.io/last-applied-configuration': '{"apiVersion":"v1","data":{"a":"1"},"kind":"ConfigMap","metadata":{"annotations":{},"name":"settings","namespace":"default"}}\n',
		});
		// An object created with --save-config is later applied without a warning.
		expect(w.kubectl('apply -f cm.yaml')).toEqual({ stdout: 'configmap/settings unchanged\n', stderr: '', exitCode: 0 });
	});
});

describe('generator helpers', () => {
	it.each([
		['nginx', 'nginx'],
		['nginx:1.27', 'nginx'],
		['registry.k8s.io/pause:3.10', 'pause'],
		['busybox@sha256:abc', 'busybox'],
	])('names the container of image %s %s', (image, name) => {
		expect(containerNameFromImage(image, () => 'xxxxx')).toBe(name);
	});

	it('sanitizes a name with dots or underscores and adds a random suffix', () => {
		expect(containerNameFromImage('my_app.v2:1', () => 'abcde')).toBe('my-app-v2-abcde');
	});

	it.each([
		['', ''],
		['f', 'Zg=='],
		['fo', 'Zm8='],
		['foo', 'Zm9v'],
		['héllo', 'aMOpbGxv'],
	])('encodes %j in base64 as %s', (text, encoded) => {
		expect(base64(text)).toBe(encoded);
	});
});
