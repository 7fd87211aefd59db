/**
 * The storage rules more than one component applies: which class a claim
 * or volume belongs to, whether a volume can serve a claim, and which
 * StorageClass is the cluster's default. The PV controller and the
 * scheduler's VolumeBinding plugin must agree on what fits (or a Pod would
 * wait on a volume the controller never binds), and the API server's
 * admission, the PV controller and kubectl must agree on the default.
 *
 * Mirrors pkg/apis/core/helper (GetPersistentVolumeClass, GetPersistentVolumeClaimClass),
 * pkg/controller/volume/persistentvolume/util (FindMatchingVolume, CheckVolumeModeMismatches),
 * pkg/volume/util/storageclass.go (GetDefaultClass, IsDefaultAnnotation).
 */
import type { KubeObject } from '../api/types.ts';
import { labelSelectorFromObject, matches } from '../api/labels.ts';
import { parseQuantity, type Quantity } from '../api/quantity.ts';

/** The annotation that named a class before the storageClassName field; it still wins over the field. */
export const ANN_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const IS_DEFAULT = 'storageclass.kubernetes.io/is-default-class';
const BETA_IS_DEFAULT = 'storageclass.beta.kubernetes.io/is-default-class';

/** The parts of a claim the matching reads. */
export interface ClaimNeeds extends KubeObject {
	spec: {
		storageClassName?: string | null;
		accessModes?: string[];
		volumeMode?: string;
		selector?: Parameters<typeof labelSelectorFromObject>[0];
		resources?: { requests?: { storage?: string } };
	};
}

/** The parts of a volume the matching reads. */
export interface VolumeOffer extends KubeObject {
	spec: { storageClassName?: string; accessModes?: string[]; volumeMode?: string; capacity?: { storage?: string } };
}

/** GetPersistentVolumeClaimClass: the annotation wins over the field; none is "". */
export function claimClass(claim: ClaimNeeds): string {
	return claim.metadata.annotations?.[ANN_STORAGE_CLASS] ?? claim.spec.storageClassName ?? '';
}

/** GetPersistentVolumeClass. */
export function volumeClass(volume: VolumeOffer): string {
	return volume.metadata.annotations?.[ANN_STORAGE_CLASS] ?? volume.spec.storageClassName ?? '';
}

/** A storage size, or undefined when absent or not a quantity (such a volume fits nothing). */
export function storageQuantity(text: string | undefined): Quantity | undefined {
	try {
		return text === undefined ? undefined : parseQuantity(String(text));
	} catch {
		return undefined;
	}
}

/** Orders volumes smallest first (both must have a valid capacity, as matching ones do). */
export function bySmallestCapacity(a: VolumeOffer, b: VolumeOffer): number {
	return storageQuantity(a.spec.capacity?.storage)!.cmp(storageQuantity(b.spec.capacity?.storage)!);
}

/** Why the volume cannot serve the claim, or undefined when it can (FindMatchingVolume's checks, in its order). */
export function volumeMismatch(volume: VolumeOffer, claim: ClaimNeeds): string | undefined {
	if (volumeClass(volume) !== claimClass(claim)) return 'storage class';
	const offered = volume.spec.accessModes ?? [];
	if (!(claim.spec.accessModes ?? []).every((m) => offered.includes(m))) return 'access modes';
	if ((volume.spec.volumeMode ?? 'Filesystem') !== (claim.spec.volumeMode ?? 'Filesystem')) return 'volume mode';
	const request = storageQuantity(claim.spec.resources?.requests?.storage);
	const capacity = storageQuantity(volume.spec.capacity?.storage);
	if (!capacity || (request && capacity.cmp(request) < 0)) return 'capacity';
	if (claim.spec.selector && !matches(labelSelectorFromObject(claim.spec.selector), volume.metadata.labels)) return 'selector';
	return undefined;
}

/** IsDefaultAnnotation: the GA or the beta is-default-class annotation set to "true". */
export function isDefaultStorageClass(storageClass: KubeObject): boolean {
	const annotations = storageClass.metadata.annotations ?? {};
	return annotations[IS_DEFAULT] === 'true' || annotations[BETA_IS_DEFAULT] === 'true';
}

/** GetDefaultClass: the name of the newest default class (then by name, for a tie), or undefined when none is. */
export function defaultStorageClass(classes: readonly KubeObject[]): string | undefined {
	const defaults = classes.filter(isDefaultStorageClass);
	defaults.sort((x, y) => (y.metadata.creationTimestamp ?? '').localeCompare(x.metadata.creationTimestamp ?? '') || (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''));
	return defaults[0]?.metadata.name;
}

/** Whether a claim names no class at all (field absent or null, no annotation): the case a default class fills, unlike "". */
export function claimNamesNoClass(claim: KubeObject): boolean {
	const spec = (claim as { spec?: { storageClassName?: string | null } }).spec;
	return (spec?.storageClassName === undefined || spec.storageClassName === null) && claim.metadata.annotations?.[ANN_STORAGE_CLASS] === undefined;
}

/** The PersistentVolumeSpec fields that are not the volume's source (hostPath, local, nfs, csi...). */
const NOT_SOURCES = new Set(['capacity', 'accessModes', 'claimRef', 'persistentVolumeReclaimPolicy', 'storageClassName', 'mountOptions', 'volumeMode', 'nodeAffinity', 'volumeAttributesClassName']);

/** Which source a PV's spec names (its one field that is not a common one), or undefined. */
export function volumeSourceKind(spec: Record<string, unknown>): string | undefined {
	return Object.keys(spec).find((k) => !NOT_SOURCES.has(k));
}
