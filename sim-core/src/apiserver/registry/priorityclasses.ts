/**
 * The PriorityClass strategy (scheduling.k8s.io): preemptionPolicy defaults
 * to PreemptLowerPriority; user classes may not exceed one billion, and the
 * `system-` prefix is reserved for the two built-in classes; value and
 * preemptionPolicy never change.
 *
 * Mirrors pkg/registry/scheduling/priorityclass/strategy.go,
 * pkg/apis/scheduling/v1/defaults.go (SetDefaults_PriorityClass),
 * pkg/apis/scheduling/validation/validation.go (ValidatePriorityClass),
 * pkg/apis/scheduling/helpers.go (IsKnownSystemPriorityClass).
 */
import type { KubeObject, PriorityClass } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { forbidden, notSupported, required, type FieldError } from './field.ts';
import { metaErrors, validateImmutable, validateObjectMetaUpdate } from './objectmeta.ts';

/** scheduling.HighestUserDefinablePriority. */
const HIGHEST_USER_DEFINABLE_PRIORITY = 1_000_000_000;
/** scheduling.SystemCriticalPriority = 2 * HighestUserDefinablePriority. */
const SYSTEM_CRITICAL_PRIORITY = 2 * HIGHEST_USER_DEFINABLE_PRIORITY;
/** scheduling.SystemPriorityClassPrefix. */
const SYSTEM_PRIORITY_CLASS_PREFIX = 'system-';

/** The built-in classes (scheduling.SystemPriorityClasses): neither is a global default. */
export const SYSTEM_PRIORITY_CLASSES: Record<string, { value: number; description: string }> = {
	'system-node-critical': { value: SYSTEM_CRITICAL_PRIORITY + 1000, description: 'Used for system critical pods that must not be moved from their current node.' },
	'system-cluster-critical': { value: SYSTEM_CRITICAL_PRIORITY, description: 'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.' },
};

/** IsKnownSystemPriorityClass: the reason a `system-` class is not one of the built-ins, if it is not. */
function systemClassProblem(name: string, value: number, globalDefault: boolean): string | undefined {
	const known = SYSTEM_PRIORITY_CLASSES[name];
	if (!known) return `${name} is not a known system priority class`;
	if (known.value !== value) return `value of ${name} PriorityClass must be ${known.value}`;
	if (globalDefault) return `globalDefault of ${name} PriorityClass must be false`;
	return undefined;
}

/** ValidatePriorityClass. */
export function validatePriorityClass(obj: KubeObject): FieldError[] {
	const pc = obj as PriorityClass;
	const errs = metaErrors(obj, false);
	const name = pc.metadata.name ?? '';
	if (name.startsWith(SYSTEM_PRIORITY_CLASS_PREFIX)) {
		const problem = systemClassProblem(name, pc.value, pc.globalDefault === true);
		if (problem) errs.push(forbidden('metadata.name', `priority class names with '${SYSTEM_PRIORITY_CLASS_PREFIX}' prefix are reserved for system use only. error: ${problem}`));
	} else if (pc.value > HIGHEST_USER_DEFINABLE_PRIORITY) {
		errs.push(forbidden('value', `maximum allowed value of a user defined priority is ${HIGHEST_USER_DEFINABLE_PRIORITY}`));
	}
	if (pc.preemptionPolicy !== undefined) {
		if (!pc.preemptionPolicy) errs.push(required('preemptionPolicy'));
		else if (pc.preemptionPolicy !== 'PreemptLowerPriority' && pc.preemptionPolicy !== 'Never') errs.push(notSupported('preemptionPolicy', pc.preemptionPolicy, ['PreemptLowerPriority', 'Never']));
	}
	return errs;
}

export const priorityClassStrategy: Strategy = {
	defaults(obj) {
		if (!obj.preemptionPolicy) obj.preemptionPolicy = 'PreemptLowerPriority';
		if (obj.value === undefined) obj.value = 0;
	},
	validate: validatePriorityClass,
	validateUpdate(obj, old) {
		// The strategy runs ValidatePriorityClass, then ValidatePriorityClassUpdate.
		const errs = [...validatePriorityClass(obj), ...validateObjectMetaUpdate(obj.metadata, old.metadata)];
		if (obj.value !== old.value) errs.push(forbidden('value', 'may not be changed in an update.'));
		errs.push(...validateImmutable(obj.preemptionPolicy, old.preemptionPolicy, 'preemptionPolicy'));
		return errs;
	},
};
