/**
 * PodTopologySpread: upstream's TestPodTopologySpreadScore
 * (pkg/scheduler/framework/plugins/podtopologyspread/scoring_test.go),
 * replayed through the public API. The nodes are labelled with kubectl
 * before each case (isolation 'relabel'); upstream's failed nodes (in the
 * snapshot, not candidates) are cordoned, so their pods still count for the
 * candidates' topology domains while the pod cannot go there.
 *
 * Upstream's nodes carry only the labels the test gives them; here every
 * kubelet also sets kubernetes.io/hostname (its node name), os and arch,
 * which the cases' topology keys (hostname, zone, node) read the same way.
 */
import type { KubeObject } from '../../../index.ts';
import { boundPods, labelled, pod, scoreOnly, type PodOptions, type PublicTable, type TableCase } from './table.ts';

const HOST = 'kubernetes.io/hostname';
type Selector = Record<string, unknown> | null;
const fooSelector: Selector = { matchExpressions: [{ key: 'foo', operator: 'Exists' }] };
const barSelector: Selector = { matchExpressions: [{ key: 'bar', operator: 'Exists' }] };
const spread = (maxSkew: number, topologyKey: string, labelSelector: Selector, extra: Record<string, unknown> = {}) => ({ maxSkew, topologyKey, whenUnsatisfiable: 'ScheduleAnyway', ...(labelSelector ? { labelSelector } : {}), ...extra });
const foo = { foo: '' };
const bar = { bar: '' };
const fooBar = { foo: '', bar: '' };
const incoming = (name: string, labels: Record<string, string>, constraints: Array<Record<string, unknown>>, extra: PodOptions = {}) => pod(name, { labels, ...(constraints.length ? { topologySpreadConstraints: constraints } : {}), ...extra });
/** Existing pods: [node, labels] each. */
const on = (prefix: string, list: Array<[string, Record<string, string>, PodOptions?]>) => boundPods(prefix, list.map(([node, labels, extra]) => [node, { labels, ...(extra ?? {}) }]));
const plain = (...names: string[]) => names.map((n) => labelled(n));
const zoned = (...list: Array<[string, string]>) => list.map(([n, zone]) => labelled(n, { zone }));

/** A profile scoring with PodTopologySpread only, with some of the default filters off. */
const ptsProfile = (schedulerName: string, offFilters: string[] = []) =>
	scoreOnly(schedulerName, 'PodTopologySpread', undefined, offFilters.length ? { plugins: { preFilter: { disabled: offFilters.map((name) => ({ name })) }, filter: { disabled: offFilters.map((name) => ({ name })) } } } : {});
const CANDIDATE_NOTE = (plugin: string) => `upstream scores node-c although the pod's ${plugin === 'NodeAffinity' ? 'node selector or affinity leaves it out' : 'tolerations leave its taint untolerated'}; for node-c to be a candidate the profile turns ${plugin}'s Filter off (PodTopologySpread's node inclusion policy is what the case is about)`;
const TAINT_NOTE = "upstream's taint is node.kubernetes.io/unschedulable:NoSchedule, which the node lifecycle controller keeps in step with spec.unschedulable (it removes it from a schedulable node); any other untolerated NoSchedule taint makes the same case";

const cases: TableCase[] = [
	{ name: 'one constraint on node, no existing pods', nodes: plain('node-a', 'node-b'), pod: incoming('pts-1', foo, [spread(1, HOST, fooSelector)]), expect: { scores: { 'node-a': 100, 'node-b': 100 } } },
	{
		name: 'one constraint on node, all nodes have the same number of matching pods',
		nodes: plain('node-a', 'node-b'),
		existingPods: on('pts-3', [
			['node-a', foo],
			['node-b', foo],
		]),
		pod: incoming('pts-3', foo, [spread(1, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 100, 'node-b': 100 } },
	},
	{
		name: 'one constraint on node, all 4 nodes are candidates',
		nodes: plain('node-a', 'node-b', 'node-c', 'node-d'),
		existingPods: on('pts-4', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-d', foo],
			['node-d', foo],
			['node-d', foo],
		]),
		pod: incoming('pts-4', foo, [spread(1, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 20, 'node-b': 60, 'node-c': 100, 'node-d': 0 } },
	},
	{
		name: 'one constraint on node, null selector',
		nodes: plain('node-a', 'node-b', 'node-c', 'node-d'),
		existingPods: on('pts-5', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-d', foo],
			['node-d', foo],
			['node-d', foo],
		]),
		pod: incoming('pts-5', foo, [spread(1, HOST, null)]),
		expect: { scores: { 'node-a': 100, 'node-b': 100, 'node-c': 100, 'node-d': 100 } },
	},
	{
		name: 'one constraint on node, all 4 nodes are candidates, maxSkew=2',
		nodes: plain('node-a', 'node-b', 'node-c', 'node-d'),
		existingPods: on('pts-6', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-d', foo],
			['node-d', foo],
			['node-d', foo],
		]),
		pod: incoming('pts-6', foo, [spread(2, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 33, 'node-b': 66, 'node-c': 100, 'node-d': 16 } },
	},
	{
		name: 'one constraint on node, all 4 nodes are candidates, maxSkew=3',
		nodes: plain('node-a', 'node-b', 'node-c', 'node-d'),
		existingPods: on('pts-7', [
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-b', foo],
			['node-c', foo],
			['node-c', foo],
			['node-d', foo],
		]),
		pod: incoming('pts-7', foo, [spread(3, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 } },
	},
	{
		name: "system defaulting, nodes don't have zone, pods match service",
		nodes: plain('node-a', 'node-b', 'node-c', 'node-d'),
		objects: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'pts-8', namespace: 'default' }, spec: { selector: { foo: '' }, ports: [{ port: 80 }] } } as KubeObject],
		existingPods: on('pts-8', [
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-b', foo],
			['node-c', foo],
			['node-c', foo],
			['node-d', foo],
		]),
		pod: incoming('pts-8', foo, []),
		note: "the Service gets a port (80): the API server requires one for a ClusterIP Service, upstream's fake client does not",
		expect: { scores: { 'node-a': 44, 'node-b': 66, 'node-c': 77, 'node-d': 100 } },
	},
	{
		name: 'one constraint on node, 3 out of 4 nodes are candidates',
		nodes: plain('node-a', 'node-b', 'node-x'),
		failedNodes: plain('node-y'),
		existingPods: on('pts-9', [
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-x', foo],
			['node-y', foo],
			['node-y', foo],
			['node-y', foo],
		]),
		pod: incoming('pts-9', foo, [spread(1, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 33, 'node-b': 83, 'node-x': 100 } },
	},
	{
		name: "one constraint on node, 3 out of 4 nodes are candidates, one node doesn't match topology key",
		nodes: [labelled('node-a'), labelled('node-b', { n: 'node-b' }), labelled('node-x')],
		removeLabels: { 'node-b': [HOST] },
		failedNodes: plain('node-y'),
		existingPods: on('pts-10', [
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-x', foo],
			['node-y', foo],
			['node-y', foo],
			['node-y', foo],
		]),
		pod: incoming('pts-10', foo, [spread(1, HOST, fooSelector)]),
		note: "node-b's kubernetes.io/hostname label, which its kubelet set at registration, is removed with kubectl",
		expect: { scores: { 'node-a': 16, 'node-b': 0, 'node-x': 100 } },
	},
	{
		name: 'one constraint on zone, 3 out of 4 nodes are candidates',
		nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2']),
		failedNodes: zoned(['node-y', 'zone2']),
		existingPods: on('pts-11', [
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-x', foo],
			['node-y', foo],
			['node-y', foo],
			['node-y', foo],
		]),
		pod: incoming('pts-11', foo, [spread(1, 'zone', fooSelector)]),
		expect: { scores: { 'node-a': 75, 'node-b': 75, 'node-x': 100 } },
	},
	{
		name: 'two Constraints on zone and node, 2 out of 4 nodes are candidates',
		nodes: zoned(['node-a', 'zone1'], ['node-x', 'zone2']),
		failedNodes: zoned(['node-b', 'zone1'], ['node-y', 'zone2']),
		existingPods: on('pts-12', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-x', foo],
			['node-x', foo],
			['node-y', foo],
			['node-y', foo],
			['node-y', foo],
			['node-y', foo],
		]),
		pod: incoming('pts-12', foo, [spread(1, 'zone', fooSelector), spread(1, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 100, 'node-x': 63 } },
	},
	{
		name: 'two Constraints on zone and node, with different labelSelectors',
		nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2'], ['node-y', 'zone2']),
		existingPods: on('pts-13', [
			['node-a', foo],
			['node-b', fooBar],
			['node-y', foo],
			['node-y', bar],
		]),
		pod: incoming('pts-13', fooBar, [spread(1, 'zone', fooSelector), spread(1, HOST, barSelector)]),
		expect: { scores: { 'node-a': 60, 'node-b': 20, 'node-x': 100, 'node-y': 60 } },
	},
	{
		name: 'two Constraints on zone and node, with different labelSelectors, some nodes have 0 pods',
		nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2'], ['node-y', 'zone2']),
		existingPods: on('pts-14', [
			['node-b', bar],
			['node-x', foo],
			['node-y', fooBar],
		]),
		pod: incoming('pts-14', fooBar, [spread(1, 'zone', fooSelector), spread(1, HOST, barSelector)]),
		expect: { scores: { 'node-a': 100, 'node-b': 60, 'node-x': 40, 'node-y': 0 } },
	},
	{
		name: 'two Constraints on zone and node, with different labelSelectors, 3 out of 4 nodes are candidates',
		nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-x', 'zone2']),
		failedNodes: zoned(['node-y', 'zone2']),
		existingPods: on('pts-15', [
			['node-a', foo],
			['node-b', fooBar],
			['node-y', foo],
			['node-y', bar],
		]),
		pod: incoming('pts-15', fooBar, [spread(1, 'zone', fooSelector), spread(1, HOST, barSelector)]),
		expect: { scores: { 'node-a': 50, 'node-b': 25, 'node-x': 100 } },
	},
	{
		name: 'existing pods in a different namespace do not count',
		nodes: plain('node-a', 'node-b'),
		objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } } as KubeObject],
		existingPods: on('pts-16', [
			['node-a', foo, { namespace: 'ns1' }],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
		]),
		pod: incoming('pts-16', foo, [spread(1, HOST, fooSelector)]),
		expect: { scores: { 'node-a': 100, 'node-b': 33 } },
	},
	{
		name: 'terminating Pods should be excluded',
		nodes: plain('node-a', 'node-b'),
		existingPods: on('pts-17', [
			['node-a', foo, { finalizers: ['example.com/keep'] }],
			['node-b', foo],
		]),
		terminating: ['pts-17-0'],
		pod: incoming('pts-17', foo, [spread(1, HOST, fooSelector)]),
		note: 'the terminating pod is deleted with a finalizer holding it, so it stays Terminating (deletionTimestamp set) while the pod is scheduled',
		expect: { scores: { 'node-a': 100, 'node-b': 0 } },
	},
	{
		name: 'NodeAffinityPolicy honoed with labelSelectors',
		nodes: [labelled('node-a', { node: 'node-a', foo: '' }), labelled('node-b', { node: 'node-b', foo: '' }), labelled('node-c', { node: 'node-c' })],
		existingPods: on('pts-19', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-c', foo],
		]),
		pod: incoming('pts-19', foo, [spread(1, 'node', fooSelector)], { nodeSelector: { foo: '' } }),
		profile: 'pod-topology-spread-no-node-affinity-filter',
		note: CANDIDATE_NOTE('NodeAffinity'),
		expect: { scores: { 'node-a': 0, 'node-b': 33, 'node-c': 100 } },
	},
	{
		name: 'NodeAffinityPolicy ignored with labelSelectors',
		nodes: [labelled('node-a', { node: 'node-a', foo: '' }), labelled('node-b', { node: 'node-b', foo: '' }), labelled('node-c', { node: 'node-c' })],
		existingPods: on('pts-20', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-c', foo],
		]),
		pod: incoming('pts-20', foo, [spread(1, 'node', fooSelector, { nodeAffinityPolicy: 'Ignore' })], { nodeSelector: { foo: '' } }),
		profile: 'pod-topology-spread-no-node-affinity-filter',
		note: CANDIDATE_NOTE('NodeAffinity'),
		expect: { scores: { 'node-a': 66, 'node-b': 100, 'node-c': 100 } },
	},
	{
		name: 'NodeAffinityPolicy honoed with nodeAffinity',
		nodes: [labelled('node-a', { node: 'node-a', foo: '' }), labelled('node-b', { node: 'node-b', foo: '' }), labelled('node-c', { node: 'node-c' })],
		existingPods: on('pts-21', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-c', foo],
		]),
		pod: incoming('pts-21', foo, [spread(1, 'node', fooSelector)], { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: [''] }] }] } } } }),
		profile: 'pod-topology-spread-no-node-affinity-filter',
		note: CANDIDATE_NOTE('NodeAffinity'),
		expect: { scores: { 'node-a': 0, 'node-b': 33, 'node-c': 100 } },
	},
	{
		name: 'NodeAffinityPolicy ignored with nodeAffinity',
		nodes: [labelled('node-a', { node: 'node-a', foo: '' }), labelled('node-b', { node: 'node-b', foo: '' }), labelled('node-c', { node: 'node-c' })],
		existingPods: on('pts-22', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-c', foo],
		]),
		pod: incoming('pts-22', foo, [spread(1, 'node', fooSelector, { nodeAffinityPolicy: 'Ignore' })], { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'foo', operator: 'In', values: [''] }] }] } } } }),
		profile: 'pod-topology-spread-no-node-affinity-filter',
		note: CANDIDATE_NOTE('NodeAffinity'),
		expect: { scores: { 'node-a': 66, 'node-b': 100, 'node-c': 100 } },
	},
	{
		name: 'NodeTaintsPolicy honored',
		nodes: [labelled('node-a', { node: 'node-a' }), labelled('node-b', { node: 'node-b' }), labelled('node-c', { node: 'node-c' }, [{ key: 'taint', effect: 'NoSchedule' }])],
		existingPods: on('pts-23', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-c', foo],
		]),
		pod: incoming('pts-23', foo, [spread(1, 'node', fooSelector, { nodeTaintsPolicy: 'Honor' })]),
		profile: 'pod-topology-spread-no-taint-filter',
		note: `${CANDIDATE_NOTE('TaintToleration')}; ${TAINT_NOTE}`,
		expect: { scores: { 'node-a': 0, 'node-b': 33, 'node-c': 100 } },
	},
	{
		name: 'NodeTaintsPolicy ignored',
		nodes: [labelled('node-a', { node: 'node-a' }), labelled('node-b', { node: 'node-b' }), labelled('node-c', { node: 'node-c' }, [{ key: 'taint', effect: 'NoSchedule' }])],
		existingPods: on('pts-24', [
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-c', foo],
		]),
		pod: incoming('pts-24', foo, [spread(1, 'node', fooSelector)]),
		profile: 'pod-topology-spread-no-taint-filter',
		note: `${CANDIDATE_NOTE('TaintToleration')}; ${TAINT_NOTE}`,
		expect: { scores: { 'node-a': 66, 'node-b': 100, 'node-c': 100 } },
	},
	{
		name: 'matchLabelKeys ANDed with LabelSelector when LabelSelector is empty',
		nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-c', 'zone2'], ['node-d', 'zone2']),
		existingPods: on('pts-26', [
			['node-a', foo],
			['node-b', fooBar],
			['node-c', foo],
			['node-c', bar],
		]),
		pod: incoming('pts-26', fooBar, [spread(1, 'zone', {}, { matchLabelKeys: ['foo'] }), spread(1, HOST, {}, { matchLabelKeys: ['bar'] })]),
		expect: { scores: { 'node-a': 60, 'node-b': 20, 'node-c': 60, 'node-d': 100 } },
	},
	{
		name: "matchLabelKeys ANDed with LabelSelector when LabelSelector isn't empty",
		nodes: zoned(['node-a', 'zone1'], ['node-b', 'zone1'], ['node-c', 'zone2'], ['node-d', 'zone2']),
		existingPods: on('pts-27', [
			['node-a', foo],
			['node-b', { foo: '', bar: '', baz: '' }],
			['node-c', foo],
			['node-c', bar],
			['node-c', { bar: '', baz: '' }],
		]),
		pod: incoming('pts-27', { foo: '', bar: '', baz: '' }, [spread(1, 'zone', fooSelector), spread(1, HOST, barSelector, { matchLabelKeys: ['baz'] })]),
		expect: { scores: { 'node-a': 60, 'node-b': 20, 'node-c': 60, 'node-d': 100 } },
	},
];

export const podTopologySpreadScore: PublicTable = {
	test: 'TestPodTopologySpreadScore',
	source: 'podtopologyspread/scoring_test.go @38f68d59',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'PodTopologySpread',
	profiles: [ptsProfile('pod-topology-spread'), ptsProfile('pod-topology-spread-no-node-affinity-filter', ['NodeAffinity']), ptsProfile('pod-topology-spread-no-taint-filter', ['TaintToleration'])],
	defaultProfile: 'pod-topology-spread',
	cases,
	notExpressible: [
		{ name: 'one constraint on node, only one node is candidate', why: 'with a single feasible node the framework runs neither PreScore nor Score (schedulePod returns the one node), so there is no score to read' },
		{ name: 'minDomains has no effect when ScheduleAnyway', why: 'the API server refuses the pod: minDomains may only be set with whenUnsatisfiable DoNotSchedule (upstream says so in the case\'s comment)' },
		{ name: 'matchLabelKeys ignored when feature gate disabled', why: 'needs the MatchLabelKeysInPodTopologySpread gate off; it is on in v1.36' },
	],
};

// ---- Filter: TestSingleConstraint and TestMultipleConstraints (filtering_test.go) ---------

type Code = 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable';
const hard = (maxSkew: number, topologyKey: string, labelSelector: Selector, extra: Record<string, unknown> = {}) => ({ maxSkew, topologyKey, whenUnsatisfiable: 'DoNotSchedule', ...(labelSelector ? { labelSelector } : {}), ...extra });
/** Upstream's usual four nodes: node-a, node-b in zone1, node-x, node-y in zone2, each with node=<name>. */
const fourNodes = (extra: Record<string, Record<string, string>> = {}) =>
	(
		[
			['node-a', 'zone1'],
			['node-b', 'zone1'],
			['node-x', 'zone2'],
			['node-y', 'zone2'],
		] as const
	).map(([name, zone]) => labelled(name, { zone, node: name, ...(extra[name] ?? {}) }));
const nodeLabelled = (...names: string[]) => names.map((n) => labelled(n, { node: n }));
let sc = 0;
/** A filter case: nodes, existing pods [node, labels, extra?], the pod (labels, constraints, extra) and the code on each node. */
const spreadFilter = (name: string, nodesOf: ReturnType<typeof labelled>[], existing: Array<[string, Record<string, string>, PodOptions?]>, labels: Record<string, string>, constraints: Array<Record<string, unknown>>, codes: Record<string, Code>, extra: PodOptions = {}, more: Partial<TableCase> = {}): TableCase => {
	const k = ++sc;
	return {
		name,
		nodes: nodesOf,
		existingPods: boundPods(`pts-f-${k}`, existing.map(([node, l, e]) => [node, { labels: l, ...(e ?? {}) }])),
		pod: pod(`pts-f-${k}`, { labels, topologySpreadConstraints: constraints, ...extra }),
		expect: { filterCodes: codes },
		...more,
	};
};
const all = (code: Code, ...names: string[]): Record<string, Code> => Object.fromEntries(names.map((n) => [n, code]));
const ABXY = ['node-a', 'node-b', 'node-x', 'node-y'];
const codes = (a: Code, b: Code, x: Code, y: Code): Record<string, Code> => ({ 'node-a': a, 'node-b': b, 'node-x': x, 'node-y': y });
const S: Code = 'Success';
const U: Code = 'Unschedulable';
const UU: Code = 'UnschedulableAndUnresolvable';
const spread2103: Array<[string, Record<string, string>]> = [
	['node-a', foo],
	['node-a', foo],
	['node-b', foo],
	['node-y', foo],
	['node-y', foo],
	['node-y', foo],
];
const nodeAffinityIn = (key: string, values: string[], operator = 'In') => ({ affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key, operator, values }] }] } } } });
/** node-y tainted as upstream's `taints` (node.kubernetes.io/unschedulable:NoSchedule): cordoned, so the node lifecycle controller keeps that taint on it. */
const taintedY = (labels: Record<string, string>) => ({ failedNodes: [labelled('node-y', labels)] });
const FILTER_PROFILE_NOTE = "upstream runs PodTopologySpread's Filter alone; the profile turns NodeUnschedulable's, TaintToleration's and NodeAffinity's Filter off so that every node reaches it";
const existing111: Array<[string, Record<string, string>]> = [
	['node-a', foo],
	['node-b', foo],
	['node-y', foo],
];

const singleConstraintCases: TableCase[] = [
	spreadFilter('no existing pods', fourNodes(), [], foo, [hard(1, 'zone', fooSelector)], all(S, ...ABXY)),
	spreadFilter("no existing pods, incoming pod doesn't match itself", fourNodes(), [], foo, [hard(1, 'zone', barSelector)], all(S, ...ABXY)),
	spreadFilter(
		'existing pods in a different namespace do not count',
		fourNodes(),
		[
			['node-a', foo, { namespace: 'ns1' }],
			['node-a', foo, { namespace: 'ns2' }],
			['node-x', foo],
			['node-y', foo],
		],
		foo,
		[hard(1, 'zone', fooSelector)],
		codes(S, S, U, U),
		{},
		{ objects: [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } } as KubeObject, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns2' } } as KubeObject] },
	),
	spreadFilter(
		'existing pods do not match null selector',
		fourNodes(),
		[
			['node-x', foo],
			['node-y', foo],
		],
		foo,
		[hard(1, 'zone', null)],
		all(S, ...ABXY),
	),
	spreadFilter('pods spread across zones as 3/3, all nodes fit', fourNodes(), spread2103, foo, [hard(1, 'zone', fooSelector)], all(S, ...ABXY)),
	spreadFilter(
		"pods spread across zones as 1/2 due to absence of label 'zone' on node-b",
		[labelled('node-a', { zone: 'zone1', node: 'node-a' }), labelled('node-b', { zon: 'zone1', node: 'node-b' }), labelled('node-x', { zone: 'zone2', node: 'node-x' }), labelled('node-y', { zone: 'zone2', node: 'node-y' })],
		[
			['node-a', foo],
			['node-b', foo],
			['node-x', foo],
			['node-y', foo],
		],
		foo,
		[hard(1, 'zone', fooSelector)],
		codes(S, UU, U, U),
	),
	spreadFilter("pod cannot be scheduled as all nodes don't have label 'rack'", [labelled('node-a', { zone: 'zone1', node: 'node-a' }), labelled('node-x', { zone: 'zone2', node: 'node-x' })], [], foo, [hard(1, 'rack', fooSelector)], all(UU, 'node-a', 'node-x')),
	spreadFilter('pods spread across nodes as 2/1/0/3, only node-x fits', fourNodes(), spread2103, foo, [hard(1, 'node', fooSelector)], codes(U, U, S, U)),
	spreadFilter('pods spread across nodes as 2/1/0/3, maxSkew is 2, node-b and node-x fit', fourNodes(), spread2103, foo, [hard(2, 'node', fooSelector)], codes(U, S, S, U)),
	spreadFilter("pods spread across nodes as 2/1/0/3, but pod doesn't match itself", fourNodes(), spread2103, bar, [hard(1, 'node', fooSelector)], codes(U, S, S, U)),
	spreadFilter('incoming pod has nodeAffinity, pods spread as 2/~1~/~0~/3, hence node-a fits', fourNodes(), spread2103, foo, [hard(1, 'node', fooSelector)], codes(S, S, S, U), nodeAffinityIn('node', ['node-a', 'node-y'])),
	spreadFilter(
		'terminating Pods should be excluded',
		nodeLabelled('node-a', 'node-b'),
		[
			['node-a', foo, { finalizers: ['example.com/keep'] }],
			['node-b', foo],
		],
		foo,
		[hard(1, 'node', fooSelector)],
		{ 'node-a': S, 'node-b': U },
		{},
		{ terminating: [`pts-f-${sc + 1}-0`], note: 'the terminating pod is deleted with a finalizer holding it' },
	),
	spreadFilter(
		'incoming pod has nodeAffinity, pods spread as 0/~2~/0/1, hence node-a fits',
		fourNodes(),
		[
			['node-b', foo],
			['node-b', foo],
			['node-y', foo],
		],
		foo,
		[hard(1, 'zone', fooSelector)],
		codes(S, S, U, U),
		nodeAffinityIn('node', ['node-b'], 'NotIn'),
	),
	spreadFilter(
		'pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains < minDomains, then the third node fits',
		nodeLabelled('node-a', 'node-b', 'node-c'),
		[
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-c', foo],
		],
		foo,
		[hard(2, 'node', fooSelector, { minDomains: 4 })],
		{ 'node-a': U, 'node-b': U, 'node-c': S },
	),
	spreadFilter(
		'pods spread across nodes as 2/2/1, maxSkew is 2, and the number of domains > minDomains, then the all nodes fit',
		nodeLabelled('node-a', 'node-b', 'node-c'),
		[
			['node-a', foo],
			['node-a', foo],
			['node-b', foo],
			['node-b', foo],
			['node-c', foo],
		],
		foo,
		[hard(2, 'node', fooSelector, { minDomains: 2 })],
		all(S, 'node-a', 'node-b', 'node-c'),
	),
	spreadFilter(
		'pods spread across zone as 2/1, maxSkew is 2 and the number of domains < minDomains, then the third and fourth nodes fit',
		fourNodes(),
		existing111,
		foo,
		[hard(2, 'zone', fooSelector, { minDomains: 3 })],
		codes(U, U, S, S),
	),
	spreadFilter('pods spread across zone as 2/1, maxSkew is 2 and the number of domains > minDomains, then the all nodes fit', fourNodes(), existing111, foo, [hard(2, 'zone', fooSelector, { minDomains: 1 })], all(S, ...ABXY)),
	spreadFilter(
		'NodeAffinityPolicy honored with labelSelectors',
		nodeLabelled('node-a', 'node-b', 'node-x', 'node-y').map((n) => (n.name === 'node-y' ? n : { ...n, labels: { ...n.labels, foo: '' } })),
		existing111,
		foo,
		[hard(1, 'node', fooSelector)],
		codes(U, U, S, S),
		{ nodeSelector: { foo: '' } },
	),
	spreadFilter(
		'NodeAffinityPolicy ignored with labelSelectors',
		nodeLabelled('node-a', 'node-b', 'node-x', 'node-y').map((n) => (n.name === 'node-y' ? n : { ...n, labels: { ...n.labels, foo: '' } })),
		existing111,
		foo,
		[hard(1, 'node', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
		codes(U, U, S, U),
		{ nodeSelector: { foo: '' } },
	),
	spreadFilter(
		'NodeAffinityPolicy honored with nodeAffinity',
		nodeLabelled('node-a', 'node-b', 'node-x', 'node-y').map((n) => (n.name === 'node-y' ? n : { ...n, labels: { ...n.labels, foo: '' } })),
		existing111,
		foo,
		[hard(1, 'node', fooSelector)],
		codes(U, U, S, S),
		nodeAffinityIn('foo', ['']),
	),
	{
		// Go's t.Run names the second subtest of a name with #01 (upstream reuses the name for the nodeAffinity variant).
		...spreadFilter(
			'NodeAffinityPolicy ignored with labelSelectors#01',
			nodeLabelled('node-a', 'node-b', 'node-x', 'node-y').map((n) => (n.name === 'node-y' ? n : { ...n, labels: { ...n.labels, foo: '' } })),
			existing111,
			foo,
			[hard(1, 'node', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
			codes(U, U, S, U),
			nodeAffinityIn('foo', ['']),
		),
	},
	spreadFilter(
		'NodeTaintsPolicy honored',
		nodeLabelled('node-a', 'node-b', 'node-x').map((n) => ({ ...n, labels: { ...n.labels, foo: '' } })),
		existing111,
		foo,
		[hard(1, 'node', fooSelector, { nodeTaintsPolicy: 'Honor' })],
		codes(U, U, S, S),
		{},
		taintedY({ node: 'node-y' }),
	),
	spreadFilter('NodeTaintsPolicy ignored', nodeLabelled('node-a', 'node-b', 'node-x').map((n) => ({ ...n, labels: { ...n.labels, foo: '' } })), existing111, foo, [hard(1, 'node', fooSelector)], codes(U, U, S, U), {}, taintedY({ node: 'node-y' })),
];

export const singleConstraint: PublicTable = {
	test: 'TestSingleConstraint',
	source: 'podtopologyspread/filtering_test.go',
	isolation: 'exact',
	plugin: 'PodTopologySpread',
	profiles: [{ schedulerName: 'pod-topology-spread-filter', plugins: { preFilter: { disabled: [{ name: 'NodeAffinity' }] }, filter: { disabled: [{ name: 'NodeUnschedulable' }, { name: 'TaintToleration' }, { name: 'NodeAffinity' }] } } }],
	defaultProfile: 'pod-topology-spread-filter',
	cases: singleConstraintCases.map((c) => ({ ...c, note: c.note ? `${c.note}; ${FILTER_PROFILE_NOTE}` : FILTER_PROFILE_NOTE })),
	notExpressible: [],
};

const multipleConstraintCases: TableCase[] = [
	spreadFilter('two Constraints on zone and node, spreads = [3/3, 2/1/0/3]', fourNodes(), spread2103, foo, [hard(1, 'zone', fooSelector), hard(1, 'node', fooSelector)], codes(U, U, S, U)),
	spreadFilter('two Constraints on zone and node, spreads = [3/4, 2/1/0/4]', fourNodes(), [...spread2103, ['node-y', foo]], foo, [hard(1, 'zone', fooSelector), hard(1, 'node', fooSelector)], all(U, ...ABXY)),
	spreadFilter(
		'Constraints hold different labelSelectors, spreads = [1/0, 1/0/0/1]',
		fourNodes(),
		[
			['node-a', foo],
			['node-y', bar],
		],
		fooBar,
		[hard(1, 'zone', fooSelector), hard(1, 'node', barSelector)],
		codes(U, U, S, U),
	),
	spreadFilter(
		'Constraints hold different labelSelectors, spreads = [1/0, 0/0/1/1]',
		fourNodes(),
		[
			['node-a', foo],
			['node-x', bar],
			['node-y', bar],
		],
		fooBar,
		[hard(1, 'zone', fooSelector), hard(1, 'node', barSelector)],
		all(U, ...ABXY),
	),
	spreadFilter(
		'Constraints hold different labelSelectors, spreads = [2/3, 1/0/0/1]',
		fourNodes(),
		[
			['node-a', foo],
			['node-a', fooBar],
			['node-y', foo],
			['node-y', fooBar],
			['node-y', foo],
		],
		fooBar,
		[hard(1, 'zone', fooSelector), hard(1, 'node', barSelector)],
		codes(U, S, U, U),
	),
	spreadFilter(
		"Constraints hold different labelSelectors but pod doesn't match itself on 'zone' constraint",
		fourNodes(),
		[
			['node-a', foo],
			['node-x', bar],
			['node-y', bar],
		],
		bar,
		[hard(1, 'zone', fooSelector), hard(1, 'node', barSelector)],
		codes(S, S, U, U),
	),
	spreadFilter(
		"two Constraints on zone and node, absence of label 'node' on node-x, spreads = [1/1, 1/0/0/1]",
		[labelled('node-a', { zone: 'zone1', node: 'node-a' }), labelled('node-b', { zone: 'zone1', node: 'node-b' }), labelled('node-x', { zone: 'zone2' }), labelled('node-y', { zone: 'zone2', node: 'node-y' })],
		[
			['node-a', foo],
			['node-y', foo],
		],
		foo,
		[hard(1, 'zone', fooSelector), hard(1, 'node', fooSelector)],
		codes(U, S, UU, U),
	),
	spreadFilter(
		'two node inclusion Constraints, zone: honor/ignore, node: ignore/ignore',
		fourNodes({ 'node-a': foo, 'node-b': foo, 'node-x': foo }),
		existing111,
		foo,
		[hard(1, 'zone', fooSelector), hard(1, 'node', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
		codes(U, U, S, U),
		{ nodeSelector: { foo: '' } },
	),
	spreadFilter(
		'two node inclusion Constraints, zone: honor/honor, node: honor/ignore',
		fourNodes({ 'node-a': foo, 'node-b': foo, 'node-x': foo }).filter((n) => n.name !== 'node-y'),
		existing111,
		foo,
		[hard(1, 'zone', fooSelector, { nodeTaintsPolicy: 'Honor' }), hard(1, 'node', fooSelector)],
		codes(U, U, S, U),
		{},
		taintedY({ zone: 'zone2', node: 'node-y' }),
	),
	spreadFilter(
		'two node inclusion Constraints, zone: honor/ignore, node: honor/ignore',
		fourNodes({ 'node-a': foo, 'node-x': foo }).filter((n) => n.name !== 'node-y'),
		existing111,
		foo,
		[hard(1, 'zone', fooSelector), hard(1, 'node', fooSelector)],
		codes(U, S, S, U),
		{ nodeSelector: { foo: '' } },
		taintedY({ zone: 'zone2', node: 'node-y', foo: '' }),
	),
	spreadFilter(
		'two node inclusion Constraints, zone: honor/honor, node: ignore/ignore',
		fourNodes({ 'node-a': foo, 'node-x': foo }).filter((n) => n.name !== 'node-y'),
		existing111,
		foo,
		[hard(1, 'zone', fooSelector, { nodeTaintsPolicy: 'Honor' }), hard(1, 'node', fooSelector, { nodeAffinityPolicy: 'Ignore' })],
		codes(U, U, S, U),
		{ nodeSelector: { foo: '' } },
		taintedY({ zone: 'zone2', node: 'node-y', foo: '' }),
	),
];

export const multipleConstraints: PublicTable = {
	test: 'TestMultipleConstraints',
	source: 'podtopologyspread/filtering_test.go',
	isolation: 'exact',
	plugin: 'PodTopologySpread',
	profiles: [],
	defaultProfile: 'pod-topology-spread-filter',
	cases: multipleConstraintCases.map((c) => ({ ...c, note: c.note ? `${c.note}; ${FILTER_PROFILE_NOTE}` : FILTER_PROFILE_NOTE })),
	notExpressible: [],
};
