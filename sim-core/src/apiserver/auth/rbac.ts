/**
 * The RBAC authorizer (`--authorization-mode=...,RBAC`): a request is
 * allowed when some rule reaches the user through a binding. Cluster-wide
 * grants come from ClusterRoleBindings; grants in a namespace come from
 * that namespace's RoleBindings, which may reference a Role of the same
 * namespace or a ClusterRole (whose rules then apply in that namespace
 * only). RBAC never denies: without a matching rule it has no opinion, and
 * the request is forbidden only if no other authorizer allows it.
 *
 * Aggregation: upstream, the clusterrole-aggregation controller writes the
 * union of the selected roles' rules into an aggregated ClusterRole, and
 * the authorizer reads those stored rules. The simulation runs no such
 * controller, so the union is computed here at evaluation time, over the
 * same selection in the same order; the result equals the state the
 * controller converges to (it overwrites the stored rules of any role with
 * an aggregationRule), minus the controller's short delay.
 *
 * Mirrors plugin/pkg/auth/authorizer/rbac/rbac.go,
 * pkg/registry/rbac/validation/rule.go (the rule resolver and the wording of
 * its sources), pkg/apis/rbac/v1/evaluation_helpers.go (rule matching),
 * pkg/controller/clusterroleaggregation/clusterroleaggregation_controller.go
 * (aggregated ClusterRoles).
 */
import type { PolicyRule, Role, RoleBinding, Subject } from '../../api/types.ts';
import { compareGoStrings, goQuote } from '../../golang/json.ts';
import { labelSelectorFromObject, matches, type Selector } from '../../api/labels.ts';
import type { UserInfo } from '../../api/request.ts';
import type { AuthorizationAttributes, AuthorizationDecision, Authorizer, AuthorizerReader, SubjectRules } from './authorizer.ts';

/** rbac.GroupName. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** How deep aggregated roles may nest (admin ← edit ← view is 3); a bound, not an upstream number. */
const MAX_AGGREGATION_DEPTH = 16;

// ---- rule matching (evaluation_helpers.go) -----------------------------------

/** VerbMatches: `*` or the verb itself. */
function verbMatches(rule: PolicyRule, verb: string): boolean {
	return rule.verbs.some((v) => v === '*' || v === verb);
}

/** APIGroupMatches: `*` or the group itself ('' is the core group). */
function apiGroupMatches(rule: PolicyRule, group: string): boolean {
	return (rule.apiGroups ?? []).some((g) => g === '*' || g === group);
}

/**
 * ResourceMatches: `*`, the exact `resource` or `resource/subresource`, or
 * `*\/subresource` for any resource's subresource of that name. `pods`
 * does not cover `pods/log`, and there is no `pods/*`.
 */
export function resourceMatches(rule: PolicyRule, combinedResource: string, subresource: string): boolean {
	for (const r of rule.resources ?? []) {
		if (r === '*' || r === combinedResource) return true;
		if (subresource && r === `*/${subresource}`) return true;
	}
	return false;
}

/** ResourceNameMatches: a rule without resourceNames covers every name (and requests without a name, such as list and create). */
function resourceNameMatches(rule: PolicyRule, name: string): boolean {
	const names = rule.resourceNames ?? [];
	return names.length === 0 || names.includes(name);
}

/** NonResourceURLMatches: `*`, the exact path, or a prefix ending in `*` (`/healthz/*`, `/apis*`). */
function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
	for (const u of rule.nonResourceURLs ?? []) {
		if (u === '*' || u === path) return true;
		if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
	}
	return false;
}

/** RuleAllows: whether one rule covers the request. */
export function ruleAllows(a: AuthorizationAttributes, rule: PolicyRule): boolean {
	if (a.resourceRequest) {
		const subresource = a.subresource ?? '';
		const combined = subresource ? `${a.resource}/${subresource}` : a.resource;
		return verbMatches(rule, a.verb) && apiGroupMatches(rule, a.group) && resourceMatches(rule, combined, subresource) && resourceNameMatches(rule, a.name ?? '');
	}
	return verbMatches(rule, a.verb) && nonResourceURLMatches(rule, a.path ?? '');
}

/** RulesAllow: whether any of the rules covers the request. */
export function rulesAllow(a: AuthorizationAttributes, rules: readonly PolicyRule[]): boolean {
	return rules.some((rule) => ruleAllows(a, rule));
}

// ---- subjects (rule.go appliesToUser) -------------------------------------------

/** serviceaccount.MakeUsername: `system:serviceaccount:<namespace>:<name>`. */
export function serviceAccountUsername(namespace: string, name: string): string {
	return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * appliesToUser: a User subject matches the username, a Group subject one
 * of the groups, a ServiceAccount subject the service account's username;
 * a ServiceAccount subject without a namespace takes the binding's.
 */
export function appliesToUser(user: UserInfo, subject: Subject, bindingNamespace: string): boolean {
	switch (subject.kind) {
		case 'User':
			return user.username === subject.name;
		case 'Group':
			return user.groups.includes(subject.name);
		case 'ServiceAccount': {
			const namespace = subject.namespace || bindingNamespace;
			return namespace !== '' && user.username === serviceAccountUsername(namespace, subject.name);
		}
		default:
			return false;
	}
}

/** describeSubject: `User "jane"`, `Group "system:masters"`, `ServiceAccount "name/namespace"` (sic: name first). */
function describeSubject(subject: Subject, bindingNamespace: string): string {
	if (subject.kind === 'ServiceAccount') return `${subject.kind} ${goQuote(`${subject.name}/${subject.namespace || bindingNamespace}`)}`;
	return `${subject.kind} ${goQuote(subject.name)}`;
}

/** Where a rule came from: a binding and the first of its subjects that matched the user. */
interface RuleSource {
	binding: RoleBinding;
	subject: Subject;
}

/**
 * The describer's String(): `ClusterRoleBinding "x" of ClusterRole "y" to
 * Group "z"` or `RoleBinding "x/ns" of Role "y" to ServiceAccount "sa/ns"`.
 */
function describeSource(source: RuleSource): string {
	const b = source.binding;
	const ref = `${b.roleRef.kind} ${goQuote(b.roleRef.name)}`;
	if (b.kind === 'ClusterRoleBinding') return `ClusterRoleBinding ${goQuote(b.metadata.name ?? '')} of ${ref} to ${describeSubject(source.subject, '')}`;
	const ns = b.metadata.namespace ?? '';
	return `RoleBinding ${goQuote(`${b.metadata.name ?? ''}/${ns}`)} of ${ref} to ${describeSubject(source.subject, ns)}`;
}

// ---- roles and aggregation ------------------------------------------------------

function listClusterRoles(reader: AuthorizerReader): Role[] {
	return reader.list(RBAC_GROUP, 'clusterroles') as Role[];
}

/** The selectors of an aggregationRule; undefined when one is invalid (the controller then gives up on the role). */
function aggregationSelectors(role: Role): Selector[] | undefined {
	const selectors: Selector[] = [];
	for (const s of role.aggregationRule?.clusterRoleSelectors ?? []) {
		try {
			selectors.push(labelSelectorFromObject(s));
		} catch {
			return undefined;
		}
	}
	return selectors;
}

function byName(a: Role, b: Role): number {
	return compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? '');
}

/** ruleExists: equality of two rules field by field (equality.Semantic.DeepEqual; an absent list equals an empty one). */
function sameRule(a: PolicyRule, b: PolicyRule): boolean {
	const same = (x: readonly string[] = [], y: readonly string[] = []) => x.length === y.length && x.every((v, i) => v === y[i]);
	return same(a.verbs, b.verbs) && same(a.apiGroups, b.apiGroups) && same(a.resources, b.resources) && same(a.resourceNames, b.resourceNames) && same(a.nonResourceURLs, b.nonResourceURLs);
}

/**
 * The rules the clusterrole-aggregation controller writes into an
 * aggregated ClusterRole (syncClusterRole): for each selector in order, the
 * matching ClusterRoles sorted by name (never the role itself), their rules
 * appended unless an equal rule is already there. Matched roles that are
 * themselves aggregated contribute their own aggregated rules, as they
 * would once the controller had synced them. `rulesOf` supplies those.
 */
export function aggregatedRules(role: Role, clusterRoles: readonly Role[], rulesOf: (matched: Role) => readonly PolicyRule[] = (r) => r.rules ?? []): PolicyRule[] {
	const selectors = aggregationSelectors(role);
	if (!selectors) return [...(role.rules ?? [])];
	const out: PolicyRule[] = [];
	for (const selector of selectors) {
		const selected = clusterRoles.filter((r) => r.metadata.name !== role.metadata.name && matches(selector, r.metadata.labels)).sort(byName);
		for (const matched of selected) {
			for (const r of rulesOf(matched)) if (!out.some((existing) => sameRule(existing, r))) out.push(r);
		}
	}
	return out;
}

/** The rules a ClusterRole grants: its own, or for an aggregated role the union of the roles it selects (recursively, bounded). */
export function effectiveClusterRoleRules(role: Role, clusterRoles: readonly Role[]): PolicyRule[] {
	const visit = (r: Role, depth: number, path: readonly string[]): readonly PolicyRule[] => {
		if (!r.aggregationRule || depth >= MAX_AGGREGATION_DEPTH || path.includes(r.metadata.name ?? '')) return r.rules ?? [];
		const next = [...path, r.metadata.name ?? ''];
		return aggregatedRules(r, clusterRoles, (matched) => visit(matched, depth + 1, next));
	};
	return [...visit(role, 0, [])];
}

/** The lister's NotFound for a role: `clusterrole.rbac.authorization.k8s.io "x" not found`. */
function notFound(resource: 'role' | 'clusterrole', name: string): string {
	return `${resource}.${RBAC_GROUP} ${goQuote(name)} not found`;
}

/** GetRoleReferenceRules: the rules of a binding's role, or why they cannot be read. */
function roleReferenceRules(reader: AuthorizerReader, roleRef: RoleBinding['roleRef'], bindingNamespace: string): { rules: PolicyRule[] } | { error: string } {
	switch (roleRef.kind) {
		case 'Role': {
			const role = bindingNamespace ? (reader.get(RBAC_GROUP, 'roles', bindingNamespace, roleRef.name) as Role | undefined) : undefined;
			return role ? { rules: [...(role.rules ?? [])] } : { error: notFound('role', roleRef.name) };
		}
		case 'ClusterRole': {
			const role = reader.get(RBAC_GROUP, 'clusterroles', undefined, roleRef.name) as Role | undefined;
			if (!role) return { error: notFound('clusterrole', roleRef.name) };
			return { rules: role.aggregationRule ? effectiveClusterRoleRules(role, listClusterRoles(reader)) : [...(role.rules ?? [])] };
		}
		default:
			return { error: `unsupported role reference kind: ${goQuote(String(roleRef.kind))}` };
	}
}

// ---- the rule resolver (rule.go VisitRulesFor) -----------------------------------

/** Called with each rule that applies to the user (and its source), or with an error; returning false stops the walk. */
type RuleVisitor = (source: RuleSource | undefined, rule: PolicyRule | undefined, error: string | undefined) => boolean;

/**
 * VisitRulesFor: every rule of every ClusterRoleBinding naming the user,
 * then, when a namespace is given, of every RoleBinding in it naming the
 * user. A binding whose role is missing yields an error and the walk goes
 * on: rules only ever add permissions.
 */
function visitRulesFor(user: UserInfo, namespace: string, reader: AuthorizerReader, visitor: RuleVisitor): void {
	const walk = (bindings: RoleBinding[], bindingNamespace: string): boolean => {
		for (const binding of bindings) {
			const subject = (binding.subjects ?? []).find((s) => appliesToUser(user, s, bindingNamespace));
			if (!subject) continue;
			const resolved = roleReferenceRules(reader, binding.roleRef, bindingNamespace);
			if ('error' in resolved) {
				if (!visitor(undefined, undefined, resolved.error)) return false;
				continue;
			}
			const source = { binding, subject };
			for (const rule of resolved.rules) if (!visitor(source, rule, undefined)) return false;
		}
		return true;
	};
	if (!walk(reader.list(RBAC_GROUP, 'clusterrolebindings') as RoleBinding[], '')) return;
	if (namespace) walk(reader.list(RBAC_GROUP, 'rolebindings', namespace) as RoleBinding[], namespace);
}

/** utilerrors.NewAggregate(...).Error(): one message bare, several in brackets, duplicates once. */
function aggregateErrors(errors: readonly string[]): string {
	const unique = [...new Set(errors)];
	return unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`;
}

/** Go's %q of a []string: `["a" "b"]`. */
function quoteList(values: readonly string[]): string {
	return `[${values.map(goQuote).join(' ')}]`;
}

/**
 * The line the API server logs at -v=5 when RBAC finds no rule:
 * `RBAC: no rules authorize user "jane" with groups ["system:authenticated"]
 * to "list" resource "pods" in namespace "default"`. Not part of the 403.
 */
export function rbacDenialLog(a: AuthorizationAttributes): string {
	let operation: string;
	if (a.resourceRequest) {
		const group = a.group ? `.${a.group}` : '';
		const sub = a.subresource ? `/${a.subresource}` : '';
		const named = a.name ? ` named ${goQuote(a.name)}` : '';
		operation = `${goQuote(a.verb)} resource ${goQuote(`${a.resource}${group}${sub}`)}${named}`;
	} else {
		operation = `${goQuote(a.verb)} nonResourceURL ${goQuote(a.path ?? '')}`;
	}
	const scope = a.namespace ? `in namespace ${goQuote(a.namespace)}` : 'cluster-wide';
	return `RBAC: no rules authorize user ${goQuote(a.user.username)} with groups ${quoteList(a.user.groups)} to ${operation} ${scope}`;
}

/**
 * RBACAuthorizer.Authorize. Allowed: reason `RBAC: allowed by <source>`.
 * Otherwise no opinion, with reason `RBAC: <errors>` only when a binding's
 * role could not be read (it ends up after the 403 message), and the -v=5
 * log line for the server's trace.
 */
export function authorizeRbac(a: AuthorizationAttributes, reader: AuthorizerReader): AuthorizationDecision {
	let allowedBy: RuleSource | undefined;
	const errors: string[] = [];
	visitRulesFor(a.user, a.namespace ?? '', reader, (source, rule, error) => {
		if (source && rule && ruleAllows(a, rule)) {
			allowedBy = source;
			return false;
		}
		if (error) errors.push(error);
		return true;
	});
	if (allowedBy) return { allowed: true, reason: `RBAC: allowed by ${describeSource(allowedBy)}` };
	return { allowed: false, reason: errors.length ? `RBAC: ${aggregateErrors(errors)}` : '', log: rbacDenialLog(a) };
}

/**
 * RBACAuthorizer.RulesFor (SelfSubjectRulesReview, `kubectl auth can-i
 * --list`): every applicable rule, resource rules and non-resource rules
 * apart; never incomplete; unreadable roles reported as the evaluation error.
 */
export function rbacSubjectRules(user: UserInfo, namespace: string, reader: AuthorizerReader): SubjectRules {
	const out: SubjectRules = { resourceRules: [], nonResourceRules: [], incomplete: false };
	const errors: string[] = [];
	visitRulesFor(user, namespace, reader, (_source, rule, error) => {
		if (rule?.resources?.length) {
			const r: SubjectRules['resourceRules'][number] = { verbs: [...rule.verbs] };
			if (rule.apiGroups) r.apiGroups = [...rule.apiGroups];
			r.resources = [...rule.resources];
			if (rule.resourceNames?.length) r.resourceNames = [...rule.resourceNames];
			out.resourceRules.push(r);
		}
		if (rule?.nonResourceURLs?.length) out.nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
		if (error) errors.push(error);
		return true;
	});
	if (errors.length) out.evaluationError = aggregateErrors(errors);
	return out;
}

/** `--authorization-mode=RBAC`. */
export const rbacAuthorizer: Authorizer = {
	name: 'RBAC',
	authorize: authorizeRbac,
	rulesFor: rbacSubjectRules,
};
