/**
 * The Node strategy: status defaults, taint validation, which spec fields
 * may change, and the `spec.unschedulable` field selector.
 *
 * Nodes register with their status (the kubelet creates the object), so
 * create keeps status; updates of the main resource keep the stored status.
 *
 * Mirrors pkg/registry/core/node/strategy.go,
 * pkg/apis/core/validation/validation.go (ValidateNode, ValidateNodeUpdate).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asArray, asRecord, duplicate, forbidden, index, invalid, type FieldError } from './field.ts';
import { isValidLabelValue } from '../../api/labels.ts';
import { goQuote } from '../../golang/json.ts';
import { metaErrors, nameIsDNSSubdomain, validateLabelName, validateObjectMetaUpdate } from './objectmeta.ts';
import { validateTaintEffect } from './pod-validation.ts';

type Json = Record<string, unknown>;

/** `core.Taint{...}` as `%#v` prints it in the duplicate-taint error. */
function goTaint(t: Json): string {
	return `core.Taint{Key:${goQuote(String(t.key ?? ''))}, Value:${goQuote(String(t.value ?? ''))}, Effect:${goQuote(String(t.effect ?? ''))}, TimeAdded:<nil>}`;
}

/**
 * validateNodeTaints. Upstream passes `metadata` as the parent path, so the
 * errors read `metadata.taints[0].effect`; kept as is.
 */
function validateNodeTaints(taints: Json[], path: string): FieldError[] {
	const errs: FieldError[] = [];
	const seen = new Set<string>();
	taints.forEach((t, i) => {
		const p = index(path, i);
		errs.push(...validateLabelName(String(t?.key ?? ''), `${p}.key`));
		const value = String(t?.value ?? '');
		const msgs = isValidLabelValue(value);
		if (msgs.length) errs.push(invalid(`${p}.value`, value, msgs.join(';')));
		errs.push(...validateTaintEffect(String(t?.effect ?? ''), false, `${p}.effect`));
		const id = `${t?.effect ?? ''}\u0000${t?.key ?? ''}`;
		if (seen.has(id)) {
			errs.push(duplicate(p, t, goTaint(t ?? {}), 'taints must be unique by key and effect pair'));
			return;
		}
		seen.add(id);
	});
	return errs;
}

const specOf = (obj: KubeObject) => (asRecord(obj.spec) ?? {}) as Json;

export const nodeStrategy: Strategy = {
	hasStatusSubresource: true,
	allowStatusOnCreate: true,
	defaults(obj) {
		obj.spec ??= {};
		const status = asRecord(obj.status);
		// SetDefaults_NodeStatus: allocatable defaults to capacity.
		if (status && status.allocatable === undefined && asRecord(status.capacity)) status.allocatable = { ...(status.capacity as Json) };
	},
	validate(obj) {
		const errs = metaErrors(obj, false, nameIsDNSSubdomain);
		errs.push(...validateNodeTaints(asArray<Json>(specOf(obj).taints), 'metadata.taints'));
		return errs;
	},
	validateUpdate(obj, old) {
		const errs = validateObjectMetaUpdate(obj.metadata, old.metadata);
		const spec = specOf(obj);
		const oldSpec = specOf(old);
		const oldCIDRs = asArray<string>(oldSpec.podCIDRs);
		const newCIDRs = asArray<string>(spec.podCIDRs);
		if (oldCIDRs.length > 0 && (oldCIDRs.length !== newCIDRs.length || oldCIDRs.some((c, i) => c !== newCIDRs[i]))) {
			errs.push(forbidden('spec.podCIDRs', 'node updates may not change podCIDR except from "" to valid'));
		}
		if (oldSpec.providerID && oldSpec.providerID !== spec.providerID) errs.push(forbidden('spec.providerID', 'node updates may not change providerID except from "" to valid'));
		errs.push(...validateNodeTaints(asArray<Json>(spec.taints), 'metadata.taints'));
		return errs;
	},
	validateStatusUpdate(obj, old) {
		return validateObjectMetaUpdate(obj.metadata, old.metadata);
	},
	fields(obj) {
		return { 'spec.unschedulable': String(specOf(obj).unschedulable === true) };
	},
};
