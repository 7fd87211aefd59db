/**
 * The RBAC strategies: Roles, ClusterRoles, RoleBindings and
 * ClusterRoleBindings. Defaults fill `apiGroup` of role references and
 * User/Group subjects; validation checks rules, subject kinds and the role
 * reference, which can never change.
 *
 * Mirrors pkg/registry/rbac/role/strategy.go,
 * pkg/registry/rbac/clusterrole/strategy.go,
 * pkg/registry/rbac/rolebinding/strategy.go,
 * pkg/registry/rbac/clusterrolebinding/strategy.go,
 * pkg/apis/rbac/v1/defaults.go, pkg/apis/rbac/validation/validation.go.
 */
import type { KubeObject } from '../../api/types.ts';
import type { Strategy } from './strategy.ts';
import { asArray, asRecord, child, index, invalid, jsonStringSlice, notSupported, required, type FieldError } from './field.ts';
import { compactJson } from '../../golang/json.ts';
import { metaErrors, nameIsDNSSubdomain, nameIsValidPathSegment, validateObjectMetaUpdate } from './objectmeta.ts';

type Json = Record<string, unknown>;

/** rbac.GroupName. */
export const RBAC_GROUP = 'rbac.authorization.k8s.io';

/** ValidatePolicyRule. */
function validatePolicyRule(rule: Json, namespaced: boolean, path: string): FieldError[] {
	const errs: FieldError[] = [];
	if (asArray(rule.verbs).length === 0) errs.push(required(child(path, 'verbs'), 'verbs must contain at least one value'));
	const urls = asArray<string>(rule.nonResourceURLs);
	if (urls.length > 0) {
		const rendered = jsonStringSlice(urls);
		if (namespaced) errs.push(invalid(child(path, 'nonResourceURLs'), urls, 'namespaced rules cannot apply to non-resource URLs', rendered));
		if (asArray(rule.apiGroups).length || asArray(rule.resources).length || asArray(rule.resourceNames).length) {
			errs.push(invalid(child(path, 'nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs', rendered));
		}
		return errs;
	}
	if (asArray(rule.apiGroups).length === 0) errs.push(required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
	if (asArray(rule.resources).length === 0) errs.push(required(child(path, 'resources'), 'resource rules must supply at least one resource'));
	return errs;
}

function validateRole(obj: KubeObject, namespaced: boolean): FieldError[] {
	const errs = metaErrors(obj, namespaced, nameIsValidPathSegment);
	asArray<Json>(obj.rules).forEach((r, i) => errs.push(...validatePolicyRule(r ?? {}, namespaced, index('rules', i))));
	return errs;
}

/** ValidateRoleBindingSubject. */
function validateSubject(subject: Json, namespaced: boolean, path: string): FieldError[] {
	const errs: FieldError[] = [];
	const name = String(subject.name ?? '');
	const apiGroup = String(subject.apiGroup ?? '');
	if (!name) errs.push(required(child(path, 'name')));
	switch (subject.kind) {
		case 'ServiceAccount':
			if (name) for (const m of nameIsDNSSubdomain(name, false)) errs.push(invalid(child(path, 'name'), name, m));
			if (apiGroup) errs.push(notSupported(child(path, 'apiGroup'), apiGroup, ['']));
			if (!namespaced && !subject.namespace) errs.push(required(child(path, 'namespace')));
			break;
		case 'User':
		case 'Group':
			if (apiGroup !== RBAC_GROUP) errs.push(notSupported(child(path, 'apiGroup'), apiGroup, [RBAC_GROUP]));
			break;
		default:
			errs.push(notSupported(child(path, 'kind'), subject.kind ?? '', ['ServiceAccount', 'User', 'Group']));
	}
	return errs;
}

/** The internal rbac.RoleRef as json.Marshal writes it in the "cannot change roleRef" error (no json tags: Go's field names). */
function roleRefJson(ref: Json): string {
	return `{"APIGroup":${compactJson(String(ref.apiGroup ?? ''))},"Kind":${compactJson(String(ref.kind ?? ''))},"Name":${compactJson(String(ref.name ?? ''))}}`;
}

function validateBinding(obj: KubeObject, namespaced: boolean): FieldError[] {
	const errs = metaErrors(obj, namespaced, nameIsValidPathSegment);
	const ref = asRecord(obj.roleRef) ?? {};
	const apiGroup = String(ref.apiGroup ?? '');
	if (apiGroup !== RBAC_GROUP) errs.push(notSupported('roleRef.apiGroup', apiGroup, [RBAC_GROUP]));
	const kind = String(ref.kind ?? '');
	const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
	if (!kinds.includes(kind)) errs.push(notSupported('roleRef.kind', kind, kinds));
	const name = String(ref.name ?? '');
	if (!name) errs.push(required('roleRef.name'));
	else for (const m of nameIsValidPathSegment(name, false)) errs.push(invalid('roleRef.name', name, m));
	asArray<Json>(obj.subjects).forEach((s, i) => errs.push(...validateSubject(s ?? {}, namespaced, index('subjects', i))));
	return errs;
}

/** SetDefaults_RoleBinding / SetDefaults_Subject. */
function defaultBinding(obj: KubeObject): void {
	const ref = asRecord(obj.roleRef);
	if (ref && !ref.apiGroup) ref.apiGroup = RBAC_GROUP;
	for (const s of asArray<Json>(obj.subjects)) {
		if (!s || s.apiGroup) continue;
		if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = RBAC_GROUP;
		// A service account's group is the core one, "": Subject.APIGroup is omitempty, so it is not stored.
		if (s.kind === 'ServiceAccount') delete s.apiGroup;
	}
}

function roleStrategy(namespaced: boolean): Strategy {
	return {
		validate: (obj) => validateRole(obj, namespaced),
		validateUpdate: (obj, old) => [...validateRole(obj, namespaced), ...validateObjectMetaUpdate(obj.metadata, old.metadata)],
	};
}

function bindingStrategy(namespaced: boolean): Strategy {
	return {
		defaults: defaultBinding,
		validate: (obj) => validateBinding(obj, namespaced),
		validateUpdate(obj, old) {
			const errs = [...validateBinding(obj, namespaced), ...validateObjectMetaUpdate(obj.metadata, old.metadata)];
			const ref = asRecord(obj.roleRef) ?? {};
			const oldRef = asRecord(old.roleRef) ?? {};
			if (ref.apiGroup !== oldRef.apiGroup || ref.kind !== oldRef.kind || ref.name !== oldRef.name) {
				errs.push(invalid('roleRef', ref, 'cannot change roleRef', roleRefJson(ref)));
			}
			return errs;
		},
	};
}

export const roleStrategyNamespaced = roleStrategy(true);
export const clusterRoleStrategy = roleStrategy(false);
export const roleBindingStrategy = bindingStrategy(true);
export const clusterRoleBindingStrategy = bindingStrategy(false);
