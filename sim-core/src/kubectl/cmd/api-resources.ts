/**
 * `kubectl api-resources` and `kubectl api-versions`: what the API server's
 * discovery serves. Discovery is asked first, so an unreachable server fails
 * the command.
 *
 * The list is what the simulated API server serves: every built-in
 * resource of a default v1.36 kube-apiserver (its GA group versions), and
 * metrics.k8s.io once metrics-server's APIService is Available.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go
 * (RunAPIResources, sortableResource, printContextHeaders),
 * staging/src/k8s.io/kubectl/pkg/cmd/apiresources/print_flags.go
 * (HumanReadablePrinter, NamePrinter),
 * staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiversions.go.
 */
import { RESOURCES, groupVersion, type ResourceInfo } from '../../api/resources.ts';
import { R } from '../../client/client.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { formatTable } from '../printers/tabwriter.ts';
import { apiErrorMessage, errorText } from '../resource-args.ts';
import { noPrinterError } from './output.ts';

/** Discovery's answer must come from the server: a cheap request tells whether it answers. */
export function discoveryReachable(invocation: KubectlInvocation): string | undefined {
	const probe = invocation.client.list(R.namespaces, undefined, { limit: 1 });
	if (!probe.ok && (probe.transport || probe.reason === 'Unauthorized')) return apiErrorMessage(probe, invocation.env.serverUrl);
	return undefined;
}

/** What discovery found of the aggregated group versions (metrics.k8s.io/v1beta1): served, registered but failing, or absent. */
interface AggregatedDiscovery {
	served: Set<string>;
	/** `metrics.k8s.io/v1beta1: the server is currently unable to handle the request`. */
	failed: string[];
	/** Listed in /apis (an APIService exists, Available or not). */
	listed: Set<string>;
}

/**
 * Asks discovery for each aggregated group version, as kubectl's discovery
 * client does after /apis: 200 (its APIService is Available), 503 (it
 * exists but its backend does not answer: a failed group), 404 (none).
 */
function discoverAggregated(invocation: KubectlInvocation): AggregatedDiscovery {
	const out: AggregatedDiscovery = { served: new Set(), failed: [], listed: new Set() };
	const versions = [...new Set(RESOURCES.filter((r) => r.aggregated).map((r) => groupVersion(r)))];
	for (const gv of versions) {
		const [group, version] = gv.split('/');
		const answer = invocation.client.raw({ verb: 'get', group, version, resource: '' });
		if ('failure' in answer || answer.code === 404) continue;
		out.listed.add(gv);
		if (answer.code === 200) out.served.add(gv);
		else out.failed.push(`${gv}: the server is currently unable to handle the request`);
	}
	return out;
}

/**
 * Resources with verbs, as ServerPreferredResources lists them: the API
 * server's own, and an aggregated group's while its APIService is
 * Available (metrics.k8s.io once metrics-server answers).
 */
function servedResources(aggregated?: AggregatedDiscovery): ResourceInfo[] {
	return RESOURCES.filter((r) => r.verbs.length > 0 && (!r.aggregated || aggregated?.served.has(groupVersion(r))));
}

/** ServerPreferredResources' partial failure, as kubectl reports it after printing what it found. */
function discoveryFailure(aggregated: AggregatedDiscovery): string {
	return aggregated.failed.length ? errorText([`unable to retrieve the complete list of server APIs: ${aggregated.failed.join(', ')}`]) : '';
}

/** metav1.APIResource as the JSON printer writes it: struct field order, empty optional fields left out. */
function apiResourceJson(r: ResourceInfo): Record<string, unknown> {
	const out: Record<string, unknown> = { name: r.resource, singularName: r.singular, namespaced: r.namespaced };
	if (r.group) out.group = r.group;
	out.version = r.version;
	out.kind = r.kind;
	out.verbs = [...r.verbs];
	if (r.shortNames.length) out.shortNames = [...r.shortNames];
	if (r.categories?.length) out.categories = [...r.categories];
	return out;
}

/** Runs `kubectl api-resources`. */
function runApiResources(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	const flags = args.flags;
	if (args.positionals.length) return { stdout: '', stderr: `error: unexpected arguments: [${args.positionals.join(' ')}]\nSee 'kubectl api-resources -h' for help and examples\n`, exitCode: 1 };
	const output = typeof flags.output === 'string' ? flags.output : '';
	// api-resources' PrintFlags.AllowedFormats: json, yaml (and kyaml), name, wide.
	const allowed = ['json', 'yaml', 'kyaml', 'name', 'wide'];
	if (output && !allowed.includes(output)) return { stdout: '', stderr: errorText([noPrinterError(output, allowed)]), exitCode: 1 };
	if (output === 'kyaml') return { stdout: '', stderr: errorText(['-o kyaml is not supported by the simulated kubectl']), exitCode: 1 };
	const sortBy = typeof flags['sort-by'] === 'string' ? flags['sort-by'] : '';
	if (sortBy && sortBy !== 'name' && sortBy !== 'kind') return { stdout: '', stderr: errorText(['--sort-by accepts only name or kind']), exitCode: 1 };
	const unreachable = discoveryReachable(invocation);
	if (unreachable) return { stdout: '', stderr: errorText([unreachable]), exitCode: 1 };

	const verbs = (flags.verbs as string[] | undefined) ?? [];
	const categories = (flags.categories as string[] | undefined) ?? [];
	const aggregated = discoverAggregated(invocation);
	const failure = discoveryFailure(aggregated);
	const failed = (r: CommandResult): CommandResult => (failure ? { ...r, stderr: r.stderr + failure, exitCode: 1 } : r);
	const resources = servedResources(aggregated).filter((r) => {
		if (args.set.has('api-group') && r.group !== flags['api-group']) return false;
		if (args.set.has('namespaced') && r.namespaced !== (flags.namespaced === true)) return false;
		if (!verbs.every((v) => r.verbs.includes(v))) return false;
		return categories.every((c) => r.categories?.includes(c));
	});
	// sort.Stable by group (or name, or kind), ties broken by name.
	const key = (r: ResourceInfo) => (sortBy === 'name' ? r.resource : sortBy === 'kind' ? r.kind : r.group);
	const sorted = resources.map((r, i) => ({ r, i })).sort((a, b) => compareGoStrings(key(a.r), key(b.r)) || compareGoStrings(a.r.resource, b.r.resource) || a.i - b.i);
	const list = sorted.map((s) => s.r);

	if (output === 'name') return failed({ stdout: list.map((r) => `${r.resource}${r.group ? `.${r.group}` : ''}\n`).join(''), stderr: '', exitCode: 0 });
	if (output === 'json' || output === 'yaml') {
		const obj = { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: '', resources: list.map(apiResourceJson) };
		return failed({ stdout: output === 'json' ? `${JSON.stringify(obj, null, 4)}\n` : stringifyYaml(obj), stderr: '', exitCode: 0 });
	}
	const wide = output === 'wide';
	const rows: string[][] = [];
	if (flags['no-headers'] !== true) rows.push(wide ? ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', 'VERBS', 'CATEGORIES'] : ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
	for (const r of list) {
		const row = [r.resource, r.shortNames.join(','), groupVersion(r), String(r.namespaced), r.kind];
		if (wide) row.push(r.verbs.join(','), (r.categories ?? []).join(','));
		rows.push(row);
	}
	return failed({ stdout: formatTable(rows), stderr: '', exitCode: 0 });
}

/** Runs `kubectl api-versions`: every group/version served, sorted. */
function runApiVersions(invocation: KubectlInvocation): CommandResult {
	if (invocation.args.positionals.length) return { stdout: '', stderr: `error: unexpected arguments: [${invocation.args.positionals.join(' ')}]\nSee 'kubectl api-versions -h' for help and examples\n`, exitCode: 1 };
	const unreachable = discoveryReachable(invocation);
	if (unreachable) return { stdout: '', stderr: errorText([`couldn't get available api versions from server: ${unreachable.replace(/^error: /, '')}`]), exitCode: 1 };
	// ServerGroups reads /apis alone: an aggregated group is there once its APIService exists.
	const aggregated = discoverAggregated(invocation);
	const versions = [...new Set([...servedResources().map((r) => groupVersion(r)), ...aggregated.listed])].sort(compareGoStrings);
	return { stdout: versions.map((v) => `${v}\n`).join(''), stderr: '', exitCode: 0 };
}

export const apiResourcesCommand: KubectlCommand = {
	name: 'api-resources',
	summary: 'Print the supported API resources on the server',
	usage: 'kubectl api-resources [flags] [options]',
	flags: [
		{ name: 'output', short: 'o', kind: 'string' },
		{ name: 'no-headers', kind: 'bool' },
		{ name: 'api-group', kind: 'string' },
		{ name: 'namespaced', kind: 'bool', default: true },
		{ name: 'verbs', kind: 'stringArray' },
		{ name: 'sort-by', kind: 'string' },
		{ name: 'cached', kind: 'bool' },
		{ name: 'categories', kind: 'stringArray' },
		{ name: 'show-managed-fields', kind: 'bool' },
	],
	run: runApiResources,
};

export const apiVersionsCommand: KubectlCommand = {
	name: 'api-versions',
	summary: 'Print the supported API versions on the server, in the form of "group/version"',
	usage: 'kubectl api-versions',
	flags: [],
	run: runApiVersions,
};
