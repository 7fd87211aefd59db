import { describe, expect, it } from 'vitest';
import { backoffGet, backoffNext, CRASH_LOOP_BACKOFF, IMAGE_PULL_BACKOFF, isInBackOffSince, isInBackOffSinceUpdate, type BackoffState } from './backoff.ts';

describe('the crash-loop back-off (FACTS.md B)', () => {
	it('doubles from 10 s and stays at the 5 min cap: 10, 20, 40, 80, 160, 300, 300', () => {
		const state: BackoffState = {};
		const seen: number[] = [];
		let t = 0;
		for (let i = 0; i < 7; i++) {
			backoffNext(state, CRASH_LOOP_BACKOFF, 'c', t, t);
			seen.push(backoffGet(state, 'c'));
			t += backoffGet(state, 'c') + 1_000;
		}
		expect(seen).toEqual([10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000]);
	});

	it('keeps a container that exited within the delay in back-off, counted from its finish time', () => {
		const state: BackoffState = {};
		backoffNext(state, CRASH_LOOP_BACKOFF, 'c', 0, 0);
		expect(isInBackOffSince(state, CRASH_LOOP_BACKOFF, 'c', 1_000, 1_000)).toBe(true);
		expect(isInBackOffSince(state, CRASH_LOOP_BACKOFF, 'c', 1_000, 10_999)).toBe(true);
		expect(isInBackOffSince(state, CRASH_LOOP_BACKOFF, 'c', 1_000, 11_000)).toBe(false);
	});

	it('forgets a container that ran 10 minutes: its next crash starts again at 10 s', () => {
		const state: BackoffState = {};
		backoffNext(state, CRASH_LOOP_BACKOFF, 'c', 0, 0);
		backoffNext(state, CRASH_LOOP_BACKOFF, 'c', 10_000, 10_000);
		expect(backoffGet(state, 'c')).toBe(20_000);
		// Finished 600.001 s after the last restart: the entry has expired.
		const finished = 10_000 + 600_001;
		expect(isInBackOffSince(state, CRASH_LOOP_BACKOFF, 'c', finished, finished)).toBe(false);
		backoffNext(state, CRASH_LOOP_BACKOFF, 'c', finished, finished);
		expect(backoffGet(state, 'c')).toBe(10_000);
	});
});

describe('the image pull back-off', () => {
	it('counts from the last failed pull: 10 s, then 20 s', () => {
		const state: BackoffState = {};
		backoffNext(state, IMAGE_PULL_BACKOFF, 'img', 0, 0);
		expect(isInBackOffSinceUpdate(state, IMAGE_PULL_BACKOFF, 'img', 9_999)).toBe(true);
		expect(isInBackOffSinceUpdate(state, IMAGE_PULL_BACKOFF, 'img', 10_000)).toBe(false);
		backoffNext(state, IMAGE_PULL_BACKOFF, 'img', 10_500, 10_500);
		expect(isInBackOffSinceUpdate(state, IMAGE_PULL_BACKOFF, 'img', 30_499)).toBe(true);
		expect(isInBackOffSinceUpdate(state, IMAGE_PULL_BACKOFF, 'img', 30_500)).toBe(false);
	});
});
