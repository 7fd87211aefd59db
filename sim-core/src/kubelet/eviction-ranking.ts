/**
 * The eviction manager's view of each Pod (what the summary API's PodStats
 * tell it: each container's working set, writable layer and log, the
 * Pod's local ephemeral volumes, its processes), the order in which it
 * picks the Pod to evict for each resource, and the message the evicted
 * Pod carries.
 *
 * - memory: Pods using more than they request first, then lowest priority,
 *   then most usage above the request (rankMemoryPressure);
 * - ephemeral-storage and inodes: the same with disk usage (writable layers,
 *   logs and local volumes, all on the one disk) against the
 *   ephemeral-storage request (rankDiskPressureFunc);
 * - pids: lowest priority, then most processes (rankPIDPressure).
 *
 * Mirrors pkg/kubelet/eviction/helpers.go (rankMemoryPressure,
 * rankDiskPressureFunc, rankPIDPressure, podDiskUsage, localVolumeNames,
 * evictionMessage), pkg/volume/util/util.go (IsLocalEphemeralVolume).
 */
import type { Pod } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';
import { podRequests, resourceValue } from '../component-helpers/resource.ts';
import type { ContainerStats } from '../cri-api/cri.ts';
import type { NodeDisk } from '../host/disk.ts';
import type { PodWorker } from './pod-workers.ts';
import type { ReclaimResource } from './eviction-signals.ts';
import { podVolumeDir, type VolumePluginName } from './volumes/paths.ts';
import type { EmptyDirSource } from './volumes/emptydir.ts';

/** One container's usage. */
interface ContainerUse {
	workingSetBytes: number;
	rootfsBytes: number;
	rootfsInodes: number;
	logBytes: number;
}

/** One Pod's usage, as PodStats reports it. */
export interface PodUse {
	w: PodWorker;
	containers: Map<string, ContainerUse>;
	/** Bytes and inodes of each local ephemeral volume, by volume name. */
	volumes: Map<string, { bytes: number; inodes: number }>;
	processes: number;
}

/** IsLocalEphemeralVolume: volumes whose files live on the node's disk (an emptyDir on the default medium, configMap, downwardAPI). */
function localVolumes(pod: Pod): Array<{ name: string; plugin: VolumePluginName }> {
	const out: Array<{ name: string; plugin: VolumePluginName }> = [];
	for (const v of pod.spec.volumes ?? []) {
		if (v.emptyDir !== undefined && ((v.emptyDir as EmptyDirSource | null)?.medium ?? '') === '') out.push({ name: v.name, plugin: 'kubernetes.io/empty-dir' });
		else if (v.configMap) out.push({ name: v.name, plugin: 'kubernetes.io/configmap' });
		else if (v.downwardAPI) out.push({ name: v.name, plugin: 'kubernetes.io/downward-api' });
	}
	return out;
}

/** The summary's PodStats for the Pods with running containers. */
export function podUsage(stats: readonly ContainerStats[], pods: Record<string, PodWorker>, disk: NodeDisk | undefined): Map<string, PodUse> {
	const byPod = new Map<string, PodUse>();
	for (const s of stats) {
		const w = pods[s.podUid];
		if (!w) continue;
		let use = byPod.get(s.podUid);
		if (!use) {
			use = { w, containers: new Map(), volumes: new Map(), processes: 0 };
			for (const v of localVolumes(w.pod)) use.volumes.set(v.name, disk ? disk.usage(podVolumeDir(w.uid, v.plugin, v.name)) : { bytes: 0, inodes: 0 });
			byPod.set(s.podUid, use);
		}
		const c = use.containers.get(s.name) ?? { workingSetBytes: 0, rootfsBytes: 0, rootfsInodes: 0, logBytes: 0 };
		c.workingSetBytes += s.workingSetBytes;
		c.rootfsBytes += s.writableLayerBytes;
		c.rootfsInodes += s.writableLayerInodes;
		c.logBytes += s.logBytes;
		use.containers.set(s.name, c);
		use.processes += s.processes;
	}
	return byPod;
}

/** The Pod's working set. */
export function memoryUse(u: PodUse): number {
	let total = 0;
	for (const c of u.containers.values()) total += c.workingSetBytes;
	return total;
}

/** podDiskUsage over every fs stat (one disk): writable layers, logs and local volumes; inodes likewise (a log is one inode). */
export function diskUse(u: PodUse, resource: 'ephemeral-storage' | 'inodes'): number {
	let total = 0;
	for (const c of u.containers.values()) total += resource === 'inodes' ? c.rootfsInodes + 1 : c.rootfsBytes + c.logBytes;
	for (const v of u.volumes.values()) total += resource === 'inodes' ? v.inodes : v.bytes;
	return total;
}

const priorityOf = (u: PodUse) => u.w.pod.spec.priority ?? 0;
/** cmpBool: true sorts first. */
const first = (a: boolean, b: boolean) => (a === b ? 0 : a ? -1 : 1);

/** The Pods in the order the manager evicts them to reclaim `resource`. */
export function rankForEviction(pods: readonly PodUse[], resource: ReclaimResource): PodUse[] {
	const usage = (u: PodUse) => (resource === 'memory' ? memoryUse(u) : resource === 'pids' ? u.processes : diskUse(u, resource));
	// Nothing requests inodes: any use exceeds the request of 0.
	const request = (u: PodUse) => (resource === 'memory' ? resourceValue(podRequests(u.w.pod.spec), 'memory') : resource === 'ephemeral-storage' ? resourceValue(podRequests(u.w.pod.spec), 'ephemeral-storage') : 0);
	return [...pods].sort((a, b) => {
		if (resource === 'pids') return priorityOf(a) - priorityOf(b) || b.processes - a.processes;
		const exceeds = first(usage(a) > request(a), usage(b) > request(b));
		if (exceeds !== 0) return exceeds;
		if (priorityOf(a) !== priorityOf(b)) return priorityOf(a) - priorityOf(b);
		// disk() subtracts the ephemeral-storage request for inodes too, as upstream does.
		const over = (u: PodUse) => usage(u) - (resource === 'inodes' ? resourceValue(podRequests(u.w.pod.spec), 'ephemeral-storage') : request(u));
		return over(b) - over(a);
	});
}

/** A byte count as resource.NewQuantity(n, BinarySI) prints it. */
function bytes(n: number): string {
	return Quantity.fromValue(Math.round(n), 'BinarySI').toString();
}

/**
 * evictionMessage: what ran out, the threshold and what was left, and each
 * container that used more of it than it asked for (memory: its working
 * set; ephemeral-storage: its writable layer and log).
 */
export function evictionMessage(u: PodUse, resource: ReclaimResource, threshold: string | undefined, available: string | undefined): string {
	let message = `The node was low on resource: ${resource}. `;
	if (threshold !== undefined && available !== undefined) message += `Threshold quantity: ${threshold}, available: ${available}. `;
	if (resource !== 'memory' && resource !== 'ephemeral-storage') return message;
	const containers = [...u.w.pod.spec.containers, ...(u.w.pod.spec.initContainers ?? [])];
	for (const [name, c] of u.containers) {
		const spec = containers.find((x) => x.name === name);
		if (!spec) continue;
		const used = resource === 'memory' ? c.workingSetBytes : c.rootfsBytes + c.logBytes;
		const requested = Quantity.parse(String(spec.resources?.requests?.[resource] ?? '0'));
		if (used > requested.value()) message += `Container ${name} was using ${bytes(used)}, request is ${requested.toString()}, has larger consumption of ${resource}. `;
	}
	return message;
}
