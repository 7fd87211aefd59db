/**
 * What the controllers do to tolerations and taints besides matching them
 * (../component-helpers/taints.ts): add or update a toleration in a pod
 * spec, and look a taint up by key and effect.
 *
 * Mirrors pkg/apis/core/v1/helper/helpers.go
 * (AddOrUpdateTolerationInPodSpec),
 * staging/src/k8s.io/api/core/v1/toleration.go (MatchToleration),
 * pkg/util/taints/taints.go (TaintExists).
 */
import type { PodSpec, Taint, Toleration } from '../api/types.ts';

/** Toleration.MatchToleration: same key, operator, value and effect. */
function sameToleration(a: Toleration, b: Toleration): boolean {
	return (a.key ?? '') === (b.key ?? '') && (a.operator ?? '') === (b.operator ?? '') && (a.value ?? '') === (b.value ?? '') && (a.effect ?? '') === (b.effect ?? '');
}

/** AddOrUpdateTolerationInPodSpec: replaces a matching toleration (e.g. other tolerationSeconds) or appends. */
export function addOrUpdateToleration(spec: PodSpec, toleration: Toleration): boolean {
	const current = spec.tolerations ?? [];
	let updated = false;
	const next: Toleration[] = [];
	for (const t of current) {
		if (sameToleration(toleration, t)) {
			if (JSON.stringify(t) === JSON.stringify(toleration)) return false;
			next.push({ ...toleration });
			updated = true;
			continue;
		}
		next.push(t);
	}
	if (!updated) next.push({ ...toleration });
	spec.tolerations = next;
	return true;
}

/** TaintExists: a taint with the same key and effect. */
export function taintExists(taints: Taint[] | undefined, taint: Pick<Taint, 'key' | 'effect'>): boolean {
	return (taints ?? []).some((t) => t.key === taint.key && t.effect === taint.effect);
}
