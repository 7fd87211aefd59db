/**
 * The event recorder: components report what they did as core/v1 Events
 * about an object ("Scheduled", "Pulling", "Started",
 * "FailedScheduling"...). A repeat of the same event (same source, object,
 * type, reason and message) is not a new object: the recorder patches the
 * existing one's `count` and `lastTimestamp`, which is why `kubectl
 * describe` shows `(x3 over 2m)`.
 *
 * The recorder's memory of recent events is part of its owner's volatile
 * state, bounded like client-go's LRU (4096 there, smaller here).
 *
 * Mirrors staging/src/k8s.io/client-go/tools/record/event.go (the recorder),
 * staging/src/k8s.io/client-go/tools/record/events_cache.go
 * (EventCorrelator: the aggregation, the count and lastTimestamp patches,
 * the LRU).
 */
import type { CoreEvent, KubeObject } from '../api/types.ts';
import type { Kernel } from '../sim/kernel.ts';
import { formatRfc3339 } from '../golang/time.ts';
import { R, type ApiClient } from './client.ts';

export interface RecorderState {
	/** Correlation key -> the event object that records it. */
	recent: Record<string, { name: string; namespace: string; count: number }>;
	/** Keys in insertion order, oldest first (for eviction). */
	order: string[];
	/** Disambiguates events created in the same virtual millisecond. */
	serial: number;
}

export function emptyRecorder(): RecorderState {
	return { recent: {}, order: [], serial: 0 };
}

const RECENT_MAX = 512;

export interface EventSource {
	/** `source.component`, e.g. 'kubelet', 'default-scheduler', 'deployment-controller'. */
	component: string;
	/** `source.host`, for node-local components. */
	host?: string;
}

export class EventRecorder {
	constructor(
		private readonly kernel: Kernel,
		private readonly client: ApiClient,
		private readonly source: EventSource,
		private readonly state: () => RecorderState,
	) {}

	/**
	 * Records one event about `involved`. `fieldPath` names a part of it, e.g.
	 * `spec.containers{nginx}` (kubectl describe shows it before the message since v1.35).
	 */
	record(involved: KubeObject, type: 'Normal' | 'Warning', reason: string, message: string, fieldPath?: string): void {
		const s = this.state();
		const meta = involved.metadata;
		const namespace = meta.namespace || 'default';
		const key = [this.source.component, this.source.host ?? '', involved.kind, namespace, meta.name, meta.uid, fieldPath ?? '', type, reason, message].join('\u0000');
		const now = formatRfc3339(this.kernel.wallMs());
		const known = s.recent[key];
		if (known) {
			const patched = this.client.patch(R.events, known.namespace, known.name, { count: known.count + 1, lastTimestamp: now }, 'application/strategic-merge-patch+json');
			if (patched.ok) {
				known.count++;
				return;
			}
			// The event expired (one-hour TTL) or was deleted: record it anew.
			delete s.recent[key];
			s.order = s.order.filter((k) => k !== key);
		}
		const nanos = BigInt(this.kernel.wallMs()) * 1_000_000n + BigInt(s.serial++ % 1_000_000);
		const name = `${meta.name}.${nanos.toString(16)}`;
		const event: CoreEvent = {
			apiVersion: 'v1',
			kind: 'Event',
			metadata: { name, namespace },
			involvedObject: {
				kind: involved.kind,
				namespace: meta.namespace,
				name: meta.name,
				uid: meta.uid,
				apiVersion: involved.apiVersion,
				resourceVersion: meta.resourceVersion,
				...(fieldPath ? { fieldPath } : {}),
			},
			reason,
			message,
			source: this.source.host ? { component: this.source.component, host: this.source.host } : { component: this.source.component },
			firstTimestamp: now,
			lastTimestamp: now,
			count: 1,
			type,
			eventTime: null,
			reportingComponent: this.source.component,
			reportingInstance: this.source.host ?? '',
		};
		const created = this.client.create(R.events, namespace, event);
		if (!created.ok) return;
		s.recent[key] = { name, namespace, count: 1 };
		s.order.push(key);
		while (s.order.length > RECENT_MAX) delete s.recent[s.order.shift()!];
	}
}
