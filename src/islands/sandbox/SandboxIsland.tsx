/**
 * The sandbox island: a live mini-cluster with a map, a terminal, time
 * controls, faults, tasks and the other panels in tabs, from 360 px phones
 * to full screen on wide desktops.
 *
 * Rendered on the server with the scenario's starting view (computed at
 * build time), it is a static picture plus a sentence on what the live
 * version does; that is what readers without JavaScript get. Hydrated when
 * it scrolls into view, it becomes the live frame at once, showing the same
 * starting view; the simulation worker (the large part of the code) is
 * fetched in the next idle moment, so that the cluster is already running
 * when the reader types, or at once when the reader reaches for the sandbox
 * (pointer or focus inside it) or opens a share link for it. A browser that
 * asks to save data gets the worker only when the reader reaches for it.
 *
 * Everything about the cluster comes from the worker (client.ts); this file
 * only lays out panels and passes requests on.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'preact/hooks';
import type { Scenario } from '@cluster-anatomy/sim-core';
import type { ClusterView, Locale, Request, Response } from '../../sandbox/protocol.ts';
import type { InspectTarget, PanelId, PanelProps } from './panel-props.ts';
import { SandboxClient } from '../../sandbox/client.ts';
import { terminalText, translator } from '../../sandbox/format.ts';
import { sandboxTabs } from '../../sandbox/tabs.ts';
import type { FeedEntry } from './Terminal.tsx';
import { useTaskProgress } from './use-task-progress.ts';
import { useWideFrame } from './use-wide-frame.ts';
import { ErrorBoundary, SandboxFailure } from './ErrorBoundary.tsx';
import { Terminal as TerminalPanel } from './Terminal.tsx';
import { Frozen, pure } from './Frozen.tsx';
import { TimeControls } from './TimeControls.tsx';
import { Faults } from './Faults.tsx';
import { Tasks } from './Tasks.tsx';
import { CopyButton } from './CopyButton.tsx';
import { ClusterMap, LazyPanel, hasLazyPanel } from './panels.tsx';
import './sandbox.css';

export type SandboxHeight = 'short' | 'medium' | 'tall';

export interface SandboxIslandProps {
	scenario: Scenario;
	/** The scenario's starting view, computed at build time. */
	view: ClusterView;
	/** The `sandbox.*` UI strings of the page's locale. */
	strings: Record<string, string>;
	locale: Locale;
	/** Panels to show, in tab order ('map' is drawn beside the tabs). */
	panels: PanelId[];
	height: SandboxHeight;
}

type T = ReturnType<typeof translator>;
type Phase = 'idle' | 'starting' | 'ready';
type Fullscreen = 'off' | 'native' | 'overlay';

const SHARE_PREFIX = '#sandbox=';

/** The terminal re-renders only when its own props change, not with every view. */
const Terminal = pure(TerminalPanel);

export default function SandboxIsland(props: SandboxIslandProps) {
	const t = useMemo(() => translator(props.strings), [props.strings]);
	const [generation, setGeneration] = useState(0);
	return (
		<ErrorBoundary key={generation} t={t} onReset={() => setGeneration((g) => g + 1)}>
			<Sandbox {...props} t={t} restart={() => setGeneration((g) => g + 1)} />
		</ErrorBoundary>
	);
}

function Sandbox(props: SandboxIslandProps & { t: T; restart: () => void }) {
	const { scenario, t, locale } = props;
	const uid = useId();
	const [live, setLive] = useState(false);
	const [view, setView] = useState<ClusterView>(props.view);
	const [phase, setPhase] = useState<Phase>('idle');
	const [busy, setBusy] = useState(0);
	const [notice, setNotice] = useState<string>();
	const [crash, setCrash] = useState<string>();
	// Tabs for the panels that exist (a scenario without tasks has no Tasks tab; a map brings the Inspector its clicks open).
	const tabs = useMemo(() => sandboxTabs(props.panels, (scenario.tasks ?? []).length).filter((p) => p === 'terminal' || p === 'faults' || p === 'tasks' || hasLazyPanel(p)), [props.panels, scenario]);
	const [active, setActive] = useState<PanelId | undefined>(tabs[0]);
	const [opened, setOpened] = useState<PanelId[]>(tabs.slice(0, 1));
	const [targets, setTargets] = useState<Partial<Record<PanelId, InspectTarget>>>({});
	const [draft, setDraft] = useState<{ text: string; n: number }>({ text: scenario.suggestedCommand ?? '', n: 0 });
	const [terminalKey, setTerminalKey] = useState(0);
	const [fullscreen, setFullscreen] = useState<Fullscreen>('off');
	const [shareUrl, setShareUrl] = useState<string>();
	/** What the sandbox writes on the terminal's screen (a shared session's transcript, a task done). */
	const [feed, setFeed] = useState<{ entries: FeedEntry[]; n: number }>({ entries: [], n: 0 });
	/** Said to screen readers when the terminal (whose screen is a live log) is not the tab shown. */
	const [announcement, setAnnouncement] = useState('');
	/** On phones: whether the time controls and actions are shown (the terminal comes first). */
	const [controlsOpen, setControlsOpen] = useState(false);
	const root = useRef<HTMLDivElement>(null);
	/** The server-rendered picture: keyboard focus inside it when the island goes live moves to the terminal. */
	const picture = useRef<HTMLDivElement>(null);
	const focusWhenLive = useRef(false);
	const activeRef = useRef(active);
	activeRef.current = active;
	const wide = useWideFrame(root, live && fullscreen === 'off');
	const tabRefs = useRef<Partial<Record<PanelId, HTMLButtonElement | null>>>({});
	const start = useRef<Request>({ type: 'start', scenario, locale });
	const client = useRef<SandboxClient>();

	/** Creates the worker and starts the cluster, once. */
	const warmUp = useCallback(() => {
		const pending = client.current?.warmUp();
		if (!pending) return;
		setPhase('starting');
		pending.then((response) => {
			if (response.type === 'view') setView(response.view);
			else if (response.type === 'error') setNotice(t('sandbox.error.start', { message: response.message }));
			setPhase('ready');
		});
	}, []);

	const feedTerminal = (entries: FeedEntry[]) => setFeed((f) => ({ entries, n: f.n + 1 }));

	const taskProgress = useTaskProgress(scenario.id, view.tasks, (ids) => {
		const titles = ids.map((id) => scenario.tasks?.find((task) => task.id === id)?.title[locale]).filter((x): x is string => !!x);
		if (!titles.length) return;
		feedTerminal(titles.map((title) => ({ note: true, output: `${t('sandbox.terminal.taskDone', { title })}\n` })));
		setAnnouncement(activeRef.current === 'terminal' ? '' : t('sandbox.tasks.justDone', { title: titles.join(', ') }));
	});
	const tasksDone = (scenario.tasks ?? []).filter((task) => taskProgress.progress.tasks[task.id]?.done).length;

	useEffect(() => {
		// A keyboard reader who tabbed onto the picture's button lands in the terminal once the cluster is live.
		focusWhenLive.current = !!picture.current && picture.current.contains(document.activeElement);
		setLive(true);
		const c = new SandboxClient(() => start.current);
		c.onPush = (response) => {
			if (response.type === 'view') setView(response.view);
			else if (response.type === 'error') setNotice(response.code ? t(`sandbox.error.${response.code}`) : response.message);
		};
		c.onCrash = (message) => setCrash(message);
		client.current = c;
		let idle: number | undefined;
		if (location.hash.startsWith(SHARE_PREFIX)) void openShareLink(location.hash);
		else if (!savesData()) idle = whenIdle(warmUp);
		const onFullscreenChange = () => setFullscreen(document.fullscreenElement && document.fullscreenElement === root.current ? 'native' : 'off');
		document.addEventListener('fullscreenchange', onFullscreenChange);
		return () => {
			if (idle !== undefined) cancelIdle(idle);
			document.removeEventListener('fullscreenchange', onFullscreenChange);
			c.terminate();
		};
	}, []);

	/** A share link for this sandbox replays the shared session; a broken one says why and leaves the scenario as written. */
	const openShareLink = async (hash: string) => {
		const { decodeShare, splitShareHash } = await import('../../sandbox/share.ts');
		const parts = splitShareHash(hash);
		const section = root.current?.closest('[data-ca-scenario]');
		const all = [...document.querySelectorAll('[data-ca-scenario]')];
		const forUs = parts?.scenarioId === scenario.id;
		const forAnother = all.some((s) => s.getAttribute('data-ca-scenario') === parts?.scenarioId);
		// A link for no sandbox on this page is reported by the first one.
		if (!forUs && (forAnother || all[0] !== section)) return;
		if (!forUs) {
			setNotice(t('sandbox.share.error.invalid'));
			return;
		}
		const decoded = await decodeShare(hash);
		if (!decoded.ok) {
			setNotice(t(`sandbox.share.error.${decoded.problem}`));
			return;
		}
		start.current = { type: 'start', scenario, locale, seed: decoded.seed, inputs: decoded.inputs };
		setNotice(t('sandbox.share.opening'));
		const pending = client.current?.warmUp();
		if (!pending) return;
		setPhase('starting');
		const response = await pending;
		if (response.type === 'view') {
			setView(response.view);
			setNotice(t('sandbox.share.opened'));
			if (response.transcript?.length) {
				// The recipient sees what the sender typed and what came back, and can go on from there.
				feedTerminal([
					{ note: true, output: `${t('sandbox.terminal.replayed')}\n` },
					...response.transcript.map((e) => ({ prompt: e.prompt, line: e.line, output: terminalText(e.output).text, failed: e.failed })),
				]);
			}
		} else {
			// The replay failed inside the simulation: start the scenario as written instead.
			start.current = { type: 'start', scenario, locale };
			const fresh = await client.current!.request(start.current);
			if (fresh.type === 'view') setView(fresh.view);
			setNotice(t('sandbox.share.error.replay'));
		}
		setPhase('ready');
	};

	// The reader reaching for the sandbox (pointer, touch or keyboard focus inside it) fetches the simulation.
	useEffect(() => {
		const el = root.current;
		if (!live || !el) return;
		const events = ['pointerenter', 'focusin', 'touchstart'] as const;
		for (const name of events) el.addEventListener(name, warmUp, { passive: true });
		return () => {
			for (const name of events) el.removeEventListener(name, warmUp);
		};
	}, [live]);

	const request = useCallback(async (r: Request): Promise<Response> => {
		const c = client.current;
		if (!c) return { type: 'error', message: 'the sandbox is not running' };
		warmUp();
		setBusy((n) => n + 1);
		try {
			const response = await c.request(r);
			if (response.type === 'view' || response.type === 'exec' || response.type === 'edit') setView(response.view);
			return response;
		} finally {
			setBusy((n) => n - 1);
		}
	}, []);

	// After going live, focus that was on the picture's button goes to the terminal's prompt (or the first tab).
	useEffect(() => {
		if (!live || !focusWhenLive.current) return;
		focusWhenLive.current = false;
		const el = root.current;
		(el?.querySelector<HTMLElement>('.ca-term__input') ?? el?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]'))?.focus();
	}, [live]);

	const hasPanel = useCallback((panel: PanelId) => tabs.includes(panel), [tabs]);

	const openPanel = useCallback((panel: PanelId, target?: InspectTarget) => {
		// A panel this sandbox has no tab for is never opened: that would hide every panel.
		if (panel === 'map' || !tabs.includes(panel)) return;
		setActive(panel);
		setOpened((list) => (list.includes(panel) ? list : [...list, panel]));
		if (target) setTargets((all) => ({ ...all, [panel]: target }));
		requestAnimationFrame(() => tabRefs.current[panel]?.scrollIntoView({ block: 'nearest' }));
	}, []);

	const reset = async () => {
		setShareUrl(undefined);
		setNotice(undefined);
		if (location.hash.startsWith(SHARE_PREFIX)) history.replaceState(history.state, '', location.pathname + location.search);
		if (client.current?.spawned) {
			start.current = { type: 'start', scenario, locale };
			await request(start.current);
		} else setView(props.view);
		setTerminalKey((k) => k + 1);
		setFeed({ entries: [], n: 0 });
		setDraft({ text: scenario.suggestedCommand ?? '', n: 0 });
		setNotice(t('sandbox.frame.resetDone'));
	};

	const toggleFullscreen = async () => {
		const el = root.current;
		if (!el) return;
		if (fullscreen === 'native') {
			await document.exitFullscreen().catch(() => setFullscreen('off'));
			return;
		}
		if (fullscreen === 'overlay') {
			setFullscreen('off');
			return;
		}
		try {
			if (!el.requestFullscreen) throw new Error('no Fullscreen API');
			await el.requestFullscreen();
		} catch {
			// Where the Fullscreen API is missing or refused, the sandbox covers the window instead.
			setFullscreen('overlay');
		}
	};

	const share = async () => {
		const answer = await request({ type: 'session' });
		if (answer.type !== 'session') {
			setNotice(answer.type === 'error' ? answer.message : t('sandbox.share.error.invalid'));
			return;
		}
		const { encodeShare, shareProblemOf } = await import('../../sandbox/share.ts');
		try {
			const fragment = await encodeShare({ scenarioId: answer.scenarioId, seed: answer.seed, inputs: answer.inputs });
			setShareUrl(location.href.split('#')[0] + fragment);
			setNotice(undefined);
		} catch (error) {
			setShareUrl(undefined);
			setNotice(t(`sandbox.share.error.${shareProblemOf(error) ?? 'too-large'}`));
		}
	};

	const onTabKey = (event: KeyboardEvent, index: number) => {
		let next = index;
		if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
		else if (event.key === 'ArrowLeft') next = (index + tabs.length - 1) % tabs.length;
		else if (event.key === 'Home') next = 0;
		else if (event.key === 'End') next = tabs.length - 1;
		else return;
		event.preventDefault();
		openPanel(tabs[next]);
		tabRefs.current[tabs[next]]?.focus();
	};

	const panelProps = (id: PanelId): PanelProps => ({ view, request, t, locale, open: openPanel, has: hasPanel, live, target: targets[id] });
	const showMap = props.panels.includes('map') && ClusterMap !== undefined;
	const MapPanel = ClusterMap;

	if (!live) {
		// The server-rendered picture (and the first render while hydrating): the starting cluster and what the live version does.
		return (
			// Not for search: the picture's pod names and states would come back as sub-results of every chapter with a sandbox.
			<div ref={picture} class={`ca-sbx ca-sbx--static ca-sbx--h-${props.height}`} data-state="static" data-pagefind-ignore="all">
				{/* What the picture is comes before it: without scripts a reader would otherwise scroll past a map of up to 900 px to learn it. */}
				<p class="ca-sbx__nojs">{t('sandbox.static.note')}</p>
				{/* Something a keyboard reaches: focusing it scrolls the sandbox into view, which starts it (hidden where scripts are off). */}
				<button type="button" class="ca-sbx-btn ca-sbx-btn--primary ca-sbx__wake">
					{t('sandbox.static.start')}
				</button>
				{MapPanel && <MapPanel {...panelProps('map')} />}
			</div>
		);
	}

	const state = crash ? 'crashed' : phase === 'ready' ? 'ready' : phase;
	return (
		<div
			ref={root}
			class={`ca-sbx ca-sbx--h-${props.height}${fullscreen !== 'off' ? ' ca-sbx--full' : ''}${fullscreen === 'overlay' ? ' ca-sbx--overlay' : ''}${wide ? ' ca-sbx--wide' : ''}${controlsOpen ? ' ca-sbx--controls-open' : ''}`}
			style={wide ? { '--ca-sbx-extend': `${wide}px` } : undefined}
			data-state={state}
			aria-busy={busy > 0 || phase === 'starting'}
			onKeyDown={(event) => {
				if (event.key === 'Escape' && fullscreen === 'overlay') setFullscreen('off');
			}}
		>
			<div class="ca-sbx__bar" id={`${uid}-bar`}>
				<TimeControls
					view={view}
					request={request}
					t={t}
					more={
						<button type="button" class="ca-sbx-btn ca-sbx__controls-toggle" aria-expanded={controlsOpen} aria-controls={`${uid}-bar`} onClick={() => setControlsOpen((open) => !open)}>
							{t('sandbox.frame.controls')}
						</button>
					}
				/>
				<div class="ca-sbx__actions" role="group" aria-label={t('sandbox.frame.actions')}>
					<span class="ca-sbx__phase" role="status">
						{crash ? '' : phase === 'starting' ? t('sandbox.frame.starting') : busy > 0 ? t('sandbox.frame.working') : ''}
					</span>
					<button type="button" class="ca-sbx-btn" onClick={share}>
						{t('sandbox.frame.share')}
					</button>
					<button type="button" class="ca-sbx-btn" onClick={reset}>
						{t('sandbox.frame.reset')}
					</button>
					<button type="button" class="ca-sbx-btn" aria-pressed={fullscreen !== 'off'} onClick={toggleFullscreen}>
						{fullscreen !== 'off' ? t('sandbox.frame.exitFullscreen') : t('sandbox.frame.fullscreen')}
					</button>
				</div>
			</div>
			<p class="ca-sbx-visually-hidden" role="status">
				{announcement}
			</p>
			{crash && <SandboxFailure t={t} message={crash} onReset={props.restart} />}
			{notice && (
				<p class="ca-sbx__notice" role="status">
					{notice}
				</p>
			)}
			{shareUrl && (
				<div class="ca-sbx__share">
					<label for={`${uid}-share`}>{t('sandbox.share.label')}</label>
					<input id={`${uid}-share`} class="ca-sbx__share-url" type="text" readOnly value={shareUrl} onFocus={(e) => (e.currentTarget as HTMLInputElement).select()} />
					<CopyButton text={shareUrl} t={t} label={t('sandbox.share.copy')} />
					<p class="ca-sbx-note">{t('sandbox.share.note')}</p>
				</div>
			)}
			<div class={`ca-sbx__body${showMap ? '' : ' ca-sbx__body--single'}`}>
				{tabs.length > 0 && (
					<div class="ca-sbx__tabs">
						<div class="ca-sbx__tablist" role="tablist" aria-label={t('sandbox.frame.panels')}>
							{tabs.map((id, index) => (
								<button
									type="button"
									role="tab"
									key={id}
									id={`${uid}-tab-${id}`}
									ref={(el) => {
										tabRefs.current[id] = el;
									}}
									class="ca-sbx__tab"
									aria-selected={active === id}
									aria-controls={`${uid}-panel-${id}`}
									tabIndex={active === id ? 0 : -1}
									onClick={() => openPanel(id)}
									onKeyDown={(event) => onTabKey(event, index)}
								>
									{id === 'tasks' ? t('sandbox.tab.tasksProgress', { done: tasksDone, total: (scenario.tasks ?? []).length }) : t(`sandbox.tab.${id}`)}
								</button>
							))}
						</div>
						{tabs.map((id) => (
							<div
								key={id}
								id={`${uid}-panel-${id}`}
								class={`ca-sbx__panel ca-sbx__panel--${id}`}
								role="tabpanel"
								aria-labelledby={`${uid}-tab-${id}`}
								hidden={active !== id}
								tabIndex={id === 'terminal' ? undefined : 0}
							>
								{opened.includes(id) && (
									<Frozen active={active === id}>
										{id === 'terminal' && <Terminal key={terminalKey} prompt={view.prompt} request={request} t={t} draft={draft} starting={phase !== 'ready'} feed={feed} />}
										{id === 'faults' && <Faults view={view} request={request} t={t} />}
										{id === 'tasks' && (
											<Tasks
												scenarioId={scenario.id}
												tasks={scenario.tasks ?? []}
												view={view}
												t={t}
												locale={locale}
												progress={taskProgress}
												tryCommand={(command) => {
													openPanel('terminal');
													setDraft((d) => ({ text: command, n: d.n + 1 }));
												}}
											/>
										)}
										{id !== 'terminal' && id !== 'faults' && id !== 'tasks' && <LazyPanel {...panelProps(id)} id={id} loading={t('sandbox.frame.loadingPanel')} failed={t('sandbox.frame.panelFailed')} />}
									</Frozen>
								)}
							</div>
						))}
					</div>
				)}
				{/* After the tabs: the terminal comes first on narrow frames, and keyboard order follows what the reader sees. */}
				{showMap && MapPanel && (
					<div class="ca-sbx__map">
						<MapPanel {...panelProps('map')} />
					</div>
				)}
			</div>
		</div>
	);
}

/** Whether the browser asks pages to save data (Save-Data, the Network Information API). */
function savesData(): boolean {
	return (navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData === true;
}

/** Calls `task` once the page is idle (at most two seconds later), where the browser can say so. */
function whenIdle(task: () => void): number {
	if (typeof requestIdleCallback === 'function') return requestIdleCallback(task, { timeout: 2_000 });
	return window.setTimeout(task, 200);
}

function cancelIdle(handle: number): void {
	if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
	else window.clearTimeout(handle);
}
