/**
 * DefaultStorageClass: a new PersistentVolumeClaim that names no storage
 * class (the field absent, not `""`) gets the cluster's default class, the
 * StorageClass annotated `storageclass.kubernetes.io/is-default-class:
 * "true"` (the beta annotation counts too); with several defaults, the
 * newest one. A bare kubeadm cluster has none, so its claims keep no class
 * and bind only to volumes without one; a cluster with a provisioner marks
 * its class default, and every claim asks it for a volume.
 *
 * Mirrors plugin/pkg/admission/storage/storageclass/setdefault/admission.go,
 * pkg/volume/util/storageclass.go (GetDefaultClass, IsDefaultAnnotation).
 */
import { isResource } from './errors.ts';
import type { AdmissionPlugin } from './plugin.ts';

const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';

export const defaultStorageClass: AdmissionPlugin = {
	name: 'DefaultStorageClass',
	admit(a, ctx) {
		if (a.operation !== 'CREATE' || !isResource(a, '', 'persistentvolumeclaims') || !a.object) return undefined;
		const spec = (a.object.spec ??= {}) as { storageClassName?: string | null };
		if (spec.storageClassName !== undefined && spec.storageClassName !== null) return undefined;
		if (a.object.metadata.annotations?.['volume.beta.kubernetes.io/storage-class'] !== undefined) return undefined;
		const defaults = ctx.list('storage.k8s.io', 'storageclasses').filter((sc) => sc.metadata.annotations?.[IS_DEFAULT] === 'true' || sc.metadata.annotations?.[BETA_IS_DEFAULT] === 'true');
		if (defaults.length === 0) return undefined;
		// The newest default wins (then the name, for a tie).
		defaults.sort((x, y) => (y.metadata.creationTimestamp ?? '').localeCompare(x.metadata.creationTimestamp ?? '') || (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''));
		spec.storageClassName = defaults[0].metadata.name;
		return undefined;
	},
};
