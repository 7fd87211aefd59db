import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { Strategy, StrategyContext } from './strategy.ts';
import { namespaceStrategy } from './namespaces.ts';
import { nodeStrategy } from './nodes.ts';
import { eventStrategy } from './events.ts';
import { endpointsStrategy } from './endpoints.ts';
import { endpointSliceStrategy } from './endpointslices.ts';
import { leaseStrategy } from './leases.ts';
import { priorityClassStrategy } from './priorityclasses.ts';
import { serviceAccountStrategy } from './serviceaccounts.ts';
import { defaultStrategies } from './index.ts';
import { builtinKindStrategies } from './builtin-kinds.ts';
import { strategyKey } from './strategy.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };

function create(strategy: Strategy, o: KubeObject): { obj: KubeObject; errors: string[] } {
	strategy.defaults?.(o);
	strategy.prepareForCreate?.(o, ctx);
	return { obj: o, errors: (strategy.validate?.(o, ctx) ?? []).map(formatFieldError) };
}

describe('Namespace', () => {
	it('gets the name label, the kubernetes finalizer and phase Active', () => {
		const { obj, errors } = create(namespaceStrategy, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
		expect(errors).toEqual([]);
		expect(obj).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { 'kubernetes.io/metadata.name': 'team-a' } }, spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } });
	});

	it('rejects a name that is not a DNS-1123 label', () => {
		expect(create(namespaceStrategy, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team.a' } }).errors).toEqual(['metadata.name: Invalid value: "team.a": must not contain dots']);
	});

	it('keeps finalizers, status and the name label on updates', () => {
		const { obj: old } = create(namespaceStrategy, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a' } });
		const next: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { env: 'dev' } }, spec: { finalizers: [] } };
		namespaceStrategy.prepareForUpdate!(next, old, ctx);
		expect(next.spec).toEqual({ finalizers: ['kubernetes'] });
		expect(next.status).toEqual({ phase: 'Active' });
		expect(next.metadata.labels).toEqual({ env: 'dev', 'kubernetes.io/metadata.name': 'team-a' });
	});

	it('selects on status.phase', () => {
		expect(namespaceStrategy.fields!({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' }, status: { phase: 'Terminating' } })).toEqual({ 'status.phase': 'Terminating', name: 'a' });
	});
});

describe('Node', () => {
	const node = (spec: Record<string, unknown>, status?: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1' }, spec, ...(status ? { status } : {}) });

	it('defaults allocatable to capacity', () => {
		expect(create(nodeStrategy, node({}, { capacity: { cpu: '2', memory: '4Gi', pods: '110' } })).obj.status).toEqual({ capacity: { cpu: '2', memory: '4Gi', pods: '110' }, allocatable: { cpu: '2', memory: '4Gi', pods: '110' } });
	});

	it.each([
		['an unknown taint effect', [{ key: 'dedicated', value: 'gpu', effect: 'NoRun' }], ['metadata.taints[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"']],
		['a taint without an effect', [{ key: 'dedicated' }], ['metadata.taints[0].effect: Required value']],
		[
			'a duplicate key and effect',
			[
				{ key: 'a', effect: 'NoSchedule' },
				{ key: 'a', value: 'x', effect: 'NoSchedule' },
			],
			['metadata.taints[1]: Duplicate value: core.Taint{Key:"a", Value:"x", Effect:"NoSchedule", TimeAdded:<nil>}: taints must be unique by key and effect pair'],
		],
	])('rejects %s', (_name, taints, expected) => {
		expect(create(nodeStrategy, node({ taints })).errors).toEqual(expected);
	});

	it('selects on spec.unschedulable', () => {
		expect(nodeStrategy.fields!(node({ unschedulable: true }))).toEqual({ 'spec.unschedulable': 'true' });
		expect(nodeStrategy.fields!(node({}))).toEqual({ 'spec.unschedulable': 'false' });
	});

	it('refuses to change an assigned podCIDR', () => {
		const old = node({ podCIDR: '10.244.1.0/24', podCIDRs: ['10.244.1.0/24'] });
		expect(nodeStrategy.validateUpdate!(node({ podCIDR: '10.244.2.0/24', podCIDRs: ['10.244.2.0/24'] }), old, ctx).map(formatFieldError)).toEqual(['spec.podCIDRs: Forbidden: node updates may not change podCIDR except from "" to valid']);
	});
});

describe('Event', () => {
	const event = (fields: Record<string, unknown>): KubeObject => ({ apiVersion: 'v1', kind: 'Event', metadata: { name: 'web.1', namespace: 'default' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'web' }, reason: 'Scheduled', ...fields });

	it('accepts a legacy event about an object in its namespace', () => {
		expect(create(eventStrategy, event({})).errors).toEqual([]);
	});

	it('rejects an involved object from another namespace', () => {
		expect(create(eventStrategy, event({ involvedObject: { kind: 'Pod', namespace: 'other', name: 'web' } })).errors).toEqual(['involvedObject.namespace: Invalid value: "other": does not match event.namespace']);
	});

	it('requires the series fields of a new-style event', () => {
		expect(create(eventStrategy, event({ eventTime: '2026-11-30T08:00:00.000000Z', reportingInstance: 'node-1', action: 'Binding' })).errors).toEqual([
			'reportingComponent: Required value',
			'reportingComponent: Invalid value: "": name part must be non-empty',
			"reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
		]);
	});

	it('exposes the event field selectors, source falling back to the reporting component', () => {
		expect(eventStrategy.fields!(event({ type: 'Normal', reportingComponent: 'default-scheduler' }))).toEqual({
			'involvedObject.kind': 'Pod',
			'involvedObject.namespace': 'default',
			'involvedObject.name': 'web',
			'involvedObject.uid': '',
			'involvedObject.apiVersion': '',
			'involvedObject.resourceVersion': '',
			'involvedObject.fieldPath': '',
			reason: 'Scheduled',
			reportingComponent: 'default-scheduler',
			source: 'default-scheduler',
			type: 'Normal',
		});
	});
});

describe('Endpoints and EndpointSlices', () => {
	it('defaults Endpoints port protocols and warns about the deprecation', () => {
		const { obj, errors } = create(endpointsStrategy, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: 'default' }, subsets: [{ addresses: [{ ip: '10.244.1.5' }], ports: [{ port: 80 }] }] });
		expect(errors).toEqual([]);
		expect(obj.subsets).toEqual([{ addresses: [{ ip: '10.244.1.5' }], ports: [{ port: 80, protocol: 'TCP' }] }]);
		expect(endpointsStrategy.warnings).toEqual(['v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice']);
	});

	it('rejects an Endpoints subset with no addresses', () => {
		expect(create(endpointsStrategy, { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'web', namespace: 'default' }, subsets: [{ ports: [{ port: 80 }] }] }).errors).toEqual(['subsets[0]: Required value: must specify `addresses` or `notReadyAddresses`']);
	});

	it('defaults slice ports to name "" and TCP, and checks the address type', () => {
		const slice: KubeObject = { apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abc', namespace: 'default' }, addressType: 'IPv4', endpoints: [{ addresses: ['10.244.1.5'] }], ports: [{ port: 80 }] };
		const { obj, errors } = create(endpointSliceStrategy, slice);
		expect(errors).toEqual([]);
		expect(obj.ports).toEqual([{ port: 80, name: '', protocol: 'TCP' }]);
		expect(create(endpointSliceStrategy, { ...slice, addressType: 'IPv5' }).errors).toEqual(['addressType: Unsupported value: "IPv5": supported values: "FQDN", "IPv4", "IPv6"']);
	});

	it('counts a slice generation from 1, bumped by endpoint or label changes but not by annotations', () => {
		const slice = (endpoints: string[], meta: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'discovery.k8s.io/v1', kind: 'EndpointSlice', metadata: { name: 'web-abc', namespace: 'default', ...meta }, addressType: 'IPv4', endpoints: endpoints.map((a) => ({ addresses: [a] })), ports: [{ port: 80, name: '', protocol: 'TCP' }] });
		const { obj: first } = create(endpointSliceStrategy, slice(['10.244.1.5']));
		expect(first.metadata.generation).toBe(1);
		const annotated = slice(['10.244.1.5'], { generation: 1, annotations: { note: 'x' } });
		endpointSliceStrategy.prepareForUpdate!(annotated, first, ctx);
		expect(annotated.metadata.generation).toBe(1);
		const moved = slice(['10.244.2.7'], { generation: 1 });
		endpointSliceStrategy.prepareForUpdate!(moved, annotated, ctx);
		expect(moved.metadata.generation).toBe(2);
		const relabelled = slice(['10.244.2.7'], { generation: 2, labels: { 'kubernetes.io/service-name': 'web' } });
		endpointSliceStrategy.prepareForUpdate!(relabelled, moved, ctx);
		expect(relabelled.metadata.generation).toBe(3);
	});
});

describe('Lease, ServiceAccount and PriorityClass', () => {
	it('rejects a zero lease duration', () => {
		expect(create(leaseStrategy, { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name: 'node-1', namespace: 'kube-node-lease' }, spec: { leaseDurationSeconds: 0 } }).errors).toEqual(['spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0']);
	});

	it('rejects a service account name with capitals', () => {
		expect(create(serviceAccountStrategy, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'Builder', namespace: 'default' } }).errors[0]).toMatch(/^metadata\.name: Invalid value: "Builder": a lowercase RFC 1123 subdomain/);
	});

	const pc = (name: string, value: number, extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', metadata: { name }, value, ...extra });
	it.each([
		['a user class above one billion', pc('high', 1_000_000_001), ['value: Forbidden: maximum allowed value of a user defined priority is 1000000000']],
		['an unknown system- class', pc('system-special', 10), ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-special is not a known system priority class"]],
		['a built-in class with the wrong value', pc('system-node-critical', 5), ["metadata.name: Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000"]],
		['a bad preemptionPolicy', pc('low', 10, { preemptionPolicy: 'Sometimes' }), ['preemptionPolicy: Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"']],
	])('rejects %s', (_name, o, expected) => {
		expect(create(priorityClassStrategy, o).errors).toEqual(expected);
	});

	it('accepts the built-in classes and defaults preemptionPolicy', () => {
		expect(create(priorityClassStrategy, pc('system-cluster-critical', 2_000_000_000)).errors).toEqual([]);
		const { obj } = create(priorityClassStrategy, pc('batch', 100));
		expect(obj.preemptionPolicy).toBe('PreemptLowerPriority');
	});

	it('refuses to change a class value', () => {
		expect(priorityClassStrategy.validateUpdate!(pc('batch', 200, { preemptionPolicy: 'PreemptLowerPriority' }), pc('batch', 100, { preemptionPolicy: 'PreemptLowerPriority' }), ctx).map(formatFieldError)).toEqual([
			'value: Forbidden: may not be changed in an update.',
		]);
	});
});

describe('defaultStrategies', () => {
	it('has a strategy for each resource the task lists', () => {
		const registry = defaultStrategies();
		const expected = [
			['', 'pods'], ['', 'nodes'], ['', 'namespaces'], ['', 'services'], ['', 'endpoints'], ['', 'configmaps'], ['', 'secrets'], ['', 'serviceaccounts'], ['', 'events'],
			['apps', 'deployments'], ['apps', 'replicasets'], ['apps', 'daemonsets'], ['apps', 'statefulsets'], ['apps', 'controllerrevisions'], ['batch', 'jobs'], ['batch', 'cronjobs'], ['autoscaling', 'horizontalpodautoscalers'], ['apiregistration.k8s.io', 'apiservices'], ['coordination.k8s.io', 'leases'],
			['discovery.k8s.io', 'endpointslices'], ['scheduling.k8s.io', 'priorityclasses'], ['certificates.k8s.io', 'certificatesigningrequests'],
			['policy', 'poddisruptionbudgets'],
			['rbac.authorization.k8s.io', 'roles'], ['rbac.authorization.k8s.io', 'rolebindings'], ['rbac.authorization.k8s.io', 'clusterroles'], ['rbac.authorization.k8s.io', 'clusterrolebindings'],
			['', 'componentstatuses'],
			...builtinKindStrategies().map(([g, r]) => [g, r]),
		];
		expect(Object.keys(registry).sort()).toEqual(expected.map(([g, r]) => strategyKey(g, r)).sort());
	});
});
