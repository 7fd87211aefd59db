import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { formatFieldError } from '../errors.ts';
import type { StrategyContext } from './strategy.ts';
import { podStrategy, podGracePeriodSeconds, podFields } from './pods.ts';
import { computePodQOS } from '../../component-helpers/qos.ts';
import { defaultImagePullPolicy } from './pod-defaults.ts';

const ctx: StrategyContext = { now: '2026-11-30T08:00:00Z', user: { username: 'kubernetes-admin', groups: [] }, get: () => undefined, list: () => [], random: () => 0 };

function pod(spec: Record<string, unknown>, meta: Record<string, unknown> = {}): KubeObject {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', ...meta }, spec };
}

/** Defaults, prepares and validates a create, as the API server does; returns the object and the error lines. */
function create(obj: KubeObject): { obj: KubeObject; errors: string[] } {
	podStrategy.defaults!(obj);
	podStrategy.prepareForCreate!(obj, ctx);
	return { obj, errors: podStrategy.validate!(obj, ctx).map(formatFieldError) };
}

const nginx = () => ({ containers: [{ name: 'nginx', image: 'nginx:1.27' }] });

describe('Pod defaults', () => {
	it('fills in every SetDefaults_PodSpec and SetDefaults_Pod field for a minimal pod', () => {
		const { obj, errors } = create(pod(nginx()));
		expect(errors).toEqual([]);
		expect(obj.spec).toEqual({
			containers: [{ name: 'nginx', image: 'nginx:1.27', imagePullPolicy: 'IfNotPresent', terminationMessagePath: '/dev/termination-log', terminationMessagePolicy: 'File', resources: {} }],
			dnsPolicy: 'ClusterFirst',
			restartPolicy: 'Always',
			securityContext: {},
			terminationGracePeriodSeconds: 30,
			schedulerName: 'default-scheduler',
			enableServiceLinks: true,
		});
		expect(obj.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
		expect(obj.metadata.generation).toBe(1);
	});

	it.each([
		['nginx', 'Always'],
		['nginx:latest', 'Always'],
		['nginx:1.27', 'IfNotPresent'],
		['registry.k8s.io:5000/pause', 'Always'],
		['registry.k8s.io:5000/pause:3.10', 'IfNotPresent'],
		['busybox@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
		['busybox:1.36@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'IfNotPresent'],
		['localhost:5000/team/app:latest', 'Always'],
		['Nginx', 'IfNotPresent'],
		['', 'IfNotPresent'],
	])('defaults imagePullPolicy of %s to %s', (image, policy) => {
		expect(defaultImagePullPolicy(image)).toBe(policy);
	});

	it('defaults ports to TCP and probes to 1s timeout, 10s period, thresholds 1 and 3, httpGet scheme HTTP and path /', () => {
		const { obj } = create(pod({ containers: [{ name: 'c', image: 'nginx:1', ports: [{ containerPort: 80 }], livenessProbe: { httpGet: { port: 80 } } }] }));
		const c = (obj.spec as { containers: Array<Record<string, unknown>> }).containers[0];
		expect(c.ports).toEqual([{ containerPort: 80, protocol: 'TCP' }]);
		expect(c.livenessProbe).toEqual({ httpGet: { port: 80, path: '/', scheme: 'HTTP' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
	});

	it('copies limits into missing requests and prints quantities canonically', () => {
		const { obj } = create(pod({ containers: [{ name: 'c', image: 'nginx:1', resources: { limits: { cpu: '0.5', memory: '128Mi' }, requests: { memory: '64Mi' } } }] }));
		const c = (obj.spec as { containers: Array<{ resources: unknown }> }).containers[0];
		expect(c.resources).toEqual({ limits: { cpu: '500m', memory: '128Mi' }, requests: { memory: '64Mi', cpu: '500m' } });
		expect((obj.status as { qosClass: string }).qosClass).toBe('Burstable');
	});

	it('defaults volume modes to 0644 (420) and a sourceless volume to emptyDir', () => {
		const { obj } = create(pod({ ...nginx(), volumes: [{ name: 'cfg', configMap: { name: 'app' } }, { name: 'scratch' }] }));
		expect((obj.spec as { volumes: unknown[] }).volumes).toEqual([
			{ name: 'cfg', configMap: { name: 'app', defaultMode: 420 } },
			{ name: 'scratch', emptyDir: {} },
		]);
	});
});

describe('Pod QoS class (ComputePodQOS)', () => {
	const c = (resources: Record<string, unknown>) => ({ name: 'c', image: 'x', resources });
	it.each([
		['no resources', [c({})], 'BestEffort'],
		['limits equal requests for cpu and memory', [c({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } })], 'Guaranteed'],
		['only a cpu request', [c({ requests: { cpu: '100m' } })], 'Burstable'],
		['cpu and memory limits but a smaller request', [c({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } })], 'Burstable'],
		['one guaranteed container and one best-effort container', [c({ limits: { cpu: '1', memory: '1Gi' }, requests: { cpu: '1', memory: '1Gi' } }), c({})], 'Burstable'],
		['only an extended resource', [c({ limits: { 'example.com/gpu': '1' }, requests: { 'example.com/gpu': '1' } })], 'BestEffort'],
		['zero requests count as none', [c({ requests: { cpu: '0' } })], 'BestEffort'],
	])('%s → %s', (_name, containers, qos) => {
		expect(computePodQOS({ containers })).toBe(qos);
	});
});

describe('Pod validation', () => {
	it.each([
		['a missing image', { containers: [{ name: 'app' }] }, ['spec.containers[0].image: Required value']],
		['no containers', { containers: [] }, ['spec.containers: Required value']],
		[
			'an upper-case container name',
			{ containers: [{ name: 'App', image: 'x:1' }] },
			["spec.containers[0].name: Invalid value: \"App\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"],
		],
		['duplicate container names', { containers: [{ name: 'a', image: 'x:1' }, { name: 'a', image: 'y:1' }] }, ['spec.containers[1].name: Duplicate value: "a"']],
		['an unsupported restartPolicy', { ...nginx(), restartPolicy: 'Sometimes' }, ['spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"']],
		['a port out of range', { containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 70000 }] }] }, ['spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive']],
		['a bad port protocol', { containers: [{ name: 'a', image: 'x:1', ports: [{ containerPort: 80, protocol: 'HTTP' }] }] }, ['spec.containers[0].ports[0].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"']],
		[
			'a request above its limit',
			{ containers: [{ name: 'a', image: 'x:1', resources: { requests: { cpu: '1' }, limits: { cpu: '500m' } } }] },
			['spec.containers[0].resources.requests: Invalid value: "1": must be less than or equal to cpu limit of 500m'],
		],
		['a negative quantity', { containers: [{ name: 'a', image: 'x:1', resources: { requests: { memory: '-1' } } }] }, ['spec.containers[0].resources.requests[memory]: Invalid value: "-1": must be greater than or equal to 0']],
		[
			'a probe with two handlers',
			{ containers: [{ name: 'a', image: 'x:1', readinessProbe: { exec: { command: ['true'] }, tcpSocket: { port: 80 } } }] },
			['spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type'],
		],
		['a probe with no handler', { containers: [{ name: 'a', image: 'x:1', livenessProbe: { periodSeconds: 5 } }] }, ['spec.containers[0].livenessProbe: Required value: must specify a handler type']],
		['a liveness probe with successThreshold 2', { containers: [{ name: 'a', image: 'x:1', livenessProbe: { exec: { command: ['true'] }, successThreshold: 2 } }] }, ['spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1']],
		["an env var name with '='", { containers: [{ name: 'a', image: 'x:1', env: [{ name: 'A=B', value: '1' }] }] }, ["spec.containers[0].env[0].name: Invalid value: \"A=B\": a valid environment variable name must consist only of printable ASCII characters other than '='"]],
		['a mount of a missing volume', { containers: [{ name: 'a', image: 'x:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] }] }, ['spec.containers[0].volumeMounts[0].name: Not found: "data"']],
		['duplicate volume names', { ...nginx(), volumes: [{ name: 'v', emptyDir: {} }, { name: 'v', emptyDir: {} }] }, ['spec.volumes[1].name: Duplicate value: "v"']],
		[
			'a toleration with tolerationSeconds but no NoExecute',
			{ ...nginx(), tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoSchedule', tolerationSeconds: 10 }] },
			["spec.tolerations[0].effect: Invalid value: \"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set"],
		],
		['a toleration with no key and operator Equal', { ...nginx(), tolerations: [{ operator: 'Equal', value: 'x' }] }, ['spec.tolerations[0].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"']],
		['an Exists toleration with a value', { ...nginx(), tolerations: [{ key: 'k', operator: 'Exists', value: 'v' }] }, ["spec.tolerations[0].operator: Invalid value: \"v\": value must be empty when `operator` is 'Exists'"]],
		['a toleration with an unknown effect', { ...nginx(), tolerations: [{ key: 'k', operator: 'Exists', effect: 'NoRun' }] }, ['spec.tolerations[0].effect: Unsupported value: "NoRun": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"']],
		[
			'minDomains with ScheduleAnyway',
			{ ...nginx(), topologySpreadConstraints: [{ maxSkew: 2, topologyKey: 'node', whenUnsatisfiable: 'ScheduleAnyway', minDomains: 10 }] },
			['spec.topologySpreadConstraints[0].minDomains: Invalid value: 10: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway'],
		],
		['minDomains 0', { ...nginx(), topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', minDomains: 0 }] }, ['spec.topologySpreadConstraints[0].minDomains: Invalid value: 0: must be greater than zero']],
		[
			'a nodeSelector value with a space',
			{ ...nginx(), nodeSelector: { disk: 'fast ssd' } },
			["spec.nodeSelector: Invalid value: \"fast ssd\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"],
		],
	])('rejects %s', (_name, spec, expected) => {
		expect(create(pod(spec as Record<string, unknown>)).errors).toEqual(expected);
	});

	it('rejects a name with capitals with the DNS-1123 subdomain message', () => {
		expect(create(pod(nginx(), { name: 'Web' })).errors).toEqual([
			"metadata.name: Invalid value: \"Web\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
		]);
	});

	it('rejects an annotation key with two slashes', () => {
		const errors = create(pod(nginx(), { annotations: { 'a/b/c': 'x' } })).errors;
		expect(errors[0]).toMatch(/^metadata\.annotations: Invalid value: "a\/b\/c": a valid label key must consist of/);
	});

	it('rejects annotations larger than 256 KiB in total', () => {
		expect(create(pod(nginx(), { annotations: { big: 'x'.repeat(262142) } })).errors).toEqual(['metadata.annotations: Too long: may not be more than 262144 bytes']);
	});
});

describe('Pod updates', () => {
	const stored = () => create(pod(nginx())).obj;

	it('allows changing the image and bumps the generation', () => {
		const old = stored();
		const next = JSON.parse(JSON.stringify(old)) as KubeObject;
		(next.spec as { containers: Array<{ image: string }> }).containers[0].image = 'nginx:1.28';
		podStrategy.prepareForUpdate!(next, old, ctx);
		expect(podStrategy.validateUpdate!(next, old, ctx)).toEqual([]);
		expect(next.metadata.generation).toBe(2);
	});

	it('keeps the generation on a label-only change', () => {
		const old = stored();
		const next = JSON.parse(JSON.stringify(old)) as KubeObject;
		next.metadata.labels = { tier: 'web' };
		podStrategy.prepareForUpdate!(next, old, ctx);
		expect(next.metadata.generation).toBe(1);
	});

	it('forbids changing other fields with the v1.36 message', () => {
		const old = stored();
		const next = JSON.parse(JSON.stringify(old)) as KubeObject;
		(next.spec as { restartPolicy: string }).restartPolicy = 'Never';
		const [error] = podStrategy.validateUpdate!(next, old, ctx).map(formatFieldError);
		expect(error.split('\n')[0]).toBe(
			'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)',
		);
	});

	it('forbids adding a container', () => {
		const old = stored();
		const next = JSON.parse(JSON.stringify(old)) as KubeObject;
		(next.spec as { containers: unknown[] }).containers.push({ name: 'b', image: 'b:1', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File', resources: {} });
		expect(podStrategy.validateUpdate!(next, old, ctx).map(formatFieldError)).toEqual(['spec.containers: Forbidden: pod updates may not add or remove containers']);
	});
});

describe('Pod graceful deletion (CheckGracefulDelete)', () => {
	const bound = (extra: Record<string, unknown> = {}, status: Record<string, unknown> = { phase: 'Running' }) => ({ ...pod({ nodeName: 'node-1', terminationGracePeriodSeconds: 30, ...extra }), status });
	it.each([
		['an unscheduled pod', pod({ terminationGracePeriodSeconds: 30 }), undefined, undefined],
		['a bound running pod with no request', bound(), undefined, 30],
		['a bound pod with a requested 5s', bound(), 5, 5],
		['a requested 0 (force)', bound(), 0, undefined],
		['a negative grace period', bound({ terminationGracePeriodSeconds: -3 }), undefined, 1],
		['a succeeded pod', bound({}, { phase: 'Succeeded' }), 20, undefined],
		['a failed pod', bound({}, { phase: 'Failed' }), undefined, undefined],
	])('%s', (_name, obj, requested, expected) => {
		expect(podGracePeriodSeconds(obj as KubeObject, requested)).toBe(expected);
	});
});

describe('Pod field selectors', () => {
	it('exposes upstream pod fields, podIP from podIPs and hostNetwork false by default', () => {
		const obj = { ...pod({ nodeName: 'node-1', restartPolicy: 'Always', schedulerName: 'default-scheduler', serviceAccountName: 'default' }), status: { phase: 'Running', podIPs: [{ ip: '10.244.1.5' }] } };
		expect(podFields(obj)).toEqual({
			'spec.nodeName': 'node-1',
			'spec.restartPolicy': 'Always',
			'spec.schedulerName': 'default-scheduler',
			'spec.serviceAccountName': 'default',
			'spec.hostNetwork': 'false',
			'status.phase': 'Running',
			'status.podIP': '10.244.1.5',
			'status.podIPs': '10.244.1.5',
			'status.nominatedNodeName': '',
		});
	});
});
