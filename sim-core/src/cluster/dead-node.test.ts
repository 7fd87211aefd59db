/**
 * What an operator does about a machine that will not come back, and the
 * pod garbage collector's part in it (pkg/controller/podgc): deleting the
 * Node leaves its pods orphaned, and PodGC force-deletes them after its
 * 40 s quarantine, on a 20 s period, marking them Failed with
 * DisruptionTarget/DeletionByPodGC; the `node.kubernetes.io/out-of-service`
 * NoExecute taint (non-graceful node shutdown) evicts the pods at once and
 * PodGC finishes their deletion, so nothing waits for a kubelet that is gone.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/types.ts';
import { Cluster } from './cluster.ts';

const BARE = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: bare\nspec:\n  nodeName: node-1\n  containers:\n  - name: bare\n    image: nginx:1.29\n';

/** A Deployment spread over both workers and a bare Pod on node-1; then node-1 loses power and is declared unreachable. */
function deadNode1(): Cluster {
	const cluster = new Cluster({ seed: 9 });
	cluster.exec('kubectl create deployment web --image=nginx:1.29 --replicas=4');
	cluster.writeFile('bare.yaml', BARE);
	cluster.exec('kubectl apply -f bare.yaml');
	cluster.settle({ maxMs: 120_000 });
	expect(podsOn(cluster, 'node-1').length).toBeGreaterThan(1);
	cluster.powerOff('node-1');
	cluster.advance('70s');
	return cluster;
}

const podsOn = (cluster: Cluster, node: string) => cluster.list('pods', 'default').filter((p) => (p.spec as { nodeName?: string }).nodeName === node);
const name = (p: KubeObject) => p.metadata.name ?? '';

describe('clearing a node that is gone for good', () => {
	it('deleting the Node: PodGC force-deletes its pods after the quarantine, and the Deployment is whole on the other node', () => {
		const cluster = deadNode1();
		const stranded = podsOn(cluster, 'node-1').map(name);
		expect(stranded).toContain('bare');
		expect(cluster.exec('kubectl delete node node-1').stdout).toBe('node "node-1" deleted\n');
		// Still there inside the 40 s quarantine.
		cluster.advance('30s');
		expect(cluster.list('pods', 'default').map(name)).toEqual(expect.arrayContaining(stranded));
		// Gone at the first 20 s pass after it, with no kubelet to confirm.
		const deletedAt: Record<string, number> = {};
		const until = cluster.now() + 60_000;
		while (cluster.now() < until && Object.keys(deletedAt).length < stranded.length) {
			cluster.advance('1s');
			const left = new Set(cluster.list('pods', 'default').map(name));
			for (const n of stranded) if (!left.has(n) && deletedAt[n] === undefined) deletedAt[n] = cluster.now();
		}
		expect(Object.keys(deletedAt).sort()).toEqual([...stranded].sort());
		const trace = cluster.trace().filter((e) => e.component === 'kube-controller-manager' && e.sub === 'podgc');
		expect(trace.some((e) => /found orphaned pod default\/bare assigned to node node-1, which no longer exists/.test(e.msg))).toBe(true);
		cluster.settle({ maxMs: 120_000 });
		const web = cluster.list('pods', 'default').filter((p) => name(p).startsWith('web-'));
		expect(web).toHaveLength(4);
		expect(web.every((p) => (p.spec as { nodeName?: string }).nodeName === 'node-2')).toBe(true);
	});

	it('marks an orphaned pod Failed with DisruptionTarget before deleting it, as the pod-garbage-collector service account', () => {
		const cluster = deadNode1();
		const since = cluster.trace().at(-1)?.seq ?? 0;
		cluster.exec('kubectl delete node node-1');
		cluster.advance('90s');
		const requests = cluster
			.trace({ afterSeq: since })
			.filter((e) => e.component === 'kube-controller-manager/pod-garbage-collector-controller' && e.action === 'request' && e.object === 'pods/default/bare')
			.map((e) => e.msg);
		expect(requests).toEqual(['PATCH /api/v1/namespaces/default/pods/bare/status', 'DELETE /api/v1/namespaces/default/pods/bare']);
		// The stored object between the two writes: etcd keeps the revision the patch wrote.
		const put = cluster.trace({ afterSeq: since }).find((e) => e.component === 'kube-apiserver' && e.action === 'put' && e.object === '/registry/pods/default/bare');
		const revision = Number(/at revision (\d+)/.exec(put?.msg ?? '')?.[1]);
		const stored = cluster.exec(`ssh control-plane etcdctl --cacert /etc/kubernetes/pki/etcd/ca.crt --cert /etc/kubernetes/pki/etcd/server.crt --key /etc/kubernetes/pki/etcd/server.key get /registry/pods/default/bare --rev=${revision} --print-value-only`).stdout;
		expect(stored).toContain('DeletionByPodGC');
		expect(stored).toContain('PodGC: node no longer exists');
		expect(stored).toContain('Failed');
		expect(cluster.get('pods', 'default', 'bare')).toBeUndefined();
	});

	it('the out-of-service taint: pods are evicted at once and PodGC finishes them without the kubelet', () => {
		const cluster = deadNode1();
		const stranded = podsOn(cluster, 'node-1').map(name);
		expect(cluster.exec('kubectl taint nodes node-1 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute').stdout).toBe('node/node-1 tainted\n');
		cluster.advance('25s');
		const left = new Set(cluster.list('pods', 'default').map(name));
		expect(stranded.filter((n) => left.has(n))).toEqual([]);
		// Without the taint they would have waited out the 300 s unreachable toleration, then hung in Terminating.
		cluster.settle({ maxMs: 120_000 });
		expect(cluster.list('pods', 'default').filter((p) => name(p).startsWith('web-'))).toHaveLength(4);
	});

	it('without either, the pods of a dead node stay Terminating after their eviction', () => {
		const cluster = deadNode1();
		cluster.advance('6m');
		const stuck = podsOn(cluster, 'node-1');
		expect(stuck.length).toBeGreaterThan(0);
		expect(stuck.every((p) => p.metadata.deletionTimestamp !== undefined)).toBe(true);
	});
});

describe('a node reconnected after a partition', () => {
	it('watches again: Pods scheduled to it after the heal start (its informers re-watch once their dead connections time out)', () => {
		const cluster = new Cluster({ seed: 4 });
		cluster.partition('node-1');
		cluster.advance('20s');
		cluster.heal('node-1');
		cluster.exec('kubectl create deployment web --image=nginx:1.29 --replicas=4');
		cluster.advance('3m');
		const pods = cluster.list('pods', 'default');
		expect(pods.filter((p) => (p.spec as { nodeName?: string }).nodeName === 'node-1').length).toBeGreaterThan(0);
		expect(pods.map((p) => (p.status as { phase?: string }).phase)).toEqual(['Running', 'Running', 'Running', 'Running']);
	});
});
