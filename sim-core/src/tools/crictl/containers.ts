/**
 * crictl's container commands: ps, inspect, logs, exec, stop and rm.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/container.go
 * (listContainersCommand, containerStatusCommand, stopContainerCommand,
 * removeContainerCommand, OutputContainers, getContainersList),
 * kubernetes-sigs/cri-tools cmd/crictl/logs.go, kubernetes-sigs/cri-tools
 * cmd/crictl/exec.go, staging/src/k8s.io/cri-client/pkg/logs/logs.go
 * (ReadLogs).
 */
import type { GoJsonValue } from '../../golang/json.ts';
import type { ContainerInfo } from '../../cri-api/cri.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { type FlagSpec } from './cli.ts';
import { tryParseGoDurationMs } from '../../golang/duration.ts';
import { containerImageId, containerIds, containerInspect, containerLogPath, containerMessage, containerStateText, resolveId, rpcError, sandboxIds } from './cri-view.ts';
import { civilTime, daysFromCivil } from '../../golang/time.ts';
import { crictlTable, humanDuration, protoJson, statusDataJson } from './format.ts';
import { matchesRegex, newestFirst, parseLabels, truncatedId, type Command, type Run } from './run.ts';
import type { CrictlRuntime } from './types.ts';
import { deepCopy } from '../../golang/json.ts';

/** How long `logs -f` follows in virtual time before it returns, as if interrupted (the simulated terminal has no Ctrl-C). */
export const FOLLOW_MS = 10_000;
/** The step of virtual time while crictl waits (for a stop, or a followed log). */
const WAIT_STEP_MS = 100;
/** How long crictl waits beyond a stop timeout for the container to be gone (containerd waits for the task exit after SIGKILL). */
const STOP_GRACE_MS = 2_000;

const outputFlag = (usage: string, value?: string): FlagSpec => ({ name: 'output', aliases: ['o'], kind: 'string', usage, value });

/** Filters shared by ps, inspect and exec (listOptions). */
interface ListOptions {
	id: string;
	podId: string;
	nameRegexp: string;
	namespaceRegexp: string;
	state: string;
	all: boolean;
	latest: boolean;
	last: number;
	image: string;
	labels?: Record<string, string>;
}

/** ListContainers: the runtime's list filtered as containerd's filterCRIContainers and crictl's getContainersList do, newest first. */
export function listContainers(r: Run, rt: CrictlRuntime, images: CrictlRuntime | undefined, opts: ListOptions): ContainerInfo[] {
	let state: ContainerInfo['state'] | 'CONTAINER_UNKNOWN' | undefined;
	if (!opts.all && opts.state === '') state = 'CONTAINER_RUNNING';
	if (opts.state !== '') {
		const states: Record<string, ContainerInfo['state'] | 'CONTAINER_UNKNOWN'> = { created: 'CONTAINER_CREATED', running: 'CONTAINER_RUNNING', exited: 'CONTAINER_EXITED', unknown: 'CONTAINER_UNKNOWN' };
		state = states[opts.state.toLowerCase()];
		if (!state) r.inv.logFatalf('--state should be one of created, running, exited or unknown');
	}
	// "Do not filter by state if latest/last is specified."
	if (opts.latest || opts.last > 0) state = undefined;
	const listed = rt.listContainers({});
	if (!listed.ok) return r.inv.fatal(`listing containers: call list containers RPC: ${rpcError(listed.error)}`);
	const all = listed.value;
	const id = opts.id ? resolveId(all.map((c) => c.id), opts.id, 'container') : undefined;
	const pod = opts.podId ? resolveId(sandboxIds(rt), opts.podId, 'sandbox') : undefined;
	const wantedImage = opts.image && images ? images.imageStatus(opts.image) : undefined;
	const out = all.filter((c) => {
		if (id && (!id.ok || c.id !== id.id)) return false;
		if (pod && (!pod.ok || c.sandboxId !== pod.id)) return false;
		if (state && c.state !== state) return false;
		for (const [k, v] of Object.entries(opts.labels ?? {})) if (c.labels[k] !== v) return false;
		if (opts.image && images) {
			// matchesImage: both images must exist and have the same ID.
			if (!wantedImage?.ok || !wantedImage.value) return false;
			if (containerImageId(c) !== wantedImage.value.id) return false;
		}
		return matchesRegex(opts.nameRegexp, c.name) && matchesRegex(opts.namespaceRegexp, c.labels['io.kubernetes.pod.namespace'] ?? 'unknown');
	});
	return newestFirst(out, (c) => c.createdWallMs, opts.latest, opts.last);
}

/** ContainerStatus, with the klog line cri-client writes when it fails (remote_runtime.go containerStatusV1). */
function containerStatus(r: Run, rt: CrictlRuntime, id: string): ReturnType<CrictlRuntime['containerStatus']> {
	const status = rt.containerStatus(id);
	if (!status.ok) r.inv.klogError('remote_runtime.go:569', 'ContainerStatus from runtime service failed', rpcError(status.error), [['containerID', id]]);
	return status;
}

function podLabel(c: ContainerInfo, key: 'io.kubernetes.pod.name' | 'io.kubernetes.pod.namespace'): string {
	return c.labels[key] ?? 'unknown';
}

/**
 * A labels or annotations block of crictl's verbose output: `Name:` then
 * `\tkey -> value` lines in key order. An empty map arrives over gRPC as
 * nil, and crictl prints nothing for it.
 */
export function mapLines(name: string, map: Record<string, string>): string {
	const keys = Object.keys(map).sort();
	return keys.length ? `${name}:\n` + keys.map((k) => `\t${k} -> ${map[k]}\n`).join('') : '';
}

export const ps: Command = {
	spec: {
		name: 'ps',
		usage: 'List containers',
		shortOptions: true,
		flags: [
			{ name: 'verbose', aliases: ['v'], kind: 'bool', usage: 'Show verbose information for containers' },
			{ name: 'id', kind: 'string', usage: 'Filter by container id' },
			{ name: 'name', kind: 'string', usage: 'Filter by container name regular expression pattern' },
			{ name: 'pod', aliases: ['p'], kind: 'string', usage: 'Filter by pod id' },
			{ name: 'image', kind: 'string', usage: 'Filter by container image' },
			{ name: 'state', aliases: ['s'], kind: 'string', usage: 'Filter by container state' },
			{ name: 'label', kind: 'stringSlice', usage: 'Filter by key=value label' },
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Only display container IDs' },
			outputFlag('Output format, One of: json|yaml|table', 'table'),
			{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Show all containers' },
			{ name: 'latest', aliases: ['l'], kind: 'bool', usage: 'Show the most recently created container (includes all states)' },
			{ name: 'last', aliases: ['n'], kind: 'int', usage: 'Show last n recently created containers (includes all states). Set 0 for unlimited.' },
			{ name: 'no-trunc', kind: 'bool', usage: 'Show output without truncating the ID' },
			{ name: 'resolve-image-path', aliases: ['r'], kind: 'bool', usage: 'Show image path instead of image id' },
			{ name: 'namespace', kind: 'string', usage: 'Filter by pod namespace regular expression pattern' },
		],
	},
	run(r) {
		if (r.args.length) return r.help();
		const rt = r.runtime();
		const images = r.images();
		const labels = parseLabels(r);
		const list = listContainers(r, rt, images, {
			id: r.string('id'),
			podId: r.string('pod'),
			namespaceRegexp: r.string('namespace'),
			nameRegexp: r.string('name'),
			state: r.string('state'),
			all: r.bool('all'),
			latest: r.bool('latest'),
			last: r.int('last'),
			image: r.string('image'),
			labels,
		});
		const output = r.string('output');
		if (output === 'json' || output === 'yaml') {
			const message = { containers: list.map((c) => containerMessage(c, containerImageId(c))) };
			r.inv.print(output === 'json' ? protoJson(message) : stringifyYaml(deepCopy(message)) + '\n');
			return 0;
		}
		if (output !== 'table') return r.inv.fatal(`listing containers: unsupported output format "${output}"`);
		const verbose = r.bool('verbose');
		const quiet = r.bool('quiet');
		const now = r.inv.wallMs();
		const rows: string[][] = [];
		if (!verbose && !quiet) rows.push(['CONTAINER', 'IMAGE', 'CREATED', 'STATE', 'NAME', 'ATTEMPT', 'POD ID', 'POD', 'NAMESPACE']);
		for (const c of list) {
			if (quiet) {
				r.inv.print(c.id + '\n');
				continue;
			}
			const created = humanDuration(now - c.createdWallMs) + ' ago';
			const namespace = podLabel(c, 'io.kubernetes.pod.namespace');
			if (!verbose) {
				const imageId = containerImageId(c);
				let image = imageId;
				let id = c.id;
				let podId = c.sandboxId;
				if (!r.bool('no-trunc')) {
					id = truncatedId(id);
					podId = truncatedId(podId);
					// The image is an image ID (a digest): shown without its algorithm, 13 characters.
					image = truncatedId(image, 'sha256:');
				}
				if (r.bool('resolve-image-path')) {
					// getRepoImage: the image's first repo tag (containerd resolves the short ID).
					const status = images.imageStatus(imageId);
					if (status.ok && status.value) image = status.value.repoTags[0] ?? status.value.repoDigests[0] ?? image;
				}
				rows.push([id, image, created, containerStateText(c.state), c.name, String(c.attempt), podId, podLabel(c, 'io.kubernetes.pod.name'), namespace]);
				continue;
			}
			let text = `ID: ${c.id}\nPodID: ${c.sandboxId}\nNamespace: ${namespace}\nName: ${c.name}\nAttempt: ${c.attempt}\nState: ${containerStateText(c.state)}\nImage: ${containerImageId(c)}\nCreated: ${created}\n`;
			text += mapLines('Labels', c.labels);
			text += mapLines('Annotations', c.annotations);
			r.inv.print(text + '\n');
		}
		if (rows.length) r.inv.print(crictlTable(rows));
		return 0;
	},
};

export const inspect: Command = {
	spec: {
		name: 'inspect',
		usage: 'Display the status of one or more containers',
		argsUsage: 'CONTAINER-ID [CONTAINER-ID...]',
		flags: [
			outputFlag('Output format, One of: json|yaml|go-template|table'),
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Do not show verbose information' },
			{ name: 'template', kind: 'string', usage: 'The template string is only used when output is go-template; The Template format is golang template' },
			{ name: 'name', kind: 'string', usage: 'Filter by container name regular expression pattern' },
			{ name: 'namespace', kind: 'string', usage: 'Filter by pod namespace regular expression pattern' },
			{ name: 'pod', aliases: ['p'], kind: 'string', usage: 'Filter by pod id' },
			{ name: 'image', kind: 'string', usage: 'Filter by container image' },
			{ name: 'state', aliases: ['s'], kind: 'string', usage: 'Filter by container state' },
			{ name: 'label', kind: 'stringSlice', usage: 'Filter by key=value label' },
			{ name: 'latest', aliases: ['l'], kind: 'bool', usage: 'Show the most recently created container (includes all states)' },
			{ name: 'last', aliases: ['n'], kind: 'int', usage: 'Show last n recently created containers (includes all states). Set 0 for unlimited.' },
			{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Show all containers' },
		],
	},
	run(r) {
		const rt = r.runtime();
		const images = r.images();
		let ids = [...r.args];
		if (!ids.length) {
			// container.go reads the name and namespace filters as c.String("^name$") and c.String("^namespace$"),
			// flags that do not exist, so both filters are always empty here.
			ids = listContainers(r, rt, images, {
				id: '',
				podId: r.string('pod'),
				nameRegexp: '',
				namespaceRegexp: '',
				image: r.string('image'),
				state: r.string('state'),
				latest: r.bool('latest'),
				last: r.int('last'),
				all: r.bool('all'),
				labels: parseLabels(r),
			}).map((c) => c.id);
		}
		if (!ids.length) {
			r.inv.log('error', 'No IDs provided or nothing found per filter');
			return r.help();
		}
		const verbose = !r.bool('quiet');
		const output = r.string('output') || 'json';
		const known = containerIds(rt);
		const statuses: Array<{ [key: string]: GoJsonValue }> = [];
		const now = r.inv.wallMs();
		for (const given of ids) {
			const id = resolveId(known, given, 'container');
			if (!id.ok) return r.inv.fatal(`get the status of containers: get container status: ${id.error}`);
			const status = containerStatus(r, rt, id.id);
			if (!status.ok) return r.inv.fatal(`get the status of containers: get container status: ${rpcError(status.error)}`);
			const c = status.value;
			const view = containerInspect(c, containerImageId(c), verbose);
			if (output === 'table') {
				let text = `ID: ${c.id}\nName: ${c.name}\n${c.attempt ? `Attempt: ${c.attempt}\n` : ''}State: ${c.state}\nCreated: ${humanDuration(now - c.createdWallMs)} ago\n`;
				if (c.state !== 'CONTAINER_CREATED' && c.startedWallMs !== undefined) text += `Started: ${humanDuration(now - c.startedWallMs)} ago\n`;
				if (c.state === 'CONTAINER_EXITED') {
					if (c.finishedWallMs !== undefined) text += `Finished: ${humanDuration(now - c.finishedWallMs)} ago\n`;
					text += `Exit Code: ${c.exitCode ?? 0}\n`;
				}
				text += mapLines('Labels', c.labels);
				text += mapLines('Annotations', c.annotations);
				// `%v` of the info map: map[info:<the JSON containerd marshaled>].
				if (verbose) text += `Info: map[info:${JSON.stringify(view.info)}]\n`;
				r.inv.print(text);
			} else statuses.push(view);
		}
		return printStatusData(r, statuses, output, 'get the status of containers');
	},
};

/** outputStatusData in the formats the simulation supports (go-template is not one of them). */
export function printStatusData(r: Run, statuses: Array<{ [key: string]: GoJsonValue }>, output: string, context: string): number {
	if (!statuses.length) return 0;
	if (output === 'json') r.inv.print(statusDataJson(statuses));
	else if (output === 'yaml') r.inv.print(stringifyYaml(JSON.parse(statusDataJson(statuses))) + '\n');
	else if (output === 'go-template') return r.inv.fatal(`${context}: execute template: go-template output is not available in this simulated crictl`);
	else return r.inv.fatal(`${context}: unsupported format: "${output}"`);
	return 0;
}

/** RFC3339NanoFixed (cri-client logs.go): nine fractional digits always. */
function fixedNano(epochMs: number): string {
	const t = civilTime(epochMs);
	const p = (n: number, w = 2) => String(n).padStart(w, '0');
	return `${t.year}-${p(t.month)}-${p(t.day)}T${p(t.hour)}:${p(t.minute)}:${p(t.second)}.${p(t.millisecond, 3)}000000Z`;
}

/** docker's timetypes.GetTimestamp for `--since`: a Go duration before now, or an RFC 3339 time, or Unix seconds. */
function parseSince(value: string, nowMs: number): number | undefined {
	if (value === '') return undefined;
	const duration = tryParseGoDurationMs(value);
	if (duration !== undefined) return nowMs - duration;
	const m = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?)?(Z)?$/.exec(value);
	if (m) {
		const [, y, mo, d, h = '0', mi = '0', s = '0', frac = ''] = m;
		const days = daysFromCivil(+y, +mo, +d);
		return days * 86_400_000 + (+h * 3600 + +mi * 60 + +s) * 1000 + Math.floor(Number(('0.' + frac).slice(0, 5)) * 1000);
	}
	if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
	return Number.NaN;
}

export const logs: Command = {
	spec: {
		name: 'logs',
		usage: 'Fetch the logs of a container',
		argsUsage: 'CONTAINER-ID',
		shortOptions: true,
		flags: [
			{ name: 'follow', aliases: ['f'], kind: 'bool', usage: 'Follow log output' },
			{ name: 'previous', aliases: ['p'], kind: 'bool', usage: 'Print the logs for the previous instance of the container in a pod if it exists' },
			{ name: 'reopen', aliases: ['r'], kind: 'bool', usage: 'Reopen the container logs for the provided container' },
			{ name: 'tail', kind: 'int', usage: 'Number of lines to show from the end of the logs. Defaults to all', value: -1 },
			{ name: 'limit-bytes', kind: 'int', usage: 'Maximum bytes of logs to return. Defaults to no limit', value: -1 },
			{ name: 'since', kind: 'string', usage: 'Show logs since timestamp (e.g. 2013-01-02T13:23:37) or relative (e.g. 42m for 42 minutes)' },
			{ name: 'timestamps', aliases: ['t'], kind: 'bool', usage: 'Show timestamps' },
			{ name: 'stream', aliases: ['s'], kind: 'string', usage: 'Show specified stream (stdout or stderr). Defaults to both.' },
		],
	},
	run(r) {
		const given = r.args[0] ?? '';
		if (given === '') return r.inv.fatal('ID cannot be empty');
		if (r.args.length > 1) return r.help();
		const rt = r.runtime();
		if (r.bool('reopen')) r.inv.log('info', 'Container logs reopened');
		const tail = r.int('tail');
		const limitBytes = r.int('limit-bytes');
		const since = parseSince(r.string('since'), r.inv.wallMs());
		if (since !== undefined && Number.isNaN(since)) return r.inv.fatal(`failed to parse value as time or duration: "${r.string('since')}"`);
		const stream = r.string('stream');
		if (!['stdout', 'stderr', ''].includes(stream)) return r.inv.fatal(`invalid stream "${stream}", must be "stdout" or "stderr"`);
		if (r.isSet('tail') && r.isSet('stream')) return r.inv.fatal('--tail and --stream are mutually exclusive');
		const id = resolveId(containerIds(rt), given, 'container');
		if (!id.ok) return r.inv.fatal(id.error);
		const status = containerStatus(r, rt, id.id);
		if (!status.ok) return r.inv.fatal(rpcError(status.error));
		let target = status.value;
		if (r.bool('previous')) {
			if (target.attempt === 0) return r.inv.fatal(`previous terminated container ${target.name} not found`);
			// logs.go: the previous attempt's file sits beside this one, named <attempt-1>.log.
			const path = containerLogPath({ ...target, attempt: target.attempt - 1 });
			const all = rt.listContainers({ podUid: target.podUid });
			const previous = all.ok ? all.value.find((c) => c.name === target.name && c.attempt === target.attempt - 1) : undefined;
			if (!previous) return r.inv.fatal(`failed to try resolving symlinks in path "${path}": lstat ${path}: no such file or directory`);
			target = previous;
		}
		const read = rt.readLogs(target.id, {});
		if (!read.ok) return r.inv.fatal(rpcError(read.error));
		let lines = read.value.filter((l) => since === undefined || l.wallMs >= since);
		if (tail >= 0) lines = tail === 0 ? [] : lines.slice(-tail);
		let budget = limitBytes >= 0 ? limitBytes : Number.POSITIVE_INFINITY;
		const write = (line: { wallMs: number; stream: 'stdout' | 'stderr'; text: string }) => {
			if (stream && line.stream !== stream) return;
			let text = (r.bool('timestamps') ? fixedNano(line.wallMs) + ' ' : '') + line.text + '\n';
			if (budget <= 0) return;
			if (text.length > budget) text = text.slice(0, budget);
			budget -= text.length;
			if (line.stream === 'stdout') r.inv.print(text);
			else r.inv.printErr(text);
		};
		lines.forEach(write);
		if (r.bool('follow') && target.state === 'CONTAINER_RUNNING') {
			let seen = read.value.length;
			for (let waited = 0; waited < FOLLOW_MS; waited += WAIT_STEP_MS) {
				if (!r.inv.sleep(WAIT_STEP_MS)) break;
				const more = rt.readLogs(target.id, {});
				if (!more.ok) break;
				more.value.slice(Math.min(seen, more.value.length)).forEach(write);
				seen = more.value.length;
				const now = rt.containerStatus(target.id);
				if (!now.ok || now.value.state !== 'CONTAINER_RUNNING') break;
			}
		}
		return 0;
	},
};

const execFlags: FlagSpec[] = [
	{ name: 'sync', aliases: ['s'], kind: 'bool', usage: 'Run the command synchronously' },
	{ name: 'timeout', kind: 'int', usage: 'Timeout in seconds' },
	{ name: 'tty', aliases: ['t'], kind: 'bool', usage: 'Allocate a pseudo-TTY' },
	{ name: 'interactive', aliases: ['i'], kind: 'bool', usage: 'Keep STDIN open' },
	{ name: 'transport', aliases: ['r'], kind: 'string', usage: 'Transport protocol to use, one of: spdy|websocket', value: 'spdy' },
	{ name: 'name', kind: 'string', usage: 'Exec command for all containers matching this name filter regular expression pattern' },
	{ name: 'pod', aliases: ['p'], kind: 'string', usage: 'Exec command for all containers matching this pod ID filter' },
	{ name: 'image', kind: 'string', usage: 'Exec command for all containers matching this container image filter' },
	{ name: 'state', kind: 'string', usage: 'Exec command for all containers matching this container state filter' },
	{ name: 'label', kind: 'stringSlice', usage: 'Exec command for all containers matching this key=value label filter' },
	{ name: 'latest', aliases: ['l'], kind: 'bool', usage: 'Exec command for the most recently created container' },
	{ name: 'last', aliases: ['n'], kind: 'int', usage: 'Exec command for all last n containers, set to 0 for unlimited' },
	{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Do not print the container ID if multiple containers are selected' },
	{ name: 'ignore-errors', aliases: ['e'], kind: 'bool', usage: 'Ignore errors during command execution' },
	{ name: 'parallel', aliases: ['x'], kind: 'bool', usage: 'Run the command in parallel if multiple containers are selected' },
	{ name: 'tls-sni', aliases: ['tls-server-name'], kind: 'string', usage: 'Server name used in the TLS client to check server certificates against', value: 'localhost' },
	{ name: 'tls-ca', kind: 'string', usage: 'Path to the streaming TLS CA certificate' },
	{ name: 'tls-cert', kind: 'string', usage: 'Path to the streaming TLS certificate' },
	{ name: 'tls-key', kind: 'string', usage: 'Path to the streaming TLS key' },
];

export const exec: Command = {
	spec: {
		name: 'exec',
		usage: 'Run a command in a running container',
		argsUsage: '[CONTAINER-ID] COMMAND [ARG...]',
		description: 'The CONTAINER-ID is only required if none of the following filter flags are set:\n--image, --label, --last, --latest, --name, --pod, --state',
		shortOptions: true,
		flags: execFlags,
	},
	run(r) {
		if (r.args.length < 1) return r.help();
		const rt = r.runtime();
		const images = r.images();
		let ids = [r.args[0]];
		let cmd = r.args.slice(1);
		let printIds = false;
		const quiet = r.bool('quiet');
		const ignoreErrors = r.bool('ignore-errors');
		if (ignoreErrors && !quiet) r.inv.log('warning', 'The `--ignore-errors` option has been set all errors returned by the command will be ignored.');
		if (['name', 'pod', 'image', 'state', 'label', 'latest', 'last'].some((f) => r.isSet(f))) {
			cmd = [...r.args];
			printIds = !quiet && !r.bool('parallel');
			ids = listContainers(r, rt, images, { id: '', podId: r.string('pod'), nameRegexp: r.string('name'), namespaceRegexp: '', image: r.string('image'), state: r.string('state'), all: false, latest: r.bool('latest'), last: r.int('last'), labels: parseLabels(r) }).map((c) => c.id);
			if (!ids.length) {
				r.inv.log('error', 'No containers found per filter flags');
				return r.help();
			}
		} else if (r.args.length < 2) return r.help();
		const tls = [r.string('tls-ca'), r.string('tls-cert'), r.string('tls-key')];
		if (tls.some((v) => v !== '') && (tls[1] === '' || tls[2] === '')) return r.inv.fatal('get TLS config from flags: all two flags --tls-ca and --tls-cert are required for TLS streaming, only --tls-key is optional');
		const errors: string[] = [];
		const known = containerIds(rt);
		for (const given of ids) {
			if (printIds) r.inv.print(given + ':\n');
			const error = r.bool('sync') ? execSyncOne(r, rt, known, given, cmd) : execOne(r, rt, known, given, cmd);
			if (error) errors.push(error);
		}
		if (errors.length && !ignoreErrors) return r.inv.fatal(errors.join('\n'));
		return 0;
	},
};

/** The container's state as containerd's Exec/ExecSync check it; an error text, or the full ID of a running container. */
function runningContainer(rt: CrictlRuntime, known: string[], given: string, findWording: (id: string) => string): { ok: true; id: string } | { ok: false; error: string } {
	const id = resolveId(known, given, 'container');
	if (!id.ok) return id;
	const status = rt.containerStatus(id.id);
	if (!status.ok) return { ok: false, error: `rpc error: code = NotFound desc = ${findWording(given)}: not found` };
	if (status.value.state !== 'CONTAINER_RUNNING') return { ok: false, error: `rpc error: code = Unknown desc = container is in ${status.value.state} state` };
	return { ok: true, id: id.id };
}

/** crictl exec: the streaming Exec (output streams through, a non-zero exit is an error). */
function execOne(r: Run, rt: CrictlRuntime, known: string[], given: string, cmd: string[]): string | undefined {
	const wrap = (e: string) => `execing command in container ${given}: ${e}`;
	const found = runningContainer(rt, known, given, (id) => `failed to find container "${id}" in store`);
	if (!found.ok) {
		r.inv.klogError('remote_runtime.go:672', 'Exec cmd from runtime service failed', found.error, [['containerID', given], ['cmd', `[${cmd.join(' ')}]`, true]]);
		return wrap(found.error);
	}
	if (r.bool('tty') && !r.bool('interactive')) return wrap('tty=true must be specified with interactive=true');
	const result = rt.execSync(found.id, cmd);
	// An exec that could not start comes back on the error stream as the runtime's message.
	if (!result.ok) return wrap(result.error.desc);
	// With a TTY, the container's stderr shares the terminal with its stdout.
	r.inv.print(result.value.stdout);
	if (r.bool('tty')) r.inv.print(result.value.stderr);
	else r.inv.printErr(result.value.stderr);
	return result.value.exitCode === 0 ? undefined : wrap(`command terminated with exit code ${result.value.exitCode}`);
}

/** crictl exec --sync: ExecSync, both outputs printed on stdout each followed by a newline. */
function execSyncOne(r: Run, rt: CrictlRuntime, known: string[], given: string, cmd: string[]): string | undefined {
	const wrap = (e: string) => `execing command in container ${given} synchronously: ${e}`;
	const found = runningContainer(rt, known, given, (id) => `an error occurred when try to find container "${id}"`);
	if (!found.ok) {
		r.inv.klogError('remote_runtime.go:636', 'ExecSync cmd from runtime service failed', found.error, [['containerID', given], ['cmd', `[${cmd.join(' ')}]`, true]]);
		return wrap(found.error);
	}
	const result = rt.execSync(found.id, cmd, r.int('timeout'));
	if (!result.ok) return wrap(rpcError(result.error));
	r.inv.print(result.value.stdout + '\n' + result.value.stderr + '\n');
	// cli.Exit("non-zero exit code", code), joined by AggregateGoroutines, ends in logrus.Fatal.
	return result.value.exitCode === 0 ? undefined : 'non-zero exit code';
}

/** StopContainer as containerd answers it (an unknown ID is already stopped), waiting in virtual time for the exit, then the ID on stdout. */
function stopContainer(r: Run, rt: CrictlRuntime, known: string[], given: string, timeoutSeconds: number): string | undefined {
	const id = resolveId(known, given, 'container');
	if (!id.ok) return id.error;
	const status = rt.containerStatus(id.id);
	if (status.ok && status.value.state === 'CONTAINER_RUNNING') {
		const stopped = rt.stopContainer(id.id, timeoutSeconds);
		if (!stopped.ok) {
			r.inv.klogError('remote_runtime.go:459', 'StopContainer from runtime service failed', rpcError(stopped.error), [['containerID', id.id]]);
			return rpcError(stopped.error);
		}
		// containerd returns once the task exited: the stop signal, then SIGKILL after the timeout.
		const deadline = Math.max(0, timeoutSeconds) * 1000 + STOP_GRACE_MS;
		for (let waited = 0; waited < deadline; waited += WAIT_STEP_MS) {
			const now = rt.containerStatus(id.id);
			if (!now.ok || now.value.state !== 'CONTAINER_RUNNING') break;
			if (!r.inv.sleep(WAIT_STEP_MS)) break;
		}
	}
	r.inv.print(given + '\n');
	return undefined;
}

export const stop: Command = {
	spec: {
		name: 'stop',
		usage: 'Stop one or more running containers',
		argsUsage: 'CONTAINER-ID [CONTAINER-ID...]',
		shortOptions: true,
		flags: [
			{ name: 'timeout', aliases: ['t'], kind: 'int', usage: 'Seconds to wait to kill the container after a graceful stop is requested' },
			{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Stop all running containers' },
		],
	},
	run(r) {
		const rt = r.runtime();
		if (r.bool('all') && r.args.length) return r.inv.exit('cannot specify CONTAINER-ID(s) when using --all', 1);
		let ids: string[];
		if (r.bool('all')) {
			ids = listContainers(r, rt, undefined, { id: '', podId: '', nameRegexp: '', namespaceRegexp: '', image: '', state: 'running', all: false, latest: false, last: 0 }).map((c) => c.id);
			if (!ids.length) {
				r.inv.print('No running containers found.\n');
				return 0;
			}
		} else {
			if (!r.args.length) return r.inv.exit('you must specify at least one CONTAINER-ID or use --all', 1);
			ids = [...r.args];
		}
		const known = containerIds(rt);
		for (const id of ids) {
			const error = stopContainer(r, rt, known, id, r.int('timeout'));
			if (error) return r.inv.fatal(`stopping the container "${id}": ${error}`);
		}
		return 0;
	},
};

export const rm: Command = {
	spec: {
		name: 'rm',
		usage: 'Remove one or more containers',
		argsUsage: 'CONTAINER-ID [CONTAINER-ID...]',
		shortOptions: true,
		flags: [
			{ name: 'force', aliases: ['f'], kind: 'bool', usage: 'Force removal of the container, disregarding if running' },
			{ name: 'keep-logs', aliases: ['k'], kind: 'bool', usage: 'Preserve the container log file and its rotations' },
			{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Remove all containers' },
		],
	},
	run(r) {
		const rt = r.runtime();
		let ids = [...r.args];
		if (r.bool('all')) ids = containerIds(rt);
		if (!ids.length) {
			if (r.bool('all')) {
				r.inv.log('info', 'No containers to remove');
				return 0;
			}
			return r.help();
		}
		const known = containerIds(rt);
		const errors: string[] = [];
		for (const given of ids) {
			const id = resolveId(known, given, 'container');
			const status = id.ok ? containerStatus(r, rt, id.id) : undefined;
			if (!id.ok || !status?.ok) {
				errors.push(`getting container status "${given}": ${id.ok && status && !status.ok ? rpcError(status.error) : !id.ok ? id.error : ''}`);
				continue;
			}
			if (status.value.state === 'CONTAINER_RUNNING') {
				if (!r.bool('force')) {
					errors.push(`container "${given}" is running, please stop it first`);
					continue;
				}
				const error = stopContainer(r, rt, known, given, 0);
				if (error) {
					errors.push(`stopping the container "${given}": ${error}`);
					continue;
				}
			}
			const removed = rt.removeContainer(id.id);
			if (!removed.ok) {
				errors.push(`removing container "${given}": ${rpcError(removed.error)}`);
				continue;
			}
			r.inv.print(given + '\n');
		}
		if (errors.length) return r.inv.fatal(errors.join('\n'));
		return 0;
	},
};
