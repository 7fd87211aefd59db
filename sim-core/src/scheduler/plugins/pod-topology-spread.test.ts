import { describe, expect, it } from 'vitest';
import type { KubeObject, Node, Pod } from '../../api/types.ts';
import type { MetaLabelSelector } from '../../api/labels.ts';
import { CycleState } from '../framework/cycle-state.ts';
import { Code, isSkip } from '../framework/status.ts';
import { PodInfo } from '../framework/types.ts';
import { fakeHandle, listersOf, makeNode, makePod, snapshotOf } from '../../testing/scheduler/wrappers.ts';
import { ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_NODE_LABEL_NOT_MATCH, PodTopologySpread, type TopologySpreadConstraintSpec } from './pod-topology-spread.ts';

const fooSelector: MetaLabelSelector = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
const barSelector: MetaLabelSelector = { matchExpressions: [{ key: 'bar', operator: 'Exists' }] };
const HOST = 'kubernetes.io/hostname';

/** st.MakeNode().Name(n) also sets kubernetes.io/hostname; more labels as given. */
const node = (name: string, labels: Record<string, string> = {}, taints?: Node['spec']['taints']) => makeNode(name, { labels, ...(taints ? { taints } : {}) });
const spread = (maxSkew: number, topologyKey: string, whenUnsatisfiable: 'DoNotSchedule' | 'ScheduleAnyway', labelSelector: MetaLabelSelector | null, extra: Partial<TopologySpreadConstraintSpec> = {}): TopologySpreadConstraintSpec => ({ maxSkew, topologyKey, whenUnsatisfiable, labelSelector, ...extra });
const incoming = (labels: Record<string, string>, constraints: TopologySpreadConstraintSpec[], extra: Partial<Pod['spec']> = {}) =>
	makePod('p', { labels, containers: [], topologySpreadConstraints: constraints as unknown as Array<Record<string, unknown>>, ...extra });
/** Existing pods "p-<node><i>" with the labels given, bound to each node in turn. */
const existing = (spec: Array<[string, Record<string, string>, string?]>) => spec.map(([nodeName, labels, ns], i) => makePod(`p-${nodeName}-${i}`, { nodeName, labels, containers: [], ...(ns ? { namespace: ns } : {}) }));
const foo = { foo: '' };
const fooBar = { foo: '', bar: '' };
const bar = { bar: '' };

/** PreScore over the candidate `nodes`, Score each, NormalizeScore; `failedNodes` exist in the snapshot only. */
function score(pod: Pod, nodes: Node[], failedNodes: Node[], pods: Pod[], objects: { services?: KubeObject[] } = {}): number[] | 'skip' {
	const cache = snapshotOf([...nodes, ...failedNodes], pods);
	const plugin = new PodTopologySpread(undefined, fakeHandle(cache, listersOf(objects)));
	const state = new CycleState();
	const candidates = nodes.map((n) => cache.get(n.metadata.name!)!);
	const s = plugin.preScore(state, pod, candidates);
	if (isSkip(s)) return 'skip';
	const list = candidates.map((n) => ({ name: n.name, score: plugin.score(state, pod, n).score }));
	plugin.normalizeScore(state, pod, list);
	return list.map((l) => l.score);
}

// TestPodTopologySpreadScore (podtopologyspread/scoring_test.go).
describe('PodTopologySpread score', () => {
	it.each([
		{ name: 'one constraint on node, no existing pods', pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]), nodes: [node('node-a'), node('node-b')], failed: [], pods: [], want: [100, 100] },
		{ name: 'one constraint on node, only one node is candidate', pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]), nodes: [node('node-a')], failed: [node('node-b')], pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo]]), want: [100] },
		{ name: 'one constraint on node, all nodes have the same number of matching pods', pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]), nodes: [node('node-a'), node('node-b')], failed: [], pods: existing([['node-a', foo], ['node-b', foo]]), want: [100, 100] },
		{
			name: 'one constraint on node, all 4 nodes are candidates',
			pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a'), node('node-b'), node('node-c'), node('node-d')],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-d', foo], ['node-d', foo], ['node-d', foo]]),
			want: [20, 60, 100, 0],
		},
		{
			name: 'one constraint on node, null selector',
			pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', null)]),
			nodes: [node('node-a'), node('node-b'), node('node-c'), node('node-d')],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-d', foo], ['node-d', foo], ['node-d', foo]]),
			want: [100, 100, 100, 100],
		},
		{
			name: 'one constraint on node, all 4 nodes are candidates, maxSkew=2',
			pod: incoming(foo, [spread(2, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a'), node('node-b'), node('node-c'), node('node-d')],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-d', foo], ['node-d', foo], ['node-d', foo]]),
			want: [33, 66, 100, 16],
		},
		{
			name: 'one constraint on node, all 4 nodes are candidates, maxSkew=3',
			pod: incoming(foo, [spread(3, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a'), node('node-b'), node('node-c'), node('node-d')],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-b', foo], ['node-b', foo], ['node-c', foo], ['node-c', foo], ['node-d', foo]]),
			want: [44, 66, 77, 100],
		},
		{
			name: "system defaulting, nodes don't have zone, pods match service",
			pod: incoming(foo, []),
			nodes: [node('node-a'), node('node-b'), node('node-c'), node('node-d')],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-b', foo], ['node-b', foo], ['node-c', foo], ['node-c', foo], ['node-d', foo]]),
			services: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'default' }, spec: { selector: { foo: '' } } }],
			want: [44, 66, 77, 100],
		},
		{
			name: 'one constraint on node, 3 out of 4 nodes are candidates',
			pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a'), node('node-b'), node('node-x')],
			failed: [node('node-y')],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-b', foo], ['node-x', foo], ['node-y', foo], ['node-y', foo], ['node-y', foo]]),
			want: [33, 83, 100],
		},
		{
			name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
			pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a'), { ...node('node-b'), metadata: { name: 'node-b', labels: { n: 'node-b' } } } as Node, node('node-x')],
			failed: [node('node-y')],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-b', foo], ['node-x', foo], ['node-y', foo], ['node-y', foo], ['node-y', foo]]),
			want: [16, 0, 100],
		},
		{
			name: 'one constraint on zone, 3 out of 4 nodes are candidates',
			pod: incoming(foo, [spread(1, 'zone', 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a', { zone: 'zone1' }), node('node-b', { zone: 'zone1' }), node('node-x', { zone: 'zone2' })],
			failed: [node('node-y', { zone: 'zone2' })],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-b', foo], ['node-x', foo], ['node-y', foo], ['node-y', foo], ['node-y', foo]]),
			want: [75, 75, 100],
		},
		{
			name: 'two Constraints on zone and node, 2 out of 4 nodes are candidates',
			pod: incoming(foo, [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a', { zone: 'zone1' }), node('node-x', { zone: 'zone2' })],
			failed: [node('node-b', { zone: 'zone1' }), node('node-y', { zone: 'zone2' })],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-x', foo], ['node-x', foo], ['node-y', foo], ['node-y', foo], ['node-y', foo], ['node-y', foo]]),
			want: [100, 63],
		},
		{
			name: 'two Constraints on zone and node, with different labelSelectors',
			pod: incoming(fooBar, [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOST, 'ScheduleAnyway', barSelector)]),
			nodes: [node('node-a', { zone: 'zone1' }), node('node-b', { zone: 'zone1' }), node('node-x', { zone: 'zone2' }), node('node-y', { zone: 'zone2' })],
			failed: [],
			pods: existing([['node-a', foo], ['node-b', fooBar], ['node-y', foo], ['node-y', bar]]),
			want: [60, 20, 100, 60],
		},
		{
			name: 'two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods',
			pod: incoming(fooBar, [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOST, 'ScheduleAnyway', barSelector)]),
			nodes: [node('node-a', { zone: 'zone1' }), node('node-b', { zone: 'zone1' }), node('node-x', { zone: 'zone2' }), node('node-y', { zone: 'zone2' })],
			failed: [],
			pods: existing([['node-b', bar], ['node-x', foo], ['node-y', fooBar]]),
			want: [100, 60, 40, 0],
		},
		{
			name: 'two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates',
			pod: incoming(fooBar, [spread(1, 'zone', 'ScheduleAnyway', fooSelector), spread(1, HOST, 'ScheduleAnyway', barSelector)]),
			nodes: [node('node-a', { zone: 'zone1' }), node('node-b', { zone: 'zone1' }), node('node-x', { zone: 'zone2' })],
			failed: [node('node-y', { zone: 'zone2' })],
			pods: existing([['node-a', foo], ['node-b', fooBar], ['node-y', foo], ['node-y', bar]]),
			want: [50, 25, 100],
		},
		{
			name: 'existing pods in a different namespace do not count',
			pod: incoming(foo, [spread(1, HOST, 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a'), node('node-b')],
			failed: [],
			pods: existing([['node-a', foo, 'ns1'], ['node-a', foo], ['node-b', foo], ['node-b', foo]]),
			want: [100, 33],
		},
		{
			name: 'minDomains has no effect when ScheduleAnyway',
			pod: incoming(foo, [spread(2, 'node', 'ScheduleAnyway', fooSelector, { minDomains: 10 })]),
			nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' })],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-b', foo], ['node-c', foo]]),
			want: [75, 75, 100],
		},
		{
			name: 'NodeAffinityPolicy honoed with labelSelectors',
			pod: incoming(foo, [spread(1, 'node', 'ScheduleAnyway', fooSelector)], { nodeSelector: { foo: '' } }),
			nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c' })],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-c', foo]]),
			want: [0, 33, 100],
		},
		{
			name: 'NodeAffinityPolicy ignored with labelSelectors',
			pod: incoming(foo, [spread(1, 'node', 'ScheduleAnyway', fooSelector, { nodeAffinityPolicy: 'Ignore' })], { nodeSelector: { foo: '' } }),
			nodes: [node('node-a', { node: 'node-a', foo: '' }), node('node-b', { node: 'node-b', foo: '' }), node('node-c', { node: 'node-c' })],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-c', foo]]),
			want: [66, 100, 100],
		},
		{
			name: 'NodeTaintsPolicy honored',
			pod: incoming(foo, [spread(1, 'node', 'ScheduleAnyway', fooSelector, { nodeTaintsPolicy: 'Honor' })]),
			nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' }, [{ key: 'taint', effect: 'NoSchedule' }])],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-c', foo]]),
			want: [0, 33, 100],
		},
		{
			name: 'NodeTaintsPolicy ignored',
			pod: incoming(foo, [spread(1, 'node', 'ScheduleAnyway', fooSelector)]),
			nodes: [node('node-a', { node: 'node-a' }), node('node-b', { node: 'node-b' }), node('node-c', { node: 'node-c' }, [{ key: 'taint', effect: 'NoSchedule' }])],
			failed: [],
			pods: existing([['node-a', foo], ['node-a', foo], ['node-b', foo], ['node-c', foo]]),
			want: [66, 100, 100],
		},
		{
			name: 'matchLabelKeys ANDed with LabelSelector when LabelSelector is empty',
			pod: incoming(fooBar, [spread(1, 'zone', 'ScheduleAnyway', {}, { matchLabelKeys: ['foo'] }), spread(1, HOST, 'ScheduleAnyway', {}, { matchLabelKeys: ['bar'] })]),
			nodes: [node('node-a', { zone: 'zone1' }), node('node-b', { zone: 'zone1' }), node('node-c', { zone: 'zone2' }), node('node-d', { zone: 'zone2' })],
			failed: [],
			pods: existing([['node-a', foo], ['node-b', fooBar], ['node-c', foo], ['node-c', bar]]),
			want: [60, 20, 60, 100],
		},
	] as Array<{ name: string; pod: Pod; nodes: Node[]; failed: Node[]; pods: Pod[]; services?: KubeObject[]; want: number[] }>)('$name', ({ pod, nodes, failed, pods, services, want }) => {
		expect(score(pod, nodes, failed, pods, { services })).toEqual(want);
	});

	it('a pod without constraints and without a Service, ReplicaSet or StatefulSet has nothing to spread: Skip', () => {
		expect(score(incoming(foo, []), [node('node-a'), node('node-b')], [], [])).toBe('skip');
	});

	it('the default constraints follow the ReplicaSet that owns the pod', () => {
		const rs: KubeObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', metadata: { name: 'web-123', namespace: 'default' }, spec: { selector: { matchLabels: { app: 'web' } } } };
		const pod = makePod('web-123-x', { labels: { app: 'web' }, containers: [] });
		pod.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web-123', uid: 'u', controller: true }];
		const pods = existing([['node-a', { app: 'web' }], ['node-a', { app: 'web' }]]);
		const cache = snapshotOf([node('node-a'), node('node-b')], pods);
		const plugin = new PodTopologySpread(undefined, fakeHandle(cache, listersOf({ replicaSets: [rs] })));
		const state = new CycleState();
		expect(plugin.preScore(state, pod, cache.list())).toBeUndefined();
		const list = cache.list().map((n) => ({ name: n.name, score: plugin.score(state, pod, n).score }));
		plugin.normalizeScore(state, pod, list);
		// Hostname default (maxSkew 3, weight ln 4): node-a 2 × 1.386 + 2 = 4.77 → 5, node-b 0 + 2 = 2; the zone default
		// scores nothing (no zone labels). Normalized 100 × (max + min − score) / max: 100 × 2 / 5 = 40 and 100.
		expect(list.map((l) => l.score)).toEqual([40, 100]);
	});
});

describe('PodTopologySpread filter', () => {
	const run = (pod: Pod, nodes: Node[], pods: Pod[]) => {
		const cache = snapshotOf(nodes, pods);
		const plugin = new PodTopologySpread(undefined, fakeHandle(cache));
		const state = new CycleState();
		const pre = plugin.preFilter(state, pod);
		if (pre.status?.code === Code.Skip) return 'skip';
		return cache.list().map((n) => {
			const s = plugin.filter(state, pod, n);
			return s ? s.allReasons()[0] : 'fits';
		});
	};
	const zones = () => [node('node-a', { zone: 'zone1' }), node('node-b', { zone: 'zone1' }), node('node-x', { zone: 'zone2' }), node('node-y', { zone: 'zone2' })];

	it('lets the pod into the emptier zone only (matching 2 in zone1 + itself − 0 in zone2 > maxSkew 1)', () => {
		const pod = incoming(foo, [spread(1, 'zone', 'DoNotSchedule', fooSelector)]);
		expect(run(pod, zones(), existing([['node-a', foo], ['node-b', foo]]))).toEqual([ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_CONSTRAINTS_NOT_MATCH, 'fits', 'fits']);
	});

	it('allows a skew of maxSkew', () => {
		const pod = incoming(foo, [spread(2, 'zone', 'DoNotSchedule', fooSelector)]);
		expect(run(pod, zones(), existing([['node-a', foo]]))).toEqual(['fits', 'fits', 'fits', 'fits']);
	});

	it('does not count the pod itself when it does not match its own selector', () => {
		const pod = incoming(bar, [spread(1, 'zone', 'DoNotSchedule', fooSelector)]);
		expect(run(pod, zones(), existing([['node-a', foo]]))).toEqual(['fits', 'fits', 'fits', 'fits']);
	});

	it('rejects a node without the topology label as unresolvable', () => {
		const pod = incoming(foo, [spread(1, 'zone', 'DoNotSchedule', fooSelector)]);
		const cache = snapshotOf([node('node-a', { zone: 'zone1' }), node('node-n')]);
		const plugin = new PodTopologySpread(undefined, fakeHandle(cache));
		const state = new CycleState();
		plugin.preFilter(state, pod);
		const s = plugin.filter(state, pod, cache.get('node-n')!);
		expect(s && { code: s.code, reasons: s.allReasons() }).toEqual({ code: Code.UnschedulableAndUnresolvable, reasons: [ERR_REASON_NODE_LABEL_NOT_MATCH] });
	});

	it('treats the global minimum as 0 while there are fewer domains than minDomains', () => {
		// Two zones with one matching pod each: normally 1 + 1 − 1 = 1 fits; with minDomains 3 the minimum is 0, so 2 > 1.
		const pod = incoming(foo, [spread(1, 'zone', 'DoNotSchedule', fooSelector, { minDomains: 3 })]);
		expect(run(pod, zones(), existing([['node-a', foo], ['node-x', foo]]))).toEqual([ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_CONSTRAINTS_NOT_MATCH, ERR_REASON_CONSTRAINTS_NOT_MATCH]);
	});

	it('skips PreFilter for a pod with only ScheduleAnyway constraints', () => {
		expect(run(incoming(foo, [spread(1, 'zone', 'ScheduleAnyway', fooSelector)]), zones(), [])).toBe('skip');
	});

	it('keeps its counts right as preemption removes and adds pods (PreFilterExtensions)', () => {
		const pod = incoming(foo, [spread(1, 'zone', 'DoNotSchedule', fooSelector)]);
		const pods = existing([['node-a', foo], ['node-b', foo]]);
		const cache = snapshotOf(zones(), pods);
		const plugin = new PodTopologySpread(undefined, fakeHandle(cache));
		const state = new CycleState();
		plugin.preFilter(state, pod);
		const nodeA = cache.get('node-a')!.clone();
		nodeA.removePod(pods[0].metadata.namespace + '/' + pods[0].metadata.name);
		plugin.removePod(state, pod, new PodInfo(pods[0]), nodeA);
		// zone1 now has 1 matching pod: 1 + 1 − 0 = 2 > 1 still; remove the second one too.
		expect(plugin.filter(state, pod, nodeA)?.allReasons()).toEqual([ERR_REASON_CONSTRAINTS_NOT_MATCH]);
		plugin.removePod(state, pod, new PodInfo(pods[1]), cache.get('node-b')!);
		expect(plugin.filter(state, pod, nodeA)).toBeUndefined();
		plugin.addPod(state, pod, new PodInfo(pods[1]), cache.get('node-b')!);
		expect(plugin.filter(state, pod, nodeA)?.allReasons()).toEqual([ERR_REASON_CONSTRAINTS_NOT_MATCH]);
	});
});
