/**
 * Controller expectations: what a controller has asked for and not yet seen
 * in its informer. A ReplicaSet that created 3 pods does not act again until
 * its pod informer has shown those 3 creations (or 5 minutes passed), so a
 * stale cache never makes it create twice.
 *
 * The records are plain JSON inside the owning controller's state.
 *
 * Mirrors pkg/controller/controller_utils.go (ControllerExpectations,
 * UIDTrackingControllerExpectations).
 */

/** ExpectationsTimeout: expectations older than this are ignored (pkg/controller/controller_utils.go, 5 * time.Minute). */
const EXPECTATIONS_TIMEOUT_MS = 5 * 60_000;

interface ExpectationRecord {
	/** Creations still to observe. */
	add: number;
	/** Deletions still to observe. */
	del: number;
	/** When the expectations were set (virtual ms). */
	timestampMs: number;
	/** Keys (`namespace/name`) of the pods expected to go (UIDTrackingControllerExpectations). */
	deleteKeys: string[];
}

/** Controller key -> its expectations. */
export type ExpectationsState = Record<string, ExpectationRecord>;

export class Expectations {
	constructor(
		private readonly state: () => ExpectationsState,
		private readonly nowMs: () => number,
	) {}

	/** SatisfiedExpectations: no record, all observed, or expired. */
	satisfied(key: string): boolean {
		const e = this.state()[key];
		if (!e) return true;
		if (e.add <= 0 && e.del <= 0) return true;
		return this.nowMs() - e.timestampMs > EXPECTATIONS_TIMEOUT_MS;
	}

	/** ExpectCreations: overwrites any previous record. */
	expectCreations(key: string, adds: number): void {
		this.state()[key] = { add: adds, del: 0, timestampMs: this.nowMs(), deleteKeys: [] };
	}

	/** ExpectDeletions (UID tracking): the pods that are expected to go. */
	expectDeletions(key: string, podKeys: string[]): void {
		const unique = [...new Set(podKeys)];
		this.state()[key] = { add: 0, del: unique.length, timestampMs: this.nowMs(), deleteKeys: unique };
	}

	/** SetExpectations: counts only (the DaemonSet controller's plain ControllerExpectations). */
	set(key: string, adds: number, dels: number): void {
		this.state()[key] = { add: adds, del: dels, timestampMs: this.nowMs(), deleteKeys: [] };
	}

	/** LowerExpectations: creations or deletions that will never be observed. */
	lower(key: string, adds: number, dels: number): void {
		const e = this.state()[key];
		if (!e) return;
		e.add -= adds;
		e.del -= dels;
	}

	/** DeletionObserved without UID tracking: any deletion counts. */
	anyDeletionObserved(key: string): void {
		const e = this.state()[key];
		if (e) e.del--;
	}

	/** CreationObserved: one expected creation seen (or given up). */
	creationObserved(key: string): void {
		const e = this.state()[key];
		if (e) e.add--;
	}

	/** DeletionObserved: counts only pods this controller was waiting for, once each. */
	deletionObserved(key: string, podKey: string): void {
		const e = this.state()[key];
		if (!e) return;
		const i = e.deleteKeys.indexOf(podKey);
		if (i < 0) return;
		e.deleteKeys.splice(i, 1);
		e.del--;
	}

	/** DeleteExpectations: the controller object is gone. */
	delete(key: string): void {
		delete this.state()[key];
	}
}
