/**
 * The scheduling framework's plugin API: a one-method root interface and one
 * capability interface per extension point, with upstream's names and
 * meanings.
 *
 * The order of the extension points in one scheduling cycle:
 *   PreEnqueue (before the pod may enter the active queue), QueueSort,
 *   PreFilter, Filter, PostFilter (only when no node fits), PreScore, Score
 *   with NormalizeScore, Reserve, Permit; then the binding cycle: PreBind,
 *   Bind, PostBind.
 *
 * Mirrors staging/src/k8s.io/kube-scheduler/framework/interface.go (the
 * plugin interfaces, Handle, PreFilterResult, PostFilterResult),
 * pkg/scheduler/framework/interface.go.
 */
import type { KubeObject, Pod } from '../../api/types.ts';
import type { ApiClient } from '../../client/client.ts';
import type { CycleState } from './cycle-state.ts';
import type { ClusterEventWithHint } from './events.ts';
import type { NodeToStatus } from './fit-error.ts';
import type { Status } from './status.ts';
import type { NodeInfo, PodInfo } from './types.ts';

/** The highest score a Score plugin may give after NormalizeScore (fwk.MaxNodeScore / MaxScore = 100). */
export const MAX_NODE_SCORE = 100;
/** The lowest (fwk.MinNodeScore = 0). */
export const MIN_NODE_SCORE = 0;

/** fwk.Plugin: every plugin has a name; the capability interfaces below say what else it does. */
export interface Plugin {
	readonly name: string;
}

/** What the queue knows of a pod when QueueSort compares two (fwk.QueuedPodInfo, the parts Less reads). */
export interface QueuedPodInfoView {
	pod: Pod;
	/** When the pod was last added to the queue (virtual ms). */
	timestampMs: number;
}

/** PreEnqueue: may this pod enter the active queue at all? (e.g. SchedulingGates). */
export interface PreEnqueuePlugin extends Plugin {
	preEnqueue(pod: Pod): Status | undefined;
}

/** QueueSort: the order of the active queue. Only one may be enabled. */
export interface QueueSortPlugin extends Plugin {
	less(a: QueuedPodInfoView, b: QueuedPodInfoView): boolean;
}

/** EnqueueExtensions: the cluster events that could make a pod this plugin rejected schedulable. */
export interface EnqueueExtensions extends Plugin {
	eventsToRegister(): ClusterEventWithHint[];
}

/** PreFilterResult: the nodes that may fit, when a PreFilter plugin can tell; `undefined` means all nodes. */
export interface PreFilterResult {
	nodeNames?: Set<string>;
}

/** PreFilterResult.Merge: the intersection; "all nodes" is the identity. */
export function mergePreFilterResults(a: PreFilterResult | undefined, b: PreFilterResult | undefined): PreFilterResult | undefined {
	if (!a?.nodeNames) return b ? { nodeNames: b.nodeNames ? new Set(b.nodeNames) : undefined } : a;
	if (!b?.nodeNames) return a;
	return { nodeNames: new Set([...a.nodeNames].filter((n) => b.nodeNames!.has(n))) };
}

/** PreFilterExtensions: keep a PreFilter plugin's cycle state right when a pod is added to or removed from a node (preemption's dry runs, nominated pods). */
export interface PreFilterExtensions {
	addPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined;
	removePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined;
}

/** PreFilter: computes per-pod data once; may narrow the nodes, reject the pod, or Skip its Filter. */
export interface PreFilterPlugin extends Plugin {
	preFilter(state: CycleState, pod: Pod, nodes: NodeInfo[]): { result?: PreFilterResult; status?: Status };
	preFilterExtensions?(): PreFilterExtensions | undefined;
}

/** Filter: can this pod run on this node? */
export interface FilterPlugin extends Plugin {
	filter(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
}

/** fwk.NominatingInfo: what PostFilter wants done with the pod's status.nominatedNodeName. */
export interface NominatingInfo {
	nominatedNodeName: string;
	mode: 'Override' | 'Noop';
}

/** PostFilterResult. */
export interface PostFilterResult {
	nominatingInfo?: NominatingInfo;
}

/** PostFilter: runs when no node fits (preemption). */
export interface PostFilterPlugin extends Plugin {
	postFilter(state: CycleState, pod: Pod, filteredNodeStatusMap: NodeToStatus): { result?: PostFilterResult; status: Status };
}

/** PreScore: computes per-pod data for Score once; Skip removes the plugin from this cycle's scoring. */
export interface PreScorePlugin extends Plugin {
	preScore(state: CycleState, pod: Pod, nodes: NodeInfo[]): Status | undefined;
}

/** fwk.NodeScore. */
export interface NodeScore {
	name: string;
	score: number;
}

/** ScoreExtensions: NormalizeScore maps the raw scores of all nodes into 0..100. */
export interface ScoreExtensions {
	normalizeScore(state: CycleState, pod: Pod, scores: NodeScore[]): Status | undefined;
}

/** Score: ranks a node that passed the filters. */
export interface ScorePlugin extends Plugin {
	score(state: CycleState, pod: Pod, nodeInfo: NodeInfo): { score: number; status?: Status };
	scoreExtensions?(): ScoreExtensions | undefined;
}

/** Reserve: claims cluster state for the pod before binding (Unreserve undoes it). */
export interface ReservePlugin extends Plugin {
	reserve(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
	unreserve(state: CycleState, pod: Pod, nodeName: string): void;
}

/** Permit: approves, denies or delays the binding. */
export interface PermitPlugin extends Plugin {
	permit(state: CycleState, pod: Pod, nodeName: string): { status?: Status; timeoutMs: number };
}

/** PreBind: work before binding (e.g. provisioning volumes). */
export interface PreBindPlugin extends Plugin {
	preBind(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
}

/** Bind: writes the decision (the first Bind plugin that does not Skip wins). */
export interface BindPlugin extends Plugin {
	bind(state: CycleState, pod: Pod, nodeName: string): Status | undefined;
}

/** PostBind: informational, after a successful bind. */
export interface PostBindPlugin extends Plugin {
	postBind(state: CycleState, pod: Pod, nodeName: string): void;
}

/** The node infos of this cycle, in the scheduler's node order (framework.NodeInfoLister). */
export interface NodeInfoLister {
	list(): NodeInfo[];
	get(nodeName: string): NodeInfo | undefined;
	havePodsWithAffinityList(): NodeInfo[];
	havePodsWithRequiredAntiAffinityList(): NodeInfo[];
}

/** The informer caches plugins may read (the listers of upstream's SharedInformerFactory). */
/** What the storage side of the cluster looks like to the plugin (the scheduler's informers). */
export interface VolumeListers {
	claim(namespace: string, name: string): KubeObject | undefined;
	volumes(): KubeObject[];
	volume(name: string): KubeObject | undefined;
	storageClass(name: string): KubeObject | undefined;
}

export interface Listers {
	namespace(name: string): KubeObject | undefined;
	namespaces(): KubeObject[];
	services(namespace: string): KubeObject[];
	replicationControllers(namespace: string): KubeObject[];
	replicaSets(namespace: string): KubeObject[];
	statefulSets(namespace: string): KubeObject[];
	/** Every PodDisruptionBudget (DefaultPreemption's pdbLister). */
	podDisruptionBudgets(): KubeObject[];
	/** The informer's copy of a pod, by `namespace/name`. */
	pod(key: string): Pod | undefined;
	/** Claims, volumes and StorageClasses (VolumeBinding). */
	volumes?: VolumeListers;
}

/** The part of the framework runtime preemption calls back into (fwk.Handle's Run* methods). */
export interface FrameworkRunner {
	runFilterPluginsWithNominatedPods(state: CycleState, pod: Pod, nodeInfo: NodeInfo): Status | undefined;
	runPreFilterExtensionAddPod(state: CycleState, podToSchedule: Pod, podInfoToAdd: PodInfo, nodeInfo: NodeInfo): Status | undefined;
	runPreFilterExtensionRemovePod(state: CycleState, podToSchedule: Pod, podInfoToRemove: PodInfo, nodeInfo: NodeInfo): Status | undefined;
}

/** fwk.PodNominator, the read side: pods nominated to run on a node after preemption. */
interface PodNominator {
	nominatedPodsForNode(nodeName: string): PodInfo[];
}

/**
 * fwk.Handle: what a plugin may use besides its arguments. Built by the
 * scheduler process for each profile; `framework` is set once the profile's
 * framework exists.
 */
export interface Handle {
	/** The node infos of the current cycle. */
	snapshot: NodeInfoLister;
	listers: Listers;
	/** The scheduler's API client (DefaultBinder, preemption). */
	client: ApiClient;
	/** EventRecorder().Eventf: an events.k8s.io Event about `regarding` (and `related`), reported by the profile's scheduler name. */
	recordEvent(regarding: KubeObject, related: KubeObject | undefined, type: 'Normal' | 'Warning', reason: string, action: string, note: string): void;
	/** An integer in [0, n) from the scheduler's seeded stream. */
	random(n: number): number;
	/** Wall-clock-looking time of the virtual now (epoch ms), for timestamps the plugin writes. */
	wallMs(): number;
	/** The scheduler's name for this profile (pod.spec.schedulerName it serves). */
	profileName: string;
	nominator: PodNominator;
	framework?: FrameworkRunner;
}

/** A plugin's constructor as the registry keeps it (PluginFactory). */
export type PluginFactory = (args: unknown, handle: Handle) => Plugin;
