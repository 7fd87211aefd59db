/**
 * `kubectl apply view-last-applied` and `set-last-applied`: the
 * `kubectl.kubernetes.io/last-applied-configuration` annotation that
 * client-side apply diffs against, shown as YAML (or indented JSON), and
 * replaced by a file's content without touching the rest of the object.
 * `edit-last-applied` would open it in an editor; it is refused with the
 * way to do the same here.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/apply/apply_view_last_applied.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/apply/apply_set_last_applied.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { refOf } from '../../client/client.ts';
import { stringifyYaml } from '../../yaml/stringify.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import type { CommandResult } from '../../shell/types.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { DRY_RUN_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter } from './print-flags.ts';
import { objectName } from './resource-info.ts';
import type { Subcommand } from './subcommand.ts';
import { visit } from './visit.ts';
import { LAST_APPLIED_ANNOTATION, modifiedConfiguration } from './last-applied.ts';

const FILE_FLAGS: FlagSpec[] = [
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
];

/** json.Indent with two spaces: the stored compact JSON laid out, its trailing newline kept. */
function indentJson(text: string): string {
	const trailing = /\s*$/.exec(text)?.[0] ?? '';
	return JSON.stringify(JSON.parse(text), null, 2) + trailing;
}

function viewRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const format = String(args.flags.output || 'yaml');
	if (format !== 'yaml' && format !== 'json') return checkErr(plain(`unexpected -o output mode: ${format}, the flag 'output' must be one of yaml|json`));
	const visited = visit(inv, { allowEmptySelector: args.flags.all === true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	if (visited.errors.length) return checkErr(visited.errors[0]);
	let stdout = '';
	for (const target of visited.targets) {
		const config = (target.object as KubeObject | undefined)?.metadata.annotations?.[LAST_APPLIED_ANNOTATION];
		if (config === undefined) return checkErr(plain(`no last-applied-configuration annotation found on resource: ${target.name}`), stdout);
		// yaml.JSONToYAML: the keys sorted, as any map the YAML encoder writes.
		stdout += format === 'json' ? indentJson(config) : stringifyYaml(JSON.parse(config));
	}
	return { stdout, stderr: '', exitCode: 0 };
}

function setRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	if (((args.flags.filename as string[] | undefined) ?? []).length === 0 && !args.flags.kustomize) return checkErr(plain('must specify one of -f and -k'), '', dry.stderr);
	// The manifests as written, then each one's live object.
	const local = visit(inv, { allowEmptySelector: false, requireObject: false });
	if (local.usage) return { stdout: '', stderr: dry.stderr + local.usage, exitCode: 1 };
	if (local.fatal) return checkErr(local.fatal, '', dry.stderr);
	let stdout = '';
	const errors: KubectlError[] = [];
	for (const target of local.targets) {
		const manifest = target.object as KubeObject;
		const got = inv.client.get(refOf(target.info), target.namespace, target.name);
		if (!got.ok) {
			if (got.transport) return checkErr(callError(got, inv.env.serverUrl), stdout, dry.stderr);
			errors.push(callError(got, inv.env.serverUrl));
			continue;
		}
		if (got.object.metadata.annotations?.[LAST_APPLIED_ANNOTATION] === undefined && args.flags['create-annotation'] !== true) {
			errors.push(plain(`no last-applied-configuration annotation found on resource: ${target.name}, to create the annotation, run the command with --create-annotation`));
			continue;
		}
		// GetModifiedConfiguration(info.Object, false): the manifest without the annotation, keys sorted, a newline.
		const config = modifiedConfiguration(manifest, false).json;
		const patch = { metadata: { annotations: { [LAST_APPLIED_ANNOTATION]: config } } };
		if (dry.strategy === 'client') {
			stdout += printer.printer({ ...got.object, metadata: { ...got.object.metadata, annotations: { ...got.object.metadata.annotations, [LAST_APPLIED_ANNOTATION]: config } } }, 'configured');
			continue;
		}
		const patched = inv.client.patch(refOf(target.info), target.namespace, target.name, patch, 'application/merge-patch+json', undefined, dry.strategy === 'server' ? { dryRun: 'All' } : undefined);
		if (!patched.ok) {
			if (patched.transport) return checkErr(callError(patched, inv.env.serverUrl), stdout, dry.stderr);
			errors.push(plain(`error: ${objectName(target)} ${patched.message}`));
			continue;
		}
		stdout += printer.printer({ ...patched.object, apiVersion: manifest.apiVersion, kind: manifest.kind }, 'configured');
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, dry.stderr);
	return { stdout, stderr: dry.stderr, exitCode: 0 };
}

export const LAST_APPLIED_SUBCOMMANDS: Subcommand[] = [
	{
		name: 'view-last-applied',
		summary: 'View the latest last-applied-configuration annotations of a resource/object',
		usage: 'kubectl apply view-last-applied (TYPE [NAME | -l label] | TYPE/NAME | -f FILENAME)',
		flags: [...FILE_FLAGS, { name: 'output', short: 'o', kind: 'string', default: 'yaml' }, { name: 'selector', short: 'l', kind: 'string' }, { name: 'all', kind: 'bool' }],
		run: viewRun,
	},
	{
		name: 'set-last-applied',
		summary: 'Set the last-applied-configuration annotation on a live object to match the contents of a file',
		usage: 'kubectl apply set-last-applied -f FILENAME',
		flags: [...FILE_FLAGS, ...PRINT_FLAGS, DRY_RUN_FLAG, { name: 'create-annotation', kind: 'bool' }],
		run: setRun,
	},
	{
		name: 'edit-last-applied',
		summary: 'Edit latest last-applied-configuration annotations of a resource/object',
		usage: 'kubectl apply edit-last-applied (RESOURCE/NAME | -f FILENAME)',
		flags: [...FILE_FLAGS, ...PRINT_FLAGS, { name: 'windows-line-endings', kind: 'bool' }, { name: 'field-manager', kind: 'string', default: 'kubectl-client-side-apply' }],
		run: () => checkErr(plain('edit-last-applied is not supported by this simulated kubectl: view the annotation with kubectl apply view-last-applied, write the file you want and run kubectl apply set-last-applied -f FILE')),
	},
];
