/**
 * The disk tools of a container's userland: `dd` and `fallocate`, which
 * fill the node's disk from inside a Pod (../../host/disk-fill.ts: what
 * they write is counted in the container's writable layer or, under an
 * emptyDir mount, in the volume on the node, so the kubelet's eviction
 * manager sees it), and `df` and `du`, which show how full it is and what fills it.
 *
 * Mirrors coreutils/coreutils src/df.c (through ../../host/df.ts),
 * mirror/busybox coreutils/df.c, containerd/containerd
 * internal/cri/opts/spec_linux_opts.go (the 64 MiB /dev and /dev/shm).
 */
import type { CatalogImage } from '../images.ts';
import type { CommandOutcome, ContainerContext, FileOverrides, OutputLine, RunOptions } from '../behaviour.ts';
import { listDirectory, normalizePath, readStoredFile } from './rootfs.ts';
import { busyboxDf, gnuDf, type DfMount } from '../../host/df.ts';
import { ext4Stats, tmpfsStats } from '../../host/filesystem-stats.ts';
import { usesBusybox } from './userland.ts';
import { contentBytes, zeroFilled } from '../../host/zero-filled.ts';
import { du } from '../../host/du.ts';
import { ddCommand, fallocateCommand } from '../../host/disk-fill.ts';

/** containerd's default /dev and /dev/shm: 64 MiB tmpfs each. */
const DEV_TMPFS_BYTES = 64 * 1024 * 1024;

/** A volume the kubelet backs with memory (Secrets, projected service account tokens): a tmpfs, not the node's disk. */
function isTmpfsVolume(hostPath: string): boolean {
	return /\/volumes\/kubernetes\.io~(secret|projected)\//.test(hostPath);
}

/**
 * df inside the container: its overlay root on the node's disk, the 64 MiB
 * /dev and /dev/shm, and the bind mounts that come from the node's disk
 * (/etc/hosts, emptyDir and hostPath volumes) as /dev/sda1.
 */
function df(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, args: string[], options: RunOptions, out: OutputLine[]): CommandOutcome {
	const disk = options.rootFs ?? ext4Stats(100 * 1024 ** 3, 0, 0);
	const mounts: DfMount[] = [
		{ source: 'overlay', type: 'overlay', target: '/', stats: disk, device: 'overlay' },
		{ source: 'tmpfs', type: 'tmpfs', target: '/dev', stats: tmpfsStats(DEV_TMPFS_BYTES, 0, 16), device: 'tmpfs-dev' },
		{ source: 'shm', type: 'tmpfs', target: '/dev/shm', stats: tmpfsStats(DEV_TMPFS_BYTES), device: 'shm' },
	];
	for (const m of ctx.mounts ?? []) if (!isTmpfsVolume(m.hostPath)) mounts.push({ source: '/dev/sda1', type: 'ext4', target: normalizePath(m.containerPath, ctx), stats: disk, device: 'sda1' });
	const exists = (path: string) => readStoredFile(image, ctx, files, path) !== undefined || listDirectory(image, ctx, files, path) !== undefined;
	const result = (usesBusybox(image) ? busyboxDf : gnuDf)(mounts, args, exists);
	for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) {
		const lines = text.split('\n');
		if (lines[lines.length - 1] === '') lines.pop();
		for (const line of lines) out.push({ stream, text: line });
	}
	return { kind: 'done', status: result.exitCode, out };
}

/** dd or fallocate in the container: what they write goes to its writable layer (or through a mount to the node). */
function fill(image: CatalogImage, ctx: ContainerContext, base: 'dd' | 'fallocate', args: string[], options: RunOptions, out: OutputLine[]): CommandOutcome {
	const free = options.rootFs?.availableBytes ?? Number.POSITIVE_INFINITY;
	const busybox = usesBusybox(image);
	const result = base === 'dd' ? ddCommand(busybox, args, options.stdin?.length ?? 0, free) : fallocateCommand(busybox, args, free);
	for (const text of result.stderr) out.push({ stream: 'stderr', text });
	const files = result.write ? { [normalizePath(result.write.path, ctx)]: zeroFilled(result.write.bytes) } : undefined;
	return { kind: 'done', status: result.status, out, ...(files ? { files } : {}), ...(result.durationMs ? { elapsedMs: result.durationMs } : {}) };
}

/** du inside the container: its files as the overlay shows them (a zero-filled file at its full size). */
function duInContainer(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, args: string[], out: OutputLine[]): CommandOutcome {
	const tree = {
		list: (path: string) => listDirectory(image, ctx, files, path)?.slice().sort(),
		fileBytes: (path: string) => {
			const content = readStoredFile(image, ctx, files, path);
			return content === undefined ? undefined : contentBytes(content);
		},
	};
	const result = du(tree, args, (path) => normalizePath(path, ctx), usesBusybox(image));
	for (const [stream, text] of [['stdout', result.stdout], ['stderr', result.stderr]] as const) for (const line of text.split('\n').slice(0, -1)) out.push({ stream, text: line });
	return { kind: 'done', status: result.exitCode, out };
}

/** Runs dd, fallocate, df or du; undefined for any other program. */
export function runDiskTool(image: CatalogImage, ctx: ContainerContext, files: FileOverrides, base: string, args: string[], options: RunOptions, out: OutputLine[]): CommandOutcome | undefined {
	if (base === 'dd' || base === 'fallocate') return fill(image, ctx, base, args, options, out);
	if (base === 'df') return df(image, ctx, files, args, options, out);
	if (base === 'du') return duInContainer(image, ctx, files, args, out);
	return undefined;
}
