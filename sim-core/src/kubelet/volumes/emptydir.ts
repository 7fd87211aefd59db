/**
 * The emptyDir volume plugin: a directory that starts empty when the pod
 * starts on the node and lives as long as the pod does there, shared by
 * all its containers (what one writes, the others read). `medium: Memory`
 * puts it on a tmpfs upstream; here it is the same directory on the
 * node's disk, and `sizeLimit` is not enforced (the eviction manager is not
 * modelled).
 *
 * Mirrors pkg/volume/emptydir/empty_dir.go (SetUpAt, setupDir).
 */
import type { NodeDisk } from '../../host/disk.ts';

/** v1.EmptyDirVolumeSource. */
export interface EmptyDirSource {
	medium?: '' | 'Memory' | string;
	sizeLimit?: string;
}

/** SetUpAt: makes the directory (kept as it is when it already exists: a remount never empties it). */
export function setUpEmptyDir(dir: string, disk: NodeDisk): string | undefined {
	if (disk.isDir(dir)) return undefined;
	return disk.mkdir(dir) ? undefined : `mkdir ${dir}: no space left on device`;
}
