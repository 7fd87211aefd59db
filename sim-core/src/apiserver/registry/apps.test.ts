import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { Strategy, StrategyContext } from './strategy.ts';
import { deploymentStrategy } from './deployments.ts';
import { replicaSetStrategy } from './replicasets.ts';
import { daemonSetStrategy } from './daemonsets.ts';
import { statefulSetStrategy } from './statefulsets.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };

const template = (labels: Record<string, string> = { app: 'web' }) => ({ metadata: { labels }, spec: { containers: [{ name: 'web', image: 'nginx:1.27' }] } });

function obj(kind: string, spec: Record<string, unknown>): KubeObject {
	return { apiVersion: 'apps/v1', kind, metadata: { name: 'web', namespace: 'default' }, spec };
}

function create(strategy: Strategy, o: KubeObject): { obj: KubeObject; errors: string[] } {
	strategy.defaults!(o);
	strategy.prepareForCreate!(o, ctx);
	return { obj: o, errors: strategy.validate!(o, ctx).map(formatFieldError) };
}

function update(strategy: Strategy, old: KubeObject, change: (o: KubeObject) => void): { obj: KubeObject; errors: string[] } {
	const next = JSON.parse(JSON.stringify(old)) as KubeObject;
	change(next);
	strategy.defaults!(next);
	next.metadata.generation = old.metadata.generation;
	strategy.prepareForUpdate!(next, old, ctx);
	return { obj: next, errors: strategy.validateUpdate!(next, old, ctx).map(formatFieldError) };
}

const podTemplateDefaults = {
	metadata: { labels: { app: 'web' } },
	spec: {
		containers: [{ name: 'web', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }],
		dnsPolicy: 'ClusterFirst',
		restartPolicy: 'Always',
		securityContext: {},
		terminationGracePeriodSeconds: 30,
		schedulerName: 'default-scheduler',
	},
};

describe('Deployment', () => {
	it('gets replicas 1, RollingUpdate 25%/25%, revisionHistoryLimit 10, progressDeadlineSeconds 600 and the PodSpec defaults', () => {
		const { obj: d, errors } = create(deploymentStrategy, obj('Deployment', { selector: { matchLabels: { app: 'web' } }, template: template() }));
		expect(errors).toEqual([]);
		expect(d.spec).toEqual({
			replicas: 1,
			selector: { matchLabels: { app: 'web' } },
			strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
			revisionHistoryLimit: 10,
			progressDeadlineSeconds: 600,
			template: podTemplateDefaults,
		});
		expect(d.metadata.generation).toBe(1);
	});

	it('does not default enableServiceLinks in a template (it is Pod-only)', () => {
		const { obj: d } = create(deploymentStrategy, obj('Deployment', { selector: { matchLabels: { app: 'web' } }, template: template() }));
		expect((d.spec as { template: { spec: Record<string, unknown> } }).template.spec.enableServiceLinks).toBeUndefined();
	});

	it.each([
		[
			'a selector that does not match the template labels',
			{ selector: { matchLabels: { app: 'api' } }, template: template() },
			['spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`'],
		],
		['a missing selector', { template: template() }, ['spec.selector: Required value', 'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`']],
		['an empty selector', { selector: {}, template: template() }, ['spec.selector: Invalid value: {}: empty selector is invalid for deployment']],
		['negative replicas', { replicas: -1, selector: { matchLabels: { app: 'web' } }, template: template() }, ['spec.replicas: Invalid value: -1: must be greater than or equal to 0']],
		[
			'maxSurge and maxUnavailable both 0',
			{ selector: { matchLabels: { app: 'web' } }, template: template(), strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } },
			['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0'],
		],
		[
			'a malformed percentage',
			{ selector: { matchLabels: { app: 'web' } }, template: template(), strategy: { rollingUpdate: { maxSurge: 'ten%' } } },
			["spec.strategy.rollingUpdate.maxSurge: Invalid value: \"ten%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')"],
		],
		[
			'maxUnavailable above 100%',
			{ selector: { matchLabels: { app: 'web' } }, template: template(), strategy: { rollingUpdate: { maxUnavailable: '150%' } } },
			['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%'],
		],
		['a negative revisionHistoryLimit', { selector: { matchLabels: { app: 'web' } }, template: template(), revisionHistoryLimit: -2 }, ['spec.revisionHistoryLimit: Invalid value: -2: must be greater than or equal to 0']],
		[
			'a template restartPolicy other than Always',
			{ selector: { matchLabels: { app: 'web' } }, template: { ...template(), spec: { containers: [{ name: 'web', image: 'nginx:1' }], restartPolicy: 'Never' } } },
			['spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"'],
		],
		['a template container without an image', { selector: { matchLabels: { app: 'web' } }, template: { ...template(), spec: { containers: [{ name: 'web' }] } } }, ['spec.template.spec.containers[0].image: Required value']],
	])('rejects %s', (_name, spec, expected) => {
		expect(create(deploymentStrategy, obj('Deployment', spec)).errors).toEqual(expected);
	});

	it('refuses to change the selector, rendering it as upstream does', () => {
		const { obj: old } = create(deploymentStrategy, obj('Deployment', { selector: { matchLabels: { app: 'web' } }, template: template() }));
		const { errors } = update(deploymentStrategy, old, (d) => {
			const spec = d.spec as { selector: unknown; template: { metadata: { labels: unknown } } };
			spec.selector = { matchLabels: { app: 'web2' } };
			spec.template.metadata.labels = { app: 'web2' };
		});
		expect(errors).toEqual(['spec.selector: Invalid value: {"matchLabels":{"app":"web2"}}: field is immutable']);
	});

	it.each([
		['a replica change', (d: KubeObject) => ((d.spec as { replicas: number }).replicas = 3), 2],
		['an annotation change (annotations are copied to ReplicaSets)', (d: KubeObject) => (d.metadata.annotations = { note: 'x' }), 2],
		['a label change', (d: KubeObject) => (d.metadata.labels = { tier: 'web' }), 1],
		['a status change', (d: KubeObject) => (d.status = { replicas: 1 }), 1],
	])('sets generation after %s', (_name, change, generation) => {
		const { obj: old } = create(deploymentStrategy, obj('Deployment', { selector: { matchLabels: { app: 'web' } }, template: template() }));
		expect(update(deploymentStrategy, old, change).obj.metadata.generation).toBe(generation);
	});
});

describe('ReplicaSet', () => {
	it('defaults replicas to 1 and reports status.replicas as a field', () => {
		const { obj: rs, errors } = create(replicaSetStrategy, obj('ReplicaSet', { selector: { matchLabels: { app: 'web' } }, template: template() }));
		expect(errors).toEqual([]);
		expect((rs.spec as { replicas: number }).replicas).toBe(1);
		expect(replicaSetStrategy.fields({ ...rs, status: { replicas: 3 } })).toEqual({ 'status.replicas': '3' });
	});

	it('uses the deployment wording for an empty selector, as upstream does', () => {
		expect(create(replicaSetStrategy, obj('ReplicaSet', { selector: {}, template: template() })).errors).toEqual([
			'spec.selector: Invalid value: {}: empty selector is invalid for deployment',
		]);
	});
});

describe('DaemonSet', () => {
	it('gets RollingUpdate with maxUnavailable 1 and maxSurge 0, and revisionHistoryLimit 10', () => {
		const { obj: ds, errors } = create(daemonSetStrategy, obj('DaemonSet', { selector: { matchLabels: { app: 'web' } }, template: template() }));
		expect(errors).toEqual([]);
		expect(ds.spec).toMatchObject({ updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } }, revisionHistoryLimit: 10 });
	});

	it.each([
		['an empty selector', { selector: {}, template: template() }, ['spec.selector: Invalid value: {}: empty selector is invalid for daemonset']],
		[
			'both maxSurge and maxUnavailable set',
			{ selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } } },
			['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero'],
		],
		[
			'both zero',
			{ selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 0 } } },
			['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0'],
		],
	])('rejects %s', (_name, spec, expected) => {
		expect(create(daemonSetStrategy, obj('DaemonSet', spec)).errors).toEqual(expected);
	});
});

describe('StatefulSet', () => {
	it('gets replicas 1, OrderedReady, RollingUpdate partition 0 maxUnavailable 1, revisionHistoryLimit 10 and Retain/Retain', () => {
		const { obj: sts, errors } = create(statefulSetStrategy, obj('StatefulSet', { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template() }));
		expect(errors).toEqual([]);
		expect(sts.spec).toMatchObject({
			replicas: 1,
			podManagementPolicy: 'OrderedReady',
			updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
			revisionHistoryLimit: 10,
			persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
		});
	});

	it('forbids changing fields other than the mutable ones', () => {
		const { obj: old } = create(statefulSetStrategy, obj('StatefulSet', { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template() }));
		const { errors } = update(statefulSetStrategy, old, (s) => ((s.spec as { serviceName: string }).serviceName = 'other'));
		expect(errors).toEqual([
			"spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
		]);
	});

	it('leaves the pod spec unchecked: volumeMounts may name a claim template (ValidatePodTemplateSpecForStatefulSet)', () => {
		const tpl = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.27', volumeMounts: [{ name: 'www', mountPath: '/data' }] }] } };
		const spec = { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: tpl, volumeClaimTemplates: [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }] };
		expect(create(statefulSetStrategy, obj('StatefulSet', spec)).errors).toEqual([]);
	});

	it.each([
		// field.Invalid prints the intstr.IntOrString struct with %#v.
		['maxUnavailable 0', 0, ['spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: 0: cannot be 0']],
		['maxUnavailable 150%', '150%', ['spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%']],
		['a negative maxUnavailable', -1, ['spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0']],
	])('rejects %s', (_name, maxUnavailable, expected) => {
		const spec = { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template(), updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable } } };
		expect(create(statefulSetStrategy, obj('StatefulSet', spec)).errors).toEqual(expected);
	});

	it('allows scaling', () => {
		const { obj: old } = create(statefulSetStrategy, obj('StatefulSet', { serviceName: 'web', selector: { matchLabels: { app: 'web' } }, template: template() }));
		const { errors, obj: next } = update(statefulSetStrategy, old, (s) => ((s.spec as { replicas: number }).replicas = 3));
		expect(errors).toEqual([]);
		expect(next.metadata.generation).toBe(2);
	});
});
