/**
 * Builds the `ClusterView` the sandbox draws from a running cluster: a pure
 * projection over sim-core's public, read-only API (`nodeViews`, `podViews`,
 * `components`, `trace`, `prompt`, `checkAll`). Nothing here changes the
 * cluster, records an input or writes to the trace, so a view can be built
 * as often as the screen wants one, in the worker while the reader plays and
 * at build time for the server-rendered starting picture.
 *
 * The nodes and Pods come structured from sim-core (cluster/map-view.ts),
 * their STATUS and READY from kubectl's own pod printer, so the map says
 * exactly what `kubectl get pods` says; this module only adds what the
 * session knows (playing, speed, the span of time travel, the tasks).
 */
import { checkAll, type Cluster, type Scenario, type TraceEvent } from '@cluster-anatomy/sim-core';
import type { ClusterView, ComponentView, MessageView, Speed, TaskView } from './protocol.ts';

/** What the session adds to the cluster's own state. */
export interface ViewContext {
	playing: boolean;
	speed: Speed;
	/** The earliest instant the reader can travel back to (the scenario's start). */
	earliestMs: number;
	/** The latest instant the session reached (greater than now after travelling back). */
	latestMs: number;
	tasks?: Scenario['tasks'];
	later?: ClusterView['later'];
	setAside?: ClusterView['setAside'];
}

/** How many of the newest messages the map receives. */
export const MESSAGES_MAX = 40;
/** How far back (trace events) the view looks for messages. */
const MESSAGE_SCAN_MAX = 400;

/** A process id as the map names components: controllers fold into kube-controller-manager; node processes keep their node. */
export function componentOf(processId: string): string {
	return processId.startsWith('kube-controller-manager/') ? 'kube-controller-manager' : processId;
}

function messages(events: TraceEvent[]): MessageView[] {
	const out: MessageView[] = [];
	for (let i = events.length - 1; i >= 0 && out.length < MESSAGES_MAX && events.length - i <= MESSAGE_SCAN_MAX; i--) {
		const e = events[i];
		if (!e.peer) continue;
		const from = componentOf(e.component);
		const to = componentOf(e.peer);
		if (from === to) continue;
		out.push({ seq: e.seq, atMs: e.atMs, from, to, label: e.object ? `${e.action} ${e.object}` : e.action });
	}
	return out.reverse();
}

function taskViews(cluster: Cluster, tasks: Scenario['tasks']): TaskView[] {
	return (tasks ?? []).map((task) => {
		const outcome = checkAll(cluster, task.checks);
		return { id: task.id, done: outcome.ok, checks: outcome.results.map((r) => ({ ok: r.ok, found: r.found })) };
	});
}

/** Everything the island draws, read from the cluster as it is now. */
export function buildView(cluster: Cluster, context: ViewContext): ClusterView {
	const components: ComponentView[] = cluster.components().map((c) => ({ ...c }));
	const events = cluster.trace({});
	return {
		nowMs: cluster.now(),
		wallMs: cluster.wallMs(),
		playing: context.playing,
		speed: context.speed,
		prompt: cluster.prompt(),
		components,
		nodes: cluster.nodeViews(),
		pods: cluster.podViews(),
		messages: messages(events),
		tasks: taskViews(cluster, context.tasks),
		lastSeq: events.length ? events[events.length - 1].seq : -1,
		earliestMs: context.earliestMs,
		latestMs: Math.max(context.latestMs, cluster.now()),
		...(context.later && { later: context.later }),
		...(context.setAside && { setAside: context.setAside }),
	};
}
