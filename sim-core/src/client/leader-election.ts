/**
 * Leader election on a Lease, as kube-scheduler and kube-controller-manager
 * run it: try to acquire or renew the lock every `retryPeriod`; a lease not
 * renewed within `leaseDurationSeconds` may be taken over; a leader that
 * cannot renew within `renewDeadline` gives up leadership (the real binaries
 * then exit and are restarted). Defaults from k8s.io/component-base
 * config/v1alpha1: leaseDuration 15s, renewDeadline 10s, retryPeriod 2s.
 *
 * A restarted component has a new identity, so it waits for its own old
 * lease to expire before it leads again: that pause is real.
 *
 * Mirrors
 * staging/src/k8s.io/client-go/tools/leaderelection/leaderelection.go,
 * staging/src/k8s.io/client-go/tools/leaderelection/resourcelock/leaselock.go,
 * staging/src/k8s.io/component-base/config/v1alpha1/defaults.go (the leader
 * election defaults).
 */
import type { Lease } from '../api/types.ts';
import type { Kernel } from '../sim/kernel.ts';
import { formatRfc3339Micro } from '../golang/time.ts';
import { R, type ApiClient } from './client.ts';
import { deepCopy } from '../golang/json.ts';

export interface LeaderElectionConfig {
	leaseDurationMs: number;
	renewDeadlineMs: number;
	retryPeriodMs: number;
}

export const DEFAULT_LEADER_ELECTION: LeaderElectionConfig = { leaseDurationMs: 15_000, renewDeadlineMs: 10_000, retryPeriodMs: 2_000 };

export interface LeaderElectionState {
	/** `<hostname>_<uuid>`, new at every start. */
	identity: string;
	isLeader: boolean;
	/** When this process last renewed successfully (virtual ms). */
	lastRenewMs: number;
	/** What this process last saw of the lock, and when it saw a change. */
	observedHolder: string;
	observedRenewTime: string;
	observedAtMs: number;
}

export function freshLeaderElection(identity: string): LeaderElectionState {
	return { identity, isLeader: false, lastRenewMs: -1, observedHolder: '', observedRenewTime: '', observedAtMs: -1 };
}

export type LeaderTransition = 'acquired' | 'lost' | 'unchanged';

export class LeaderElector {
	constructor(
		private readonly kernel: Kernel,
		private readonly client: ApiClient,
		/** The lock: a Lease in kube-system, e.g. 'kube-scheduler'. */
		readonly leaseName: string,
		private readonly config: LeaderElectionConfig,
		private readonly state: () => LeaderElectionState,
	) {}

	/** One attempt to acquire or renew; call every retryPeriod. */
	tryAcquireOrRenew(): LeaderTransition {
		const s = this.state();
		const nowMs = this.kernel.nowMs;
		const now = formatRfc3339Micro(this.kernel.wallMs());
		const wasLeader = s.isLeader;
		const current = this.client.get<Lease>(R.leases, 'kube-system', this.leaseName);
		let ok = false;
		if (!current.ok && current.code === 404) {
			const lease: Lease = {
				apiVersion: 'coordination.k8s.io/v1',
				kind: 'Lease',
				metadata: { name: this.leaseName, namespace: 'kube-system' },
				spec: { holderIdentity: s.identity, leaseDurationSeconds: this.config.leaseDurationMs / 1000, acquireTime: now, renewTime: now, leaseTransitions: 0 },
			};
			ok = this.client.create(R.leases, 'kube-system', lease).ok;
		} else if (current.ok) {
			const lease = current.object;
			const holder = lease.spec.holderIdentity ?? '';
			const renewTime = lease.spec.renewTime ?? '';
			if (holder !== s.observedHolder || renewTime !== s.observedRenewTime) {
				s.observedHolder = holder;
				s.observedRenewTime = renewTime;
				s.observedAtMs = nowMs;
			}
			const held = holder !== '' && holder !== s.identity;
			// Expiry is judged by when *we* observed the last renewal, not by the lease's clock (as client-go does).
			const expired = nowMs >= s.observedAtMs + (lease.spec.leaseDurationSeconds ?? 15) * 1000;
			if (!held || expired) {
				const updated: Lease = deepCopy(lease);
				if (holder !== s.identity) {
					updated.spec.acquireTime = now;
					updated.spec.leaseTransitions = (lease.spec.leaseTransitions ?? 0) + (holder ? 1 : 0);
				}
				updated.spec.holderIdentity = s.identity;
				updated.spec.leaseDurationSeconds = this.config.leaseDurationMs / 1000;
				updated.spec.renewTime = now;
				ok = this.client.update(R.leases, updated).ok;
			}
		}
		if (ok) {
			s.isLeader = true;
			s.lastRenewMs = nowMs;
		} else if (s.isLeader && nowMs - s.lastRenewMs > this.config.renewDeadlineMs) {
			s.isLeader = false;
		}
		if (!wasLeader && s.isLeader) return 'acquired';
		if (wasLeader && !s.isLeader) return 'lost';
		return 'unchanged';
	}
}
