/**
 * Real kubectl commands this sandbox does not carry out yet. Each answers
 * with what it is and what to do instead, rather than kubectl's
 * `unknown command`, which would tell the reader kubectl has no such
 * command: `cp` (it streams tar through `exec`, and the containers here
 * keep no tar archives) and `debug` (ephemeral containers and node
 * debugging Pods, which the kubelet here does not start).
 *
 * Mirrors nothing upstream: the simulator's own notice for commands it lacks.
 */
import type { KubectlCommand } from '../kubectl.ts';
import type { FlagSpec } from '../flags.ts';

// The flags readers copy from kubernetes.io parse, so the notice is what they see rather than `unknown flag`.
function notice(name: string, summary: string, usage: string, instead: string, flags: FlagSpec[]): KubectlCommand {
	return {
		name,
		summary,
		usage,
		flags,
		handlesHelp: false,
		run: () => ({ stdout: '', stderr: `error: 'kubectl ${name}' is not simulated in this sandbox yet. ${instead}\n`, exitCode: 1 }),
	};
}

export const NOT_SIMULATED: KubectlCommand[] = [
	notice('cp', 'Copy files and directories to and from containers', 'kubectl cp <file-spec-src> <file-spec-dest>', 'To read a file from a container: kubectl exec POD -- cat PATH', [
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'no-preserve', kind: 'bool' },
		{ name: 'retries', kind: 'int', default: 0 },
	]),
	notice('debug', 'Create debugging sessions for troubleshooting workloads and nodes', 'kubectl debug (POD | TYPE[[.VERSION].GROUP]/NAME) [ -- COMMAND [args...] ]', 'To look inside a Pod: kubectl exec -it POD -- sh; to look at a node: ssh NODE', [
		{ name: 'image', kind: 'string' },
		{ name: 'stdin', short: 'i', kind: 'bool' },
		{ name: 'tty', short: 't', kind: 'bool' },
		{ name: 'target', kind: 'string' },
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'copy-to', kind: 'string' },
		{ name: 'profile', kind: 'string', default: 'general' },
		{ name: 'share-processes', kind: 'bool', default: true },
		{ name: 'attach', kind: 'bool' },
		{ name: 'quiet', short: 'q', kind: 'bool' },
	]),
];
