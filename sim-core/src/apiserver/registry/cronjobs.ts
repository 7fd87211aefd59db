/**
 * The CronJob strategy (batch/v1): defaults (concurrencyPolicy Allow,
 * suspend false, 3 successful and 1 failed Jobs of history, the pod
 * template's defaults) and validation: a name short enough for the Jobs
 * named after it (52 characters), a schedule robfig/cron can parse and
 * without a `TZ=` prefix, an explicit time zone Go knows, the policies and
 * limits, and the Job template's restart policy.
 *
 * Mirrors pkg/registry/batch/cronjob/strategy.go,
 * pkg/apis/batch/v1/defaults.go (SetDefaults_CronJob),
 * pkg/apis/batch/validation/validation.go (ValidateCronJobCreate,
 * validateTimeZone, ValidateJobTemplateSpec).
 */
import type { KubeObject } from '../../api/types.ts';
import { parseCronSchedule } from '../../golang/cron.ts';
import { loadLocationError } from '../../golang/timezone.ts';
import { asRecord, invalid, notSupported, required, type FieldError } from './field.ts';
import { metaErrors, validateNonnegative, validateObjectMetaUpdate } from './objectmeta.ts';
import { validatePodTemplateSpec } from './pod-validation.ts';
import { defaultPodTemplate } from './pod-defaults.ts';
import { bumpGenerationOnSpecChange, initGeneration } from './generation.ts';
import type { Strategy } from './strategy.ts';

type Json = Record<string, unknown>;

/** validation.go: a CronJob's name leaves room for the 11-character `-<minutes>` suffix of its Jobs. */
const CRONJOB_NAME_MAX = 52;

/** SetDefaults_CronJob. */
function defaultCronJob(obj: KubeObject): void {
	const spec = asRecord(obj.spec);
	if (!spec) return;
	spec.concurrencyPolicy ??= 'Allow';
	spec.suspend ??= false;
	spec.successfulJobsHistoryLimit ??= 3;
	spec.failedJobsHistoryLimit ??= 1;
	const jobSpec = asRecord(asRecord(spec.jobTemplate)?.spec);
	if (jobSpec) defaultPodTemplate(jobSpec.template);
}

function validateSchedule(schedule: unknown): FieldError[] {
	const path = 'spec.schedule';
	if (typeof schedule !== 'string' || schedule === '') return [required(path)];
	if (schedule.includes('TZ')) return [invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead')];
	const parsed = parseCronSchedule(schedule);
	return parsed.ok ? [] : [invalid(path, schedule, parsed.error)];
}

/** validateTimeZone. */
function validateTimeZone(timeZone: unknown): FieldError[] {
	if (timeZone === undefined || timeZone === null) return [];
	const path = 'spec.timeZone';
	const zone = String(timeZone);
	if (zone.toLowerCase() === 'local') return [invalid(path, zone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones')];
	const error = zone === '' ? 'unknown time zone ' : loadLocationError(zone);
	return error ? [invalid(path, zone, error)] : [];
}

function validateCronJob(obj: KubeObject): FieldError[] {
	const spec = (asRecord(obj.spec) ?? {}) as Json;
	const errs = metaErrors(obj, true);
	const name = obj.metadata.name ?? '';
	if (name.length > CRONJOB_NAME_MAX) errs.push(invalid('metadata.name', name, `must be no more than ${CRONJOB_NAME_MAX} characters`));
	errs.push(...validateSchedule(spec.schedule), ...validateTimeZone(spec.timeZone));
	const policy = spec.concurrencyPolicy;
	if (policy === undefined || policy === '') errs.push(required('spec.concurrencyPolicy'));
	else if (policy !== 'Allow' && policy !== 'Forbid' && policy !== 'Replace') errs.push(notSupported('spec.concurrencyPolicy', policy, ['Allow', 'Forbid', 'Replace']));
	for (const f of ['startingDeadlineSeconds', 'successfulJobsHistoryLimit', 'failedJobsHistoryLimit']) {
		errs.push(...validateNonnegative(typeof spec[f] === 'number' ? (spec[f] as number) : undefined, `spec.${f}`));
	}
	const template = asRecord(asRecord(asRecord(spec.jobTemplate)?.spec)?.template);
	if (!template) errs.push(required('spec.jobTemplate.spec.template'));
	else {
		errs.push(...validatePodTemplateSpec(template, 'spec.jobTemplate.spec.template'));
		const restartPolicy = String(asRecord(template.spec)?.restartPolicy ?? '');
		const path = 'spec.jobTemplate.spec.template.spec.restartPolicy';
		if (restartPolicy === 'Always' || restartPolicy === '') errs.push(required(path, 'valid values: "OnFailure", "Never"'));
		else if (restartPolicy !== 'OnFailure' && restartPolicy !== 'Never') errs.push(notSupported(path, restartPolicy, ['OnFailure', 'Never']));
	}
	return errs;
}

export const cronJobStrategy: Strategy = {
	hasStatusSubresource: true,
	defaults: defaultCronJob,
	prepareForCreate(obj) {
		initGeneration(obj);
		obj.status = {};
	},
	prepareForUpdate(obj, old) {
		bumpGenerationOnSpecChange(obj, old);
	},
	validate: validateCronJob,
	validateUpdate(obj, old) {
		return [...validateObjectMetaUpdate(obj.metadata, old.metadata), ...validateCronJob(obj)];
	},
	validateStatusUpdate(obj, old) {
		return validateObjectMetaUpdate(obj.metadata, old.metadata);
	},
};
