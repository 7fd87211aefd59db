/**
 * The Job strategy (batch/v1): defaults, the generated selector and pod
 * labels (`batch.kubernetes.io/controller-uid`,
 * `batch.kubernetes.io/job-name` and their legacy unprefixed twins),
 * validation of creates and updates, and the `status.successful` field
 * selector.
 *
 * Mirrors pkg/registry/batch/job/strategy.go (generateSelector),
 * pkg/apis/batch/v1/defaults.go (SetDefaults_Job),
 * pkg/apis/batch/validation/validation.go (ValidateJob, ValidateJobUpdate).
 */
import type { KubeObject } from '../../api/types.ts';
import { isDNS1123Label } from '../../api/labels.ts';
import { asRecord, asStringMap, forbidden, jsonLabelSelector, jsonStringMap, invalid, key, notSupported, required, type FieldError } from './field.ts';
import { metaErrors, selectorMatches, selectorMismatch, validateLabelSelector, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { validatePodTemplateSpec } from './pod-validation.ts';
import { workloadStrategy } from './apps-validation.ts';

type Json = Record<string, unknown>;

/** batch.ControllerUidLabel and batch.JobNameLabel, and their legacy forms. */
const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';
const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
const LEGACY_JOB_NAME_LABEL = 'job-name';

/** SetDefaults_Job (JobPodReplacementPolicy is GA since v1.34, so podReplacementPolicy is always defaulted). */
function defaultJob(spec: Json, obj: KubeObject): void {
	if (spec.completions === undefined && spec.parallelism === undefined) {
		spec.completions = 1;
		spec.parallelism = 1;
	}
	if (spec.parallelism === undefined) spec.parallelism = 1;
	// With backoffLimitPerIndex the global limit defaults to math.MaxInt32.
	if (spec.backoffLimit === undefined) spec.backoffLimit = spec.backoffLimitPerIndex !== undefined ? 2147483647 : 6;
	const templateLabels = asStringMap(asRecord(asRecord(spec.template)?.metadata)?.labels);
	if (templateLabels && Object.keys(obj.metadata.labels ?? {}).length === 0) obj.metadata.labels = { ...templateLabels };
	if (!spec.completionMode) spec.completionMode = 'NonIndexed';
	if (spec.suspend === undefined) spec.suspend = false;
	if (spec.podReplacementPolicy === undefined) spec.podReplacementPolicy = spec.podFailurePolicy !== undefined ? 'Failed' : 'TerminatingOrFailed';
	if (spec.manualSelector === undefined) spec.manualSelector = false;
}

/** generateSelector: pod labels naming the Job, and a selector on the controller-uid label. */
function generateSelector(obj: KubeObject): void {
	const spec = (asRecord(obj.spec) ?? (obj.spec = {})) as Json;
	const template = (asRecord(spec.template) ?? (spec.template = {})) as Json;
	const meta = (asRecord(template.metadata) ?? (template.metadata = {})) as Json;
	const labels = (asRecord(meta.labels) ?? (meta.labels = {})) as Record<string, unknown>;
	const name = obj.metadata.name ?? '';
	const uid = obj.metadata.uid ?? '';
	// A label the user set is kept; validation then reports a conflict.
	for (const k of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!(k in labels)) labels[k] = name;
	for (const k of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!(k in labels)) labels[k] = uid;
	const selector = (asRecord(spec.selector) ?? (spec.selector = {})) as Json;
	const matchLabels = (asRecord(selector.matchLabels) ?? (selector.matchLabels = {})) as Record<string, unknown>;
	if (!(CONTROLLER_UID_LABEL in matchLabels)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}

/** ValidateHasLabel. */
function hasLabel(labels: Record<string, string> | undefined, k: string, expected: string): FieldError[] {
	const path = key('spec.template.metadata.labels', k);
	if (!labels || !(k in labels)) return [required(path, `must be '${expected}'`)];
	return labels[k] === expected ? [] : [invalid(path, labels, `must be '${expected}'`, jsonStringMap(labels))];
}

/** validateGeneratedSelector: without manualSelector the labels and selector must be the generated ones. */
function validateGeneratedSelector(obj: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	if (spec.manualSelector === true) return [];
	const labels = asStringMap(asRecord(asRecord(spec.template)?.metadata)?.labels);
	if (!labels) return [invalid('spec.template.metadata.labels', null, 'must not be nil')];
	if (!spec.selector) return [];
	const uid = obj.metadata.uid ?? '';
	const errs: FieldError[] = [];
	if (!uid) errs.push(required('metadata.uid'));
	errs.push(...hasLabel(labels, LEGACY_CONTROLLER_UID_LABEL, uid));
	errs.push(...hasLabel(labels, LEGACY_JOB_NAME_LABEL, obj.metadata.name ?? ''));
	errs.push(...hasLabel(labels, CONTROLLER_UID_LABEL, uid));
	errs.push(...hasLabel(labels, JOB_NAME_LABEL, obj.metadata.name ?? ''));
	// The selector must select exactly the generated controller-uid label.
	const matchLabels = asStringMap(asRecord(spec.selector)?.matchLabels) ?? {};
	const expressions = (asRecord(spec.selector)?.matchExpressions as unknown[] | undefined) ?? [];
	const generated = Object.keys(matchLabels).length === 1 && matchLabels[CONTROLLER_UID_LABEL] === uid && expressions.length === 0;
	if (!generated) errs.push(invalid('spec.selector', spec.selector, '`selector` not auto-generated', jsonLabelSelector(spec.selector as Parameters<typeof jsonLabelSelector>[0])));
	return errs;
}

/** validateJobSpec and ValidateJobSpec. */
function validateJobSpec(spec: Json): FieldError[] {
	const errs: FieldError[] = [];
	for (const f of ['parallelism', 'completions', 'activeDeadlineSeconds', 'backoffLimit', 'ttlSecondsAfterFinished', 'backoffLimitPerIndex', 'maxFailedIndexes']) {
		errs.push(...validateNonnegative(typeof spec[f] === 'number' ? (spec[f] as number) : undefined, `spec.${f}`));
	}
	const mode = spec.completionMode;
	if (mode !== undefined && mode !== 'NonIndexed' && mode !== 'Indexed') errs.push(notSupported('spec.completionMode', mode, ['NonIndexed', 'Indexed']));
	if (mode === 'Indexed' && spec.completions === undefined) errs.push(required('spec.completions', 'when completion mode is Indexed'));
	const replacement = spec.podReplacementPolicy;
	if (replacement !== undefined) {
		if (spec.podFailurePolicy !== undefined) {
			if (replacement !== 'Failed') errs.push(notSupported('spec.podReplacementPolicy', replacement, ['Failed']));
		} else if (replacement !== 'Failed' && replacement !== 'TerminatingOrFailed') errs.push(notSupported('spec.podReplacementPolicy', replacement, ['Failed', 'TerminatingOrFailed']));
	}
	const template = asRecord(spec.template) ?? {};
	errs.push(...validatePodTemplateSpec(template, 'spec.template'));
	const restartPolicy = String(asRecord(template.spec)?.restartPolicy ?? '');
	// SetDefaults_PodSpec makes an unset restartPolicy Always, so both mean "not chosen".
	if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required('spec.template.spec.restartPolicy', 'valid values: "OnFailure", "Never"'));
	else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, ['OnFailure', 'Never']));
	else if (spec.podFailurePolicy !== undefined && restartPolicy !== 'Never') errs.push(invalid('spec.template.spec.restartPolicy', restartPolicy, 'only "Never" is supported when podFailurePolicy is specified'));
	if (spec.selector === undefined || spec.selector === null) errs.push(required('spec.selector'));
	else errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
	const labels = asStringMap(asRecord(template.metadata)?.labels);
	if (!selectorMatches(spec.selector, labels)) errs.push(selectorMismatch('spec.template', labels));
	return errs;
}

/** ValidateJob. */
function validateJob(obj: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	const errs = [...metaErrors(obj, true), ...validateGeneratedSelector(obj), ...validateJobSpec(spec)];
	if (spec.completionMode === 'Indexed' && typeof spec.completions === 'number' && spec.completions > 0) {
		// The controller names pods <job>-<index>; the last one must be a DNS label.
		const hostname = `${obj.metadata.name}-${spec.completions - 1}`;
		if (isDNS1123Label(hostname).length) errs.push(invalid('metadata.name', obj.metadata.name ?? '', `will not able to create pod with invalid DNS label: ${hostname}`));
	}
	return errs;
}

/** ValidateJobSpecUpdate: the fields fixed at create. */
function validateJobUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	const oldSpec = asRecord(old.spec) ?? {};
	const errs = [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateJob(obj)];
	if (JSON.stringify(spec.selector ?? null) !== JSON.stringify(oldSpec.selector ?? null)) {
		errs.push(invalid('spec.selector', spec.selector, 'field is immutable', jsonLabelSelector(spec.selector as Parameters<typeof jsonLabelSelector>[0])));
	}
	if (spec.completions !== oldSpec.completions) errs.push(invalid('spec.completions', spec.completions ?? null, 'field is immutable'));
	if (spec.completionMode !== oldSpec.completionMode) errs.push(invalid('spec.completionMode', spec.completionMode ?? null, 'field is immutable'));
	// The template may change only while the Job is suspended (mutable scheduling directives).
	if (JSON.stringify(spec.template ?? null) !== JSON.stringify(oldSpec.template ?? null) && !(oldSpec.suspend === true)) {
		errs.push(invalid('spec.template', spec.template, 'field is immutable', 'core.PodTemplateSpec{...}'));
	}
	if (JSON.stringify(spec.podFailurePolicy ?? null) !== JSON.stringify(oldSpec.podFailurePolicy ?? null)) errs.push(forbidden('spec.podFailurePolicy', 'field is immutable'));
	return errs;
}

export const jobStrategy = {
	...workloadStrategy({
		defaults: defaultJob,
		prepareForCreate(obj) {
			const spec = asRecord(obj.spec) ?? {};
			// Upstream generates the selector in Validate, once the uid exists; here the uid is set before prepare.
			if (spec.manualSelector !== true) generateSelector(obj);
		},
		validate: validateJob,
		validateUpdate: validateJobUpdate,
	}),
	fields(obj: KubeObject): Record<string, string> {
		return { 'status.successful': String((asRecord(obj.status) ?? {}).succeeded ?? 0) };
	},
};
