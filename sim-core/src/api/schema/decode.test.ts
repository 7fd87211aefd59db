import { describe, expect, it } from 'vitest';
import { decodeErrorMessage, goJson, strictDecode } from './decode.ts';
import type { GroupVersionKind } from './schema.ts';
import * as manifests from './testdata/manifests.ts';

type Json = Record<string, unknown>;

const DEPLOYMENT: GroupVersionKind = { group: 'apps', version: 'v1', kind: 'Deployment' };
const POD: GroupVersionKind = { group: '', version: 'v1', kind: 'Pod' };

/** The gvk a manifest names, as kubectl would send it. */
function gvkOf(manifest: Json): GroupVersionKind {
	const [group, version] = String(manifest.apiVersion).includes('/') ? String(manifest.apiVersion).split('/') : ['', String(manifest.apiVersion)];
	return { group, version, kind: String(manifest.kind) };
}

/** A fresh deep copy, to break on purpose. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function pod(container: Json, extra: Json = {}): Json {
	return { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx', ...container }], ...extra } };
}

describe('valid manifests decode cleanly', () => {
	const all: [string, Json][] = [
		['Deployment with probes, resources, env, volumes, affinity, tolerations, spread', manifests.deployment],
		['Service', manifests.service],
		['Job', manifests.job],
		['CronJob', manifests.cronJob],
		['Role', manifests.role],
		['RoleBinding', manifests.roleBinding],
		['ClusterRole', manifests.clusterRole],
		['StatefulSet with volumeClaimTemplates', manifests.statefulSet],
		['DaemonSet', manifests.daemonSet],
		['Pod as the server prints it', manifests.podFromServer],
		['Node with status', manifests.node],
		...manifests.others.map((m): [string, Json] => [`${m.apiVersion} ${m.kind}`, m]),
	];
	it.each(all)('%s', (_name, manifest) => {
		expect(strictDecode(manifest, gvkOf(manifest))).toEqual({ errors: [], warnings: [] });
	});

	it('accepts null anywhere, as Go decodes null into any field', () => {
		const m = copy(manifests.deployment) as { spec: Json; metadata: Json };
		m.spec.replicas = null;
		m.spec.template = null;
		m.metadata.labels = { app: null };
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual([]);
	});

	it('fills a missing apiVersion and kind from the endpoint, as the server does', () => {
		expect(strictDecode({ metadata: { name: 'x' }, spec: { containers: [] } }, POD).errors).toEqual([]);
	});
});

describe('unknown fields (strict decoding)', () => {
	it('reports each misspelt field with its full path, as kubectl shows it', () => {
		const m = copy(manifests.deployment) as { spec: Json & { template: { spec: { containers: Json[] } } } };
		const { replicas, ...rest } = m.spec;
		m.spec = { replica: replicas, ...rest }; // where the reader wrote it: first
		m.spec.template.spec.containers[0].imagee = 'nginx';
		const result = strictDecode(m, DEPLOYMENT);
		expect(result.errors).toEqual(['unknown field "spec.replica"', 'unknown field "spec.template.spec.containers[0].imagee"']);
		expect(result.message).toBe(
			'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: unknown field "spec.replica", unknown field "spec.template.spec.containers[0].imagee"',
		);
	});

	it('indexes nested arrays', () => {
		const m = copy(manifests.deployment) as Json;
		const spec = (m.spec as Json).template as { spec: Json };
		(spec.spec as Json).affinity = {
			nodeAffinity: {
				requiredDuringSchedulingIgnoredDuringExecution: {
					nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'Exists' }] }, { matchExpressions: [{ key: 'b', operator: 'Exists' }, { key: 'c', operator: 'In', valuess: ['x'] }] }],
				},
			},
		};
		(spec.spec as { volumes: Json[] }).volumes[5] = { name: 'p', projected: { sources: [{}, { configMap: { name: 'x', itemz: [] } }] } };
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual([
			'unknown field "spec.template.spec.volumes[5].projected.sources[1].configMap.itemz"',
			'unknown field "spec.template.spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[1].matchExpressions[1].valuess"',
		]);
	});

	it('lists them in document order', () => {
		const result = strictDecode({ kind: 'Pod', apiVersion: 'v1', zeta: 1, metadata: { name: 'p', labelz: {} }, alpha: 2 }, POD);
		expect(result.errors).toEqual(['unknown field "zeta"', 'unknown field "metadata.labelz"', 'unknown field "alpha"']);
	});

	it('matches keys case-sensitively', () => {
		expect(strictDecode(pod({ Image: 'nginx' }), POD).errors).toEqual(['unknown field "spec.containers[0].Image"']);
	});

	it('does not look inside an unknown field', () => {
		const m = { apiVersion: 'apps/v1', kind: 'Deployment', spec: { templat: { spec: { bogus: true } } } };
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual(['unknown field "spec.templat"']);
	});

	it('catches a field at the wrong level, a classic indentation mistake', () => {
		const m = pod({}, {});
		(m.spec as Json).containers = [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }];
		(m.spec as Json).ports = [{ containerPort: 80 }];
		expect(strictDecode(m, POD).errors).toEqual(['unknown field "spec.ports"']);
	});

	it('keeps at most 100, like upstream', () => {
		const metadata: Json = { name: 'x' };
		for (let i = 0; i < 150; i++) metadata[`f${i}`] = i;
		expect(strictDecode({ apiVersion: 'v1', kind: 'Pod', metadata }, POD).errors).toHaveLength(100);
	});

	it('turns them into warnings with fieldValidation=Warn, and drops them with Ignore', () => {
		const m = pod({ imagee: 'x' });
		expect(strictDecode(m, POD, { fieldValidation: 'Warn' })).toEqual({ errors: [], warnings: ['unknown field "spec.containers[0].imagee"'] });
		expect(strictDecode(m, POD, { fieldValidation: 'Ignore' })).toEqual({ errors: [], warnings: [] });
	});

	it('builds the sentence from parts', () => {
		expect(decodeErrorMessage({ group: '', version: 'v1', kind: 'Service' }, ['unknown field "spec.portz"'])).toBe(
			'Service in version "v1" cannot be handled as a Service: strict decoding error: unknown field "spec.portz"',
		);
	});
});

describe('JSON type errors', () => {
	const only = (body: Json, gvk: GroupVersionKind = POD): string[] => strictDecode(body, gvk).errors;

	it('a quoted number where an integer belongs', () => {
		const m = copy(manifests.deployment) as { spec: Json };
		m.spec.replicas = '3';
		const result = strictDecode(m, DEPLOYMENT);
		expect(result.errors).toEqual(['json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32']);
		expect(result.message).toBe(
			'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
		);
	});

	it('a YAML boolean (`yes`, `true`, `on`) as a label value', () => {
		const m = copy(manifests.deployment) as { metadata: { labels: Json }; spec: { template: { metadata: { labels: Json } } } };
		m.metadata.labels.canary = true;
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual(['json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.labels of type string']);
		const n = copy(manifests.deployment) as typeof m;
		n.spec.template.metadata.labels.version = 1.5;
		expect(strictDecode(n, DEPLOYMENT).errors).toEqual(['json: cannot unmarshal number into Go struct field ObjectMeta.spec.template.metadata.labels of type string']);
	});

	it('paths name struct fields only: no indices, no map keys', () => {
		const m = copy(manifests.deployment) as { spec: { template: { spec: { containers: { ports: Json[] }[] } } } };
		m.spec.template.spec.containers[0].ports[1].containerPort = '9113';
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual([
			'json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32',
		]);
	});

	it('numbers that do not fit an integer quote the literal', () => {
		const m = copy(manifests.deployment) as { spec: Json };
		m.spec.replicas = 1.5;
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual(['json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32']);
		m.spec.replicas = 3000000000;
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual(['json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32']);
		m.spec.replicas = 2 ** 31 - 1;
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual([]);
	});

	it('an env value that YAML read as a number', () => {
		expect(only(pod({ env: [{ name: 'PORT', value: 8080 }] }))).toEqual(['json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string']);
	});

	it('a string where a list belongs, and a scalar where an object belongs', () => {
		expect(only(pod({ command: 'sleep 3600' }))).toEqual(['json: cannot unmarshal string into Go struct field Container.spec.containers.command of type []string']);
		expect(only(pod({ ports: [80] }))).toEqual(['json: cannot unmarshal number into Go struct field Container.spec.containers.ports of type v1.ContainerPort']);
		expect(only({ apiVersion: 'v1', kind: 'Pod', spec: 'nginx' })).toEqual(['json: cannot unmarshal string into Go struct field Pod.spec of type v1.PodSpec']);
		expect(only({ apiVersion: 'v1', kind: 'Pod', spec: { containers: { name: 'c' } } })).toEqual([
			'json: cannot unmarshal object into Go struct field PodSpec.spec.containers of type []v1.Container',
		]);
		expect(only({ apiVersion: 'v1', kind: 'Pod', metadata: { labels: ['a=b'] } })).toEqual([
			'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
		]);
		expect(only(pod({ args: ['--port', 80] }))).toEqual(['json: cannot unmarshal number into Go struct field Container.spec.containers.args of type string']);
	});

	it('quotes Go type names: named string types, maps, types.UID', () => {
		expect(only(pod({ imagePullPolicy: true }))).toEqual(['json: cannot unmarshal bool into Go struct field Container.spec.containers.imagePullPolicy of type v1.PullPolicy']);
		expect(only(pod({ resources: { limits: '1Gi' } }))).toEqual([
			'json: cannot unmarshal string into Go struct field ResourceRequirements.spec.containers.resources.limits of type v1.ResourceList',
		]);
		expect(only({ apiVersion: 'v1', kind: 'Pod', metadata: { uid: 5 } })).toEqual(['json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID']);
		expect(only({ apiVersion: 'v1', kind: 'Pod', spec: { readinessGates: [{ conditionType: false }] } })).toEqual([
			'json: cannot unmarshal bool into Go struct field PodReadinessGate.spec.readinessGates.conditionType of type v1.PodConditionType',
		]);
		expect(only({ apiVersion: 'v1', kind: 'Pod', spec: { containers: [], hostNetwork: 'true' } })).toEqual([
			'json: cannot unmarshal string into Go struct field PodSpec.spec.hostNetwork of type bool',
		]);
		const secret = { apiVersion: 'v1', kind: 'Secret', data: { port: 5432 } };
		expect(only(secret, { group: '', version: 'v1', kind: 'Secret' })).toEqual(['json: cannot unmarshal number into Go struct field Secret.data of type []uint8']);
	});

	it('names the struct that holds the field: fields of an embedded struct belong to the outer one', () => {
		expect(only(pod({ livenessProbe: { httpGet: 'http://localhost/' } }))).toEqual([
			'json: cannot unmarshal string into Go struct field Probe.spec.containers.livenessProbe.httpGet of type v1.HTTPGetAction',
		]);
		expect(only({ apiVersion: 'v1', kind: 'Pod', spec: { ephemeralContainers: [{ name: 'd', stdin: 'yes' }] } })).toEqual([
			'json: cannot unmarshal string into Go struct field EphemeralContainer.spec.ephemeralContainers.stdin of type bool',
		]);
	});

	it('reports the first type error only, and it hides unknown fields', () => {
		const m = pod({ imagee: 'x', env: [{ name: 'A', value: 1 }] }, { hostPID: 'no' });
		expect(strictDecode(m, POD).errors).toEqual(['json: cannot unmarshal number into Go struct field EnvVar.spec.containers.env.value of type string']);
		expect(strictDecode(m, POD, { fieldValidation: 'Warn' })).toMatchObject({ warnings: [] });
	});
});

describe('values with their own decoders', () => {
	const only = (body: Json): string[] => strictDecode(body, POD).errors;
	const QUANTITY_REGEXP = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

	it('quantities: strings or numbers, parsed as upstream parses them', () => {
		expect(only(pod({ resources: { limits: { cpu: 1, memory: 1073741824 }, requests: { cpu: 0.5, memory: '1.5Gi' } } }))).toEqual([]);
		expect(only(pod({ resources: { limits: { memory: '128mb' } } }))).toEqual([QUANTITY_REGEXP]);
		expect(only(pod({ resources: { limits: { memory: '500mi' } } }))).toEqual(["unable to parse quantity's suffix"]);
		expect(only(pod({ resources: { limits: { memory: true } } }))).toEqual([QUANTITY_REGEXP]);
		expect(only(pod({ resources: { limits: { memory: { value: 1 } } } }))).toEqual([QUANTITY_REGEXP]);
		expect(only(pod({ resources: { limits: { memory: ' 1Gi ' } } }))).toEqual([]);
		// JSON escapes a tab, and upstream parses the escaped text.
		expect(only(pod({ resources: { limits: { memory: '\t1Gi' } } }))).toEqual([QUANTITY_REGEXP]);
		const result = strictDecode(pod({ resources: { limits: { memory: '128mb' } } }), POD);
		expect(result.message).toBe(`Pod in version "v1" cannot be handled as a Pod: ${QUANTITY_REGEXP}`);
	});

	it('a decoder error ends the decode and wins over an earlier type error', () => {
		const m = pod({ env: [{ name: 'A', value: 1 }], resources: { limits: { memory: '1 Gi' } }, imagee: 'x' });
		expect(strictDecode(m, POD).errors).toEqual([QUANTITY_REGEXP]);
	});

	it('int-or-string: either, but a number must be an int32', () => {
		const svc = (targetPort: unknown): Json => ({ apiVersion: 'v1', kind: 'Service', spec: { ports: [{ port: 80, targetPort }] } });
		const SERVICE = { group: '', version: 'v1', kind: 'Service' };
		expect(strictDecode(svc(8080), SERVICE).errors).toEqual([]);
		expect(strictDecode(svc('http'), SERVICE).errors).toEqual([]);
		expect(strictDecode(svc(true), SERVICE).errors).toEqual(['json: cannot unmarshal bool into Go struct field ServicePort.spec.ports.targetPort of type int32']);
		expect(strictDecode(svc(80.5), SERVICE).errors).toEqual(['json: cannot unmarshal number 80.5 into Go struct field ServicePort.spec.ports.targetPort of type int32']);
		expect(strictDecode(svc({ port: 80 }), SERVICE).errors).toEqual(['json: cannot unmarshal object into Go struct field ServicePort.spec.ports.targetPort of type int32']);
		const m = copy(manifests.deployment) as { spec: { strategy: { rollingUpdate: Json } } };
		m.spec.strategy.rollingUpdate.maxSurge = 0.25;
		expect(strictDecode(m, DEPLOYMENT).errors).toEqual([
			'json: cannot unmarshal number 0.25 into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32',
		]);
	});

	it('times: RFC 3339 strings, with Go time.Parse errors', () => {
		expect(only({ apiVersion: 'v1', kind: 'Pod', metadata: { creationTimestamp: '2026-03-01T12:00:00+01:00' } })).toEqual([]);
		expect(only({ apiVersion: 'v1', kind: 'Pod', metadata: { creationTimestamp: '2026-03-01' } })).toEqual([
			'parsing time "2026-03-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"',
		]);
		expect(only({ apiVersion: 'v1', kind: 'Pod', metadata: { creationTimestamp: 1767261600 } })).toEqual([
			'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string',
		]);
		const event = { apiVersion: 'events.k8s.io/v1', kind: 'Event', eventTime: '2026-01-01T10:00:00Z' };
		expect(strictDecode(event, { group: 'events.k8s.io', version: 'v1', kind: 'Event' }).errors).toEqual([
			'parsing time "2026-01-01T10:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
		]);
	});

	it('bytes: a Secret’s data must be base64', () => {
		const SECRET = { group: '', version: 'v1', kind: 'Secret' };
		const result = strictDecode({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db' }, data: { user: 'YWRtaW4=', password: 'admin' } }, SECRET);
		expect(result.errors).toEqual(['illegal base64 data at input byte 4']);
		expect(result.message).toBe('Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte 4');
		expect(strictDecode({ apiVersion: 'v1', kind: 'Secret', data: { a: 's3cr3t!' } }, SECRET).errors).toEqual(['illegal base64 data at input byte 6']);
		expect(strictDecode({ apiVersion: 'v1', kind: 'Secret', data: { a: [104, 105] } }, SECRET).errors).toEqual([]);
		expect(strictDecode({ apiVersion: 'v1', kind: 'Secret', data: { a: [104, 300] } }, SECRET).errors).toEqual([
			'json: cannot unmarshal number 300 into Go struct field Secret.data of type uint8',
		]);
	});

	it('free-form fields take anything', () => {
		const m = copy(manifests.podFromServer) as { metadata: { managedFields: Json[] } };
		m.metadata.managedFields[0].fieldsV1 = { 'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': {} } }, anything: [1, 'two', false] };
		expect(strictDecode(m, POD).errors).toEqual([]);
	});
});

describe('apiVersion and kind in the body', () => {
	it('rejects a non-string kind before decoding, as the serializer does', () => {
		const body = { apiVersion: 'apps/v1', kind: 5, metadata: { name: 'web' } };
		const result = strictDecode(body, DEPLOYMENT);
		expect(result.errors).toEqual(["couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string"]);
		expect(result.message).toBe(
			`the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"apiVersion":"apps/v1","kind" ...)`,
		);
	});

	it('rejects a malformed apiVersion and a body that is not an object', () => {
		expect(strictDecode({ apiVersion: 'apps/v1/beta', kind: 'Deployment' }, DEPLOYMENT).errors).toEqual(['unexpected GroupVersion string: apps/v1/beta']);
		expect(strictDecode([1], DEPLOYMENT).message).toBe(
			'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" } (5b315d)',
		);
	});

	it('answers an unknown kind with the REST-mapping error', () => {
		expect(strictDecode({}, { group: 'apps', version: 'v1', kind: 'Deploymnet' }).errors).toEqual(['no matches for kind "Deploymnet" in version "apps/v1"']);
	});
});

describe('goJson', () => {
	it('writes what Go json.Marshal writes for unstructured data', () => {
		expect(goJson({ spec: { b: 1, a: [true, null, 'x<y & z>w'] }, apiVersion: 'v1', gone: undefined })).toBe(
			'{"apiVersion":"v1","spec":{"a":[true,null,"x\\u003cy \\u0026 z\\u003ew"],"b":1}}',
		);
	});
});
