import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('cluster options', () => {
	it('refuses what it cannot build yet (several API servers) and etcd member counts outside 1 to 5, naming the field', () => {
		expect(() => createCluster({ controlPlane: { apiServers: 2 } })).toThrow('controlPlane.apiServers: 2 is not supported yet; this version runs one kube-apiserver (set 1 or leave it out)');
		expect(() => createCluster({ controlPlane: { etcdMembers: 0 } })).toThrow('controlPlane.etcdMembers: 0 is not a whole number from 1 to 5 (one member per control-plane machine)');
		expect(() => createCluster({ controlPlane: { etcdMembers: 2.5 } })).toThrow('controlPlane.etcdMembers: 2.5 is not a whole number from 1 to 5');
	});

	it('accepts one etcd member and one API server, said out loud', () => {
		const cluster = createCluster({ controlPlane: { etcdMembers: 1, apiServers: 1 } });
		expect(cluster.exec('kubectl get pods -n kube-system -l component=etcd --no-headers').stdout).toMatch(/^etcd-control-plane +1\/1 +Running/);
	});

	it.each([
		['an unknown plugin', { profiles: [{ schedulerName: 'default-scheduler', plugins: { score: { enabled: [{ name: 'NoSuchPlugin' }] } } }] }, /^scheduler: couldn't create scheduler: initializing profiles: .*NoSuchPlugin/],
		['a percentage above 100', { percentageOfNodesToScore: 150 }, /^scheduler: couldn't create scheduler: percentageOfNodesToScore: Invalid value: 150: not in valid range \[0-100\]$/],
		['two profiles with one name', { profiles: [{ schedulerName: 'a' }, { schedulerName: 'a' }] }, /^scheduler: couldn't create scheduler: .*profiles\[1\]\.schedulerName: Duplicate value: "a"/],
		['an unknown scoring strategy', { profiles: [{ schedulerName: 'default-scheduler', pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'Bogus' } } }] }] }, /^scheduler: couldn't create scheduler: .*scoringStrategy\.type: Unsupported value: "Bogus"/],
	])('refuses a scheduler configuration with %s, in kube-scheduler\'s words', (_what, config, message) => {
		expect(() => createCluster({ scheduler: { apiVersion: 'kubescheduler.config.k8s.io/v1', kind: 'KubeSchedulerConfiguration', ...config } as never })).toThrow(message);
	});

	it('refuses a start time that is not RFC 3339', () => {
		expect(() => createCluster({ startTime: 'yesterday' })).toThrow('startTime "yesterday" is not an RFC 3339 time');
	});
});

describe('controlPlane.registerNode: false', () => {
	const workers = [
		{ name: 'node-1', cpu: '2', memory: '4Gi' },
		{ name: 'node-2', cpu: '2', memory: '4Gi' },
		{ name: 'node-3', cpu: '2', memory: '4Gi' },
	];

	it('refuses a value that is not a boolean', () => {
		expect(() => createCluster({ controlPlane: { registerNode: 'no' as unknown as boolean } })).toThrow(/^controlPlane\.registerNode: "no" is not a boolean/);
	});

	it('makes the Nodes exactly the workers, pod CIDRs handed out in their order; the control plane runs on its machine all the same', () => {
		const cluster = createCluster({ seed: 5, controlPlane: { registerNode: false }, nodes: workers });
		expect(cluster.nodeNames()).toEqual(['control-plane', 'node-1', 'node-2', 'node-3']);
		expect(cluster.exec('kubectl get nodes -o custom-columns=NAME:.metadata.name,CIDR:.spec.podCIDR,TAINTS:.spec.taints --no-headers').stdout.split('\n').filter(Boolean).map((l) => l.split(/\s+/))).toEqual([
			['node-1', '10.244.0.0/24', '<none>'],
			['node-2', '10.244.1.0/24', '<none>'],
			['node-3', '10.244.2.0/24', '<none>'],
		]);
		// Pods get addresses from their Node's podCIDR.
		const dns = cluster.list('pods', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns');
		for (const pod of dns) {
			const node = cluster.get('nodes', undefined, (pod.spec as { nodeName: string }).nodeName);
			expect((pod.status as { podIP: string }).podIP.split('.').slice(0, 3)).toEqual(((node?.spec as { podCIDR: string }).podCIDR).split('.').slice(0, 3));
		}
		// The static pods run (the API answers), but without a Node there are no mirror pods, no Lease and no kube-proxy Pod for that machine.
		expect(cluster.exec('kubectl get pods -n kube-system -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName --no-headers').stdout).not.toMatch(/control-plane/);
		expect(cluster.list('leases', 'kube-node-lease').map((l) => l.metadata.name)).toEqual(['node-1', 'node-2', 'node-3']);
		expect(cluster.exec('ssh control-plane crictl ps --name kube-scheduler -q').stdout.trim()).not.toBe('');
		expect(cluster.exec('ssh control-plane cat /var/lib/kubelet/config.yaml').stdout).toContain('registerNode: false\n');
		expect(cluster.exec('ssh control-plane journalctl -u kubelet --no-pager').stdout).toContain('"No need to create a mirror pod, since failed to get node info from the cluster" err="node \\"control-plane\\" not found" node="control-plane"');
		const cp = cluster.components().filter((c) => c.node === 'control-plane' && c.component !== 'kube-proxy');
		expect(cp.every((c) => c.running && !c.failing)).toBe(true);
	});

	it('counts only the workers when a Pod fits none of them (a request above every allocatable is unresolvable, so preemption is not tried)', () => {
		const cluster = createCluster({ seed: 5, controlPlane: { registerNode: false }, nodes: workers });
		cluster.writeFile('big.yaml', 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n  containers:\n  - name: app\n    image: nginx\n    resources:\n      requests:\n        cpu: "3"\n');
		cluster.exec('kubectl apply -f big.yaml');
		cluster.advance('5s');
		expect(cluster.exec('kubectl get events --field-selector reason=FailedScheduling -o custom-columns=MESSAGE:.message --no-headers').stdout.trim()).toBe('0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.');
	});

	it('lets a Node created by hand be adopted: the kubelet posts its status, owns its Lease and publishes the mirror pods', () => {
		const cluster = createCluster({ seed: 5, controlPlane: { registerNode: false }, nodes: workers });
		// With the os label flannel's DaemonSet selects (a kubelet that never registers does not add its default labels), so
		// the node gets its Pod network and turns Ready.
		cluster.writeFile('node.yaml', 'apiVersion: v1\nkind: Node\nmetadata:\n  name: control-plane\n  labels:\n    kubernetes.io/os: linux\n');
		expect(cluster.exec('kubectl create -f node.yaml').stdout).toBe('node/control-plane created\n');
		cluster.advance('30s');
		expect(cluster.exec('kubectl get node control-plane --no-headers').stdout).toMatch(/^control-plane +Ready +<none> /);
		const lease = cluster.get('leases', 'kube-node-lease', 'control-plane');
		expect(lease?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Node', name: 'control-plane', uid: cluster.get('nodes', undefined, 'control-plane')?.metadata.uid });
		expect(cluster.exec('kubectl get pods -n kube-system -l tier=control-plane -o name').stdout).toBe('pod/etcd-control-plane\npod/kube-apiserver-control-plane\npod/kube-controller-manager-control-plane\npod/kube-scheduler-control-plane\n');
	});
});
