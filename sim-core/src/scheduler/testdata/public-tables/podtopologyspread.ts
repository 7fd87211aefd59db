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
