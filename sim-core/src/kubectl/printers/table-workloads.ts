/**
 * Rows of the workload controllers in `kubectl get`: deployments,
 * replicasets, daemonsets, statefulsets, their controllerrevisions, jobs
 * and cronjobs, as the API server prints them (printDeployment,
 * printReplicaSet, printDaemonSet, printStatefulSet,
 * printControllerRevision, printJob, printCronJob).
 *
 * Mirrors pkg/printers/internalversion/printers.go (printDeployment,
 * printReplicaSet, printDaemonSet, printStatefulSet,
 * printControllerRevision, printJob, printCronJob).
 */
import type { ControllerRevision, DaemonSet, Deployment, Job, KubeObject, LabelSelector, PodTemplateSpec, ReplicaSet, StatefulSet } from '../../api/types.ts';
import { formatLabels, formatLabelSelector, labelSelectorFromObject, selectorToString, SelectorError } from '../../api/labels.ts';
import { humanDuration } from '../../api/duration.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { columns, int, layoutContainerCells, templateContainers, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

// spec.replicas reads as 1 when unset: the API server prints from objects it has defaulted (SetDefaults_Deployment and kin).

/** printDeployment's SELECTOR: LabelSelectorAsSelector(...).String(), `<invalid>` when it does not convert. */
function selectorString(selector: LabelSelector | undefined): string {
	try {
		return selectorToString(labelSelectorFromObject(selector));
	} catch (e) {
		if (e instanceof SelectorError) return '<invalid>';
		throw e;
	}
}

/** `kubectl get deployments`: NAME READY UP-TO-DATE AVAILABLE AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const DEPLOYMENT_TABLE: TableDefinition = {
	columns: columns('Name', 'Ready', 'Up-to-date', 'Available', 'Age', 'Containers*', 'Images*', 'Selector*'),
	row(obj, ctx) {
		const d = obj as Deployment;
		const [names, images] = layoutContainerCells(templateContainers(d.spec?.template));
		return [d.metadata.name ?? '', `${int(d.status?.readyReplicas)}/${int(d.spec?.replicas ?? 1)}`, int(d.status?.updatedReplicas), int(d.status?.availableReplicas), age(d, ctx), names, images, selectorString(d.spec?.selector)];
	},
};

/** `kubectl get rs`: NAME DESIRED CURRENT READY AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const REPLICASET_TABLE: TableDefinition = {
	columns: columns('Name', 'Desired', 'Current', 'Ready', 'Age', 'Containers*', 'Images*', 'Selector*'),
	row(obj, ctx) {
		const rs = obj as ReplicaSet;
		const [names, images] = layoutContainerCells(templateContainers(rs.spec?.template));
		return [rs.metadata.name ?? '', int(rs.spec?.replicas ?? 1), int(rs.status?.replicas), int(rs.status?.readyReplicas), age(rs, ctx), names, images, formatLabelSelector(rs.spec?.selector)];
	},
};

/** `kubectl get ds`: NAME DESIRED CURRENT READY UP-TO-DATE AVAILABLE NODE SELECTOR AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const DAEMONSET_TABLE: TableDefinition = {
	columns: columns('Name', 'Desired', 'Current', 'Ready', 'Up-to-date', 'Available', 'Node Selector', 'Age', 'Containers*', 'Images*', 'Selector*'),
	row(obj, ctx) {
		const ds = obj as DaemonSet;
		const s = ds.status;
		const [names, images] = layoutContainerCells(templateContainers(ds.spec?.template));
		return [
			ds.metadata.name ?? '',
			int(s?.desiredNumberScheduled),
			int(s?.currentNumberScheduled),
			int(s?.numberReady),
			int(s?.updatedNumberScheduled),
			int(s?.numberAvailable),
			formatLabels(ds.spec?.template?.spec?.nodeSelector),
			age(ds, ctx),
			names,
			images,
			formatLabelSelector(ds.spec?.selector),
		];
	},
};

/** `kubectl get sts`: NAME READY AGE, wide: CONTAINERS IMAGES. */
export const STATEFULSET_TABLE: TableDefinition = {
	columns: columns('Name', 'Ready', 'Age', 'Containers*', 'Images*'),
	row(obj, ctx) {
		const sts = obj as StatefulSet;
		const [names, images] = layoutContainerCells(templateContainers(sts.spec?.template));
		return [sts.metadata.name ?? '', `${int(sts.status?.readyReplicas)}/${int(sts.spec?.replicas ?? 1)}`, age(sts, ctx), names, images];
	},
};

/**
 * `kubectl get controllerrevisions`: NAME CONTROLLER REVISION AGE. CONTROLLER
 * is the controller reference as formatResourceName writes it with its kind
 * (`statefulset.apps/web`), or `<none>`.
 */
export const CONTROLLERREVISION_TABLE: TableDefinition = {
	columns: columns('Name', 'Controller', 'Revision', 'Age'),
	row(obj, ctx) {
		const cr = obj as ControllerRevision;
		const ref = cr.metadata.ownerReferences?.find((r) => r.controller === true);
		let controller = '<none>';
		if (ref) {
			const slash = ref.apiVersion.indexOf('/');
			const group = slash < 0 ? '' : ref.apiVersion.slice(0, slash);
			controller = `${(group ? `${ref.kind}.${group}` : ref.kind).toLowerCase()}/${ref.name}`;
		}
		return [cr.metadata.name ?? '', controller, String(cr.revision ?? 0), age(cr, ctx)];
	},
};

/** printers.go hasJobCondition: the first condition of that type, if True. */
function hasJobCondition(job: Job, type: string): boolean {
	const condition = ((job.status?.conditions ?? []) as Array<{ type?: string; status?: string }>).find((c) => c.type === type);
	return condition?.status === 'True';
}

/** printJob's STATUS: Complete, Failed, Terminating, Suspended, FailureTarget or Running, in that order of precedence. */
function jobStatus(job: Job): string {
	if (hasJobCondition(job, 'Complete')) return 'Complete';
	if (hasJobCondition(job, 'Failed')) return 'Failed';
	if (job.metadata.deletionTimestamp) return 'Terminating';
	if (hasJobCondition(job, 'Suspended')) return 'Suspended';
	if (hasJobCondition(job, 'FailureTarget')) return 'FailureTarget';
	return 'Running';
}

/** printJob's COMPLETIONS: `1/3`, or without completions `0/1`, or `0/1 of 4` when parallelism is above one. */
function jobCompletions(job: Job): string {
	const succeeded = int(job.status?.succeeded);
	if (typeof job.spec?.completions === 'number') return `${succeeded}/${job.spec.completions}`;
	const parallelism = job.spec?.parallelism ?? 0;
	return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** printJob's DURATION: empty before the start, time since start while running, start to completion after. */
function jobDuration(job: Job, nowMs: number): string {
	const start = job.status?.startTime ? parseRfc3339(job.status.startTime) : Number.NaN;
	if (Number.isNaN(start)) return '';
	const done = job.status?.completionTime ? parseRfc3339(job.status.completionTime) : Number.NaN;
	return humanDuration((Number.isNaN(done) ? nowMs : done) - start);
}

/** `kubectl get jobs`: NAME STATUS COMPLETIONS DURATION AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const JOB_TABLE: TableDefinition = {
	columns: columns('Name', 'Status', 'Completions', 'Duration', 'Age', 'Containers*', 'Images*', 'Selector*'),
	row(obj, ctx) {
		const job = obj as Job;
		const [names, images] = layoutContainerCells(templateContainers(job.spec?.template));
		return [job.metadata.name ?? '', jobStatus(job), jobCompletions(job), jobDuration(job, ctx.nowMs), age(job, ctx), names, images, formatLabelSelector(job.spec?.selector)];
	},
};

/** The CronJob fields the printer reads (batch/v1 CronJob). */
interface CronJob extends KubeObject {
	spec?: { schedule?: string; timeZone?: string; suspend?: boolean; jobTemplate?: { spec?: { selector?: LabelSelector; template?: PodTemplateSpec } } };
	status?: { active?: unknown[]; lastScheduleTime?: string };
}

/** printers.go printBoolPtr: True, False or `<unset>`. */
function printBoolPtr(value: boolean | undefined): string {
	if (value === undefined) return '<unset>';
	return value ? 'True' : 'False';
}

/** `kubectl get cj`: NAME SCHEDULE TIMEZONE SUSPEND ACTIVE LAST SCHEDULE AGE, wide: CONTAINERS IMAGES SELECTOR. */
export const CRONJOB_TABLE: TableDefinition = {
	columns: columns('Name', 'Schedule', 'Timezone', 'Suspend', 'Active', 'Last Schedule', 'Age', 'Containers*', 'Images*', 'Selector*'),
	row(obj, ctx) {
		const cj = obj as CronJob;
		const last = cj.status?.lastScheduleTime ? translateTimestampSince(cj.status.lastScheduleTime, ctx.nowMs) : '<none>';
		const template = cj.spec?.jobTemplate?.spec;
		const [names, images] = layoutContainerCells(templateContainers(template?.template));
		return [
			cj.metadata.name ?? '',
			cj.spec?.schedule ?? '',
			cj.spec?.timeZone ?? '<none>',
			printBoolPtr(cj.spec?.suspend),
			String((cj.status?.active ?? []).length),
			last,
			age(cj, ctx),
			names,
			images,
			formatLabelSelector(template?.selector),
		];
	},
};
