/**
 * Tasks: each scenario goal with its live check (run by the worker after
 * every change and carried in the view), hints revealed one at a time, the
 * answer on request. The progress is the sandbox's (use-task-progress.ts):
 * a task once done stays done (a later change, a reset or a reload does not
 * take it back); the live state of its checks is shown beside it.
 */
import type { Scenario } from '@cluster-anatomy/sim-core';
import type { ClusterView, Locale } from '../../sandbox/protocol.ts';
import { codeSegments } from '../../sandbox/format.ts';
import { taskProgress, withTask, clearProgress, emptyProgress } from '../../sandbox/progress.ts';
import type { TaskProgressState } from './use-task-progress.ts';

type T = (key: string, values?: Record<string, string | number>) => string;

export interface TasksProps {
	scenarioId: string;
	tasks: NonNullable<Scenario['tasks']>;
	view: ClusterView;
	t: T;
	locale: Locale;
	/** Puts a command on the terminal's prompt. */
	tryCommand: (command: string) => void;
	progress: TaskProgressState;
}

function Rich({ text }: { text: string }) {
	return (
		<>
			{codeSegments(text).map((s, i) => (s.code ? <code key={i}>{s.text}</code> : s.text))}
		</>
	);
}

export function Tasks({ scenarioId, tasks, view, t, locale, tryCommand, progress: state }: TasksProps) {
	const { progress, update } = state;

	if (!tasks.length) return <p class="ca-sbx-note">{t('sandbox.tasks.none')}</p>;
	const doneCount = tasks.filter((task) => taskProgress(progress, task.id).done).length;

	return (
		<div class="ca-tasks">
			<p class="ca-tasks__summary">{t('sandbox.tasks.summary', { done: doneCount, total: tasks.length })}</p>
			<ol class="ca-tasks__list">
				{tasks.map((task) => {
					const saved = taskProgress(progress, task.id);
					const live = view.tasks.find((x) => x.id === task.id);
					const hints = task.hints ?? [];
					const passing = live?.checks?.filter((c) => c.ok).length ?? 0;
					const total = live?.checks?.length ?? task.checks.length;
					return (
						<li key={task.id} class={`ca-task${saved.done ? ' ca-task--done' : ''}`} data-task={task.id}>
							<h3 class="ca-sbx-h ca-task__title">
								<span class="ca-task__mark" aria-hidden="true">
									{saved.done ? '✓' : '○'}
								</span>{' '}
								<Rich text={task.title[locale]} />
							</h3>
							<p class={`ca-task__state ca-task__state--${saved.done ? 'done' : 'open'}`}>{saved.done ? t('sandbox.tasks.done') : t('sandbox.tasks.notDone')}</p>
							<p class="ca-task__goal">
								<Rich text={task.goal[locale]} />
							</p>
							<p class="ca-task__checks">{t('sandbox.tasks.checks', { passing, total })}</p>
							{saved.hints > 0 && (
								<ol class="ca-task__hints" aria-label={t('sandbox.tasks.hints')}>
									{hints.slice(0, saved.hints).map((hint, i) => (
										<li key={i}>
											<Rich text={hint[locale]} />
										</li>
									))}
								</ol>
							)}
							<div class="ca-task__actions">
								{saved.hints < hints.length && (
									<button type="button" class="ca-sbx-btn" onClick={() => update(withTask(progress, task.id, { hints: saved.hints + 1 }))}>
										{t('sandbox.tasks.hint', { n: saved.hints + 1, total: hints.length })}
									</button>
								)}
								{task.reveal && !saved.revealed && (
									<button type="button" class="ca-sbx-btn" onClick={() => update(withTask(progress, task.id, { revealed: true }))}>
										{t('sandbox.tasks.reveal')}
									</button>
								)}
							</div>
							{task.reveal && saved.revealed && (
								<div class="ca-task__answer">
									<h4 class="ca-sbx-h">{t('sandbox.tasks.answer')}</h4>
									<p>
										<Rich text={task.reveal.text[locale]} />
									</p>
									{task.reveal.commands && (
										<ul class="ca-task__commands">
											{task.reveal.commands.map((command) => (
												<li key={command}>
													<code>{command}</code>{' '}
													<button type="button" class="ca-sbx-btn ca-sbx-btn--small" aria-label={t('sandbox.tasks.tryLabel', { command })} onClick={() => tryCommand(command)}>
														{t('sandbox.tasks.try')}
													</button>
												</li>
											))}
										</ul>
									)}
								</div>
							)}
						</li>
					);
				})}
			</ol>
			{doneCount > 0 && (
				<button
					type="button"
					class="ca-sbx-btn ca-sbx-btn--small"
					onClick={() => {
						clearProgress(scenarioId);
						update(emptyProgress());
					}}
				>
					{t('sandbox.tasks.forget')}
				</button>
			)}
		</div>
	);
}
