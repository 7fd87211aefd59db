/**
 * The Lease strategy (coordination.k8s.io): positive durations and
 * non-negative transitions. Leases may be created by an update, which is how
 * the kubelet and leader election write them.
 *
 * Mirrors pkg/registry/coordination/lease/strategy.go,
 * pkg/apis/coordination/validation/validation.go (ValidateLease).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, invalid, type FieldError } from './field.ts';
import { metaErrors, validateObjectMetaUpdate } from './objectmeta.ts';

/** ValidateLease. */
function validateLease(obj: KubeObject): FieldError[] {
	const errs = metaErrors(obj, true);
	const spec = asRecord(obj.spec) ?? {};
	if (typeof spec.leaseDurationSeconds === 'number' && spec.leaseDurationSeconds <= 0) errs.push(invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
	if (typeof spec.leaseTransitions === 'number' && spec.leaseTransitions < 0) errs.push(invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
	return errs;
}

export const leaseStrategy: Strategy = {
	allowCreateOnUpdate: true,
	validate: validateLease,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateLease(obj)];
	},
};
