/**
 * The StatefulSet controller's pure helpers: a Pod's identity (name
 * `<set>-<ordinal>`, the `statefulset.kubernetes.io/pod-name` and
 * `apps.kubernetes.io/pod-index` labels, hostname and subdomain), its
 * storage (one `persistentVolumeClaim` volume per claim template, named
 * `<template>-<set>-<ordinal>`), which revision it is at (the
 * `controller-revision-hash` label holds the whole revision name), the
 * health predicates the ordering rules use, and revisions as patches of the
 * pod template.
 *
 * Mirrors pkg/controller/statefulset/stateful_set_utils.go.
 */
import type { ControllerRevision, Pod, PodTemplateSpec, StatefulSet, Volume } from '../../api/types.ts';
import { deepCopy } from '../../golang/json.ts';
import { podFromTemplate } from '../replicaset.ts';
import { isPodAvailable, isPodReady } from '../pod-util.ts';
import { scaledValue } from '../deployment/deployment-util.ts';
import { newControllerRevision } from '../history.ts';

/** apps.StatefulSetPodNameLabel. */
export const STATEFULSET_POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
/** apps.PodIndexLabel (PodIndexLabel, GA in v1.32). */
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
/** apps.StatefulSetRevisionLabel (= ControllerRevisionHashLabelKey). */
export const STATEFULSET_REVISION_LABEL = 'controller-revision-hash';

/** The StatefulSet status as the controller computes it. */
export interface StatefulSetStatus {
	observedGeneration?: number;
	replicas: number;
	readyReplicas: number;
	currentReplicas: number;
	updatedReplicas: number;
	availableReplicas: number;
	currentRevision: string;
	updateRevision: string;
	collisionCount: number;
}

/** The spec fields the controller reads, with the API server's defaults filled in. */
export interface StatefulSetSpecView {
	replicas: number;
	podManagementPolicy: 'OrderedReady' | 'Parallel';
	updateType: 'RollingUpdate' | 'OnDelete';
	partition: number | undefined;
	maxUnavailable: number | string | undefined;
	minReadySeconds: number;
	revisionHistoryLimit: number;
	start: number;
	serviceName: string;
	volumeClaimTemplates: Array<{ metadata?: { name?: string } }>;
}

export function specOf(set: StatefulSet): StatefulSetSpecView {
	const spec = set.spec;
	const strategy = (spec.updateStrategy ?? {}) as { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } | null };
	const ordinals = spec.ordinals as { start?: number } | undefined;
	return {
		replicas: spec.replicas ?? 1,
		podManagementPolicy: spec.podManagementPolicy === 'Parallel' ? 'Parallel' : 'OrderedReady',
		updateType: strategy.type === 'OnDelete' ? 'OnDelete' : 'RollingUpdate',
		partition: strategy.rollingUpdate ? (strategy.rollingUpdate.partition ?? 0) : undefined,
		maxUnavailable: strategy.rollingUpdate?.maxUnavailable,
		minReadySeconds: (spec.minReadySeconds as number | undefined) ?? 0,
		revisionHistoryLimit: (spec.revisionHistoryLimit as number | undefined) ?? 10,
		start: ordinals?.start ?? 0,
		serviceName: spec.serviceName ?? '',
		volumeClaimTemplates: (spec.volumeClaimTemplates ?? []) as Array<{ metadata?: { name?: string } }>,
	};
}

const STATEFUL_POD_REGEX = /^(.*)-([0-9]+)$/;

/** getParentNameAndOrdinal: `web-2` → ['web', 2]; no match, or an ordinal past int32, → ['', -1]. */
export function parentNameAndOrdinal(pod: Pod): [string, number] {
	const m = STATEFUL_POD_REGEX.exec(pod.metadata.name ?? '');
	if (!m) return ['', -1];
	const ordinal = Number(m[2]);
	return [m[1], ordinal <= 2147483647 ? ordinal : -1];
}

export function getOrdinal(pod: Pod): number {
	return parentNameAndOrdinal(pod)[1];
}

export function getPodName(set: StatefulSet, ordinal: number): string {
	return `${set.metadata.name}-${ordinal}`;
}

/** getPersistentVolumeClaimName: `<template>-<set>-<ordinal>`. */
export function claimName(set: StatefulSet, template: string, ordinal: number): string {
	return `${template}-${set.metadata.name}-${ordinal}`;
}

/** isMemberOf: the Pod's name says it belongs to this set. */
export function isMemberOf(set: StatefulSet, pod: Pod): boolean {
	return parentNameAndOrdinal(pod)[0] === set.metadata.name;
}

/** getStartOrdinal / getEndOrdinal (spec.ordinals.start, GA in v1.31). */
export function startOrdinal(set: StatefulSet): number {
	return specOf(set).start;
}

export function endOrdinal(set: StatefulSet): number {
	return startOrdinal(set) + specOf(set).replicas - 1;
}

export function podInOrdinalRange(pod: Pod, set: StatefulSet): boolean {
	const ordinal = getOrdinal(pod);
	return ordinal >= startOrdinal(set) && ordinal <= endOrdinal(set);
}

/** identityMatches: the right name, namespace and pod-name label (hostname and subdomain are set once, at creation). */
export function identityMatches(set: StatefulSet, pod: Pod): boolean {
	const [parent, ordinal] = parentNameAndOrdinal(pod);
	return ordinal >= 0 && parent === set.metadata.name && pod.metadata.name === getPodName(set, ordinal) && pod.metadata.namespace === set.metadata.namespace && pod.metadata.labels?.[STATEFULSET_POD_NAME_LABEL] === pod.metadata.name;
}

/** storageMatches: a persistentVolumeClaim volume for every claim template, with the Pod's claim name. */
export function storageMatches(set: StatefulSet, pod: Pod): boolean {
	const ordinal = getOrdinal(pod);
	if (ordinal < 0) return false;
	const volumes = new Map((pod.spec.volumes ?? []).map((v) => [v.name, v]));
	for (const template of specOf(set).volumeClaimTemplates) {
		const name = template.metadata?.name ?? '';
		const claim = volumes.get(name)?.persistentVolumeClaim as { claimName?: string } | undefined;
		if (!claim || claim.claimName !== claimName(set, name, ordinal)) return false;
	}
	return true;
}

/** updateIdentity: name, namespace and the two identity labels. */
export function updateIdentity(set: StatefulSet, pod: Pod): void {
	const ordinal = getOrdinal(pod);
	pod.metadata.name = getPodName(set, ordinal);
	pod.metadata.namespace = set.metadata.namespace;
	pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [STATEFULSET_POD_NAME_LABEL]: pod.metadata.name, [POD_INDEX_LABEL]: String(ordinal) };
}

/** initIdentity: updateIdentity, plus the hostname and subdomain a Pod's DNS name `<pod>.<service>` comes from (immutable afterwards). */
export function initIdentity(set: StatefulSet, pod: Pod): void {
	updateIdentity(set, pod);
	pod.spec.hostname = pod.metadata.name;
	pod.spec.subdomain = specOf(set).serviceName || undefined;
	if (!pod.spec.subdomain) delete pod.spec.subdomain;
}

/** updateStorage: the claim volumes first (template order), then the Pod's other volumes. */
export function updateStorage(set: StatefulSet, pod: Pod): void {
	const ordinal = getOrdinal(pod);
	const templates = specOf(set).volumeClaimTemplates.map((t) => t.metadata?.name ?? '');
	if (templates.length === 0) return;
	const claims: Volume[] = templates.map((name) => ({ name, persistentVolumeClaim: { claimName: claimName(set, name, ordinal) } }) as Volume);
	pod.spec.volumes = [...claims, ...(pod.spec.volumes ?? []).filter((v) => !templates.includes(v.name))];
}

export function isCreated(pod: Pod): boolean {
	return !!pod.status?.phase;
}

export function isPending(pod: Pod): boolean {
	return pod.status?.phase === 'Pending';
}

export function isFailed(pod: Pod): boolean {
	return pod.status?.phase === 'Failed';
}

export function isSucceeded(pod: Pod): boolean {
	return pod.status?.phase === 'Succeeded';
}

export function isTerminating(pod: Pod): boolean {
	return !!pod.metadata.deletionTimestamp;
}

/** isRunningAndReady: phase Running and the Ready condition True. */
export function isRunningAndReady(pod: Pod): boolean {
	return pod.status?.phase === 'Running' && isPodReady(pod);
}

/** isRunningAndAvailable: ready for longer than minReadySeconds. */
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, nowWallMs: number): boolean {
	return isPodAvailable(pod, minReadySeconds, nowWallMs);
}

/** isHealthy: running and ready, and not being deleted. */
export function isHealthy(pod: Pod): boolean {
	return isRunningAndReady(pod) && !isTerminating(pod);
}

/** isUnavailable: not healthy, or not yet available. */
export function isUnavailable(pod: Pod, minReadySeconds: number, nowWallMs: number): boolean {
	return !isHealthy(pod) || !isRunningAndAvailable(pod, minReadySeconds, nowWallMs);
}

/** allowsBurst: podManagementPolicy Parallel. */
export function allowsBurst(set: StatefulSet): boolean {
	return specOf(set).podManagementPolicy === 'Parallel';
}

export function getPodRevision(pod: Pod): string {
	return pod.metadata.labels?.[STATEFULSET_REVISION_LABEL] ?? '';
}

function setPodRevision(pod: Pod, revision: string): void {
	pod.metadata.labels = { ...(pod.metadata.labels ?? {}), [STATEFULSET_REVISION_LABEL]: revision };
}

/** newStatefulSetPod: the template's Pod (generateName `<set>-`, a controller reference) with its identity and storage. */
export function newStatefulSetPod(set: StatefulSet, ordinal: number): Pod {
	const pod = podFromTemplate(set.spec.template, set, set.metadata.namespace);
	pod.metadata.name = getPodName(set, ordinal);
	initIdentity(set, pod);
	updateStorage(set, pod);
	return pod;
}

/**
 * newVersionedStatefulSetPod: a Pod below the partition (or, for a
 * RollingUpdate without rollingUpdate, below the current replicas) is made
 * from the current revision; every other one from the update revision.
 */
export function newVersionedStatefulSetPod(currentSet: StatefulSet, updateSet: StatefulSet, currentRevision: string, updateRevision: string, ordinal: number): Pod {
	const spec = specOf(currentSet);
	const currentReplicas = (currentSet.status?.currentReplicas as number | undefined) ?? 0;
	const fromCurrent = (spec.updateType === 'RollingUpdate' && spec.partition === undefined && ordinal < spec.start + currentReplicas) || (spec.partition !== undefined && ordinal < spec.start + spec.partition);
	const pod = newStatefulSetPod(fromCurrent ? currentSet : updateSet, ordinal);
	setPodRevision(pod, fromCurrent ? currentRevision : updateRevision);
	return pod;
}

/** getPatch: the revision's data, the pod template to put back whole (`$patch: replace`). */
export function getPatch(set: StatefulSet): Record<string, unknown> {
	return { spec: { template: { ...deepCopy(set.spec.template), $patch: 'replace' } } };
}

/** newRevision: a ControllerRevision of the set's template, carrying the set's annotations. */
export function newRevision(set: StatefulSet, revision: number, collisionCount: number): ControllerRevision {
	const cr = newControllerRevision(set, set.spec.template.metadata?.labels, getPatch(set), revision, collisionCount);
	const annotations = set.metadata.annotations ?? {};
	if (Object.keys(annotations).length) cr.metadata.annotations = { ...annotations };
	return cr;
}

/** ApplyRevision: the set with the revision's template in place of its own. */
export function applyRevision(set: StatefulSet, revision: ControllerRevision): StatefulSet {
	const clone = deepCopy(set);
	const template = deepCopy(((revision.data as { spec?: { template?: Record<string, unknown> } } | undefined)?.spec?.template ?? {}) as Record<string, unknown>);
	delete template.$patch;
	clone.spec.template = template as unknown as PodTemplateSpec;
	return clone;
}

/** nextRevision: one past the newest (revisions sorted), or 1. */
export function nextRevision(revisions: readonly ControllerRevision[]): number {
	return revisions.length ? revisions[revisions.length - 1].revision + 1 : 1;
}

/** getStatefulSetMaxUnavailable: maxUnavailable (default 1) of the replicas, rounded down, at least 1. */
export function maxUnavailableOf(set: StatefulSet): number {
	const spec = specOf(set);
	return Math.max(1, scaledValue(spec.maxUnavailable ?? 1, spec.replicas, false));
}

/** completeRollingUpdate: a RollingUpdate with every Pod updated and ready makes the update revision current. */
export function completeRollingUpdate(set: StatefulSet, status: StatefulSetStatus): void {
	if (specOf(set).updateType === 'RollingUpdate' && status.updatedReplicas === status.replicas && status.readyReplicas === status.replicas) {
		status.currentReplicas = status.updatedReplicas;
		status.currentRevision = status.updateRevision;
	}
}

/** inconsistentStatus: whether the computed status differs from the stored one (collisionCount alone does not count). */
export function inconsistentStatus(set: StatefulSet, status: StatefulSetStatus): boolean {
	const old = (set.status ?? {}) as Partial<StatefulSetStatus>;
	return (
		(status.observedGeneration ?? 0) > (old.observedGeneration ?? 0) ||
		status.replicas !== (old.replicas ?? 0) ||
		status.currentReplicas !== (old.currentReplicas ?? 0) ||
		status.readyReplicas !== (old.readyReplicas ?? 0) ||
		status.updatedReplicas !== (old.updatedReplicas ?? 0) ||
		status.currentRevision !== (old.currentRevision ?? '') ||
		status.availableReplicas !== (old.availableReplicas ?? 0) ||
		status.updateRevision !== (old.updateRevision ?? '')
	);
}

/** descendingOrdinal. */
export function byDescendingOrdinal(a: Pod, b: Pod): number {
	return getOrdinal(b) - getOrdinal(a);
}
