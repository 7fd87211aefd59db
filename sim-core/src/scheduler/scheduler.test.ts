import { describe, expect, it } from 'vitest';
import type { CoreEvent, Lease, Node, Pod } from '../api/types.ts';
import { R } from '../client/client.ts';
import type { KubeSchedulerConfiguration } from './config/types.ts';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.ts';
import { KUBE_SCHEDULER, KubeScheduler } from './scheduler.ts';
import { makeNode, makePod } from '../testing/scheduler/wrappers.ts';

/** A cluster with etcd and kube-apiserver; the test plays the kubelets (nodes) and the user (pods). */
function cluster(options: { seed?: number; config?: KubeSchedulerConfiguration; nodes?: Node[]; start?: boolean; explanationsMax?: number } = {}) {
	const h = createApiHarness({ seed: options.seed ?? 7 });
	for (const node of options.nodes ?? [workerNode('node-1'), workerNode('node-2')]) h.client(`kubelet/${node.metadata.name}`).create(R.nodes, undefined, node);
	const scheduler = new KubeScheduler(h.kernel, h.transport, { config: options.config, ...(options.explanationsMax ? { explanationsMax: options.explanationsMax } : {}) });
	h.kernel.register(scheduler);
	if (options.start !== false) h.kernel.start(KUBE_SCHEDULER);
	return { h, scheduler, user: h.client('kubectl') };
}

function workerNode(name: string, cpu = '2', memory = '4Gi', extra: Parameters<typeof makeNode>[1] = {}): Node {
	return makeNode(name, { capacity: { cpu, memory, pods: '110' }, ...extra });
}

/** A pod as a user would write it (the API server assigns the UID). */
function userPod(name: string, spec: Parameters<typeof makePod>[1] = {}): Pod {
	const pod = makePod(name, spec);
	delete pod.metadata.uid;
	return pod;
}

/** The scheduler never swallowed an exception (handle() turns them into 'error' trace events). */
function expectNoErrors(h: ApiHarness): void {
	expect(h.kernel.trace.events().filter((e) => e.component === KUBE_SCHEDULER && e.action === 'error').map((e) => e.msg)).toEqual([]);
}

function getPod(h: ApiHarness, name: string): Pod {
	const got = h.client('kubectl').get<Pod>(R.pods, 'default', name);
	if (!got.ok) throw new Error(got.message);
	return got.object;
}

function events(h: ApiHarness, namespace = 'default'): CoreEvent[] {
	const list = h.client('kubectl').list<CoreEvent>(R.events, namespace);
	return list.ok ? list.object.items : [];
}

describe('kube-scheduler against a real API server', () => {
	it('explains every pod it tried: the most recent in full, older ones as a summary, forgotten once deleted', () => {
		const { h, scheduler, user } = cluster({ explanationsMax: 2 });
		for (const name of ['a', 'b', 'c']) user.create(R.pods, 'default', userPod(name, { requests: [{ cpu: '100m' }] }));
		user.create(R.pods, 'default', userPod('huge', { requests: [{ cpu: '64' }] }));
		h.advance(100);
		// Four pods tried, two full records kept: a and b are summaries, with their outcome and no node rows.
		const a = scheduler.explain('default/a')!;
		expect(a).toMatchObject({ result: 'Scheduled', detail: 'summary', nodes: [], nodesOmitted: 2, numAllNodes: 2 });
		expect(a.node).toBe(getPod(h, 'a').spec.nodeName);
		expect(scheduler.explain('default/c')!.detail).toBeUndefined();
		expect(scheduler.explain('default/c')!.nodes).toHaveLength(2);
		const huge = scheduler.explain('default/huge')!;
		expect(huge).toMatchObject({ result: 'Unschedulable', message: expect.stringMatching(/^0\/2 nodes are available: 2 Insufficient cpu\./) });
		expect(huge.detail).toBeUndefined();
		user.delete(R.pods, 'default', 'a');
		h.advance(100);
		expect(scheduler.explain('default/a')).toBeUndefined();
		expect(scheduler.explain('default/b')).toMatchObject({ result: 'Scheduled', detail: 'summary' });
		expectNoErrors(h);
	});

	it('binds a pod, records Scheduled, and explains the decision', () => {
		const { h, scheduler, user } = cluster({ nodes: [workerNode('node-1'), workerNode('node-2', '4', '8Gi')] });
		user.create(R.pods, 'default', userPod('web', { requests: [{ cpu: '500m', memory: '256Mi' }] }));
		h.advance(100);
		const pod = getPod(h, 'web');
		expect(pod.spec.nodeName).toBe('node-2');
		expect(pod.status?.conditions?.find((c) => c.type === 'PodScheduled')?.status).toBe('True');
		const scheduled = events(h).filter((e) => e.reason === 'Scheduled');
		// The profile's events.k8s.io recorder: reportingController the scheduler name, reportingInstance `<name>-<hostname>`, no legacy source.
		expect(scheduled.map((e) => ({ type: e.type, source: e.source, controller: e.reportingComponent, instance: e.reportingInstance, action: e.action, message: e.message, kind: e.involvedObject.kind, lastTimestamp: e.lastTimestamp }))).toEqual([
			{ type: 'Normal', source: {}, controller: 'default-scheduler', instance: 'default-scheduler-control-plane', action: 'Binding', message: 'Successfully assigned default/web to node-2', kind: 'Pod', lastTimestamp: null },
		]);
		const e = scheduler.explain('default/web')!;
		expect(e).toMatchObject({ pod: 'default/web', result: 'Scheduled', node: 'node-2', attempt: 1, numAllNodes: 2, numNodesToFind: 2, notEvaluated: [] });
		// LeastAllocated on node-2 (4 CPU, 8Gi): (4000−500)×100/4000 = 87, (8Gi−256Mi)×100/8Gi = 96 → 91; node-1: 75, 93 → 84.
		expect(e.nodes.map((n) => [n.node, n.scores?.find((s) => s.plugin === 'NodeResourcesFit')?.raw])).toEqual([
			['node-1', 84],
			['node-2', 91],
		]);
		// NodeAffinity, NodePorts, PodTopologySpread and InterPodAffinity returned Skip at PreFilter, so their Filter did not run.
		expect(e.preFilter.map((o) => `${o.plugin}:${o.code}`)).toEqual(['NodeAffinity:Skip', 'NodePorts:Skip', 'NodeResourcesFit:Success', 'VolumeBinding:Skip', 'PodTopologySpread:Skip', 'InterPodAffinity:Skip']);
		expect(e.nodes[0].filters.map((f) => `${f.plugin}:${f.code}`)).toEqual(['NodeUnschedulable:Success', 'NodeName:Success', 'TaintToleration:Success', 'NodeResourcesFit:Success']);
		expect(e.nodes.every((n) => n.totalScore === n.scores!.reduce((sum, s) => sum + s.weighted, 0))).toBe(true);
		expect(scheduler.explain('default/nope')).toBeUndefined();
		expectNoErrors(h);
	});

	it('takes one scheduling cycle per pod, so a burst takes visible time, and assumes each pod until the bind is seen', () => {
		const { h, user } = cluster();
		h.advance(10);
		for (let i = 0; i < 5; i++) user.create(R.pods, 'default', userPod(`burst-${i}`, { requests: [{ cpu: '100m' }] }));
		h.advance(100);
		const binds = h.kernel.trace.events().filter((e) => e.component === KUBE_SCHEDULER && e.action === 'bind');
		expect(binds.length).toBe(5);
		const times = binds.map((e) => e.atMs);
		for (let i = 1; i < times.length; i++) expect(times[i] - times[i - 1]).toBe(1);
		// Five 100m pods over two 2-CPU nodes, balanced by LeastAllocated.
		const perNode = [0, 1, 2, 3, 4].map((i) => getPod(h, `burst-${i}`).spec.nodeName);
		expect(perNode.filter((n) => n === 'node-1').length + perNode.filter((n) => n === 'node-2').length).toBe(5);
		expect(Math.abs(perNode.filter((n) => n === 'node-1').length - perNode.filter((n) => n === 'node-2').length)).toBe(1);
		expectNoErrors(h);
	});

	it('reports a pod that fits nowhere: FailedScheduling, PodScheduled=False, and the FitError message', () => {
		const { h, scheduler, user } = cluster();
		user.create(R.pods, 'default', userPod('huge', { requests: [{ cpu: '3', memory: '1Gi' }] }));
		h.advance(100);
		const message = '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
		const failed = events(h).filter((e) => e.reason === 'FailedScheduling');
		expect(failed.map((e) => ({ type: e.type, from: e.reportingComponent, action: e.action, message: e.message }))).toEqual([{ type: 'Warning', from: 'default-scheduler', action: 'Scheduling', message }]);
		const condition = getPod(h, 'huge').status?.conditions?.find((c) => c.type === 'PodScheduled');
		expect(condition).toMatchObject({ type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message, lastProbeTime: null });
		expect(scheduler.explain('default/huge')).toMatchObject({ result: 'Unschedulable', message });
		expect(scheduler.explain('default/huge')!.nodes.map((n) => [n.node, n.rejectedBy, n.reasons])).toEqual([
			['node-1', 'NodeResourcesFit', ['Insufficient cpu']],
			['node-2', 'NodeResourcesFit', ['Insufficient cpu']],
		]);
		expect(scheduler.queueSummary()).toEqual({ active: 0, backoff: 0, unschedulable: 1, gated: 0 });
		expectNoErrors(h);
	});

	it('retries an unschedulable pod when a node that fits it joins', () => {
		const { h, user } = cluster();
		user.create(R.pods, 'default', userPod('huge', { requests: [{ cpu: '3' }] }));
		h.advance(2000);
		expect(getPod(h, 'huge').spec.nodeName).toBeUndefined();
		h.client('kubelet/node-3').create(R.nodes, undefined, workerNode('node-3', '8', '16Gi'));
		h.advance(100);
		expect(getPod(h, 'huge').spec.nodeName).toBe('node-3');
		const reasons = events(h).map((e) => e.reason);
		expect(reasons).toEqual(['FailedScheduling', 'Scheduled']);
		expectNoErrors(h);
	});

	it('does not retry on a node that still would not fit (queueing hints)', () => {
		const { h, scheduler, user } = cluster();
		user.create(R.pods, 'default', userPod('huge', { requests: [{ cpu: '3' }] }));
		h.advance(100);
		h.client('kubelet/node-3').create(R.nodes, undefined, workerNode('node-3', '2', '4Gi'));
		h.advance(100);
		expect(scheduler.explain('default/huge')!.attempt).toBe(1);
	});

	it('retries when a cordoned node is uncordoned (a node update)', () => {
		const { h, user } = cluster({ nodes: [workerNode('node-1', '2', '4Gi', { unschedulable: true })] });
		user.create(R.pods, 'default', userPod('web'));
		h.advance(100);
		expect(getPod(h, 'web').status?.conditions?.find((c) => c.type === 'PodScheduled')?.message).toBe(
			'0/1 nodes are available: 1 node(s) were unschedulable. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.',
		);
		const node = structuredClone(h.client('kubectl').get<Node>(R.nodes, undefined, 'node-1'));
		if (!node.ok) throw new Error(node.message);
		node.object.spec.unschedulable = false;
		expect(h.client('kubectl').update(R.nodes, node.object).ok).toBe(true);
		h.advance(100);
		expect(getPod(h, 'web').spec.nodeName).toBe('node-1');
		expectNoErrors(h);
	});

	it('counts a finished pod out, freeing its room', () => {
		const { h, user } = cluster({ nodes: [workerNode('node-1')] });
		user.create(R.pods, 'default', userPod('job', { requests: [{ cpu: '1500m' }] }));
		h.advance(50);
		user.create(R.pods, 'default', userPod('web', { requests: [{ cpu: '1' }] }));
		h.advance(50);
		expect(getPod(h, 'web').spec.nodeName).toBeUndefined();
		// The kubelet reports the job's pod Succeeded.
		const job = structuredClone(getPod(h, 'job'));
		job.status = { ...job.status, phase: 'Succeeded' };
		expect(h.client('kubelet/node-1').updateStatus(R.pods, job).ok).toBe(true);
		h.advance(100);
		expect(getPod(h, 'web').spec.nodeName).toBe('node-1');
		expectNoErrors(h);
	});

	it('holds a pod with scheduling gates until the gates are removed', () => {
		const { h, user } = cluster();
		user.create(R.pods, 'default', userPod('gated', { schedulingGates: [{ name: 'example.com/approval' }] }));
		h.advance(1000);
		expect(getPod(h, 'gated').spec.nodeName).toBeUndefined();
		const pod = structuredClone(getPod(h, 'gated'));
		pod.spec.schedulingGates = [];
		expect(user.update(R.pods, pod).ok).toBe(true);
		h.advance(100);
		expect(getPod(h, 'gated').spec.nodeName).toMatch(/^node-/);
		expectNoErrors(h);
	});

	it('preempts a lower-priority pod to make room for a higher-priority one', () => {
		const { h, scheduler, user } = cluster({ nodes: [workerNode('node-1')] });
		user.create(R.pods, 'default', userPod('low', { requests: [{ cpu: '1500m' }], priority: 0 }));
		h.advance(100);
		expect(getPod(h, 'low').spec.nodeName).toBe('node-1');
		user.create(R.pods, 'default', userPod('vip', { requests: [{ cpu: '1' }], priority: 1000 }));
		h.advance(3000);
		expect(user.get(R.pods, 'default', 'low').ok).toBe(false);
		expect(getPod(h, 'vip').spec.nodeName).toBe('node-1');
		const preempted = events(h).find((e) => e.reason === 'Preempted');
		expect(preempted?.message).toBe(`Preempted by pod ${getPod(h, 'vip').metadata.uid} on node node-1`);
		expect(preempted && { action: preempted.action, related: preempted.related?.name }).toEqual({ action: 'Preempting', related: 'vip' });
		expect(scheduler.explain('default/vip')).toMatchObject({ result: 'Scheduled', node: 'node-1', nominatedNode: { node: 'node-1', feasible: true } });
		expectNoErrors(h);
	});

	it('uses the profile named by the pod, and leaves other pods alone', () => {
		const { h, user } = cluster({ config: { profiles: [{ schedulerName: 'default-scheduler' }, { schedulerName: 'bin-packer', pluginConfig: [{ name: 'NodeResourcesFit', args: { scoringStrategy: { type: 'MostAllocated' } } }] }] } });
		user.create(R.pods, 'default', userPod('first', { requests: [{ cpu: '1' }], nodeName: undefined, schedulerName: 'bin-packer' }));
		h.advance(50);
		const first = getPod(h, 'first').spec.nodeName;
		user.create(R.pods, 'default', userPod('second', { requests: [{ cpu: '500m' }], schedulerName: 'bin-packer' }));
		user.create(R.pods, 'default', userPod('other', { schedulerName: 'someone-else' }));
		h.advance(50);
		expect(getPod(h, 'second').spec.nodeName).toBe(first);
		expect(getPod(h, 'other').spec.nodeName).toBeUndefined();
		expect(events(h).find((e) => e.involvedObject.name === 'second')?.reportingComponent).toBe('bin-packer');
		expectNoErrors(h);
	});
});

describe('leader election', () => {
	it('acquires the Lease kube-system/kube-scheduler and records LeaderElection', () => {
		const { h, scheduler } = cluster();
		h.advance(10);
		expect(scheduler.isLeader).toBe(true);
		const lease = h.client('kubectl').get<Lease>(R.leases, 'kube-system', 'kube-scheduler');
		expect(lease.ok && lease.object.spec).toMatchObject({ holderIdentity: expect.stringMatching(/^control-plane_[0-9a-f-]{36}$/), leaseDurationSeconds: 15 });
		const ev = events(h, 'kube-system').find((e) => e.reason === 'LeaderElection');
		expect(ev && { from: ev.source?.component, message: ev.message, kind: ev.involvedObject.kind }).toEqual({ from: 'default-scheduler', message: `${lease.ok && lease.object.spec.holderIdentity} became leader`, kind: 'Lease' });
	});

	it('schedules nothing while another instance holds the lease, and takes over once it lapses (15 s)', () => {
		const { h, scheduler, user } = cluster({ start: false });
		const now = '2026-11-30T08:00:00.000000Z';
		const lease: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'kube-scheduler', namespace: 'kube-system' }, spec: { holderIdentity: 'other_1', leaseDurationSeconds: 15, acquireTime: now, renewTime: now, leaseTransitions: 0 } };
		h.client('other-scheduler').create(R.leases, 'kube-system', lease);
		h.kernel.start(KUBE_SCHEDULER);
		user.create(R.pods, 'default', userPod('web'));
		h.advance(14_000);
		expect(scheduler.isLeader).toBe(false);
		expect(getPod(h, 'web').spec.nodeName).toBeUndefined();
		// The standby already watches and queues the pod; it just does not schedule it.
		expect(scheduler.queueSummary().active).toBe(1);
		h.advance(6_000);
		expect(scheduler.isLeader).toBe(true);
		expect(getPod(h, 'web').spec.nodeName).toMatch(/^node-/);
	});

	it('after a restart (a new identity) waits for its own old lease to expire before scheduling again', () => {
		const { h, user } = cluster();
		h.advance(5_000);
		const before = h.client('kubectl').get<Lease>(R.leases, 'kube-system', 'kube-scheduler');
		h.kernel.stop(KUBE_SCHEDULER);
		h.kernel.start(KUBE_SCHEDULER);
		const restartedAt = h.kernel.nowMs;
		user.create(R.pods, 'default', userPod('web'));
		h.advance(14_900);
		expect(getPod(h, 'web').spec.nodeName).toBeUndefined();
		h.advance(20_000 - 14_900);
		const pod = getPod(h, 'web');
		expect(pod.spec.nodeName).toMatch(/^node-/);
		const after = h.client('kubectl').get<Lease>(R.leases, 'kube-system', 'kube-scheduler');
		expect(after.ok && before.ok && after.object.spec.holderIdentity !== before.object.spec.holderIdentity).toBe(true);
		expect(after.ok && after.object.spec.leaseTransitions).toBe(1);
		const bind = h.kernel.trace.events().find((e) => e.component === KUBE_SCHEDULER && e.action === 'bind' && e.object === 'pods/default/web')!;
		expect(bind.atMs - restartedAt).toBeGreaterThanOrEqual(15_000);
		expectNoErrors(h);
	});
});

describe('determinism and snapshots', () => {
	function run(seed: number): string {
		const { h, user } = cluster({ seed, nodes: [workerNode('a'), workerNode('b'), workerNode('c')] });
		for (let i = 0; i < 6; i++) user.create(R.pods, 'default', userPod(`p${i}`, { requests: [{ cpu: '100m', memory: '64Mi' }] }));
		h.advance(1000);
		return h.kernel.trace.fingerprint();
	}

	it('gives the same trace for the same seed', () => {
		expect(run(3)).toBe(run(3));
	});

	it('rebuilds its cache from a restored state', () => {
		const { h, scheduler, user } = cluster();
		user.create(R.pods, 'default', userPod('fill-1', { requests: [{ cpu: '1500m' }], nodeName: 'node-1' }));
		h.advance(100);
		// As after a snapshot restore: the same state as plain JSON, a new object.
		scheduler.state = JSON.parse(JSON.stringify(scheduler.state));
		user.create(R.pods, 'default', userPod('web', { requests: [{ cpu: '1' }] }));
		h.advance(100);
		expect(getPod(h, 'web').spec.nodeName).toBe('node-2');
		expectNoErrors(h);
	});

	it('refuses to run with an invalid configuration, and says why', () => {
		const { h, scheduler } = cluster({ config: { percentageOfNodesToScore: 150 } });
		h.advance(100);
		expect(scheduler.configError).toBe("couldn't create scheduler: percentageOfNodesToScore: Invalid value: 150: not in valid range [0-100]");
		expect(h.kernel.trace.events().some((e) => e.component === KUBE_SCHEDULER && e.action === 'error' && e.msg === scheduler.configError)).toBe(true);
		expect(scheduler.isLeader).toBe(false);
	});
});

