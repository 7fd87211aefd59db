/**
 * The PodDisruptionBudget strategy (policy/v1): no defaults (an unset
 * unhealthyPodEvictionPolicy means IfHealthyBudget); a create starts from
 * an empty status (the four counters that have no `omitempty` serialize as
 * 0) at generation 1; any spec change bumps the generation, which makes
 * the eviction subresource refuse with "still being processed" until the
 * disruption controller has caught up; status is a subresource the
 * controller and the eviction handler write. Validation: minAvailable and
 * maxUnavailable exclusive, each a non-negative int or a percentage of at
 * most 100%, a valid selector, a known unhealthyPodEvictionPolicy;
 * status counters non-negative.
 *
 * Mirrors pkg/registry/policy/poddisruptionbudget/strategy.go,
 * pkg/apis/policy/validation/validation.go (ValidatePodDisruptionBudgetSpec,
 * ValidatePodDisruptionBudgetStatusUpdate),
 * staging/src/k8s.io/api/policy/v1/types.go (PodDisruptionBudgetStatus).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, child, invalid, notSupported, type FieldError } from './field.ts';
import { metaErrors, validateLabelSelector, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { bumpGenerationOnSpecChange, initGeneration } from './generation.ts';
import { notMoreThan100Percent, validatePositiveIntOrPercent, type IntOrPercent } from './apps-validation.ts';

/** supportedUnhealthyPodEvictionPolicies, as sets.List returns them (sorted). */
const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/**
 * `%#v` of the internal PodDisruptionBudgetSpec, whose fields are all
 * pointers: Go prints their addresses. Real addresses differ on every run;
 * these stand-ins keep the text deterministic.
 */
function goPdbSpec(spec: Record<string, unknown>): string {
	const pointer = (set: boolean, type: string, address: string) => `(*${type})(${set ? address : 'nil'})`;
	return (
		'policy.PodDisruptionBudgetSpec{' +
		`MinAvailable:${pointer(spec.minAvailable !== undefined, 'intstr.IntOrString', '0xc000a3e1a0')}, ` +
		`Selector:${pointer(spec.selector !== undefined && spec.selector !== null, 'v1.LabelSelector', '0xc000b1c2d0')}, ` +
		`MaxUnavailable:${pointer(spec.maxUnavailable !== undefined, 'intstr.IntOrString', '0xc000a3e1c0')}, ` +
		`UnhealthyPodEvictionPolicy:${pointer(spec.unhealthyPodEvictionPolicy !== undefined, 'policy.UnhealthyPodEvictionPolicyType', '0xc000a3e1e0')}}`
	);
}

/** ValidatePodDisruptionBudgetSpec. */
export function validatePdbSpec(obj: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	const errs: FieldError[] = [];
	const minAvailable = spec.minAvailable as IntOrPercent;
	const maxUnavailable = spec.maxUnavailable as IntOrPercent;
	if (minAvailable !== undefined && maxUnavailable !== undefined) errs.push(invalid('spec', spec, 'minAvailable and maxUnavailable cannot be both set', goPdbSpec(spec)));
	for (const [name, value] of [
		['minAvailable', minAvailable],
		['maxUnavailable', maxUnavailable],
	] as const) {
		if (value === undefined) continue;
		errs.push(...validatePositiveIntOrPercent(value, child('spec', name)), ...notMoreThan100Percent(value, child('spec', name)));
	}
	errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
	const policy = spec.unhealthyPodEvictionPolicy;
	if (policy !== undefined && !UNHEALTHY_POD_EVICTION_POLICIES.includes(String(policy))) errs.push(notSupported('spec.unhealthyPodEvictionPolicy', policy, UNHEALTHY_POD_EVICTION_POLICIES));
	return errs;
}

/** ValidatePodDisruptionBudgetStatusUpdate (policy/v1): the counters are never negative. */
function validatePdbStatus(obj: KubeObject): FieldError[] {
	const status = asRecord(obj.status) ?? {};
	return ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'].flatMap((name) => validateNonnegative(status[name] as number | undefined, child('status', name)));
}

/** PodDisruptionBudgetStatus as a fresh object serializes: the four counters without `omitempty`. */
export function emptyPdbStatus(): Record<string, number> {
	return { currentHealthy: 0, desiredHealthy: 0, disruptionsAllowed: 0, expectedPods: 0 };
}

export const podDisruptionBudgetStrategy: Strategy = {
	hasStatusSubresource: true,
	prepareForCreate(obj) {
		initGeneration(obj);
		obj.status = emptyPdbStatus();
	},
	prepareForUpdate(obj, old) {
		bumpGenerationOnSpecChange(obj, old);
	},
	validate(obj) {
		return [...metaErrors(obj, true), ...validatePdbSpec(obj)];
	},
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validatePdbSpec(obj)];
	},
	validateStatusUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validatePdbStatus(obj)];
	},
};
