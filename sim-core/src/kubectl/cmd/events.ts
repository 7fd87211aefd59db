/**
 * `kubectl events`: the namespace's events sorted by when they last
 * happened, as `LAST SEEN TYPE REASON OBJECT MESSAGE` with the object as
 * `Kind/name`; `--for kind/name`, `--types`, `-A`, `-w`.
 *
 * `-w` runs like `get -w`: it ends once the cluster has been quiet for
 * WATCH_QUIET_MS, or after `--request-timeout` (WATCH_MAX_MS by default).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/events/events.go (Run,
 * runWatch, SortableEvents, eventTime, decodeResourceTypeName),
 * staging/src/k8s.io/kubectl/pkg/cmd/events/event_printer.go (EventPrinter).
 */
import type { CoreEvent, KubeList, KubeObject } from '../../api/types.ts';
import { groupVersion } from '../../api/resources.ts';
import { R } from '../../client/client.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import type { WatchEvent } from '../../api/request.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { TabWriter } from '../../golang/tabwriter.ts';
import { KUBECTL_GET_TABWRITER } from '../printers/tabwriter.ts';
import { escapeTerminal } from '../printers/table-printer.ts';
import { translateTimestampSince } from '../printers/table-columns.ts';
import { apiErrorMessage, errorText, resolveResourceType, warningText } from '../resource-args.ts';
import { parseOutput, printGeneric, type OutputSpec } from './output.ts';
import { WATCH_MAX_MS, WATCH_QUIET_MS } from './get-watch.ts';
import { compareGoStrings } from '../../golang/json.ts';

/** events.go eventTime: the series' last observation, else lastTimestamp, else eventTime (epoch ms; Go's zero time when none). */
function eventTime(e: CoreEvent): number {
	const pick = e.series?.lastObservedTime || e.lastTimestamp || e.eventTime;
	const ms = pick ? parseRfc3339(pick) : Number.NaN;
	return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** event_printer.go getInterval: `<age>` or `<last> (x<n> over <first>)`. */
function interval(e: CoreEvent, nowMs: number): string {
	const first = e.eventTime ? translateTimestampSince(e.eventTime, nowMs) : translateTimestampSince(e.firstTimestamp, nowMs);
	if (e.series) return `${translateTimestampSince(e.series.lastObservedTime, nowMs)} (x${e.series.count ?? 0} over ${first})`;
	if ((e.count ?? 0) > 1) return `${translateTimestampSince(e.lastTimestamp, nowMs)} (x${e.count} over ${first})`;
	return first;
}

/** EventPrinter: a header once (unless --no-headers), then one line per event. */
class EventPrinter {
	private headersPrinted = false;
	constructor(
		private readonly noHeaders: boolean,
		private readonly allNamespaces: boolean,
	) {}

	print(events: readonly CoreEvent[], nowMs: number): string {
		let out = '';
		if (!this.noHeaders && !this.headersPrinted) {
			out += `${this.allNamespaces ? 'NAMESPACE\t' : ''}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
			this.headersPrinted = true;
		}
		for (const e of events) {
			const ns = this.allNamespaces ? `${e.metadata.namespace ?? ''}\t` : '';
			out += `${ns}${interval(e, nowMs)}\t${escapeTerminal(e.type ?? '')}\t${escapeTerminal(e.reason ?? '')}\t${escapeTerminal(e.involvedObject?.kind ?? '')}/${escapeTerminal(e.involvedObject?.name ?? '')}\t${escapeTerminal((e.message ?? '').trim())}\n`;
		}
		return out;
	}
}

/** Runs `kubectl events`. */
function runEvents(invocation: KubectlInvocation): CommandResult {
	const { args, env, client } = invocation;
	const flags = args.flags;
	const allNamespaces = flags['all-namespaces'] === true;
	const types = [...new Set((flags.types as string[] | undefined) ?? [])].sort();
	let fieldSelector: string | undefined;
	const forObject = typeof flags.for === 'string' ? flags.for : '';
	if (forObject) {
		if (!forObject.includes('/')) return { stdout: '', stderr: errorText(['--for must be in resource/name form']), exitCode: 1 };
		const seg = forObject.split('/');
		if (seg.length !== 2) return { stdout: '', stderr: errorText(['arguments in resource/name form may not have more than one slash']), exitCode: 1 };
		const resolved = resolveResourceType(seg[0]);
		if (!resolved.ok) return { stdout: '', stderr: errorText([resolved.error]), exitCode: 1 };
		fieldSelector = `involvedObject.kind=${resolved.info.kind},involvedObject.apiVersion=${groupVersion(resolved.info)},involvedObject.name=${seg[1]}`;
	}
	const wanted = (type: string | undefined) => types.length === 0 || types.some((t) => t.toLowerCase() === (type ?? '').toLowerCase());
	let spec: OutputSpec = { kind: 'human', wide: false };
	if (typeof flags.output === 'string' && flags.output) {
		// NewPrintFlags("events"): json, yaml, name, templates; no wide table.
		const parsed = parseOutput(args, env, ['json', 'yaml', 'kyaml', 'name', 'go-template', 'go-template-file', 'template', 'templatefile', 'jsonpath', 'jsonpath-as-json', 'jsonpath-file']);
		if (!parsed.ok) return { stdout: '', stderr: errorText([parsed.error]), exitCode: 1 };
		spec = parsed.spec;
	}
	for (const t of types) if (t.toLowerCase() !== 'normal' && t.toLowerCase() !== 'warning') return { stdout: '', stderr: errorText(['valid --types are Normal or Warning']), exitCode: 1 };
	const namespace = allNamespaces ? undefined : invocation.namespace;
	const query = fieldSelector ? { fieldSelector } : {};
	const asEvent = (obj: KubeObject) => ({ ...obj, apiVersion: obj.apiVersion || 'v1', kind: obj.kind || 'Event' }) as CoreEvent;

	if (flags.watch === true) return watchEvents(invocation, namespace, query, spec, wanted, allNamespaces);

	const listed = client.list<CoreEvent>(R.events, namespace, query);
	if (!listed.ok) return { stdout: '', stderr: errorText([apiErrorMessage(listed, env.serverUrl)]), exitCode: 1 };
	const stderr = warningText(listed.warnings ?? []);
	const events = ((listed.object as KubeList<CoreEvent>).items ?? []).filter((e) => wanted(e.type)).map(asEvent);
	if (events.length === 0) return { stdout: '', stderr: stderr + (allNamespaces ? 'No events found.\n' : `No events found in ${invocation.namespace} namespace.\n`), exitCode: 0 };
	// sort.Sort(SortableEvents): an insertion sort at small sizes, so ties keep the server's order.
	events.sort((a, b) => {
		const x = eventTime(a);
		const y = eventTime(b);
		return x < y ? -1 : x > y ? 1 : 0;
	});
	if (spec.kind !== 'human') {
		const printed = printGeneric(spec, { apiVersion: 'v1', kind: 'EventList', metadata: {}, items: events } as KubeObject, { printed: 0 }, { showManagedFields: flags['show-managed-fields'] === true });
		if (!printed.ok) return { stdout: '', stderr: stderr + errorText([printed.error]), exitCode: 1 };
		return { stdout: printed.text, stderr, exitCode: 0 };
	}
	const writer = new TabWriter(KUBECTL_GET_TABWRITER);
	writer.write(new EventPrinter(flags['no-headers'] === true, allNamespaces).print(events, env.wallMs()));
	return { stdout: writer.flush(), stderr, exitCode: 0 };
}

/** runWatch: events as they come, deletions (expiries) left out. */
function watchEvents(invocation: KubectlInvocation, namespace: string | undefined, query: { fieldSelector?: string }, spec: OutputSpec, wanted: (type: string | undefined) => boolean, allNamespaces: boolean): CommandResult {
	const { env, args } = invocation;
	const writer = new TabWriter(KUBECTL_GET_TABWRITER);
	const printer = new EventPrinter(args.flags['no-headers'] === true, allNamespaces);
	const state = { printed: 0 };
	let stdout = '';
	let lastChangeMs = env.nowMs();
	const onEvent = (event: WatchEvent) => {
		if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
		const obj = event.object as KubeObject;
		const e = { ...obj, apiVersion: obj.apiVersion || 'v1', kind: obj.kind || 'Event' } as CoreEvent;
		if (!wanted(e.type)) return;
		lastChangeMs = env.nowMs();
		if (spec.kind === 'human') {
			writer.write(printer.print([e], env.wallMs()));
			stdout += writer.flush();
		} else {
			const printed = printGeneric(spec, e, state, {});
			if (printed.ok) stdout += printed.text;
		}
	};
	// A watch with no resourceVersion starts with every existing event as ADDED, in the watch cache's key order
	// (namespace/name); the simulated watch starts where this list ends.
	const listed = invocation.client.list<CoreEvent>(R.events, namespace, query);
	if (!listed.ok) return { stdout: '', stderr: errorText([apiErrorMessage(listed, env.serverUrl)]), exitCode: 1 };
	const existing = [...(listed.object.items ?? [])].sort((a, b) => compareGoStrings(`${a.metadata.namespace}/${a.metadata.name}`, `${b.metadata.namespace}/${b.metadata.name}`));
	for (const item of existing) onEvent({ type: 'ADDED', object: item });
	lastChangeMs = env.nowMs();
	const timeout = typeof args.flags['request-timeout'] === 'string' && args.flags['request-timeout'] !== '0' ? safeDuration(args.flags['request-timeout']) : undefined;
	env.watch(R.events, { namespace, query: { ...query, resourceVersion: listed.object.metadata?.resourceVersion } }, onEvent, () => env.nowMs() - lastChangeMs >= WATCH_QUIET_MS, timeout ?? WATCH_MAX_MS);
	return { stdout, stderr: warningText(listed.warnings ?? []), exitCode: 0 };
}

/** `--request-timeout` in ms: a bare number is seconds. */
function safeDuration(text: string): number | undefined {
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	try {
		return parseGoDurationMs(text) || undefined;
	} catch {
		return undefined;
	}
}

export const eventsCommand: KubectlCommand = {
	name: 'events',
	summary: 'List events',
	usage: 'kubectl events [(-o|--output=)json|yaml|name|go-template|go-template-file|template|templatefile|jsonpath|jsonpath-as-json|jsonpath-file] [--for TYPE/NAME] [--watch] [--types=Normal,Warning]',
	flags: [
		{ name: 'output', short: 'o', kind: 'string' },
		{ name: 'watch', short: 'w', kind: 'bool' },
		{ name: 'all-namespaces', short: 'A', kind: 'bool' },
		{ name: 'for', kind: 'string' },
		{ name: 'types', kind: 'stringArray' },
		{ name: 'no-headers', kind: 'bool' },
		// cmdutil.DefaultChunkSize.
		{ name: 'chunk-size', kind: 'int', default: 500 },
		{ name: 'show-managed-fields', kind: 'bool' },
		{ name: 'allow-missing-template-keys', kind: 'bool', default: true },
		{ name: 'template', kind: 'string' },
	],
	run: runEvents,
};
