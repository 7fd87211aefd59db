/**
 * The eviction manager's signals and thresholds: what each signal measures
 * (memory.available, nodefs.available and nodefs.inodesFree on the root
 * file system, imagefs.available and imagefs.inodesFree on the file system
 * holding containerd's images, pid.available), the node condition each
 * one drives (MemoryPressure, DiskPressure, PIDPressure), the resource it
 * reclaims (memory, ephemeral-storage, inodes, pids), and the thresholds
 * the kubelet's config sets: hard ones that act at once, soft ones after
 * their grace period. A percentage counts against the signal's capacity.
 *
 * A kubeadm node keeps /var/lib/containerd on its root disk, so imagefs
 * is the same file system as nodefs: both signals read the same figures,
 * and imagefs.available<15% (the stricter default) is met first, when the
 * disk is 85% full.
 *
 * containerfs.* follow nodefs on such a node and allocatableMemory.available
 * needs enforceNodeAllocatable's pods cgroup; thresholds for them are
 * accepted and not watched here.
 *
 * Mirrors pkg/kubelet/eviction/api/types.go (the signals),
 * pkg/kubelet/eviction/helpers.go (signalToNodeCondition, signalToResource,
 * thresholdsMet, GetThresholdQuantity, byEvictionPriority).
 */
import { Quantity } from '../api/quantity.ts';
import type { KubeletConfig } from './kubelet.ts';

export type Signal = 'memory.available' | 'nodefs.available' | 'nodefs.inodesFree' | 'imagefs.available' | 'imagefs.inodesFree' | 'pid.available';

/** The signals watched, in the order the manager considers them (memory first, as byEvictionPriority ranks it). */
export const SIGNALS: readonly Signal[] = ['memory.available', 'nodefs.available', 'nodefs.inodesFree', 'imagefs.available', 'imagefs.inodesFree', 'pid.available'];

export type PressureCondition = 'MemoryPressure' | 'DiskPressure' | 'PIDPressure';
/** The conditions in the order the node reports them. */
export const PRESSURE_CONDITIONS: readonly PressureCondition[] = ['MemoryPressure', 'DiskPressure', 'PIDPressure'];

/** signalToNodeCondition. */
export const SIGNAL_CONDITION: Record<Signal, PressureCondition> = {
	'memory.available': 'MemoryPressure',
	'nodefs.available': 'DiskPressure',
	'nodefs.inodesFree': 'DiskPressure',
	'imagefs.available': 'DiskPressure',
	'imagefs.inodesFree': 'DiskPressure',
	'pid.available': 'PIDPressure',
};

export type ReclaimResource = 'memory' | 'ephemeral-storage' | 'inodes' | 'pids';

/** signalToResource. */
export const SIGNAL_RESOURCE: Record<Signal, ReclaimResource> = {
	'memory.available': 'memory',
	'nodefs.available': 'ephemeral-storage',
	'nodefs.inodesFree': 'inodes',
	'imagefs.available': 'ephemeral-storage',
	'imagefs.inodesFree': 'inodes',
	'pid.available': 'pids',
};

/** One threshold: a signal, its value as configured, hard or soft (with the grace period it must hold for). */
export interface Threshold {
	signal: Signal;
	value: string;
	hard: boolean;
	gracePeriodMs: number;
}

/** What a signal reads now: what is left and the capacity a percentage counts against. */
export interface Observation {
	available: number;
	capacity: number;
}

export type Observations = Partial<Record<Signal, Observation>>;

/** The thresholds the config sets, hard ones first, each in signal order. */
export function configuredThresholds(config: KubeletConfig): Threshold[] {
	const out: Threshold[] = [];
	for (const signal of SIGNALS) {
		const value = config.evictionHard[signal];
		if (value !== undefined) out.push({ signal, value, hard: true, gracePeriodMs: 0 });
	}
	for (const signal of SIGNALS) {
		const value = config.evictionSoft[signal];
		if (value !== undefined) out.push({ signal, value, hard: false, gracePeriodMs: config.evictionSoftGracePeriodMs[signal] ?? 0 });
	}
	return out;
}

/** A threshold's key in the manager's bookkeeping (a signal may have a hard and a soft threshold). */
export function thresholdKey(t: Threshold): string {
	return `${t.signal}/${t.hard ? 'hard' : 'soft'}`;
}

/** GetThresholdQuantity: the amount a threshold stands for (a percentage of the capacity, truncated as Go's int64 conversion does). */
export function thresholdAmount(value: string, capacity: number): number {
	if (value.endsWith('%')) return Math.floor((capacity * Number(value.slice(0, -1))) / 100);
	return Quantity.parse(value).value();
}

/** Bytes print in binary units (resource.BinarySI: `15Gi`, `94208Ki`), counts of inodes and processes as plain numbers. */
export function formatAmount(signal: Signal, amount: number): string {
	const bytes = signal === 'memory.available' || signal === 'nodefs.available' || signal === 'imagefs.available';
	return Quantity.fromValue(Math.round(amount), bytes ? 'BinarySI' : 'DecimalSI').toString();
}

/** The threshold as the eviction message prints it: a percentage becomes the quantity it stands for; a quantity prints as configured. */
export function formatThreshold(t: Threshold, observation: Observation): string {
	if (t.value.endsWith('%')) return formatAmount(t.signal, thresholdAmount(t.value, observation.capacity));
	return Quantity.parse(t.value).toString();
}

/** thresholdsMet: the thresholds whose signal reads less than the amount they stand for. */
export function thresholdsMet(thresholds: readonly Threshold[], observations: Observations): Threshold[] {
	return thresholds.filter((t) => {
		const observed = observations[t.signal];
		return observed !== undefined && thresholdAmount(t.value, observed.capacity) > observed.available;
	});
}
