import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { StrategyContext } from './strategy.ts';
import { jobStrategy } from './jobs.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };
const UID = '0b3c0d6e-1111-4222-8333-444455556666';

function job(spec: Record<string, unknown>): KubeObject {
	return { apiVersion: 'batch/v1', kind: 'Job', metadata: { name: 'pi', namespace: 'default', uid: UID }, spec };
}

const template = (restartPolicy = 'Never') => ({ spec: { containers: [{ name: 'pi', image: 'perl:5.34' }], ...(restartPolicy ? { restartPolicy } : {}) } });

function create(o: KubeObject): { obj: KubeObject; errors: string[] } {
	jobStrategy.defaults!(o);
	jobStrategy.prepareForCreate!(o, ctx);
	return { obj: o, errors: jobStrategy.validate!(o, ctx).map(formatFieldError) };
}

describe('Job defaults and the generated selector', () => {
	it('defaults counts, modes and policies and labels its pods with the job name and uid', () => {
		const { obj, errors } = create(job({ template: template() }));
		expect(errors).toEqual([]);
		const spec = obj.spec as Record<string, unknown>;
		expect(spec).toMatchObject({
			parallelism: 1,
			completions: 1,
			backoffLimit: 6,
			completionMode: 'NonIndexed',
			suspend: false,
			podReplacementPolicy: 'TerminatingOrFailed',
			manualSelector: false,
			selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': UID } },
		});
		expect((spec.template as { metadata: { labels: unknown } }).metadata.labels).toEqual({
			'job-name': 'pi',
			'batch.kubernetes.io/job-name': 'pi',
			'controller-uid': UID,
			'batch.kubernetes.io/controller-uid': UID,
		});
		expect(obj.metadata.generation).toBe(1);
	});

	it('sets only parallelism when completions was given', () => {
		const { obj } = create(job({ completions: 5, template: template() }));
		expect(obj.spec).toMatchObject({ completions: 5, parallelism: 1 });
	});

	it('defaults podReplacementPolicy to Failed when a podFailurePolicy is set', () => {
		const { obj } = create(job({ podFailurePolicy: { rules: [] }, template: template() }));
		expect((obj.spec as { podReplacementPolicy: string }).podReplacementPolicy).toBe('Failed');
	});

	it('copies the template labels to an unlabelled Job', () => {
		const { obj } = create(job({ template: { metadata: { labels: { app: 'pi' } }, ...template() } }));
		expect(obj.metadata.labels).toEqual({ app: 'pi' });
	});
});

describe('Job validation', () => {
	it.each([
		['no restartPolicy (defaulted to Always)', job({ template: template('') }), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
		['restartPolicy Always', job({ template: template('Always') }), ['spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"']],
		['negative parallelism', job({ parallelism: -1, template: template() }), ['spec.parallelism: Invalid value: -1: must be greater than or equal to 0']],
		['a negative backoffLimit', job({ backoffLimit: -1, template: template() }), ['spec.backoffLimit: Invalid value: -1: must be greater than or equal to 0']],
		['an unknown completionMode', job({ completionMode: 'Ordered', template: template() }), ['spec.completionMode: Unsupported value: "Ordered": supported values: "NonIndexed", "Indexed"']],
		[
			'a hand-written selector without manualSelector',
			job({ selector: { matchLabels: { app: 'pi' } }, template: { metadata: { labels: { app: 'pi' } }, ...template() } }),
			[
				`spec.selector: Invalid value: {"matchLabels":{"app":"pi","batch.kubernetes.io/controller-uid":"${UID}"}}: \`selector\` not auto-generated`,
			],
		],
	])('rejects %s', (_name, obj, expected) => {
		expect(create(obj).errors).toEqual(expected);
	});

	it('accepts a manual selector that matches the template', () => {
		expect(create(job({ manualSelector: true, selector: { matchLabels: { app: 'pi' } }, template: { metadata: { labels: { app: 'pi' } }, ...template() } })).errors).toEqual([]);
	});

	it('refuses to change completions after create', () => {
		const { obj: old } = create(job({ template: template() }));
		const next = JSON.parse(JSON.stringify(old)) as KubeObject;
		(next.spec as { completions: number }).completions = 3;
		jobStrategy.prepareForUpdate!(next, old, ctx);
		expect(jobStrategy.validateUpdate!(next, old, ctx).map(formatFieldError)).toEqual(['spec.completions: Invalid value: 3: field is immutable']);
	});

	it('reports status.successful as a field', () => {
		expect(jobStrategy.fields({ ...job({}), status: { succeeded: 2 } })).toEqual({ 'status.successful': '2' });
	});
});
