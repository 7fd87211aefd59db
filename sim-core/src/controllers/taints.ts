/**
 * Taints, tolerations and required node affinity, as the controllers check
 * them. Mirrors `Toleration.ToleratesTaint` / `MatchToleration` in
 * k8s.io/api/core/v1/toleration.go, `GetMatchingTolerations`,
 * `FindMatchingUntoleratedTaint` and `AddOrUpdateTolerationInPodSpec` in
 * pkg/apis/core/v1/helper, and the required-affinity matcher of
 * k8s.io/component-helpers/scheduling/corev1/nodeaffinity.
 */
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, PodSpec, Taint, Toleration } from '../api/types.ts';

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
} as const;

/** Toleration.ToleratesTaint: effect and key match when set; operator Exists, or Equal (the default) with equal values. */
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

/** GetMatchingTolerations: whether every taint is tolerated, and the first toleration used for each. */
export function matchingTolerations(taints: Taint[], tolerations: Toleration[]): { allTolerated: boolean; used: Toleration[] } {
	if (taints.length === 0) return { allTolerated: true, used: [] };
	const used: Toleration[] = [];
	for (const taint of taints) {
		const t = tolerations.find((tol) => toleratesTaint(tol, taint));
		if (!t) return { allTolerated: false, used: [] };
		used.push(t);
	}
	return { allTolerated: true, used };
}

/** FindMatchingUntoleratedTaint: the first taint (among those `filter` keeps) no toleration tolerates. */
export function findUntoleratedTaint(taints: Taint[], tolerations: Toleration[], filter: (t: Taint) => boolean): Taint | undefined {
	return taints.filter(filter).find((taint) => !tolerations.some((tol) => toleratesTaint(tol, taint)));
}

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

function requirementMatches(req: NodeSelectorRequirement, value: string | undefined): boolean {
	const values = req.values ?? [];
	switch (req.operator) {
		case 'In':
			return value !== undefined && values.includes(value);
		case 'NotIn':
			return value === undefined || !values.includes(value);
		case 'Exists':
			return value !== undefined;
		case 'DoesNotExist':
			return value === undefined;
		case 'Gt':
		case 'Lt': {
			if (value === undefined || values.length !== 1 || !/^-?\d+$/.test(value) || !/^-?\d+$/.test(values[0])) return false;
			return req.operator === 'Gt' ? Number(value) > Number(values[0]) : Number(value) < Number(values[0]);
		}
		default:
			return false;
	}
}

/** A node selector term: every expression (labels) and field (metadata.name) matches; an empty term matches nothing. */
export function nodeSelectorTermMatches(term: NodeSelectorTerm, node: Node): boolean {
	const expressions = term.matchExpressions ?? [];
	const fields = term.matchFields ?? [];
	if (expressions.length === 0 && fields.length === 0) return false;
	const labels = node.metadata.labels ?? {};
	if (!expressions.every((e) => requirementMatches(e, Object.hasOwn(labels, e.key) ? labels[e.key] : undefined))) return false;
	return fields.every((f) => requirementMatches(f, f.key === 'metadata.name' ? node.metadata.name : undefined));
}

/** GetRequiredNodeAffinity(pod).Match(node): the nodeSelector labels, and one of the required terms. */
export function requiredNodeAffinityMatches(spec: PodSpec, node: Node): boolean {
	const labels = node.metadata.labels ?? {};
	for (const [k, v] of Object.entries(spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
	const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
	if (!required) return true;
	return required.nodeSelectorTerms.some((term) => nodeSelectorTermMatches(term, node));
}
