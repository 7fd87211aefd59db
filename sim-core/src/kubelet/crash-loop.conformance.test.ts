/**
 * A container that keeps failing, as the Conformance suite and a reader
 * watch it (test/e2e/common/node/kubelet.go, v1.36): the crash is reported
 * as Terminated (reason Error, the exit code) until the pod worker's next
 * sync, which shows CrashLoopBackOff with the crash in lastState; the first
 * crash restarts at once, later ones after 10 s, 20 s, 40 s...
 */
import { describe, expect, it } from 'vitest';
import { createCluster } from '../index.ts';

describe('[sig-node] Kubelet when scheduling a busybox command that always fails in a pod [Conformance]', () => {
	it('should have an terminated reason', () => {
		const c = createCluster({ seed: 1 });
		c.exec('kubectl run bin-false --image=busybox:1.36 -- /bin/false');
		// The suite polls every 4 s until it sees the container Terminated with a non-zero exit code and a reason.
		let seen: { exitCode?: number; reason?: string } | undefined;
		for (let i = 0; i < 30 && !seen; i++) {
			c.advance('4s');
			const state = JSON.parse(c.exec('kubectl get pod bin-false -o jsonpath={.status.containerStatuses[0].state}').stdout || '{}');
			if (state.terminated && state.terminated.exitCode !== 0 && state.terminated.reason) seen = state.terminated;
		}
		expect(seen).toMatchObject({ exitCode: 1, reason: 'Error' });
	});
});

describe('a crash-looping container', () => {
	it('shows Error until the next sync, then CrashLoopBackOff, restarting after doubling back-offs', () => {
		const c = createCluster({ seed: 2 });
		c.exec(`kubectl run crash --image=busybox:1.36 -- sh -c 'echo bye; exit 3'`);
		const timeline: string[] = [];
		for (let i = 0; i < 60; i++) {
			c.advance('1s');
			const [, , status, restarts] = c.exec('kubectl get pod crash --no-headers').stdout.trim().split(/\s+/);
			const entry = `${status} ${restarts}`;
			if (timeline[timeline.length - 1] !== entry) timeline.push(entry);
		}
		// Restart 1 at once; restart 2 after the 10 s back-off (the retry that would show CrashLoopBackOff is the restart);
		// restart 3 after 20 s: 10 s of Error, then CrashLoopBackOff until the back-off ends.
		expect(timeline.slice(0, 5)).toEqual(['Error 1', 'Error 2', 'CrashLoopBackOff 2', 'Error 3', 'CrashLoopBackOff 3']);
		const cs = JSON.parse(c.exec('kubectl get pod crash -o jsonpath={.status.containerStatuses[0]}').stdout);
		expect(cs.state.waiting).toMatchObject({ reason: 'CrashLoopBackOff', message: expect.stringMatching(/^back-off 40s restarting failed container=crash pod=crash_default\(/) });
		expect(cs.lastState.terminated).toMatchObject({ exitCode: 3, reason: 'Error' });
		expect(c.exec('kubectl logs crash --previous').stdout).toBe('bye\n');
		expect(c.exec('kubectl get events --field-selector reason=BackOff').stdout).toMatch(/Warning {3}BackOff {3}pod\/crash {3}Back-off restarting failed container crash in pod crash_default\(/);
	});
});
