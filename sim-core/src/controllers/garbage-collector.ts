/**
 * The garbage collector: a graph of every watched object and its
 * ownerReferences, and two jobs on it.
 *
 * - attemptToDelete: an object whose owners are all gone (or all being
 *   deleted in the foreground) is deleted; dangling references next to a
 *   live owner are removed instead. An owner deleted in the foreground (it
 *   carries the `foregroundDeletion` finalizer) gets its dependents deleted,
 *   waits until no dependent that blocks it (blockOwnerDeletion) is left,
 *   then loses the finalizer and goes.
 * - attemptToOrphan: an owner carrying the `orphan` finalizer has its
 *   reference removed from every dependent, then loses the finalizer.
 *
 * Background deletion needs nothing more: the owner goes at once, and its
 * dependents, now dangling, are collected by attemptToDelete. The API server
 * turns `propagationPolicy` into those finalizers.
 *
 * Owners are always read live from the API server, as upstream does; its
 * 500-entry absent-owner cache is kept. Left out: the metadata-only
 * informers and discovery resyncs (every resource the simulation serves is
 * watched from the start) and the OwnerRefInvalidNamespace event.
 *
 * Mirrors pkg/controller/garbagecollector/graph.go,
 * pkg/controller/garbagecollector/graph_builder.go,
 * pkg/controller/garbagecollector/garbagecollector.go.
 */
import type { KubeObject, OwnerReference } from '../api/types.ts';
import { resourceForKind } from '../api/resources.ts';
import { refOf } from '../client/client.ts';
import { ControllerBase, WATCHABLE_RESOURCES, type SyncError } from './controller-context.ts';

const FOREGROUND_DELETION_FINALIZER = 'foregroundDeletion';
const ORPHAN_FINALIZER = 'orphan';
/** NewReferenceCache(500): owners recently found absent (garbagecollector.go). */
const ABSENT_OWNER_CACHE_SIZE = 500;

/** Who an object is (objectReference: owner coordinates plus namespace). */
interface GraphIdentity {
	apiVersion: string;
	kind: string;
	/** The object's namespace; for a virtual owner, its dependent's namespace. */
	namespace: string;
	name: string;
	uid: string;
}

/** One vertex of the dependency graph (graph.go node). Plain JSON. */
interface GraphNode {
	identity: GraphIdentity;
	/** The object's ownerReferences as last observed. */
	owners: OwnerReference[];
	/** uids of the objects that name this one as an owner. */
	dependents: string[];
	/** The object has a deletionTimestamp. */
	beingDeleted: boolean;
	/** Being deleted in the foreground: waiting for its dependents. */
	deletingDependents: boolean;
	/** Known only as someone's owner, not yet seen by an informer. */
	virtual: boolean;
}

interface GarbageCollectorState {
	nodes: Record<string, GraphNode>;
	/** Recently absent owners (`apiVersion/kind/namespace/name/uid`), oldest first. */
	absentOwners: string[];
}

/** What is known about one owner reference, from a live read. */
export type OwnerStatus = 'absent' | 'present' | 'deleting-dependents';

/**
 * classifyReferences: solid owners (alive), dangling ones (gone, or a
 * different object by that name), and owners waiting for their dependents
 * (being deleted with the foregroundDeletion finalizer).
 */
export function classifyReferences(refs: OwnerReference[], statusOf: (ref: OwnerReference) => OwnerStatus): { solid: OwnerReference[]; dangling: OwnerReference[]; waiting: OwnerReference[] } {
	const out = { solid: [] as OwnerReference[], dangling: [] as OwnerReference[], waiting: [] as OwnerReference[] };
	for (const ref of refs) {
		const status = statusOf(ref);
		if (status === 'absent') out.dangling.push(ref);
		else if (status === 'deleting-dependents') out.waiting.push(ref);
		else out.solid.push(ref);
	}
	return out;
}

/** What attemptToDeleteItem does with an object, once its owners are classified. */
type DeleteDecision =
	| { action: 'none' }
	| { action: 'remove-references'; uids: string[] }
	| { action: 'delete'; policy: 'Background' | 'Foreground' | 'Orphan'; unblockFirst: boolean };

/**
 * The decision part of attemptToDeleteItem:
 * - a solid owner keeps the object; only dangling or waiting references go;
 * - an owner waiting on its dependents, and dependents of our own: delete in
 *   the foreground too (after unblocking our references if a dependent is
 *   itself deleting dependents, which would deadlock a cycle);
 * - otherwise the object is garbage: delete it, honouring an orphan or
 *   foreground finalizer it already carries, else in the background.
 */
export function decideDeletion(finalizers: string[], classified: ReturnType<typeof classifyReferences>, dependents: Array<Pick<GraphNode, 'deletingDependents'>>): DeleteDecision {
	if (classified.solid.length > 0) {
		if (classified.dangling.length === 0 && classified.waiting.length === 0) return { action: 'none' };
		return { action: 'remove-references', uids: [...classified.dangling, ...classified.waiting].map((r) => r.uid) };
	}
	if (classified.waiting.length > 0 && dependents.length > 0) {
		return { action: 'delete', policy: 'Foreground', unblockFirst: dependents.some((d) => d.deletingDependents) };
	}
	const policy = finalizers.includes(ORPHAN_FINALIZER) ? 'Orphan' : finalizers.includes(FOREGROUND_DELETION_FINALIZER) ? 'Foreground' : 'Background';
	return { action: 'delete', policy, unblockFirst: false };
}

function identityOf(obj: KubeObject): GraphIdentity {
	return { apiVersion: obj.apiVersion, kind: obj.kind, namespace: obj.metadata.namespace ?? '', name: obj.metadata.name ?? '', uid: obj.metadata.uid ?? '' };
}

function hasFinalizer(obj: KubeObject | undefined, finalizer: string): boolean {
	return !!obj?.metadata.finalizers?.includes(finalizer);
}

/** deletionStartsWithFinalizer: being deleted with the finalizer now, and not before. */
function deletionStartsWithFinalizer(oldObj: KubeObject | undefined, obj: KubeObject, finalizer: string): boolean {
	if (!obj.metadata.deletionTimestamp || !hasFinalizer(obj, finalizer)) return false;
	if (!oldObj) return true;
	return !oldObj.metadata.deletionTimestamp || !hasFinalizer(oldObj, finalizer);
}

function describe(identity: GraphIdentity): string {
	const info = resourceForKind(identity.apiVersion, identity.kind);
	const resource = info?.resource ?? identity.kind.toLowerCase();
	return info && !info.namespaced ? `${resource}/${identity.name}` : `${resource}/${identity.namespace}/${identity.name}`;
}

export class GarbageCollector extends ControllerBase<GarbageCollectorState> {
	readonly name = 'garbage-collector-controller';
	readonly sub = 'garbagecollector';
	/** Every resource that can be listed, watched and deleted, except Events (ignored upstream too). */
	readonly resources = Object.keys(WATCHABLE_RESOURCES);
	/** --concurrent-gc-syncs default 20 (pkg/controller/garbagecollector/config/v1alpha1/defaults.go). */
	override readonly workers = 20;

	freshState(): GarbageCollectorState {
		return { nodes: {}, absentOwners: [] };
	}

	// ---- the graph builder (processGraphChanges) -----------------------------------------

	override onAdd(_resource: string, obj: KubeObject): void {
		this.processChange('upsert', obj, undefined);
	}

	override onUpdate(_resource: string, oldObj: KubeObject, newObj: KubeObject): void {
		this.processChange('upsert', newObj, oldObj);
	}

	override onDelete(_resource: string, obj: KubeObject): void {
		this.processChange('delete', obj, undefined);
	}

	private get nodes(): Record<string, GraphNode> {
		return this.state.nodes;
	}

	private enqueueDelete(uid: string): void {
		this.enqueue(`delete/${uid}`);
	}

	private processChange(type: 'upsert' | 'delete', obj: KubeObject, oldObj: KubeObject | undefined): void {
		const uid = obj.metadata.uid;
		if (!uid) return;
		const existing = this.nodes[uid];
		if (type === 'delete') {
			if (existing) this.removeNode(existing, obj);
			return;
		}
		const owners = obj.metadata.ownerReferences ?? [];
		if (!existing) {
			const node: GraphNode = {
				identity: identityOf(obj),
				owners,
				dependents: [],
				beingDeleted: !!obj.metadata.deletionTimestamp,
				deletingDependents: !!obj.metadata.deletionTimestamp && hasFinalizer(obj, FOREGROUND_DELETION_FINALIZER),
				virtual: false,
			};
			this.nodes[uid] = node;
			this.addDependentToOwners(node, owners);
			this.processTransitions(oldObj, obj, node);
			return;
		}
		if (existing.virtual) {
			// Observed at last: its real coordinates replace the ones its dependents guessed.
			existing.virtual = false;
			existing.identity = identityOf(obj);
		}
		const oldByUid = new Map(existing.owners.map((r) => [r.uid, r]));
		const newByUid = new Map(owners.map((r) => [r.uid, r]));
		const added = owners.filter((r) => !oldByUid.has(r.uid));
		const removed = existing.owners.filter((r) => !newByUid.has(r.uid));
		const changed = owners.filter((r) => oldByUid.has(r.uid) && JSON.stringify(oldByUid.get(r.uid)) !== JSON.stringify(r)).map((r) => ({ oldRef: oldByUid.get(r.uid)!, newRef: r }));
		if (added.length || removed.length || changed.length) {
			// addUnblockedOwnersToDeleteQueue: an owner no longer blocked by this object may now finish.
			for (const ref of removed) if (ref.blockOwnerDeletion && this.nodes[ref.uid]) this.enqueueDelete(ref.uid);
			for (const { oldRef, newRef } of changed) if (oldRef.blockOwnerDeletion && !newRef.blockOwnerDeletion && this.nodes[newRef.uid]) this.enqueueDelete(newRef.uid);
			existing.owners = owners;
			this.addDependentToOwners(existing, added);
			this.removeDependentFromOwners(existing, removed);
		}
		if (obj.metadata.deletionTimestamp) existing.beingDeleted = true;
		this.processTransitions(oldObj, obj, existing);
	}

	/** addDependentToOwners: links the node under each owner, creating virtual owners that are checked live. */
	private addDependentToOwners(node: GraphNode, owners: OwnerReference[]): void {
		let suspicious = false;
		for (const owner of owners) {
			let ownerNode = this.nodes[owner.uid];
			if (!ownerNode) {
				ownerNode = {
					identity: { apiVersion: owner.apiVersion, kind: owner.kind, namespace: node.identity.namespace, name: owner.name, uid: owner.uid },
					owners: [],
					dependents: [],
					beingDeleted: false,
					deletingDependents: false,
					virtual: true,
				};
				this.nodes[owner.uid] = ownerNode;
				if (!ownerNode.dependents.includes(node.identity.uid)) ownerNode.dependents.push(node.identity.uid);
				this.enqueueDelete(owner.uid);
				continue;
			}
			if (!ownerNode.dependents.includes(node.identity.uid)) ownerNode.dependents.push(node.identity.uid);
			const ownerNamespaced = ownerNode.identity.namespace !== '';
			if (ownerNamespaced && ownerNode.identity.namespace !== node.identity.namespace) suspicious = true;
			else if (ownerNode.identity.apiVersion !== owner.apiVersion || ownerNode.identity.kind !== owner.kind || ownerNode.identity.name !== owner.name) suspicious = true;
		}
		// A reference that disagrees with the owner's observed coordinates: verify it live.
		if (suspicious) this.enqueueDelete(node.identity.uid);
	}

	private removeDependentFromOwners(node: GraphNode, owners: OwnerReference[]): void {
		for (const owner of owners) {
			const ownerNode = this.nodes[owner.uid];
			if (ownerNode) ownerNode.dependents = ownerNode.dependents.filter((d) => d !== node.identity.uid);
		}
	}

	/** processTransitions: deletion with the orphan or foreground finalizer starts one of the two jobs. */
	private processTransitions(oldObj: KubeObject | undefined, obj: KubeObject, node: GraphNode): void {
		if (deletionStartsWithFinalizer(oldObj, obj, ORPHAN_FINALIZER)) {
			this.enqueue(`orphan/${node.identity.uid}`);
			return;
		}
		if (deletionStartsWithFinalizer(oldObj, obj, FOREGROUND_DELETION_FINALIZER)) {
			node.deletingDependents = true;
			for (const dep of node.dependents) this.enqueueDelete(dep);
			this.enqueueDelete(node.identity.uid);
		}
	}

	/** The delete branch of processGraphChanges: dependents are checked; a foreground owner may now finish. */
	private removeNode(node: GraphNode, obj: KubeObject | undefined): void {
		delete this.nodes[node.identity.uid];
		this.removeDependentFromOwners(node, node.owners);
		if (node.dependents.length > 0) this.rememberAbsent(obj ? identityOf(obj) : node.identity);
		for (const dep of node.dependents) this.enqueueDelete(dep);
		for (const owner of node.owners) {
			const ownerNode = this.nodes[owner.uid];
			if (ownerNode?.deletingDependents) this.enqueueDelete(owner.uid);
		}
	}

	private absentKey(identity: Pick<GraphIdentity, 'apiVersion' | 'kind' | 'namespace' | 'name' | 'uid'>): string {
		return `${identity.apiVersion}/${identity.kind}/${identity.namespace}/${identity.name}/${identity.uid}`;
	}

	private rememberAbsent(identity: GraphIdentity): void {
		const key = this.absentKey(identity);
		const list = this.state.absentOwners.filter((k) => k !== key);
		list.push(key);
		while (list.length > ABSENT_OWNER_CACHE_SIZE) list.shift();
		this.state.absentOwners = list;
	}

	// ---- the workers ------------------------------------------------------------------

	sync(key: string): SyncError {
		const slash = key.indexOf('/');
		const job = key.slice(0, slash);
		const uid = key.slice(slash + 1);
		const node = this.nodes[uid];
		if (!node) return undefined;
		const info = resourceForKind(node.identity.apiVersion, node.identity.kind);
		if (!info) {
			// restMappingError: a kind this API server does not serve; nothing to do.
			this.trace('reconcile', undefined, `cannot map ${node.identity.apiVersion}, Kind=${node.identity.kind} to a resource; ignoring ${node.identity.name}`);
			return undefined;
		}
		if (job === 'orphan') return this.attemptToOrphan(node);
		const error = this.attemptToDeleteItem(node);
		if (error !== undefined) return error;
		// Still virtual: wait until an informer shows it (or a virtual delete removes it).
		if (this.nodes[uid]?.virtual) return `item ${describe(node.identity)} hasn't been observed via informer yet`;
		return undefined;
	}

	private ref(identity: GraphIdentity) {
		const info = resourceForKind(identity.apiVersion, identity.kind)!;
		return { ref: refOf(info), namespace: info.namespaced ? identity.namespace : undefined };
	}

	/** getObject: a live read of the object itself. */
	private getObject(identity: GraphIdentity): { obj?: KubeObject; error?: string } {
		const { ref, namespace } = this.ref(identity);
		const got = this.host.client.get(ref, namespace, identity.name);
		if (got.ok) return { obj: got.object };
		if (got.code === 404) return {};
		return { error: got.message };
	}

	/** A virtual delete event: the object is gone, or was never there. */
	private virtualDelete(node: GraphNode): void {
		this.trace('virtual-delete', describe(node.identity), `${describe(node.identity)} (uid ${node.identity.uid}) is not found; removing it from the graph`);
		this.removeNode(node, undefined);
	}

	private attemptToDeleteItem(item: GraphNode): SyncError {
		// Being deleted without waiting for dependents: the final removal will bring us back.
		if (item.beingDeleted && !item.deletingDependents) return undefined;
		const { obj: latest, error } = this.getObject(item.identity);
		if (error) return error;
		if (!latest || latest.metadata.uid !== item.identity.uid) {
			this.virtualDelete(item);
			return undefined;
		}
		if (item.deletingDependents) return this.processDeletingDependentsItem(item);
		const refs = latest.metadata.ownerReferences ?? [];
		if (refs.length === 0) return undefined;
		let lookupError: string | undefined;
		const classified = classifyReferences(refs, (ref) => {
			const status = this.ownerStatus(ref, item);
			if (typeof status === 'object') {
				lookupError ??= status.error;
				return 'present';
			}
			return status;
		});
		if (lookupError) return lookupError;
		const dependents = item.dependents.map((uid) => this.nodes[uid]).filter((n): n is GraphNode => !!n);
		const decision = decideDeletion(latest.metadata.finalizers ?? [], classified, dependents);
		const { ref, namespace } = this.ref(item.identity);
		const name = describe(item.identity);
		switch (decision.action) {
			case 'none':
				return undefined;
			case 'remove-references': {
				this.trace('reconcile', name, `removing dangling or waiting owner references (${decision.uids.join(', ')}) from ${name}`);
				const patched = this.host.client.patch(ref, namespace, item.identity.name, {
					metadata: { ownerReferences: decision.uids.map((uid) => ({ $patch: 'delete', uid })), uid: item.identity.uid },
				});
				return patched.ok || patched.code === 404 ? undefined : patched.message;
			}
			case 'delete': {
				if (decision.unblockFirst) {
					// unblockOwnerReferences: a dependent deleting its own dependents could deadlock on us.
					const unblocked = item.owners.filter((o) => o.blockOwnerDeletion).map((o) => ({ ...o, blockOwnerDeletion: false }));
					const patched = this.host.client.patch(ref, namespace, item.identity.name, { metadata: { ownerReferences: unblocked, uid: item.identity.uid } });
					if (!patched.ok && patched.code !== 404) return patched.message;
				}
				this.trace('delete', name, `deleting ${name} with propagation policy ${decision.policy}: no owner is alive`);
				const deleted = this.host.client.delete(ref, namespace, item.identity.name, {
					propagationPolicy: decision.policy,
					preconditions: { uid: item.identity.uid, resourceVersion: latest.metadata.resourceVersion },
				});
				return deleted.ok || deleted.code === 404 ? undefined : deleted.message;
			}
		}
	}

	/** isDangling: a live read of the owner (after the absent-owner cache). */
	private ownerStatus(ref: OwnerReference, item: GraphNode): OwnerStatus | { error: string } {
		const info = resourceForKind(ref.apiVersion, ref.kind);
		if (!info) return { error: `unable to map ${ref.apiVersion}, Kind=${ref.kind} to a resource` };
		const namespace = info.namespaced ? item.identity.namespace : '';
		if (!item.identity.namespace && info.namespaced) return { error: `cluster-scoped ${describe(item.identity)} has a namespaced owner ${ref.kind} ${ref.name}` };
		if (this.state.absentOwners.includes(this.absentKey({ apiVersion: ref.apiVersion, kind: ref.kind, namespace, name: ref.name, uid: ref.uid }))) return 'absent';
		const got = this.host.client.get(refOf(info), info.namespaced ? namespace : undefined, ref.name);
		if (!got.ok) {
			if (got.code !== 404) return { error: got.message };
			this.rememberAbsent({ apiVersion: ref.apiVersion, kind: ref.kind, namespace, name: ref.name, uid: ref.uid });
			return 'absent';
		}
		if (got.object.metadata.uid !== ref.uid) {
			this.rememberAbsent({ apiVersion: ref.apiVersion, kind: ref.kind, namespace, name: ref.name, uid: ref.uid });
			return 'absent';
		}
		if (got.object.metadata.deletionTimestamp && hasFinalizer(got.object, FOREGROUND_DELETION_FINALIZER)) return 'deleting-dependents';
		return 'present';
	}

	/** processDeletingDependentsItem: finish once no blocking dependent is left; else push them along. */
	private processDeletingDependentsItem(item: GraphNode): SyncError {
		const blocking = item.dependents
			.map((uid) => this.nodes[uid])
			.filter((dep): dep is GraphNode => !!dep && dep.owners.some((o) => o.uid === item.identity.uid && o.blockOwnerDeletion === true));
		if (blocking.length === 0) {
			this.trace('reconcile', describe(item.identity), `all blocking dependents of ${describe(item.identity)} are gone; removing the ${FOREGROUND_DELETION_FINALIZER} finalizer`);
			return this.removeFinalizer(item, FOREGROUND_DELETION_FINALIZER);
		}
		this.trace('reconcile', describe(item.identity), `${describe(item.identity)} waits for ${blocking.length} blocking dependent${blocking.length === 1 ? '' : 's'}`);
		for (const dep of blocking) if (!dep.deletingDependents) this.enqueueDelete(dep.identity.uid);
		return undefined;
	}

	/** attemptToOrphanWorker: strip our reference from every dependent, then drop the orphan finalizer. */
	private attemptToOrphan(owner: GraphNode): SyncError {
		const errors: string[] = [];
		for (const uid of owner.dependents) {
			const dep = this.nodes[uid];
			if (!dep) continue;
			const { ref, namespace } = this.ref(dep.identity);
			const patched = this.host.client.patch(ref, namespace, dep.identity.name, { metadata: { ownerReferences: [{ $patch: 'delete', uid: owner.identity.uid }], uid: dep.identity.uid } });
			if (!patched.ok && patched.code !== 404) errors.push(`orphaning ${describe(dep.identity)} failed, ${patched.message}`);
		}
		if (errors.length) return `orphanDependents for ${describe(owner.identity)} failed with ${errors.join('; ')}`;
		this.trace('reconcile', describe(owner.identity), `orphaned ${owner.dependents.length} dependent${owner.dependents.length === 1 ? '' : 's'} of ${describe(owner.identity)}; removing the ${ORPHAN_FINALIZER} finalizer`);
		return this.removeFinalizer(owner, ORPHAN_FINALIZER);
	}

	/** removeFinalizer: a merge patch of the finalizer list, guarded by the resourceVersion read. */
	private removeFinalizer(node: GraphNode, finalizer: string): SyncError {
		const { obj, error } = this.getObject(node.identity);
		if (error) return error;
		if (!obj || obj.metadata.uid !== node.identity.uid) return undefined;
		const finalizers = obj.metadata.finalizers ?? [];
		if (!finalizers.includes(finalizer)) return undefined;
		const rest = finalizers.filter((f) => f !== finalizer);
		const { ref, namespace } = this.ref(node.identity);
		const patched = this.host.client.patch(ref, namespace, node.identity.name, { metadata: { resourceVersion: obj.metadata.resourceVersion, finalizers: rest.length ? rest : null } }, 'application/merge-patch+json');
		return patched.ok || patched.code === 404 ? undefined : patched.message;
	}
}
