/**
 * `kubectl describe` for roles, clusterroles and their bindings: a role's
 * rules are broken down to one per group/resource/verb, merged back per
 * group and resource, sorted, and shown as the PolicyRule table.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (RoleDescriber, ClusterRoleDescriber, CombineResourceGroup,
 * RoleBindingDescriber, ClusterRoleBindingDescriber),
 * staging/src/k8s.io/kubectl/pkg/util/rbac/rbac.go (BreakdownRule,
 * CompactRules, SortableRuleSlice).
 */
import type { KubeObject, PolicyRule, Role, RoleBinding } from '../../api/types.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './prefix-writer.ts';
import { goList, printAnnotationsMultiline, printLabelsMultiline, type DescribeResult } from './helpers.ts';

/** BreakdownRule: one rule per group, resource, verb (and resource name); non-resource URLs per URL and verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
	const out: PolicyRule[] = [];
	for (const group of rule.apiGroups ?? []) {
		for (const resource of rule.resources ?? []) {
			for (const verb of rule.verbs ?? []) {
				if (rule.resourceNames?.length) for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
				else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
			}
		}
	}
	for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ nonResourceURLs: [url], verbs: [verb] });
	return out;
}

/** CompactRules: rules naming one group and one resource (and at most one name) merged, their verbs gathered in order. */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
	const compacted: PolicyRule[] = [];
	const simple = new Map<string, PolicyRule>();
	for (const rule of rules) {
		const isSimple = (rule.resourceNames?.length ?? 0) <= 1 && !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
		if (!isSimple) {
			compacted.push(rule);
			continue;
		}
		const key = JSON.stringify([rule.apiGroups?.[0], rule.resources?.[0], rule.resourceNames?.[0] ?? null]);
		const existing = simple.get(key);
		if (existing) {
			for (const verb of rule.verbs) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
		} else simple.set(key, { ...rule, verbs: [...rule.verbs] });
	}
	compacted.push(...simple.values());
	return compacted;
}

/** The generated PolicyRule.String() that SortableRuleSlice compares: verbs first, then groups, resources, names, URLs. */
function ruleString(r: PolicyRule): string {
	return `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;
}

/** CombineResourceGroup: `deployments.apps`, `pods/log` (the first resource and group). */
export function combineResourceGroup(resources: readonly string[] | undefined, groups: readonly string[] | undefined): string {
	if (!resources?.length) return '';
	const [resource, sub] = resources[0].split(/\/(.*)/s);
	let combined = resource;
	if (groups?.length && groups[0] !== '') combined += `.${groups[0]}`;
	if (sub !== undefined) combined += `/${sub}`;
	return combined;
}

/** RoleDescriber / ClusterRoleDescriber. */
export function describeRole(obj: KubeObject): DescribeResult {
	const role = obj as Role;
	const rules = compactRules((role.rules ?? []).flatMap(breakdownRule));
	// sort.Stable over the rule strings.
	const sorted = rules.map((r, i) => ({ r, i, s: ruleString(r) })).sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : a.i - b.i));
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${role.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', role.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', role.metadata.annotations);
	w.write(LEVEL_0, 'PolicyRule:\n');
	w.write(LEVEL_1, 'Resources\tNon-Resource URLs\tResource Names\tVerbs\n');
	w.write(LEVEL_1, '---------\t-----------------\t--------------\t-----\n');
	for (const { r } of sorted) w.write(LEVEL_1, `${combineResourceGroup(r.resources, r.apiGroups)}\t${goList(r.nonResourceURLs)}\t${goList(r.resourceNames)}\t${goList(r.verbs)}\n`);
	return { ok: true, text: w.toString() };
}

/** RoleBindingDescriber / ClusterRoleBindingDescriber. */
export function describeRoleBinding(obj: KubeObject): DescribeResult {
	const binding = obj as RoleBinding;
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${binding.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', binding.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', binding.metadata.annotations);
	w.write(LEVEL_0, 'Role:\n');
	w.write(LEVEL_1, `Kind:\t${binding.roleRef?.kind ?? ''}\n`);
	w.write(LEVEL_1, `Name:\t${binding.roleRef?.name ?? ''}\n`);
	w.write(LEVEL_0, 'Subjects:\n');
	w.write(LEVEL_1, 'Kind\tName\tNamespace\n');
	w.write(LEVEL_1, '----\t----\t---------\n');
	for (const s of binding.subjects ?? []) w.write(LEVEL_1, `${s.kind}\t${s.name}\t${s.namespace ?? ''}\n`);
	return { ok: true, text: w.toString() };
}
