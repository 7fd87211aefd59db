/**
 * The disaster drill, as kubernetes.io's "Restoring an etcd cluster" and
 * etcd's recovery guide lay it out on a kubeadm cluster: a snapshot taken,
 * a namespace deleted by mistake, `etcdutl snapshot restore` into a new
 * data directory, the etcd static pod's hostPath pointed at it. What comes
 * back is what the snapshot held; what was written after it is gone; and
 * with the revision bumped and marked compacted every informer lists again,
 * so the controllers and kubelets act on the restored state.
 */
import { describe, expect, it } from 'vitest';
import { createCluster, restoreCluster } from '../index.ts';
import type { Cluster } from './cluster.ts';

const ETCDCTL = 'etcdctl --endpoints=https://127.0.0.1:2379 --cacert=/etc/kubernetes/pki/etcd/ca.crt --cert=/etc/kubernetes/pki/etcd/server.crt --key=/etc/kubernetes/pki/etcd/server.key';

function onControlPlane(cluster: Cluster, ...lines: string[]) {
	cluster.exec('ssh control-plane');
	const results = lines.map((line) => cluster.exec(line));
	cluster.exec('exit');
	return results;
}

/** A cluster with team-a's Deployment, a snapshot of it, then a mistake: team-a deleted, after-snapshot created. */
function afterTheMistake(): Cluster {
	const cluster = createCluster({ seed: 4 });
	cluster.exec('kubectl create namespace team-a');
	cluster.exec('kubectl create deployment web -n team-a --image=nginx:1.27 --replicas=2');
	cluster.advance('30s');
	const [saved] = onControlPlane(cluster, `${ETCDCTL} snapshot save /root/backup.db`);
	expect(saved.stdout).toContain('Snapshot saved at /root/backup.db');
	cluster.exec('kubectl create namespace after-snapshot');
	cluster.exec('kubectl delete namespace team-a');
	cluster.advance('30s');
	expect(cluster.exec('kubectl get namespace team-a').stderr).toBe('Error from server (NotFound): namespaces "team-a" not found\n');
	return cluster;
}

describe('restoring etcd from a snapshot', () => {
	it('etcdutl snapshot restore writes a new data directory, and refuses one that is not empty', () => {
		const cluster = afterTheMistake();
		const [restored, again, listing] = onControlPlane(
			cluster,
			'etcdutl --data-dir /var/lib/etcd-restore snapshot restore /root/backup.db',
			'etcdutl --data-dir /var/lib/etcd-restore snapshot restore /root/backup.db',
			'ls /var/lib/etcd-restore/member',
		);
		expect(restored.exitCode).toBe(0);
		expect(restored.stderr).toMatch(/^\S+Z\tinfo\tsnapshot\/v3_snapshot\.go:305\trestoring snapshot\t\{"path": "\/root\/backup\.db", "wal-dir": "\/var\/lib\/etcd-restore\/member\/wal", "data-dir": "\/var\/lib\/etcd-restore", "snap-dir": "\/var\/lib\/etcd-restore\/member\/snap", "initial-memory-map-size": 10737418240\}\n/);
		expect(restored.stderr).toContain('\trestored snapshot\t');
		expect(listing.stdout.split(/\s+/).filter(Boolean).sort()).toEqual(['snap', 'wal']);
		expect([again.stderr, again.exitCode]).toEqual(['Error: data-dir "/var/lib/etcd-restore" not empty or could not be read\n', 1]);
		const [mismatched] = onControlPlane(cluster, 'etcdutl snapshot restore /root/backup.db --bump-revision 10');
		expect([mismatched.stderr, mismatched.exitCode]).toEqual(['Error: --mark-compacted required if --revision-bump > 0\n', 128]);
	});

	it('brings back what the snapshot held, loses what came after, and the workloads run again (kubeadm: point the etcd-data hostPath at it)', () => {
		const cluster = afterTheMistake();
		onControlPlane(
			cluster,
			'etcdutl --data-dir /var/lib/etcd-restore snapshot restore /root/backup.db --bump-revision 1000000000 --mark-compacted',
			"sed -i 's#path: /var/lib/etcd$#path: /var/lib/etcd-restore#' /etc/kubernetes/manifests/etcd.yaml",
		);
		// The kubelet sees the changed manifest and recreates etcd's static pod on the restored directory.
		cluster.advance('90s');
		expect(cluster.exec('kubectl get namespace team-a --no-headers').stdout).toMatch(/^team-a\s+Active\s/);
		expect(cluster.exec('kubectl get namespace after-snapshot').stderr).toBe('Error from server (NotFound): namespaces "after-snapshot" not found\n');
		expect(cluster.exec('kubectl get deploy web -n team-a --no-headers').stdout).toMatch(/^web\s+2\/2\s+2\s+2\s/);
		// The revision jumped past every client's, so every informer listed again: the Pods run on the nodes again.
		// Restored objects keep their versions; the store (a list's resourceVersion) is past the bump.
		expect(Number(cluster.exec('kubectl get namespace team-a -o jsonpath={.metadata.resourceVersion}').stdout)).toBeLessThan(1_000_000_000);
		expect(Number(JSON.parse(cluster.exec('kubectl get --raw /api/v1/namespaces').stdout).metadata.resourceVersion)).toBeGreaterThan(1_000_000_000);
		const pods = cluster.exec('kubectl get pods -n team-a --no-headers -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,PHASE:.status.phase').stdout.trim().split('\n');
		expect(pods).toHaveLength(2);
		for (const line of pods) {
			const [name, node, phase] = line.split(/\s+/);
			expect(phase).toBe('Running');
			cluster.exec(`ssh ${node}`);
			expect(cluster.exec(`crictl ps --pod $(crictl pods --name ${name} -q) -q`).stdout.trim()).not.toBe('');
			cluster.exec('exit');
		}
		// Time travel keeps the restored directory: a snapshot of the cluster continues on it.
		const copy = restoreCluster(cluster.snapshot());
		copy.advance('10s');
		expect(copy.exec('kubectl get namespace team-a --no-headers').stdout).toMatch(/^team-a\s+Active/);
		expect(copy.exec('kubectl get namespace after-snapshot').exitCode).toBe(1);
	});

	it('an etcd pointed at an empty directory starts a new, empty cluster', () => {
		const cluster = createCluster({ seed: 4 });
		cluster.exec('kubectl create namespace team-a');
		onControlPlane(cluster, "sed -i 's#path: /var/lib/etcd$#path: /var/lib/etcd-empty#' /etc/kubernetes/manifests/etcd.yaml");
		cluster.advance('60s');
		// Nothing is there, not even the binding that made kubeadm's admin a cluster admin: RBAC lived in etcd too.
		expect(cluster.exec('kubectl get namespace team-a').stderr).toBe('Error from server (Forbidden): namespaces "team-a" is forbidden: User "kubernetes-admin" cannot get resource "namespaces" in API group "" at the cluster scope\n');
		// Put the manifest back: etcd returns to the data kubeadm's cluster wrote.
		onControlPlane(cluster, "sed -i 's#path: /var/lib/etcd-empty$#path: /var/lib/etcd#' /etc/kubernetes/manifests/etcd.yaml");
		cluster.advance('60s');
		expect(cluster.exec('kubectl get namespace team-a --no-headers').stdout).toMatch(/^team-a\s+Active/);
	});
});
