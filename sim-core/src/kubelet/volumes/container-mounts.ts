/**
 * The bind mounts a container gets from its volumeMounts, as the kubelet
 * hands them to the runtime (CRI Mount: container path, host path,
 * read-only): the volume's directory on the node (or the hostPath itself),
 * read-only when the volumeMount asks for it and always for ConfigMap,
 * Secret, downward API and projected volumes.
 *
 * A subPath mounts one file or directory of the volume instead. For the
 * API-data volumes the kubelet prepares it when the container starts, in
 * /var/lib/kubelet/pods/<uid>/volume-subpaths/<volume>/<container>/<n>:
 * upstream that is a bind mount of the then-current version of the file
 * (through the `..data` symlink), and when the ConfigMap changes the
 * kubelet writes a new version beside it, so the container keeps seeing
 * the old one. Here it is a copy made at container start, which behaves
 * the same: a subPath mount of a ConfigMap never updates until the
 * container is restarted. A subPath of an emptyDir or hostPath volume is
 * the live path. A missing subPath is created as an empty directory.
 *
 * Mirrors pkg/kubelet/kubelet_pods.go (makeMounts),
 * pkg/kubelet/container/helpers.go (ExpandContainerVolumeMounts),
 * pkg/volume/util/subpath/subpath_linux.go (PrepareSafeSubpath).
 */
import type { Container, Pod } from '../../api/types.ts';
import { expandEnv } from '../env.ts';
import { readTree } from './atomic-writer.ts';
import type { NodeDisk } from '../../host/disk.ts';
import { joinPath, volumeSubpathDir } from './paths.ts';
import { mountsReadOnly, requiresRemount, volumeHostPath, volumeSpecOf } from './plugins.ts';
import { claimHostPath, resolveClaim } from './persistent-claim.ts';
import type { ObjectLookup } from './lookup.ts';

/** CRI Mount (the fields modelled). */
interface CriMount {
	containerPath: string;
	hostPath: string;
	readonly: boolean;
}

type MakeMountsResult = { ok: true; mounts: CriMount[] } | { ok: false; error: string };

/** ExpandContainerVolumeMounts: `$(VAR)` in subPathExpr from the container's environment; an unset or empty variable is an error. */
export function expandSubPathExpr(expr: string, env: Array<{ name: string; value: string }>): { ok: true; path: string } | { ok: false; error: string } {
	const values = new Map(env.map((e) => [e.name, e.value]));
	const missing = new Set<string>();
	const path = expandEnv(expr, (name) => {
		const value = values.get(name);
		if (!value) missing.add(name);
		return value ?? '';
	});
	if (missing.size) return { ok: false, error: `missing value for ${[...missing].sort().join(', ')}` };
	return { ok: true, path };
}

/** Copies a file or a directory tree from one place on the node to another (replacing what was there). */
function copyOnDisk(disk: NodeDisk, from: string, to: string): boolean {
	disk.remove(to);
	/** The copy keeps the file's mode (a subPath of a Secret volume stays 0400). */
	const copyFile = (src: string, dest: string, text: string) => {
		if (!disk.writeFile(dest, text)) return false;
		const mode = disk.mode(src);
		if (mode !== undefined) disk.chmod(dest, mode);
		return true;
	};
	if (!disk.isDir(from)) {
		const text = disk.readFile(from);
		return text === undefined ? disk.mkdir(to) : copyFile(from, to, text);
	}
	if (!disk.mkdir(to)) return false;
	for (const [rel, text] of Object.entries(readTree(disk, from))) if (!copyFile(joinPath(from, rel), joinPath(to, rel), text)) return false;
	return true;
}

/** makeMounts: the mounts of `container` (index in the pod's volumeMounts order gives the subpath directory). */
export function makeMounts(pod: Pod, container: Container, ctx: { disk?: NodeDisk; env: Array<{ name: string; value: string }>; lookup?: ObjectLookup }): MakeMountsResult {
	const uid = pod.metadata.uid ?? '';
	const mounts: CriMount[] = [];
	const volumes = pod.spec.volumes ?? [];
	for (let index = 0; index < (container.volumeMounts ?? []).length; index++) {
		const mount = (container.volumeMounts ?? [])[index] as { name: string; mountPath: string; readOnly?: boolean; subPath?: string; subPathExpr?: string };
		const volume = volumes.find((v) => v.name === mount.name);
		if (!volume) return { ok: false, error: `cannot find volume "${mount.name}" to mount into container "${container.name}"` };
		const spec = volumeSpecOf(volume);
		// A claim is mounted from its PersistentVolume's own path on the node (a hostPath or local volume).
		const claimPath = spec.plugin === 'persistent-volume-claim' && ctx.lookup ? claimHostPath(resolveClaim(ctx.lookup, pod.metadata.namespace ?? 'default', spec.claimName, spec.readOnly)) : undefined;
		let hostPath = claimPath ?? volumeHostPath(spec, uid);
		let subPath = mount.subPath ?? '';
		if (mount.subPathExpr) {
			const expanded = expandSubPathExpr(mount.subPathExpr, ctx.env);
			if (!expanded.ok) return expanded;
			subPath = expanded.path;
		}
		if (subPath) {
			if (subPath.startsWith('/')) return { ok: false, error: `error SubPath \`${subPath}\` must not be an absolute path` };
			if (subPath.split('/').includes('..')) return { ok: false, error: `unable to provision SubPath \`${subPath}\`: must not contain '..'` };
			const source = joinPath(hostPath, subPath.split('/').filter((p) => p !== '' && p !== '.').join('/'));
			if (ctx.disk) {
				if (!ctx.disk.exists(source) && !ctx.disk.mkdir(source)) return { ok: false, error: `failed to create subPath directory for volumeMount "${mount.name}" of container "${container.name}"` };
				if (requiresRemount(spec)) {
					// The version of the file as it is now, held for the container's lifetime.
					const prepared = volumeSubpathDir(uid, mount.name, container.name, index);
					if (!copyOnDisk(ctx.disk, source, prepared)) return { ok: false, error: `failed to prepare subPath for volumeMount "${mount.name}" of container "${container.name}"` };
					hostPath = prepared;
				} else hostPath = source;
			} else hostPath = source;
		}
		mounts.push({ containerPath: mount.mountPath, hostPath, readonly: mount.readOnly === true || mountsReadOnly(spec) });
	}
	return { ok: true, mounts };
}
