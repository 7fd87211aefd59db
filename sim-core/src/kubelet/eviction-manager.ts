/**
 * The kubelet's eviction manager. Every 10 s it observes its signals
 * (./eviction-signals.ts: memory.available, the root disk's space and
 * inodes as nodefs and imagefs, pid.available) against the thresholds of
 * the kubelet's config (by default memory.available<100Mi,
 * nodefs.available<10%, nodefs.inodesFree<5%, imagefs.available<15%,
 * imagefs.inodesFree<5%).
 *
 * - While a threshold is met, and for the 5 min pressure transition period
 *   after, the node reports its condition (MemoryPressure, DiskPressure,
 *   PIDPressure; the node lifecycle controller then taints the node
 *   `node.kubernetes.io/<memory|disk|pid>-pressure:NoSchedule`). Admission
 *   refuses BestEffort pods under memory pressure alone, and every pod
 *   under any other pressure (critical and static pods still go).
 * - Before any threshold, each pass evicts the Pods that exceed their own
 *   local storage limits: an emptyDir over its sizeLimit, a Pod over the
 *   sum of its containers' ephemeral-storage limits, a container over its
 *   own.
 * - A met hard threshold (a soft one once it has held for its grace
 *   period) makes the manager reclaim: for disk, first by removing dead
 *   containers and unused images; if that is not enough, or for memory and
 *   PIDs, by evicting one pod, ranked for the resource
 *   (./eviction-ranking.ts), then it waits for that Pod to stop (at most
 *   30 s) before it evicts another.
 *
 * A hard eviction stops the containers at once (the 2 s minimum grace); a
 * soft one gives evictionMaxPodGracePeriod (or the Pod's own shorter
 * grace). The Pod ends Failed with reason `Evicted` and a message saying
 * what ran out; a threshold eviction also sets the DisruptionTarget
 * condition. Static and critical pods are never evicted.
 *
 * Mirrors pkg/kubelet/eviction/eviction_manager.go (synchronize, Admit,
 * localStorageEviction, reclaimNodeLevelResources, evictPod),
 * pkg/kubelet/eviction/helpers.go (nodeConditionsObservedSince,
 * thresholdsMetGracePeriod, the message formats),
 * pkg/kubelet/apis/config/v1beta1/defaults.go (evictionPressureTransitionPeriod
 * 5m), pkg/kubelet/kubelet.go (evictionMonitoringPeriod 10s).
 */
import type { Pod } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';
import { podLimits, resourceValue } from '../component-helpers/resource.ts';
import { computePodQOS } from '../component-helpers/qos.ts';
import { tolerationsTolerateTaint } from '../component-helpers/taints.ts';
import { keyOf } from '../client/informer.ts';
import type { ContainerStats } from '../cri-api/cri.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { nodeWorkingSetBytes } from './resource-metrics.ts';
import { isStaticPod } from './admission.ts';
import { requestSync } from './pod-workers.ts';
import type { EmptyDirSource } from './volumes/emptydir.ts';
import { PRESSURE_CONDITIONS, SIGNAL_CONDITION, SIGNAL_RESOURCE, configuredThresholds, formatAmount, formatThreshold, thresholdKey, thresholdsMet, type Observations, type PressureCondition, type Threshold } from './eviction-signals.ts';
import { diskUse, evictionMessage, memoryUse, podUsage, rankForEviction, type PodUse } from './eviction-ranking.ts';

/** evictionMonitoringPeriod. */
export const EVICTION_MONITORING_PERIOD_MS = 10_000;
/** evictionPressureTransitionPeriod: a condition stays until its thresholds have not been met for this long. */
const PRESSURE_TRANSITION_PERIOD_MS = 5 * 60_000;
/** podCleanupTimeout: how long the manager waits for an evicted Pod to stop before it may evict another. */
const POD_CLEANUP_TIMEOUT_MS = 30_000;
/** immediateEvictionGracePeriodSeconds: the grace a hard eviction gives (the kubelet then applies its 2 s minimum). */
const IMMEDIATE_EVICTION_GRACE_PERIOD_S = 1;
/** scheduling.SystemCriticalPriority: pods at or above it are critical and never evicted. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** What the eviction manager keeps between passes (part of the kubelet's state). */
export interface EvictionState {
	/** When each node condition was last observed (virtual ms): it is reported for the transition period after. */
	conditionsLastObservedMs?: Partial<Record<PressureCondition, number>>;
	/** When each threshold (./eviction-signals.ts thresholdKey) began to hold without a break. */
	thresholdsFirstObservedMs?: Record<string, number>;
}

/** The pressure conditions the node reports now: observed within the transition period. */
export function nodePressureConditions(ctx: KubeletContext): PressureCondition[] {
	const seen = ctx.state.eviction?.conditionsLastObservedMs ?? {};
	return PRESSURE_CONDITIONS.filter((c) => seen[c] !== undefined && ctx.nowMs - seen[c] < PRESSURE_TRANSITION_PERIOD_MS);
}

/** IsCriticalPod: static and mirror pods, and pods at system-critical priority. */
function isCritical(pod: Pod): boolean {
	return isStaticPod(pod) || (pod.spec.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY;
}

/**
 * Admit: under memory pressure alone a BestEffort pod is refused unless it
 * tolerates the memory-pressure taint; under any other pressure every pod
 * is. Critical pods always go.
 */
export function evictionAdmit(ctx: KubeletContext, pod: Pod): { admit: true } | { admit: false; reason: string; message: string } {
	const conditions = nodePressureConditions(ctx);
	if (conditions.length === 0 || isCritical(pod)) return { admit: true };
	if (conditions.length === 1 && conditions[0] === 'MemoryPressure') {
		if (computePodQOS(pod.spec) !== 'BestEffort') return { admit: true };
		if (tolerationsTolerateTaint(pod.spec.tolerations, { key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule' })) return { admit: true };
	}
	return { admit: false, reason: 'Evicted', message: `The node had condition: [${conditions.join(' ')}]. ` };
}

/** makeSignalObservations: memory from the containers' working sets, the disk and the process table from the machine. */
function observe(ctx: KubeletContext, stats: readonly ContainerStats[]): Observations {
	const capacity = Quantity.parse(ctx.identity.capacity.memory).value();
	const workingSet = nodeWorkingSetBytes(stats, ctx.deps.controlPlane === true);
	// The kernel's OOM killer (which would stop a machine from using more than it has) is not modelled: beyond that, none is available.
	const observations: Observations = { 'memory.available': { available: Math.max(0, capacity - workingSet), capacity } };
	const fs = ctx.deps.rootFs?.();
	if (fs) {
		// One disk: imagefs reads what nodefs reads.
		observations['nodefs.available'] = observations['imagefs.available'] = { available: fs.availableBytes, capacity: fs.capacityBytes };
		observations['nodefs.inodesFree'] = observations['imagefs.inodesFree'] = { available: fs.inodesFree, capacity: fs.inodes };
	}
	const pids = ctx.deps.processTable?.();
	if (pids) observations['pid.available'] = { available: pids.maxPid - pids.running, capacity: pids.maxPid };
	return observations;
}

/** Marks the Pod evicted: its worker stops it with the grace given and reports it Failed/Evicted with the message. */
function evictPod(ctx: KubeletContext, u: PodUse, gracePeriodSeconds: number, message: string, disruptionCondition: boolean, why: string): boolean {
	if (isCritical(u.w.pod)) {
		ctx.log('E', 'eviction_manager.go:593', 'Eviction manager: cannot evict a critical pod', { pod: keyOf(u.w.pod) });
		return false;
	}
	ctx.podEvent(u.w, 'Warning', 'Evicted', message);
	ctx.log('I', 'eviction_manager.go:609', 'Eviction manager: pod is evicted successfully', { pod: keyOf(u.w.pod) });
	ctx.emit({ action: 'evict', object: `pods/${keyOf(u.w.pod)}`, msg: `evicted ${keyOf(u.w.pod)} ${why}` });
	u.w.evicted = { message, gracePeriodSeconds, atMs: ctx.nowMs, ...(disruptionCondition ? {} : { noDisruptionCondition: true }) };
	requestSync(ctx, u.w, 0, false);
	return true;
}

/** localStorageEviction: every Pod over its own local storage limits is evicted at once. Returns whether any was. */
function localStorageEviction(ctx: KubeletContext, pods: readonly PodUse[]): boolean {
	let evicted = false;
	for (const u of pods) {
		const spec = u.w.pod.spec;
		// emptyDirLimitEviction
		let overLimit: { name: string; limit: Quantity } | undefined;
		for (const v of spec.volumes ?? []) {
			const raw = (v.emptyDir as EmptyDirSource | undefined)?.sizeLimit;
			const used = u.volumes.get(v.name);
			if (raw === undefined || used === undefined) continue;
			const limit = Quantity.parse(String(raw));
			if (limit.sign() > 0 && used.bytes > limit.value()) {
				overLimit = { name: v.name, limit };
				break;
			}
		}
		if (overLimit) {
			const limit = overLimit.limit.toString();
			if (evictPod(ctx, u, IMMEDIATE_EVICTION_GRACE_PERIOD_S, `Usage of EmptyDir volume "${overLimit.name}" exceeds the limit "${limit}". `, false, `: emptyDir ${overLimit.name} over its sizeLimit ${limit}`)) evicted = true;
			continue;
		}
		// podEphemeralStorageLimitEviction: the Pod's whole local use against the sum of its containers' limits.
		const limits = podLimits(spec);
		const podLimit = limits.get('ephemeral-storage');
		if (podLimit !== undefined) {
			if (diskUse(u, 'ephemeral-storage') > resourceValue(limits, 'ephemeral-storage')) {
				const text = podLimit.toString();
				if (evictPod(ctx, u, IMMEDIATE_EVICTION_GRACE_PERIOD_S, `Pod ephemeral local storage usage exceeds the total limit of containers ${text}. `, false, `: local storage over its containers' limit ${text}`)) evicted = true;
				continue;
			}
		}
		// containerEphemeralStorageLimitEviction: one container's writable layer and log against its own limit.
		for (const container of spec.containers) {
			const raw = container.resources?.limits?.['ephemeral-storage'];
			if (raw === undefined) continue;
			const limit = Quantity.parse(String(raw));
			const use = u.containers.get(container.name);
			if (!use || limit.value() === 0 || use.rootfsBytes + use.logBytes <= limit.value()) continue;
			if (evictPod(ctx, u, IMMEDIATE_EVICTION_GRACE_PERIOD_S, `Container ${container.name} exceeded its local ephemeral storage limit "${limit.toString()}". `, false, `: container ${container.name} over its ephemeral-storage limit`)) evicted = true;
			break;
		}
	}
	return evicted;
}

/**
 * reclaimNodeLevelResources for the disk: the dead containers go, then
 * every image no remaining container uses (the pinned sandbox image
 * stays). True when that brought every threshold back.
 */
function reclaimDisk(ctx: KubeletContext, thresholds: readonly Threshold[]): boolean {
	const containers = ctx.runtime.listContainers();
	if (!containers.ok) return false;
	for (const c of containers.value) if (c.state === 'CONTAINER_EXITED') ctx.runtime.removeContainer(c.id);
	const inUse = new Set(containers.value.filter((c) => c.state !== 'CONTAINER_EXITED').flatMap((c) => [c.imageId, c.image]));
	const images = ctx.runtime.listImages();
	if (images.ok) {
		for (const image of images.value) {
			if (image.pinned || inUse.has(image.id) || image.repoTags.some((t) => inUse.has(t))) continue;
			ctx.runtime.removeImage(image.id);
			ctx.log('I', 'image_gc_manager.go:487', 'Removing image to free bytes', { imageID: image.id, size: image.sizeBytes });
		}
	}
	const stats = ctx.runtime.listContainerStats();
	return stats.ok && thresholdsMet(thresholds, observe(ctx, stats.value)).length === 0;
}

/** synchronize: observe, update the conditions, evict what exceeds its own limits, then reclaim for the first starved resource. */
export function synchronizeEviction(ctx: KubeletContext): void {
	const listed = ctx.runtime.listContainerStats();
	if (!listed.ok) return;
	const state = (ctx.state.eviction ??= {});
	const lastObserved = (state.conditionsLastObservedMs ??= {});
	const observations = observe(ctx, listed.value);
	const configured = configuredThresholds(ctx.config);
	const met = thresholdsMet(configured, observations);
	// thresholdsFirstObservedAt: a soft threshold's grace period counts from when it began to hold without a break.
	const firstObserved: Record<string, number> = {};
	for (const t of met) firstObserved[thresholdKey(t)] = state.thresholdsFirstObservedMs?.[thresholdKey(t)] ?? ctx.nowMs;
	state.thresholdsFirstObservedMs = firstObserved;
	// The conditions follow every met threshold at once; only eviction waits for a soft one's grace period.
	const before = nodePressureConditions(ctx);
	for (const t of met) lastObserved[SIGNAL_CONDITION[t.signal]] = ctx.nowMs;
	for (const t of met) {
		const condition = SIGNAL_CONDITION[t.signal];
		if (before.includes(condition)) continue;
		before.push(condition);
		const observed = observations[t.signal]!;
		ctx.emit({ action: condition === 'MemoryPressure' ? 'memory-pressure' : condition === 'DiskPressure' ? 'disk-pressure' : 'pid-pressure', object: `nodes/${ctx.nodeName}`, msg: `${t.signal} ${formatAmount(t.signal, observed.available)} is below the ${formatThreshold(t, observed)} ${t.hard ? 'hard' : 'soft'} threshold: the node is under ${condition.replace('Pressure', '').toLowerCase()} pressure` });
	}
	// waitForPodsCleanup: after an eviction the manager waits (up to 30 s) for that Pod's containers to stop before it evicts again.
	const stopping = Object.values(ctx.state.pods).some((w) => w.evicted && !w.terminated && ctx.nowMs - w.evicted.atMs < POD_CLEANUP_TIMEOUT_MS);
	if (stopping) return;
	const usage = podUsage(listed.value, ctx.state.pods, ctx.deps.disk);
	const active = [...usage.values()].filter((u) => !u.w.evicted && !u.w.terminated);
	if (localStorageEviction(ctx, active)) return;
	const ready = met.filter((t) => t.hard || ctx.nowMs - firstObserved[thresholdKey(t)] >= t.gracePeriodMs);
	const threshold = ready[0];
	if (!threshold) return;
	const resource = SIGNAL_RESOURCE[threshold.signal];
	ctx.log('W', 'eviction_manager.go:369', 'Eviction manager: attempting to reclaim', { resourceName: resource });
	ctx.nodeEvent('Warning', 'EvictionThresholdMet', `Attempting to reclaim ${resource}`);
	if ((resource === 'ephemeral-storage' || resource === 'inodes') && reclaimDisk(ctx, configured)) {
		ctx.log('I', 'eviction_manager.go:380', 'Eviction manager: able to reduce resource pressure without evicting pods.', { resourceName: resource });
		return;
	}
	const candidates = active.filter((u) => !isCritical(u.w.pod));
	if (candidates.length === 0) {
		ctx.log('E', 'eviction_manager.go:395', 'Eviction manager: eviction thresholds have been met, but no pods are active to evict', {});
		return;
	}
	const observed = observations[threshold.signal]!;
	for (const victim of rankForEviction(candidates, resource)) {
		// A hard threshold gives the Pod 1 s (immediateEvictionGracePeriodSeconds); a soft one evictionMaxPodGracePeriod, or the Pod's own grace if that is shorter.
		const grace = threshold.hard ? IMMEDIATE_EVICTION_GRACE_PERIOD_S : Math.min(ctx.config.evictionMaxPodGracePeriodSeconds, victim.w.pod.spec.terminationGracePeriodSeconds ?? 30);
		const message = evictionMessage(victim, resource, formatThreshold(threshold, observed), formatAmount(threshold.signal, observed.available));
		const used = resource === 'memory' ? Quantity.fromValue(memoryUse(victim), 'BinarySI').toString() : resource === 'pids' ? `${victim.processes} processes` : Quantity.fromValue(diskUse(victim, resource), resource === 'inodes' ? 'DecimalSI' : 'BinarySI').toString() + (resource === 'inodes' ? ' inodes' : '');
		if (evictPod(ctx, victim, grace, message, true, `to reclaim ${resource} (using ${used})`)) return;
	}
}
