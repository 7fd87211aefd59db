/**
 * `kubectl describe` for kinds without their own describer (leases, events,
 * ...): every field of the object, sorted, under labels derived from the
 * field names (`holderIdentity` → `Holder Identity`), then its events. Also
 * the PodDisruptionBudget describer.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (genericDescriber, printUnstructuredContent, smartLabelFor,
 * describePodDisruptionBudgetV1), fatih/camelcase camelcase.go (Split).
 */
import type { KubeObject } from '../../api/types.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { formatLabelSelector } from '../../api/labels.ts';
import { LEVEL_0, LEVEL_2, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printLabelsMultiline, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeEvents, eventsFor } from './events.ts';

type Json = Record<string, unknown>;

const isLower = (c: string) => c !== c.toUpperCase() && c === c.toLowerCase();
const isUpper = (c: string) => c !== c.toLowerCase() && c === c.toUpperCase();
const isLetter = (c: string) => c.toLowerCase() !== c.toUpperCase();

/** camelcase.Split: runs of lower, upper, digits, other; an upper run's last letter joins a following lower run. */
export function camelcaseSplit(src: string): string[] {
	const runs: string[][] = [];
	let last = 0;
	for (const ch of src) {
		const cls = isLower(ch) ? 1 : isUpper(ch) ? 2 : /\d/.test(ch) ? 3 : 4;
		if (cls === last) runs[runs.length - 1].push(ch);
		else runs.push([ch]);
		last = cls;
	}
	for (let i = 0; i < runs.length - 1; i++) {
		if (isUpper(runs[i][0]) && isLower(runs[i + 1][0])) {
			runs[i + 1].unshift(runs[i][runs[i].length - 1]);
			runs[i].pop();
		}
	}
	return runs.filter((r) => r.length > 0).map((r) => r.join(''));
}

/** The acronyms smartLabelFor keeps upper-case. */
const COMMON_ACRONYMS = ['API', 'URL', 'UID', 'GUID'];

/** smartLabelFor: `leaseDurationSeconds` → `Lease Duration Seconds`, `apiVersion` → `API Version`; names with other characters unchanged. */
export function smartLabelFor(field: string): string {
	if ([...field].some((c) => !isLetter(c) && c !== '-')) return field;
	const parts = camelcaseSplit(field);
	const merged: string[] = [];
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i];
		// Two or more capitals followed by a capitalised word belong together (`CIDRs`).
		if (i < parts.length - 1 && part.length >= 2 && [...part].every((c) => !isLetter(c) || isUpper(c)) && isUpper(parts[i + 1][0])) {
			merged.push(part + parts[i + 1]);
			i++;
			continue;
		}
		merged.push(part);
	}
	return merged
		.filter((p) => p !== '_')
		.map((p) => (COMMON_ACRONYMS.includes(p.toUpperCase()) ? p.toUpperCase() : p === p.toLowerCase() ? p.charAt(0).toUpperCase() + p.slice(1) : p))
		.join(' ');
}

/** Go's `%v` of an unstructured scalar. */
function scalar(value: unknown): string {
	if (value === null || value === undefined) return '<nil>';
	return String(value);
}

/** printUnstructuredContent: fields sorted, maps and lists nested one level deeper, the skipped paths left out. */
function printContent(w: PrefixWriter, level: number, content: Json, prefix: string, skip: ReadonlySet<string>): void {
	for (const field of Object.keys(content).sort(compareGoStrings)) {
		const value = content[field];
		const path = `${prefix}.${field}`;
		if (skip.has(path)) continue;
		if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
			w.write(level, `${smartLabelFor(field)}:\n`);
			printContent(w, level + 1, value as Json, path, skip);
		} else if (Array.isArray(value)) {
			w.write(level, `${smartLabelFor(field)}:\n`);
			for (const child of value) {
				if (child !== null && typeof child === 'object' && !Array.isArray(child)) printContent(w, level + 1, child as Json, path, skip);
				else w.write(level + 1, `${scalar(child)}\n`);
			}
		} else w.write(level, `${smartLabelFor(field)}:\t${scalar(value)}\n`);
	}
}

/** genericDescriber. */
export function describeGeneric(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	printContent(w, LEVEL_0, obj as unknown as Json, '', new Set(['.metadata.managedFields', '.metadata.name', '.metadata.namespace', '.metadata.labels', '.metadata.annotations']));
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describePodDisruptionBudgetV1. */
export function describePodDisruptionBudget(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as { minAvailable?: number | string; maxUnavailable?: number | string; selector?: Parameters<typeof formatLabelSelector>[0] };
	const status = (obj.status ?? {}) as { disruptionsAllowed?: number; currentHealthy?: number; desiredHealthy?: number; expectedPods?: number };
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	if (spec.minAvailable !== undefined) w.write(LEVEL_0, `Min available:\t${spec.minAvailable}\n`);
	else if (spec.maxUnavailable !== undefined) w.write(LEVEL_0, `Max unavailable:\t${spec.maxUnavailable}\n`);
	w.write(LEVEL_0, spec.selector ? `Selector:\t${formatLabelSelector(spec.selector)}\n` : 'Selector:\t<unset>\n');
	w.write(LEVEL_0, 'Status:\n');
	w.write(LEVEL_2, `Allowed disruptions:\t${status.disruptionsAllowed ?? 0}\n`);
	w.write(LEVEL_2, `Current:\t${status.currentHealthy ?? 0}\n`);
	w.write(LEVEL_2, `Desired:\t${status.desiredHealthy ?? 0}\n`);
	w.write(LEVEL_2, `Total:\t${status.expectedPods ?? 0}\n`);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
