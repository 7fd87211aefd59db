/**
 * `kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [-i] [-t] -- COMMAND
 * [args...]`: POST pods/<name>/exec, which the API server forwards to the
 * kubelet of the pod's node; the kubelet runs the command in the container
 * and answers with its output and exit code (an ExecResult). A non-zero
 * exit prints `command terminated with exit code N` and exits N, as
 * client-go's remotecommand reports it. `-it -- sh` (or bash, ash, dash)
 * typed at the reader's prompt opens the container's shell on the terminal
 * (ContainerSession: the reader's shell runs each line typed in the
 * container until `exit`); elsewhere `-i`/`-t` attach nothing and the
 * command just runs.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go.
 */
import type { Pod } from '../../api/types.ts';
import type { ExecResult } from '../../api/request.ts';
import { R, refOf } from '../../client/client.ts';
import type { ContainerSession, KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { resolveResourceName } from '../resource-args.ts';
import { callError, checkErr, plain, usageError } from './check-err.ts';
import { byActivity, defaultContainer, podForObject } from './pod-for-object.ts';
import type { CommandResult } from '../../shell/types.ts';

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const files = (args.flags.filename as string[]) ?? [];
	// cobra's ArgsLenAtDash: how many positionals came before `--` (-1 without it).
	const argsLenAtDash = args.dashDash ? args.positionals.length : -1;
	const all = [...args.positionals, ...args.passthrough];
	let resourceName = '';
	if (all.length > 0 && argsLenAtDash !== 0) resourceName = all[0];
	let command: string[] = [];
	if (argsLenAtDash > -1) command = all.slice(argsLenAtDash);
	else if (all.length > 1 || (all.length > 0 && files.length)) return checkErr(usageError('kubectl exec', 'exec [POD] [COMMAND] is not supported anymore. Use exec [POD] -- [COMMAND] instead'));
	// Validate.
	if (!resourceName && !files.length) return checkErr(plain('pod, type/name or --filename must be specified'));
	if (command.length === 0) return checkErr(plain('you must specify at least one command for the container'));
	if (files.length) return checkErr(plain('exec -f is not supported by this simulated kubectl; name the pod'));

	// ResourceNames("pods", name): POD, or TYPE/NAME.
	const type = resolveResourceName(resourceName);
	if (!type.ok) return checkErr(plain(type.error));
	const got = inv.client.get(refOf(type.info), type.info.namespaced ? inv.namespace : undefined, type.name);
	if (!got.ok) return checkErr(callError(got, inv.env.serverUrl));
	const chosen = podForObject(inv, { ...got.object, kind: type.info.kind }, byActivity, 'attach');
	if ('error' in chosen) return checkErr(chosen.error);
	const pod = chosen.pod as Pod;
	const phase = pod.status?.phase;
	if (phase === 'Succeeded' || phase === 'Failed') return checkErr(plain(`cannot exec into a container in a completed pod; current phase is ${phase}`));
	const quiet = args.flags.quiet === true;
	const container = defaultContainer(pod, String(args.flags.container ?? ''), quiet);
	if ('error' in container) return checkErr(container.error);
	let stderr = container.stderr;
	const interactive = args.flags.stdin === true && args.flags.tty === true;
	// `-it -- sh` at the reader's prompt: the shell takes the terminal (raw TTY) until `exit`.
	if (interactive && inv.env.openContainerSession && command.length === 1 && INTERACTIVE_SHELLS.test(command[0])) {
		const opened = openShell(inv, pod, container.container, command[0]);
		if (opened) return { stdout: '', stderr, exitCode: 0 };
	}
	// SetupTTY: -t asks for a terminal, but a script's or a pipe's input is not one; kubectl says so and runs
	// without one. An interactive shell then reads end-of-file and exits at once.
	if (interactive && !quiet && !inv.env.openContainerSession) stderr += 'Unable to use a TTY - input is not a terminal or the right kind of file\n';
	const result = inv.client.call<ExecResult>({
		verb: 'create',
		...refOf(R.pods),
		namespace: pod.metadata.namespace,
		name: pod.metadata.name,
		subresource: 'exec',
		query: { container: container.container, command, stdin: args.flags.stdin === true, tty: false },
		body: args.flags.stdin === true ? inv.stdin : undefined,
	});
	if (!result.ok) {
		// What the kubelet's stream reports (remotecommand's error channel, or a refused upgrade) reaches kubectl
		// as a plain error: `error: Internal error occurred: error executing command in container: ...`,
		// `error: unable to upgrade connection: container not found ("web")`. The API server's own refusals
		// (`Error from server: error dialing backend: ...`) stay Status errors.
		if (!result.transport && (result.reason === 'InternalError' || result.message.startsWith('unable to upgrade connection'))) return checkErr(plain(result.message), '', stderr);
		return checkErr(callError(result, inv.env.serverUrl), '', stderr);
	}
	const output = result.object;
	stderr += output.stderr ?? '';
	if (output.exitCode) {
		return { stdout: output.stdout ?? '', stderr: `${stderr}command terminated with exit code ${output.exitCode}\n`, exitCode: output.exitCode };
	}
	return { stdout: output.stdout ?? '', stderr, exitCode: 0 };
}

/** The shells `kubectl exec -it POD -- SHELL` opens interactively. */
const INTERACTIVE_SHELLS = /^(?:\/(?:usr\/)?bin\/)?(?:sh|ash|bash|dash)$/;

/**
 * Starts the interactive shell: a first exec finds its working directory
 * and the image's distribution (which decides what `sh` is: busybox ash on
 * busybox and Alpine, dash on Debian and Ubuntu), hence its prompt. False
 * when the shell cannot run there; the ordinary path then reports why.
 */
export function openShell(inv: KubectlInvocation, pod: Pod, container: string, shell: string, attach?: ContainerSession['attach']): boolean {
	const probe = inv.client.call<ExecResult>({
		verb: 'create',
		...refOf(R.pods),
		namespace: pod.metadata.namespace,
		name: pod.metadata.name,
		subresource: 'exec',
		query: { container, command: [shell, '-c', 'pwd; cat /etc/os-release 2>/dev/null; exit 0'], stdin: false, tty: false },
	});
	if (!probe.ok || probe.object.exitCode) return false;
	const [cwd = '/', ...release] = (probe.object.stdout ?? '').split('\n');
	const id = /^ID="?([^"\n]*)"?$/m.exec(release.join('\n'))?.[1] ?? '';
	const base = shell.slice(shell.lastIndexOf('/') + 1);
	// A host-network pod has the node's host name.
	const hostname = pod.spec.hostNetwork === true ? (pod.spec.nodeName ?? '') : (pod.spec.hostname ?? pod.metadata.name ?? '');
	let prompt: string;
	if (base === 'bash') prompt = `root@${hostname}:${cwd === '/root' ? '~' : cwd}# `;
	else if (base === 'dash' || (base === 'sh' && id !== '' && id !== 'alpine')) prompt = '# ';
	else prompt = `${cwd} # `;
	const hostRoot = hostRootMount(pod, container);
	inv.env.openContainerSession?.({ namespace: pod.metadata.namespace ?? inv.namespace, pod: pod.metadata.name ?? '', container, shell, prompt, echoesExit: base === 'bash', ...(attach ? { attach } : {}), ...(hostRoot ? { hostRoot } : {}) });
	return true;
}

/** Where the container has the node's `/` mounted (a hostPath volume of `/`), if it does. */
function hostRootMount(pod: Pod, container: string): { node: string; path: string } | undefined {
	const volumes = new Set((pod.spec.volumes ?? []).filter((v) => (v.hostPath as { path?: string } | undefined)?.path?.replace(/\/+$/, '') === '').map((v) => v.name));
	const spec = [...pod.spec.containers, ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])].find((c) => c.name === container);
	const mount = (spec?.volumeMounts ?? []).find((m) => volumes.has(m.name));
	return mount && pod.spec.nodeName ? { node: pod.spec.nodeName, path: mount.mountPath.replace(/\/+$/, '') || '/' } : undefined;
}

export const execCommand: KubectlCommand = {
	name: 'exec',
	summary: 'Execute a command in a container',
	usage: 'kubectl exec (POD | TYPE/NAME) [-c CONTAINER] [flags] -- COMMAND [args...]',
	flags: [
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'stdin', short: 'i', kind: 'bool' },
		{ name: 'tty', short: 't', kind: 'bool' },
		{ name: 'quiet', short: 'q', kind: 'bool' },
		{ name: 'filename', short: 'f', kind: 'stringArray' },
		{ name: 'pod-running-timeout', kind: 'duration', default: '1m0s' },
	],
	run,
};
