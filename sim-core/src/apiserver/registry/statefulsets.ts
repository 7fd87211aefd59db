/**
 * The StatefulSet strategy: defaults (replicas 1, OrderedReady,
 * RollingUpdate with partition 0 and maxUnavailable 1 (the
 * MaxUnavailableStatefulSet gate is beta and on since v1.35),
 * revisionHistoryLimit 10, PVC retention Retain/Retain), validation, and
 * which spec fields an update may change.
 *
 * Mirrors pkg/registry/apps/statefulset/strategy.go,
 * pkg/apis/apps/v1/defaults.go (SetDefaults_StatefulSet),
 * pkg/apis/apps/validation/validation.go (ValidateStatefulSetSpec,
 * ValidatePodTemplateSpecForStatefulSet, ValidateStatefulSetUpdate).
 */
import type { KubeObject } from '../../api/types.ts';
import { asRecord, asStringMap, child, forbidden, jsonIntOrString, jsonLabelSelector, invalid, jsonEquals, notSupported, required, type FieldError } from './field.ts';
import { metaErrors, selectorMatches, selectorMismatch, validateAnnotations, validateLabels, validateLabelSelector, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { validatePodAnnotations } from './pod-validation.ts';
import { intOrPercentValue, notMoreThan100Percent, validatePositiveIntOrPercent, workloadStrategy, type IntOrPercent } from './apps-validation.ts';

type Json = Record<string, unknown>;

/** SetDefaults_StatefulSet (StatefulSetAutoDeletePVC is GA, so the retention policy is always defaulted). */
function defaultStatefulSetSpec(spec: Json): void {
	if (!spec.podManagementPolicy) spec.podManagementPolicy = 'OrderedReady';
	const strategy = (asRecord(spec.updateStrategy) ?? (spec.updateStrategy = {})) as Json;
	if (!strategy.type) {
		strategy.type = 'RollingUpdate';
		if (!asRecord(strategy.rollingUpdate)) strategy.rollingUpdate = {};
	}
	const rolling = asRecord(strategy.rollingUpdate);
	if (strategy.type === 'RollingUpdate' && rolling && (rolling.partition === undefined || rolling.partition === null)) rolling.partition = 0;
	if (strategy.type === 'RollingUpdate' && rolling && (rolling.maxUnavailable === undefined || rolling.maxUnavailable === null)) rolling.maxUnavailable = 1;
	const retention = (asRecord(spec.persistentVolumeClaimRetentionPolicy) ?? (spec.persistentVolumeClaimRetentionPolicy = {})) as Json;
	if (!retention.whenDeleted) retention.whenDeleted = 'Retain';
	if (!retention.whenScaled) retention.whenScaled = 'Retain';
	if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
	if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
}

/** ValidateStatefulSetSpec. */
function validateStatefulSetSpec(spec: Json): FieldError[] {
	const errs: FieldError[] = [];
	const policy = String(spec.podManagementPolicy ?? '');
	if (!policy) errs.push(required('spec.podManagementPolicy'));
	else if (policy !== 'OrderedReady' && policy !== 'Parallel') errs.push(invalid('spec.podManagementPolicy', policy, "must be 'OrderedReady' or 'Parallel'"));
	const strategy = asRecord(spec.updateStrategy) ?? {};
	switch (strategy.type) {
		case undefined:
		case '':
			errs.push(required('spec.updateStrategy'));
			break;
		case 'OnDelete':
			if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) errs.push(invalid('spec.updateStrategy.rollingUpdate', strategy.rollingUpdate, "only allowed for updateStrategy 'RollingUpdate'"));
			break;
		case 'RollingUpdate': {
			const rolling = asRecord(strategy.rollingUpdate);
			if (rolling) errs.push(...validateNonnegative(rolling.partition as number | undefined, 'spec.updateStrategy.rollingUpdate.partition'));
			// validateRollingUpdateStatefulSet: maxUnavailable a positive int or percentage, not 0, at most 100%.
			const maxUnavailable = rolling?.maxUnavailable as IntOrPercent | undefined | null;
			if (maxUnavailable !== undefined && maxUnavailable !== null) {
				const path = 'spec.updateStrategy.rollingUpdate.maxUnavailable';
				errs.push(...validatePositiveIntOrPercent(maxUnavailable, path));
				if (intOrPercentValue(maxUnavailable) === 0) errs.push(invalid(path, maxUnavailable, 'cannot be 0', jsonIntOrString(maxUnavailable)));
				errs.push(...notMoreThan100Percent(maxUnavailable, path));
			}
			break;
		}
		default:
			errs.push(invalid('spec.updateStrategy', strategy, "must be 'RollingUpdate' or 'OnDelete'"));
	}
	errs.push(...validateNonnegative(spec.replicas as number | undefined, 'spec.replicas'));
	const sel = asRecord(spec.selector);
	if (!sel) errs.push(required('spec.selector'));
	else {
		errs.push(...validateLabelSelector(sel, 'spec.selector'));
		if (Object.keys(asRecord(sel.matchLabels) ?? {}).length + ((sel.matchExpressions as unknown[] | undefined)?.length ?? 0) === 0) {
			errs.push(invalid('spec.selector', sel, 'empty selector is invalid for statefulset', jsonLabelSelector(sel as Parameters<typeof jsonLabelSelector>[0])));
		}
	}
	const template = asRecord(spec.template) ?? {};
	const labels = asStringMap(asRecord(template.metadata)?.labels);
	const empty = !!sel && Object.keys(asRecord(sel.matchLabels) ?? {}).length + ((sel.matchExpressions as unknown[] | undefined)?.length ?? 0) === 0;
	if (!empty && !selectorMatches(spec.selector, labels)) errs.push(selectorMismatch('spec.template', labels));
	// ValidatePodTemplateSpecForStatefulSet: labels and annotations only; upstream leaves the pod spec unchecked
	// (its volumeMounts name the claim templates' volumes, which only each Pod gets).
	const templateMeta = (asRecord(template.metadata) ?? {}) as { labels?: Record<string, string>; annotations?: Record<string, string> };
	errs.push(...validateLabels(templateMeta.labels, 'spec.template.labels'));
	errs.push(...validateAnnotations(templateMeta.annotations, 'spec.template.annotations'));
	errs.push(...validatePodAnnotations(templateMeta.annotations, asRecord(template.spec) ?? {}, 'spec.template.annotations'));
	const podSpec = asRecord(template.spec) ?? {};
	const restartPolicy = String(podSpec.restartPolicy ?? '');
	if (restartPolicy !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
	if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) errs.push(forbidden('spec.template.spec.activeDeadlineSeconds', 'activeDeadlineSeconds in StatefulSet is not Supported'));
	errs.push(...validateNonnegative(spec.minReadySeconds as number | undefined, 'spec.minReadySeconds'));
	errs.push(...validateNonnegative(spec.revisionHistoryLimit as number | undefined, 'spec.revisionHistoryLimit'));
	const retention = asRecord(spec.persistentVolumeClaimRetentionPolicy) ?? {};
	for (const f of ['whenDeleted', 'whenScaled']) {
		const v = String(retention[f] ?? '');
		if (v !== 'Retain' && v !== 'Delete') errs.push(notSupported(child('spec.persistentVolumeClaimRetentionPolicy', f), v, ['Retain', 'Delete']));
	}
	return errs;
}

/** The spec fields an update may change (ValidateStatefulSetUpdate). */
const MUTABLE_FIELDS = ['replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy', 'minReadySeconds'];

function validateStatefulSetUpdate(obj: KubeObject, old: KubeObject): FieldError[] {
	const spec = asRecord(obj.spec) ?? {};
	const oldSpec = asRecord(old.spec) ?? {};
	const errs = [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateStatefulSetSpec(spec)];
	const strip = (s: Json) => Object.fromEntries(Object.entries(s).filter(([k]) => !MUTABLE_FIELDS.includes(k)));
	if (!jsonEquals(strip(spec), strip(oldSpec))) {
		errs.push(forbidden('spec', "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"));
	}
	return errs;
}

export const statefulSetStrategy = workloadStrategy({
	defaults: defaultStatefulSetSpec,
	validate: (obj) => [...metaErrors(obj, true), ...validateStatefulSetSpec(asRecord(obj.spec) ?? {})],
	validateUpdate: validateStatefulSetUpdate,
});
