/**
 * What `kubectl explain` says about where a pod may run (tolerations, node
 * and pod affinity and their terms, topology spread constraints), in this
 * project's own words; merged by ../explain-descriptions.ts.
 *
 * Mirrors nothing upstream: the simulator's own descriptions.
 */

/** Type descriptions, by schema type key. */
export const SCHEDULING_TYPES: Readonly<Record<string, string>> = {
	Toleration: 'Lets a pod be scheduled onto, or stay on, a node with a matching taint.',
	Affinity: 'A pod\'s scheduling rules relative to nodes (node affinity) and to other pods (pod affinity and anti-affinity).',
	NodeAffinity: 'Rules on node labels that a pod\'s node must match (required) or should match (preferred).',
	NodeSelector: 'A query over nodes: a node matches when it matches any one of the terms.',
	NodeSelectorTerm: 'A set of requirements on a node\'s labels and fields that must all hold.',
	NodeSelectorRequirement: 'One test on a node label (or field): a key, an operator and values.',
	PreferredSchedulingTerm: 'A node selector term with a weight; nodes that match it score higher.',
	PodAffinity: 'Rules that place a pod in the same topology domain (node, zone...) as other pods.',
	PodAntiAffinity: 'Rules that keep a pod out of the topology domains (node, zone...) where other pods run.',
	PodAffinityTerm: 'A set of pods (by labels and namespaces) and a topology key: the domain that counts as "together".',
	WeightedPodAffinityTerm: 'A pod affinity term with a weight; nodes that satisfy it score higher.',
	TopologySpreadConstraint: 'A rule for spreading matching pods evenly over topology domains such as zones or nodes.',
};

const REQUIRED_AFFINITY = 'Terms that must all hold when the pod is scheduled; a pod that cannot meet them stays Pending. Not rechecked once it runs.';
const PREFERRED_AFFINITY = 'Weighted terms the scheduler favors: for each node, the weights of the terms it satisfies are added, and a higher sum scores better.';

/** Field descriptions, by `TypeKey.field`. */
export const SCHEDULING_FIELDS: Readonly<Record<string, string>> = {
	'Toleration.key': 'The taint key it matches. Empty matches every key, and then operator must be Exists.',
	'Toleration.operator': 'Equal (the taint\'s value must equal value, the default) or Exists (any value).',
	'Toleration.value': 'The taint value it matches, with operator Equal. Empty with Exists.',
	'Toleration.effect': 'The taint effect it matches: NoSchedule, PreferNoSchedule or NoExecute. Empty matches every effect.',
	'Toleration.tolerationSeconds': 'With effect NoExecute, how many seconds the pod may stay on the node after the taint appears. Unset tolerates forever; 0 or less means evict at once.',
	'Affinity.nodeAffinity': 'Rules on the labels of the node the pod runs on.',
	'Affinity.podAffinity': 'Rules that put the pod near other pods.',
	'Affinity.podAntiAffinity': 'Rules that keep the pod away from other pods.',
	'NodeAffinity.requiredDuringSchedulingIgnoredDuringExecution': 'Node requirements that must hold when the pod is scheduled; a pod that fits no node stays Pending. A node whose labels change later does not evict the pod.',
	'NodeAffinity.preferredDuringSchedulingIgnoredDuringExecution': 'Weighted node terms the scheduler favors: for each node, the weights of the terms it matches are added, and a higher sum scores better.',
	'NodeSelector.nodeSelectorTerms': 'The terms; a node must match at least one.',
	'NodeSelectorTerm.matchExpressions': 'Requirements on the node\'s labels.',
	'NodeSelectorTerm.matchFields': 'Requirements on the node\'s fields (only metadata.name is supported).',
	'NodeSelectorRequirement.key': 'The label key (or field name) the requirement tests.',
	'NodeSelectorRequirement.operator': 'In, NotIn, Exists, DoesNotExist, Gt or Lt (Gt and Lt compare a label\'s value as an integer).',
	'NodeSelectorRequirement.values': 'The values to compare with: at least one for In and NotIn, none for Exists and DoesNotExist, exactly one integer for Gt and Lt.',
	'PreferredSchedulingTerm.weight': 'How much matching the term counts, 1-100.',
	'PreferredSchedulingTerm.preference': 'The node selector term to match.',
	'PodAffinity.requiredDuringSchedulingIgnoredDuringExecution': REQUIRED_AFFINITY,
	'PodAffinity.preferredDuringSchedulingIgnoredDuringExecution': PREFERRED_AFFINITY,
	'PodAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution': REQUIRED_AFFINITY,
	'PodAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution': PREFERRED_AFFINITY,
	'PodAffinityTerm.labelSelector': 'The labels of the pods the term is about. Unset matches no pods.',
	'PodAffinityTerm.namespaces': 'Namespaces to look for those pods in, added to those namespaceSelector picks. With neither set, the pod\'s own namespace.',
	'PodAffinityTerm.namespaceSelector': 'Labels of the namespaces to look for those pods in, added to the namespaces list. An empty selector means every namespace.',
	'PodAffinityTerm.topologyKey': 'A node label key; nodes with the same value of it form one domain (kubernetes.io/hostname: each node; topology.kubernetes.io/zone: each zone). Required.',
	'PodAffinityTerm.matchLabelKeys': 'Label keys whose values are copied from the incoming pod into the selector as key in (value), e.g. pod-template-hash to count only pods of the same revision.',
	'PodAffinityTerm.mismatchLabelKeys': 'Label keys whose values are copied from the incoming pod into the selector as key notin (value).',
	'WeightedPodAffinityTerm.weight': 'How much satisfying the term counts, 1-100.',
	'WeightedPodAffinityTerm.podAffinityTerm': 'The pod affinity term.',
	'TopologySpreadConstraint.maxSkew': 'How uneven the spread may be: the most the count of matching pods in a domain may exceed the smallest count of any eligible domain. At least 1.',
	'TopologySpreadConstraint.topologyKey': 'A node label key; nodes with the same value of it form one domain, e.g. topology.kubernetes.io/zone.',
	'TopologySpreadConstraint.whenUnsatisfiable': 'DoNotSchedule (leave the pod Pending rather than exceed maxSkew) or ScheduleAnyway (prefer the domains that reduce the skew).',
	'TopologySpreadConstraint.labelSelector': 'The labels of the pods counted in each domain.',
	'TopologySpreadConstraint.matchLabelKeys': 'Label keys whose values are taken from the incoming pod and added to labelSelector, e.g. pod-template-hash to spread each revision on its own.',
	'TopologySpreadConstraint.minDomains': 'The fewest eligible domains to spread over: while there are fewer, the smallest count is taken as 0. Only with DoNotSchedule; unset behaves as 1.',
	'TopologySpreadConstraint.nodeAffinityPolicy': 'Whether the pod\'s nodeSelector and node affinity limit the nodes counted: Honor (the default) or Ignore.',
	'TopologySpreadConstraint.nodeTaintsPolicy': 'Whether tainted nodes the pod does not tolerate are counted: Honor (they are left out) or Ignore (counted, the default).',
};
