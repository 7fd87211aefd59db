/**
 * The API server's field manager: every write records who set which
 * fields in metadata.managedFields, and server-side apply
 * (`PATCH` with `application/apply-patch+yaml`) merges a configuration
 * into the live object by those records.
 *
 * - An update (create, PUT, the other patch types, a subresource write)
 *   gives its manager the fields it added or changed and takes them from
 *   every other manager; fields it removed leave every manager. Its entry
 *   is keyed by manager, operation, apiVersion and subresource, and its
 *   time moves only when it took something.
 * - An apply owns exactly the fields of its configuration. A field it
 *   would change that another manager owns is a conflict (409, listing
 *   each one) unless forced, when ownership moves. A field it applied
 *   before and no longer does is removed from the object if nobody else
 *   owns it.
 * - Metadata the server owns (name, uid, resourceVersion...) is never
 *   anybody's. Writes to the main resource of a kind with a status
 *   subresource do not own status, and status writes do not own spec,
 *   labels or owner references (the strategies' reset fields).
 * - At most ten Update entries are kept: the oldest are merged into one
 *   named `ancient-changes`.
 * - A request that carries managedFields replaces the stored ones (one
 *   empty entry clears them); one that carries none keeps them.
 *
 * Mirrors staging/src/k8s.io/apimachinery/pkg/util/managedfields/internal/
 * (fieldmanager.go, structuredmerge.go, stripmeta.go, managedfieldsupdater.go,
 * capmanagers.go, conflict.go, managedfields.go: the entry encoding and its
 * sort order), kubernetes-sigs/structured-merge-diff merge/update.go (Update,
 * Apply, prune), staging/src/k8s.io/apiserver/pkg/endpoints/handlers/rest.go
 * (managerOrUserAgent).
 */
import type { KubeObject, ManagedFieldsEntry } from '../../api/types.ts';
import type { ApiResponse } from '../../api/request.ts';
import { compareGoStrings } from '../../golang/json.ts';
import { applyConflict } from '../errors.ts';
import { FieldSet, pathString } from './field-set.ts';
import { rootType, type MergeType } from './merge-schema.ts';
import { compare, fieldSetOf, merge, removeFields } from './typed-value.ts';

/** Who writes, and through what: one managedFields entry's identity. */
export interface WriteIdentity {
	manager: string;
	apiVersion: string;
	subresource?: string;
}

interface Entry {
	manager: string;
	operation: 'Apply' | 'Update';
	apiVersion: string;
	subresource?: string;
	time?: string;
	set: FieldSet;
}

/** Metadata the server owns, never counted as anybody's (stripmeta.go). */
const SERVER_META = ['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'generation', 'managedFields', 'resourceVersion', 'deletionTimestamp', 'deletionGracePeriodSeconds'];
const MAX_UPDATE_MANAGERS = 10;
export const ANCIENT_CHANGES = 'ancient-changes';

/** The manager a request is recorded under: `?fieldManager=`, else its User-Agent up to the first `/`. */
export function managerOrUserAgent(fieldManager: string | undefined, userAgent: string): string {
	if (fieldManager) return fieldManager;
	const slash = userAgent.indexOf('/');
	return slash < 0 ? userAgent : userAgent.slice(0, slash);
}

/** Which fields a write may own: status alone for a status write, all but status for the main resource of a kind with a status subresource. */
export interface ResetFields {
	hasStatusSubresource: boolean;
}

/**
 * Records an update by `who` in `obj.metadata.managedFields`: `live` is the
 * stored object (undefined for a create, compared then with the empty
 * object of the kind), `obj` the object after decoding and defaulting.
 */
export function recordUpdate(live: KubeObject | undefined, obj: KubeObject, who: WriteIdentity, now: string, reset: ResetFields): void {
	const type = typeOf(obj);
	const entries = incomingEntries(live, obj);
	const before = typedView(live ?? emptyObjectOf(obj), who.subresource, reset);
	const after = typedView(obj, who.subresource, reset);
	const diff = compare(before, after, type);
	const taken = withoutMetadataItself(diff.modified.union(diff.added));
	for (const entry of entries) entry.set = entry.set.difference(taken).difference(diff.removed);
	const own = entries.find((e) => e.operation === 'Update' && e.manager === who.manager && e.apiVersion === who.apiVersion && (e.subresource ?? '') === (who.subresource ?? ''));
	if (taken.nonEmpty()) {
		if (own) {
			own.set = own.set.union(taken);
			own.time = now;
		} else entries.push({ manager: who.manager, operation: 'Update', apiVersion: who.apiVersion, subresource: who.subresource, time: now, set: taken });
	}
	obj.metadata.managedFields = encode(capUpdateManagers(entries.filter((e) => e.set.nonEmpty())));
	if (!obj.metadata.managedFields.length) delete obj.metadata.managedFields;
}

/** One field an apply would take from another manager. */
export interface Conflict {
	manager: string;
	operation: 'Apply' | 'Update';
	apiVersion: string;
	subresource?: string;
	path: string;
}

/**
 * A server-side apply of `config` by `who` over `live` (undefined when the
 * object does not exist yet): the merged object, with its managedFields,
 * or the conflicts that stop it.
 */
export function applyConfiguration(live: KubeObject | undefined, config: KubeObject, who: WriteIdentity, now: string, force: boolean, reset: ResetFields): { object: KubeObject } | { conflicts: Conflict[] } {
	const type = typeOf(config);
	const entries = live ? decode(live.metadata.managedFields) : [];
	const liveView = live ? stripped(live) : {};
	const configView = typedView(config, who.subresource, reset);
	const isMine = (e: Entry) => e.operation === 'Apply' && e.manager === who.manager && (e.subresource ?? '') === (who.subresource ?? '');
	const mine = entries.find(isMine);
	const others = entries.filter((e) => !isMine(e));
	const applied = withoutMetadataItself(fieldSetOf(configView, type));
	let merged = merge(liveView, configView, type) as Record<string, unknown>;
	if (mine) {
		// Fields this manager applied before and dropped now go, unless someone else still owns them.
		const dropped = mine.set.difference(applied);
		const keep = others.reduce((acc, e) => acc.union(e.set), applied);
		if (dropped.nonEmpty()) merged = removeFields(merged, type, dropped, keep) as Record<string, unknown>;
	}
	const diff = compare(liveView, merged, type);
	const changed = diff.modified.union(diff.added);
	const conflicts: Conflict[] = [];
	for (const entry of others) {
		const clash = entry.set.intersection(changed);
		if (clash.empty()) continue;
		if (!force) for (const path of clash.paths()) conflicts.push({ manager: entry.manager, operation: entry.operation, apiVersion: entry.apiVersion, subresource: entry.subresource, path: pathString(path) });
		entry.set = entry.set.difference(clash);
	}
	if (conflicts.length) return { conflicts };
	for (const entry of others) entry.set = entry.set.difference(diff.removed);
	const kept = others.filter((e) => e.set.nonEmpty());
	const unchanged = !!mine && diff.modified.empty() && diff.added.empty() && diff.removed.empty() && mine.set.difference(applied).empty() && applied.difference(mine.set).empty();
	if (applied.nonEmpty()) kept.push({ manager: who.manager, operation: 'Apply', apiVersion: who.apiVersion, subresource: who.subresource, time: unchanged ? mine.time : now, set: applied });
	// Type meta from the configuration, server-owned metadata from the stored object, the rest as merged.
	const { metadata: mergedMeta, ...mergedRest } = merged as { metadata?: Record<string, unknown> };
	const serverMeta: Record<string, unknown> = {};
	for (const name of SERVER_META) if (live && (live.metadata as Record<string, unknown>)[name] !== undefined) serverMeta[name] = (live.metadata as Record<string, unknown>)[name];
	if (!live) {
		serverMeta.name = config.metadata.name;
		if (config.metadata.namespace) serverMeta.namespace = config.metadata.namespace;
	}
	const object = { apiVersion: config.apiVersion, kind: config.kind, metadata: { ...serverMeta, ...(mergedMeta ?? {}) }, ...mergedRest } as KubeObject;
	object.metadata.managedFields = encode(capUpdateManagers(kept));
	return { object };
}

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** The manager kubectl's server-side apply uses by default; the server keeps its client-side annotation in step. */
const KUBECTL_SSA_MANAGER = 'kubectl';

/**
 * An apply with the two upgrades the server gives kubectl's own manager
 * when the object was client-side applied before: conflicts on fields the
 * last-applied annotation set (and the live object still has) are forced,
 * and the annotation is rewritten to the new configuration, so going back
 * to client-side apply still works (lastappliedmanager.go,
 * lastappliedupdater.go).
 */
export function applyWithLastApplied(live: KubeObject | undefined, config: KubeObject, who: WriteIdentity, now: string, force: boolean, reset: ResetFields): ReturnType<typeof applyConfiguration> {
	let outcome = applyConfiguration(live, config, who, now, force, reset);
	if (who.manager !== KUBECTL_SSA_MANAGER || !live) return outcome;
	const lastAppliedText = live.metadata.annotations?.[LAST_APPLIED];
	if ('conflicts' in outcome && lastAppliedText) {
		const allowed = fieldsStillAsLastApplied(live, lastAppliedText);
		const remaining = outcome.conflicts.filter((c) => !allowed.has(c.path));
		if (remaining.length) return { conflicts: remaining };
		outcome = applyConfiguration(live, config, who, now, true, reset);
	}
	if ('object' in outcome && lastAppliedText) {
		const { [LAST_APPLIED]: _self, ...annotations } = config.metadata.annotations ?? {};
		const recorded = structuredClone(config) as KubeObject;
		if (Object.keys(annotations).length) recorded.metadata.annotations = annotations;
		else delete recorded.metadata.annotations;
		outcome.object.metadata.annotations = { ...(outcome.object.metadata.annotations ?? {}), [LAST_APPLIED]: JSON.stringify(recorded) };
	}
	return outcome;
}

/** The paths (as conflict messages print them) that the last-applied configuration set and the live object still holds unchanged. */
function fieldsStillAsLastApplied(live: KubeObject, lastAppliedText: string): Set<string> {
	let lastApplied: KubeObject;
	try {
		lastApplied = JSON.parse(lastAppliedText) as KubeObject;
	} catch {
		return new Set();
	}
	if (!lastApplied || typeof lastApplied !== 'object') return new Set();
	const type = typeOf(live);
	const view = stripped({ ...lastApplied, metadata: lastApplied.metadata ?? {} });
	const set = fieldSetOf(view, type);
	const diff = compare(view, stripped(live), type);
	return new Set(set.difference(diff.modified).difference(diff.removed).paths().map(pathString));
}

/** The 409 an apply's conflicts give, worded as conflict.go words it. */
export function conflictResponse(conflicts: Conflict[]): ApiResponse {
	const describe = (c: Conflict) => {
		let who = JSON.stringify(c.manager);
		if (c.subresource) who += ` with subresource ${JSON.stringify(c.subresource)}`;
		return c.operation === 'Update' ? `${who} using ${c.apiVersion}` : who;
	};
	let message: string;
	if (conflicts.length === 1) message = `Apply failed with 1 conflict: conflict with ${describe(conflicts[0])}: ${conflicts[0].path}`;
	else {
		const byManager = new Map<string, Conflict[]>();
		for (const c of conflicts) {
			const key = JSON.stringify({ manager: c.manager, operation: c.operation, apiVersion: c.apiVersion, subresource: c.subresource });
			byManager.set(key, [...(byManager.get(key) ?? []), c]);
		}
		const lines: string[] = [];
		for (const key of [...byManager.keys()].sort(compareGoStrings)) {
			const group = byManager.get(key)!;
			lines.push(`conflicts with ${describe(group[0])}:`);
			for (const c of group) lines.push(`- ${c.path}`);
		}
		message = `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
	}
	return applyConflict(
		message,
		conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${describe(c)}`, field: c.path })),
	);
}

/** stripmeta.go also strips the path `metadata` itself: nobody owns the map, only what is in it. */
function withoutMetadataItself(set: FieldSet): FieldSet {
	set.members.delete('f:metadata');
	return set;
}

function typeOf(obj: KubeObject): MergeType {
	const [group, version] = (obj.apiVersion ?? '').includes('/') ? (obj.apiVersion as string).split('/') : ['', obj.apiVersion ?? ''];
	return rootType(group, version, obj.kind ?? '');
}

/** The object as the field manager compares it: without type meta and server-owned metadata. */
function stripped(obj: KubeObject): Record<string, unknown> {
	const { apiVersion: _a, kind: _k, metadata, ...rest } = obj;
	const meta: Record<string, unknown> = { ...metadata };
	for (const name of SERVER_META) delete meta[name];
	return Object.keys(meta).length ? { metadata: meta, ...rest } : { ...rest };
}

/** The stripped object with the reset fields of this write taken out. */
function typedView(obj: KubeObject, subresource: string | undefined, reset: ResetFields): Record<string, unknown> {
	const view = stripped(obj);
	if (subresource === 'status') {
		// Status strategies reset spec, labels and owner references; status and annotations are the writer's
		// (the Deployment controller records its revision annotation through deployments/status).
		delete view.spec;
		const meta = view.metadata as Record<string, unknown> | undefined;
		if (meta) {
			delete meta.labels;
			delete meta.ownerReferences;
			delete meta.finalizers;
		}
		return view;
	}
	if (reset.hasStatusSubresource && !subresource) delete view.status;
	return view;
}

/**
 * What a new object is compared with on create: the kind's Go zero value as
 * JSON. Structs that are values (not pointers) appear there as `{}`, so
 * creating `spec` does not make its creator own `spec` itself, while a
 * `metadata.labels` map is new and is owned (`.` in FieldsV1).
 */
function emptyObjectOf(obj: KubeObject): KubeObject {
	const zero: Record<string, unknown> = { metadata: {} };
	// A Pod spec's containers has no omitempty: the zero value says `containers: null`.
	const podTemplate = () => ({ metadata: {}, spec: { containers: null } });
	for (const part of ['spec', 'status'] as const) if (obj[part] !== undefined) zero[part] = {};
	if (obj.kind === 'Pod') zero.spec = { containers: null };
	switch (obj.kind) {
		case 'Deployment':
			zero.spec = { template: podTemplate(), strategy: {} };
			break;
		case 'DaemonSet':
		case 'StatefulSet':
			zero.spec = { template: podTemplate(), updateStrategy: {} };
			break;
		case 'ReplicaSet':
		case 'Job':
			zero.spec = { template: podTemplate() };
			break;
		case 'CronJob':
			zero.spec = { jobTemplate: { metadata: {}, spec: { template: podTemplate() } } };
			break;
		case 'PodTemplate':
			zero.template = podTemplate();
			break;
		case 'Event':
			zero.involvedObject = {};
			zero.source = {};
			break;
		case 'RoleBinding':
		case 'ClusterRoleBinding':
			zero.roleRef = {};
			break;
		case 'Node':
			zero.status = { daemonEndpoints: { kubeletEndpoint: {} }, nodeInfo: {} };
			break;
	}
	return { apiVersion: obj.apiVersion, kind: obj.kind, ...zero } as KubeObject;
}

/** The entries a write starts from: those the request carries (one empty entry clears them), else the stored ones. */
function incomingEntries(live: KubeObject | undefined, obj: KubeObject): Entry[] {
	const sent = obj.metadata.managedFields;
	if (sent && sent.length) {
		if (sent.length === 1 && Object.keys(sent[0]).length === 0) return [];
		return decode(sent);
	}
	return decode(live?.metadata.managedFields);
}

function decode(entries: ManagedFieldsEntry[] | undefined): Entry[] {
	return (entries ?? []).map((e) => ({
		manager: e.manager ?? '',
		operation: e.operation ?? 'Update',
		apiVersion: e.apiVersion ?? '',
		subresource: e.subresource || undefined,
		time: e.time,
		set: FieldSet.fromFieldsV1(e.fieldsV1),
	}));
}

/** Entries in managedfields.go's order: operation, time, manager, apiVersion, subresource. */
function encode(entries: Entry[]): ManagedFieldsEntry[] {
	const sorted = [...entries].sort(
		(p, q) =>
			compareGoStrings(p.operation, q.operation) ||
			compareGoStrings(p.time ?? '', q.time ?? '') ||
			compareGoStrings(p.manager, q.manager) ||
			compareGoStrings(p.apiVersion, q.apiVersion) ||
			compareGoStrings(p.subresource ?? '', q.subresource ?? ''),
	);
	return sorted.map((e) => {
		const out: ManagedFieldsEntry = { manager: e.manager, operation: e.operation, apiVersion: e.apiVersion };
		if (e.time) out.time = e.time;
		out.fieldsType = 'FieldsV1';
		out.fieldsV1 = e.set.toFieldsV1();
		if (e.subresource) out.subresource = e.subresource;
		return out;
	});
}

/** Keeps at most ten Update entries, merging the oldest into `ancient-changes` (capmanagers.go). */
function capUpdateManagers(entries: Entry[]): Entry[] {
	const updates = entries.filter((e) => e.operation === 'Update' && e.manager !== ANCIENT_CHANGES);
	if (updates.length + (entries.some((e) => e.manager === ANCIENT_CHANGES) ? 1 : 0) <= MAX_UPDATE_MANAGERS) return entries;
	const byAge = [...updates].sort((p, q) => compareGoStrings(p.time ?? '', q.time ?? ''));
	const excess = byAge.slice(0, updates.length - (MAX_UPDATE_MANAGERS - 1));
	let ancient = entries.find((e) => e.manager === ANCIENT_CHANGES);
	const rest = entries.filter((e) => !excess.includes(e) && e !== ancient);
	for (const e of excess) {
		if (!ancient) ancient = { manager: ANCIENT_CHANGES, operation: 'Update', apiVersion: e.apiVersion, set: new FieldSet() };
		ancient = { ...ancient, set: ancient.set.union(e.set) };
	}
	return ancient ? [...rest, ancient] : rest;
}

