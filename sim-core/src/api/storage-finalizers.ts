/**
 * The finalizers that protect storage objects in use, shared by the
 * admission plugin that adds them and the controllers that remove them.
 *
 * Mirrors pkg/volume/util/finalizer.go.
 */

/** On every PersistentVolumeClaim: kept while a Pod uses the claim. */
export const PVC_PROTECTION_FINALIZER = 'kubernetes.io/pvc-protection';
/** On every PersistentVolume: kept while the volume is bound. */
export const PV_PROTECTION_FINALIZER = 'kubernetes.io/pv-protection';
