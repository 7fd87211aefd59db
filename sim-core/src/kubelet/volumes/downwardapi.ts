/**
 * The downwardAPI volume plugin: files holding facts about the pod itself
 * (its name, namespace, UID, labels, annotations) or a container's
 * resource requests and limits. Labels and annotations are written one
 * `key="value"` per line, sorted, values quoted the Go way; the kubelet
 * rewrites them when the pod's metadata changes, which environment
 * variables never do.
 *
 * Mirrors pkg/volume/downwardapi/downwardapi.go (CollectData),
 * pkg/fieldpath/fieldpath.go (ExtractFieldPathAsString, FormatMap),
 * pkg/api/v1/resource/helpers.go (ExtractResourceValueByContainerName).
 */
import type { Container, Pod } from '../../api/types.ts';
import { Quantity } from '../../api/quantity.ts';
import type { Payload } from './atomic-writer.ts';
import type { PayloadResult } from './configmap.ts';

/** v1.DownwardAPIVolumeSourceDefaultMode = 0644 (k8s.io/api core/v1 types.go). */
export const DOWNWARD_API_DEFAULT_MODE = 0o644;

/** v1.DownwardAPIVolumeFile. */
interface DownwardApiFile {
	path: string;
	fieldRef?: { apiVersion?: string; fieldPath?: string };
	resourceFieldRef?: { containerName?: string; resource?: string; divisor?: string | number };
	mode?: number;
}

/** v1.DownwardAPIVolumeSource (a projection's DownwardAPIProjection has no defaultMode). */
export interface DownwardApiSource {
	items?: DownwardApiFile[];
	defaultMode?: number;
}

/** strconv.Quote for the texts labels hold: `"`, `\` and control characters escaped, printable Unicode kept. */
export function goQuote(text: string): string {
	let out = '"';
	for (const ch of text) {
		const code = ch.codePointAt(0) ?? 0;
		if (ch === '"' || ch === '\\') out += `\\${ch}`;
		else if (ch === '\n') out += '\\n';
		else if (ch === '\t') out += '\\t';
		else if (ch === '\r') out += '\\r';
		else if (ch === '\u0007') out += '\\a';
		else if (ch === '\b') out += '\\b';
		else if (ch === '\f') out += '\\f';
		else if (ch === '\v') out += '\\v';
		else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
		else out += ch;
	}
	return `${out}"`;
}

/** FormatMap: `key="value"` lines in key order, without a final newline. */
function formatMap(map: Record<string, string> | undefined): string {
	return Object.keys(map ?? {})
		.sort()
		.map((key) => `${key}=${goQuote((map ?? {})[key])}`)
		.join('\n');
}

/** ExtractFieldPathAsString: the metadata fields a downwardAPI volume may project. */
function extractFieldPath(pod: Pod, fieldPath: string): { ok: true; value: string } | { ok: false; error: string } {
	const meta = pod.metadata;
	const subscripted = /^(metadata\.[a-z]+)\['(.*)'\]$/.exec(fieldPath);
	if (subscripted) {
		const [, path, key] = subscripted;
		if (path === 'metadata.labels') return { ok: true, value: meta.labels?.[key] ?? '' };
		if (path === 'metadata.annotations') return { ok: true, value: meta.annotations?.[key] ?? '' };
		return { ok: false, error: `fieldPath "${fieldPath}" does not support subscript` };
	}
	switch (fieldPath) {
		case 'metadata.annotations':
			return { ok: true, value: formatMap(meta.annotations) };
		case 'metadata.labels':
			return { ok: true, value: formatMap(meta.labels) };
		case 'metadata.name':
			return { ok: true, value: meta.name ?? '' };
		case 'metadata.namespace':
			return { ok: true, value: meta.namespace ?? '' };
		case 'metadata.uid':
			return { ok: true, value: meta.uid ?? '' };
	}
	return { ok: false, error: `unsupported fieldPath: ${fieldPath}` };
}

function quantity(text: string | number | undefined, fallback: string): Quantity | undefined {
	try {
		return Quantity.parse(String(text ?? fallback));
	} catch {
		return undefined;
	}
}

/**
 * ExtractResourceValueByContainerNameAndNodeAllocatable: a container's
 * request or limit, an unset limit reading as the node's allocatable,
 * divided by the divisor and rounded up (CPU in millicores first).
 */
function extractResourceValue(pod: Pod, ref: NonNullable<DownwardApiFile['resourceFieldRef']>, nodeAllocatable: Record<string, string>): { ok: true; value: string } | { ok: false; error: string } {
	const name = ref.containerName ?? '';
	const containers: Container[] = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
	const container = containers.find((c) => c.name === name);
	if (!container) return { ok: false, error: `container ${name} not found` };
	const resource = ref.resource ?? '';
	const [kind, resourceName] = resource.split('.');
	if ((kind !== 'limits' && kind !== 'requests') || !resourceName) return { ok: false, error: `unsupported container resource : ${resource}` };
	const raw = kind === 'limits' ? (container.resources?.limits?.[resourceName] ?? nodeAllocatable[resourceName]) : container.resources?.requests?.[resourceName];
	const value = quantity(raw, '0');
	const divisorQuantity = quantity(ref.divisor, '1');
	if (!value || !divisorQuantity) return { ok: false, error: `unable to parse quantity for ${resource}` };
	if (resourceName === 'cpu') {
		const divisor = divisorQuantity.milliValue() || 1;
		return { ok: true, value: String(Math.ceil(value.milliValue() / divisor)) };
	}
	const divisor = divisorQuantity.value() || 1;
	return { ok: true, value: String(Math.ceil(value.value() / divisor)) };
}

/** CollectData: one file per item; errors are collected (an aggregate fails the set-up). */
export function downwardApiPayload(items: DownwardApiFile[] | undefined, pod: Pod, defaultMode: number, nodeAllocatable: Record<string, string>): PayloadResult {
	const payload: Payload = {};
	const errors: string[] = [];
	for (const item of items ?? []) {
		const mode = item.mode ?? defaultMode;
		const path = item.path.split('/').filter((p) => p !== '' && p !== '.').join('/');
		let data = '';
		if (item.fieldRef) {
			const got = extractFieldPath(pod, item.fieldRef.fieldPath ?? '');
			if (got.ok) data = got.value;
			else errors.push(got.error);
		} else if (item.resourceFieldRef) {
			const got = extractResourceValue(pod, item.resourceFieldRef, nodeAllocatable);
			if (got.ok) data = got.value;
			else errors.push(got.error);
		}
		payload[path] = { data, mode };
	}
	if (errors.length) return { ok: false, error: aggregate(errors) };
	return { ok: true, payload };
}

/** utilerrors.NewAggregate(...).Error(): one error as itself, several as `[a, b]`. */
export function aggregate(errors: string[]): string {
	return errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`;
}
