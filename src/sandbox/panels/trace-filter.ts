/**
 * Filtering and buffering the trace for the timeline panel. The same
 * filter answers the worker's `trace` request, so the panel and the worker
 * agree on what "events of kubelet" means.
 */
import type { TraceEvent } from '@cluster-anatomy/sim-core';

/** What the reader filters the timeline by. Empty strings mean "any". */
export interface TraceFilter {
	/** A component (`kubelet`, `kube-controller-manager`) or one identity (`kubelet/node-1`). */
	component?: string;
	/** Text the event's object must contain (`pods/default/web`, `web-`). */
	object?: string;
}

/**
 * Whether `event` passes `filter`: its component equals the filter or is
 * one of its sub-identities (`kubelet` matches `kubelet/node-1`,
 * `kube-controller-manager` matches `kube-controller-manager/deployment-controller`),
 * and its object contains the object text (case-insensitive).
 */
export function matchesTraceFilter(event: Pick<TraceEvent, 'component' | 'object'>, filter: TraceFilter): boolean {
	const component = filter.component?.trim();
	if (component && event.component !== component && !event.component.startsWith(`${component}/`)) return false;
	const object = filter.object?.trim().toLowerCase();
	if (object && !(event.object ?? '').toLowerCase().includes(object)) return false;
	return true;
}

/**
 * The choices of the component filter for a set of events: every
 * component family (`kubelet`) followed by its identities (`kubelet/node-1`),
 * in a stable order (control plane first, then alphabetical).
 */
export function componentChoices(components: Iterable<string>): string[] {
	const families = new Map<string, Set<string>>();
	for (const c of components) {
		const family = c.split('/')[0];
		let set = families.get(family);
		if (!set) families.set(family, (set = new Set()));
		if (c !== family) set.add(c);
	}
	const order = ['kubectl', 'kube-apiserver', 'etcd', 'kube-controller-manager', 'kube-scheduler', 'kubelet', 'container-runtime', 'kube-proxy'];
	const rank = (f: string) => (order.includes(f) ? order.indexOf(f) : order.length);
	const out: string[] = [];
	for (const family of [...families.keys()].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))) {
		out.push(family);
		out.push(...[...families.get(family)!].sort());
	}
	return out;
}

/**
 * Appends newly fetched events to the timeline's buffer: only events newer
 * than the last one held (answers may overlap), keeping the newest
 * `capacity`. (After time travel the panel starts a new buffer.)
 */
export function appendEvents(buffer: readonly TraceEvent[], incoming: readonly TraceEvent[], capacity: number): TraceEvent[] {
	const last = buffer.length ? buffer[buffer.length - 1].seq : -1;
	const fresh = incoming.filter((e) => e.seq > last);
	if (fresh.length === 0) return buffer as TraceEvent[];
	const next = buffer.concat(fresh);
	return next.length > capacity ? next.slice(next.length - capacity) : next;
}

/** Formats virtual time (ms since the cluster started) as `m:ss.mmm` (or `h:mm:ss.mmm`). */
export function formatClock(ms: number): string {
	const total = Math.max(0, Math.floor(ms));
	const millis = total % 1000;
	const seconds = Math.floor(total / 1000) % 60;
	const minutes = Math.floor(total / 60_000) % 60;
	const hours = Math.floor(total / 3_600_000);
	const mm = hours > 0 ? String(minutes).padStart(2, '0') : String(minutes);
	return `${hours > 0 ? `${hours}:` : ''}${mm}:${String(seconds).padStart(2, '0')}.${String(millis).padStart(3, '0')}`;
}
