/**
 * "The story of a request": turns the trace events that share one origin
 * (everything one reader command caused) into a sequence diagram model —
 * lanes (participants) and steps (arrows between lanes, notes on a lane) —
 * and lays it out for an SVG. Pure data in, pure data out; the Story panel
 * only draws what this returns.
 */
import type { TraceEvent } from '@cluster-anatomy/sim-core';
import type { StoryChoice } from '../protocol.ts';

export type { StoryChoice } from '../protocol.ts';

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
	// A note's label runs to the right of its lane: on the last lane, the diagram widens so that it is not cut off (about 6.5 units a character at 11 px).
	const last = story.lanes.length - 1;
	const overhang = Math.max(0, ...story.steps.map((s) => (s.kind === 'note' && s.lane === last ? Math.ceil(9 + s.label.length * 6.5 - laneWidth / 2) : 0)));
	return {
		width: gutter + laneWidth * Math.max(1, story.lanes.length) + 8 + overhang,
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

// ---- the station summary ------------------------------------------------------------

/**
 * The stations of the road a request travels, in the order the summary lists
 * them; anything else that took part (CoreDNS, metrics-server…) follows,
 * alphabetically.
 */
export const STATION_ORDER = ['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'cloud-controller-manager', 'kube-scheduler', 'kubelet', 'container-runtime', 'kube-proxy'];

/**
 * The station an event happened at: a write the API server sends to etcd
 * (`put`, `delete`) happens in etcd; everything else at the component that
 * acted, without its node or sub-identity (`kubelet/node-1` → `kubelet`,
 * `kube-controller-manager/deployment-controller` → `kube-controller-manager`).
 */
export function stationOf(event: Pick<TraceEvent, 'component' | 'peer' | 'action'>): string {
	if (event.peer === 'etcd' && (event.action === 'put' || event.action === 'delete')) return 'etcd';
	const slash = event.component.indexOf('/');
	return slash < 0 ? event.component : event.component.slice(0, slash);
}

function stationRank(id: string): number {
	const i = STATION_ORDER.indexOf(id);
	return i < 0 ? STATION_ORDER.length : i;
}

/** One thing a station did, as a UI string key and its values; `parts` are listed inside it (`{actions}`). */
export interface StationFact {
	key: string;
	values: Record<string, string | number>;
	parts?: StationFact[];
}

/** One row of the summary: what happened at one station because of the command. */
export interface StationSummary {
	id: string;
	/** Steps at this station (the compact view's, unless every step is asked for). */
	steps: number;
	firstMs: number;
	lastMs: number;
	/** The nodes a per-node station acted on (`kubelet` on node-1 and node-2). */
	nodes: string[];
	/** What happened, in a few facts (rendered as one line). */
	facts: StationFact[];
	/** The station's events, in trace order. */
	events: TraceEvent[];
}

/** Picks the key of a counted string: `one` for 1, `other` otherwise. Both keys are written out where this is called, so the catalogue test sees them. */
export function counted(one: string, other: string, count: number): string {
	return count === 1 ? one : other;
}

/** `pods (3)` for several, `deployments/web` for one: objects as a reader names them, from etcd keys or object paths. */
function objectList(objects: readonly string[], max = 4): string {
	const byResource = new Map<string, Set<string>>();
	for (const o of objects) {
		const parts = o.replace(/^\/registry\//, '').split('/');
		const resource = parts[0];
		const name = parts[parts.length - 1];
		let set = byResource.get(resource);
		if (!set) byResource.set(resource, (set = new Set()));
		set.add(name);
	}
	const out: string[] = [];
	for (const [resource, names] of byResource) out.push(names.size === 1 ? `${resource}/${[...names][0]}` : `${resource} (${names.size})`);
	return out.length > max ? `${out.slice(0, max).join(', ')}, …` : out.join(', ');
}

/** `node-1 ×1, node-2 ×2`. */
function tally(values: readonly string[]): string {
	const counts = new Map<string, number>();
	for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
	return [...counts]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([v, n]) => `${v} ×${n}`)
		.join(', ');
}

const isEventObject = (o: string) => /^(\/registry\/)?events(\/|$)/.test(o);

/** The node of a per-node identity (`kubelet/node-1` → `node-1`). */
function nodeOf(component: string): string | undefined {
	const slash = component.indexOf('/');
	return slash >= 0 && PER_NODE.has(component.slice(0, slash)) ? component.slice(slash + 1) : undefined;
}

/** The API request of an event's message (`POST /api/v1/namespaces/default/pods`), as method and the path kubectl users read (`pods`). */
function apiRequestOf(msg: string): { method: string; path: string } | undefined {
	const m = /^(GET|POST|PUT|PATCH|DELETE) (\S+)/.exec(msg);
	return m ? { method: m[1], path: shortenApiText(m[2]).replace(/^\//, '') } : undefined;
}

/** What a controller asked the API server to do: created, updated, deleted (by resource), read. */
function requestParts(events: readonly TraceEvent[]): StationFact[] {
	const created: string[] = [];
	const updated: string[] = [];
	const deleted: string[] = [];
	let reads = 0;
	for (const e of events) {
		if (e.action !== 'request') continue;
		const r = apiRequestOf(e.msg);
		if (!r || isEventObject(r.path)) continue;
		if (r.method === 'POST') created.push(r.path.split('/').length >= 3 ? r.path.replace(/^([^/]+)\/[^/]+\/(.+)$/, '$1/$2') : r.path);
		else if (r.method === 'PUT' || r.method === 'PATCH') updated.push(r.path);
		else if (r.method === 'DELETE') deleted.push(r.path);
		else reads++;
	}
	const parts: StationFact[] = [];
	if (created.length) parts.push({ key: 'sandbox.story.fact.created', values: { what: tally(created) } });
	if (updated.length) parts.push({ key: 'sandbox.story.fact.updated', values: { what: tally(updated) } });
	if (deleted.length) parts.push({ key: 'sandbox.story.fact.deleted', values: { what: tally(deleted) } });
	if (reads) parts.push({ key: counted('sandbox.story.fact.read.one', 'sandbox.story.fact.read.other', reads), values: { count: reads } });
	return parts;
}

/** The name a controller goes by: its sub-identity (`deployment-controller`), or its loop's name (`deployment` → `deployment-controller`). */
function controllerName(e: TraceEvent): string {
	const sub = subIdentityOf(e.component);
	if (sub) return sub;
	if (e.sub) return e.sub.endsWith('-controller') ? e.sub : `${e.sub}-controller`;
	return e.component;
}

/** What happened at a station, as facts. `story` is every event of the command (the API server's row names what etcd stored). */
function stationFacts(id: string, own: readonly TraceEvent[], story: readonly TraceEvent[]): StationFact[] {
	const facts: StationFact[] = [];
	const count = (action: string) => own.filter((e) => e.action === action).length;
	switch (id) {
		case 'kubectl': {
			const sent = own.filter((e) => e.action === 'request').map((e) => shortenApiText(e.msg));
			const codes = story.filter((e) => e.action === 'response' && e.peer === 'kubectl').map((e) => e.msg.split(' ')[0]);
			if (sent.length)
				facts.push({
					key: counted('sandbox.story.fact.kubectl.one', 'sandbox.story.fact.kubectl.other', sent.length),
					values: { count: sent.length, requests: tally(sent).replace(/ ×1(?=,|$)/g, ''), codes: codes.length ? tally(codes).replace(/ ×1(?=,|$)/g, '') : '—' },
				});
			break;
		}
		case 'kube-apiserver': {
			const answered = count('response');
			if (answered) facts.push({ key: counted('sandbox.story.fact.answered.one', 'sandbox.story.fact.answered.other', answered), values: { count: answered } });
			const stored = story.filter((e) => e.peer === 'etcd' && e.action === 'put' && e.object && !isEventObject(e.object)).map((e) => e.object!);
			if (stored.length) facts.push({ key: 'sandbox.story.fact.admitted', values: { objects: objectList(stored) } });
			const bound = count('bind');
			if (bound) facts.push({ key: counted('sandbox.story.fact.binding.one', 'sandbox.story.fact.binding.other', bound), values: { count: bound } });
			const watches = count('watch-event');
			if (watches) facts.push({ key: counted('sandbox.story.fact.watch.one', 'sandbox.story.fact.watch.other', watches), values: { count: watches } });
			break;
		}
		case 'etcd': {
			const puts = own.filter((e) => e.action === 'put');
			const revisions = puts.map((e) => e.rv).filter((rv): rv is number => rv !== undefined);
			if (puts.length) {
				const from = Math.min(...revisions);
				const to = Math.max(...revisions);
				facts.push({
					key: counted('sandbox.story.fact.etcdWrote.one', 'sandbox.story.fact.etcdWrote.other', puts.length),
					values: { count: puts.length, from: Number.isFinite(from) ? from : '?', to: Number.isFinite(to) ? to : '?' },
				});
			}
			const deletes = count('delete');
			if (deletes) facts.push({ key: counted('sandbox.story.fact.etcdDeleted.one', 'sandbox.story.fact.etcdDeleted.other', deletes), values: { count: deletes } });
			break;
		}
		case 'kube-controller-manager':
		case 'cloud-controller-manager': {
			const byController = new Map<string, TraceEvent[]>();
			for (const e of own) {
				const name = controllerName(e);
				let list = byController.get(name);
				if (!list) byController.set(name, (list = []));
				list.push(e);
			}
			for (const [name, events] of byController) {
				const parts = requestParts(events);
				if (parts.length === 0) {
					const syncs = events.filter((e) => e.action === 'reconcile').length;
					parts.push({ key: counted('sandbox.story.fact.synced.one', 'sandbox.story.fact.synced.other', syncs), values: { count: syncs } });
				}
				facts.push({ key: 'sandbox.story.fact.controller', values: { name }, parts });
			}
			break;
		}
		case 'kube-scheduler': {
			const nodes = own.filter((e) => e.action === 'bind' && !e.peer?.startsWith('etcd')).map((e) => / to (\S+)$/.exec(e.msg)?.[1] ?? '?');
			const bound = new Set(own.filter((e) => e.action === 'bind').map((e) => e.object));
			if (nodes.length) facts.push({ key: counted('sandbox.story.fact.bound.one', 'sandbox.story.fact.bound.other', nodes.length), values: { count: nodes.length, nodes: tally(nodes) } });
			const waiting = new Set(own.filter((e) => e.action === 'schedule' && !bound.has(e.object)).map((e) => e.object)).size;
			if (waiting) facts.push({ key: counted('sandbox.story.fact.unplaced.one', 'sandbox.story.fact.unplaced.other', waiting), values: { count: waiting } });
			break;
		}
		case 'kubelet': {
			const admitted = count('admit');
			if (admitted) facts.push({ key: counted('sandbox.story.fact.kubeletAdmitted.one', 'sandbox.story.fact.kubeletAdmitted.other', admitted), values: { count: admitted } });
			const last = new Map<string, string>();
			for (const e of own) if (e.action === 'status' && e.object) last.set(e.object, /pod status: (\S+)/.exec(e.msg)?.[1] ?? e.msg);
			if (last.size) facts.push({ key: 'sandbox.story.fact.reported', values: { statuses: tally([...last.values()]) } });
			break;
		}
		case 'container-runtime': {
			const pulls = count('pull');
			if (pulls) facts.push({ key: counted('sandbox.story.fact.pulled.one', 'sandbox.story.fact.pulled.other', pulls), values: { count: pulls } });
			const sandboxes = count('sandbox');
			if (sandboxes) facts.push({ key: counted('sandbox.story.fact.sandboxes.one', 'sandbox.story.fact.sandboxes.other', sandboxes), values: { count: sandboxes } });
			const starts = count('start');
			if (starts) facts.push({ key: counted('sandbox.story.fact.started.one', 'sandbox.story.fact.started.other', starts), values: { count: starts } });
			const exits = count('exit');
			if (exits) facts.push({ key: counted('sandbox.story.fact.exited.one', 'sandbox.story.fact.exited.other', exits), values: { count: exits } });
			break;
		}
	}
	if (facts.length === 0 && own.length) {
		// Anything else: what it did, by action (`sync ×3, request ×1`).
		facts.push({ key: 'sandbox.story.fact.did', values: { actions: tally(own.map((e) => e.action)) } });
	}
	return facts;
}

/**
 * The summary of one command's story, one row per station in road order:
 * how many steps happened there, the first and last virtual time, and what
 * happened, with the station's events for its expanded row. Steps follow
 * the same filter as the diagram (`all`: every step).
 */
export function summarizeStations(events: readonly TraceEvent[], options: Pick<StoryOptions, 'all'> = {}): StationSummary[] {
	const kept = options.all ? events : events.filter((e) => !isDetailStep(e));
	const byStation = new Map<string, TraceEvent[]>();
	for (const e of kept) {
		const id = stationOf(e);
		let list = byStation.get(id);
		if (!list) byStation.set(id, (list = []));
		list.push(e);
	}
	return [...byStation]
		.sort(([a], [b]) => stationRank(a) - stationRank(b) || a.localeCompare(b))
		.map(([id, own]) => ({
			id,
			steps: own.length,
			firstMs: own[0].atMs,
			lastMs: own[own.length - 1].atMs,
			nodes: [...new Set(own.map((e) => nodeOf(e.component)).filter((n): n is string => n !== undefined))].sort(),
			facts: stationFacts(id, own, events),
			events: own,
		}));
}

/** Whether a command changed anything: some step of its story wrote to etcd. */
export function storyWrites(events: readonly Pick<TraceEvent, 'peer' | 'action'>[]): boolean {
	return events.some((e) => e.peer === 'etcd' && (e.action === 'put' || e.action === 'delete'));
}

/**
 * The commands a story can be told of, newest first, from the session's
 * recent commands and the trace: each with when it ran and whether it wrote.
 * One pass over the trace.
 */
export function storyChoices(commands: readonly { line: string; index: number }[], trace: readonly TraceEvent[]): StoryChoice[] {
	const wanted = new Map(commands.map((c) => [`input:${c.index}`, c]));
	const first = new Map<string, number>();
	const writes = new Set<string>();
	for (const e of trace) {
		if (!wanted.has(e.origin)) continue;
		if (!first.has(e.origin)) first.set(e.origin, e.atMs);
		if (e.peer === 'etcd' && (e.action === 'put' || e.action === 'delete')) writes.add(e.origin);
	}
	return [...commands]
		.reverse()
		.map((c) => {
			const origin = `input:${c.index}`;
			return { origin, line: c.line, atMs: first.get(origin) ?? -1, writes: writes.has(origin) };
		});
}

/**
 * The story to show: the one the reader chose while it is still known,
 * else the newest command that changed something (a read such as `kubectl
 * get pods` does not push it aside), else the newest command.
 */
export function defaultStory(choices: readonly StoryChoice[], chosen?: string): StoryChoice | undefined {
	if (chosen !== undefined) {
		const found = choices.find((c) => c.origin === chosen);
		if (found) return found;
	}
	return choices.find((c) => c.writes) ?? choices[0];
}
