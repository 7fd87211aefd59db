/**
 * StorageObjectInUseProtection: every new PersistentVolumeClaim gets the
 * `kubernetes.io/pvc-protection` finalizer and every new PersistentVolume
 * `kubernetes.io/pv-protection`, so deleting a claim a Pod still uses, or a
 * volume still bound, only marks it Terminating until the protection
 * controllers see it is free (../../controllers/volume/protection.ts).
 *
 * Mirrors plugin/pkg/admission/storage/storageobjectinuseprotection/admission.go.
 */
import { PV_PROTECTION_FINALIZER, PVC_PROTECTION_FINALIZER } from '../../api/storage-finalizers.ts';
import { isResource } from './errors.ts';
import type { AdmissionPlugin } from './plugin.ts';

export const storageObjectInUseProtection: AdmissionPlugin = {
	name: 'StorageObjectInUseProtection',
	admit(a) {
		if (a.operation !== 'CREATE' || !a.object) return undefined;
		const finalizer = isResource(a, '', 'persistentvolumeclaims') ? PVC_PROTECTION_FINALIZER : isResource(a, '', 'persistentvolumes') ? PV_PROTECTION_FINALIZER : undefined;
		if (!finalizer) return undefined;
		const finalizers = a.object.metadata.finalizers ?? [];
		if (!finalizers.includes(finalizer)) a.object.metadata.finalizers = [...finalizers, finalizer];
		return undefined;
	},
};
