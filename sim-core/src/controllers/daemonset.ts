/**
 * The DaemonSet controller: one pod on every node that should run one. A pod
 * is created unscheduled, pinned to its node by a required node affinity on
 * `metadata.name` (matchFields), for the default scheduler to bind (the
 * v1.12+ way), and carries the tolerations that keep daemons on sick nodes.
 * Surplus, failed or misplaced daemon pods are deleted; a RollingUpdate
 * replaces old pods node by node, never more than maxUnavailable unavailable
 * at once.
 *
 * With maxSurge > 0 the update surges instead: a node gets its new pod
 * while the old one still runs (at most maxSurge nodes at once, at once on
 * a node whose old pod is unavailable), and the old pod goes when the new
 * one is available. OnDelete replaces nothing: a pod deleted by hand comes
 * back from the current template.
 *
 * Each template the DaemonSet has had is a ControllerRevision
 * (./daemonset-history.ts), whose hash the pods' `controller-revision-hash`
 * label carries; `kubectl rollout history|undo ds` read them. Differences:
 * orphaned revisions are not adopted, and the failed-pod deletion back-off
 * is not modelled.
 *
 * Mirrors pkg/controller/daemon/daemon_controller.go,
 * pkg/controller/daemon/update.go,
 * pkg/controller/daemon/util/daemonset_util.go.
 */
import type { ControllerRevision, DaemonSet, KubeObject, Node, Pod, PodSpec, PodTemplateSpec } from '../api/types.ts';
import { DAEMONSET_REVISION_LABEL, cleanupHistory, constructHistory } from './daemonset-history.ts';
import { R } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { ControllerBase, type SyncError } from './controller-context.ts';
import { Expectations, type ExpectationsState } from './expectations.ts';
import { canonicalJson, computeHash } from './hash.ts';
import { compileSelector, controllerOf, isNamespaceTerminating, isPodAvailable, isPodReady, newControllerRef, timeMs } from './pod-util.ts';
import { deepCopy } from '../golang/json.ts';
import { scaledValue } from './deployment/deployment-util.ts';
import { claimObjects } from './ref-manager.ts';
import { addOrUpdateToleration } from './taints.ts';
import { RequiredNodeAffinity } from '../component-helpers/node-affinity.ts';
import { TaintKeys, findMatchingUntoleratedTaint } from '../component-helpers/taints.ts';

const DAEMONSET_CONTROLLER = 'daemonset-controller';
/** apps.DefaultDaemonSetUniqueLabelKey. */
const CONTROLLER_REVISION_HASH_LABEL = 'controller-revision-hash';
/** extensions.DaemonSetTemplateGenerationKey (deprecated, still written). */
const POD_TEMPLATE_GENERATION_LABEL = 'pod-template-generation';
/** The annotation the API server keeps the template generation in (apps/v1 DaemonSet strategy). */
const TEMPLATE_GENERATION_ANNOTATION = 'deprecated.daemonset.template.generation';
/** BurstReplicas for DaemonSets (daemon_controller.go). */
const DAEMONSET_BURST_REPLICAS = 250;

/**
 * AddOrUpdateDaemonPodTolerations: daemon pods must survive node problems,
 * so they tolerate not-ready and unreachable (NoExecute, no
 * tolerationSeconds: forever), the pressure and unschedulable taints
 * (NoSchedule), and network-unavailable for host-network pods.
 */
export function addDaemonPodTolerations(spec: PodSpec): void {
	addOrUpdateToleration(spec, { key: TaintKeys.NotReady, operator: 'Exists', effect: 'NoExecute' });
	addOrUpdateToleration(spec, { key: TaintKeys.Unreachable, operator: 'Exists', effect: 'NoExecute' });
	addOrUpdateToleration(spec, { key: TaintKeys.DiskPressure, operator: 'Exists', effect: 'NoSchedule' });
	addOrUpdateToleration(spec, { key: TaintKeys.MemoryPressure, operator: 'Exists', effect: 'NoSchedule' });
	addOrUpdateToleration(spec, { key: TaintKeys.PIDPressure, operator: 'Exists', effect: 'NoSchedule' });
	addOrUpdateToleration(spec, { key: TaintKeys.Unschedulable, operator: 'Exists', effect: 'NoSchedule' });
	if (spec.hostNetwork) addOrUpdateToleration(spec, { key: TaintKeys.NetworkUnavailable, operator: 'Exists', effect: 'NoSchedule' });
}

/** The template's tolerations with the daemon ones added, worked out once per (immutable, cached) template. */
const tolerationsByTemplate = new WeakMap<PodSpec, PodSpec['tolerations']>();
function daemonPodTolerations(template: PodSpec): PodSpec['tolerations'] {
	let tolerations = tolerationsByTemplate.get(template);
	if (!tolerations) {
		const spec: PodSpec = { ...template };
		addDaemonPodTolerations(spec);
		tolerations = spec.tolerations;
		tolerationsByTemplate.set(template, tolerations);
	}
	return tolerations;
}

/** ReplaceDaemonSetPodNodeNameNodeAffinity: the required node affinity becomes exactly `metadata.name In [node]`. */
export function pinToNode(spec: PodSpec, nodeName: string): void {
	const term = { matchFields: [{ key: 'metadata.name', operator: 'In' as const, values: [nodeName] }] };
	spec.affinity = { ...(spec.affinity ?? {}) };
	spec.affinity.nodeAffinity = { ...(spec.affinity.nodeAffinity ?? {}), requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [term] } };
}

/** GetTargetNodeName: spec.nodeName, or the node a daemon pod's affinity pins it to. */
export function targetNodeName(pod: Pod): string | undefined {
	if (pod.spec.nodeName) return pod.spec.nodeName;
	for (const term of pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? []) {
		for (const f of term.matchFields ?? []) if (f.key === 'metadata.name' && f.operator === 'In' && f.values?.length === 1) return f.values[0];
	}
	return undefined;
}

/**
 * NodeShouldRunDaemonPod: `shouldRun` (a daemon pod belongs here) and
 * `shouldContinueRunning` (an existing one may stay: only an untolerated
 * NoExecute taint evicts it).
 */
export function nodeShouldRunDaemonPod(node: Node, ds: DaemonSet): { shouldRun: boolean; shouldContinueRunning: boolean } {
	const template = ds.spec.template.spec;
	if (template.nodeName && template.nodeName !== node.metadata.name) return { shouldRun: false, shouldContinueRunning: false };
	// NewPod's spec for this node: only nodeName and the tolerations differ
	// from the template, so a shallow copy will do (this runs for every node
	// on every sync).
	const spec: PodSpec = { ...template, nodeName: node.metadata.name, tolerations: daemonPodTolerations(template) };
	if (!new RequiredNodeAffinity(spec).match(node)) return { shouldRun: false, shouldContinueRunning: false };
	const taints = node.spec?.taints ?? [];
	const tolerations = spec.tolerations ?? [];
	if (findMatchingUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute' || t.effect === 'NoSchedule')) {
		return { shouldRun: false, shouldContinueRunning: !findMatchingUntoleratedTaint(taints, tolerations, (t) => t.effect === 'NoExecute') };
	}
	return { shouldRun: true, shouldContinueRunning: true };
}

/** podByCreationTimestampAndPhase: scheduled first, then older, then by name. */
function byCreationTimestampAndPhase(a: Pod, b: Pod): number {
	const sa = !!a.spec.nodeName;
	const sb = !!b.spec.nodeName;
	if (sa !== sb) return sa ? -1 : 1;
	const ta = timeMs(a.metadata.creationTimestamp);
	const tb = timeMs(b.metadata.creationTimestamp);
	if (ta === tb) return (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : (a.metadata.name ?? '') > (b.metadata.name ?? '') ? 1 : 0;
	return ta - tb;
}

/** The template generation the API server recorded, if any (GetTemplateGeneration). */
function templateGeneration(ds: DaemonSet): string | undefined {
	const text = ds.metadata.annotations?.[TEMPLATE_GENERATION_ANNOTATION];
	return text !== undefined && /^\d+$/.test(text) ? text : undefined;
}

/** IsPodUpdated: the pod carries the current hash (or template generation). */
function isPodUpdated(pod: Pod, hash: string, generation: string | undefined): boolean {
	const labels = pod.metadata.labels ?? {};
	return (hash !== '' && labels[CONTROLLER_REVISION_HASH_LABEL] === hash) || (generation !== undefined && labels[POD_TEMPLATE_GENERATION_LABEL] === generation);
}

/** The scaled maxUnavailable and maxSurge of a RollingUpdate DaemonSet (util.UnavailableCount, util.SurgeCount: percentages round up). */
function rollingCounts(ds: DaemonSet, desired: number): { maxUnavailable: number; maxSurge: number } {
	const rolling = ds.spec.updateStrategy?.rollingUpdate;
	if ((ds.spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return { maxUnavailable: 0, maxSurge: 0 };
	return { maxUnavailable: scaledValue(rolling?.maxUnavailable ?? 1, desired, true), maxSurge: scaledValue(rolling?.maxSurge ?? 0, desired, true) };
}

/** util.AllowsSurge: a RollingUpdate whose maxSurge is above 0 (scaled against 1 node). */
export function allowsSurge(ds: DaemonSet): boolean {
	return rollingCounts(ds, 1).maxSurge > 0;
}

/** shouldIgnoreNodeUpdate: only heartbeat times changed. */
function onlyHeartbeatChanged(oldNode: Node, node: Node): boolean {
	const strip = (n: Node) => {
		const { resourceVersion: _rv, ...metadata } = n.metadata;
		const conditions = n.status?.conditions?.map(({ lastHeartbeatTime: _t, ...c }) => c);
		return canonicalJson({ ...n, metadata, status: n.status && { ...n.status, conditions } });
	};
	return strip(oldNode) === strip(node);
}

type DaemonSetStatus = NonNullable<DaemonSet['status']>;

/** As serialized: the four required counters always, the `omitempty` ones only when non-zero. */
function normalizeDaemonSetStatus(status: DaemonSetStatus): DaemonSetStatus {
	const out = { ...status };
	for (const key of ['observedGeneration', 'updatedNumberScheduled', 'numberAvailable', 'numberUnavailable'] as const) if (!out[key]) delete out[key];
	return out;
}

export class DaemonSetController extends ControllerBase<{ expectations: ExpectationsState }> {
	readonly name = DAEMONSET_CONTROLLER;
	readonly sub = 'daemonset';
	readonly resources = ['daemonsets', 'pods', 'nodes', 'controllerrevisions'] as const;
	/** --concurrent-daemonset-syncs default 2 (pkg/controller/daemon/config/v1alpha1/defaults.go). */
	override readonly workers = 2;

	private readonly expectations = new Expectations(
		() => this.state.expectations,
		() => this.host.clock.nowMs(),
	);

	freshState(): { expectations: ExpectationsState } {
		return { expectations: {} };
	}

	// ---- event handlers --------------------------------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'daemonsets') this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.addPod(obj as Pod);
		else if (resource === 'nodes') for (const ds of this.allDaemonSets()) if (nodeShouldRunDaemonPod(obj as Node, ds).shouldRun) this.enqueue(keyOf(ds));
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === 'daemonsets') this.enqueue(keyOf(newObj));
		else if (resource === 'pods') this.updatePod(oldObj as Pod, newObj as Pod);
		else if (resource === 'nodes') {
			if (onlyHeartbeatChanged(oldObj as Node, newObj as Node)) return;
			for (const ds of this.allDaemonSets()) {
				const before = nodeShouldRunDaemonPod(oldObj as Node, ds);
				const after = nodeShouldRunDaemonPod(newObj as Node, ds);
				if (before.shouldRun !== after.shouldRun || before.shouldContinueRunning !== after.shouldContinueRunning) this.enqueue(keyOf(ds));
			}
		}
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'daemonsets') {
			this.expectations.delete(keyOf(obj));
			this.enqueue(keyOf(obj));
		} else if (resource === 'pods') this.deletePod(obj as Pod);
		else if (resource === 'nodes') for (const ds of this.allDaemonSets()) if (nodeShouldRunDaemonPod(obj as Node, ds).shouldRun) this.enqueue(keyOf(ds));
	}

	private allDaemonSets(): DaemonSet[] {
		return this.host.informer('daemonsets').list() as DaemonSet[];
	}

	private resolve(pod: Pod): DaemonSet | undefined {
		const ref = controllerOf(pod);
		if (!ref || ref.kind !== 'DaemonSet') return undefined;
		const ds = this.host.informer('daemonsets').get(`${pod.metadata.namespace}/${ref.name}`) as DaemonSet | undefined;
		return ds && ds.metadata.uid === ref.uid ? ds : undefined;
	}

	private selecting(pod: Pod): DaemonSet[] {
		return this.host.listInNamespace<DaemonSet>('daemonsets', pod.metadata.namespace).filter((ds) => {
			const s = compileSelector(ds.spec.selector);
			return s.ok && !s.empty && s.matches(pod.metadata.labels);
		});
	}

	private addPod(pod: Pod): void {
		if (pod.metadata.deletionTimestamp) {
			this.deletePod(pod);
			return;
		}
		if (controllerOf(pod)) {
			const ds = this.resolve(pod);
			if (!ds) return;
			this.expectations.creationObserved(keyOf(ds));
			this.enqueue(keyOf(ds));
			return;
		}
		for (const ds of this.selecting(pod)) this.enqueue(keyOf(ds));
	}

	private updatePod(oldPod: Pod, pod: Pod): void {
		if (oldPod.metadata.resourceVersion === pod.metadata.resourceVersion) return;
		if (pod.metadata.deletionTimestamp) {
			this.deletePod(pod);
			return;
		}
		const ref = controllerOf(pod);
		const oldRef = controllerOf(oldPod);
		if (oldRef && oldRef.uid !== ref?.uid) {
			const old = this.resolve(oldPod);
			if (old) this.enqueue(keyOf(old));
		}
		if (ref) {
			const ds = this.resolve(pod);
			if (!ds) return;
			this.enqueue(keyOf(ds));
			const minReady = ds.spec.minReadySeconds ?? 0;
			if (!isPodReady(oldPod) && isPodReady(pod) && minReady > 0) this.host.enqueueAfter(this.sub, keyOf(ds), minReady * 1000);
			return;
		}
		const labelsChanged = canonicalJson(oldPod.metadata.labels ?? {}) !== canonicalJson(pod.metadata.labels ?? {});
		if (labelsChanged || oldRef) for (const ds of this.selecting(pod)) this.enqueue(keyOf(ds));
	}

	private deletePod(pod: Pod): void {
		const ds = this.resolve(pod);
		if (!ds) return;
		this.expectations.anyDeletionObserved(keyOf(ds));
		this.enqueue(keyOf(ds));
	}

	// ---- sync ------------------------------------------------------------------------

	private nodes(): Node[] {
		return this.host.informer('nodes').list() as Node[];
	}

	sync(key: string): SyncError {
		const ds = this.host.informer('daemonsets').get(key) as DaemonSet | undefined;
		if (!ds) {
			this.expectations.delete(key);
			return undefined;
		}
		this.trace('reconcile', `daemonsets/${key}`, `syncing daemon set ${key}`);
		const selector = compileSelector(ds.spec.selector);
		if (selector.ok && selector.empty) {
			this.host.recorder(DAEMONSET_CONTROLLER).record(ds, 'Warning', 'SelectingAll', 'This daemon set is selecting all pods. A non-empty selector is required.');
			return undefined;
		}
		if (!selector.ok) return selector.error;
		// Being deleted: status cannot be trusted any more.
		if (ds.metadata.deletionTimestamp) return undefined;
		// constructHistory: the revision of the current template names the hash the pods carry.
		const revisions = this.host
			.listInNamespace<ControllerRevision>('controllerrevisions', ds.metadata.namespace)
			.filter((r) => selector.matches(r.metadata.labels) && controllerOf(r)?.uid === ds.metadata.uid);
		const history = constructHistory(this.host.client, ds, revisions);
		if ('error' in history) return history.error;
		const hash = history.current.metadata.labels?.[DAEMONSET_REVISION_LABEL] ?? computeHash(ds.spec.template, ds.status?.collisionCount);
		const nodes = this.nodes();
		if (!this.expectations.satisfied(key)) return this.updateStatus(ds, nodes, hash, false);
		let error = this.manage(ds, nodes, hash, selector.matches);
		if (!error && this.expectations.satisfied(key) && (ds.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate') error = this.rollingUpdate(ds, nodes, hash, selector.matches);
		if (!error && this.expectations.satisfied(key)) {
			const pods = [...this.nodesToDaemonPods(ds, selector.matches).map.values()].flat();
			error = cleanupHistory(this.host.client, ds, history.old, pods);
		}
		const statusError = this.updateStatus(ds, nodes, hash, true);
		return error ?? statusError;
	}

	/** getDaemonPods + getNodesToDaemonPods: the claimed pods by target node (finished pods being deleted left out). */
	private nodesToDaemonPods(ds: DaemonSet, matches: (labels: Record<string, string> | undefined) => boolean): { map: Map<string, Pod[]>; error?: string } {
		const pods = this.host.listInNamespace<Pod>('pods', ds.metadata.namespace);
		const claimed = claimObjects({ client: this.host.client, owner: ds, ownerResource: R.daemonsets, childResource: R.pods, matches: (p) => matches(p.metadata.labels) }, pods);
		const map = new Map<string, Pod[]>();
		for (const pod of claimed.claimed as Pod[]) {
			const phase = pod.status?.phase;
			if ((phase === 'Succeeded' || phase === 'Failed') && pod.metadata.deletionTimestamp) continue;
			const node = targetNodeName(pod);
			if (node === undefined) continue;
			map.set(node, [...(map.get(node) ?? []), pod]);
		}
		return { map, error: claimed.errors.length ? claimed.errors.join('; ') : undefined };
	}

	/** manage: which nodes need a pod, which pods must go. */
	private manage(ds: DaemonSet, nodes: Node[], hash: string, matches: (labels: Record<string, string> | undefined) => boolean): SyncError {
		const { map, error } = this.nodesToDaemonPods(ds, matches);
		if (error) return error;
		const needing: string[] = [];
		const toDelete: string[] = [];
		const recorder = this.host.recorder(DAEMONSET_CONTROLLER);
		for (const node of nodes) {
			const name = node.metadata.name ?? '';
			const { shouldRun, shouldContinueRunning } = nodeShouldRunDaemonPod(node, ds);
			const daemonPods = map.get(name) ?? [];
			if (shouldRun && daemonPods.length === 0) {
				needing.push(name);
			} else if (shouldContinueRunning) {
				const running: Pod[] = [];
				for (const pod of daemonPods) {
					if (pod.metadata.deletionTimestamp) continue;
					if (pod.status?.phase === 'Failed') {
						recorder.record(ds, 'Warning', 'FailedDaemonPod', `Found failed daemon pod ${pod.metadata.namespace}/${pod.metadata.name} on node ${name}, will try to kill it`);
						toDelete.push(pod.metadata.name ?? '');
					} else if (pod.status?.phase === 'Succeeded') {
						toDelete.push(pod.metadata.name ?? '');
					} else running.push(pod);
				}
				if (!allowsSurge(ds)) {
					// Without surge, one daemon pod per node: keep the oldest.
					if (running.length > 1) toDelete.push(...[...running].sort(byCreationTimestampAndPhase).slice(1).map((p) => p.metadata.name ?? ''));
				} else if (running.length <= 1) {
					// Surging: the node needs at least one live pod.
					if (running.length === 0 && shouldRun) needing.push(name);
				} else {
					// At most the oldest new and the oldest old pod; the old one goes once it is unready or the new one is available.
					let oldestNew: Pod | undefined;
					let oldestOld: Pod | undefined;
					for (const pod of [...running].sort(byCreationTimestampAndPhase)) {
						const isNew = pod.metadata.labels?.[CONTROLLER_REVISION_HASH_LABEL] === hash;
						if (isNew && !oldestNew) oldestNew = pod;
						else if (!isNew && !oldestOld) oldestOld = pod;
						else toDelete.push(pod.metadata.name ?? '');
					}
					if (oldestNew && oldestOld && (!isPodReady(oldestOld) || isPodAvailable(oldestNew, ds.spec.minReadySeconds ?? 0, this.wallMs))) toDelete.push(oldestOld.metadata.name ?? '');
				}
			} else if (daemonPods.length > 0) {
				for (const pod of daemonPods) if (!pod.metadata.deletionTimestamp) toDelete.push(pod.metadata.name ?? '');
			}
		}
		// getUnscheduledPodsWithoutNode: pods pinned to a node that no longer exists can never be scheduled.
		const known = new Set(nodes.map((n) => n.metadata.name));
		for (const [node, pods] of map) if (!known.has(node)) for (const pod of pods) if (!pod.spec.nodeName && !pod.metadata.deletionTimestamp) toDelete.push(pod.metadata.name ?? '');
		return this.syncNodes(ds, toDelete, needing, hash);
	}

	/** CreatePodTemplate: the template with the daemon tolerations and the hash (and generation) labels. */
	private podTemplate(ds: DaemonSet, hash: string): PodTemplateSpec {
		const template = deepCopy(ds.spec.template);
		addDaemonPodTolerations(template.spec);
		template.metadata = { ...(template.metadata ?? {}), labels: { ...(template.metadata?.labels ?? {}) } };
		const generation = templateGeneration(ds);
		if (generation !== undefined) template.metadata.labels![POD_TEMPLATE_GENERATION_LABEL] = generation;
		if (hash) template.metadata.labels![CONTROLLER_REVISION_HASH_LABEL] = hash;
		return template;
	}

	/** syncNodes: creations in slow-start batches, then deletions, with expectations set first. */
	private syncNodes(ds: DaemonSet, podsToDelete: string[], nodesNeedingPods: string[], hash: string): SyncError {
		const key = keyOf(ds);
		const createDiff = Math.min(nodesNeedingPods.length, DAEMONSET_BURST_REPLICAS);
		const deleteDiff = Math.min(podsToDelete.length, DAEMONSET_BURST_REPLICAS);
		if (createDiff === 0 && deleteDiff === 0) return undefined;
		this.expectations.set(key, createDiff, deleteDiff);
		const recorder = this.host.recorder(DAEMONSET_CONTROLLER);
		const template = this.podTemplate(ds, hash);
		const errors: string[] = [];
		let batchSize = Math.min(createDiff, 1);
		for (let pos = 0; pos < createDiff; ) {
			const errorsBefore = errors.length;
			this.trace('slow-start', `daemonsets/${key}`, `creating a batch of ${batchSize} daemon pod${batchSize === 1 ? '' : 's'}`);
			for (let i = pos; i < pos + batchSize; i++) {
				const spec = deepCopy(template.spec);
				pinToNode(spec, nodesNeedingPods[i]);
				const pod: Pod = { apiVersion: 'v1', kind: 'Pod', metadata: { generateName: `${ds.metadata.name}-`, namespace: ds.metadata.namespace, labels: { ...(template.metadata?.labels ?? {}) }, ownerReferences: [newControllerRef(ds)] }, spec };
				if (template.metadata?.annotations && Object.keys(template.metadata.annotations).length) pod.metadata.annotations = { ...template.metadata.annotations };
				const created = this.host.client.create<Pod>(R.pods, ds.metadata.namespace, pod);
				if (created.ok) {
					recorder.record(ds, 'Normal', 'SuccessfulCreate', `Created pod: ${created.object.metadata.name}`);
					continue;
				}
				if (isNamespaceTerminating(created)) continue;
				recorder.record(ds, 'Warning', 'FailedCreate', `Error creating: ${created.message}`);
				this.expectations.creationObserved(key);
				errors.push(created.message);
			}
			const skipped = createDiff - (pos + batchSize);
			if (errors.length > errorsBefore && skipped > 0) {
				this.expectations.lower(key, skipped, 0);
				break;
			}
			pos += batchSize;
			batchSize = Math.min(2 * batchSize, createDiff - pos);
		}
		for (const name of podsToDelete.slice(0, deleteDiff)) {
			const deleted = this.host.client.delete(R.pods, ds.metadata.namespace, name);
			if (deleted.ok) {
				recorder.record(ds, 'Normal', 'SuccessfulDelete', `Deleted pod: ${name}`);
				continue;
			}
			this.expectations.anyDeletionObserved(key);
			if (deleted.code === 404) continue;
			recorder.record(ds, 'Warning', 'FailedDelete', `Error deleting: ${deleted.message}`);
			errors.push(`unable to delete pods: ${deleted.message}`);
		}
		return errors.length ? errors.join('; ') : undefined;
	}

	/**
	 * rollingUpdate: without surge, delete old pods while no more than
	 * maxUnavailable nodes are without an available pod (the manage loop then
	 * creates their replacements); with surge, create new pods next to old
	 * ones on at most maxSurge nodes at a time, and delete an old pod once
	 * its node's new pod is available.
	 */
	private rollingUpdate(ds: DaemonSet, nodes: Node[], hash: string, matches: (labels: Record<string, string> | undefined) => boolean): SyncError {
		const { map, error } = this.nodesToDaemonPods(ds, matches);
		if (error) return error;
		let desired = 0;
		for (const node of nodes) {
			if (!nodeShouldRunDaemonPod(node, ds).shouldRun) continue;
			desired++;
			if (!map.has(node.metadata.name ?? '')) map.set(node.metadata.name ?? '', []);
		}
		// DaemonSet defaults: maxUnavailable 1, maxSurge 0; percentages round up.
		const counts = rollingCounts(ds, desired);
		const maxSurge = counts.maxSurge;
		let maxUnavailable = counts.maxUnavailable;
		// An impossible configuration (both 0) falls back to accepting one unavailable node.
		if (desired > 0 && maxUnavailable === 0 && maxSurge === 0) maxUnavailable = 1;
		const generation = templateGeneration(ds);
		const now = this.wallMs;
		const minReady = ds.spec.minReadySeconds ?? 0;
		const available = (pod: Pod) => isPodAvailable(pod, minReady, now);
		/** findUpdatedPodsOnNode: the node's one new and one old live pod, or undefined when it has more (the manage loop prunes them). */
		const onNode = (nodeName: string) => {
			const live = (map.get(nodeName) ?? []).filter((p) => !p.metadata.deletionTimestamp);
			const updated = live.filter((p) => isPodUpdated(p, hash, generation));
			const old = live.filter((p) => !isPodUpdated(p, hash, generation));
			return updated.length > 1 || old.length > 1 ? undefined : { newPod: updated[0] as Pod | undefined, oldPod: old[0] as Pod | undefined };
		};
		const nodeNames = [...map.keys()].sort();
		const key = `daemonsets/${keyOf(ds)}`;

		if (maxSurge === 0) {
			let numUnavailable = 0;
			const allowedReplacement: string[] = [];
			const candidates: string[] = [];
			for (const nodeName of nodeNames) {
				const found = onNode(nodeName);
				if (!found) {
					numUnavailable++;
					continue;
				}
				const { newPod, oldPod } = found;
				if ((!newPod && !oldPod) || (newPod && oldPod)) numUnavailable++;
				else if (newPod) {
					if (!available(newPod)) numUnavailable++;
				} else if (oldPod) {
					if (!available(oldPod)) allowedReplacement.push(oldPod.metadata.name ?? '');
					else if (numUnavailable < maxUnavailable) candidates.push(oldPod.metadata.name ?? '');
				}
			}
			const remaining = Math.max(0, Math.min(maxUnavailable - numUnavailable, candidates.length));
			const toDelete = [...allowedReplacement, ...candidates.slice(0, remaining)];
			if (toDelete.length) this.trace('rolling-update', key, `replacing ${toDelete.length} old daemon pod${toDelete.length === 1 ? '' : 's'} (max unavailable ${maxUnavailable}, unavailable now ${numUnavailable})`);
			return this.syncNodes(ds, toDelete, [], hash);
		}

		const byName = new Map(nodes.map((n) => [n.metadata.name ?? '', n]));
		const oldPodsToDelete: string[] = [];
		const shouldNotRunPodsToDelete: string[] = [];
		const candidateNewNodes: string[] = [];
		const allowedNewNodes: string[] = [];
		let numSurge = 0;
		let numAvailable = 0;
		for (const nodeName of nodeNames) {
			const found = onNode(nodeName);
			if (!found) {
				numSurge++;
				continue;
			}
			const { newPod, oldPod } = found;
			if (oldPod ? available(oldPod) : newPod ? available(newPod) : false) numAvailable++;
			if (!oldPod) continue;
			if (!newPod) {
				const node = byName.get(nodeName);
				if (!node) return `couldn't get node for nodeName ${JSON.stringify(nodeName)}: node ${JSON.stringify(nodeName)} not found`;
				const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
				if (!available(oldPod)) {
					// Unavailable anyway: replace it now (or just remove it from a node it no longer belongs on).
					if (!shouldRun) oldPodsToDelete.push(oldPod.metadata.name ?? '');
					else allowedNewNodes.push(nodeName);
				} else if (!shouldRun) shouldNotRunPodsToDelete.push(oldPod.metadata.name ?? '');
				else if (numSurge < maxSurge) candidateNewNodes.push(nodeName);
				continue;
			}
			// Already surged here: wait for the new pod, then retire the old one.
			if (!available(newPod)) numSurge++;
			else oldPodsToDelete.push(oldPod.metadata.name ?? '');
		}
		const remainingSurge = Math.max(0, Math.min(maxSurge - numSurge, candidateNewNodes.length));
		// Pods on nodes the DaemonSet left go only while enough pods elsewhere are available.
		const deletable = Math.min(Math.max(0, numAvailable - desired), shouldNotRunPodsToDelete.length);
		oldPodsToDelete.push(...shouldNotRunPodsToDelete.slice(0, deletable));
		const newNodesToCreate = [...allowedNewNodes, ...candidateNewNodes.slice(0, remainingSurge)];
		if (newNodesToCreate.length || oldPodsToDelete.length) this.trace('rolling-update', key, `surging onto ${newNodesToCreate.length} node${newNodesToCreate.length === 1 ? '' : 's'} and retiring ${oldPodsToDelete.length} old daemon pod${oldPodsToDelete.length === 1 ? '' : 's'} (max surge ${maxSurge}, surging now ${numSurge})`);
		return this.syncNodes(ds, oldPodsToDelete, newNodesToCreate, hash);
	}

	/** updateDaemonSetStatus + storeDaemonSetStatus. */
	private updateStatus(ds: DaemonSet, nodes: Node[], hash: string, updateObservedGen: boolean): SyncError {
		const selector = compileSelector(ds.spec.selector);
		if (!selector.ok) return selector.error;
		const { map, error } = this.nodesToDaemonPods(ds, selector.matches);
		if (error) return error;
		let desired = 0;
		let current = 0;
		let misscheduled = 0;
		let ready = 0;
		let updated = 0;
		let available = 0;
		const generation = templateGeneration(ds);
		const minReady = ds.spec.minReadySeconds ?? 0;
		for (const node of nodes) {
			const { shouldRun } = nodeShouldRunDaemonPod(node, ds);
			const pods = map.get(node.metadata.name ?? '') ?? [];
			if (!shouldRun) {
				if (pods.length > 0) misscheduled++;
				continue;
			}
			desired++;
			if (pods.length === 0) continue;
			current++;
			const pod = [...pods].sort(byCreationTimestampAndPhase)[0];
			if (isPodReady(pod)) {
				ready++;
				if (isPodAvailable(pod, minReady, this.wallMs)) available++;
			}
			if (isPodUpdated(pod, hash, generation)) updated++;
		}
		const status: DaemonSetStatus = {
			currentNumberScheduled: current,
			numberMisscheduled: misscheduled,
			desiredNumberScheduled: desired,
			numberReady: ready,
			observedGeneration: updateObservedGen ? ds.metadata.generation : ds.status?.observedGeneration,
			updatedNumberScheduled: updated,
			numberAvailable: available,
			numberUnavailable: desired - available,
		};
		const old = ds.status;
		const same =
			old &&
			old.desiredNumberScheduled === desired &&
			old.currentNumberScheduled === current &&
			old.numberMisscheduled === misscheduled &&
			old.numberReady === ready &&
			(old.updatedNumberScheduled ?? 0) === updated &&
			(old.numberAvailable ?? 0) === available &&
			(old.numberUnavailable ?? 0) === desired - available &&
			(old.observedGeneration ?? 0) >= (ds.metadata.generation ?? 0);
		if (minReady > 0 && ready !== available) this.host.enqueueAfter(this.sub, keyOf(ds), minReady * 1000);
		if (same) return undefined;
		let target: DaemonSet = ds;
		for (let i = 0; ; i++) {
			const written = this.host.client.updateStatus(R.daemonsets, { ...deepCopy(target), status: normalizeDaemonSetStatus({ ...(target.status ?? {}), ...status }) });
			if (written.ok) return undefined;
			if (i >= 1) return written.message;
			const fresh = this.host.client.get<DaemonSet>(R.daemonsets, ds.metadata.namespace, ds.metadata.name ?? '');
			if (!fresh.ok) return fresh.message;
			target = fresh.object;
		}
	}
}
