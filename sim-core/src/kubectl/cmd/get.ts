/**
 * `kubectl get`: lists or fetches objects and prints them as the API
 * server's tables (one table per resource type, `kind/` name prefixes when
 * several kinds are shown, `-A`, `-L`, `--show-labels`, `--sort-by`,
 * `--no-headers`, `-o wide`), or as JSON, YAML, names, JSONPath or custom
 * columns; `-w` and `--watch-only` stream changes (see get-watch.ts).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (Complete, Validate,
 * Run, printGeneric).
 */
import type { KubeObject } from '../../api/types.ts';
import type { ResourceInfo } from '../../api/resources.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import type { FlagSpec } from '../flags.ts';
import type { CommandResult } from '../../shell/types.ts';
import { TabWriter } from '../../golang/tabwriter.ts';
import { KUBECTL_GET_TABWRITER } from '../printers/tabwriter.ts';
import { tableFor } from '../printers/table-registry.ts';
import { buildTable, HumanReadablePrinter } from '../printers/table-printer.ts';
import { kindQualifier } from '../names.ts';
import { errorText, fetchTargets, parseResourceArgs, warningText } from '../resource-args.ts';
import { asList, parseOutput, printGeneric, sortObjects, type GenericPrintOptions, type OutputSpec } from './output.ts';
import { runGetWatch } from './get-watch.ts';
import { TABLE_ACCEPT } from '../round-trippers.ts';
import { callError, checkErr, plain } from './check-err.ts';

/** get's flags (NewCmdGet, PrintFlags.AddFlags, HumanPrintFlags.AddFlags). `--chunk-size` sets the page size of lists. */
export const GET_FLAGS: FlagSpec[] = [
	{ name: 'output', short: 'o', kind: 'string' },
	{ name: 'watch', short: 'w', kind: 'bool' },
	{ name: 'watch-only', kind: 'bool' },
	{ name: 'output-watch-events', kind: 'bool' },
	{ name: 'ignore-not-found', kind: 'bool' },
	{ name: 'field-selector', kind: 'string' },
	{ name: 'all-namespaces', short: 'A', kind: 'bool' },
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
	// cmdutil.DefaultChunkSize.
	{ name: 'chunk-size', kind: 'int', default: 500 },
	{ name: 'label-columns', short: 'L', kind: 'stringArray' },
	{ name: 'show-labels', kind: 'bool' },
	{ name: 'show-kind', kind: 'bool' },
	{ name: 'sort-by', kind: 'string' },
	{ name: 'no-headers', kind: 'bool' },
	{ name: 'show-managed-fields', kind: 'bool' },
	{ name: 'template', kind: 'string' },
	{ name: 'allow-missing-template-keys', kind: 'bool', default: true },
	{ name: 'server-print', kind: 'bool', default: true },
	{ name: 'raw', kind: 'string' },
	{ name: 'subresource', kind: 'string' },
];

/** cmdutil.SuggestAPIResources. */
export const SUGGEST_API_RESOURCES = 'Use "kubectl api-resources" for a complete list of supported resources.';

/** The result of a command that printed some output and then failed. */
export function result(stdout: string, stderr: string, failed: boolean): CommandResult {
	return { stdout, stderr, exitCode: failed ? 1 : 0 };
}

/** One group of objects printed together: a list's items, or one named object. */
interface PrintGroup {
	info: ResourceInfo;
	objects: KubeObject[];
}

/** The human-readable path of get.go Run: one printer per REST mapping, a blank line between kinds, `No resources found` when nothing was written. */
function printTables(invocation: KubectlInvocation, groups: PrintGroup[], wide: boolean, allNamespaces: boolean, namespace: string, hadErrors: boolean): { stdout: string; stderr: string } {
	const flags = invocation.args.flags;
	const noHeaders = flags['no-headers'] === true;
	// multipleGVKsRequested: more than one kind among what the builder returned.
	const withKind = flags['show-kind'] === true || (groups.length >= 2 && groups.some((g) => g.info !== groups[0].info));
	const writer = new TabWriter(KUBECTL_GET_TABWRITER);
	let out = '';
	let separatorReady = false;
	const flush = () => {
		let text = writer.flush();
		if (text && separatorReady) {
			text = `\n${text}`;
			separatorReady = false;
		}
		out += text;
	};
	let printer: HumanReadablePrinter | undefined;
	let lastInfo: ResourceInfo | undefined;
	let allNamespaced = !allNamespaces;
	const ctx = { nowMs: invocation.env.wallMs() };
	for (const group of groups) {
		allNamespaced = allNamespaced && group.info.namespaced;
		if (!printer || group.info !== lastInfo) {
			flush();
			writer.setRememberedWidths([]);
			if (lastInfo && !noHeaders && out.length > 0) separatorReady = true;
			printer = new HumanReadablePrinter({
				wide,
				noHeaders,
				withNamespace: allNamespaces && group.info.namespaced,
				kindPrefix: withKind ? kindQualifier(group.info) : undefined,
				columnLabels: (flags['label-columns'] as string[] | undefined) ?? [],
				showLabels: flags['show-labels'] === true,
			});
			lastInfo = group.info;
		}
		writer.write(printer.print(buildTable(tableFor(group.info), group.objects, ctx)));
	}
	flush();
	let stderr = '';
	if (out.length === 0 && flags['ignore-not-found'] !== true && !hadErrors) {
		stderr = allNamespaced ? `No resources found in ${namespace} namespace.\n` : 'No resources found\n';
	}
	return { stdout: out, stderr };
}

/**
 * `get --raw PATH` (RawGet): the body copied to stdout as it came, no
 * newline added; a failure is reported as any request's (`Error from
 * server (Forbidden): ...`, `Unable to connect to the server: ...`).
 */
function rawGet(invocation: KubectlInvocation, path: string): CommandResult {
	const env = invocation.env;
	if (!env.rawGet) return result('', errorText(['--raw is not supported by the simulated kubectl']), true);
	if (!path.startsWith('/')) return checkErr(plain(`parse "${path}": invalid URI for request`));
	if (invocation.args.set.has('as')) return checkErr(plain('--raw with --as is not supported by this simulated kubectl'));
	const got = env.rawGet(path);
	if (!got.ok) return checkErr(callError(got, env.serverUrl, { method: 'Get', url: `${env.serverUrl}${path}` }));
	return { stdout: got.object, stderr: '', exitCode: 0 };
}

/** Runs `kubectl get`. */
export function runGet(invocation: KubectlInvocation): CommandResult {
	const { args } = invocation;
	const flags = args.flags;
	const watch = flags.watch === true;
	const watchOnly = flags['watch-only'] === true;
	const sortBy = typeof flags['sort-by'] === 'string' ? flags['sort-by'] : '';
	let stderr = '';

	// Complete.
	if (typeof flags.raw === 'string' && flags.raw) return rawGet(invocation, flags.raw);
	if (typeof flags.kustomize === 'string' && flags.kustomize) return result('', errorText(['-k (kustomize) is not supported by the simulated kubectl']), true);
	if (watch && sortBy) stderr += 'warning: --watch requested, --sort-by will be ignored for watch events received\n';
	else if (watchOnly && sortBy) stderr += 'warning: --watch-only requested, --sort-by will be ignored\n';
	else if (!watch && !watchOnly && args.positionals.length === 0 && ((flags.filename as string[]) ?? []).length === 0) {
		return result(
			'',
			`You must specify the type of resource to get. ${SUGGEST_API_RESOURCES}\n\n` +
				'error: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\n' +
				"See 'kubectl get -h' for help and examples\n",
			true,
		);
	}
	const output = parseOutput(args, invocation.env);

	// Validate.
	if (flags['show-labels'] === true && output.ok && output.spec.kind !== 'human') {
		const format = String(flags.output);
		return result('', stderr + errorText([`--show-labels option cannot be used with ${format} printer`]), true);
	}
	if (flags['output-watch-events'] === true && !watch && !watchOnly) return result('', stderr + errorText(['--output-watch-events option can only be used with --watch or --watch-only']), true);

	const parsed = parseResourceArgs(invocation, { allowEmptySelector: true, singleResourceType: watch || watchOnly });
	if (parsed.error) return result('', stderr + parsed.error, true);
	if (!output.ok) return result('', stderr + errorText([output.error]), true);
	// transformRequests: with the human-readable printer and server-side printing, every request asks for a Table.
	if (output.spec.kind === 'human' && flags['server-print'] !== false && invocation.http) invocation.http.accept = TABLE_ACCEPT;
	if (watch || watchOnly) return runGetWatch(invocation, parsed, output.spec, stderr);

	const fetched = fetchTargets(invocation, parsed.targets, { ignoreNotFound: flags['ignore-not-found'] === true, chunkSize: Number(flags['chunk-size']) });
	stderr += warningText(fetched.warnings);
	if (fetched.fatal) return result('', stderr + `${fetched.fatal}\n`, true);
	const errors = [...fetched.errors];

	let groups: PrintGroup[] = fetched.fetched.map((f) => ({ info: f.target.info, objects: f.objects }));
	if (sortBy && output.spec.kind === 'human') {
		// RuntimeSorter: each table's rows are sorted on their own (a -o json/yaml List is sorted whole, in printGenericResult).
		const sorted: PrintGroup[] = [];
		for (const group of groups) {
			const s = sortObjects(group.objects, sortBy);
			if (!s.ok) return result('', stderr + errorText([s.error]), true);
			sorted.push({ info: group.info, objects: s.objects });
		}
		groups = sorted;
	}

	if (output.spec.kind === 'human') {
		const printed = printTables(invocation, groups, output.spec.wide, parsed.allNamespaces, parsed.namespace, errors.length > 0);
		stderr += printed.stderr;
		if (errors.length) stderr += errorText(errors);
		return result(printed.stdout, stderr, errors.length > 0);
	}
	return printGenericResult(invocation, output.spec, groups, parsed.singleItemImplied, errors, stderr, sortBy);
}

/** The printer options get's flags give. */
function genericOptions(invocation: KubectlInvocation): GenericPrintOptions {
	const flags = invocation.args.flags;
	return { noHeaders: flags['no-headers'] === true, allowMissingKeys: flags['allow-missing-template-keys'] !== false, showManagedFields: flags['show-managed-fields'] === true };
}

/** get.go printGeneric: one object bare when a single item was named, else every object in one List. */
function printGenericResult(invocation: KubectlInvocation, spec: Exclude<OutputSpec, { kind: 'human' }>, groups: PrintGroup[], singleItemImplied: boolean, errors: string[], stderr: string, sortBy: string): CommandResult {
	const objects = groups.flatMap((g) => g.objects);
	if (singleItemImplied && errors.length) return result('', stderr + errorText(errors), true);
	if (objects.length === 0 && invocation.args.flags['ignore-not-found'] === true && !errors.length) return result('', stderr, false);
	let obj: KubeObject;
	if (!singleItemImplied || objects.length !== 1) {
		let items = objects;
		if (sortBy) {
			const sorted = sortObjects(items, sortBy);
			if (!sorted.ok) return result('', stderr + errorText([sorted.error]), true);
			items = sorted.objects;
		}
		obj = asList(items);
	} else obj = objects[0];
	const printed = printGeneric(spec, obj, { printed: 0 }, genericOptions(invocation));
	if (!printed.ok) return result(printed.text ?? '', stderr + errorText([...errors, printed.error]), true);
	return result(printed.text, stderr + (errors.length ? errorText(errors) : ''), errors.length > 0);
}

export const getCommand: KubectlCommand = {
	name: 'get',
	summary: 'Display one or many resources',
	usage: 'kubectl get [(-o|--output=)json|yaml|kyaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file|custom-columns|custom-columns-file|wide] (TYPE[.VERSION][.GROUP] [NAME | -l label] | TYPE[.VERSION][.GROUP]/NAME ...) [flags]',
	flags: GET_FLAGS,
	run: runGet,
};
