/**
 * Rows of the storage resources in `kubectl get`: PersistentVolumes,
 * PersistentVolumeClaims, StorageClasses, VolumeAttributesClasses,
 * CSIDrivers, CSINodes, CSIStorageCapacities and VolumeAttachments, as the
 * API server prints them.
 *
 * Mirrors pkg/printers/internalversion/printers.go (printPersistentVolume,
 * printPersistentVolumeClaim, printStorageClass,
 * printVolumeAttributesClass, printCSIDriver, printCSINode,
 * printCSIStorageCapacity, printVolumeAttachment),
 * pkg/apis/core/helper/helpers.go (GetAccessModesAsString,
 * GetPersistentVolumeClass, GetPersistentVolumeClaimClass),
 * pkg/apis/storage/util/helpers.go (IsDefaultAnnotation).
 */
import type { KubeObject } from '../../api/types.ts';
import { parseQuantity } from '../../api/quantity.ts';
import { isDefaultStorageClass } from '../../component-helpers/storage.ts';
import { columns, translateTimestampSince, type TableContext, type TableDefinition } from './table-columns.ts';

const age = (obj: KubeObject, ctx: TableContext) => translateTimestampSince(obj.metadata.creationTimestamp, ctx.nowMs);

type Fields = Record<string, unknown>;
const rec = (v: unknown): Fields => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Fields) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Quantity.String of a stored quantity; a missing one is the zero Quantity, `0`. */
export function quantityString(value: unknown): string {
	if (typeof value === 'number') return String(value);
	if (typeof value !== 'string' || !value) return '0';
	try {
		return parseQuantity(value).toString();
	} catch {
		return value;
	}
}

/** GetAccessModesAsString: RWO, ROX, RWX, RWOP in that order, each once. */
export function accessModesString(modes: unknown): string {
	const list = Array.isArray(modes) ? modes : [];
	const short: Array<[string, string]> = [
		['ReadWriteOnce', 'RWO'],
		['ReadOnlyMany', 'ROX'],
		['ReadWriteMany', 'RWX'],
		['ReadWriteOncePod', 'RWOP'],
	];
	return short
		.filter(([mode]) => list.includes(mode))
		.map(([, s]) => s)
		.join(',');
}

/** The beta annotation that older manifests use instead of spec.storageClassName. */
const BETA_STORAGE_CLASS_ANNOTATION = 'volume.beta.kubernetes.io/storage-class';

/** GetPersistentVolumeClass / GetPersistentVolumeClaimClass: the beta annotation first, then spec.storageClassName. */
export function storageClassOf(obj: KubeObject): string {
	const annotated = obj.metadata.annotations?.[BETA_STORAGE_CLASS_ANNOTATION];
	if (annotated !== undefined) return annotated;
	return str(rec(obj.spec).storageClassName);
}

/** `kubectl get pv`: NAME CAPACITY ACCESS MODES RECLAIM POLICY STATUS CLAIM STORAGECLASS VOLUMEATTRIBUTESCLASS REASON AGE, wide: VOLUMEMODE. */
export const PERSISTENTVOLUME_TABLE: TableDefinition = {
	columns: columns('Name', 'Capacity', 'Access Modes', 'Reclaim Policy', 'Status', 'Claim', 'StorageClass', 'VolumeAttributesClass', 'Reason', 'Age', 'VolumeMode*'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const status = rec(obj.status);
		const claimRef = spec.claimRef ? rec(spec.claimRef) : undefined;
		const claim = claimRef ? `${str(claimRef.namespace)}/${str(claimRef.name)}` : '';
		const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(status.phase);
		return [
			obj.metadata.name ?? '',
			quantityString(rec(spec.capacity).storage),
			accessModesString(spec.accessModes),
			str(spec.persistentVolumeReclaimPolicy),
			phase,
			claim,
			storageClassOf(obj),
			typeof spec.volumeAttributesClassName === 'string' ? spec.volumeAttributesClassName : '<unset>',
			str(status.reason),
			age(obj, ctx),
			typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>',
		];
	},
};

/** `kubectl get pvc`: NAME STATUS VOLUME CAPACITY ACCESS MODES STORAGECLASS VOLUMEATTRIBUTESCLASS AGE, wide: VOLUMEMODE. */
export const PERSISTENTVOLUMECLAIM_TABLE: TableDefinition = {
	columns: columns('Name', 'Status', 'Volume', 'Capacity', 'Access Modes', 'StorageClass', 'VolumeAttributesClass', 'Age', 'VolumeMode*'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const status = rec(obj.status);
		const phase = obj.metadata.deletionTimestamp ? 'Terminating' : str(status.phase);
		const volumeName = str(spec.volumeName);
		// Capacity and access modes are the bound volume's, shown only once the claim names one.
		const capacity = volumeName ? quantityString(rec(status.capacity).storage) : '';
		const modes = volumeName ? accessModesString(status.accessModes) : '';
		const vac = typeof spec.volumeAttributesClassName === 'string' && spec.volumeAttributesClassName ? spec.volumeAttributesClassName : '<unset>';
		return [
			obj.metadata.name ?? '',
			phase,
			volumeName,
			capacity,
			modes,
			storageClassOf(obj),
			vac,
			age(obj, ctx),
			typeof spec.volumeMode === 'string' ? spec.volumeMode : '<unset>',
		];
	},
};

/** `kubectl get sc`: NAME PROVISIONER RECLAIMPOLICY VOLUMEBINDINGMODE ALLOWVOLUMEEXPANSION AGE; the default class is marked `(default)`. */
export const STORAGECLASS_TABLE: TableDefinition = {
	columns: columns('Name', 'Provisioner', 'ReclaimPolicy', 'VolumeBindingMode', 'AllowVolumeExpansion', 'Age'),
	row(obj, ctx) {
		const sc = obj as KubeObject & Fields;
		const name = `${obj.metadata.name ?? ''}${isDefaultStorageClass(obj) ? ' (default)' : ''}`;
		return [
			name,
			str(sc.provisioner),
			typeof sc.reclaimPolicy === 'string' ? sc.reclaimPolicy : 'Delete',
			typeof sc.volumeBindingMode === 'string' ? sc.volumeBindingMode : 'Immediate',
			String(sc.allowVolumeExpansion === true),
			age(obj, ctx),
		];
	},
};

/** `kubectl get vac`: NAME DRIVERNAME AGE. */
export const VOLUMEATTRIBUTESCLASS_TABLE: TableDefinition = {
	columns: columns('Name', 'DriverName', 'Age'),
	row: (obj, ctx) => [obj.metadata.name ?? '', str((obj as KubeObject & Fields).driverName), age(obj, ctx)],
};

/** `kubectl get csidrivers`: NAME ATTACHREQUIRED PODINFOONMOUNT STORAGECAPACITY TOKENREQUESTS REQUIRESREPUBLISH MODES AGE. */
export const CSIDRIVER_TABLE: TableDefinition = {
	columns: columns('Name', 'AttachRequired', 'PodInfoOnMount', 'StorageCapacity', 'TokenRequests', 'RequiresRepublish', 'Modes', 'Age'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		const tokens = Array.isArray(spec.tokenRequests) ? spec.tokenRequests.map((t) => str(rec(t).audience)) : [];
		const modes = Array.isArray(spec.volumeLifecycleModes) ? spec.volumeLifecycleModes.map(str).join(',') : '';
		return [
			obj.metadata.name ?? '',
			String(spec.attachRequired !== false),
			String(spec.podInfoOnMount === true),
			String(spec.storageCapacity === true),
			tokens.length ? tokens.join(',') : '<unset>',
			String(spec.requiresRepublish === true),
			modes || '<none>',
			age(obj, ctx),
		];
	},
};

/** `kubectl get csinodes`: NAME DRIVERS AGE (the number of drivers). */
export const CSINODE_TABLE: TableDefinition = {
	columns: columns('Name', 'Drivers', 'Age'),
	row(obj, ctx) {
		const drivers = rec(obj.spec).drivers;
		return [obj.metadata.name ?? '', String(Array.isArray(drivers) ? drivers.length : 0), age(obj, ctx)];
	},
};

/** `kubectl get csistoragecapacities`: NAME STORAGECLASSNAME CAPACITY. */
export const CSISTORAGECAPACITY_TABLE: TableDefinition = {
	columns: columns('Name', 'StorageClassName', 'Capacity'),
	row(obj) {
		const c = obj as KubeObject & Fields;
		return [obj.metadata.name ?? '', str(c.storageClassName), c.capacity === undefined || c.capacity === null ? '<unset>' : quantityString(c.capacity)];
	},
};

/** `kubectl get volumeattachments`: NAME ATTACHER PV NODE ATTACHED AGE. */
export const VOLUMEATTACHMENT_TABLE: TableDefinition = {
	columns: columns('Name', 'Attacher', 'PV', 'Node', 'Attached', 'Age'),
	row(obj, ctx) {
		const spec = rec(obj.spec);
		return [obj.metadata.name ?? '', str(spec.attacher), str(rec(spec.source).persistentVolumeName), str(spec.nodeName), String(rec(obj.status).attached === true), age(obj, ctx)];
	},
};
