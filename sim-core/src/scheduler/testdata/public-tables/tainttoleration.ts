/**
 * TaintToleration: upstream's tables in
 * pkg/scheduler/framework/plugins/tainttoleration/taint_toleration_test.go,
 * replayed through the public API. The nodes are tainted with kubectl
 * before each case (isolation 'relabel').
 */
import { labelled, pod, scoreOnly, type FilterVerdict, type NotExpressible, type PublicTable } from './table.ts';

type Taint = { key: string; value?: string; effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' };
type Toleration = { key?: string; operator?: string; value?: string; effect?: string };
const tainted = (name: string, taints: Taint[]) => labelled(name, {}, taints);
const tolerating = (name: string, tolerations: Toleration[]) => pod(name, { tolerations });

const GATED = 'needs the alpha TaintTolerationComparisonOperators gate (off by default in v1.36): the API server refuses a toleration with operator Gt or Lt';

export const taintTolerationScore: PublicTable = {
	test: 'TestTaintTolerationScore',
	source: 'tainttoleration/taint_toleration_test.go @04c0d74f',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'TaintToleration',
	profiles: [scoreOnly('taint-toleration', 'TaintToleration')],
	defaultProfile: 'taint-toleration',
	cases: [
		{
			name: 'node with taints tolerated by the pod, gets a higher score than those node with intolerable taints',
			nodes: [tainted('nodeA', [{ key: 'foo', value: 'bar', effect: 'PreferNoSchedule' }]), tainted('nodeB', [{ key: 'foo', value: 'blah', effect: 'PreferNoSchedule' }])],
			pod: tolerating('tt-score-1', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]),
			expect: { scores: { nodeA: 100, nodeB: 0 } },
		},
		{
			name: 'the nodes that all of their taints are tolerated by the pod, get the same score, no matter how many tolerable taints a node has',
			nodes: [
				tainted('nodeA', []),
				tainted('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
				tainted('nodeC', [
					{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
					{ key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
				]),
			],
			pod: tolerating('tt-score-2', [
				{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'PreferNoSchedule' },
				{ key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'PreferNoSchedule' },
			]),
			expect: { scores: { nodeA: 100, nodeB: 100, nodeC: 100 } },
		},
		{
			name: 'the more intolerable taints a node has, the lower score it gets.',
			nodes: [
				tainted('nodeA', []),
				tainted('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }]),
				tainted('nodeC', [
					{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
					{ key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
				]),
			],
			pod: tolerating('tt-score-3', [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }]),
			expect: { scores: { nodeA: 100, nodeB: 50, nodeC: 0 } },
		},
		{
			name: 'only taints and tolerations that have effect PreferNoSchedule are checked by taints-tolerations priority function',
			nodes: [
				tainted('nodeA', []),
				tainted('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'NoSchedule' }]),
				tainted('nodeC', [
					{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' },
					{ key: 'disk-type', value: 'ssd', effect: 'PreferNoSchedule' },
				]),
			],
			pod: tolerating('tt-score-4', [
				{ key: 'cpu-type', operator: 'Equal', value: 'arm64', effect: 'NoSchedule' },
				{ key: 'disk-type', operator: 'Equal', value: 'ssd', effect: 'NoSchedule' },
			]),
			expect: { scores: { nodeA: 100, nodeB: 100, nodeC: 0 } },
		},
		{
			name: 'Default behaviour No taints and tolerations, lands on node with no taints',
			nodes: [tainted('nodeA', []), tainted('nodeB', [{ key: 'cpu-type', value: 'arm64', effect: 'PreferNoSchedule' }])],
			pod: tolerating('tt-score-5', []),
			expect: { scores: { nodeA: 100, nodeB: 0 } },
		},
	],
	notExpressible: [
		{ name: 'Numeric Gt operator: pod with Gt toleration prefers nodes with matching SLA taint', why: GATED },
		{ name: 'Numeric Lt operator: pod with Lt toleration prefers nodes with matching SLA taint', why: GATED },
		{ name: 'Score ignores parse errors from numeric PreferNoSchedule taint value', why: GATED },
	],
};

const untolerated: FilterVerdict = { code: 'UnschedulableAndUnresolvable', reasons: ['node(s) had untolerated taint(s)'] };
const fits: FilterVerdict = { code: 'Success', reasons: [] };

const filterCase = (name: string, n: number, tolerations: Toleration[], taints: Taint[], verdict: FilterVerdict) => ({ name, nodes: [tainted('nodeA', taints)], pod: tolerating(`tt-filter-${n}`, tolerations), expect: { filter: { nodeA: verdict } } });

const gatedFilter: NotExpressible[] = [
	'Pod with Gt toleration cannot be scheduled on node when taint value is lower than threshold',
	'Pod with Gt toleration can be scheduled on node when taint value is higher than threshold',
	'Pod with Lt toleration cannot be scheduled on node when taint value is higher than threshold',
	'Pod with Lt toleration can be scheduled on node when taint value is lower than threshold',
	'Pod with Gt toleration cannot be scheduled on node with non-numeric taint value',
].map((name) => ({ name, why: GATED }));

export const taintTolerationFilter: PublicTable = {
	test: 'TestTaintTolerationFilter',
	source: 'tainttoleration/taint_toleration_test.go @04c0d74f',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'TaintToleration',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [
		filterCase("A pod having no tolerations can't be scheduled onto a node with nonempty taints", 1, [], [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], untolerated),
		filterCase('A pod which can be scheduled on a dedicated node assigned to user1 with effect NoSchedule', 2, [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], fits),
		filterCase("A pod which can't be scheduled on a dedicated node assigned to user2 with effect NoSchedule", 3, [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }], [{ key: 'dedicated', value: 'user1', effect: 'NoSchedule' }], untolerated),
		filterCase('A pod can be scheduled onto the node, with a toleration uses operator Exists that tolerates the taints on the node', 4, [{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' }], [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], fits),
		filterCase(
			'A pod has multiple tolerations, node has multiple taints, all the taints are tolerated, pod can be scheduled onto the node',
			5,
			[
				{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' },
				{ key: 'foo', operator: 'Exists', effect: 'NoSchedule' },
			],
			[
				{ key: 'dedicated', value: 'user2', effect: 'NoSchedule' },
				{ key: 'foo', value: 'bar', effect: 'NoSchedule' },
			],
			fits,
		),
		filterCase("A pod has a toleration that keys and values match the taint on the node, but (non-empty) effect doesn't match, can't be scheduled onto the node", 6, [{ key: 'foo', operator: 'Equal', value: 'bar', effect: 'PreferNoSchedule' }], [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], untolerated),
		filterCase('The pod has a toleration that keys and values match the taint on the node, the effect of toleration is empty, and the effect of taint is NoSchedule. Pod can be scheduled onto the node', 7, [{ key: 'foo', operator: 'Equal', value: 'bar' }], [{ key: 'foo', value: 'bar', effect: 'NoSchedule' }], fits),
		filterCase("The pod has a toleration that key and value don't match the taint on the node, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node", 8, [{ key: 'dedicated', operator: 'Equal', value: 'user2', effect: 'NoSchedule' }], [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], fits),
		filterCase('The pod has no toleration, but the effect of taint on node is PreferNoSchedule. Pod can be scheduled onto the node', 9, [], [{ key: 'dedicated', value: 'user1', effect: 'PreferNoSchedule' }], fits),
	],
	notExpressible: gatedFilter,
};

export const taintTolerationFilterWithFeatureGate: PublicTable = {
	test: 'TestTaintTolerationFilterWithFeatureGate',
	source: 'tainttoleration/taint_toleration_test.go @04c0d74f',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'TaintToleration',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [],
	notExpressible: [
		{ name: 'Pod with Gt toleration can be scheduled when feature gate is enabled and taint value is higher', why: GATED },
		{ name: 'Pod with Gt toleration cannot be scheduled when feature gate is disabled', why: 'with the gate off (the default) the API server refuses the pod: a toleration operator must be Exists or Equal' },
		{ name: 'Pod with Lt toleration can be scheduled when feature gate is enabled and taint value is lower', why: GATED },
		{ name: 'Pod with Lt toleration cannot be scheduled when feature gate is disabled', why: 'with the gate off the API server refuses the pod (see above)' },
		{ name: 'Pod with mixed tolerations (Equal and Gt) when feature gate is disabled - only Equal is honored', why: 'with the gate off the API server refuses the pod (see above)' },
		{ name: 'Pod with mixed tolerations, Gt toleration needed but filtered out when feature gate is disabled', why: 'with the gate off the API server refuses the pod (see above)' },
	],
};
