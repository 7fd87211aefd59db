/**
 * Bind mounts: what the kubelet asked for in CRI ContainerConfig.mounts,
 * seen from inside the container. A mount shows the node's file or
 * directory at the container path, on top of the image, hiding what the
 * image has there; it is live (a file the kubelet rewrites on the node is
 * read anew), and what the container writes under a read-write mount lands
 * on the node, where the pod's other containers (an emptyDir shared by a
 * sidecar) and the node itself see it. A write under a read-only mount
 * fails with EROFS (`Read-only file system`).
 *
 * The container's files are a plain record (FileOverrides) that the
 * interpreter reads and writes directly, so mounts are kept in step with
 * the node at the moments the container is looked at: before and after
 * the runtime advances its process, runs an exec or answers a probe,
 * changes the container made under a writable mount are copied to the
 * node, then every mount is projected again from the node.
 *
 * As containerd's WithMounts does, missing bind sources are created as
 * directories; the rest is what a Linux bind mount does.
 *
 * Mirrors containerd/containerd internal/cri/opts/spec_linux_opts.go
 * (WithMounts).
 */
import type { FileOverrides } from './behaviour.ts';
import type { NodeDisk } from '../host/disk.ts';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE } from '../host/fs.ts';

/** CRI Mount (the fields modelled). */
export interface Mount {
	containerPath: string;
	hostPath: string;
	readonly: boolean;
	/** The source lies on a tmpfs on the node (containerd's bind mount keeps it): statfs in the container says so. */
	tmpfs?: true;
}


/** Bounds on what one mount projects (a hostPath of `/` must not copy the node). */
const MAX_FILES_PER_MOUNT = 500;
const MAX_DEPTH = 12;

function clean(path: string): string {
	const out: string[] = [];
	for (const part of path.split('/')) {
		if (part === '' || part === '.') continue;
		if (part === '..') out.pop();
		else out.push(part);
	}
	return `/${out.join('/')}`;
}

function join(dir: string, rel: string): string {
	return rel ? `${dir === '/' ? '' : dir}/${rel}` : dir;
}

/** A mount with its container path cleaned once. */
interface MountPoint {
	mount: Mount;
	at: string;
}

function pointsOf(mounts: readonly Mount[] | undefined): MountPoint[] {
	return (mounts ?? []).map((mount) => ({ mount, at: clean(mount.containerPath) }));
}

/** The deepest mount point covering the clean absolute path `p` (the later of equals), with the path below it. */
function coveringPoint(points: readonly MountPoint[], p: string): { mount: Mount; at: string; rel: string } | undefined {
	let best: { mount: Mount; at: string; rel: string } | undefined;
	for (const { mount, at } of points) {
		let rel: string | undefined;
		if (p === at) rel = '';
		else if (at === '/' || p.startsWith(`${at}/`)) rel = p.slice(at === '/' ? 1 : at.length + 1);
		if (rel === undefined) continue;
		if (!best || best.at.length <= at.length) best = { mount, at, rel };
	}
	return best;
}

/** The mount whose container path covers `path` (the deepest; the later of equals), with the path below it. */
export function mountAt(mounts: readonly Mount[] | undefined, path: string): { mount: Mount; rel: string } | undefined {
	const found = coveringPoint(pointsOf(mounts), clean(path));
	return found && { mount: found.mount, rel: found.rel };
}

/** Whether a write at `path` falls under a read-only mount. */
export function isReadOnlyPath(mounts: readonly Mount[] | undefined, path: string): boolean {
	return mountAt(mounts, path)?.mount.readonly === true;
}

/** The file-record key's path (`/a/b/` marks the directory /a/b). */
function keyPath(key: string): string {
	return key.endsWith('/') ? key.slice(0, -1) || '/' : key;
}

/** The node's content at `hostPath` as container-path keys under `containerPath` (bounded). */
function project(host: NodeDisk | undefined, mount: Mount, into: FileOverrides, modes?: Record<string, number>): void {
	const at = clean(mount.containerPath);
	/** The node file's mode, kept for the container when it is not the default one. */
	const keepMode = (containerPath: string, hostPath: string, isDir: boolean) => {
		const mode = modes && host?.mode(hostPath);
		if (modes && mode !== undefined && mode !== (isDir ? DEFAULT_DIR_MODE : DEFAULT_FILE_MODE)) modes[containerPath] = mode;
	};
	if (!host || host.isDir(mount.hostPath) || !host.exists(mount.hostPath)) {
		into[`${at === '/' ? '' : at}/`] = '';
		if (!host || !host.isDir(mount.hostPath)) return;
		keepMode(at, mount.hostPath, true);
		let seen = 0;
		const walk = (abs: string, rel: string, depth: number) => {
			if (depth > MAX_DEPTH) return;
			for (const name of host.readDir(abs) ?? []) {
				if (++seen > MAX_FILES_PER_MOUNT) return;
				const childAbs = join(abs, name);
				const childRel = rel ? `${rel}/${name}` : name;
				if (host.isDir(childAbs)) {
					into[`${join(at, childRel)}/`] = '';
					keepMode(join(at, childRel), childAbs, true);
					walk(childAbs, childRel, depth + 1);
				} else {
					into[join(at, childRel)] = host.readFile(childAbs) ?? '';
					keepMode(join(at, childRel), childAbs, false);
				}
			}
		};
		walk(mount.hostPath, '', 0);
		return;
	}
	into[at] = host.readFile(mount.hostPath) ?? '';
	keepMode(at, mount.hostPath, false);
}

/** containerd's WithMounts: a bind source that does not exist is created as a directory. */
export function prepareMountSources(host: NodeDisk | undefined, mounts: readonly Mount[]): void {
	if (!host) return;
	for (const m of mounts) if (!host.exists(m.hostPath)) host.mkdir(m.hostPath);
}

/**
 * Brings the container's files and the node in step for its mounts:
 * changes under writable mounts since the last projection go to the node
 * (under read-only ones they are dropped), then every mount is projected
 * again, hiding the image's own files under it. Returns the new
 * projection, to compare against next time. File modes go the same way:
 * `modes.current` (the container's fileModes) sends a mode the container
 * changed since the last projection (`modes.projected`) to the node, then
 * takes the mounted files' modes back from it, recording them as the new
 * `modes.projected`.
 */
export function syncMounts(
	files: FileOverrides,
	lastProjection: FileOverrides | undefined,
	mounts: readonly Mount[],
	host: NodeDisk | undefined,
	imagePaths: readonly string[],
	modeState?: { current: Record<string, number>; projected?: Record<string, number> },
): FileOverrides {
	const modes = modeState?.current;
	const last = lastProjection ?? {};
	const points = pointsOf(mounts);
	// 1. Write back what the container changed; drop every key under a mount point.
	const changed: Array<{ key: string; value: string | null; target: string }> = [];
	for (const key of Object.keys(files)) {
		const covered = coveringPoint(points, keyPath(key));
		if (!covered) continue;
		const value = files[key];
		delete files[key];
		if (Object.hasOwn(last, key) && last[key] === value) continue;
		if (covered.mount.readonly || !host) continue;
		changed.push({ key, value, target: join(covered.mount.hostPath, covered.rel) });
	}
	changed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
	for (const { key, value, target } of changed) {
		if (value === null) host?.remove(target);
		else if (key.endsWith('/')) host?.mkdir(target);
		else host?.writeFile(target, value);
	}
	for (const [path, mode] of Object.entries(modes ?? {})) {
		const covered = coveringPoint(points, path);
		if (!covered) continue;
		// Only what the container itself changed: a mode it merely saw must not undo another container's chmod.
		if (!covered.mount.readonly && host && modeState?.projected?.[path] !== mode) {
			const target = join(covered.mount.hostPath, covered.rel);
			if (host.exists(target) && host.mode(target) !== mode) host.chmod(target, mode);
		}
		delete modes![path];
	}
	// 2. Project every mount again, shallow mounts first so deeper ones lie on top.
	const projection: FileOverrides = {};
	const ordered = [...points].sort((a, b) => a.at.length - b.at.length);
	ordered.forEach(({ mount, at }, i) => {
		if (i > 0) for (const key of Object.keys(projection)) if (keyPath(key) === at || keyPath(key).startsWith(`${at === '/' ? '' : at}/`)) delete projection[key];
		if (i > 0 && modes) for (const key of Object.keys(modes)) if (key === at || key.startsWith(`${at === '/' ? '' : at}/`)) delete modes[key];
		project(host, mount, projection, modes);
	});
	if (modeState && modes) modeState.projected = Object.fromEntries(Object.entries(modes).filter(([path]) => coveringPoint(points, path)));
	// The image's files under a mount point are hidden by it.
	for (const path of imagePaths) if (coveringPoint(points, path) && !Object.hasOwn(projection, path)) projection[path] = null;
	Object.assign(files, projection);
	return projection;
}
