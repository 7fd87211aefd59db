/**
 * Builders for scheduler tests, after upstream's MakePod and MakeNode and
 * the plugins' test_util.go: short ways to write the nodes and pods of
 * upstream's test tables as data, plus a snapshot and a Handle to run one
 * plugin against them. Test-only helpers, but pure TypeScript like the rest
 * of the folder.
 *
 * Mirrors pkg/scheduler/testing/wrappers.go (MakePod, MakeNode).
 */
import type { Container, KubeObject, Node, Pod, PodSpec, Taint, Toleration } from '../../api/types.ts';
import type { ApiRequest } from '../../api/request.ts';
import { ApiClient } from '../../client/client.ts';
import { SchedulerCache, type AssumedPod } from '../../scheduler/cache/cache.ts';
import { CycleState } from '../../scheduler/framework/cycle-state.ts';
import type { Handle, Listers, NodeScore, PreScorePlugin, ScorePlugin } from '../../scheduler/framework/interface.ts';
import { isSkip, isSuccess, type Status } from '../../scheduler/framework/status.ts';
import type { PodInfo } from '../../scheduler/framework/types.ts';

/** A node with the given capacity (also its allocatable), as NodeWrapper.Capacity sets both. */
interface NodeSpecLite {
	capacity?: Record<string, string>;
	labels?: Record<string, string>;
	taints?: Taint[];
	images?: Array<{ names: string[]; sizeBytes: number }>;
	unschedulable?: boolean;
}

export function makeNode(name: string, spec: NodeSpecLite = {}): Node {
	const node: Node = {
		apiVersion: 'v1',
		kind: 'Node',
		metadata: { name, labels: { 'kubernetes.io/hostname': name, ...(spec.labels ?? {}) } },
		spec: {},
		status: {},
	};
	if (spec.taints) node.spec.taints = spec.taints;
	if (spec.unschedulable) node.spec.unschedulable = true;
	if (spec.capacity) node.status = { capacity: { ...spec.capacity }, allocatable: { ...spec.capacity } };
	if (spec.images) node.status!.images = spec.images;
	return node;
}

/** A node without the hostname label (upstream's bare test nodes carry only the labels they set). */
export function makeBareNode(name: string, spec: NodeSpecLite = {}): Node {
	const node = makeNode(name, spec);
	node.metadata.labels = { ...(spec.labels ?? {}) };
	return node;
}

let uidCounter = 0;

/** A pod; each entry of `requests` becomes one container with those requests (PodWrapper.Req). */
export function makePod(name: string, spec: Partial<PodSpec> & { requests?: Array<Record<string, string>>; namespace?: string; labels?: Record<string, string>; uid?: string } = {}): Pod {
	const { requests, namespace, labels, uid, ...rest } = spec;
	const containers: Container[] = rest.containers ?? (requests ?? []).map((r, i) => ({ name: `c${i}`, image: 'pause', resources: { requests: { ...r } } }));
	return {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { name, namespace: namespace ?? 'default', uid: uid ?? `uid-${name}-${++uidCounter}`, ...(labels ? { labels } : {}) },
		spec: { ...rest, containers },
		status: {},
	};
}

/** A toleration list helper. */
export function tolerations(...list: Toleration[]): Toleration[] {
	return list;
}

/** A cache holding `nodes` and `pods` (pods must name their node), as cache.NewSnapshot(pods, nodes). */
export function snapshotOf(nodes: Node[], pods: Pod[] = []): SchedulerCache {
	const assumed: Record<string, AssumedPod> = {};
	const cache = new SchedulerCache(() => assumed);
	for (const n of nodes) cache.addNode(n);
	for (const p of pods) cache.addPod(p);
	return cache;
}

/** Listers over plain lists of objects. */
export function listersOf(objects: { namespaces?: KubeObject[]; services?: KubeObject[]; replicaSets?: KubeObject[]; statefulSets?: KubeObject[]; pods?: Pod[]; podDisruptionBudgets?: KubeObject[] } = {}): Listers {
	const inNs = (list: KubeObject[] | undefined, ns: string) => (list ?? []).filter((o) => o.metadata.namespace === ns);
	return {
		namespace: (name) => (objects.namespaces ?? []).find((n) => n.metadata.name === name),
		namespaces: () => objects.namespaces ?? [],
		services: (ns) => inNs(objects.services, ns),
		replicationControllers: () => [],
		replicaSets: (ns) => inNs(objects.replicaSets, ns),
		statefulSets: (ns) => inNs(objects.statefulSets, ns),
		podDisruptionBudgets: () => objects.podDisruptionBudgets ?? [],
		pod: (key) => (objects.pods ?? []).find((p) => `${p.metadata.namespace}/${p.metadata.name}` === key),
	};
}

/**
 * A Handle over a snapshot, for running one plugin outside the scheduler.
 * Its API client answers every request with 200 and records it in
 * `requests` (preemption's patches and deletes).
 */
export function fakeHandle(cache: SchedulerCache, listers: Listers = listersOf(), nominated: Record<string, PodInfo[]> = {}, requests: ApiRequest[] = []): Handle {
	return {
		snapshot: cache,
		listers,
		client: new ApiClient(
			{
				request: (_from, request) => {
					requests.push(request);
					return { code: 200, body: {} };
				},
				stopWatch: () => {},
			},
			'test',
		),
		recordEvent: () => {},
		random: () => 0,
		wallMs: () => 0,
		profileName: 'default-scheduler',
		nominator: { nominatedPodsForNode: (n) => nominated[n] ?? [] },
	};
}

/**
 * Runs a Score plugin as upstream's tests do: PreScore over the nodes
 * (optional), Score per node, then NormalizeScore. Returns the scores, or
 * 'skip' when PreScore returned Skip, or the failing status.
 */
export function runScore(plugin: ScorePlugin & Partial<PreScorePlugin>, pod: Pod, cache: SchedulerCache, options: { runPreScore?: boolean } = {}): NodeScore[] | 'skip' | Status {
	const state = new CycleState();
	const nodes = cache.list();
	if (options.runPreScore !== false && plugin.preScore) {
		const s = plugin.preScore(state, pod, nodes);
		if (isSkip(s)) return 'skip';
		if (!isSuccess(s)) return s!;
	}
	const scores: NodeScore[] = [];
	for (const n of nodes) {
		const { score, status } = plugin.score(state, pod, n);
		if (!isSuccess(status)) return status!;
		scores.push({ name: n.name, score });
	}
	const ext = plugin.scoreExtensions?.();
	if (ext) {
		const s = ext.normalizeScore(state, pod, scores);
		if (!isSuccess(s)) return s!;
	}
	return scores;
}
