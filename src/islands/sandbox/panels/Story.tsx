/**
 * "The story of a request": what each component did because of one
 * command the reader chose (by default the newest one that changed
 * something, so a `kubectl get` does not push it aside; "Keep this story"
 * holds it). First a summary, one row per station of the road (kube-apiserver,
 * etcd, the controllers, kube-scheduler, kubelet, container runtime…) that
 * expands to its steps; then, on demand, the sequence diagram drawn as SVG
 * (all stations or one and whom it talks to), and every step as a text list
 * for screen readers and for copying. The model is src/sandbox/panels/story.ts.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { TraceEvent } from '@cluster-anatomy/sim-core';
import type { PanelProps } from '../panel-props.ts';
import type { StoryChoice } from '../../../sandbox/protocol.ts';
import {
	buildStory,
	counted,
	formatOffset,
	laneIdOf,
	layoutStory,
	stationOf,
	summarizeStations,
	type StationFact,
	type StationSummary,
	type Story as StoryModel,
	type StoryLayout,
	type StoryStep,
} from '../../../sandbox/panels/story.ts';
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

type T = PanelProps['t'];

/** One fact as a sentence; its parts (a controller's actions) listed inside it. */
function factText(fact: StationFact, t: T): string {
	const parts = fact.parts?.map((p) => factText(p, t)).join(t('sandbox.story.partSep'));
	return t(fact.key, parts === undefined ? fact.values : { ...fact.values, actions: parts });
}

/** `kube-apiserver → etcd: txn put …`, the way the text list and the station rows write a step. */
function stepText(e: TraceEvent): string {
	return e.peer && laneIdOf(e.peer) !== laneIdOf(e.component) ? `${e.component} → ${e.peer}: ${e.msg}` : `${e.component}: ${e.msg}`;
}

function StationRow({ station, start, t }: { station: StationSummary; start: number; t: T }) {
	const [open, setOpen] = useState(false);
	const id = useId();
	const steps = t(counted('sandbox.story.stationSteps.one', 'sandbox.story.stationSteps.other', station.steps), { count: station.steps });
	const when =
		station.firstMs === station.lastMs ? formatOffset(station.firstMs - start) : t('sandbox.story.stationTime', { first: formatOffset(station.firstMs - start), last: formatOffset(station.lastMs - start) });
	const what = station.facts.map((f) => factText(f, t)).join(t('sandbox.story.factSep'));
	return (
		<li class="ca-station">
			<button type="button" class="ca-station__toggle" aria-expanded={open} aria-controls={open ? `${id}-steps` : undefined} onClick={() => setOpen(!open)}>
				<span class="ca-station__mark" aria-hidden="true">
					{open ? '▾' : '▸'}
				</span>
				<span class="ca-station__name">{station.id}</span>
				<span class="ca-station__count">{steps}</span>
				<span class="ca-station__time">{when}</span>
			</button>
			<p class="ca-station__what">
				{station.nodes.length > 0 && <span class="ca-station__nodes">{t('sandbox.story.onNodes', { nodes: station.nodes.join(', ') })} · </span>}
				{what}
			</p>
			{open && (
				<ol class="ca-station__steps" id={`${id}-steps`} tabIndex={0} aria-label={t('sandbox.story.stepsAt', { station: station.id })}>
					{station.events.map((e) => (
						<li key={e.seq}>
							<span class="ca-story__when">{formatOffset(e.atMs - start)}</span> {stepText(e)}
						</li>
					))}
				</ol>
			)}
		</li>
	);
}

/** The label of a command in the choice: its line, marked when it only read. */
function choiceLabel(c: StoryChoice, t: T): string {
	return c.writes ? `$ ${c.line}` : t('sandbox.story.readOnly', { line: `$ ${c.line}` });
}

interface StoryAnswer {
	origin?: string;
	line?: string;
	events: TraceEvent[];
	recent: StoryChoice[];
}

export default function Story(props: PanelProps) {
	const { t, view } = props;
	const id = useId();
	const [all, setAll] = useState(false);
	const [listOpen, setListOpen] = useState(false);
	const [diagramOpen, setDiagramOpen] = useState(false);
	const [focus, setFocus] = useState('');
	// The story the reader chose (or opened from elsewhere): kept until they choose another or untick "Keep".
	const [chosen, setChosen] = useState<string | undefined>(props.target?.origin);
	const targetOrigin = props.target?.origin;
	useEffect(() => {
		if (targetOrigin) setChosen(targetOrigin);
	}, [targetOrigin]);
	const rootRef = useRef<HTMLDivElement>(null);
	const shown = useShown(rootRef);
	const answer = useAnswer<StoryAnswer>(
		() => props.request(chosen ? { type: 'story', origin: chosen } : { type: 'story' }),
		(r) => (r.type === 'story' ? { origin: r.origin, line: r.line, events: r.events, recent: r.recent ?? [] } : undefined),
		chosen ?? '',
		view.lastSeq,
		{ minGapMs: 1500, shown },
	);
	// While a newly chosen story loads, the one on screen stays (no flash of "loading").
	const lastAnswer = useRef<StoryAnswer | undefined>(undefined);
	if (answer.value) lastAnswer.current = answer.value;
	const current = answer.value ?? (answer.loading ? lastAnswer.current : undefined);
	// A refresh that brings the same events keeps the diagram as it is (no re-layout while the cluster plays).
	const held = useRef<{ key: string; events: TraceEvent[] }>({ key: '', events: [] });
	const fresh = current?.events ?? [];
	const freshKey = `${current?.origin}:${fresh.length}:${fresh.at(-1)?.seq}`;
	if (held.current.key !== freshKey) held.current = { key: freshKey, events: fresh };
	const events = held.current.events;
	const stations = useMemo(() => summarizeStations(events, { all }), [events, all]);
	const drawn = useMemo(() => (focus ? events.filter((e) => stationOf(e) === focus) : events), [events, focus]);
	const story = useMemo(() => buildStory(drawn, { all }), [drawn, all]);
	const fullStory = useMemo(() => (focus ? buildStory(events, { all }) : story), [events, all, focus, story]);
	const layout = useMemo(() => layoutStory(story), [story]);
	const start = events.length ? events[0].atMs : 0;
	const subject = current?.line ? `$ ${current.line}` : (current?.origin ?? '');
	const lanes = story.lanes.map((l) => (l.sublabel ? `${l.label} (${l.sublabel})` : l.label)).join(', ');
	const heads = useMemo(() => <Headers story={story} layout={layout} />, [story, layout]);
	const recent = current?.recent ?? [];
	const shownOrigin = current?.origin;
	const choices = shownOrigin && !recent.some((c) => c.origin === shownOrigin) ? [{ origin: shownOrigin, line: current?.line ?? shownOrigin, atMs: -1, writes: true }, ...recent] : recent;
	// The diagram only changes with the story: while the cluster plays, the same element is reused and Preact skips it.
	const diagram = useMemo(
		() =>
			diagramOpen && (
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
		[diagramOpen, story, layout, start, subject, lanes, id, t],
	);
	const laneName = (i: number) => {
		const l = fullStory.lanes[i];
		return l.sublabel ? `${l.label}/${l.sublabel}` : l.label;
	};
	const totalSteps = stations.reduce((n, s) => n + s.steps, 0);

	return (
		<div class="ca-panel ca-story" ref={rootRef}>
			<h3 class="ca-panel__title">{t('sandbox.story.title')}</h3>
			{choices.length > 0 && (
				<div class="ca-toolbar">
					<div class="ca-field">
						<label for={`${id}-command`}>{t('sandbox.story.command')}</label>
						<select id={`${id}-command`} class="ca-story__choice" value={shownOrigin} onChange={(e) => setChosen((e.currentTarget as HTMLSelectElement).value)}>
							{choices.map((c) => (
								<option key={c.origin} value={c.origin}>
									{choiceLabel(c, t)}
								</option>
							))}
						</select>
					</div>
					<label class="ca-check">
						<input
							type="checkbox"
							class="ca-story__keep"
							checked={chosen !== undefined}
							disabled={!shownOrigin}
							onChange={(e) => setChosen((e.currentTarget as HTMLInputElement).checked ? shownOrigin : undefined)}
						/>
						{t('sandbox.story.keep')}
					</label>
				</div>
			)}
			{subject && (
				<p class="ca-story__subject">
					<code>{subject}</code>
				</p>
			)}
			{choices.length > 0 && <p class="ca-muted ca-story__mode">{t(chosen !== undefined ? 'sandbox.story.kept' : 'sandbox.story.following')}</p>}
			{events.length === 0 ? (
				<p class="ca-empty">{answer.loading && !current ? t('sandbox.panels.loading') : (answer.error ?? t('sandbox.story.empty'))}</p>
			) : (
				<>
					<div class="ca-toolbar">
						<label class="ca-check">
							<input type="checkbox" class="ca-story__all" checked={all} onChange={(e) => setAll((e.currentTarget as HTMLInputElement).checked)} />
							{t('sandbox.story.all')}
						</label>
					</div>
					<p class="ca-muted">
						{t('sandbox.story.stationsSummary', { steps: totalSteps, stations: stations.length })}
						{fullStory.hidden > 0 && ` ${t('sandbox.story.hidden', { count: fullStory.hidden })}`}
					</p>
					<ol class="ca-story__stations" aria-label={t('sandbox.story.stations')}>
						{stations.map((s) => (
							<StationRow key={`${current?.origin}:${s.id}`} station={s} start={start} t={t} />
						))}
					</ol>
					<details class="ca-story__diagram" onToggle={(e) => setDiagramOpen((e.currentTarget as HTMLDetailsElement).open)}>
						<summary>{t('sandbox.story.diagramOpen', { lanes: fullStory.lanes.length })}</summary>
						{diagramOpen && (
							<>
								<div class="ca-toolbar">
									<div class="ca-field">
										<label for={`${id}-focus`}>{t('sandbox.story.draw')}</label>
										<select id={`${id}-focus`} value={focus} onChange={(e) => setFocus((e.currentTarget as HTMLSelectElement).value)}>
											<option value="">{t('sandbox.story.drawAll')}</option>
											{stations.map((s) => (
												<option key={s.id} value={s.id}>
													{t('sandbox.story.drawStation', { station: s.id })}
												</option>
											))}
										</select>
									</div>
									<span class="ca-muted">{t('sandbox.story.key')}</span>
								</div>
								<p class="ca-muted">
									{t('sandbox.story.summary', { steps: story.steps.length, lanes: story.lanes.length })}
									{story.omitted > 0 && ` ${t('sandbox.story.omitted', { count: story.omitted })}`}
								</p>
								<ScrollRegion label={t('sandbox.story.diagram')} class="ca-story__scroll">
									<div class="ca-story__sticky">{heads}</div>
									{diagram}
								</ScrollRegion>
							</>
						)}
					</details>
					<details class="ca-story__text" onToggle={(e) => setListOpen((e.currentTarget as HTMLDetailsElement).open)}>
						<summary>{t('sandbox.story.asText', { steps: fullStory.steps.length })}</summary>
						{listOpen && (
							<ol>
								{fullStory.steps.map((step) => (
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
