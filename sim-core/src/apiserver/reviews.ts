/**
 * The review resources: questions put to the API server's authorizers and
 * authenticator, answered at once and never stored.
 *
 * - SelfSubjectAccessReview (`kubectl auth can-i VERB RESOURCE`): may I?
 * - SubjectAccessReview / LocalSubjectAccessReview: may this user?
 * - SelfSubjectRulesReview (`kubectl auth can-i --list`): what may I do here?
 * - SelfSubjectReview (`kubectl auth whoami`): who am I?
 * - TokenReview: whose is this bearer token (a webhook authenticator's question)?
 *
 * Mirrors pkg/registry/authorization/selfsubjectaccessreview/rest.go,
 * pkg/registry/authorization/subjectaccessreview/rest.go,
 * pkg/registry/authorization/localsubjectaccessreview/rest.go,
 * pkg/registry/authorization/selfsubjectrulesreview/rest.go,
 * pkg/registry/authentication/selfsubjectreview/rest.go,
 * pkg/registry/authentication/tokenreview/storage.go,
 * pkg/registry/rbac/validation/rule.go (VisitRulesFor).
 */
import type { KubeObject, PolicyRule, RoleBinding, Subject } from '../api/types.ts';
import type { ResourceInfo } from '../api/resources.ts';
import type { AuthorizationAttributes, Authorizer, AuthorizerReader, SubjectRules } from './auth/authorizer.ts';
import type { ApiRequest, ApiResponse, UserInfo } from '../api/request.ts';
import * as errors from './errors.ts';

const AUTHORIZATION = 'authorization.k8s.io';
const AUTHENTICATION = 'authentication.k8s.io';
const RBAC = 'rbac.authorization.k8s.io';

/** What a TokenReview needs of the API server: its token authenticator and its `--api-audiences`. */
export interface TokenReviewer {
	authenticate(token: string): UserInfo | undefined;
	readonly apiAudiences: readonly string[];
}

/** Whether a resource is one of the reviews served here. */
export function isReviewResource(info: Pick<ResourceInfo, 'group' | 'resource'>): boolean {
	return (info.group === AUTHORIZATION && /subjectaccessreviews$|selfsubjectrulesreviews$/.test(info.resource)) || (info.group === AUTHENTICATION && (info.resource === 'selfsubjectreviews' || info.resource === 'tokenreviews'));
}

/** spec.resourceAttributes of an access review (authorizationv1.ResourceAttributes). */
interface ResourceAttributes {
	namespace?: string;
	verb?: string;
	group?: string;
	version?: string;
	resource?: string;
	subresource?: string;
	name?: string;
}

interface AccessReviewSpec {
	resourceAttributes?: ResourceAttributes | null;
	nonResourceAttributes?: { path?: string; verb?: string } | null;
	user?: string;
	groups?: string[];
	uid?: string;
}

/** The union authorizer's answer: the first to allow wins; reasons of the others are joined. */
export function decide(authorizers: readonly Authorizer[], attributes: AuthorizationAttributes, reader: AuthorizerReader): { allowed: boolean; reason: string } {
	const reasons: string[] = [];
	for (const authorizer of authorizers) {
		const decision = authorizer.authorize(attributes, reader);
		if (decision === 'no-opinion') continue;
		if (decision.allowed) return { allowed: true, reason: decision.reason };
		if (decision.reason) reasons.push(decision.reason);
	}
	return { allowed: false, reason: reasons.join('\n') };
}

/** The user a subject matches (rbac/validation appliesToUser). */
function appliesTo(user: UserInfo, subject: Subject, namespace: string): boolean {
	switch (subject.kind) {
		case 'User':
			return user.username === subject.name;
		case 'Group':
			return user.groups.includes(subject.name);
		case 'ServiceAccount': {
			const ns = subject.namespace || namespace;
			return !!ns && user.username === `system:serviceaccount:${ns}:${subject.name}`;
		}
		default:
			return false;
	}
}

/** The rules a role reference grants, or nothing if the role is missing. */
function rulesOfRole(reader: AuthorizerReader, roleRef: RoleBinding['roleRef'], namespace: string | undefined): PolicyRule[] {
	const role = roleRef.kind === 'ClusterRole' ? reader.get(RBAC, 'clusterroles', undefined, roleRef.name) : reader.get(RBAC, 'roles', namespace, roleRef.name);
	return ((role as KubeObject & { rules?: PolicyRule[] } | undefined)?.rules ?? []) as PolicyRule[];
}

/**
 * What RBAC grants a user in a namespace: the rules of every
 * ClusterRoleBinding that names them, then of every RoleBinding in the
 * namespace (rbac/validation/rule.go VisitRulesFor, rbac.go RulesFor).
 */
export function rbacRulesFor(user: UserInfo, namespace: string, reader: AuthorizerReader): SubjectRules {
	const rules: PolicyRule[] = [];
	for (const binding of reader.list(RBAC, 'clusterrolebindings') as RoleBinding[]) {
		if ((binding.subjects ?? []).some((s) => appliesTo(user, s, ''))) rules.push(...rulesOfRole(reader, binding.roleRef, undefined));
	}
	if (namespace) {
		for (const binding of reader.list(RBAC, 'rolebindings', namespace) as RoleBinding[]) {
			if ((binding.subjects ?? []).some((s) => appliesTo(user, s, namespace))) rules.push(...rulesOfRole(reader, binding.roleRef, namespace));
		}
	}
	const out: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
	for (const rule of rules) {
		if (rule.resources?.length) out.resourceRules.push(dropEmpty({ verbs: [...rule.verbs], apiGroups: rule.apiGroups && [...rule.apiGroups], resources: [...rule.resources], resourceNames: rule.resourceNames && [...rule.resourceNames] }));
		if (rule.nonResourceURLs?.length) out.nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
	}
	return out;
}

function dropEmpty<T extends object>(value: T): T {
	for (const key of Object.keys(value) as Array<keyof T>) if (value[key] === undefined) delete value[key];
	return value;
}

/** The union of every authorizer's rules (union.go RulesFor). */
function rulesFor(authorizers: readonly Authorizer[], user: UserInfo, namespace: string, reader: AuthorizerReader): SubjectRules {
	const out: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
	const evaluationErrors: string[] = [];
	for (const authorizer of authorizers) {
		const rules = authorizer.rulesFor ? authorizer.rulesFor(user, namespace, reader) : authorizer.name === 'RBAC' ? rbacRulesFor(user, namespace, reader) : undefined;
		if (!rules) continue;
		out.resourceRules.push(...rules.resourceRules);
		out.nonResourceRules.push(...rules.nonResourceRules);
		if (rules.incomplete) out.incomplete = true;
		if (rules.evaluationError) evaluationErrors.push(rules.evaluationError);
	}
	if (evaluationErrors.length) out.evaluationError = evaluationErrors.length === 1 ? evaluationErrors[0] : `[${evaluationErrors.join(', ')}]`;
	return out;
}

function reviewResponse(body: KubeObject, info: ResourceInfo, status: Record<string, unknown>): ApiResponse {
	const metadata = { ...(body.metadata ?? {}) };
	return { code: 201, body: { ...body, apiVersion: `${info.group}/${info.version}`, kind: info.kind, metadata, status } };
}

/**
 * Answers one POST to a review resource for `user`. `now` is unused by the
 * answers themselves but kept for symmetry with stored resources.
 */
export function serveReview(
	request: ApiRequest,
	info: ResourceInfo,
	user: UserInfo,
	authorizers: readonly Authorizer[],
	reader: AuthorizerReader,
	now: string,
	tokens: TokenReviewer = { authenticate: () => undefined, apiAudiences: [] },
): ApiResponse {
	void now;
	const body = request.body;
	if (!body || typeof body !== 'object' || Array.isArray(body)) return errors.badRequest('the body of the request was in an unknown format');
	const review = body as KubeObject & { spec?: AccessReviewSpec & { namespace?: string; token?: string; audiences?: string[] } };
	review.metadata ??= {};
	if (info.resource === 'tokenreviews') {
		// The token is authenticated as a request's bearer token would be; the answer names its user.
		const token = review.spec?.token ?? '';
		if (!token) return errors.badRequest('token is required for TokenReview in authentication');
		// Tokens are checked against the API server's own audiences (`--api-audiences`); asked for others, a
		// token is authenticated only for those of them that are the server's.
		const audiences = review.spec?.audiences?.length ? review.spec.audiences.filter((a) => tokens.apiAudiences.includes(a)) : [...tokens.apiAudiences];
		const who = audiences.length ? tokens.authenticate(token) : undefined;
		if (!who) return reviewResponse(review, info, { user: {} });
		const userInfo: Record<string, unknown> = { username: who.username };
		if (who.uid) userInfo.uid = who.uid;
		if (who.groups.length) userInfo.groups = [...who.groups];
		return reviewResponse(review, info, { authenticated: true, user: userInfo, audiences });
	}
	if (info.group === AUTHENTICATION) {
		// SelfSubjectReview: the caller's identity, as authentication saw it.
		const userInfo: Record<string, unknown> = { username: user.username };
		if (user.uid) userInfo.uid = user.uid;
		if (user.groups.length) userInfo.groups = [...user.groups];
		return reviewResponse(review, info, { userInfo });
	}
	const spec = review.spec ?? {};
	if (info.resource === 'selfsubjectrulesreviews') {
		if (!spec.namespace) return errors.badRequest('no namespace on request');
		const rules = rulesFor(authorizers, user, spec.namespace, reader);
		const status: Record<string, unknown> = { resourceRules: rules.resourceRules, nonResourceRules: rules.nonResourceRules, incomplete: rules.incomplete };
		if (rules.evaluationError) status.evaluationError = rules.evaluationError;
		return reviewResponse(review, info, status);
	}
	// Access reviews: exactly one of resourceAttributes and nonResourceAttributes (authorization/validation).
	if (spec.resourceAttributes && spec.nonResourceAttributes) {
		return errors.invalid(info.kind, '', [{ field: 'spec.nonResourceAttributes', type: 'FieldValueInvalid', value: spec.nonResourceAttributes, rendered: '{}', detail: 'cannot be specified in combination with resourceAttributes' }], info.group);
	}
	if (!spec.resourceAttributes && !spec.nonResourceAttributes) {
		return errors.invalid(info.kind, '', [{ field: 'spec.resourceAttributes', type: 'FieldValueInvalid', rendered: 'null', detail: 'exactly one of nonResourceAttributes or resourceAttributes must be specified' }], info.group);
	}
	let subject = user;
	if (info.resource === 'subjectaccessreviews' || info.resource === 'localsubjectaccessreviews') {
		if (!spec.user && !(spec.groups ?? []).length) return errors.invalid(info.kind, '', [{ field: 'spec.user', type: 'FieldValueInvalid', value: '', detail: 'at least one of user or group must be specified' }], info.group);
		subject = { username: spec.user ?? '', groups: [...(spec.groups ?? [])] };
		if (spec.uid) subject.uid = spec.uid;
	}
	if (info.resource === 'localsubjectaccessreviews' && spec.resourceAttributes && spec.resourceAttributes.namespace !== request.namespace) {
		return errors.badRequest(`spec.resourceAttributes.namespace must match namespace: ${request.namespace}`);
	}
	const ra = spec.resourceAttributes;
	const attributes: AuthorizationAttributes = ra
		? { user: subject, verb: ra.verb ?? '', resourceRequest: true, group: ra.group ?? '', version: ra.version, resource: ra.resource ?? '', subresource: ra.subresource || undefined, namespace: ra.namespace || undefined, name: ra.name || undefined }
		: { user: subject, verb: spec.nonResourceAttributes?.verb ?? '', resourceRequest: false, group: '', resource: '', path: spec.nonResourceAttributes?.path ?? '' };
	const decision = decide(authorizers, attributes, reader);
	const status: Record<string, unknown> = { allowed: decision.allowed };
	if (decision.reason) status.reason = decision.reason;
	return reviewResponse(review, info, status);
}
