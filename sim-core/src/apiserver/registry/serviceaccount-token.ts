/**
 * The `serviceaccounts/<name>/token` subresource: POST a TokenRequest, get
 * it back with `status.token`, a service account token the API server has
 * just signed, and `status.expirationTimestamp`. Nothing is stored.
 *
 * Defaults (k8s.io/api authentication/v1, SetDefaults_TokenRequestSpec):
 * `spec.expirationSeconds` 3600; `spec.audiences` the API server's own
 * (`--api-audiences`, which kube-apiserver defaults to the issuer kubeadm
 * sets: `https://kubernetes.default.svc.cluster.local`). Validation
 * (ValidateTokenRequest): at least 10 minutes, at most 2^32 seconds. A
 * `boundObjectRef` binds the token to a Pod (which must run as that service
 * account; the pod's node is named in the token too), a Secret or a Node:
 * the token dies with the object. A pod-bound request for exactly 3607 s
 * with the API server's audiences (the ServiceAccount admission plugin's
 * projected volume) gets a token that really lives a year and says
 * `warnafter` at 3607 s (--service-account-extend-token-expiration, default
 * true). kubeadm sets no `--service-account-max-token-expiration`.
 *
 * Mirrors pkg/registry/core/serviceaccount/storage/token.go
 * (TokenREST.Create), pkg/apis/authentication/validation/validation.go,
 * pkg/apis/authentication/v1/defaults.go.
 */
import type { KubeObject, ObjectMeta } from '../../api/types.ts';
import * as errors from '../errors.ts';
import type { ApiResponse } from '../../api/request.ts';
import type { ServiceAccountKey } from '../auth/service-account-key.ts';
import { serviceAccountKeyFromSeed } from '../auth/service-account-key.ts';
import { EXPIRATION_EXTENSION_SECONDS, KUBEADM_SERVICE_ACCOUNT_ISSUER, WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS, generateToken, serviceAccountClaims, type ClaimsInput, type ServiceAccountTokenClaims } from '../auth/service-account-token.ts';
import { formatRfc3339 } from '../../golang/time.ts';

const GROUP = 'authentication.k8s.io';
const API_VERSION = `${GROUP}/v1`;
const KIND = 'TokenRequest';

/** TokenRequestSpec defaults: one hour (authentication/v1 SetDefaults_TokenRequestSpec). */
export const DEFAULT_TOKEN_EXPIRATION_SECONDS = 60 * 60;
/** validation.MinTokenAgeSec: ten minutes. */
const MIN_TOKEN_EXPIRATION_SECONDS = 10 * 60;
/** ValidateTokenRequest's upper bound: 1<<32 seconds. */
const MAX_TOKEN_EXPIRATION_SECONDS = 2 ** 32;

/** authentication/v1 BoundObjectReference (fields in Go's order). */
interface BoundObjectReference {
	kind?: string;
	apiVersion?: string;
	name?: string;
	uid?: string;
}

/** authentication/v1 TokenRequest, decoded and defaulted. */
export interface TokenRequest extends KubeObject {
	spec: { audiences: string[]; expirationSeconds: number; boundObjectRef: BoundObjectReference | null };
	status?: { token: string; expirationTimestamp: string };
}

/** How the API server issues tokens (its flags, as kubeadm sets them). */
export interface TokenIssuerConfig {
	key: ServiceAccountKey;
	/** `--service-account-issuer`. */
	issuer: string;
	/** `--api-audiences`. */
	apiAudiences: string[];
	/** `--service-account-extend-token-expiration` (default true). */
	extendExpiration: boolean;
	/** `--service-account-max-token-expiration` in seconds; 0 = none (kubeadm sets none). */
	maxExpirationSeconds: number;
}

/**
 * The issuer's settings from what the wiring gives, with kube-apiserver's
 * defaults as kubeadm leaves them: kubeadm's issuer, `--api-audiences`
 * defaulting to the issuer, extension on, no maximum, and the key derived
 * from the cluster seed (kubeadm's sa.key).
 */
export function resolveTokenIssuerConfig(given: Partial<TokenIssuerConfig> | undefined, seed: number): TokenIssuerConfig {
	const issuer = given?.issuer ?? KUBEADM_SERVICE_ACCOUNT_ISSUER;
	return {
		key: given?.key ?? serviceAccountKeyFromSeed(seed),
		issuer,
		apiAudiences: given?.apiAudiences ?? [issuer],
		extendExpiration: given?.extendExpiration ?? true,
		maxExpirationSeconds: given?.maxExpirationSeconds ?? 0,
	};
}

/** A trace line for an issued token: whose, for which audiences, how long, bound to what. */
export function describeIssuedToken(claims: ServiceAccountTokenClaims): string {
	const bound = claims['kubernetes.io'];
	const to = bound.pod ? `, bound to pod ${bound.pod.name}` : bound.secret ? `, bound to secret ${bound.secret.name}` : bound.node ? `, bound to node ${bound.node.name}` : '';
	return `signed a token for ${claims.sub} (audiences ${claims.aud.join(', ')}; expires in ${claims.exp - claims.iat} s${to})`;
}

/** What one TokenRequest may read and call. */
interface TokenRequestContext {
	/** The service account's namespace and name, from the URL. */
	namespace: string;
	name: string;
	/** Virtual wall clock, epoch ms. */
	nowWallMs: number;
	/** Reads an object from the API server's cache. */
	get(resource: 'serviceaccounts' | 'pods' | 'secrets' | 'nodes', namespace: string | undefined, name: string): KubeObject | undefined;
	config: TokenIssuerConfig;
	/** A fresh random UUID for `jti` (the API server's seeded stream). */
	newJti(): string;
	/** Validating admission (createValidation), run after static validation; an error response refuses. */
	validatingAdmission?(request: TokenRequest): ApiResponse | undefined;
}

/** What the registry gives back: the response, and for the trace what was issued. */
interface TokenRequestOutcome {
	response: ApiResponse;
	claims?: ServiceAccountTokenClaims;
	warnings?: string[];
}

const KNOWN = {
	top: ['apiVersion', 'kind', 'metadata', 'spec', 'status'],
	spec: ['audiences', 'expirationSeconds', 'boundObjectRef'],
	ref: ['kind', 'apiVersion', 'name', 'uid'],
	status: ['token', 'expirationTimestamp'],
};

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function cannotHandle(detail: string): ApiResponse {
	return errors.badRequest(`${KIND} in version "v1" cannot be handled as a ${KIND}: ${detail}`);
}

/**
 * Decodes a TokenRequest body with strict field validation (unknown fields
 * are an error unless `fieldValidation` says otherwise) and applies the
 * defaults.
 */
export function decodeTokenRequest(body: unknown, fieldValidation: 'Strict' | 'Warn' | 'Ignore' = 'Strict'): { request: TokenRequest; warnings: string[] } | { error: ApiResponse } {
	if (!isObject(body)) return { error: errors.badRequest('the body of the request was in an unknown format') };
	const apiVersion = body.apiVersion ?? API_VERSION;
	if (apiVersion !== API_VERSION) return { error: errors.badRequest(`the API version in the data (${String(apiVersion)}) does not match the expected API version (${API_VERSION})`) };
	if ((body.kind ?? KIND) !== KIND) return { error: cannotHandle(`no kind "${String(body.kind)}" is registered for version "${API_VERSION}"`) };
	const unknown: string[] = [];
	const collect = (value: Record<string, unknown>, known: string[], path: string) => {
		for (const key of Object.keys(value)) if (!known.includes(key)) unknown.push(`unknown field "${path}${key}"`);
	};
	collect(body, KNOWN.top, '');
	const metadata = body.metadata === undefined ? {} : body.metadata;
	if (!isObject(metadata)) return { error: cannotHandle('json: cannot unmarshal into Go struct field TokenRequest.metadata of type v1.ObjectMeta') };
	const spec = body.spec === undefined || body.spec === null ? {} : body.spec;
	if (!isObject(spec)) return { error: cannotHandle('json: cannot unmarshal into Go struct field TokenRequest.spec of type v1.TokenRequestSpec') };
	collect(spec, KNOWN.spec, 'spec.');
	if (isObject(body.status)) collect(body.status, KNOWN.status, 'status.');
	const audiences = spec.audiences ?? [];
	if (!Array.isArray(audiences) || !audiences.every((a) => typeof a === 'string')) return { error: cannotHandle('json: cannot unmarshal into Go struct field TokenRequestSpec.spec.audiences of type []string') };
	const expiration = spec.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS;
	if (typeof expiration !== 'number' || !Number.isInteger(expiration)) return { error: cannotHandle(`json: cannot unmarshal ${typeof expiration === 'number' ? 'number' : typeof expiration} into Go struct field TokenRequestSpec.spec.expirationSeconds of type int64`) };
	let boundObjectRef: BoundObjectReference | null = null;
	if (spec.boundObjectRef !== undefined && spec.boundObjectRef !== null) {
		const ref = spec.boundObjectRef;
		if (!isObject(ref) || !KNOWN.ref.every((k) => ref[k] === undefined || typeof ref[k] === 'string')) return { error: cannotHandle('json: cannot unmarshal into Go struct field TokenRequestSpec.spec.boundObjectRef of type v1.BoundObjectReference') };
		collect(ref, KNOWN.ref, 'spec.boundObjectRef.');
		boundObjectRef = {};
		for (const key of KNOWN.ref) if (typeof ref[key] === 'string' && ref[key]) (boundObjectRef as Record<string, string>)[key] = ref[key] as string;
	}
	if (unknown.length && fieldValidation === 'Strict') return { error: cannotHandle(`strict decoding error: ${unknown.join(', ')}`) };
	const request: TokenRequest = {
		kind: KIND,
		apiVersion: API_VERSION,
		metadata: { ...(metadata as ObjectMeta) },
		spec: { audiences: [...(audiences as string[])], expirationSeconds: expiration, boundObjectRef },
	};
	return { request, warnings: fieldValidation === 'Warn' ? unknown : [] };
}

/** ObjectMeta in Go's field order, with the fields a TokenRequest response carries. */
function responseMeta(meta: ObjectMeta): ObjectMeta {
	const out: ObjectMeta = {};
	if (meta.name) out.name = meta.name;
	if (meta.namespace) out.namespace = meta.namespace;
	if (meta.uid) out.uid = meta.uid;
	if (meta.creationTimestamp) out.creationTimestamp = meta.creationTimestamp;
	return out;
}

/** schema.FromAPIVersionAndKind(...).String(): `/v1, Kind=ConfigMap`. */
function gvkString(ref: BoundObjectReference): string {
	const [group, version] = (ref.apiVersion ?? '').includes('/') ? (ref.apiVersion ?? '').split('/', 2) : ['', ref.apiVersion ?? ''];
	return `${group}/${version}, Kind=${ref.kind ?? ''}`;
}

function refGroup(ref: BoundObjectReference): string {
	const apiVersion = ref.apiVersion ?? '';
	return apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
}

/** TokenREST.Create. */
export function createTokenRequest(ctx: TokenRequestContext, req: TokenRequest): TokenRequestOutcome {
	const { name, namespace, config } = ctx;
	const meta = req.metadata;
	// The body's name and namespace, if given, must be the URL's.
	if (meta.name && meta.name !== name) return { response: errors.invalid(KIND, name, [{ field: 'metadata.name', type: 'FieldValueInvalid', value: meta.name, detail: 'must match the service account name if specified' }], GROUP) };
	if (meta.namespace && meta.namespace !== namespace) return { response: errors.invalid(KIND, name, [{ field: 'metadata.namespace', type: 'FieldValueInvalid', value: meta.namespace, detail: 'must match the service account namespace if specified' }], GROUP) };

	const serviceAccount = ctx.get('serviceaccounts', namespace, name);
	if (!serviceAccount) return { response: errors.notFound('serviceaccounts', name, '', 'serviceaccounts') };
	const saUid = serviceAccount.metadata.uid ?? '';
	// TokenRequestServiceAccountUIDValidation (beta, on since v1.34): a request for another incarnation of the account.
	if (meta.uid && meta.uid !== saUid) return { response: errors.conflict(`${KIND}.${GROUP}`, name, `the UID in the token request (${meta.uid}) does not match the UID of the service account (${saUid})`) };

	if (req.spec.audiences.length === 0) req.spec.audiences = [...config.apiAudiences];
	const nowWallMs = ctx.nowWallMs;
	req.metadata = { name, namespace, uid: saUid, creationTimestamp: formatRfc3339(nowWallMs) };
	delete req.status;

	const expirationSeconds = req.spec.expirationSeconds;
	const fieldErrors: errors.FieldError[] = [];
	if (expirationSeconds < MIN_TOKEN_EXPIRATION_SECONDS) fieldErrors.push({ field: 'spec.expirationSeconds', type: 'FieldValueInvalid', value: expirationSeconds, detail: 'may not specify a duration less than 10 minutes' });
	if (expirationSeconds > MAX_TOKEN_EXPIRATION_SECONDS) fieldErrors.push({ field: 'spec.expirationSeconds', type: 'FieldValueInvalid', value: expirationSeconds, detail: 'may not specify a duration larger than 2^32 seconds' });
	// NewInvalid with an empty name, as TokenREST does: `TokenRequest.authentication.k8s.io "" is invalid`.
	if (fieldErrors.length) return { response: errors.invalid(KIND, '', fieldErrors, GROUP) };
	const refused = ctx.validatingAdmission?.(req);
	if (refused) return { response: refused };

	const claimsInput: ClaimsInput = {
		issuer: config.issuer,
		serviceAccount: { namespace, name, uid: saUid },
		audiences: req.spec.audiences,
		expirationSeconds,
		nowWallMs,
		jti: '',
	};
	const ref = req.spec.boundObjectRef;
	if (ref) {
		const kind = ref.kind ?? '';
		const refName = ref.name ?? '';
		let uid = '';
		if (refGroup(ref) === '' && kind === 'Pod') {
			const pod = ctx.get('pods', namespace, refName);
			if (!pod) return { response: errors.notFound('pods', refName, '', 'pods') };
			if ((pod.spec as { serviceAccountName?: string } | undefined)?.serviceAccountName !== name) return { response: errors.badRequest(`cannot bind token for serviceaccount "${name}" to pod running with different serviceaccount name.`) };
			uid = pod.metadata.uid ?? '';
			claimsInput.pod = { name: refName, uid };
			const nodeName = (pod.spec as { nodeName?: string } | undefined)?.nodeName;
			if (nodeName) {
				// A node that does not exist (any more) is still named, without a UID.
				const node = ctx.get('nodes', undefined, nodeName);
				claimsInput.podNode = { name: nodeName, uid: node?.metadata.uid };
			}
		} else if (refGroup(ref) === '' && kind === 'Node') {
			const node = ctx.get('nodes', undefined, refName);
			if (!node) return { response: errors.notFound('nodes', refName, '', 'nodes') };
			uid = node.metadata.uid ?? '';
			claimsInput.node = { name: refName, uid };
		} else if (refGroup(ref) === '' && kind === 'Secret') {
			const secret = ctx.get('secrets', namespace, refName);
			if (!secret) return { response: errors.notFound('secrets', refName, '', 'secrets') };
			uid = secret.metadata.uid ?? '';
			claimsInput.secret = { name: refName, uid };
		} else {
			return { response: errors.badRequest(`cannot bind token to object of type ${gvkString(ref)}`) };
		}
		// NewConflict with the kind as the resource: `Operation cannot be fulfilled on Pod "web-1": ...`.
		if (ref.uid && ref.uid !== uid) return { response: errors.conflict(kind, refName, `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`) };
	}

	const warnings: string[] = [];
	if (config.maxExpirationSeconds > 0 && req.spec.expirationSeconds > config.maxExpirationSeconds) {
		warnings.push(`requested expiration of ${req.spec.expirationSeconds} seconds shortened to ${config.maxExpirationSeconds} seconds`);
		req.spec.expirationSeconds = config.maxExpirationSeconds;
	}
	// The safe rollout of bound tokens: the admission plugin's 3607 s becomes a year, with a warning time.
	let exp = req.spec.expirationSeconds;
	const kubeAudiences = req.spec.audiences.every((a) => config.apiAudiences.includes(a));
	if (config.extendExpiration && claimsInput.pod && exp === WARN_ONLY_BOUND_TOKEN_EXPIRATION_SECONDS && kubeAudiences) {
		claimsInput.warnAfterSeconds = exp;
		exp = EXPIRATION_EXTENSION_SECONDS;
	}
	claimsInput.expirationSeconds = exp;
	claimsInput.jti = ctx.newJti();
	const claims = serviceAccountClaims(claimsInput);
	const token = generateToken(config.key, claims);
	// expirationTimestamp is now + the requested lifetime (not the extended one), whole seconds as metav1.Time.
	const expirationTimestamp = formatRfc3339(Math.floor(nowWallMs / 1000) * 1000 + req.spec.expirationSeconds * 1000);
	const body: TokenRequest = {
		kind: KIND,
		apiVersion: API_VERSION,
		metadata: responseMeta(req.metadata),
		spec: { audiences: req.spec.audiences, expirationSeconds: req.spec.expirationSeconds, boundObjectRef: ref ? orderedRef(ref) : null },
		status: { token, expirationTimestamp },
	};
	const response: ApiResponse = { code: 201, body };
	if (warnings.length) response.warnings = warnings;
	return { response, claims, warnings };
}

function orderedRef(ref: BoundObjectReference): BoundObjectReference {
	const out: BoundObjectReference = {};
	if (ref.kind) out.kind = ref.kind;
	if (ref.apiVersion) out.apiVersion = ref.apiVersion;
	if (ref.name) out.name = ref.name;
	if (ref.uid) out.uid = ref.uid;
	return out;
}
