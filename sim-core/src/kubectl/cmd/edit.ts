/**
 * `kubectl edit (TYPE NAME | TYPE/NAME | -f FILE) [-o yaml|json]`: fetches
 * the objects, opens them in the reader's editor under kubectl's header,
 * and when the editor closes turns what was saved into a patch per object
 * (strategic merge for built-in kinds, from the object as opened to the
 * object as saved) and sends it. Saving nothing, or the same text, cancels;
 * an object the server finds invalid reopens the editor with the server's
 * causes at the top; a conflict or a deleted object leaves a copy of the
 * edits in /tmp and says how to retry.
 *
 * The editor is the environment's (`KubectlEnvironment.editor`): in the
 * sandbox the editor it opens in its terminal, in a test or a replay the
 * texts the reader saved.
 * Without one, the editor closes as it opened (`EDITOR=true`).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/edit/edit.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/util/editor/editoptions.go (the
 * header, editResults.addError, preservedFile, hasLines, visitToPatch).
 */
import type { KubeObject } from '../../api/types.ts';
import { jsonEqual, stringifyJsonLikeKubectl, type JsonObject, type JsonValue } from '../../golang/json.ts';
import { refOf } from '../../client/client.ts';
import { parseYaml, stringifyYaml, YamlError } from '../../yaml/index.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { createThreeWayMergePatch } from './three-way-merge.ts';
import { chunkedResult } from './run-attach.ts';
import { objectRefName } from '../names.ts';
import { isFatalCall } from './resource-info.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { TargetInfo } from './resource-info.ts';

/** editHeader.writeTo in the normal edit mode. */
const HEADER =
	"# Please edit the object below. Lines beginning with a '#' will be ignored,\n" +
	'# and an empty file will abort the edit. If an error occurs while saving this file will be\n' +
	'# reopened with the relevant failures.\n' +
	'#\n';

/** Why the file is reopened: a head line and its items (editReason). */
interface EditReason {
	head: string;
	other: string[];
}

/** hashOnLineBreak: continuation lines of a message stay comments. */
function hashOnLineBreak(text: string): string {
	return text.replace(/\n(?!#)/g, '\n# ');
}

function headerWith(reasons: readonly EditReason[]): string {
	let out = HEADER;
	for (const r of reasons) {
		out += r.other.length ? `# ${hashOnLineBreak(r.head)}:\n` : `# ${hashOnLineBreak(r.head)}\n`;
		for (const o of r.other) out += `# * ${hashOnLineBreak(o)}\n`;
		out += '#\n';
	}
	return out;
}

/** cmdutil.StripComments: the text without its comment lines, for comparing two saves. */
function stripComments(text: string): string {
	return text
		.split('\n')
		.filter((line) => !line.trimStart().startsWith('#'))
		.join('\n')
		.trim();
}

/** hasLines: a line that is neither blank nor a comment. */
function hasLines(text: string): boolean {
	return text.split('\n').some((line) => {
		const t = line.trim();
		return t.length > 0 && t[0] !== '#';
	});
}

/** `deployments.apps`, as editResults.addError names a resource. */
function resourceString(target: TargetInfo): string {
	return target.info.group ? `${target.info.resource}.${target.info.group}` : target.info.resource;
}

/** The object as the editor shows it: as read, without managedFields (extractManagedFields). */
function forEditing(obj: KubeObject): KubeObject {
	const metadata = { ...obj.metadata };
	delete (metadata as { managedFields?: unknown }).managedFields;
	return { ...obj, metadata };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const output = String(args.flags.output ?? 'yaml').toLowerCase();
	if (output !== 'yaml' && output !== 'json') return checkErr(plain(`the edit mode doesn't support output the format "${output}"`));
	const visited = visit(inv, { allowEmptySelector: false, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	if (visited.errors.length) return checkErr(visited.errors.length === 1 ? visited.errors[0] : { kind: 'aggregate', errors: visited.errors });
	const targets = visited.targets;
	if (targets.length === 0) return checkErr(plain('edit cancelled, no objects found'));

	const print = (obj: unknown) => (output === 'json' ? stringifyJsonLikeKubectl(obj as JsonValue) : stringifyYaml(obj as JsonValue));
	const recorded = inv.env.editOpened?.();
	const originals = recorded === undefined ? targets.map((t) => forEditing(t.object as KubeObject)) : objectsOf(recorded, targets.length);
	if (!originals) return checkErr(plain('the recorded editor text does not match the objects to edit'));
	const opened: KubeObject = originals.length === 1 ? originals[0] : ({ apiVersion: 'v1', kind: 'List', metadata: {}, items: originals } as unknown as KubeObject);
	const original = recorded ?? HEADER + print(opened);
	const file = `/tmp/kubectl-edit-${String(1_000_000_000 + (inv.env.editSequence?.() ?? 0))}.${output === 'json' ? 'json' : 'yaml'}`;
	const editor = inv.env.editor ?? ((_path: string, text: string) => text);

	// The two streams in the order written: an invalid save's error shows before the editor reopens, so before what the next save printed.
	const chunks: Array<{ fd: 1 | 2; text: string }> = [];
	const out = (text: string) => void chunks.push({ fd: 1, text });
	const err = (text: string) => void chunks.push({ fd: 2, text });
	const done = (code: number): CommandResult => chunkedResult(chunks, code);
	/** preservedFile: the edits stay in /tmp, and the reader is told where. */
	const preserved = (message: string): CommandResult => {
		err(`A copy of your changes has been stored to ${JSON.stringify(file)}\nerror: ${message}\n`);
		return done(1);
	};

	let buffer = original;
	let reasons: EditReason[] = [];
	let previous: string | undefined;
	for (;;) {
		const edited = editor(file, buffer);
		inv.env.writeFile?.(file, edited);
		if (previous !== undefined && stripComments(previous) === stripComments(edited)) return preserved('Edit cancelled, no valid changes were saved.');
		if (stripComments(original) === stripComments(edited)) {
			err('Edit cancelled, no changes made.\n');
			return done(0);
		}
		if (!hasLines(edited)) {
			err('Edit cancelled, saved file was empty.\n');
			return done(0);
		}
		reasons = [];
		let parsed: unknown;
		try {
			parsed = parseYaml(stripComments(edited));
		} catch (error) {
			if (!(error instanceof YamlError)) throw error;
			reasons.push({ head: `The edited file had a syntax error: error converting YAML to JSON: yaml: line ${error.line}: ${error.reason}`, other: [] });
		}
		if (!reasons.length) {
			const saved = parsed as KubeObject & { items?: KubeObject[] };
			const items = saved && saved.kind === 'List' && Array.isArray(saved.items) ? saved.items : [saved];
			let retryable = 0;
			let notFound = 0;
			for (const item of items) {
				const index = originals.findIndex((o) => o.metadata?.uid === item?.metadata?.uid);
				if (index < 0) return preserved(`no original object found for ${JSON.stringify(item?.metadata?.name ?? '')}`);
				const target = targets[index];
				const before = originals[index];
				if (jsonEqual(before as unknown as JsonValue, item as unknown as JsonValue)) {
					out(`${objectRefName(before)} skipped\n`);
					continue;
				}
				// visitToPatch's preconditions: the patch may not rename or retype the object.
				if (item.apiVersion !== before.apiVersion || item.kind !== before.kind || item.metadata?.name !== before.metadata.name)
					return preserved('At least one of apiVersion, kind and name was changed');
				const patch = createThreeWayMergePatch(before as unknown as JsonObject, item as unknown as JsonObject, before as unknown as JsonObject, target.info.kind);
				if (args.flags['output-patch'] === true) out(`Patch: ${JSON.stringify(patch)}\n`);
				const result = inv.client.patch(refOf(target.info), target.namespace, target.name, patch, 'application/strategic-merge-patch+json', undefined, { fieldManager: 'kubectl-edit' });
				if (result.ok) {
					out(`${objectRefName(before)} edited\n`);
					continue;
				}
				if (isFatalCall(result)) {
					const fatal = checkErr(callError(result, inv.env.serverUrl));
					out(fatal.stdout);
					err(fatal.stderr);
					return done(fatal.exitCode);
				}
				const name = JSON.stringify(target.name);
				if (result.code === 422) {
					reasons.push({ head: `${resourceString(target)} ${name} was not valid`, other: (result.details?.causes ?? []).map((c) => `${c.field ?? ''}: ${c.message ?? ''}`) });
					err(`error: ${resourceString(target)} ${name} is invalid\n`);
				} else if (result.code === 404) {
					notFound++;
					err(`error: ${resourceString(target)} ${name} could not be found on the server\n`);
				} else {
					retryable++;
					err(`error: ${resourceString(target)} ${name} could not be patched: ${errorMessage(callError(result, inv.env.serverUrl))}\n`);
				}
			}
			if (retryable) {
				err(`You can run \`kubectl replace -f ${file}\` to try this update again.\n`);
				return done(1);
			}
			if (notFound) {
				err(`The edits you made on deleted resources have been saved to ${JSON.stringify(file)}\n`);
				return done(1);
			}
			if (!reasons.length) return done(0);
		}
		// Reopen the editor: the latest header with the reasons, then what was saved, without its comments.
		previous = edited;
		buffer = headerWith(reasons) + manualStrip(edited);
	}
}

/** The objects of an editor text as opened (a single object or a List of `count`), or undefined when it is not one. */
function objectsOf(text: string, count: number): KubeObject[] | undefined {
	let parsed: unknown;
	try {
		parsed = parseYaml(stripComments(text));
	} catch {
		return undefined;
	}
	const obj = parsed as KubeObject & { items?: KubeObject[] };
	if (!obj || typeof obj !== 'object') return undefined;
	const items = obj.kind === 'List' && Array.isArray(obj.items) ? obj.items : [obj];
	return items.length === count ? items : undefined;
}

/** cmdutil.ManualStrip: the saved text without its comment lines, kept as typed otherwise. */
function manualStrip(text: string): string {
	return text
		.split('\n')
		.filter((line) => !line.startsWith('#'))
		.join('\n');
}

function errorMessage(error: KubectlError): string {
	return 'message' in error ? error.message : '';
}

export const editCommand: KubectlCommand = {
	name: 'edit',
	summary: 'Edit a resource on the server',
	usage: 'kubectl edit (RESOURCE/NAME | -f FILENAME)',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'output', short: 'o', kind: 'string', default: 'yaml' },
		{ name: 'output-patch', kind: 'bool' },
		{ name: 'windows-line-endings', kind: 'bool' },
		{ name: 'save-config', kind: 'bool' },
		{ name: 'validate', kind: 'string', default: 'strict', noOptDefault: 'strict' },
		{ name: 'field-manager', kind: 'string', default: 'kubectl-edit' },
		{ name: 'subresource', kind: 'string' },
		{ name: 'show-managed-fields', kind: 'bool' },
		{ name: 'allow-missing-template-keys', kind: 'bool', default: true },
		{ name: 'template', kind: 'string' },
	],
	run,
};
