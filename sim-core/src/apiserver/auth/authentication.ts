/**
 * The API server's request authentication, in the order kube-apiserver
 * builds its authenticator union for a kubeadm cluster: the x509 client
 * certificate (here the transport already knows it: a process enrolled
 * with an identity presented a certificate the cluster CA signed), then
 * the bearer token (the service account token authenticator), then, when
 * the request carried no credentials at all, the anonymous user
 * (`--anonymous-auth=true`). A certificate wins over a token; a token that
 * is present but not valid is a 401, never anonymous access; an empty
 * bearer token counts as no token.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/authentication/request/union/union.go
 * (first success wins),
 * staging/src/k8s.io/apiserver/pkg/authentication/request/anonymous/anonymous.go,
 * staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go,
 * pkg/kubeapiserver/authenticator/config.go (the assembly).
 */
import type { UserInfo } from '../../api/request.ts';
import type { TokenAuthentication } from './token-authenticator.ts';

/** user.Anonymous: what a request without credentials is. */
export const ANONYMOUS_USER = 'system:anonymous';

export type RequestAuthentication = { ok: true; user: UserInfo; by: 'x509' | 'token' | 'anonymous' } | { ok: false; reason: string };

/**
 * Who sent a request: `user` is what the transport established (a client
 * certificate's identity, or the anonymous user when none was presented);
 * `bearerToken` the `Authorization: Bearer` value, if any.
 */
export function authenticateRequest(user: UserInfo, bearerToken: string | undefined, authenticateToken: (token: string) => TokenAuthentication): RequestAuthentication {
	const anonymous = user.username === ANONYMOUS_USER;
	if (!anonymous) return { ok: true, user, by: 'x509' };
	const token = bearerToken?.trim() ?? '';
	if (!token) return { ok: true, user, by: 'anonymous' };
	const result = authenticateToken(token);
	return result.ok ? { ok: true, user: result.user, by: 'token' } : { ok: false, reason: result.reason };
}
