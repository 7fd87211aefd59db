/**
 * RuntimeClass: a Pod that names a RuntimeClass gets what the class
 * declares before it is stored: the class's fixed Pod overhead as
 * `spec.overhead` (which the scheduler and the quota then count), and its
 * scheduling constraints merged into the Pod's node selector and
 * tolerations. A class that does not exist, an overhead that disagrees with
 * the class's, or an overhead with no class to declare it are refused:
 *
 *     pods "p" is forbidden: pod rejected: RuntimeClass "gvisor" not found
 *
 * Mirrors plugin/pkg/admission/runtimeclass/admission.go (Admit, Validate,
 * setOverhead, setScheduling, validateOverhead),
 * pkg/util/tolerations/tolerations.go (MergeTolerations, here without the
 * removal of tolerations another one already covers).
 */
import type { KubeObject, PodSpec, Toleration } from '../../api/types.ts';
import { equals, toQuotaList } from '../../component-helpers/quota/resources.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import { admissionForbidden, isResource } from './errors.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';

interface RuntimeClassLike extends KubeObject {
	handler?: string;
	overhead?: { podFixed?: Record<string, string> };
	scheduling?: { nodeSelector?: Record<string, string>; tolerations?: Toleration[] };
}

/** The Pod and the class it names, or the refusal when the class does not exist. */
function prepare(a: AdmissionAttributes, ctx: StrategyContext): { spec: PodSpec; rc?: RuntimeClassLike } | { refused: ReturnType<typeof admissionForbidden> } {
	const spec = (a.object!.spec ?? {}) as PodSpec & { runtimeClassName?: string };
	if (!spec.runtimeClassName) return { spec };
	const rc = ctx.get('node.k8s.io', 'runtimeclasses', undefined, spec.runtimeClassName) as RuntimeClassLike | undefined;
	if (!rc) return { refused: admissionForbidden(a, `pod rejected: RuntimeClass "${spec.runtimeClassName}" not found`) };
	return { spec, rc };
}

/** Semantic.DeepEqual of two resource lists: the same names with equal quantities ("1" is "1000m"). */
const sameList = (a: Record<string, string> | undefined, b: Record<string, string> | undefined) => equals(toQuotaList(a), toQuotaList(b));

/** A toleration as comparable text, its keys sorted. */
const tolerationKey = (t: Toleration) => JSON.stringify(Object.entries(t).sort(([p], [q]) => (p < q ? -1 : 1)));
const OVERHEAD_MISMATCH = "pod rejected: Pod's Overhead doesn't match RuntimeClass's defined Overhead";

export const runtimeClassAdmission: AdmissionPlugin = {
	name: 'RuntimeClass',
	admit(a, ctx) {
		if (!isResource(a, '', 'pods') || a.operation !== 'CREATE' || !a.object) return undefined;
		const prepared = prepare(a, ctx);
		if ('refused' in prepared) return prepared.refused;
		const { spec, rc } = prepared;
		if (!rc) return undefined;
		if (rc.overhead?.podFixed) {
			if (spec.overhead && Object.keys(spec.overhead).length > 0 && !sameList(spec.overhead as Record<string, string>, rc.overhead.podFixed)) return admissionForbidden(a, OVERHEAD_MISMATCH);
			spec.overhead = { ...rc.overhead.podFixed };
		}
		if (rc.scheduling) {
			const selector = { ...(spec.nodeSelector ?? {}) };
			for (const [key, value] of Object.entries(rc.scheduling.nodeSelector ?? {})) {
				if (Object.hasOwn(selector, key) && selector[key] !== value) {
					return admissionForbidden(a, `conflict: runtimeClass.scheduling.nodeSelector[${key}] = ${value}; pod.spec.nodeSelector[${key}] = ${selector[key]}`);
				}
				selector[key] = value;
			}
			if (Object.keys(selector).length) spec.nodeSelector = selector;
			const tolerations = [...(spec.tolerations ?? [])];
			for (const t of rc.scheduling.tolerations ?? []) if (!tolerations.some((have) => tolerationKey(have) === tolerationKey(t))) tolerations.push(t);
			if (tolerations.length) spec.tolerations = tolerations;
		}
		return undefined;
	},
	validate(a, ctx) {
		if (!isResource(a, '', 'pods') || a.operation !== 'CREATE' || !a.object) return undefined;
		const prepared = prepare(a, ctx);
		if ('refused' in prepared) return prepared.refused;
		const { spec, rc } = prepared;
		if (!spec.overhead || Object.keys(spec.overhead).length === 0) return undefined;
		if (!rc?.overhead) return admissionForbidden(a, 'pod rejected: Pod Overhead set without corresponding RuntimeClass defined Overhead');
		return sameList(spec.overhead as Record<string, string>, rc.overhead.podFixed) ? undefined : admissionForbidden(a, OVERHEAD_MISMATCH);
	},
};
