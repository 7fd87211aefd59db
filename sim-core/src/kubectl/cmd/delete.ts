/**
 * `kubectl delete (-f FILE | TYPE NAME... | TYPE/NAME | TYPE -l SEL | TYPE --all)`:
 * DELETE each object with the requested grace period and propagation
 * (`--cascade`), print `pod "x" deleted from default namespace` (v1.36
 * names the namespace), then, unless `--wait=false`, run the cluster until
 * each object is gone (finalizers and graceful termination included).
 *
 * The wait is bounded: upstream waits up to a week when `--timeout` is 0;
 * here an unbounded wait stops after DELETE_WAIT_CAP_MS of virtual time
 * with kubectl's timeout error, so a reader whose pod never terminates (no
 * kubelet running) gets their prompt back.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/delete/delete_flags.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/wait/delete.go (IsDeleted).
 */
import type { ApiRequest } from '../../api/request.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { kindQualifier } from '../names.ts';
import { addSourceToErr, callError, checkErr, plain, warningLines, type KubectlError } from './check-err.ts';
import { rawWriteError, runRawWrite } from './raw-write.ts';
import { DRY_RUN_FLAG, OUTPUT_FLAG, dryRunStrategy, parseGoBool, type DryRunStrategy } from './print-flags.ts';
import { isFatalCall, type TargetInfo } from './resource-info.ts';
import { visit } from './visit.ts';

/** The longest a `kubectl delete` (or `--for=delete` wait) without a timeout runs the virtual clock: 10 minutes. Upstream waits up to 168h. */
const DELETE_WAIT_CAP_MS = 10 * 60_000;

/** delete_flags.go parseCascadingFlag: the propagation policy, and the deprecation warning for boolean values. */
function parseCascade(value: string): { policy: 'Background' | 'Foreground' | 'Orphan'; stderr: string } | { error: KubectlError } {
	const bool = parseGoBool(value);
	if (bool === undefined) {
		switch (value) {
			case 'orphan':
				return { policy: 'Orphan', stderr: '' };
			case 'foreground':
				return { policy: 'Foreground', stderr: '' };
			case 'background':
				return { policy: 'Background', stderr: '' };
			default:
				return { error: plain(`invalid cascade value (${value}). Must be "background", "foreground", or "orphan"`) };
		}
	}
	return bool
		? { policy: 'Background', stderr: `warning: --cascade=${value} is deprecated (boolean value) and can be replaced with --cascade=background.\n` }
		: { policy: 'Orphan', stderr: `warning: --cascade=${value} is deprecated (boolean value) and can be replaced with --cascade=orphan.\n` };
}

/** A Go duration flag in ms, or kubectl's parse error. */
export function durationFlag(inv: KubectlInvocation, name: string): { ms: number } | { error: KubectlError } {
	const raw = String(inv.args.flags[name] ?? '0s');
	try {
		return { ms: parseGoDurationMs(raw) };
	} catch (error) {
		return { error: plain(`invalid argument "${raw}" for "--${name}" flag: ${error instanceof Error ? error.message : String(error)}`) };
	}
}

/** DeleteOptions.PrintObj: `pod "x" deleted from default namespace`, `force deleted`, `(dry run)`; `-o name` prints `pod/x`. */
export function deletedLine(target: TargetInfo, gracePeriod: number, dryRun: DryRunStrategy, output: string): string {
	const kind = kindQualifier(target.info);
	if (output === 'name') return `${kind}/${target.name}\n`;
	let operation = gracePeriod === 0 ? 'force deleted' : 'deleted';
	if (target.info.namespaced) operation = `${operation} from ${target.namespace} namespace`;
	if (dryRun === 'client') operation = `${operation} (dry run)`;
	if (dryRun === 'server') operation = `${operation} (server dry run)`;
	return `${kind} "${target.name}" ${operation}\n`;
}

/**
 * Runs the cluster until every target is gone (or replaced by a new object
 * of the same name), or the timeout passes. Returns the first target still
 * there, if any.
 */
export function waitUntilDeleted(inv: KubectlInvocation, targets: Array<{ target: TargetInfo; uid?: string }>, timeoutMs: number): TargetInfo | undefined {
	const pending = [...targets];
	const gone = (entry: { target: TargetInfo; uid?: string }) => {
		const got = inv.client.get(refOf(entry.target.info), entry.target.namespace, entry.target.name);
		if (!got.ok) return got.code === 404 || got.code === 403 || got.code === 405;
		return !!entry.uid && got.object.metadata.uid !== entry.uid;
	};
	inv.env.waitFor(() => {
		for (let i = pending.length - 1; i >= 0; i--) if (gone(pending[i])) pending.splice(i, 1);
		return pending.length === 0;
	}, timeoutMs);
	return pending[0]?.target;
}

function run(inv: KubectlInvocation): ReturnType<KubectlCommand['run']> {
	const { args } = inv;
	const flags = args.flags;
	let stderr = '';
	const cascade = parseCascade(String(flags.cascade ?? 'background'));
	if ('error' in cascade) return checkErr(cascade.error);
	stderr += cascade.stderr;
	const all = flags.all === true;
	const selector = String(flags.selector ?? '');
	const fieldSelector = String(flags['field-selector'] ?? '');
	let ignoreNotFound = flags['ignore-not-found'] === true;
	if ((all || selector || fieldSelector) && !args.set.has('ignore-not-found')) ignoreNotFound = true;
	let gracePeriod = Number(flags['grace-period'] ?? -1);
	const force = flags.force === true;
	if (flags.now === true) {
		if (gracePeriod !== -1) return checkErr(plain('--now and --grace-period cannot be specified together'), '', stderr);
		gracePeriod = 1;
	}
	// --grace-period=0 without --force is taken as 1, so nothing is lost by accident.
	if (gracePeriod === 0 && !force) gracePeriod = 1;
	if (force && gracePeriod < 0) gracePeriod = 0;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error, '', stderr);
	stderr += dry.stderr;
	const timeout = durationFlag(inv, 'timeout');
	if ('error' in timeout) return checkErr(timeout.error, '', stderr);

	// With --raw, Complete builds no resources; Validate checks the path and the one file (RawDelete).
	if (flags.raw) {
		const invalid = rawWriteError(inv, 'delete');
		return invalid ? checkErr(plain(invalid), '', stderr) : runRawWrite(inv, 'DELETE', stderr);
	}
	// The builder runs in Complete, before Validate.
	const visited = visit(inv, { allowEmptySelector: false, requireObject: false, ignoreNotFound });
	if (visited.usage) return { stdout: '', stderr: stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal, '', stderr);

	// Validate.
	const output = String(flags.output ?? '');
	if (output !== '' && output !== 'name') return checkErr(plain(`unexpected -o output mode: ${output}. We only support '-o name'`), '', stderr);
	if (all && selector) return checkErr(plain('cannot set --all and --selector at the same time'), '', stderr);
	if (all && fieldSelector) return checkErr(plain('cannot set --all and --field-selector at the same time'), '', stderr);
	if (gracePeriod === 0 && force) stderr += 'Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n';
	else if (gracePeriod > 0 && force) return checkErr(plain('--force and --grace-period greater than 0 cannot be specified together'), '', stderr);
	if (flags.interactive === true) return checkErr(plain('--interactive is not supported by this simulated kubectl'), '', stderr);

	// DeleteResult.
	let stdout = '';
	const errors: KubectlError[] = [...visited.errors];
	stderr += warningLines(visited.warnings);
	let warnClusterScope = args.set.has('namespace') && flags['all-namespaces'] !== true;
	const deleted: Array<{ target: TargetInfo; uid?: string }> = [];
	const options: NonNullable<ApiRequest['deleteOptions']> = { propagationPolicy: cascade.policy };
	if (gracePeriod >= 0) options.gracePeriodSeconds = gracePeriod;
	let found = 0;
	for (const target of visited.targets) {
		found++;
		if (warnClusterScope && !target.info.namespaced) {
			stderr += 'Warning: deleting cluster-scoped resources, not scoped to the provided namespace\n';
			warnClusterScope = false;
		}
		if (dry.strategy === 'client') {
			stdout += deletedLine(target, gracePeriod, dry.strategy, output);
			continue;
		}
		const result = inv.client.delete(refOf(target.info), target.namespace, target.name, options, dry.strategy === 'server' ? { dryRun: 'All' } : undefined);
		if (!result.ok) {
			if (isFatalCall(result)) return checkErr(callError(result, inv.env.serverUrl), stdout, stderr);
			stderr += warningLines(result.warnings);
			// IgnoreErrors(IsNotFound) drops the error; the object still counted as found.
			if (result.code === 404 && ignoreNotFound) continue;
			errors.push(addSourceToErr('deleting', target.source, callError(result, inv.env.serverUrl)));
			continue;
		}
		stderr += warningLines(result.warnings);
		stdout += deletedLine(target, gracePeriod, dry.strategy, output);
		deleted.push({ target, uid: result.object.metadata?.uid });
	}
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, stderr);
	if (found === 0) return { stdout: `${stdout}No resources found\n`, stderr, exitCode: 0 };
	if (flags.wait === false || dry.strategy !== 'none' || deleted.length === 0) return { stdout, stderr, exitCode: 0 };
	const waitMs = timeout.ms > 0 ? timeout.ms : DELETE_WAIT_CAP_MS;
	const left = waitUntilDeleted(inv, deleted, waitMs);
	if (left) return checkErr(plain(`timed out waiting for the condition on ${left.info.resource}/${left.name}`), stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

export const deleteCommand: KubectlCommand = {
	name: 'delete',
	summary: 'Delete resources by file names, stdin, resources and names, or by resources and label selector',
	usage: 'kubectl delete ([-f FILENAME] | [-k DIRECTORY] | TYPE [(NAME | -l label | --all)])',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'selector', short: 'l', kind: 'string' },
		{ name: 'field-selector', kind: 'string' },
		{ name: 'all', kind: 'bool' },
		{ name: 'all-namespaces', short: 'A', kind: 'bool' },
		{ name: 'cascade', kind: 'string', default: 'background', noOptDefault: 'background' },
		{ name: 'grace-period', kind: 'int', default: -1 },
		{ name: 'now', kind: 'bool' },
		{ name: 'force', kind: 'bool' },
		{ name: 'ignore-not-found', kind: 'bool' },
		{ name: 'wait', kind: 'bool', default: true },
		{ name: 'timeout', kind: 'duration', default: '0s' },
		OUTPUT_FLAG,
		{ name: 'raw', kind: 'string' },
		{ name: 'interactive', short: 'i', kind: 'bool' },
		DRY_RUN_FLAG,
	],
	run,
};
