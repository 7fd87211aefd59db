/**
 * What `kubectl run --attach` (and `-i`, `-it`) does once the Pod is
 * created: wait for it to be running and ready (or to have completed) for
 * up to `--pod-running-timeout`; print the logs of a Pod that already
 * completed, or else the logs so far, then attach and stream what the
 * container writes until its process exits; with `--restart=Never` or
 * `OnFailure` wait for the Pod to finish and exit with the container's exit
 * code (`pod default/tmp terminated (Error)`); and with `--rm` delete what
 * was created, printing `pod "tmp" deleted from default namespace`,
 * whatever happened before.
 *
 * The attach stream is the container's log read as virtual time runs (the
 * main process's output is its log), at most ATTACH_STREAM_CAP_MS: a real
 * attach to a server lasts until interrupted. The simulation then presses
 * Ctrl-C for the reader, and says so: on a raw terminal (`-it`) the
 * container's TTY turns it into SIGINT, its process ends with 130, and
 * kubectl goes on as it would (`--rm` deletes the Pod); without one the
 * interrupt ends kubectl itself, leaving the Pod running. The reader's prompt counts as
 * a terminal when kubectl writes to it (env.tty), so `-it` prints attach's
 * two notices and, once the session ends, the `Session ended, resume
 * using ...` line; elsewhere kubectl says it cannot use a TTY.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/run/run.go (Run,
 * handleAttachPod, waitForPod, podRunningAndReady, podCompleted,
 * podSucceeded, removeCreatedObjects),
 * staging/src/k8s.io/kubectl/pkg/cmd/attach/attach.go (Run,
 * reattachMessage), staging/src/k8s.io/kubectl/pkg/cmd/exec/exec.go
 * (SetupTTY).
 */
import type { KubeObject, Pod } from '../../api/types.ts';
import type { WatchEvent } from '../../api/request.ts';
import { resourceByName } from '../../api/resources.ts';
import { R, refOf } from '../../client/client.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, errorText, plain, type KubectlError } from './check-err.ts';
import { deletedLine } from './delete.ts';
import { openShell } from './exec.ts';
import type { CommandResult } from '../../shell/types.ts';
import { INTERNAL } from '../../shell/session.ts';

/** How long the simulated attach streams a container that keeps running (a real one lasts until Ctrl-C): 30 s of virtual time. */
export const ATTACH_STREAM_CAP_MS = 30_000;
/** How often the attach stream looks for new output (ours: upstream streams it as it comes). */
const STREAM_POLL_MS = 100;

/** What run decided before attaching. */
export interface AttachRequest {
	/** The created objects, Pod first (the Service of `--expose` after it), as the API server returned them. */
	created: KubeObject[];
	/** -i */
	stdin: boolean;
	/** -t */
	tty: boolean;
	quiet: boolean;
	remove: boolean;
	leaveStdinOpen: boolean;
	restartPolicy: string;
	/** --pod-running-timeout */
	timeoutMs: number;
}

/** The outcome of waitForPod: the Pod the condition accepted, or why it stopped. */
type WaitOutcome = { pod: Pod; completed?: boolean } | { error: KubectlError };

/** watchtools' timeout, as kubectl prints it. */
const TIMED_OUT = plain('timed out waiting for the condition');

/** A condition on one watch event: done, not yet, or a failure (podRunningAndReady's ErrPodCompleted is `completed`). */
type Condition = (event: WatchEvent) => { done: boolean; completed?: boolean; error?: KubectlError };

const isFinished = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** A DELETED event ends every condition with NotFound for a nameless pod. */
const deleted = (): KubectlError => ({ kind: 'status', code: 404, reason: 'NotFound', message: 'pods "" not found' });

const podRunningAndReady: Condition = (event) => {
	if (event.type === 'DELETED') return { done: false, error: deleted() };
	const pod = event.object as Pod;
	if (isFinished(pod)) return { done: false, completed: true };
	if (pod.status?.phase !== 'Running') return { done: false };
	return { done: (pod.status.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True') };
};

const podCompleted: Condition = (event) => (event.type === 'DELETED' ? { done: false, error: deleted() } : { done: isFinished(event.object as Pod) });
const podSucceeded: Condition = (event) => (event.type === 'DELETED' ? { done: false, error: deleted() } : { done: (event.object as Pod).status?.phase === 'Succeeded' });

/** waitForPod: UntilWithSync on the one Pod (a list, then a watch) until the condition holds, fails, or the timeout passes. */
function waitForPod(inv: KubectlInvocation, namespace: string, name: string, timeoutMs: number, condition: Condition): WaitOutcome {
	let outcome: WaitOutcome | undefined;
	const see = (event: WatchEvent) => {
		if (outcome) return;
		const verdict = condition(event);
		if (verdict.error) outcome = { error: verdict.error };
		else if (verdict.completed) outcome = { pod: { ...(event.object as Pod), kind: 'Pod', apiVersion: 'v1' }, completed: true };
		else if (verdict.done) outcome = { pod: { ...(event.object as Pod), kind: 'Pod', apiVersion: 'v1' } };
	};
	const listed = inv.client.list<Pod>(R.pods, namespace, { fieldSelector: `metadata.name=${name}` });
	if (!listed.ok) return { error: callError(listed, inv.env.serverUrl) };
	for (const pod of listed.object.items) see({ type: 'ADDED', object: pod });
	if (outcome) return outcome;
	const query = { fieldSelector: `metadata.name=${name}`, resourceVersion: listed.object.metadata?.resourceVersion };
	inv.env.watch(R.pods, { namespace, query }, see, () => outcome !== undefined, timeoutMs);
	return outcome ?? { error: TIMED_OUT };
}

/** The log of the Pod's container (GET pods/NAME/log), or the error. */
export function fetchLog(inv: KubectlInvocation, pod: Pod, container: string): { text: string } | { error: KubectlError } {
	const result = inv.client.call<unknown>({ verb: 'get', ...refOf(R.pods), namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'log', query: { container } });
	if (!result.ok) return { error: callError(result, inv.env.serverUrl) };
	const body = result.object;
	if (typeof body === 'string') return { text: body };
	const b = (body ?? {}) as { text?: unknown; log?: unknown };
	return { text: typeof b.text === 'string' ? b.text : typeof b.log === 'string' ? b.log : '' };
}

/** Whether the container's current process is still running (the attach stream ends when it exits). */
function containerRunning(inv: KubectlInvocation, pod: Pod, container: string, restartCount: number): boolean {
	const live = inv.client.get<Pod>(R.pods, pod.metadata.namespace, pod.metadata.name!);
	if (!live.ok || live.object.metadata.uid !== pod.metadata.uid) return false;
	const status = [...(live.object.status?.containerStatuses ?? []), ...(live.object.status?.ephemeralContainerStatuses ?? [])].find((c) => c.name === container);
	return !!status?.state?.running && (status.restartCount ?? 0) === restartCount;
}

/** removeCreatedObjects: deletes each created object (not found is fine), printing delete's line; the pod's own grace period applies and nothing waits. */
function removeCreated(inv: KubectlInvocation, created: readonly KubeObject[]): { stdout: string } {
	let stdout = '';
	for (const obj of created) {
		const info = resourceByName('', obj.kind === 'Service' ? 'services' : 'pods');
		if (!info) continue;
		const namespace = obj.metadata.namespace ?? inv.namespace;
		const name = obj.metadata.name ?? '';
		const result = inv.client.delete(refOf(info), namespace, name, { propagationPolicy: 'Background' });
		// IgnoreNotFound; any other failure ends the removal (and its error is dropped).
		if (!result.ok) {
			if (result.code === 404 && !result.transport) continue;
			break;
		}
		stdout += deletedLine({ info, namespace, name, source: '' }, -1, 'none', '');
	}
	return { stdout };
}

/** What kubectl wrote, in order, as a command result with `exitCode`. */
export function chunkedResult(chunks: Array<{ fd: 1 | 2; text: string }>, exitCode: number): CommandResult {
	const text = (fd: 1 | 2) => chunks.filter((c) => c.fd === fd).map((c) => c.text).join('');
	return { stdout: text(1), stderr: text(2), exitCode, chunks };
}

/** How an attach uses the terminal (AttachOptions' StreamOptions). */
export interface AttachStreamOptions {
	stdin: boolean;
	tty: boolean;
	quiet: boolean;
	/** The command the reattach message names: `kubectl attach`. */
	commandName: string;
}

/**
 * AttachOptions.Run once the pod is known: the TTY checks, the notices,
 * the container's output from `seen` on until its process exits (at most
 * ATTACH_STREAM_CAP_MS), and the reattach message of a raw terminal.
 */
export function streamAttach(inv: KubectlInvocation, pod: Pod, container: string, options: AttachStreamOptions, write: (fd: 1 | 2, text: string) => void, seenBefore: string): 'ended' | 'interrupted' {
	const namespace = pod.metadata.namespace ?? inv.namespace;
	const ephemeral = (pod.spec.ephemeralContainers ?? []).some((c) => c.name === container);
	const spec = [...(pod.spec.containers ?? []), ...(pod.spec.initContainers ?? []), ...(pod.spec.ephemeralContainers ?? [])].find((c) => c.name === container);
	let tty = options.tty;
	if (tty && spec?.tty !== true) {
		tty = false;
		if (!options.quiet) write(2, `error: Unable to use a TTY - container ${container} did not allocate one\n`);
	} else if (!tty && spec?.tty === true) tty = true;
	// SetupTTY: a raw terminal needs stdin, a TTY and the reader's own terminal.
	const rawTty = options.stdin && tty && inv.env.tty === true;
	if (options.stdin && tty && !rawTty && !options.quiet) write(2, 'Unable to use a TTY - input is not a terminal or the right kind of file\n');
	if (!options.quiet) write(2, "All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\nIf you don't see a command prompt, try pressing enter.\n");
	const restartCount = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.ephemeralContainerStatuses ?? [])].find((c) => c.name === container)?.restartCount ?? 0;
	let seen = seenBefore;
	const drain = () => {
		const now = fetchLog(inv, pod, container);
		if ('error' in now) return;
		if (now.text.length > seen.length && now.text.startsWith(seen)) write(1, now.text.slice(seen.length));
		seen = now.text;
	};
	let next = inv.env.nowMs() + STREAM_POLL_MS;
	const ended = inv.env.waitFor(() => {
		if (inv.env.nowMs() < next) return false;
		next = inv.env.nowMs() + STREAM_POLL_MS;
		drain();
		return !containerRunning(inv, pod, container, restartCount);
	}, ATTACH_STREAM_CAP_MS);
	drain();
	if (!ended && containerRunning(inv, pod, container, restartCount)) {
		write(2, `${INTERNAL} still running after ${ATTACH_STREAM_CAP_MS / 1000} s of virtual time: interrupted, as Ctrl-C would\n`);
		if (!rawTty || !inv.env.interruptAttached?.(namespace, pod.metadata.name ?? '', container)) return 'interrupted';
		write(1, '^C\n');
	}
	if (rawTty && !options.quiet) write(1, `${reattachMessage(options.commandName, pod, container, ephemeral)}\n`);
	return 'ended';
}

/** attach's reattachMessage: how to attach again once the session ends (an ephemeral container is not restarted). */
export function reattachMessage(commandName: string, pod: Pod, container: string, ephemeral: boolean): string {
	const where = `${commandName} ${pod.metadata.name} -c ${container} -n ${pod.metadata.namespace ?? ''} -i -t`;
	if (ephemeral) return `Session ended, the ephemeral container will not be restarted but may be reattached using '${where}' if it is still running`;
	return `Session ended, resume using '${where}' command`;
}

/** Attaches to the Pod `kubectl run` created and sees it through, as run.go's attach branch does. */
export function attachToRun(inv: KubectlInvocation, request: AttachRequest, stderrBefore: string, stdoutBefore = ''): CommandResult {
	// What kubectl writes, in order: the notices on stderr come before the streamed output.
	const chunks: Array<{ fd: 1 | 2; text: string }> = [];
	const write = (fd: 1 | 2, text: string) => {
		if (text) chunks.push({ fd, text });
	};
	write(2, stderrBefore);
	write(1, stdoutBefore);
	const pod = request.created[0] as Pod;
	const namespace = pod.metadata.namespace ?? inv.namespace;
	const name = pod.metadata.name ?? '';
	const container = pod.spec.containers[0]?.name ?? name;
	const finish = (error?: KubectlError): CommandResult => {
		// The deferred removeCreatedObjects: its own error is dropped.
		if (request.remove) write(1, removeCreated(inv, request.created).stdout);
		let exitCode = 0;
		if (error) {
			const failed = checkErr(error);
			write(2, failed.stderr);
			exitCode = failed.exitCode;
		}
		return chunkedResult(chunks, exitCode);
	};

	// handleAttachPod.
	const ready = waitForPod(inv, namespace, name, request.timeoutMs, podRunningAndReady);
	if ('error' in ready) return finish(ready.error);
	if (ready.completed) {
		const log = fetchLog(inv, ready.pod, container);
		if ('error' in log) return finish(log.error);
		write(1, log.text);
	} else {
		// The logs written before the attach connects.
		const before = fetchLog(inv, ready.pod, container);
		if ('error' in before) write(2, `warning: couldn't fetch pre-attach logs: ${errorText(before.error)}\n`);
		else write(1, before.text);
		// The container's own shell, reading the reader's terminal: the session takes the prompt until `exit`.
		const shell = interactiveShell(ready.pod, container);
		if (request.stdin && request.tty && inv.env.tty === true && inv.env.openContainerSession && shell) {
			const remove = request.remove ? request.created.map((o) => ({ resource: (o.kind === 'Service' ? 'services' : 'pods') as 'pods' | 'services', name: o.metadata.name ?? '' })) : [];
			if (openShell(inv, ready.pod, container, shell, { restartPolicy: request.restartPolicy, remove })) {
				if (!request.quiet) write(2, "All commands and output from this session will be recorded in container logs, including credentials and sensitive information passed through the command prompt.\nIf you don't see a command prompt, try pressing enter.\n");
				return chunkedResult(chunks, 0);
			}
		}
		const streamed = streamAttach(inv, ready.pod, container, { stdin: request.stdin, tty: request.tty, quiet: request.quiet, commandName: 'kubectl attach' }, write, 'error' in before ? '' : before.text);
		// Ctrl-C without a raw terminal kills kubectl: no exit code, no --rm (its deferred removal never runs), status 130.
		if (streamed === 'interrupted') return chunkedResult(chunks, 130);
	}

	// Only --restart=Never and OnFailure wait for the exit code.
	const waitForExitCode = !request.leaveStdinOpen && (request.restartPolicy === 'Never' || request.restartPolicy === 'OnFailure');
	if (!waitForExitCode) return finish();
	const done = waitForPod(inv, namespace, name, request.timeoutMs, request.restartPolicy === 'OnFailure' ? podSucceeded : podCompleted);
	if ('error' in done) return finish(done.error);
	const final = done.pod;
	switch (final.status?.phase) {
		case 'Succeeded':
			return finish();
		case 'Failed': {
			const unknown = plain(`pod ${namespace}/${name} failed with unknown exit code`);
			const terminated = final.status.containerStatuses?.[0]?.state?.terminated;
			if (!terminated || terminated.exitCode === 0) return finish(unknown);
			return finish({ kind: 'exit', message: `pod ${namespace}/${name} terminated (${terminated.reason ?? ''})\n${terminated.message ?? ''}`, code: terminated.exitCode });
		}
		default:
			return finish(plain(`pod ${namespace}/${name} left in phase ${final.status?.phase ?? ''}`));
	}
}

/**
 * The shell a container runs as its main process with nothing to read but
 * its standard input (no script: the image's CMD `sh`, or `-- sh`), which an
 * attach hands to the reader. Undefined for any other command.
 */
function interactiveShell(pod: Pod, container: string): string | undefined {
	const spec = pod.spec.containers.find((c) => c.name === container);
	if (!spec?.stdin) return undefined;
	const argv = [...(spec.command ?? []), ...(spec.args ?? [])];
	if (argv.length === 0) return 'sh';
	return argv.length === 1 && /(^|\/)(sh|bash|ash|dash)$/.test(argv[0]) ? argv[0] : undefined;
}
