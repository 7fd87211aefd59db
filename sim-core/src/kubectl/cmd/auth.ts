/**
 * `kubectl auth can-i VERB (TYPE | TYPE/NAME | NONRESOURCEURL) [--list]`
 * and `kubectl auth whoami`.
 *
 * can-i POSTs a SelfSubjectAccessReview and prints `yes` (exit 0) or `no`
 * (exit 1, with the authorizer's reason if it gave one); `--list` POSTs a
 * SelfSubjectRulesReview and prints the rules as a table. whoami POSTs a
 * SelfSubjectReview and prints the attributes the API server authenticated.
 * With `--as`, the questions are asked as the impersonated user.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/auth/cani.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/auth/whoami.go,
 * staging/src/k8s.io/kubectl/pkg/util/rbac/rbac.go (the rule compaction).
 */
import type { KubeObject } from '../../api/types.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { resolveResourceType } from '../resource-args.ts';
import { formatTable, KUBECTL_GET_TABWRITER } from '../printers/tabwriter.ts';
import { callError, checkErr, plain, usageError } from './check-err.ts';
import { PRINT_FLAGS, toPrinter } from './print-flags.ts';
import { unionFlags, type Subcommand } from './subcommand.ts';
import { runParent } from './help.ts';
import { RECONCILE_FLAGS, runReconcile } from './auth-reconcile.ts';
import type { CommandResult } from '../../shell/types.ts';

/** Verbs can-i knows for resources and for non-resource URLs (cani.go resourceVerbs, nonResourceURLVerbs). */
const RESOURCE_VERBS = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete', 'deletecollection', 'use', 'bind', 'impersonate', '*', 'approve', 'sign', 'escalate', 'attest'];
const NON_RESOURCE_URL_VERBS = ['get', 'put', 'post', 'head', 'options', 'delete', 'patch', '*'];
/** Resources the server serves without discovery listing them (users, groups for impersonate). */
const NON_STANDARD_RESOURCES = ['users', 'groups'];

const SSAR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectaccessreviews' };
const SSRR = { group: 'authorization.k8s.io', version: 'v1', resource: 'selfsubjectrulesreviews' };
const SSR = { group: 'authentication.k8s.io', version: 'v1', resource: 'selfsubjectreviews' };

interface Rule {
	verbs: string[];
	apiGroups: string[];
	resources: string[];
	resourceNames: string[];
	nonResourceURLs: string[];
}

/** rbac.BreakdownRule: one rule per group, resource, verb (and name); one per URL and verb. */
function breakdown(rule: Rule): Rule[] {
	const out: Rule[] = [];
	for (const group of rule.apiGroups)
		for (const resource of rule.resources)
			for (const verb of rule.verbs) {
				if (rule.resourceNames.length) for (const name of rule.resourceNames) out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name], nonResourceURLs: [] });
				else out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [], nonResourceURLs: [] });
			}
	for (const url of rule.nonResourceURLs) for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb], apiGroups: [], resources: [], resourceNames: [] });
	return out;
}

/** rbac.CompactRules: rules for one group and resource (and at most one name) merge their verbs. */
function compact(rules: Rule[]): Rule[] {
	const out: Rule[] = [];
	const simple = new Map<string, Rule>();
	for (const rule of rules) {
		const isSimple = rule.resourceNames.length <= 1 && rule.nonResourceURLs.length === 0 && rule.apiGroups.length === 1 && rule.resources.length === 1;
		if (!isSimple) {
			out.push(rule);
			continue;
		}
		const key = JSON.stringify([rule.apiGroups[0], rule.resources[0], rule.resourceNames[0] ?? null]);
		const existing = simple.get(key);
		if (existing) {
			for (const verb of rule.verbs) if (!existing.verbs.includes(verb)) existing.verbs.push(verb);
		} else simple.set(key, { ...rule, verbs: [...rule.verbs] });
	}
	return [...out, ...simple.values()];
}

/** Go's `%v` of a []string: `[a b]`. */
const goList = (values: string[]) => `[${values.join(' ')}]`;

/** The generated PolicyRule.String() the rules are sorted by (SortableRuleSlice). */
const ruleString = (r: Rule) => `&PolicyRule{Verbs:${goList(r.verbs)},APIGroups:${goList(r.apiGroups)},Resources:${goList(r.resources)},ResourceNames:${goList(r.resourceNames)},NonResourceURLs:${goList(r.nonResourceURLs)},}`;

/** describe.CombineResourceGroup: `pods`, `deployments.apps`, `pods/log`. */
function combineResourceGroup(resources: string[], groups: string[]): string {
	if (resources.length === 0) return '';
	const [resource, sub] = resources[0].split(/\/(.*)/s);
	let out = resource;
	if (groups.length && groups[0] !== '') out += `.${groups[0]}`;
	if (sub !== undefined) out += `/${sub}`;
	return out;
}

function canIRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	const list = flags.list === true;
	let stderr = '';
	let verb = '';
	let nonResourceURL = '';
	let resource = { group: '', resource: '' };
	let resourceName = '';
	let namespaced = true;
	if (list) {
		if (args.positionals.length) return checkErr(plain('list option must be specified with no arguments'));
	} else {
		if (args.positionals.length !== 2) return checkErr(plain("you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples."));
		verb = args.positionals[0];
		const target = args.positionals[1];
		if (target.startsWith('/')) nonResourceURL = target;
		else {
			const [typeText, name] = target.split(/\/(.*)/s);
			resourceName = name ?? '';
			if (typeText === '*') resource = { group: '', resource: '*' };
			else {
				const lower = typeText.toLowerCase();
				const resolved = resolveResourceType(lower);
				if (resolved.ok) {
					resource = { group: resolved.info.group, resource: resolved.info.resource };
					namespaced = resolved.info.namespaced;
				} else {
					const dot = lower.indexOf('.');
					const group = dot < 0 ? '' : lower.slice(dot + 1);
					const plural = dot < 0 ? lower : lower.slice(0, dot);
					if (!NON_STANDARD_RESOURCES.includes(lower)) stderr += group ? `Warning: the server doesn't have a resource type '${plural}' in group '${group}'\n` : `Warning: the server doesn't have a resource type '${plural}'\n`;
					resource = { group: '', resource: typeText };
				}
			}
		}
	}
	const allNamespaces = flags['all-namespaces'] === true;
	const namespace = allNamespaces ? '' : inv.namespace;
	// Validate.
	if (list) {
		if (flags.quiet === true || allNamespaces || flags.subresource) return checkErr(plain("list option can't be specified with neither quiet, all-namespaces nor subresource options"), '', stderr);
	} else {
		if (nonResourceURL) {
			if (flags.subresource) return checkErr(plain('--subresource can not be used with NonResourceURL'), '', stderr);
			if (!NON_RESOURCE_URL_VERBS.includes(verb)) stderr += `Warning: verb '${verb}' is not a known verb\n`;
		} else if (resource.resource && !allNamespaces) {
			if (!namespaced && resource.resource !== '*') stderr += resource.group ? `Warning: resource '${resource.resource}' is not namespace scoped in group '${resource.group}'\n` : `Warning: resource '${resource.resource}' is not namespace scoped\n`;
			if (!RESOURCE_VERBS.includes(verb)) stderr += `Warning: verb '${verb}' is not a known verb\n`;
		}
		if (flags['no-headers'] === true) return checkErr(plain('--no-headers cannot be set without --list specified'), '', stderr);
	}
	if (list) {
		const review = inv.client.create<KubeObject>(SSRR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', metadata: {}, spec: { namespace } });
		if (!review.ok) return checkErr(callError(review, inv.env.serverUrl), '', stderr);
		const status = (review.object.status ?? {}) as { resourceRules?: Array<Partial<Rule>>; nonResourceRules?: Array<Partial<Rule>>; incomplete?: boolean; evaluationError?: string };
		if (status.incomplete) stderr += `Warning: the list may be incomplete: ${status.evaluationError ?? ''}\n`;
		const rules: Rule[] = [
			...(status.resourceRules ?? []).map((r) => ({ verbs: r.verbs ?? [], apiGroups: r.apiGroups ?? [], resources: r.resources ?? [], resourceNames: r.resourceNames ?? [], nonResourceURLs: [] })),
			...(status.nonResourceRules ?? []).map((r) => ({ verbs: r.verbs ?? [], nonResourceURLs: r.nonResourceURLs ?? [], apiGroups: [], resources: [], resourceNames: [] })),
		];
		const compacted = compact(rules.flatMap(breakdown));
		const keys = compacted.map(ruleString);
		const order = compacted.map((_, i) => i).sort((a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : a - b));
		const rows = order.map((i) => compacted[i]).map((r) => [combineResourceGroup(r.resources, r.apiGroups), goList(r.nonResourceURLs), goList(r.resourceNames), goList(r.verbs)]);
		if (flags['no-headers'] !== true) rows.unshift(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
		return { stdout: formatTable(rows, KUBECTL_GET_TABWRITER), stderr, exitCode: 0 };
	}
	const spec: Record<string, unknown> = nonResourceURL
		? { nonResourceAttributes: { path: nonResourceURL, verb } }
		: {
				resourceAttributes: {
					...(namespace ? { namespace } : {}),
					verb,
					...(resource.group ? { group: resource.group } : {}),
					...(resource.resource ? { resource: resource.resource } : {}),
					...(flags.subresource ? { subresource: String(flags.subresource) } : {}),
					...(resourceName ? { name: resourceName } : {}),
				},
			};
	const review = inv.client.create<KubeObject>(SSAR, undefined, { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', metadata: {}, spec });
	if (!review.ok) return checkErr(callError(review, inv.env.serverUrl), '', stderr);
	const status = (review.object.status ?? {}) as { allowed?: boolean; reason?: string; evaluationError?: string };
	const quiet = flags.quiet === true;
	if (status.allowed) return { stdout: quiet ? '' : 'yes\n', stderr, exitCode: 0 };
	let line = 'no';
	if (status.reason) line += ` - ${status.reason}`;
	if (status.evaluationError) line += ` - ${status.evaluationError}`;
	return { stdout: quiet ? '' : `${line}\n`, stderr, exitCode: 1 };
}

function whoamiRun(inv: KubectlInvocation): CommandResult {
	if (inv.args.positionals.length) return checkErr(usageError('kubectl auth whoami', `unexpected arguments: [${inv.args.positionals.join(' ')}]`));
	const printer = inv.args.flags.output ? toPrinter(inv.args) : undefined;
	if (printer && 'error' in printer) return checkErr(printer.error);
	const review = inv.client.create<KubeObject>(SSR, undefined, { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview', metadata: {} });
	if (!review.ok) {
		if (review.code === 403) return checkErr(plain('the selfsubjectreviews API is not enabled in the cluster or you do not have permission to call it'));
		if (review.code === 404 && !review.transport) return checkErr(plain('the selfsubjectreviews API is not enabled in the cluster'));
		return checkErr(callError(review, inv.env.serverUrl));
	}
	if (printer) return { stdout: printer.printer(review.object, ''), stderr: '', exitCode: 0 };
	const user = ((review.object.status ?? {}) as { userInfo?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> } }).userInfo ?? {};
	const rows: string[][] = [['ATTRIBUTE', 'VALUE']];
	if (user.username) rows.push(['Username', user.username]);
	if (user.uid) rows.push(['UID', user.uid]);
	if (user.groups?.length) rows.push(['Groups', goList(user.groups)]);
	for (const key of Object.keys(user.extra ?? {}).sort()) rows.push([`Extra: ${key}`, goList(user.extra![key])]);
	return { stdout: formatTable(rows, KUBECTL_GET_TABWRITER), stderr: '', exitCode: 0 };
}

const CAN_I_FLAGS: FlagSpec[] = [
	{ name: 'all-namespaces', short: 'A', kind: 'bool' },
	{ name: 'quiet', short: 'q', kind: 'bool' },
	{ name: 'subresource', kind: 'string' },
	{ name: 'list', kind: 'bool' },
	{ name: 'no-headers', kind: 'bool' },
];

const SUBCOMMANDS: Subcommand[] = [
	{ name: 'can-i', summary: 'Check whether an action is allowed', usage: 'kubectl auth can-i VERB [TYPE | TYPE/NAME | NONRESOURCEURL]', flags: CAN_I_FLAGS, run: canIRun },
	{ name: 'whoami', summary: 'Experimental: Check self subject attributes', usage: 'kubectl auth whoami', flags: PRINT_FLAGS, run: whoamiRun },
	{ name: 'reconcile', summary: 'Reconciles rules for RBAC role, role binding, cluster role, and cluster role binding objects', usage: 'kubectl auth reconcile -f FILENAME', flags: RECONCILE_FLAGS, run: runReconcile },
];

export const authCommand: KubectlCommand = {
	name: 'auth',
	summary: 'Inspect authorization',
	usage: 'kubectl auth [flags] [options]',
	subcommands: SUBCOMMANDS.map((s) => s.name),
	flags: unionFlags(CAN_I_FLAGS, PRINT_FLAGS, RECONCILE_FLAGS),
	handlesHelp: true,
	run: (inv) => runParent(inv, { name: 'auth', long: 'Inspect authorization.', usage: 'kubectl auth [flags] [options]', flags: authCommand.flags, bare: 'help-on-stderr' }, SUBCOMMANDS),
};
