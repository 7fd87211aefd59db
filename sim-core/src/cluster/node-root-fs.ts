/**
 * A node's root file system and process table as its kernel counts them:
 * the disk's statfs figures (what `df` prints and cAdvisor gives the
 * kubelet) and the number of processes against kernel.pid_max.
 *
 * The disk holds the operating system, the node's own files (the kubelet's
 * directory with its emptyDir volumes, /etc, /tmp, what the reader writes
 * over `ssh`) and containerd's images, writable layers and logs. It is as
 * large as the ephemeral-storage capacity every kubelet here reports
 * (100Gi). pid_max is 4194304, what systemd (since v243) sets on 64-bit
 * machines.
 *
 * The operating system's share is an Ubuntu 24.04 server image with
 * containerd and the kubeadm packages, about 4.5 GiB in some 160,000
 * files; its processes, kernel threads included, about 300. Rough figures
 * of such machines, not measurements.
 *
 * Mirrors systemd/systemd sysctl.d/50-pid-max.conf (pid_max 4194304),
 * google/cadvisor utils/sysinfo/sysinfo.go (the root file system's figures).
 */
import type { MemoryFs } from '../host/fs.ts';
import { ext4Stats, type FsStats } from '../host/filesystem-stats.ts';
import { containerProcesses, type RuntimeHostState } from '../runtime/host-state.ts';
import { runtimeDiskUse } from '../runtime/disk-usage.ts';

const GI = 1024 ** 3;
/** The disk: the 100Gi of ephemeral-storage capacity the kubelets report. */
export const NODE_DISK_BYTES = 100 * GI;
const SYSTEM_BYTES = 4.5 * GI;
const SYSTEM_INODES = 160_000;
/** kernel.pid_max as systemd sets it on 64-bit machines. */
const PID_MAX = 4_194_304;
const SYSTEM_PROCESSES = 300;

/** The root file system's statfs figures now. */
export function nodeRootFsStats(fs: MemoryFs, runtime: RuntimeHostState): FsStats {
	const files = fs.diskUsage('/');
	const containerd = runtimeDiskUse(runtime);
	return ext4Stats(NODE_DISK_BYTES, SYSTEM_BYTES + files.bytes + containerd.bytes, SYSTEM_INODES + files.inodes + containerd.inodes);
}

/** The process table: its limit and how many processes run (the system's and each running container's). */
export function nodeProcessTable(runtime: RuntimeHostState): { maxPid: number; running: number } {
	let running = SYSTEM_PROCESSES;
	for (const c of Object.values(runtime.containers)) running += containerProcesses(c);
	return { maxPid: PID_MAX, running };
}
