/**
 * The Deployment strategy: defaults (replicas 1, RollingUpdate 25%/25%,
 * revisionHistoryLimit 10, progressDeadlineSeconds 600, pod template
 * defaults), generation (spec or annotation changes), validation and the
 * immutable selector.
 *
 * Mirrors pkg/registry/apps/deployment/strategy.go,
 * pkg/apis/apps/v1/defaults.go (SetDefaults_Deployment),
 * pkg/apis/apps/validation/validation.go (ValidateDeployment,
 * ValidateDeploymentSpec).
 */
import type { KubeObject } from '../../api/types.ts';
import { asRecord, child, forbidden, jsonIntOrString, invalid, notSupported, required, type FieldError } from './field.ts';
import { metaErrors, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { intOrPercentValue, notMoreThan100Percent, selectorImmutable, validatePositiveIntOrPercent, validateSelectorAndTemplate, workloadStrategy, type IntOrPercent } from './apps-validation.ts';

type Json = Record<string, unknown>;

/** SetDefaults_Deployment. */
function defaultDeploymentSpec(spec: Json): void {
	if (spec.replicas === undefined || spec.replicas === null) spec.replicas = 1;
	const strategy = (asRecord(spec.strategy) ?? (spec.strategy = {})) as Json;
	if (!strategy.type) strategy.type = 'RollingUpdate';
	if (strategy.type === 'RollingUpdate') {
		const rolling = (asRecord(strategy.rollingUpdate) ?? (strategy.rollingUpdate = {})) as Json;
		// 25% each: maxUnavailable rounds down, maxSurge rounds up (apps/v1 types.go).
		if (rolling.maxUnavailable === undefined || rolling.maxUnavailable === null) rolling.maxUnavailable = '25%';
		if (rolling.maxSurge === undefined || rolling.maxSurge === null) rolling.maxSurge = '25%';
	}
	if (spec.revisionHistoryLimit === undefined || spec.revisionHistoryLimit === null) spec.revisionHistoryLimit = 10;
	if (spec.progressDeadlineSeconds === undefined || spec.progressDeadlineSeconds === null) spec.progressDeadlineSeconds = 600;
}

/** ValidateDeploymentStrategy / ValidateRollingUpdateDeployment. */
function validateStrategy(strategy: Json, path: string): FieldError[] {
	const errs: FieldError[] = [];
	switch (strategy.type) {
		case 'Recreate':
			if (strategy.rollingUpdate !== undefined && strategy.rollingUpdate !== null) errs.push(forbidden(child(path, 'rollingUpdate'), "may not be specified when strategy `type` is 'Recreate'"));
			break;
		case 'RollingUpdate': {
			const rolling = asRecord(strategy.rollingUpdate);
			if (!rolling) {
				errs.push(required(child(path, 'rollingUpdate'), 'this should be defaulted and never be nil'));
				break;
			}
			const rp = child(path, 'rollingUpdate');
			const maxUnavailable = rolling.maxUnavailable as IntOrPercent;
			const maxSurge = rolling.maxSurge as IntOrPercent;
			errs.push(...validatePositiveIntOrPercent(maxUnavailable, child(rp, 'maxUnavailable')));
			errs.push(...validatePositiveIntOrPercent(maxSurge, child(rp, 'maxSurge')));
			if (intOrPercentValue(maxUnavailable) === 0 && intOrPercentValue(maxSurge) === 0) {
				errs.push(invalid(child(rp, 'maxUnavailable'), maxUnavailable, 'may not be 0 when `maxSurge` is 0', jsonIntOrString(maxUnavailable)));
			}
			errs.push(...notMoreThan100Percent(maxUnavailable, child(rp, 'maxUnavailable')));
			break;
		}
		default:
			errs.push(notSupported(path, strategy, ['Recreate', 'RollingUpdate'], `apps.DeploymentStrategy{Type:${JSON.stringify(String(strategy.type ?? ''))}, RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}`));
	}
	return errs;
}

/** ValidateDeploymentSpec. */
function validateDeploymentSpec(spec: Json): FieldError[] {
	const errs: FieldError[] = [];
	errs.push(...validateNonnegative(spec.replicas as number | undefined, 'spec.replicas'));
	errs.push(...validateSelectorAndTemplate(spec, 'spec', 'empty selector is invalid for deployment', 'ReplicaSet'));
	errs.push(...validateStrategy(asRecord(spec.strategy) ?? {}, 'spec.strategy'));
	errs.push(...validateNonnegative(spec.minReadySeconds as number | undefined, 'spec.minReadySeconds'));
	errs.push(...validateNonnegative(spec.revisionHistoryLimit as number | undefined, 'spec.revisionHistoryLimit'));
	if (typeof spec.progressDeadlineSeconds === 'number') {
		errs.push(...validateNonnegative(spec.progressDeadlineSeconds, 'spec.progressDeadlineSeconds'));
		if (spec.progressDeadlineSeconds <= Number(spec.minReadySeconds ?? 0)) errs.push(invalid('spec.progressDeadlineSeconds', spec.progressDeadlineSeconds, 'must be greater than minReadySeconds'));
	}
	return errs;
}

function validateDeployment(obj: KubeObject): FieldError[] {
	return [...metaErrors(obj, true), ...validateDeploymentSpec(asRecord(obj.spec) ?? {})];
}

export const deploymentStrategy = workloadStrategy({
	defaults: defaultDeploymentSpec,
	annotationsBumpGeneration: true,
	validate: validateDeployment,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateDeploymentSpec(asRecord(obj.spec) ?? {}), ...selectorImmutable(obj, old)];
	},
});
