/**
 * The impersonation filter (`kubectl --as`, `--as-group`): the caller needs
 * the `impersonate` verb on the user (or on the service account, for a
 * `system:serviceaccount:` name) and on each group; the request then runs
 * as that user, with the groups a service account or any authenticated
 * user has added.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/impersonation/impersonation.go
 * (WithImpersonation).
 */
import type { ApiResponse } from '../../../api/request.ts';
import type { AuthorizationAttributes } from '../../auth/authorizer.ts';
import type { ApiServerContext, Caller } from '../../config.ts';
import * as errors from '../../errors.ts';
import { authorize } from './authorization.ts';

/** The caller as the user it impersonates, or a 403 when it may not. */
export function impersonate(server: ApiServerContext, target: { user: string; groups?: string[] }, caller: Caller): Caller | ApiResponse {
	const checks: AuthorizationAttributes[] = [{ user: caller.user, verb: 'impersonate', resourceRequest: true, group: '', resource: target.user.startsWith('system:serviceaccount:') ? 'serviceaccounts' : 'users', name: target.user.startsWith('system:serviceaccount:') ? target.user.split(':')[3] : target.user, namespace: target.user.startsWith('system:serviceaccount:') ? target.user.split(':')[2] : undefined }];
	for (const group of target.groups ?? []) checks.push({ user: caller.user, verb: 'impersonate', resourceRequest: true, group: '', resource: 'groups', name: group });
	for (const check of checks) {
		const denied = authorize(server, check);
		if (denied) return errors.forbidden(check.resource, check.name, denied);
	}
	const groups = [...(target.groups ?? [])];
	if (target.user.startsWith('system:serviceaccount:')) groups.push('system:serviceaccounts', `system:serviceaccounts:${target.user.split(':')[2]}`);
	if (!groups.includes('system:authenticated')) groups.push('system:authenticated');
	server.emit({ action: 'authenticate', msg: `${caller.user.username} impersonates ${target.user}` });
	return { process: caller.process, user: { username: target.user, groups } };
}
