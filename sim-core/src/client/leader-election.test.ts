/**
 * Leader election between two candidates on one Lease (kube-system/kube-scheduler),
 * through a real API server, with client-go's timings from component-base:
 * leaseDuration 15 s, renewDeadline 10 s, retryPeriod 2 s. Candidates poll as
 * client-go's LeaderElector does: a leader renews every retryPeriod; a standby
 * tries every retryPeriod stretched by up to 1.2x jitter (wait.JitterUntil).
 */
import { describe, expect, it } from 'vitest';
import type { Lease } from '../api/types.ts';
import { parseRfc3339 } from '../golang/time.ts';
import type { QueuedEvent } from '../sim/event-queue.ts';
import { ProcessBase } from '../sim/process-base.ts';
import { createApiHarness, type ApiHarness } from '../testing/api-harness.ts';
import { R } from './client.ts';
import { DEFAULT_LEADER_ELECTION, LeaderElector, freshLeaderElection, type LeaderElectionState, type LeaderTransition } from './leader-election.ts';

const LEASE = 'kube-scheduler';
const { leaseDurationMs, renewDeadlineMs, retryPeriodMs } = DEFAULT_LEADER_ELECTION;
/** The longest wait between a standby's attempts. */
const MAX_STANDBY_WAIT_MS = retryPeriodMs * 2.2;

interface CandidateState {
	leader: LeaderElectionState;
	/** When each attempt ran, and what it changed. */
	attempts: Array<{ atMs: number; transition: LeaderTransition }>;
}

class Candidate extends ProcessBase<CandidateState> {
	readonly elector: LeaderElector;
	constructor(h: ApiHarness, id: string) {
		super(id, h.kernel);
		this.elector = new LeaderElector(h.kernel, h.client(id), LEASE, DEFAULT_LEADER_ELECTION, () => this.state.leader);
	}
	freshState(): CandidateState {
		// A new identity at every start, as the real binaries' `<hostname>_<uuid>`.
		return { leader: freshLeaderElection(`${this.id}_${this.rng.uuid()}`), attempts: [] };
	}
	onStart() {
		this.campaign();
	}
	handle(event: QueuedEvent) {
		if (event.kind === 'elect') this.campaign();
	}
	get identity(): string {
		return this.state.leader.identity;
	}
	get isLeader(): boolean {
		return this.kernel.isRunning(this.id) && this.state.leader.isLeader;
	}
	/** When this candidate's attempts changed its leadership to `transition`. */
	times(transition: LeaderTransition): number[] {
		return this.state.attempts.filter((a) => a.transition === transition).map((a) => a.atMs);
	}
	private campaign() {
		const transition = this.elector.tryAcquireOrRenew();
		this.state.attempts.push({ atMs: this.nowMs, transition });
		const delay = this.state.leader.isLeader ? retryPeriodMs : retryPeriodMs + Math.floor(this.rng.float() * 1.2 * retryPeriodMs);
		this.after(delay, 'elect', undefined, { background: true });
	}
}

function setup(): { h: ApiHarness; a: Candidate; b: Candidate } {
	const h = createApiHarness();
	const a = new Candidate(h, 'scheduler-a');
	const b = new Candidate(h, 'scheduler-b');
	h.kernel.register(a);
	h.kernel.register(b);
	// Each runs on its own machine, so that one can be cut off from the API server.
	h.transport.enroll(a.id, { username: 'system:kube-scheduler', groups: ['system:authenticated'] }, 'machine-a');
	h.transport.enroll(b.id, { username: 'system:kube-scheduler', groups: ['system:authenticated'] }, 'machine-b');
	h.kernel.start(a.id);
	h.kernel.start(b.id);
	return { h, a, b };
}

function lease(h: ApiHarness): Lease['spec'] {
	const got = h.client('reader').get<Lease>(R.leases, 'kube-system', LEASE);
	if (!got.ok) throw new Error(got.message);
	return got.object.spec;
}

/** A Lease MicroTime as virtual ms since the cluster started. */
function virtualMs(h: ApiHarness, microTime: string | undefined): number {
	return parseRfc3339(microTime ?? '') - h.kernel.epochMs;
}

/** Runs time forward in small steps, checking that never more than one candidate believes it leads. */
function advanceChecking(h: ApiHarness, ms: number, candidates: Candidate[]): void {
	const end = h.kernel.nowMs + ms;
	while (h.kernel.nowMs < end) {
		h.advance(Math.min(100, end - h.kernel.nowMs));
		expect(candidates.filter((c) => c.isLeader).length).toBeLessThanOrEqual(1);
	}
}

describe('leader election on one Lease', () => {
	it('lets exactly one of two candidates lead, and the Lease names it with the fields client-go writes', () => {
		const { h, a, b } = setup();
		advanceChecking(h, 30_000, [a, b]);
		expect([a.isLeader, b.isLeader]).toEqual([true, false]);
		expect(a.times('acquired')).toEqual([0]);
		expect(b.times('acquired')).toEqual([]);
		const spec = lease(h);
		expect(spec.holderIdentity).toBe(a.identity);
		expect(spec.holderIdentity).toMatch(/^scheduler-a_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
		expect(spec.leaseDurationSeconds).toBe(15);
		expect(spec.leaseTransitions).toBe(0);
		// acquireTime stays when the leader was first granted the lease; renewTime moves with every renewal.
		expect(spec.acquireTime).toBe('2026-11-30T08:00:00.000000Z');
		expect(spec.renewTime).toMatch(/^2026-11-30T08:00:\d\d\.\d{6}Z$/);
		expect(virtualMs(h, spec.renewTime)).toBe(a.state.leader.lastRenewMs);
		expect(h.kernel.nowMs - virtualMs(h, spec.renewTime)).toBeLessThanOrEqual(retryPeriodMs);
	});

	it('hands the lease to the standby once the leader stops renewing: after the lease duration since the standby last saw a renewal, not before', () => {
		const { h, a, b } = setup();
		h.advance(20_000);
		h.kernel.stop(a.id);
		const lastRenewMs = virtualMs(h, lease(h).renewTime);
		advanceChecking(h, 40_000, [a, b]);
		expect(b.isLeader).toBe(true);
		const [acquiredAt] = b.times('acquired');
		// The standby judges expiry by its own clock: from the first attempt at which it saw the final renewTime.
		const attempts = b.state.attempts.map((x) => x.atMs);
		const sawLastRenewal = attempts.find((t) => t > lastRenewMs)!;
		expect(acquiredAt).toBe(attempts.find((t) => t >= sawLastRenewal + leaseDurationMs));
		expect(acquiredAt - lastRenewMs).toBeGreaterThanOrEqual(leaseDurationMs);
		expect(acquiredAt - lastRenewMs).toBeLessThanOrEqual(leaseDurationMs + 2 * MAX_STANDBY_WAIT_MS);
		const spec = lease(h);
		expect(spec.holderIdentity).toBe(b.identity);
		expect(spec.leaseTransitions).toBe(1);
		expect(virtualMs(h, spec.acquireTime)).toBe(acquiredAt);
		expect(h.kernel.nowMs - virtualMs(h, spec.renewTime)).toBeLessThanOrEqual(retryPeriodMs);
	});

	it('does not give the lease back to the old leader when it starts again while the new leader renews', () => {
		const { h, a, b } = setup();
		h.advance(20_000);
		h.kernel.stop(a.id);
		h.advance(40_000);
		expect(b.isLeader).toBe(true);
		const taken = lease(h);
		h.kernel.start(a.id);
		advanceChecking(h, 120_000, [a, b]);
		expect(a.times('acquired')).toEqual([]);
		expect(a.state.attempts.length).toBeGreaterThan(20);
		expect(b.isLeader).toBe(true);
		const spec = lease(h);
		expect(spec.holderIdentity).toBe(b.identity);
		expect(spec.leaseTransitions).toBe(1);
		expect(spec.acquireTime).toBe(taken.acquireTime);
		expect(virtualMs(h, spec.renewTime)).toBeGreaterThan(virtualMs(h, taken.renewTime));
	});

	it('makes a leader cut off from the API server give up after the renew deadline, before the standby may take the lease, and not take it back when reconnected', () => {
		const { h, a, b } = setup();
		h.advance(20_000);
		h.setPartitioned('machine-a', true);
		const lastRenewMs = virtualMs(h, lease(h).renewTime);
		advanceChecking(h, 40_000, [a, b]);
		const [lostAt] = a.times('lost');
		const [acquiredAt] = b.times('acquired');
		// The leader keeps retrying every retryPeriod; the first failed attempt past renewDeadline ends its leadership.
		expect(lostAt - lastRenewMs).toBeGreaterThan(renewDeadlineMs);
		expect(lostAt - lastRenewMs).toBeLessThanOrEqual(renewDeadlineMs + retryPeriodMs);
		expect(acquiredAt - lastRenewMs).toBeGreaterThanOrEqual(leaseDurationMs);
		expect(acquiredAt).toBeGreaterThan(lostAt);
		// Reconnected with the same identity, the old leader sees the new holder renewing and stays a standby.
		const identityBefore = a.identity;
		h.setPartitioned('machine-a', false);
		advanceChecking(h, 120_000, [a, b]);
		expect(a.identity).toBe(identityBefore);
		expect(a.times('acquired')).toEqual([0]);
		expect(b.isLeader).toBe(true);
		expect(lease(h).holderIdentity).toBe(b.identity);
		expect(lease(h).leaseTransitions).toBe(1);
	});
});
