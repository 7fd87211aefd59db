/**
 * `kubectl auth reconcile -f FILE`: makes the cluster's Roles,
 * ClusterRoles, RoleBindings and ClusterRoleBindings grant at least what
 * the file's do. A missing one is created (with its namespace); an
 * existing role gains the rules it does not cover yet, broken down to one
 * verb, group, resource and name each, and a binding the subjects it lacks;
 * a binding whose roleRef differs is deleted and created again. With
 * --remove-extra-permissions / --remove-extra-subjects the file's lists
 * replace the cluster's. Each object prints `KIND/NAME reconciled`; what
 * was needed goes to stderr in Go's %+v of the rules and subjects. Other
 * kinds in the file are skipped.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/auth/reconcile.go,
 * pkg/registry/rbac/reconciliation/reconcile_role.go,
 * pkg/registry/rbac/reconciliation/reconcile_rolebindings.go,
 * pkg/registry/rbac/validation/policy_comparator.go (Covers, BreakdownRule).
 */
import type { KubeObject } from '../../api/types.ts';
import { R, refOf, type ResourceRef } from '../../client/client.ts';
import { deepCopy, jsonEqual, type JsonValue } from '../../golang/json.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import type { CommandResult } from '../../shell/types.ts';
import { callError, checkErr, plain } from './check-err.ts';
import { DRY_RUN_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter } from './print-flags.ts';
import { visit } from './visit.ts';

interface Rule {
	verbs?: string[];
	apiGroups?: string[];
	resources?: string[];
	resourceNames?: string[];
	nonResourceURLs?: string[];
}

interface Subject {
	kind: string;
	apiGroup?: string;
	name: string;
	namespace?: string;
}

const RBAC = 'rbac.authorization.k8s.io';

export const RECONCILE_FLAGS: FlagSpec[] = [
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
	{ name: 'remove-extra-permissions', kind: 'bool' },
	{ name: 'remove-extra-subjects', kind: 'bool' },
	...PRINT_FLAGS,
	DRY_RUN_FLAG,
];

/** BreakdownRule: one rule per group × resource × verb (× name), and per non-resource URL × verb. */
function breakdown(rule: Rule): Rule[] {
	const out: Rule[] = [];
	for (const group of rule.apiGroups ?? [])
		for (const resource of rule.resources ?? [])
			for (const verb of rule.verbs ?? []) {
				if (rule.resourceNames?.length) for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
				else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
			}
	for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
	return out;
}

const hasAll = (values: readonly string[] | undefined, wanted: readonly string[] | undefined) => (wanted ?? []).every((w) => (values ?? []).includes('*') || (values ?? []).includes(w));

/** ruleCovers: an owner rule that grants all of one broken-down rule. */
function covers(owner: Rule, sub: Rule): boolean {
	if (!hasAll(owner.verbs, sub.verbs)) return false;
	if (sub.nonResourceURLs?.length) {
		return (sub.nonResourceURLs ?? []).every((url) => (owner.nonResourceURLs ?? []).some((o) => o === '*' || o === url || (o.endsWith('*') && url.startsWith(o.slice(0, -1)))));
	}
	if (!hasAll(owner.apiGroups, sub.apiGroups)) return false;
	const resourceOk = (sub.resources ?? []).every((r) => (owner.resources ?? []).some((o) => o === '*' || o === r || (o.startsWith('*/') && r.endsWith(o.slice(1)))));
	if (!resourceOk) return false;
	return !(owner.resourceNames ?? []).length || hasAll(owner.resourceNames, sub.resourceNames);
}

/** Covers: the broken-down rules of `servant` that no rule of `owner` grants. */
function uncovered(owner: readonly Rule[], servant: readonly Rule[]): Rule[] {
	return servant.flatMap(breakdown).filter((sub) => !owner.some((o) => covers(o, sub)));
}

/** Go's %v of a []string: `[a b]`, an empty string printing as nothing. */
const goSlice = (values: readonly string[] | undefined) => `[${(values ?? []).join(' ')}]`;
const ruleText = (r: Rule) => `{Verbs:${goSlice(r.verbs)} APIGroups:${goSlice(r.apiGroups)} Resources:${goSlice(r.resources)} ResourceNames:${goSlice(r.resourceNames)} NonResourceURLs:${goSlice(r.nonResourceURLs)}}`;
const subjectText = (s: Subject) => `{Kind:${s.kind} APIGroup:${s.apiGroup ?? ''} Name:${s.name} Namespace:${s.namespace ?? ''}}`;

/** SetDefaults_Subject, as the decoder applies it to the file's objects. */
function defaultSubject(s: Subject): Subject {
	if (s.apiGroup) return s;
	return s.kind === 'User' || s.kind === 'Group' ? { ...s, apiGroup: RBAC } : s;
}
const sameSubject = (a: Subject, b: Subject) => a.kind === b.kind && (a.apiGroup ?? '') === (b.apiGroup ?? '') && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '');

/** merge(expected, existing): the later map wins. */
function mergeMaps(expected: Record<string, string> | undefined, existing: Record<string, string> | undefined): Record<string, string> | undefined {
	if (!expected && !existing) return undefined;
	return { ...expected, ...existing };
}

type Operation = 'none' | 'create' | 'update' | 'recreate';

export function runReconcile(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	if (dry.strategy === 'server') return checkErr(plain('--dry-run=server for command reconcile is not supported yet'), '', dry.stderr);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	if (((args.flags.filename as string[] | undefined) ?? []).length === 0 && !args.flags.kustomize) return checkErr(plain('must specify one of -f and -k'), '', dry.stderr);
	const read = visit(inv, { allowEmptySelector: false, requireObject: false });
	if (read.usage) return { stdout: '', stderr: dry.stderr + read.usage, exitCode: 1 };
	if (read.fatal) return checkErr(read.fatal, '', dry.stderr);
	const confirm = dry.strategy !== 'client';
	const removeRules = args.flags['remove-extra-permissions'] === true;
	const removeSubjects = args.flags['remove-extra-subjects'] === true;
	let stdout = '';
	let stderr = dry.stderr;
	for (const target of read.targets) {
		const expected = deepCopy(target.object as KubeObject) as KubeObject & { rules?: Rule[]; subjects?: Subject[]; roleRef?: Record<string, string> };
		const kind = expected.kind;
		if (!['Role', 'ClusterRole', 'RoleBinding', 'ClusterRoleBinding'].includes(kind)) continue;
		if (expected.apiVersion !== `${RBAC}/v1`) return checkErr(plain(`only rbac.authorization.k8s.io/v1 is supported: not *${expected.apiVersion?.split('/')[1] ?? ''}.${kind}`), stdout, stderr);
		const ref = refOf(target.info);
		const namespace = target.namespace;
		if (namespace) expected.metadata.namespace = namespace;
		const isRole = kind === 'Role' || kind === 'ClusterRole';
		if (!isRole) {
			expected.subjects = (expected.subjects ?? []).map(defaultSubject);
			if (expected.roleRef && !expected.roleRef.apiGroup) expected.roleRef.apiGroup = RBAC;
		}
		const got = inv.client.get(ref, namespace, target.name);
		if (!got.ok && (got.transport || got.code !== 404)) return checkErr(callError(got, inv.env.serverUrl), stdout, stderr);
		const existing = got.ok ? (got.object as typeof expected) : undefined;
		let operation: Operation = 'none';
		let result: typeof expected = expected;
		let missingRules: Rule[] = [];
		let missingSubjects: Subject[] = [];
		let extraRules: Rule[] = [];
		let extraSubjects: Subject[] = [];
		const protectedObject = existing?.metadata.annotations?.['rbac.authorization.kubernetes.io/autoupdate'] === 'false';
		if (!existing) {
			operation = 'create';
			missingRules = isRole ? (expected.rules ?? []) : [];
			missingSubjects = isRole ? [] : (expected.subjects ?? []);
		} else if (!isRole && !jsonEqual((existing.roleRef ?? {}) as JsonValue, (expected.roleRef ?? {}) as JsonValue)) {
			operation = 'recreate';
		} else {
			result = deepCopy(existing);
			result.metadata.annotations = mergeMaps(expected.metadata.annotations, existing.metadata.annotations);
			result.metadata.labels = mergeMaps(expected.metadata.labels, existing.metadata.labels);
			if (!jsonEqual((result.metadata.annotations ?? null) as JsonValue, (existing.metadata.annotations ?? null) as JsonValue) || !jsonEqual((result.metadata.labels ?? null) as JsonValue, (existing.metadata.labels ?? null) as JsonValue)) operation = 'update';
			if (isRole) {
				extraRules = uncovered(expected.rules ?? [], existing.rules ?? []);
				missingRules = uncovered(existing.rules ?? [], expected.rules ?? []);
				if (!removeRules && missingRules.length) {
					result.rules = [...(existing.rules ?? []), ...missingRules];
					operation = 'update';
				} else if (removeRules && (missingRules.length || extraRules.length)) {
					result.rules = expected.rules ?? [];
					operation = 'update';
				}
			} else {
				missingSubjects = (expected.subjects ?? []).filter((s) => !(existing.subjects ?? []).some((e) => sameSubject(s, e)));
				extraSubjects = (existing.subjects ?? []).filter((s) => !(expected.subjects ?? []).some((e) => sameSubject(s, e)));
				if (!removeSubjects && missingSubjects.length) {
					result.subjects = [...(existing.subjects ?? []), ...missingSubjects];
					operation = 'update';
				} else if (removeSubjects && (missingSubjects.length || extraSubjects.length)) {
					result.subjects = expected.subjects ?? [];
					operation = 'update';
				}
			}
		}
		if (confirm && !protectedObject && operation !== 'none') {
			const written = writeReconciled(inv, ref, namespace, result, operation, kind);
			if ('error' in written) return checkErr(written.error, stdout, stderr);
			result = written.object as typeof expected;
		}
		stdout += printer.printer({ ...result, apiVersion: `${RBAC}/v1`, kind }, 'reconciled');
		if (operation === 'none') continue;
		const caveat = protectedObject ? ', but object opted out (rbac.authorization.kubernetes.io/autoupdate: false)' : '';
		stderr += `\treconciliation required ${operation}${caveat}\n`;
		if (missingSubjects.length) stderr += `\tmissing subjects added:\n${missingSubjects.map((s) => `\t\t${subjectText(s)}\n`).join('')}`;
		if (removeSubjects && extraSubjects.length) stderr += `\textra subjects removed:\n${extraSubjects.map((s) => `\t\t${subjectText(s)}\n`).join('')}`;
		if (missingRules.length) stderr += `\tmissing rules added:\n${missingRules.map((r) => `\t\t${ruleText(r)}\n`).join('')}`;
		if (removeRules && extraRules.length) stderr += `\textra rules removed:\n${extraRules.map((r) => `\t\t${ruleText(r)}\n`).join('')}`;
	}
	return { stdout, stderr, exitCode: 0 };
}

/** Create (with its namespace, for a namespaced kind), update, or delete and create again. */
function writeReconciled(inv: KubectlInvocation, ref: ResourceRef, namespace: string | undefined, obj: KubeObject, operation: Operation, kind: string): { object: KubeObject } | { error: ReturnType<typeof callError> } {
	const clean = (o: KubeObject): KubeObject => {
		const copy = deepCopy(o);
		delete copy.metadata.resourceVersion;
		delete copy.metadata.uid;
		delete copy.metadata.creationTimestamp;
		return { ...copy, apiVersion: `${RBAC}/v1`, kind };
	};
	if (operation === 'update') {
		const updated = inv.client.update(ref, { ...obj, apiVersion: `${RBAC}/v1`, kind });
		return updated.ok ? { object: updated.object } : { error: callError(updated, inv.env.serverUrl) };
	}
	if (operation === 'recreate') {
		const deleted = inv.client.delete(ref, namespace, obj.metadata.name ?? '');
		if (!deleted.ok && deleted.code !== 404) return { error: callError(deleted, inv.env.serverUrl) };
	}
	// RoleModifier.Create: the namespace first, an existing one is fine.
	if (namespace) inv.client.create(R.namespaces, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } });
	const created = inv.client.create(ref, namespace, clean(obj));
	return created.ok ? { object: created.object } : { error: callError(created, inv.env.serverUrl) };
}
