/**
 * The shape of the upstream scheduler test tables as they are replayed
 * through the public API (../../score-tables.public.test.ts): nodes as a
 * cluster's NodeOptions, pods as the manifests a reader applies, a
 * scheduler profile, and what `cluster.explain()` must report.
 *
 * Upstream's tables build their inputs with pkg/scheduler/testing's
 * MakeNode and MakePod; the helpers below say how each one is written
 * with real objects instead:
 *
 * - MakeNode().Capacity(...) sets capacity = allocatable. A kubelet here
 *   reports allocatable = capacity − 100Mi of memory (the hard eviction
 *   threshold memory.available<100Mi; no kube- or system-reserved on a
 *   kubeadm node; cpu and pods untouched), so `node()` adds 100Mi to the
 *   memory it is given: allocatable is then exactly upstream's number.
 * - Upstream CPU "4000" is 4000 cores and memory is in bytes; both are
 *   written as the same quantities.
 * - MakePod() without Req() has no containers, which the API server
 *   refuses (spec.containers: Required value). A container asking for
 *   cpu 0 and memory 0 explicitly requests the same nothing: the 100m /
 *   200Mi scoring defaults apply only to a request that is absent.
 * - Existing pods are bound with spec.nodeName, so the node's kubelet runs
 *   them (and admits them against its allocatable, as a real one does).
 */
import type { KubeObject, KubeSchedulerConfiguration, NodeOptions } from '../../../index.ts';

/** A profile of the cluster's KubeSchedulerConfiguration. */
export type Profile = NonNullable<KubeSchedulerConfiguration['profiles']>[number];

/** One Filter plugin's verdict on one node, as explain reports it. */
export interface FilterVerdict {
	code: 'Success' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Error';
	reasons: string[];
}

/** What the case expects of the plugin under test. */
export type Expectation =
	/** The normalized score (after NormalizeScore, before the weight) per node, as upstream's expectedScores / expectedList. */
	| { scores: Record<string, number> }
	/** The plugin's PreScore returned Skip, so it scored nothing. */
	| { preScore: 'Skip' }
	/**
	 * The plugin's Filter verdict per node ('Success' when it let the node
	 * through), or 'not examined' for a node the framework never ran
	 * Filter on because a PreFilter result (upstream's wantPreFilterResult)
	 * left it out.
	 */
	| { filter: Record<string, FilterVerdict | 'not examined'> }
	/** The plugin's Filter code per node only (upstream's wantStatusCode, which leaves the reasons out). */
	| { filterCodes: Record<string, FilterVerdict['code']> }
	/** The plugin's PreFilter outcome (a rejection there applies to every node). */
	| { preFilter: { code: string; message: string } };

export interface TableCase {
	/** Upstream's case name, verbatim. */
	name: string;
	/** The nodes the pod may go to (upstream's nodes, or the candidates Score is called with). */
	nodes: NodeOptions[];
	/** Nodes in the cluster that the pod must not go to (upstream's failed nodes: in the snapshot, not candidates); they are cordoned. Only with `isolation: 'relabel'` or 'exact'. */
	failedNodes?: NodeOptions[];
	/** Objects applied before the pods (Namespaces, Services, ReplicaSets...). */
	objects?: KubeObject[];
	/** Pods already running on the nodes (each with spec.nodeName). */
	existingPods?: KubeObject[];
	/** Existing pods deleted before the pod comes (they carry a finalizer, so they stay Terminating). */
	terminating?: string[];
	/** Labels the kubelet set that a node must not have for the case, by upstream node name ('relabel' and 'exact' only). */
	removeLabels?: Record<string, string[]>;
	/** The pod being scheduled. */
	pod: KubeObject;
	/** The profile (by schedulerName, from the table's `profiles`) the pod asks for; the table's default otherwise. */
	profile?: string;
	expect: Expectation;
	/** How the case's inputs differ from upstream's, when they must. */
	note?: string;
}

/** An upstream case that cannot be replayed through the public API, and why. */
export interface NotExpressible {
	name: string;
	why: string;
}

/**
 * How a table's cases share clusters (a boot costs far more than a case):
 *
 * - 'none': one cluster holds every node the table's cases use (nodes equal
 *   in everything but the name are shared), and a case reads the rows of
 *   its own nodes only. Right for plugins that score or filter each node on
 *   its own (no NormalizeScore across nodes, nothing counted over the
 *   cluster). A node keeps upstream's name when it is the first of that
 *   name; another node of the same name with other options gets a suffix
 *   (node1-2).
 * - 'relabel': one cluster with a node of every name the cases use. Before
 *   each case its nodes get the case's labels and taints (`kubectl patch
 *   node`, as a reader would label and taint them) and are uncordoned;
 *   every other worker is cordoned, so exactly the case's nodes are
 *   feasible and NormalizeScore sees only them. `failedNodes` get their
 *   labels and taints but stay cordoned. Right for plugins that read labels
 *   and taints and count pods only on nodes holding the case's pods.
 * - 'exact': a cluster whose nodes are exactly the case's (by name and
 *   size; cases naming the same nodes share it), labelled and tainted per
 *   case as with 'relabel'. For plugins that count every node of the
 *   cluster by its labels (PodTopologySpread's Filter: every node with the
 *   topology key is a domain, cordoned or not).
 * - 'own': a cluster with exactly the case's nodes, as given (cases with the
 *   same nodes share it). For what a kubectl patch cannot set (a node's
 *   images) where every node of the cluster counts (ImageLocality's spread).
 *
 * Expectations and spec.nodeName use upstream's names; the runner maps them.
 */
export type Isolation = 'none' | 'relabel' | 'exact' | 'own';

export interface PublicTable {
	/** The upstream test function, e.g. TestLeastAllocatedScoringStrategy. */
	test: string;
	isolation: Isolation;
	/** Tables with the same group and isolation ('none' or 'relabel') share one cluster; default: the table's own. */
	clusterGroup?: string;
	/** The upstream file and the commit the cases were read at. */
	source: string;
	/** The plugin whose row of the explanation is checked. */
	plugin: string;
	/** The profiles the cases use, by schedulerName. */
	profiles: Profile[];
	/** The profile cases use when they name none. */
	defaultProfile: string;
	cases: TableCase[];
	notExpressible: NotExpressible[];
}

/** A node for the 'relabel' tables: the default size, with labels and taints. */
export function labelled(name: string, labels: Record<string, string> = {}, taints: NonNullable<NodeOptions['taints']> = []): NodeOptions {
	return { name, cpu: '2', memory: '4Gi', ...(Object.keys(labels).length ? { labels } : {}), ...(taints.length ? { taints } : {}) };
}

/** The memory a kubelet here keeps back from allocatable (memory.available<100Mi). */
export const EVICTION_RESERVED_MEMORY = 100 * 1024 * 1024;

/** A node whose allocatable is exactly `cpu` and `memory` (bytes), as MakeNode().Capacity() gives. */
export function node(name: string, cpu: string, memoryBytes: number | string, extra: Partial<NodeOptions> = {}): NodeOptions {
	return { name, cpu, memory: String(Number(memoryBytes) + EVICTION_RESERVED_MEMORY), ...extra };
}

/** The image every test container runs (on every node already). */
export const PAUSE = 'registry.k8s.io/pause:3.10.2';

export interface PodOptions {
	namespace?: string;
	labels?: Record<string, string>;
	/** One container per entry, with these requests (MakePod().Req(...) once per container). */
	requests?: Array<Record<string, string>>;
	/** Container images instead (one container each, no requests). */
	images?: string[];
	initImages?: string[];
	nodeName?: string;
	nodeSelector?: Record<string, string>;
	tolerations?: Array<Record<string, unknown>>;
	affinity?: Record<string, unknown>;
	topologySpreadConstraints?: Array<Record<string, unknown>>;
	ownerReferences?: Array<Record<string, unknown>>;
	finalizers?: string[];
}

/**
 * A container's resources for these requests. An extended resource (a name
 * with a domain, example.com/bbb) cannot be overcommitted, so the API server
 * wants its limit set, equal to the request; upstream's unit tests skip the
 * API server and set requests only.
 */
export function resourcesFor(requests: Record<string, string>): { requests: Record<string, string>; limits?: Record<string, string> } {
	const extended = Object.entries(requests).filter(([name]) => name.includes('/'));
	return extended.length ? { requests, limits: Object.fromEntries(extended) } : { requests };
}

/** A Pod manifest, as upstream's MakePod() with the given options. */
export function pod(name: string, o: PodOptions = {}): KubeObject {
	const containers = o.images
		? o.images.map((image, i) => ({ name: `c${i}`, image }))
		: o.requests && o.requests.length
			? o.requests.map((requests, i) => ({ name: `c${i}`, image: PAUSE, resources: resourcesFor(requests) }))
			: [{ name: 'c0', image: PAUSE, resources: { requests: { cpu: '0', memory: '0' } } }];
	const spec: Record<string, unknown> = { containers };
	if (o.initImages) spec.initContainers = o.initImages.map((image, i) => ({ name: `i${i}`, image }));
	if (o.nodeName) spec.nodeName = o.nodeName;
	if (o.nodeSelector) spec.nodeSelector = o.nodeSelector;
	if (o.tolerations) spec.tolerations = o.tolerations;
	if (o.affinity) spec.affinity = o.affinity;
	if (o.topologySpreadConstraints) spec.topologySpreadConstraints = o.topologySpreadConstraints;
	const metadata: KubeObject['metadata'] = { name };
	if (o.namespace) metadata.namespace = o.namespace;
	if (o.labels) metadata.labels = o.labels;
	if (o.ownerReferences) (metadata as Record<string, unknown>).ownerReferences = o.ownerReferences;
	if (o.finalizers) (metadata as Record<string, unknown>).finalizers = o.finalizers;
	return { apiVersion: 'v1', kind: 'Pod', metadata, spec } as KubeObject;
}

/** Existing pods bound to nodes: `[nodeName, options]` each, named `<prefix>-<i>`. */
export function boundPods(prefix: string, list: Array<[string, PodOptions?]>): KubeObject[] {
	return list.map(([nodeName, o], i) => pod(`${prefix}-${i}`, { ...(o ?? {}), nodeName }));
}

/** A profile whose only Score plugin is `plugin` (its filters are the default ones), with its args. */
export function scoreOnly(schedulerName: string, plugin: string, args?: Record<string, unknown>, extra: Partial<Profile> = {}): Profile {
	return {
		schedulerName,
		...extra,
		plugins: { score: { disabled: [{ name: '*' }], enabled: [{ name: plugin }] }, ...(extra.plugins ?? {}) },
		...(args ? { pluginConfig: [{ name: plugin, args }] } : {}),
	};
}
