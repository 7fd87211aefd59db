/**
 * The events.k8s.io/v1 event recorder (client-go's tools/events), which
 * kube-scheduler's profiles and kube-proxy record with: each event names its reporting
 * controller (the profile's schedulerName) and instance
 * (`<controller>-<hostname>`), an action, the object it is about
 * (`regarding`, a reference that includes the object's resourceVersion)
 * and optionally a `related` one, and carries an eventTime instead of the
 * legacy first/last timestamps and count.
 *
 * Repeats aggregate into a series, the way the broadcaster does it: an
 * event isomorphic to a cached one (same type, action, reason, reporting
 * controller and instance, regarding and related, whatever its note) does
 * not create a new object. The first repeat patches `series` (count 2, the
 * time observed) onto the event; later repeats only count in memory, and
 * the series is written every 30 minutes (refreshExistingEventSeries) and
 * once more when it has been quiet for 6 minutes (finishSeries), which also
 * forgets singleton events older than that. The note stays the first
 * one's. As the regarding reference includes the resourceVersion, a Pod
 * whose status was patched between two attempts gets a new event object.
 *
 * The owner calls refreshSeries() every REFRESH_MS and finishSeries() every
 * FINISH_MS, as StartRecordingToSinkWithContext's two loops do (kube-proxy,
 * which records only at start, runs neither: nothing of it would show).
 *
 * Difference from upstream, on purpose: the events are written through
 * core/v1 in the shape the API server stores an events.k8s.io/v1 Event
 * (note as message, regarding as involvedObject, reportingController as
 * reportingComponent, empty source, no first/last timestamp or count),
 * since the simulated API server does not convert between the two groups.
 * What kubectl prints is the same.
 *
 * Mirrors staging/src/k8s.io/client-go/tools/events/event_broadcaster.go
 * (recordToSink, recordEvent, createPatchBytesForSeries, getKey,
 * refreshExistingEventSeries, finishSeries),
 * staging/src/k8s.io/client-go/tools/events/event_recorder.go (makeEvent).
 */
import type { CoreEvent, KubeObject } from '../api/types.ts';
import { formatRfc3339Micro } from '../golang/time.ts';
import type { Kernel } from '../sim/kernel.ts';
import { R, type ApiClient } from './client.ts';

/** refreshTime: every series is written again this often. */
export const REFRESH_MS = 30 * 60_000;
/** finishTime: a series quiet this long is finished; a singleton this old is forgotten. */
export const FINISH_MS = 6 * 60_000;
/** Bound on the cache (client-go's is unbounded but swept every 6 minutes). */
const CACHE_MAX = 512;

/** An ObjectReference as reference.GetReference builds it. */
interface ObjectReference {
	kind?: string;
	namespace?: string;
	name?: string;
	uid?: string;
	apiVersion?: string;
	resourceVersion?: string;
}

/** One cached event: the event as first written, when it happened, its series. */
interface CachedEvent {
	event: CoreEvent;
	eventTimeMs: number;
	series?: { count: number; lastObservedMs: number };
}

export interface EventsV1RecorderState {
	/** eventCache: isomorphic key -> the event as last recorded. */
	cache: Record<string, CachedEvent>;
	/** Keys in insertion order (for the bound). */
	order: string[];
	/** Disambiguates events created in the same virtual millisecond. */
	serial: number;
}

export function emptyEventsV1Recorder(): EventsV1RecorderState {
	return { cache: {}, order: [], serial: 0 };
}

function referenceOf(obj: KubeObject): ObjectReference {
	const meta = obj.metadata;
	const ref: ObjectReference = { kind: obj.kind, namespace: meta.namespace, name: meta.name, uid: meta.uid, apiVersion: obj.apiVersion };
	if (meta.resourceVersion) ref.resourceVersion = meta.resourceVersion;
	return ref;
}

/** The reference fields in a fixed order (the key compares them as values). */
function refKey(ref: ObjectReference | undefined): string {
	if (!ref) return '';
	return [ref.kind, ref.namespace, ref.name, ref.uid, ref.apiVersion, ref.resourceVersion].map((v) => v ?? '').join('\u0001');
}

export class EventsV1Recorder {
	constructor(
		private readonly kernel: Kernel,
		private readonly client: ApiClient,
		/** reportingController: the component (for the scheduler, the profile's schedulerName). */
		readonly reportingController: string,
		/** reportingInstance: `<reportingController>-<hostname>`. */
		readonly reportingInstance: string,
		private readonly state: () => EventsV1RecorderState,
	) {}

	/** Eventf(regarding, related, type, reason, action, note). */
	eventf(regarding: KubeObject, related: KubeObject | undefined, type: 'Normal' | 'Warning', reason: string, action: string, note: string): void {
		const s = this.state();
		const regardingRef = referenceOf(regarding);
		const relatedRef = related ? referenceOf(related) : undefined;
		const key = [type, action, reason, this.reportingController, this.reportingInstance, refKey(regardingRef), refKey(relatedRef)].join('\u0000');
		const nowMs = this.kernel.wallMs();
		const cached = s.cache[key];
		if (cached) {
			if (cached.series) {
				// Counted in memory only: written at the next refresh or when the series finishes.
				cached.series.count++;
				cached.series.lastObservedMs = nowMs;
				return;
			}
			cached.series = { count: 2, lastObservedMs: nowMs };
			this.writeSeries(cached);
			return;
		}
		const nanos = BigInt(nowMs) * 1_000_000n + BigInt(s.serial++ % 1_000_000);
		const namespace = regardingRef.namespace || 'default';
		const name = `${regardingRef.name ?? ''}.${nanos.toString(16)}`;
		const event = this.makeEvent(name, namespace, nowMs, regardingRef, relatedRef, type, reason, action, note);
		const created = this.client.create(R.events, namespace, event);
		if (!created.ok) return;
		s.cache[key] = { event, eventTimeMs: nowMs };
		s.order.push(key);
		while (s.order.length > CACHE_MAX) delete s.cache[s.order.shift()!];
	}

	/** refreshExistingEventSeries: write every series' count and time again. */
	refreshSeries(): void {
		const s = this.state();
		for (const key of s.order) {
			const cached = s.cache[key];
			if (cached?.series) this.writeSeries(cached);
		}
	}

	/** finishSeries: a series quiet for 6 minutes gets its final write and is forgotten; so is a singleton that old. */
	finishSeries(): void {
		const s = this.state();
		const cutoff = this.kernel.wallMs() - FINISH_MS;
		const kept: string[] = [];
		for (const key of s.order) {
			const cached = s.cache[key];
			if (!cached) continue;
			if (cached.series ? cached.series.lastObservedMs < cutoff : cached.eventTimeMs < cutoff) {
				if (cached.series) this.writeSeries(cached);
				delete s.cache[key];
				continue;
			}
			kept.push(key);
		}
		s.order = kept;
	}

	/** recordEvent for a series: a patch of `series` alone (createPatchBytesForSeries), or the whole event again when it is gone. */
	private writeSeries(cached: CachedEvent): void {
		const series = { count: cached.series!.count, lastObservedTime: formatRfc3339Micro(cached.series!.lastObservedMs) };
		const { name = '', namespace = 'default' } = cached.event.metadata;
		const patched = this.client.patch(R.events, namespace, name, { series }, 'application/strategic-merge-patch+json');
		if (patched.ok || patched.code !== 404) return;
		this.client.create(R.events, namespace, { ...cached.event, series });
	}

	/** makeEvent, as the API server stores it (core/v1 field names). */
	private makeEvent(name: string, namespace: string, eventTimeMs: number, regarding: ObjectReference, related: ObjectReference | undefined, type: 'Normal' | 'Warning', reason: string, action: string, note: string): CoreEvent {
		const event: CoreEvent = {
			apiVersion: 'v1',
			kind: 'Event',
			metadata: { name, namespace },
			involvedObject: regarding,
			reason,
			message: note,
			source: {},
			firstTimestamp: null,
			lastTimestamp: null,
			type,
			eventTime: formatRfc3339Micro(eventTimeMs),
			action,
			reportingComponent: this.reportingController,
			reportingInstance: this.reportingInstance,
		};
		if (related) event.related = related;
		return event;
	}
}
