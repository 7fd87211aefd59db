/**
 * The events.k8s.io recorder against a real API server: the shape the
 * events are stored in, and client-go's series rules (the first repeat
 * patches series count 2; later ones count in memory until the 30-minute
 * refresh or the 6-minute finish; the note stays the first one's; a new
 * resourceVersion of the regarding object is a new event).
 */
import { describe, expect, it } from 'vitest';
import type { CoreEvent, KubeObject } from '../api/types.ts';
import { createApiHarness } from '../testing/api-harness.ts';
import { R } from './client.ts';
import { EventsV1Recorder, FINISH_MS, REFRESH_MS, emptyEventsV1Recorder } from './events-v1.ts';

function setup() {
	const h = createApiHarness({ seed: 3 });
	const state = emptyEventsV1Recorder();
	const recorder = new EventsV1Recorder(h.kernel, h.client('kube-scheduler'), 'my-scheduler', 'my-scheduler-control-plane', () => state);
	const events = () => {
		const list = h.client('kubectl').list<CoreEvent>(R.events, 'default');
		return list.ok ? list.object.items : [];
	};
	return { h, state, recorder, events };
}

const pod = (resourceVersion: string): KubeObject => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', uid: 'u-1', resourceVersion } });

describe('the events.k8s.io event recorder', () => {
	it('stores an event with reportingController, reportingInstance, action and eventTime, and no legacy source, timestamps or count', () => {
		const { h, recorder, events } = setup();
		h.advance(1234);
		recorder.eventf(pod('10'), { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'vip', namespace: 'default', uid: 'u-2' } }, 'Normal', 'Preempted', 'Preempting', 'Preempted by pod u-2 on node node-1');
		const [e] = events();
		expect(e).toMatchObject({
			involvedObject: { kind: 'Pod', namespace: 'default', name: 'web', uid: 'u-1', apiVersion: 'v1', resourceVersion: '10' },
			related: { kind: 'Pod', name: 'vip', uid: 'u-2' },
			reason: 'Preempted',
			action: 'Preempting',
			message: 'Preempted by pod u-2 on node node-1',
			source: {},
			firstTimestamp: null,
			lastTimestamp: null,
			eventTime: '2026-11-30T08:00:01.234000Z',
			reportingComponent: 'my-scheduler',
			reportingInstance: 'my-scheduler-control-plane',
			type: 'Normal',
		});
		expect(e.count).toBeUndefined();
		expect(e.metadata.name).toMatch(/^web\.[0-9a-f]+$/);
	});

	it('makes a series of repeats: count 2 written at once, later ones at the refresh, the first note kept', () => {
		const { h, recorder, events } = setup();
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'first message');
		h.advance(10_000);
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'second message');
		expect(events().map((e) => [e.message, e.series])).toEqual([['first message', { count: 2, lastObservedTime: '2026-11-30T08:00:10.000000Z' }]]);
		h.advance(10_000);
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'third message');
		// In memory only until the series is written again.
		expect(events()[0].series).toEqual({ count: 2, lastObservedTime: '2026-11-30T08:00:10.000000Z' });
		h.advance(REFRESH_MS);
		recorder.refreshSeries();
		expect(events()[0].series).toEqual({ count: 3, lastObservedTime: '2026-11-30T08:00:20.000000Z' });
		expect(events()).toHaveLength(1);
	});

	it('finishes a series quiet for 6 minutes with a last write, and forgets singletons that old', () => {
		const { h, state, recorder, events } = setup();
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
		recorder.eventf(pod('10'), undefined, 'Normal', 'Scheduled', 'Binding', 'Successfully assigned default/web to node-1');
		h.advance(FINISH_MS + 1);
		recorder.finishSeries();
		expect(events().find((e) => e.reason === 'FailedScheduling')?.series?.count).toBe(3);
		expect(Object.keys(state.cache)).toEqual([]);
		// Forgotten: the same event again is a new object.
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
		expect(events().filter((e) => e.reason === 'FailedScheduling')).toHaveLength(2);
	});

	it('records a new event when the regarding object has a new resourceVersion', () => {
		const { recorder, events } = setup();
		recorder.eventf(pod('10'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
		recorder.eventf(pod('11'), undefined, 'Warning', 'FailedScheduling', 'Scheduling', 'no fit');
		expect(events().map((e) => [e.involvedObject.resourceVersion, e.series])).toEqual([
			['10', undefined],
			['11', undefined],
		]);
	});
});
