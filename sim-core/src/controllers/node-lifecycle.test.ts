import { describe, it, expect } from 'vitest';
import type { CoreEvent, Node, Pod, Taint } from '../api/types.ts';
import { R } from '../client/client.ts';
import { parseRfc3339 } from '../golang/time.ts';
import { computeZoneState, noScheduleTaintsFor, zoneKey } from './node-lifecycle.ts';
import { minTolerationTimeMs } from './taint-eviction.ts';
import { createControllerHarness, type ControllerHarness } from '../testing/controllers/harness.ts';
import { deployment, get, isReady, waitFor } from '../testing/controllers/builders.ts';

describe('computeZoneState', () => {
	it.each([
		[['True', 'True', 'True'], 'Normal'],
		[['True', 'Unknown'], 'Normal'],
		[['Unknown', undefined], 'FullDisruption'],
		// More than 2 not ready and at least 55% of the zone.
		[['True', 'True', 'False', 'Unknown', 'Unknown'], 'PartialDisruption'],
		[['True', 'True', 'True', 'False', 'Unknown', 'Unknown'], 'Normal'],
		[['True', 'False', 'False'], 'Normal'],
	] as const)('%j is %s', (statuses, expected) => {
		expect(computeZoneState([...statuses], 0.55)).toBe(expected);
	});
});

describe('noScheduleTaintsFor', () => {
	const node = (conditions: Array<[string, string]>, unschedulable = false): Node => ({
		apiVersion: 'v1',
		kind: 'Node',
		metadata: { name: 'n' },
		spec: { unschedulable },
		status: { conditions: conditions.map(([type, status]) => ({ type, status: status as 'True' })) },
	});
	it.each([
		['a healthy node', [['Ready', 'True'], ['MemoryPressure', 'False']], false, []],
		['Ready=False', [['Ready', 'False']], false, ['node.kubernetes.io/not-ready']],
		['Ready=Unknown', [['Ready', 'Unknown']], false, ['node.kubernetes.io/unreachable']],
		['pressures and no network', [['Ready', 'True'], ['MemoryPressure', 'True'], ['DiskPressure', 'True'], ['PIDPressure', 'True'], ['NetworkUnavailable', 'True']], false, ['node.kubernetes.io/memory-pressure', 'node.kubernetes.io/disk-pressure', 'node.kubernetes.io/pid-pressure', 'node.kubernetes.io/network-unavailable']],
		['a cordoned node', [['Ready', 'True']], true, ['node.kubernetes.io/unschedulable']],
	] as const)('%s', (_name, conditions, unschedulable, keys) => {
		const taints = noScheduleTaintsFor(node(conditions.map(([a, b]) => [a, b]), unschedulable));
		expect(taints.map((t) => t.key)).toEqual(keys);
		expect(taints.every((t) => t.effect === 'NoSchedule')).toBe(true);
	});
});

describe('zoneKey', () => {
	it('joins region and zone with a NUL, and is empty without either label', () => {
		const node = (labels: Record<string, string>): Node => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n', labels }, spec: {} });
		expect(zoneKey(node({}))).toBe('');
		expect(zoneKey(node({ 'topology.kubernetes.io/region': 'eu', 'topology.kubernetes.io/zone': 'eu-a' }))).toBe('eu:\x00:eu-a');
	});
});

describe('minTolerationTimeMs', () => {
	it.each([
		[[], 0],
		[[{ tolerationSeconds: 300 }], 300_000],
		[[{ tolerationSeconds: 300 }, { tolerationSeconds: 60 }], 60_000],
		[[{}], -1],
		[[{}, { tolerationSeconds: 10 }], 10_000],
		[[{ tolerationSeconds: 0 }, { tolerationSeconds: 10 }], 0],
	])('%j gives %d', (used, expected) => {
		expect(minTolerationTimeMs(used)).toBe(expected);
	});
});

const node = (c: ControllerHarness, name: string) => get<Node>(c, R.nodes, undefined, name)!;
const ready = (n: Node) => n.status?.conditions?.find((x) => x.type === 'Ready');
const hasTaint = (n: Node, key: string, effect: Taint['effect']) => (n.spec?.taints ?? []).some((t) => t.key === key && t.effect === effect);

describe('a node whose kubelet stops', () => {
	it('goes Unknown 50 s after its last heartbeat, gets the unreachable taints, and its pods are deleted about 300 s later', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.kubectl.create(R.deployments, 'default', deployment('web', 2, 'nginx:1.27'));
		waitFor(c, 'one ready pod per node', () => c.list<Pod>(R.pods, 'default').filter(isReady).map((p) => p.spec.nodeName).sort().join() === 'node-1,node-2');
		const victim = c.list<Pod>(R.pods, 'default').find((p) => p.spec.nodeName === 'node-2')!;
		// DefaultTolerationSeconds gave the pod 300 s on unreachable nodes.
		expect(victim.spec.tolerations).toContainEqual({ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });

		c.nodes.setAlive('node-2', false);
		const lease = c.kubectl.get<{ spec: { renewTime: string } }>(R.leases, 'kube-node-lease', 'node-2');
		const lastHeartbeatMs = parseRfc3339(lease.ok ? lease.object.spec.renewTime : '') - c.kernel.epochMs;

		waitFor(c, 'Ready=Unknown', () => ready(node(c, 'node-2'))?.status === 'Unknown', 120_000, 500);
		const unknownAfterMs = c.kernel.nowMs - lastHeartbeatMs;
		// 50 s of grace, then at most one 5 s monitor period (plus this test's 0.5 s polling).
		expect(unknownAfterMs).toBeGreaterThan(50_000);
		expect(unknownAfterMs).toBeLessThanOrEqual(55_500);
		const condition = ready(node(c, 'node-2'))!;
		expect([condition.reason, condition.message]).toEqual(['NodeStatusUnknown', 'Kubelet stopped posting node status.']);
		for (const type of ['MemoryPressure', 'DiskPressure', 'PIDPressure']) {
			expect(node(c, 'node-2').status?.conditions?.find((x) => x.type === type)).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.' });
		}

		waitFor(c, 'the NoExecute taint', () => hasTaint(node(c, 'node-2'), 'node.kubernetes.io/unreachable', 'NoExecute'), 10_000);
		const n2 = node(c, 'node-2');
		expect(hasTaint(n2, 'node.kubernetes.io/unreachable', 'NoSchedule')).toBe(true);
		const taintedAt = parseRfc3339(n2.spec?.taints?.find((t) => t.effect === 'NoExecute')?.timeAdded ?? '') - c.kernel.epochMs;
		// The pod was marked not ready when the node went Unknown.
		expect(get<Pod>(c, R.pods, 'default', victim.metadata.name ?? '')?.status?.conditions?.find((x) => x.type === 'Ready')?.status).toBe('False');

		waitFor(c, 'the eviction', () => !!get<Pod>(c, R.pods, 'default', victim.metadata.name ?? '')?.metadata.deletionTimestamp, 400_000, 1000);
		const evictedAfterMs = c.kernel.nowMs - taintedAt;
		expect(evictedAfterMs).toBeGreaterThanOrEqual(300_000);
		expect(evictedAfterMs).toBeLessThanOrEqual(302_000);
		const evicted = get<Pod>(c, R.pods, 'default', victim.metadata.name ?? '')!;
		expect(evicted.status?.conditions?.find((x) => x.type === 'DisruptionTarget')).toMatchObject({ status: 'True', reason: 'DeletionByTaintManager', message: 'Taint manager: deleting due to NoExecute taint' });
		const events = c.list<CoreEvent>(R.events, 'default').map((e) => `${e.source?.component} ${e.reason}: ${e.message}`);
		expect(events).toContain(`taint-eviction-controller TaintManagerEviction: Marking for deletion Pod default/${victim.metadata.name}`);
		expect(events).toContain('node-controller NodeNotReady: Node node-2 status is now: NodeNotReady');
		expect(events).toContain(`node-controller NodeNotReady: Node is not ready`);

		// Its replacement lands on the healthy node; the evicted pod stays Terminating while its kubelet is away.
		waitFor(c, 'the replacement', () => c.list<Pod>(R.pods, 'default').filter((p) => isReady(p) && !p.metadata.deletionTimestamp).length === 2, 30_000);
		expect(c.list<Pod>(R.pods, 'default').filter((p) => !p.metadata.deletionTimestamp).every((p) => p.spec.nodeName === 'node-1')).toBe(true);

		// The kubelet comes back: Ready again, taints gone, the old pod finished.
		c.nodes.setAlive('node-2', true);
		waitFor(c, 'recovery', () => ready(node(c, 'node-2'))?.status === 'True' && !(node(c, 'node-2').spec?.taints ?? []).length && !get(c, R.pods, 'default', victim.metadata.name ?? ''), 30_000, 500);
	});

	it('never evicts the DaemonSet-style pods that tolerate unreachable forever', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.kubectl.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'agent' }, spec: { nodeName: 'node-2', containers: [{ name: 'a' }], tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }] } });
		c.nodes.setAlive('node-2', false);
		c.advance(420_000);
		expect(hasTaint(node(c, 'node-2'), 'node.kubernetes.io/unreachable', 'NoExecute')).toBe(true);
		expect(get<Pod>(c, R.pods, 'default', 'agent')?.metadata.deletionTimestamp).toBeUndefined();
	});

	it('deletes at once a pod that does not tolerate the taint at all', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.kubectl.create(R.pods, 'default', { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'bare' }, spec: { nodeName: 'node-2', containers: [{ name: 'a' }], tolerations: [{ key: 'x', operator: 'Exists' }].slice(1) } });
		// Without DefaultTolerationSeconds' help: remove the added tolerations.
		const pod = get<Pod>(c, R.pods, 'default', 'bare')!;
		expect(c.kubectl.update(R.pods, { ...pod, spec: { ...pod.spec, tolerations: [] } }).ok).toBe(true);
		c.nodes.setAlive('node-2', false);
		waitFor(c, 'the taint', () => hasTaint(node(c, 'node-2'), 'node.kubernetes.io/unreachable', 'NoExecute'), 120_000, 500);
		c.advance(200);
		expect(get<Pod>(c, R.pods, 'default', 'bare')?.metadata.deletionTimestamp).toBeDefined();
	});

	it('stops all eviction when every node is down (full disruption)', () => {
		const c = createControllerHarness({ nodes: ['node-1'] });
		c.nodes.setAlive('node-1', false);
		c.advance(120_000);
		expect(ready(node(c, 'node-1'))?.status).toBe('Unknown');
		expect(hasTaint(node(c, 'node-1'), 'node.kubernetes.io/unreachable', 'NoExecute')).toBe(false);
		expect(c.kernel.trace.events().some((e) => e.sub === 'nodelifecycle' && e.msg === 'Controller detected that all Nodes are not-Ready. Entering master disruption mode')).toBe(true);
	});
});

describe('node health corner cases', () => {
	it('gives a node that never posted status the 60 s startup grace period, then NodeStatusNeverUpdated', () => {
		const c = createControllerHarness({ nodes: ['node-1'] });
		c.advance(1000);
		c.kubectl.create(R.nodes, undefined, { apiVersion: 'v1', kind: 'Node', metadata: { name: 'silent' }, spec: {} });
		const createdAt = c.kernel.nowMs;
		waitFor(c, 'Ready=Unknown', () => !!ready(node(c, 'silent')), 120_000, 500);
		expect(c.kernel.nowMs - createdAt).toBeGreaterThan(60_000);
		expect(c.kernel.nowMs - createdAt).toBeLessThanOrEqual(66_000);
		expect(ready(node(c, 'silent'))).toMatchObject({ status: 'Unknown', reason: 'NodeStatusNeverUpdated', message: 'Kubelet never posted node status.', lastHeartbeatTime: node(c, 'silent').metadata.creationTimestamp });
	});

	it('taints a node its kubelet reports NotReady with not-ready, NoSchedule at once and NoExecute on the next check', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2'] });
		c.advance(1000);
		const n = node(c, 'node-2');
		const at = '2026-11-30T08:00:01Z';
		const conditions = (n.status?.conditions ?? []).map((x) => (x.type === 'Ready' ? { ...x, status: 'False' as const, reason: 'KubeletNotReady', message: 'container runtime network not ready', lastHeartbeatTime: at, lastTransitionTime: at } : x));
		// The fake kubelet would post Ready=True again: take it away first.
		c.nodes.setAlive('node-2', false);
		expect(c.kubectl.updateStatus(R.nodes, { ...n, status: { ...n.status, conditions } }).ok).toBe(true);
		c.advance(100);
		expect(hasTaint(node(c, 'node-2'), 'node.kubernetes.io/not-ready', 'NoSchedule')).toBe(true);
		expect(hasTaint(node(c, 'node-2'), 'node.kubernetes.io/not-ready', 'NoExecute')).toBe(false);
		c.advance(10_000);
		expect(hasTaint(node(c, 'node-2'), 'node.kubernetes.io/not-ready', 'NoExecute')).toBe(true);
	});

	it('taints at most one node per 10 s in a zone (--node-eviction-rate 0.1)', () => {
		const c = createControllerHarness({ nodes: ['node-1', 'node-2', 'node-3', 'node-4'] });
		c.advance(1000);
		c.nodes.setAlive('node-3', false);
		c.nodes.setAlive('node-4', false);
		c.advance(120_000);
		const taintedAt = (name: string) => parseRfc3339(node(c, name).spec?.taints?.find((t) => t.effect === 'NoExecute')?.timeAdded ?? '');
		expect(Math.abs(taintedAt('node-3') - taintedAt('node-4'))).toBe(10_000);
	});
});
