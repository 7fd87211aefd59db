/**
 * CycleState: the scratch space of one scheduling cycle. A plugin writes
 * what it computed at PreFilter or PreScore under its own key and reads it
 * back at Filter or Score, so per-pod work is done once per cycle rather
 * than once per node.
 *
 * It lives only inside one cycle (one `handle()` call), so it may hold
 * Maps and class instances; it is never part of the snapshotted state.
 *
 * Mirrors staging/src/k8s.io/kube-scheduler/framework/cycle_state.go (the
 * interface), pkg/scheduler/framework/cycle_state.go.
 */

/** Data a plugin keeps in the CycleState (fwk.StateData). Clone is used by preemption's dry runs. */
export interface StateData {
	clone(): StateData;
}

export class CycleState {
	private readonly storage = new Map<string, StateData>();
	/** Filter plugins whose PreFilter returned Skip. */
	skipFilterPlugins = new Set<string>();
	/** Score plugins whose PreScore returned Skip. */
	skipScorePlugins = new Set<string>();

	read<T extends StateData>(key: string): T | undefined {
		return this.storage.get(key) as T | undefined;
	}

	write(key: string, value: StateData): void {
		this.storage.set(key, value);
	}

	delete(key: string): void {
		this.storage.delete(key);
	}

	/** A copy whose entries are cloned (CycleState.Clone). */
	clone(): CycleState {
		const copy = new CycleState();
		for (const [key, value] of this.storage) copy.storage.set(key, value.clone());
		copy.skipFilterPlugins = new Set(this.skipFilterPlugins);
		copy.skipScorePlugins = new Set(this.skipScorePlugins);
		return copy;
	}
}
