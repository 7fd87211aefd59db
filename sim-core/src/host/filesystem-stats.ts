/**
 * What statfs(2) says of a machine's root file system, the figures `df`
 * prints and cAdvisor hands the kubelet (its nodefs, and its imagefs when
 * containerd keeps /var/lib/containerd on the same disk, as a kubeadm node
 * does).
 *
 * The disk is ext4 as mkfs.ext4 makes it by default: one inode per 16 KiB
 * (the `default` type's inode_ratio in mke2fs.conf, for file systems under
 * 4 TiB) and 5% of the blocks reserved for root, so `available` (statfs's
 * f_bavail, what an unprivileged writer and the kubelet count) reaches
 * zero while `df` still shows 5% unused.
 *
 * Mirrors tytso/e2fsprogs misc/mke2fs.conf.in (inode_ratio 16384),
 * misc/mke2fs.c (reserved_ratio 5%), google/cadvisor fs/fs.go
 * (Capacity, Available, Inodes, InodesFree).
 */

/** The file system's figures, in the summary API's FsStats terms. */
export interface FsStats {
	capacityBytes: number;
	usedBytes: number;
	/** What may still be written: capacity less used less the root reserve. */
	availableBytes: number;
	inodes: number;
	inodesUsed: number;
	inodesFree: number;
}

/** mke2fs's default bytes per inode. */
const INODE_RATIO = 16_384;
/** mke2fs -m 5: blocks only root may use. */
const RESERVED_RATIO = 0.05;
/** ext4's 4 KiB blocks: statfs counts whole blocks, so every figure is a multiple of 4096. */
const BLOCK = 4096;

/** The statfs figures of an ext4 root file system of `capacityBytes` holding `usedBytes` in `inodesUsed` inodes. */
export function ext4Stats(capacityBytes: number, usedBytes: number, inodesUsed: number): FsStats {
	const used = Math.min(capacityBytes, Math.ceil(Math.max(0, usedBytes) / BLOCK) * BLOCK);
	const reserved = Math.floor((capacityBytes * RESERVED_RATIO) / BLOCK) * BLOCK;
	const inodes = Math.floor(capacityBytes / INODE_RATIO);
	const iused = Math.min(inodes, Math.max(0, inodesUsed));
	return {
		capacityBytes,
		usedBytes: used,
		availableBytes: Math.max(0, capacityBytes - used - reserved),
		inodes,
		inodesUsed: iused,
		inodesFree: inodes - iused,
	};
}

/** An empty tmpfs of `sizeBytes` (its inode limit, like the kernel's default, half its size in pages). */
export function tmpfsStats(sizeBytes: number, usedBytes = 0, inodesUsed = 1): FsStats {
	const inodes = Math.floor(sizeBytes / BLOCK / 2);
	return { capacityBytes: sizeBytes, usedBytes, availableBytes: sizeBytes - usedBytes, inodes, inodesUsed, inodesFree: inodes - inodesUsed };
}
