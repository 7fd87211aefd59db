/**
 * The service account token authenticator: who a bearer token belongs to.
 *
 * The API server first reads the issuer without trusting anything (a token
 * from another issuer is simply not its own), then verifies the signature
 * with its service account key, checks the issuer again, intersects the
 * token's audiences with its own `--api-audiences` (defaulted by kube-apiserver
 * to the first `--service-account-issuer`), and hands the claims to the
 * bound-token validator: the token must be in its validity window (with
 * go-jose's one-minute leeway), the service account must still exist with
 * the UID the token names (`--service-account-lookup`, default true: a
 * deleted and re-created account does not revive old tokens), and so must
 * the pod, secret or node it is bound to. The user it yields is
 * `system:serviceaccount:<ns>:<name>` in `system:serviceaccounts`,
 * `system:serviceaccounts:<ns>` and `system:authenticated`.
 *
 * Any failure is an authentication error: the client only ever sees
 * `401 Unauthorized`; the reason goes to the API server's log (here the
 * trace), as upstream logs "Unable to authenticate the request".
 *
 * Legacy secret-based tokens (issuer `kubernetes/serviceaccount`) are not
 * modelled: no tokens controller creates them here.
 *
 * Mirrors pkg/serviceaccount/jwt.go
 * (JWTTokenAuthenticator.AuthenticateToken, hasCorrectIssuer),
 * pkg/serviceaccount/claims.go (validator.Validate),
 * staging/src/k8s.io/apiserver/pkg/authentication/request/bearertoken/bearertoken.go
 * (the default "invalid bearer token" error).
 */
import type { KubeObject } from '../../api/types.ts';
import type { UserInfo } from '../../api/request.ts';
import { serviceAccountIdentity } from './identities.ts';
import { parseCompactJws } from './jwt.ts';
import { verifyJws, type ServiceAccountKey } from './service-account-key.ts';
import type { ClaimRef } from './service-account-token.ts';

/** go-jose jwt.DefaultLeeway: expiry, not-before and issued-at are checked with one minute of slack. */
export const JWT_LEEWAY_SECONDS = 60;

/** bearertoken.invalidToken: the error when no token authenticator recognised the token. */
export const INVALID_BEARER_TOKEN = 'invalid bearer token';

/** How the API server checks tokens. */
export interface TokenAuthenticatorConfig {
	key: ServiceAccountKey;
	/** `--service-account-issuer` values; the first one signs new tokens. */
	issuers: string[];
	/** `--api-audiences` (kube-apiserver defaults them to the issuers). */
	apiAudiences: string[];
}

/** The objects a token may be bound to, read from the API server's cache (the informer-backed getters upstream uses). */
export interface TokenObjectReader {
	get(resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string | undefined, name: string): KubeObject | undefined;
}

export type TokenAuthentication = { ok: true; user: UserInfo; audiences: string[] } | { ok: false; reason: string };

function fail(reason: string): TokenAuthentication {
	return { ok: false, reason };
}

/** Go's `%q` of a []string: `["a" "b"]`. */
function quoteList(values: readonly string[]): string {
	return `[${values.map((v) => JSON.stringify(v)).join(' ')}]`;
}

function isRef(value: unknown): value is ClaimRef {
	if (value === undefined) return true;
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
	const { name, uid } = value as Record<string, unknown>;
	return (name === undefined || typeof name === 'string') && (uid === undefined || typeof uid === 'string');
}

/** jwt.Audience accepts one string or a list of strings. */
function audiencesOf(value: unknown): string[] | undefined {
	if (value === undefined) return [];
	if (typeof value === 'string') return [value];
	if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
	return undefined;
}

function isNumericDate(value: unknown): value is number | undefined {
	return value === undefined || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * deletionTimestamp before now − leeway: the object is as good as gone
 * (claims.go invalidIfDeletedBefore). Times are RFC 3339 seconds.
 */
function deletedLongAgo(obj: KubeObject, nowSeconds: number, parse: (text: string) => number): boolean {
	const at = obj.metadata.deletionTimestamp;
	if (!at) return false;
	const ms = parse(at);
	return Number.isFinite(ms) && ms / 1000 < nowSeconds - JWT_LEEWAY_SECONDS;
}

/**
 * Authenticates one bearer token at the virtual wall-clock time
 * `nowWallMs`. `parseTime` turns an RFC 3339 timestamp into epoch ms
 * (golang/time.ts parseRfc3339).
 */
export function authenticateServiceAccountToken(token: string, config: TokenAuthenticatorConfig, reader: TokenObjectReader, nowWallMs: number, parseTime: (text: string) => number): TokenAuthentication {
	const jws = parseCompactJws(token);
	// hasCorrectIssuer: not a JWT, or not ours: this authenticator has no opinion, so the bearer token is invalid.
	if (!jws || typeof jws.payload.iss !== 'string' || !config.issuers.includes(jws.payload.iss)) return fail(INVALID_BEARER_TOKEN);
	// jwt.ParseSigned refuses algorithms the key cannot check: again no opinion.
	if (jws.header.alg !== 'RS256') return fail(INVALID_BEARER_TOKEN);
	if (!verifyJws(config.key, jws.signingInput, jws.signature)) return fail('[go-jose/go-jose: error in cryptographic primitive]');
	const claims = jws.payload;
	const tokenAudiences = audiencesOf(claims.aud);
	const { exp, nbf, iat } = claims;
	if (!tokenAudiences || !isNumericDate(exp) || !isNumericDate(nbf) || !isNumericDate(iat) || typeof claims.sub !== 'string') return fail('service account token claims could not be validated due to unexpected validation error');

	// Audiences: a token without any is a legacy token, valid for the API server's own.
	const effective = tokenAudiences.length ? tokenAudiences : config.apiAudiences;
	const audiences = effective.filter((a) => config.apiAudiences.includes(a));
	if (audiences.length === 0 && config.apiAudiences.length) return fail(`token audiences ${quoteList(effective)} is invalid for the target audiences ${quoteList(config.apiAudiences)}`);

	// The validity window, with leeway, in go-jose's order (Claims.ValidateWithLeeway: nbf, exp, iat).
	const now = Math.floor(nowWallMs / 1000);
	if (nbf !== undefined && now + JWT_LEEWAY_SECONDS < nbf) return fail('service account token is not valid yet');
	if (exp !== undefined && now - JWT_LEEWAY_SECONDS > exp) return fail('service account token has expired');
	if (iat !== undefined && now + JWT_LEEWAY_SECONDS < iat) return fail('service account token is issued in the future');

	const kubernetes = claims['kubernetes.io'];
	if (!kubernetes || typeof kubernetes !== 'object' || Array.isArray(kubernetes)) return fail('service account token claims could not be validated due to unexpected validation error');
	const k = kubernetes as Record<string, unknown>;
	const namespace = typeof k.namespace === 'string' ? k.namespace : '';
	if (!isRef(k.serviceaccount) || !isRef(k.pod) || !isRef(k.secret) || !isRef(k.node)) return fail('service account token claims could not be validated due to unexpected validation error');
	const saRef = (k.serviceaccount ?? {}) as ClaimRef;
	const podRef = k.pod as ClaimRef | undefined;
	const secretRef = k.secret as ClaimRef | undefined;
	const nodeRef = k.node as ClaimRef | undefined;

	// The service account must still exist, with the same UID.
	const serviceAccount = reader.get('serviceaccounts', namespace, saRef.name ?? '');
	if (!serviceAccount) return fail(`serviceaccounts "${saRef.name ?? ''}" not found`);
	if ((serviceAccount.metadata.uid ?? '') !== (saRef.uid ?? '')) return fail(`service account UID (${serviceAccount.metadata.uid ?? ''}) does not match claim (${saRef.uid ?? ''})`);
	if (deletedLongAgo(serviceAccount, now, parseTime)) return fail(`service account ${namespace}/${saRef.name} has been deleted`);

	if (secretRef) {
		const secret = reader.get('secrets', namespace, secretRef.name ?? '');
		if (!secret || deletedLongAgo(secret, now, parseTime)) return fail('service account token has been invalidated');
		if ((secretRef.uid ?? '') !== (secret.metadata.uid ?? '')) return fail(`secret UID (${secret.metadata.uid ?? ''}) does not match service account secret ref claim (${secretRef.uid ?? ''})`);
	}
	if (podRef) {
		const pod = reader.get('pods', namespace, podRef.name ?? '');
		if (!pod || deletedLongAgo(pod, now, parseTime)) return fail('service account token has been invalidated');
		if ((podRef.uid ?? '') !== (pod.metadata.uid ?? '')) return fail(`pod UID (${pod.metadata.uid ?? ''}) does not match service account pod ref claim (${podRef.uid ?? ''})`);
	} else if (nodeRef) {
		// A node-bound token (the node of a pod-bound one is information only).
		const node = reader.get('nodes', undefined, nodeRef.name ?? '');
		if (!node || deletedLongAgo(node, now, parseTime)) return fail('service account token has been invalidated');
		if ((nodeRef.uid ?? '') !== (node.metadata.uid ?? '')) return fail(`node UID (${node.metadata.uid ?? ''}) does not match service account node ref claim (${nodeRef.uid ?? ''})`);
	}

	const user = serviceAccountIdentity(namespace, saRef.name ?? '');
	return { ok: true, user: { username: user.username, uid: serviceAccount.metadata.uid, groups: user.groups }, audiences };
}
