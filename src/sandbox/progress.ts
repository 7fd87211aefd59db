/**
 * The reader's progress on a scenario's tasks, kept in the browser
 * (localStorage, one entry per scenario): which tasks are done, how many
 * hints were shown, whether the answer was revealed. Nothing leaves the
 * browser. Storage that is full, disabled or holds something unexpected
 * never breaks the sandbox: progress then lives for the page's lifetime.
 */

export interface TaskProgress {
	done: boolean;
	/** Hints shown so far. */
	hints: number;
	revealed: boolean;
}

export interface ScenarioProgress {
	v: 1;
	tasks: Record<string, TaskProgress>;
}

/** What progress.ts needs of localStorage (tests pass a Map-backed one). */
export interface KeyValueStore {
	getItem(key: string): string | null;
	setItem(key: string, value: string): void;
	removeItem(key: string): void;
}

const KEY_PREFIX = 'cluster-anatomy:sandbox-progress:';
const TASKS_MAX = 100;
const HINTS_MAX = 50;

export function progressKey(scenarioId: string): string {
	return KEY_PREFIX + scenarioId;
}

export function emptyProgress(): ScenarioProgress {
	return { v: 1, tasks: {} };
}

/** The task's progress (all false/zero when unknown). */
export function taskProgress(progress: ScenarioProgress, taskId: string): TaskProgress {
	return progress.tasks[taskId] ?? { done: false, hints: 0, revealed: false };
}

/** Checks stored JSON; anything unexpected reads as no progress. */
export function parseProgress(text: string | null): ScenarioProgress {
	if (!text) return emptyProgress();
	try {
		const data = JSON.parse(text) as unknown;
		if (!data || typeof data !== 'object' || (data as ScenarioProgress).v !== 1) return emptyProgress();
		const tasks = (data as ScenarioProgress).tasks;
		if (!tasks || typeof tasks !== 'object' || Array.isArray(tasks)) return emptyProgress();
		const out = emptyProgress();
		for (const [id, t] of Object.entries(tasks).slice(0, TASKS_MAX)) {
			if (!t || typeof t !== 'object') continue;
			const hints = Number.isInteger(t.hints) && t.hints >= 0 ? Math.min(t.hints, HINTS_MAX) : 0;
			out.tasks[id] = { done: t.done === true, hints, revealed: t.revealed === true };
		}
		return out;
	} catch {
		return emptyProgress();
	}
}

function defaultStore(): KeyValueStore | undefined {
	try {
		return typeof localStorage === 'undefined' ? undefined : localStorage;
	} catch {
		// Access to storage can throw (disabled cookies, sandboxed frames).
		return undefined;
	}
}

export function loadProgress(scenarioId: string, store: KeyValueStore | undefined = defaultStore()): ScenarioProgress {
	try {
		return parseProgress(store?.getItem(progressKey(scenarioId)) ?? null);
	} catch {
		return emptyProgress();
	}
}

export function saveProgress(scenarioId: string, progress: ScenarioProgress, store: KeyValueStore | undefined = defaultStore()): void {
	try {
		store?.setItem(progressKey(scenarioId), JSON.stringify(progress));
	} catch {
		// Full or disabled storage: progress stays in memory.
	}
}

export function clearProgress(scenarioId: string, store: KeyValueStore | undefined = defaultStore()): void {
	try {
		store?.removeItem(progressKey(scenarioId));
	} catch {
		// Nothing to do.
	}
}

/** A copy with one task changed. */
export function withTask(progress: ScenarioProgress, taskId: string, change: Partial<TaskProgress>): ScenarioProgress {
	const current = taskProgress(progress, taskId);
	return { v: 1, tasks: { ...progress.tasks, [taskId]: { ...current, ...change } } };
}
