/**
 * The permission bits of a container's files, as its processes see them:
 * what the context records (volume files the kubelet wrote with a mode,
 * files a process created or chmod-ed), else what a fresh file or
 * directory gets under umask 022, with the images' programs (/bin,
 * /usr/bin, ...) executable.
 *
 * Mirrors nothing upstream: the model's stand-in for a file's inode mode.
 */
import type { CatalogImage } from '../images.ts';
import type { ContainerContext, FileOverrides } from '../behaviour.ts';
import { listDirectory, normalizePath, readStoredFile } from './rootfs.ts';

const PROGRAM_DIRS = ['/bin/', '/sbin/', '/usr/bin/', '/usr/sbin/', '/usr/local/bin/', '/usr/local/sbin/', '/opt/cni/bin/'];

/** A path's type and permission bits in the container; undefined when nothing is there. */
export function fileModeOf(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, path: string): { isDir: boolean; mode: number } | undefined {
	const p = normalizePath(path, ctx);
	const isDir = listDirectory(image, ctx, files, p) !== undefined;
	if (!isDir && readStoredFile(image, ctx, files, p) === undefined) return undefined;
	const recorded = ctx.fileModes?.[p];
	if (recorded !== undefined) return { isDir, mode: recorded };
	if (isDir) return { isDir, mode: p === '/tmp' ? 0o1777 : 0o755 };
	return { isDir, mode: PROGRAM_DIRS.some((d) => p.startsWith(d)) ? 0o755 : 0o644 };
}
