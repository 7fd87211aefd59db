/**
 * `kubectl label TYPE NAME key=value [key2-] [--overwrite] [--list]`:
 * changes labels with a JSON merge patch of the object, printing
 * `pod/web labeled` (`unlabeled`, `modified`, `not labeled`). Changing an
 * existing value needs --overwrite: `error: 'app' already has a value
 * (nginx), and --overwrite is false`.
 *
 * The shared half (resource/pair splitting, the metadata map edit and
 * patch) also serves `kubectl annotate` (./annotate.ts).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/label/label.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go (GetResourcesAndPairs,
 * ParsePairs).
 */
import type { KubeObject } from '../../api/types.ts';
import { isValidLabelValue } from '../../api/labels.ts';
import { refOf } from '../../client/client.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, warningLines, type KubectlError } from './check-err.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter, type DryRunStrategy } from './print-flags.ts';
import { isFatalCall, type TargetInfo } from './resource-info.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';

/** cmdutil.GetResourcesAndPairs: resources first, then `k=v` / `k-` pairs. */
export function resourcesAndPairs(args: string[], pairType: string): { resources: string[]; pairs: string[] } | { error: KubectlError } {
	const resources: string[] = [];
	const pairs: string[] = [];
	let foundPair = false;
	for (const s of args) {
		const isPair = (s.includes('=') && s[0] !== '=') || (s.endsWith('-') && s !== '-');
		if (isPair) {
			foundPair = true;
			pairs.push(s);
		} else if (foundPair) return { error: plain(`all resources must be specified before ${pairType} changes: ${s}`) };
		else resources.push(s);
	}
	return { resources, pairs };
}

/** The flags label and annotate share. */
export const METADATA_FLAGS: FlagSpec[] = [
	...PRINT_FLAGS,
	DRY_RUN_FLAG,
	{ name: 'overwrite', kind: 'bool' },
	{ name: 'local', kind: 'bool' },
	{ name: 'list', kind: 'bool' },
	{ name: 'all', kind: 'bool' },
	{ name: 'all-namespaces', short: 'A', kind: 'bool' },
	{ name: 'selector', short: 'l', kind: 'string' },
	{ name: 'field-selector', kind: 'string' },
	{ name: 'resource-version', kind: 'string' },
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
];

/** What the label or annotate variant contributes. */
export interface MetadataEdit {
	/** 'labels' or 'annotations'. */
	field: 'labels' | 'annotations';
	/** For messages: 'label' or 'annotation'. */
	pairType: string;
	commandPath: string;
	/** Parses the pairs into changes. */
	parse(pairs: string[]): { set: Record<string, string>; remove: string[] } | { error: KubectlError };
	/** Refuses a change of an existing value without --overwrite. */
	checkOverwrite(current: Record<string, string>, set: Record<string, string>): KubectlError | undefined;
	/** The operation printed (labeled, annotated...). */
	operation(added: string[], removed: string[]): string;
	/** Validation errors, in the command's order. */
	validate(inv: KubectlInvocation, resources: string[], set: Record<string, string>, remove: string[]): KubectlError | undefined;
	/** Whether to print `label "x" not found.` for removals of missing keys. */
	reportMissing: boolean;
	fieldManager: string;
}

/** Runs label or annotate. */
export function runMetadataEdit(inv: KubectlInvocation, edit: MetadataEdit): CommandResult {
	const { args } = inv;
	const split = resourcesAndPairs(args.positionals, edit.pairType);
	if ('error' in split) return checkErr(split.error);
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const parsed = edit.parse(split.pairs);
	if ('error' in parsed) return checkErr(parsed.error, '', dry.stderr);
	if (args.flags.list === true && args.flags.output) return checkErr(plain('--list and --output may not be specified together'), '', dry.stderr);
	const invalid = edit.validate(inv, split.resources, parsed.set, parsed.remove);
	if (invalid) return checkErr(invalid, '', dry.stderr);
	if (args.flags.local === true) return checkErr(plain('--local is not supported by this simulated kubectl'), '', dry.stderr);
	const probe = toPrinter(args, dry.strategy);
	if ('error' in probe) return checkErr(probe.error, '', dry.stderr);
	const visited = visit({ ...inv, args: { ...args, positionals: split.resources } }, { allowEmptySelector: args.flags.all === true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: dry.stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal, '', dry.stderr);
	const resourceVersion = String(args.flags['resource-version'] ?? '');
	if (!visited.singleItemImplied && resourceVersion) return checkErr(plain('--resource-version may only be used with a single resource'), '', dry.stderr);
	let stdout = '';
	let stderr = dry.stderr + warningLines(visited.warnings);
	const errors: KubectlError[] = [...visited.errors];
	for (const target of visited.targets) {
		const result = editOne(inv, edit, target, parsed.set, parsed.remove, dry.strategy, resourceVersion, visited.singleItemImplied);
		if ('fatal' in result) return checkErr(result.fatal, stdout, stderr);
		if ('error' in result) {
			errors.push(result.error);
			continue;
		}
		stdout += result.stdout;
		stderr += result.stderr;
		if (result.operation !== undefined) stdout += probe.printer(result.object, result.operation);
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

function editOne(
	inv: KubectlInvocation,
	edit: MetadataEdit,
	target: TargetInfo,
	set: Record<string, string>,
	remove: string[],
	dryRun: DryRunStrategy,
	resourceVersion: string,
	single: boolean,
): { object: KubeObject; operation?: string; stdout: string; stderr: string } | { error: KubectlError } | { fatal: KubectlError } {
	const obj = target.object as KubeObject;
	const current = { ...((obj.metadata[edit.field] as Record<string, string> | undefined) ?? {}) };
	let stdout = '';
	if (inv.args.flags.list === true) {
		// --list: the current keys (Go map order, shown sorted here), indented when several objects are listed.
		const indent = single ? '' : ' ';
		if (!single) stdout += `Listing ${edit.field} for ${obj.kind}.${target.info.group}/${target.name}:\n`;
		for (const key of Object.keys(current).sort()) stdout += `${indent}${key}=${current[key]}\n`;
		return { object: obj, stdout, stderr: '' };
	}
	if (dryRun === 'none' && edit.reportMissing) for (const key of remove) if (!Object.hasOwn(current, key)) stdout += `${edit.pairType} ${JSON.stringify(key)} not found.\n`;
	if (inv.args.flags.overwrite !== true) {
		const refused = edit.checkOverwrite(current, set);
		if (refused) return { error: refused };
	}
	const added: string[] = [];
	const removed: string[] = [];
	const next = { ...current };
	for (const [key, value] of Object.entries(set)) {
		if (next[key] !== value) {
			next[key] = value;
			added.push(key);
		}
	}
	for (const key of remove) {
		if (Object.hasOwn(next, key)) {
			delete next[key];
			removed.push(key);
		}
	}
	const updated: KubeObject = { ...obj, metadata: { ...obj.metadata, [edit.field]: next } };
	if (resourceVersion) updated.metadata.resourceVersion = resourceVersion;
	const operation = edit.operation(added, removed);
	if (dryRun === 'client' || (added.length === 0 && removed.length === 0 && edit.field === 'labels')) return { object: updated, operation, stdout, stderr: '' };
	// jsonpatch.CreateMergePatch(old, new): only the changed keys (removed ones as null), plus the resourceVersion precondition.
	const changes: Record<string, string | null> = {};
	for (const key of added) changes[key] = next[key];
	for (const key of removed) changes[key] = null;
	const metadata: Record<string, unknown> = {};
	if (added.length || removed.length) metadata[edit.field] = changes;
	if (resourceVersion) metadata.resourceVersion = resourceVersion;
	const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(inv.args.flags['field-manager'] || edit.fieldManager) };
	if (dryRun === 'server') query.dryRun = 'All';
	const patched = inv.client.patch(refOf(target.info), target.namespace, target.name, Object.keys(metadata).length ? { metadata } : {}, 'application/merge-patch+json', undefined, query);
	if (!patched.ok) {
		const error = callError(patched, inv.env.serverUrl);
		return isFatalCall(patched) ? { fatal: error } : { error };
	}
	return { object: { ...patched.object, apiVersion: obj.apiVersion, kind: obj.kind }, operation, stdout, stderr: warningLines(patched.warnings) };
}

/** label.go parseLabels: `k=v` (value checked), `k-`, nothing else; a key may not be both set and removed. */
function parseLabelPairs(pairs: string[]): { set: Record<string, string>; remove: string[] } | { error: KubectlError } {
	const set: Record<string, string> = {};
	const remove: string[] = [];
	for (const spec of pairs) {
		if (spec.includes('=')) {
			const parts = spec.split('=');
			if (parts.length !== 2) return { error: plain(`invalid label spec: ${spec}`) };
			const errs = isValidLabelValue(parts[1]);
			if (errs.length) return { error: plain(`invalid label value: ${JSON.stringify(spec)}: ${errs.join(';')}`) };
			set[parts[0]] = parts[1];
		} else if (spec.endsWith('-')) remove.push(spec.slice(0, -1));
		else return { error: plain(`unknown label spec: ${spec}`) };
	}
	if (remove.some((key) => Object.hasOwn(set, key))) return { error: plain('can not both modify and remove a label in the same command') };
	return { set, remove };
}

/** The checks label.go Validate makes, in its order. */
export function validateMetadataArgs(inv: KubectlInvocation, resources: string[], changes: number, pairType: string, resourceExample: string): KubectlError | undefined {
	const flags = inv.args.flags;
	if (flags.all === true && flags.selector) return plain('cannot set --all and --selector at the same time');
	if (flags.all === true && flags['field-selector']) return plain('cannot set --all and --field-selector at the same time');
	const files = (flags.filename as string[]) ?? [];
	if (flags.local === true) {
		if (resources.length) return plain(`can only use local files by -f ${resourceExample}.yaml or --filename=${resourceExample}.json when --local=true is set`);
		if (!files.length && !flags.kustomize) return plain(`one or more files must be specified as -f ${resourceExample}.yaml or --filename=${resourceExample}.json`);
	} else if (resources.length < 1 && !files.length && !flags.kustomize) return plain('one or more resources must be specified as <resource> <name> or <resource>/<name>');
	if (changes < 1 && flags.list !== true) return plain(`at least one ${pairType} update is required`);
	return undefined;
}

const LABEL_EDIT: MetadataEdit = {
	field: 'labels',
	pairType: 'label',
	commandPath: 'kubectl label',
	parse: parseLabelPairs,
	checkOverwrite(current, set) {
		// validateNoOverwrites: one error per key (an aggregate; Go visits the map in random order, sorted here).
		const errors = Object.keys(set)
			.sort()
			.filter((key) => Object.hasOwn(current, key) && current[key] !== set[key])
			.map((key) => plain(`'${key}' already has a value (${current[key]}), and --overwrite is false`));
		if (errors.length === 0) return undefined;
		return errors.length === 1 ? errors[0] : { kind: 'aggregate', errors };
	},
	operation: (added, removed) => (added.length && removed.length ? 'modified' : added.length ? 'labeled' : removed.length ? 'unlabeled' : 'not labeled'),
	validate: (inv, resources, set, remove) => validateMetadataArgs(inv, resources, Object.keys(set).length + remove.length, 'label', 'pod'),
	reportMissing: true,
	fieldManager: 'kubectl-label',
};

export const labelCommand: KubectlCommand = {
	name: 'label',
	summary: 'Update the labels on a resource',
	usage: 'kubectl label [--overwrite] (-f FILENAME | TYPE NAME) KEY_1=VAL_1 ... KEY_N=VAL_N [--resource-version=version]',
	flags: [...METADATA_FLAGS, FIELD_MANAGER_FLAG('kubectl-label')],
	run: (inv) => runMetadataEdit(inv, LABEL_EDIT),
};
