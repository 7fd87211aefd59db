/**
 * The ReplicaSet controller: keeps `spec.replicas` pods matching the
 * selector. It creates missing pods from the template in slow-start batches
 * (1, 2, 4, ...) and deletes surplus ones (the least valuable first, see
 * ./active-pods.ts), adopts matching orphans and releases pods that stopped
 * matching, never acts twice on a stale cache (expectations), and reports
 * status.
 *
 * Mirrors pkg/controller/replicaset/replica_set.go,
 * pkg/controller/replicaset/replica_set_utils.go,
 * pkg/controller/controller_utils.go (RealPodControl).
 */
import type { KubeObject, LabelSelector, Pod, ReplicaSet } from '../api/types.ts';
import { R, type ResourceRef } from '../client/client.ts';
import { keyOf } from '../client/informer.ts';
import { podsToDelete } from './active-pods.ts';
import { ControllerBase, controlledOrOrphaned, resolveControllerRef, type ControllerHost, type SyncError } from './controller-context.ts';
import { Expectations, type ExpectationsState } from './expectations.ts';
import { canonicalJson } from './hash.ts';
import { compileSelector, controllerOf, isNamespaceTerminating, isPodActive, isPodAvailable, isPodReady, isPodTerminating, keyFor, newControllerRef, splitKey } from './pod-util.ts';
import { deepCopy } from '../golang/json.ts';
import { claimObjects } from './ref-manager.ts';

/**
 * What differs between the two kinds this controller keeps: upstream runs the
 * same code for ReplicationControllers, behind adapters that convert each
 * one to a ReplicaSet (pkg/controller/replication/conversion.go).
 */
export interface ReplicatedKind {
	/** The name `--controllers` knows; its service account comes from it. */
	readonly controllerName: string;
	/** The alias and trace sub-loop. */
	readonly sub: string;
	readonly resource: 'replicasets' | 'replicationcontrollers';
	readonly ref: ResourceRef;
	readonly kind: 'ReplicaSet' | 'ReplicationController';
	/** The event source's component. */
	readonly eventSource: string;
	/** The kind in the trace's words. */
	readonly noun: string;
	/** The owner's selector as a LabelSelector (a ReplicationController's is a plain map). */
	selectorOf(owner: ReplicaSet): LabelSelector | null | undefined;
	/** Whether the status has terminatingReplicas (ReplicationControllerStatus has not). */
	readonly countsTerminating: boolean;
}

export const REPLICA_SETS: ReplicatedKind = {
	controllerName: 'replicaset-controller',
	sub: 'replicaset',
	resource: 'replicasets',
	ref: R.replicasets,
	kind: 'ReplicaSet',
	eventSource: 'replicaset-controller',
	noun: 'replica set',
	selectorOf: (owner) => owner.spec.selector,
	countsTerminating: true,
};

/** BurstReplicas: at most this many creations or deletions per sync (replica_set.go). */
const BURST_REPLICAS = 500;
/** SlowStartInitialBatchSize (controller_utils.go). */
const SLOW_START_INITIAL_BATCH_SIZE = 1;
/** statusUpdateRetries: one fresh read and retry after a failed status write (replica_set_utils.go). */
const STATUS_UPDATE_RETRIES = 1;

interface ReplicaSetControllerState {
	expectations: ExpectationsState;
}

type ReplicaSetStatus = NonNullable<ReplicaSet['status']>;
type ReplicaSetCondition = NonNullable<ReplicaSetStatus['conditions']>[number];

/**
 * slowStartBatch: calls `fn` `count` times in batches of 1, 2, 4, ...,
 * stopping after the first batch with a failure. Returns the successes and
 * the first error. `onBatch` sees each batch size before it runs.
 */
export function slowStartBatch(count: number, initialBatchSize: number, fn: () => string | undefined, onBatch?: (size: number) => void): { successes: number; error?: string } {
	let remaining = count;
	let successes = 0;
	for (let batchSize = Math.min(remaining, initialBatchSize); batchSize > 0; batchSize = Math.min(2 * batchSize, remaining)) {
		onBatch?.(batchSize);
		let firstError: string | undefined;
		for (let i = 0; i < batchSize; i++) {
			const error = fn();
			if (error === undefined) successes++;
			else firstError ??= error;
		}
		if (firstError !== undefined) return { successes, error: firstError };
		remaining -= batchSize;
	}
	return { successes };
}

/** The pod a controller creates from a template (GetPodFromTemplate): generateName `<owner>-`, a controller reference. */
export function podFromTemplate(template: NonNullable<ReplicaSet['spec']['template']>, owner: KubeObject, namespace: string | undefined): Pod {
	const meta = template.metadata ?? {};
	const pod: Pod = {
		apiVersion: 'v1',
		kind: 'Pod',
		metadata: { generateName: `${owner.metadata.name}-`, namespace, ownerReferences: [newControllerRef(owner)] },
		spec: deepCopy(template.spec),
	};
	if (meta.labels && Object.keys(meta.labels).length) pod.metadata.labels = { ...meta.labels };
	if (meta.annotations && Object.keys(meta.annotations).length) pod.metadata.annotations = { ...meta.annotations };
	if (meta.finalizers?.length) pod.metadata.finalizers = [...meta.finalizers];
	return pod;
}

/** The status as serialized: replicas always, the other counters only when non-zero, terminatingReplicas when set. */
function normalizeRsStatus(status: ReplicaSet['status'] | undefined, countsTerminating = true): ReplicaSetStatus {
	const out: ReplicaSetStatus = { replicas: status?.replicas ?? 0 };
	if (status?.fullyLabeledReplicas) out.fullyLabeledReplicas = status.fullyLabeledReplicas;
	if (status?.readyReplicas) out.readyReplicas = status.readyReplicas;
	if (status?.availableReplicas) out.availableReplicas = status.availableReplicas;
	if (countsTerminating && status?.terminatingReplicas !== undefined) out.terminatingReplicas = status.terminatingReplicas;
	if (status?.observedGeneration) out.observedGeneration = status.observedGeneration;
	if (status?.conditions?.length) out.conditions = status.conditions;
	return out;
}

export class ReplicaSetController extends ControllerBase<ReplicaSetControllerState> {
	readonly name: string;
	readonly sub: string;
	readonly resources: readonly string[];
	/** --concurrent-replicaset-syncs and --concurrent-rc-syncs both default to 5 (their config/v1alpha1/defaults.go). */
	override readonly workers = 5;

	constructor(
		host: ControllerHost,
		private readonly kind: ReplicatedKind = REPLICA_SETS,
	) {
		super(host);
		this.name = kind.controllerName;
		this.sub = kind.sub;
		this.resources = [kind.resource, 'pods'];
	}

	private readonly expectations = new Expectations(
		() => this.state.expectations,
		() => this.host.clock.nowMs(),
	);

	freshState(): ReplicaSetControllerState {
		return { expectations: {} };
	}

	// ---- event handlers ----------------------------------------------------------

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === this.kind.resource) this.enqueue(keyOf(obj));
		else if (resource === 'pods') this.addPod(obj as Pod);
	}

	override onUpdate(resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		if (resource === this.kind.resource) {
			if (oldObj.metadata.uid !== newObj.metadata.uid) this.onDelete(resource, oldObj);
			this.enqueue(keyOf(newObj));
		} else if (resource === 'pods') this.updatePod(oldObj as Pod, newObj as Pod);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === this.kind.resource) {
			this.expectations.delete(keyOf(obj));
			this.enqueue(keyOf(obj));
		} else if (resource === 'pods') this.deletePod(obj as Pod);
	}

	private addPod(pod: Pod): void {
		if (pod.metadata.deletionTimestamp) {
			this.deletePod(pod);
			return;
		}
		const ref = controllerOf(pod);
		if (ref) {
			const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (!rs) return;
			this.expectations.creationObserved(keyOf(rs));
			this.enqueue(keyOf(rs));
			return;
		}
		// An orphan: wake every ReplicaSet that might adopt it (no expectation is waiting for it).
		for (const rs of this.replicaSetsSelecting(pod)) this.enqueue(keyOf(rs));
	}

	private updatePod(oldPod: Pod, pod: Pod): void {
		if (oldPod.metadata.resourceVersion === pod.metadata.resourceVersion) return;
		const labelChanged = canonicalJson(oldPod.metadata.labels ?? {}) !== canonicalJson(pod.metadata.labels ?? {});
		if (pod.metadata.deletionTimestamp) {
			// A graceful deletion started: replace the pod now, not when the kubelet is done.
			this.deletePod(pod);
			if (labelChanged) this.deletePod(oldPod);
			return;
		}
		const ref = controllerOf(pod);
		const oldRef = controllerOf(oldPod);
		const refChanged = canonicalJson(ref ?? null) !== canonicalJson(oldRef ?? null);
		if (refChanged && oldRef) {
			const old = this.resolveControllerRef(oldPod.metadata.namespace, oldRef);
			if (old) this.enqueue(keyOf(old));
		}
		if (ref) {
			const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
			if (!rs) return;
			this.enqueue(keyOf(rs));
			const minReady = rs.spec.minReadySeconds ?? 0;
			// The pod becomes available minReadySeconds after it became ready: look again then (plus a second of skew).
			if (!isPodReady(oldPod) && isPodReady(pod) && minReady > 0) this.host.enqueueAfter(this.sub, keyOf(rs), minReady * 1000 + 1000);
			return;
		}
		if (labelChanged || refChanged) for (const rs of this.replicaSetsSelecting(pod)) this.enqueue(keyOf(rs));
	}

	private deletePod(pod: Pod): void {
		const ref = controllerOf(pod);
		if (!ref) return;
		const rs = this.resolveControllerRef(pod.metadata.namespace, ref);
		if (!rs) return;
		this.expectations.deletionObserved(keyOf(rs), keyFor(pod.metadata.namespace, pod.metadata.name ?? ''));
		this.enqueue(keyOf(rs));
	}

	private resolveControllerRef(namespace: string | undefined, ref: { kind: string; name: string; uid: string }): ReplicaSet | undefined {
		return resolveControllerRef<ReplicaSet>(this.host, this.kind.resource, this.kind.kind, namespace, ref);
	}

	/** getPodReplicaSets: the owners of the namespace whose (non-empty) selector matches the pod. */
	private replicaSetsSelecting(pod: Pod): ReplicaSet[] {
		return this.host.listInNamespace<ReplicaSet>(this.kind.resource, pod.metadata.namespace).filter((owner) => {
			const selector = compileSelector(this.kind.selectorOf(owner));
			return selector.ok && !selector.empty && selector.matches(pod.metadata.labels);
		});
	}

	// ---- sync ------------------------------------------------------------------------

	sync(key: string): SyncError {
		const { resource, noun } = this.kind;
		const rs = this.host.informer(resource).get(key) as ReplicaSet | undefined;
		if (!rs) {
			this.trace('reconcile', `${resource}/${key}`, `${noun} ${key} has been deleted`);
			this.expectations.delete(key);
			return undefined;
		}
		const needsSync = this.expectations.satisfied(key);
		this.trace('reconcile', `${resource}/${key}`, needsSync ? `syncing ${noun} ${key}` : `syncing ${noun} ${key}: waiting for earlier creations or deletions to show`);
		const selector = compileSelector(this.kind.selectorOf(rs));
		if (!selector.ok) return `error converting pod selector to selector for rs ${key}: ${selector.error}`;
		const { namespace } = splitKey(key);
		// getRSPods: the pods we control (also those that stopped matching, to
		// release them) and the namespace's orphans (to adopt the matching
		// ones), from the informer's controller-UID index.
		const allPods = controlledOrOrphaned<Pod>(this.host, 'pods', namespace, rs.metadata.uid ?? '');
		const claimed = claimObjects(
			{ client: this.host.client, owner: rs, ownerResource: this.kind.ref, childResource: R.pods, matches: (p) => selector.matches(p.metadata.labels) },
			allPods.filter(isPodActive),
		);
		if (claimed.errors.length) return claimed.errors.join('; ');
		const filteredPods = claimed.claimed as Pod[];
		// DeploymentReplicaSetTerminatingReplicas (beta, on by default since v1.35): count our terminating pods.
		const terminatingPods = allPods.filter((p) => isPodTerminating(p) && controllerOf(p)?.uid === rs.metadata.uid && selector.matches(p.metadata.labels));

		let manageError: string | undefined;
		if (needsSync && !rs.metadata.deletionTimestamp) manageError = this.manageReplicas(filteredPods, rs);
		const newStatus = this.calculateStatus(rs, filteredPods, terminatingPods, manageError);
		const updated = this.updateStatus(rs, newStatus);
		if (typeof updated === 'string') return updated;
		// Last line of defence against a missed availability change: look again after minReadySeconds.
		const minReady = updated.spec.minReadySeconds ?? 0;
		const want = updated.spec.replicas ?? 1;
		if (!manageError && minReady > 0 && (updated.status?.readyReplicas ?? 0) === want && (updated.status?.availableReplicas ?? 0) !== want) {
			this.host.enqueueAfter(this.sub, key, minReady * 1000);
		}
		return manageError;
	}

	/** manageReplicas: create or delete the difference, at most BurstReplicas at a time. */
	private manageReplicas(filteredPods: Pod[], rs: ReplicaSet): string | undefined {
		const key = keyOf(rs);
		const want = rs.spec.replicas ?? 1;
		let diff = filteredPods.length - want;
		const recorder = this.host.recorder(this.kind.eventSource);
		if (diff < 0) {
			diff = Math.min(-diff, BURST_REPLICAS);
			const template = rs.spec.template;
			if (!template) return 'unable to create pods, no template';
			this.expectations.expectCreations(key, diff);
			const result = slowStartBatch(
				diff,
				SLOW_START_INITIAL_BATCH_SIZE,
				() => {
					const pod = podFromTemplate(template, rs, rs.metadata.namespace);
					if (!pod.metadata.labels) return 'unable to create pods, no labels';
					const created = this.host.client.create<Pod>(R.pods, rs.metadata.namespace, pod);
					if (created.ok) {
						recorder.record(rs, 'Normal', 'SuccessfulCreate', `Created pod: ${created.object.metadata.name}`);
						return undefined;
					}
					// A terminating namespace refuses every creation: nothing to report.
					if (isNamespaceTerminating(created)) return undefined;
					recorder.record(rs, 'Warning', 'FailedCreate', `Error creating: ${created.message}`);
					return created.message;
				},
				(size) => this.trace('slow-start', `${this.kind.resource}/${key}`, `creating a batch of ${size} pod${size === 1 ? '' : 's'} (need ${want}, have ${filteredPods.length})`),
			);
			// Pods never attempted are not expected any more; the next sync tries again.
			for (let i = result.successes; i < diff; i++) this.expectations.creationObserved(key);
			return result.error;
		}
		if (diff > 0) {
			diff = Math.min(diff, BURST_REPLICAS);
			const related = this.indirectlyRelatedPods(rs);
			const victims = podsToDelete(filteredPods, related, diff, this.wallMs);
			this.expectations.expectDeletions(
				key,
				victims.map((p) => keyFor(p.metadata.namespace, p.metadata.name ?? '')),
			);
			let firstError: string | undefined;
			for (const pod of victims) {
				const deleted = this.host.client.delete(R.pods, rs.metadata.namespace, pod.metadata.name ?? '');
				if (deleted.ok) {
					recorder.record(rs, 'Normal', 'SuccessfulDelete', `Deleted pod: ${pod.metadata.name}`);
					continue;
				}
				// The informer will never show this deletion.
				this.expectations.deletionObserved(key, keyFor(pod.metadata.namespace, pod.metadata.name ?? ''));
				if (deleted.code === 404) continue;
				recorder.record(rs, 'Warning', 'FailedDelete', `Error deleting: ${deleted.message}`);
				firstError ??= `unable to delete pods: ${deleted.message}`;
			}
			return firstError;
		}
		return undefined;
	}

	/** getIndirectlyRelatedPods: pods of every ReplicaSet with the same controller (the Deployment's other ReplicaSets). */
	private indirectlyRelatedPods(rs: ReplicaSet): Pod[] {
		const owner = controllerOf(rs);
		if (!owner) return [];
		const seen = new Set<string>();
		const related: Pod[] = [];
		const pods = this.host.listInNamespace<Pod>('pods', rs.metadata.namespace);
		for (const other of this.host.listInNamespace<ReplicaSet>(this.kind.resource, rs.metadata.namespace)) {
			if (controllerOf(other)?.uid !== owner.uid) continue;
			const selector = compileSelector(this.kind.selectorOf(other));
			if (!selector.ok) continue;
			for (const pod of pods) {
				if (!selector.matches(pod.metadata.labels) || seen.has(pod.metadata.uid ?? '')) continue;
				seen.add(pod.metadata.uid ?? '');
				related.push(pod);
			}
		}
		return related;
	}

	/** calculateStatus (replica_set_utils.go). */
	private calculateStatus(rs: ReplicaSet, filteredPods: Pod[], terminatingPods: Pod[], manageError: string | undefined): ReplicaSetStatus {
		const status = normalizeRsStatus(deepCopy(rs.status), this.kind.countsTerminating);
		const templateLabels = Object.entries(rs.spec.template?.metadata?.labels ?? {});
		let fullyLabeled = 0;
		let ready = 0;
		let available = 0;
		for (const pod of filteredPods) {
			if (templateLabels.every(([k, v]) => pod.metadata.labels?.[k] === v)) fullyLabeled++;
			if (isPodReady(pod)) {
				ready++;
				if (isPodAvailable(pod, rs.spec.minReadySeconds ?? 0, this.wallMs)) available++;
			}
		}
		const failure = status.conditions?.find((c) => c.type === 'ReplicaFailure');
		if (manageError && !failure) {
			const diff = filteredPods.length - (rs.spec.replicas ?? 1);
			const reason = diff < 0 ? 'FailedCreate' : diff > 0 ? 'FailedDelete' : '';
			const condition: ReplicaSetCondition = { type: 'ReplicaFailure', status: 'True', lastTransitionTime: this.nowRfc3339(), reason, message: manageError };
			status.conditions = [...(status.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure'), condition];
		} else if (!manageError && failure) {
			status.conditions = (status.conditions ?? []).filter((c) => c.type !== 'ReplicaFailure');
		}
		status.replicas = filteredPods.length;
		status.fullyLabeledReplicas = fullyLabeled;
		status.readyReplicas = ready;
		status.availableReplicas = available;
		status.terminatingReplicas = terminatingPods.length;
		return normalizeRsStatus(status, this.kind.countsTerminating);
	}

	/** updateReplicaSetStatus: writes when something changed, with one fresh read and retry on failure. */
	private updateStatus(rs: ReplicaSet, newStatus: ReplicaSetStatus): ReplicaSet | string {
		const current = normalizeRsStatus(rs.status, this.kind.countsTerminating);
		const sameCounts = (['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas'] as const).every((k) => current[k] === newStatus[k]);
		if (sameCounts && (rs.metadata.generation ?? 0) === (current.observedGeneration ?? 0) && canonicalJson(current.conditions ?? []) === canonicalJson(newStatus.conditions ?? [])) return rs;
		const status = normalizeRsStatus({ ...newStatus, observedGeneration: rs.metadata.generation }, this.kind.countsTerminating);
		let target = rs;
		for (let i = 0; ; i++) {
			const body = { ...deepCopy(target), status };
			const written = this.host.client.updateStatus<ReplicaSet>(this.kind.ref, body);
			if (written.ok) return written.object;
			if (i >= STATUS_UPDATE_RETRIES) return written.message;
			const fresh = this.host.client.get<ReplicaSet>(this.kind.ref, rs.metadata.namespace, rs.metadata.name ?? '');
			if (!fresh.ok) return fresh.message;
			target = fresh.object;
		}
	}
}
