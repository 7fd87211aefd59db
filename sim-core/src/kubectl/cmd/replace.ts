/**
 * `kubectl replace -f FILE [--force]`: PUT each object of the manifests as
 * written (the live resourceVersion filled in, as Helper.Replace with
 * overwrite does), printing `pod/web replaced`. `--force` deletes the
 * objects, waits until they are gone (up to --timeout, default 5m) and
 * creates them again.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { resourceByName } from '../../api/resources.ts';
import { readTypeMeta, resolveKind, mappingNotFoundMessage } from '../../api/schema/index.ts';
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { readManifests } from '../resource-args.ts';
import { addSourceToErr, callError, checkErr, plain, warningLines, type KubectlError } from './check-err.ts';
import { rawWriteError, runRawWrite } from './raw-write.ts';
import { deletedLine, durationFlag, waitUntilDeleted } from './delete.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, VALIDATE_FLAG, dryRunStrategy, toPrinter, validationDirective } from './print-flags.ts';
import { isFatalCall, typed, type TargetInfo } from './resource-info.ts';
import type { CommandResult } from '../../shell/types.ts';

/** How long `replace --force` waits for the deletion when --timeout is 0 (replace.go: 5 minutes). */
const FORCE_REPLACE_WAIT_MS = 5 * 60_000;

function manifests(inv: KubectlInvocation, validate: boolean): { targets: TargetInfo[]; errors: KubectlError[] } | { stderr: string } {
	const read = readManifests(inv, { validate });
	if (!read.ok) return { stderr: read.error };
	const targets: TargetInfo[] = [];
	const errors: KubectlError[] = [];
	for (const manifest of read.manifests) {
		const obj = manifest.object;
		if (validate) {
			const checked = readTypeMeta(obj, { validate: true });
			if (checked.error !== undefined) {
				errors.push(plain(`error validating ${JSON.stringify(manifest.source)}: ${checked.error}`));
				continue;
			}
		}
		const meta = readTypeMeta(obj, { validate: false });
		const mapped = resolveKind(meta.error === undefined ? meta.apiVersion : '', meta.error === undefined ? meta.kind : '');
		const info = mapped.resource ? resourceByName(mapped.resource.group, mapped.resource.name) : undefined;
		if (!info) {
			errors.push(plain(mappingNotFoundMessage(mapped.error ?? 'no matches', obj.metadata?.name ?? '', obj.metadata?.namespace ?? '', manifest.source)));
			continue;
		}
		let namespace: string | undefined;
		if (info.namespaced) {
			const own = obj.metadata.namespace;
			if (own && inv.args.set.has('namespace') && own !== inv.namespace) {
				errors.push(plain(`the namespace from the provided object "${own}" does not match the namespace "${inv.namespace}". You must pass '--namespace=${own}' to perform this operation.`));
				continue;
			}
			namespace = own || inv.namespace;
			obj.metadata.namespace = namespace;
		}
		targets.push({ info, namespace, name: obj.metadata.name ?? '', source: manifest.source, object: obj });
	}
	return { targets, errors };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const validation = validationDirective(args);
	if ('error' in validation) return checkErr(validation.error, '', dry.stderr);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const timeout = durationFlag(inv, 'timeout');
	if ('error' in timeout) return checkErr(timeout.error, '', dry.stderr);
	const force = flags.force === true;
	const gracePeriod = Number(flags['grace-period'] ?? -1);
	// Validate.
	if (gracePeriod >= 0 && !force) return checkErr(plain('--grace-period must have --force specified'), '', dry.stderr);
	if (timeout.ms !== 0 && !force) return checkErr(plain('--timeout must have --force specified'), '', dry.stderr);
	if (force && dry.strategy !== 'none') return checkErr(plain('--dry-run can not be used when --force is set'), '', dry.stderr);
	if (!((flags.filename as string[]) ?? []).length && !flags.kustomize) return checkErr(plain('must specify --filename to replace'), '', dry.stderr);
	if (flags.raw) {
		const invalid = rawWriteError(inv, 'replace');
		return invalid ? checkErr(plain(invalid), '', dry.stderr) : runRawWrite(inv, 'PUT', dry.stderr);
	}
	const read = manifests(inv, validation.directive !== 'Ignore');
	if ('stderr' in read) return { stdout: '', stderr: dry.stderr + read.stderr, exitCode: 1 };
	let stdout = '';
	let stderr = dry.stderr;
	const errors: KubectlError[] = [...read.errors];
	const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(flags['field-manager'] || 'kubectl-replace'), fieldValidation: validation.directive };
	if (dry.strategy === 'server') query.dryRun = 'All';
	if (force) {
		// forceReplace: delete everything, wait until it is gone, create it again.
		const deleted: Array<{ target: TargetInfo; uid?: string }> = [];
		const options = gracePeriod >= 0 ? { gracePeriodSeconds: gracePeriod, propagationPolicy: 'Background' as const } : { propagationPolicy: 'Background' as const };
		for (const target of read.targets) {
			const result = inv.client.delete(refOf(target.info), target.namespace, target.name, options);
			if (!result.ok) {
				if (result.code === 404) continue;
				return checkErr(addSourceToErr('deleting', target.source, callError(result, inv.env.serverUrl)), stdout, stderr);
			}
			stdout += deletedLine(target, gracePeriod, 'none', '');
			deleted.push({ target, uid: result.object.metadata?.uid });
		}
		const left = waitUntilDeleted(inv, deleted, timeout.ms || FORCE_REPLACE_WAIT_MS);
		if (left) return checkErr(plain('timed out waiting for the condition'), stdout, stderr);
		for (const target of read.targets) {
			const created = inv.client.create(refOf(target.info), target.namespace, target.object, query);
			if (!created.ok) {
				errors.push(addSourceToErr('creating', target.source, callError(created, inv.env.serverUrl)));
				continue;
			}
			stdout += printer.printer(typed(target.info, created.object), 'replaced');
		}
	} else {
		for (const target of read.targets) {
			let obj = target.object as KubeObject;
			if (dry.strategy === 'client') {
				stdout += printer.printer(obj, 'replaced');
				continue;
			}
			if (!obj.metadata.resourceVersion) {
				// Helper.Replace with overwrite: take the live object's resourceVersion.
				const live = inv.client.get(refOf(target.info), target.namespace, target.name);
				if (!live.ok) {
					if (isFatalCall(live)) return checkErr(callError(live, inv.env.serverUrl), stdout, stderr);
					errors.push(addSourceToErr('replacing', target.source, callError(live, inv.env.serverUrl)));
					continue;
				}
				obj = { ...obj, metadata: { ...obj.metadata, resourceVersion: live.object.metadata.resourceVersion } };
			}
			const result = inv.client.update(refOf(target.info), obj, flags.subresource ? String(flags.subresource) : undefined, query);
			stderr += warningLines(result.warnings);
			if (!result.ok) {
				if (isFatalCall(result)) return checkErr(callError(result, inv.env.serverUrl), stdout, stderr);
				errors.push(addSourceToErr('replacing', target.source, callError(result, inv.env.serverUrl)));
				continue;
			}
			stdout += printer.printer(typed(target.info, result.object), 'replaced');
		}
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

export const replaceCommand: KubectlCommand = {
	name: 'replace',
	summary: 'Replace a resource by file name or stdin',
	usage: 'kubectl replace -f FILENAME',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'force', kind: 'bool' },
		{ name: 'grace-period', kind: 'int', default: -1 },
		{ name: 'timeout', kind: 'duration', default: '0s' },
		{ name: 'cascade', kind: 'string', default: 'background', noOptDefault: 'background' },
		{ name: 'wait', kind: 'bool' },
		{ name: 'raw', kind: 'string' },
		{ name: 'save-config', kind: 'bool' },
		{ name: 'subresource', kind: 'string' },
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		VALIDATE_FLAG,
		FIELD_MANAGER_FLAG('kubectl-replace'),
	],
	run,
};
