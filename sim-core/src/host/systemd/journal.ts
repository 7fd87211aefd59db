/**
 * The node's journal as journald would hold it: the kubelet's and
 * containerd's own lines (their stderr, captured by journald) and the
 * messages systemd (PID 1) writes about the two units when they start and
 * stop. The processes' lines come from their durable per-node state; the
 * systemd lines are derived from where each run of a process begins and
 * ends in those lines.
 *
 * Mirrors systemd/systemd src/core/unit.c (unit_status_log_*),
 * systemd/systemd src/core/job.c (job_emit_*_message), systemd/systemd
 * src/journal/journald-server.c (the fields journalctl matches on:
 * _SYSTEMD_UNIT for a unit's processes, UNIT for PID 1's messages).
 */
import { FIRST_CONTAINERD_PID, type ContainerdUnitRecord, type KubeletUnitRecord } from './records.ts';
import { formatTimespan } from './time.ts';
import { daysFromCivil } from '../../golang/time.ts';
import { UNITS, type NodeService, type UnitFacts } from './units.ts';
import type { BootRecord } from './records.ts';

/** One journal entry. */
export interface JournalRecord {
	wallMs: number;
	/** SYSLOG_IDENTIFIER: `kubelet`, `containerd`, `systemd`. */
	identifier: string;
	pid: number;
	/** The unit the entry belongs to (_SYSTEMD_UNIT, or UNIT for PID 1's messages). */
	unit: string;
	/** syslog priority: 6 info, 5 notice, 4 warning, 3 error. */
	priority: number;
	message: string;
	/** For `journalctl -x`: which catalog entry explains this message, with the job id it names. */
	catalog?: { kind: CatalogKind; job?: number };
}

export type CatalogKind = 'start-begun' | 'start-done' | 'stop-begun' | 'stop-done' | 'succeeded' | 'resources';

/** One run of a service's main process, as the journal shows it. */
interface ServiceRun {
	pid: number;
	startMs: number;
	/** When it stopped (undefined while it still runs). */
	stopMs?: number;
	/** The process's own journal lines. */
	lines: Array<{ wallMs: number; message: string }>;
	/** Whether the run's first line is its start (older lines may have been dropped from the bounded journal). */
	startKept: boolean;
	/** The boot the run belongs to (an index into the machine's boots; 0 without them). */
	boot: number;
	/** The run ended with its machine (a power cut): systemd had no chance to stop it, so it wrote nothing about it. */
	cut?: boolean;
}

/** The journal's state of a unit: its runs and whether the last one is still active. */
export interface ServiceHistory {
	unit: UnitFacts;
	runs: ServiceRun[];
	active: boolean;
	/** When the unit last changed state (ActiveEnterTimestamp or InactiveEnterTimestamp). */
	sinceWallMs: number;
}

/** Where a kubelet run ends in its own log: its onStop line. */
const KUBELET_STOP_MARK = '"Kubelet stopping';

/** The boot an instant falls in: the last one begun at or before it (0 without boots). */
export function bootIndexAt(boots: readonly BootRecord[], wallMs: number): number {
	let index = 0;
	for (let i = 0; i < boots.length; i++) if (boots[i].startWallMs <= wallMs) index = i;
	return index;
}

/**
 * Ends `run` where the next one begins: at that line, or, when the next
 * one is in a later boot and nothing marked a stop, with its machine.
 */
function closeRun(run: ServiceRun | undefined, nextBoot: number, nextStartMs: number, boots: readonly BootRecord[]): void {
	if (!run || run.stopMs !== undefined) return;
	if (run.boot === nextBoot) {
		run.stopMs = nextStartMs;
		return;
	}
	run.cut = true;
	run.stopMs = boots[run.boot]?.endWallMs ?? run.lines[run.lines.length - 1]?.wallMs ?? run.startMs;
}

/** The kubelet's runs: a new PID, or a new boot, starts a new run. */
export function kubeletHistory(host: KubeletUnitRecord, boots: readonly BootRecord[] = []): ServiceHistory {
	const runs: ServiceRun[] = [];
	for (const entry of host.journal) {
		let run = runs[runs.length - 1];
		const boot = bootIndexAt(boots, entry.wallMs);
		if (!run || run.pid !== entry.pid || run.boot !== boot) {
			closeRun(run, boot, entry.wallMs, boots);
			run = { pid: entry.pid, startMs: entry.wallMs, lines: [], startKept: entry.line.includes('"Kubelet starting"'), boot };
			runs.push(run);
		}
		run.lines.push({ wallMs: entry.wallMs, message: entry.line });
		if (entry.line.includes(KUBELET_STOP_MARK)) run.stopMs = entry.wallMs;
	}
	const active = host.service.active;
	const last = runs[runs.length - 1];
	if (active && last) last.stopMs = undefined;
	return { unit: UNITS.kubelet, runs, active, sinceWallMs: host.service.sinceWallMs };
}

/** `time="2026-11-30T08:00:00.000000000Z" level=info msg="..."`: the instant of a containerd (logrus) line. */
function logrusTime(line: string): number | undefined {
	const m = /^time="(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?Z"/.exec(line);
	if (!m) return undefined;
	const [, y, mo, d, h, mi, s, frac = '0'] = m;
	const days = daysFromCivil(+y, +mo, +d);
	return days * 86_400_000 + (+h * 3600 + +mi * 60 + +s) * 1000 + Math.floor(Number(`0.${frac}`) * 1000);
}

/** The PID step the runtime takes at each start is 3 + a draw below 20: about 12 on average. */
const CONTAINERD_PID_STEP = 12;

/**
 * containerd's runs, split at its "starting containerd" and "stopping
 * containerd" lines. The runtime's journal keeps no PID per line and forgets
 * the main PID when it stops: the current run shows its real main PID; the
 * first run the PID the runtime hands out first; runs in between, and a
 * stopped last run, an estimate between the two (the runtime's mean step).
 */
export function containerdHistory(host: ContainerdUnitRecord, boots: readonly BootRecord[] = []): ServiceHistory {
	const runs: ServiceRun[] = [];
	for (const line of host.journal) {
		const at = logrusTime(line) ?? runs[runs.length - 1]?.lines.at(-1)?.wallMs ?? 0;
		let run = runs[runs.length - 1];
		const boot = bootIndexAt(boots, at);
		if (!run || line.includes('msg="starting containerd') || run.boot !== boot) {
			closeRun(run, boot, at, boots);
			run = { pid: 0, startMs: at, lines: [], startKept: line.includes('msg="starting containerd'), boot };
			runs.push(run);
		}
		run.lines.push({ wallMs: at, message: line });
		if (line.includes('msg="stopping containerd')) run.stopMs = at;
	}
	const active = host.service.active;
	const firstPid = FIRST_CONTAINERD_PID;
	const lastPid = active ? host.service.mainPid : Math.max(firstPid, host.nextPid - CONTAINERD_PID_STEP);
	runs.forEach((run, i) => {
		run.pid = runs.length === 1 ? (active ? host.service.mainPid : firstPid) : Math.round(firstPid + ((lastPid - firstPid) * i) / (runs.length - 1));
	});
	const last = runs[runs.length - 1];
	if (active && last) last.stopMs = undefined;
	return { unit: UNITS.containerd, runs, active, sinceWallMs: host.service.sinceWallMs };
}

/** Where the journal's entries come from: the two daemons' durable state, and the machine's boots. */
interface JournalSources {
	kubelet: KubeletUnitRecord;
	containerd: ContainerdUnitRecord;
	boots?: readonly BootRecord[];
}

/** The unit's history from the node's durable state. */
export function serviceHistory(service: NodeService, sources: JournalSources): ServiceHistory {
	return service === 'kubelet' ? kubeletHistory(sources.kubelet, sources.boots) : containerdHistory(sources.containerd, sources.boots);
}

/**
 * CPU time a run has used: the process's start-up plus a steady share of
 * a core (an idle kubelet uses about 2% of a core and containerd about
 * 0.5%, as `top` on small kubeadm nodes shows).
 */
export function cpuMs(service: NodeService, runMs: number): number {
	return service === 'kubelet' ? 1_200 + Math.round(runMs * 0.02) : 300 + Math.round(runMs * 0.005);
}

/** A job id for PID 1's messages: systemd numbers jobs from boot; a stand-in derived from the run's order. */
function jobId(service: NodeService, runIndex: number, stop: boolean): number {
	// Boot jobs of an Ubuntu server number in the low hundreds; each later start or stop takes the next few.
	return (service === 'kubelet' ? 200 : 180) + runIndex * 2 + (stop ? 1 : 0);
}

/** The journal entries of one unit: systemd's messages around each run and the process's own lines. */
export function unitRecords(history: ServiceHistory): JournalRecord[] {
	const { unit } = history;
	const service = unit.service;
	const out: JournalRecord[] = [];
	const pid1 = (wallMs: number, message: string, catalog?: JournalRecord['catalog'], priority = 6): JournalRecord => ({ wallMs, identifier: 'systemd', pid: 1, unit: unit.name, priority, message, catalog });
	history.runs.forEach((run, i) => {
		const own = (l: { wallMs: number; message: string }): JournalRecord => ({ wallMs: l.wallMs, identifier: unit.comm, pid: run.pid, unit: unit.name, priority: 6, message: l.message });
		const stopAt = run.stopMs === undefined ? -1 : run.lines.findIndex((l) => l.wallMs >= run.stopMs! && (l.message.includes(KUBELET_STOP_MARK) || l.message.includes('msg="stopping containerd')));
		if (service === 'containerd') {
			// Type=notify: "Starting" before the process logs, "Started" once it reports ready (after its start-up lines).
			if (run.startKept) out.push(pid1(run.startMs, `Starting ${unit.name} - ${unit.description}...`, { kind: 'start-begun', job: jobId(service, i, false) }));
			const ready = run.lines.findIndex((l) => l.message.includes('msg="serving on'));
			run.lines.forEach((l, j) => {
				if (j === stopAt) out.push(pid1(l.wallMs, `Stopping ${unit.name} - ${unit.description}...`, { kind: 'stop-begun', job: jobId(service, i, true) }));
				out.push(own(l));
				if (run.startKept && j === (ready >= 0 ? ready : 0)) out.push(pid1(l.wallMs, `Started ${unit.name} - ${unit.description}.`, { kind: 'start-done', job: jobId(service, i, false) }));
			});
		} else {
			// Type=simple: the unit counts as started as soon as the process is forked.
			if (run.startKept) out.push(pid1(run.startMs, `Started ${unit.name} - ${unit.description}.`, { kind: 'start-done', job: jobId(service, i, false) }));
			run.lines.forEach((l, j) => {
				if (j === stopAt) out.push(pid1(l.wallMs, `Stopping ${unit.name} - ${unit.description}...`, { kind: 'stop-begun', job: jobId(service, i, true) }));
				out.push(own(l));
			});
		}
		// A run cut short by a power loss has no stop messages: systemd went down with it.
		if (run.stopMs !== undefined && !run.cut) {
			const at = run.stopMs;
			if (stopAt < 0) out.push(pid1(at, `Stopping ${unit.name} - ${unit.description}...`, { kind: 'stop-begun', job: jobId(service, i, true) }));
			out.push(pid1(at, `${unit.name}: Deactivated successfully.`, { kind: 'succeeded' }));
			out.push(pid1(at, `Stopped ${unit.name} - ${unit.description}.`, { kind: 'stop-done', job: jobId(service, i, true) }));
			out.push(pid1(at, `${unit.name}: Consumed ${formatTimespan(cpuMs(service, at - run.startMs))} CPU time.`, { kind: 'resources' }));
		}
	});
	return out;
}

/** Every journal entry of the node's units, oldest first (a stable merge by time). */
export function nodeJournal(sources: JournalSources): JournalRecord[] {
	// One journal file takes both units' entries in the order they were written: merge the two streams by
	// time but never reorder within one, so that a clock set back (`date -s`) leaves its entries after the older ones.
	const a = unitRecords(containerdHistory(sources.containerd, sources.boots));
	const b = unitRecords(kubeletHistory(sources.kubelet, sources.boots));
	const merged: JournalRecord[] = [];
	let i = 0;
	let j = 0;
	while (i < a.length || j < b.length) merged.push(j >= b.length || (i < a.length && a[i].wallMs <= b[j].wallMs) ? a[i++] : b[j++]);
	return merged;
}
