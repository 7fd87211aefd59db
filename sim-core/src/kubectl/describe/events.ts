/**
 * The Events section at the end of `kubectl describe`, and the search for an
 * object's events. Events are sorted by lastTimestamp; Age `<age>` or
 * `<last> (x<n> over <first>)`; From the source component or else the
 * reporting controller; since v1.35 the message is prefixed with the
 * involved object's fieldPath.
 *
 * Mirrors staging/src/k8s.io/kubectl/pkg/describe/describe.go
 * (DescribeEvents, searchEvents),
 * staging/src/k8s.io/kubectl/pkg/util/event/sorted_event_list.go
 * (SortableEvents).
 */
import type { CoreEvent, KubeObject, KubeList } from '../../api/types.ts';
import { R } from '../../client/client.ts';
import { parseRfc3339 } from '../../golang/time.ts';
import { translateTimestampSince } from '../printers/table-columns.ts';
import { LEVEL_0, LEVEL_1, type PrefixWriter } from './prefix-writer.ts';
import type { DescribeContext } from './helpers.ts';

/** An event's lastTimestamp as epoch ms, Go's zero time (earliest) when unset. */
function lastTimestampMs(e: CoreEvent): number {
	const ms = e.lastTimestamp ? parseRfc3339(e.lastTimestamp) : Number.NaN;
	return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/** DescribeEvents: `Events:  <none>`, or the Type/Reason/Age/From/Message table, laid out on its own. */
export function describeEvents(events: readonly CoreEvent[], w: PrefixWriter, nowMs: number): void {
	if (events.length === 0) {
		w.write(LEVEL_0, 'Events:\t<none>\n');
		return;
	}
	w.flush();
	// sort.Sort(SortableEvents): an insertion sort at these sizes, so equal times keep their order.
	const sorted = [...events].sort((a, b) => {
		const x = lastTimestampMs(a);
		const y = lastTimestampMs(b);
		return x < y ? -1 : x > y ? 1 : 0;
	});
	w.write(LEVEL_0, 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n');
	w.write(LEVEL_1, '----\t------\t----\t----\t-------\n');
	for (const e of sorted) {
		const firstTimestampSince = e.eventTime ? translateTimestampSince(e.eventTime, nowMs) : translateTimestampSince(e.firstTimestamp, nowMs);
		let interval: string;
		if (e.series) interval = `${translateTimestampSince(e.series.lastObservedTime, nowMs)} (x${e.series.count ?? 0} over ${firstTimestampSince})`;
		else if ((e.count ?? 0) > 1) interval = `${translateTimestampSince(e.lastTimestamp, nowMs)} (x${e.count} over ${firstTimestampSince})`;
		else interval = firstTimestampSince;
		const source = e.source?.component || e.reportingComponent || '';
		let message = (e.message ?? '').trim();
		if (e.involvedObject?.fieldPath) message = `${e.involvedObject.fieldPath}: ${message}`;
		w.write(LEVEL_1, `${e.type ?? ''}\t${e.reason ?? ''}\t${interval}\t${source}\t${message}\n`);
	}
}

/** Which events belong to an object: its name and namespace, and (when known) its kind and uid. */
interface EventQuery {
	name: string;
	namespace: string;
	kind?: string;
	uid?: string;
}

/**
 * searchEvents: lists the events of the object's namespace (every namespace
 * for cluster-scoped objects) with the field selector upstream builds from
 * its reference. Undefined when the list fails (describe then prints no
 * Events section, as upstream ignores the error).
 */
export function searchEvents(ctx: DescribeContext, query: EventQuery): CoreEvent[] | undefined {
	const terms = [`involvedObject.name=${query.name}`, `involvedObject.namespace=${query.namespace}`];
	if (query.kind) terms.push(`involvedObject.kind=${query.kind}`);
	if (query.uid) terms.push(`involvedObject.uid=${query.uid}`);
	// fields.Set.AsSelector sorts its terms by key.
	terms.sort();
	const listed = ctx.client.list<CoreEvent>(R.events, query.namespace || undefined, { fieldSelector: terms.join(',') });
	if (!listed.ok) return undefined;
	return (listed.object as KubeList<CoreEvent>).items ?? [];
}

/** The events of an object, found through its reference (kind, name, namespace, uid), when events are shown. */
export function eventsFor(obj: KubeObject, ctx: DescribeContext, options: { withoutKind?: boolean } = {}): CoreEvent[] | undefined {
	if (!ctx.showEvents) return undefined;
	return searchEvents(ctx, { name: obj.metadata.name ?? '', namespace: obj.metadata.namespace ?? '', kind: options.withoutKind ? undefined : obj.kind, uid: obj.metadata.uid });
}
