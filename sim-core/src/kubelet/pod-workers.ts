/**
 * The kubelet's per-pod workers: one record per pod the kubelet knows,
 * from the API or from a static pod manifest, holding what the sync loop
 * remembers between syncs (admission, sandbox, an in-flight CRI call, the
 * reason cache, probe workers, termination, volumes), and the one way to
 * ask for a sync: at a given time, unless one is already due sooner. A
 * failed sync is retried after the worker's back-off.
 *
 * Mirrors pkg/kubelet/pod_workers.go (podWorkers, podSyncStatus, UpdatePod,
 * the back-off of a failed sync).
 */
import type { Pod } from '../api/types.ts';
import type { KubeletContext } from './kubelet-context.ts';
import type { WaitingReason } from './pod-status.ts';
import type { ProbeWorker } from './prober.ts';
import type { PodVolumes } from './volumes/volume-manager.ts';

/** backOffPeriod (kubelet.go): a pod worker whose sync failed tries again 10 s later. */
export const POD_WORKER_BACKOFF_MS = 10_000;

/** An in-flight asynchronous CRI call of a pod. */
interface PodOp {
	opId: number;
	kind: 'sandbox' | 'pull';
	container?: string;
	image?: string;
}

/** The kubelet's view of one pod (its pod worker). Plain JSON. */
export interface PodWorker {
	uid: string;
	source: 'api' | 'file';
	pod: Pod;
	manifestPath?: string;
	admitted: boolean;
	rejected?: { reason: string; message: string };
	/** Evicted by the eviction manager: stopped with the eviction's grace period, Failed with reason Evicted and this message. */
	evicted?: {
		message: string;
		/** The grace period the eviction gives; the kubelet's 2 s minimum still applies. */
		gracePeriodSeconds: number;
		/** When it was evicted (virtual ms). */
		atMs: number;
		/** A local storage limit eviction sets no DisruptionTarget condition (a threshold eviction does). */
		noDisruptionCondition?: boolean;
	};
	/** Past spec.activeDeadlineSeconds (the active deadline handler): stopped, Failed with reason DeadlineExceeded. */
	deadlineExceeded?: boolean;
	startTime?: string;
	addedMs: number;
	sandboxId?: string;
	podIp?: string;
	op?: PodOp;
	justPulled?: { container: string; imageRef: string };
	waiting: Record<string, WaitingReason>;
	/** The node file mounted at each container's terminationMessagePath, by container ID. */
	terminationMessageFiles?: Record<string, string>;
	/** Containers killed by a probe: restart at once, without back-off. */
	restartNow: Record<string, boolean>;
	probes: Record<string, ProbeWorker>;
	termination?: { startedMs: number; gracePeriodS: number };
	/** The volume manager's state for this pod (set at its first sync). */
	volumes?: PodVolumes;
	terminated?: boolean;
	removedFromSource?: boolean;
	finalDeleteSent?: boolean;
	lastStatusJson?: string;
	syncAtMs?: number;
	probeAtMs?: number;
}

export function newWorker(ctx: KubeletContext, uid: string, source: 'api' | 'file', pod: Pod): PodWorker {
	return { uid, source, pod, admitted: false, addedMs: ctx.nowMs, waiting: {}, restartNow: {}, probes: {} };
}

/** Asks for a sync of `w` after `delayMs`, unless one is already due sooner. */
export function requestSync(ctx: KubeletContext, w: PodWorker, delayMs: number, background: boolean): void {
	const at = ctx.nowMs + Math.max(0, delayMs);
	if (w.syncAtMs !== undefined && w.syncAtMs <= at) return;
	w.syncAtMs = at;
	ctx.after(at - ctx.nowMs, 'pod-sync', { uid: w.uid, atMs: at }, { background });
}
