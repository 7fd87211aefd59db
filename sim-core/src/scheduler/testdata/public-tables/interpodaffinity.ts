/**
 * InterPodAffinity: upstream's TestPreferredAffinity and
 * TestPreferredAffinityWithHardPodAffinitySymmetricWeight
 * (pkg/scheduler/framework/plugins/interpodaffinity/scoring_test.go),
 * replayed through the public API. The nodes are labelled with kubectl
 * before each case (isolation 'relabel').
 *
 * Two renamings, both forced by the API server: upstream's pods without a
 * namespace (namespace "") live in `default` here, so a term's namespace ""
 * is `default`; and its namespaces subteam1.team1 and the like are
 * subteam1-team1 (a Namespace's name is a DNS-1123 label: no dots).
 */
import type { KubeObject } from '../../../index.ts';
import { boundPods, labelled, pod, scoreOnly, type PodOptions, type PublicTable, type TableCase } from './table.ts';

const ns = (name: string, team: string) => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { team } } }) as KubeObject;
/** upstream's `namespaces` (subteam1.team1 ...) with the dots made dashes. */
const NAMESPACES = [ns('subteam1-team1', 'team1'), ns('subteam2-team1', 'team1'), ns('subteam1-team2', 'team2'), ns('subteam2-team2', 'team2')];

const labelRgChina = { region: 'China' };
const labelRgIndia = { region: 'India' };
const labelAzAz1 = { az: 'az1' };
const labelAzAz2 = { az: 'az2' };
const labelRgChinaAzAz1 = { region: 'China', az: 'az1' };
const S1 = { security: 'S1' };
const S2 = { security: 'S2' };

type Expression = { key: string; operator: string; values?: string[] };
const term = (matchExpressions: Expression[], topologyKey: string, extra: Record<string, unknown> = {}) => ({ labelSelector: { matchExpressions }, topologyKey, ...extra });
const weighted = (weight: number, podAffinityTerm: Record<string, unknown>) => ({ weight, podAffinityTerm });
const securityIn = (...values: string[]): Expression => ({ key: 'security', operator: 'In', values });
const teamSelector = { namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: ['team1'] }] } };

const stayWithS1InRegion = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term([securityIn('S1')], 'region'))] } };
const stayWithS2InRegion = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(6, term([securityIn('S2')], 'region'))] } };
const affinity3 = {
	podAffinity: {
		preferredDuringSchedulingIgnoredDuringExecution: [
			weighted(8, term([{ key: 'security', operator: 'NotIn', values: ['S1'] }, securityIn('S2')], 'region')),
			weighted(2, term([{ key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }], 'region')),
		],
	},
};
const hardAffinity = {
	podAffinity: {
		requiredDuringSchedulingIgnoredDuringExecution: [term([securityIn('S1', 'value2')], 'region'), term([{ key: 'security', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }], 'region')],
	},
};
const awayFromS1InAz = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term([securityIn('S1')], 'az'))] } };
const awayFromS2InAz = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term([securityIn('S2')], 'az'))] } };
const stayWithS1InRegionAwayFromS2InAz = {
	podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(8, term([securityIn('S1')], 'region'))] },
	podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term([securityIn('S2')], 'az'))] },
};
const affinityNamespaceSelector = { podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term([securityIn('S1')], 'region', { namespaces: ['subteam2-team2'], ...teamSelector }))] } };
const antiAffinityNamespaceSelector = { podAntiAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [weighted(5, term([securityIn('S1')], 'region', { namespaces: ['subteam2-team2'], ...teamSelector }))] } };

let n = 0;
const incoming = (o: PodOptions = {}) => pod(`ipa-${++n}`, o);
/** Existing pods: [node, labels?, affinity?, namespace?] each. */
const on = (list: Array<[string, Record<string, string>?, Record<string, unknown>?, string?]>) =>
	boundPods(`ipa-${++n}`, list.map(([node, labels, affinity, namespace]) => [node, { ...(labels ? { labels } : {}), ...(affinity ? { affinity } : {}), ...(namespace ? { namespace } : {}) }]));
const nodes = (...list: Array<[string, Record<string, string>]>) => list.map(([name, labels]) => labelled(name, labels));
const three = () => nodes(['node1', labelRgChina], ['node2', labelRgIndia], ['node3', labelAzAz1]);

const preferredCases: TableCase[] = [
	{ name: 'all nodes are same priority as Affinity is nil', nodes: three(), pod: incoming({ labels: S1 }), expect: { preScore: 'Skip' } },
	{
		name: "Affinity: pod that matches topology key & pods in nodes will get high score comparing to otherswhich doesn't match either pods in nodes or in topology key",
		nodes: three(),
		existingPods: on([['node1', S1], ['node2', S2], ['node3', S1]]),
		pod: incoming({ labels: S1, affinity: stayWithS1InRegion }),
		expect: { scores: { node1: 100, node2: 0, node3: 0 } },
	},
	{
		name: 'All the nodes that have the same topology key & label value with one of them has an existing pod that match the affinity rules, have the same score',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgChinaAzAz1], ['node3', labelRgIndia]),
		existingPods: on([['node1', S1]]),
		pod: incoming({ affinity: stayWithS1InRegion }),
		expect: { scores: { node1: 100, node2: 100, node3: 0 } },
	},
	{
		name: 'Affinity: nodes in one region has more matching pods comparing to other region, so the region which has more matches will get high score',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia], ['node3', labelRgChina], ['node4', labelRgChina], ['node5', labelRgIndia]),
		existingPods: on([['node1', S2], ['node1', S2], ['node2', S2], ['node3', S2], ['node4', S2], ['node5', S2]]),
		pod: incoming({ labels: S1, affinity: stayWithS2InRegion }),
		expect: { scores: { node1: 100, node2: 0, node3: 100, node4: 100, node5: 0 } },
	},
	{
		name: 'Affinity: different Label operators and values for pod affinity scheduling preference, including some match failures ',
		nodes: three(),
		existingPods: on([['node1', S1], ['node2', S2], ['node3', S1]]),
		pod: incoming({ labels: S1, affinity: affinity3 }),
		expect: { scores: { node1: 20, node2: 100, node3: 0 } },
	},
	{
		name: 'Affinity symmetry: considered only the preferredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
		nodes: three(),
		existingPods: on([
			['node1', S1, stayWithS1InRegion],
			['node2', S2, stayWithS2InRegion],
		]),
		pod: incoming({ labels: S2 }),
		expect: { scores: { node1: 0, node2: 100, node3: 0 } },
	},
	{
		name: 'Affinity symmetry with namespace selector',
		nodes: three(),
		objects: NAMESPACES,
		existingPods: on([
			['node1', S1, affinityNamespaceSelector],
			['node2', S2, stayWithS2InRegion],
		]),
		pod: incoming({ namespace: 'subteam1-team1', labels: S1 }),
		expect: { scores: { node1: 100, node2: 0, node3: 0 } },
	},
	{
		name: 'AntiAffinity symmetry with namespace selector',
		nodes: three(),
		objects: NAMESPACES,
		existingPods: on([
			['node1', S1, antiAffinityNamespaceSelector],
			['node2', S2, stayWithS2InRegion],
		]),
		pod: incoming({ namespace: 'subteam1-team1', labels: S1 }),
		expect: { scores: { node1: 0, node2: 100, node3: 100 } },
	},
	{
		name: 'Affinity symmetry: considered RequiredDuringSchedulingIgnoredDuringExecution in pod affinity symmetry',
		nodes: three(),
		existingPods: on([
			['node1', S1, hardAffinity],
			['node2', S2, hardAffinity],
		]),
		pod: incoming({ labels: S1 }),
		expect: { scores: { node1: 100, node2: 100, node3: 0 } },
	},
	{
		name: 'Anti Affinity: pod that does not match existing pods in node will get high score ',
		nodes: nodes(['node1', labelAzAz1], ['node2', labelRgChina]),
		existingPods: on([['node1', S1], ['node2', S2]]),
		pod: incoming({ labels: S1, affinity: awayFromS1InAz }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
	{
		name: 'Anti Affinity: pod that does not match topology key & match the pods in nodes will get higher score comparing to others ',
		nodes: nodes(['node1', labelAzAz1], ['node2', labelRgChina]),
		existingPods: on([['node1', S1], ['node2', S1]]),
		pod: incoming({ labels: S1, affinity: awayFromS1InAz }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
	{
		name: 'Anti Affinity: one node has more matching pods comparing to other node, so the node which has more unmatches will get high score',
		nodes: nodes(['node1', labelAzAz1], ['node2', labelRgIndia]),
		existingPods: on([['node1', S1], ['node1', S1], ['node2', S2]]),
		pod: incoming({ labels: S1, affinity: awayFromS1InAz }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
	{
		name: 'Anti Affinity symmetry: the existing pods in node which has anti affinity match will get high score',
		nodes: nodes(['node1', labelAzAz1], ['node2', labelAzAz2]),
		existingPods: on([
			['node1', S1, awayFromS2InAz],
			['node2', S2, awayFromS1InAz],
		]),
		pod: incoming({ labels: S2 }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
	{
		name: 'Affinity and Anti Affinity: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity',
		nodes: nodes(['node1', labelRgChina], ['node2', labelAzAz1]),
		existingPods: on([['node1', S1], ['node2', S1]]),
		pod: incoming({ labels: S1, affinity: stayWithS1InRegionAwayFromS2InAz }),
		expect: { scores: { node1: 100, node2: 0 } },
	},
	{
		name: 'Affinity and Anti Affinity: considering both affinity and anti-affinity, the pod to schedule and existing pods have the same labels',
		nodes: nodes(['node1', labelRgChinaAzAz1], ['node2', labelRgIndia], ['node3', labelRgChina], ['node4', labelRgChina], ['node5', labelRgIndia]),
		existingPods: on([['node1', S1], ['node1', S1], ['node2', S1], ['node3', S1], ['node3', S1], ['node4', S1], ['node5', S1]]),
		pod: incoming({ labels: S1, affinity: stayWithS1InRegionAwayFromS2InAz }),
		expect: { scores: { node1: 100, node2: 0, node3: 100, node4: 100, node5: 0 } },
	},
	{
		name: 'Affinity and Anti Affinity and symmetry: considered only preferredDuringSchedulingIgnoredDuringExecution in both pod affinity & anti affinity & symmetry',
		nodes: nodes(['node1', labelRgChina], ['node2', labelAzAz1], ['node3', labelRgIndia], ['node4', labelAzAz2]),
		existingPods: on([['node1', S1], ['node2', S2], ['node3', undefined, stayWithS1InRegionAwayFromS2InAz], ['node4', undefined, awayFromS1InAz]]),
		pod: incoming({ labels: S1, affinity: stayWithS1InRegionAwayFromS2InAz }),
		expect: { scores: { node1: 100, node2: 0, node3: 100, node4: 0 } },
	},
	{
		name: "Avoid panic when partial nodes in a topology don't have pods with affinity",
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgChina]),
		existingPods: on([['node1', S1], ['node2', undefined, stayWithS1InRegionAwayFromS2InAz]]),
		pod: incoming({ labels: S1 }),
		expect: { scores: { node1: 0, node2: 0 } },
	},
	{
		name: 'Affinity with pods matching NamespaceSelector',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia]),
		objects: NAMESPACES,
		existingPods: on([
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam1-team2'],
			['node2', S1, undefined, 'subteam2-team1'],
		]),
		pod: incoming({ namespace: 'subteam1-team1', labels: S1, affinity: affinityNamespaceSelector }),
		expect: { scores: { node1: 100, node2: 0 } },
	},
	{
		name: 'Affinity with pods matching both NamespaceSelector and Namespaces fields',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia]),
		objects: NAMESPACES,
		existingPods: on([
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam2-team2'],
			['node2', S1, undefined, 'subteam2-team1'],
		]),
		pod: incoming({ namespace: 'subteam1-team1', labels: S1, affinity: affinityNamespaceSelector }),
		expect: { scores: { node1: 100, node2: 0 } },
	},
	{
		// Go's t.Run names the second subtest of a name with #01.
		name: 'Affinity with pods matching NamespaceSelector#01',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia]),
		objects: NAMESPACES,
		existingPods: on([
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam1-team2'],
			['node2', S1, undefined, 'subteam2-team1'],
		]),
		pod: incoming({ namespace: 'subteam1-team1', labels: S1, affinity: antiAffinityNamespaceSelector }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
	{
		name: 'Affinity with pods matching both NamespaceSelector and Namespaces fields#01',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia]),
		objects: NAMESPACES,
		existingPods: on([
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam1-team1'],
			['node1', S1, undefined, 'subteam2-team2'],
			['node2', S1, undefined, 'subteam2-team1'],
		]),
		pod: incoming({ namespace: 'subteam1-team1', labels: S1, affinity: antiAffinityNamespaceSelector }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
	{
		name: 'Ignore preferred terms of existing pods',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia]),
		existingPods: on([
			['node1', S1, stayWithS1InRegionAwayFromS2InAz],
			['node2', S2, stayWithS2InRegion],
		]),
		pod: incoming({ labels: S2 }),
		profile: 'inter-pod-affinity-ignore-preferred',
		expect: { preScore: 'Skip' },
	},
	{
		name: 'Do not ignore preferred terms of existing pods',
		nodes: nodes(['node1', labelRgChina], ['node2', labelRgIndia]),
		existingPods: on([
			['node1', S1, stayWithS1InRegionAwayFromS2InAz],
			['node2', S2, stayWithS2InRegion],
		]),
		pod: incoming({ labels: S2 }),
		expect: { scores: { node1: 0, node2: 100 } },
	},
];

export const interPodAffinityPreferred: PublicTable = {
	test: 'TestPreferredAffinity',
	source: 'interpodaffinity/scoring_test.go @8a4d98ac',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'InterPodAffinity',
	profiles: [scoreOnly('inter-pod-affinity', 'InterPodAffinity'), scoreOnly('inter-pod-affinity-ignore-preferred', 'InterPodAffinity', { ignorePreferredTermsOfExistingPods: true }), scoreOnly('inter-pod-affinity-hard-weight-0', 'InterPodAffinity', { hardPodAffinityWeight: 0 })],
	defaultProfile: 'inter-pod-affinity',
	cases: preferredCases,
	notExpressible: [
		{ name: 'invalid Affinity fails PreScore', why: 'the API server refuses the pod: "{{.bad-value.}}" is not a valid label value in a pod affinity term\'s selector (upstream\'s ValidatePodAffinityTerm; the simulated API server does not validate affinity terms yet, so through it the pod would be stored and fail in PreScore)' },
		{ name: 'invalid AntiAffinity fails PreScore', why: 'the API server refuses the pod (see above)' },
		{ name: 'No nodes to score', why: 'with no feasible node the framework runs neither PreScore nor Score' },
	],
};

/** hardPodAffinity: upstream's term lists namespaces "" (the existing pods' own, `default` here) and subteam2.team2. */
const hardPodAffinity = {
	podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [term([{ key: 'service', operator: 'In', values: ['S1'] }], 'region', { namespaces: ['default', 'subteam2-team2'], ...teamSelector })] },
};
const serviceS1 = { service: 'S1' };
const hardCase = (name: string, namespace: string | undefined, profile: string | undefined, expect: TableCase['expect']): TableCase => ({
	name,
	nodes: three(),
	objects: NAMESPACES,
	existingPods: on([
		['node1', undefined, hardPodAffinity],
		['node2', undefined, hardPodAffinity],
	]),
	pod: incoming({ labels: serviceS1, ...(namespace ? { namespace } : {}) }),
	...(profile ? { profile } : {}),
	expect,
});

export const interPodAffinityHardWeight: PublicTable = {
	test: 'TestPreferredAffinityWithHardPodAffinitySymmetricWeight',
	source: 'interpodaffinity/scoring_test.go @8a4d98ac',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'InterPodAffinity',
	profiles: [],
	defaultProfile: 'inter-pod-affinity',
	cases: [
		hardCase('with default weight', undefined, undefined, { scores: { node1: 100, node2: 100, node3: 0 } }),
		hardCase('with zero weight', undefined, 'inter-pod-affinity-hard-weight-0', { preScore: 'Skip' }),
		hardCase('with no matching namespace', 'subteam1-team2', undefined, { preScore: 'Skip' }),
		hardCase('with matching NamespaceSelector', 'subteam1-team1', undefined, { scores: { node1: 100, node2: 100, node3: 0 } }),
		hardCase('with matching Namespaces', 'subteam2-team2', undefined, { scores: { node1: 100, node2: 100, node3: 0 } }),
	],
	notExpressible: [],
};

// ---- Filter: TestRequiredAffinitySingleNode (filtering_test.go) ----------------------------

const requiredTerm = (operator: 'In' | 'NotIn' | 'Exists', key: string, topologyKey: string, values?: string[]) => ({ labelSelector: { matchExpressions: [{ key, operator, ...(values ? { values } : {}) }] }, topologyKey });
const required = (affinity: Array<Record<string, unknown>> = [], anti: Array<Record<string, unknown>> = []) => ({
	...(affinity.length ? { podAffinity: { requiredDuringSchedulingIgnoredDuringExecution: affinity } } : {}),
	...(anti.length ? { podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: anti } } : {}),
});
const podLabel = { service: 'securityscan' };
const podLabel2 = { security: 'S1' };
const node1 = () => labelled('node1', { region: 'r1', zone: 'z11' });
const AFFINITY = { code: 'UnschedulableAndUnresolvable' as const, reasons: ["node(s) didn't match pod affinity rules"] };
const ANTI = { code: 'Unschedulable' as const, reasons: ["node(s) didn't match pod anti-affinity rules"] };
const EXISTING_ANTI = { code: 'Unschedulable' as const, reasons: ["node(s) didn't satisfy existing pods anti-affinity rules"] };
const FITS = { code: 'Success' as const, reasons: [] };
const teamIn = (team: string) => ({ namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'In', values: [team] }] } });

let f = 0;
/** One node (node1), the existing pods, the pod, and the verdict (or PreFilter's Skip). */
const singleNode = (name: string, incomingPod: PodOptions, existing: Array<[string, PodOptions]>, verdict: typeof FITS | typeof AFFINITY | typeof ANTI | typeof EXISTING_ANTI | 'Skip', extra: Partial<TableCase> = {}): TableCase => {
	const k = ++f;
	return {
		name,
		nodes: [node1()],
		existingPods: boundPods(`ipa-filter-${k}`, existing),
		pod: pod(`ipa-filter-${k}`, incomingPod),
		expect: verdict === 'Skip' ? { preFilter: { code: 'Skip', message: '' } } : { filter: { node1: verdict } },
		...extra,
	};
};
const securityscanOnNode1: Array<[string, PodOptions]> = [['node1', { labels: podLabel }]];
const inSecurityscan = requiredTerm('In', 'service', 'region', ['securityscan', 'value2']);
const antiNodeAntivirus = requiredTerm('In', 'service', 'node', ['antivirusscan', 'value2']);
const INVALID_SELECTOR = 'the API server refuses the pod: "{{.bad-value.}}" is not a valid label value in a pod affinity term\'s selector (the simulated API server does not validate affinity terms yet; through it the pod would be stored and rejected by PreFilter)';

export const requiredAffinitySingleNode: PublicTable = {
	test: 'TestRequiredAffinitySingleNode',
	source: 'interpodaffinity/filtering_test.go @072825f9',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'InterPodAffinity',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [
		singleNode('A pod that has no required pod affinity scheduling rules can schedule onto a node with no existing pods', {}, [], 'Skip'),
		singleNode('satisfies with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using In operator that matches the existing pod', { labels: podLabel2, affinity: required([inSecurityscan]) }, securityscanOnNode1, FITS),
		singleNode('satisfies the pod with requiredDuringSchedulingIgnoredDuringExecution in PodAffinity using not in operator in labelSelector that matches the existing pod', { labels: podLabel2, affinity: required([requiredTerm('NotIn', 'service', 'region', ['securityscan3', 'value3'])]) }, securityscanOnNode1, FITS),
		singleNode(
			'satisfies the PodAffinity with different label Operators in multiple RequiredDuringSchedulingIgnoredDuringExecution ',
			{
				labels: podLabel2,
				affinity: required([
					{ labelSelector: { matchExpressions: [{ key: 'service', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, topologyKey: 'region' },
					{ labelSelector: { matchExpressions: [{ key: 'service', operator: 'In', values: ['securityscan'] }, { key: 'service', operator: 'NotIn', values: ['WrongValue'] }] }, topologyKey: 'region' },
				]),
			},
			securityscanOnNode1,
			FITS,
		),
		singleNode(
			"The labelSelector requirements(items of matchExpressions) are ANDed, the pod cannot schedule onto the node because one of the matchExpression item don't match.",
			{
				labels: podLabel2,
				affinity: required([
					{ labelSelector: { matchExpressions: [{ key: 'service', operator: 'Exists' }, { key: 'wrongkey', operator: 'DoesNotExist' }] }, topologyKey: 'region' },
					{ labelSelector: { matchExpressions: [{ key: 'service', operator: 'In', values: ['securityscan2'] }, { key: 'service', operator: 'NotIn', values: ['WrongValue'] }] }, topologyKey: 'region' },
				]),
			},
			securityscanOnNode1,
			AFFINITY,
		),
		singleNode('satisfies the PodAffinity and PodAntiAffinity with the existing pod', { labels: podLabel2, affinity: required([inSecurityscan], [antiNodeAntivirus]) }, securityscanOnNode1, FITS),
		singleNode('satisfies the PodAffinity and PodAntiAffinity and PodAntiAffinity symmetry with the existing pod', { labels: podLabel2, affinity: required([inSecurityscan], [antiNodeAntivirus]) }, [['node1', { labels: podLabel, affinity: required([], [antiNodeAntivirus]) }]], FITS),
		singleNode("satisfies the PodAffinity but doesn't satisfy the PodAntiAffinity with the existing pod", { labels: podLabel2, affinity: required([inSecurityscan], [requiredTerm('In', 'service', 'zone', ['securityscan', 'value2'])]) }, securityscanOnNode1, ANTI),
		singleNode(
			"satisfies the PodAffinity and PodAntiAffinity but doesn't satisfy PodAntiAffinity symmetry with the existing pod",
			{ labels: podLabel, affinity: required([inSecurityscan], [antiNodeAntivirus]) },
			[['node1', { labels: podLabel, affinity: required([], [requiredTerm('In', 'service', 'zone', ['securityscan', 'value2'])]) }]],
			EXISTING_ANTI,
		),
		singleNode('pod matches its own Label in PodAffinity and that matches the existing pod Labels', { labels: podLabel, affinity: required([requiredTerm('NotIn', 'service', 'region', ['securityscan', 'value2'])]) }, [['node2', { labels: { service: 'securityscan' } }]], AFFINITY, {
			failedNodes: [labelled('node2')],
			note: 'upstream puts the existing pod on a node2 outside its snapshot; here node2 is a cordoned node without labels',
		}),
		singleNode(
			"verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. doesn't satisfy PodAntiAffinity symmetry with the existing pod",
			{ labels: podLabel },
			[['node1', { labels: podLabel, affinity: required([], [requiredTerm('In', 'service', 'zone', ['securityscan', 'value2'])]) }]],
			EXISTING_ANTI,
		),
		singleNode(
			'verify that PodAntiAffinity from existing pod is respected when pod has no AntiAffinity constraints. satisfy PodAntiAffinity symmetry with the existing pod',
			{ labels: podLabel },
			[['node1', { labels: podLabel, affinity: required([], [requiredTerm('NotIn', 'service', 'zone', ['securityscan', 'value2'])]) }]],
			'Skip',
		),
		singleNode(
			"satisfies the PodAntiAffinity with existing pod but doesn't satisfy PodAntiAffinity symmetry with incoming pod",
			{ labels: podLabel, affinity: required([], [requiredTerm('Exists', 'service', 'region'), requiredTerm('Exists', 'security', 'region')]) },
			[['node1', { labels: podLabel2, affinity: required([], [requiredTerm('Exists', 'security', 'zone')]) }]],
			ANTI,
		),
		singleNode(
			'PodAntiAffinity symmetry check a1: incoming pod and existing pod partially match each other on AffinityTerms',
			{ labels: podLabel, affinity: required([], [requiredTerm('Exists', 'service', 'zone'), requiredTerm('Exists', 'security', 'zone')]) },
			[['node1', { labels: podLabel2, affinity: required([], [requiredTerm('Exists', 'security', 'zone')]) }]],
			ANTI,
		),
		singleNode(
			'PodAntiAffinity symmetry check a2: incoming pod and existing pod partially match each other on AffinityTerms',
			{ labels: podLabel2, affinity: required([], [requiredTerm('Exists', 'security', 'zone')]) },
			[['node1', { labels: podLabel, affinity: required([], [requiredTerm('Exists', 'service', 'zone'), requiredTerm('Exists', 'security', 'zone')]) }]],
			EXISTING_ANTI,
		),
		singleNode(
			'PodAntiAffinity symmetry check b1: incoming pod and existing pod partially match each other on AffinityTerms',
			{ labels: { abc: '', xyz: '' }, affinity: required([], [requiredTerm('Exists', 'abc', 'zone'), requiredTerm('Exists', 'def', 'zone')]) },
			[['node1', { labels: { def: '', xyz: '' }, affinity: required([], [requiredTerm('Exists', 'abc', 'zone'), requiredTerm('Exists', 'def', 'zone')]) }]],
			ANTI,
		),
		singleNode(
			'PodAntiAffinity symmetry check b2: incoming pod and existing pod partially match each other on AffinityTerms',
			{ labels: { def: '', xyz: '' }, affinity: required([], [requiredTerm('Exists', 'abc', 'zone'), requiredTerm('Exists', 'def', 'zone')]) },
			[['node1', { labels: { abc: '', xyz: '' }, affinity: required([], [requiredTerm('Exists', 'abc', 'zone'), requiredTerm('Exists', 'def', 'zone')]) }]],
			ANTI,
		),
		singleNode('affinity with NamespaceSelector', { labels: podLabel2, affinity: required([{ ...inSecurityscan, ...teamIn('team1') }]) }, [['node1', { labels: podLabel, namespace: 'subteam1-team1' }]], FITS, { objects: NAMESPACES }),
		singleNode('affinity with non-matching NamespaceSelector', { labels: podLabel2, affinity: required([{ ...inSecurityscan, ...teamIn('team1') }]) }, [['node1', { labels: podLabel, namespace: 'subteam1-team2' }]], AFFINITY, { objects: NAMESPACES }),
		singleNode('anti-affinity with matching NamespaceSelector', { namespace: 'subteam1-team1', labels: podLabel2, affinity: required([], [{ ...requiredTerm('In', 'service', 'zone', ['securityscan', 'value2']), ...teamIn('team1') }]) }, [['node1', { labels: podLabel, namespace: 'subteam2-team1' }]], ANTI, { objects: NAMESPACES }),
		singleNode('anti-affinity with matching all NamespaceSelector', { namespace: 'subteam1-team1', labels: podLabel2, affinity: required([], [{ ...requiredTerm('In', 'service', 'zone', ['securityscan', 'value2']), namespaceSelector: {} }]) }, [['node1', { labels: podLabel, namespace: 'subteam2-team1' }]], ANTI, { objects: NAMESPACES }),
		singleNode('anti-affinity with non-matching NamespaceSelector', { namespace: 'subteam1-team1', labels: podLabel2, affinity: required([], [{ ...requiredTerm('In', 'service', 'zone', ['securityscan', 'value2']), ...teamIn('team1') }]) }, [['node1', { labels: podLabel, namespace: 'subteam1-team2' }]], FITS, { objects: NAMESPACES }),
	],
	notExpressible: [
		{ name: 'Does not satisfy the PodAffinity with labelSelector because of diff Namespace', why: 'the API server refuses the pod: its term has no topologyKey (Required value) and names the namespace DiffNameSpace, which is not a valid namespace name' },
		{ name: "Doesn't satisfy the PodAffinity because of unmatching labelSelector with the existing pod", why: 'the API server refuses the pod: its term has an empty topologyKey' },
		{ name: 'PodAffinity fails PreFilter with an invalid affinity label syntax', why: INVALID_SELECTOR },
		{ name: 'PodAntiAffinity fails PreFilter with an invalid antiaffinity label syntax', why: INVALID_SELECTOR },
	],
};

// ---- Filter: TestRequiredAffinityMultipleNodes (filtering_test.go) -------------------------

type Verdict = typeof FITS | typeof AFFINITY | typeof ANTI | typeof EXISTING_ANTI;
let m = 0;
/** Several nodes ([name, labels]), the existing pods, the pod, and the verdict on each node in order. */
const multipleNodes = (name: string, list: Array<[string, Record<string, string>]>, existing: Array<[string, PodOptions]>, incomingPod: PodOptions, verdicts: Verdict[] | 'Skip', extra: Partial<TableCase> = {}): TableCase => {
	const k = ++m;
	return {
		name,
		nodes: nodes(...list),
		existingPods: boundPods(`ipa-multi-${k}`, existing),
		pod: pod(`ipa-multi-${k}`, incomingPod),
		expect: verdicts === 'Skip' ? { preFilter: { code: 'Skip', message: '' } } : { filter: Object.fromEntries(list.map(([node], i) => [node, verdicts[i]])) },
		...extra,
	};
};
const exists = (key: string, topologyKey: string) => requiredTerm('Exists', key, topologyKey);
const zoneAB = (zoneB = 'z2'): Array<[string, Record<string, string>]> => [
	['nodeA', { region: 'r1', zone: 'z1', hostname: 'nodeA' }],
	['nodeB', { region: 'r1', zone: zoneB, hostname: 'nodeB' }],
];
const chinaIndia: Array<[string, Record<string, string>]> = [
	['nodeA', labelRgChina],
	['nodeB', labelRgChinaAzAz1],
	['nodeC', labelRgIndia],
];
const NS12 = [{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } } as KubeObject, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns2' } } as KubeObject];

export const requiredAffinityMultipleNodes: PublicTable = {
	test: 'TestRequiredAffinityMultipleNodes',
	source: 'interpodaffinity/filtering_test.go @072825f9',
	isolation: 'relabel',
	clusterGroup: 'labels',
	plugin: 'InterPodAffinity',
	profiles: [],
	defaultProfile: 'default-scheduler',
	cases: [
		multipleNodes(
			'A pod can be scheduled onto all the nodes that have the same topology key & label value with one of them has an existing pod that matches the affinity rules',
			[
				['node1', labelRgChina],
				['node2', labelRgChinaAzAz1],
				['node3', labelRgIndia],
			],
			[['node1', { labels: { foo: 'bar' } }]],
			{ affinity: required([requiredTerm('In', 'foo', 'region', ['bar'])]) },
			[FITS, FITS, AFFINITY],
		),
		multipleNodes(
			"The affinity rule is to schedule all of the pods of this collection to the same zone. The first pod of the collection should not be blocked from being scheduled onto any node, even there's no existing pod that matches the rule anywhere.",
			[
				['nodeA', { zone: 'az1', hostname: 'h1' }],
				['nodeB', { zone: 'az2', hostname: 'h2' }],
			],
			[['nodeA', { labels: { foo: 'bar' } }]],
			{ labels: { foo: 'bar', service: 'securityscan' }, affinity: required([requiredTerm('In', 'foo', 'zone', ['bar']), requiredTerm('In', 'service', 'zone', ['securityscan'])]) },
			[FITS, FITS],
		),
		multipleNodes(
			'The first pod of the collection can only be scheduled on nodes labelled with the requested topology keys',
			[
				['nodeA', { zoneLabel: 'az1', hostname: 'h1' }],
				['nodeB', { zoneLabel: 'az2', hostname: 'h2' }],
			],
			[['nodeA', { labels: { foo: 'bar' } }]],
			{ labels: { foo: 'bar', service: 'securityscan' }, affinity: required([requiredTerm('In', 'foo', 'zone', ['bar']), requiredTerm('In', 'service', 'zone', ['securityscan'])]) },
			[AFFINITY, AFFINITY],
		),
		multipleNodes(
			'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB.',
			[
				['nodeA', { region: 'r1', hostname: 'nodeA' }],
				['nodeB', { region: 'r1', hostname: 'nodeB' }],
			],
			[['nodeA', { labels: { foo: 'abc' } }]],
			{ affinity: required([], [requiredTerm('In', 'foo', 'region', ['abc'])]) },
			[ANTI, ANTI],
		),
		multipleNodes(
			'This test ensures that anti-affinity matches a pod when any term of the anti-affinity rule matches a pod.',
			zoneAB(),
			[['nodeA', { labels: { foo: 'abc', service: 'securityscan' } }]],
			{ affinity: required([], [requiredTerm('In', 'foo', 'region', ['abc']), requiredTerm('In', 'service', 'zone', ['securityscan'])]) },
			[ANTI, ANTI],
		),
		multipleNodes(
			'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA and nodeB but can be scheduled onto nodeC',
			chinaIndia,
			[['nodeA', { labels: { foo: 'abc' } }]],
			{ affinity: required([], [requiredTerm('In', 'foo', 'region', ['abc'])]) },
			[ANTI, ANTI, FITS],
		),
		multipleNodes(
			'NodeA and nodeB have same topologyKey and label value. NodeA has an existing pod that matches the inter pod affinity rule. The pod can not be scheduled onto nodeA, nodeB, but can be scheduled onto nodeC (NodeC has an existing pod that match the inter pod affinity rule but in different namespace)',
			chinaIndia,
			[
				['nodeA', { namespace: 'ns1', labels: { foo: 'bar' } }],
				['nodeC', { namespace: 'ns2', affinity: required([], [requiredTerm('In', 'foo', 'region', ['123'])]) }],
			],
			{ namespace: 'ns1', labels: { foo: '123' }, affinity: required([], [requiredTerm('In', 'foo', 'region', ['bar'])]) },
			[ANTI, ANTI, FITS],
			{ objects: NS12, note: "upstream's namespaces NS1 and NS2 are ns1 and ns2 here: a Namespace's name is lower case" },
		),
		multipleNodes(
			"Test existing pod's anti-affinity: if an existing pod has a term with invalid topologyKey, labelSelector of the term is firstly checked, and then topologyKey of the term is also checked",
			zoneAB('z1'),
			[['nodeA', { affinity: required([], [exists('foo', 'invalid-node-label')]) }]],
			{ labels: { foo: '' } },
			'Skip',
		),
		multipleNodes(
			"Test incoming pod's anti-affinity: even if labelSelector matches, we still check if topologyKey matches",
			zoneAB('z1'),
			[['nodeA', { labels: { foo: '' } }]],
			{ affinity: required([], [exists('foo', 'invalid-node-label')]) },
			[FITS, FITS],
			{ note: "upstream's pod also names nodeA in spec.nodeName, which would bypass the scheduler; it is left out" },
		),
		multipleNodes(
			"Test existing pod's anti-affinity: incoming pod wouldn't considered as a fit as it violates each existingPod's terms on all nodes",
			zoneAB(),
			[
				['nodeA', { affinity: required([], [exists('foo', 'zone')]) }],
				['nodeA', { affinity: required([], [exists('bar', 'region')]) }],
			],
			{ labels: { foo: '', bar: '' } },
			[EXISTING_ANTI, EXISTING_ANTI],
		),
		multipleNodes(
			"Test incoming pod's anti-affinity: incoming pod wouldn't considered as a fit as it at least violates one anti-affinity rule of existingPod",
			zoneAB(),
			[
				['nodeA', { labels: { foo: '' } }],
				['nodeB', { labels: { bar: '' } }],
			],
			{ affinity: required([], [exists('foo', 'zone'), exists('bar', 'region')]) },
			[ANTI, ANTI],
		),
		multipleNodes(
			"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
			zoneAB(),
			[['nodeA', { affinity: required([], [exists('foo', 'invalid-node-label'), exists('bar', 'zone')]) }]],
			{ labels: { foo: '', bar: '' } },
			[EXISTING_ANTI, FITS],
		),
		multipleNodes(
			"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when one term has invalid topologyKey",
			zoneAB(),
			[['nodeA', { labels: { foo: '', bar: '' } }]],
			{ affinity: required([], [exists('foo', 'invalid-node-label'), exists('bar', 'zone')]) },
			[ANTI, FITS],
		),
		multipleNodes(
			"Test existing pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
			zoneAB(),
			[['nodeA', { affinity: required([], [exists('foo', 'region'), exists('bar', 'zone')]) }]],
			{ labels: { foo: '', bar: '' } },
			[EXISTING_ANTI, EXISTING_ANTI],
		),
		multipleNodes(
			"Test incoming pod's anti-affinity: only when labelSelector and topologyKey both match, it's counted as a single term match - case when all terms have valid topologyKey",
			zoneAB(),
			[['nodeA', { labels: { foo: '', bar: '' } }]],
			{ affinity: required([], [exists('foo', 'region'), exists('bar', 'zone')]) },
			[ANTI, ANTI],
		),
		multipleNodes(
			"Test existing pod's anti-affinity: existingPod on nodeA and nodeB has at least one anti-affinity term matches incoming pod, so incoming pod can only be scheduled to nodeC",
			[...zoneAB(), ['nodeC', { region: 'r1', zone: 'z3', hostname: 'nodeC' }]],
			[
				['nodeA', { affinity: required([], [exists('foo', 'zone'), exists('labelA', 'zone')]) }],
				['nodeB', { affinity: required([], [exists('bar', 'zone'), exists('labelB', 'zone')]) }],
			],
			{ labels: { foo: '', bar: '' } },
			[EXISTING_ANTI, EXISTING_ANTI, FITS],
		),
		multipleNodes("Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match", zoneAB('z1'), [['nodeA', { labels: { foo: '', bar: '' } }]], { affinity: required([exists('foo', 'region'), exists('bar', 'zone')]) }, [FITS, FITS]),
		multipleNodes(
			"Test incoming pod's affinity: firstly check if all affinityTerms match, and then check if all topologyKeys match, and the match logic should be satisfied on the same pod",
			zoneAB(),
			[
				['nodeA', { labels: { foo: '' } }],
				['nodeB', { labels: { bar: '' } }],
			],
			{ affinity: required([exists('foo', 'region'), exists('bar', 'zone')]) },
			[AFFINITY, AFFINITY],
		),
	],
	notExpressible: [],
};
