/**
 * The kubelet's eviction manager, for memory: every 10 s it observes
 * memory.available (the machine's memory less the node's working set, the
 * figure `node_memory_working_set_bytes` reports) against the hard
 * threshold memory.available<100Mi (evictionHard in the kubelet's config
 * may change it; `0` or `0%` turns it off) and, when the config sets one, a
 * soft threshold (evictionSoft, with its evictionSoftGracePeriod: the
 * condition appears at once, eviction waits until the threshold has held
 * for the grace period, and gives the Pod evictionMaxPodGracePeriod, or its
 * own shorter grace). While a threshold is met, and for
 * the 5 min pressure transition period after, the node reports
 * MemoryPressure (the node lifecycle controller then taints it
 * `node.kubernetes.io/memory-pressure:NoSchedule`), BestEffort pods are
 * refused at admission, and each pass evicts one pod: the one that
 * exceeds its memory request, of lowest priority, using the most above
 * its request, then waits for that Pod to stop (at most 30 s) before it
 * evicts another. A hard eviction stops the containers at once (the
 * 2 s minimum grace) and the Pod ends Failed with reason `Evicted`, the
 * message saying what ran out and who used it, and the DisruptionTarget
 * condition. Static and critical pods are never evicted.
 *
 * The other signals (nodefs, imagefs, pid) are not modelled: the
 * simulated machines' disks and process tables never fill, so DiskPressure
 * and PIDPressure stay False.
 *
 * Mirrors pkg/kubelet/eviction/eviction_manager.go (synchronize, Admit,
 * evictPod), pkg/kubelet/eviction/helpers.go (rankMemoryPressure,
 * evictionMessage, the message formats), pkg/kubelet/eviction/defaults_linux.go
 * (memory.available<100Mi), pkg/kubelet/apis/config/v1beta1/defaults.go
 * (evictionPressureTransitionPeriod 5m), pkg/kubelet/kubelet.go
 * (evictionMonitoringPeriod 10s).
 */
import type { Pod } from '../api/types.ts';
import { Quantity } from '../api/quantity.ts';
import { podRequests, resourceValue } from '../component-helpers/resource.ts';
import { computePodQOS } from '../component-helpers/qos.ts';
import { keyOf } from '../client/informer.ts';
import type { KubeletContext } from './kubelet-context.ts';
import { nodeWorkingSetBytes } from './resource-metrics.ts';
import { isStaticPod } from './admission.ts';
import { requestSync, type PodWorker } from './pod-workers.ts';

/** evictionMonitoringPeriod. */
export const EVICTION_MONITORING_PERIOD_MS = 10_000;
/** evictionPressureTransitionPeriod: a condition stays until the threshold has not been met for this long. */
const PRESSURE_TRANSITION_PERIOD_MS = 5 * 60_000;
/** podCleanupTimeout: how long the manager waits for an evicted Pod to stop before it may evict another. */
const POD_CLEANUP_TIMEOUT_MS = 30_000;
/** immediateEvictionGracePeriodSeconds: the grace a hard eviction gives (the kubelet then applies its 2 s minimum). */
const IMMEDIATE_EVICTION_GRACE_PERIOD_S = 1;
/** scheduling.SystemCriticalPriority: pods at or above it are critical and never evicted. */
const SYSTEM_CRITICAL_PRIORITY = 2_000_000_000;

/** What the eviction manager keeps between passes (part of the kubelet's state). */
export interface EvictionState {
	/** When memory.available was last observed below its threshold (virtual ms). */
	memoryThresholdMetMs?: number;
	/** When the soft memory.available threshold began to hold (virtual ms), while it still does. */
	softMemoryFirstObservedMs?: number;
}

/** Whether the node reports MemoryPressure now: the threshold was met within the transition period. */
export function underMemoryPressure(ctx: KubeletContext): boolean {
	const met = ctx.state.eviction?.memoryThresholdMetMs;
	return met !== undefined && ctx.nowMs - met < PRESSURE_TRANSITION_PERIOD_MS;
}

/** Admit: under memory pressure a BestEffort pod is refused (a critical or static one still goes). */
export function evictionAdmit(ctx: KubeletContext, pod: Pod): { admit: true } | { admit: false; reason: string; message: string } {
	if (!underMemoryPressure(ctx) || isStaticPod(pod) || (pod.spec.priority ?? 0) >= SYSTEM_CRITICAL_PRIORITY) return { admit: true };
	if (computePodQOS(pod.spec) !== 'BestEffort') return { admit: true };
	return { admit: false, reason: 'Evicted', message: 'The node had condition: [MemoryPressure]. ' };
}

/** The configured memory.available threshold, in bytes and as the message prints it (a percentage becomes the quantity it stands for). */
function thresholdBytes(value: string, capacityBytes: number): { bytes: number; text: string } {
	const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
	if (percent) {
		const amount = Math.round((capacityBytes * Number(percent[1])) / 100);
		return { bytes: amount, text: bytes(amount) };
	}
	const quantity = Quantity.parse(value);
	return { bytes: quantity.value(), text: quantity.toString() };
}

/** A byte count as resource.NewQuantity(n, BinarySI) prints it: `94208Ki`, `1200Mi`. */
function bytes(n: number): string {
	return Quantity.fromValue(Math.round(n), 'BinarySI').toString();
}

interface PodUsage {
	w: PodWorker;
	/** Working set of each container, by name. */
	containers: Map<string, number>;
	total: number;
	request: number;
}

/** rankMemoryPressure: exceeds its request first, then lowest priority, then most usage above its request. */
function rank(pods: PodUsage[]): PodUsage[] {
	return [...pods].sort((a, b) => {
		const overA = a.total > a.request ? 1 : 0;
		const overB = b.total > b.request ? 1 : 0;
		if (overA !== overB) return overB - overA;
		const pa = a.w.pod.spec.priority ?? 0;
		const pb = b.w.pod.spec.priority ?? 0;
		if (pa !== pb) return pa - pb;
		return b.total - b.request - (a.total - a.request);
	});
}

/** evictionMessage: what ran out, the threshold and what was left, and each container that used more than it asked for. */
function evictionMessage(usage: PodUsage, availableBytes: number, threshold: string): string {
	let message = `The node was low on resource: memory. Threshold quantity: ${threshold}, available: ${bytes(availableBytes)}. `;
	for (const container of usage.w.pod.spec.containers) {
		const used = usage.containers.get(container.name) ?? 0;
		const requested = Quantity.parse(String(container.resources?.requests?.memory ?? '0'));
		if (used > requested.value()) message += `Container ${container.name} was using ${bytes(used)}, request is ${requested.toString()}, has larger consumption of memory. `;
	}
	return message;
}

/** synchronize: observe, update the pressure, and evict one pod if the threshold is met. */
export function synchronizeEviction(ctx: KubeletContext): void {
	const listed = ctx.runtime.listContainerStats();
	if (!listed.ok) return;
	const capacity = Quantity.parse(ctx.identity.capacity.memory).value();
	const workingSet = nodeWorkingSetBytes(listed.value, ctx.deps.controlPlane === true);
	const byPod = new Map<string, PodUsage>();
	for (const s of listed.value) {
		const w = ctx.state.pods[s.podUid];
		if (!w) continue;
		let usage = byPod.get(s.podUid);
		if (!usage) {
			usage = { w, containers: new Map(), total: 0, request: resourceValue(podRequests(w.pod.spec), 'memory') };
			byPod.set(s.podUid, usage);
		}
		usage.containers.set(s.name, (usage.containers.get(s.name) ?? 0) + s.workingSetBytes);
		usage.total += s.workingSetBytes;
	}
	// The kernel's OOM killer (which would stop a machine from using more than it has) is not modelled: beyond that, none is available.
	const available = Math.max(0, capacity - workingSet);
	const state = (ctx.state.eviction ??= {});
	const hard = thresholdBytes(ctx.config.evictionHardMemoryAvailable, capacity);
	const softValue = ctx.config.evictionSoftMemoryAvailable;
	const soft = softValue === undefined ? undefined : thresholdBytes(softValue, capacity);
	const hardMet = hard.bytes > 0 && available < hard.bytes;
	const softMet = soft !== undefined && soft.bytes > 0 && available < soft.bytes;
	// thresholdsFirstObservedAt: a soft threshold's grace period counts from when it began to hold without a break.
	if (!softMet) delete state.softMemoryFirstObservedMs;
	if (!hardMet && !softMet) return;
	const threshold = hardMet ? hard : soft!;
	const wasUnderPressure = underMemoryPressure(ctx);
	// The condition follows every met threshold at once; only eviction waits for a soft one's grace period.
	state.memoryThresholdMetMs = ctx.nowMs;
	if (!wasUnderPressure) ctx.emit({ action: 'memory-pressure', object: `nodes/${ctx.nodeName}`, msg: `memory.available ${bytes(available)} is below the ${threshold.text} ${hardMet ? 'hard' : 'soft'} threshold: the node is under memory pressure` });
	if (!hardMet) {
		state.softMemoryFirstObservedMs ??= ctx.nowMs;
		if (ctx.nowMs - state.softMemoryFirstObservedMs < (ctx.config.evictionSoftGracePeriodMemoryMs ?? 0)) return;
	}
	// waitForPodsCleanup: after an eviction the manager waits (up to 30 s) for that Pod's containers to stop before it evicts again.
	const stopping = Object.values(ctx.state.pods).some((w) => w.evicted && !w.terminated && ctx.nowMs - w.evicted.atMs < POD_CLEANUP_TIMEOUT_MS);
	if (stopping) return;
	ctx.log('W', 'eviction_manager.go:369', 'Eviction manager: attempting to reclaim', { resourceName: 'memory' });
	ctx.nodeEvent('Warning', 'EvictionThresholdMet', 'Attempting to reclaim memory');
	const candidates = [...byPod.values()].filter((u) => !u.w.evicted && !u.w.terminated && !isStaticPod(u.w.pod) && (u.w.pod.spec.priority ?? 0) < SYSTEM_CRITICAL_PRIORITY);
	const victim = rank(candidates)[0];
	if (!victim) {
		ctx.log('E', 'eviction_manager.go:395', 'Eviction manager: eviction thresholds have been met, but no pods are active to evict', {});
		return;
	}
	// A hard threshold gives the Pod 1 s (immediateEvictionGracePeriodSeconds); a soft one evictionMaxPodGracePeriod, or the Pod's own grace if that is shorter.
	const gracePeriodSeconds = hardMet ? IMMEDIATE_EVICTION_GRACE_PERIOD_S : Math.min(ctx.config.evictionMaxPodGracePeriodSeconds, victim.w.pod.spec.terminationGracePeriodSeconds ?? 30);
	const message = evictionMessage(victim, available, threshold.text);
	ctx.log('I', 'eviction_manager.go:609', 'Eviction manager: pod is evicted successfully', { pod: keyOf(victim.w.pod) });
	ctx.emit({ action: 'evict', object: `pods/${keyOf(victim.w.pod)}`, msg: `evicted ${keyOf(victim.w.pod)} to reclaim memory (using ${bytes(victim.total)})` });
	victim.w.evicted = { message, gracePeriodSeconds, atMs: ctx.nowMs };
	ctx.podEvent(victim.w, 'Warning', 'Evicted', message);
	requestSync(ctx, victim.w, 0, false);
}
