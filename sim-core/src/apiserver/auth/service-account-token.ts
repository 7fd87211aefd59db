/**
 * The claims of a service account token and the token itself, as the API
 * server issues them for a TokenRequest.
 *
 * Public claims: `iss` (kubeadm's --service-account-issuer), `sub`
 * (`system:serviceaccount:<ns>:<name>`), `aud`, `iat` = `nbf` = now, `exp`,
 * and `jti` (a random UUID, ServiceAccountTokenJTI, GA since v1.32). The
 * private claim `kubernetes.io` names the namespace, the service account
 * and the object the token is bound to (a pod, with the pod's node since
 * ServiceAccountTokenPodNodeInfo went GA in v1.32; a secret; or a node),
 * and `warnafter` for the admission plugin's extended 3607 s tokens.
 * go-jose merges the claim sets into one JSON object whose keys are
 * sorted, at every level, so a real token's payload reads `aud, exp, iat,
 * iss, jti, kubernetes.io, nbf, sub`; the header is `{"alg":"RS256","kid":…}`.
 *
 * Mirrors pkg/serviceaccount/claims.go (Claims), pkg/serviceaccount/jwt.go
 * (GenerateToken).
 */
import { base64UrlEncodeText } from './jwt.ts';
import { signJws, type ServiceAccountKey } from './service-account-key.ts';
import { serviceAccountUsername } from './rbac.ts';

/** kubeadm's `--service-account-issuer` (cmd/kubeadm/app/phases/controlplane/manifests.go: `https://kubernetes.default.svc.` + the cluster DNS domain `cluster.local`). */
export const KUBEADM_SERVICE_ACCOUNT_ISSUER = 'https://kubernetes.default.svc.cluster.local';

/** serviceaccount.WarnOnlyBoundTokenExpirationSeconds (claims.go): 1 h 7 s, what the ServiceAccount admission plugin asks for. */
export const WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS = 60 * 60 + 7;
/** serviceaccount.ExpirationExtensionSeconds (claims.go): such a token really lives a year (--service-account-extend-token-expiration, default true). */
export const EXPIRATION_EXTENSION_SECONDS = 24 * 365 * 60 * 60;

/** A `{name, uid}` reference in the private claims; both fields are omitempty upstream. */
export interface ClaimRef {
	name?: string;
	uid?: string;
}

/** The `kubernetes.io` private claim (claims.go `kubernetes`), keys in the order go-jose prints them. */
interface KubernetesClaim {
	namespace: string;
	node?: ClaimRef;
	pod?: ClaimRef;
	secret?: ClaimRef;
	serviceaccount: ClaimRef;
	/** Seconds since the epoch. */
	warnafter?: number;
}

/** The whole payload (times in seconds since the epoch, jwt.NumericDate). */
export interface ServiceAccountTokenClaims {
	aud: string[];
	exp: number;
	iat: number;
	iss: string;
	jti: string;
	'kubernetes.io': KubernetesClaim;
	nbf: number;
	sub: string;
}

/** What a token is issued for. */
export interface ClaimsInput {
	issuer: string;
	serviceAccount: { namespace: string; name: string; uid: string };
	/** The bound object, at most one of pod (with its node, if known), secret or node. */
	pod?: { name: string; uid: string };
	podNode?: { name: string; uid?: string };
	secret?: { name: string; uid: string };
	node?: { name: string; uid: string };
	audiences: string[];
	/** Lifetime written into `exp`. */
	expirationSeconds: number;
	/** When set (the extended default token), `warnafter` = now + this. */
	warnAfterSeconds?: number;
	/** Virtual wall clock, epoch ms; the claims keep whole seconds (NumericDate truncates). */
	nowWallMs: number;
	jti: string;
}

function ref(name: string, uid: string | undefined): ClaimRef {
	return uid ? { name, uid } : { name };
}

/** claims.go Claims: the public and private claims of one token, merged. */
export function serviceAccountClaims(input: ClaimsInput): ServiceAccountTokenClaims {
	const now = Math.floor(input.nowWallMs / 1000);
	const sa = ref(input.serviceAccount.name, input.serviceAccount.uid);
	// Built in go-jose's sorted key order: namespace, node, pod, secret, serviceaccount, warnafter.
	let node: ClaimRef | undefined;
	let pod: ClaimRef | undefined;
	let secret: ClaimRef | undefined;
	if (input.pod) {
		pod = ref(input.pod.name, input.pod.uid);
		// A pod-bound token also names the pod's node (ServiceAccountTokenPodNodeInfo).
		if (input.podNode) node = ref(input.podNode.name, input.podNode.uid);
	} else if (input.secret) secret = ref(input.secret.name, input.secret.uid);
	else if (input.node) node = ref(input.node.name, input.node.uid);
	const ordered: KubernetesClaim = {
		namespace: input.serviceAccount.namespace,
		...(node ? { node } : {}),
		...(pod ? { pod } : {}),
		...(secret ? { secret } : {}),
		serviceaccount: sa,
		...(input.warnAfterSeconds ? { warnafter: now + input.warnAfterSeconds } : {}),
	};
	return {
		aud: [...input.audiences],
		exp: now + input.expirationSeconds,
		iat: now,
		iss: input.issuer,
		jti: input.jti,
		'kubernetes.io': ordered,
		nbf: now,
		sub: serviceAccountUsername(input.serviceAccount.namespace, input.serviceAccount.name),
	};
}

/**
 * JSON as Go's encoding/json writes it: HTML-sensitive characters escaped.
 * Key order is the object's own (the claims are built sorted).
 */
export function goJson(value: unknown): string {
	return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** jwt.go GenerateToken: the signed compact JWT. */
export function generateToken(key: ServiceAccountKey, claims: ServiceAccountTokenClaims): string {
	const signingInput = `${base64UrlEncodeText(goJson({ alg: 'RS256', kid: key.keyId }))}.${base64UrlEncodeText(goJson(claims))}`;
	return `${signingInput}.${signJws(key, signingInput)}`;
}
