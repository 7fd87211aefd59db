/**
 * The API server's authorization chain, as `--authorization-mode` builds it,
 * behind the `system:masters` short-cut every kube-apiserver puts first
 * (./privileged-groups.ts). kubeadm configures
 * `--authorization-mode=Node,RBAC`.
 *
 * Mirrors pkg/kubeapiserver/authorizer/config.go.
 */
import { alwaysAllow } from './always-allow.ts';
import type { Authorizer } from './authorizer.ts';
import { nodeAuthorizer } from './node.ts';
import { privilegedGroups, SYSTEM_PRIVILEGED_GROUP } from './privileged-groups.ts';
import { rbacAuthorizer } from './rbac.ts';

type AuthorizationMode = 'Node,RBAC' | 'AlwaysAllow';

/** The authorizers, asked in order; the first to allow wins, and a request none allows is forbidden. */
export function defaultAuthorizers(mode: AuthorizationMode): Authorizer[] {
	const masters = privilegedGroups(SYSTEM_PRIVILEGED_GROUP);
	return mode === 'AlwaysAllow' ? [masters, alwaysAllow] : [masters, nodeAuthorizer, rbacAuthorizer];
}

export { alwaysAllow } from './always-allow.ts';
export { forbiddenReason } from './authorizer.ts';
export type { AuthorizationAttributes, AuthorizationDecision, Authorizer, AuthorizerReader, SubjectRules } from './authorizer.ts';
export { nodeAuthorizer, nodeIdentity } from './node.ts';
export { rbacAuthorizer, ruleAllows, appliesToUser, effectiveClusterRoleRules, aggregatedRules, rbacDenialLog } from './rbac.ts';
export { privilegedGroups } from './privileged-groups.ts';
export { bootstrapPolicyObjects, kubeadmRbacObjects, nodeRules } from './bootstrap-policy.ts';
export { identityOf, controllerIdentity, controllerServiceAccount, serviceAccountIdentity, nodeIdentityOf, KUBERNETES_ADMIN } from './identities.ts';
export { authorizationName } from './request-info.ts';
export { authenticateRequest, ANONYMOUS_USER, type RequestAuthentication } from './authentication.ts';
export { authenticateServiceAccountToken, INVALID_BEARER_TOKEN, JWT_LEEWAY_SECONDS, type TokenAuthentication, type TokenAuthenticatorConfig, type TokenObjectReader } from './token-authenticator.ts';
export { serviceAccountKeyFromSeed, signJws, verifyJws, type ServiceAccountKey } from './service-account-key.ts';
export { generateToken, serviceAccountClaims, KUBEADM_SERVICE_ACCOUNT_ISSUER, type ServiceAccountTokenClaims } from './service-account-token.ts';
