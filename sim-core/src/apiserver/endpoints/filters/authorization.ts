/**
 * The authorization filter: asks the authorizers in order (kubeadm's
 * `--authorization-mode=Node,RBAC`); the first to allow wins and is traced
 * with its reason; when none does, the reasons of those that denied follow
 * the 403 sentence, and what they log (RBAC's denial line) goes only to
 * the trace.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/endpoints/filters/authorization.go
 * (WithAuthorization),
 * staging/src/k8s.io/apiserver/pkg/authorization/union/union.go,
 * staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go
 * (Forbidden).
 */
import type { AuthorizationAttributes } from '../../auth/authorizer.ts';
import { forbiddenReason } from '../../auth/authorizer.ts';
import type { ApiServerContext } from '../../config.ts';

/** Undefined when the request is allowed, else why it is forbidden. */
export function authorize(server: ApiServerContext, a: AuthorizationAttributes): string | undefined {
	const reasons: string[] = [];
	const logs: string[] = [];
	for (const authorizer of server.deps.authorizers) {
		const decision = authorizer.authorize(a, server.reader);
		if (decision === 'no-opinion') continue;
		if (decision.allowed) {
			server.emit({ action: 'authorize', msg: `${authorizer.name} allowed ${a.user.username} to ${a.verb} ${a.resource}${a.subresource ? '/' + a.subresource : ''}: ${decision.reason}` });
			return undefined;
		}
		if (decision.reason) reasons.push(decision.reason);
		if (decision.log) logs.push(decision.log);
	}
	// The union's reasons follow the sentence, as responsewriters.Forbidden writes it (`...: no relationship found between node 'n1' and this object`).
	const why = reasons.length ? `${forbiddenReason(a)}: ${reasons.join('\n')}` : forbiddenReason(a);
	server.emit({ action: 'authorize', msg: `denied: ${[why, ...logs].join('; ')}` });
	return why;
}
