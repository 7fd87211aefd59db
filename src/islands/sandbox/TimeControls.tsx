/**
 * Time controls: the virtual clock (always shown), play and pause, the
 * speed (1x, 10x, 60x: choosing one plays at it), a step to the next queued event, jumps ahead, and
 * the time-travel slider. Travelling back shows the cluster as it was; a
 * notice then says what continuing from there would set aside (reading
 * does not: see `readInThePast` in session.ts) and offers to continue or
 * to return to the latest moment; once a change has continued from there,
 * another offers to undo it. Next event says what it stepped to. All the
 * work happens in the worker; this is buttons and a slider.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import type { ClusterView, Request, Response, Speed, StepOutcome } from '../../sandbox/protocol.ts';
import { formatClock, formatClockMs, formatCommands, formatElapsed, formatSpan } from '../../sandbox/format.ts';

type T = (key: string, values?: Record<string, string | number>) => string;

const SPEEDS: Speed[] = [1, 10, 60];
const JUMPS: Array<{ ms: number; key: string }> = [
	{ ms: 10_000, key: 'sandbox.time.jump10s' },
	{ ms: 60_000, key: 'sandbox.time.jump1m' },
	{ ms: 300_000, key: 'sandbox.time.jump5m' },
];
/** Wait after the last slider movement before travelling (keyboard steps come in bursts). */
const TRAVEL_SETTLE_MS = 250;

export interface TimeControlsProps {
	view: ClusterView;
	request: (request: Request) => Promise<Response>;
	t: T;
	/** Shown after Play (the sandbox's "more controls" toggle on phones). */
	more?: ComponentChildren;
}

export function TimeControls({ view, request, t, more }: TimeControlsProps) {
	const id = useId();
	const [scrub, setScrub] = useState<number | undefined>(undefined);
	const [stepped, setStepped] = useState<StepOutcome>();
	/** The set-aside notice the reader dismissed (by the moment it continued from). */
	const [dismissed, setDismissed] = useState<number>();
	const timer = useRef<ReturnType<typeof setTimeout>>();
	const travelled = view.nowMs < view.latestMs;
	const span = view.latestMs - view.earliestMs;
	const epochMs = view.wallMs - view.nowMs;
	const clockOf = (ms: number) => formatClock(epochMs + ms);
	const elapsedOf = (ms: number) => formatElapsed(ms - view.earliestMs);

	useEffect(() => () => clearTimeout(timer.current), []);
	// A new view from the worker ends the scrubbing preview.
	useEffect(() => {
		if (timer.current === undefined) setScrub(undefined);
	}, [view.nowMs, view.latestMs]);

	const travel = (toMs: number) => {
		clearTimeout(timer.current);
		setScrub(toMs);
		timer.current = setTimeout(() => {
			timer.current = undefined;
			void request({ type: 'travel', toMs });
		}, TRAVEL_SETTLE_MS);
	};

	const step = async () => {
		const answer = await request({ type: 'step' });
		setStepped(answer.type === 'view' ? answer.stepped : undefined);
	};
	// What Next event stepped to is news only until the clock moves otherwise.
	useEffect(() => {
		if (stepped && stepped.atMs !== view.nowMs) setStepped(undefined);
	}, [view.nowMs]);

	const steppedText = !stepped
		? ''
		: stepped.none
			? t('sandbox.time.nothingQueued')
			: stepped.component
				? t('sandbox.time.stepped', { clock: formatClockMs(epochMs + stepped.atMs), component: stepped.component, msg: stepped.msg ?? '' })
				: t('sandbox.time.steppedQuiet', { clock: formatClockMs(epochMs + stepped.atMs) });
	const aside = view.setAside && view.setAside.atMs !== dismissed ? view.setAside : undefined;

	const sliderValue = scrub ?? view.nowMs;
	const state = view.playing ? t('sandbox.time.playingAt', { speed: view.speed }) : t('sandbox.time.paused');

	return (
		<div class="ca-time" role="group" aria-label={t('sandbox.time.label')}>
			<p class="ca-time__clock">
				<span class="ca-time__clock-label">{t('sandbox.time.clock')}</span>{' '}
				<time class="ca-time__now">{clockOf(view.nowMs)}</time>{' '}
				<span class="ca-time__elapsed">({elapsedOf(view.nowMs)})</span>{' '}
				<span class={`ca-time__state${view.playing ? ' ca-time__state--playing' : ''}`}>
					<span aria-hidden="true">{view.playing ? '▶ ' : '❚❚ '}</span>
					{state}
				</span>
			</p>
			<div class="ca-time__buttons">
				<button type="button" class="ca-sbx-btn ca-sbx-btn--primary" aria-pressed={view.playing} onClick={() => request(view.playing ? { type: 'pause' } : { type: 'play', speed: view.speed })}>
					<span aria-hidden="true">{view.playing ? '❚❚' : '▶'} </span>
					{view.playing ? t('sandbox.time.pause') : t('sandbox.time.play')}
				</button>
				{more}
				<div class="ca-time__speeds" role="group" aria-label={t('sandbox.time.speed')}>
					{SPEEDS.map((speed) => (
						<button
							type="button"
							key={speed}
							class="ca-sbx-btn ca-sbx-btn--toggle"
							aria-pressed={view.speed === speed}
							aria-label={t('sandbox.time.playAt', { speed })}
							onClick={() => request({ type: 'play', speed })}
						>
							{t('sandbox.time.speedValue', { speed })}
						</button>
					))}
				</div>
				<button type="button" class="ca-sbx-btn" onClick={step}>
					{t('sandbox.time.step')}
				</button>
				<div class="ca-time__jumps" role="group" aria-label={t('sandbox.time.jump')}>
					{JUMPS.map((jump) => (
						<button type="button" key={jump.ms} class="ca-sbx-btn" onClick={() => request({ type: 'advance', ms: jump.ms })}>
							{t(jump.key)}
						</button>
					))}
				</div>
			</div>
			<div class="ca-time__travel">
				<label for={`${id}-travel`}>{t('sandbox.time.travel')}</label>
				<input
					id={`${id}-travel`}
					class="ca-time__slider"
					type="range"
					min={view.earliestMs}
					max={Math.max(view.latestMs, view.earliestMs + 1)}
					step={1000}
					value={sliderValue}
					disabled={span <= 0}
					aria-valuetext={t('sandbox.time.at', { clock: clockOf(sliderValue), elapsed: elapsedOf(sliderValue) })}
					onInput={(event) => travel(Number((event.currentTarget as HTMLInputElement).value))}
				/>
				<output class="ca-time__travel-value" for={`${id}-travel`}>
					{clockOf(sliderValue)}
				</output>
			</div>
			<p class="ca-time__stepped" role="status">
				{steppedText}
			</p>
			{travelled && (
				<div class="ca-time__past" role="status">
					<p>
						{t('sandbox.time.past', {
							clock: clockOf(view.nowMs),
							latest: clockOf(view.latestMs),
							span: formatSpan(view.later?.ms ?? view.latestMs - view.nowMs, t),
							commands: formatCommands(view.later?.commands ?? 0, t),
						})}
					</p>
					<div class="ca-time__past-actions">
						<button type="button" class="ca-sbx-btn ca-sbx-btn--primary" onClick={() => request({ type: 'continue' })}>
							{t('sandbox.time.continue')}
						</button>
						<button type="button" class="ca-sbx-btn" onClick={() => request({ type: 'travel', toMs: view.latestMs })}>
							{t('sandbox.time.latest')}
						</button>
					</div>
				</div>
			)}
			{aside && !travelled && (
				<div class="ca-time__aside" role="status">
					<p>{t('sandbox.time.setAside', { clock: clockOf(aside.atMs), span: formatSpan(aside.ms, t), commands: formatCommands(aside.commands, t) })}</p>
					<div class="ca-time__past-actions">
						<button type="button" class="ca-sbx-btn ca-sbx-btn--primary" onClick={() => request({ type: 'undo-continue' })}>
							{t('sandbox.time.undo')}
						</button>
						<button type="button" class="ca-sbx-btn" onClick={() => setDismissed(aside.atMs)}>
							{t('sandbox.time.dismiss')}
						</button>
					</div>
				</div>
			)}
		</div>
	);
}
