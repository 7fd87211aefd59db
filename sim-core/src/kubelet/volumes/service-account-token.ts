/**
 * The bound service account token a projected volume holds (the `token`
 * file of `kube-api-access-xxxxx`), and when the kubelet's token manager
 * asks for a fresh one.
 *
 * The kubelet asks the API server for the token, as upstream's does (POST
 * serviceaccounts/<sa>/token, a TokenRequest bound to the pod; see
 * Kubelet.requestServiceAccountToken), and the API server signs it, so the
 * token authenticates. `issueToken` builds a token of the same shape
 * locally, with a placeholder signature, for the volume plugins' unit tests,
 * which run without an API server; the refresh rule below serves both.
 *
 * Mirrors pkg/kubelet/token/token_manager.go (requiresRefresh),
 * pkg/serviceaccount/claims.go (the claims),
 * pkg/registry/core/serviceaccount/storage/token.go (the expiration
 * extension of the default token).
 */
import { encodeBase64 } from '../../golang/base64.ts';
import { hash128 } from '../static-pods.ts';

/** kubeadm's --service-account-issuer; the API server's audiences default to it. */
export const SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';
/** ServiceAccountTokenProjection.expirationSeconds default (k8s.io/api core/v1: 1 hour). */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds = 1 h 7 s: what the ServiceAccount admission plugin asks for. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 3607;
/** serviceaccount.ExpirationExtensionSeconds = 1 year: how long such a token really lives (--service-account-extend-token-expiration, on by default). */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;
/** token_manager.go maxTTL: a token older than 24 h is always refreshed. */
const TOKEN_MAX_TTL_MS = 24 * 3_600_000;
/** token_manager.go: refresh once less than 20 % of the requested lifetime is left. */
const TOKEN_REFRESH_REMAINING_PERCENT = 20;

/** A token the kubelet holds for one projected source. Plain JSON. */
export interface IssuedToken {
	token: string;
	/** When it was issued (wall-clock ms). */
	issuedWallMs: number;
	/** The lifetime that was asked for (TokenRequest spec.expirationSeconds). */
	expirationSeconds: number;
	audience: string;
}

/** Who the token is for. */
export interface TokenSubject {
	namespace: string;
	serviceAccountName: string;
	podName: string;
	podUid: string;
	nodeName: string;
	nodeUid: string;
	/** The projection's audience; empty means the API server's own. */
	audience: string;
	expirationSeconds: number;
}

function base64Url(text: string): string {
	return encodeBase64(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** A UUID-shaped identifier from a seed text (deterministic). */
function uuidFrom(seed: string): string {
	const h = hash128(seed);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * The token the API server would return for the pod at `nowWallMs`: a
 * JWT whose claims are sorted as go-jose writes them. A request for the
 * admission plugin's 3607 s gets a one-year `exp` and a `warnafter` at
 * 3607 s, so old clients that never re-read the file keep working while
 * the API server logs a warning.
 */
export function issueToken(subject: TokenSubject, nowWallMs: number): IssuedToken {
	const iat = Math.floor(nowWallMs / 1000);
	const audience = subject.audience || SERVICE_ACCOUNT_ISSUER;
	const extended = subject.expirationSeconds === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && audience === SERVICE_ACCOUNT_ISSUER;
	const exp = iat + (extended ? EXPIRATION_EXTENSION_SECONDS : subject.expirationSeconds);
	const kubernetes: Record<string, unknown> = {
		namespace: subject.namespace,
		node: { name: subject.nodeName, uid: subject.nodeUid },
		pod: { name: subject.podName, uid: subject.podUid },
		serviceaccount: { name: subject.serviceAccountName, uid: uuidFrom(`serviceaccount:${subject.namespace}/${subject.serviceAccountName}`) },
	};
	if (extended) kubernetes.warnafter = iat + subject.expirationSeconds;
	const claims = {
		aud: [audience],
		exp,
		iat,
		iss: SERVICE_ACCOUNT_ISSUER,
		jti: uuidFrom(`jti:${subject.podUid}:${iat}:${audience}`),
		'kubernetes.io': kubernetes,
		nbf: iat,
		sub: `system:serviceaccount:${subject.namespace}:${subject.serviceAccountName}`,
	};
	const header = { alg: 'RS256', kid: base64Url(hash128('sa.pub') + hash128('sa.pub:kid')).slice(0, 43) };
	const signature = base64Url(`simulated signature (Cluster Anatomy), no key material: ${hash128(JSON.stringify(claims))}`);
	return { token: `${base64Url(JSON.stringify(header))}.${base64Url(JSON.stringify(claims))}.${signature}`, issuedWallMs: iat * 1000, expirationSeconds: subject.expirationSeconds, audience };
}

/**
 * requiresRefresh: older than 24 h, or within the last 20 % of the
 * requested lifetime (the ExpirationTimestamp the API server reports is
 * issue time + the requested seconds, even for an extended token).
 * Upstream subtracts up to 10 s of random jitter; here none.
 */
export function requiresRefresh(token: IssuedToken, nowWallMs: number): boolean {
	if (nowWallMs > token.issuedWallMs + TOKEN_MAX_TTL_MS) return true;
	const expiresWallMs = token.issuedWallMs + token.expirationSeconds * 1000;
	const refreshWindowMs = Math.floor((token.expirationSeconds * TOKEN_REFRESH_REMAINING_PERCENT) / 100) * 1000;
	return nowWallMs > expiresWallMs - refreshWindowMs;
}
