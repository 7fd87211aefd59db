/**
 * PodRequests and PodLimits, with the cases of upstream's own tables
 * (component-helpers/resource/helpers_test.go: TestPodRequestsAndLimits,
 * TestPodRequestsAndLimitsWithoutOverhead, TestPodResourceRequests) and
 * the sidecar and pod-level rules of KEP-753 and KEP-2837.
 */
import { describe, expect, it } from 'vitest';
import type { Container, PodSpec } from '../api/types.ts';
import { podLimits, podRequests, toResourceList, type ResourceList } from './resource.ts';

const c = (requests?: Record<string, string>, limits?: Record<string, string>, extra: Partial<Container> = {}): Container => ({ name: 'c', image: 'x', resources: { requests, limits }, ...extra });
const sidecar = (requests: Record<string, string>): Container => c(requests, undefined, { restartPolicy: 'Always' });
/** A list as plain canonical strings, to compare with what upstream's table expects. */
const text = (list: ResourceList) => Object.fromEntries([...list].map(([k, q]) => [k, q.toString()]).sort());

describe('PodRequests and PodLimits (TestPodRequestsAndLimits)', () => {
	const pod = (r: { cpuRequest?: string; cpuLimit?: string; memoryRequest?: string; memoryLimit?: string; cpuOverhead?: string; memoryOverhead?: string }): PodSpec => {
		const requests: Record<string, string> = {};
		const limits: Record<string, string> = {};
		if (r.cpuRequest) requests.cpu = r.cpuRequest;
		if (r.memoryRequest) requests.memory = r.memoryRequest;
		if (r.cpuLimit) limits.cpu = r.cpuLimit;
		if (r.memoryLimit) limits.memory = r.memoryLimit;
		const overhead: Record<string, string> = {};
		if (r.cpuOverhead) overhead.cpu = r.cpuOverhead;
		if (r.memoryOverhead) overhead.memory = r.memoryOverhead;
		return { containers: [c(requests, limits)], ...(Object.keys(overhead).length ? { overhead } : {}) };
	};
	it.each([
		['just-limit-no-overhead', pod({ cpuLimit: '9' }), {}, { cpu: '9' }],
		['just-overhead', pod({ cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '5', memory: '5' }, {}],
		['req-and-overhead', pod({ cpuRequest: '1', memoryRequest: '10', cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '6', memory: '15' }, {}],
		['all-req-lim-and-overhead', pod({ cpuRequest: '1', cpuLimit: '2', memoryRequest: '10', memoryLimit: '12', cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '6', memory: '15' }, { cpu: '7', memory: '17' }],
		['req-some-lim-and-overhead', pod({ cpuRequest: '1', cpuLimit: '2', memoryRequest: '10', cpuOverhead: '5', memoryOverhead: '5' }), { cpu: '6', memory: '15' }, { cpu: '7' }],
	])('%s', (_name, spec, requests, limits) => {
		expect(text(podRequests(spec))).toEqual(requests);
		expect(text(podLimits(spec))).toEqual(limits);
	});
});

describe('without overhead (TestPodRequestsAndLimitsWithoutOverhead)', () => {
	const two = [c({ cpu: '1', memory: '5' }, { cpu: '2', memory: '10' }), c({ cpu: '4', memory: '12' }, { cpu: '8', memory: '24' })];
	const overhead = { cpu: '3', memory: '8' };
	it.each([
		['two containers, no overhead: the sum of the containers', { containers: two }, { cpu: '5', memory: '17' }, { cpu: '10', memory: '34' }],
		["two containers with overhead: the overhead is left out", { containers: two, overhead }, { cpu: '5', memory: '17' }, { cpu: '10', memory: '34' }],
		['two containers and a massive init container: the largest init wins', { containers: two, overhead, initContainers: [c({ cpu: '1', memory: '5' }, { cpu: '1', memory: '5' }), c({ cpu: '40', memory: '120' }, { cpu: '80', memory: '240' })] }, { cpu: '40', memory: '120' }, { cpu: '80', memory: '240' }],
	])('%s', (_name, spec, requests, limits) => {
		expect(text(podRequests(spec as PodSpec, { excludeOverhead: true }))).toEqual(requests);
		expect(text(podLimits(spec as PodSpec, { excludeOverhead: true }))).toEqual(limits);
	});
});

describe('PodRequests options (TestPodResourceRequests)', () => {
	it.each([
		['a larger init container', { initContainers: [c({ cpu: '4' })], containers: [c({ cpu: '1' })] }, {}, { cpu: '4' }],
		['larger containers', { initContainers: [c({ cpu: '2' })], containers: [c({ cpu: '2' }), c({ cpu: '3' })] }, {}, { cpu: '5' }],
		['pod overhead excluded', { overhead: { cpu: '1' }, initContainers: [c({ cpu: '2' })], containers: [c({ cpu: '2' }), c({ cpu: '3' })] }, { excludeOverhead: true }, { cpu: '5' }],
		['pod overhead included', { overhead: { cpu: '1', memory: '1Gi' }, initContainers: [c({ cpu: '2' }, { cpu: '2' })], containers: [c({ cpu: '2' }), c({ cpu: '3' })] }, {}, { cpu: '6', memory: '1Gi' }],
	])('%s', (_name, spec, options, requests) => {
		expect(text(podRequests(spec as PodSpec, options))).toEqual(requests);
	});

	it('fills missing requests with NonMissingContainerRequests, and keeps an explicit 0', () => {
		const defaults = toResourceList({ cpu: '100m', memory: '200Mi' });
		const spec: PodSpec = { containers: [c(), c({ cpu: '0' })] };
		expect(text(podRequests(spec, { nonMissingContainerRequests: defaults }))).toEqual({ cpu: '100m', memory: '400Mi' });
	});
});

describe('sidecars: restartable init containers (KEP-753)', () => {
	it('adds a sidecar to the app containers, since it keeps running beside them', () => {
		expect(text(podRequests({ initContainers: [sidecar({ cpu: '1' })], containers: [c({ cpu: '500m' })] }))).toEqual({ cpu: '1500m' });
	});

	it('counts the sidecars started before an init container into that init container\'s peak', () => {
		// Peak while `migrate` runs: 1 (sidecar) + 2 = 3, above the steady 1 + 1 = 2.
		const spec: PodSpec = { initContainers: [sidecar({ cpu: '1' }), c({ cpu: '2' }, undefined, { name: 'migrate' })], containers: [c({ cpu: '1' })] };
		expect(text(podRequests(spec))).toEqual({ cpu: '3' });
	});

	it('does not count a sidecar started after an init container into that one\'s peak', () => {
		// `setup` runs alone (2), then the sidecar starts: steady state 1 + 1 = 2; the peak is 2.
		const spec: PodSpec = { initContainers: [c({ cpu: '2' }, undefined, { name: 'setup' }), sidecar({ cpu: '1' })], containers: [c({ cpu: '1' })] };
		expect(text(podRequests(spec))).toEqual({ cpu: '2' });
	});

	it('sums sidecar limits with the app containers as well', () => {
		expect(text(podLimits({ initContainers: [sidecar({ cpu: '1' })].map((s) => ({ ...s, resources: { limits: { memory: '64Mi' } } })), containers: [c(undefined, { memory: '128Mi' })] }))).toEqual({ memory: '192Mi' });
	});
});

describe('pod-level resources (KEP-2837)', () => {
	it('replaces the aggregate for cpu and memory and keeps the containers\' other resources', () => {
		const spec: PodSpec = { resources: { requests: { cpu: '4', memory: '1Gi' } }, containers: [c({ cpu: '1', 'ephemeral-storage': '1Gi' })] };
		expect(text(podRequests(spec))).toEqual({ cpu: '4', 'ephemeral-storage': '1Gi', memory: '1Gi' });
	});

	it('is ignored with SkipPodLevelResources', () => {
		expect(text(podRequests({ resources: { requests: { cpu: '4' } }, containers: [c({ cpu: '1' })] }, { skipPodLevelResources: true }))).toEqual({ cpu: '1' });
	});

	it('adds the overhead on top of pod-level requests', () => {
		expect(text(podRequests({ resources: { requests: { cpu: '2' } }, overhead: { cpu: '250m' }, containers: [c()] }))).toEqual({ cpu: '2250m' });
	});
});
