/**
 * The two storage protection controllers of kube-controller-manager. A
 * PersistentVolumeClaim being deleted keeps its `kubernetes.io/pvc-protection`
 * finalizer (so it shows Terminating) while any Pod that is not finished
 * still names it in a volume; a PersistentVolume being deleted keeps
 * `kubernetes.io/pv-protection` while it is Bound. When the last user goes,
 * the controller removes the finalizer and the API server deletes the
 * object. This is why `kubectl delete pvc` on a claim in use hangs until
 * its Pod is deleted.
 *
 * Mirrors pkg/controller/volume/pvcprotection/pvc_protection_controller.go
 * (processPVC, isBeingUsed, podUsesPVC),
 * pkg/controller/volume/pvprotection/pv_protection_controller.go
 * (processPV, isBeingUsed).
 */
import type { KubeObject, Pod } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { keyOf } from '../../client/informer.ts';
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../api/storage-finalizers.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';
import { splitKey } from '../pod-util.ts';
import type { PersistentVolume } from './persistentvolume-binder.ts';


/** The claims a Pod's volumes name. */
function claimsOf(pod: Pod): string[] {
	return (pod.spec.volumes ?? []).flatMap((v) => {
		const claim = (v as { persistentVolumeClaim?: { claimName?: string } }).persistentVolumeClaim?.claimName;
		return claim ? [claim] : [];
	});
}

/** A Pod that has finished no longer holds its claims. */
const finished = (pod: Pod) => pod.status?.phase === 'Succeeded' || pod.status?.phase === 'Failed';

/** The finalizer gone: an update that the API server turns into the deletion. */
function withoutFinalizer(obj: KubeObject, finalizer: string): KubeObject {
	return { ...obj, metadata: { ...obj.metadata, finalizers: (obj.metadata.finalizers ?? []).filter((f) => f !== finalizer) } };
}

export class PvcProtectionController extends ControllerBase<Record<string, never>> {
	readonly name = 'persistentvolumeclaim-protection-controller';
	readonly sub = 'pvc-protection';
	readonly resources = ['persistentvolumeclaims', 'pods'] as const;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'persistentvolumeclaims') {
			if (obj.metadata.deletionTimestamp) this.enqueue(keyOf(obj));
			return;
		}
		// A Pod that ends or goes may free the claims it used.
		for (const claim of claimsOf(obj as Pod)) this.enqueue(`${obj.metadata.namespace}/${claim}`);
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		this.onAdd(resource, obj);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		if (resource === 'pods') this.onAdd(resource, obj);
	}

	sync(key: string): SyncError {
		const claim = this.host.informer('persistentvolumeclaims').get(key);
		if (!claim?.metadata.deletionTimestamp || !claim.metadata.finalizers?.includes(PVC_PROTECTION_FINALIZER)) return undefined;
		const { namespace, name } = splitKey(key);
		const users = this.host.listInNamespace<Pod>('pods', namespace).filter((pod) => !finished(pod) && claimsOf(pod).includes(name));
		if (users.length) return undefined;
		this.trace('update', `persistentvolumeclaims/${key}`, `removing the pvc-protection finalizer of ${key}: no Pod uses it`);
		const written = this.host.client.update(R.persistentvolumeclaims, withoutFinalizer(claim, PVC_PROTECTION_FINALIZER));
		return written.ok || written.code === 404 ? undefined : written.message;
	}
}

export class PvProtectionController extends ControllerBase<Record<string, never>> {
	readonly name = 'persistentvolume-protection-controller';
	readonly sub = 'pv-protection';
	readonly resources = ['persistentvolumes'] as const;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(_resource: string, obj: KubeObject): void {
		if (obj.metadata.deletionTimestamp) this.enqueue(keyOf(obj));
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		this.onAdd(resource, obj);
	}

	sync(key: string): SyncError {
		const volume = this.host.informer('persistentvolumes').get(key) as PersistentVolume | undefined;
		if (!volume?.metadata.deletionTimestamp || !volume.metadata.finalizers?.includes(PV_PROTECTION_FINALIZER)) return undefined;
		if (volume.status?.phase === 'Bound') return undefined;
		this.trace('update', `persistentvolumes/${key}`, `removing the pv-protection finalizer of ${key}: it is not bound`);
		const written = this.host.client.update(R.persistentvolumes, withoutFinalizer(volume, PV_PROTECTION_FINALIZER));
		return written.ok || written.code === 404 ? undefined : written.message;
	}
}
