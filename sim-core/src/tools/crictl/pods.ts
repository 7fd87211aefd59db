/**
 * crictl's pod sandbox commands: pods, inspectp, stopp and rmp.
 *
 * Mirrors kubernetes-sigs/cri-tools cmd/crictl/sandbox.go (listPodCommand,
 * podStatusCommand, stopPodCommand, removePodCommand, OutputPodSandboxes,
 * getSandboxesList), containerd/containerd
 * internal/cri/server/sandbox_list.go, containerd/containerd
 * internal/cri/server/sandbox_status.go.
 */
import { civilTime } from '../../golang/time.ts';
import type { GoJsonValue } from '../../golang/json.ts';
import type { SandboxInfo } from '../../cri-api/cri.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { mapLines, printStatusData } from './containers.ts';
import { resolveId, rpcError, sandboxIds, sandboxInspect, sandboxMessage } from './cri-view.ts';
import { crictlTable, humanDuration, protoJson } from './format.ts';
import { matchesRegex, newestFirst, parseLabels, truncatedId, type Command, type Run } from './run.ts';
import type { CrictlRuntime } from './types.ts';
import { deepCopy } from '../../golang/json.ts';

interface PodListOptions {
	id: string;
	state: string;
	nameRegexp: string;
	namespaceRegexp: string;
	latest: boolean;
	last: number;
	labels?: Record<string, string>;
}

/** ListPodSandboxes: containerd's filterCRISandboxes, then crictl's name/namespace regexps, newest first. */
function listSandboxes(r: Run, rt: CrictlRuntime, opts: PodListOptions): SandboxInfo[] {
	let state: SandboxInfo['state'] | undefined;
	if (opts.state !== '') {
		const lower = opts.state.toLowerCase();
		if (lower === 'ready') state = 'SANDBOX_READY';
		else if (lower === 'notready') state = 'SANDBOX_NOTREADY';
		else r.inv.logFatalf('--state should be ready or notready');
	}
	const listed = rt.listPodSandbox({});
	if (!listed.ok) return r.inv.fatal(`listing pod sandboxes: call list sandboxes RPC: ${rpcError(listed.error)}`);
	const id = opts.id ? resolveId(listed.value.map((s) => s.id), opts.id, 'sandbox') : undefined;
	const out = listed.value.filter((s) => {
		if (id && (!id.ok || s.id !== id.id)) return false;
		if (state && s.state !== state) return false;
		for (const [k, v] of Object.entries(opts.labels ?? {})) if (s.labels[k] !== v) return false;
		return matchesRegex(opts.nameRegexp, s.podName) && matchesRegex(opts.namespaceRegexp, s.namespace);
	});
	return newestFirst(out, (s) => s.createdWallMs, opts.latest, opts.last);
}

const podStateText = (state: SandboxInfo['state']) => (state === 'SANDBOX_READY' ? 'Ready' : 'NotReady');


/** Go's `%v` of a time.Time in UTC: `2026-11-30 08:00:01.25 +0000 UTC`. */
function goTimeString(epochMs: number): string {
	const iso = rfcLike(epochMs);
	return `${iso.date} ${iso.time} +0000 UTC`;
}

function rfcLike(epochMs: number): { date: string; time: string } {
	const t = civilTime(epochMs);
	const p = (n: number, w = 2) => String(n).padStart(w, '0');
	const fraction = t.millisecond ? '.' + p(t.millisecond, 3).replace(/0+$/, '') : '';
	return { date: `${t.year}-${p(t.month)}-${p(t.day)}`, time: `${p(t.hour)}:${p(t.minute)}:${p(t.second)}${fraction}` };
}

export const pods: Command = {
	spec: {
		name: 'pods',
		usage: 'List pods',
		shortOptions: true,
		flags: [
			{ name: 'id', kind: 'string', usage: 'filter by pod id' },
			{ name: 'name', kind: 'string', usage: 'Filter by pod name regular expression pattern' },
			{ name: 'namespace', kind: 'string', usage: 'Filter by pod namespace regular expression pattern' },
			{ name: 'state', aliases: ['s'], kind: 'string', usage: 'Filter by pod state' },
			{ name: 'label', kind: 'stringSlice', usage: 'Filter by key=value label' },
			{ name: 'verbose', aliases: ['v'], kind: 'bool', usage: 'Show verbose info for pods' },
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'List only pod IDs' },
			{ name: 'output', aliases: ['o'], kind: 'string', usage: 'Output format, One of: json|yaml|table', value: 'table' },
			{ name: 'latest', aliases: ['l'], kind: 'bool', usage: 'Show the most recently created pod' },
			{ name: 'last', aliases: ['n'], kind: 'int', usage: 'Show last n recently created pods. Set 0 for unlimited' },
			{ name: 'no-trunc', kind: 'bool', usage: 'Show output without truncating the ID' },
		],
	},
	run(r) {
		const rt = r.runtime();
		const list = listSandboxes(r, rt, { id: r.string('id'), state: r.string('state'), nameRegexp: r.string('name'), namespaceRegexp: r.string('namespace'), latest: r.bool('latest'), last: r.int('last'), labels: parseLabels(r) });
		const output = r.string('output');
		if (output === 'json' || output === 'yaml') {
			const message = { items: list.map(sandboxMessage) };
			r.inv.print(output === 'json' ? protoJson(message) : stringifyYaml(deepCopy(message)) + '\n');
			return 0;
		}
		if (output !== 'table') return r.inv.fatal(`listing pod sandboxes: unsupported output format "${output}"`);
		const verbose = r.bool('verbose');
		const quiet = r.bool('quiet');
		const now = r.inv.wallMs();
		const rows: string[][] = [];
		if (!verbose && !quiet) rows.push(['POD ID', 'CREATED', 'STATE', 'NAME', 'NAMESPACE', 'ATTEMPT', 'RUNTIME']);
		for (const s of list) {
			if (quiet) {
				r.inv.print(s.id + '\n');
				continue;
			}
			if (!verbose) {
				// An empty runtime handler is the default one (getSandboxesRuntimeHandler).
				rows.push([r.bool('no-trunc') ? s.id : truncatedId(s.id), humanDuration(now - s.createdWallMs) + ' ago', podStateText(s.state), s.podName, s.namespace, String(s.attempt), '(default)']);
				continue;
			}
			let text = `ID: ${s.id}\nName: ${s.podName}\nUID: ${s.podUid}\nNamespace: ${s.namespace}\n${s.attempt ? `Attempt: ${s.attempt}\n` : ''}Status: ${podStateText(s.state)}\nCreated: ${goTimeString(s.createdWallMs)}\n`;
			text += mapLines('Labels', s.labels);
			text += mapLines('Annotations', s.annotations);
			// cases.Title of "RUNTIME".
			text += 'Runtime: (default)\n';
			r.inv.print(text + '\n');
		}
		if (rows.length) r.inv.print(crictlTable(rows));
		return 0;
	},
};

export const inspectp: Command = {
	spec: {
		name: 'inspectp',
		usage: 'Display the status of one or more pods',
		argsUsage: 'POD-ID [POD-ID...]',
		shortOptions: true,
		flags: [
			{ name: 'output', aliases: ['o'], kind: 'string', usage: 'Output format, One of: json|yaml|go-template|table' },
			{ name: 'quiet', aliases: ['q'], kind: 'bool', usage: 'Do not show verbose information' },
			{ name: 'template', kind: 'string', usage: 'The template string is only used when output is go-template; The Template format is golang template' },
			{ name: 'name', kind: 'string', usage: 'Filter by pod name regular expression pattern' },
			{ name: 'namespace', kind: 'string', usage: 'Filter by pod namespace regular expression pattern' },
			{ name: 'state', aliases: ['s'], kind: 'string', usage: 'Filter by pod state' },
			{ name: 'label', kind: 'stringSlice', usage: 'Filter by key=value label' },
			{ name: 'latest', aliases: ['l'], kind: 'bool', usage: 'Show the most recently created pod' },
			{ name: 'last', aliases: ['n'], kind: 'int', usage: 'Show last n recently created pods. Set 0 for unlimited' },
		],
	},
	run(r) {
		const rt = r.runtime();
		let ids = [...r.args];
		if (!ids.length) ids = listSandboxes(r, rt, { id: '', state: r.string('state'), nameRegexp: r.string('name'), namespaceRegexp: r.string('namespace'), latest: r.bool('latest'), last: r.int('last'), labels: parseLabels(r) }).map((s) => s.id);
		if (!ids.length) {
			r.inv.log('error', 'No IDs provided or nothing found per filter');
			return r.help();
		}
		const verbose = !r.bool('quiet');
		const output = r.string('output') || 'json';
		const known = sandboxIds(rt);
		const statuses: Array<{ [key: string]: GoJsonValue }> = [];
		for (const given of ids) {
			const id = resolveId(known, given, 'sandbox');
			if (!id.ok) return r.inv.fatal(`get the status of pod sandboxes: get pod sandbox status: ${id.error}`);
			const status = rt.podSandboxStatus(id.id, verbose);
			if (!status.ok) return r.inv.fatal(`get the status of pod sandboxes: get pod sandbox status: ${rpcError(status.error)}`);
			const s = status.value;
			const view = sandboxInspect(s, verbose);
			if (output === 'table') {
				let text = `ID: ${s.id}\nName: ${s.podName}\nUID: ${s.podUid}\nNamespace: ${s.namespace}\nAttempt: ${s.attempt}\nStatus: ${s.state}\nCreated: ${goTimeString(s.createdWallMs)}\n`;
				const network = view.status as { network: { ip: string } };
				text += `IP Addresses: ${network.network.ip}\n`;
				text += mapLines('Labels', s.labels);
				text += mapLines('Annotations', s.annotations);
				if (verbose) text += `Info: map[info:${JSON.stringify(view.info)}]\n`;
				r.inv.print(text);
			} else statuses.push(view);
		}
		return printStatusData(r, statuses, output, 'get the status of pod sandboxes');
	},
};

export const stopp: Command = {
	spec: { name: 'stopp', usage: 'Stop one or more running pods', argsUsage: 'POD-ID [POD-ID...]', flags: [] },
	run(r) {
		if (!r.args.length) return r.help();
		const rt = r.runtime();
		const known = sandboxIds(rt);
		for (const given of r.args) {
			const id = resolveId(known, given, 'sandbox');
			if (!id.ok) return r.inv.fatal(`stopping the pod sandbox "${given}": ${id.error}`);
			const stopped = rt.stopPodSandbox(id.id);
			if (!stopped.ok) return r.inv.fatal(`stopping the pod sandbox "${given}": ${rpcError(stopped.error)}`);
			r.inv.print(`Stopped sandbox ${given}\n`);
		}
		return 0;
	},
};

export const rmp: Command = {
	spec: {
		name: 'rmp',
		usage: 'Remove one or more pods',
		argsUsage: 'POD-ID [POD-ID...]',
		shortOptions: true,
		flags: [
			{ name: 'force', aliases: ['f'], kind: 'bool', usage: 'Force removal of the pod sandbox, disregarding if running' },
			{ name: 'all', aliases: ['a'], kind: 'bool', usage: 'Remove all pods' },
		],
	},
	run(r) {
		const rt = r.runtime();
		let ids = [...r.args];
		if (r.bool('all')) ids = sandboxIds(rt);
		if (!ids.length) {
			if (r.bool('all')) {
				r.inv.log('info', 'No pods to remove');
				return 0;
			}
			return r.help();
		}
		const known = sandboxIds(rt);
		const errors: string[] = [];
		for (const given of ids) {
			const id = resolveId(known, given, 'sandbox');
			const status = id.ok ? rt.podSandboxStatus(id.id) : undefined;
			if (!id.ok || !status?.ok) {
				errors.push(`getting sandbox status of pod "${given}": ${!id.ok ? id.error : status && !status.ok ? rpcError(status.error) : ''}`);
				continue;
			}
			if (status.value.state === 'SANDBOX_READY') {
				if (!r.bool('force')) {
					errors.push(`pod sandbox "${given}" is running, please stop it first`);
					continue;
				}
				const stopped = rt.stopPodSandbox(id.id);
				if (!stopped.ok) {
					errors.push(`stopping the pod sandbox "${given}" failed: ${rpcError(stopped.error)}`);
					continue;
				}
				r.inv.print(`Stopped sandbox ${given}\n`);
			}
			const removed = rt.removePodSandbox(id.id);
			if (!removed.ok) {
				errors.push(`removing the pod sandbox "${given}": ${rpcError(removed.error)}`);
				continue;
			}
			r.inv.print(`Removed sandbox ${given}\n`);
		}
		if (errors.length) return r.inv.fatal(errors.join('\n'));
		return 0;
	},
};
