/**
 * The reader's progress on the scenario's tasks, owned by the sandbox (not
 * by the Tasks tab): a task is done the moment its live checks hold,
 * whichever tab is open, so the tab's label can count it and the terminal
 * can say so. Kept in the browser (progress.ts); a task once done stays
 * done, and one done on an earlier visit is not announced again.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TaskView } from '../../sandbox/protocol.ts';
import { emptyProgress, loadProgress, saveProgress, taskProgress, withTask, type ScenarioProgress } from '../../sandbox/progress.ts';

export interface TaskProgressState {
	progress: ScenarioProgress;
	/** Replaces the progress (a hint shown, the answer revealed, progress forgotten) and keeps it. */
	update: (next: ScenarioProgress) => void;
}

/** `onDone` receives the ids of the tasks that became done with the latest view. */
export function useTaskProgress(scenarioId: string, live: readonly TaskView[], onDone: (ids: string[]) => void): TaskProgressState {
	const [progress, setProgress] = useState<ScenarioProgress>(emptyProgress);
	// The latest progress, for the effect below: the load and a view can arrive in the same render.
	const current = useRef<ScenarioProgress | undefined>(undefined);

	useEffect(() => {
		const loaded = loadProgress(scenarioId);
		current.current = loaded;
		setProgress(loaded);
	}, [scenarioId]);

	const update = (next: ScenarioProgress) => {
		current.current = next;
		setProgress(next);
		saveProgress(scenarioId, next);
	};

	useEffect(() => {
		let next = current.current;
		if (!next) return;
		const newlyDone: string[] = [];
		for (const task of live) {
			if (task.done && !taskProgress(next, task.id).done) {
				next = withTask(next, task.id, { done: true });
				newlyDone.push(task.id);
			}
		}
		if (newlyDone.length) {
			update(next);
			onDone(newlyDone);
		}
	}, [live, progress]);

	return { progress, update };
}
