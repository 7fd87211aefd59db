import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { world, type World } from './testdata/env.ts';

const PDB = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };

/** node-1 with a ReplicaSet's pod web-1 (running, ready) and a DaemonSet's pod in kube-system. */
function nodeWithPods(extra: KubeObject[] = []): World {
	const w = world();
	w.create({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec: {} });
	w.create({
		apiVersion: 'apps/v1',
		kind: 'DaemonSet',
		metadata: { name: 'kube-proxy', namespace: 'kube-system' },
		spec: { selector: { matchLabels: { k: 'proxy' } }, template: { metadata: { labels: { k: 'proxy' } }, spec: { containers: [{ name: 'p', image: 'kube-proxy' }] } } },
	});
	const ds = w.get(R.daemonsets, 'kube-system', 'kube-proxy')!;
	const running = { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] };
	w.create(
		{
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'web-1', labels: { app: 'web' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-rs', uid: 'rs-uid', controller: true }] },
			spec: { nodeName: 'node-1', containers: [{ name: 'web', image: 'nginx' }] },
			status: running,
		},
		{
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'kube-proxy-abc', namespace: 'kube-system', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'DaemonSet', name: 'kube-proxy', uid: ds.metadata.uid!, controller: true }] },
			spec: { nodeName: 'node-1', containers: [{ name: 'p', image: 'kube-proxy' }] },
			status: running,
		},
		...extra,
	);
	return w;
}

describe('kubectl cordon and uncordon', () => {
	it('marks the node unschedulable once, then says it already is', () => {
		const w = nodeWithPods();
		expect(w.kubectl('cordon node-1')).toEqual({ stdout: 'node/node-1 cordoned\n', stderr: '', exitCode: 0 });
		expect((w.get(R.nodes, undefined, 'node-1')!.spec as { unschedulable?: boolean }).unschedulable).toBe(true);
		expect(w.kubectl('cordon node-1')).toEqual({ stdout: 'node/node-1 already cordoned\n', stderr: '', exitCode: 0 });
		expect(w.kubectl('uncordon node-1')).toEqual({ stdout: 'node/node-1 uncordoned\n', stderr: '', exitCode: 0 });
		expect((w.get(R.nodes, undefined, 'node-1')!.spec as { unschedulable?: boolean }).unschedulable).toBeUndefined();
		expect(w.kubectl('uncordon node-1')).toEqual({ stdout: 'node/node-1 already uncordoned\n', stderr: '', exitCode: 0 });
	});

	it.each([
		['cordon node-9', 'Error from server (NotFound): nodes "node-9" not found\n'],
		['cordon', "error: USAGE: cordon NODE [flags]\nSee 'kubectl cordon -h' for help and examples\n"],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = nodeWithPods();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
	});

	it('prints (dry run) and changes nothing with --dry-run=client', () => {
		const w = nodeWithPods();
		const before = w.revision();
		expect(w.kubectl('cordon node-1 --dry-run=client').stdout).toBe('node/node-1 cordoned (dry run)\n');
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl drain', () => {
	it('refuses DaemonSet-managed pods without --ignore-daemonsets, after cordoning', () => {
		const w = nodeWithPods();
		expect(w.kubectl('drain node-1')).toEqual({
			stdout: 'node/node-1 cordoned\n',
			stderr:
				'error: unable to drain node "node-1" due to error: cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/kube-proxy-abc, continuing command...\n' +
				'There are pending nodes to be drained:\n node-1\n' +
				'cannot delete DaemonSet-managed Pods (use --ignore-daemonsets to ignore): kube-system/kube-proxy-abc\n',
			exitCode: 1,
		});
		expect(w.get(R.pods, 'default', 'web-1')).toBeDefined();
	});

	it('refuses unmanaged pods without --force and local data without --delete-emptydir-data', () => {
		const lonely: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'lonely' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: 'Running' } };
		const w = nodeWithPods([lonely]);
		const result = w.kubectl('drain node-1 --ignore-daemonsets');
		expect(result.exitCode).toBe(1);
		expect(result.stderr.split('\n').at(-2)).toBe('cannot delete Pods that declare no controller (use --force to override): default/lonely');
		const cache: KubeObject = {
			apiVersion: 'v1',
			kind: 'Pod',
			metadata: { name: 'cache', ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'c', uid: 'c', controller: true }] },
			spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'redis' }], volumes: [{ name: 'scratch', emptyDir: {} }] },
			status: { phase: 'Running' },
		};
		const w2 = nodeWithPods([cache]);
		expect(w2.kubectl('drain node-1 --ignore-daemonsets').stderr.split('\n').at(-2)).toBe('cannot delete Pods with local storage (use --delete-emptydir-data to override): default/cache');
	});

	it('evicts the pods it may, waits until they are gone, and reports the node drained', () => {
		const w = nodeWithPods();
		w.finishPodDeletions();
		expect(w.kubectl('drain node-1 --ignore-daemonsets')).toEqual({
			stdout: 'node/node-1 cordoned\nevicting pod default/web-1\npod/web-1 evicted\nnode/node-1 drained\n',
			stderr: 'Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-abc\n',
			exitCode: 0,
		});
		expect(w.get(R.pods, 'default', 'web-1')).toBeUndefined();
		expect(w.get(R.pods, 'kube-system', 'kube-proxy-abc')).toBeDefined();
	});

	it('deletes an unmanaged pod with --force, with the upstream warning', () => {
		const lonely: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'lonely' }, spec: { nodeName: 'node-1', containers: [{ name: 'c', image: 'busybox' }] }, status: { phase: 'Running' } };
		const w = nodeWithPods([lonely]);
		w.finishPodDeletions();
		const result = w.kubectl('drain node-1 --ignore-daemonsets --force');
		expect(result.exitCode).toBe(0);
		// Upstream joins the warnings from a Go map (random order); here they keep the order the pods were listed in.
		expect(result.stderr).toBe('Warning: deleting Pods that declare no controller: default/lonely; ignoring DaemonSet-managed Pods: kube-system/kube-proxy-abc\n');
		expect(result.stdout).toBe('node/node-1 cordoned\nevicting pod default/lonely\nevicting pod default/web-1\npod/lonely evicted\npod/web-1 evicted\nnode/node-1 drained\n');
	});

	it('retries every 5s while a PodDisruptionBudget refuses, then evicts once it allows', () => {
		const pdb: KubeObject = {
			apiVersion: 'policy/v1',
			kind: 'PodDisruptionBudget',
			metadata: { name: 'web-pdb' },
			spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
			status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
		};
		const w = nodeWithPods([pdb]);
		w.finishPodDeletions();
		// The disruption controller's part: a second healthy pod appears elsewhere at 7s.
		w.at(7000, () => {
			const live = w.get(PDB, 'default', 'web-pdb')!;
			w.admin.updateStatus(PDB, { ...live, status: { ...(live.status as object), disruptionsAllowed: 1, currentHealthy: 2 } });
		});
		const refused = `error when evicting pods/"web-1" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n`;
		expect(w.kubectl('drain node-1 --ignore-daemonsets')).toEqual({
			stdout: 'node/node-1 cordoned\nevicting pod default/web-1\nevicting pod default/web-1\nevicting pod default/web-1\npod/web-1 evicted\nnode/node-1 drained\n',
			stderr: `Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-abc\n${refused}${refused}`,
			exitCode: 0,
		});
		// The eviction used up the budget's one disruption and told the controller which pod went.
		const status = w.get(PDB, 'default', 'web-pdb')!.status as { disruptionsAllowed: number; disruptedPods: Record<string, string> };
		expect(status.disruptionsAllowed).toBe(0);
		expect(Object.keys(status.disruptedPods)).toEqual(['web-1']);
	});

	it('gives up at --timeout while the budget still refuses', () => {
		const pdb: KubeObject = {
			apiVersion: 'policy/v1',
			kind: 'PodDisruptionBudget',
			metadata: { name: 'web-pdb' },
			spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
			status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
		};
		const w = nodeWithPods([pdb]);
		const startMs = w.harness.kernel.nowMs;
		const result = w.kubectl('drain node-1 --ignore-daemonsets --timeout=7s');
		expect(result.exitCode).toBe(1);
		// Attempts at 0 s and 5 s; the one due at 10 s prints its line, then sees the deadline passed.
		expect(result.stdout).toBe('node/node-1 cordoned\nevicting pod default/web-1\nevicting pod default/web-1\nevicting pod default/web-1\n');
		expect(w.harness.kernel.nowMs - startMs).toBeGreaterThanOrEqual(10_000);
		expect(w.harness.kernel.nowMs - startMs).toBeLessThan(11_000);
		const timeout = 'error when evicting pods/"web-1" -n "default": global timeout reached: 7s';
		expect(result.stderr.endsWith(`There are pending pods in node "node-1" when an error occurred: ${timeout}\npod/web-1\nerror: unable to drain node "node-1" due to error: ${timeout}, continuing command...\nThere are pending nodes to be drained:\n node-1\n${timeout}\n`)).toBe(true);
		expect(w.get(R.pods, 'default', 'web-1')).toBeDefined();
	});

	it('deletes instead of evicting with --disable-eviction, past a budget that refuses', () => {
		const pdb: KubeObject = {
			apiVersion: 'policy/v1',
			kind: 'PodDisruptionBudget',
			metadata: { name: 'web-pdb' },
			spec: { minAvailable: 1, selector: { matchLabels: { app: 'web' } } },
			status: { observedGeneration: 1, disruptionsAllowed: 0, currentHealthy: 1, desiredHealthy: 1, expectedPods: 1 },
		};
		const w = nodeWithPods([pdb]);
		w.finishPodDeletions();
		expect(w.kubectl('drain node-1 --ignore-daemonsets --disable-eviction')).toEqual({
			stdout: 'node/node-1 cordoned\npod/web-1 deleted\nnode/node-1 drained\n',
			stderr: 'Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-abc\n',
			exitCode: 0,
		});
		expect(w.get(R.pods, 'default', 'web-1')).toBeUndefined();
		// No eviction went through the budget.
		expect((w.get(PDB, 'default', 'web-pdb')!.status as { disruptedPods?: unknown }).disruptedPods).toBeUndefined();
	});

	it('lists what it would evict with --dry-run=client and changes nothing', () => {
		const w = nodeWithPods();
		const before = w.revision();
		expect(w.kubectl('drain node-1 --ignore-daemonsets --dry-run=client')).toEqual({
			stdout: 'node/node-1 cordoned (dry run)\nevicting pod default/web-1 (dry run)\nnode/node-1 drained (dry run)\n',
			stderr: 'Warning: ignoring DaemonSet-managed Pods: kube-system/kube-proxy-abc\n',
			exitCode: 0,
		});
		expect(w.revision()).toBe(before);
	});
});

describe('kubectl taint', () => {
	// The TaintNodesByCondition admission plugin gave the new node this taint; new taints go before the old ones.
	const NOT_READY = { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' };
	it.each([
		['taint nodes node-1 dedicated=gpu:NoSchedule', 'node/node-1 tainted\n', [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }, NOT_READY]],
		['taint node node-1 maintenance:NoExecute', 'node/node-1 tainted\n', [{ key: 'maintenance', effect: 'NoExecute' }, NOT_READY]],
	])('kubectl %s', (line, stdout, taints) => {
		const w = nodeWithPods();
		expect(w.kubectl(line)).toEqual({ stdout, stderr: '', exitCode: 0 });
		expect((w.get(R.nodes, undefined, 'node-1')!.spec as { taints: unknown }).taints).toEqual(taints);
	});

	it('removes a taint by key and effect, or by key alone', () => {
		const w = nodeWithPods();
		w.kubectl('taint nodes node-1 a=1:NoSchedule');
		w.kubectl('taint nodes node-1 a=1:NoExecute');
		expect(w.kubectl('taint nodes node-1 a:NoSchedule-').stdout).toBe('node/node-1 untainted\n');
		expect((w.get(R.nodes, undefined, 'node-1')!.spec as { taints: unknown }).taints).toEqual([{ key: 'a', value: '1', effect: 'NoExecute' }, NOT_READY]);
		expect(w.kubectl('taint nodes node-1 a-').stdout).toBe('node/node-1 untainted\n');
		expect(w.kubectl('taint nodes node-1 node.kubernetes.io/not-ready-').stdout).toBe('node/node-1 untainted\n');
		expect((w.get(R.nodes, undefined, 'node-1')!.spec as { taints?: unknown }).taints).toBeUndefined();
	});

	it('replaces an existing taint only with --overwrite, reporting modified', () => {
		const w = nodeWithPods();
		w.kubectl('taint nodes node-1 a=1:NoSchedule');
		expect(w.kubectl('taint nodes node-1 a=2:NoSchedule')).toEqual({ stdout: '', stderr: 'error: node node-1 already has a taint(s) with same effect(s) and --overwrite is false\n', exitCode: 1 });
		expect(w.kubectl('taint nodes node-1 a=2:NoSchedule --overwrite').stdout).toBe('node/node-1 modified\n');
	});

	it.each([
		['taint nodes node-1 a:NoSchedule-', 'error: taint "a:NoSchedule" not found\n'],
		['taint nodes node-1 a=1:Sometimes', "error: invalid taint effect: Sometimes, unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n"],
		// Without `:` the whole `a=1` is read as the key, which is not a qualified name.
		[
			'taint nodes node-1 a=1',
			"error: invalid taint spec: a=1, name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')\nSee 'kubectl taint -h' for help and examples\n",
		],
		['taint nodes node-1 a=1:', "error: invalid taint effect: , unsupported taint effect\nSee 'kubectl taint -h' for help and examples\n"],
		['taint pods web-1 a=1:NoSchedule', 'error: invalid resource type pods, only node types are supported\n'],
		['taint nodes a=1:NoSchedule', "error: at least one resource name must be specified since 'all' parameter is not set\n"],
		['taint nodes node-1', 'error: at least one taint update is required\n'],
		['taint nodes node-1 a=1:NoSchedule a:NoSchedule-', 'error: can not both modify and remove the following taint(s) in the same command: a=NoSchedule\n'],
		['taint nodes node-9 a=1:NoSchedule', 'Error from server (NotFound): nodes "node-9" not found\n'],
	])('rejects `kubectl %s`', (line, stderr) => {
		const w = nodeWithPods();
		const before = w.revision();
		expect(w.kubectl(line)).toEqual({ stdout: '', stderr, exitCode: 1 });
		expect(w.revision()).toBe(before);
	});
});
