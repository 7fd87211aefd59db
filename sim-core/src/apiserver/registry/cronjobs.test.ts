import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { StrategyContext } from './strategy.ts';
import { cronJobStrategy } from './cronjobs.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };

function cronJob(spec: Record<string, unknown>, name = 'hello'): KubeObject {
	return {
		apiVersion: 'batch/v1',
		kind: 'CronJob',
		metadata: { name, namespace: 'default', uid: 'u' },
		spec: { schedule: '* * * * *', jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.28' }] } } } }, ...spec },
	};
}

function create(o: KubeObject): { obj: KubeObject; errors: string[] } {
	cronJobStrategy.defaults!(o);
	cronJobStrategy.prepareForCreate!(o, ctx);
	return { obj: o, errors: cronJobStrategy.validate!(o, ctx).map(formatFieldError) };
}

describe('CronJob defaults and validation', () => {
	it('defaults the concurrency policy, suspend and the history limits', () => {
		const { obj, errors } = create(cronJob({}));
		expect(errors).toEqual([]);
		expect(obj.spec).toMatchObject({ concurrencyPolicy: 'Allow', suspend: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
	});

	it.each([
		[{ schedule: '* * * *' }, 'hello', 'spec.schedule: Invalid value: "* * * *": expected exactly 5 fields, found 4: [* * * *]'],
		[{ schedule: 'TZ=UTC * * * * *' }, 'hello', 'spec.schedule: Invalid value: "TZ=UTC * * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead'],
		[{ timeZone: 'Mars/Olympus_Mons' }, 'hello', 'spec.timeZone: Invalid value: "Mars/Olympus_Mons": unknown time zone Mars/Olympus_Mons'],
		[{ timeZone: 'Local' }, 'hello', 'spec.timeZone: Invalid value: "Local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'],
		[{ concurrencyPolicy: 'Sometimes' }, 'hello', 'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"'],
		[{}, 'a'.repeat(53), `metadata.name: Invalid value: "${'a'.repeat(53)}": must be no more than 52 characters`],
	])('refuses %j (name %s)', (spec, name, error) => {
		expect(create(cronJob(spec, name)).errors).toEqual([error]);
	});

	it('wants a Job template restart policy of OnFailure or Never', () => {
		const o = cronJob({});
		(o.spec as { jobTemplate: { spec: { template: { spec: Record<string, unknown> } } } }).jobTemplate.spec.template.spec.restartPolicy = 'Always';
		expect(create(o).errors).toEqual(['spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']);
	});
});
