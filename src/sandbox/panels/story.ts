/**
 * "The story of a request": turns the trace events that share one origin
 * (everything one reader command caused) into a sequence diagram model —
 * lanes (participants) and steps (arrows between lanes, notes on a lane) —
 * and lays it out for an SVG. Pure data in, pure data out; the Story panel
 * only draws what this returns.
 */
import type { TraceEvent } from '@cluster-anatomy/sim-core';

/** One participant of the diagram: a component, or one node's kubelet / runtime / kube-proxy. */
export interface StoryLane {
	/** The trace identity the lane stands for (`kube-apiserver`, `kubelet/node-1`). */
	id: string;
	/** First line of the header (`kubelet`). */
	label: string;
	/** Second line of the header, for per-node components (`node-1`). */
	sublabel?: string;
}

interface StepBase {
	seq: number;
	atMs: number;
	/** Short text drawn on the diagram. */
	label: string;
	/** The whole sentence, for the text list and tooltips. */
	detail: string;
	/** Who acted, as the trace names it (`kube-controller-manager/deployment-controller`). */
	actor: string;
	/** How the step is drawn: a request, its response, a watch notification, or anything else. */
	style: 'request' | 'response' | 'watch' | 'other';
}

/** A message from one lane to another (a trace event with a peer). */
export interface StoryArrow extends StepBase {
	kind: 'arrow';
	from: number;
	to: number;
}

/** Something a component did on its own (a trace event without a peer). */
export interface StoryNote extends StepBase {
	kind: 'note';
	lane: number;
}

export type StoryStep = StoryArrow | StoryNote;

export interface Story {
	lanes: StoryLane[];
	steps: StoryStep[];
	/** Steps beyond `maxSteps`, not drawn. */
	omitted: number;
	/** Steps left out by the compact view (authentication, admission, Event writes). */
	hidden: number;
}

export interface StoryOptions {
	/** Keep every step (default false: the API server's internal checks and Event writes are left out). */
	all?: boolean;
	/** At most this many steps (default 300). */
	maxSteps?: number;
}

/** Components that run once per node: each node's copy gets its own lane. */
const PER_NODE = new Set(['kubelet', 'container-runtime', 'kube-proxy']);
/** The order lanes appear in, left to right (per-node lanes follow, node by node). */
const LANE_ORDER = ['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'cloud-controller-manager', 'kube-scheduler'];
const NODE_LANE_ORDER = ['kubelet', 'container-runtime', 'kube-proxy'];
/** kube-apiserver's own steps inside one request, drawn only in the full view. */
const PIPELINE_STEPS = new Set(['authenticate', 'authorize', 'admit', 'validate']);

/**
 * The lane of a trace identity: per-node components keep their node
 * (`kubelet/node-1`); other components drop their sub-identity
 * (`kube-controller-manager/deployment-controller` → `kube-controller-manager`).
 */
export function laneIdOf(component: string): string {
	const slash = component.indexOf('/');
	if (slash < 0) return component;
	const family = component.slice(0, slash);
	return PER_NODE.has(family) ? component : family;
}

/** The sub-identity a lane id leaves out (`deployment-controller`), if any. */
export function subIdentityOf(component: string): string | undefined {
	const lane = laneIdOf(component);
	return lane === component ? undefined : component.slice(lane.length + 1);
}

function laneOf(id: string): StoryLane {
	const slash = id.indexOf('/');
	return slash < 0 ? { id, label: id } : { id, label: id.slice(0, slash), sublabel: id.slice(slash + 1) };
}

/** Sort key of a lane: the fixed control-plane order, then node by node (kubelet, runtime, kube-proxy), then the rest. */
function laneRank(id: string): [number, string, number] {
	const fixed = LANE_ORDER.indexOf(id);
	if (fixed >= 0) return [fixed, '', 0];
	const slash = id.indexOf('/');
	if (slash >= 0 && PER_NODE.has(id.slice(0, slash))) return [LANE_ORDER.length, id.slice(slash + 1), NODE_LANE_ORDER.indexOf(id.slice(0, slash))];
	return [LANE_ORDER.length + 1, id, 0];
}

function compareLanes(a: string, b: string): number {
	const [ra, na, ia] = laneRank(a);
	const [rb, nb, ib] = laneRank(b);
	return ra - rb || na.localeCompare(nb) || ia - ib;
}

/**
 * Shortens an API path for a diagram label:
 * `POST /apis/apps/v1/namespaces/default/deployments` → `POST deployments`,
 * `PUT /api/v1/namespaces/default/pods/web-1/status` → `PUT pods/web-1/status`.
 */
export function shortenApiText(text: string): string {
	return text
		.replace(/\/apis?\/(?:[a-z0-9.-]+\/)?v[0-9a-z]+\/(?:namespaces\/[^/\s]+\/)?/g, '')
		.replace(/\/registry\//g, '')
		.replace(/^txn /, '');
}

/** Whether a step is one the compact view leaves out: the API server's internal checks, and writes of Event objects. */
export function isDetailStep(event: TraceEvent): boolean {
	if (event.component === 'kube-apiserver' && PIPELINE_STEPS.has(event.action)) return true;
	const object = event.object ?? '';
	if (object === 'events' || object.startsWith('events/') || object.startsWith('/registry/events/')) return true;
	if (event.action === 'response' && /\/events(\/|\s|$)/.test(event.msg)) return true;
	return false;
}

function truncate(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** The short text drawn for one event. */
export function stepLabel(event: TraceEvent): string {
	const sub = subIdentityOf(event.component) ?? event.sub;
	const prefix = sub ? `${sub}: ` : '';
	let text: string;
	switch (event.action) {
		case 'request':
			text = shortenApiText(event.msg);
			break;
		case 'response':
			text = event.msg.split(' ')[0];
			break;
		case 'put':
			text = `${shortenApiText(event.msg).replace(/ at revision (\d+)$/, ' @$1')}`;
			break;
		case 'watch-event': {
			const verb = event.msg.split(' ')[0];
			const name = event.object ? event.object.split('/').pop() : '';
			text = `watch: ${verb} ${name}`;
			break;
		}
		default:
			text = event.peer ? event.msg : `${event.action}: ${event.msg}`;
	}
	return truncate(prefix + text, 48);
}

function styleOf(action: string): StepBase['style'] {
	if (action === 'request' || action === 'put' || action === 'bind') return 'request';
	if (action === 'response') return 'response';
	if (action === 'watch-event') return 'watch';
	return 'other';
}

/**
 * Builds the diagram of one story from its events (in trace order). Lanes
 * are the components that act or are spoken to; an event with a peer is an
 * arrow, one without is a note on its own lane.
 */
export function buildStory(events: readonly TraceEvent[], options: StoryOptions = {}): Story {
	const maxSteps = options.maxSteps ?? 300;
	const kept: TraceEvent[] = [];
	let hidden = 0;
	for (const e of events) {
		if (!options.all && isDetailStep(e)) hidden++;
		else kept.push(e);
	}
	const drawn = kept.slice(0, maxSteps);
	const ids = new Set<string>();
	for (const e of drawn) {
		ids.add(laneIdOf(e.component));
		if (e.peer) ids.add(laneIdOf(e.peer));
	}
	const laneIds = [...ids].sort(compareLanes);
	const index = new Map(laneIds.map((id, i) => [id, i]));
	const steps: StoryStep[] = drawn.map((e) => {
		const base = { seq: e.seq, atMs: e.atMs, label: stepLabel(e), detail: e.msg, actor: e.component, style: styleOf(e.action) };
		const from = index.get(laneIdOf(e.component))!;
		if (e.peer) {
			const to = index.get(laneIdOf(e.peer))!;
			if (to !== from) return { kind: 'arrow', from, to, ...base };
		}
		return { kind: 'note', lane: from, ...base };
	});
	return { lanes: laneIds.map(laneOf), steps, omitted: kept.length - drawn.length, hidden };
}

/** Geometry of the diagram, in SVG user units. */
export interface StoryLayout {
	width: number;
	/** Height of the lane headers' strip. */
	headerHeight: number;
	/** Height of the body (lifelines and steps), below the headers. */
	bodyHeight: number;
	/** Centre x of each lane. */
	laneX: number[];
	/** y of each step's arrow or note, in the body. */
	stepY: number[];
	laneWidth: number;
	/** Width of the time column on the left. */
	gutter: number;
}

/** Places lanes side by side (after a time column) and steps one under another. */
export function layoutStory(story: Story, metrics: { laneWidth?: number; rowHeight?: number; headerHeight?: number; gutter?: number } = {}): StoryLayout {
	const laneWidth = metrics.laneWidth ?? 160;
	const rowHeight = metrics.rowHeight ?? 28;
	const headerHeight = metrics.headerHeight ?? 48;
	const gutter = metrics.gutter ?? 64;
	const laneX = story.lanes.map((_, i) => gutter + laneWidth * i + laneWidth / 2);
	const stepY = story.steps.map((_, i) => rowHeight * (i + 1));
	return {
		width: gutter + laneWidth * Math.max(1, story.lanes.length) + 8,
		headerHeight,
		bodyHeight: rowHeight * (story.steps.length + 1),
		laneX,
		stepY,
		laneWidth,
		gutter,
	};
}

/** Time since the story began, for the time column: `+0 ms`, `+12 ms`, `+4.1 s`, `+2 min 5 s`. */
export function formatOffset(ms: number): string {
	if (ms < 1000) return `+${ms} ms`;
	if (ms < 60_000) return `+${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
	const minutes = Math.floor(ms / 60_000);
	const seconds = Math.round((ms % 60_000) / 1000);
	return `+${minutes} min${seconds ? ` ${seconds} s` : ''}`;
}
