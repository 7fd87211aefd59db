/**
 * `kubectl describe` for namespaces, configmaps, secrets (sizes, never
 * values), serviceaccounts and priorityclasses.
 *
 * The simulated API server serves no ResourceQuotas or LimitRanges, so a
 * namespace shows what a real cluster shows when it has none:
 * `No resource quota.` and `No LimitRange resource.`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (describeNamespace, DescribeResourceQuotas, DescribeLimitRanges,
 * ConfigMapDescriber, describeSecret, describeServiceAccount,
 * describePriorityClass).
 */
import type { ConfigMap, KubeObject, PriorityClass, Secret, ServiceAccount } from '../../api/types.ts';
import { formatLabels } from '../../api/labels.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printLabelsMultiline, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describeEvents, eventsFor } from './events.ts';

/** describeNamespace. */
export function describeNamespace(obj: KubeObject): DescribeResult {
	const status = (obj.status ?? {}) as { phase?: string; conditions?: Array<{ type?: string; status?: string; lastTransitionTime?: string; reason?: string; message?: string }> };
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `Status:\t${status.phase ?? ''}\n`);
	if (status.conditions?.length) {
		w.write(LEVEL_0, 'Conditions:\n');
		w.write(LEVEL_1, 'Type\tStatus\tLastTransitionTime\tReason\tMessage\n');
		w.write(LEVEL_1, '----\t------\t------------------\t------\t-------\n');
		for (const c of status.conditions) w.write(LEVEL_1, `${c.type ?? ''}\t${c.status ?? ''}\t${rfc1123z(c.lastTransitionTime)}\t${c.reason ?? ''}\t${c.message ?? ''}\n`);
	}
	w.write(LEVEL_0, '\n');
	w.write(LEVEL_0, 'No resource quota.\n');
	w.write(LEVEL_0, '\n');
	w.write(LEVEL_0, 'No LimitRange resource.\n');
	return { ok: true, text: w.toString() };
}

/** ConfigMapDescriber: each data key with its value under a rule, binary data by size, then events. */
export function describeConfigMap(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const cm = obj as ConfigMap;
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${cm.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${cm.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', cm.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', cm.metadata.annotations);
	w.write(LEVEL_0, '\nData\n====\n');
	for (const key of Object.keys(cm.data ?? {}).sort(compareGoStrings)) {
		w.write(LEVEL_0, `${key}:\n----\n`);
		w.write(LEVEL_0, `${(cm.data ?? {})[key]}\n`);
		w.write(LEVEL_0, '\n');
	}
	w.write(LEVEL_0, '\nBinaryData\n====\n');
	for (const key of Object.keys(cm.binaryData ?? {}).sort(compareGoStrings)) w.write(LEVEL_0, `${key}: ${base64Length((cm.binaryData ?? {})[key])} bytes\n`);
	w.write(LEVEL_0, '\n');
	if (ctx.showEvents) {
		const events = eventsFor(cm, ctx);
		if (events) describeEvents(events, w, ctx.nowMs);
	}
	return { ok: true, text: w.toString() };
}

/** The number of bytes a base64 string decodes to (what len() of the []byte field gives). */
function base64Length(text: string): number {
	const clean = text.replace(/\s/g, '');
	const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
	return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

/** Decodes base64 to text (for a service account token, which describe shows). */
function base64Text(text: string): string {
	const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
	let bits = 0;
	let value = 0;
	let out = '';
	for (const ch of text.replace(/[\s=]/g, '')) {
		const v = alphabet.indexOf(ch);
		if (v < 0) continue;
		value = (value << 6) | v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			out += String.fromCharCode((value >> bits) & 0xff);
		}
	}
	return out;
}

/** describeSecret: the type, then each key's size in bytes (a service account token's value is shown). */
export function describeSecret(obj: KubeObject): DescribeResult {
	const secret = obj as Secret;
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${secret.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${secret.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', secret.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', secret.metadata.annotations);
	w.write(LEVEL_0, `\nType:\t${secret.type ?? ''}\n`);
	w.write(LEVEL_0, '\nData\n====\n');
	for (const key of Object.keys(secret.data ?? {}).sort(compareGoStrings)) {
		const value = (secret.data ?? {})[key];
		if (key === 'token' && secret.type === 'kubernetes.io/service-account-token') w.write(LEVEL_0, `${key}:\t${base64Text(value)}\n`);
		else w.write(LEVEL_0, `${key}:\t${base64Length(value)} bytes\n`);
	}
	return { ok: true, text: w.toString() };
}

/** describeServiceAccount: its image pull secrets, then events. */
export function describeServiceAccount(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const sa = obj as ServiceAccount;
	const events = eventsFor(sa, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${sa.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${sa.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', sa.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', sa.metadata.annotations);
	const pullSecrets = ((sa.imagePullSecrets as Array<{ name?: string }> | undefined) ?? []).map((s) => s.name ?? '');
	// The header of later names is blanked to the width of "Image pull secrets:".
	const emptyHeader = '                   ';
	if (pullSecrets.length === 0) w.write(LEVEL_0, 'Image pull secrets:\t<none>\n');
	else pullSecrets.forEach((name, i) => w.write(LEVEL_0, `${i === 0 ? 'Image pull secrets:' : emptyHeader}\t${name}\n`));
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describePriorityClass. */
export function describePriorityClass(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const pc = obj as PriorityClass;
	const events = eventsFor(pc, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${pc.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Value:\t${pc.value ?? 0}\n`);
	w.write(LEVEL_0, `GlobalDefault:\t${pc.globalDefault === true}\n`);
	w.write(LEVEL_0, `PreemptionPolicy:\t${pc.preemptionPolicy ?? ''}\n`);
	w.write(LEVEL_0, `Description:\t${pc.description ?? ''}\n`);
	w.write(LEVEL_0, `Annotations:\t${formatLabels(pc.metadata.annotations)}\n`);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
