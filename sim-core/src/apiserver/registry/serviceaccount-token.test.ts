import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { resourceForKind } from '../../api/resources.ts';
import { utf8Decode } from '../../golang/utf8.ts';
import { R, refOf, type ApiClient, type CallResult } from '../../client/client.ts';
import { createApiHarness } from '../../testing/api-harness.ts';
import { defaultStrategies } from './index.ts';
import { defaultAdmissionPlugins } from '../admission/index.ts';
import { bootstrapPolicyObjects, kubeadmRbacObjects } from '../auth/bootstrap-policy.ts';
import { identityOf } from '../auth/identities.ts';
import { defaultAuthorizers } from '../auth/index.ts';
import { base64UrlDecode } from '../auth/jwt.ts';
import { decodeTokenRequest } from './serviceaccount-token.ts';

const RBAC = { group: 'rbac.authorization.k8s.io', version: 'v1' };
const ISSUER = 'https://kubernetes.default.svc.cluster.local';

function mustCreate(client: ApiClient, obj: KubeObject): KubeObject {
	const info = resourceForKind(obj.apiVersion, obj.kind);
	if (!info) throw new Error(`no resource for ${obj.kind}`);
	const result = client.create(refOf(info), info.namespaced ? obj.metadata.namespace : undefined, obj);
	if (!result.ok) throw new Error(`${obj.kind} ${obj.metadata.name}: ${result.message}`);
	return result.object;
}

/**
 * A real etcd + kube-apiserver with `--authorization-mode=Node,RBAC`, the
 * bootstrap policy, every strategy and the admission chain; the admin
 * (kubectl) creates the service account `ci` and two nodes.
 */
function cluster() {
	const h = createApiHarness({ deps: { strategies: defaultStrategies(), admission: defaultAdmissionPlugins(), authorizers: defaultAuthorizers('Node,RBAC') } });
	for (const id of ['kube-apiserver', 'kubectl', 'kubelet/node-1', 'kubelet/node-2']) h.transport.enroll(id, identityOf(id)!);
	h.transport.enroll('jane', { username: 'jane', groups: ['system:authenticated'] });
	const loopback = h.client('kube-apiserver');
	for (const name of ['default', 'kube-system', 'kube-public', 'kube-node-lease']) mustCreate(loopback, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
	for (const obj of [...bootstrapPolicyObjects(), ...kubeadmRbacObjects()]) mustCreate(loopback, obj);
	const admin = h.client('kubectl');
	for (const name of ['default', 'ci']) mustCreate(admin, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace: 'default' } });
	for (const name of ['node-1', 'node-2']) mustCreate(admin, { apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: {} });
	/** A client that authenticates with a bearer token only (no client certificate). */
	const withToken = (id: string, token: string) => {
		h.transport.setBearerToken(id, token);
		return h.client(id);
	};
	return { h, admin, withToken };
}

const TOKEN_REF = { group: '', version: 'v1', resource: 'serviceaccounts' };

/** POST serviceaccounts/<name>/token. */
function requestToken(client: ApiClient, name: string, spec: Record<string, unknown> = {}, namespace = 'default', extra: Record<string, unknown> = {}): CallResult {
	return client.call({ verb: 'create', ...TOKEN_REF, namespace, name, subresource: 'token', body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec, ...extra } });
}

function tokenOf(result: CallResult): string {
	if (!result.ok) throw new Error(`token request failed: ${result.code} ${result.message}`);
	return (result.object.status as { token: string }).token;
}

function payloadOf(token: string): Record<string, unknown> {
	return JSON.parse(utf8Decode(base64UrlDecode(token.split('.')[1])!)) as Record<string, unknown>;
}

function failure(result: CallResult<unknown>) {
	return result.ok ? { ok: true } : { code: result.code, reason: result.reason, message: result.message };
}

/** The wall-clock second the harness is at (it starts at 2026-11-30T08:00:00Z). */
function nowSeconds(h: ReturnType<typeof cluster>['h']): number {
	return Math.floor(h.kernel.wallMs() / 1000);
}

const viewBinding = {
	apiVersion: 'rbac.authorization.k8s.io/v1',
	kind: 'RoleBinding',
	metadata: { name: 'ci-view', namespace: 'default' },
	roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
	subjects: [{ kind: 'ServiceAccount', name: 'ci', namespace: 'default' }],
};

describe('the TokenRequest subresource (serviceaccounts/token)', () => {
	it('answers 201 with a TokenRequest: defaults of one hour and the API server audience, the account UID, a signed JWT', () => {
		const { h, admin } = cluster();
		h.advance(12_345);
		const sa = admin.get<KubeObject>(R.serviceaccounts, 'default', 'ci');
		const result = requestToken(admin, 'ci');
		expect(result.ok && result.code).toBe(201);
		const body = (result as { object: KubeObject }).object;
		const token = tokenOf(result);
		// 08:00:12 plus the default 3600 s (authentication/v1 SetDefaults_TokenRequestSpec).
		expect(body).toEqual({
			kind: 'TokenRequest',
			apiVersion: 'authentication.k8s.io/v1',
			metadata: { name: 'ci', namespace: 'default', uid: sa.ok && sa.object.metadata.uid, creationTimestamp: '2026-11-30T08:00:12Z' },
			spec: { audiences: [ISSUER], expirationSeconds: 3600, boundObjectRef: null },
			status: { token, expirationTimestamp: '2026-11-30T09:00:12Z' },
		});
		// Upstream's JSON field order: the struct order of authentication/v1 TokenRequest.
		expect(Object.keys(body)).toEqual(['kind', 'apiVersion', 'metadata', 'spec', 'status']);
		expect(Object.keys(body.spec as object)).toEqual(['audiences', 'expirationSeconds', 'boundObjectRef']);
	});

	it('issues a JWT shaped like upstream: RS256 header with a 43-character kid, sorted claims, a 256-byte signature', () => {
		const { h, admin } = cluster();
		const token = tokenOf(requestToken(admin, 'ci'));
		const [header, , signature] = token.split('.');
		const decodedHeader = JSON.parse(utf8Decode(base64UrlDecode(header)!)) as Record<string, string>;
		expect(Object.keys(decodedHeader)).toEqual(['alg', 'kid']);
		expect(decodedHeader.alg).toBe('RS256');
		expect(decodedHeader.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
		// RS256 with kubeadm's 2048-bit sa.key: 256 bytes, 342 base64url characters.
		expect(base64UrlDecode(signature)!.length).toBe(256);
		const claims = payloadOf(token);
		const now = nowSeconds(h);
		const sa = admin.get<KubeObject>(R.serviceaccounts, 'default', 'ci');
		expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
		expect(claims).toEqual({
			aud: [ISSUER],
			exp: now + 3600,
			iat: now,
			iss: ISSUER,
			jti: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
			'kubernetes.io': { namespace: 'default', serviceaccount: { name: 'ci', uid: sa.ok && sa.object.metadata.uid } },
			nbf: now,
			sub: 'system:serviceaccount:default:ci',
		});
		// Each token has its own jti.
		expect(payloadOf(tokenOf(requestToken(admin, 'ci'))).jti).not.toBe(claims.jti);
	});

	it('authenticates the token as the service account: forbidden until a RoleBinding grants view, then a PodList', () => {
		const { admin, withToken } = cluster();
		const robot = withToken('robot', tokenOf(requestToken(admin, 'ci')));
		expect(failure(robot.list(R.pods, 'default'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: 'pods is forbidden: User "system:serviceaccount:default:ci" cannot list resource "pods" in API group "" in the namespace "default"',
		});
		mustCreate(admin, viewBinding as unknown as KubeObject);
		const listed = robot.list(R.pods, 'default');
		expect(listed.ok && listed.object.kind).toBe('PodList');
		// view stops at writes, and at other namespaces.
		expect(failure(robot.delete(R.pods, 'default', 'web'))).toMatchObject({ code: 403 });
		expect(failure(robot.list(R.pods, 'kube-system'))).toMatchObject({ code: 403 });
	});

	it('answers 401 with upstream Status body once the token is past exp plus go-jose one-minute leeway', () => {
		const { h, admin, withToken } = cluster();
		mustCreate(admin, viewBinding as unknown as KubeObject);
		const robot = withToken('robot', tokenOf(requestToken(admin, 'ci', { expirationSeconds: 600 })));
		h.advance(600_000 + 60_000);
		expect(robot.list(R.pods, 'default').ok).toBe(true);
		h.advance(1_000);
		const denied = robot.raw({ verb: 'list', ...R.pods, namespace: 'default' });
		expect(denied).toEqual({ code: 401, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'Unauthorized', reason: 'Unauthorized', code: 401 } });
		expect(h.kernel.trace.events().filter((e) => e.action === 'authenticate').at(-1)?.msg).toBe('unable to authenticate the request: service account token has expired');
	});

	it('invalidates the tokens of a deleted service account, even once an account of the same name exists again', () => {
		const { h, admin, withToken } = cluster();
		mustCreate(admin, viewBinding as unknown as KubeObject);
		const robot = withToken('robot', tokenOf(requestToken(admin, 'ci')));
		expect(robot.list(R.pods, 'default').ok).toBe(true);
		expect(admin.delete(R.serviceaccounts, 'default', 'ci').ok).toBe(true);
		expect(failure(robot.list(R.pods, 'default'))).toEqual({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
		mustCreate(admin, { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ci', namespace: 'default' } });
		expect(failure(robot.list(R.pods, 'default'))).toMatchObject({ code: 401 });
		expect(h.kernel.trace.events().filter((e) => e.action === 'authenticate').at(-1)?.msg).toMatch(/^unable to authenticate the request: service account UID \(.+\) does not match claim \(.+\)$/);
	});

	it('refuses tokens that were altered, that are for another audience, or that are no JWT at all', () => {
		const { admin, withToken } = cluster();
		mustCreate(admin, viewBinding as unknown as KubeObject);
		const token = tokenOf(requestToken(admin, 'ci'));
		const [header, payload, signature] = token.split('.');
		const forgedClaims = { ...payloadOf(token), sub: 'system:serviceaccount:kube-system:admin' };
		const forged = `${header}.${Buffer.from(JSON.stringify(forgedClaims)).toString('base64url')}.${signature}`;
		const vault = tokenOf(requestToken(admin, 'ci', { audiences: ['vault'] }));
		for (const bad of [forged, `${header}.${payload}.${signature.slice(0, -2)}AA`, vault, 'not-a-jwt', `${header}.${payload}`]) {
			expect(failure(withToken('robot', bad).list(R.pods, 'default')), bad.slice(0, 20)).toEqual({ code: 401, reason: 'Unauthorized', message: 'Unauthorized' });
		}
		expect(withToken('robot', token).list(R.pods, 'default').ok).toBe(true);
	});

	it('lets a client certificate win over a bearer token, as the authenticator union tries x509 first', () => {
		const { h, admin } = cluster();
		h.transport.setBearerToken('kubectl', 'garbage');
		expect(admin.list(R.secrets, 'default').ok).toBe(true);
	});

	it.each([
		[599, 'spec.expirationSeconds: Invalid value: 599: may not specify a duration less than 10 minutes'],
		[2 ** 32 + 1, 'spec.expirationSeconds: Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds'],
	])('rejects expirationSeconds %d with the upstream validation error', (seconds, cause) => {
		const { admin } = cluster();
		expect(failure(requestToken(admin, 'ci', { expirationSeconds: seconds }))).toEqual({ code: 422, reason: 'Invalid', message: `TokenRequest.authentication.k8s.io "" is invalid: ${cause}` });
	});

	it('accepts exactly ten minutes', () => {
		const { admin } = cluster();
		expect(requestToken(admin, 'ci', { expirationSeconds: 600 }).ok).toBe(true);
	});

	it('answers 404 for a service account that does not exist', () => {
		const { admin } = cluster();
		expect(failure(requestToken(admin, 'nobody'))).toEqual({ code: 404, reason: 'NotFound', message: 'serviceaccounts "nobody" not found' });
	});

	it('forbids a user RBAC gives no `create` on serviceaccounts/token', () => {
		const { h } = cluster();
		expect(failure(requestToken(h.client('jane'), 'ci'))).toEqual({
			code: 403,
			reason: 'Forbidden',
			message: 'serviceaccounts "ci" is forbidden: User "jane" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default"',
		});
	});

	it('lets RBAC grant token requests through a Role on serviceaccounts/token', () => {
		const { h, admin } = cluster();
		mustCreate(admin, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'token-maker', namespace: 'default' }, rules: [{ apiGroups: [''], resources: ['serviceaccounts/token'], verbs: ['create'] }] } as unknown as KubeObject);
		mustCreate(admin, { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', metadata: { name: 'jane-tokens', namespace: 'default' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'token-maker' }, subjects: [{ kind: 'User', name: 'jane' }] } as unknown as KubeObject);
		expect(requestToken(h.client('jane'), 'ci').ok).toBe(true);
		void RBAC;
	});

	describe('bound tokens', () => {
		function withPod(name: string, nodeName: string, serviceAccountName = 'ci') {
			const c = cluster();
			const pod = mustCreate(c.admin, { apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 'default' }, spec: { serviceAccountName, nodeName, containers: [{ name: 'app', image: 'nginx:1.27' }] } });
			return { ...c, pod };
		}

		it('binds to a pod: the claims name the pod and its node, with their UIDs', () => {
			const { admin, pod } = withPod('web-1', 'node-1');
			const node = admin.get<KubeObject>(R.nodes, undefined, 'node-1');
			const result = requestToken(admin, 'ci', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-1' } });
			expect(result.ok && (result.object.spec as { boundObjectRef: unknown }).boundObjectRef).toEqual({ kind: 'Pod', apiVersion: 'v1', name: 'web-1' });
			const claims = payloadOf(tokenOf(result))['kubernetes.io'] as Record<string, unknown>;
			expect(Object.keys(claims)).toEqual(['namespace', 'node', 'pod', 'serviceaccount']);
			expect(claims.pod).toEqual({ name: 'web-1', uid: pod.metadata.uid });
			expect(claims.node).toEqual({ name: 'node-1', uid: node.ok && node.object.metadata.uid });
		});

		it('makes a pod-bound token die with its pod', () => {
			const { admin, withToken } = withPod('web-1', 'node-1');
			mustCreate(admin, viewBinding as unknown as KubeObject);
			const robot = withToken('robot', tokenOf(requestToken(admin, 'ci', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-1' } })));
			expect(robot.list(R.pods, 'default').ok).toBe(true);
			expect(admin.delete(R.pods, 'default', 'web-1', { gracePeriodSeconds: 0 }).ok).toBe(true);
			expect(failure(robot.list(R.pods, 'default'))).toMatchObject({ code: 401 });
		});

		it('extends the admission plugin 3607 s pod-bound token to a year, with warnafter at 3607 s', () => {
			const { h, admin } = withPod('web-1', 'node-1');
			const result = requestToken(admin, 'ci', { expirationSeconds: 3607, boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-1' } });
			const claims = payloadOf(tokenOf(result));
			const now = nowSeconds(h);
			// claims.go: ExpirationExtensionSeconds = 24*365*60*60; warnafter = now + 3607.
			expect(claims.exp).toBe(now + 31_536_000);
			expect((claims['kubernetes.io'] as { warnafter: number }).warnafter).toBe(now + 3607);
			// The status still reports the requested lifetime.
			expect(result.ok && (result.object.status as { expirationTimestamp: string }).expirationTimestamp).toBe('2026-11-30T09:00:07Z');
		});

		it.each([
			['a pod of another service account', { kind: 'Pod', apiVersion: 'v1', name: 'other' }, { code: 400, reason: 'BadRequest', message: 'cannot bind token for serviceaccount "ci" to pod running with different serviceaccount name.' }],
			['a pod that does not exist', { kind: 'Pod', apiVersion: 'v1', name: 'ghost' }, { code: 404, reason: 'NotFound', message: 'pods "ghost" not found' }],
			['a pod with another UID', { kind: 'Pod', apiVersion: 'v1', name: 'web-1', uid: 'abc' }, { code: 409, reason: 'Conflict', message: 'Operation cannot be fulfilled on Pod "web-1": the UID in the bound object reference (abc) does not match the UID in record. The object might have been deleted and then recreated' }],
			['a ConfigMap', { kind: 'ConfigMap', apiVersion: 'v1', name: 'x' }, { code: 400, reason: 'BadRequest', message: 'cannot bind token to object of type /v1, Kind=ConfigMap' }],
			['a node that does not exist', { kind: 'Node', apiVersion: 'v1', name: 'node-9' }, { code: 404, reason: 'NotFound', message: 'nodes "node-9" not found' }],
		])('refuses to bind to %s', (_what, boundObjectRef, expected) => {
			const { admin } = withPod('web-1', 'node-1');
			mustCreate(admin, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'other', namespace: 'default' }, spec: { serviceAccountName: 'default', containers: [{ name: 'app', image: 'nginx:1.27' }] } });
			expect(failure(requestToken(admin, 'ci', { boundObjectRef }))).toEqual(expected);
		});

		it('binds to a secret or a node, and the token dies with it', () => {
			const { admin, withToken } = cluster();
			mustCreate(admin, viewBinding as unknown as KubeObject);
			mustCreate(admin, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'anchor', namespace: 'default' }, type: 'Opaque' });
			const bySecret = withToken('by-secret', tokenOf(requestToken(admin, 'ci', { boundObjectRef: { kind: 'Secret', apiVersion: 'v1', name: 'anchor' } })));
			const byNode = withToken('by-node', tokenOf(requestToken(admin, 'ci', { boundObjectRef: { kind: 'Node', apiVersion: 'v1', name: 'node-2' } })));
			expect(bySecret.list(R.pods, 'default').ok && byNode.list(R.pods, 'default').ok).toBe(true);
			admin.delete(R.secrets, 'default', 'anchor');
			admin.delete(R.nodes, undefined, 'node-2');
			expect(failure(bySecret.list(R.pods, 'default'))).toMatchObject({ code: 401 });
			expect(failure(byNode.list(R.pods, 'default'))).toMatchObject({ code: 401 });
		});

		it('lets a kubelet request tokens only for service accounts its own pods run as (the Node authorizer)', () => {
			const { h } = withPod('web-1', 'node-1');
			expect(requestToken(h.client('kubelet/node-1'), 'ci', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-1' } }).ok).toBe(true);
			expect(failure(requestToken(h.client('kubelet/node-2'), 'ci', { boundObjectRef: { kind: 'Pod', apiVersion: 'v1', name: 'web-1' } }))).toEqual({
				code: 403,
				reason: 'Forbidden',
				message: `serviceaccounts "ci" is forbidden: User "system:node:node-2" cannot create resource "serviceaccounts/token" in API group "" in the namespace "default": no relationship found between node 'node-2' and this object`,
			});
		});
	});

	it('serves create only: a GET of serviceaccounts/ci/token is 405', () => {
		const { admin } = cluster();
		expect(failure(admin.call({ verb: 'get', ...TOKEN_REF, namespace: 'default', name: 'ci', subresource: 'token' }))).toEqual({ code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource' });
	});

	it('checks the body name and namespace against the URL', () => {
		const { admin } = cluster();
		expect(failure(requestToken(admin, 'ci', {}, 'default', { metadata: { name: 'other' } }))).toEqual({ code: 422, reason: 'Invalid', message: 'TokenRequest.authentication.k8s.io "ci" is invalid: metadata.name: Invalid value: "other": must match the service account name if specified' });
	});

	it('decodes strictly: an unknown field is a 400 naming it', () => {
		const decoded = decodeTokenRequest({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { audience: ['x'] } });
		expect('error' in decoded && decoded.error.body).toMatchObject({ code: 400, message: 'TokenRequest in version "v1" cannot be handled as a TokenRequest: strict decoding error: unknown field "spec.audience"' });
	});
});

describe('TokenReview (authentication.k8s.io/v1): whose is this token?', () => {
	const TOKENREVIEWS = { group: 'authentication.k8s.io', version: 'v1', resource: 'tokenreviews' };
	const review = (client: ApiClient, spec: Record<string, unknown>) => client.call({ verb: 'create', ...TOKENREVIEWS, body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec } });

	it('names the service account of a valid token and the audiences it was checked for', () => {
		const { admin } = cluster();
		const token = tokenOf(requestToken(admin, 'ci'));
		const answer = review(admin, { token });
		expect(answer.ok && answer.object.status).toEqual({
			authenticated: true,
			user: { username: 'system:serviceaccount:default:ci', uid: expect.any(String), groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
			audiences: [ISSUER],
		});
	});

	it('answers unauthenticated, with an empty user, for a bad token or an audience the server is not', () => {
		const { admin } = cluster();
		expect(review(admin, { token: 'not-a-jwt' })).toMatchObject({ ok: true, object: { status: { user: {} } } });
		const token = tokenOf(requestToken(admin, 'ci'));
		const answer = review(admin, { token, audiences: ['vault'] });
		expect(answer.ok && answer.object.status).toEqual({ user: {} });
	});

	it('requires a token, and stores nothing', () => {
		const { admin, h } = cluster();
		expect(review(admin, {})).toMatchObject({ ok: false, code: 400, message: 'token is required for TokenReview in authentication' });
		expect(h.etcd.range('/registry/tokenreviews/', { prefix: true }).kvs).toEqual([]);
	});
});
