/**
 * StatefulPodControl: how the StatefulSet controller creates, updates and
 * deletes its Pods, each write recorded as an Event on the StatefulSet in
 * upstream's words: `SuccessfulCreate` "create Pod web-0 in StatefulSet web
 * successful", `SuccessfulDelete` "delete Pod web-1 in StatefulSet web
 * successful", or `FailedCreate` "create Pod web-0 in StatefulSet web failed
 * error: <err>". An AlreadyExists on create is returned without an Event
 * (the cache was stale; the next sync sees the Pod).
 *
 * Before a Pod, its claims: one PersistentVolumeClaim per
 * volumeClaimTemplate, named `<template>-<set>-<ordinal>`, labelled with
 * the set's selector, created if missing (`SuccessfulCreate` "create Claim
 * www-web-0 Pod web-0 in StatefulSet web success"); a claim being deleted
 * holds the Pod back. Claims outlive their Pods: a Pod recreated after a
 * delete or a scale-down finds its old claim and its data.
 *
 * Differences: the retention policy's owner references on claims
 * (persistentVolumeClaimRetentionPolicy) are not kept.
 *
 * Mirrors pkg/controller/statefulset/stateful_pod_control.go.
 */
import type { KubeObject, Pod, StatefulSet } from '../../api/types.ts';
import { R, type ApiClient } from '../../client/client.ts';
import type { EventRecorder } from '../../client/events.ts';
import { deepCopy } from '../../golang/json.ts';
import { claimName, identityMatches, parentNameAndOrdinal, specOf, storageMatches, updateIdentity, updateStorage } from './stateful-set-utils.ts';


/** The outcome of a Pod write: undefined on success, else the error text. */
export type PodControlError = string | undefined;

export class StatefulPodControl {
	constructor(
		private readonly client: () => ApiClient,
		private readonly recorder: () => EventRecorder,
	) {}

	/** createPersistentVolumeClaims: the Pod's claims that do not exist yet; the errors, joined as an aggregate. */
	private createClaims(set: StatefulSet, pod: Pod): string | undefined {
		const errors: string[] = [];
		const namespace = set.metadata.namespace;
		const selector = ((set.spec.selector ?? {}) as { matchLabels?: Record<string, string> }).matchLabels ?? {};
		const [, ordinal] = parentNameAndOrdinal(pod);
		for (const template of specOf(set).volumeClaimTemplates as Array<KubeObject>) {
			const name = claimName(set, template.metadata?.name ?? '', ordinal);
			const found = this.client().get(R.persistentvolumeclaims, namespace, name);
			if (found.ok) {
				if (found.object.metadata.deletionTimestamp) errors.push(`pvc ${name} is being deleted`);
				continue;
			}
			if (found.code !== 404) {
				errors.push(`failed to retrieve PVC ${name}: ${found.message}`);
				this.recordClaimEvent(set, pod, name, found.message);
				continue;
			}
			const claim = deepCopy(template) as KubeObject;
			claim.apiVersion = 'v1';
			claim.kind = 'PersistentVolumeClaim';
			claim.metadata = { ...(claim.metadata ?? {}), name, namespace, labels: { ...(claim.metadata?.labels ?? {}), ...selector } };
			delete claim.status;
			const created = this.client().create(R.persistentvolumeclaims, namespace, claim);
			if (!created.ok) errors.push(`failed to create PVC ${name}: ${created.message}`);
			if (created.ok || created.code !== 409) this.recordClaimEvent(set, pod, name, created.ok ? undefined : created.message);
		}
		return errors.length === 0 ? undefined : errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
	}

	/** recordClaimEvent. */
	private recordClaimEvent(set: StatefulSet, pod: Pod, claim: string, error: string | undefined): void {
		if (error === undefined) this.recorder().record(set, 'Normal', 'SuccessfulCreate', `create Claim ${claim} Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} success`);
		else this.recorder().record(set, 'Warning', 'FailedCreate', `create Claim ${claim} for Pod ${pod.metadata.name} in StatefulSet ${set.metadata.name} failed error: ${error}`);
	}

	/** CreateStatefulPod: its claims first, then the Pod. */
	createStatefulPod(set: StatefulSet, pod: Pod): PodControlError {
		const claimsFailed = this.createClaims(set, pod);
		if (claimsFailed) return this.recordPodEvent('create', set, pod, claimsFailed);
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
