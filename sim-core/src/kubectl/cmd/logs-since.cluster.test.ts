/**
 * `kubectl logs --since / --since-time` and `-f` after a tail, on a Pod
 * that prints a line a second: only the window asked for is printed (the
 * kubelet counts back from its node's clock), the flags are validated as
 * kubectl validates them, and a follow goes on from the end of the whole
 * log without losing a line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../index.ts';

let cluster: Cluster;
beforeAll(() => {
	cluster = createCluster({ seed: 1 });
	cluster.exec(`kubectl run ticker --image=busybox:1.36 -- sh -c 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 1; done'`);
	cluster.advance(30_000);
});

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('kubectl logs --since', () => {
	it('prints only the lines of the last N seconds, rounded to the nearest second', () => {
		const all = lines(cluster.exec('kubectl logs ticker').stdout);
		expect(all.length).toBeGreaterThan(20);
		expect(lines(cluster.exec('kubectl logs ticker --since=5s').stdout)).toEqual(all.slice(-5));
		expect(lines(cluster.exec('kubectl logs ticker --since=1500ms').stdout)).toEqual(all.slice(-2));
		// The tail is taken first, then the window.
		expect(lines(cluster.exec('kubectl logs ticker --since=3s --tail=10').stdout)).toEqual(all.slice(-3));
	});

	it('prints the lines from an RFC 3339 time on', () => {
		const stamped = lines(cluster.exec('kubectl logs ticker --timestamps').stdout);
		const third = stamped.at(-3)!.split(' ')[0];
		// sinceTime is kept to the second, as metav1.Time serializes it.
		const since = `${third.slice(0, 19)}Z`;
		const shown = lines(cluster.exec(`kubectl logs ticker --since-time=${since}`).stdout);
		expect(shown.at(-1)).toBe(stamped.at(-1)!.replace(/^\S+ /, ''));
		expect(shown.length).toBeLessThanOrEqual(3);
		expect(lines(cluster.exec('kubectl logs ticker --since-time=2020-01-01T00:00:00Z').stdout).length).toBe(stamped.length);
	});

	it("refuses what kubectl refuses, in kubectl's words", () => {
		expect(cluster.exec('kubectl logs ticker --since-time=yesterday').stderr).toBe('error: parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"\n');
		expect(cluster.exec('kubectl logs ticker --since=5s --since-time=2020-01-01T00:00:00Z').stderr).toBe('error: at most one of `sinceTime` or `sinceSeconds` may be specified\n');
		expect(cluster.exec('kubectl logs ticker --since=400ms').stderr).toBe('error: sinceSeconds: Invalid value: 0: must be greater than 0\n');
	});
});

describe('kubectl logs -f', () => {
	it('goes on from the end of the log after --tail, every line once, until the simulation presses Ctrl-C', () => {
		const followed = cluster.exec('kubectl logs ticker -f --tail=1');
		const numbers = lines(followed.stdout).map((l) => Number(l.replace('tick ', '')));
		expect(numbers.length).toBeGreaterThan(25);
		numbers.forEach((n, i) => expect(n).toBe(numbers[0] + i));
		expect(followed.exitCode).toBe(130);
		expect(followed.stderr).toContain('interrupted, as Ctrl-C would');
	});
});

describe('[sig-cli] Kubectl client Kubectl logs [Conformance]', () => {
	it('should be able to retrieve and filter logs', () => {
		const c = createCluster({ seed: 3 });
		c.exec(`kubectl run logs-generator --image=busybox:1.36 --restart=Never -- sh -c 'for i in 1 2 3 4; do echo "line $i of the log"; done'`);
		c.advance('20s');
		const whole = c.exec('kubectl logs logs-generator').stdout;
		expect(whole).toBe('line 1 of the log\nline 2 of the log\nline 3 of the log\nline 4 of the log\n');
		// --limit-bytes stops where the byte count falls, inside a line and without a newline.
		expect(c.exec('kubectl logs logs-generator --limit-bytes=1').stdout).toBe('l');
		expect(c.exec('kubectl logs logs-generator --limit-bytes=20').stdout).toBe('line 1 of the log\nli');
		expect(c.exec('kubectl logs logs-generator --tail=1').stdout).toBe('line 4 of the log\n');
		expect(c.exec('kubectl logs logs-generator --tail=1 --limit-bytes=4').stdout).toBe('line');
		expect(c.exec('kubectl logs logs-generator --since=24h').stdout).toBe(whole);
		expect(c.exec('kubectl logs logs-generator --timestamps --tail=1').stdout).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z line 4 of the log\n$/);
		expect(c.exec('kubectl logs logs-generator --limit-bytes=-1').stderr).toBe('error: --limit-bytes must be greater than 0\n');
	});
});
