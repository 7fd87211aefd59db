/**
 * Adoption and release through controller references: a controller claims
 * the objects its selector matches. It keeps what it already owns and still
 * matches, adopts orphans that match (adding a controller ownerReference by
 * patch), and releases what it owns that no longer matches (removing its
 * reference). Objects controlled by someone else are never touched.
 *
 * Mirrors pkg/controller/controller_ref_manager.go
 * (BaseControllerRefManager.ClaimObject, PodControllerRefManager,
 * ReplicaSetControllerRefManager).
 */
import type { KubeObject } from '../api/types.ts';
import type { ApiClient, ResourceRef } from '../client/client.ts';
import { controllerOf, newControllerRef } from './pod-util.ts';

interface ClaimRequest {
	client: ApiClient;
	/** The controller object (as cached). */
	owner: KubeObject;
	/** Where the owner lives in the API (for the fresh read before adopting). */
	ownerResource: ResourceRef;
	/** Where the children live. */
	childResource: ResourceRef;
	/** Whether a child matches the owner's selector. */
	matches(child: KubeObject): boolean;
}

interface ClaimResult {
	claimed: KubeObject[];
	/** Error messages (adoptions or releases that failed): the caller requeues. */
	errors: string[];
}

/** ClaimObjects: claims each child in turn. */
export function claimObjects(request: ClaimRequest, children: KubeObject[]): ClaimResult {
	const { owner } = request;
	const ownerUid = owner.metadata.uid;
	const ownerDeleting = !!owner.metadata.deletionTimestamp;
	const claimed: KubeObject[] = [];
	const errors: string[] = [];
	let canAdopt: string | undefined | null = null;
	for (const child of children) {
		const ref = controllerOf(child);
		if (ref) {
			if (ref.uid !== ownerUid) continue;
			if (request.matches(child)) {
				claimed.push(child);
				continue;
			}
			if (ownerDeleting) continue;
			const released = request.client.patch(request.childResource, child.metadata.namespace, child.metadata.name ?? '', {
				metadata: { ownerReferences: [{ $patch: 'delete', uid: ownerUid }], uid: child.metadata.uid },
			});
			if (!released.ok && released.code !== 404) errors.push(released.message);
			continue;
		}
		if (ownerDeleting || !request.matches(child) || child.metadata.deletionTimestamp) continue;
		if (owner.metadata.namespace && owner.metadata.namespace !== child.metadata.namespace) continue;
		// RecheckDeletionTimestamp, once per claim: adopt only for an owner that is still there and not being deleted.
		if (canAdopt === null) canAdopt = recheckOwner(request);
		if (canAdopt !== undefined) {
			errors.push(`can't adopt ${child.kind} ${child.metadata.namespace}/${child.metadata.name} (${child.metadata.uid}): ${canAdopt}`);
			continue;
		}
		const adopted = request.client.patch(request.childResource, child.metadata.namespace, child.metadata.name ?? '', {
			metadata: { ownerReferences: [newControllerRef(owner)], uid: child.metadata.uid },
		});
		if (adopted.ok) claimed.push(child);
		else if (adopted.code !== 404) errors.push(adopted.message);
	}
	return { claimed, errors };
}

/** A fresh read of the owner: undefined if it may adopt, else why not. */
function recheckOwner(request: ClaimRequest): string | undefined {
	const { owner } = request;
	const fresh = request.client.get(request.ownerResource, owner.metadata.namespace, owner.metadata.name ?? '');
	if (!fresh.ok) return fresh.message;
	if (fresh.object.metadata.uid !== owner.metadata.uid) {
		return `original ${owner.metadata.namespace}/${owner.metadata.name} is gone: got uid ${fresh.object.metadata.uid}, wanted ${owner.metadata.uid}`;
	}
	if (fresh.object.metadata.deletionTimestamp) {
		return `${owner.metadata.namespace}/${owner.metadata.name} has just been deleted at ${fresh.object.metadata.deletionTimestamp}`;
	}
	return undefined;
}
