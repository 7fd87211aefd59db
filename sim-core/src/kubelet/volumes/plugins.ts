/**
 * The volume plugins this kubelet has, and the one that handles each of a
 * pod's volumes: configMap, secret, projected, downwardAPI, emptyDir,
 * hostPath, and persistentVolumeClaim (followed to its PersistentVolume's
 * hostPath or local path, ./persistent-claim.ts). Other kinds (csi, nfs,
 * ephemeral, image...) need storage the simulation does not model: they
 * are set up as empty directories, and the kubelet's journal says so.
 *
 * SetUp writes the volume's files into its directory on the node
 * (paths.ts); configMap, secret, downwardAPI and projected volumes are
 * "remountable": the kubelet runs their SetUp again on every pod resync,
 * which is how a changed ConfigMap reaches a running pod.
 *
 * Mirrors pkg/volume/plugins.go (VolumePluginMgr.FindPluginBySpec,
 * RequiresRemount; each plugin's SetUp is in its own module).
 */
import type { Pod, Volume } from '../../api/types.ts';
import { writePayload } from './atomic-writer.ts';
import { configMapVolumePayload, type ConfigMapSource, type PayloadResult } from './configmap.ts';
import { DOWNWARD_API_DEFAULT_MODE, downwardApiPayload, type DownwardApiSource } from './downwardapi.ts';
import { setUpEmptyDir, type EmptyDirSource } from './emptydir.ts';
import { setUpHostPath, type HostPathSource } from './hostpath.ts';
import type { ObjectLookup } from './lookup.ts';
import type { NodeDisk } from '../../host/disk.ts';
import { podVolumeDir, type VolumePluginName } from './paths.ts';
import { resolveClaim } from './persistent-claim.ts';
import { projectedPayload, type ProjectedContext, type ProjectedSource } from './projected.ts';
import { secretVolumePayload, type SecretSource } from './secret.ts';

/** A pod volume with the plugin that handles it. */
export type VolumeSpec =
	| { name: string; plugin: 'kubernetes.io/configmap'; configMap: ConfigMapSource }
	| { name: string; plugin: 'kubernetes.io/secret'; secret: SecretSource }
	| { name: string; plugin: 'kubernetes.io/projected'; projected: ProjectedSource }
	| { name: string; plugin: 'kubernetes.io/downward-api'; downwardAPI: DownwardApiSource }
	| { name: string; plugin: 'kubernetes.io/empty-dir'; emptyDir: EmptyDirSource }
	| { name: string; plugin: 'kubernetes.io/host-path'; hostPath: HostPathSource }
	/** A claim: the plugin is its PersistentVolume's, found when the volume is set up. */
	| { name: string; plugin: 'persistent-volume-claim'; claimName: string; readOnly: boolean }
	/** A kind of volume the simulation does not model (set up as an empty directory). */
	| { name: string; plugin: 'unsupported'; kind: string };

const SOURCE_KEYS = ['configMap', 'secret', 'projected', 'downwardAPI', 'emptyDir', 'hostPath', 'persistentVolumeClaim'] as const;

function record(value: unknown): Record<string, unknown> | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** FindPluginBySpec: the plugin of a pod volume, by which source field is set. */
export function volumeSpecOf(volume: Volume): VolumeSpec {
	const name = volume.name;
	if (record(volume.configMap)) return { name, plugin: 'kubernetes.io/configmap', configMap: volume.configMap as ConfigMapSource };
	if (record(volume.secret)) return { name, plugin: 'kubernetes.io/secret', secret: volume.secret as SecretSource };
	if (record(volume.projected)) return { name, plugin: 'kubernetes.io/projected', projected: volume.projected as ProjectedSource };
	if (record(volume.downwardAPI)) return { name, plugin: 'kubernetes.io/downward-api', downwardAPI: volume.downwardAPI as DownwardApiSource };
	if (record(volume.emptyDir) || volume.emptyDir === null) return { name, plugin: 'kubernetes.io/empty-dir', emptyDir: (volume.emptyDir as EmptyDirSource | null) ?? {} };
	if (record(volume.hostPath)) return { name, plugin: 'kubernetes.io/host-path', hostPath: volume.hostPath as HostPathSource };
	const claim = record(volume.persistentVolumeClaim);
	if (claim) return { name, plugin: 'persistent-volume-claim', claimName: String(claim.claimName ?? ''), readOnly: claim.readOnly === true };
	const kind = Object.keys(volume).find((k) => k !== 'name' && !(SOURCE_KEYS as readonly string[]).includes(k)) ?? 'emptyDir';
	// A volume with no source at all is an emptyDir (API defaulting).
	if (kind === 'emptyDir') return { name, plugin: 'kubernetes.io/empty-dir', emptyDir: {} };
	return { name, plugin: 'unsupported', kind };
}

/** RequiresRemount: the plugins whose content follows API objects or pod metadata. */
export function requiresRemount(spec: VolumeSpec): boolean {
	return spec.plugin === 'kubernetes.io/configmap' || spec.plugin === 'kubernetes.io/secret' || spec.plugin === 'kubernetes.io/projected' || spec.plugin === 'kubernetes.io/downward-api';
}

/** Whether the kubelet mounts the volume read-only whatever the volumeMount says (GetAttributes().ReadOnly of the API-data plugins). */
export function mountsReadOnly(spec: VolumeSpec): boolean {
	return requiresRemount(spec);
}

/** Where the volume's files are on the node: its directory under the pod, or the host path itself. */
export function volumeHostPath(spec: VolumeSpec, podUid: string): string {
	switch (spec.plugin) {
		case 'kubernetes.io/host-path':
			return spec.hostPath.path ?? '';
		case 'unsupported':
		case 'persistent-volume-claim':
			// A claim's own path is known once it is resolved (claimHostPath); until then, and for unmodelled storage, an empty directory.
			return podVolumeDir(podUid, 'kubernetes.io/empty-dir', spec.name);
		default:
			return podVolumeDir(podUid, spec.plugin as VolumePluginName, spec.name);
	}
}

/** What SetUp needs from the kubelet. */
export interface SetUpContext extends ProjectedContext {
	lookup: ObjectLookup;
	/** The node's disk; without one, volumes resolve (and fail) as usual but no files are written. */
	disk?: NodeDisk;
}

/**
 * The result of one SetUp: whether files changed on disk, or the plugin's
 * error. `unprocessed`: the volume could not even be resolved (a claim not
 * bound yet), which the populator retries quietly rather than as a failed
 * mount.
 */
type SetUpResult = { ok: true; changed: boolean } | { ok: false; error: string; unprocessed?: boolean };

/** The files a payload-based volume should hold now. */
export function volumePayload(spec: VolumeSpec, pod: Pod, ctx: SetUpContext): PayloadResult | undefined {
	const namespace = pod.metadata.namespace ?? 'default';
	switch (spec.plugin) {
		case 'kubernetes.io/configmap':
			return configMapVolumePayload(spec.configMap, namespace, (ns, name) => ctx.lookup.configMap(ns, name));
		case 'kubernetes.io/secret':
			return secretVolumePayload(spec.secret, namespace, (ns, name) => ctx.lookup.secret(ns, name));
		case 'kubernetes.io/projected':
			return projectedPayload(spec.projected, pod, ctx);
		case 'kubernetes.io/downward-api':
			return downwardApiPayload(spec.downwardAPI.items, pod, spec.downwardAPI.defaultMode ?? DOWNWARD_API_DEFAULT_MODE, ctx.nodeAllocatable);
		default:
			return undefined;
	}
}

/** SetUp: the plugin prepares the volume on the node. */
export function setUpVolume(spec: VolumeSpec, pod: Pod, ctx: SetUpContext): SetUpResult {
	const uid = pod.metadata.uid ?? '';
	const dir = volumeHostPath(spec, uid);
	const payload = volumePayload(spec, pod, ctx);
	if (payload) {
		if (!payload.ok) return payload;
		if (!ctx.disk) return { ok: true, changed: false };
		// Secret, downward API and projected volumes sit on a tmpfs (their wrapped emptyDir has medium Memory); a ConfigMap's on the disk.
		if (spec.plugin !== 'kubernetes.io/configmap' && !ctx.disk.isDir(dir) && ctx.disk.mkdir(dir)) ctx.disk.mountTmpfs(dir);
		return writePayload(ctx.disk, dir, payload.payload);
	}
	if (!ctx.disk) return { ok: true, changed: false };
	if (spec.plugin === 'kubernetes.io/host-path') {
		const error = setUpHostPath(spec.hostPath, ctx.disk);
		return error ? { ok: false, error } : { ok: true, changed: false };
	}
	if (spec.plugin === 'persistent-volume-claim') {
		const source = resolveClaim(ctx.lookup, pod.metadata.namespace ?? 'default', spec.claimName, spec.readOnly);
		if (!source.ok) return { ...source, unprocessed: true };
		if (source.kind === 'hostPath') {
			const error = setUpHostPath(source.hostPath, ctx.disk);
			return error ? { ok: false, error } : { ok: true, changed: false };
		}
		// A local volume's path is the administrator's to prepare; the kubelet only checks it is there.
		if (source.kind === 'local') return ctx.disk.exists(source.path) ? { ok: true, changed: false } : { ok: false, error: `path "${source.path}" does not exist` };
	}
	const error = setUpEmptyDir(dir, ctx.disk, spec.plugin === 'kubernetes.io/empty-dir' ? spec.emptyDir.medium : '');
	return error ? { ok: false, error } : { ok: true, changed: false };
}
