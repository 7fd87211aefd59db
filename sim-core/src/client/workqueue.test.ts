/**
 * The work queue as a controller relies on it: client-go's "stingy" queue
 * (a dirty set and a processing set: a key is queued at most once and never
 * handed to two workers at the same time) and the per-item exponential
 * back-off of the default controller rate limiter (5 ms doubling to 1000 s).
 */
import { describe, expect, it } from 'vitest';
import { WORKQUEUE_BASE_DELAY_MS, WORKQUEUE_MAX_DELAY_MS, WorkQueue, emptyWorkQueue, type WorkQueueState } from './workqueue.ts';

function queue(): { q: WorkQueue; state: () => WorkQueueState; replace: (s: WorkQueueState) => void } {
	let s = emptyWorkQueue();
	return { q: new WorkQueue(() => s), state: () => s, replace: (next) => (s = next) };
}

/** Takes every key ready now, in order, marking each done. */
function drain(q: WorkQueue): string[] {
	const out: string[] = [];
	for (let item = q.get(); item; item = q.get()) {
		out.push(item.key);
		q.done(item.key);
	}
	return out;
}

describe('the stingy work queue', () => {
	it('processes a key added twice before it is processed once', () => {
		const { q } = queue();
		q.add('default/web', 'input:1');
		q.add('default/web', 'input:2');
		expect(q.length).toBe(1);
		expect(drain(q)).toEqual(['default/web']);
		expect(q.get()).toBeUndefined();
	});

	it('hands keys out in the order they were first added', () => {
		const { q } = queue();
		for (const key of ['ns/b', 'ns/a', 'ns/c', 'ns/a', 'ns/b']) q.add(key, 'input:1');
		expect(drain(q)).toEqual(['ns/b', 'ns/a', 'ns/c']);
	});

	it('asks the caller to schedule processing only when the queue goes from empty to non-empty', () => {
		const { q } = queue();
		expect(q.add('ns/a', 'input:1')).toBe(true);
		expect(q.add('ns/b', 'input:1')).toBe(false);
		expect(q.add('ns/a', 'input:1')).toBe(false);
		drain(q);
		expect(q.add('ns/a', 'input:2')).toBe(true);
	});

	it('does not hand out a key that is being processed, even when it is added again meanwhile', () => {
		const { q } = queue();
		q.add('ns/a', 'input:1');
		q.add('ns/b', 'input:1');
		expect(q.get()?.key).toBe('ns/a');
		expect(q.add('ns/a', 'input:2')).toBe(false);
		expect(q.length).toBe(1);
		// A second worker gets the other key, not a second copy of the one in process.
		expect(q.get()?.key).toBe('ns/b');
		expect(q.get()).toBeUndefined();
	});

	it('processes a key re-added while it was being processed again after Done, once however many times it was re-added', () => {
		const { q } = queue();
		q.add('ns/a', 'input:1');
		q.get();
		q.add('ns/a', 'input:2');
		q.add('ns/a', 'input:3');
		expect(q.done('ns/a')).toBe(true);
		expect(q.length).toBe(1);
		expect(drain(q)).toEqual(['ns/a']);
	});

	it('forgets a key once it is done and was not re-added', () => {
		const { q } = queue();
		q.add('ns/a', 'input:1');
		q.get();
		expect(q.done('ns/a')).toBe(false);
		expect(q.length).toBe(0);
		expect(q.get()).toBeUndefined();
	});

	it('reports, for each key handed out, the origin of the first cause that queued it since it was last handed out', () => {
		const { q } = queue();
		q.add('ns/a', 'input:1');
		q.add('ns/a', 'input:2');
		expect(q.get()).toEqual({ key: 'ns/a', origin: 'input:1' });
		q.add('ns/a', 'input:3');
		q.add('ns/a', 'input:4');
		q.done('ns/a');
		expect(q.get()).toEqual({ key: 'ns/a', origin: 'input:3' });
	});

	it('keeps working from a JSON copy of its state, as after a snapshot is restored mid-processing', () => {
		const { q, state, replace } = queue();
		q.add('ns/a', 'input:1');
		q.add('ns/b', 'input:1');
		q.get();
		q.add('ns/a', 'input:2');
		q.backoffMs('ns/b', 0);
		replace(JSON.parse(JSON.stringify(state())) as WorkQueueState);
		expect(q.get()?.key).toBe('ns/b');
		expect(q.get()).toBeUndefined();
		expect(q.done('ns/a')).toBe(true);
		expect(q.get()?.key).toBe('ns/a');
		expect(q.backoffMs('ns/b', 0)).toBe(10);
	});
});

describe('the per-item exponential back-off', () => {
	it('waits 5 ms after the first failure of a key and doubles the wait at every further failure', () => {
		const { q } = queue();
		expect([1, 2, 3, 4, 5, 6].map(() => q.backoffMs('ns/a', 0))).toEqual([5, 10, 20, 40, 80, 160]);
		expect(WORKQUEUE_BASE_DELAY_MS).toBe(5);
	});

	it('caps the wait at 1000 s, reached at the 19th consecutive failure', () => {
		const { q } = queue();
		const delays = Array.from({ length: 25 }, () => q.backoffMs('ns/a', 0));
		expect(delays[17]).toBe(5 * 2 ** 17);
		expect(delays[17]).toBeLessThan(1_000_000);
		expect(delays.slice(18)).toEqual(Array(7).fill(1_000_000));
		expect(WORKQUEUE_MAX_DELAY_MS).toBe(1_000_000);
	});

	it('counts failures per key: one key failing does not slow another', () => {
		const { q } = queue();
		for (let i = 0; i < 5; i++) q.backoffMs('ns/a', 0);
		expect(q.backoffMs('ns/b', 0)).toBe(5);
		expect(q.backoffMs('ns/a', 0)).toBe(160);
	});

	it('starts again from 5 ms after Forget (a successful sync)', () => {
		const { q } = queue();
		for (let i = 0; i < 5; i++) q.backoffMs('ns/a', 0);
		q.forget('ns/a');
		expect(q.backoffMs('ns/a', 0)).toBe(5);
	});

	it('keeps counting failures across Done: only Forget resets them', () => {
		const { q } = queue();
		q.add('ns/a', 'input:1');
		q.get();
		expect(q.backoffMs('ns/a', 0)).toBe(5);
		q.done('ns/a');
		q.add('ns/a', 'retry');
		q.get();
		expect(q.backoffMs('ns/a', 0)).toBe(10);
	});
});

describe('the overall token bucket (10 per second, bursts of 100)', () => {
	it('lets a burst of 100 through at the item delay, then spaces the rest 100 ms apart, and refills with time', () => {
		const { q } = queue();
		// Each key is forgotten at once (it synced fine but asked to be requeued), so only the bucket holds it back.
		const delays = Array.from({ length: 120 }, () => {
			const d = q.backoffMs('ns/stuck', 0);
			q.forget('ns/stuck');
			return d;
		});
		expect(delays.slice(0, 100).every((d) => d === 5)).toBe(true);
		expect(delays[100]).toBe(100);
		expect(delays[119]).toBe(2_000);
		// Ten seconds later the bucket holds 100 - 120 + 100 = 80 tokens again.
		expect(q.backoffMs('ns/stuck', 10_000)).toBe(5);
	});
});
