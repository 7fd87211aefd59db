/**
 * `kubectl set image (TYPE NAME | TYPE/NAME) CONTAINER=IMAGE ... | *=IMAGE`,
 * `kubectl set env (TYPE NAME) KEY=VAL ... KEY- [-c CONTAINER] [--list] [--from=configmap|secret/NAME]` and
 * `kubectl set resources (TYPE NAME) [--requests=cpu=100m,memory=256Mi]
 * [--limits=...] [-c CONTAINER]`: change the pod template (or a pod's spec)
 * and send the difference as a strategic merge patch, printing
 * `deployment.apps/nginx image updated` / `env updated` / `resource
 * requirements updated`; an unchanged object prints nothing. `kubectl set
 * serviceaccount|sa (TYPE NAME) ACCOUNT` sets the template's account, `set
 * selector svc NAME EXPR` a Service's selector, `set subject BINDING
 * --user|--group|--serviceaccount` adds subjects to a role binding.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/set/set_env.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/set/set_resources.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/set/set_serviceaccount.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/set/set_selector.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/set/set_subject.go,
 * staging/src/k8s.io/kubectl/pkg/generate/versioned/generator.go
 * (HandleResourceRequirementsV1, populateResourceListV1),
 * staging/src/k8s.io/kubectl/pkg/cmd/set/helper.go (CalculatePatches),
 * staging/src/k8s.io/kubectl/pkg/cmd/set/env/env_parse.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/updatepodspec.go.
 */
import type { Container, KubeObject, PodSpec } from '../../api/types.ts';
import type { JsonObject } from '../../golang/json.ts';
import { refOf } from '../../client/client.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, wrap, type KubectlError } from './check-err.ts';
import { resourcesAndPairs } from './label.ts';
import { parseToLabelSelector } from './create-generators.ts';
import { resolveResourceName } from '../resource-args.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter, type DryRunStrategy } from './print-flags.ts';
import { objectName, type TargetInfo } from './resource-info.ts';
import { deepCopy } from '../../golang/json.ts';
import { Quantity } from '../../api/quantity.ts';
import { unionFlags, type Subcommand } from './subcommand.ts';
import { runParent } from './help.ts';
import { createThreeWayMergePatch } from './three-way-merge.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';

/** updatePodSpecForObject: where an object keeps its pod spec. */
export function podSpecOf(obj: KubeObject): PodSpec | undefined {
	const spec = obj.spec as { template?: { spec?: PodSpec }; jobTemplate?: { spec?: { template?: { spec?: PodSpec } } } } | undefined;
	switch (obj.kind) {
		case 'Pod':
			return obj.spec as PodSpec;
		case 'ReplicationController':
		case 'Deployment':
		case 'DaemonSet':
		case 'ReplicaSet':
		case 'StatefulSet':
		case 'Job':
			return spec?.template?.spec;
		case 'CronJob':
			return spec?.jobTemplate?.spec?.template?.spec;
		default:
			return undefined;
	}
}

/** A mutation of one object's pod spec; errors collected by the caller. */
type Mutate = (spec: PodSpec, obj: KubeObject, errors: KubectlError[], out: { stdout: string; stderr: string }) => KubectlError | undefined;

/** A mutation of a whole object (set selector, set subject): an error message says why this object cannot take it. */
type MutateObject = (obj: KubeObject, errors: KubectlError[], out: { stdout: string; stderr: string }) => KubectlError | undefined;

/**
 * CalculatePatches then the patch loop of the set subcommands: mutate a
 * copy, diff it against the original (the two-way strategic merge patch),
 * skip unchanged objects, patch (or print, for --dry-run=client) the rest.
 * `what` names the change in a failed patch's message.
 */
function patchObjects(inv: KubectlInvocation, targets: TargetInfo[], mutate: MutateObject, operation: string, what: string, dry: DryRunStrategy, fieldManager: string, errors: KubectlError[], listOnly = false): { stdout: string; stderr: string; fatal?: KubectlError } {
	const printer = toPrinter(inv.args, dry);
	const out = { stdout: '', stderr: '' };
	if ('error' in printer) return { ...out, fatal: printer.error };
	for (const target of targets) {
		const before = target.object as KubeObject;
		const after = deepCopy(before);
		const failed = mutate(after, errors, out);
		if (failed) {
			errors.push(plain(`error: ${objectName(target)} ${failed.kind === 'plain' ? failed.message : ''}\n`));
			continue;
		}
		if (listOnly) continue;
		const patch = createThreeWayMergePatch(before as unknown as JsonObject, after as unknown as JsonObject, before as unknown as JsonObject, before.kind);
		if (Object.keys(patch).length === 0) continue;
		if (dry === 'client') {
			out.stdout += printer.printer(after, operation);
			continue;
		}
		const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager };
		if (dry === 'server') query.dryRun = 'All';
		const result = inv.client.patch(refOf(target.info), target.namespace, target.name, patch, 'application/strategic-merge-patch+json', undefined, query);
		if (!result.ok) {
			if (result.transport) return { ...out, fatal: callError(result, inv.env.serverUrl) };
			errors.push(wrap(what, callError(result, inv.env.serverUrl)));
			continue;
		}
		out.stdout += printer.printer({ ...result.object, apiVersion: before.apiVersion, kind: before.kind }, operation);
	}
	return out;
}

/** patchObjects for a change to the pod template (or a Pod's spec); an object without one is said to be so. */
function patchPodSpecs(inv: KubectlInvocation, targets: TargetInfo[], mutate: Mutate, operation: string, dry: DryRunStrategy, fieldManager: string, errors: KubectlError[], listOnly = false): { stdout: string; stderr: string; fatal?: KubectlError } {
	const noun = operation === 'image updated' ? 'image' : operation === 'env updated' ? 'env' : operation === 'serviceaccount updated' ? 'serviceaccount' : 'resources';
	const what = noun === 'serviceaccount' ? 'failed to patch ServiceAccountName ' : `failed to patch ${noun} update to pod template: `;
	return patchObjects(
		inv,
		targets,
		(obj, errs, out) => {
			const spec = podSpecOf(obj);
			if (!spec) return plain(`the object is not a pod or does not have a pod template: *v1.${obj.kind}`);
			return mutate(spec, obj, errs, out);
		},
		operation,
		what,
		dry,
		fieldManager,
		errors,
		listOnly,
	);
}

/**
 * visit the live objects the command names (`resources`, or all its
 * positional arguments), `--all` allowing an empty selector; `--local`
 * (printing without the server) is refused. A usage message, a fatal error
 * or the visit's errors end the command (after the dry-run warning).
 */
function visitTargets(inv: KubectlInvocation, warnings: string, resources?: string[]): { targets: TargetInfo[] } | { result: CommandResult } {
	if (inv.args.flags.local === true) return { result: checkErr(plain('--local is not supported by this simulated kubectl'), '', warnings) };
	const target = resources ? { ...inv, args: { ...inv.args, positionals: resources } } : inv;
	const visited = visit(target, { allowEmptySelector: inv.args.flags.all === true, requireObject: true });
	if (visited.usage) return { result: { stdout: '', stderr: warnings + visited.usage, exitCode: 1 } };
	if (visited.fatal) return { result: checkErr(visited.fatal, '', warnings) };
	if (visited.errors.length) return { result: checkErr(visited.errors.length === 1 ? visited.errors[0] : { kind: 'aggregate', errors: visited.errors }, '', warnings) };
	return { targets: visited.targets };
}

/** What a set subcommand prints after patchPodSpecs: the fatal error, the collected ones, or the objects patched. */
function patchedResult(result: { stdout: string; stderr: string; fatal?: KubectlError }, errors: KubectlError[], warnings: string): CommandResult {
	if (result.fatal) return checkErr(result.fatal, result.stdout, warnings + result.stderr);
	if (errors.length) return checkErr({ kind: 'aggregate', errors }, result.stdout, warnings + result.stderr);
	return { stdout: result.stdout, stderr: warnings + result.stderr, exitCode: 0 };
}

const RESOURCE_FLAGS: FlagSpec[] = [
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'all', kind: 'bool' },
	{ name: 'local', kind: 'bool' },
	...PRINT_FLAGS,
	DRY_RUN_FLAG,
];

function imageRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const split = resourcesAndPairs(args.positionals, 'image');
	if ('error' in split) return checkErr(split.error);
	const images = new Map<string, string>();
	const invalid: string[] = [];
	for (const pair of split.pairs) {
		if (pair.includes('=') && pair[0] !== '=') images.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
		else invalid.push(pair);
	}
	if (invalid.length) return checkErr(plain(`invalid image format: ${invalid.join(', ')}`));
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	// Validate: every problem at once (an aggregate).
	const problems: KubectlError[] = [];
	if (args.flags.all === true && args.flags.selector) problems.push(plain('cannot set --all and --selector at the same time'));
	if (split.resources.length < 1 && !((args.flags.filename as string[]) ?? []).length) problems.push(plain('one or more resources must be specified as <resource> <name> or <resource>/<name>'));
	if (images.size < 1) problems.push(plain('at least one image update is required'));
	else if (images.size > 1 && images.has('*')) problems.push(plain('all containers are already specified by *, but saw more than one container_name=container_image pairs'));
	if (args.flags.local === true && dry.strategy === 'server') problems.push(plain('cannot specify --local and --dry-run=server - did you mean --dry-run=client?'));
	if (problems.length) return checkErr(problems.length === 1 ? problems[0] : { kind: 'aggregate', errors: problems }, '', dry.stderr);
	const visited = visitTargets(inv, dry.stderr, split.resources);
	if ('result' in visited) return visited.result;
	const errors: KubectlError[] = [];
	const result = patchPodSpecs(
		inv,
		visited.targets,
		(spec, _obj, errs) => {
			for (const [name, image] of images) {
				let found = false;
				for (const list of [spec.initContainers ?? [], spec.containers ?? []] as Container[][]) {
					for (const c of list) {
						if (c.name === name || name === '*') {
							c.image = image;
							found = true;
						}
					}
				}
				if (!found) errs.push(plain(`error: unable to find container named ${JSON.stringify(name)}`));
			}
			return undefined;
		},
		'image updated',
		dry.strategy,
		String(args.flags['field-manager'] || 'kubectl-set'),
		errors,
	);
	return patchedResult(result, errors, dry.stderr);
}

/** populateResourceListV1: `cpu=200m,memory=512Mi` as a resource list; the first bad pair is the error. */
function parseResourceList(spec: string): { list: Record<string, string> } | { error: KubectlError } {
	const list: Record<string, string> = {};
	for (const pair of spec.split(',')) {
		if (!pair) continue;
		const eq = pair.indexOf('=');
		if (eq < 0) return { error: plain(`Invalid argument syntax ${pair}, expected <resource>=<value>`) };
		const name = pair.slice(0, eq);
		const value = pair.slice(eq + 1);
		try {
			list[name] = Quantity.parse(value).toString();
		} catch {
			return { error: plain(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`) };
		}
	}
	return { list };
}

function resourcesRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const limits = String(args.flags.limits ?? '');
	const requests = String(args.flags.requests ?? '');
	if (!limits && !requests) return checkErr(plain('you must specify an update to requests or limits (in the form of --requests/--limits)'), '', dry.stderr);
	const limitsParsed = parseResourceList(limits);
	if ('error' in limitsParsed) return checkErr(limitsParsed.error, '', dry.stderr);
	const requestsParsed = parseResourceList(requests);
	if ('error' in requestsParsed) return checkErr(requestsParsed.error, '', dry.stderr);
	const parsedLimits = limitsParsed.list;
	const parsedRequests = requestsParsed.list;
	if (args.positionals.length < 1 && !((args.flags.filename as string[]) ?? []).length) return checkErr(plain('one or more resources must be specified as <resource> <name> or <resource>/<name>'), '', dry.stderr);
	const visited = visitTargets(inv, dry.stderr);
	if ('result' in visited) return visited.result;
	const selector = String(args.flags.containers ?? '*');
	// filepath.Match with `*` wildcards, as the container selector is matched.
	const matches = (name: string) => new RegExp(`^${selector.replace(/[.+^${}()|[\]\\?]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name);
	const errors: KubectlError[] = [];
	const result = patchPodSpecs(
		inv,
		visited.targets,
		(spec, _obj, _errs, out) => {
			let found = false;
			for (const c of [...(spec.initContainers ?? []), ...(spec.containers ?? [])]) {
				if (!matches(c.name)) continue;
				found = true;
				const resources = (c.resources ??= {});
				if (Object.keys(parsedRequests).length) resources.requests = { ...(resources.requests ?? {}), ...parsedRequests };
				if (Object.keys(parsedLimits).length) resources.limits = { ...(resources.limits ?? {}), ...parsedLimits };
			}
			if (!found) out.stderr += `warning: Unable to find container named ${selector}\n`;
			return undefined;
		},
		'resource requirements updated',
		dry.strategy,
		String(args.flags['field-manager'] || 'kubectl-set'),
		errors,
	);
	return patchedResult(result, errors, dry.stderr);
}

/** validation.IsEnvVarName. */
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** env_parse.go ParseEnv. */
function parseEnv(specs: string[]): { env: Array<{ name: string; value: string }>; remove: string[] } | { error: KubectlError } {
	const env: Array<{ name: string; value: string }> = [];
	const remove: string[] = [];
	for (const spec of specs) {
		if (spec === '-') return { error: plain('reading environment variables from stdin (-) is not supported by this simulated kubectl') };
		if (spec.includes('=')) {
			const eq = spec.indexOf('=');
			const name = spec.slice(0, eq);
			if (!ENV_NAME.test(name)) return { error: plain(`${JSON.stringify(name)} is not a valid key name: a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')`) };
			env.push({ name, value: spec.slice(eq + 1) });
		} else if (spec.endsWith('-')) remove.push(spec.slice(0, -1));
		else return { error: plain(`unknown environment variable: ${spec}`) };
	}
	if (remove.some((r) => env.some((e) => e.name === r))) return { error: plain('can not both modify and remove the same environment variable in the same command') };
	return { env, remove };
}

/** Shell-style wildcard match of container names (`-c 'app*'`), as selectContainers uses path.Match. */
function matchesPattern(pattern: string, name: string): boolean {
	const re = new RegExp(`^${pattern.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.')}$`);
	return re.test(name);
}

function envRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	const split = resourcesAndPairs(args.positionals, 'environment');
	if ('error' in split) return checkErr(plain(`all resources must be specified before environment changes: ${args.positionals.join(' ')}`));
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	if (flags.all === true && flags.selector) return checkErr(plain('cannot set --all and --selector at the same time'), '', dry.stderr);
	if (split.resources.length < 1 && !((flags.filename as string[]) ?? []).length) return checkErr(plain('one or more resources must be specified as <resource> <name> or <resource>/<name>'), '', dry.stderr);
	if (flags.list === true && flags.output) return checkErr(plain('--list and --output may not be specified together'), '', dry.stderr);
	if (flags.local === true) return checkErr(plain('--local is not supported by this simulated kubectl'), '', dry.stderr);
	const parsed = parseEnv([...((flags.env as string[]) ?? []), ...split.pairs]);
	if ('error' in parsed) return checkErr(parsed.error, '', dry.stderr);
	const fromSource = flags.from ? envFromSource(inv, String(flags.from), (flags.keys as string[] | undefined) ?? []) : { env: [] };
	if ('error' in fromSource) return checkErr(fromSource.error, '', dry.stderr);
	const prefix = String(flags.prefix ?? '');
	const env: Array<{ name: string; value?: string; valueFrom?: unknown }> = [...parsed.env, ...fromSource.env].map((e) => ({ ...e, name: prefix + e.name }));
	const visited = visitTargets(inv, dry.stderr, split.resources);
	if ('result' in visited) return visited.result;
	const selector = String(flags.containers ?? '*');
	const overwrite = flags.overwrite !== false;
	const errors: KubectlError[] = [];
	const result = patchPodSpecs(
		inv,
		visited.targets,
		(spec, obj, _errs, out) => {
			const containers = [...(spec.containers ?? []), ...(spec.initContainers ?? [])].filter((c) => matchesPattern(selector, c.name));
			if (containers.length === 0) {
				out.stderr += `Warning: ${obj.kind}/${obj.metadata.name} does not have any containers matching ${JSON.stringify(selector)}\n`;
				return undefined;
			}
			for (const c of containers) {
				const existing = (c.env ?? []) as Array<{ name: string; value?: string; valueFrom?: unknown }>;
				if (!overwrite) {
					for (const e of env) {
						const current = existing.find((x) => x.name === e.name);
						if (current && current.value !== e.value) return plain(`'${e.name}' already has a value (${current.value ?? ''}), and --overwrite is false`);
					}
				}
				// updateEnv: replace in place, drop removed ones, append new ones.
				const covered = new Set(parsed.remove);
				const next: Array<{ name: string; value?: string; valueFrom?: unknown }> = [];
				for (const e of existing) {
					if (covered.has(e.name)) continue;
					const newer = env.find((x) => x.name === e.name);
					if (newer) {
						covered.add(e.name);
						next.push({ ...newer });
					} else next.push(e);
				}
				for (const e of env) {
					if (covered.has(e.name)) continue;
					covered.add(e.name);
					next.push({ ...e });
				}
				if (next.length) c.env = next as Container['env'];
				else delete c.env;
				if (flags.list === true) {
					out.stdout += `# ${obj.kind} ${obj.metadata.name}, container ${c.name}\n`;
					for (const e of next) out.stdout += e.valueFrom === undefined ? `${e.name}=${e.value ?? ''}\n` : `# ${e.name} from ${describeValueFrom(e.valueFrom)}\n`;
				}
			}
			return undefined;
		},
		'env updated',
		dry.strategy,
		String(flags['field-manager'] || 'kubectl-set'),
		errors,
		flags.list === true,
	);
	return patchedResult(result, errors, dry.stderr);
}

/**
 * `--from=configmap/NAME` or `secret/NAME`: one variable per key (or per
 * key of `--keys`), named by keyToEnvName (characters outside [A-Za-z0-9_]
 * become _, upper-cased) and read from the object by reference. Go walks
 * the keys in map order; they are sorted here.
 */
function envFromSource(inv: KubectlInvocation, from: string, keys: readonly string[]): { env: Array<{ name: string; valueFrom: unknown }> } | { error: KubectlError } {
	const type = resolveResourceName(from);
	if (!type.ok) return { error: plain(type.error) };
	if (type.info.kind !== 'ConfigMap' && type.info.kind !== 'Secret') return { error: plain('unsupported resource specified in --from') };
	const got = inv.client.get(refOf(type.info), inv.namespace, type.name);
	if (!got.ok) return { error: callError(got, inv.env.serverUrl) };
	const data = (got.object as KubeObject & { data?: Record<string, string> }).data ?? {};
	const ref = type.info.kind === 'Secret' ? 'secretKeyRef' : 'configMapKeyRef';
	return {
		env: Object.keys(data)
			.sort()
			.filter((key) => keys.length === 0 || keys.includes(key))
			.map((key) => ({ name: key.replace(/[^a-zA-Z0-9_]/g, '_').toUpperCase(), valueFrom: { [ref]: { key, name: type.name } } })),
	};
}

/** envutil.GetEnvVarRefString: where a variable's value comes from. */
function describeValueFrom(from: unknown): string {
	const f = from as { configMapKeyRef?: { name: string; key: string }; secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string }; resourceFieldRef?: { containerName?: string; resource: string } };
	if (f.configMapKeyRef) return `configmap ${f.configMapKeyRef.name}, key ${f.configMapKeyRef.key}`;
	if (f.secretKeyRef) return `secret ${f.secretKeyRef.name}, key ${f.secretKeyRef.key}`;
	if (f.fieldRef) return `field path ${f.fieldRef.fieldPath}`;
	if (f.resourceFieldRef) return `resource ${f.resourceFieldRef.resource}, container ${f.resourceFieldRef.containerName ?? ''}`;
	return 'invalid source';
}

const SUBCOMMANDS: Subcommand[] = [
	{
		name: 'image',
		summary: 'Update the image of a pod template',
		usage: 'kubectl set image (-f FILENAME | TYPE NAME) CONTAINER_NAME_1=CONTAINER_IMAGE_1 ... CONTAINER_NAME_N=CONTAINER_IMAGE_N',
		flags: [...RESOURCE_FLAGS, FIELD_MANAGER_FLAG('kubectl-set')],
		run: imageRun,
	},
	{
		name: 'env',
		summary: 'Update environment variables on a pod template',
		usage: 'kubectl set env RESOURCE/NAME KEY_1=VAL_1 ... KEY_N=VAL_N',
		flags: [
			...RESOURCE_FLAGS,
			FIELD_MANAGER_FLAG('kubectl-set'),
			{ name: 'containers', short: 'c', kind: 'string', default: '*' },
			{ name: 'from', kind: 'string' },
			{ name: 'prefix', kind: 'string' },
			{ name: 'env', short: 'e', kind: 'stringArray', noSplit: true },
			{ name: 'keys', kind: 'stringArray' },
			{ name: 'list', kind: 'bool' },
			{ name: 'resolve', kind: 'bool' },
			{ name: 'overwrite', kind: 'bool', default: true },
		],
		run: envRun,
	},
];

SUBCOMMANDS.push({
	name: 'resources',
	summary: 'Update resource requests/limits on objects with pod templates',
	usage: 'kubectl set resources (-f FILENAME | TYPE NAME)  ([--limits=LIMITS & --requests=REQUESTS]',
	flags: [
		...RESOURCE_FLAGS,
		FIELD_MANAGER_FLAG('kubectl-set'),
		{ name: 'containers', short: 'c', kind: 'string', default: '*' },
		{ name: 'limits', kind: 'string' },
		{ name: 'requests', kind: 'string' },
	],
	run: resourcesRun,
});

/** set_serviceaccount.go: the last argument is the account, the ones before it the resources. */
function serviceAccountRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	if (args.positionals.length === 0) return checkErr(plain('serviceaccount is required'));
	const account = args.positionals[args.positionals.length - 1];
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const visited = visitTargets(inv, dry.stderr, args.positionals.slice(0, -1));
	if ('result' in visited) return visited.result;
	const errors: KubectlError[] = [];
	const result = patchPodSpecs(
		inv,
		visited.targets,
		(spec) => {
			spec.serviceAccountName = account;
			return undefined;
		},
		'serviceaccount updated',
		dry.strategy,
		String(args.flags['field-manager'] || 'kubectl-set'),
		errors,
	);
	return patchedResult(result, errors, dry.stderr);
}

/** set_selector.go: the last argument is the selector; only a Service's (a plain map) can be set. */
function selectorRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const positionals = args.positionals;
	const parsed = positionals.length ? parseToLabelSelector(positionals[positionals.length - 1]) : undefined;
	if (parsed && 'error' in parsed) return checkErr(parsed.error);
	if (!parsed) return checkErr(plain('one selector is required'));
	const selector = parsed.selector as { matchLabels?: Record<string, string>; matchExpressions?: Array<{ key: string; operator: string; values?: string[] }> };
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const visited = visitTargets(inv, dry.stderr, positionals.slice(0, -1));
	if ('result' in visited) return visited.result;
	const errors: KubectlError[] = [];
	const result = patchObjects(
		inv,
		visited.targets,
		(obj) => {
			if (obj.kind !== 'Service') return plain('setting a selector is only supported for Services');
			// Go prints the expressions as %v of []LabelSelectorRequirement.
			if (selector.matchExpressions?.length) return plain(`match expression [${selector.matchExpressions.map((e) => `{${e.key} ${e.operator} [${(e.values ?? []).join(' ')}]}`).join(' ')}] not supported on this object`);
			(obj.spec as { selector?: Record<string, string> }).selector = { ...selector.matchLabels };
			return undefined;
		},
		'selector updated',
		'',
		dry.strategy,
		String(args.flags['field-manager'] || 'kubectl-set'),
		errors,
	);
	return patchedResult(result, errors, dry.stderr);
}

interface Subject {
	kind: string;
	apiGroup?: string;
	name: string;
	namespace?: string;
}

/** set_subject.go: users, groups and service accounts added to a binding's subjects, each once. */
function subjectRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const users = (args.flags.user as string[] | undefined) ?? [];
	const groups = (args.flags.group as string[] | undefined) ?? [];
	const accounts = (args.flags.serviceaccount as string[] | undefined) ?? [];
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	if (args.flags.all === true && args.flags.selector) return checkErr(plain('cannot set --all and --selector at the same time'), '', dry.stderr);
	if (users.length === 0 && groups.length === 0 && accounts.length === 0) return checkErr(plain('you must specify at least one value of user, group or serviceaccount'), '', dry.stderr);
	for (const account of accounts) {
		const tokens = account.split(':');
		if (tokens.length !== 2 || tokens[1] === '') return checkErr(plain('serviceaccount must be <namespace>:<name>'), '', dry.stderr);
	}
	const visited = visitTargets(inv, dry.stderr);
	if ('result' in visited) return visited.result;
	for (const account of accounts) {
		if (account.startsWith(':') && visited.targets.some((t) => (t.object as KubeObject).kind === 'ClusterRoleBinding')) return checkErr(plain('serviceaccount must be <namespace>:<name>, namespace must be specified'), '', dry.stderr);
	}
	const wanted: Subject[] = [
		...users.map((name) => ({ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name })),
		...groups.map((name) => ({ kind: 'Group', apiGroup: 'rbac.authorization.k8s.io', name })),
		...accounts.map((account) => {
			const [namespace, name] = account.split(':');
			return { kind: 'ServiceAccount', name, namespace: namespace || inv.namespace };
		}),
	];
	const same = (a: Subject, b: Subject) => a.kind === b.kind && a.name === b.name && (a.namespace ?? '') === (b.namespace ?? '') && (a.apiGroup ?? '') === (b.apiGroup ?? '');
	const errors: KubectlError[] = [];
	const result = patchObjects(
		inv,
		visited.targets,
		(obj) => {
			if (obj.kind !== 'RoleBinding' && obj.kind !== 'ClusterRoleBinding') return plain('setting subjects is only supported for RoleBinding/ClusterRoleBinding');
			const binding = obj as KubeObject & { subjects?: Subject[] };
			const subjects = [...(binding.subjects ?? [])];
			for (const subject of wanted) if (!subjects.some((s) => same(s, subject))) subjects.push(subject);
			binding.subjects = subjects;
			return undefined;
		},
		'subjects updated',
		'',
		dry.strategy,
		String(args.flags['field-manager'] || 'kubectl-set'),
		errors,
	);
	return patchedResult(result, errors, dry.stderr);
}

SUBCOMMANDS.push(
	{
		name: 'serviceaccount',
		aliases: ['sa'],
		summary: 'Update the service account of a resource',
		usage: 'kubectl set serviceaccount (-f FILENAME | TYPE NAME) SERVICE_ACCOUNT',
		flags: [...RESOURCE_FLAGS, FIELD_MANAGER_FLAG('kubectl-set')],
		run: serviceAccountRun,
	},
	{
		name: 'selector',
		summary: 'Set the selector on a resource',
		usage: 'kubectl set selector (-f FILENAME | TYPE NAME) EXPRESSIONS [--resource-version=version]',
		flags: [...RESOURCE_FLAGS, FIELD_MANAGER_FLAG('kubectl-set'), { name: 'resource-version', kind: 'string' }],
		run: selectorRun,
	},
	{
		name: 'subject',
		summary: 'Update the user, group, or service account in a role binding or cluster role binding',
		usage: 'kubectl set subject (-f FILENAME | TYPE NAME) [--user=username] [--group=groupname] [--serviceaccount=namespace:serviceaccountname] [--dry-run=server|client|none]',
		flags: [...RESOURCE_FLAGS, FIELD_MANAGER_FLAG('kubectl-set'), { name: 'user', kind: 'stringArray' }, { name: 'group', kind: 'stringArray' }, { name: 'serviceaccount', kind: 'stringArray' }],
		run: subjectRun,
	},
);

export const setCommand: KubectlCommand = {
	name: 'set',
	summary: 'Set specific features on objects',
	usage: 'kubectl set SUBCOMMAND',
	subcommands: SUBCOMMANDS.map((s) => s.name),
	flags: unionFlags(...SUBCOMMANDS.map((s) => s.flags)),
	handlesHelp: true,
	run: (inv) =>
		runParent(
			inv,
			{ name: 'set', long: 'Configure application resources.\n\n These commands help you make changes to existing application resources.', usage: 'kubectl set SUBCOMMAND', flags: setCommand.flags, bare: 'help-on-stderr' },
			SUBCOMMANDS,
		),
};
