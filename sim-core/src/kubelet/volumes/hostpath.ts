/**
 * The hostPath volume plugin: a file or directory of the node itself,
 * bind-mounted into the container as it is (no copy: what the container
 * writes lands on the node). Its `type` asks for a check first, and the
 * `*OrCreate` types create what is missing. With no type nothing is checked
 * and containerd creates a missing path as a directory when it mounts it.
 *
 * The node's file system here holds text files and directories only, so
 * CharDevice and BlockDevice checks fail as they would on a node without
 * that device, and a Socket check passes only for a file named `*.sock`
 * (the simulation's stand-in for a socket). `FileOrCreate` also creates
 * missing parent directories, where upstream's plain open(2) would fail:
 * the simulated node lacks many standard directories (/run,
 * /lib/modules...) a real one has.
 *
 * Mirrors pkg/volume/hostpath/host_path.go (SetUp, checkType),
 * pkg/volume/validation/pv_validation.go (ValidatePathNoBacksteps).
 */
import type { NodeDisk } from '../../host/disk.ts';

/** v1.HostPathVolumeSource. */
export interface HostPathSource {
	path?: string;
	type?: string;
}

/** SetUp: validates the path, then checks (or creates) it according to `type`. Undefined on success, else the error. */
export function setUpHostPath(source: HostPathSource, disk: NodeDisk): string | undefined {
	const path = source.path ?? '';
	if (path.split('/').includes('..')) return `invalid HostPath \`${path}\`: must not contain '..'`;
	const type = source.type ?? '';
	const isDir = () => disk.isDir(path);
	const isFile = () => disk.exists(path) && !disk.isDir(path);
	switch (type) {
		case '':
			return undefined;
		case 'DirectoryOrCreate':
			if (!disk.exists(path)) return disk.mkdir(path) ? undefined : `mkdir ${path}: no space left on device`;
			return isDir() ? undefined : `hostPath type check failed: ${path} is not a directory`;
		case 'Directory':
			return isDir() ? undefined : `hostPath type check failed: ${path} is not a directory`;
		case 'FileOrCreate':
			if (!disk.exists(path)) return disk.writeFile(path, '') ? undefined : `open ${path}: no space left on device`;
			return isFile() ? undefined : `hostPath type check failed: ${path} is not a file`;
		case 'File':
			return isFile() ? undefined : `hostPath type check failed: ${path} is not a file`;
		case 'Socket':
			return isFile() && path.endsWith('.sock') ? undefined : `hostPath type check failed: ${path} is not a socket file`;
		case 'CharDevice':
			return `hostPath type check failed: ${path} is not a character device`;
		case 'BlockDevice':
			return `hostPath type check failed: ${path} is not a block device`;
		default:
			return `${type} is an invalid volume type`;
	}
}
