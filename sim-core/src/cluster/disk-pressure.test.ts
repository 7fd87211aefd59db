/**
 * Disk and PID pressure on a node, and Pods over their own local storage
 * limits, through the public API as a reader causes them: `dd` in a Pod
 * fills the node's disk until imagefs.available<15% (on a kubeadm node the
 * image store shares the root disk) is met; the kubelet reports
 * DiskPressure, the node is tainted, admission refuses every Pod, unused
 * images and dead containers are removed first and, when that is not
 * enough, the Pod using the most disk is evicted. A Pod over its
 * ephemeral-storage limit or an emptyDir over its sizeLimit is evicted at
 * once, whatever the node's state. A pid.available threshold in the
 * kubelet's config brings PIDPressure.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import type { Node, Pod } from '../api/types.ts';

type Cluster = ReturnType<typeof createCluster>;
const MIN = 60_000;

function condition(cluster: Cluster, node: string, type: string) {
	return (cluster.get('nodes', undefined, node) as Node).status?.conditions?.find((c) => c.type === type);
}

function pod(cluster: Cluster, name: string): Pod {
	return cluster.get('pods', 'default', name) as Pod;
}

/** A busybox Pod on node-1 running `script`, with optional resources and volumes. */
function busybox(name: string, script: string, extra = ''): string {
	return `apiVersion: v1
kind: Pod
metadata:
  name: ${name}
spec:
  nodeSelector: {kubernetes.io/hostname: node-1}
  containers:
  - name: ${name}
    image: busybox:1.36
    command: ["sh", "-c", "${script}"]
${extra}`;
}

/** Appends `yaml` to node-1's kubelet config and restarts the kubelet. */
function configure(cluster: Cluster, yaml: string): void {
	const config = cluster.exec('ssh node-1 cat /var/lib/kubelet/config.yaml').stdout;
	cluster.writeFile('/var/lib/kubelet/config.yaml', `${config.trimEnd()}\n${yaml}`, 'node-1');
	expect(cluster.exec('ssh node-1 systemctl restart kubelet').exitCode).toBe(0);
	cluster.advance(20_000);
}

describe('disk pressure', () => {
	it('is reported once the disk is 85% full, taints the node, refuses Pods, and evicts the Pod that filled it', () => {
		const cluster = createCluster({ seed: 2 });
		cluster.exec('kubectl apply -f -', { stdin: busybox('filler', 'sleep 3600') });
		cluster.exec('kubectl create deployment web --image=nginx:1.29 --replicas=2');
		cluster.advance(30_000);
		expect(condition(cluster, 'node-1', 'DiskPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasNoDiskPressure' });
		// 80G of zeros in the container's writable layer: what is left is under imagefs.available's 15% of 100Gi.
		const dd = cluster.exec('kubectl exec filler -- dd if=/dev/zero of=/fill bs=1G count=80');
		expect(dd.stderr).toContain('85899345920 bytes (80.0GB) copied');
		expect(cluster.exec('kubectl exec filler -- df -h /').stdout).toMatch(/^overlay\s+100\.0G\s+84\.\dG\s+10\.\dG\s+\d+% \/$/m);
		cluster.advance(15_000);

		expect(condition(cluster, 'node-1', 'DiskPressure')).toMatchObject({ status: 'True', reason: 'KubeletHasDiskPressure', message: 'kubelet has disk pressure' });
		expect(cluster.exec('kubectl get node node-1 -o jsonpath={.spec.taints[*].key}').stdout).toBe('node.kubernetes.io/disk-pressure');
		expect(cluster.exec('kubectl describe node node-1').stdout).toMatch(/Warning +EvictionThresholdMet +\S+ +kubelet +Attempting to reclaim ephemeral-storage/);
		const evicted = pod(cluster, 'filler');
		expect(evicted.status).toMatchObject({ phase: 'Failed', reason: 'Evicted' });
		expect(evicted.status?.message).toMatch(/^The node was low on resource: ephemeral-storage\. Threshold quantity: 15Gi, available: \d+Ki\. Container filler was using 80\d*(Gi|Ki), request is 0, has larger consumption of ephemeral-storage\. $/);
		expect(evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet' });
		// The nginx Pods use next to nothing: they stay.
		expect(cluster.list('pods', 'default').filter((p) => p.metadata.name?.startsWith('web-')).map((p) => (p as Pod).status?.phase)).toEqual(['Running', 'Running']);

		// Under disk pressure the kubelet refuses every Pod, Burstable or not (nodeName skips the scheduler and its taint check).
		cluster.exec('kubectl apply -f -', { stdin: 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: late\nspec:\n  nodeName: node-1\n  containers:\n  - name: main\n    image: nginx:1.29\n    resources:\n      requests: {memory: 16Mi}\n' });
		cluster.advance(5_000);
		expect(pod(cluster, 'late').status).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: 'Pod was rejected: The node had condition: [DiskPressure]. ' });

		// The evicted container is removed at the next pass: the disk is free again, the condition clears after the transition period.
		cluster.advance(20_000);
		expect(cluster.exec('ssh node-1 df -h /').stdout).toMatch(/\/dev\/sda1\s+100G\s+[45]\.\dG/);
		cluster.advance(5 * MIN);
		expect(condition(cluster, 'node-1', 'DiskPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasNoDiskPressure' });
		expect(cluster.exec('kubectl get node node-1 -o jsonpath={.spec.taints}').stdout).toBe('');
	});

	it('removes unused images first, and evicts nothing when that is enough', () => {
		const cluster = createCluster({ seed: 2 });
		cluster.exec('kubectl apply -f -', { stdin: busybox('worker', 'sleep 3600') });
		// A threshold just under what the disk has free: pulling mysql's 237 MB crosses it; removing the unused image undoes it.
		configure(cluster, 'evictionHard:\n  memory.available: 100Mi\n  imagefs.available: "89.9%"\n');
		expect(condition(cluster, 'node-1', 'DiskPressure')?.status).toBe('False');
		expect(cluster.exec('ssh node-1 crictl pull mysql:8.4').exitCode).toBe(0);
		cluster.advance(20_000);
		expect(condition(cluster, 'node-1', 'DiskPressure')?.status).toBe('True');
		expect(cluster.exec('ssh node-1 crictl images').stdout).not.toContain('mysql');
		expect(cluster.exec('ssh node-1 journalctl -u kubelet --no-pager').stdout).toContain('Eviction manager: able to reduce resource pressure without evicting pods.');
		expect(cluster.exec('kubectl get events --field-selector reason=Evicted -o name').stdout).toBe('');
		expect(pod(cluster, 'worker').status?.phase).toBe('Running');
	});
});

describe('a Pod that fills the disk itself', () => {
	it('takes the time the copy takes: the disk fills when its dd ends', () => {
		const cluster = createCluster({ seed: 2 });
		// 60 GiB at about 1.2 GB/s: some 54 s of copying.
		cluster.exec('kubectl apply -f -', { stdin: busybox('slow', 'dd if=/dev/zero of=/blob bs=1G count=60; sleep 3600') });
		cluster.advance(20_000);
		const used = () => Number(/\/dev\/sda1\s+\d+\s+(\d+)/.exec(cluster.exec('ssh node-1 df /').stdout)?.[1]);
		expect(used()).toBeLessThan(10 * 1024 ** 2);
		cluster.advance(60_000);
		expect(used()).toBeGreaterThan(60 * 1024 ** 2);
	});
});

describe('local storage limits', () => {
	it('evicts a Pod whose writes exceed its ephemeral-storage limit, without the DisruptionTarget condition', () => {
		const cluster = createCluster({ seed: 2 });
		const resources = '    resources:\n      requests: {ephemeral-storage: 500Mi}\n      limits: {ephemeral-storage: 1Gi}\n';
		cluster.exec('kubectl apply -f -', { stdin: busybox('writer', 'dd if=/dev/zero of=/tmp/data bs=1M count=1500; sleep 3600', resources) });
		cluster.advance(40_000);
		const evicted = pod(cluster, 'writer');
		expect(evicted.status).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: 'Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. ' });
		expect(evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toBeUndefined();
		expect(cluster.exec('kubectl describe pod writer').stdout).toMatch(/Warning +Evicted +\S+ +kubelet +Pod ephemeral local storage usage exceeds the total limit of containers 1Gi\./);
		// A local limit is the Pod's own business: the node is not under pressure.
		expect(condition(cluster, 'node-1', 'DiskPressure')?.status).toBe('False');
	});

	it('evicts a Pod whose emptyDir grows past its sizeLimit', () => {
		const cluster = createCluster({ seed: 2 });
		const volume = '    volumeMounts:\n    - {name: cache, mountPath: /cache}\n  volumes:\n  - name: cache\n    emptyDir: {sizeLimit: 500Mi}\n';
		cluster.exec('kubectl apply -f -', { stdin: busybox('cacher', 'dd if=/dev/zero of=/cache/blob bs=1M count=600; sleep 3600', volume) });
		cluster.advance(40_000);
		expect(pod(cluster, 'cacher').status).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: 'Usage of EmptyDir volume "cache" exceeds the limit "500Mi". ' });
	});

	it('leaves a Pod alone while it stays under its limit', () => {
		const cluster = createCluster({ seed: 2 });
		cluster.exec('kubectl apply -f -', { stdin: busybox('small', 'dd if=/dev/zero of=/tmp/data bs=1M count=100; sleep 3600', '    resources:\n      limits: {ephemeral-storage: 1Gi}\n') });
		cluster.advance(60_000);
		expect(pod(cluster, 'small').status?.phase).toBe('Running');
	});
});

describe('PID pressure', () => {
	it('follows a pid.available threshold, taints the node and evicts the Pod of lowest priority', () => {
		const cluster = createCluster({ seed: 2 });
		cluster.exec('kubectl apply -f -', { stdin: busybox('worker', 'sleep 3600') });
		cluster.advance(20_000);
		// pid_max is 4194304: a threshold above what is free makes the node short of PIDs at once.
		configure(cluster, 'evictionHard:\n  pid.available: "4194200"\n');
		cluster.advance(10_000);
		expect(condition(cluster, 'node-1', 'PIDPressure')).toMatchObject({ status: 'True', reason: 'KubeletHasInsufficientPID', message: 'kubelet has insufficient PID available' });
		expect(cluster.exec('kubectl get node node-1 -o jsonpath={.spec.taints[*].key}').stdout).toBe('node.kubernetes.io/pid-pressure');
		const evicted = cluster.list('pods').filter((p) => (p as Pod).status?.reason === 'Evicted' && p.spec && (p as Pod).spec.nodeName === 'node-1') as Pod[];
		expect(evicted.length).toBeGreaterThan(0);
		expect(evicted[0].status?.message).toMatch(/^The node was low on resource: pids\. Threshold quantity: 4194200, available: 419\d{4}\. $/);
	});
});
