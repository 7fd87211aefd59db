/**
 * `kubectl describe`: the details of one or many objects, each through its
 * kind's describer, separated by two blank lines; events only when a single
 * object is described (unless `--show-events` says otherwise); a name that
 * matches nothing falls back to every object whose name starts with it.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go
 * (ToOptions, Run, DescribeMatchingResources).
 */
import type { KubeList, KubeObject } from '../../api/types.ts';
import { refOf } from '../../client/client.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import type { FlagSpec } from '../flags.ts';
import { apiErrorMessage, errorText, fetchTargets, parseResourceArgs, warningText, withTypeMeta, type ResourceTarget } from '../resource-args.ts';
import { describerFor, type DescribeContext } from '../describe/index.ts';
import { SUGGEST_API_RESOURCES } from './get.ts';

/** describe's flags (DescribeFlags.AddFlags). `--chunk-size` sets the page size of lists. */
const DESCRIBE_FLAGS: FlagSpec[] = [
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'all-namespaces', short: 'A', kind: 'bool' },
	{ name: 'show-events', kind: 'bool', default: true },
	// cmdutil.DefaultChunkSize.
	{ name: 'chunk-size', kind: 'int', default: 500 },
];

interface Described {
	obj: KubeObject;
	target: ResourceTarget;
}

/** Runs `kubectl describe`. */
function runDescribe(invocation: KubectlInvocation): CommandResult {
	const { args, env } = invocation;
	const flags = args.flags;
	if (args.positionals.length === 0 && ((flags.filename as string[]) ?? []).length === 0) {
		return { stdout: '', stderr: `error: You must specify the type of resource to describe. ${SUGGEST_API_RESOURCES}\n`, exitCode: 1 };
	}
	if (typeof flags.kustomize === 'string' && flags.kustomize) return { stdout: '', stderr: errorText(['-k (kustomize) is not supported by the simulated kubectl']), exitCode: 1 };
	const parsed = parseResourceArgs(invocation, { allowEmptySelector: true });
	if (parsed.error) return { stdout: '', stderr: parsed.error, exitCode: 1 };
	const fetched = fetchTargets(invocation, parsed.targets, { chunkSize: Number(flags['chunk-size']) });
	let stderr = warningText(fetched.warnings);
	if (fetched.fatal) return { stdout: '', stderr: `${stderr}${fetched.fatal}\n`, exitCode: 1 };
	const infos: Described[] = fetched.fetched.flatMap((f) => f.objects.map((obj) => ({ obj, target: f.target })));
	const explicitEvents = args.set.has('show-events');
	const ctx: DescribeContext = {
		client: invocation.client,
		nowMs: env.wallMs(),
		serverUrl: env.serverUrl,
		showEvents: explicitEvents ? flags['show-events'] === true : fetched.errors.length === 0 && infos.length <= 1,
	};

	// DescribeMatchingResources: `describe pod web` finds `web-abc` when no `web` exists.
	if (fetched.errors.length === 1 && infos.length === 0 && /^Error from server \(NotFound\)/.test(fetched.errors[0]) && args.positionals.length === 2 && parsed.targets.length === 1) {
		return describeMatching(invocation, parsed.targets[0], args.positionals[1], ctx, fetched.errors[0], stderr);
	}

	const errors = [...fetched.errors];
	let stdout = '';
	let first = true;
	for (const { obj, target } of infos) {
		const described = describerFor(target.info)(obj, ctx);
		if (!described.ok) {
			if (!errors.includes(described.error)) errors.push(described.error);
			continue;
		}
		stdout += first ? described.text : `\n\n${described.text}`;
		first = false;
	}
	if (infos.length === 0 && errors.length === 0) stderr += parsed.allNamespaces ? 'No resources found\n' : `No resources found in ${parsed.namespace} namespace.\n`;
	if (errors.length) stderr += errorText(errors);
	return { stdout, stderr, exitCode: errors.length ? 1 : 0 };
}

/** DescribeMatchingResources: every object of the type in the namespace whose name starts with `prefix`, each followed by a blank line. */
function describeMatching(invocation: KubectlInvocation, target: ResourceTarget, prefix: string, ctx: DescribeContext, originalError: string, stderrSoFar: string): CommandResult {
	const listed = invocation.client.list(refOf(target.info), target.info.namespaced ? invocation.namespace : undefined);
	if (!listed.ok) return { stdout: '', stderr: stderrSoFar + errorText([apiErrorMessage(listed, invocation.env.serverUrl)]), exitCode: 1 };
	const matching = ((listed.object as KubeList).items ?? []).filter((o) => (o.metadata.name ?? '').startsWith(prefix));
	if (matching.length === 0) return { stdout: '', stderr: stderrSoFar + errorText([originalError]), exitCode: 1 };
	let stdout = '';
	for (const item of matching) {
		const described = describerFor(target.info)(withTypeMeta(target.info, item), ctx);
		if (!described.ok) return { stdout, stderr: stderrSoFar + errorText([described.error]), exitCode: 1 };
		stdout += `${described.text}\n`;
	}
	return { stdout, stderr: stderrSoFar, exitCode: 0 };
}

export const describeCommand: KubectlCommand = {
	name: 'describe',
	summary: 'Show details of a specific resource or group of resources',
	usage: 'kubectl describe (-f FILENAME | TYPE [NAME_PREFIX | -l label] | TYPE/NAME)',
	flags: DESCRIBE_FLAGS,
	run: runDescribe,
};
