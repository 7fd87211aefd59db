/**
 * Small questions controllers ask about pods and owner references.
 *
 * Mirrors pkg/api/v1/pod/util.go (IsPodReady, IsPodAvailable),
 * pkg/controller/controller_utils.go (IsPodActive, IsPodTerminating),
 * staging/src/k8s.io/apimachinery/pkg/apis/meta/v1/controller_ref.go
 * (GetControllerOf, NewControllerRef).
 */
import type { KubeObject, LabelSelector, OwnerReference, Pod, PodCondition } from '../api/types.ts';
import { labelSelectorFromObject, matches, isEmptySelector } from '../api/labels.ts';
import { parseRfc3339 } from '../golang/time.ts';

/** The pod's Ready condition, if any (GetPodReadyCondition). */
export function podReadyCondition(pod: Pod): PodCondition | undefined {
	return pod.status?.conditions?.find((c) => c.type === 'Ready');
}

/** IsPodReady: the Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
	return podReadyCondition(pod)?.status === 'True';
}

/**
 * IsPodAvailable: ready, and ready for longer than minReadySeconds (the
 * comparison is strict, `lastTransitionTime + minReadySeconds < now`, as
 * upstream's `Before`).
 */
export function isPodAvailable(pod: Pod, minReadySeconds: number, nowWallMs: number): boolean {
	if (!isPodReady(pod)) return false;
	if (!minReadySeconds) return true;
	const since = parseRfc3339(podReadyCondition(pod)?.lastTransitionTime ?? '');
	return !Number.isNaN(since) && since + minReadySeconds * 1000 < nowWallMs;
}

/** IsPodActive: not finished and not being deleted. */
export function isPodActive(pod: Pod): boolean {
	const phase = pod.status?.phase;
	return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** IsPodTerminating: being deleted but not finished (what status.terminatingReplicas counts). */
export function isPodTerminating(pod: Pod): boolean {
	const phase = pod.status?.phase;
	return phase !== 'Succeeded' && phase !== 'Failed' && !!pod.metadata.deletionTimestamp;
}

/** metav1.GetControllerOf: the owner reference with controller=true. */
export function controllerOf(obj: KubeObject): OwnerReference | undefined {
	return obj.metadata.ownerReferences?.find((r) => r.controller === true);
}

/** metav1.NewControllerRef: the reference a controller puts on what it creates (blocking foreground deletion of the owner). */
export function newControllerRef(owner: KubeObject): OwnerReference {
	return { apiVersion: owner.apiVersion, kind: owner.kind, name: owner.metadata.name ?? '', uid: owner.metadata.uid ?? '', controller: true, blockOwnerDeletion: true };
}

/** `namespace/name`, the work-queue key (cache.MetaNamespaceKeyFunc). */
export function keyFor(namespace: string | undefined, name: string): string {
	return namespace ? `${namespace}/${name}` : name;
}

/** Splits a work-queue key (cache.SplitMetaNamespaceKey). */
export function splitKey(key: string): { namespace: string; name: string } {
	const i = key.indexOf('/');
	return i < 0 ? { namespace: '', name: key } : { namespace: key.slice(0, i), name: key.slice(i + 1) };
}

/** RFC 3339 seconds of a timestamp, as epoch ms (NaN-safe: missing sorts first). */
export function timeMs(text: string | undefined | null): number {
	if (!text) return 0;
	const ms = parseRfc3339(text);
	return Number.isNaN(ms) ? 0 : ms;
}

/** A label selector ready to match (metav1.LabelSelectorAsSelector), or why it is invalid. */
type CompiledSelector = { ok: true; empty: boolean; matches(labels: Record<string, string> | undefined): boolean } | { ok: false; error: string };

export function compileSelector(selector: LabelSelector | undefined | null): CompiledSelector {
	try {
		const parsed = labelSelectorFromObject(selector);
		return { ok: true, empty: isEmptySelector(parsed), matches: (labels) => matches(parsed, labels ?? {}) };
	} catch (error) {
		return { ok: false, error: error instanceof Error ? error.message : String(error) };
	}
}

/**
 * apierrors.HasStatusCause(err, v1.NamespaceTerminatingCause): the API
 * server refused a creation because the namespace is being deleted (the
 * NamespaceLifecycle admission plugin's Forbidden, with cause
 * `NamespaceTerminating`, or failing that its message).
 */
export function isNamespaceTerminating(result: { ok: boolean; code?: number; message?: string; details?: { causes?: Array<{ reason?: string }> } }): boolean {
	if (result.ok) return false;
	if (result.details?.causes?.some((c) => c.reason === 'NamespaceTerminating')) return true;
	return result.code === 403 && (result.message ?? '').includes('because it is being terminated');
}
