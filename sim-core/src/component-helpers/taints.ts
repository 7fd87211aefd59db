/**
 * Taints and tolerations, matched one way for every component: the
 * scheduler's TaintToleration filter, the kubelet's admission (NoExecute),
 * the node lifecycle and taint-eviction controllers and the DaemonSet
 * controller all ask "does this Pod tolerate this node's taints?".
 *
 * Toleration.ToleratesTaint: the effect and the key must match when the
 * toleration sets them; `Exists` tolerates any value, `Equal` (the default)
 * the same value. The numeric `Gt`/`Lt` operators
 * (TaintTolerationComparisonOperators) are alpha and off in v1.36, so they
 * tolerate nothing here.
 *
 * Mirrors staging/src/k8s.io/api/core/v1/toleration.go (ToleratesTaint),
 * staging/src/k8s.io/api/core/v1/well_known_taints.go,
 * staging/src/k8s.io/cloud-provider/api/well_known_taints.go,
 * pkg/apis/core/v1/helper/helpers.go (TolerationsTolerateTaint,
 * FindMatchingUntoleratedTaint, GetMatchingTolerations).
 */
import type { Taint, Toleration } from '../api/types.ts';

/** Well-known taint keys (k8s.io/api/core/v1/well_known_taints.go). */
export const TaintKeys = {
	NotReady: 'node.kubernetes.io/not-ready',
	Unreachable: 'node.kubernetes.io/unreachable',
	Unschedulable: 'node.kubernetes.io/unschedulable',
	MemoryPressure: 'node.kubernetes.io/memory-pressure',
	DiskPressure: 'node.kubernetes.io/disk-pressure',
	NetworkUnavailable: 'node.kubernetes.io/network-unavailable',
	PIDPressure: 'node.kubernetes.io/pid-pressure',
	OutOfService: 'node.kubernetes.io/out-of-service',
	/** k8s.io/cloud-provider/api/well_known_taints.go TaintExternalCloudProvider: a kubelet with --cloud-provider=external registers with it; cloud-controller-manager removes it. */
	ExternalCloudProvider: 'node.cloudprovider.kubernetes.io/uninitialized',
	/** TaintNodeShutdown: cloud-controller-manager's mark on a Node whose instance is stopped. */
	NodeShutdown: 'node.cloudprovider.kubernetes.io/shutdown',
} as const;

/** Toleration.ToleratesTaint. */
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
export function tolerationsTolerateTaint(tolerations: readonly Toleration[] | undefined, taint: Taint): boolean {
	return (tolerations ?? []).some((t) => toleratesTaint(t, taint));
}

/** FindMatchingUntoleratedTaint: the first taint (among those `filter` keeps) that no toleration tolerates. */
export function findMatchingUntoleratedTaint(taints: readonly Taint[] | undefined, tolerations: readonly Toleration[] | undefined, filter: (t: Taint) => boolean): Taint | undefined {
	for (const taint of taints ?? []) {
		if (!filter(taint)) continue;
		if (!tolerationsTolerateTaint(tolerations, taint)) return taint;
	}
	return undefined;
}

/** GetMatchingTolerations: whether every taint is tolerated, and the first toleration used for each. */
export function matchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): { allTolerated: boolean; used: Toleration[] } {
	if (taints.length === 0) return { allTolerated: true, used: [] };
	const used: Toleration[] = [];
	for (const taint of taints) {
		const t = tolerations.find((tol) => toleratesTaint(tol, taint));
		if (!t) return { allTolerated: false, used: [] };
		used.push(t);
	}
	return { allTolerated: true, used };
}
