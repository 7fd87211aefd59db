/**
 * `kubectl logs (POD | TYPE/NAME) [-c CONTAINER] [--previous] [--tail N]
 * [--timestamps] [-f]`: GET pods/<name>/log, which the API server forwards
 * to the kubelet of the pod's node. A workload (`deploy/nginx`) picks one
 * of its pods (`Found 3 pods, using pod/...`). The kubelet's answer is the
 * log text; `--timestamps` asks it to prefix each line.
 *
 * `-f` follows the log while the virtual clock runs, polling every second,
 * until the container stops or LOGS_FOLLOW_CAP_MS pass (a real follow
 * lasts until interrupted).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/logsforobject.go.
 */
import { compareGoStrings } from '../../golang/json.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import type { Pod } from '../../api/types.ts';
import { R, refOf } from '../../client/client.ts';
import type { ApiRequest } from '../../api/request.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { resolveResourceName } from '../resource-args.ts';
import { callError, checkErr, plain, usageError, type KubectlError } from './check-err.ts';
import { allContainerNames, byLogging, DEFAULT_CONTAINER_ANNOTATION, hasContainer, podForObject } from './pod-for-object.ts';
import { isFatalCall } from './resource-info.ts';
import type { CommandResult } from '../../shell/types.ts';
import { INTERNAL } from '../../shell/session.ts';

/** How long `kubectl logs -f` follows in virtual time before returning: 30 seconds. */
const LOGS_FOLLOW_CAP_MS = 30_000;
/** How often a follow looks for new lines (ours: upstream streams them as they come). */
const FOLLOW_POLL_MS = 1000;
/** With a selector and no --tail, kubectl shows the last 10 lines (logs.go selectorTail). */
const SELECTOR_TAIL = 10;

const LOGS_USAGE = "expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command";

/** The log text of a kubelet answer: a string, or `{ text }` / `{ log }`. */
export function logText(body: unknown): string {
	if (typeof body === 'string') return body;
	if (body && typeof body === 'object') {
		const b = body as { text?: unknown; log?: unknown };
		if (typeof b.text === 'string') return b.text;
		if (typeof b.log === 'string') return b.log;
	}
	return '';
}

function fetchLog(inv: KubectlInvocation, pod: Pod, query: NonNullable<ApiRequest['query']>): { text: string } | { error: KubectlError } {
	const result = inv.client.call<unknown>({ verb: 'get', ...refOf(R.pods), namespace: pod.metadata.namespace, name: pod.metadata.name, subresource: 'log', query });
	if (!result.ok) return { error: callError(result, inv.env.serverUrl) };
	return { text: logText(result.object) };
}

/** The pods and containers to read: one pod's chosen container, or all of its containers. */
function streams(pod: Pod, container: string, allContainers: boolean): { streams: Array<{ pod: Pod; container: string }>; stderr: string } | { error: KubectlError } {
	const spec = pod.spec ?? ({} as Pod['spec']);
	if (allContainers) return { streams: [...(spec.initContainers ?? []), ...spec.containers].map((c) => ({ pod, container: c.name })), stderr: '' };
	let name = container;
	let stderr = '';
	const annotated = pod.metadata.annotations?.[DEFAULT_CONTAINER_ANNOTATION];
	if (!name && annotated) {
		if (hasContainer(pod, annotated)) name = annotated;
		else stderr += `Default container name ${JSON.stringify(annotated)} not found in pod ${pod.metadata.name}\n`;
	}
	if (!name) {
		name = spec.containers[0]?.name ?? '';
		if (spec.containers.length > 1 || (spec.initContainers ?? []).length > 0) stderr += `Defaulted container ${JSON.stringify(name)} out of: ${allContainerNames(pod)}\n`;
	}
	if (!hasContainer(pod, name)) return { error: plain(`container ${name} is not valid for pod ${pod.metadata.name} out of: ${allContainerNames(pod)}`) };
	return { streams: [{ pod, container: name }], stderr };
}

function run(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const flags = args.flags;
	const selector = String(flags.selector ?? '');
	const positionals = args.positionals;
	let resourceArg = '';
	let container = String(flags.container ?? '');
	if (positionals.length === 0 && !selector) return checkErr(usageError('kubectl logs', LOGS_USAGE));
	if (positionals.length === 1) {
		resourceArg = positionals[0];
		if (selector) return checkErr(usageError('kubectl logs', 'only a selector (-l) or a POD name is allowed'));
	} else if (positionals.length === 2) {
		resourceArg = positionals[0];
		container = positionals[1];
	} else if (positionals.length > 2) return checkErr(usageError('kubectl logs', LOGS_USAGE));
	// Validate.
	const tail = Number(flags.tail ?? -1);
	if (flags['all-containers'] === true && container) return checkErr(plain(`--all-containers=true should not be specified with container name ${container}`));
	if (args.set.has('container') && positionals.length === 2) return checkErr(plain('only one of -c or an inline [CONTAINER] arg is allowed'));
	if (Number(flags['limit-bytes'] ?? 0) < 0) return checkErr(plain('--limit-bytes must be greater than 0'));
	if (tail < -1) return checkErr(plain('--tail must be greater than or equal to -1'));
	const sinceTime = String(flags['since-time'] ?? '');
	const sinceMs = parseGoDurationMs(String(flags.since ?? '0s'));
	if (sinceTime && sinceMs !== 0) return checkErr(plain('at most one of `sinceTime` or `sinceSeconds` may be specified'));
	// util.ParseRFC3339 (RFC3339Nano, then RFC3339); Go's error names the layout it failed on.
	if (sinceTime && Number.isNaN(parseRfc3339(sinceTime))) return checkErr(plain(`parsing time ${JSON.stringify(sinceTime)} as "2006-01-02T15:04:05Z07:00": cannot parse ${JSON.stringify(sinceTime)} as "2006"`));
	// ToLogOptions rounds --since to the nearest second; PodLogOptions validation wants at least one.
	const sinceSeconds = Math.round(sinceMs / 1000);
	if (sinceMs !== 0 && sinceSeconds < 1) return checkErr(plain(`sinceSeconds: Invalid value: ${sinceSeconds}: must be greater than 0`));

	// The object: a pod by name, TYPE/NAME, or the pods of a selector.
	let pods: Pod[] = [];
	let stderr = '';
	if (selector) {
		const listed = inv.client.list<Pod>(R.pods, inv.namespace, { labelSelector: selector });
		if (!listed.ok) return checkErr(callError(listed, inv.env.serverUrl));
		pods = listed.object.items.map((p) => ({ ...p, apiVersion: 'v1', kind: 'Pod' }) as Pod);
		if (pods.length === 0) return { stdout: '', stderr: `No resources found in ${inv.namespace} namespace.\n`, exitCode: 0 };
	} else {
		const type = resolveResourceName(resourceArg);
		if (!type.ok) return checkErr(plain(type.error));
		const got = inv.client.get(refOf(type.info), type.info.namespaced ? inv.namespace : undefined, type.name);
		if (!got.ok) {
			if (isFatalCall(got) || got.code !== 404) return checkErr(callError(got, inv.env.serverUrl));
			// logs.go wraps NotFound in a plain error: `error: error from server (NotFound): pods "x" not found in namespace "default"`.
			return checkErr(plain(`error from server (NotFound): ${got.message} in namespace ${JSON.stringify(inv.namespace)}`));
		}
		const matchLabels = (got.object.spec as { selector?: { matchLabels?: Record<string, string> } } | undefined)?.selector?.matchLabels;
		if (flags['all-pods'] === true && type.info.kind !== 'Pod' && matchLabels && Object.keys(matchLabels).length) {
			// --all-pods (AllPodsForObject): every Pod the workload's selector matches, not the one podForObject picks.
			// (A workload is always named TYPE/NAME, so the argument is the message's TYPE/NAME.)
			const labelSelector = Object.entries(matchLabels)
				.map(([k, v]) => `${k}=${v}`)
				.join(',');
			const listed = inv.client.list<Pod>(R.pods, inv.namespace, { labelSelector });
			if (!listed.ok) return checkErr(callError(listed, inv.env.serverUrl));
			pods = listed.object.items.map((p) => ({ ...p, apiVersion: 'v1', kind: 'Pod' }) as Pod).sort((a, b) => compareGoStrings(a.metadata.name ?? '', b.metadata.name ?? ''));
			if (pods.length === 0) return checkErr(plain(`no pods found for ${resourceArg}`));
		} else {
			const chosen = podForObject(inv, { ...got.object, apiVersion: got.object.apiVersion || (type.info.group ? `${type.info.group}/${type.info.version}` : type.info.version), kind: type.info.kind }, byLogging, 'logs');
			if ('error' in chosen) return checkErr(chosen.error);
			stderr += chosen.stderr;
			pods = [chosen.pod];
		}
	}
	const query: NonNullable<ApiRequest['query']> = {};
	if (flags.previous === true) query.previous = true;
	if (flags.timestamps === true) query.timestamps = true;
	if (Number(flags['limit-bytes'] ?? 0) > 0) query.limitBytes = Number(flags['limit-bytes']);
	if (sinceTime) query.sinceTime = sinceTime;
	if (sinceMs !== 0) query.sinceSeconds = sinceSeconds;
	if (selector && tail === -1 && !args.set.has('tail')) query.tailLines = SELECTOR_TAIL;
	else if (tail !== -1) query.tailLines = tail;
	const prefix = flags.prefix === true || flags['all-pods'] === true;
	let stdout = '';
	const all: Array<{ pod: Pod; container: string }> = [];
	for (const pod of pods) {
		const chosen = streams(pod, container, flags['all-containers'] === true);
		if ('error' in chosen) return checkErr(chosen.error, stdout, stderr);
		stderr += chosen.stderr;
		all.push(...chosen.streams);
	}
	const seen = new Map<string, string>();
	const render = (s: { pod: Pod; container: string }, text: string) => (prefix ? text.split('\n').filter((l, i, a) => i < a.length - 1 || l).map((l) => `[pod/${s.pod.metadata.name}/${s.container}] ${l}\n`).join('') : text);
	for (const s of all) {
		const got = fetchLog(inv, s.pod, { ...query, container: s.container });
		if ('error' in got) {
			if (flags['ignore-errors'] === true) {
				stderr += `error: ${got.error.kind === 'status' ? got.error.message : ''}\n`;
				continue;
			}
			return checkErr(got.error, stdout, stderr);
		}
		stdout += render(s, got.text);
		// A follow goes on from the end of the whole log: the tail and --since only shape what is printed first.
		const whole = flags.follow === true && (query.tailLines !== undefined || query.sinceSeconds !== undefined || query.sinceTime !== undefined) ? fetchLog(inv, s.pod, { container: s.container, ...(query.timestamps ? { timestamps: true } : {}), ...(query.previous ? { previous: true } : {}) }) : got;
		seen.set(`${s.pod.metadata.name}/${s.container}`, 'error' in whole ? got.text : whole.text);
	}
	if (flags.follow === true) {
		// Follow: keep fetching as time passes; print what was appended.
		let next = inv.env.nowMs() + FOLLOW_POLL_MS;
		const ended = inv.env.waitFor(() => {
			if (inv.env.nowMs() < next) return false;
			next = inv.env.nowMs() + FOLLOW_POLL_MS;
			let running = false;
			for (const s of all) {
				const got = fetchLog(inv, s.pod, { container: s.container, ...(query.timestamps ? { timestamps: true } : {}) });
				if ('error' in got) continue;
				const before = seen.get(`${s.pod.metadata.name}/${s.container}`) ?? '';
				if (got.text.length > before.length && got.text.startsWith(before)) stdout += render(s, got.text.slice(before.length));
				seen.set(`${s.pod.metadata.name}/${s.container}`, got.text);
				const live = inv.client.get<Pod>(R.pods, s.pod.metadata.namespace, s.pod.metadata.name!);
				const status = live.ok ? [...(live.object.status?.containerStatuses ?? []), ...(live.object.status?.initContainerStatuses ?? [])].find((c) => c.name === s.container) : undefined;
				if (live.ok && status?.state?.running) running = true;
			}
			return !running;
		}, LOGS_FOLLOW_CAP_MS);
		// A real follow lasts until Ctrl-C, which kills kubectl with status 130: the simulation presses it and says so.
		if (!ended) return { stdout, stderr: `${stderr}${INTERNAL} still following after ${LOGS_FOLLOW_CAP_MS / 1000} s of virtual time: interrupted, as Ctrl-C would\n`, exitCode: 130 };
	}
	return { stdout, stderr, exitCode: 0 };
}

export const logsCommand: KubectlCommand = {
	name: 'logs',
	summary: 'Print the logs for a container in a pod',
	usage: 'kubectl logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]',
	flags: [
		{ name: 'all-pods', kind: 'bool' },
		{ name: 'all-containers', kind: 'bool' },
		{ name: 'follow', short: 'f', kind: 'bool' },
		{ name: 'timestamps', kind: 'bool' },
		{ name: 'limit-bytes', kind: 'int', default: 0 },
		{ name: 'previous', short: 'p', kind: 'bool' },
		{ name: 'tail', kind: 'int', default: -1 },
		{ name: 'ignore-errors', kind: 'bool' },
		{ name: 'since-time', kind: 'string' },
		{ name: 'since', kind: 'duration', default: '0s' },
		{ name: 'container', short: 'c', kind: 'string' },
		{ name: 'insecure-skip-tls-verify-backend', kind: 'bool' },
		{ name: 'max-log-requests', kind: 'int', default: 5 },
		{ name: 'prefix', kind: 'bool' },
		{ name: 'selector', short: 'l', kind: 'string' },
		// logs.go defaultPodLogsTimeout.
		{ name: 'pod-running-timeout', kind: 'duration', default: '20s' },
	],
	run,
};
