/**
 * `kubectl describe` for the workload controllers: deployments (with their
 * old and new ReplicaSets), replicasets, replicationcontrollers, daemonsets, statefulsets, jobs and
 * cronjobs, with the `Pods Status` count of the pods each one controls.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (describeDeployment, printReplicaSetsByLabels, describeReplicaSet,
 * describeReplicationController,
 * describeDaemonSet, describeStatefulSet, describeJob, describeCronJob,
 * describeJobTemplate, getPodStatusForController),
 * staging/src/k8s.io/kubectl/pkg/util/deployment/deployment.go
 * (GetAllReplicaSetsInChunks, findNewReplicaSet, equalIgnoreHash).
 */
import type { DaemonSet, Deployment, Job, KubeList, KubeObject, LabelSelector, Pod, PodTemplateSpec, ReplicaSet, StatefulSet } from '../../api/types.ts';
import { formatLabels, formatLabelSelector, labelSelectorFromObject, selectorToString, SelectorError } from '../../api/labels.ts';
import { humanDuration } from '../../api/duration.ts';
import { R } from '../../client/client.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { apiErrorMessage } from '../resource-args.ts';
import { LEVEL_0, LEVEL_1, PrefixWriter } from './prefix-writer.ts';
import { printAnnotationsMultiline, printController, printLabelsMultiline, rfc1123z, type DescribeContext, type DescribeResult } from './helpers.ts';
import { describePodTemplate } from './containers.ts';
import { describeEvents, eventsFor } from './events.ts';
import { deepCopy } from '../../golang/json.ts';

type Json = Record<string, unknown>;

/** The label the deployment controller adds to tell its ReplicaSets apart (apps/v1 DefaultDeploymentUniqueLabelKey). */
const POD_TEMPLATE_HASH = 'pod-template-hash';

/** LabelSelectorAsSelector(...).String(), or the conversion error. */
function selectorText(selector: LabelSelector | undefined): { ok: true; text: string } | { ok: false; error: string } {
	try {
		return { ok: true, text: selectorToString(labelSelectorFromObject(selector)) };
	} catch (e) {
		if (e instanceof SelectorError) return { ok: false, error: e.message };
		throw e;
	}
}

/** getPodStatusForController: Running / Pending / Succeeded / Failed counts of the pods the controller owns. */
function podStatusForController(ctx: DescribeContext, namespace: string | undefined, selector: string, uid: string | undefined): { ok: true; counts: [number, number, number, number] } | { ok: false; error: string } {
	const query = selector ? { labelSelector: selector } : {};
	const listed = ctx.client.list<Pod>(R.pods, namespace, query);
	if (!listed.ok) return { ok: false, error: apiErrorMessage(listed, ctx.serverUrl) };
	const counts: [number, number, number, number] = [0, 0, 0, 0];
	for (const pod of (listed.object as KubeList<Pod>).items ?? []) {
		const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller === true);
		// Orphans and pods of other controllers do not count.
		if (!owner || owner.uid !== uid) continue;
		const index = ['Running', 'Pending', 'Succeeded', 'Failed'].indexOf(pod.status?.phase ?? '');
		if (index >= 0) counts[index]++;
	}
	return { ok: true, counts };
}

const podsStatus = ([running, waiting, succeeded, failed]: [number, number, number, number]) => `${running} Running / ${waiting} Waiting / ${succeeded} Succeeded / ${failed} Failed`;

/** apiequality.Semantic.DeepEqual on JSON: missing, null, empty objects and empty arrays are all equal. */
function semanticEqual(a: unknown, b: unknown): boolean {
	const empty = (v: unknown) => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0);
	if (empty(a) && empty(b)) return true;
	if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
	if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && !Array.isArray(a) && !Array.isArray(b)) {
		const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
		return [...keys].every((k) => semanticEqual((a as Json)[k], (b as Json)[k]));
	}
	return a === b;
}

/** equalIgnoreHash: two pod templates equal once the pod-template-hash label is dropped from both. */
function equalIgnoreHash(t1: PodTemplateSpec | undefined, t2: PodTemplateSpec | undefined): boolean {
	const strip = (t: PodTemplateSpec | undefined) => {
		const copy = deepCopy(t ?? {}) as PodTemplateSpec;
		if (copy.metadata?.labels) delete copy.metadata.labels[POD_TEMPLATE_HASH];
		return copy;
	};
	return semanticEqual(strip(t1), strip(t2));
}

/** printReplicaSetsByLabels: `name (current/desired replicas created)`, comma-joined, `<none>` when there are none. */
function replicaSetsText(list: readonly ReplicaSet[]): string {
	return list.map((rs) => `${rs.metadata.name} (${rs.status?.replicas ?? 0}/${rs.spec?.replicas ?? 1} replicas created)`).join(', ') || '<none>';
}

/** describeDeployment. */
export function describeDeployment(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const d = obj as Deployment;
	const selector = selectorText(d.spec?.selector);
	if (!selector.ok) return { ok: false, error: selector.error };
	const events = eventsFor(d, ctx);
	// GetAllReplicaSetsInChunks: the ReplicaSets the deployment controls; the new one matches its template.
	let oldRSs: ReplicaSet[] = [];
	let newRS: ReplicaSet | undefined;
	const listed = ctx.client.list<ReplicaSet>(R.replicasets, d.metadata.namespace, selector.text ? { labelSelector: selector.text } : {});
	if (listed.ok) {
		const owned = ((listed.object as KubeList<ReplicaSet>).items ?? []).filter((rs) => (rs.metadata.ownerReferences ?? []).some((o) => o.controller === true && o.uid === d.metadata.uid));
		const byAge = [...owned].sort((a, b) => {
			const ta = parseRfc3339(a.metadata.creationTimestamp ?? '');
			const tb = parseRfc3339(b.metadata.creationTimestamp ?? '');
			return ta !== tb ? ta - tb : (a.metadata.name ?? '') < (b.metadata.name ?? '') ? -1 : 1;
		});
		newRS = byAge.find((rs) => equalIgnoreHash(rs.spec?.template, d.spec?.template));
		oldRSs = byAge.filter((rs) => rs !== newRS);
	}
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${d.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${d.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(d.metadata.creationTimestamp)}\n`);
	printLabelsMultiline(w, 'Labels', d.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', d.metadata.annotations);
	w.write(LEVEL_0, `Selector:\t${selector.text}\n`);
	const s = d.status ?? {};
	w.write(LEVEL_0, `Replicas:\t${d.spec?.replicas ?? 1} desired | ${s.updatedReplicas ?? 0} updated | ${s.replicas ?? 0} total | ${s.availableReplicas ?? 0} available | ${s.unavailableReplicas ?? 0} unavailable\n`);
	w.write(LEVEL_0, `StrategyType:\t${d.spec?.strategy?.type ?? ''}\n`);
	w.write(LEVEL_0, `MinReadySeconds:\t${d.spec?.minReadySeconds ?? 0}\n`);
	const ru = d.spec?.strategy?.rollingUpdate;
	if (ru) {
		// IntOrString.String of a nil pointer.
		const text = (v: number | string | undefined) => (v === undefined ? '<nil>' : String(v));
		w.write(LEVEL_0, `RollingUpdateStrategy:\t${text(ru.maxUnavailable)} max unavailable, ${text(ru.maxSurge)} max surge\n`);
	}
	describePodTemplate(d.spec?.template, w);
	if (s.conditions?.length) {
		w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
		w.write(LEVEL_1, '----\t------\t------\n');
		for (const c of s.conditions) w.write(LEVEL_1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
	}
	if (oldRSs.length > 0 || newRS) {
		w.write(LEVEL_0, `OldReplicaSets:\t${replicaSetsText(oldRSs)}\n`);
		w.write(LEVEL_0, `NewReplicaSet:\t${replicaSetsText(newRS ? [newRS] : [])}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeReplicaSet. */
export function describeReplicaSet(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const rs = obj as ReplicaSet;
	const selector = selectorText(rs.spec?.selector);
	if (!selector.ok) return { ok: false, error: selector.error };
	const pods = podStatusForController(ctx, rs.metadata.namespace, selector.text, rs.metadata.uid);
	const events = eventsFor(rs, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${rs.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${rs.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `Selector:\t${formatLabelSelector(rs.spec?.selector)}\n`);
	printLabelsMultiline(w, 'Labels', rs.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', rs.metadata.annotations);
	const controlledBy = printController(rs);
	if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
	w.write(LEVEL_0, `Replicas:\t${rs.status?.replicas ?? 0} current / ${rs.spec?.replicas ?? 1} desired\n`);
	w.write(LEVEL_0, 'Pods Status:\t');
	w.write(LEVEL_0, pods.ok ? `${podsStatus(pods.counts)}\n` : `error in fetching pods: ${pods.error}\n`);
	describePodTemplate(rs.spec?.template, w);
	const conditions = rs.status?.conditions ?? [];
	if (conditions.length) {
		w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
		w.write(LEVEL_1, '----\t------\t------\n');
		for (const c of conditions) w.write(LEVEL_1, `${c.type} \t${c.status}\t${c.reason ?? ''}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeReplicationController: like a ReplicaSet's, its selector a plain label set. */
export function describeReplicationController(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as { selector?: Record<string, string>; replicas?: number; template?: PodTemplateSpec };
	const status = (obj.status ?? {}) as { replicas?: number; conditions?: Array<{ type?: string; status?: string; reason?: string }> };
	const selector = formatLabels(spec.selector);
	const pods = podStatusForController(ctx, obj.metadata.namespace, selector === '<none>' ? '' : selector, obj.metadata.uid);
	if (!pods.ok) return { ok: false, error: pods.error };
	const events = eventsFor(obj, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `Selector:\t${selector}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `Replicas:\t${status.replicas ?? 0} current / ${spec.replicas ?? 1} desired\n`);
	w.write(LEVEL_0, `Pods Status:\t${podsStatus(pods.counts)}\n`);
	describePodTemplate(spec.template, w);
	if (status.conditions?.length) {
		w.write(LEVEL_0, 'Conditions:\n  Type\tStatus\tReason\n');
		w.write(LEVEL_1, '----\t------\t------\n');
		for (const c of status.conditions) w.write(LEVEL_1, `${c.type ?? ''} \t${c.status ?? ''}\t${c.reason ?? ''}\n`);
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeDaemonSet. */
export function describeDaemonSet(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const ds = obj as DaemonSet;
	const selector = selectorText(ds.spec?.selector);
	if (!selector.ok) return { ok: false, error: selector.error };
	const pods = podStatusForController(ctx, ds.metadata.namespace, selector.text, ds.metadata.uid);
	if (!pods.ok) return { ok: false, error: pods.error };
	const events = eventsFor(ds, ctx);
	const s = ds.status;
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${ds.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${ds.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `Selector:\t${selector.text}\n`);
	w.write(LEVEL_0, `Node-Selector:\t${formatLabels(ds.spec?.template?.spec?.nodeSelector)}\n`);
	printLabelsMultiline(w, 'Labels', ds.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', ds.metadata.annotations);
	w.write(LEVEL_0, `Desired Number of Nodes Scheduled: ${s?.desiredNumberScheduled ?? 0}\n`);
	w.write(LEVEL_0, `Current Number of Nodes Scheduled: ${s?.currentNumberScheduled ?? 0}\n`);
	w.write(LEVEL_0, `Number of Nodes Scheduled with Up-to-date Pods: ${s?.updatedNumberScheduled ?? 0}\n`);
	w.write(LEVEL_0, `Number of Nodes Scheduled with Available Pods: ${s?.numberAvailable ?? 0}\n`);
	w.write(LEVEL_0, `Number of Nodes Misscheduled: ${s?.numberMisscheduled ?? 0}\n`);
	w.write(LEVEL_0, `Pods Status:\t${podsStatus(pods.counts)}\n`);
	describePodTemplate(ds.spec?.template, w);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeVolumeClaimTemplates. */
function describeVolumeClaimTemplates(templates: readonly Json[] | undefined, w: PrefixWriter): void {
	if (!templates?.length) {
		w.write(LEVEL_0, 'Volume Claims:\t<none>\n');
		return;
	}
	w.write(LEVEL_0, 'Volume Claims:\n');
	for (const pvc of templates) {
		const meta = (pvc.metadata ?? {}) as { name?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
		const spec = (pvc.spec ?? {}) as { storageClassName?: string; accessModes?: string[]; resources?: { requests?: Record<string, string> } };
		w.write(LEVEL_1, `Name:\t${meta.name ?? ''}\n`);
		w.write(LEVEL_1, `StorageClass:\t${spec.storageClassName ?? meta.annotations?.['volume.beta.kubernetes.io/storage-class'] ?? ''}\n`);
		printLabelsMultiline(w, 'Labels', meta.labels, '  ', '\t');
		printLabelsMultiline(w, 'Annotations', meta.annotations, '  ', '\t');
		const storage = spec.resources?.requests?.storage;
		w.write(LEVEL_1, `Capacity:\t${storage ?? '<default>'}\n`);
		w.write(LEVEL_1, `Access Modes:\t[${(spec.accessModes ?? []).join(' ')}]\n`);
	}
}

/** describeStatefulSet. */
export function describeStatefulSet(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const sts = obj as StatefulSet;
	const selector = selectorText(sts.spec?.selector);
	if (!selector.ok) return { ok: false, error: selector.error };
	const pods = podStatusForController(ctx, sts.metadata.namespace, selector.text, sts.metadata.uid);
	if (!pods.ok) return { ok: false, error: pods.error };
	const events = eventsFor(sts, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${sts.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${sts.metadata.namespace ?? ''}\n`);
	w.write(LEVEL_0, `CreationTimestamp:\t${rfc1123z(sts.metadata.creationTimestamp)}\n`);
	w.write(LEVEL_0, `Selector:\t${selector.text}\n`);
	printLabelsMultiline(w, 'Labels', sts.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', sts.metadata.annotations);
	w.write(LEVEL_0, `Replicas:\t${sts.spec?.replicas ?? 1} desired | ${sts.status?.replicas ?? 0} total\n`);
	const strategy = (sts.spec?.updateStrategy ?? {}) as { type?: string; rollingUpdate?: { partition?: number; maxUnavailable?: number | string } };
	w.write(LEVEL_0, `Update Strategy:\t${strategy.type ?? ''}\n`);
	const ru = strategy.rollingUpdate;
	if (ru && ru.partition !== undefined) {
		w.write(LEVEL_1, `Partition:\t${ru.partition}\n`);
		if (ru.maxUnavailable !== undefined) w.write(LEVEL_1, `MaxUnavailable:\t${ru.maxUnavailable}\n`);
	}
	w.write(LEVEL_0, `Pods Status:\t${podsStatus(pods.counts)}\n`);
	describePodTemplate(sts.spec?.template, w);
	describeVolumeClaimTemplates(sts.spec?.volumeClaimTemplates, w);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** capIndexesListOrNone: completed indexes cut after the first comma past 50 characters. */
function capIndexes(indexes: string | undefined, softLimit: number): string {
	if (!indexes) return '<none>';
	let ix = softLimit;
	for (; ix < indexes.length; ix++) if (indexes[ix] === ',') break;
	return ix >= indexes.length ? indexes : `${indexes.slice(0, ix + 1)}...`;
}

/** describeJob. */
export function describeJob(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const job = obj as Job;
	const spec = job.spec ?? ({} as Job['spec']);
	const status = job.status ?? {};
	const events = eventsFor(job, ctx);
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${job.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${job.metadata.namespace ?? ''}\n`);
	const selector = selectorText(spec.selector);
	w.write(LEVEL_0, selector.ok ? `Selector:\t${selector.text}\n` : `Selector:\tFailed to get selector: ${selector.error}\n`);
	printLabelsMultiline(w, 'Labels', job.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', job.metadata.annotations);
	const controlledBy = printController(job);
	if (controlledBy) w.write(LEVEL_0, `Controlled By:\t${controlledBy}\n`);
	if (spec.parallelism !== undefined) w.write(LEVEL_0, `Parallelism:\t${spec.parallelism}\n`);
	w.write(LEVEL_0, spec.completions !== undefined ? `Completions:\t${spec.completions}\n` : 'Completions:\t<unset>\n');
	if (spec.completionMode) w.write(LEVEL_0, `Completion Mode:\t${spec.completionMode}\n`);
	if (spec.suspend !== undefined) w.write(LEVEL_0, `Suspend:\t${spec.suspend}\n`);
	if (spec.backoffLimit !== undefined) w.write(LEVEL_0, `Backoff Limit:\t${spec.backoffLimit}\n`);
	if (spec.ttlSecondsAfterFinished !== undefined) w.write(LEVEL_0, `TTL Seconds After Finished:\t${spec.ttlSecondsAfterFinished}\n`);
	if (status.startTime) w.write(LEVEL_0, `Start Time:\t${rfc1123z(status.startTime)}\n`);
	if (status.completionTime) w.write(LEVEL_0, `Completed At:\t${rfc1123z(status.completionTime)}\n`);
	if (status.startTime && status.completionTime) w.write(LEVEL_0, `Duration:\t${humanDuration(parseRfc3339(status.completionTime) - parseRfc3339(status.startTime))}\n`);
	if (spec.activeDeadlineSeconds !== undefined) w.write(LEVEL_0, `Active Deadline Seconds:\t${spec.activeDeadlineSeconds}s\n`);
	const ready = status.ready as number | undefined;
	w.write(
		LEVEL_0,
		ready === undefined
			? `Pods Statuses:\t${status.active ?? 0} Active / ${status.succeeded ?? 0} Succeeded / ${status.failed ?? 0} Failed\n`
			: `Pods Statuses:\t${status.active ?? 0} Active (${ready} Ready) / ${status.succeeded ?? 0} Succeeded / ${status.failed ?? 0} Failed\n`,
	);
	// describe.go caps the completed indexes list at 50 characters.
	if (spec.completionMode === 'Indexed') w.write(LEVEL_0, `Completed Indexes:\t${capIndexes(status.completedIndexes as string | undefined, 50)}\n`);
	describePodTemplate(spec.template, w);
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}

/** describeCronJob. */
export function describeCronJob(obj: KubeObject, ctx: DescribeContext): DescribeResult {
	const spec = (obj.spec ?? {}) as Json & { jobTemplate?: { spec?: Job['spec'] } };
	const status = (obj.status ?? {}) as { lastScheduleTime?: string; active?: Array<{ name?: string }> };
	const events = eventsFor(obj, ctx);
	const orUnset = (v: unknown) => (v === undefined || v === null ? '<unset>' : String(v));
	const w = new PrefixWriter();
	w.write(LEVEL_0, `Name:\t${obj.metadata.name ?? ''}\n`);
	w.write(LEVEL_0, `Namespace:\t${obj.metadata.namespace ?? ''}\n`);
	printLabelsMultiline(w, 'Labels', obj.metadata.labels);
	printAnnotationsMultiline(w, 'Annotations', obj.metadata.annotations);
	w.write(LEVEL_0, `Schedule:\t${String(spec.schedule ?? '')}\n`);
	w.write(LEVEL_0, `Concurrency Policy:\t${String(spec.concurrencyPolicy ?? '')}\n`);
	w.write(LEVEL_0, `Suspend:\t${spec.suspend === undefined ? '<unset>' : spec.suspend ? 'True' : 'False'}\n`);
	w.write(LEVEL_0, `Time Zone:\t${orUnset(spec.timeZone)}\n`);
	w.write(LEVEL_0, `Successful Job History Limit:\t${orUnset(spec.successfulJobsHistoryLimit)}\n`);
	w.write(LEVEL_0, `Failed Job History Limit:\t${orUnset(spec.failedJobsHistoryLimit)}\n`);
	w.write(LEVEL_0, `Starting Deadline Seconds:\t${spec.startingDeadlineSeconds === undefined ? '<unset>' : `${String(spec.startingDeadlineSeconds)}s`}\n`);
	const jobSpec = spec.jobTemplate?.spec;
	if (jobSpec?.selector) {
		const selector = selectorText(jobSpec.selector);
		w.write(LEVEL_0, selector.ok ? `Selector:\t${selector.text}\n` : `Selector:\tFailed to get selector: ${selector.error}\n`);
	} else w.write(LEVEL_0, 'Selector:\t<unset>\n');
	w.write(LEVEL_0, `Parallelism:\t${orUnset(jobSpec?.parallelism)}\n`);
	w.write(LEVEL_0, `Completions:\t${orUnset(jobSpec?.completions)}\n`);
	if (jobSpec?.activeDeadlineSeconds !== undefined) w.write(LEVEL_0, `Active Deadline Seconds:\t${jobSpec.activeDeadlineSeconds}s\n`);
	describePodTemplate(jobSpec?.template, w);
	w.write(LEVEL_0, `Last Schedule Time:\t${status.lastScheduleTime ? rfc1123z(status.lastScheduleTime) : '<unset>'}\n`);
	w.write(LEVEL_0, 'Active Jobs:\t');
	const active = status.active ?? [];
	if (active.length === 0) w.writeLine('<none>');
	else {
		w.write(LEVEL_0, active.map((j) => j.name ?? '').join(', '));
		w.writeLine('');
	}
	if (events) describeEvents(events, w, ctx.nowMs);
	return { ok: true, text: w.toString() };
}
