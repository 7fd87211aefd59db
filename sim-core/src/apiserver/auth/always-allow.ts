/**
 * `--authorization-mode=AlwaysAllow`: every request is allowed. Upstream
 * keeps it for tests and throwaway clusters; the default cluster here uses
 * Node,RBAC like kubeadm.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go
 * (alwaysAllowAuthorizer).
 */
import type { Authorizer } from './authorizer.ts';

export const alwaysAllow: Authorizer = {
	name: 'AlwaysAllow',
	authorize: () => ({ allowed: true, reason: 'AlwaysAllow' }),
	// Everything, as alwaysAllowAuthorizer.RulesFor answers (apiserver pkg/authorization/authorizerfactory/builtin.go).
	rulesFor: () => ({ resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }], incomplete: false }),
};
