/**
 * StatefulPodControl: how the StatefulSet controller creates, updates and
 * deletes its Pods, each write recorded as an Event on the StatefulSet in
 * upstream's words: `SuccessfulCreate` "create Pod web-0 in StatefulSet web
 * successful", `SuccessfulDelete` "delete Pod web-1 in StatefulSet web
 * successful", or `FailedCreate` "create Pod web-0 in StatefulSet web failed
 * error: <err>". An AlreadyExists on create is returned without an Event
 * (the cache was stale; the next sync sees the Pod).
 *
 * Differences: PersistentVolumeClaims are not modelled, so the claims a
 * Pod's volumes name are never created (`SuccessfulCreate` "create Claim
 * www-web-0 Pod web-0 in StatefulSet web success" never appears), and the
 * retention policy's owner references on claims are not kept.
 *
 * Mirrors pkg/controller/statefulset/stateful_pod_control.go.
 */
import type { KubeObject, Pod, StatefulSet } from '../../api/types.ts';
import { R, type ApiClient } from '../../client/client.ts';
import type { EventRecorder } from '../../client/events.ts';
import { deepCopy } from '../../golang/json.ts';
import { identityMatches, storageMatches, updateIdentity, updateStorage } from './stateful-set-utils.ts';

/** The outcome of a Pod write: undefined on success, else the error text. */
export type PodControlError = string | undefined;

export class StatefulPodControl {
	constructor(
		private readonly client: () => ApiClient,
		private readonly recorder: () => EventRecorder,
	) {}

	/** CreateStatefulPod. */
	createStatefulPod(set: StatefulSet, pod: Pod): PodControlError {
		const created = this.client().create<Pod>(R.pods, set.metadata.namespace, pod);
		if (!created.ok && created.code === 409) return created.message;
		return this.recordPodEvent('create', set, pod, created.ok ? undefined : created.message);
	}

	/** UpdateStatefulPod: restore identity and storage, retrying on a conflict with a fresh copy. */
	updateStatefulPod(set: StatefulSet, cached: Pod): PodControlError {
		let pod = deepCopy(cached);
		let attempted = false;
		let error: string | undefined;
		for (let attempt = 0; attempt < 5; attempt++) {
			let consistent = true;
			if (!identityMatches(set, pod)) {
				updateIdentity(set, pod);
				consistent = false;
			}
			if (!storageMatches(set, pod)) {
				updateStorage(set, pod);
				consistent = false;
			}
			if (consistent) return attempted ? this.recordPodEvent('update', set, pod, undefined) : undefined;
			attempted = true;
			const updated = this.client().update<Pod>(R.pods, pod as KubeObject);
			if (updated.ok) return this.recordPodEvent('update', set, pod, undefined);
			error = updated.message;
			if (updated.code !== 409) break;
			const fresh = this.client().get<Pod>(R.pods, set.metadata.namespace, pod.metadata.name ?? '');
			if (!fresh.ok) break;
			pod = fresh.object;
		}
		return this.recordPodEvent('update', set, pod, error);
	}

	/** DeleteStatefulPod (its claims are kept). */
	deleteStatefulPod(set: StatefulSet, pod: Pod): PodControlError {
		const deleted = this.client().delete(R.pods, set.metadata.namespace, pod.metadata.name ?? '');
		return this.recordPodEvent('delete', set, pod, deleted.ok ? undefined : deleted.message);
	}

	/** recordPodEvent: `Successful<Verb>` / `Failed<Verb>` on the StatefulSet. Returns the error. */
	private recordPodEvent(verb: 'create' | 'update' | 'delete', set: StatefulSet, pod: Pod, error: string | undefined): PodControlError {
		const title = verb[0].toUpperCase() + verb.slice(1);
		if (error === undefined) this.recorder().record(set, 'Normal', `Successful${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} successful`);
		else this.recorder().record(set, 'Warning', `Failed${title}`, `${verb} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${error}`);
		return error;
	}
}
