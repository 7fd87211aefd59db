/**
 * What containerd's files take on the node's disk: the images (the
 * content store's compressed layers and the snapshotter's unpacked copy
 * of them), each container's writable layer (what it wrote on top of its
 * image, not what its bind mounts show) and its log file. The kubelet
 * reads the per-container figures through CRI ListContainerStats
 * (writable_layer) and its log directory; the node's root file system
 * counts them all.
 *
 * The unpacked copy is taken as twice the compressed size (image layers
 * compress to about half); a log line as its text plus the CRI log
 * format's timestamp, stream and tag prefix.
 *
 * Mirrors containerd/containerd internal/cri/server/container_stats_list.go
 * (the writable layer's usage from the snapshotter),
 * pkg/kubelet/kuberuntime/logs/logs.go (the CRI log line format).
 */
import type { ContainerRecord, RuntimeHostState } from './host-state.ts';
import { contentBytes } from '../host/zero-filled.ts';

/** An unpacked image next to its compressed layers: the store holds about three times the compressed size. */
const IMAGE_DISK_FACTOR = 3;
/** `2026-12-05T10:00:00.123456789Z stdout F ` and the newline. */
const LOG_LINE_OVERHEAD = 42;
/** ext4's block: a file takes whole blocks (what du and the snapshotter's usage count), a directory one. */
const BLOCK = 4096;
const blocks = (bytes: number) => Math.ceil(bytes / BLOCK) * BLOCK;

/** Bytes and inodes. */
export interface DiskUse {
	bytes: number;
	inodes: number;
}

/** The container's writable layer: its own files, not those its mounts project (ContainerStats.writable_layer). */
export function writableLayerUse(c: ContainerRecord): DiskUse {
	let bytes = 0;
	let inodes = 0;
	const projected = c.mounted ?? {};
	for (const [path, content] of Object.entries(c.files)) {
		if (content === null || Object.hasOwn(projected, path)) continue;
		inodes++;
		bytes += path.endsWith('/') ? BLOCK : blocks(contentBytes(content));
	}
	return { bytes, inodes };
}

/** The container's log file under /var/log/pods. */
export function containerLogUse(c: ContainerRecord): DiskUse {
	let bytes = 0;
	for (const line of c.logs) bytes += line.text.length + LOG_LINE_OVERHEAD;
	return { bytes: blocks(bytes), inodes: 1 };
}

/** The image store: every pulled image's layers, compressed and unpacked. */
export function imageStoreUse(state: RuntimeHostState): DiskUse {
	let bytes = 0;
	for (const image of Object.values(state.images)) bytes += image.sizeBytes * IMAGE_DISK_FACTOR;
	// An unpacked image holds some thousand files; a count that keeps inodes honest without listing them.
	return { bytes, inodes: Object.keys(state.images).length * 1_000 };
}

/** Everything containerd keeps on the node: images, and every container's writable layer and log (exited ones too, until removed). */
export function runtimeDiskUse(state: RuntimeHostState): DiskUse {
	const total = imageStoreUse(state);
	for (const c of Object.values(state.containers)) {
		const layer = writableLayerUse(c);
		const log = containerLogUse(c);
		total.bytes += layer.bytes + log.bytes;
		total.inodes += layer.inodes + log.inodes;
	}
	return total;
}
