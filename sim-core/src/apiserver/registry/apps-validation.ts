/**
 * Validation shared by the apps/v1 workloads: selectors against template
 * labels, the pod template of a ReplicaSet-like controller, int-or-percent
 * values, and the status-subresource rules.
 *
 * Mirrors pkg/apis/apps/validation/validation.go
 * (ValidatePodTemplateSpecForReplicaSet, ValidatePositiveIntOrPercent,
 * IsNotMoreThan100Percent).
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asRecord, asStringMap, child, jsonIntOrString, jsonLabelSelector, invalid, notSupported, required, type FieldError } from './field.ts';
import { isValidPercent, selectorMatches, selectorMismatch, validateLabelSelector, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { validatePodTemplateSpec } from './pod-validation.ts';
import { defaultPodTemplate } from './pod-defaults.ts';
import { bumpGenerationOnSpecChange, initGeneration } from './generation.ts';

type Json = Record<string, unknown>;

/** An intstr.IntOrString as stored: a number, or a string such as "25%". */
export type IntOrPercent = number | string | undefined;

/** ValidatePositiveIntOrPercent. */
export function validatePositiveIntOrPercent(value: IntOrPercent, path: string): FieldError[] {
	if (typeof value === 'string') return isValidPercent(value).map((m) => invalid(path, value, m, jsonIntOrString(value)));
	if (typeof value === 'number') return validateNonnegative(value, path);
	return [];
}

/** getPercentValue / getIntOrPercentValue: the number in "25%" or the int itself. */
export function intOrPercentValue(value: IntOrPercent): number {
	if (typeof value === 'number') return value;
	if (typeof value === 'string' && /^[0-9]+%$/.test(value)) return Number(value.slice(0, -1));
	return 0;
}

/** IsNotMoreThan100Percent. */
export function notMoreThan100Percent(value: IntOrPercent, path: string): FieldError[] {
	if (typeof value !== 'string' || !/^[0-9]+%$/.test(value)) return [];
	return intOrPercentValue(value) <= 100 ? [] : [invalid(path, value, 'must not be greater than 100%', jsonIntOrString(value))];
}

/**
 * The selector checks of Deployments and ReplicaSets: required, valid, not
 * empty (upstream's message says "deployment" for both), and matching the
 * template labels (a missing selector matches nothing).
 */
export function validateSelectorAndTemplate(spec: Json, path: string, emptyMessage: string, kind: string): FieldError[] {
	const errs: FieldError[] = [];
	const selector = spec.selector;
	const sel = asRecord(selector);
	if (selector === undefined || selector === null) errs.push(required(child(path, 'selector')));
	else {
		errs.push(...validateLabelSelector(selector, child(path, 'selector')));
		if (Object.keys(asRecord(sel?.matchLabels) ?? {}).length + ((sel?.matchExpressions as unknown[] | undefined)?.length ?? 0) === 0) {
			errs.push(invalid(child(path, 'selector'), selector, emptyMessage, jsonLabelSelector(sel as Parameters<typeof jsonLabelSelector>[0])));
		}
	}
	errs.push(...validateTemplateForReplicaSet(spec, path, kind));
	return errs;
}

/** ValidatePodTemplateSpecForReplicaSet: labels match, the template is valid, restartPolicy Always, no activeDeadlineSeconds. */
function validateTemplateForReplicaSet(spec: Json, path: string, kind: string): FieldError[] {
	const errs: FieldError[] = [];
	const templatePath = child(path, 'template');
	const template = asRecord(spec.template);
	if (!template) return [required(templatePath)];
	const labels = asStringMap(asRecord(template.metadata)?.labels);
	const sel = asRecord(spec.selector);
	const empty = !!sel && Object.keys(asRecord(sel.matchLabels) ?? {}).length + ((sel.matchExpressions as unknown[] | undefined)?.length ?? 0) === 0;
	if (!empty && !selectorMatches(spec.selector, labels)) errs.push(selectorMismatch(templatePath, labels));
	errs.push(...validatePodTemplateSpec(template, templatePath));
	const podSpec = asRecord(template.spec) ?? {};
	const restartPolicy = String(podSpec.restartPolicy ?? '');
	if (restartPolicy !== 'Always') errs.push(notSupported(child(templatePath, 'spec', 'restartPolicy'), restartPolicy, ['Always']));
	if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
		errs.push(invalid(child(templatePath, 'spec', 'activeDeadlineSeconds'), podSpec.activeDeadlineSeconds, `activeDeadlineSeconds in ${kind} is not Supported`));
	}
	return errs;
}

/** The selector of an apps/v1 object may not change (the strategies' ValidateUpdate). */
export function selectorImmutable(obj: KubeObject, old: KubeObject): FieldError[] {
	const sel = asRecord(obj.spec)?.selector;
	const oldSel = asRecord(old.spec)?.selector;
	if (JSON.stringify(sel ?? null) === JSON.stringify(oldSel ?? null)) return [];
	return [invalid('spec.selector', sel, 'field is immutable', jsonLabelSelector(sel as Parameters<typeof jsonLabelSelector>[0]))];
}

/**
 * The common shape of the workload strategies: template defaults, status
 * subresource, generation, and the validators given.
 */
export function workloadStrategy(parts: {
	defaults?(spec: Json, obj: KubeObject): void;
	validate(obj: KubeObject): FieldError[];
	validateUpdate(obj: KubeObject, old: KubeObject): FieldError[];
	/** Whether an annotation change bumps the generation too (Deployments: annotations are copied to ReplicaSets). */
	annotationsBumpGeneration?: boolean;
	prepareForCreate?: Strategy['prepareForCreate'];
}): Strategy {
	return {
		hasStatusSubresource: true,
		defaults(obj) {
			const spec = asRecord(obj.spec);
			if (!spec) return;
			parts.defaults?.(spec, obj);
			defaultPodTemplate(spec.template);
		},
		prepareForCreate(obj, ctx) {
			initGeneration(obj);
			parts.prepareForCreate?.(obj, ctx);
		},
		prepareForUpdate(obj, old) {
			bumpGenerationOnSpecChange(obj, old);
			if (parts.annotationsBumpGeneration && JSON.stringify(obj.metadata.annotations ?? {}) !== JSON.stringify(old.metadata.annotations ?? {}) && obj.metadata.generation === old.metadata.generation) {
				obj.metadata.generation = (old.metadata.generation ?? 0) + 1;
			}
		},
		validate: parts.validate,
		validateUpdate: parts.validateUpdate,
		validateStatusUpdate(obj, old) {
			return validateObjectMetaUpdate(obj.metadata, old.metadata);
		},
	};
}
