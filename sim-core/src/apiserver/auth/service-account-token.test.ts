import { describe, it, expect } from 'vitest';
import type { KubeObject } from '../../api/types.ts';
import { utf8Encode } from '../../golang/utf8.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { hmacSha256, sha256, toHex } from '../../golang/sha256.ts';
import { base64UrlDecode, base64UrlEncode, parseCompactJws } from './jwt.ts';
import { serviceAccountKeyFromSeed, signJws, verifyJws } from './service-account-key.ts';
import { generateToken, serviceAccountClaims, type ClaimsInput } from './service-account-token.ts';
import { authenticateServiceAccountToken, INVALID_BEARER_TOKEN, type TokenObjectReader } from './token-authenticator.ts';
import { authenticateRequest } from './authentication.ts';

const ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** 2026-11-30T08:00:00Z, the simulator's default start. */
const START_MS = parseRfc3339('2026-11-30T08:00:00Z');

describe('SHA-256 and HMAC-SHA-256', () => {
	it.each([
		// FIPS 180-4 examples (NIST CSRC "SHA-256" example values).
		['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
		['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
		['abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq', '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1'],
	])('hashes %j as FIPS 180-4 says', (text, digest) => {
		expect(toHex(sha256(utf8Encode(text)))).toBe(digest);
	});

	it('computes RFC 4231 test case 2 (key "Jefe")', () => {
		expect(toHex(hmacSha256(utf8Encode('Jefe'), utf8Encode('what do ya want for nothing?')))).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
	});

	it('hashes a key longer than the block size first (RFC 4231 test case 6)', () => {
		const key = new Array<number>(131).fill(0xaa);
		expect(toHex(hmacSha256(key, utf8Encode('Test Using Larger Than Block-Size Key - Hash Key First')))).toBe('60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54');
	});
});

describe('base64url and compact JWS', () => {
	it.each([
		[[], ''],
		[[0xfb], '-w'],
		[[0xfb, 0xff], '-_8'],
		[[0x66, 0x6f, 0x6f], 'Zm9v'],
	])('encodes %j without padding as %j and back', (bytes, text) => {
		expect(base64UrlEncode(bytes)).toBe(text);
		expect(base64UrlDecode(text)).toEqual(bytes);
	});

	it('refuses padding, the standard alphabet and impossible lengths', () => {
		for (const bad of ['Zm8=', 'a+b/', 'Z']) expect(base64UrlDecode(bad)).toBeUndefined();
	});

	it('splits a compact JWS and refuses anything without three decodable parts', () => {
		expect(parseCompactJws('eyJhIjoxfQ.eyJiIjoyfQ.c2ln')).toEqual({ header: { a: 1 }, payload: { b: 2 }, signingInput: 'eyJhIjoxfQ.eyJiIjoyfQ', signature: 'c2ln' });
		for (const bad of ['a.b', 'a.b.c.d', 'eyJhIjoxfQ.bm90IGpzb24.c2ln', 'WzFd.eyJiIjoyfQ.c2ln', 'x'.repeat(20_000)]) expect(parseCompactJws(bad)).toBeUndefined();
	});
});

describe('the service account signing key', () => {
	it('is a pure function of the cluster seed, with a 43-character kid', () => {
		expect(serviceAccountKeyFromSeed(7)).toEqual(serviceAccountKeyFromSeed(7));
		expect(serviceAccountKeyFromSeed(7).secret).not.toEqual(serviceAccountKeyFromSeed(8).secret);
		expect(serviceAccountKeyFromSeed(7).keyId).toMatch(/^[A-Za-z0-9_-]{43}$/);
	});

	it('verifies its own 256-byte signatures and nothing else', () => {
		const key = serviceAccountKeyFromSeed(1);
		const signature = signJws(key, 'header.payload');
		expect(base64UrlDecode(signature)).toHaveLength(256);
		expect(verifyJws(key, 'header.payload', signature)).toBe(true);
		expect(verifyJws(key, 'header.payloaD', signature)).toBe(false);
		expect(verifyJws(serviceAccountKeyFromSeed(2), 'header.payload', signature)).toBe(false);
		expect(verifyJws(key, 'header.payload', signature.slice(1))).toBe(false);
	});
});

/** A tiny object store for the authenticator, as the API server's cache would answer. */
function store(objects: Array<[string, string | undefined, KubeObject]>): TokenObjectReader {
	return { get: (resource, namespace, name) => objects.find(([r, ns, o]) => r === resource && (ns ?? '') === (namespace ?? '') && o.metadata.name === name)?.[2] };
}

const sa = (uid: string, deletionTimestamp?: string): KubeObject => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'ci', namespace: 'default', uid, ...(deletionTimestamp ? { deletionTimestamp } : {}) } });
const pod = (uid: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web-1', namespace: 'default', uid } });
const node = (uid: string): KubeObject => ({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'node-1', uid } });

function input(extra: Partial<ClaimsInput> = {}): ClaimsInput {
	return { issuer: ISSUER, serviceAccount: { namespace: 'default', name: 'ci', uid: 'sa-1' }, audiences: [ISSUER], expirationSeconds: 3600, nowWallMs: START_MS, jti: '6f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b', ...extra };
}

describe('service account token claims', () => {
	it('sorts the private claim as go-jose does and names a pod-bound token pod and node', () => {
		const claims = serviceAccountClaims(input({ pod: { name: 'web-1', uid: 'pod-1' }, podNode: { name: 'node-1', uid: 'node-1-uid' }, warnAfterSeconds: 3607 }));
		expect(Object.keys(claims['kubernetes.io'])).toEqual(['namespace', 'node', 'pod', 'serviceaccount', 'warnafter']);
		expect(claims['kubernetes.io'].warnafter).toBe(START_MS / 1000 + 3607);
	});

	it('names a node that no longer exists without a uid', () => {
		expect(serviceAccountClaims(input({ pod: { name: 'web-1', uid: 'pod-1' }, podNode: { name: 'node-9' } }))['kubernetes.io'].node).toEqual({ name: 'node-9' });
	});
});

describe('the service account token authenticator', () => {
	const key = serviceAccountKeyFromSeed(1);
	const config = { key, issuers: [ISSUER], apiAudiences: [ISSUER] };
	const check = (token: string, objects: Array<[string, string | undefined, KubeObject]>, atMs = START_MS) => authenticateServiceAccountToken(token, config, store(objects), atMs, parseRfc3339);
	const live: Array<[string, string | undefined, KubeObject]> = [
		['serviceaccounts', 'default', sa('sa-1')],
		['pods', 'default', pod('pod-1')],
		['nodes', undefined, node('node-1-uid')],
	];

	it('yields the service account user with its groups and UID', () => {
		expect(check(generateToken(key, serviceAccountClaims(input())), live)).toEqual({
			ok: true,
			user: { username: 'system:serviceaccount:default:ci', uid: 'sa-1', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] },
			audiences: [ISSUER],
		});
	});

	it.each([
		['another issuer', generateToken(key, serviceAccountClaims(input({ issuer: 'https://elsewhere' }))), live, START_MS, INVALID_BEARER_TOKEN],
		['another key', generateToken(serviceAccountKeyFromSeed(2), serviceAccountClaims(input())), live, START_MS, '[go-jose/go-jose: error in cryptographic primitive]'],
		['another audience', generateToken(key, serviceAccountClaims(input({ audiences: ['vault'] }))), live, START_MS, 'token audiences ["vault"] is invalid for the target audiences ["https://kubernetes.default.svc.cluster.local"]'],
		['an expired token (past exp + 60 s)', generateToken(key, serviceAccountClaims(input())), live, START_MS + 3661_000, 'service account token has expired'],
		['a token from the future (nbf past now + 60 s)', generateToken(key, serviceAccountClaims(input({ nowWallMs: START_MS + 61_000 }))), live, START_MS, 'service account token is not valid yet'],
		['a deleted service account', generateToken(key, serviceAccountClaims(input())), [], START_MS, 'serviceaccounts "ci" not found'],
		['a re-created service account', generateToken(key, serviceAccountClaims(input())), [['serviceaccounts', 'default', sa('sa-2')]], START_MS, 'service account UID (sa-2) does not match claim (sa-1)'],
		['an account being deleted for over a minute', generateToken(key, serviceAccountClaims(input())), [['serviceaccounts', 'default', sa('sa-1', '2026-11-30T07:58:59Z')]], START_MS, 'service account default/ci has been deleted'],
		['a deleted pod', generateToken(key, serviceAccountClaims(input({ pod: { name: 'web-1', uid: 'pod-1' } }))), live.slice(0, 1), START_MS, 'service account token has been invalidated'],
		['a re-created pod', generateToken(key, serviceAccountClaims(input({ pod: { name: 'web-1', uid: 'pod-0' } }))), live, START_MS, 'pod UID (pod-1) does not match service account pod ref claim (pod-0)'],
		['a deleted node', generateToken(key, serviceAccountClaims(input({ node: { name: 'node-1', uid: 'node-1-uid' } }))), live.slice(0, 2), START_MS, 'service account token has been invalidated'],
		['no JWT', 'garbage', live, START_MS, INVALID_BEARER_TOKEN],
	] as Array<[string, string, Array<[string, string | undefined, KubeObject]>, number, string]>)('rejects %s', (_what, token, objects, atMs, reason) => {
		expect(check(token, objects, atMs)).toEqual({ ok: false, reason });
	});

	it('accepts a token until one minute after exp (go-jose DefaultLeeway)', () => {
		expect(check(generateToken(key, serviceAccountClaims(input())), live, START_MS + 3660_000).ok).toBe(true);
	});

	it('reads the node of a pod-bound token as information only: a gone node does not invalidate it', () => {
		const token = generateToken(key, serviceAccountClaims(input({ pod: { name: 'web-1', uid: 'pod-1' }, podNode: { name: 'node-1', uid: 'node-1-uid' } })));
		expect(check(token, live.slice(0, 2)).ok).toBe(true);
	});
});

describe('request authentication (certificate, then bearer token, then anonymous)', () => {
	const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
	const admin = { username: 'kubernetes-admin', groups: ['kubeadm:cluster-admins', 'system:authenticated'] };
	const robot = { username: 'system:serviceaccount:default:ci', groups: ['system:serviceaccounts', 'system:serviceaccounts:default', 'system:authenticated'] };
	const tokens = (token: string) => (token === 'good' ? { ok: true as const, user: robot, audiences: [ISSUER] } : { ok: false as const, reason: INVALID_BEARER_TOKEN });

	it.each([
		['a certificate and a bad token', admin, 'bad', { ok: true, user: admin, by: 'x509' }],
		['no credentials', anonymous, undefined, { ok: true, user: anonymous, by: 'anonymous' }],
		['an empty bearer token', anonymous, ' ', { ok: true, user: anonymous, by: 'anonymous' }],
		['a good token', anonymous, 'good', { ok: true, user: robot, by: 'token' }],
		['a bad token', anonymous, 'bad', { ok: false, reason: INVALID_BEARER_TOKEN }],
	])('with %s', (_what, user, token, expected) => {
		expect(authenticateRequest(user, token, tokens)).toEqual(expected);
	});
});
