/**
 * Priority: resolves a pod's priorityClassName into spec.priority and
 * spec.preemptionPolicy (a class named in the pod, else the global default
 * class, else priority 0 and PreemptLowerPriority), rejects unknown classes
 * and hand-set priorities that disagree, and allows only one global default
 * PriorityClass.
 *
 * The two built-in classes, system-node-critical and
 * system-cluster-critical, resolve even before the API server's bootstrap
 * has stored them (upstream creates them in a post-start hook).
 *
 * spec.preemptionPolicy is set here, not in the Pod defaults: upstream
 * SetDefaults_PodSpec leaves it unset and this plugin fills it from the
 * class (PreemptLowerPriority when no class applies).
 *
 * Mirrors plugin/pkg/admission/priority/admission.go.
 */
import type { PodSpec, PriorityClass } from '../../api/types.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionAttributes, AdmissionPlugin } from './plugin.ts';
import { admissionForbidden, isResource } from './errors.ts';
import { SYSTEM_PRIORITY_CLASSES } from '../registry/priorityclasses.ts';

/** scheduling.DefaultPriorityWhenNoDefaultClassExists. */
const DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS = 0;

interface ResolvedClass {
	name: string;
	value: number;
	preemptionPolicy?: string;
}

/** getDefaultPriorityClass: the global default with the lowest value, if several. */
function defaultClass(ctx: StrategyContext): PriorityClass | undefined {
	let found: PriorityClass | undefined;
	for (const pc of ctx.list('scheduling.k8s.io', 'priorityclasses') as PriorityClass[]) {
		if (pc.globalDefault && (!found || found.value > pc.value)) found = pc;
	}
	return found;
}

function lookup(ctx: StrategyContext, name: string): ResolvedClass | undefined {
	const pc = ctx.get('scheduling.k8s.io', 'priorityclasses', undefined, name) as PriorityClass | undefined;
	if (pc) return { name, value: pc.value, preemptionPolicy: pc.preemptionPolicy };
	const builtIn = SYSTEM_PRIORITY_CLASSES[name];
	return builtIn ? { name, value: builtIn.value, preemptionPolicy: 'PreemptLowerPriority' } : undefined;
}

function admitPod(a: AdmissionAttributes, ctx: StrategyContext) {
	const spec = (a.object!.spec ?? (a.object!.spec = {})) as PodSpec;
	if (a.operation === 'UPDATE') {
		// Set on create; an update that drops them keeps the stored values.
		const old = (a.oldObject?.spec ?? {}) as PodSpec;
		if (spec.priority === undefined && old.priority !== undefined) spec.priority = old.priority;
		if (spec.preemptionPolicy === undefined && old.preemptionPolicy !== undefined) spec.preemptionPolicy = old.preemptionPolicy;
		return undefined;
	}
	if (a.operation !== 'CREATE') return undefined;
	let resolved: ResolvedClass;
	if (!spec.priorityClassName) {
		const pc = defaultClass(ctx);
		resolved = pc
			? { name: pc.metadata.name ?? '', value: pc.value, preemptionPolicy: pc.preemptionPolicy }
			: { name: '', value: DEFAULT_PRIORITY_WHEN_NO_DEFAULT_CLASS_EXISTS, preemptionPolicy: 'PreemptLowerPriority' };
		if (resolved.name) spec.priorityClassName = resolved.name;
	} else {
		const found = lookup(ctx, spec.priorityClassName);
		if (!found) return admissionForbidden(a, `no PriorityClass with name ${spec.priorityClassName} was found`);
		resolved = found;
	}
	if (spec.priority !== undefined && spec.priority !== resolved.value) {
		return admissionForbidden(a, `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${resolved.value} from the given PriorityClass name`);
	}
	spec.priority = resolved.value;
	if (resolved.preemptionPolicy) {
		if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== resolved.preemptionPolicy) {
			return admissionForbidden(a, `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${resolved.preemptionPolicy} from the given PriorityClass name`);
		}
		spec.preemptionPolicy = resolved.preemptionPolicy;
	}
	return undefined;
}

function validatePriorityClass(a: AdmissionAttributes, ctx: StrategyContext) {
	const pc = a.object as PriorityClass | undefined;
	if (!pc?.globalDefault) return undefined;
	const current = defaultClass(ctx);
	if (current && (a.operation === 'CREATE' || current.metadata.name !== pc.metadata.name)) {
		return admissionForbidden(a, `PriorityClass ${current.metadata.name} is marked as default. Only one default can exist`);
	}
	return undefined;
}

export const priorityAdmission: AdmissionPlugin = {
	name: 'Priority',
	admit(a, ctx) {
		if (isResource(a, '', 'pods') && a.object) return admitPod(a, ctx);
		return undefined;
	},
	validate(a, ctx) {
		if (isResource(a, 'scheduling.k8s.io', 'priorityclasses') && (a.operation === 'CREATE' || a.operation === 'UPDATE')) return validatePriorityClass(a, ctx);
		return undefined;
	},
};
