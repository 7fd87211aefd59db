/**
 * `kubectl patch (TYPE NAME | -f FILE) -p PATCH [--type=strategic|merge|json]`:
 * sends the patch (YAML or JSON, converted to JSON) to the server and
 * prints `deployment.apps/nginx patched`, or `(no change)` when the object
 * came back as it was.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { jsonEqual, type JsonValue } from '../../golang/json.ts';
import { applyPatch } from '../../api/patch.ts';
import type { PatchType } from '../../api/request.ts';
import { refOf } from '../../client/client.ts';
import { parseYaml, YamlError } from '../../yaml/index.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter } from './print-flags.ts';
import { isFatalCall } from './resource-info.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';

/** patch.go patchTypes. */
const PATCH_TYPES: Record<string, PatchType> = {
	json: 'application/json-patch+json',
	merge: 'application/merge-patch+json',
	strategic: 'application/strategic-merge-patch+json',
};

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const fail = (error: KubectlError) => checkErr(error, '', dry.stderr);
	const patchText = String(flags.patch ?? '');
	const patchFile = String(flags['patch-file'] ?? '');
	const typeText = String(flags.type ?? '');
	// Validate.
	if (patchText && patchFile) return fail(plain('cannot specify --patch and --patch-file together'));
	if (!patchText && !patchFile) return fail(plain('must specify --patch or --patch-file containing the contents of the patch'));
	if (flags.local === true && args.positionals.length) return fail(plain('cannot specify --local and server resources'));
	if (flags.local === true && dry.strategy === 'server') return fail(plain('cannot specify --local and --dry-run=server - did you mean --dry-run=client?'));
	if (typeText && !Object.hasOwn(PATCH_TYPES, typeText.toLowerCase())) return fail(plain(`--type must be one of [json merge strategic], not ${JSON.stringify(typeText)}`));
	if (flags.local === true) return fail(plain('--local is not supported by this simulated kubectl'));
	const patchType = typeText ? PATCH_TYPES[typeText.toLowerCase()] : PATCH_TYPES.strategic;
	let source = patchText;
	if (patchFile) {
		const text = inv.env.readFile(patchFile);
		if (text === undefined) return fail(plain(`unable to read patch file: open ${patchFile}: no such file or directory`));
		source = text;
	}
	let patch: unknown;
	try {
		patch = parseYaml(source);
	} catch (error) {
		if (error instanceof YamlError) return fail(plain(`unable to parse ${JSON.stringify(patchText)}: yaml: line ${error.line}: ${error.reason}`));
		throw error;
	}
	const visited = visit(inv, { allowEmptySelector: false, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: dry.stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return fail(visited.fatal);
	let stdout = '';
	const errors: KubectlError[] = [...visited.errors];
	const subresource = flags.subresource ? String(flags.subresource) : undefined;
	for (const target of visited.targets) {
		const before = target.object as KubeObject;
		let after: KubeObject;
		if (dry.strategy === 'client') {
			const local = applyPatch(before, patch, patchType, target.info.kind);
			if ('error' in local) {
				errors.push(plain(local.error));
				continue;
			}
			after = local.value as KubeObject;
		} else {
			const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(flags['field-manager'] || 'kubectl-patch') };
			if (dry.strategy === 'server') query.dryRun = 'All';
			const result = inv.client.patch(refOf(target.info), target.namespace, target.name, patch, patchType, subresource, query);
			if (!result.ok) {
				if (isFatalCall(result)) return checkErr(callError(result, inv.env.serverUrl), stdout, dry.stderr);
				errors.push(callError(result, inv.env.serverUrl));
				continue;
			}
			after = { ...result.object, apiVersion: result.object.apiVersion || before.apiVersion, kind: result.object.kind || before.kind };
		}
		const changed = !jsonEqual(before as unknown as JsonValue, after as unknown as JsonValue);
		stdout += printer.printer(after, changed ? 'patched' : 'patched (no change)');
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, dry.stderr);
	if (visited.targets.length === 0) return checkErr(plain('no objects passed to patch'), stdout, dry.stderr);
	return { stdout, stderr: dry.stderr, exitCode: 0 };
}

export const patchCommand: KubectlCommand = {
	name: 'patch',
	summary: 'Update fields of a resource',
	usage: 'kubectl patch (-f FILENAME | TYPE NAME) [-p PATCH|--patch-file FILE]',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'patch', short: 'p', kind: 'string' },
		{ name: 'patch-file', kind: 'string' },
		{ name: 'type', kind: 'string', default: 'strategic' },
		{ name: 'local', kind: 'bool' },
		{ name: 'subresource', kind: 'string' },
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		FIELD_MANAGER_FLAG('kubectl-patch'),
	],
	run,
};
