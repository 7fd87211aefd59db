/**
 * A machine's disk as its daemons use it: the kubelet writes the volume
 * directories under /var/lib/kubelet/pods/<uid>/ and reads the host paths
 * hostPath volumes name; containerd reads the same files when it
 * bind-mounts them into containers. One disk, handed to both, as both
 * daemons share one file system.
 *
 * Text files and directories with their permission bits, like the node's
 * MemoryFs. No method throws: a failure reads as `undefined` or `false`.
 *
 * Mirrors staging/src/k8s.io/mount-utils/mount.go,
 * pkg/volume/util/hostutil/hostutil.go.
 */

/** The node's files, as the kubelet and containerd see them. Owned by the node (durable, snapshotted with it). */
export interface NodeDisk {
	/** A file's text; undefined when it is missing or a directory. */
	readFile(path: string): string | undefined;
	/** The names in a directory, sorted; undefined when `path` is not a directory. */
	readDir(path: string): string[] | undefined;
	/** Whether `path` exists (file or directory). */
	exists(path: string): boolean;
	/** Whether `path` is a directory. */
	isDir(path: string): boolean;
	/** Creates or replaces a file, creating its parent directories. */
	writeFile(path: string, text: string): boolean;
	/** `mkdir -p`. */
	mkdir(path: string): boolean;
	/** `rm -rf`: true when nothing is left at `path`. */
	remove(path: string): boolean;
	/** What `du` counts under `path` (bytes and inodes; zero-filled files at their full size); zero when nothing is there. */
	usage(path: string): { bytes: number; inodes: number };
	/** The permission bits of `path` (0o644 for a file nobody chmod-ed); undefined when it is missing. */
	mode(path: string): number | undefined;
	/** chmod: false when `path` is missing. */
	chmod(path: string, mode: number): boolean;
	/** Mounts a tmpfs on the directory `path` (a memory-backed volume): false when it is not a directory. */
	mountTmpfs(path: string): boolean;
	/** The file system `path` lies on. */
	fsType(path: string): 'tmpfs' | 'ext4';
}

/** The calls of the node's MemoryFs the adapter needs (they throw FsError on failure). */
interface FsLike {
	exists(path: string): boolean;
	isDir(path: string): boolean;
	readFile(path: string): string;
	writeFile(path: string, data: string): void;
	mkdir(path: string, parents?: boolean): void;
	list(path: string): string[];
	remove(path: string, recursive?: boolean): void;
	diskUsage(path: string): { bytes: number; inodes: number };
	stat(path: string): { mode: number } | null;
	chmod(path: string, mode: number): void;
	mountTmpfs(path: string): void;
	fsType(path: string): 'tmpfs' | 'ext4';
}

function parentOf(path: string): string {
	const i = path.lastIndexOf('/');
	return i <= 0 ? '/' : path.slice(0, i);
}

/** A NodeDisk over a node's MemoryFs (or anything with its calls). */
export function nodeDiskFromFs(fs: FsLike): NodeDisk {
	const attempt = <T>(fn: () => T, fallback: T): T => {
		try {
			return fn();
		} catch {
			return fallback;
		}
	};
	return {
		readFile: (path) => attempt(() => (fs.exists(path) && !fs.isDir(path) ? fs.readFile(path) : undefined), undefined),
		readDir: (path) => attempt(() => (fs.isDir(path) ? fs.list(path) : undefined), undefined),
		exists: (path) => attempt(() => fs.exists(path), false),
		isDir: (path) => attempt(() => fs.isDir(path), false),
		writeFile: (path, text) =>
			attempt(() => {
				fs.mkdir(parentOf(path), true);
				fs.writeFile(path, text);
				return true;
			}, false),
		mkdir: (path) =>
			attempt(() => {
				fs.mkdir(path, true);
				return true;
			}, false),
		remove: (path) =>
			attempt(() => {
				if (fs.exists(path)) fs.remove(path, true);
				return true;
			}, false),
		usage: (path) => attempt(() => fs.diskUsage(path), { bytes: 0, inodes: 0 }),
		mode: (path) => attempt(() => fs.stat(path)?.mode, undefined),
		mountTmpfs: (path) =>
			attempt(() => {
				fs.mountTmpfs(path);
				return true;
			}, false),
		fsType: (path) => attempt(() => fs.fsType(path), 'ext4' as const),
		chmod: (path, mode) =>
			attempt(() => {
				fs.chmod(path, mode);
				return true;
			}, false),
	};
}
