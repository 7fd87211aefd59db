/**
 * What a node's systemd and journald hold about the two daemons they run
 * (kubelet.service and containerd.service): each unit's state (what
 * `systemctl status` shows), the lines its process wrote (what journalctl
 * reads), and the next PID the machine hands out. This belongs to the
 * machine, not to the daemon: it survives the daemon's stop and restart,
 * and the systemd tools read it while the daemon is down. The daemon only
 * appends to its own record; the node host owns and snapshots it.
 *
 * Mirrors systemd/systemd src/core/service.c (the main PID, the active state
 * and its timestamps), systemd/systemd src/journal/journald-server.c
 * (journald's per-unit records).
 */

/** A systemd unit's state. */
export interface UnitState {
	active: boolean;
	mainPid: number;
	/** When it last became active or inactive (wall-clock ms). */
	sinceWallMs: number;
	/** How many times it was started (the kubelet's record counts them). */
	starts?: number;
}

/** One journal record written by a process that logs in klog's text format (the kubelet). */
interface JournalEntry {
	wallMs: number;
	pid: number;
	/** The klog line. */
	line: string;
}

/** The kubelet unit's durable record. Plain JSON. */
export interface KubeletUnitRecord {
	journal: JournalEntry[];
	service: UnitState & { starts: number };
	/** Next PID to hand out on the node for the kubelet. */
	nextPid: number;
}

/** The containerd unit's record: logrus lines with their own timestamps (no PID per line), its state, its next PID. */
export interface ContainerdUnitRecord {
	journal: string[];
	service: UnitState;
	nextPid: number;
}

/**
 * The first PIDs on a freshly booted node: in the hundreds once systemd's
 * early services ran, containerd's first, the kubelet's a little higher
 * (After=containerd.service).
 */
export const FIRST_CONTAINERD_PID = 600;
export const FIRST_KUBELET_PID = 900;

/** One boot of the machine: its boot ID (as /proc/sys/kernel/random/boot_id gives it) and when it began and ended (wall-clock ms). */
export interface BootRecord {
	id: string;
	startWallMs: number;
	/** When the machine went down; undefined for the current boot. */
	endWallMs?: number;
}

/** The kubelet's journal keeps the newest records only. */
export const KUBELET_JOURNAL_MAX = 2_000;

export function emptyKubeletUnitRecord(): KubeletUnitRecord {
	return { journal: [], service: { active: false, mainPid: 0, sinceWallMs: 0, starts: 0 }, nextPid: FIRST_KUBELET_PID };
}

/** Appends a kubelet record, dropping the oldest beyond the bound. */
export function appendJournal(record: KubeletUnitRecord, entry: JournalEntry): void {
	record.journal.push(entry);
	if (record.journal.length > KUBELET_JOURNAL_MAX + KUBELET_JOURNAL_MAX / 10) record.journal.splice(0, record.journal.length - KUBELET_JOURNAL_MAX);
}
