/**
 * stat(2) of a container's files, as its processes see them: the type,
 * the size (a zero-filled file at its full length, a directory 4096) and
 * the permission bits:
 * what the context records (volume files the kubelet wrote with a mode,
 * files a process created or chmod-ed), else what a fresh file or
 * directory gets under umask 022, with the images' programs (/bin,
 * /usr/bin, ...) executable.
 *
 * Mirrors nothing upstream: the model's stand-in for a file's inode mode.
 */
import type { CatalogImage } from '../images.ts';
import type { ContainerContext, FileOverrides } from '../behaviour.ts';
import { DEFAULT_DIR_MODE, DEFAULT_FILE_MODE } from '../../host/fs.ts';
import { contentBytes } from '../../host/zero-filled.ts';
import { listDirectory, normalizePath, readStoredFile } from './rootfs.ts';

const PROGRAM_DIRS = ['/bin/', '/sbin/', '/usr/bin/', '/usr/sbin/', '/usr/local/bin/', '/usr/local/sbin/', '/opt/cni/bin/'];

/** What stat tells of a container path: its type, size and permission bits. */
export interface ContainerStat {
	isDir: boolean;
	size: number;
	mode: number;
}

/** stat of a path in the container; undefined when nothing is there. */
export function statFile(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, path: string): ContainerStat | undefined {
	const p = normalizePath(path, ctx);
	const isDir = listDirectory(image, ctx, files, p) !== undefined;
	const content = isDir ? undefined : readStoredFile(image, ctx, files, p);
	if (!isDir && content === undefined) return undefined;
	const size = isDir ? 4096 : contentBytes(content!);
	const recorded = ctx.fileModes?.[p];
	if (recorded !== undefined) return { isDir, size, mode: recorded };
	if (isDir) return { isDir, size, mode: p === '/tmp' ? 0o1777 : DEFAULT_DIR_MODE };
	return { isDir, size, mode: PROGRAM_DIRS.some((d) => p.startsWith(d)) ? 0o755 : DEFAULT_FILE_MODE };
}
