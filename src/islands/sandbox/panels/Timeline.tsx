/**
 * The timeline: the trace as a list (time, component, action, object,
 * message), filterable by component and by object, following new events
 * while the cluster runs. It holds at most BUFFER_MAX events and draws the
 * newest ROWS_MAX; each run of events from one cause links to its story.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { TraceEvent } from '@cluster-anatomy/sim-core';
import type { PanelProps } from '../panel-props.ts';
import { appendEvents, componentChoices, formatClock, type TraceFilter } from '../../../sandbox/panels/trace-filter.ts';
import { ScrollRegion, ask, useShown } from './shared.tsx';
import './panels.css';

/** Events kept in memory. */
const BUFFER_MAX = 1000;
/** Rows drawn (the newest). */
const ROWS_MAX = 200;
/** Wall time between two questions while following a running cluster. */
const FOLLOW_GAP_MS = 400;

export default function Timeline(props: PanelProps) {
	const { t, view } = props;
	const id = useId();
	const [filter, setFilter] = useState<TraceFilter>({ component: '', object: '' });
	const [follow, setFollow] = useState(true);
	const [events, setEvents] = useState<TraceEvent[]>([]);
	const [error, setError] = useState<string | undefined>();
	const held = useRef({ events: [] as TraceEvent[], key: '', busy: false, again: false, lastAt: 0 });
	const list = useRef<HTMLDivElement>(null);
	const rootRef = useRef<HTMLDivElement>(null);
	const shown = useShown(rootRef);
	const filterKey = `${filter.component}\u0000${filter.object}`;
	const latest = useRef({ filter, filterKey, lastSeq: view.lastSeq });
	latest.current = { filter, filterKey, lastSeq: view.lastSeq };

	/** Asks for what is new (or, after a filter change or time travel, for everything that matches). One question at a time. */
	const fetchEvents = useCallback(() => {
		const state = held.current;
		if (state.busy) {
			state.again = true;
			return;
		}
		const { filter: f, filterKey: key, lastSeq } = latest.current;
		const lastHeld = state.events.length ? state.events[state.events.length - 1].seq : -1;
		const fresh = state.key !== key || lastSeq < lastHeld;
		if (!fresh && lastSeq <= lastHeld) return;
		const limit = fresh ? BUFFER_MAX : ROWS_MAX;
		state.busy = true;
		state.lastAt = Date.now();
		ask(props.request, { type: 'trace', component: f.component || undefined, object: f.object || undefined, afterSeq: fresh ? undefined : lastHeld, limit }).then((response) => {
			state.busy = false;
			if (response.type === 'trace') {
				// A full answer to "what is new" may have skipped some: start over from it rather than leave a gap.
				const restart = fresh || response.events.length >= limit || key !== state.key;
				state.events = appendEvents(restart ? [] : state.events, response.events, BUFFER_MAX);
				state.key = key;
				setEvents(state.events);
				setError(undefined);
			} else if (response.type === 'error') setError(response.message);
			if (state.again || latest.current.filterKey !== state.key) {
				state.again = false;
				fetchEvents();
			}
		});
	}, []);

	// A new filter asks at once; new events are fetched at most every FOLLOW_GAP_MS, only while following and on screen.
	useEffect(() => {
		const state = held.current;
		if (state.key !== filterKey) {
			fetchEvents();
			return;
		}
		if (!follow || !shown) return;
		const timer = setTimeout(fetchEvents, Math.max(0, state.lastAt + FOLLOW_GAP_MS - Date.now()));
		return () => clearTimeout(timer);
	}, [filterKey, view.lastSeq, follow, shown]);

	// Keep the newest row in sight while following, unless the reader scrolled up.
	useEffect(() => {
		const el = list.current;
		if (follow && el && el.scrollHeight - el.scrollTop - el.clientHeight < 80) el.scrollTop = el.scrollHeight;
	}, [events, follow]);

	const rows = events.slice(-ROWS_MAX);
	// The same events draw the same rows: reusing the element lets Preact skip the list while only the clock moves.
	const rendered = useMemo(
		() =>
			rows.length === 0 ? (
				<p class="ca-empty">{t('sandbox.timeline.empty')}</p>
			) : (
				<ol class="ca-events">
					{rows.map((e, i) => {
						const startsRun = i === 0 || rows[i - 1].origin !== e.origin;
						return (
							<li key={e.seq} class="ca-event">
								<span class="ca-event__time">{formatClock(e.atMs)}</span>
								<span class="ca-event__head">
									<span class="ca-event__component">
										{e.component}
										{e.sub ? ` (${e.sub})` : ''}
									</span>{' '}
									<span class="ca-event__action">
										{e.action}
										{e.peer ? ` → ${e.peer}` : ''}
									</span>
								</span>
								<span class="ca-event__msg">{e.msg}</span>
								{e.object && <span class="ca-event__object">{e.object}</span>}
								{startsRun && props.has('story') && (
									<button
										type="button"
										class="ca-link ca-event__origin"
										onClick={() => props.open('story', { resource: 'story', name: e.origin, origin: e.origin })}
										aria-label={t('sandbox.timeline.storyOf', { origin: e.origin })}
									>
										{e.origin}
									</button>
								)}
							</li>
						);
					})}
				</ol>
			),
		[events, t],
	);
	const choices = componentChoices([
		...events.map((e) => e.component),
		...view.components.map((c) => (c.component === 'kubelet' || c.component === 'container-runtime' || c.component === 'kube-proxy' ? `${c.component}/${c.node}` : c.component)),
		'kubectl',
	]);
	const objects = [...new Set(events.map((e) => e.object).filter((o): o is string => !!o && !o.startsWith('/')))].slice(-60);

	return (
		<div class="ca-panel ca-timeline" ref={rootRef}>
			<h3 class="ca-panel__title">{t('sandbox.timeline.title')}</h3>
			<div class="ca-filters">
				<div class="ca-field">
					<label for={`${id}-component`}>{t('sandbox.timeline.component')}</label>
					<select id={`${id}-component`} value={filter.component} onChange={(e) => setFilter({ ...filter, component: (e.currentTarget as HTMLSelectElement).value })}>
						<option value="">{t('sandbox.timeline.anyComponent')}</option>
						{choices.map((c) => (
							<option key={c} value={c}>
								{c}
							</option>
						))}
					</select>
				</div>
				<div class="ca-field">
					<label for={`${id}-object`}>{t('sandbox.timeline.object')}</label>
					<input
						id={`${id}-object`}
						type="search"
						list={`${id}-objects`}
						value={filter.object}
						placeholder="pods/default/web"
						spellcheck={false}
						autocomplete="off"
						onInput={(e) => setFilter({ ...filter, object: (e.currentTarget as HTMLInputElement).value })}
					/>
					<datalist id={`${id}-objects`}>
						{objects.map((o) => (
							<option key={o} value={o} />
						))}
					</datalist>
				</div>
				<label class="ca-check">
					<input type="checkbox" checked={follow} onChange={(e) => setFollow((e.currentTarget as HTMLInputElement).checked)} />
					{t('sandbox.timeline.follow')}
				</label>
			</div>
			<p class="ca-muted">
				{error ?? (events.length > rows.length ? t('sandbox.timeline.showingNewest', { shown: rows.length, held: events.length }) : t('sandbox.timeline.count', { count: rows.length }))}
			</p>
			<ScrollRegion label={t('sandbox.timeline.list')} class="ca-timeline__scroll" regionRef={list}>
				{rendered}
			</ScrollRegion>
		</div>
	);
}
