/**
 * The StatefulSet controller's core loop, one StatefulSet at a time: find
 * or record the update revision, then bring the Pods to the target state
 * and write the status.
 *
 * - Revisions: the set's template as a ControllerRevision. An unchanged
 *   template keeps the newest revision; a template equal to an older one
 *   (a rollback) bumps that revision's number; a new one is created.
 *   `status.currentRevision` stays until a RollingUpdate completes.
 *   Revisions no Pod uses beyond `revisionHistoryLimit` (10) are deleted,
 *   oldest first.
 * - Replicas, with `OrderedReady` (monotonic): ordinals start..end in
 *   order; a missing Pod is created and nothing more happens this round; a
 *   Failed or Succeeded Pod is deleted to be recreated under the same name;
 *   a Pod that is terminating, not Running and Ready, or not yet available
 *   (minReadySeconds) blocks everything after it. With `Parallel` the same
 *   work is done for every ordinal at once (slow-start batches) and nothing
 *   blocks.
 * - Condemned Pods (ordinals outside the range, after a scale down): the
 *   highest ordinal first, one at a time, each only once every replica is
 *   healthy and the one before it has terminated (monotonic); all at once
 *   with Parallel.
 * - Updates: OnDelete stops there. RollingUpdate deletes Pods not at the
 *   update revision from the highest ordinal down to the partition, at
 *   most `maxUnavailable` (default 1; MaxUnavailableStatefulSet is beta and
 *   on by default since v1.35) unavailable at a time; the next sync
 *   recreates each at the update revision.
 *
 * Mirrors pkg/controller/statefulset/stateful_set_control.go,
 * pkg/controller/statefulset/stateful_set_status_updater.go.
 */
import type { ControllerRevision, Pod, StatefulSet } from '../../api/types.ts';
import { R, type ApiClient } from '../../client/client.ts';
import { deepCopy } from '../../golang/json.ts';
import { createControllerRevision, findEqualRevisions, equalRevision, sortControllerRevisions, updateControllerRevision } from '../history.ts';
import type { StatefulPodControl } from './stateful-pod-control.ts';
import {
	allowsBurst,
	applyRevision,
	byDescendingOrdinal,
	completeRollingUpdate,
	endOrdinal,
	getOrdinal,
	getPodRevision,
	identityMatches,
	inconsistentStatus,
	isCreated,
	isFailed,
	isRunningAndAvailable,
	isRunningAndReady,
	isSucceeded,
	isTerminating,
	isUnavailable,
	maxUnavailableOf,
	newRevision,
	newVersionedStatefulSetPod,
	nextRevision,
	podInOrdinalRange,
	specOf,
	startOrdinal,
	storageMatches,
	type StatefulSetStatus,
} from './stateful-set-utils.ts';

/** What the loop needs from its controller. */
export interface StatefulSetControlContext {
	client(): ApiClient;
	podControl: StatefulPodControl;
	nowWallMs(): number;
	trace(action: string, object: string, msg: string): void;
}

/** One step's verdict: stop this round (exit), with an error or not. */
interface Step {
	exit: boolean;
	error?: string;
}

const CONTINUE: Step = { exit: false };
const EXIT: Step = { exit: true };

/** The outcome of UpdateStatefulSet: the status computed (when it got that far) and the first error. */
export interface UpdateResult {
	status?: StatefulSetStatus;
	error?: string;
}

/**
 * slowStartBatch over indexes: batches of 1, 2, 4, ... (at most 500),
 * stopping after a batch with a failure.
 */
function slowStartBatch(count: number, fn: (i: number) => Step): string | undefined {
	let next = 0;
	let remaining = count;
	for (let batch = Math.min(remaining, 1); batch > 0; batch = Math.min(2 * batch, remaining, 500)) {
		const errors: string[] = [];
		for (let k = 0; k < batch; k++) {
			const step = fn(next++);
			if (step.error) errors.push(step.error);
		}
		if (errors.length) return errors.join('; ');
		remaining -= batch;
	}
	return undefined;
}

/** runForAll: in order, stopping at the first exit (monotonic), or every index in slow-start batches. */
function runForAll(count: number, fn: (i: number) => Step, monotonic: boolean): Step {
	if (monotonic) {
		for (let i = 0; i < count; i++) {
			const step = fn(i);
			if (step.exit || step.error) return { exit: true, error: step.error };
		}
		return CONTINUE;
	}
	const error = slowStartBatch(count, fn);
	return error ? { exit: true, error } : CONTINUE;
}

/** computeReplicaStatus over lists of Pods (placeholders for Pods not created yet count nowhere). */
function updateStatusCounts(status: StatefulSetStatus, minReadySeconds: number, nowWallMs: number, currentRevision: string, updateRevision: string, ...lists: Array<ReadonlyArray<Pod>>): void {
	status.replicas = 0;
	status.readyReplicas = 0;
	status.availableReplicas = 0;
	status.currentReplicas = 0;
	status.updatedReplicas = 0;
	for (const list of lists) {
		for (const pod of list) {
			if (isCreated(pod)) status.replicas++;
			if (isRunningAndReady(pod)) {
				status.readyReplicas++;
				if (isRunningAndAvailable(pod, minReadySeconds, nowWallMs)) status.availableReplicas++;
			}
			if (isCreated(pod) && !isTerminating(pod)) {
				const revision = getPodRevision(pod);
				if (revision === currentRevision) status.currentReplicas++;
				if (revision === updateRevision) status.updatedReplicas++;
			}
		}
	}
}

export class StatefulSetControl {
	constructor(private readonly ctx: StatefulSetControlContext) {}

	/** UpdateStatefulSet: revisions, Pods, status, then the history limit. `revisions` are the set's (owned or adopted). */
	updateStatefulSet(cached: StatefulSet, pods: Pod[], cachedRevisions: ControllerRevision[]): UpdateResult {
		const set = deepCopy(cached);
		const revisions = sortControllerRevisions([...cachedRevisions]);
		const revs = this.getStatefulSetRevisions(set, revisions);
		if ('error' in revs) return { error: revs.error };
		const { current, update, collisionCount } = revs;
		const result = this.updatePods(set, current, update, collisionCount, pods);
		let error = result.error;
		if (result.status) {
			const statusError = this.updateStatefulSetStatus(set, result.status);
			error ??= statusError;
		}
		const truncateError = this.truncateHistory(set, pods, revisions, current, update);
		return { status: result.status, error: error ?? truncateError };
	}

	/** getStatefulSetRevisions: the current and update revisions, creating or re-numbering the update revision. */
	private getStatefulSetRevisions(set: StatefulSet, revisions: ControllerRevision[]): { current: ControllerRevision; update: ControllerRevision; collisionCount: number } | { error: string } {
		let collisionCount = ((set.status as { collisionCount?: number } | undefined)?.collisionCount) ?? 0;
		let update = newRevision(set, nextRevision(revisions), collisionCount);
		const equal = findEqualRevisions(revisions, update);
		const last = revisions[revisions.length - 1];
		if (equal.length > 0 && equalRevision(last, equal[equal.length - 1])) {
			update = last;
		} else if (equal.length > 0) {
			const bumped = updateControllerRevision(this.ctx.client(), equal[equal.length - 1], update.revision);
			if (!bumped.ok) return { error: bumped.error };
			this.ctx.trace('revision', `controllerrevisions/${set.metadata.namespace}/${bumped.revision.metadata.name}`, `template equals revision ${bumped.revision.metadata.name}: renumbered ${equal[equal.length - 1].revision} → ${update.revision}`);
			update = bumped.revision;
		} else {
			const created = createControllerRevision(this.ctx.client(), set, update, collisionCount);
			collisionCount = created.collisionCount;
			if (!created.ok) return { error: created.error };
			this.ctx.trace('revision', `controllerrevisions/${set.metadata.namespace}/${created.revision.metadata.name}`, `recorded revision ${created.revision.revision} of statefulset ${set.metadata.name}`);
			update = created.revision;
		}
		const currentName = (set.status as { currentRevision?: string } | undefined)?.currentRevision;
		const current = revisions.find((r) => r.metadata.name === currentName) ?? update;
		return { current, update, collisionCount };
	}

	/** updateStatefulSet: the Pods towards the target state; the status as it stands after this round. */
	private updatePods(set: StatefulSet, currentRevision: ControllerRevision, updateRevision: ControllerRevision, collisionCount: number, pods: Pod[]): UpdateResult {
		const spec = specOf(set);
		const now = this.ctx.nowWallMs();
		const currentSet = applyRevision(set, currentRevision);
		const updateSet = applyRevision(set, updateRevision);
		const currentName = currentRevision.metadata.name ?? '';
		const updateName = updateRevision.metadata.name ?? '';
		const status: StatefulSetStatus = {
			observedGeneration: set.metadata.generation,
			replicas: 0,
			readyReplicas: 0,
			currentReplicas: 0,
			updatedReplicas: 0,
			availableReplicas: 0,
			currentRevision: currentName,
			updateRevision: updateName,
			collisionCount,
		};
		updateStatusCounts(status, spec.minReadySeconds, now, currentName, updateName, pods);

		const start = startOrdinal(set);
		const replicas: Pod[] = new Array(spec.replicas);
		const condemned: Pod[] = [];
		for (const pod of pods) {
			if (podInOrdinalRange(pod, set)) replicas[getOrdinal(pod) - start] = pod;
			else if (getOrdinal(pod) >= 0) condemned.push(pod);
		}
		for (let ord = start; ord <= endOrdinal(set); ord++) {
			if (!replicas[ord - start]) replicas[ord - start] = newVersionedStatefulSetPod(currentSet, updateSet, currentName, updateName, ord);
		}
		condemned.sort(byDescendingOrdinal);

		let firstUnavailable: Pod | undefined;
		for (const pod of replicas) if (!firstUnavailable && isUnavailable(pod, spec.minReadySeconds, now)) firstUnavailable = pod;
		for (let i = condemned.length - 1; i >= 0; i--) if (!firstUnavailable && isUnavailable(condemned[i], spec.minReadySeconds, now)) firstUnavailable = condemned[i];

		if (set.metadata.deletionTimestamp) return { status };
		const monotonic = !allowsBurst(set);
		const key = `statefulsets/${set.metadata.namespace}/${set.metadata.name}`;
		const recount = () => updateStatusCounts(status, spec.minReadySeconds, now, currentName, updateName, replicas, condemned);

		const processed = runForAll(replicas.length, (i) => this.processReplica(set, updateSet, monotonic, replicas, i, key), monotonic);
		if (processed.exit || processed.error) {
			recount();
			return { status, error: processed.error };
		}
		const scaled = runForAll(condemned.length, (i) => this.processCondemned(set, firstUnavailable, monotonic, condemned, i, key), monotonic);
		if (scaled.exit || scaled.error) {
			recount();
			return { status, error: scaled.error };
		}
		recount();
		if (spec.updateType === 'OnDelete') return { status };

		// updateStatefulSetAfterInvariantEstablished (MaxUnavailableStatefulSet on): at most maxUnavailable unavailable.
		const maxUnavailable = maxUnavailableOf(set);
		const unavailable = replicas.filter((p) => isUnavailable(p, spec.minReadySeconds, now)).length;
		if (unavailable > maxUnavailable) return { status };
		let toDelete = maxUnavailable - unavailable;
		const updateMin = spec.partition ?? 0;
		for (let target = replicas.length - 1; target >= updateMin && toDelete > 0; target--) {
			const pod = replicas[target];
			if (getPodRevision(pod) === updateName || isTerminating(pod)) continue;
			this.ctx.trace('rolling-update', key, `terminating Pod ${pod.metadata.name} for update to revision ${updateName}`);
			const error = this.ctx.podControl.deleteStatefulPod(set, pod);
			if (error && !/not found/.test(error)) return { status, error };
			toDelete--;
			status.currentReplicas--;
		}
		return { status };
	}

	/** processReplica: one ordinal of the target range. */
	private processReplica(set: StatefulSet, updateSet: StatefulSet, monotonic: boolean, replicas: Pod[], i: number, key: string): Step {
		const pod = replicas[i];
		const minReady = specOf(set).minReadySeconds;
		const now = this.ctx.nowWallMs();
		// Failed (or Succeeded: an evicted or rebooted Pod's phase follows its exit code) Pods are replaced under the same name.
		if (isFailed(pod) || isSucceeded(pod)) {
			if (!pod.metadata.deletionTimestamp) {
				this.ctx.trace('recreate', key, `Pod ${pod.metadata.name} is ${pod.status?.phase}: deleting it to recreate it`);
				const error = this.ctx.podControl.deleteStatefulPod(set, pod);
				if (error) return { exit: true, error };
			}
			return EXIT;
		}
		if (!isCreated(pod)) {
			this.ctx.trace('create', key, `creating Pod ${pod.metadata.name} at revision ${getPodRevision(pod)}`);
			const error = this.ctx.podControl.createStatefulPod(set, pod);
			if (error) return { exit: true, error };
			if (monotonic) return EXIT;
		}
		if (isTerminating(pod) && monotonic) {
			this.ctx.trace('wait', key, `waiting for Pod ${pod.metadata.name} to terminate`);
			return EXIT;
		}
		if (!isRunningAndReady(pod) && monotonic) {
			this.ctx.trace('wait', key, `waiting for Pod ${pod.metadata.name} to be Running and Ready`);
			return EXIT;
		}
		if (!isRunningAndAvailable(pod, minReady, now) && monotonic) {
			this.ctx.trace('wait', key, `waiting for Pod ${pod.metadata.name} to be Available`);
			return EXIT;
		}
		if (!isCreated(pod) || (identityMatches(set, pod) && storageMatches(set, pod))) return CONTINUE;
		const error = this.ctx.podControl.updateStatefulPod(updateSet, pod);
		return error ? { exit: true, error } : CONTINUE;
	}

	/** processCondemned: one Pod beyond the range, the highest ordinal first. */
	private processCondemned(set: StatefulSet, firstUnavailable: Pod | undefined, monotonic: boolean, condemned: Pod[], i: number, key: string): Step {
		const pod = condemned[i];
		const minReady = specOf(set).minReadySeconds;
		if (isTerminating(pod)) {
			if (monotonic) this.ctx.trace('wait', key, `waiting for Pod ${pod.metadata.name} to terminate prior to scale down`);
			return monotonic ? EXIT : CONTINUE;
		}
		if (monotonic && pod !== firstUnavailable && (!isRunningAndReady(pod) || !isRunningAndAvailable(pod, minReady, this.ctx.nowWallMs()))) {
			this.ctx.trace('wait', key, `waiting for Pod ${firstUnavailable?.metadata.name} to be Running and Ready prior to scale down`);
			return EXIT;
		}
		this.ctx.trace('scale-down', key, `terminating Pod ${pod.metadata.name} for scale down`);
		const error = this.ctx.podControl.deleteStatefulPod(set, pod);
		return { exit: true, error };
	}

	/** updateStatefulSetStatus: complete a finished rolling update, then write the status if it changed (retrying once on a conflict). */
	private updateStatefulSetStatus(set: StatefulSet, status: StatefulSetStatus): string | undefined {
		completeRollingUpdate(set, status);
		if (!inconsistentStatus(set, status)) return undefined;
		let target = set;
		for (let attempt = 0; ; attempt++) {
			const written = this.ctx.client().updateStatus(R.statefulsets, { ...deepCopy(target), status: serializeStatus(status) });
			if (written.ok) return undefined;
			if (written.code !== 409 || attempt >= 1) return written.message;
			const fresh = this.ctx.client().get<StatefulSet>(R.statefulsets, set.metadata.namespace, set.metadata.name ?? '');
			if (!fresh.ok) return fresh.message;
			target = fresh.object;
		}
	}

	/** truncateHistory: delete the oldest revisions no Pod, current or update revision uses, beyond revisionHistoryLimit. */
	private truncateHistory(set: StatefulSet, pods: Pod[], revisions: ControllerRevision[], current: ControllerRevision, update: ControllerRevision): string | undefined {
		const live = new Set([current.metadata.name, update.metadata.name, ...pods.map(getPodRevision)]);
		const history = revisions.filter((r) => !live.has(r.metadata.name));
		const limit = specOf(set).revisionHistoryLimit;
		if (limit < 0 || history.length <= limit) return undefined;
		for (const revision of history.slice(0, history.length - limit)) {
			const deleted = this.ctx.client().delete(R.controllerrevisions, revision.metadata.namespace, revision.metadata.name ?? '');
			if (!deleted.ok && deleted.code !== 404) return deleted.message;
		}
		return undefined;
	}
}

/** StatefulSetStatus as serialized: replicas and availableReplicas always, collisionCount (a pointer) always, the rest when set. */
function serializeStatus(status: StatefulSetStatus): Record<string, unknown> {
	const out: Record<string, unknown> = {};
	if (status.observedGeneration) out.observedGeneration = status.observedGeneration;
	out.replicas = status.replicas;
	if (status.readyReplicas) out.readyReplicas = status.readyReplicas;
	if (status.currentReplicas) out.currentReplicas = status.currentReplicas;
	if (status.updatedReplicas) out.updatedReplicas = status.updatedReplicas;
	if (status.currentRevision) out.currentRevision = status.currentRevision;
	if (status.updateRevision) out.updateRevision = status.updateRevision;
	out.collisionCount = status.collisionCount;
	out.availableReplicas = status.availableReplicas;
	return out;
}
