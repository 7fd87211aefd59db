/**
 * `kubectl get -w` / `--watch-only`: print what is there (unless
 * watch-only), then one line per change while the cluster runs. As get.go's
 * watch() does: one resource type only, a list is watched from its
 * resourceVersion, a named object through a `metadata.name` field selector;
 * table rows reuse the columns (and remembered widths) of the first print,
 * so later rows come without a header; `--output-watch-events` adds the
 * EVENT column (or wraps objects as `{"type": ..., "object": ...}`).
 *
 * A real `kubectl get -w` runs until interrupted. Here the watch runs the
 * virtual clock and ends after WATCH_QUIET_MS without a change, or at the
 * latest after `--request-timeout` (or WATCH_MAX_MS when that is unset).
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/get/get.go (watch).
 */
import type { KubeObject, KubeList } from '../../api/types.ts';
import { parseGoDurationMs } from '../../golang/duration.ts';
import { stringifyJsonLikeKubectl, type JsonValue } from '../../golang/json.ts';
import { stringifyYaml } from '../../yaml/index.ts';
import { refOf } from '../../client/client.ts';
import type { WatchEvent } from '../../api/request.ts';
import type { CommandResult } from '../../shell/types.ts';
import type { KubectlInvocation } from '../kubectl.ts';
import { TabWriter } from '../../golang/tabwriter.ts';
import { KUBECTL_GET_TABWRITER } from '../printers/tabwriter.ts';
import { tableFor } from '../printers/table-registry.ts';
import { buildTable, HumanReadablePrinter } from '../printers/table-printer.ts';
import { kindQualifier } from '../names.ts';
import { apiErrorMessage, errorText, listInChunks, warningText, withTypeMeta, type ParsedResourceArgs } from '../resource-args.ts';
import { omitManagedFields, printGeneric, sortObjects, type OutputSpec } from './output.ts';

/** A watch ends once the cluster has been quiet this long (virtual time): long enough for an image pull or a rollout step. */
export const WATCH_QUIET_MS = 15_000;
/** The longest a watch runs when `--request-timeout` is not set: two minutes of virtual time. */
export const WATCH_MAX_MS = 120_000;

const fail = (stdout: string, stderr: string): CommandResult => ({ stdout, stderr, exitCode: 1 });

/** `--request-timeout` as ms ('0' or unset: none); a bare number is seconds, as kubectl reads it. */
function requestTimeoutMs(value: unknown): number | undefined {
	const text = typeof value === 'string' ? value.trim() : '';
	if (!text || text === '0') return undefined;
	if (/^\d+$/.test(text)) return Number(text) * 1000;
	try {
		const ms = parseGoDurationMs(text);
		return ms > 0 ? ms : undefined;
	} catch {
		return undefined;
	}
}

/** metav1.WatchEvent printed as JSON: a typed struct, so `type` comes before `object`, indented by four spaces. */
function watchEventJson(type: string, obj: KubeObject): string {
	const inner = stringifyJsonLikeKubectl(obj as unknown as JsonValue).trimEnd().replaceAll('\n', '\n    ');
	return `{\n    "type": ${JSON.stringify(type)},\n    "object": ${inner}\n}\n`;
}

/** Runs the watch half of `kubectl get`. */
export function runGetWatch(invocation: KubectlInvocation, parsed: ParsedResourceArgs, spec: OutputSpec, stderrSoFar: string): CommandResult {
	const { env, client, args } = invocation;
	const flags = args.flags;
	let stderr = stderrSoFar;
	if (parsed.targets.length !== 1) return fail('', stderr + errorText(['you may only watch a single resource or type of resource at a time']));
	const target = parsed.targets[0];
	const ref = refOf(target.info);
	const outputEvents = flags['output-watch-events'] === true;
	const watchOnly = flags['watch-only'] === true;

	// What is there now, and where the watch starts.
	let initial: KubeObject[];
	let resourceVersion: string;
	const query: { labelSelector?: string; fieldSelector?: string; resourceVersion?: string } = {};
	if (target.name !== undefined) {
		const got = client.get(ref, target.namespace, target.name);
		if (!got.ok) {
			if (got.code === 404 && flags['ignore-not-found'] === true) return { stdout: '', stderr, exitCode: 0 };
			return fail('', stderr + errorText([apiErrorMessage(got, env.serverUrl)]));
		}
		stderr += warningText(got.warnings ?? []);
		initial = [withTypeMeta(target.info, got.object)];
		resourceVersion = got.object.metadata.resourceVersion ?? '0';
		query.fieldSelector = `metadata.name=${target.name}`;
	} else {
		if (target.labelSelector) query.labelSelector = target.labelSelector;
		if (target.fieldSelector) query.fieldSelector = target.fieldSelector;
		// The first list comes in pages of --chunk-size, as get's builder asks (RequestChunksOf); the watch itself is not paged.
		const listed = listInChunks(client, ref, target.namespace, query, Number(flags['chunk-size']));
		if (!listed.ok) return fail('', stderr + errorText([apiErrorMessage(listed, env.serverUrl)]));
		stderr += warningText(listed.warnings ?? []);
		const list = listed.object as KubeList;
		initial = (list.items ?? []).map((item) => withTypeMeta(target.info, item));
		resourceVersion = list.metadata?.resourceVersion ?? '0';
	}
	query.resourceVersion = resourceVersion;
	const sortBy = typeof flags['sort-by'] === 'string' ? flags['sort-by'] : '';
	if (sortBy && !watchOnly) {
		const sorted = sortObjects(initial, sortBy);
		if (!sorted.ok) return fail('', stderr + errorText([sorted.error]));
		initial = sorted.objects;
	}

	// One printer for the whole run, as upstream builds one before printing.
	let stdout = '';
	let printEvent: (type: string, objects: KubeObject[]) => string | undefined;
	if (spec.kind === 'human') {
		const writer = new TabWriter(KUBECTL_GET_TABWRITER);
		const printer = new HumanReadablePrinter({
			wide: spec.wide,
			noHeaders: flags['no-headers'] === true,
			// watch() asks for a namespace column with -A whatever the resource's scope.
			withNamespace: parsed.allNamespaces,
			kindPrefix: flags['show-kind'] === true ? kindQualifier(target.info) : undefined,
			columnLabels: (flags['label-columns'] as string[] | undefined) ?? [],
			showLabels: flags['show-labels'] === true,
		});
		const table = tableFor(target.info);
		printEvent = (type, objects) => {
			writer.write(printer.print(buildTable(table, objects, { nowMs: env.wallMs() }), outputEvents ? type : undefined));
			return writer.flush();
		};
	} else {
		const state = { printed: 0 };
		const options = { noHeaders: flags['no-headers'] === true, allowMissingKeys: flags['allow-missing-template-keys'] !== false, showManagedFields: flags['show-managed-fields'] === true };
		printEvent = (type, objects) => {
			let text = '';
			for (const obj of objects) {
				if (outputEvents && spec.kind === 'json') {
					text += watchEventJson(type, options.showManagedFields ? obj : omitManagedFields(obj));
					continue;
				}
				if (outputEvents && spec.kind === 'yaml') {
					const separator = state.printed++ > 0 ? '---\n' : '';
					text += separator + stringifyYaml({ object: options.showManagedFields ? obj : omitManagedFields(obj), type });
					continue;
				}
				const printed = printGeneric(spec as Exclude<OutputSpec, { kind: 'human' }>, obj, state, options);
				if (!printed.ok) return undefined;
				text += printed.text;
			}
			return text;
		};
	}

	if (!watchOnly && initial.length > 0) {
		const text = printEvent('ADDED', initial);
		if (text === undefined) return fail(stdout, stderr + errorText(['unable to output the provided object']));
		stdout += text;
	}

	// Watch while the cluster runs.
	let lastChangeMs = env.nowMs();
	let ended = false;
	const onEvent = (event: WatchEvent) => {
		if (ended || event.type === 'BOOKMARK') return;
		if (event.type === 'ERROR') {
			ended = true;
			return;
		}
		lastChangeMs = env.nowMs();
		const text = printEvent(event.type, [withTypeMeta(target.info, event.object as KubeObject)]);
		if (text === undefined) ended = true;
		else stdout += text;
	};
	const stop = () => ended || env.nowMs() - lastChangeMs >= WATCH_QUIET_MS;
	const namespace = target.info.namespaced ? target.namespace : undefined;
	env.watch(ref, { namespace, query }, onEvent, stop, requestTimeoutMs(flags['request-timeout']) ?? WATCH_MAX_MS);
	return { stdout, stderr, exitCode: 0 };
}
