/**
 * Why a pod runs where it does, or nowhere: the scheduler's last decision
 * for it (sim-core's SchedulingExplanation) as a table — per node, each
 * Filter plugin's verdict and reasons, each Score plugin's raw, normalized
 * and weighted score, the total, and which node won.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { SchedulingExplanation } from '@cluster-anatomy/sim-core';
import type { PanelProps } from '../panel-props.ts';
import { formatScore, podChoices, whyModel, type WhyRow } from '../../../sandbox/panels/why.ts';
import { formatClock } from '../../../sandbox/panels/trace-filter.ts';
import { ScrollRegion, useAnswer, useShown } from './shared.tsx';
import './panels.css';

type T = PanelProps['t'];

function Verdict({ row, t }: { row: WhyRow; t: T }) {
	if (row.verdict === 'chosen')
		return (
			<span class="ca-chip ca-tone-ok">
				<span aria-hidden="true">★ </span>
				{t('sandbox.why.chosen')}
			</span>
		);
	if (row.verdict === 'feasible')
		return (
			<span class="ca-chip ca-tone-info">
				<span aria-hidden="true">● </span>
				{t('sandbox.why.feasible')}
				{row.tied ? ` · ${t('sandbox.why.tied')}` : ''}
			</span>
		);
	const by = row.filters.find((f) => !f.passed)?.plugin ?? '';
	return (
		<span class="ca-chip ca-tone-bad">
			<span aria-hidden="true">✕ </span>
			{t('sandbox.why.rejectedBy', { plugin: by })}
		</span>
	);
}

function Explanation({ e, t }: { e: SchedulingExplanation; t: T }) {
	const model = whyModel(e);
	const resultText =
		model.result === 'Scheduled'
			? t('sandbox.why.scheduled', { node: model.node ?? '' })
			: model.result === 'Unschedulable'
				? t('sandbox.why.unschedulable')
				: model.result === 'Error'
					? t('sandbox.why.error')
					: t('sandbox.why.skipped');
	const tone = model.result === 'Scheduled' ? 'ok' : model.result === 'Skipped' ? 'off' : 'bad';
	return (
		<>
			<p class="ca-why__result">
				<span class={`ca-chip ca-tone-${tone}`}>
					<span aria-hidden="true">{tone === 'ok' ? '● ' : '✕ '}</span>
					{resultText}
				</span>{' '}
				<span class="ca-muted">{t('sandbox.why.attempt', { attempt: model.attempt, time: formatClock(model.atMs) })}</span>
			</p>
			{model.message && <p class="ca-why__message">{model.message}</p>}
			{e.detail === 'summary' && <p class="ca-muted">{t('sandbox.why.summary')}</p>}
			{model.scorePlugins.length > 0 && <p class="ca-muted">{t('sandbox.why.scoreKey')}</p>}
			<ScrollRegion label={t('sandbox.why.tableRegion')} class="ca-why__scroll">
				<table class="ca-table ca-why__table">
					<caption>{t('sandbox.why.caption', { pod: e.pod, nodes: model.rows.length, all: e.numAllNodes })}</caption>
					<thead>
						<tr>
							<th scope="col">{t('sandbox.why.node')}</th>
							<th scope="col">{t('sandbox.why.result')}</th>
							<th scope="col">{t('sandbox.why.filters')}</th>
							<th scope="col">{t('sandbox.why.scores')}</th>
							<th scope="col">{t('sandbox.why.total')}</th>
						</tr>
					</thead>
					<tbody>
						{model.rows.map((row) => (
							<tr key={row.node} class={`ca-why__row ca-why__row--${row.verdict}`}>
								<th scope="row">{row.node}</th>
								<td>
									<Verdict row={row} t={t} />
								</td>
								<td>
									<ul class="ca-why__list">
										{row.filters.map((f) => (
											<li key={f.plugin} class={f.passed ? 'ca-why__pass' : 'ca-why__fail'}>
												<span aria-hidden="true">{f.passed ? '✓ ' : '✕ '}</span>
												<span class="ca-why__plugin">{f.plugin}</span>: {f.passed ? t('sandbox.why.passed') : `${f.code}${f.reasons.length ? ` — ${f.reasons.join('; ')}` : ''}`}
											</li>
										))}
									</ul>
								</td>
								<td>
									{row.scores.length === 0 ? (
										<span class="ca-muted">{row.verdict === 'rejected' ? t('sandbox.why.notScored') : t('sandbox.why.notNeeded')}</span>
									) : (
										<ul class="ca-why__list">
											{row.scores.map((s) => (
												<li key={s.plugin}>
													<span class="ca-why__plugin">{s.plugin}</span>:{' '}
													{t('sandbox.why.score', { raw: formatScore(s.raw), normalized: formatScore(s.normalized), weight: s.weight, weighted: formatScore(s.weighted) })}
												</li>
											))}
										</ul>
									)}
								</td>
								<td class="ca-num">{row.total === undefined ? '—' : formatScore(row.total)}</td>
							</tr>
						))}
					</tbody>
				</table>
			</ScrollRegion>
			{model.nodesOmitted > 0 && <p class="ca-muted">{t('sandbox.why.omitted', { count: model.nodesOmitted })}</p>}
			{model.notEvaluated.length > 0 && <p class="ca-muted">{t('sandbox.why.notEvaluated', { nodes: model.notEvaluated.join(', ') })}</p>}
			{model.outcomes.length > 0 && (
				<ul class="ca-why__outcomes" aria-label={t('sandbox.why.otherSteps')}>
					{model.outcomes.map((o) => (
						<li key={`${o.stage}/${o.plugin}`}>
							<strong>{t(`sandbox.why.stage.${o.stage}`)}</strong> {o.plugin}: {o.code}
							{o.message ? ` — ${o.message}` : ''}
						</li>
					))}
				</ul>
			)}
		</>
	);
}

export default function Why(props: PanelProps) {
	const { t, view } = props;
	const id = useId();
	const choices = podChoices(view.pods);
	const fromTarget = props.target?.resource === 'pods' ? `${props.target.namespace ?? 'default'}/${props.target.name}` : undefined;
	const [pod, setPod] = useState<string>(fromTarget ?? choices[0]?.key ?? '');
	// Each "why" asked elsewhere (a new target object) shows its pod, even one shown before.
	useEffect(() => {
		if (fromTarget) setPod(fromTarget);
	}, [props.target]);
	// With nothing chosen yet, take the first pod once there are pods.
	useEffect(() => {
		if (!pod && choices.length) setPod(choices[0].key);
	}, [choices.length]);

	const rootRef = useRef<HTMLDivElement>(null);
	const shown = useShown(rootRef);
	const answer = useAnswer(
		() => (pod ? props.request({ type: 'explain', pod }) : undefined),
		(r) => (r.type === 'explain' ? (r.explanation ?? null) : undefined),
		pod,
		view.lastSeq,
		{ minGapMs: 700, shown },
	);

	// Re-drawn when a new decision arrives, not each time the clock moves.
	const explanation = useMemo(() => (answer.value ? <Explanation e={answer.value} t={t} /> : undefined), [answer.value, t]);
	return (
		<div class="ca-panel ca-why" ref={rootRef}>
			<h3 class="ca-panel__title">{t('sandbox.why.title')}</h3>
			<div class="ca-field">
				<label for={`${id}-pod`}>{t('sandbox.why.pod')}</label>
				<select id={`${id}-pod`} value={pod} onChange={(e) => setPod((e.currentTarget as HTMLSelectElement).value)}>
					{!choices.some((c) => c.key === pod) && <option value={pod}>{pod || t('sandbox.why.noPods')}</option>}
					{choices.map((c) => (
						<option key={c.key} value={c.key}>
							{c.pending ? t('sandbox.why.pendingOption', { pod: c.key }) : c.key}
						</option>
					))}
				</select>
			</div>
			{explanation ?? <p class="ca-empty">{answer.loading ? t('sandbox.panels.loading') : (answer.error ?? t('sandbox.why.none'))}</p>}
		</div>
	);
}
