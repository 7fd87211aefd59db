import { describe, it, expect } from 'vitest';
import type { KubeObject, Status } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import type { StrategyContext } from '../registry/strategy.ts';
import type { AdmissionOperation } from './plugin.ts';
import { priorityAdmission } from './priority.ts';

const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, preemptionPolicy: 'PreemptLowerPriority', ...extra });

function context(classes: KubeObject[]): StrategyContext {
	return {
		now: '2026-11-30T08:00:00Z',
		user: { username: 'kubernetes-admin', groups: [] },
		get: (_g, resource, _ns, name) => (resource === 'priorityclasses' ? classes.find((c) => c.metadata.name === name) : undefined),
		list: (_g, resource) => (resource === 'priorityclasses' ? classes : []),
		random: () => 0,
	};
}

function admitPod(spec: Record<string, unknown>, classes: KubeObject[]) {
	const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default' }, spec: { containers: [], ...spec } };
	const r = priorityAdmission.admit!({ operation: 'CREATE', info: resourceByName('', 'pods')!, namespace: 'default', name: 'web', object: pod, user: { username: 'u', groups: [] }, dryRun: false }, context(classes));
	const { containers: _c, ...rest } = pod.spec as Record<string, unknown>;
	return r ? (r.body as Status).message : rest;
}

describe('Priority admission for pods', () => {
	it.each([
		['no class and no default: priority 0, PreemptLowerPriority', {}, [], { priority: 0, preemptionPolicy: 'PreemptLowerPriority' }],
		['a named class', { priorityClassName: 'high' }, [pc('high', 1000, { preemptionPolicy: 'Never' })], { priorityClassName: 'high', priority: 1000, preemptionPolicy: 'Never' }],
		['the global default', {}, [pc('low', 10, { globalDefault: true }), pc('lower', 5, { globalDefault: true })], { priorityClassName: 'lower', priority: 5, preemptionPolicy: 'PreemptLowerPriority' }],
		['system-node-critical before bootstrap stored it', { priorityClassName: 'system-node-critical' }, [], { priorityClassName: 'system-node-critical', priority: 2000001000, preemptionPolicy: 'PreemptLowerPriority' }],
		['system-cluster-critical', { priorityClassName: 'system-cluster-critical' }, [], { priorityClassName: 'system-cluster-critical', priority: 2000000000, preemptionPolicy: 'PreemptLowerPriority' }],
	])('%s', (_name, spec, classes, expected) => {
		expect(admitPod(spec, classes)).toEqual(expected);
	});

	it.each([
		['an unknown class', { priorityClassName: 'gold' }, [], 'pods "web" is forbidden: no PriorityClass with name gold was found'],
		[
			'a hand-set priority that disagrees',
			{ priority: 5 },
			[],
			'pods "web" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
		],
		[
			'a hand-set preemptionPolicy that disagrees',
			{ priorityClassName: 'high', preemptionPolicy: 'PreemptLowerPriority' },
			[pc('high', 1000, { preemptionPolicy: 'Never' })],
			'pods "web" is forbidden: the string value of PreemptionPolicy (PreemptLowerPriority) must not be provided in pod spec; priority admission controller computed Never from the given PriorityClass name',
		],
	])('rejects %s', (_name, spec, classes, expected) => {
		expect(admitPod(spec, classes)).toBe(expected);
	});

	it('keeps priority on updates that drop it', () => {
		const pod: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: {} };
		const old: KubeObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web' }, spec: { priority: 7, preemptionPolicy: 'Never' } };
		priorityAdmission.admit!({ operation: 'UPDATE', info: resourceByName('', 'pods')!, name: 'web', object: pod, oldObject: old, user: { username: 'u', groups: [] }, dryRun: false }, context([]));
		expect(pod.spec).toEqual({ priority: 7, preemptionPolicy: 'Never' });
	});
});

describe('Priority admission for PriorityClasses', () => {
	const validate = (operation: AdmissionOperation, obj: KubeObject, classes: KubeObject[]) => {
		const r = priorityAdmission.validate!({ operation, info: resourceByName('scheduling.k8s.io', 'priorityclasses')!, name: obj.metadata.name!, object: obj, user: { username: 'u', groups: [] }, dryRun: false }, context(classes));
		return r ? (r.body as Status).message : undefined;
	};
	it('allows only one global default', () => {
		expect(validate('CREATE', pc('b', 2, { globalDefault: true }), [pc('a', 1, { globalDefault: true })])).toBe('priorityclasses.scheduling.k8s.io "b" is forbidden: PriorityClass a is marked as default. Only one default can exist');
		expect(validate('UPDATE', pc('a', 1, { globalDefault: true }), [pc('a', 1, { globalDefault: true })])).toBeUndefined();
	});
});
