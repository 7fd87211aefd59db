import { describe, expect, it } from 'vitest';
import { RESOURCES } from '../../api/resources.ts';
import { kubectlFixture, lines } from '../../testing/kubectl/fixtures.ts';

describe('kubectl get: every listable built-in resource', () => {
	const listable = RESOURCES.filter((r) => r.verbs.includes('list') && !r.aggregated && r.resource !== 'namespaces');
	it.each(listable.map((r) => [r.group ? `${r.resource}.${r.group}` : r.resource, r.namespaced] as const))('%s answers', (name, namespaced) => {
		const result = kubectlFixture().kubectl(`get ${name}`);
		expect(result.exitCode).toBe(0);
		if (name === 'componentstatuses') {
			// Probed, never stored: always three rows, with upstream's deprecation warning.
			expect(result.stdout.split('\n')[0]).toMatch(/^NAME +STATUS +MESSAGE +ERROR$/);
			expect(result.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
			return;
		}
		expect(result.stdout).toBe('');
		expect(result.stderr.split('\n').filter((l) => !l.startsWith('Warning: ')).join('\n')).toBe(namespaced ? 'No resources found in default namespace.\n' : 'No resources found\n');
	});
});

describe('kubectl get: the storage and networking kinds print upstream’s columns', () => {
	it('a new claim is Pending with no volume; its wide view adds VOLUMEMODE', () => {
		const k = kubectlFixture();
		const pvc = 'apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: fast\n  resources:\n    requests:\n      storage: 1Gi\n';
		expect(k.kubectl('apply -f -', pvc).stdout).toBe('persistentvolumeclaim/data created\n');
		expect(k.kubectl('get pvc').stdout).toBe(
			lines('NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE', 'data   Pending                                      fast           <unset>                 0s'),
		);
		expect(k.kubectl('get pvc -o wide').stdout.split('\n')[0]).toBe('NAME   STATUS    VOLUME   CAPACITY   ACCESS MODES   STORAGECLASS   VOLUMEATTRIBUTESCLASS   AGE   VOLUMEMODE');
		expect(k.kubectl('get pvc data -o jsonpath={.spec.volumeMode}').stdout).toBe('Filesystem');
	});

	it('a volume shows its capacity, modes (RWO first) and Retain by default', () => {
		const k = kubectlFixture();
		const pv =
			'apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv-1\nspec:\n  capacity:\n    storage: 5Gi\n  accessModes: [ReadWriteMany, ReadWriteOnce]\n  hostPath:\n    path: /data\n';
		k.kubectl('apply -f -', pv);
		expect(k.kubectl('get pv').stdout).toBe(
			lines(
				'NAME   CAPACITY   ACCESS MODES   RECLAIM POLICY   STATUS    CLAIM   STORAGECLASS   VOLUMEATTRIBUTESCLASS   REASON   AGE',
				'pv-1   5Gi        RWO,RWX        Retain           Pending                          <unset>                          0s',
			),
		);
		expect(k.kubectl('get pv pv-1 -o jsonpath={.spec.hostPath.type}|{.status.lastPhaseTransitionTime}').stdout).toMatch(/^\|\d{4}-\d\d-\d\dT/);
	});

	it('a StorageClass has Delete and Immediate by default and marks the default class', () => {
		const k = kubectlFixture();
		k.kubectl(
			'apply -f -',
			'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: standard\n  annotations:\n    storageclass.kubernetes.io/is-default-class: "true"\nprovisioner: rancher.io/local-path\nvolumeBindingMode: WaitForFirstConsumer\n',
		);
		k.kubectl('apply -f -', 'apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: fast\nprovisioner: example.com/ssd\nallowVolumeExpansion: true\n');
		expect(k.kubectl('get sc').stdout).toBe(
			lines(
				'NAME                 PROVISIONER             RECLAIMPOLICY   VOLUMEBINDINGMODE      ALLOWVOLUMEEXPANSION   AGE',
				'fast                 example.com/ssd         Delete          Immediate              true                   0s',
				'standard (default)   rancher.io/local-path   Delete          WaitForFirstConsumer   false                  0s',
			),
		);
	});

	it('an Ingress lists its class, hosts, address and ports', () => {
		const k = kubectlFixture();
		const ing = [
			'apiVersion: networking.k8s.io/v1',
			'kind: Ingress',
			'metadata:',
			'  name: web',
			'spec:',
			'  ingressClassName: nginx',
			'  tls:',
			'  - hosts: [a.example.com]',
			'  rules:',
			'  - host: a.example.com',
			'    http:',
			'      paths:',
			'      - path: /',
			'        pathType: Prefix',
			'        backend:',
			'          service:',
			'            name: web',
			'            port:',
			'              number: 80',
			'  - host: b.example.com',
			'',
		].join('\n');
		expect(k.kubectl('apply -f -', ing).stdout).toBe('ingress.networking.k8s.io/web created\n');
		k.kubectl('apply -f -', 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: plain\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n');
		k.setStatus({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: 'default' } }, { loadBalancer: { ingress: [{ ip: '192.168.1.240' }] } });
		expect(k.kubectl('get ing').stdout).toBe(
			lines('NAME    CLASS    HOSTS                         ADDRESS         PORTS     AGE', 'plain   <none>   *                                             80        0s', 'web     nginx    a.example.com,b.example.com   192.168.1.240   80, 443   0s'),
		);
	});

	it('a NetworkPolicy shows its pod selector', () => {
		const k = kubectlFixture();
		k.kubectl('apply -f -', 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: deny-all\nspec:\n  podSelector: {}\n  policyTypes: [Ingress]\n');
		k.kubectl('apply -f -', 'apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata:\n  name: db\nspec:\n  podSelector:\n    matchLabels:\n      app: db\n');
		expect(k.kubectl('get netpol').stdout).toBe(lines('NAME       POD-SELECTOR   AGE', 'db         app=db         0s', 'deny-all   <none>         0s'));
	});

	it('a ResourceQuota splits used/hard into REQUEST and LIMIT', () => {
		const k = kubectlFixture();
		k.kubectl('apply -f -', 'apiVersion: v1\nkind: ResourceQuota\nmetadata:\n  name: compute\nspec:\n  hard:\n    requests.cpu: "1"\n    limits.memory: 2Gi\n    pods: "10"\n');
		expect(k.kubectl('get quota').stdout).toBe(lines('NAME      AGE   REQUEST   LIMIT', 'compute   0s              '));
		// The resource quota controller writes status; here the test does.
		k.setStatus(
			{ apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'compute', namespace: 'default' } },
			{ hard: { 'requests.cpu': '1', 'limits.memory': '2Gi', pods: '10' }, used: { 'requests.cpu': '250m', 'limits.memory': '0', pods: '1' } },
		);
		expect(k.kubectl('get quota').stdout).toBe(lines('NAME      AGE   REQUEST                            LIMIT', 'compute   0s    pods: 1/10, requests.cpu: 250m/1   limits.memory: 0/2Gi'));
	});

	it('kubectl get cs probes the scheduler, the controller manager and etcd', () => {
		const result = kubectlFixture().kubectl('get componentstatuses');
		expect(result.stderr).toBe('Warning: v1 ComponentStatus is deprecated in v1.19+\n');
		expect(result.stdout.split('\n').map((l) => l.split(/ +/)[0])).toEqual(['NAME', 'scheduler', 'controller-manager', 'etcd-0', '']);
	});
});
