/**
 * Memory pressure on a node, through the public API: Pods that together
 * leave the machine less than memory.available's 100Mi threshold. The
 * kubelet's eviction manager reports MemoryPressure, the node lifecycle
 * controller taints the node, the Pod that most exceeds its request is
 * evicted (not the smaller BestEffort one), new BestEffort Pods are refused
 * at admission, and once the usage is gone the condition clears after the
 * 5 min pressure transition period. A soft threshold set in the kubelet's
 * config reports pressure at once but evicts only after its grace period,
 * with the Pod's grace capped by evictionMaxPodGracePeriod.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';
import type { Node, Pod } from '../api/types.ts';

const MIN = 60_000;

/** A one-replica Deployment of kubernetes.io's stress image holding `bytes`, pinned to node-1. */
function hog(name: string, bytes: string, request?: string): string {
	return `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
spec:
  replicas: 1
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      nodeSelector: {kubernetes.io/hostname: node-1}
      containers:
      - name: ${name}
        image: polinux/stress
        command: ["stress"]
        args: ["--vm", "1", "--vm-bytes", "${bytes}", "--vm-hang", "1"]
${request ? `        resources:\n          requests: {memory: ${request}}\n` : ''}`;
}

function condition(cluster: ReturnType<typeof createCluster>, type: string) {
	const node = cluster.list('nodes').find((n) => n.metadata.name === 'node-1') as Node;
	return node.status?.conditions?.find((c) => c.type === type);
}

function pods(cluster: ReturnType<typeof createCluster>, app: string): Pod[] {
	return cluster.list('pods', 'default').filter((p) => p.metadata.labels?.app === app) as Pod[];
}

describe('memory pressure', () => {
	it('reports it, taints the node, evicts the Pod furthest over its request, and clears five minutes after', () => {
		const cluster = createCluster();
		cluster.exec('kubectl apply -f -', { stdin: hog('cache', '3200M', '256Mi') });
		cluster.advance(30_000);
		expect(condition(cluster, 'MemoryPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasSufficientMemory' });
		// 3200M + 400M of stress, the node's daemons and the add-ons: under 100Mi of the machine's 4Gi left.
		cluster.exec('kubectl apply -f -', { stdin: hog('batch', '400M') });
		cluster.advance(40_000);

		expect(condition(cluster, 'MemoryPressure')).toMatchObject({ status: 'True', reason: 'KubeletHasInsufficientMemory', message: 'kubelet has insufficient memory available' });
		expect(cluster.exec('kubectl get node node-1 -o jsonpath={.spec.taints[*].key}').stdout).toBe('node.kubernetes.io/memory-pressure');
		expect(cluster.exec('kubectl describe node node-1').stdout).toMatch(/Warning +EvictionThresholdMet +\S+ +kubelet +Attempting to reclaim memory/);

		// The Burstable cache uses far more than it asked for: it goes first, the BestEffort batch stays.
		const evicted = pods(cluster, 'cache').find((p) => p.status?.phase === 'Failed')!;
		expect(evicted.status).toMatchObject({ phase: 'Failed', reason: 'Evicted' });
		expect(evicted.status?.message).toBe('The node was low on resource: memory. Threshold quantity: 100Mi, available: 38532Ki. Container cache was using 3278032Ki, request is 256Mi, has larger consumption of memory. ');
		expect(evicted.status?.conditions?.find((c) => c.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'TerminationByKubelet' });
		expect(pods(cluster, 'batch').map((p) => p.status?.phase)).toEqual(['Running']);
		expect(cluster.exec('kubectl get events --field-selector reason=Evicted -o jsonpath={.items[*].involvedObject.name}').stdout).toBe(evicted.metadata.name);
		// Its replacement is pinned to node-1, which is tainted now: it waits.
		const replacement = pods(cluster, 'cache').find((p) => p.status?.phase === 'Pending')!;
		expect(cluster.exec(`kubectl describe pod ${replacement.metadata.name}`).stdout).toContain("0/3 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 2 node(s) had untolerated taint(s).");

		// The pressure ends: the condition holds for the transition period, then clears and the taint goes.
		cluster.exec('kubectl delete deployment cache batch');
		cluster.advance(4 * MIN);
		expect(condition(cluster, 'MemoryPressure')?.status).toBe('True');
		cluster.advance(1.5 * MIN);
		expect(condition(cluster, 'MemoryPressure')).toMatchObject({ status: 'False', reason: 'KubeletHasSufficientMemory' });
		expect(cluster.exec('kubectl get node node-1 -o jsonpath={.spec.taints}').stdout).toBe('');
	});

	it('keeps the condition for the transition period after the eviction, refusing BestEffort Pods and admitting Burstable ones', () => {
		const cluster = createCluster();
		// One Pod using 3600M on its own is enough; it is also the only one over its request, so it is evicted at once.
		cluster.exec('kubectl apply -f -', { stdin: hog('cache', '3600M', '3600Mi') });
		cluster.advance(30_000);
		expect(pods(cluster, 'cache').map((p) => p.status?.reason ?? p.status?.phase).sort()).toEqual(['Evicted', 'Pending']);
		// The memory is back, but the node reports pressure for evictionPressureTransitionPeriod (5m).
		expect(condition(cluster, 'MemoryPressure')?.status).toBe('True');
		// nodeName skips the scheduler (and so the taint): the kubelet's admission decides.
		const pod = (name: string, resources = '') => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  nodeName: node-1\n  containers:\n  - name: main\n    image: nginx:1.27${resources}\n`;
		cluster.exec('kubectl apply -f -', { stdin: pod('besteffort') });
		cluster.exec('kubectl apply -f -', { stdin: pod('burstable', '\n    resources:\n      requests: {memory: 16Mi}') });
		cluster.advance(10_000);
		const refused = cluster.get('pods', 'default', 'besteffort') as Pod;
		expect(refused.status).toMatchObject({ phase: 'Failed', reason: 'Evicted', message: 'Pod was rejected: The node had condition: [MemoryPressure]. ' });
		expect((cluster.get('pods', 'default', 'burstable') as Pod).status?.phase).toBe('Running');
	});
});

describe('a soft memory threshold', () => {
	/** Sets evictionSoft memory.available<1Gi with a 1m30s grace period and a 20 s maximum Pod grace on node-1, and restarts its kubelet. */
	function softConfig(cluster: ReturnType<typeof createCluster>, extra = 'evictionSoftGracePeriod:\n  memory.available: 1m30s\nevictionMaxPodGracePeriod: 20\n'): void {
		const config = cluster.exec('ssh node-1 cat /var/lib/kubelet/config.yaml').stdout;
		cluster.writeFile('/var/lib/kubelet/config.yaml', `${config.trimEnd()}\nevictionSoft:\n  memory.available: 1Gi\n${extra}`, 'node-1');
		expect(cluster.exec('ssh node-1 systemctl restart kubelet').exitCode).toBe(0);
		cluster.advance(20_000);
	}

	it('reports pressure at once, evicts only once the grace period has passed, and gives the Pod evictionMaxPodGracePeriod to stop', () => {
		const cluster = createCluster();
		softConfig(cluster);
		// 3000M of stress leaves well over the hard 100Mi but under the soft 1Gi.
		cluster.exec('kubectl apply -f -', { stdin: hog('cache', '3000M', '256Mi') });
		cluster.advance(30_000);
		expect(condition(cluster, 'MemoryPressure')?.status).toBe('True');
		expect(pods(cluster, 'cache').map((p) => p.status?.phase)).toEqual(['Running']);
		cluster.advance(40_000);
		// Still inside the 1m30s grace period: nothing evicted yet.
		expect(pods(cluster, 'cache').map((p) => p.status?.phase)).toEqual(['Running']);
		cluster.advance(40_000);
		const evicted = pods(cluster, 'cache').find((p) => p.status?.reason === 'Evicted');
		expect(evicted?.status?.message).toMatch(/^The node was low on resource: memory\. Threshold quantity: 1Gi, available: \d+Ki\. Container cache was using \d+Ki, request is 256Mi, has larger consumption of memory\. $/);
		// The journal shows the container stopped with the 20 s grace (not the hard threshold's immediate kill).
		expect(cluster.exec('ssh node-1 journalctl -u kubelet --no-pager').stdout).toMatch(/Stopping the container with a grace period.*containerName="cache".*gracePeriod=20/);
	});

	it('refuses a soft threshold without its grace period, the way the kubelet does', () => {
		const cluster = createCluster();
		softConfig(cluster, '');
		expect(cluster.exec('ssh node-1 journalctl -u kubelet --no-pager').stdout).toContain('grace period must be specified for the soft eviction threshold memory.available');
	});
});

describe("the kernel's OOM killer", () => {
	/** A stress Pod on node-1 holding `bytes`, with an optional memory request. */
	const stress = (name: string, bytes: string, request?: string) =>
		`apiVersion: v1\nkind: Pod\nmetadata:\n  name: ${name}\nspec:\n  nodeSelector: {kubernetes.io/hostname: node-1}\n  containers:\n  - name: ${name}\n    image: polinux/stress\n    command: ["stress"]\n    args: ["--vm", "1", "--vm-bytes", "${bytes}", "--vm-hang", "1"]\n${request ? `    resources:\n      requests: {memory: ${request}}\n` : ''}`;

	it('kills the BestEffort container when a machine runs out, before the kubelet can evict, and spares the Burstable one that came later', () => {
		const cluster = createCluster({ seed: 2 });
		cluster.exec('kubectl apply -f -', { stdin: stress('besteffort', '1500M') });
		cluster.advance(20_000);
		// 1500M + 2600M and the node's own use are more than node-1's 4Gi: memory is gone the moment burstable starts.
		cluster.exec('kubectl apply -f -', { stdin: stress('burstable', '2600M', '2Gi') });
		cluster.advance(5_000);
		const victim = cluster.get('pods', 'default', 'besteffort') as Pod;
		expect(victim.status?.containerStatuses?.[0]?.lastState?.terminated).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
		expect((cluster.get('pods', 'default', 'burstable') as Pod).status?.phase).toBe('Running');
		// The kernel killed a container; the kubelet evicted nothing (no Pod is Failed/Evicted).
		expect(cluster.exec('kubectl get events --field-selector reason=Evicted -o name').stdout).toBe('');
		expect(cluster.exec('ssh node-1 journalctl -u containerd --no-pager').stdout).toContain('TaskOOM event container_id:');
		// Each restart takes the memory again and is killed again: CrashLoopBackOff.
		cluster.advance(60_000);
		expect(cluster.exec('kubectl get pod besteffort').stdout).toMatch(/besteffort\s+0\/1\s+CrashLoopBackOff\s+[1-9]/);
	});
});
