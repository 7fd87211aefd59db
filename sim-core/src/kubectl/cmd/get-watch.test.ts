import { describe, it, expect } from 'vitest';
import { ProcessBase } from '../../sim/process-base.ts';
import type { QueuedEvent } from '../../sim/event-queue.ts';
import type { Kernel } from '../../sim/kernel.ts';
import { kubectlFixture, lines, type KubectlFixture } from '../../testing/kubectl/fixtures.ts';
import { podObject, runningStatus } from '../../testing/kubectl/scenario.ts';
import { WATCH_QUIET_MS } from './get-watch.ts';

const row = (widths: number[], ...cells: string[]) => cells.map((c, i) => (i < widths.length ? c.padEnd(widths[i]) : c)).join('');

/** Plays the other components during a watch: runs each step after its delay. */
class Script extends ProcessBase<{ started: boolean }> {
	constructor(
		kernel: Kernel,
		private readonly steps: Array<[number, () => void]>,
	) {
		super('test-script', kernel);
	}
	freshState() {
		return { started: true };
	}
	onStart(): void {
		this.steps.forEach(([delayMs], i) => this.after(delayMs, 'step', i));
	}
	handle(event: QueuedEvent): void {
		this.steps[event.payload as number][1]();
	}
}

/** web-1 running since the start; five minutes later web-3 is created (+2s) and starts running (+5s). */
function watched(): KubectlFixture {
	const f = kubectlFixture();
	f.create(podObject('web-1', { labels: { app: 'web' }, node: 'worker-1' }));
	f.setStatus(podObject('web-1'), runningStatus('10.244.1.5', '192.168.56.11'));
	f.advance(5 * 60_000);
	const script = new Script(f.harness.kernel, [
		[2000, () => f.create(podObject('web-3', { labels: { app: 'web' }, node: 'worker-1' }))],
		[5000, () => f.setStatus(podObject('web-3'), runningStatus('10.244.1.9', '192.168.56.11', ['main'], '2026-11-30T08:05:04Z'))],
	]);
	f.harness.kernel.register(script);
	f.harness.kernel.start(script.id);
	return f;
}

describe('kubectl get -w', () => {
	it('prints the table, then a row per change without repeating the header, until the cluster is quiet', () => {
		const f = watched();
		const startMs = f.harness.kernel.nowMs;
		// The first table sets the widths (STATUS: Running (7) + 3 = 10; RESTARTS (8) + 3 = 11); later rows keep them.
		const w = [8, 8, 10, 11];
		expect(f.kubectl('get pods -w')).toEqual({
			stdout: lines(
				row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'),
				row(w, 'web-1', '1/1', 'Running', '0', '5m'),
				row(w, 'web-3', '0/1', 'Pending', '0', '0s'),
				row(w, 'web-3', '1/1', 'Running', '0', '3s'),
			),
			stderr: '',
			exitCode: 0,
		});
		// The last change came 5s in; the watch then waits out the quiet period.
		expect(f.harness.kernel.nowMs - startMs).toBeGreaterThanOrEqual(5000 + WATCH_QUIET_MS);
		expect(f.harness.kernel.nowMs - startMs).toBeLessThan(5000 + WATCH_QUIET_MS + 1000);
	});

	it('adds the EVENT column with --output-watch-events, the listed objects as ADDED', () => {
		// EVENT: MODIFIED (8) + 3 = 11.
		const w = [11, 8, 8, 10, 11];
		expect(watched().kubectl('get pods -w --output-watch-events').stdout).toBe(
			lines(
				row(w, 'EVENT', 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'),
				row(w, 'ADDED   ', 'web-1', '1/1', 'Running', '0', '5m'),
				row(w, 'ADDED   ', 'web-3', '0/1', 'Pending', '0', '0s'),
				row(w, 'MODIFIED', 'web-3', '1/1', 'Running', '0', '3s'),
			),
		);
	});

	it('prints only changes with --watch-only, the header with the first one', () => {
		const w = [8, 8, 10, 11];
		expect(watched().kubectl('get pods --watch-only').stdout).toBe(lines(row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'), row(w, 'web-3', '0/1', 'Pending', '0', '0s'), row(w, 'web-3', '1/1', 'Running', '0', '3s')));
	});

	it('follows one named object only', () => {
		const w = [8, 8, 10, 11];
		expect(watched().kubectl('get pod web-1 -w').stdout).toBe(lines(row(w, 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'), row(w, 'web-1', '1/1', 'Running', '0', '5m')));
	});

	it('prints each object on its own with -o name, and watch events as JSON with `type` first', () => {
		expect(watched().kubectl('get pods -w -o name').stdout).toBe(lines('pod/web-1', 'pod/web-3', 'pod/web-3'));
		const json = watched().kubectl('get pods -w -o json --output-watch-events').stdout;
		expect(json.startsWith('{\n    "type": "ADDED",\n    "object": {\n        "apiVersion": "v1",\n        "kind": "Pod",\n')).toBe(true);
		expect(json.match(/^ {4}"type": "\w+"/gm)).toEqual(['    "type": "ADDED"', '    "type": "ADDED"', '    "type": "MODIFIED"']);
	});

	it('ends at --request-timeout', () => {
		const f = watched();
		const startMs = f.harness.kernel.nowMs;
		expect(f.kubectl('get pods -w --request-timeout=3s').stdout).toBe(lines(row([8, 8, 10, 11], 'NAME', 'READY', 'STATUS', 'RESTARTS', 'AGE'), row([8, 8, 10, 11], 'web-1', '1/1', 'Running', '0', '5m'), row([8, 8, 10, 11], 'web-3', '0/1', 'Pending', '0', '0s')));
		expect(f.harness.kernel.nowMs - startMs).toBe(3000);
	});

	it('warns that --sort-by only orders the first listing', () => {
		expect(watched().kubectl('get pods -w --sort-by=.metadata.name').stderr).toBe('warning: --watch requested, --sort-by will be ignored for watch events received\n');
	});
});

describe('kubectl events -w', () => {
	it('starts with the events that exist, as a watch without a resourceVersion does, then the new ones', () => {
		const f = kubectlFixture();
		const pod = f.create(podObject('web-1'));
		const event = (name: string, reason: string, message: string) => ({
			apiVersion: 'v1',
			kind: 'Event',
			metadata: { name, namespace: 'default' },
			involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-1', uid: pod.metadata.uid },
			reason,
			message,
			type: 'Normal',
			source: { component: 'kubelet' },
			firstTimestamp: '2026-11-30T08:00:00Z',
			lastTimestamp: '2026-11-30T08:00:00Z',
			count: 1,
		});
		f.create(event('web-1.0001', 'Pulled', 'Container image "nginx" already present on machine'));
		const script = new Script(f.harness.kernel, [[2000, () => f.create(event('web-1.0002', 'Started', 'Started container web'))]]);
		f.harness.kernel.register(script);
		f.harness.kernel.start(script.id);
		const out = f.kubectl('events -w').stdout;
		expect(out.indexOf('Pulled')).toBeGreaterThan(out.indexOf('LAST SEEN'));
		expect(out.indexOf('Started')).toBeGreaterThan(out.indexOf('Pulled'));
		expect(out.match(/Pulled/g)).toHaveLength(1);
	});

	it('prints the header, then each new event, until the cluster is quiet', () => {
		const f = kubectlFixture();
		const pod = f.create(podObject('web-1'));
		f.advance(60_000);
		const script = new Script(f.harness.kernel, [
			[
				2000,
				() =>
					f.create({
						apiVersion: 'v1',
						kind: 'Event',
						metadata: { name: 'web-1.0001', namespace: 'default' },
						involvedObject: { apiVersion: 'v1', kind: 'Pod', namespace: 'default', name: 'web-1', uid: pod.metadata.uid },
						reason: 'Scheduled',
						message: 'Successfully assigned default/web-1 to worker-1',
						type: 'Normal',
						source: { component: 'default-scheduler' },
						firstTimestamp: '2026-11-30T08:01:02Z',
						lastTimestamp: '2026-11-30T08:01:02Z',
						count: 1,
					}),
			],
		]);
		f.harness.kernel.register(script);
		f.harness.kernel.start(script.id);
		// LAST SEEN (9) + 3 = 12; TYPE: Normal (6) + 3 = 9; REASON: Scheduled (9) + 3 = 12; OBJECT: Pod/web-1 (9) + 3 = 12.
		const w = [12, 9, 12, 12];
		expect(f.kubectl('events -w')).toEqual({
			stdout: lines(row(w, 'LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE'), row(w, '0s', 'Normal', 'Scheduled', 'Pod/web-1', 'Successfully assigned default/web-1 to worker-1')),
			stderr: '',
			exitCode: 0,
		});
	});
});
