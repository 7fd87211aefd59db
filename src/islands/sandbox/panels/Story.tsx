/**
 * "The story of a request": after a command, a sequence diagram of what
 * each component did because of it, drawn as SVG from the trace events
 * that share the command's origin (see src/sandbox/panels/story.ts), with
 * the same steps as a text list for screen readers and for copying.
 */
import { useId, useMemo, useRef, useState } from 'preact/hooks';
import type { TraceEvent } from '@cluster-anatomy/sim-core';
import type { PanelProps } from '../panel-props.ts';
import { buildStory, formatOffset, layoutStory, type Story as StoryModel, type StoryLayout, type StoryStep } from '../../../sandbox/panels/story.ts';
import { ScrollRegion, useAnswer, useShown } from './shared.tsx';
import './panels.css';

function Headers({ story, layout }: { story: StoryModel; layout: StoryLayout }) {
	const half = layout.laneWidth / 2 - 6;
	return (
		<svg class="ca-story__heads" width={layout.width} height={layout.headerHeight} viewBox={`0 0 ${layout.width} ${layout.headerHeight}`} aria-hidden="true" focusable="false">
			{story.lanes.map((lane, i) => (
				<g key={lane.id} class={`ca-story__head ca-story__head--${lane.label}`}>
					<rect x={layout.laneX[i] - half} y={4} width={half * 2} height={layout.headerHeight - 8} rx={6} />
					<text x={layout.laneX[i]} y={lane.sublabel ? 22 : 29} text-anchor="middle">
						{lane.label}
					</text>
					{lane.sublabel && (
						<text x={layout.laneX[i]} y={37} text-anchor="middle" class="ca-story__sub">
							{lane.sublabel}
						</text>
					)}
				</g>
			))}
		</svg>
	);
}

function Step({ step, y, layout }: { step: StoryStep; y: number; layout: StoryLayout }) {
	if (step.kind === 'arrow') {
		const x1 = layout.laneX[step.from];
		const x2 = layout.laneX[step.to];
		const dir = x2 > x1 ? 1 : -1;
		const tip = x2 - dir * 2;
		return (
			<g class={`ca-story__arrow ca-story__arrow--${step.style}`}>
				{step.label.endsWith('…') && <title>{`${step.actor}: ${step.detail}`}</title>}
				<line x1={x1} y1={y} x2={tip - dir * 6} y2={y} />
				<polygon points={`${tip},${y} ${tip - dir * 8},${y - 4} ${tip - dir * 8},${y + 4}`} />
				<text x={Math.min(x1, x2) + 6} y={y - 5} class="ca-story__label">
					{step.label}
				</text>
			</g>
		);
	}
	const x = layout.laneX[step.lane];
	return (
		<g class="ca-story__note">
			{step.label.endsWith('…') && <title>{`${step.actor}: ${step.detail}`}</title>}
			<rect x={x - 4} y={y - 4} width={8} height={8} />
			<text x={x + 9} y={y + 4} class="ca-story__label">
				{step.label}
			</text>
		</g>
	);
}

export default function Story(props: PanelProps) {
	const { t, view } = props;
	const id = useId();
	const [all, setAll] = useState(false);
	const [listOpen, setListOpen] = useState(false);
	const origin = props.target?.origin;
	const rootRef = useRef<HTMLDivElement>(null);
	const shown = useShown(rootRef);
	const answer = useAnswer(
		() => props.request(origin ? { type: 'story', origin } : { type: 'story' }),
		(r) => (r.type === 'story' ? { origin: r.origin, line: r.line, events: r.events } : undefined),
		origin ?? '',
		view.lastSeq,
		{ minGapMs: 1500, shown },
	);
	// A refresh that brings the same events keeps the diagram as it is (no re-layout while the cluster plays).
	const held = useRef<{ key: string; events: TraceEvent[] }>({ key: '', events: [] });
	const fresh = answer.value?.events ?? [];
	const freshKey = `${answer.value?.origin}:${fresh.length}:${fresh.at(-1)?.seq}`;
	if (held.current.key !== freshKey) held.current = { key: freshKey, events: fresh };
	const events = held.current.events;
	const story = useMemo(() => buildStory(events, { all }), [events, all]);
	const layout = useMemo(() => layoutStory(story), [story]);
	const start = events.length ? events[0].atMs : 0;
	const subject = answer.value?.line ? `$ ${answer.value.line}` : (answer.value?.origin ?? '');
	const lanes = story.lanes.map((l) => (l.sublabel ? `${l.label} (${l.sublabel})` : l.label)).join(', ');
	const heads = useMemo(() => <Headers story={story} layout={layout} />, [story, layout]);
	// The diagram only changes with the story: while the cluster plays, the same element is reused and Preact skips it.
	const diagram = useMemo(
		() => (
			<svg class="ca-story__body" width={layout.width} height={layout.bodyHeight} viewBox={`0 0 ${layout.width} ${layout.bodyHeight}`} role="img" aria-labelledby={`${id}-title ${id}-desc`}>
				<title id={`${id}-title`}>{t('sandbox.story.svgTitle', { subject: subject || t('sandbox.story.lastCommand') })}</title>
				<desc id={`${id}-desc`}>{t('sandbox.story.svgDesc', { steps: story.steps.length, lanes })}</desc>
				{story.lanes.map((lane, i) => (
					<line key={lane.id} class="ca-story__life" x1={layout.laneX[i]} y1={0} x2={layout.laneX[i]} y2={layout.bodyHeight} />
				))}
				{story.steps.map((step, i) => (
					<g key={step.seq}>
						{(i === 0 || story.steps[i - 1].atMs !== step.atMs) && (
							<text x={4} y={layout.stepY[i] + 4} class="ca-story__time">
								{formatOffset(step.atMs - start)}
							</text>
						)}
						<Step step={step} y={layout.stepY[i]} layout={layout} />
					</g>
				))}
			</svg>
		),
		[story, layout, start, subject, lanes, id, t],
	);
	const laneName = (i: number) => {
		const l = story.lanes[i];
		return l.sublabel ? `${l.label}/${l.sublabel}` : l.label;
	};

	return (
		<div class="ca-panel ca-story" ref={rootRef}>
			<h3 class="ca-panel__title">{t('sandbox.story.title')}</h3>
			{subject && (
				<p class="ca-story__subject">
					<code>{subject}</code>
				</p>
			)}
			<div class="ca-toolbar">
				<label class="ca-check">
					<input type="checkbox" checked={all} onChange={(e) => setAll((e.currentTarget as HTMLInputElement).checked)} />
					{t('sandbox.story.all')}
				</label>
				<span class="ca-muted">{t('sandbox.story.key')}</span>
			</div>
			{events.length === 0 ? (
				<p class="ca-empty">{answer.loading ? t('sandbox.panels.loading') : (answer.error ?? t('sandbox.story.empty'))}</p>
			) : (
				<>
					<p class="ca-muted">
						{t('sandbox.story.summary', { steps: story.steps.length, lanes: story.lanes.length })}
						{story.hidden > 0 && ` ${t('sandbox.story.hidden', { count: story.hidden })}`}
						{story.omitted > 0 && ` ${t('sandbox.story.omitted', { count: story.omitted })}`}
					</p>
					<ScrollRegion label={t('sandbox.story.diagram')} class="ca-story__scroll">
						<div class="ca-story__sticky">
							{heads}
						</div>
						{diagram}
					</ScrollRegion>
					<details class="ca-story__text" onToggle={(e) => setListOpen((e.currentTarget as HTMLDetailsElement).open)}>
						<summary>{t('sandbox.story.asText', { steps: story.steps.length })}</summary>
						{listOpen && (
							<ol>
								{story.steps.map((step) => (
									<li key={step.seq}>
										<span class="ca-story__when">{formatOffset(step.atMs - start)}</span>{' '}
										{step.kind === 'arrow' ? `${step.actor} → ${laneName(step.to)}: ${step.detail}` : `${step.actor}: ${step.detail}`}
									</li>
								))}
							</ol>
						)}
					</details>
				</>
			)}
		</div>
	);
}
