/**
 * `kubectl diff -f FILE`: what `kubectl apply -f FILE` would change, as a
 * unified diff of each object as it is (LIVE) and as it would be (MERGED).
 * The merged object is the API server's own answer to the apply's request
 * sent as a dry run (`dryRun=All`: admitted, defaulted and validated, never
 * stored), so the diff shows what the server would add too: a bumped
 * `generation`, defaults, a new object's uid. Both sides are YAML without
 * managedFields; a Secret's values are masked (`***`, marked before and
 * after where they differ). Each object is a file named
 * `group.version.Kind.namespace.name` in a LIVE- and a MERGED- directory,
 * and the output is `diff -u -N` of the two directories.
 *
 * Exit status: 0 no differences, 1 differences, 2 kubectl failed (CheckDiffErr
 * adds one to kubectl's usual status, so that it is never mistaken for 1).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go (InfoObject.Live and Merged, Masker, DiffProgram, CheckDiffErr).
 */
import type { KubeObject } from '../../api/types.ts';
import { deepCopy } from '../../golang/json.ts';
import { stringifyYaml } from '../../yaml/stringify.ts';
import { unifiedDiff } from '../../shell/utils/unified-diff.ts';
import { strftime } from '../../shell/date.ts';
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { applyOne, applyServerSide, collectTargets, SSA_FIELD_MANAGER, type ApplyContext } from './apply.ts';
import { callError, checkErr, plain, usageError, type KubectlError } from './check-err.ts';
import { FIELD_MANAGER_FLAG, validationDirective, VALIDATE_FLAG } from './print-flags.ts';
import { isFatalCall, typed, type TargetInfo } from './resource-info.ts';
import type { CommandResult } from '../../shell/types.ts';

/** kubectl's failures exit one higher than usual (CheckDiffErr), so 1 always means "differences found". */
function diffErr(error: KubectlError, stdout = '', stderr = ''): CommandResult {
	const result = checkErr(error, stdout, stderr);
	return { ...result, exitCode: result.exitCode + 1 };
}

/** `apps.v1.Deployment.shop.web`; a cluster-scoped object has an empty namespace part (`v1.Namespace..shop`). */
function fileName(target: TargetInfo): string {
	const { group, version, kind } = target.info;
	return `${group ? `${group}.` : ''}${version}.${kind}.${target.namespace ?? ''}.${target.name}`;
}

/** The object as diff shows it: no managedFields (unless asked), as YAML. */
function shown(obj: KubeObject | undefined, showManagedFields: boolean): KubeObject | undefined {
	if (!obj) return undefined;
	const copy = deepCopy(obj);
	if (!showManagedFields) delete copy.metadata.managedFields;
	return copy;
}

/** A Secret's `data` and `stringData` masked on both sides: equal values as `***`, differing ones as `*** (before)` and `*** (after)`. */
function maskSecrets(live: KubeObject | undefined, merged: KubeObject | undefined): void {
	const fields = ['data', 'stringData'] as const;
	for (const field of fields) {
		const a = (live as unknown as Record<string, Record<string, string> | undefined> | undefined)?.[field];
		const b = (merged as unknown as Record<string, Record<string, string> | undefined> | undefined)?.[field];
		const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b ?? {})]);
		for (const key of keys) {
			const differ = a?.[key] !== b?.[key];
			if (a && key in a) a[key] = differ ? '*** (before)' : '***';
			if (b && key in b) b[key] = differ ? '*** (after)' : '***';
		}
	}
}

/** GNU diff's timestamp of a file: its mtime, to the nanosecond, in the host's zone (UTC); `-N`'s absent file has the epoch. */
function stamp(wallMs: number | undefined, nanos: number): string {
	if (wallMs === undefined) return '1970-01-01 00:00:00.000000000 +0000';
	return `${strftime('%F %T', wallMs)}.${String(wallMs % 1000).padStart(3, '0')}${String(nanos % 1_000_000).padStart(6, '0')} +0000`;
}

function run(inv: KubectlInvocation): ReturnType<KubectlCommand['run']> {
	const { args } = inv;
	if (args.positionals.length) return diffErr(usageError('kubectl diff', `Unexpected args: [${args.positionals.join(' ')}]`));
	const filenames = (args.flags.filename as string[]) ?? [];
	const kustomize = String(args.flags.kustomize ?? '');
	if (filenames.length === 0 && !kustomize) return diffErr(plain('must specify one of -f and -k'));
	if (kustomize) return diffErr(plain('kustomize directories (-k) are not supported by this simulated kubectl; use -f'));
	const serverSide = args.flags['server-side'] === true;
	if (args.flags['force-conflicts'] === true && !serverSide) return diffErr(plain('--force-conflicts only works with --server-side'));
	const validation = validationDirective(args);
	if ('error' in validation) return diffErr(validation.error);
	const collected = collectTargets(inv, validation.directive !== 'Ignore');
	if ('stderr' in collected) return { stdout: '', stderr: collected.stderr, exitCode: 2 };
	const showManaged = args.flags['show-managed-fields'] === true;
	// As with apply, server-side diff answers as `kubectl` unless --field-manager is given (GetApplyFieldManagerFlag).
	const fieldManager = serverSide && !args.set.has('field-manager') ? SSA_FIELD_MANAGER : String(args.flags['field-manager'] || 'kubectl-client-side-apply');
	const ctx: ApplyContext = { inv, dryRun: 'server', validation: validation.directive, fieldManager, stdout: '', stderr: '', printed: [] };
	const errors = [...collected.errors];
	const files: Array<{ name: string; live?: KubeObject; merged?: KubeObject }> = [];
	for (const target of collected.targets) {
		// LIVE: the object as the server has it now (none for one apply would create).
		const current = target.name ? inv.client.get(refOf(target.info), target.namespace, target.name) : undefined;
		if (current && !current.ok && isFatalCall(current)) return diffErr(callError(current, inv.env.serverUrl));
		const live = current?.ok ? typed(target.info, current.object) : undefined;
		// MERGED: the server's answer to the apply, sent as a dry run.
		let merged: KubeObject | undefined;
		const keep = (obj: KubeObject) => (merged = obj);
		const error = serverSide ? applyServerSide(ctx, target, keep, { force: args.flags['force-conflicts'] === true }) : applyOne(ctx, target, keep);
		if (ctx.fatal) return diffErr(ctx.fatal, '', ctx.stderr);
		if (error) {
			errors.push(error);
			continue;
		}
		files.push({ name: fileName(target), live: shown(live, showManaged), merged: shown(merged, showManaged) });
	}
	// The directories' random parts (os.MkdirTemp), and the files' sub-millisecond mtimes.
	const seq = inv.env.editSequence?.() ?? 0;
	const liveDir = `/tmp/LIVE-${String(1_000_000_000 + ((seq * 2_654_435_761) % 3_000_000_000))}`;
	const mergedDir = `/tmp/MERGED-${String(1_000_000_000 + ((seq * 40_503 + 977) % 3_000_000_000))}`;
	const now = inv.env.wallMs();
	let out = '';
	for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
		if (file.live?.kind === 'Secret' || file.merged?.kind === 'Secret') maskSecrets(file.live, file.merged);
		const before = file.live ? stringifyYaml(file.live) : '';
		const after = file.merged ? stringifyYaml(file.merged) : '';
		const hunks = unifiedDiff(before, after);
		if (!hunks) continue;
		const a = `${liveDir}/${file.name}`;
		const b = `${mergedDir}/${file.name}`;
		out += `diff -u -N ${a} ${b}\n--- ${a}\t${stamp(file.live ? now : undefined, seq * 7 + 123_457)}\n+++ ${b}\t${stamp(file.merged ? now : undefined, seq * 13 + 654_321)}\n${hunks}`;
	}
	if (errors.length) return diffErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, out, ctx.stderr);
	return { stdout: out, stderr: ctx.stderr, exitCode: out ? 1 : 0 };
}

export const diffCommand: KubectlCommand = {
	name: 'diff',
	summary: 'Diff the live version against a would-be applied version',
	usage: 'kubectl diff -f FILENAME',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'selector', short: 'l', kind: 'string' },
		{ name: 'server-side', kind: 'bool' },
		{ name: 'force-conflicts', kind: 'bool' },
		{ name: 'show-managed-fields', kind: 'bool' },
		{ name: 'prune', kind: 'bool' },
		{ name: 'prune-allowlist', kind: 'stringArray' },
		{ name: 'concurrency', kind: 'int', default: 1 },
		FIELD_MANAGER_FLAG('kubectl-client-side-apply'),
		VALIDATE_FLAG,
	],
	run,
};
