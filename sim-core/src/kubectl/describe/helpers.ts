/**
 * The small formatting pieces `kubectl describe` repeats in every section:
 * multi-line labels, annotations, taints and tolerations, RFC 1123 times,
 * `<none>` fallbacks, sorted resource lists, and the context a describer
 * runs with.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (printLabelsMultilineWithIndent, printAnnotationsMultiline,
 * printTaintsMultilineWithIndent, printTolerationsMultilineWithIndent,
 * shorten, stringOrNone, printBool, SortedResourceNames).
 */
import type { KubeObject, Taint, Toleration } from '../../api/types.ts';
import type { ApiClient } from '../../client/client.ts';
import { formatRfc1123z, parseRfc3339 } from '../../golang/time.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { Quantity } from '../../api/quantity.ts';
import { LEVEL_0, type PrefixWriter } from './prefix-writer.ts';

/** What a describer may use besides the object itself. */
export interface DescribeContext {
	/** A client acting as the kubectl user (for events, pods, replica sets, leases). */
	client: ApiClient;
	/** The wall-clock-looking now, epoch ms (ages are measured against it). */
	nowMs: number;
	/** DescriberSettings.ShowEvents: print the Events section. */
	showEvents: boolean;
	/** The API server's URL, for connection error messages. */
	serverUrl: string;
}

/** A describer's answer: the text, or the error kubectl prints for that object. */
export type DescribeResult = { ok: true; text: string } | { ok: false; error: string };

/** Describes one object (already fetched). */
export type Describer = (obj: KubeObject, ctx: DescribeContext) => DescribeResult;


/**
 * Go's `t.Format(time.RFC1123Z)` for a UTC time: `Mon, 30 Nov 2026
 * 08:00:00 +0000`. An unset time prints Go's zero time, `Mon, 01 Jan 0001
 * 00:00:00 +0000`, as describe does for a missing heartbeat.
 */
export function rfc1123z(timestamp: string | null | undefined): string {
	const ms = timestamp ? parseRfc3339(timestamp) : Number.NaN;
	if (Number.isNaN(ms)) return 'Mon, 01 Jan 0001 00:00:00 +0000';
	return formatRfc1123z(ms);
}

/** stringOrNone. */
export function stringOrNone(s: string | undefined): string {
	return s ? s : '<none>';
}

/** printBool: True or False. */
export function printBool(value: boolean | undefined): string {
	return value ? 'True' : 'False';
}

/** Go's `%v` of a []string: `[a b]`. */
export function goList(values: readonly string[] | undefined): string {
	return `[${(values ?? []).join(' ')}]`;
}

/** Sorts like Go's sort.Slice on up to 12 elements (an insertion sort, so stable) and stably beyond. */
export function sortedBy<T>(items: readonly T[], key: (item: T) => string): T[] {
	return [...items].sort((a, b) => compareGoStrings(key(a), key(b)));
}

/** printLabelsMultilineWithIndent: `Title:<inner>k=v`, one pair per line, sorted; `<none>` when empty or all skipped. */
export function printLabelsMultiline(w: PrefixWriter, title: string, labels: Record<string, string> | undefined, initialIndent = '', innerIndent = '\t', skip: ReadonlySet<string> = new Set()): void {
	w.write(LEVEL_0, `${initialIndent}${title}:${innerIndent}`);
	const keys = Object.keys(labels ?? {})
		.filter((k) => !skip.has(k))
		.sort(compareGoStrings);
	if (keys.length === 0) {
		w.writeLine('<none>');
		return;
	}
	keys.forEach((key, i) => {
		if (i !== 0) {
			w.write(LEVEL_0, initialIndent);
			w.write(LEVEL_0, innerIndent);
		}
		w.write(LEVEL_0, `${key}=${(labels ?? {})[key]}\n`);
	});
}

/** describe.go maxAnnotationLen: longer annotations print folded and cut. */
const MAX_ANNOTATION_LEN = 140;
/** The annotation describe never shows (corev1.LastAppliedConfigAnnotation). */
const SKIP_ANNOTATIONS = new Set(['kubectl.kubernetes.io/last-applied-configuration']);

/** shorten: the first `max` bytes and `...`. */
function shorten(s: string, max: number): string {
	return s.length > max ? `${s.slice(0, max)}...` : s;
}

/** printAnnotationsMultiline: `key: value` sorted, long or multi-line values folded below their key. */
export function printAnnotationsMultiline(w: PrefixWriter, title: string, annotations: Record<string, string> | undefined): void {
	w.write(LEVEL_0, `${title}:\t`);
	const keys = Object.keys(annotations ?? {})
		.filter((k) => !SKIP_ANNOTATIONS.has(k))
		.sort(compareGoStrings);
	if (keys.length === 0) {
		w.writeLine('<none>');
		return;
	}
	const indent = '\t';
	keys.forEach((key, i) => {
		if (i !== 0) w.write(LEVEL_0, indent);
		const value = (annotations ?? {})[key].replace(/\n$/, '');
		if (value.length + key.length + 2 > MAX_ANNOTATION_LEN || value.includes('\n')) {
			w.write(LEVEL_0, `${key}:\n`);
			for (const line of value.split('\n')) w.write(LEVEL_0, `${indent}  ${shorten(line, MAX_ANNOTATION_LEN - 2)}\n`);
		} else w.write(LEVEL_0, `${key}: ${value}\n`);
	});
}

/** Taint.ToString: `key=value:effect`, `key:effect`, `key=value:` or `key`. */
export function taintString(t: Taint): string {
	if (!t.effect) return t.value ? `${t.key}=${t.value}:` : t.key;
	return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

/** printTaintsMultilineWithIndent: taints sorted by `effect,key`. */
export function printTaintsMultiline(w: PrefixWriter, title: string, taints: readonly Taint[] | undefined, initialIndent = '', innerIndent = '\t'): void {
	w.write(LEVEL_0, `${initialIndent}${title}:${innerIndent}`);
	if (!taints?.length) {
		w.writeLine('<none>');
		return;
	}
	sortedBy(taints, (t) => `${t.effect ?? ''},${t.key}`).forEach((taint, i) => {
		if (i !== 0) {
			w.write(LEVEL_0, initialIndent);
			w.write(LEVEL_0, innerIndent);
		}
		w.write(LEVEL_0, `${taintString(taint)}\n`);
	});
}

/** printTolerationsMultilineWithIndent: `key=value:effect op=Exists for 300s`, sorted by key. */
export function printTolerationsMultiline(w: PrefixWriter, title: string, tolerations: readonly Toleration[] | undefined, initialIndent = '', innerIndent = '\t'): void {
	w.write(LEVEL_0, `${initialIndent}${title}:${innerIndent}`);
	if (!tolerations?.length) {
		w.writeLine('<none>');
		return;
	}
	sortedBy(tolerations, (t) => t.key ?? '').forEach((t, i) => {
		if (i !== 0) {
			w.write(LEVEL_0, initialIndent);
			w.write(LEVEL_0, innerIndent);
		}
		let text = t.key ?? '';
		if (t.value) text += `=${t.value}`;
		if (t.effect) text += `:${t.effect}`;
		// An Exists toleration without a value tolerates everything matching its key and effect.
		if (t.operator === 'Exists' && !t.value) text += t.key || t.effect ? ' op=Exists' : 'op=Exists';
		if (t.tolerationSeconds !== undefined && t.tolerationSeconds !== null) text += ` for ${t.tolerationSeconds}s`;
		w.write(LEVEL_0, `${text}\n`);
	});
}

/** A resource list's names sorted (SortedResourceNames). */
export function sortedResourceNames(list: Record<string, unknown> | undefined): string[] {
	return Object.keys(list ?? {}).sort(compareGoStrings);
}

/** A quantity from an API object (string or number); Go's zero Quantity (`0`) when absent or unreadable. */
export function quantity(value: unknown): Quantity {
	if (typeof value === 'number') value = String(value);
	if (typeof value !== 'string' || !value) return Quantity.fromValue(0);
	try {
		return Quantity.parse(value);
	} catch {
		return Quantity.fromValue(0);
	}
}

/** printController: `Kind/name` of the controlling owner, or ''. */
export function printController(obj: KubeObject): string {
	const owner = (obj.metadata.ownerReferences ?? []).find((o) => o.controller === true);
	return owner ? `${owner.kind}/${owner.name}` : '';
}
