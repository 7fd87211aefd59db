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
import { claimNamesNoClass, defaultStorageClass as defaultClassOf } from '../../component-helpers/storage.ts';
import { isResource } from './errors.ts';
import type { AdmissionPlugin } from './plugin.ts';

export const defaultStorageClass: AdmissionPlugin = {
	name: 'DefaultStorageClass',
	admit(a, ctx) {
		if (a.operation !== 'CREATE' || !isResource(a, '', 'persistentvolumeclaims') || !a.object) return undefined;
		const spec = (a.object.spec ??= {}) as { storageClassName?: string };
		if (!claimNamesNoClass(a.object)) return undefined;
		// The newest default wins (then the name, for a tie).
		const name = defaultClassOf(ctx.list('storage.k8s.io', 'storageclasses'));
		if (name) spec.storageClassName = name;
		return undefined;
	},
};
