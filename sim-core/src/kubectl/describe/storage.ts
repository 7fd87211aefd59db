/**
 * `kubectl describe pv` and `kubectl describe pvc`: the pair's two views.
 * A claim shows its class, phase, the volume it is bound to, the capacity
 * and access modes it got (empty until bound) and which Pods use it; a
 * volume shows its class, phase, the claim it serves, its reclaim policy,
 * the node affinity a local volume pins it with, and its source (the host
 * path behind it). Either shows `Terminating (lasts 5s)` while its
 * protection finalizer holds it. A StorageClass shows whether it is the
 * default, its provisioner and parameters, and how it binds.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (describePersistentVolume, printVolumeNodeAffinity,
 * printHostPathVolumeSource, printLocalVolumeSource,
 * describePersistentVolumeClaim, printPersistentVolumeClaim, getPodsForPVC,
 * printPodsMultilineWithIndent, describeStorageClass, printAllowedTopologies),
 * staging/src/k8s.io/kubectl/pkg/util/storage/storage.go (IsDefaultAnnotationText).
 */
import type { KubeObject, Pod } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { isDefaultStorageClass, volumeSourceKind } from '../../component-helpers/storage.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { translateTimestampSince } from '../printers/table-columns.ts';
import { accessModesString, quantityString, storageClassOf } from '../printers/table-storage.ts';
import { describeEvents, eventsFor } from './events.ts';
import { formatLabels } from '../../api/labels.ts';
import { goList, printAnnotationsMultiline, printLabelsMultiline, type DescribeContext, type DescribeResult } from './helpers.ts';
import { LEVEL_0, LEVEL_1, LEVEL_2, PrefixWriter } from './prefix-writer.ts';

type Json = Record<string, unknown>;
const rec = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

function statusLine(w: PrefixWriter, obj: KubeObject, ctx: DescribeContext): void {
	if (obj.metadata.deletionTimestamp) w.write(LEVEL_0, `Status:\tTerminating (lasts ${translateTimestampSince(obj.metadata.deletionTimestamp, ctx.nowMs)})\n`);
	else w.write(LEVEL_0, `Status:\t${String(rec(obj.status).phase ?? '')}\n`);
}

/** printVolumeNodeAffinity: the required node selector terms, one expression a line, or <none>. */
function printNodeAffinity(w: PrefixWriter, affinity: unknown): void {
	w.write(LEVEL_0, 'Node Affinity:\t');
	const required = rec(affinity).required;
	if (!required) {
		w.write(LEVEL_0, '<none>\n');
		return;
	}
	w.write(LEVEL_0, '\n');
	w.write(LEVEL_1, 'Required Terms:\t');
	const terms = (rec(required).nodeSelectorTerms as Json[] | undefined) ?? [];
	if (terms.length === 0) {
		w.write(LEVEL_0, '<none>\n');
		return;
	}
	w.write(LEVEL_0, '\n');
	terms.forEach((term, i) => {
		// printNodeSelectorTermsMultilineWithIndent.
		const expressions = (rec(term).matchExpressions as Json[] | undefined) ?? [];
		w.write(LEVEL_2, `Term ${i}:\t`);
		if (expressions.length === 0) w.write(LEVEL_0, '<none>\n');
		expressions.forEach((e, j) => {
			if (j) w.write(LEVEL_2, '\t');
			const values = (e.values as string[] | undefined) ?? [];
			w.write(LEVEL_0, `${String(e.key)} ${String(e.operator).toLowerCase()}${values.length ? ` [${values.join(', ')}]` : ''}\n`);
		});
	});
}

function printSource(w: PrefixWriter, spec: Json): void {
	const hostPath = rec(spec.hostPath);
	const local = rec(spec.local);
	if (spec.hostPath) {
		w.write(LEVEL_2, `Type:\tHostPath (bare host directory volume)\n    Path:\t${String(hostPath.path ?? '')}\n    HostPathType:\t${String(hostPath.type ?? '')}\n`);
	} else if (spec.local) {
		w.write(LEVEL_2, `Type:\tLocalVolume (a persistent volume backed by local storage on a node)\n    Path:\t${String(local.path ?? '')}\n`);
	} else {
		const kind = volumeSourceKind(spec);
		if (kind) w.write(LEVEL_2, `Type:\t${kind[0].toUpperCase()}${kind.slice(1)} (not modelled by this simulated cluster)\n`);
	}
}

/** describePersistentVolume. */
export function describePersistentVolume(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = rec(obj.spec);
	const ref = rec(spec.claimRef);
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `Finalizers:\t${goList(obj.metadata.finalizers)}\n`);
	w.write(LEVEL_0, `StorageClass:\t${storageClassOf(obj)}\n`);
	statusLine(w, obj, ctx);
	w.write(LEVEL_0, `Claim:\t${spec.claimRef ? `${String(ref.namespace ?? '')}/${String(ref.name ?? '')}` : ''}\n`);
	w.write(LEVEL_0, `Reclaim Policy:\t${String(spec.persistentVolumeReclaimPolicy ?? '')}\n`);
	w.write(LEVEL_0, `Access Modes:\t${accessModesString(spec.accessModes)}\n`);
	if (spec.volumeMode !== undefined) w.write(LEVEL_0, `VolumeMode:\t${String(spec.volumeMode)}\n`);
	w.write(LEVEL_0, `Capacity:\t${quantityString(rec(spec.capacity).storage)}\n`);
	printNodeAffinity(w, spec.nodeAffinity);
	w.write(LEVEL_0, `Message:\t${String(rec(obj.status).message ?? '')}\n`);
	w.write(LEVEL_0, 'Source:\n');
	printSource(w, spec);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** getPodsForPVC: the namespace's Pods whose volumes name the claim. */
function podsUsing(claim: KubeObject, ctx: DescribeContext): string[] {
	const listed = ctx.client.list<Pod>(R.pods, claim.metadata.namespace);
	if (!listed.ok) return [];
	const pods = ((listed.object as { items?: Pod[] }).items ?? []).filter((pod) => (pod.spec.volumes ?? []).some((v) => rec(rec(v).persistentVolumeClaim).claimName === claim.metadata.name));
	return pods.map((p) => p.metadata.name ?? '').sort(compareGoStrings);
}

/** describePersistentVolumeClaim. */
export function describePersistentVolumeClaim(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = rec(obj.spec);
	const status = rec(obj.status);
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `StorageClass:\t${storageClassOf(obj)}\n`);
	statusLine(w, obj, ctx);
	w.write(LEVEL_0, `Volume:\t${String(spec.volumeName ?? '')}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `Finalizers:\t${goList(obj.metadata.finalizers)}\n`);
	const bound = Boolean(spec.volumeName);
	w.write(LEVEL_0, `Capacity:\t${bound ? quantityString(rec(status.capacity).storage) : ''}\n`);
	w.write(LEVEL_0, `Access Modes:\t${bound ? accessModesString(status.accessModes) : ''}\n`);
	if (spec.volumeMode !== undefined) w.write(LEVEL_0, `VolumeMode:\t${String(spec.volumeMode)}\n`);
	const pods = podsUsing(obj, ctx);
	w.write(LEVEL_0, 'Used By:\t');
	if (pods.length === 0) w.write(LEVEL_0, '<none>\n');
	pods.forEach((name, i) => w.write(LEVEL_0, `${i ? '\t' : ''}${name}\n`));
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** IsDefaultAnnotationText: `Yes` when the class is annotated the default (GA or beta annotation). */
function isDefaultText(obj: KubeObject): string {
	return isDefaultStorageClass(obj) ? 'Yes' : 'No';
}

/** describeStorageClass. */
export function describeStorageClass(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const sc = obj as KubeObject & { provisioner?: string; parameters?: Record<string, string>; allowVolumeExpansion?: boolean; mountOptions?: string[]; reclaimPolicy?: string; volumeBindingMode?: string; allowedTopologies?: Json[] };
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${sc.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `IsDefaultClass:\t${isDefaultText(sc)}\n`);
	w.write(LEVEL_0, `Annotations:\t${formatLabels(sc.metadata.annotations)}\n`);
	w.write(LEVEL_0, `Provisioner:\t${sc.provisioner ?? ''}\n`);
	w.write(LEVEL_0, `Parameters:\t${formatLabels(sc.parameters)}\n`);
	w.write(LEVEL_0, `AllowVolumeExpansion:\t${sc.allowVolumeExpansion === undefined ? '<unset>' : sc.allowVolumeExpansion ? 'True' : 'False'}\n`);
	if (!sc.mountOptions?.length) w.write(LEVEL_0, 'MountOptions:\t<none>\n');
	else {
		w.write(LEVEL_0, 'MountOptions:\n');
		for (const option of sc.mountOptions) w.write(LEVEL_1, `${option}\n`);
	}
	if (sc.reclaimPolicy !== undefined) w.write(LEVEL_0, `ReclaimPolicy:\t${sc.reclaimPolicy}\n`);
	if (sc.volumeBindingMode !== undefined) w.write(LEVEL_0, `VolumeBindingMode:\t${sc.volumeBindingMode}\n`);
	if (sc.allowedTopologies !== undefined) {
		// printAllowedTopologies: one term a line, each key's values joined by commas.
		w.write(LEVEL_0, 'AllowedTopologies:\t');
		if (sc.allowedTopologies.length === 0) w.write(LEVEL_0, '<none>\n');
		else {
			w.write(LEVEL_0, '\n');
			sc.allowedTopologies.forEach((term, i) => {
				const expressions = (term.matchLabelExpressions as Json[] | undefined) ?? [];
				w.write(LEVEL_1, `Term ${i}:\t${expressions.map((e) => `${String(e.key)} in [${((e.values as string[] | undefined) ?? []).join(', ')}]`).join('\n')}\n`);
			});
		}
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
