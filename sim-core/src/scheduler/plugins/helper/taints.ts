/**
 * Taints and tolerations, as the scheduler matches them: Toleration.
 * ToleratesTaint (k8s.io/api core/v1 toleration.go) and
 * FindMatchingUntoleratedTaint (pkg/apis/core/v1/helper/helpers.go), with
 * the DoNotSchedule filter of plugins/helper/taint.go. The numeric Gt/Lt
 * toleration operators (TaintTolerationComparisonOperators) are alpha and
 * off in v1.36, so they tolerate nothing here.
 */
import type { Taint, Toleration } from '../../../api/types.ts';

/** Toleration.ToleratesTaint: effect (if set) and key (if set) must match; Exists matches any value, Equal (the default) the same value. */
export function toleratesTaint(toleration: Toleration, taint: Taint): boolean {
	if (toleration.effect && toleration.effect !== taint.effect) return false;
	if (toleration.key && toleration.key !== taint.key) return false;
	switch (toleration.operator ?? '') {
		case '':
		case 'Equal':
			return (toleration.value ?? '') === (taint.value ?? '');
		case 'Exists':
			return true;
		default:
			return false;
	}
}

/** TolerationsTolerateTaint: some toleration tolerates the taint. */
export function tolerationsTolerateTaint(tolerations: Toleration[] | undefined, taint: Taint): boolean {
	return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/** The taints the Filter checks (helper.DoNotScheduleTaintsFilterFunc). */
export function isDoNotScheduleTaint(taint: Taint): boolean {
	return taint.effect === 'NoSchedule' || taint.effect === 'NoExecute';
}

/** FindMatchingUntoleratedTaint: the first taint (passing `filter`) that no toleration tolerates. */
export function findMatchingUntoleratedTaint(taints: Taint[] | undefined, tolerations: Toleration[] | undefined, filter: (t: Taint) => boolean): Taint | undefined {
	for (const taint of taints ?? []) {
		if (!filter(taint)) continue;
		if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
	}
	return undefined;
}
