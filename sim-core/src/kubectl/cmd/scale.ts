/**
 * `kubectl scale (TYPE NAME | TYPE/NAME | -f FILE) --replicas=COUNT
 * [--current-replicas=N] [--resource-version=RV] [--timeout=D]`: a merge
 * patch `{"spec":{"replicas":N}}` on the scale subresource, then
 * `deployment.apps/nginx scaled`. With --timeout, waits until the scale's
 * status reports the new count.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go,
 * staging/src/k8s.io/kubectl/pkg/scale/scale.go.
 */
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, type KubectlError } from './check-err.ts';
import { durationFlag } from './delete.ts';
import { DRY_RUN_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter } from './print-flags.ts';
import { isFatalCall } from './resource-info.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';

/** How often `kubectl scale --timeout` polls the scale (scale.go NewRetryParams(1*time.Second, ...)). */
const SCALE_POLL_MS = 1000;

interface Scale {
	metadata: { resourceVersion?: string };
	spec?: { replicas?: number };
	status?: { replicas?: number };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	if (!args.set.has('replicas')) return checkErr(plain('required flag(s) "replicas" not set'));
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const timeout = durationFlag(inv, 'timeout');
	if ('error' in timeout) return checkErr(timeout.error, '', dry.stderr);
	const replicas = Number(args.flags.replicas);
	const currentReplicas = Number(args.flags['current-replicas'] ?? -1);
	const resourceVersion = String(args.flags['resource-version'] ?? '');
	if (replicas < 0) return checkErr(plain('The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0'), '', dry.stderr);
	if (currentReplicas < -1) return checkErr(plain('The --current-replicas must specify an integer of -1 or greater'), '', dry.stderr);
	const visited = visit(inv, { allowEmptySelector: args.flags.all === true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: dry.stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal, '', dry.stderr);
	const infoError: KubectlError | undefined = visited.errors.length ? (visited.errors.length === 1 ? visited.errors[0] : { kind: 'aggregate', errors: visited.errors }) : undefined;
	if (resourceVersion && visited.targets.length > 1) return checkErr(plain('cannot use --resource-version with multiple resources'), '', dry.stderr);
	if (visited.targets.length === 0) return checkErr(infoError ?? plain('no objects passed to scale'), '', dry.stderr);
	let stdout = '';
	for (const target of visited.targets) {
		const obj = target.object!;
		if (dry.strategy === 'client') {
			if (target.info.group === 'apps' || target.info.group === '') obj.spec = { ...(obj.spec as object), replicas };
			stdout += printer.printer(obj, 'scaled');
			continue;
		}
		const ref = refOf(target.info);
		const query = dry.strategy === 'server' ? { dryRun: 'All' as const } : undefined;
		if (currentReplicas !== -1 || resourceVersion) {
			const scale = inv.client.call<Scale>({ verb: 'get', ...ref, namespace: target.namespace, name: target.name, subresource: 'scale' });
			if (!scale.ok) return checkErr(callError(scale, inv.env.serverUrl), stdout, dry.stderr);
			const size = scale.object.spec?.replicas ?? 0;
			if (currentReplicas !== -1 && size !== currentReplicas) return checkErr(plain(`Expected replicas to be ${currentReplicas}, was ${size}`), stdout, dry.stderr);
			if (resourceVersion && scale.object.metadata.resourceVersion !== resourceVersion) return checkErr(plain(`Expected resource version to be ${resourceVersion}, was ${scale.object.metadata.resourceVersion}`), stdout, dry.stderr);
		}
		const patched = inv.client.patch<Scale>(ref, target.namespace, target.name, { spec: { replicas } }, 'application/merge-patch+json', 'scale', query);
		if (!patched.ok) {
			if (isFatalCall(patched)) return checkErr(callError(patched, inv.env.serverUrl), stdout, dry.stderr);
			return checkErr(callError(patched, inv.env.serverUrl), stdout, dry.stderr);
		}
		if (timeout.ms > 0 && dry.strategy === 'none') {
			// WaitForScaleHasDesiredReplicas: until status.replicas catches up (or someone changed spec again).
			const synced = inv.env.waitFor(() => {
				const scale = inv.client.call<Scale>({ verb: 'get', ...ref, namespace: target.namespace, name: target.name, subresource: 'scale' });
				if (!scale.ok) return true;
				const spec = scale.object.spec?.replicas ?? 0;
				return spec !== replicas || (scale.object.status?.replicas ?? 0) === replicas;
			}, Math.max(timeout.ms, SCALE_POLL_MS));
			if (!synced) return checkErr(plain(`timed out waiting for ${JSON.stringify(target.name)} to be synced`), stdout, dry.stderr);
		}
		if (target.info.group === 'apps' || target.info.group === '') obj.spec = { ...(obj.spec as object), replicas: patched.object.spec?.replicas ?? replicas };
		stdout += printer.printer(obj, 'scaled');
	}
	if (infoError) return checkErr(infoError, stdout, dry.stderr);
	return { stdout, stderr: dry.stderr, exitCode: 0 };
}

export const scaleCommand: KubectlCommand = {
	name: 'scale',
	summary: 'Set a new size for a deployment, replica set, or replication controller',
	usage: 'kubectl scale [--resource-version=version] [--current-replicas=count] --replicas=COUNT (-f FILENAME | TYPE NAME)',
	flags: [
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'recursive', short: 'R', kind: 'bool' },
		{ name: 'kustomize', short: 'k', kind: 'string' },
		{ name: 'selector', short: 'l', kind: 'string' },
		{ name: 'all', kind: 'bool' },
		{ name: 'resource-version', kind: 'string' },
		{ name: 'current-replicas', kind: 'int', default: -1 },
		{ name: 'replicas', kind: 'int', default: -1 },
		{ name: 'timeout', kind: 'duration', default: '0s' },
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
	],
	run,
};
