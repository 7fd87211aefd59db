/**
 * The emptyDir volume plugin: a directory that starts empty when the pod
 * starts on the node and lives as long as the pod does there, shared by
 * all its containers (what one writes, the others read). `medium: Memory`
 * mounts a tmpfs on it (the files still count on the node's disk here),
 * and `sizeLimit` is not enforced.
 *
 * Mirrors pkg/volume/emptydir/empty_dir.go (SetUpAt, setupDir).
 */
import type { NodeDisk } from '../../host/disk.ts';

/** v1.EmptyDirVolumeSource. */
export interface EmptyDirSource {
	medium?: '' | 'Memory' | string;
	sizeLimit?: string;
}

/** SetUpAt: makes the directory, mode 0777 as setupDir leaves it for any user of the pod (kept as it is when it already exists: a remount never empties it). */
export function setUpEmptyDir(dir: string, disk: NodeDisk, medium: EmptyDirSource['medium'] = ''): string | undefined {
	if (disk.isDir(dir)) return undefined;
	if (!disk.mkdir(dir)) return `mkdir ${dir}: no space left on device`;
	disk.chmod(dir, 0o777);
	// medium: Memory: a tmpfs on the directory (setupTmpfs), which the containers see as their mount's file system.
	if (medium === 'Memory') disk.mountTmpfs(dir);
	return undefined;
}
