/**
 * A DaemonSet's history: one ControllerRevision per template it has had,
 * named `<daemonset>-<hash>` with the `controller-revision-hash` label the
 * daemon pods carry, its data the template as a replace patch, and its
 * revision number. constructHistory finds the revision of the current
 * template (creating it, one past the highest, or renumbering it to the top
 * after a rollback) and dedupes equal ones; cleanupHistory keeps
 * revisionHistoryLimit (10) old revisions, never one a live pod still
 * runs. `kubectl rollout history|undo ds` read and apply these.
 *
 * Unlike a StatefulSet's, the hash is the template's ComputeHash (with the
 * collision count), the same one the pods' label carries, and the revision
 * also copies the DaemonSet's annotations (kubectl's change-cause).
 *
 * Mirrors pkg/controller/daemon/update.go (constructHistory, snapshot,
 * dedupCurHistories, cleanupHistory, controlledHistories, getPatch, Match).
 */
import type { ControllerRevision, DaemonSet, Pod } from '../api/types.ts';
import { R, type ApiClient } from '../client/client.ts';
import { compactJson, deepCopy, type JsonValue } from '../golang/json.ts';
import { computeHash } from './hash.ts';
import { revisionDataBytes, sortControllerRevisions } from './history.ts';
import { controllerOf, newControllerRef } from './pod-util.ts';

/** apps.DefaultDaemonSetUniqueLabelKey. */
export const DAEMONSET_REVISION_LABEL = 'controller-revision-hash';
/** The default spec.revisionHistoryLimit. */
const DEFAULT_REVISION_HISTORY_LIMIT = 10;

/** getPatch: the template as a replace patch, the revision's data. */
export function daemonSetPatch(ds: DaemonSet): Record<string, unknown> {
	return { spec: { template: { ...(deepCopy(ds.spec.template) as unknown as Record<string, unknown>), $patch: 'replace' } } };
}

/** Match: a revision holds this DaemonSet's current template. */
function matches(ds: DaemonSet, revision: ControllerRevision): boolean {
	return revisionDataBytes(revision.data) === compactJson(daemonSetPatch(ds) as JsonValue);
}

export interface DaemonSetHistory {
	current: ControllerRevision;
	old: ControllerRevision[];
}

/** constructHistory: the current revision (created or renumbered as needed) and the old ones; an error to retry on. */
export function constructHistory(client: ApiClient, ds: DaemonSet, revisions: ControllerRevision[]): DaemonSetHistory | { error: string } {
	const current: ControllerRevision[] = [];
	const old: ControllerRevision[] = [];
	let maxRevision = 0;
	for (const revision of revisions) {
		maxRevision = Math.max(maxRevision, revision.revision);
		if (matches(ds, revision)) current.push(revision);
		else old.push(revision);
	}
	let cur: ControllerRevision;
	if (current.length === 0) {
		const created = snapshot(client, ds, maxRevision + 1);
		if (!created.ok) return { error: created.error };
		cur = created.revision;
	} else {
		// dedupCurHistories: keep the highest revision, delete the others (their pods are relabelled upstream; here they share the hash).
		const sorted = sortControllerRevisions([...current]);
		cur = sorted[sorted.length - 1];
		for (const extra of sorted.slice(0, -1)) {
			const deleted = client.delete(R.controllerrevisions, extra.metadata.namespace, extra.metadata.name ?? '');
			if (!deleted.ok && deleted.code !== 404) return { error: deleted.message };
		}
		if (cur.revision < maxRevision) {
			const updated = client.update<ControllerRevision>(R.controllerrevisions, { ...cur, revision: maxRevision + 1 });
			if (!updated.ok) return { error: updated.message };
			cur = updated.object;
		}
	}
	return { current: cur, old };
}

/** snapshot: a new revision for the current template, under the template's hash. */
function snapshot(client: ApiClient, ds: DaemonSet, revision: number): { ok: true; revision: ControllerRevision } | { ok: false; error: string } {
	const hash = computeHash(ds.spec.template, ds.status?.collisionCount);
	const history: ControllerRevision = {
		apiVersion: 'apps/v1',
		kind: 'ControllerRevision',
		metadata: {
			name: `${ds.metadata.name}-${hash}`,
			namespace: ds.metadata.namespace,
			labels: { ...(ds.spec.template.metadata?.labels ?? {}), [DAEMONSET_REVISION_LABEL]: hash },
			...(ds.metadata.annotations ? { annotations: { ...ds.metadata.annotations } } : {}),
			ownerReferences: [newControllerRef(ds)],
		},
		data: daemonSetPatch(ds),
		revision,
	};
	const created = client.create<ControllerRevision>(R.controllerrevisions, ds.metadata.namespace, history);
	if (created.ok) return { ok: true, revision: created.object };
	if (created.code !== 409) return { ok: false, error: created.message };
	// A revision of that name exists: the same data is ours; anything else is a hash collision, retried under the next count.
	const existing = client.get<ControllerRevision>(R.controllerrevisions, ds.metadata.namespace, history.metadata.name ?? '');
	if (existing.ok && controllerOf(existing.object)?.uid === ds.metadata.uid && matches(ds, existing.object)) return { ok: true, revision: existing.object };
	const bumped = client.updateStatus<DaemonSet>(R.daemonsets, { ...deepCopy(ds), status: { ...(ds.status ?? {}), collisionCount: (ds.status?.collisionCount ?? 0) + 1 } } as DaemonSet);
	return { ok: false, error: `found a stale ControllerRevision ${history.metadata.name} with a different template${bumped.ok ? '; collisionCount raised' : `: ${bumped.message}`}` };
}

/** cleanupHistory: delete the oldest revisions beyond the limit, except those a live pod still runs. */
export function cleanupHistory(client: ApiClient, ds: DaemonSet, old: ControllerRevision[], pods: Pod[]): string | undefined {
	const limit = ds.spec.revisionHistoryLimit ?? DEFAULT_REVISION_HISTORY_LIMIT;
	let toKill = old.length - limit;
	if (toKill <= 0) return undefined;
	const live = new Set(pods.map((p) => p.metadata.labels?.[DAEMONSET_REVISION_LABEL]).filter((h): h is string => h !== undefined));
	for (const revision of sortControllerRevisions([...old])) {
		if (toKill <= 0) break;
		if (live.has(revision.metadata.labels?.[DAEMONSET_REVISION_LABEL] ?? '')) continue;
		const deleted = client.delete(R.controllerrevisions, revision.metadata.namespace, revision.metadata.name ?? '');
		if (!deleted.ok && deleted.code !== 404) return deleted.message;
		toKill--;
	}
	return undefined;
}
