/**
 * The authorizer the API server puts in front of every configured mode:
 * members of `system:masters` may do anything, whatever RBAC says. Upstream
 * adds it when it wires the loopback client (AuthorizeClientBearerToken
 * wraps the configured authorizer in a union that asks this one first),
 * which is why a `system:masters` certificate cannot be locked out and why
 * kubeadm (v1.29+) gives admin.conf the group `kubeadm:cluster-admins`,
 * bound to cluster-admin through RBAC, instead.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/authorization/authorizerfactory/builtin.go
 * (privilegedGroupAuthorizer),
 * staging/src/k8s.io/apiserver/pkg/server/config.go
 * (AuthorizeClientBearerToken).
 */
import type { Authorizer } from './authorizer.ts';

/** user.SystemPrivilegedGroup. */
export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';

/** NewPrivilegedGroups(groups...): allow (with an empty reason, as upstream) when the user is in one of the groups. */
export function privilegedGroups(...groups: string[]): Authorizer {
	return {
		name: 'PrivilegedGroups',
		authorize: (a) => (a.user.groups.some((g) => groups.includes(g)) ? { allowed: true, reason: '' } : 'no-opinion'),
	};
}
