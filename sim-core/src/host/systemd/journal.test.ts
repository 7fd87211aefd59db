/**
 * The node journal built from the processes' own records: runs split where
 * a process starts (a new kubelet PID, containerd's "starting containerd"
 * line) and ends (their stop lines), with PID 1's messages around each run
 * as systemd v255 words them (unit.c: `Started <unit> - <description>.`,
 * `Stopping ...`, `<unit>: Deactivated successfully.`, `Stopped ...`,
 * `<unit>: Consumed <time> CPU time.`; containerd is Type=notify, so it is
 * `Starting` before its start-up lines and `Started` once it serves).
 */
import { describe, expect, it } from 'vitest';
import { emptyKubeletUnitRecord } from './records.ts';
import { emptyRuntimeHostState } from '../../runtime/host-state.ts';
import { containerdHistory, kubeletHistory, nodeJournal, unitRecords } from './journal.ts';

const T0 = 1_796_025_600_000; // 2026-11-30T08:00:00Z

function kubeletHost() {
	const host = emptyKubeletUnitRecord();
	const line = (pid: number, msg: string) => `I1130 08:00:00.000000 ${String(pid).padStart(7)} x.go:1] "${msg}"`;
	host.journal.push(
		{ wallMs: T0, pid: 900, line: line(900, 'Kubelet starting') },
		{ wallMs: T0 + 1_000, pid: 900, line: line(900, 'Pod added') },
		{ wallMs: T0 + 60_000, pid: 900, line: line(900, 'Kubelet stopping; containers keep running') },
		{ wallMs: T0 + 90_000, pid: 917, line: line(917, 'Kubelet starting') },
	);
	host.service = { active: true, mainPid: 917, sinceWallMs: T0 + 90_000, starts: 2 };
	return host;
}

describe('service runs', () => {
	it('split the kubelet at each new PID and end a run at its stop line', () => {
		const h = kubeletHistory(kubeletHost());
		expect(h.runs.map((r) => [r.pid, r.startMs - T0, r.stopMs === undefined ? undefined : r.stopMs - T0, r.lines.length, r.startKept])).toEqual([
			[900, 0, 60_000, 3, true],
			[917, 90_000, undefined, 1, true],
		]);
	});

	it('give containerd its real PID while it runs, its first PID to the first run, and estimates in between', () => {
		const host = emptyRuntimeHostState('n', '10.0.0.1', '10.244.1.0/24');
		const at = (s: number) => `time="2026-11-30T08:0${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}.000000000Z"`;
		host.journal.push(`${at(0)} level=info msg="starting containerd revision=x version=v2.2.1"`, `${at(0)} level=info msg="serving on /var/run/containerd/containerd.sock"`, `${at(60)} level=info msg="stopping containerd; running containers stay up under their shims"`, `${at(90)} level=info msg="starting containerd revision=x version=v2.2.1"`, `${at(90)} level=info msg="serving on /var/run/containerd/containerd.sock"`);
		host.service = { active: true, mainPid: 640, sinceWallMs: T0 + 90_000 };
		const h = containerdHistory(host);
		// emptyRuntimeHostState hands out 600 first.
		expect(h.runs.map((r) => [r.pid, r.startMs - T0, r.stopMs === undefined ? undefined : r.stopMs - T0])).toEqual([
			[600, 0, 60_000],
			[640, 90_000, undefined],
		]);
		expect(unitRecords(h).map((r) => `${r.identifier}: ${r.message.replace(/^time="[^"]+" level=info msg=/, '')}`)).toEqual([
			'systemd: Starting containerd.service - containerd container runtime...',
			'containerd: "starting containerd revision=x version=v2.2.1"',
			'containerd: "serving on /var/run/containerd/containerd.sock"',
			'systemd: Started containerd.service - containerd container runtime.',
			'systemd: Stopping containerd.service - containerd container runtime...',
			'containerd: "stopping containerd; running containers stay up under their shims"',
			'systemd: containerd.service: Deactivated successfully.',
			'systemd: Stopped containerd.service - containerd container runtime.',
			// 300 ms of start-up plus half a percent of 60 s.
			'systemd: containerd.service: Consumed 600ms CPU time.',
			'systemd: Starting containerd.service - containerd container runtime...',
			'containerd: "starting containerd revision=x version=v2.2.1"',
			'containerd: "serving on /var/run/containerd/containerd.sock"',
			'systemd: Started containerd.service - containerd container runtime.',
		]);
	});

	it('leaves out a Started line for a run whose start was dropped from the bounded journal', () => {
		const host = kubeletHost();
		host.journal.splice(0, 1);
		expect(unitRecords(kubeletHistory(host))[0]).toMatchObject({ identifier: 'kubelet', message: expect.stringContaining('"Pod added"') });
	});

	it('merges both units by time, PID 1 speaking as systemd[1] about each unit', () => {
		const records = nodeJournal({ kubelet: kubeletHost(), containerd: emptyRuntimeHostState('n', '10.0.0.1', '10.244.1.0/24') });
		expect(records.filter((r) => r.identifier === 'systemd').map((r) => [r.pid, r.unit, r.message])).toEqual([
			[1, 'kubelet.service', 'Started kubelet.service - kubelet: The Kubernetes Node Agent.'],
			[1, 'kubelet.service', 'Stopping kubelet.service - kubelet: The Kubernetes Node Agent...'],
			[1, 'kubelet.service', 'kubelet.service: Deactivated successfully.'],
			[1, 'kubelet.service', 'Stopped kubelet.service - kubelet: The Kubernetes Node Agent.'],
			// 1.2 s of start-up plus 2% of 60 s.
			[1, 'kubelet.service', 'kubelet.service: Consumed 2.400s CPU time.'],
			[1, 'kubelet.service', 'Started kubelet.service - kubelet: The Kubernetes Node Agent.'],
		]);
	});
});
