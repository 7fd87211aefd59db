/**
 * A binary heap kept in a plain JSON array (so it lives in the process state
 * and snapshots), ordered by a comparator the owner supplies. Entries are
 * `[key, seq]`: an entry whose seq no longer matches its record's current
 * seq is stale and skipped when popped (lazy deletion), and the array is
 * compacted when stale entries pile up.
 *
 * Mirrors pkg/scheduler/backend/heap/heap.go (its role).
 */

/** One heap entry: the pod key and the sequence number it was pushed with. */
export type HeapEntry = [key: string, seq: number];

export interface HeapOps {
	/** Whether `a` goes before `b`. */
	less(a: HeapEntry, b: HeapEntry): boolean;
	/** Whether the entry still stands for a live record in this heap. */
	valid(e: HeapEntry): boolean;
}

function siftUp(heap: HeapEntry[], i: number, ops: HeapOps): void {
	while (i > 0) {
		const parent = (i - 1) >> 1;
		if (!ops.less(heap[i], heap[parent])) break;
		[heap[i], heap[parent]] = [heap[parent], heap[i]];
		i = parent;
	}
}

function siftDown(heap: HeapEntry[], i: number, ops: HeapOps): void {
	for (;;) {
		const l = 2 * i + 1;
		const r = l + 1;
		let m = i;
		if (l < heap.length && ops.less(heap[l], heap[m])) m = l;
		if (r < heap.length && ops.less(heap[r], heap[m])) m = r;
		if (m === i) return;
		[heap[i], heap[m]] = [heap[m], heap[i]];
		i = m;
	}
}

export function heapPush(heap: HeapEntry[], entry: HeapEntry, ops: HeapOps): void {
	heap.push(entry);
	siftUp(heap, heap.length - 1, ops);
}

function removeTop(heap: HeapEntry[], ops: HeapOps): HeapEntry | undefined {
	if (heap.length === 0) return undefined;
	const top = heap[0];
	const last = heap.pop()!;
	if (heap.length > 0) {
		heap[0] = last;
		siftDown(heap, 0, ops);
	}
	return top;
}

/** Drops stale entries from the top; returns the first live entry without removing it. */
export function heapPeek(heap: HeapEntry[], ops: HeapOps): HeapEntry | undefined {
	while (heap.length > 0 && !ops.valid(heap[0])) removeTop(heap, ops);
	return heap[0];
}

export function heapPop(heap: HeapEntry[], ops: HeapOps): HeapEntry | undefined {
	return heapPeek(heap, ops) ? removeTop(heap, ops) : undefined;
}

/** Rebuilds the heap from its live entries when at least half of it is stale. */
export function heapCompact(heap: HeapEntry[], ops: HeapOps, live: number): void {
	if (heap.length < 64 || heap.length < 2 * live) return;
	const kept = heap.filter((e) => ops.valid(e));
	heap.length = 0;
	for (const e of kept) heapPush(heap, e, ops);
}
