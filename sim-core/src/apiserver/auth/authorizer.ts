/**
 * Authorization: may this user do this verb on this resource? The API server
 * asks a chain of authorizers (kubeadm configures `Node,RBAC`); the first to
 * allow wins, as with `--authorization-mode=Node,RBAC`.
 *
 * Mirrors
 * staging/src/k8s.io/apiserver/pkg/authorization/authorizer/interfaces.go.
 */
import type { KubeObject } from '../../api/types.ts';
import type { UserInfo } from '../../api/request.ts';

/** The question asked of an authorizer (authorizer.Attributes). */
export interface AuthorizationAttributes {
	user: UserInfo;
	/** get, list, watch, create, update, patch, delete, deletecollection, or a custom verb (bind, escalate, impersonate, use). */
	verb: string;
	/** True for requests to an API resource; false for non-resource paths like /healthz. */
	resourceRequest: boolean;
	group: string;
	version?: string;
	resource: string;
	subresource?: string;
	namespace?: string;
	name?: string;
	/** For non-resource requests, e.g. '/healthz'. */
	path?: string;
	/** The request's field selector, e.g. `spec.nodeName=node-1` (the Node authorizer lets a kubelet list only its own pods). */
	fieldSelector?: string;
	/** The request's label selector. */
	labelSelector?: string;
}

export interface AuthorizationDecision {
	allowed: boolean;
	/** Why (shown in `kubectl auth can-i` with -v and in audit). */
	reason: string;
	/** What the authorizer writes to the API server's log, not to the client (RBAC's -v=5 denial line). */
	log?: string;
}

/** Read access to the objects an authorizer consults (RBAC roles and bindings, pods for the Node authorizer). */
export interface AuthorizerReader {
	list(group: string, resource: string, namespace?: string): KubeObject[];
	get(group: string, resource: string, namespace: string | undefined, name: string): KubeObject | undefined;
	/** Objects by a watch-cache index (`spec.nodeName` for pods); undefined where there is no such index. */
	byIndex?(group: string, resource: string, index: string, value: string, namespace?: string): KubeObject[] | undefined;
}

/** What a user may do in a namespace, as `kubectl auth can-i --list` shows it (authorizer.RuleResolver). */
export interface SubjectRules {
	resourceRules: Array<{ verbs: string[]; apiGroups?: string[]; resources?: string[]; resourceNames?: string[] }>;
	nonResourceRules: Array<{ verbs: string[]; nonResourceURLs?: string[] }>;
	/** True when the authorizer cannot enumerate everything the user may do. */
	incomplete: boolean;
	evaluationError?: string;
}

export interface Authorizer {
	name: string;
	authorize(attributes: AuthorizationAttributes, reader: AuthorizerReader): AuthorizationDecision | 'no-opinion';
	/** Enumerates the user's rules in a namespace (authorizer.RuleResolver.RulesFor), for SelfSubjectRulesReview. */
	rulesFor?(user: UserInfo, namespace: string, reader: AuthorizerReader): SubjectRules;
}

/** The `... cannot list resource "pods" in API group "" in the namespace "default"` sentence of a 403. */
export function forbiddenReason(a: AuthorizationAttributes): string {
	if (!a.resourceRequest) return `User "${a.user.username}" cannot ${a.verb} path "${a.path}"`;
	const resource = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
	const scope = a.namespace ? `in the namespace "${a.namespace}"` : 'at the cluster scope';
	return `User "${a.user.username}" cannot ${a.verb} resource "${resource}" in API group "${a.group}" ${scope}`;
}
