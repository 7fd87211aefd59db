/**
 * `kubectl run NAME --image=IMAGE [--restart] [--labels] [--port] [--env]
 * [--command] [-- args...]`: creates one Pod from the BasicPod generator
 * and prints `pod/NAME created`; `--expose --port` also creates a
 * ClusterIP Service first. With `--attach` (implied by `-i`) it waits for
 * the Pod, streams its output, and with `--rm` deletes it (./run-attach.ts).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/run/run.go.
 */
import type { KubeObject } from '../../api/types.ts';
import { refOf, R } from '../../client/client.ts';
import { resourceByName } from '../../api/resources.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, plain, usageError, warningLines, type KubectlError } from './check-err.ts';
import { exposedService, parseLabels, runPod } from './create-generators.ts';
import { DRY_RUN_FLAG, FIELD_MANAGER_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter, type DryRunStrategy } from './print-flags.ts';
import { typed } from './resource-info.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { attachToRun } from './run-attach.ts';
import type { CommandResult } from '../../shell/types.ts';

/** docker/distribution reference.ReferenceRegexp, simplified to its shape: [domain/]path[:tag][@digest], lower-case path components. */
const IMAGE_REFERENCE = /^(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]+)?\/)?[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*(?::[\w][\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$/;

function create(inv: KubectlInvocation, obj: KubeObject, dryRun: DryRunStrategy, namespace: string): { object: KubeObject; warnings: string } | { error: KubectlError } {
	if (dryRun === 'client') {
		// The client-side dry run sets the namespace only when -n was given.
		return { object: inv.args.set.has('namespace') ? { ...obj, metadata: { ...obj.metadata, namespace } } : obj, warnings: '' };
	}
	const ref = obj.kind === 'Service' ? R.services : R.pods;
	const query: NonNullable<import('../../api/request.ts').ApiRequest['query']> = { fieldManager: String(inv.args.flags['field-manager'] || 'kubectl-run') };
	if (dryRun === 'server') query.dryRun = 'All';
	const created = inv.client.create(refOf(ref), namespace, obj, query);
	if (!created.ok) return { error: callError(created, inv.env.serverUrl) };
	const info = resourceByName('', ref.resource);
	return { object: info ? typed(info, created.object) : created.object, warnings: warningLines(created.warnings) };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	if (!args.set.has('image')) return checkErr(plain('required flag(s) "image" not set'));
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(args, dry.strategy, inv.env.readFile);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const fail = (error: KubectlError) => checkErr(error, '', dry.stderr);
	const interactive = flags.stdin === true;
	const attach = args.set.has('attach') ? flags.attach === true : interactive;
	const argsLenAtDash = args.dashDash ? args.positionals.length : -1;
	if (args.positionals.length === 0 || argsLenAtDash === 0) return fail(usageError('kubectl run', 'NAME is required for run'));
	// cmdutil.GetPodRunningTimeoutFlag.
	const timeoutMs = parseGoDurationMs(String(flags['pod-running-timeout'] ?? '1m0s'));
	if (!(timeoutMs > 0)) return fail(usageError('kubectl run', '--pod-running-timeout must be higher than zero'));
	const image = String(flags.image ?? '');
	if (!image) return fail(plain('--image is required'));
	if (!IMAGE_REFERENCE.test(image)) return fail(plain(`Invalid image name ${JSON.stringify(image)}: invalid reference format`));
	if (flags.tty === true && !interactive) return fail(usageError('kubectl run', '-i/--stdin is required for containers with -t/--tty=true'));
	if (flags.expose === true && !flags.port) return fail(usageError('kubectl run', '--port must be set when exposing a service'));
	// getRestartPolicy: an empty --restart means OnFailure for an interactive pod, Always otherwise.
	const restartFlag = String(flags.restart ?? 'Always');
	if (!['Always', 'OnFailure', 'Never', ''].includes(restartFlag)) return fail(usageError('kubectl run', `invalid restart policy: ${restartFlag}`));
	const restart = restartFlag || (interactive ? 'OnFailure' : 'Always');
	if (!attach && flags.rm === true) return fail(usageError('kubectl run', '--rm should only be used for attached containers'));
	if (attach && dry.strategy !== 'none') return fail(usageError('kubectl run', "--dry-run=[server|client] can't be used with attached containers options (--attach, --stdin, or --tty)"));
	const pullPolicy = String(flags['image-pull-policy'] ?? '');
	if (pullPolicy && !['Always', 'IfNotPresent', 'Never'].includes(pullPolicy)) return fail(usageError('kubectl run', `invalid image pull policy: ${pullPolicy}`));
	if (flags.overrides) return fail(plain('--overrides is not supported by this simulated kubectl'));

	const name = args.positionals[0];
	let labels: Record<string, string> = { run: name };
	if (flags.labels) {
		const parsed = parseLabels(String(flags.labels));
		if ('error' in parsed) return fail(parsed.error);
		labels = parsed.labels;
	}
	const annotations: Record<string, string> = {};
	for (const pair of (flags.annotations as string[]) ?? []) {
		const eq = pair.indexOf('=');
		if (eq <= 0) return fail(plain(`invalid annotations format: ${pair}`));
		annotations[pair.slice(0, eq)] = pair.slice(eq + 1);
	}
	const pod = runPod({
		name,
		image,
		labels,
		annotations,
		imagePullPolicy: pullPolicy,
		port: String(flags.port ?? ''),
		stdin: interactive,
		leaveStdinOpen: flags['leave-stdin-open'] === true,
		tty: flags.tty === true,
		restart,
		command: flags.command === true,
		args: [...args.positionals.slice(1), ...args.passthrough],
		env: (flags.env as string[]) ?? [],
		privileged: flags.privileged === true,
	});
	if ('error' in pod) return fail(pod.error);
	let stdout = '';
	let stderr = dry.stderr;
	const createdPod = create(inv, pod.object, dry.strategy, inv.namespace);
	if ('error' in createdPod) return checkErr(createdPod.error, stdout, stderr);
	stderr += createdPod.warnings;
	const errors: KubectlError[] = [];
	let createdSvc: KubeObject | undefined;
	if (flags.expose === true) {
		// generateService: a ClusterIP service named after the pod, selecting its labels, printed before the pod.
		const svc = exposedService({ name, selector: labels, ports: [Number(flags.port)], portName: '', protocol: '', targetPort: String(flags.port), type: '', clusterIP: '', externalIP: '', sessionAffinity: '' });
		if ('error' in svc) errors.push(svc.error);
		else {
			const made = create(inv, svc.object, dry.strategy, inv.namespace);
			if ('error' in made) errors.push(made.error);
			else {
				stderr += made.warnings;
				createdSvc = made.object;
			}
		}
	}
	if (attach) {
		// The attach branch leaves the Service's error aside; only generateService has printed its `created` line.
		const created = [createdPod.object, ...(createdSvc ? [createdSvc] : [])];
		const request = { created, stdin: interactive, tty: flags.tty === true, quiet: flags.quiet === true, remove: flags.rm === true, leaveStdinOpen: flags['leave-stdin-open'] === true, restartPolicy: restart, timeoutMs };
		return attachToRun(inv, request, stderr, createdSvc ? printer.printer(createdSvc, 'created') : '');
	}
	if (createdSvc) stdout += printer.printer(createdSvc, 'created');
	stdout += printer.printer(createdPod.object, 'created');
	if (errors.length) return checkErr(errors.length === 1 ? errors[0] : { kind: 'aggregate', errors }, stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

export const runCommand: KubectlCommand = {
	name: 'run',
	summary: 'Run a particular image on the cluster',
	usage: 'kubectl run NAME --image=image [--env="key=value"] [--port=port] [--dry-run=server|client] [--overrides=inline-json] [--command] -- [COMMAND] [args...]',
	flags: [
		...PRINT_FLAGS,
		DRY_RUN_FLAG,
		{ name: 'annotations', kind: 'stringArray', noSplit: true },
		{ name: 'image', kind: 'string' },
		{ name: 'image-pull-policy', kind: 'string' },
		{ name: 'rm', kind: 'bool' },
		{ name: 'env', kind: 'stringArray', noSplit: true },
		{ name: 'port', kind: 'string' },
		{ name: 'labels', short: 'l', kind: 'string' },
		{ name: 'stdin', short: 'i', kind: 'bool' },
		{ name: 'tty', short: 't', kind: 'bool' },
		{ name: 'attach', kind: 'bool' },
		{ name: 'leave-stdin-open', kind: 'bool' },
		{ name: 'restart', kind: 'string', default: 'Always' },
		{ name: 'command', kind: 'bool' },
		{ name: 'expose', kind: 'bool' },
		{ name: 'quiet', short: 'q', kind: 'bool' },
		{ name: 'privileged', kind: 'bool' },
		{ name: 'overrides', kind: 'string' },
		{ name: 'override-type', kind: 'string', default: 'merge' },
		{ name: 'pod-running-timeout', kind: 'duration', default: '1m0s' },
		{ name: 'save-config', kind: 'bool' },
		FIELD_MANAGER_FLAG('kubectl-run'),
	],
	run,
};
