/**
 * `kubectl attach (POD | TYPE/NAME) [-c CONTAINER] [-i] [-t] [-q]`: finds
 * the pod (a workload's most active one), refuses a completed pod, then
 * attaches to the container's main process as `kubectl run --attach` does
 * (./run-attach.ts): attach's notices, the output the process writes from
 * now on until it exits (at most ATTACH_STREAM_CAP_MS of virtual time, as a
 * reader would detach), and with `-it` at the reader's terminal the
 * `Session ended, resume using ...` line.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/attach/attach.go.
 */
import type { Pod } from '../../api/types.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { refOf } from '../../client/client.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { resolveResourceType } from '../resource-args.ts';
import { callError, checkErr, plain } from './check-err.ts';
import { byActivity, defaultContainer, podForObject } from './pod-for-object.ts';
import { chunkedResult, fetchLog, streamAttach } from './run-attach.ts';
import type { CommandResult } from '../../shell/types.ts';

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const resources = [...args.positionals, ...args.passthrough];
	// Complete, then Validate.
	if (resources.length === 0) return checkErr(plain('at least 1 argument is required for attach'));
	if (resources.length > 2) return checkErr(plain(`expected POD, TYPE/NAME, or TYPE NAME, (at most 2 arguments) saw ${resources.length}: [${resources.join(' ')}]`));
	if (!(parseGoDurationMs(String(args.flags['pod-running-timeout'] ?? '1m0s')) > 0)) return checkErr(plain('--pod-running-timeout must be higher than zero'));

	// ResourceNames("pods", POD), or TYPE/NAME, or TYPE NAME.
	let typeText = 'pods';
	let name = resources[0];
	if (resources.length === 2) [typeText, name] = resources;
	else if (name.includes('/')) [typeText, name] = [name.slice(0, name.indexOf('/')), name.slice(name.indexOf('/') + 1)];
	const type = resolveResourceType(typeText);
	if (!type.ok) return checkErr(plain(type.error));
	const got = inv.client.get(refOf(type.info), type.info.namespaced ? inv.namespace : undefined, name);
	if (!got.ok) return checkErr(callError(got, inv.env.serverUrl));
	const chosen = podForObject(inv, { ...got.object, kind: type.info.kind }, byActivity, 'attach');
	if ('error' in chosen) return checkErr(chosen.error);
	const pod = chosen.pod as Pod;
	const phase = pod.status?.phase;
	if (phase === 'Succeeded' || phase === 'Failed') return checkErr(plain(`cannot attach a container in a completed pod; current phase is ${phase}`));
	const quiet = args.flags.quiet === true;
	const container = defaultContainer(pod, String(args.flags.container ?? ''), quiet);
	if ('error' in container) return checkErr(plain(`cannot attach to the container: ${container.error.kind === 'plain' ? container.error.message : ''}`));

	const chunks: Array<{ fd: 1 | 2; text: string }> = [];
	const write = (fd: 1 | 2, text: string) => {
		if (text) chunks.push({ fd, text });
	};
	write(2, container.stderr);
	// The stream starts where the log is now: attach shows what comes next.
	const now = fetchLog(inv, pod, container.container);
	const streamed = streamAttach(inv, pod, container.container, { stdin: args.flags.stdin === true, tty: args.flags.tty === true, quiet, commandName: 'kubectl attach' }, write, 'error' in now ? '' : now.text);
	// Interrupted without a raw terminal, kubectl itself dies of the SIGINT.
	return chunkedResult(chunks, streamed === 'interrupted' ? 130 : 0);
}

export const attachCommand: KubectlCommand = {
	name: 'attach',
	summary: 'Attach to a running container',
	usage: 'kubectl attach (POD | TYPE/NAME) -c CONTAINER',
	flags: [
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'stdin', short: 'i', kind: 'bool' },
		{ name: 'tty', short: 't', kind: 'bool' },
		{ name: 'quiet', short: 'q', kind: 'bool' },
		{ name: 'pod-running-timeout', kind: 'duration', default: '1m0s' },
	],
	run,
};
