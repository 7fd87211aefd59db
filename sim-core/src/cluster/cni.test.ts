/**
 * The Pod network add-on, through the public API: flannel as kube-flannel.yml
 * installs it (the default), a cluster with none (as right after `kubeadm
 * init`) until the reader applies flannel's release manifest, what breaks
 * when a node's CNI config or plugin is missing and how it recovers, and
 * Calico's devices. Messages are upstream's: kubelet's NetworkReady text
 * (pkg/kubelet/kubelet.go), containerd's `failed to setup network for
 * sandbox` (internal/cri/server/sandbox_run.go), go-cni's `cni plugin not
 * initialized`, libcni's `failed to find plugin` (pkg/invoke/find.go),
 * flannel's subnet.env error (flannel-io/cni-plugin flannel.go).
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { createCluster, type Cluster } from '../index.ts';

const NOT_READY = 'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized';
const FLANNEL_URL = 'https://github.com/flannel-io/flannel/releases/latest/download/kube-flannel.yml';
const PINNED = (name: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  nodeName: node-1\n  containers:\n  - name: web\n    image: nginx:1.29\n`;

const readyCondition = (node: KubeObject | undefined) => ((node?.status as { conditions?: Array<{ type: string; status: string; message: string }> } | undefined)?.conditions ?? []).find((c) => c.type === 'Ready');
const phaseOf = (pod: KubeObject | undefined) => (pod?.status as { phase?: string } | undefined)?.phase;
const eventsFor = (cluster: Cluster, pod: string) =>
	cluster
		.list('events', 'default')
		.filter((e) => (e.involvedObject as { name?: string } | undefined)?.name === pod)
		.map((e) => ({ reason: e.reason as string, message: e.message as string }));

/** Runs a line on a node's shell and comes back to the workstation. */
function onNode(cluster: Cluster, node: string, line: string): string {
	cluster.exec(`ssh ${node}`);
	const result = cluster.exec(line);
	cluster.exec('exit');
	return result.output;
}

describe('flannel, the default Pod network', () => {
	it('runs kube-flannel-ds on every node and leaves its plugin, config and subnet.env there', () => {
		const cluster = createCluster({ seed: 3 });
		const flannel = cluster.list('pods', 'kube-flannel');
		expect(flannel.map((p) => (p.spec as { nodeName: string }).nodeName).sort()).toEqual(['control-plane', 'node-1', 'node-2']);
		expect(flannel.every((p) => phaseOf(p) === 'Running')).toBe(true);
		expect(cluster.get('daemonsets', 'kube-flannel', 'kube-flannel-ds')).toBeDefined();
		expect(cluster.get('configmaps', 'kube-flannel', 'kube-flannel-cfg')?.data).toMatchObject({ 'net-conf.json': expect.stringContaining('"Network": "10.244.0.0/16"') });
		expect(onNode(cluster, 'node-1', 'ls /etc/cni/net.d')).toBe('10-flannel.conflist\n');
		expect(onNode(cluster, 'node-1', 'cat /etc/cni/net.d/10-flannel.conflist')).toContain('"type": "flannel"');
		const bin = onNode(cluster, 'node-1', 'ls -1 /opt/cni/bin').split('\n');
		expect(bin).toEqual(expect.arrayContaining(['bridge', 'flannel', 'host-local', 'loopback', 'portmap']));
		expect(onNode(cluster, 'node-2', 'cat /run/flannel/subnet.env')).toBe('FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.2.1/24\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n');
		expect(cluster.list('nodes').every((n) => readyCondition(n)?.status === 'True')).toBe(true);
	});

	it('is the same trace for the same seed', () => {
		const a = createCluster({ seed: 11 });
		const b = createCluster({ seed: 11 });
		expect(a.fingerprint()).toBe(b.fingerprint());
	});
});

describe('no Pod network (cni: none)', () => {
	it('keeps the nodes NotReady with the kubelet message and CoreDNS Pending, until kube-flannel.yml is applied', () => {
		const cluster = createCluster({ seed: 5, cni: 'none' });
		for (const node of cluster.list('nodes')) expect(readyCondition(node)).toMatchObject({ status: 'False', message: NOT_READY });
		const dns = cluster.list('pods', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns');
		expect(dns.length).toBe(2);
		expect(dns.every((p) => phaseOf(p) === 'Pending')).toBe(true);
		expect(onNode(cluster, 'node-1', 'ls /etc/cni/net.d')).toBe('');

		const applied = cluster.exec(`kubectl apply -f ${FLANNEL_URL}`);
		expect(applied.exitCode).toBe(0);
		expect(applied.stdout).toContain('daemonset.apps/kube-flannel-ds created');
		cluster.advance('60s');
		expect(cluster.list('nodes').every((n) => readyCondition(n)?.status === 'True')).toBe(true);
		const after = cluster.list('pods', 'kube-system').filter((p) => p.metadata.labels?.['k8s-app'] === 'kube-dns');
		expect(after.every((p) => phaseOf(p) === 'Running')).toBe(true);
	});
});

describe('a node whose CNI config or plugin is missing', () => {
	it('without its conflist: NetworkReady false, the node NotReady, and a new Pod there gets NetworkNotReady; the config back, it runs', () => {
		const cluster = createCluster({ seed: 7 });
		onNode(cluster, 'node-1', 'mv /etc/cni/net.d/10-flannel.conflist /root/10-flannel.conflist');
		cluster.advance('15s');
		expect(readyCondition(cluster.get('nodes', undefined, 'node-1'))).toMatchObject({ status: 'False', message: NOT_READY });
		expect(onNode(cluster, 'node-1', 'crictl info')).toContain('"lastCNILoadStatus": "cni config load failed: no network config found in /etc/cni/net.d: cni plugin not initialized: failed to load cni config"');
		cluster.writeFile('pinned.yaml', PINNED('pinned'));
		cluster.exec('kubectl apply -f pinned.yaml');
		cluster.advance('10s');
		expect(eventsFor(cluster, 'pinned')).toContainEqual({ reason: 'NetworkNotReady', message: `network is not ready: ${NOT_READY}` });
		expect(phaseOf(cluster.get('pods', 'default', 'pinned'))).toBe('Pending');

		onNode(cluster, 'node-1', 'mv /root/10-flannel.conflist /etc/cni/net.d/10-flannel.conflist');
		cluster.advance('30s');
		expect(readyCondition(cluster.get('nodes', undefined, 'node-1'))?.status).toBe('True');
		expect(phaseOf(cluster.get('pods', 'default', 'pinned'))).toBe('Running');
	});

	it('without the flannel binary: FailedCreatePodSandBox with libcni’s message, retried until the binary is back', () => {
		const cluster = createCluster({ seed: 7 });
		onNode(cluster, 'node-1', 'mv /opt/cni/bin/flannel /root/flannel');
		cluster.writeFile('pinned.yaml', PINNED('nobin'));
		cluster.exec('kubectl apply -f pinned.yaml');
		cluster.advance('30s');
		// The node stays Ready: the config loads, only the ADD fails.
		expect(readyCondition(cluster.get('nodes', undefined, 'node-1'))?.status).toBe('True');
		const failed = eventsFor(cluster, 'nobin').filter((e) => e.reason === 'FailedCreatePodSandBox');
		expect(failed.length).toBeGreaterThan(0);
		// criErrorText renders code Unknown bare, as recent cri-client does (cri-api/cri.ts).
		expect(failed[0].message).toMatch(/^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": plugin type="flannel" failed \(add\): failed to find plugin "flannel" in path \[\/opt\/cni\/bin\]$/);
		expect(cluster.exec('kubectl get pod nobin').stdout).toContain('ContainerCreating');

		onNode(cluster, 'node-1', 'mv /root/flannel /opt/cni/bin/flannel');
		cluster.advance('30s');
		expect(phaseOf(cluster.get('pods', 'default', 'nobin'))).toBe('Running');
	});

	it('without subnet.env (flannel never ran there): flannel’s own message, pointing at the flannel pod', () => {
		const cluster = createCluster({ seed: 7 });
		onNode(cluster, 'node-1', 'rm /run/flannel/subnet.env');
		cluster.writeFile('pinned.yaml', PINNED('nosubnet'));
		cluster.exec('kubectl apply -f pinned.yaml');
		cluster.advance('20s');
		const failed = eventsFor(cluster, 'nosubnet').filter((e) => e.reason === 'FailedCreatePodSandBox');
		expect(failed[0]?.message).toContain(`plugin type="flannel" failed (add): failed to load flannel 'subnet.env' file: open /run/flannel/subnet.env: no such file or directory. Check the flannel pod log for this node.`);
		// The file is gone, not the kernel's state: flannel.1 and the routes to the other nodes stay for the Pods already running.
		expect(onNode(cluster, 'node-1', 'ip route')).toContain('10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink');
	});

	it('deleting the flannel DaemonSet: running Pods keep their network and subnet.env stays on /run', () => {
		const cluster = createCluster({ seed: 7 });
		cluster.exec('kubectl delete -n kube-flannel daemonset kube-flannel-ds');
		cluster.advance('40s');
		expect(cluster.list('pods', 'kube-flannel')).toEqual([]);
		expect(onNode(cluster, 'node-1', 'cat /run/flannel/subnet.env')).toContain('FLANNEL_SUBNET=10.244.1.1/24');
		expect(onNode(cluster, 'node-1', 'ip route')).toContain('10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink');
		expect(cluster.list('nodes').every((n) => readyCondition(n)?.status === 'True')).toBe(true);
	});
});

describe('Pod traffic across nodes', () => {
	it('crosses the overlay while flannel has set up both nodes, and gets no answer once one of them has lost it', () => {
		const cluster = createCluster({ seed: 8 });
		cluster.writeFile('a.yaml', PINNED('a'));
		cluster.writeFile('b.yaml', PINNED('b').replace('nodeName: node-1', 'nodeName: node-2'));
		cluster.exec('kubectl apply -f a.yaml');
		cluster.exec('kubectl apply -f b.yaml');
		cluster.advance('20s');
		const ipA = (cluster.get('pods', 'default', 'a')?.status as { podIP?: string }).podIP;
		expect(cluster.exec(`kubectl exec b -- curl -s -o /dev/null -w '%{http_code}' http://${ipA}/`).stdout).toBe('200');
		// Removing node-1's CNI files stops new sandboxes there, not the running Pod's traffic: the kernel keeps flannel.1 and its routes.
		onNode(cluster, 'node-1', 'rm /etc/cni/net.d/10-flannel.conflist /run/flannel/subnet.env');
		expect(cluster.exec(`kubectl exec b -- curl -s -o /dev/null -w '%{http_code}' http://${ipA}/`).stdout).toBe('200');
		// A reboot with no flannel Pod to come back: no flannel.1, no route to node-2's Pods, and node-2's to node-1 lead nowhere.
		cluster.exec('kubectl delete -n kube-flannel daemonset kube-flannel-ds');
		cluster.advance('40s');
		onNode(cluster, 'node-1', 'reboot');
		cluster.advance('90s');
		expect(onNode(cluster, 'node-1', 'ip route')).not.toContain('flannel.1');
		expect(onNode(cluster, 'node-2', 'ip route')).not.toContain('10.244.1.0/24');
		const failed = cluster.exec(`kubectl exec b -- curl -s -m 2 http://${ipA}/`);
		expect(failed.exitCode).toBe(28);
	});
});

describe('Calico (cni: calico)', () => {
	it('runs calico-node and calico-kube-controllers in kube-system, with tunl0, cali veths and /32 routes', () => {
		const cluster = createCluster({ seed: 4, cni: 'calico' });
		const pods = cluster.list('pods', 'kube-system');
		expect(pods.filter((p) => p.metadata.labels?.['k8s-app'] === 'calico-node').length).toBe(3);
		expect(pods.filter((p) => p.metadata.labels?.['k8s-app'] === 'calico-kube-controllers').every((p) => phaseOf(p) === 'Running')).toBe(true);
		expect(cluster.list('nodes').every((n) => readyCondition(n)?.status === 'True')).toBe(true);
		expect(onNode(cluster, 'node-1', 'ls /etc/cni/net.d')).toBe('10-calico.conflist  calico-kubeconfig\n');
		const addr = onNode(cluster, 'node-1', 'ip addr');
		expect(addr).toContain('tunl0@NONE: <NOARP,UP,LOWER_UP> mtu 1480');
		expect(addr).toMatch(/cali[0-9a-f]{11}@if2/);
		expect(addr).not.toContain('cni0');
		expect(addr).not.toContain('flannel.1');
		const route = onNode(cluster, 'node-1', 'ip route');
		expect(route).toContain('blackhole 10.244.1.0/24 proto bird \n');
		expect(route).toContain('10.244.2.0/24 via 192.168.56.12 dev tunl0 proto bird onlink \n');
		expect(route).toMatch(/10\.244\.1\.\d+ dev cali[0-9a-f]{11} scope link \n/);
	});
});

describe('inside a Pod: its own network namespace', () => {
	it('ip shows lo and eth0@ifN, the other end of the node’s veth N, with the Pod IP and the routes flannel’s bridge gave it', () => {
		const cluster = createCluster({ seed: 8 });
		// busybox carries an `ip`; nginx's Debian image does not.
		cluster.writeFile('a.yaml', PINNED('a').replace('image: nginx:1.29', 'image: busybox:1.36\n    command: ["sleep", "3600"]'));
		cluster.exec('kubectl apply -f a.yaml');
		cluster.advance('20s');
		const ip = (cluster.get('pods', 'default', 'a')?.status as { podIP: string }).podIP;
		const addr = cluster.exec('kubectl exec a -- ip a').stdout;
		const eth0 = /^2: eth0@if(\d+): <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default qlen 1000\n {4}link\/ether \S+ brd ff:ff:ff:ff:ff:ff link-netnsid 0\n/m.exec(addr);
		expect(eth0).not.toBeNull();
		expect(addr).toContain(`    inet ${ip}/24 brd 10.244.1.255 scope global eth0\n`);
		// The node's end: a veth on cni0 with that ifindex.
		expect(onNode(cluster, 'node-1', 'ip link')).toMatch(new RegExp(`^${eth0![1]}: veth[0-9a-f]{8}@if2: .* master cni0 `, 'm'));
		expect(cluster.exec('kubectl exec a -- ip route').stdout).toBe(`default via 10.244.1.1 dev eth0 \n10.244.0.0/16 via 10.244.1.1 dev eth0 \n10.244.1.0/24 dev eth0 proto kernel scope link src ${ip} \n`);
		expect(cluster.exec('kubectl exec a -- hostname -i').stdout).toBe(`${ip}\n`);
	});
});

describe('ip filters on a node', () => {
	it('route show dev NAME lists that device’s routes without their dev; link show type/master pick devices by kind and bridge', () => {
		const cluster = createCluster({ seed: 8 });
		cluster.writeFile('a.yaml', PINNED('a'));
		cluster.exec('kubectl apply -f a.yaml');
		cluster.advance('20s');
		expect(onNode(cluster, 'node-1', 'ip route show dev flannel.1')).toBe('10.244.0.0/24 via 10.244.0.0 onlink \n10.244.2.0/24 via 10.244.2.0 onlink \n');
		expect(onNode(cluster, 'node-1', 'ip route show dev cni0')).toBe('10.244.1.0/24 proto kernel scope link src 10.244.1.1 \n');
		expect(onNode(cluster, 'node-1', 'ip route show dev nope')).toBe('Cannot find device "nope"\n');
		const veths = onNode(cluster, 'node-1', 'ip link show type veth');
		expect(veths).toMatch(/^\d+: veth[0-9a-f]{8}@if2: /);
		expect(veths).not.toContain('cni0:');
		expect(onNode(cluster, 'node-1', 'ip link show master cni0')).toBe(veths);
		expect(onNode(cluster, 'node-1', 'ip -br link show type vxlan')).toMatch(/^flannel\.1\s+UNKNOWN\s+/);
	});
});

describe('kubectl logs of the flannel DaemonSet', () => {
	it('--all-pods reads every node’s flannel Pod, each line prefixed with its Pod and container', () => {
		const cluster = createCluster({ seed: 8 });
		const r = cluster.exec('kubectl -n kube-flannel logs ds/kube-flannel-ds --all-pods --tail=1');
		expect(r.exitCode).toBe(0);
		const pods = cluster.list('pods', 'kube-flannel').map((p) => p.metadata.name ?? '').sort();
		expect(pods).toHaveLength(3);
		expect(r.stdout.split('\n').filter(Boolean).map((l) => /^\[pod\/([^/]+)\/kube-flannel\] /.exec(l)?.[1])).toEqual(pods);
		// Without it, one Pod's log, as kubectl picks it.
		expect(cluster.exec('kubectl -n kube-flannel logs ds/kube-flannel-ds --tail=1').stdout.split('\n').filter(Boolean)).toHaveLength(1);
	});
});
