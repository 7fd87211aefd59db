/**
 * curl against a real simulated kube-apiserver (testing/api-harness.ts).
 * Expected outputs are written by hand from upstream: kube-apiserver's JSON
 * serializer (2-space MarshalIndent without a final newline for a curl
 * User-Agent), its Status objects for 401/403/404/415, the healthz handler
 * (k8s.io/apiserver/pkg/server/healthz/healthz.go), the RBAC bootstrap
 * roles for non-resource paths, the request-info parser
 * (apiserver endpoints/request/requestinfo.go), and curl 8.5's messages
 * (lib/connect.c, lib/vtls/openssl.c, src/tool_operate.c, src/tool_msgs.c).
 */
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../../api/request.ts';
import type { Authorizer } from '../../apiserver/auth/authorizer.ts';
import { MemoryFs } from '../../host/fs.ts';
import { ShellSession } from '../../shell/session.ts';
import type { Host } from '../../shell/types.ts';
import { createApiHarness, type ApiHarness } from '../../testing/api-harness.ts';
import { createCurl } from './curl.ts';
import { kubeadmApiServer } from './kubeadm.ts';
import { apiGroupList, apiResourceList } from './discovery.ts';
import { probe, probeChecks } from './health.ts';
import { goJsonSyntaxError } from '../../golang/json-syntax.ts';
import { parseApiPath } from './paths.ts';
import { encodeBody, wantsPretty } from './serialize.ts';
import type { CurlDeps } from './types.ts';

const ADMIN: UserInfo = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };
const SANS = ['control-plane', 'kubernetes', 'kubernetes.default', 'kubernetes.default.svc', 'kubernetes.default.svc.cluster.local', '10.96.0.1', '192.168.56.10'];
const ADMIN_CERT = 'Certificate:\n    Data:\n        Issuer: CN = kubernetes\n        Subject: O = kubeadm:cluster-admins, CN = kubernetes-admin\n-----BEGIN CERTIFICATE-----\n';

/** RBAC's outcome for the tests: everything for authenticated users, nothing for system:anonymous. */
const anonymousDenied: Authorizer = {
	name: 'RBAC',
	authorize: (a) => (a.user.username === 'system:anonymous' ? { allowed: false, reason: '' } : { allowed: true, reason: 'test' }),
};

interface Fixture {
	shell: ShellSession;
	harness: ApiHarness;
	state: { reach: 'ok' | 'refused' | 'timeout'; etcd: boolean; elapsed: number[] };
}

function fixture(): Fixture {
	const harness = createApiHarness({ deps: { authorizers: [anonymousDenied] } });
	harness.advance(100);
	harness.transport.enroll('admin', ADMIN);
	const admin = harness.client('admin');
	admin.create({ group: '', version: 'v1', resource: 'namespaces' }, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } });
	admin.create({ group: '', version: 'v1', resource: 'configmaps' }, 'default', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web', namespace: 'default' }, data: { color: 'blue' } });
	const cp: Host = { name: 'control-plane', kind: 'node', user: 'root', home: '/root', fs: new MemoryFs(), commands: new Map() };
	const worker: Host = { name: 'node-1', kind: 'node', user: 'root', home: '/root', fs: new MemoryFs(), commands: new Map() };
	const ws: Host = { name: 'workstation', kind: 'workstation', user: 'user', home: '/home/user', fs: new MemoryFs(), commands: new Map() };
	cp.fs.mkdir('/etc/kubernetes/pki/etcd', true);
	cp.fs.mkdir('/root', true);
	cp.fs.writeFile('/etc/kubernetes/pki/ca.crt', '-----BEGIN CERTIFICATE-----\n');
	cp.fs.writeFile('/etc/kubernetes/pki/etcd/ca.crt', '-----BEGIN CERTIFICATE-----\n');
	cp.fs.writeFile('/etc/kubernetes/pki/apiserver-etcd-client.crt', '-----BEGIN CERTIFICATE-----\n');
	cp.fs.writeFile('/etc/kubernetes/pki/apiserver-etcd-client.key', '-----BEGIN PRIVATE KEY-----\n');
	cp.fs.writeFile('/root/admin.crt', ADMIN_CERT);
	cp.fs.writeFile('/root/admin.key', '-----BEGIN PRIVATE KEY-----\n');
	const state: Fixture['state'] = { reach: 'ok', etcd: true, elapsed: [] };
	const deps: CurlDeps = {
		apiServer: { ip: '192.168.56.10', port: 6443, nodeName: 'control-plane', certSans: SANS, certIssuedAtMs: harness.kernel.wallMs() },
		reachable: () => state.reach,
		request: (user, request) => {
			if (!user) return harness.transport.request('curl-anonymous', request);
			harness.transport.enroll('curl', user);
			return harness.transport.request('curl', request);
		},
		etcdHealthy: () => state.etcd,
		identityForToken: (token) => (token === 'sa-token' ? { username: 'system:serviceaccount:default:reader', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] } : undefined),
		version: { gitVersion: 'v1.36.3', gitCommit: '0123456789abcdef0123456789abcdef01234567', buildDate: '2026-11-12T10:00:00Z', goVersion: 'go1.26.2', platform: 'linux/amd64' },
		metrics: () => [{ name: 'apiserver_request_total', help: '[STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', type: 'counter', samples: [{ labels: { verb: 'LIST', resource: 'pods', code: '200' }, value: 12 }] }],
		hostIp: (name) => ({ 'control-plane': '192.168.56.10', 'node-1': '192.168.56.11', workstation: '192.168.56.1' })[name],
		wallMs: () => harness.kernel.wallMs(),
		random: () => 0.5,
		elapse: (ms) => state.elapsed.push(ms),
	};
	const shell = new ShellSession([ws, cp, worker]);
	shell.register('curl', createCurl(deps));
	shell.exec('ssh control-plane');
	return { shell, harness, state };
}

const API = 'https://192.168.56.10:6443';

describe('the API server endpoint kubeadm sets up', () => {
	it('serves on 6443 with the node name, the kubernetes names, the service IP and the advertise address in its certificate', () => {
		expect(kubeadmApiServer('control-plane', '192.168.56.10', 0)).toEqual({ ip: '192.168.56.10', port: 6443, nodeName: 'control-plane', certSans: SANS, certIssuedAtMs: 0 });
	});
});

describe('request paths (requestinfo.go)', () => {
	it.each([
		['GET', '/api/v1/namespaces/default/pods', { verb: 'list', group: '', version: 'v1', resource: 'pods', namespace: 'default' }],
		['GET', '/api/v1/namespaces/default/pods/web', { verb: 'get', resource: 'pods', namespace: 'default', name: 'web' }],
		['GET', '/api/v1/namespaces/default/pods/web/log?container=app&tailLines=5', { verb: 'get', resource: 'pods', name: 'web', subresource: 'log', query: { container: 'app', tailLines: 5 } }],
		['GET', '/api/v1/namespaces', { verb: 'list', resource: 'namespaces' }],
		['GET', '/api/v1/namespaces/kube-system', { verb: 'get', resource: 'namespaces', name: 'kube-system' }],
		['PUT', '/api/v1/namespaces/kube-system/status', { verb: 'update', resource: 'namespaces', name: 'kube-system', subresource: 'status' }],
		['GET', '/api/v1/nodes/node-1', { verb: 'get', resource: 'nodes', name: 'node-1' }],
		['GET', '/apis/apps/v1/namespaces/default/deployments', { verb: 'list', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default' }],
		['POST', '/apis/apps/v1/namespaces/default/deployments', { verb: 'create', group: 'apps', resource: 'deployments' }],
		['PATCH', '/api/v1/namespaces/default/configmaps/web', { verb: 'patch', name: 'web' }],
		['DELETE', '/api/v1/namespaces/default/pods/web?gracePeriodSeconds=0', { verb: 'delete', name: 'web', deleteOptions: { gracePeriodSeconds: 0 } }],
		['DELETE', '/api/v1/namespaces/default/pods', { verb: 'deletecollection' }],
		['GET', '/api/v1/pods?watch=true', { verb: 'watch', resource: 'pods' }],
		['GET', '/api/v1/pods?watch=false', { verb: 'list', resource: 'pods' }],
		['GET', '/api/v1/pods?watch=0', { verb: 'list', resource: 'pods' }],
		['GET', '/api/v1/pods?labelSelector=app%3Dweb&fieldSelector=spec.nodeName%3Dnode-1&limit=5&resourceVersion=0', { verb: 'list', query: { labelSelector: 'app=web', fieldSelector: 'spec.nodeName=node-1', limit: 5, resourceVersion: '0' } }],
	] as Array<[string, string, Record<string, unknown>]>)('%s %s', (method, target, expected) => {
		const parsed = parseApiPath(method, target);
		expect(parsed.kind).toBe('resource');
		expect(parsed.kind === 'resource' && parsed.request).toMatchObject(expected);
		if (expected.resource === 'namespaces') expect(parsed.kind === 'resource' && parsed.request.namespace).toBeUndefined();
	});

	it.each(['/healthz', '/readyz', '/version', '/api', '/api/v1', '/apis', '/apis/apps', '/apis/apps/v1', '/metrics'])('%s is a non-resource path', (path) => {
		expect(parseApiPath('GET', path).kind).toBe('nonresource');
	});
});

describe('JSON serialization (negotiate.go isPrettyPrint, json.go doEncode)', () => {
	it.each([
		[undefined, 'curl/8.5.0', true],
		[undefined, 'Wget/1.21.4', true],
		[undefined, 'Mozilla/5.0 (X11; Linux x86_64)', true],
		[undefined, 'kubectl/v1.36.3 (linux/amd64) kubernetes/0123456', false],
		['false', 'curl/8.5.0', false],
		['true', 'kubectl/v1.36.3', true],
		['1', 'python-requests/2.31', true],
	])('pretty=%s with User-Agent %s → %s', (param, agent, pretty) => {
		expect(wantsPretty(param, agent)).toBe(pretty);
	});

	it('writes kind and apiVersion first, metadata in ObjectMeta order, and status last', () => {
		const obj = { apiVersion: 'v1', status: { phase: 'Running' }, kind: 'Pod', spec: { nodeName: 'node-1' }, metadata: { uid: 'u', namespace: 'default', name: 'web' } };
		expect(encodeBody(obj, false)).toBe('{"kind":"Pod","apiVersion":"v1","metadata":{"name":"web","namespace":"default","uid":"u"},"spec":{"nodeName":"node-1"},"status":{"phase":"Running"}}\n');
		expect(encodeBody({ kind: 'ConfigMap', apiVersion: 'v1', metadata: {}, data: { html: '<b>' } }, true)).toBe('{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n  "metadata": {},\n  "data": {\n    "html": "\\u003cb\\u003e"\n  }\n}');
	});
});

describe('health probes (healthz.go)', () => {
	const none = new Map<string, string[]>();
	it('answers ok without a newline, and lists every check with ?verbose', () => {
		expect(probe('healthz', undefined, none, true)).toEqual({ status: 200, body: 'ok' });
		const verbose = probe('readyz', undefined, new Map([['verbose', ['']]]), true)!;
		const lines = verbose.body.split('\n');
		// The checks test/e2e/apimachinery/health_handlers.go requires of /readyz.
		for (const check of ['ping', 'log', 'etcd', 'informer-sync', 'poststarthook/start-kube-apiserver-admission-initializer', 'poststarthook/rbac/bootstrap-roles', 'poststarthook/scheduling/bootstrap-system-priority-classes', 'poststarthook/apiservice-status-available-controller', 'autoregister-completion', 'poststarthook/apiservice-openapi-controller']) {
			expect(lines).toContain(`[+]${check} ok`);
		}
		expect(lines.slice(0, 3)).toEqual(['[+]ping ok', '[+]log ok', '[+]etcd ok']);
		expect(lines.slice(-2)).toEqual(['readyz check passed', '']);
		expect(probeChecks('livez')).not.toContain('informer-sync');
	});

	it('fails with 500 and withholds the reason when etcd is unreachable', () => {
		const reply = probe('readyz', undefined, none, false)!;
		expect(reply.status).toBe(500);
		expect(reply.body).toContain('[-]etcd failed: reason withheld\n[-]etcd-readiness failed: reason withheld\n[+]informer-sync ok\n');
		expect(reply.body.endsWith('readyz check failed\n')).toBe(true);
	});

	it('excludes checks on request and warns about unknown ones', () => {
		const reply = probe('livez', undefined, new Map([['exclude', ['etcd', 'nope']], ['verbose', ['']]]), false)!;
		expect(reply.status).toBe(200);
		expect(reply.body).toContain('[+]etcd excluded: ok\n');
		expect(reply.body).toContain('warn: some health checks cannot be excluded: no matches for "nope"\n');
	});
});

describe('discovery documents', () => {
	it('lists groups in the aggregator priority order', () => {
		const groups = (apiGroupList() as { groups: Array<{ name: string }> }).groups.map((g) => g.name);
		expect(groups.slice(0, 6)).toEqual(['apps', 'events.k8s.io', 'authentication.k8s.io', 'authorization.k8s.io', 'autoscaling', 'batch']);
		expect(groups.indexOf('policy')).toBeLessThan(groups.indexOf('rbac.authorization.k8s.io'));
		expect(groups.indexOf('scheduling.k8s.io')).toBeLessThan(groups.indexOf('coordination.k8s.io'));
		// The built-in groups end with discovery.k8s.io; aggregated ones (metrics.k8s.io, priority 100) come after them.
		expect(groups.indexOf('discovery.k8s.io')).toBeGreaterThan(groups.indexOf('batch'));
	});

	it('lists subresources after their resource, in their own group when it differs', () => {
		const list = apiResourceList('', 'v1') as { kind: string; apiVersion?: string; groupVersion: string; resources: Array<Record<string, unknown>> };
		expect(list.kind).toBe('APIResourceList');
		expect(list.apiVersion).toBeUndefined();
		const names = list.resources.map((r) => r.name);
		expect(names.indexOf('pods')).toBeLessThan(names.indexOf('pods/binding'));
		expect(list.resources.find((r) => r.name === 'pods/eviction')).toEqual({ name: 'pods/eviction', singularName: '', namespaced: true, group: 'policy', version: 'v1', kind: 'Eviction', verbs: ['create'] });
		expect(list.resources.find((r) => r.name === 'pods')).toMatchObject({ singularName: 'pod', namespaced: true, kind: 'Pod', shortNames: ['po'], categories: ['all'] });
		expect((apiResourceList('apps', 'v1') as { apiVersion: string }).apiVersion).toBe('v1');
	});
});

describe('Go JSON syntax errors (encoding/json scanner.go)', () => {
	it.each([
		['', 'unexpected end of JSON input'],
		['{"a":', 'unexpected end of JSON input'],
		['apiVersion: v1', "invalid character 'a' looking for beginning of value"],
		['nope', "invalid character 'o' in literal null (expecting 'u')"],
		['{a:1}', "invalid character 'a' looking for beginning of object key string"],
		['{"a" 1}', "invalid character '1' after object key"],
		['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
		['[1 2]', "invalid character '2' after array element"],
		['{} x', "invalid character 'x' after top-level value"],
		['-x', "invalid character 'x' in numeric literal"],
		['{"a":1}', undefined],
	])('%j', (text, message) => {
		expect(goJsonSyntaxError(text)).toBe(message);
	});
});

describe('curl -k against the API server', () => {
	it('gets /version, indented for curl, with no trailing newline', () => {
		const r = fixture().shell.exec(`curl -k ${API}/version`);
		expect(r.stdout).toBe(
			'{\n  "major": "1",\n  "minor": "36",\n  "emulationMajor": "1",\n  "emulationMinor": "36",\n  "minCompatibilityMajor": "1",\n  "minCompatibilityMinor": "35",\n' +
				'  "gitVersion": "v1.36.3",\n  "gitCommit": "0123456789abcdef0123456789abcdef01234567",\n  "gitTreeState": "clean",\n  "buildDate": "2026-11-12T10:00:00Z",\n' +
				'  "goVersion": "go1.26.2",\n  "compiler": "gc",\n  "platform": "linux/amd64"\n}',
		);
		expect(r.exitCode).toBe(0);
	});

	it('answers an anonymous list with 403 and the Status JSON', () => {
		const r = fixture().shell.exec(`curl -k ${API}/api/v1/namespaces/default/pods`);
		expect(r.stdout).toBe(
			'{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n' +
				'  "message": "pods is forbidden: User \\"system:anonymous\\" cannot list resource \\"pods\\" in API group \\"\\" in the namespace \\"default\\"",\n' +
				'  "reason": "Forbidden",\n  "details": {\n    "kind": "pods"\n  },\n  "code": 403\n}',
		);
		expect(r.exitCode).toBe(0);
	});

	it('lets anonymous users read /healthz, /readyz and /version (system:public-info-viewer) but not /api or /metrics', () => {
		const f = fixture();
		expect(f.shell.exec(`curl -k ${API}/healthz`).stdout).toBe('ok');
		expect(f.shell.exec(`curl -k ${API}/livez`).stdout).toBe('ok');
		expect(f.shell.exec(`curl -ks ${API}/readyz?verbose`).stdout.endsWith('readyz check passed\n')).toBe(true);
		for (const path of ['/api', '/metrics', '/readyz/etcd']) {
			expect(JSON.parse(f.shell.exec(`curl -ks ${API}${path}`).stdout)).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: `forbidden: User "system:anonymous" cannot get path "${path}"`, reason: 'Forbidden', details: {}, code: 403 });
		}
	});

	it('shows HTTP/2 response headers with -i: lower-case, sorted, then content-length and date, CRLF line ends', () => {
		const r = fixture().shell.exec(`curl -ski ${API}/api/v1/namespaces/default/pods`);
		const [head, body] = r.stdout.split('\r\n\r\n');
		const lines = head.split('\r\n');
		expect(lines[0]).toBe('HTTP/2 403 ');
		expect(lines[1]).toMatch(/^audit-id: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(lines.slice(2, 5)).toEqual(['cache-control: no-cache, private', 'content-type: application/json', 'x-content-type-options: nosniff']);
		expect(lines[5]).toMatch(/^x-kubernetes-pf-flowschema-uid: [0-9a-f-]{36}$/);
		expect(lines[6]).toMatch(/^x-kubernetes-pf-prioritylevel-uid: [0-9a-f-]{36}$/);
		expect(lines[7]).toBe(`content-length: ${body.length}`);
		expect(lines[8]).toBe('date: Mon, 30 Nov 2026 08:00:00 GMT');
		expect(lines).toHaveLength(9);
	});

	it('writes HTTP/1.1 headers in Go canonical form, Date before Content-Length', () => {
		const lines = fixture().shell.exec(`curl -ski --http1.1 ${API}/healthz`).stdout.split('\r\n');
		expect(lines[0]).toBe('HTTP/1.1 200 OK');
		expect(lines.slice(2, 5)).toEqual(['Cache-Control: no-cache, private', 'Content-Type: text/plain; charset=utf-8', 'X-Content-Type-Options: nosniff']);
		expect(lines.slice(7, 9)).toEqual(['Date: Mon, 30 Nov 2026 08:00:00 GMT', 'Content-Length: 2']);
	});

	it('reports etcd trouble on /readyz with 500', () => {
		const f = fixture();
		f.state.etcd = false;
		const r = f.shell.exec(`curl -ks -w '%{http_code}' ${API}/readyz`);
		expect(r.stdout).toContain('[-]etcd failed: reason withheld\n');
		expect(r.stdout.endsWith('readyz check failed\n500')).toBe(true);
	});

	it('streams a watch as one compact event per line, starting with ADDED for what exists', () => {
		const f = fixture();
		const r = f.shell.exec(`curl -ks --cert admin.crt --key admin.key '${API}/api/v1/namespaces/default/configmaps?watch=1'`);
		const events = r.stdout.trimEnd().split('\n').map((line) => JSON.parse(line));
		expect(events).toHaveLength(1);
		expect(events[0]).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'web' } } });
	});

	it('refuses exec over plain HTTP (it needs an upgraded connection)', () => {
		const r = fixture().shell.exec(`curl -ks -X POST --cert admin.crt --key admin.key '${API}/api/v1/namespaces/default/pods/web/exec?command=ls'`);
		expect(JSON.parse(r.stdout)).toMatchObject({ message: 'Upgrade request required', reason: 'BadRequest', code: 400 });
	});
});

describe('curl with credentials', () => {
	it('authenticates the admin by client certificate (CN user, O groups) and gets the ConfigMap', () => {
		const f = fixture();
		const r = f.shell.exec(`curl --cacert /etc/kubernetes/pki/ca.crt --cert admin.crt --key admin.key ${API}/api/v1/namespaces/default/configmaps/web`);
		const cm = JSON.parse(r.stdout);
		expect(cm).toMatchObject({ kind: 'ConfigMap', apiVersion: 'v1', metadata: { name: 'web', namespace: 'default' }, data: { color: 'blue' } });
		expect(Object.keys(cm)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
		expect(r.stdout.startsWith('{\n  "kind": "ConfigMap",\n  "apiVersion": "v1",\n  "metadata": {\n    "name": "web",\n    "namespace": "default",\n')).toBe(true);
		expect(JSON.parse(f.shell.exec(`curl -s --cacert /etc/kubernetes/pki/ca.crt --cert admin.crt --key admin.key ${API}/api`).stdout)).toEqual({ kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '192.168.56.10:6443' }] });
	});

	it('authenticates a bearer token, and answers an unknown one with 401', () => {
		const f = fixture();
		expect(JSON.parse(f.shell.exec(`curl -ks -H 'Authorization: Bearer sa-token' ${API}/api/v1/namespaces/default/configmaps`).stdout)).toMatchObject({ kind: 'ConfigMapList' });
		const r = f.shell.exec(`curl -k -H 'Authorization: Bearer wrong' ${API}/api/v1/namespaces/default/configmaps`);
		expect(r.stdout).toBe('{\n  "kind": "Status",\n  "apiVersion": "v1",\n  "metadata": {},\n  "status": "Failure",\n  "message": "Unauthorized",\n  "reason": "Unauthorized",\n  "code": 401\n}');
		// 401 comes from the authentication filter: before flow control, so no x-kubernetes-pf-* headers.
		expect(f.shell.exec(`curl -ksi -H 'Authorization: Bearer wrong' ${API}/healthz`).stdout).not.toContain('x-kubernetes-pf');
	});

	it('rejects a certificate from another CA (etcd’s) with 401, not as anonymous', () => {
		const r = fixture().shell.exec(`curl -ks --cert /etc/kubernetes/pki/apiserver-etcd-client.crt --key /etc/kubernetes/pki/apiserver-etcd-client.key ${API}/version`);
		expect(JSON.parse(r.stdout)).toMatchObject({ reason: 'Unauthorized', code: 401 });
	});

	it('creates from JSON only with a JSON Content-Type: curl -d sends form encoding (415)', () => {
		const f = fixture();
		f.shell.exec(`echo '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"extra"},"data":{"k":"v"}}' > cm.json`);
		const form = f.shell.exec(`curl -ks --cert admin.crt --key admin.key -d @cm.json ${API}/api/v1/namespaces/default/configmaps`);
		expect(JSON.parse(form.stdout)).toEqual({
			kind: 'Status',
			apiVersion: 'v1',
			metadata: {},
			status: 'Failure',
			message: 'the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf',
			reason: 'UnsupportedMediaType',
			code: 415,
		});
		const created = f.shell.exec(`curl -ks --cert admin.crt --key admin.key -H 'Content-Type: application/json' -d @cm.json -w '\\n%{http_code}\\n' ${API}/api/v1/namespaces/default/configmaps`);
		expect(created.stdout.trimEnd().split('\n').at(-1)).toBe('201');
		const bad = f.shell.exec(`curl -ks --cert admin.crt --key admin.key -H 'Content-Type: application/json' -d 'nope' ${API}/api/v1/namespaces/default/configmaps`);
		expect(JSON.parse(bad.stdout)).toMatchObject({ message: "couldn't get version/kind; json parse error: invalid character 'o' in literal null (expecting 'u')", reason: 'BadRequest', code: 400 });
		// The classic slip: YAML sent as JSON.
		const yaml = f.shell.exec(`curl -ks --cert admin.crt --key admin.key -H 'Content-Type: application/json' -d 'apiVersion: v1' ${API}/api/v1/namespaces/default/configmaps`);
		expect(JSON.parse(yaml.stdout).message).toBe("couldn't get version/kind; json parse error: invalid character 'a' looking for beginning of value");
	});

	it('serves /metrics to the admin in the Prometheus text format', () => {
		const r = fixture().shell.exec(`curl -ks --cert admin.crt --key admin.key ${API}/metrics`);
		expect(r.stdout).toBe(
			'# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.\n' +
				'# TYPE apiserver_request_total counter\n' +
				'apiserver_request_total{code="200",resource="pods",verb="LIST"} 12\n',
		);
	});
});

describe('curl failures', () => {
	it('cannot verify the serving certificate without -k or the cluster CA (60)', () => {
		const r = fixture().shell.exec(`curl ${API}/version`);
		expect(r).toMatchObject({
			stdout: '',
			stderr:
				'curl: (60) SSL certificate problem: unable to get local issuer certificate\n' +
				'More details here: https://curl.se/docs/sslcerts.html\n\n' +
				'curl failed to verify the legitimacy of the server and therefore could not\n' +
				'establish a secure connection to it. To learn more about this situation and\n' +
				'how to fix it, please visit the web page mentioned above.\n',
			exitCode: 60,
		});
	});

	it('rejects localhost with the cluster CA: it is not in kubeadm’s serving certificate (60)', () => {
		const r = fixture().shell.exec('curl --cacert /etc/kubernetes/pki/ca.crt https://localhost:6443/healthz');
		expect(r.stderr.split('\n')[0]).toBe("curl: (60) SSL: no alternative certificate subject name matches target host name 'localhost'");
		expect(r.exitCode).toBe(60);
	});

	it('cannot connect from a worker to its own localhost:6443 (7), nor when the API server is down', () => {
		const f = fixture();
		f.shell.exec('exit');
		f.shell.exec('ssh node-1');
		expect(f.shell.exec('curl -k https://localhost:6443/healthz')).toMatchObject({ stderr: "curl: (7) Failed to connect to localhost port 6443 after 0 ms: Couldn't connect to server\n", exitCode: 7 });
		f.state.reach = 'refused';
		expect(f.shell.exec(`curl -k ${API}/healthz`)).toMatchObject({ stderr: "curl: (7) Failed to connect to 192.168.56.10 port 6443 after 0 ms: Couldn't connect to server\n", exitCode: 7 });
	});

	it('times out when the host is cut off: the kernel gives up the SYN after about 127 s (28)', () => {
		const f = fixture();
		f.state.reach = 'timeout';
		// 127000 ms of SYN retries plus floor(0.5 × 1000) ms.
		expect(f.shell.exec(`curl -k ${API}/healthz`)).toMatchObject({ stderr: "curl: (28) Failed to connect to 192.168.56.10 port 6443 after 127500 ms: Couldn't connect to server\n", exitCode: 28 });
		expect(f.state.elapsed).toEqual([127500]);
		expect(f.shell.exec(`curl -k --connect-timeout 5 ${API}/healthz`)).toMatchObject({ stderr: 'curl: (28) Failed to connect to 192.168.56.10 port 6443 after 5000 ms: Timeout was reached\n', exitCode: 28 });
	});

	it.each([
		['curl -k https://kubernetes.default.svc/api', 'curl: (6) Could not resolve host: kubernetes.default.svc\n', 6],
		['curl --frobnicate', "curl: option --frobnicate: is unknown\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2],
		['curl -X', "curl: option -X: requires parameter\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2],
		['curl', "curl: (2) no URL specified\ncurl: try 'curl --help' or 'curl --manual' for more information\n", 2],
		['curl --cacert /nope.crt https://192.168.56.10:6443/', 'curl: (77) error setting certificate file: /nope.crt\n', 77],
	])('%s', (line, stderr, code) => {
		expect(fixture().shell.exec(line)).toMatchObject({ stdout: '', stderr, exitCode: code });
	});

	it('fails with 22 and no body for -f on an error status; -s hides the message, -S shows it again', () => {
		const f = fixture();
		expect(f.shell.exec(`curl -kf ${API}/api/v1/namespaces/default/pods`)).toMatchObject({ stdout: '', stderr: 'curl: (22) The requested URL returned error: 403\n', exitCode: 22 });
		expect(f.shell.exec(`curl -kfs ${API}/api/v1/namespaces/default/pods`)).toMatchObject({ stdout: '', stderr: '', exitCode: 22 });
		expect(f.shell.exec(`curl -kfsS ${API}/api/v1/namespaces/default/pods`).stderr).toBe('curl: (22) The requested URL returned error: 403\n');
	});

	it('answers plain http:// on 6443 with Go’s TLS-server message', () => {
		expect(fixture().shell.exec('curl http://192.168.56.10:6443/api')).toMatchObject({ stdout: 'Client sent an HTTP request to an HTTPS server.\n', exitCode: 0 });
	});
});

describe('curl output plumbing', () => {
	it('writes the body to -o and shows the progress meter on stderr', () => {
		const f = fixture();
		const r = f.shell.exec(`curl -k -o health.txt ${API}/healthz`);
		expect(f.shell.exec('cat health.txt').stdout).toBe('ok');
		// 2 bytes in 2 + floor(0.5 × 12) = 8 ms: 250 B/s average and current speed.
		expect(r.stderr).toBe(
			'  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n' +
				'                                 Dload  Upload   Total   Spent    Left  Speed\n' +
				'\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0' +
				'\r100     2  100     2    0     0    250      0 --:--:-- --:--:-- --:--:--   250\n',
		);
	});

	it('discards the body for -o /dev/null and prints -w after it', () => {
		expect(fixture().shell.exec(`curl -ks -o /dev/null -w '%{http_code}\\n' ${API}/api/v1/namespaces/default/pods`).stdout).toBe('403\n');
	});

	it('still prints -w when the connection fails: http_code 000', () => {
		const f = fixture();
		f.state.reach = 'refused';
		expect(f.shell.exec(`curl -ks -o /dev/null -w '%{http_code}\\n' ${API}/healthz`)).toMatchObject({ stdout: '000\n', stderr: '', exitCode: 7 });
	});

	it('starts -v with curl’s connection lines and ends with the request and response headers', () => {
		const r = fixture().shell.exec(`curl -kv ${API}/healthz`);
		const lines = r.stderr.split('\n');
		expect(lines.slice(0, 4)).toEqual(['*   Trying 192.168.56.10:6443...', '* Connected to 192.168.56.10 (192.168.56.10) port 6443', '* ALPN: curl offers h2,http/1.1', '* TLSv1.3 (OUT), TLS handshake, Client hello (1):']);
		expect(lines).toContain('*  SSL certificate verify result: unable to get local issuer certificate (20), continuing anyway.');
		// kubeadm backdates NotBefore by 5 minutes and gives leaf certificates one year.
		expect(lines).toContain('*  start date: Nov 30 07:55:00 2026 GMT');
		expect(lines).toContain('*  expire date: Nov 30 08:00:00 2027 GMT');
		expect(lines).toContain('> GET /healthz HTTP/2\r');
		expect(lines).toContain('> User-Agent: curl/8.5.0\r');
		expect(lines).toContain('< HTTP/2 200 \r');
		expect(lines.at(-2)).toBe('* Connection #0 to host 192.168.56.10 left intact');
		expect(r.stdout).toBe('ok');
	});
});
