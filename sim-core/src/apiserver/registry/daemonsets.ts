/**
 * The DaemonSet strategy: defaults (RollingUpdate with maxUnavailable 1 and
 * maxSurge 0, revisionHistoryLimit 10), validation, immutable selector.
 *
 * Mirrors pkg/registry/apps/daemonset/strategy.go,
 * pkg/apis/apps/v1/defaults.go (SetDefaults_DaemonSet),
 * pkg/apis/apps/validation/validation.go (ValidateDaemonSetSpec,
 * ValidateDaemonSetUpdateStrategy).
 */
import type { KubeObject } from '../../api/types.ts';
import { asRecord, asStringMap, child, jsonLabelSelector, invalid, notSupported, required, type FieldError } from './field.ts';
import { metaErrors, selectorMatches, selectorMismatch, validateLabelSelector, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { validatePodTemplateSpec } from './pod-validation.ts';
import { intOrPercentValue, notMoreThan100Percent, selectorImmutable, validatePositiveIntOrPercent, workloadStrategy, type IntOrPercent } from './apps-validation.ts';

type Json = Record<string, unknown>;

/** SetDefaults_DaemonSet. */
function defaultDaemonSetSpec(spec: Json): void {
	const strategy = (asRecord(spec.updateStrategy) ?? (spec.updateStrategy = {})) as Json;
	if (!strategy.type) strategy.type = 'RollingUpdate';
	if (strategy.type === 'RollingUpdate') {
		const rolling = (asRecord(strategy.rollingUpdate) ?? (strategy.rollingUpdate = {})) as Json;
		if (rolling.maxUnavailable === undefined || rolling.maxUnavailable === null) rolling.maxUnavailable = 1;
		if (rolling.maxSurge === undefined || rolling.maxSurge === null) rolling.maxSurge = 0;
	}
	if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
}

/** ValidateDaemonSetUpdateStrategy / ValidateRollingUpdateDaemonSet. */
function validateUpdateStrategy(strategy: Json, path: string): FieldError[] {
	const errs: FieldError[] = [];
	switch (strategy.type) {
		case 'OnDelete':
			break;
		case 'RollingUpdate': {
			const rolling = asRecord(strategy.rollingUpdate);
			if (!rolling) return [required(child(path, 'rollingUpdate'))];
			const rp = child(path, 'rollingUpdate');
			const maxUnavailable = rolling.maxUnavailable as IntOrPercent;
			const maxSurge = rolling.maxSurge as IntOrPercent;
			errs.push(...validatePositiveIntOrPercent(maxUnavailable, child(rp, 'maxUnavailable')));
			errs.push(...validatePositiveIntOrPercent(maxSurge, child(rp, 'maxSurge')));
			errs.push(...notMoreThan100Percent(maxUnavailable, child(rp, 'maxUnavailable')));
			errs.push(...notMoreThan100Percent(maxSurge, child(rp, 'maxSurge')));
			const hasUnavailable = intOrPercentValue(maxUnavailable) !== 0;
			const hasSurge = intOrPercentValue(maxSurge) !== 0;
			if (hasUnavailable && hasSurge) errs.push(invalid(child(rp, 'maxSurge'), maxSurge, 'may not be set when maxUnavailable is non-zero'));
			if (!hasUnavailable && !hasSurge) errs.push(required(child(rp, 'maxUnavailable'), 'cannot be 0 when maxSurge is 0'));
			break;
		}
		default:
			errs.push(notSupported(path, strategy, ['RollingUpdate', 'OnDelete'], `apps.DaemonSetUpdateStrategy{Type:${JSON.stringify(String(strategy.type ?? ''))}, RollingUpdate:(*apps.RollingUpdateDaemonSet)(nil)}`));
	}
	return errs;
}

/** ValidateDaemonSetSpec. */
function validateDaemonSetSpec(spec: Json): FieldError[] {
	const errs: FieldError[] = [];
	errs.push(...validateLabelSelector(spec.selector, 'spec.selector'));
	const template = asRecord(spec.template) ?? {};
	const labels = asStringMap(asRecord(template.metadata)?.labels);
	const sel = asRecord(spec.selector);
	const empty = !!sel && Object.keys(asRecord(sel.matchLabels) ?? {}).length + ((sel.matchExpressions as unknown[] | undefined)?.length ?? 0) === 0;
	if (!empty && !selectorMatches(spec.selector, labels)) errs.push(selectorMismatch('spec.template', labels));
	if (empty) errs.push(invalid('spec.selector', sel, 'empty selector is invalid for daemonset', jsonLabelSelector(sel as Parameters<typeof jsonLabelSelector>[0])));
	errs.push(...validatePodTemplateSpec(template, 'spec.template'));
	const podSpec = asRecord(template.spec) ?? {};
	const restartPolicy = String(podSpec.restartPolicy ?? '');
	if (restartPolicy !== 'Always') errs.push(notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
	if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null) {
		errs.push(invalid('spec.template.spec.activeDeadlineSeconds', podSpec.activeDeadlineSeconds, 'activeDeadlineSeconds in DaemonSet is not Supported'));
	}
	errs.push(...validateNonnegative(spec.minReadySeconds as number | undefined, 'spec.minReadySeconds'));
	errs.push(...validateUpdateStrategy(asRecord(spec.updateStrategy) ?? {}, 'spec.updateStrategy'));
	errs.push(...validateNonnegative(spec.revisionHistoryLimit as number | undefined, 'spec.revisionHistoryLimit'));
	return errs;
}

const validateDaemonSet = (obj: KubeObject) => [...metaErrors(obj, true), ...validateDaemonSetSpec(asRecord(obj.spec) ?? {})];

export const daemonSetStrategy = workloadStrategy({
	defaults: defaultDaemonSetSpec,
	validate: validateDaemonSet,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateDaemonSetSpec(asRecord(obj.spec) ?? {}), ...selectorImmutable(obj, old)];
	},
});
