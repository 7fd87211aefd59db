/**
 * PrioritySort: orders the active queue by pod priority, higher first, and
 * among equal priorities by the time the pod entered the queue, earlier
 * first.
 *
 * Mirrors pkg/scheduler/framework/plugins/queuesort/priority_sort.go.
 */
import type { QueueSortPlugin, QueuedPodInfoView } from '../framework/interface.ts';
import { podPriority } from '../framework/types.ts';
import { Names } from './names.ts';

export class PrioritySort implements QueueSortPlugin {
	readonly name = Names.PrioritySort;

	less(a: QueuedPodInfoView, b: QueuedPodInfoView): boolean {
		const p1 = podPriority(a.pod);
		const p2 = podPriority(b.pod);
		return p1 > p2 || (p1 === p2 && a.timestampMs < b.timestampMs);
	}
}
