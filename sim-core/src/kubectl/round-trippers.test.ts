import { describe, it, expect } from 'vitest';
import { world } from './cmd/testdata/env.ts';
import { CLIENT_GO_FEATURE_GATES, goQueryEscape, requestUrlOf } from './round-trippers.ts';
import type { ApiRequest } from '../api/request.ts';

const SERVER = 'https://192.168.56.10:6443';
/** The harness starts at 2026-11-30T08:00:00Z; kubectl's pid is set to the chapter's 4211. */
const HEADER = 'I1130 08:00:00.000000    4211';
const LOADER = `${HEADER} loader.go:407] Config loaded from file:  /home/reader/.kube/config\n`;
/** client-go v0.36.3 features/known_features.go, logged at V(1) by features/envvar.go:195. */
const GATES = [
	['AtomicFIFO', true],
	['ClientsAllowCARotation', true],
	['ClientsAllowCBOR', false],
	['ClientsAllowTLSCacheGC', true],
	['ClientsPreferCBOR', false],
	['InOrderInformers', true],
	['InOrderInformersBatchProcess', true],
	['InformerResourceVersion', true],
	['UnlockWhileProcessingFIFO', true],
	['WatchListClient', true],
]
	.map(([f, e]) => `${HEADER} envvar.go:195] "Feature gate default state" feature="${f}" enabled=${e}\n`)
	.join('');
const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';
const USER_AGENT = 'kubectl/v1.36.3 (linux/amd64) kubernetes/73fdc7a';

function setup() {
	const w = world();
	w.env.pid = 4211;
	w.env.kubeconfigPath = '/home/reader/.kube/config';
	w.create({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } }, spec: { replicas: 2, selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } } });
	return w;
}

describe('kubectl -v request logging', () => {
	it('knows the ten client-go v0.36.3 feature gates', () => {
		expect(CLIENT_GO_FEATURE_GATES.map(([f]) => f)).toHaveLength(10);
	});

	it('prints nothing without -v, and leaves stdout alone with it', () => {
		const w = setup();
		const plain = w.kubectl('get deployments');
		expect(plain.stderr).toBe('');
		expect(w.kubectl('get deployments -v=6').stdout).toBe(plain.stdout);
	});

	it.each([1, 5])('at -v=%d prints only the feature gates client-go logs at V(1)', (level) => {
		const w = setup();
		expect(w.kubectl(`get deployments -v=${level}`).stderr).toBe(GATES);
	});

	it('at -v=6 prints the loader line and one Response line with the real URL, ?limit=500 included', () => {
		const w = setup();
		expect(w.kubectl('get pods -v=6').stderr).toBe(
			`${LOADER}${GATES}${HEADER} round_trippers.go:632] "Response" verb="GET" url="${SERVER}/api/v1/namespaces/default/pods?limit=500" status="200 OK" milliseconds=0\nNo resources found in default namespace.\n`,
		);
	});

	it.each([
		['get pods -l app=web --field-selector=status.phase=Running', '/api/v1/namespaces/default/pods?fieldSelector=status.phase%3DRunning&labelSelector=app%3Dweb&limit=500'],
		['get pods --chunk-size=0', '/api/v1/namespaces/default/pods'],
		['get nodes', '/api/v1/nodes?limit=500'],
		['get deployment web', '/apis/apps/v1/namespaces/default/deployments/web'],
		['get pods -A', '/api/v1/pods?limit=500'],
	])('logs `kubectl %s` as GET %s', (line, path) => {
		const w = setup();
		const stderr = w.kubectl(`${line} -v=6`).stderr;
		expect(stderr.split('\n').filter((l) => l.includes('"Response"'))).toEqual([`${HEADER} round_trippers.go:632] "Response" verb="GET" url="${SERVER}${path}" status="200 OK" milliseconds=0`]);
	});

	it('at -v=7 adds the request headers and shortens the response line', () => {
		const w = setup();
		const lines = w.kubectl('get deployment web -v=7').stderr.slice(LOADER.length + GATES.length);
		expect(lines).toBe(
			`${HEADER} round_trippers.go:527] "Request" verb="GET" url="${SERVER}/apis/apps/v1/namespaces/default/deployments/web" headers=<\n` +
				`\tAccept: ${TABLE_ACCEPT}\n` +
				`\tUser-Agent: ${USER_AGENT}\n` +
				' >\n' +
				`${HEADER} round_trippers.go:632] "Response" status="200 OK" milliseconds=0\n`,
		);
	});

	it('asks for plain JSON when the output is not a table', () => {
		const w = setup();
		expect(w.kubectl('get deployment web -o yaml -v=7').stderr).toContain('\tAccept: application/json\n');
	});

	it('logs impersonation headers and masks a bearer token', () => {
		const w = setup();
		w.env.bearerToken = true;
		const stderr = w.kubectl('get deployment web -v=7 --as=jane --as-group=devs --as-group=ops').stderr;
		expect(stderr).toContain(`headers=<\n\tAccept: ${TABLE_ACCEPT}\n\tAuthorization: Bearer <masked>\n\tImpersonate-Group: devs\n\tImpersonate-Group: ops\n\tImpersonate-User: jane\n\tUser-Agent: ${USER_AGENT}\n >\n`);
	});

	it('at -v=8 logs the bodies around the round trip, and the response headers', () => {
		const w = setup();
		const lines = w.kubectl('get deployment web -v=8').stderr.slice(LOADER.length + GATES.length).split('\n');
		// rest.Request.Do logs the (empty) request body before sending; helper.go:105 calls Do for a get.
		expect(lines[0]).toBe(`${HEADER} helper.go:105] "Request Body" body=""`);
		expect(lines.slice(1, 5)).toEqual([`${HEADER} round_trippers.go:527] "Request" verb="GET" url="${SERVER}/apis/apps/v1/namespaces/default/deployments/web" headers=<`, `\tAccept: ${TABLE_ACCEPT}`, `\tUser-Agent: ${USER_AGENT}`, ' >']);
		expect(lines[5]).toBe(`${HEADER} round_trippers.go:632] "Response" status="200 OK" headers=<`);
		expect(lines[6]).toMatch(/^\tAudit-Id: [0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
		expect(lines.slice(7, 10)).toEqual(['\tCache-Control: no-cache, private', expect.stringMatching(/^\tContent-Length: \d+$/), '\tContent-Type: application/json']);
		expect(lines.slice(10, 12)).toEqual(['\tDate: Mon, 30 Nov 2026 08:00:00 GMT', ' > milliseconds=0']);
		// A Deployment with its managedFields is over 1024 characters, as on a real cluster: quoted and cut.
		expect(lines[12]).toMatch(/^.* helper\.go:105\] "Response Body" body="\{\\"kind\\":\\"Deployment\\",.*\[truncated \d+ chars\]"$/);
		// A body that fits 1024 characters, with the encoder's trailing newline: a block.
		w.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'small', namespace: 'default' } });
		const small = w.kubectl('get configmap small -v=8').stderr.split('\n');
		const at = small.findIndex((l) => l.endsWith('"Response Body" body=<'));
		expect(small[at + 1]).toMatch(/^\t\{"kind":"ConfigMap","apiVersion":"v1",/);
		expect(small[at + 2]).toBe(' >');
	});

	it('at -v=8 cuts a body after 1024 characters, as truncateBody does', () => {
		const w = setup();
		for (let i = 0; i < 6; i++) w.create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `config-${i}`, namespace: 'default' }, data: { key: 'x'.repeat(100) } });
		const body = w.kubectl('get configmaps -v=8').stderr.split('\n').find((l) => l.includes('"Response Body"'))!;
		const quoted = /body="(.*) \[truncated (\d+) chars\]"$/.exec(body)!;
		expect(JSON.parse(`"${quoted[1]}"`)).toHaveLength(1024);
		expect(Number(quoted[2])).toBeGreaterThan(0);
	});

	it('at -v=9 prints the request as a curl command, the dial, and connection timing', () => {
		const w = setup();
		const stderr = w.kubectl('scale deployment web --replicas=3 -v=9').stderr;
		expect(stderr).toContain(`${HEADER} round_trippers.go:527] "Request" curlCommand=<\n\tcurl -v -XGET  -H "Accept: application/json" -H "User-Agent: ${USER_AGENT}" '${SERVER}/apis/apps/v1/namespaces/default/deployments/web'\n >\n`);
		expect(stderr.match(/"HTTP Trace: Dial succeed" network="tcp" address="192.168.56.10:6443"/g)).toHaveLength(1);
		const responses = stderr.split('\n').filter((l) => l.startsWith(' > milliseconds='));
		expect(responses).toEqual([' > milliseconds=0 dnsLookupMilliseconds=0 dialMilliseconds=0 tlsHandshakeMilliseconds=0', ' > milliseconds=0 getConnectionMilliseconds=0']);
		expect(stderr).toContain(`-XPATCH  -H "Accept: application/json" -H "Content-Type: application/merge-patch+json"`);
	});

	it('logs a request that found no server with an empty status', () => {
		const w = setup();
		w.harness.kernel.stop('kube-apiserver');
		const result = w.kubectl('get pods -v=6');
		expect(result.stderr).toContain(`${HEADER} round_trippers.go:632] "Response" verb="GET" url="${SERVER}/api/v1/namespaces/default/pods?limit=500" status="" milliseconds=0\n`);
		expect(result.stderr.endsWith('The connection to the server 192.168.56.10:6443 was refused - did you specify the right host or port?\n')).toBe(true);
	});

	it('logs the watch of get -w after its first list', () => {
		const w = setup();
		const stderr = w.kubectl('get pods -w --request-timeout=1s -v=6').stderr;
		const urls = stderr.split('\n').filter((l) => l.includes('"Response"')).map((l) => /url="([^"]+)"/.exec(l)![1]);
		expect(urls).toEqual([`${SERVER}/api/v1/namespaces/default/pods?limit=500`, expect.stringMatching(new RegExp(`^${SERVER.replace(/\./g, '\\.')}/api/v1/namespaces/default/pods\\?resourceVersion=\\d+&watch=true$`))]);
	});
});

describe('the URL client-go builds', () => {
	it.each([
		['app=web', 'app%3Dweb'],
		['a b,c', 'a+b%2Cc'],
		['~_.-', '~_.-'],
		['!*()/', '%21%2A%28%29%2F'],
		['é', '%C3%A9'],
	])('url.QueryEscape(%j) is %j', (text, escaped) => {
		expect(goQueryEscape(text)).toBe(escaped);
	});

	it.each([
		[{ verb: 'list', group: '', version: 'v1', resource: 'pods', namespace: 'default', query: { limit: 500 } }, '/api/v1/namespaces/default/pods?limit=500'],
		[{ verb: 'watch', group: 'apps', version: 'v1', resource: 'deployments', namespace: 'default', query: { resourceVersion: '12' } }, '/apis/apps/v1/namespaces/default/deployments?resourceVersion=12&watch=true'],
		[{ verb: 'create', group: '', version: 'v1', resource: 'serviceaccounts', namespace: 'default', name: 'ci', subresource: 'token' }, '/api/v1/namespaces/default/serviceaccounts/ci/token'],
		[{ verb: 'create', group: '', version: 'v1', resource: 'pods', namespace: 'default', name: 'web', subresource: 'exec', query: { command: ['sh', '-c', 'echo hi'], stdin: false } }, '/api/v1/namespaces/default/pods/web/exec?command=sh&command=-c&command=echo+hi&stdin=false'],
		[{ verb: 'get', group: '', version: 'v1', resource: 'namespaces', namespace: 'kube-system', name: 'kube-system' }, '/api/v1/namespaces/kube-system'],
	] as Array<[ApiRequest, string]>)('builds %j', (request, path) => {
		expect(requestUrlOf(SERVER, request)).toBe(`${SERVER}${path}`);
	});
});
