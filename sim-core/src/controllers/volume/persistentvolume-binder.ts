/**
 * The PersistentVolume controller of kube-controller-manager (the
 * "binder"): it pairs each PersistentVolumeClaim with a PersistentVolume
 * and keeps the pair's phases true.
 *
 * A claim without spec.volumeName gets the smallest Available volume that
 * satisfies it: the same storage class (an empty class matches only
 * volumes without one), every access mode it asks for, at least its
 * requested size, the same volume mode, and its selector's labels. The
 * volume is bound first (spec.claimRef, phase Bound, annotated
 * bound-by-controller), then the claim (spec.volumeName, annotated
 * bind-completed, status Bound with the volume's capacity and access
 * modes): two writes, as upstream does them, so a crash between them
 * leaves a volume that points at its claim and is finished on the next
 * pass. A claim that names its volume (pre-bound) gets that one if it fits.
 * A claim of a WaitForFirstConsumer class is bound only to a volume
 * reserved for it, which the scheduler does when it places the claim's
 * first Pod (../../scheduler/plugins/volume-binding.ts).
 *
 * A claim with no storage class at all (not even `""`) is given the
 * default StorageClass once one exists, as it would have been at creation.
 * Without a match the claim stays Pending and says why, on every pass
 * (every 15 s, --pvclaimbinder-sync-period): with no storage class,
 * `FailedBinding: no persistent volumes available for this claim and no
 * storage class is set` (a bare kubeadm cluster has no default
 * StorageClass); with a class the cluster lacks, `ProvisioningFailed:
 * storageclass.storage.k8s.io "x" not found`; with a WaitForFirstConsumer
 * class, `WaitForFirstConsumer`; with a class whose provisioner is
 * external, `ExternalProvisioning` (no provisioner runs here, so it waits,
 * as it would on a cluster without that driver).
 *
 * When a bound claim goes, its volume is Released (Retain: the data stays
 * and the volume is not offered again until an administrator clears
 * claimRef) or, under Delete, deleted; a hostPath volume can be deleted
 * only under /tmp, otherwise it Fails with upstream's message. When a
 * bound volume goes, its claim is Lost.
 *
 * Mirrors pkg/controller/volume/persistentvolume/pv_controller.go
 * (syncClaim, syncUnboundClaim, assignDefaultStorageClass, syncBoundClaim,
 * syncVolume, bind, reclaimVolume), pkg/controller/volume/persistentvolume/index.go
 * (findBestMatchForClaim), pkg/volume/hostpath/host_path.go (the deleter's /tmp rule).
 */
import type { KubeObject } from '../../api/types.ts';
import type { labelSelectorFromObject } from '../../api/labels.ts';
import { R } from '../../client/client.ts';
import { bySmallestCapacity, claimClass, claimNamesNoClass, defaultStorageClass, volumeMismatch } from '../../component-helpers/storage.ts';
import { keyOf } from '../../client/informer.ts';
import { ControllerBase, type SyncError } from '../controller-context.ts';

const RECORDER = 'persistentvolume-controller';

/** --pvclaimbinder-sync-period. */
export const PV_SYNC_PERIOD_MS = 15_000;

const ANN_BOUND_BY_CONTROLLER = 'pv.kubernetes.io/bound-by-controller';
const ANN_BIND_COMPLETED = 'pv.kubernetes.io/bind-completed';

interface ClaimRef {
	kind?: string;
	namespace?: string;
	name?: string;
	uid?: string;
	apiVersion?: string;
	resourceVersion?: string;
}

export interface PersistentVolume extends KubeObject {
	spec: {
		capacity?: { storage?: string };
		accessModes?: string[];
		storageClassName?: string;
		volumeMode?: string;
		claimRef?: ClaimRef | null;
		persistentVolumeReclaimPolicy?: string;
		hostPath?: { path?: string };
		local?: { path?: string };
		nodeAffinity?: unknown;
	};
	status?: { phase?: string; message?: string; reason?: string; lastPhaseTransitionTime?: string };
}

export interface PersistentVolumeClaim extends KubeObject {
	spec: {
		accessModes?: string[];
		storageClassName?: string | null;
		volumeName?: string;
		volumeMode?: string;
		selector?: Parameters<typeof labelSelectorFromObject>[0];
		resources?: { requests?: { storage?: string } };
	};
	status?: { phase?: string; accessModes?: string[]; capacity?: { storage?: string } };
}

/** Whether the volume's claimRef names this claim (by UID when it has one). */
function claimRefMatches(ref: ClaimRef | null | undefined, claim: PersistentVolumeClaim): boolean {
	if (!ref) return false;
	if (ref.name !== claim.metadata.name || (ref.namespace ?? '') !== (claim.metadata.namespace ?? '')) return false;
	return !ref.uid || ref.uid === claim.metadata.uid;
}

export class PersistentVolumeBinderController extends ControllerBase<Record<string, never>> {
	readonly name = 'persistentvolume-binder-controller';
	readonly sub = 'persistentvolume-binder';
	readonly resources = ['persistentvolumes', 'persistentvolumeclaims', 'storageclasses'] as const;

	freshState(): Record<string, never> {
		return {};
	}

	override onAdd(resource: string, obj: KubeObject): void {
		if (resource === 'storageclasses') return;
		this.enqueue(`${resource === 'persistentvolumes' ? 'volume' : 'claim'}|${keyOf(obj)}`);
	}

	override onUpdate(resource: string, _old: KubeObject, obj: KubeObject): void {
		this.onAdd(resource, obj);
	}

	override onDelete(resource: string, obj: KubeObject): void {
		// A claim that goes releases its volume; a volume that goes loses its claim.
		if (resource === 'persistentvolumeclaims') {
			const volume = (obj as PersistentVolumeClaim).spec.volumeName;
			if (volume) this.enqueue(`volume|${volume}`);
		} else if (resource === 'persistentvolumes') {
			const ref = (obj as PersistentVolume).spec.claimRef;
			if (ref?.name) this.enqueue(`claim|${ref.namespace}/${ref.name}`);
		}
	}

	override onLeading(): void {
		this.host.timer(this.sub, 'resync', PV_SYNC_PERIOD_MS, undefined, true);
	}

	/** The periodic resync: every claim and volume again (a Pending claim retries, and says why once more). */
	override onTimer(timer: string): void {
		if (timer !== 'resync') return;
		for (const claim of this.host.informer('persistentvolumeclaims').list()) this.enqueue(`claim|${keyOf(claim)}`);
		for (const volume of this.host.informer('persistentvolumes').list()) this.enqueue(`volume|${keyOf(volume)}`);
		this.host.timer(this.sub, 'resync', PV_SYNC_PERIOD_MS, undefined, true);
	}

	sync(key: string): SyncError {
		const bar = key.indexOf('|');
		const kind = key.slice(0, bar);
		const objectKey = key.slice(bar + 1);
		if (kind === 'claim') {
			const claim = this.host.informer('persistentvolumeclaims').get(objectKey) as PersistentVolumeClaim | undefined;
			return claim && !claim.metadata.deletionTimestamp ? this.syncClaim(claim) : undefined;
		}
		const volume = this.host.informer('persistentvolumes').get(objectKey) as PersistentVolume | undefined;
		return volume ? this.syncVolume(volume) : undefined;
	}

	private volumes(): PersistentVolume[] {
		return this.host.informer('persistentvolumes').list() as PersistentVolume[];
	}

	// ---- claims ------------------------------------------------------------------

	private syncClaim(claim: PersistentVolumeClaim): SyncError {
		if (claim.metadata.annotations?.[ANN_BIND_COMPLETED]) return this.syncBoundClaim(claim);
		return this.syncUnboundClaim(claim);
	}

	/** Whether the claim's class binds only once a Pod uses it (volumeBindingMode WaitForFirstConsumer). */
	private delaysBinding(claim: PersistentVolumeClaim): boolean {
		const storageClass = this.host.informer('storageclasses').get(claimClass(claim)) as (KubeObject & { volumeBindingMode?: string }) | undefined;
		return storageClass?.volumeBindingMode === 'WaitForFirstConsumer';
	}

	/**
	 * findBestMatchForClaim: a volume already pointing at the claim, else the
	 * smallest Available one that fits; for a delayed claim only the former
	 * (the scheduler reserves a volume on the node it picks, in its PreBind).
	 */
	private findBestMatch(claim: PersistentVolumeClaim): PersistentVolume | undefined {
		let best: PersistentVolume | undefined;
		const delayed = this.delaysBinding(claim);
		for (const volume of this.volumes()) {
			if (volume.metadata.deletionTimestamp || volumeMismatch(volume, claim)) continue;
			if (claimRefMatches(volume.spec.claimRef, claim)) return volume;
			if (delayed) continue;
			// A volume reserved for another claim, or not Available (Released, Failed), is not offered.
			if (volume.spec.claimRef || (volume.status?.phase && volume.status.phase !== 'Available' && volume.status.phase !== 'Pending')) continue;
			if (!best || bySmallestCapacity(volume, best) < 0) best = volume;
		}
		return best;
	}

	private syncUnboundClaim(claim: PersistentVolumeClaim): SyncError {
		// Retroactive default class: a claim made before any default existed (storageClassName absent, not "") gets it now.
		const defaultClass = claimNamesNoClass(claim) && !claim.spec.volumeName ? defaultStorageClass(this.host.informer('storageclasses').list()) : undefined;
		if (defaultClass) {
			this.trace('update', `persistentvolumeclaims/${keyOf(claim)}`, `assigning the default StorageClass ${defaultClass} to ${keyOf(claim)}`);
			const written = this.host.client.update(R.persistentvolumeclaims, { ...claim, spec: { ...claim.spec, storageClassName: defaultClass } });
			return written.ok || written.code === 404 ? undefined : written.message;
		}
		if (claim.spec.volumeName) {
			// Pre-bound to a volume by name: bind to it if it exists and is not someone else's.
			const volume = this.host.informer('persistentvolumes').get(claim.spec.volumeName) as PersistentVolume | undefined;
			if (!volume) return this.pending(claim);
			if (volume.spec.claimRef && !claimRefMatches(volume.spec.claimRef, claim)) {
				this.host.recorder(RECORDER).record(claim, 'Warning', 'FailedBinding', 'volume is already bound to a different claim.');
				return this.pending(claim);
			}
			return this.bind(volume, claim);
		}
		const volume = this.findBestMatch(claim);
		if (volume) return this.bind(volume, claim);
		this.explainPending(claim);
		return this.pending(claim);
	}

	/** Why no volume: the event upstream records on each pass. */
	private explainPending(claim: PersistentVolumeClaim): void {
		const recorder = this.host.recorder(RECORDER);
		const className = claimClass(claim);
		if (!className) {
			recorder.record(claim, 'Normal', 'FailedBinding', 'no persistent volumes available for this claim and no storage class is set');
			return;
		}
		const storageClass = this.host.informer('storageclasses').get(className) as (KubeObject & { provisioner?: string; volumeBindingMode?: string }) | undefined;
		if (!storageClass) {
			recorder.record(claim, 'Warning', 'ProvisioningFailed', `storageclass.storage.k8s.io ${JSON.stringify(className)} not found`);
			return;
		}
		if (storageClass.volumeBindingMode === 'WaitForFirstConsumer') {
			recorder.record(claim, 'Normal', 'WaitForFirstConsumer', 'waiting for first consumer to be created before binding');
			return;
		}
		if (storageClass.provisioner === 'kubernetes.io/no-provisioner') {
			recorder.record(claim, 'Warning', 'ProvisioningFailed', 'no volume plugin matched name: kubernetes.io/no-provisioner');
			return;
		}
		recorder.record(
			claim,
			'Normal',
			'ExternalProvisioning',
			`Waiting for a volume to be created either by the external provisioner '${storageClass.provisioner ?? ''}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.`,
		);
	}

	private pending(claim: PersistentVolumeClaim): SyncError {
		if (claim.status?.phase === 'Pending') return undefined;
		return this.writeClaimStatus(claim, { ...(claim.status ?? {}), phase: 'Pending' });
	}

	/** A bound claim: its volume must still be there and point back, else the claim is Lost. */
	private syncBoundClaim(claim: PersistentVolumeClaim): SyncError {
		const name = claim.spec.volumeName;
		const volume = name ? (this.host.informer('persistentvolumes').get(name) as PersistentVolume | undefined) : undefined;
		if (!volume) {
			if (claim.status?.phase === 'Lost') return undefined;
			this.host.recorder(RECORDER).record(claim, 'Warning', 'ClaimLost', 'Bound claim has lost its PersistentVolume. Data on the volume is lost!');
			return this.writeClaimStatus(claim, { ...(claim.status ?? {}), phase: 'Lost' });
		}
		if (!volume.spec.claimRef) return this.bind(volume, claim);
		if (!claimRefMatches(volume.spec.claimRef, claim)) {
			if (claim.status?.phase === 'Lost') return undefined;
			this.host.recorder(RECORDER).record(claim, 'Warning', 'ClaimMisbound', 'Two claims are bound to the same volume, this one is bound incorrectly');
			return this.writeClaimStatus(claim, { ...(claim.status ?? {}), phase: 'Lost' });
		}
		if (claim.status?.phase !== 'Bound') return this.bind(volume, claim);
		return undefined;
	}

	/** bind: the volume to the claim, its phase, then the claim to the volume, its status. */
	private bind(volume: PersistentVolume, claim: PersistentVolumeClaim): SyncError {
		const client = this.host.client;
		const key = keyOf(claim);
		let bound = volume;
		if (!claimRefMatches(volume.spec.claimRef, claim) || volume.spec.claimRef?.uid !== claim.metadata.uid) {
			const next = structuredClone(volume);
			next.spec.claimRef = { kind: 'PersistentVolumeClaim', namespace: claim.metadata.namespace, name: claim.metadata.name, uid: claim.metadata.uid, apiVersion: 'v1', resourceVersion: claim.metadata.resourceVersion };
			next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANN_BOUND_BY_CONTROLLER]: 'yes' };
			const written = client.update<PersistentVolume>(R.persistentvolumes, next);
			if (!written.ok) return written.code === 404 ? undefined : written.message;
			bound = written.object;
			this.trace('bind', `persistentvolumes/${volume.metadata.name}`, `binding volume ${volume.metadata.name} to claim ${key}`);
		}
		if (bound.status?.phase !== 'Bound') {
			const written = client.updateStatus<PersistentVolume>(R.persistentvolumes, { ...bound, status: { ...(bound.status ?? {}), phase: 'Bound', lastPhaseTransitionTime: this.nowRfc3339() } });
			if (!written.ok) return written.code === 404 ? undefined : written.message;
			bound = written.object;
		}
		let current = claim;
		if (claim.spec.volumeName !== volume.metadata.name || !claim.metadata.annotations?.[ANN_BIND_COMPLETED]) {
			const next = structuredClone(claim);
			next.spec.volumeName = volume.metadata.name;
			next.metadata.annotations = { ...(next.metadata.annotations ?? {}), [ANN_BIND_COMPLETED]: 'yes', [ANN_BOUND_BY_CONTROLLER]: 'yes' };
			const written = client.update<PersistentVolumeClaim>(R.persistentvolumeclaims, next);
			if (!written.ok) return written.code === 404 ? undefined : written.message;
			current = written.object;
		}
		if (current.status?.phase !== 'Bound') {
			const status = { phase: 'Bound', accessModes: [...(bound.spec.accessModes ?? [])], capacity: { ...(bound.spec.capacity ?? {}) } };
			const written = this.writeClaimStatus(current, status);
			if (written) return written;
			this.trace('bind', `persistentvolumeclaims/${key}`, `claim ${key} bound to volume ${volume.metadata.name}`);
		}
		return undefined;
	}

	private writeClaimStatus(claim: PersistentVolumeClaim, status: NonNullable<PersistentVolumeClaim['status']>): SyncError {
		const written = this.host.client.updateStatus(R.persistentvolumeclaims, { ...claim, status });
		return written.ok || written.code === 404 ? undefined : written.message;
	}

	// ---- volumes -----------------------------------------------------------------

	private syncVolume(volume: PersistentVolume): SyncError {
		const ref = volume.spec.claimRef;
		if (!ref) return this.setVolumePhase(volume, 'Available');
		if (!ref.uid) return undefined; // Reserved for a claim by name: waits for that claim.
		const claim = this.host.informer('persistentvolumeclaims').get(`${ref.namespace}/${ref.name}`) as PersistentVolumeClaim | undefined;
		if (claim && claim.metadata.uid === ref.uid) {
			// Bound (or half-bound after a crash: the claim's side is finished from syncClaim).
			if (!claim.spec.volumeName) this.enqueue(`claim|${keyOf(claim)}`);
			return undefined;
		}
		// The claim is gone: release the volume and reclaim it by its policy.
		if (volume.status?.phase === 'Released' || volume.status?.phase === 'Failed') return undefined;
		const released = this.setVolumePhase(volume, 'Released');
		if (released) return released;
		return this.reclaim(volume);
	}

	/** reclaimVolume: Retain keeps it Released; Delete removes it (a hostPath only under /tmp). */
	private reclaim(volume: PersistentVolume): SyncError {
		const policy = volume.spec.persistentVolumeReclaimPolicy ?? 'Retain';
		if (policy === 'Retain') return undefined;
		if (policy === 'Delete') {
			const path = volume.spec.hostPath?.path;
			if (volume.spec.hostPath && !/^\/tmp\/.+/.test(path ?? '')) {
				const message = `host_path deleter only supports /tmp/.+ but received provided ${path}`;
				this.host.recorder(RECORDER).record(volume, 'Warning', 'VolumeFailedDelete', message);
				const fresh = this.host.informer('persistentvolumes').get(volume.metadata.name ?? '') as PersistentVolume | undefined;
				return this.setVolumePhase(fresh ?? volume, 'Failed', message);
			}
			this.trace('delete', `persistentvolumes/${volume.metadata.name}`, `deleting volume ${volume.metadata.name}: its claim is gone and its reclaim policy is Delete`);
			const deleted = this.host.client.delete(R.persistentvolumes, undefined, volume.metadata.name ?? '');
			return deleted.ok || deleted.code === 404 ? undefined : deleted.message;
		}
		this.host.recorder(RECORDER).record(volume, 'Warning', 'VolumeUnknownReclaimPolicy', 'Volume has unrecognized PersistentVolumeReclaimPolicy');
		return undefined;
	}

	private setVolumePhase(volume: PersistentVolume, phase: string, message?: string): SyncError {
		if (volume.status?.phase === phase) return undefined;
		const status: NonNullable<PersistentVolume['status']> = { phase, lastPhaseTransitionTime: this.nowRfc3339() };
		if (message) status.message = message;
		const written = this.host.client.updateStatus(R.persistentvolumes, { ...volume, status });
		return written.ok || written.code === 404 ? undefined : written.message;
	}
}
