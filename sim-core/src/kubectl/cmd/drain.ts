/**
 * `kubectl cordon NODE`, `kubectl uncordon NODE` and `kubectl drain NODE`.
 *
 * cordon/uncordon patch `spec.unschedulable` (`node/x cordoned`, `node/x
 * already cordoned`). drain cordons, lists the node's pods, refuses when
 * some cannot be removed (DaemonSet-managed pods without
 * --ignore-daemonsets, pods with emptyDir data without
 * --delete-emptydir-data, pods with no controller without --force), then
 * evicts the rest through the pods/eviction subresource (retrying every 5s
 * while a PodDisruptionBudget refuses), waits until each pod is gone, and
 * prints `node/x drained`. With --disable-eviction it DELETEs the pods
 * instead, which no budget can refuse (`pod/x deleted`).
 *
 * Upstream waits forever when --timeout is 0; here such a drain gives up
 * after DRAIN_WAIT_CAP_MS of virtual time, as if that timeout had been set
 * (as `kubectl rollout status` and `kubectl wait` cap themselves), so a
 * budget that can never be met cannot hang the reader's terminal.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go,
 * staging/src/k8s.io/kubectl/pkg/drain/drain.go,
 * staging/src/k8s.io/kubectl/pkg/drain/filters.go,
 * staging/src/k8s.io/kubectl/pkg/drain/cordon.go.
 */
import type { KubeObject, Node, OwnerReference, Pod } from '../../api/types.ts';
import { formatGoDurationMs } from '../../golang/duration.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { R, refOf } from '../../client/client.ts';
import { resourceByName } from '../../api/resources.ts';
import { parseLabelSelector, SelectorError } from '../../api/labels.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { callError, checkErr, errorText, plain, usageError, type KubectlError } from './check-err.ts';
import { durationFlag } from './delete.ts';
import { DRY_RUN_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter, withDryRun, type DryRunStrategy } from './print-flags.ts';
import { isFatalCall, typed } from './resource-info.ts';
import { visit } from './visit.ts';
import { chunkedResult } from './run-attach.ts';
import type { CommandResult } from '../../shell/types.ts';

/** How long drain waits between eviction attempts a PodDisruptionBudget refused (drain.go EvictErrorRetryDelay = 5s). */
const EVICT_RETRY_DELAY_MS = 5000;
/** How often drain checks whether evicted pods are gone (waitForDeleteParams interval = 1s). */
const DELETE_POLL_MS = 1000;
/** The longest a drain without --timeout runs the virtual clock: 10 minutes (upstream: forever). */
const DRAIN_WAIT_CAP_MS = 10 * 60_000;

/** filters.go messages. */
const DAEMONSET_FATAL = 'DaemonSet-managed Pods (use --ignore-daemonsets to ignore)';
const DAEMONSET_WARNING = 'ignoring DaemonSet-managed Pods';
const LOCAL_STORAGE_FATAL = 'Pods with local storage (use --delete-emptydir-data to override)';
const LOCAL_STORAGE_WARNING = 'deleting Pods with local storage';
const UNMANAGED_FATAL = 'Pods that declare no controller (use --force to override)';
const UNMANAGED_WARNING = 'deleting Pods that declare no controller';
const MIRROR_POD_ANNOTATION = 'kubernetes.io/config.mirror';

type Outcome = { delete: boolean; reason: 'Okay' | 'Skip' | 'Warning' | 'Error'; message?: string };

interface DrainOptions {
	force: boolean;
	ignoreDaemonSets: boolean;
	deleteEmptyDirData: boolean;
	skipWaitForDeleteTimeoutSeconds: number;
}

function controllerOf(pod: Pod): OwnerReference | undefined {
	return (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
}

const finished = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** The filters of pkg/drain/filters.go, in order; the first that keeps the pod decides. */
function filterPod(inv: KubectlInvocation, pod: Pod, o: DrainOptions): Outcome {
	const ok: Outcome = { delete: true, reason: 'Okay' };
	const filters: Array<() => Outcome> = [
		() => {
			// skipDeletedFilter: pods deleted longer ago than --skip-wait-for-delete-timeout are skipped.
			const since = pod.metadata.deletionTimestamp ? (inv.env.wallMs() - parseRfc3339(pod.metadata.deletionTimestamp)) / 1000 : 0;
			return o.skipWaitForDeleteTimeoutSeconds > 0 && pod.metadata.deletionTimestamp && Math.floor(since) > o.skipWaitForDeleteTimeoutSeconds ? { delete: false, reason: 'Skip' } : ok;
		},
		() => {
			const ref = controllerOf(pod);
			if (!ref || ref.kind !== 'DaemonSet' || ref.apiVersion !== 'apps/v1' || finished(pod)) return ok;
			const ds = inv.client.get(R.daemonsets, pod.metadata.namespace, ref.name);
			if (!ds.ok) {
				const message = ds.message;
				if (ds.code === 404 && o.force) return { delete: true, reason: 'Warning', message };
				return { delete: false, reason: 'Error', message };
			}
			if (!o.ignoreDaemonSets) return { delete: false, reason: 'Error', message: DAEMONSET_FATAL };
			return { delete: false, reason: 'Warning', message: DAEMONSET_WARNING };
		},
		() => (pod.metadata.annotations?.[MIRROR_POD_ANNOTATION] !== undefined ? { delete: false, reason: 'Skip' } : ok),
		() => {
			const hasLocalStorage = (pod.spec?.volumes ?? []).some((v) => (v as { emptyDir?: unknown }).emptyDir !== undefined);
			if (!hasLocalStorage || finished(pod)) return ok;
			if (!o.deleteEmptyDirData) return { delete: false, reason: 'Error', message: LOCAL_STORAGE_FATAL };
			return { delete: true, reason: 'Warning', message: LOCAL_STORAGE_WARNING };
		},
		() => {
			if (finished(pod) || controllerOf(pod)) return ok;
			if (o.force) return { delete: true, reason: 'Warning', message: UNMANAGED_WARNING };
			return { delete: false, reason: 'Error', message: UNMANAGED_FATAL };
		},
	];
	let outcome = ok;
	for (const filter of filters) {
		outcome = filter();
		if (!outcome.delete) break;
	}
	return outcome;
}

/** GetPodsForDeletion: the pods to evict, the warnings, and the errors that stop the drain. */
function podsForDeletion(inv: KubectlInvocation, nodeName: string, podSelector: string, o: DrainOptions): { pods: Pod[]; warnings: string; errors: string[] } | { error: KubectlError } {
	const query: { fieldSelector: string; labelSelector?: string } = { fieldSelector: `spec.nodeName=${nodeName}` };
	if (podSelector) query.labelSelector = podSelector;
	const listed = inv.client.list<Pod>(R.pods, undefined, query);
	if (!listed.ok) return { error: callError(listed, inv.env.serverUrl) };
	const pods: Pod[] = [];
	const warnings = new Map<string, string[]>();
	const failures = new Map<string, string[]>();
	for (const item of listed.object.items) {
		const pod = { ...item, apiVersion: 'v1', kind: 'Pod' } as Pod;
		const outcome = filterPod(inv, pod, o);
		const who = `${pod.metadata.namespace}/${pod.metadata.name}`;
		if (outcome.delete) pods.push(pod);
		if (outcome.reason === 'Warning') warnings.set(outcome.message ?? '', [...(warnings.get(outcome.message ?? '') ?? []), who]);
		if (outcome.reason === 'Error') failures.set(outcome.message || 'unexpected error', [...(failures.get(outcome.message || 'unexpected error') ?? []), who]);
	}
	return {
		pods,
		warnings: [...warnings].map(([message, who]) => `${message}: ${who.join(', ')}`).join('; '),
		errors: [...failures].map(([message, who]) => `cannot delete ${message}: ${who.join(', ')}`),
	};
}

/** cordon.go: patch spec.unschedulable, or report it already has the wanted value. */
function cordonNodes(inv: KubectlInvocation, nodes: Node[], desired: boolean, dry: DryRunStrategy): { stdout: string; stderr: string; fatal?: KubectlError } {
	let stdout = '';
	let stderr = '';
	const verb = desired ? 'cordon' : 'uncordon';
	const printer = toPrinter(inv.args, dry);
	if ('error' in printer) return { stdout, stderr, fatal: printer.error };
	const info = resourceByName('', 'nodes')!;
	for (const node of nodes) {
		if (!!node.spec?.unschedulable === desired) {
			stdout += printer.printer(typed(info, node), desired ? 'already cordoned' : 'already uncordoned');
			continue;
		}
		if (dry !== 'client') {
			const patched = inv.client.patch(R.nodes, undefined, node.metadata.name!, { spec: { unschedulable: desired ? true : null } }, 'application/strategic-merge-patch+json', undefined, dry === 'server' ? { dryRun: 'All' } : undefined);
			if (!patched.ok) {
				if (isFatalCall(patched)) return { stdout, stderr, fatal: callError(patched, inv.env.serverUrl) };
				stderr += `error: unable to ${verb} node ${JSON.stringify(node.metadata.name)}: ${errorText(callError(patched, inv.env.serverUrl))}\n`;
				continue;
			}
		}
		stdout += printer.printer(typed(info, node), desired ? 'cordoned' : 'uncordoned');
	}
	return { stdout, stderr };
}

/** The nodes named by the arguments or -l, as the drain/cordon builder finds them. */
function findNodes(inv: KubectlInvocation, usage: string): { nodes: Node[] } | { result: CommandResult } {
	const selector = String(inv.args.flags.selector ?? '');
	if (inv.args.positionals.length === 0 && !selector) return { result: checkErr(usageError(`kubectl ${usage.split(' ')[0]}`, `USAGE: ${usage} [flags]`)) };
	if (inv.args.positionals.length > 0 && selector) return { result: checkErr(usageError(`kubectl ${usage.split(' ')[0]}`, 'error: cannot specify both a node name and a --selector option')) };
	if (selector) {
		const listed = inv.client.list<Node>(R.nodes, undefined, { labelSelector: selector });
		if (!listed.ok) return { result: checkErr(callError(listed, inv.env.serverUrl)) };
		return { nodes: listed.object.items.map((n) => ({ ...n, apiVersion: 'v1', kind: 'Node' }) as Node) };
	}
	const visited = visit({ ...inv, args: { ...inv.args, positionals: ['nodes', ...inv.args.positionals] } }, { allowEmptySelector: false, requireObject: true });
	if (visited.usage) return { result: { stdout: '', stderr: visited.usage, exitCode: 1 } };
	if (visited.fatal) return { result: checkErr(visited.fatal) };
	if (visited.errors.length) return { result: checkErr(visited.errors.length === 1 ? visited.errors[0] : { kind: 'aggregate', errors: visited.errors }) };
	return { nodes: visited.targets.map((t) => t.object as Node) };
}

function cordonRun(inv: KubectlInvocation, desired: boolean): CommandResult {
	const dry = dryRunStrategy(inv.args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const found = findNodes(inv, desired ? 'cordon NODE' : 'uncordon NODE');
	if ('result' in found) return { ...found.result, stderr: dry.stderr + found.result.stderr };
	const result = cordonNodes(inv, found.nodes, desired, dry.strategy);
	if (result.fatal) return checkErr(result.fatal, result.stdout, dry.stderr + result.stderr);
	return { stdout: result.stdout, stderr: dry.stderr + result.stderr, exitCode: 0 };
}

/** What evicting one node's pods left behind. */
interface EvictionRun {
	stdout: string;
	stderr: string;
	error?: KubectlError;
}

/**
 * Evicts pods as drain.go evictPods does (one goroutine per pod there; one
 * state machine per pod here, all driven by the virtual clock): print
 * `evicting pod ns/name`, POST the Eviction, retry 429s after 5s, then poll
 * each second until the pod is gone and print `pod/name evicted`.
 *
 * The global timeout is noticed where upstream notices it: a pod waiting
 * to retry prints `evicting pod` once more when its 5 s are up and only
 * then gives up (so `--timeout=7s` ends at 10 s, with three attempts
 * printed); a pod being waited for gives up at the next 1 s poll. The
 * command returns when every pod is done, as upstream waits for every
 * goroutine.
 */
function evictPods(inv: KubectlInvocation, pods: Pod[], gracePeriod: number, dry: DryRunStrategy, timeoutMs: number): EvictionRun {
	const out: EvictionRun = { stdout: '', stderr: '' };
	const deleteOptions: Record<string, unknown> = {};
	if (gracePeriod >= 0) deleteOptions.gracePeriodSeconds = gracePeriod;
	if (dry === 'server') deleteOptions.dryRun = ['All'];
	type State = { pod: Pod; phase: 'evict' | 'wait' | 'done'; retryAtMs: number; error?: KubectlError };
	const states: State[] = pods.map((pod) => ({ pod, phase: 'evict', retryAtMs: 0 }));
	const deadlineMs = inv.env.nowMs() + timeoutMs;
	const timedOut = () => inv.env.nowMs() >= deadlineMs;
	const who = (s: State) => `pods/${JSON.stringify(s.pod.metadata.name)} -n ${JSON.stringify(s.pod.metadata.namespace)}`;
	const evictOnce = (s: State) => {
		const { name, namespace } = s.pod.metadata;
		out.stdout += dry === 'server' ? `evicting pod ${namespace}/${name} (server dry run)\n` : `evicting pod ${namespace}/${name}\n`;
		if (timedOut()) {
			s.phase = 'done';
			s.error = plain(`error when evicting ${who(s)}: global timeout reached: ${formatGoDurationMs(timeoutMs)}`);
			return;
		}
		const result = inv.client.call({ verb: 'create', ...refOf(R.pods), subresource: 'eviction', namespace, name, body: { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name, namespace }, deleteOptions } });
		if (result.ok) {
			s.phase = dry === 'server' ? 'done' : 'wait';
			return;
		}
		const error = callError(result, inv.env.serverUrl);
		if (result.code === 404) s.phase = 'done';
		else if (result.code === 429) {
			out.stderr += `error when evicting ${who(s)} (will retry after ${formatGoDurationMs(EVICT_RETRY_DELAY_MS)}): ${errorText(error)}\n`;
			s.retryAtMs = inv.env.nowMs() + EVICT_RETRY_DELAY_MS;
		} else {
			s.phase = 'done';
			s.error = plain(`error when evicting ${who(s)}: ${errorText(error)}`);
		}
	};
	for (const s of states) evictOnce(s);
	let nextPollMs = inv.env.nowMs();
	const step = () => {
		const now = inv.env.nowMs();
		for (const s of states) if (s.phase === 'evict' && now >= s.retryAtMs) evictOnce(s);
		if (now >= nextPollMs) {
			nextPollMs = now + DELETE_POLL_MS;
			for (const s of states) {
				if (s.phase !== 'wait') continue;
				const got = inv.client.get(R.pods, s.pod.metadata.namespace, s.pod.metadata.name!);
				if ((!got.ok && got.code === 404) || (got.ok && got.object.metadata.uid !== s.pod.metadata.uid)) {
					s.phase = 'done';
					out.stdout += `pod/${s.pod.metadata.name} ${withDryRun('evicted', dry)}\n`;
				} else if (!got.ok) {
					s.phase = 'done';
					s.error = plain(`error when waiting for pod ${JSON.stringify(s.pod.metadata.name)} in namespace ${JSON.stringify(s.pod.metadata.namespace)} to terminate: ${errorText(callError(got, inv.env.serverUrl))}`);
				} else if (timedOut()) {
					s.phase = 'done';
					s.error = plain(`error when waiting for pod ${JSON.stringify(s.pod.metadata.name)} in namespace ${JSON.stringify(s.pod.metadata.namespace)} to terminate: global timeout reached: ${formatGoDurationMs(timeoutMs)}`);
				}
			}
		}
		return states.every((s) => s.phase === 'done');
	};
	// Past the deadline every pod finishes within one retry delay (or one poll).
	if (!step()) inv.env.waitFor(step, timeoutMs + EVICT_RETRY_DELAY_MS + DELETE_POLL_MS);
	const errors: KubectlError[] = states.filter((s) => s.error).map((s) => s.error!);
	// DeleteOrEvictPods returns utilerrors.NewAggregate(errors), even for one.
	if (errors.length) out.error = { kind: 'aggregate', errors };
	return out;
}

/**
 * deletePods (--disable-eviction): DELETE each pod, bypassing every
 * PodDisruptionBudget, then poll each second until all are gone, printing
 * `pod/name deleted` for each (no `evicting pod` line). A failed delete
 * other than NotFound ends the node's drain at once; the wait gives up
 * after the timeout with wait.PollImmediate's own error.
 */
function deletePods(inv: KubectlInvocation, pods: Pod[], gracePeriod: number, dry: DryRunStrategy, timeoutMs: number): EvictionRun {
	const out: EvictionRun = { stdout: '', stderr: '' };
	const options: Record<string, unknown> = {};
	if (gracePeriod >= 0) options.gracePeriodSeconds = gracePeriod;
	for (const pod of pods) {
		const deleted = inv.client.delete(R.pods, pod.metadata.namespace, pod.metadata.name!, options, dry === 'server' ? { dryRun: 'All' } : undefined);
		if (!deleted.ok && deleted.code !== 404) {
			out.error = callError(deleted, inv.env.serverUrl);
			return out;
		}
	}
	const pending = new Set(pods);
	const poll = () => {
		for (const pod of [...pending]) {
			const got = inv.client.get(R.pods, pod.metadata.namespace, pod.metadata.name!);
			if ((!got.ok && got.code === 404) || (got.ok && got.object.metadata.uid !== pod.metadata.uid)) {
				pending.delete(pod);
				out.stdout += `pod/${pod.metadata.name} ${withDryRun('deleted', dry)}\n`;
			} else if (!got.ok) {
				out.error = callError(got, inv.env.serverUrl);
				return true;
			}
		}
		return pending.size === 0;
	};
	let nextPollMs = inv.env.nowMs();
	const step = () => {
		if (inv.env.nowMs() < nextPollMs) return false;
		nextPollMs = inv.env.nowMs() + DELETE_POLL_MS;
		return poll();
	};
	if (!step() && !inv.env.waitFor(step, timeoutMs) && !out.error) out.error = plain('timed out waiting for the condition');
	return out;
}

function drainRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const timeout = durationFlag(inv, 'timeout');
	if ('error' in timeout) return checkErr(timeout.error, '', dry.stderr);
	const podSelector = String(args.flags['pod-selector'] ?? '');
	if (podSelector) {
		try {
			parseLabelSelector(podSelector);
		} catch (error) {
			if (error instanceof SelectorError) return checkErr(plain('--pod-selector=<pod_selector> must be a valid label selector'), '', dry.stderr);
			throw error;
		}
	}
	const found = findNodes(inv, 'drain NODE');
	if ('result' in found) return { ...found.result, stderr: dry.stderr + found.result.stderr };
	// The streams in the order written: the node is cordoned before the warnings about its Pods.
	const chunks: Array<{ fd: 1 | 2; text: string }> = [];
	const out = (text: string) => void (text && chunks.push({ fd: 1, text }));
	const err = (text: string) => void (text && chunks.push({ fd: 2, text }));
	const done = (result: CommandResult): CommandResult => {
		out(result.stdout);
		err(result.stderr);
		return chunkedResult(chunks, result.exitCode);
	};
	err(dry.stderr);
	const cordoned = cordonNodes(inv, found.nodes, true, dry.strategy);
	out(cordoned.stdout);
	err(cordoned.stderr);
	if (cordoned.fatal) return done(checkErr(cordoned.fatal));
	const options: DrainOptions = {
		force: args.flags.force === true,
		ignoreDaemonSets: args.flags['ignore-daemonsets'] === true,
		deleteEmptyDirData: args.flags['delete-emptydir-data'] === true,
		skipWaitForDeleteTimeoutSeconds: Number(args.flags['skip-wait-for-delete-timeout'] ?? 0),
	};
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return done(checkErr(printer.error));
	const fatal: KubectlError[] = [];
	const remaining: string[] = [];
	const info = resourceByName('', 'nodes')!;
	for (const node of found.nodes) {
		const name = node.metadata.name!;
		const list = podsForDeletion(inv, name, podSelector, options);
		let error: KubectlError | undefined;
		if ('error' in list) error = { kind: 'aggregate', errors: [list.error] };
		else if (list.errors.length) error = { kind: 'aggregate', errors: list.errors.map(plain) };
		else {
			if (list.warnings) err(`Warning: ${list.warnings}\n`);
			if (dry.strategy === 'client') {
				for (const pod of list.pods) out(`evicting pod ${pod.metadata.namespace}/${pod.metadata.name} (dry run)\n`);
			} else if (list.pods.length) {
				const removeAll = args.flags['disable-eviction'] === true ? deletePods : evictPods;
				const run = removeAll(inv, list.pods, Number(args.flags['grace-period'] ?? -1), dry.strategy, timeout.ms > 0 ? timeout.ms : DRAIN_WAIT_CAP_MS);
				out(run.stdout);
				err(run.stderr);
				if (run.error) {
					error = run.error;
					const pending = podsForDeletion(inv, name, podSelector, options);
					if (!('error' in pending) && pending.pods.length) {
						err(`There are pending pods in node ${JSON.stringify(name)} when an error occurred: ${errorText(run.error)}\n`);
						for (const pod of pending.pods) err(`pod/${pod.metadata.name}\n`);
					}
				}
			}
		}
		if (!error) {
			out(printer.printer(typed(info, node as KubeObject), 'drained'));
			continue;
		}
		err(`error: unable to drain node ${JSON.stringify(name)} due to error: ${errorText(error)}, continuing command...\n`);
		fatal.push(error);
		remaining.push(name);
	}
	if (remaining.length) err(`There are pending nodes to be drained:\n${remaining.map((n) => ` ${n}\n`).join('')}`);
	if (fatal.length) return done(checkErr({ kind: 'aggregate', errors: fatal }));
	return done({ stdout: '', stderr: '', exitCode: 0 });
}

const NODE_FLAGS = [{ name: 'selector', short: 'l', kind: 'string' as const }, DRY_RUN_FLAG];

export const cordonCommand: KubectlCommand = {
	name: 'cordon',
	summary: 'Mark node as unschedulable',
	usage: 'kubectl cordon NODE',
	flags: [...NODE_FLAGS, ...PRINT_FLAGS],
	run: (inv) => cordonRun(inv, true),
};

export const uncordonCommand: KubectlCommand = {
	name: 'uncordon',
	summary: 'Mark node as schedulable',
	usage: 'kubectl uncordon NODE',
	flags: [...NODE_FLAGS, ...PRINT_FLAGS],
	run: (inv) => cordonRun(inv, false),
};

export const drainCommand: KubectlCommand = {
	name: 'drain',
	summary: 'Drain node in preparation for maintenance',
	usage: 'kubectl drain NODE',
	flags: [
		...NODE_FLAGS,
		...PRINT_FLAGS,
		{ name: 'force', kind: 'bool' },
		{ name: 'ignore-daemonsets', kind: 'bool' },
		{ name: 'delete-emptydir-data', kind: 'bool' },
		{ name: 'grace-period', kind: 'int', default: -1 },
		{ name: 'timeout', kind: 'duration', default: '0s' },
		{ name: 'pod-selector', kind: 'string' },
		{ name: 'disable-eviction', kind: 'bool' },
		{ name: 'skip-wait-for-delete-timeout', kind: 'int', default: 0 },
		// cmdutil.DefaultChunkSize.
		{ name: 'chunk-size', kind: 'int', default: 500 },
	],
	run: drainRun,
};
