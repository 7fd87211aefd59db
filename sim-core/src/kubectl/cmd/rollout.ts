/**
 * `kubectl rollout status|history|undo|restart|pause|resume`.
 *
 * - status watches the object and prints the status viewer's line on every
 *   change (`Waiting for deployment "nginx" rollout to finish: 1 of 3
 *   updated replicas are available...`) until `successfully rolled out`.
 *   Upstream waits forever by default; here a wait without --timeout stops
 *   after ROLLOUT_STATUS_CAP_MS of virtual time, past the 600s progress
 *   deadline after which the deployment controller reports failure anyway.
 * - history lists the revisions of the Deployment's ReplicaSets
 *   (`deployment.kubernetes.io/revision`, `kubernetes.io/change-cause`),
 *   or of the StatefulSet's or DaemonSet's ControllerRevisions (`revision`, the
 *   change-cause annotation the controller copied from its owner);
 *   `--revision=N` describes that revision's pod template.
 * - undo copies the chosen ReplicaSet's pod template back into the
 *   Deployment with a JSON patch, as modern kubectl does; for a
 *   StatefulSet or a DaemonSet it sends the chosen ControllerRevision's data (the template
 *   with `$patch: replace`) as a strategic merge patch.
 * - restart sets the `kubectl.kubernetes.io/restartedAt` template
 *   annotation; pause and resume set `spec.paused`.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_status.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_history.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_undo.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_restart.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_pause.go,
 * staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout_resume.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollout_status.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/history.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/rollback.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/objectpauser.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/objectresumer.go,
 * staging/src/k8s.io/kubectl/pkg/polymorphichelpers/objectrestarter.go.
 */
import type { KubeList, KubeObject } from '../../api/types.ts';
import { compactJson, isJsonObject, jsonEqual, type JsonObject, type JsonValue } from '../../golang/json.ts';
import { formatLabelSelector } from '../../api/labels.ts';
import { formatRfc3339 } from '../../golang/time.ts';
import { R, refOf } from '../../client/client.ts';
import type { WatchEvent } from '../../api/request.ts';
import type { FlagSpec } from '../flags.ts';
import type { KubectlCommand, KubectlInvocation } from '../kubectl.ts';
import { kindQualifier } from '../names.ts';
import { callError, checkErr, plain, wrap, type KubectlError } from './check-err.ts';
import { durationFlag } from './delete.ts';
import { DRY_RUN_FLAG, PRINT_FLAGS, dryRunStrategy, toPrinter, withDryRun, type DryRunStrategy } from './print-flags.ts';
import { objectName, type TargetInfo } from './resource-info.ts';
import { deepCopy } from '../../golang/json.ts';
import { unionFlags, type Subcommand } from './subcommand.ts';
import { runParent } from './help.ts';
import { visit } from './visit.ts';
import type { CommandResult } from '../../shell/types.ts';
import { LAST_APPLIED_ANNOTATION } from './apply.ts';
import { parseInt64 } from '../../golang/strconv.ts';

/** The longest `kubectl rollout status` without --timeout runs the virtual clock: 15 minutes (upstream: forever). */
const ROLLOUT_STATUS_CAP_MS = 15 * 60_000;

/** deploymentutil annotations (k8s.io/kubectl/pkg/util/deployment). */
const REVISION_ANNOTATION = 'deployment.kubernetes.io/revision';
const CHANGE_CAUSE_ANNOTATION = 'kubernetes.io/change-cause';
const POD_TEMPLATE_HASH = 'pod-template-hash';
/** Kept from the Deployment, never copied from the ReplicaSet, on undo (rollback.go annotationsToSkip). */
const ANNOTATIONS_TO_SKIP = [LAST_APPLIED_ANNOTATION, REVISION_ANNOTATION, 'deployment.kubernetes.io/revision-history', 'deployment.kubernetes.io/desired-replicas', 'deployment.kubernetes.io/max-replicas', 'deprecated.deployment.rollback.to'];

const RESOURCE_FLAGS: FlagSpec[] = [
	{ name: 'filename', short: 'f', kind: 'stringArray' },
	{ name: 'recursive', short: 'R', kind: 'bool' },
	{ name: 'kustomize', short: 'k', kind: 'string' },
	{ name: 'selector', short: 'l', kind: 'string' },
];

type Obj = KubeObject & { spec?: Record<string, unknown>; status?: Record<string, unknown> };

const num = (value: unknown): number => (typeof value === 'number' ? value : 0);

/**
 * The status viewers (rollout_status.go): the line to print, whether the
 * rollout is done, or an error that ends the wait.
 */
function rolloutStatus(obj: Obj, revision: number): { message: string; done: boolean } | { error: KubectlError } {
	const spec = obj.spec ?? {};
	const status = obj.status ?? {};
	const name = obj.metadata.name;
	const generation = num(obj.metadata.generation);
	switch (obj.kind) {
		case 'Deployment': {
			if (revision > 0) {
				// deploymentutil.Revision: a missing annotation is revision 0.
				const text = obj.metadata.annotations?.[REVISION_ANNOTATION];
				const current = text === undefined ? 0n : parseInt64(text);
				if (current === undefined) return { error: plain(`cannot get the revision of deployment ${JSON.stringify(name)}: strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`) };
				if (current !== BigInt(revision)) return { error: plain(`desired revision (${revision}) is different from the running revision (${current})`) };
			}
			if (generation <= num(status.observedGeneration)) {
				const conditions = (status.conditions as Array<{ type?: string; reason?: string }> | undefined) ?? [];
				if (conditions.some((c) => c.type === 'Progressing' && c.reason === 'ProgressDeadlineExceeded')) return { error: plain(`deployment ${JSON.stringify(name)} exceeded its progress deadline`) };
				const replicas = spec.replicas;
				const updated = num(status.updatedReplicas);
				if (typeof replicas === 'number' && updated < replicas) return { message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${updated} out of ${replicas} new replicas have been updated...\n`, done: false };
				if (num(status.replicas) > updated) return { message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${num(status.replicas) - updated} old replicas are pending termination...\n`, done: false };
				if (num(status.availableReplicas) < updated) return { message: `Waiting for deployment ${JSON.stringify(name)} rollout to finish: ${num(status.availableReplicas)} of ${updated} updated replicas are available...\n`, done: false };
				return { message: `deployment ${JSON.stringify(name)} successfully rolled out\n`, done: true };
			}
			return { message: 'Waiting for deployment spec update to be observed...\n', done: false };
		}
		case 'DaemonSet': {
			if (((spec.updateStrategy as { type?: string } | undefined)?.type ?? 'RollingUpdate') !== 'RollingUpdate') return { error: plain('rollout status is only available for RollingUpdate strategy type') };
			if (generation <= num(status.observedGeneration)) {
				if (num(status.updatedNumberScheduled) < num(status.desiredNumberScheduled)) return { message: `Waiting for daemon set ${JSON.stringify(name)} rollout to finish: ${num(status.updatedNumberScheduled)} out of ${num(status.desiredNumberScheduled)} new pods have been updated...\n`, done: false };
				if (num(status.numberAvailable) < num(status.desiredNumberScheduled)) return { message: `Waiting for daemon set ${JSON.stringify(name)} rollout to finish: ${num(status.numberAvailable)} of ${num(status.desiredNumberScheduled)} updated pods are available...\n`, done: false };
				return { message: `daemon set ${JSON.stringify(name)} successfully rolled out\n`, done: true };
			}
			return { message: 'Waiting for daemon set spec update to be observed...\n', done: false };
		}
		case 'StatefulSet': {
			const strategy = (spec.updateStrategy as { type?: string; rollingUpdate?: { partition?: number } } | undefined) ?? {};
			if ((strategy.type ?? 'RollingUpdate') !== 'RollingUpdate') return { error: plain('rollout status is only available for RollingUpdate strategy type') };
			if (num(status.observedGeneration) === 0 || generation > num(status.observedGeneration)) return { message: 'Waiting for statefulset spec update to be observed...\n', done: false };
			const replicas = spec.replicas;
			if (typeof replicas === 'number' && num(status.readyReplicas) < replicas) return { message: `Waiting for ${replicas - num(status.readyReplicas)} pods to be ready...\n`, done: false };
			if (strategy.rollingUpdate) {
				const partition = strategy.rollingUpdate.partition;
				if (typeof replicas === 'number' && typeof partition === 'number' && num(status.updatedReplicas) < replicas - partition) {
					return { message: `Waiting for partitioned roll out to finish: ${num(status.updatedReplicas)} out of ${replicas - partition} new pods have been updated...\n`, done: false };
				}
				return { message: `partitioned roll out complete: ${num(status.updatedReplicas)} new pods have been updated...\n`, done: true };
			}
			if (status.updateRevision !== status.currentRevision) return { message: `waiting for statefulset rolling update to complete ${num(status.updatedReplicas)} pods at revision ${String(status.updateRevision ?? '')}...\n`, done: false };
			return { message: `statefulset rolling update complete ${num(status.currentReplicas)} pods at revision ${String(status.currentRevision ?? '')}...\n`, done: true };
		}
		default:
			return { error: plain(`no status viewer has been implemented for ${obj.kind}`) };
	}
}

function statusRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const timeout = durationFlag(inv, 'timeout');
	if ('error' in timeout) return checkErr(timeout.error);
	const revision = Number(args.flags.revision ?? 0);
	if (args.positionals.length === 0 && !((args.flags.filename as string[]) ?? []).length) return checkErr(plain('required resource not specified'));
	if (revision < 0) return checkErr(plain(`revision must be a positive integer: ${revision}`));
	const visited = visit(inv, { allowEmptySelector: true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	let stdout = '';
	const watching = args.flags.watch !== false;
	for (const target of visited.targets) {
		const first = rolloutStatus(target.object as Obj, revision);
		if ('error' in first) return checkErr(first.error, stdout);
		stdout += first.message;
		if (first.done || !watching) continue;
		let outcome: { done: boolean; error?: KubectlError } = { done: false };
		const limitMs = timeout.ms > 0 ? timeout.ms : ROLLOUT_STATUS_CAP_MS;
		inv.env.watch(
			refOf(target.info),
			{ namespace: target.namespace, query: { fieldSelector: `metadata.name=${target.name}` } },
			(event: WatchEvent) => {
				if (outcome.done || outcome.error) return;
				if (event.type === 'DELETED') {
					outcome = { done: true, error: plain('object has been deleted') };
					return;
				}
				if (event.type !== 'ADDED' && event.type !== 'MODIFIED') return;
				const next = rolloutStatus({ ...(event.object as Obj), kind: target.info.kind }, revision);
				if ('error' in next) {
					outcome = { done: true, error: next.error };
					return;
				}
				stdout += next.message;
				if (next.done) outcome = { done: true };
			},
			() => outcome.done,
			limitMs,
		);
		if (outcome.error) return checkErr(outcome.error, stdout);
		if (!outcome.done) return checkErr(plain('timed out waiting for the condition'), stdout);
	}
	for (const error of visited.errors) return checkErr(error, stdout);
	if (visited.targets.length === 0) return { stdout, stderr: `No resources found in ${inv.namespace} namespace.\n`, exitCode: 0 };
	return { stdout, stderr: '', exitCode: 0 };
}

/** The ReplicaSets a Deployment controls (deploymentutil.GetAllReplicaSets: selected and owned). */
function ownedReplicaSets(inv: KubectlInvocation, deployment: Obj): { sets: Obj[] } | { error: KubectlError } {
	const selector = formatLabelSelector((deployment.spec as { selector?: never } | undefined)?.selector);
	const listed = inv.client.list(R.replicasets, deployment.metadata.namespace, selector === '<none>' ? {} : { labelSelector: selector });
	if (!listed.ok) return { error: callError(listed, inv.env.serverUrl) };
	const sets = ((listed.object as KubeList).items as Obj[]).filter((rs) => (rs.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === deployment.metadata.uid));
	return { sets };
}

/** deploymentutil.Revision: an int64 (a bigint: revisions may pass 2^53), undefined when absent or unparsable. */
function revisionOf(rs: Obj): bigint | undefined {
	const text = rs.metadata.annotations?.[REVISION_ANNOTATION];
	return text === undefined ? undefined : parseInt64(text);
}

const byRevision = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

/** Strips empty maps and lists, as apimachinery's semantic equality treats them like absent ones. */
function normalize(value: JsonValue): JsonValue {
	if (Array.isArray(value)) return value.map(normalize);
	if (!isJsonObject(value)) return value;
	const out: JsonObject = {};
	for (const key of Object.keys(value).sort()) {
		const v = normalize(value[key]);
		if ((isJsonObject(v) && Object.keys(v).length === 0) || (Array.isArray(v) && v.length === 0)) continue;
		out[key] = v;
	}
	return out;
}

/** equalIgnoreHash: two pod templates equal but for the pod-template-hash label. */
export function equalIgnoreHash(a: unknown, b: unknown): boolean {
	const strip = (t: unknown) => {
		const copy = deepCopy((t ?? {}) as JsonObject);
		const labels = (copy.metadata as JsonObject | undefined)?.labels as JsonObject | undefined;
		if (labels) delete labels[POD_TEMPLATE_HASH];
		return normalize(copy);
	};
	return jsonEqual(strip(a), strip(b));
}

/** describe.DescribePodTemplate through a prefix writer (no tab alignment), as `rollout history --revision` prints it. */
export function describePodTemplate(template: { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> } | undefined): string {
	let out = 'Pod Template:\n';
	if (!template) return out + '  <unset>';
	const multiline = (title: string, values: Record<string, string> | undefined) => {
		const keys = Object.keys(values ?? {}).sort();
		if (keys.length === 0) return `${title}:\t<none>\n`;
		return keys.map((k, i) => `${i === 0 ? `${title}:\t` : '\t'}${k}=${(values as Record<string, string>)[k]}\n`).join('');
	};
	out += multiline('  Labels', template.metadata?.labels);
	const annotations = { ...(template.metadata?.annotations ?? {}) };
	delete annotations[LAST_APPLIED_ANNOTATION];
	if (Object.keys(annotations).length) out += multiline('  Annotations', annotations);
	const spec = template.spec ?? {};
	if (spec.serviceAccountName) out += `  Service Account:\t${String(spec.serviceAccountName)}\n`;
	type Container = { name: string; image?: string; ports?: Array<{ containerPort: number; hostPort?: number; protocol?: string; name?: string }>; command?: string[]; args?: string[]; env?: Array<{ name: string; value?: string; valueFrom?: unknown }>; volumeMounts?: Array<{ name: string; mountPath: string; readOnly?: boolean; subPath?: string }>; resources?: { limits?: Record<string, string>; requests?: Record<string, string> } };
	const containers = (label: string, list: Container[]) => {
		let text = `  ${label}:${list.length === 0 ? ' <none>' : ''}\n`;
		for (const c of list) {
			text += `   ${c.name}:\n    Image:\t${c.image ?? ''}\n`;
			const ports = (c.ports ?? []).map((p) => `${p.containerPort}/${p.protocol ?? ''}${p.name ? ` (${p.name})` : ''}`).join(', ');
			const hostPorts = (c.ports ?? []).map((p) => `${p.hostPort ?? 0}/${p.protocol ?? ''}${p.name ? ` (${p.name})` : ''}`).join(', ');
			text += ports.includes(',') ? `    Ports:\t${ports}\n` : `    Port:\t${ports || '<none>'}\n`;
			text += hostPorts.includes(',') ? `    Host Ports:\t${hostPorts}\n` : `    Host Port:\t${hostPorts || '<none>'}\n`;
			if (c.command?.length) text += '    Command:\n' + c.command.flatMap((s) => s.split('\n')).map((s) => `      ${s}\n`).join('');
			if (c.args?.length) text += '    Args:\n' + c.args.flatMap((s) => s.split('\n')).map((s) => `      ${s}\n`).join('');
			for (const [title, list2] of [['Limits', c.resources?.limits], ['Requests', c.resources?.requests]] as const) {
				const keys = Object.keys(list2 ?? {}).sort();
				if (keys.length) text += `    ${title}:\n` + keys.map((k) => `      ${k}:\t${String((list2 as Record<string, string>)[k])}\n`).join('');
			}
			text += `    Environment:${c.env?.length ? '' : '\t<none>'}\n`;
			for (const e of c.env ?? []) text += `      ${e.name}:\t${e.value ?? ''}\n`;
			text += `    Mounts:${c.volumeMounts?.length ? '' : '\t<none>'}\n`;
			for (const m of [...(c.volumeMounts ?? [])].sort((x, y) => (x.mountPath < y.mountPath ? -1 : 1))) text += `      ${m.mountPath} from ${m.name} (${[m.readOnly ? 'ro' : 'rw', ...(m.subPath ? [`path=${JSON.stringify(m.subPath)}`] : [])].join(',')})\n`;
		}
		return text;
	};
	if (((spec.initContainers as Container[]) ?? []).length) out += containers('Init Containers', spec.initContainers as Container[]);
	out += containers('Containers', (spec.containers as Container[]) ?? []);
	const volumes = (spec.volumes as Array<{ name: string }>) ?? [];
	out += volumes.length ? '  Volumes:\n' + volumes.map((v) => `   ${v.name}:\n`).join('') : '  Volumes:\t<none>\n';
	if (spec.priorityClassName) out += `  Priority Class Name:\t${String(spec.priorityClassName)}\n`;
	out += multiline('  Node-Selectors', spec.nodeSelector as Record<string, string> | undefined);
	const tolerations = [...((spec.tolerations as Array<{ key?: string; value?: string; effect?: string; operator?: string; tolerationSeconds?: number }>) ?? [])].sort((a, b) => ((a.key ?? '') < (b.key ?? '') ? -1 : (a.key ?? '') > (b.key ?? '') ? 1 : 0));
	if (tolerations.length === 0) out += '  Tolerations:\t<none>\n';
	tolerations.forEach((t, i) => {
		let line = i === 0 ? '  Tolerations:\t' : '\t';
		line += t.key ?? '';
		if (t.value) line += `=${t.value}`;
		if (t.effect) line += `:${t.effect}`;
		if (t.operator === 'Exists' && !t.value) line += t.key || t.effect ? ' op=Exists' : 'op=Exists';
		if (t.tolerationSeconds !== undefined) line += ` for ${t.tolerationSeconds}s`;
		out += `${line}\n`;
	});
	return out;
}

/** controlledHistories: a StatefulSet's or DaemonSet's ControllerRevisions (selector match, controlled by its uid), by revision. */
function controllerHistory(inv: KubectlInvocation, set: Obj): { revisions: Obj[] } | { error: KubectlError } {
	const selector = formatLabelSelector((set.spec as { selector?: never } | undefined)?.selector);
	const listed = inv.client.list(R.controllerrevisions, set.metadata.namespace, selector === '<none>' ? {} : { labelSelector: selector });
	if (!listed.ok) return { error: callError(listed, inv.env.serverUrl) };
	const revisions = ((listed.object as KubeList).items as Obj[]).filter((r) => (r.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === set.metadata.uid));
	return { revisions: revisions.sort((a, b) => num((a as { revision?: number }).revision) - num((b as { revision?: number }).revision)) };
}

/** The pod template a StatefulSet or DaemonSet revision holds (applyStatefulSetHistory, applyDaemonSetHistory), without the patch directive. */
function revisionTemplate(revision: Obj): { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> } {
	const template = deepCopy(((revision as { data?: { spec?: { template?: Record<string, unknown> } } }).data?.spec?.template ?? {}) as Record<string, unknown>);
	delete template.$patch;
	return template as ReturnType<typeof revisionTemplate>;
}

/** getStatefulSetPatch / getDaemonSetPatch: the template as a replace patch, compared byte for byte with a revision's data. */
function statefulSetPatchText(set: Obj): string {
	return compactJson({ spec: { template: { ...((set.spec as { template?: JsonObject } | undefined)?.template ?? {}), $patch: 'replace' } } } as JsonValue);
}

function historyRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const revision = Number(args.flags.revision ?? 0);
	if (args.positionals.length === 0 && !((args.flags.filename as string[]) ?? []).length) return checkErr(plain('required resource not specified'));
	if (revision < 0) return checkErr(plain(`revision must be a positive integer: ${revision}`));
	const printer = toPrinter(args);
	if ('error' in printer) return checkErr(printer.error);
	const visited = visit(inv, { allowEmptySelector: true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	let stdout = '';
	for (const target of visited.targets) {
		if (!['Deployment', 'StatefulSet', 'DaemonSet'].includes(target.info.kind)) return checkErr(plain(`no history viewer has been implemented for ${JSON.stringify(`${target.info.kind}.${target.info.group}`)}`), stdout);
		const history = new Map<bigint, Obj>();
		let template: (owner: Obj) => ReturnType<typeof revisionTemplate>;
		if (target.info.kind === 'StatefulSet' || target.info.kind === 'DaemonSet') {
			const revisions = controllerHistory(inv, target.object as Obj);
			if ('error' in revisions) return checkErr(revisions.error, stdout);
			for (const r of revisions.revisions) history.set(BigInt(num((r as { revision?: number }).revision)), r);
			// printHistory reads the change-cause from the revision itself; the template is the revision's.
			template = (r: Obj) => {
				const t = revisionTemplate(r);
				const cause = r.metadata.annotations?.[CHANGE_CAUSE_ANNOTATION];
				if (cause) t.metadata = { ...(t.metadata ?? {}), annotations: { ...(t.metadata?.annotations ?? {}), [CHANGE_CAUSE_ANNOTATION]: cause } };
				return t;
			};
		} else {
			const owned = ownedReplicaSets(inv, target.object as Obj);
			if ('error' in owned) return checkErr(wrap(`failed to retrieve replica sets from deployment ${target.name}: `, owned.error), stdout);
			for (const rs of owned.sets) {
				const v = revisionOf(rs);
				if (v !== undefined) history.set(v, rs);
			}
			template = (rs: Obj) => {
				const t = deepCopy((rs.spec as { template?: { metadata?: { annotations?: Record<string, string>; labels?: Record<string, string> }; spec?: Record<string, unknown> } }).template ?? {});
				const cause = rs.metadata.annotations?.[CHANGE_CAUSE_ANNOTATION];
				if (cause) t.metadata = { ...(t.metadata ?? {}), annotations: { ...(t.metadata?.annotations ?? {}), [CHANGE_CAUSE_ANNOTATION]: cause } };
				return t;
			};
		}
		if (args.flags.output) {
			// -o: each revision's pod template as an object.
			const revisions = revision > 0 ? [BigInt(revision)] : [...history.keys()].sort(byRevision);
			for (const r of revisions) {
				const rs = history.get(r);
				if (!rs) return checkErr(plain('unable to find the specified revision'), stdout);
				stdout += printer.printer({ apiVersion: 'v1', kind: 'PodTemplateSpec', ...template(rs) } as unknown as KubeObject, '');
			}
			continue;
		}
		let text: string;
		if (history.size === 0) text = 'No rollout history found.';
		else if (revision > 0) {
			const rs = history.get(BigInt(revision));
			if (!rs) return checkErr(plain('unable to find the specified revision'), stdout);
			text = describePodTemplate(template(rs));
		} else {
			// tabwriter(minwidth 0, tabwidth 8, padding 2): REVISION is 8 wide, so the column is 10.
			const rows = [...history.keys()].sort(byRevision).map((r) => [String(r), template(history.get(r)!).metadata?.annotations?.[CHANGE_CAUSE_ANNOTATION] || '<none>']);
			const width = Math.max(8, ...rows.map((r) => r[0].length)) + 2;
			text = `${'REVISION'.padEnd(width)}CHANGE-CAUSE\n` + rows.map(([r, c]) => `${r.padEnd(width)}${c}\n`).join('');
		}
		const withRevision = revision > 0 ? `with revision #${revision}` : '';
		stdout += `${kindQualifier(target.info)}/${target.name} ${withRevision}\n${text}\n`;
	}
	if (visited.errors.length) return checkErr(visited.errors[0], stdout);
	return { stdout, stderr: '', exitCode: 0 };
}

/** StatefulSetRollbacker / DaemonSetRollbacker.Rollback: the revision asked for (or the one before the newest), sent back as its own patch. */
function rollbackStatefulSet(inv: KubectlInvocation, target: TargetInfo, set: Obj, toRevision: number, strategy: DryRunStrategy): { result: string } | { error: KubectlError } {
	const history = controllerHistory(inv, set);
	if ('error' in history) return { error: history.error };
	const revisions = history.revisions;
	if (toRevision === 0 && revisions.length <= 1) return { error: plain('no last revision to roll back to') };
	const chosen = toRevision === 0 ? revisions[revisions.length - 2] : revisions.find((r) => num((r as { revision?: number }).revision) === toRevision);
	if (!chosen) return { error: plain(`unable to find specified revision ${toRevision} in history`) };
	if (strategy === 'client') return { result: describePodTemplate(revisionTemplate(chosen)) };
	const data = (chosen as { data?: JsonObject }).data ?? {};
	if (compactJson(data) === statefulSetPatchText(set)) return { result: `skipped rollback (current template already matches revision ${toRevision})` };
	const patched = inv.client.patch(refOf(target.info), target.namespace, target.name, data, 'application/strategic-merge-patch+json', undefined, strategy === 'server' ? { dryRun: 'All' } : undefined);
	if (!patched.ok) return { error: wrap(`failed restoring revision ${toRevision}: `, callError(patched, inv.env.serverUrl)) };
	return { result: 'rolled back' };
}

function undoRun(inv: KubectlInvocation): CommandResult {
	const { args } = inv;
	const toRevision = Number(args.flags['to-revision'] ?? 0);
	if (args.positionals.length === 0 && !((args.flags.filename as string[]) ?? []).length) return checkErr(plain('required resource not specified'));
	const dry = dryRunStrategy(args, inv.env.wallMs());
	if ('error' in dry) return checkErr(dry.error);
	const printer = toPrinter(args, dry.strategy);
	if ('error' in printer) return checkErr(printer.error, '', dry.stderr);
	const visited = visit(inv, { allowEmptySelector: true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: dry.stderr + visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal, '', dry.stderr);
	let stdout = '';
	let stderr = dry.stderr;
	for (const target of visited.targets) {
		const deployment = target.object as Obj;
		if (deployment.metadata.annotations?.[LAST_APPLIED_ANNOTATION] !== undefined) {
			stderr += `Warning: resource ${objectName(target)} was previously managed with 'kubectl apply'. Rolling back will not update the ${LAST_APPLIED_ANNOTATION} annotation, which may cause unexpected behavior on future 'kubectl apply' operations. Consider using 'kubectl apply' with your previous configuration file instead.\n`;
		}
		if (!['Deployment', 'StatefulSet', 'DaemonSet'].includes(target.info.kind)) return checkErr(plain(`no rollbacker has been implemented for ${JSON.stringify(`${target.info.kind}.${target.info.group}`)}`), stdout, stderr);
		if (toRevision < 0) return checkErr(plain(`unable to find specified revision ${toRevision} in history`), stdout, stderr);
		if (target.info.kind === 'StatefulSet' || target.info.kind === 'DaemonSet') {
			const rolled = rollbackStatefulSet(inv, target, deployment, toRevision, dry.strategy);
			if ('error' in rolled) return checkErr(rolled.error, stdout, stderr);
			stdout += `${kindQualifier(target.info)}/${target.name} ${withDryRun(rolled.result, dry.strategy)}\n`;
			continue;
		}
		const owned = ownedReplicaSets(inv, deployment);
		if ('error' in owned) return checkErr(wrap(`failed to retrieve replica sets from deployment ${target.name}: `, owned.error), stdout, stderr);
		// deploymentRevision: the requested revision, or else the one before the newest.
		let chosen: Obj | undefined;
		let latest = -1n;
		let previous = -1n;
		let latestRs: Obj | undefined;
		for (const rs of owned.sets) {
			const v = revisionOf(rs);
			if (v === undefined) continue;
			if (toRevision === 0) {
				if (latest < v) {
					previous = latest;
					chosen = latestRs;
					latest = v;
					latestRs = rs;
				} else if (previous < v) {
					previous = v;
					chosen = rs;
				}
			} else if (v === BigInt(toRevision)) chosen = rs;
		}
		if (toRevision > 0 && !chosen) return checkErr(plain(`unable to find specified revision ${toRevision} in history`), stdout, stderr);
		if (!chosen) return checkErr(plain(`no rollout history found for deployment ${JSON.stringify(target.name)}`), stdout, stderr);
		const template = deepCopy((chosen.spec as { template?: { metadata?: { labels?: Record<string, string> } } }).template ?? {});
		let result: string;
		if (dry.strategy === 'client') {
			result = describePodTemplate(template);
		} else if ((deployment.spec as { paused?: boolean }).paused) {
			return checkErr(plain("you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again"), stdout, stderr);
		} else if (equalIgnoreHash(template, (deployment.spec as { template?: unknown }).template)) {
			result = `skipped rollback (current template already matches revision ${toRevision})`;
		} else {
			if (template.metadata?.labels) delete template.metadata.labels[POD_TEMPLATE_HASH];
			const annotations: Record<string, string> = {};
			for (const key of ANNOTATIONS_TO_SKIP) if (deployment.metadata.annotations?.[key] !== undefined) annotations[key] = deployment.metadata.annotations[key];
			for (const [key, value] of Object.entries(chosen.metadata.annotations ?? {})) if (!ANNOTATIONS_TO_SKIP.includes(key)) annotations[key] = value;
			const patch = [
				{ op: 'replace', path: '/spec/template', value: template },
				{ op: 'replace', path: '/metadata/annotations', value: annotations },
			];
			const patched = inv.client.patch(refOf(target.info), target.namespace, target.name, patch, 'application/json-patch+json', undefined, dry.strategy === 'server' ? { dryRun: 'All' } : undefined);
			if (!patched.ok) return checkErr(wrap(`failed restoring revision ${toRevision}: `, callError(patched, inv.env.serverUrl)), stdout, stderr);
			result = 'rolled back';
		}
		stdout += `${kindQualifier(target.info)}/${target.name} ${withDryRun(result, dry.strategy)}\n`;
	}
	if (visited.errors.length) return checkErr(visited.errors[0], stdout, stderr);
	return { stdout, stderr, exitCode: 0 };
}

/**
 * restart, pause and resume: a mutation of the object, sent as the
 * strategic merge patch between before and after (set.CalculatePatches).
 */
function mutateRun(inv: KubectlInvocation, verb: 'restart' | 'pause' | 'resume'): CommandResult {
	const { args } = inv;
	if (args.positionals.length === 0 && !((args.flags.filename as string[]) ?? []).length) return checkErr(plain('required resource not specified'));
	const printer = toPrinter(args);
	if ('error' in printer) return checkErr(printer.error);
	const visited = visit(inv, { allowEmptySelector: true, requireObject: true });
	if (visited.usage) return { stdout: '', stderr: visited.usage, exitCode: 1 };
	if (visited.fatal) return checkErr(visited.fatal);
	const errors: KubectlError[] = [...visited.errors];
	if (visited.targets.length === 0 && errors.length === 0) return { stdout: '', stderr: `No resources found in ${inv.namespace} namespace.\n`, exitCode: 0 };
	let stdout = '';
	const now = formatRfc3339(inv.env.wallMs());
	for (const target of visited.targets) {
		const obj = target.object as Obj;
		const resourceString = target.info.group ? `${target.info.resource}.${target.info.group}` : target.info.resource;
		const spec = (obj.spec ?? {}) as { paused?: boolean; template?: { metadata?: { annotations?: Record<string, string> } } };
		let patch: Record<string, unknown> | undefined;
		let error: string | undefined;
		const isApps = target.info.group === 'apps';
		if (verb === 'pause') {
			if (target.info.kind !== 'Deployment') error = 'pausing is not supported';
			else if (spec.paused) error = 'is already paused';
			else patch = { spec: { paused: true } };
		} else if (verb === 'resume') {
			if (target.info.kind !== 'Deployment') error = 'resuming is not supported';
			else if (!spec.paused) error = 'is not paused';
			else patch = { spec: { paused: null } };
		} else if (!isApps || !['Deployment', 'DaemonSet', 'StatefulSet'].includes(target.info.kind)) error = 'restarting is not supported';
		else if (target.info.kind === 'Deployment' && spec.paused) error = "can't restart paused deployment (run rollout resume first)";
		else if (spec.template?.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'] === now) patch = {};
		else patch = { spec: { template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': now } } } } };
		if (error) {
			errors.push(plain(`error: ${resourceString} ${JSON.stringify(target.name)} ${error}`));
			continue;
		}
		if (!patch || Object.keys(patch).length === 0) {
			if (verb === 'restart') errors.push(plain(`failed to create patch for ${target.name}: if restart has already been triggered within the past second, please wait before attempting to trigger another`));
			else stdout += printer.printer(obj, verb === 'pause' ? 'already paused' : 'already resumed');
			continue;
		}
		const patched = inv.client.patch(refOf(target.info), target.namespace, target.name, patch, 'application/strategic-merge-patch+json', undefined, { fieldManager: 'kubectl-rollout' });
		if (!patched.ok) {
			errors.push(wrap('failed to patch: ', callError(patched, inv.env.serverUrl)));
			continue;
		}
		stdout += printer.printer({ ...patched.object, apiVersion: obj.apiVersion, kind: obj.kind }, verb === 'pause' ? 'paused' : verb === 'resume' ? 'resumed' : 'restarted');
	}
	if (errors.length) return checkErr({ kind: 'aggregate', errors }, stdout);
	return { stdout, stderr: '', exitCode: 0 };
}

const SUBCOMMANDS: Subcommand[] = [
	{
		name: 'status',
		summary: 'Show the status of the rollout',
		usage: 'kubectl rollout status (TYPE NAME | TYPE/NAME) [flags]',
		flags: [...RESOURCE_FLAGS, { name: 'watch', short: 'w', kind: 'bool', default: true }, { name: 'revision', kind: 'int', default: 0 }, { name: 'timeout', kind: 'duration', default: '0s' }],
		run: statusRun,
	},
	{
		name: 'history',
		summary: 'View rollout history',
		usage: 'kubectl rollout history (TYPE NAME | TYPE/NAME) [flags]',
		flags: [...RESOURCE_FLAGS, ...PRINT_FLAGS, { name: 'revision', kind: 'int', default: 0 }],
		run: historyRun,
	},
	{
		name: 'undo',
		summary: 'Undo a previous rollout',
		usage: 'kubectl rollout undo (TYPE NAME | TYPE/NAME) [flags]',
		flags: [...RESOURCE_FLAGS, ...PRINT_FLAGS, DRY_RUN_FLAG, { name: 'to-revision', kind: 'int', default: 0 }],
		run: undoRun,
	},
	{
		name: 'restart',
		summary: 'Restart a resource',
		usage: 'kubectl rollout restart RESOURCE',
		flags: [...RESOURCE_FLAGS, ...PRINT_FLAGS, { name: 'field-manager', kind: 'string', default: 'kubectl-rollout' }],
		run: (inv) => mutateRun(inv, 'restart'),
	},
	{
		name: 'pause',
		summary: 'Mark the provided resource as paused',
		usage: 'kubectl rollout pause RESOURCE',
		flags: [...RESOURCE_FLAGS, ...PRINT_FLAGS, { name: 'field-manager', kind: 'string', default: 'kubectl-rollout' }],
		run: (inv) => mutateRun(inv, 'pause'),
	},
	{
		name: 'resume',
		summary: 'Resume a paused resource',
		usage: 'kubectl rollout resume RESOURCE',
		flags: [...RESOURCE_FLAGS, ...PRINT_FLAGS, { name: 'field-manager', kind: 'string', default: 'kubectl-rollout' }],
		run: (inv) => mutateRun(inv, 'resume'),
	},
];

export const rolloutCommand: KubectlCommand = {
	name: 'rollout',
	summary: 'Manage the rollout of a resource',
	usage: 'kubectl rollout SUBCOMMAND',
	subcommands: SUBCOMMANDS.map((s) => s.name),
	flags: unionFlags(...SUBCOMMANDS.map((s) => s.flags)),
	handlesHelp: true,
	run: (inv) =>
		runParent(
			inv,
			{
				name: 'rollout',
				long: 'Manage the deployment of one or more resources.\n\n Valid resource types include:\n\n  *  deployments\n  *  daemonsets\n  *  statefulsets',
				examples: '  # Rollback to the previous deployment\n  kubectl rollout undo deployment/abc\n\n  # Check the rollout status of a daemonset\n  kubectl rollout status daemonset/foo\n\n  # Restart a deployment\n  kubectl rollout restart deployment/abc\n\n  # Restart deployments with the \'app=nginx\' label\n  kubectl rollout restart deployment --selector=app=nginx',
				usage: 'kubectl rollout SUBCOMMAND',
				flags: rolloutCommand.flags,
				bare: 'help-on-stderr',
			},
			SUBCOMMANDS,
		),
};
