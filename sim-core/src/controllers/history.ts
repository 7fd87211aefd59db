/**
 * Controller history: the ControllerRevisions a controller keeps of its own
 * past states. A revision is named `<owner>-<hash>`, where the hash is
 * FNV-1 (not FNV-1a) over the revision's data bytes and then the decimal
 * text of the collision count, safe-encoded; it carries the owner's
 * template labels plus `controller.kubernetes.io/hash`, and a controller
 * reference to its owner. Revisions are ordered by `revision`, then
 * creation time, then name.
 *
 * The data bytes are Go's json.Marshal of the data (a map: keys sorted at
 * every level), so equal templates give equal names; they are not the
 * bytes a real API server's object encoding would produce, so a name
 * differs from what a real cluster prints for the same template.
 *
 * Mirrors pkg/controller/history/controller_history.go
 * (ControllerRevisionName, NewControllerRevision, HashControllerRevision,
 * SortControllerRevisions, EqualRevision, FindEqualRevisions, the
 * realHistory create with collision handling).
 */
import type { ControllerRevision, KubeObject } from '../api/types.ts';
import { R, type ApiClient } from '../client/client.ts';
import { compactJson, type JsonValue } from '../golang/json.ts';
import { utf8Encode } from '../golang/utf8.ts';
import { fnv32, safeEncodeString } from './hash.ts';
import { newControllerRef, timeMs } from './pod-util.ts';

/** history.ControllerRevisionHashLabel. */
export const CONTROLLER_REVISION_HASH_LABEL_KEY = 'controller.kubernetes.io/hash';

/** ControllerRevisionName: `prefix-hash`, the prefix cut to 223 bytes so the name fits in 253. */
export function controllerRevisionName(prefix: string, hash: string): string {
	return `${prefix.length > 223 ? prefix.slice(0, 223) : prefix}-${hash}`;
}

/** The bytes a revision's data is hashed and compared as (json.Marshal of a map). */
export function revisionDataBytes(data: unknown): string {
	return data === undefined || data === null ? '' : compactJson(data as JsonValue);
}

/** HashControllerRevision: FNV-1 over the data, then the collision count as decimal text. */
export function hashControllerRevision(data: unknown, collisionCount: number | undefined): string {
	let h = fnv32(utf8Encode(revisionDataBytes(data)));
	if (collisionCount !== undefined) h = fnv32(utf8Encode(String(collisionCount)), h);
	return safeEncodeString(String(h));
}

/** NewControllerRevision: labels from the template, a controller reference, the data and revision, the hashed name. */
export function newControllerRevision(parent: KubeObject, templateLabels: Record<string, string> | undefined, data: Record<string, unknown>, revision: number, collisionCount: number): ControllerRevision {
	const hash = hashControllerRevision(data, collisionCount);
	return {
		apiVersion: 'apps/v1',
		kind: 'ControllerRevision',
		metadata: {
			name: controllerRevisionName(parent.metadata.name ?? '', hash),
			namespace: parent.metadata.namespace,
			labels: { ...(templateLabels ?? {}), [CONTROLLER_REVISION_HASH_LABEL_KEY]: hash },
			ownerReferences: [newControllerRef(parent)],
		},
		data,
		revision,
	};
}

/** byRevision: by revision, then creation time, then name. */
export function sortControllerRevisions(revisions: ControllerRevision[]): ControllerRevision[] {
	return revisions.sort((a, b) => {
		if (a.revision !== b.revision) return a.revision - b.revision;
		const ta = timeMs(a.metadata.creationTimestamp);
		const tb = timeMs(b.metadata.creationTimestamp);
		if (ta !== tb) return ta - tb;
		const na = a.metadata.name ?? '';
		const nb = b.metadata.name ?? '';
		return na < nb ? -1 : na > nb ? 1 : 0;
	});
}

/**
 * EqualRevision: the same data. (Upstream first compares the hash labels
 * parsed as decimal integers; safe-encoded hashes never parse, so the data
 * bytes decide, as here.)
 */
export function equalRevision(a: ControllerRevision | undefined, b: ControllerRevision | undefined): boolean {
	if (!a || !b) return a === b;
	return revisionDataBytes(a.data) === revisionDataBytes(b.data);
}

/** FindEqualRevisions, in the order given. */
export function findEqualRevisions(revisions: readonly ControllerRevision[], needle: ControllerRevision): ControllerRevision[] {
	return revisions.filter((r) => equalRevision(r, needle));
}

/** The outcome of a history write: the revision, or an error message (with the collision count it reached). */
type HistoryResult = { ok: true; revision: ControllerRevision; collisionCount: number } | { ok: false; error: string; collisionCount: number };

/**
 * realHistory.CreateControllerRevision: create under the hashed name; on
 * AlreadyExists, an existing revision with the same data is the answer,
 * otherwise bump the collision count and try the next name (bounded).
 */
export function createControllerRevision(client: ApiClient, parent: KubeObject, revision: ControllerRevision, collisionCount: number): HistoryResult {
	let count = collisionCount;
	for (let attempt = 0; attempt < 100; attempt++) {
		const clone: ControllerRevision = { ...revision, metadata: { ...revision.metadata, name: controllerRevisionName(parent.metadata.name ?? '', hashControllerRevision(revision.data, count)) } };
		const created = client.create<ControllerRevision>(R.controllerrevisions, parent.metadata.namespace, clone);
		if (created.ok) return { ok: true, revision: created.object, collisionCount: count };
		if (created.code !== 409) return { ok: false, error: created.message, collisionCount: count };
		const existing = client.get<ControllerRevision>(R.controllerrevisions, parent.metadata.namespace, clone.metadata.name ?? '');
		if (!existing.ok) return { ok: false, error: existing.message, collisionCount: count };
		if (revisionDataBytes(existing.object.data) === revisionDataBytes(clone.data)) return { ok: true, revision: existing.object, collisionCount: count };
		count++;
	}
	return { ok: false, error: 'too many ControllerRevision name collisions', collisionCount: count };
}

/** realHistory.UpdateControllerRevision: set `revision` (a rollback to an older template), retrying once on a conflict. */
export function updateControllerRevision(client: ApiClient, revision: ControllerRevision, newRevision: number): HistoryResult {
	let target = revision;
	for (let attempt = 0; ; attempt++) {
		if (target.revision === newRevision) return { ok: true, revision: target, collisionCount: 0 };
		const updated = client.update<ControllerRevision>(R.controllerrevisions, { ...target, revision: newRevision } as KubeObject);
		if (updated.ok) return { ok: true, revision: updated.object, collisionCount: 0 };
		if (updated.code !== 409 || attempt >= 1) return { ok: false, error: updated.message, collisionCount: 0 };
		const fresh = client.get<ControllerRevision>(R.controllerrevisions, revision.metadata.namespace, revision.metadata.name ?? '');
		if (!fresh.ok) return { ok: false, error: fresh.message, collisionCount: 0 };
		target = fresh.object;
	}
}
