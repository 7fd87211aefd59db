/**
 * `kubectl cluster-info dump` as the cluster troubleshooting task uses it:
 * the Nodes, then each namespace's lists as typed JSON (kind first, items
 * without their own kind), every container's log between START and END
 * lines, and the same written to files with --output-directory.
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../../index.ts';

describe('kubectl cluster-info dump', () => {
	const cluster = createCluster({ seed: 6 });
	cluster.exec("kubectl run hello --image=busybox:1.36 --restart=Never -- sh -c 'echo hello from the dump; sleep 3600'");
	cluster.settle({ maxMs: 60_000 });

	it('prints the Nodes and the lists of kube-system and the current namespace, in order, with the logs', () => {
		const out = cluster.exec('kubectl cluster-info dump').stdout;
		expect(out.startsWith('{\n    "kind": "NodeList",\n    "apiVersion": "v1",\n    "metadata": {\n        "resourceVersion": "')).toBe(true);
		const kinds = [...out.matchAll(/^ {4}"kind": "(\w+List)",$/gm)].map((m) => m[1]);
		const perNamespace = ['EventList', 'ReplicationControllerList', 'ServiceList', 'DaemonSetList', 'DeploymentList', 'ReplicaSetList', 'PodList'];
		expect(kinds).toEqual(['NodeList', ...perNamespace, ...perNamespace]);
		// A typed list's items carry no kind of their own.
		expect(out).not.toMatch(/^ {12}"kind": "Node",$/m);
		expect(out).toContain('==== START logs for container etcd of pod kube-system/etcd-control-plane ====\n');
		expect(out).toContain('==== START logs for container hello of pod default/hello ====\nhello from the dump\n==== END logs for container hello of pod default/hello ====\n');
	});

	it('writes one file per list and per Pod with --output-directory, and says where', () => {
		expect(cluster.exec('kubectl cluster-info dump --output-directory=/tmp/dump').stdout).toBe('Cluster info dumped to /tmp/dump\n');
		expect(cluster.exec('head -2 /tmp/dump/nodes.json').stdout).toBe('{\n    "kind": "NodeList",\n');
		expect(cluster.exec('head -2 /tmp/dump/default/pods.json').stdout).toBe('{\n    "kind": "PodList",\n');
		expect(cluster.exec('cat /tmp/dump/default/hello/logs.txt').stdout).toContain('hello from the dump\n');
		expect(cluster.exec('cat /tmp/dump/kube-system/events.json').exitCode).toBe(0);
	});

	it('takes the namespaces asked for, all of them, or YAML', () => {
		const only = cluster.exec('kubectl cluster-info dump --namespaces default').stdout;
		expect([...only.matchAll(/^ {4}"kind": "PodList",$/gm)]).toHaveLength(1);
		expect(only).not.toContain('kube-system/etcd-control-plane');
		const all = cluster.exec('kubectl cluster-info dump -A').stdout;
		expect(all).toContain('of pod kube-flannel/');
		const yaml = cluster.exec('kubectl cluster-info dump -o yaml --namespaces default').stdout;
		expect(yaml).toMatch(/^apiVersion: v1\nitems:\n/);
		expect(yaml.match(/^---$/gm)).toHaveLength(7);
		expect(cluster.exec('kubectl cluster-info dump -o wide').stderr).toBe('error: unable to match a printer suitable for the output format "wide", allowed formats are: json,yaml\n');
	});
});
