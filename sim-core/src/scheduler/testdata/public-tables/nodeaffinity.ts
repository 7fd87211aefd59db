/**
 * NodeAffinity: upstream's tables in
 * pkg/scheduler/framework/plugins/nodeaffinity/node_affinity_test.go,
 * replayed through the public API. The nodes are labelled with kubectl
 * before each case (isolation 'relabel').
 */
import { labelled, pod, scoreOnly, type FilterVerdict, type PublicTable, type TableCase } from './table.ts';

type Requirement = { key: string; operator: string; values?: string[] };
type Term = { matchExpressions?: Requirement[]; matchFields?: Requirement[] };
const required = (...nodeSelectorTerms: Term[]) => ({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms } } });
const expr = (key: string, operator: string, values?: string[]): Requirement => ({ key, operator, ...(values ? { values } : {}) });
const nameIn = (node: string): Requirement => ({ key: 'metadata.name', operator: 'In', values: [node] });

const ERR_REASON_POD = "node(s) didn't match Pod's node affinity/selector";
const rejected: FilterVerdict = { code: 'UnschedulableAndUnresolvable', reasons: [ERR_REASON_POD] };
const fits: FilterVerdict = { code: 'Success', reasons: [] };

let n = 0;
/** One node (upstream leaves most of them nameless: node1 here), one pod, the verdict on that node. */
const filterCase = (name: string, spec: { nodeSelector?: Record<string, string>; affinity?: Record<string, unknown> }, labels: Record<string, string>, verdict: FilterVerdict | 'not examined', nodeName = 'node1', profile?: string): TableCase => ({
	name,
	nodes: [labelled(nodeName, labels)],
	pod: pod(`na-filter-${++n}`, spec),
	...(profile ? { profile } : {}),
	expect: { filter: { [nodeName]: verdict } },
});
const NARROWED = "upstream's wantPreFilterResult is {node1}: the framework then runs Filter on node1 only, so node2 is never examined (upstream calls Filter on it directly)";

export const nodeAffinityFilter: PublicTable = {
	test: 'TestNodeAffinity',
	source: 'nodeaffinity/node_affinity_test.go @022462cc',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'NodeAffinity',
	profiles: [
		{ schedulerName: 'node-affinity-added-name', pluginConfig: [{ name: 'NodeAffinity', args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [nameIn('node2')] }] } } } }] },
		{ schedulerName: 'node-affinity-added-zone', pluginConfig: [{ name: 'NodeAffinity', args: { addedAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [expr('zone', 'In', ['bar'])] }] } } } }] },
	],
	defaultProfile: 'default-scheduler',
	cases: [
		filterCase('missing labels', { nodeSelector: { foo: 'bar' } }, {}, rejected),
		filterCase('same labels', { nodeSelector: { foo: 'bar' } }, { foo: 'bar' }, fits),
		filterCase('node labels are superset', { nodeSelector: { foo: 'bar' } }, { foo: 'bar', baz: 'blah' }, fits),
		filterCase('node labels are subset', { nodeSelector: { foo: 'bar', baz: 'blah' } }, { foo: 'bar' }, rejected),
		filterCase('Pod with matchExpressions using In operator that matches the existing node', { affinity: required({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }) }, { foo: 'bar' }, fits),
		filterCase('Pod with matchExpressions using Gt operator that matches the existing node', { affinity: required({ matchExpressions: [expr('kernel-version', 'Gt', ['0204'])] }) }, { 'kernel-version': '0206' }, fits),
		filterCase('Pod with matchExpressions using NotIn operator that matches the existing node', { affinity: required({ matchExpressions: [expr('mem-type', 'NotIn', ['DDR', 'DDR2'])] }) }, { 'mem-type': 'DDR3' }, fits),
		filterCase('Pod with matchExpressions using Exists operator that matches the existing node', { affinity: required({ matchExpressions: [expr('GPU', 'Exists')] }) }, { GPU: 'NVIDIA-GRID-K1' }, fits),
		filterCase("Pod with affinity that don't match node's labels won't schedule onto the node", { affinity: required({ matchExpressions: [expr('foo', 'In', ['value1', 'value2'])] }) }, { foo: 'bar' }, rejected),
		filterCase("Pod with empty MatchExpressions is not a valid value will match no objects and won't schedule onto the node", { affinity: required({ matchExpressions: [] }) }, { foo: 'bar' }, rejected),
		{ name: 'Pod with no Affinity will schedule onto a node', nodes: [labelled('node1', { foo: 'bar' })], pod: pod(`na-filter-${++n}`), expect: { preFilter: { code: 'Skip', message: '' } } },
		{ name: 'Pod with Affinity but nil NodeSelector will schedule onto a node', nodes: [labelled('node1', { foo: 'bar' })], pod: pod(`na-filter-${++n}`, { affinity: { nodeAffinity: {} } }), expect: { preFilter: { code: 'Skip', message: '' } } },
		filterCase('Pod with multiple matchExpressions ANDed that matches the existing node', { affinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'NotIn', ['AMD', 'INTER'])] }) }, { GPU: 'NVIDIA-GRID-K1' }, fits),
		filterCase("Pod with multiple matchExpressions ANDed that doesn't match the existing node", { affinity: required({ matchExpressions: [expr('GPU', 'Exists'), expr('GPU', 'In', ['AMD', 'INTER'])] }) }, { GPU: 'NVIDIA-GRID-K1' }, rejected),
		filterCase("Pod with multiple NodeSelectorTerms ORed in affinity, matches the node's labels and will schedule onto the node", { affinity: required({ matchExpressions: [expr('foo', 'In', ['bar', 'value2'])] }, { matchExpressions: [expr('diffkey', 'In', ['wrong', 'value2'])] }) }, { foo: 'bar' }, fits),
		filterCase('Pod with an Affinity and a PodSpec.NodeSelector(the old thing that we are deprecating) both are satisfied, will schedule onto the node', { nodeSelector: { foo: 'bar' }, affinity: required({ matchExpressions: [expr('foo', 'Exists')] }) }, { foo: 'bar' }, fits),
		filterCase("Pod with an Affinity matches node's labels but the PodSpec.NodeSelector(the old thing that we are deprecating) is not satisfied, won't schedule onto the node", { nodeSelector: { foo: 'bar' }, affinity: required({ matchExpressions: [expr('foo', 'Exists')] }) }, { foo: 'barrrrrr' }, rejected),
		filterCase("Pod with an invalid value in Affinity term won't be scheduled onto the node", { affinity: required({ matchExpressions: [expr('foo', 'NotIn', ['invalid value: ___@#$%^'])] }) }, { foo: 'bar' }, rejected),
		filterCase('Pod with matchFields using In operator that matches the existing node', { affinity: required({ matchFields: [nameIn('node1')] }) }, {}, fits),
		{ ...filterCase('Pod with matchFields using In operator that does not match the existing node', { affinity: required({ matchFields: [nameIn('node1')] }) }, {}, 'not examined', 'node2'), note: NARROWED },
		filterCase('Pod with two terms: matchFields does not match, but matchExpressions matches', { affinity: required({ matchFields: [nameIn('node1'), nameIn('node2')] }, { matchExpressions: [expr('foo', 'In', ['bar'])] }) }, { foo: 'bar' }, fits, 'node2'),
		{ ...filterCase('Pod with one term: matchFields does not match, but matchExpressions matches', { affinity: required({ matchFields: [nameIn('node1')], matchExpressions: [expr('foo', 'In', ['bar'])] }) }, { foo: 'bar' }, 'not examined', 'node2'), note: NARROWED },
		filterCase('Pod with one term: both matchFields and matchExpressions match', { affinity: required({ matchFields: [nameIn('node1')], matchExpressions: [expr('foo', 'In', ['bar'])] }) }, { foo: 'bar' }, fits),
		filterCase('Pod with two terms: both matchFields and matchExpressions do not match', { affinity: required({ matchFields: [nameIn('node1')] }, { matchExpressions: [expr('foo', 'In', ['not-match-to-bar'])] }) }, { foo: 'bar' }, rejected, 'node2'),
		filterCase('Pod with two terms of node.Name affinity', { affinity: required({ matchFields: [nameIn('node1')] }, { matchFields: [nameIn('node2')] }) }, {}, fits, 'node2'),
		{
			name: 'Pod with two conflicting mach field requirements',
			nodes: [labelled('node2', { foo: 'bar' })],
			pod: pod(`na-filter-${++n}`, { affinity: required({ matchFields: [nameIn('node1'), nameIn('node2')] }) }),
			note: 'PreFilter rejects the pod for every node (upstream also calls Filter on node2, which the framework does not after a PreFilter rejection)',
			expect: { preFilter: { code: 'UnschedulableAndUnresolvable', message: 'pod affinity terms conflict' } },
		},
		filterCase("Matches added affinity and Pod's node affinity", { affinity: required({ matchExpressions: [expr('zone', 'In', ['foo'])] }) }, { zone: 'foo' }, fits, 'node2', 'node-affinity-added-name'),
		filterCase("Matches added affinity but not Pod's node affinity", { affinity: required({ matchExpressions: [expr('zone', 'In', ['bar'])] }) }, { zone: 'foo' }, rejected, 'node2', 'node-affinity-added-name'),
		filterCase("Doesn't match added affinity", {}, { zone: 'foo' }, { code: 'UnschedulableAndUnresolvable', reasons: ["node(s) didn't match scheduler-enforced node affinity"] }, 'node2', 'node-affinity-added-zone'),
	],
	notExpressible: [
		{ name: 'Matches node selector correctly even if PreFilter is not called', why: 'the framework always runs PreFilter before Filter; only a direct call can skip it' },
		{ name: 'Matches node affinity correctly even if PreFilter is not called', why: 'the framework always runs PreFilter before Filter (see above)' },
	],
};

const label1 = { foo: 'bar' };
const label2 = { key: 'value' };
const label3 = { az: 'az1' };
const label4 = { abc: 'az11', def: 'az22' };
const label5 = { foo: 'bar', key: 'value', az: 'az1' };
const preferred = (...terms: Array<[number, Requirement[]]>) => ({ preferredDuringSchedulingIgnoredDuringExecution: terms.map(([weight, matchExpressions]) => ({ weight, preference: { matchExpressions } })) });
const affinity1 = { nodeAffinity: preferred([2, [expr('foo', 'In', ['bar'])]]) };
const affinity2 = {
	nodeAffinity: preferred([2, [expr('foo', 'In', ['bar'])]], [4, [expr('key', 'In', ['value'])]], [5, [expr('foo', 'In', ['bar']), expr('key', 'In', ['value']), expr('az', 'In', ['az1'])]]),
};

export const nodeAffinityPriority: PublicTable = {
	test: 'TestNodeAffinityPriority',
	source: 'nodeaffinity/node_affinity_test.go (after PreScore learnt Skip)',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'NodeAffinity',
	profiles: [scoreOnly('node-affinity', 'NodeAffinity'), scoreOnly('node-affinity-added-1', 'NodeAffinity', { addedAffinity: affinity1.nodeAffinity }), scoreOnly('node-affinity-added-2', 'NodeAffinity', { addedAffinity: preferred([3, [expr('key', 'In', ['value'])]]) })],
	defaultProfile: 'node-affinity',
	cases: [
		{
			name: 'Skip is returned in PreScore when NodeAffinity is nil',
			nodes: [labelled('node1', label1), labelled('node2')],
			pod: pod('na-score-1'),
			note: 'upstream has node1 only; with a single feasible node the framework runs neither PreScore nor Score, so a second node is added',
			expect: { preScore: 'Skip' },
		},
		{ name: "no node matches preferred scheduling requirements in NodeAffinity of pod so all nodes' priority is zero", nodes: [labelled('node1', label4), labelled('node2', label2), labelled('node3', label3)], pod: pod('na-score-2', { affinity: affinity1 }), expect: { scores: { node1: 0, node2: 0, node3: 0 } } },
		{ name: 'only node1 matches the preferred scheduling requirements of pod', nodes: [labelled('node1', label1), labelled('node2', label2), labelled('node3', label3)], pod: pod('na-score-3', { affinity: affinity1 }), expect: { scores: { node1: 100, node2: 0, node3: 0 } } },
		{ name: 'all nodes matches the preferred scheduling requirements of pod but with different priorities ', nodes: [labelled('node1', label1), labelled('node5', label5), labelled('node2', label2)], pod: pod('na-score-4', { affinity: affinity2 }), expect: { scores: { node1: 18, node5: 100, node2: 36 } } },
		{ name: 'added affinity', nodes: [labelled('node1', label1), labelled('node2', label2)], pod: pod('na-score-5'), profile: 'node-affinity-added-1', expect: { scores: { node1: 100, node2: 0 } } },
		{ name: 'added affinity and pod has default affinity', nodes: [labelled('node1', label1), labelled('node2', label2), labelled('node3', label5)], pod: pod('na-score-6', { affinity: affinity1 }), profile: 'node-affinity-added-2', expect: { scores: { node1: 40, node2: 60, node3: 100 } } },
	],
	notExpressible: [
		{ name: 'all nodes are same priority as NodeAffinity is nil', why: 'scores a pod without preferred terms with PreScore not run; the framework always runs PreScore, which returns Skip for such a pod (the next case)' },
		{ name: 'PreScore returns error when an incoming Pod has a broken affinity', why: 'the API server refuses the pod: "invalid key" is not a valid label key' },
		{ name: 'calculate the priorities correctly even if PreScore is not called', why: 'the framework always runs PreScore before Score; the same inputs with PreScore are the case "all nodes matches ... different priorities"' },
	],
};
