/**
 * The bound token of the kube-api-access volume: its claims as the API
 * server issues them (pkg/serviceaccount/claims.go, the one-year extension
 * of the admission plugin's 3607 s request), and when the kubelet's token
 * manager replaces it (token_manager.go requiresRefresh).
 */
import { describe, expect, it } from 'vitest';
import { decodeBase64 } from '../../golang/base64.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { issueToken, requiresRefresh } from './service-account-token.ts';

const NOW = parseRfc3339('2026-11-30T08:00:00Z');
const subject = { namespace: 'default', serviceAccountName: 'default', podName: 'web', podUid: 'pod-uid', nodeName: 'node-1', nodeUid: 'node-uid', audience: '', expirationSeconds: 3607 };

function claimsOf(token: string): Record<string, unknown> {
	const part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
	return JSON.parse(decodeBase64(part + '='.repeat((4 - (part.length % 4)) % 4)) ?? '{}') as Record<string, unknown>;
}

describe('the bound service account token', () => {
	it('carries the claims of a pod-bound token, keys in go-jose order', () => {
		const t = issueToken(subject, NOW);
		expect(t.token.split('.')).toHaveLength(3);
		const claims = claimsOf(t.token);
		expect(Object.keys(claims)).toEqual(['aud', 'exp', 'iat', 'iss', 'jti', 'kubernetes.io', 'nbf', 'sub']);
		expect(claims).toMatchObject({ aud: ['https://kubernetes.default.svc.cluster.local'], iss: 'https://kubernetes.default.svc.cluster.local', sub: 'system:serviceaccount:default:default', iat: NOW / 1000, nbf: NOW / 1000 });
		expect(claims['kubernetes.io']).toMatchObject({ namespace: 'default', node: { name: 'node-1', uid: 'node-uid' }, pod: { name: 'web', uid: 'pod-uid' }, serviceaccount: { name: 'default' } });
	});

	it('lives a year when the admission plugin asked for 3607 s, with a warning after 3607 s', () => {
		const claims = claimsOf(issueToken(subject, NOW).token);
		expect(claims.exp).toBe(NOW / 1000 + 365 * 24 * 3600);
		expect((claims['kubernetes.io'] as { warnafter: number }).warnafter).toBe(NOW / 1000 + 3607);
	});

	it('lives what was asked for otherwise (another lifetime, or another audience)', () => {
		expect(claimsOf(issueToken({ ...subject, expirationSeconds: 600 }, NOW).token).exp).toBe(NOW / 1000 + 600);
		const vault = claimsOf(issueToken({ ...subject, audience: 'vault' }, NOW).token);
		expect(vault.aud).toEqual(['vault']);
		expect(vault.exp).toBe(NOW / 1000 + 3607);
	});

	it.each([
		// 3607 s requested: refreshed once less than 20 % (721 s) is left, after 2886 s.
		[3607, 2886_000, false],
		[3607, 2887_000, true],
		// 86400 s (24 h): the 20 % rule fires first, at 69120 s.
		[86_400, 69_120_000, false],
		[86_400, 69_121_000, true],
		// 48 h: older than 24 h (maxTTL) is refreshed whatever its lifetime.
		[172_800, 86_400_001, true],
	])('a %i s token at +%i ms needs a refresh: %s', (seconds, afterMs, expected) => {
		const t = issueToken({ ...subject, expirationSeconds: seconds }, NOW);
		expect(requiresRefresh(t, NOW + afterMs)).toBe(expected);
	});
});
