/**
 * The kubelet as the node's operator sees it: its systemd service and its
 * journal. The lines are klog text records, the format the real kubelet
 * writes (`I1130 08:00:01.123456    1234 kubelet.go:2345] "message"
 * key="value"`), with messages in our own words. Both survive a restart
 * of the kubelet, so they live in durable per-node state, owned by the
 * node; the systemctl and journalctl tools read them.
 *
 * Mirrors k8s.io/klog/v2 (text format of InfoS/ErrorS).
 */

/** One journal record. */
export interface JournalEntry {
	wallMs: number;
	pid: number;
	/** The klog line. */
	line: string;
}

/** A systemd unit's state. */
export interface KubeletService {
	active: boolean;
	mainPid: number;
	/** When it last became active or inactive (wall-clock ms). */
	sinceWallMs: number;
	/** How many times it was started. */
	starts: number;
}

/** Durable per-node kubelet data. Plain JSON. */
export interface KubeletHostState {
	journal: JournalEntry[];
	service: KubeletService;
	/** Next PID to hand out on the node for the kubelet. */
	nextPid: number;
}

/** The journal keeps the newest records only. */
export const KUBELET_JOURNAL_MAX = 2_000;

export function emptyKubeletHostState(): KubeletHostState {
	// The kubelet starts after containerd on a booted node, so its first PID is a little higher.
	return { journal: [], service: { active: false, mainPid: 0, sinceWallMs: 0, starts: 0 }, nextPid: 900 };
}

/** kubeadm's kubelet unit (what `systemctl status kubelet` describes). */
export const KUBELET_UNIT = {
	name: 'kubelet.service',
	description: 'kubelet: The Kubernetes Node Agent',
	path: '/usr/lib/systemd/system/kubelet.service',
	dropIn: '/usr/lib/systemd/system/kubelet.service.d/10-kubeadm.conf',
	execStart:
		'/usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///var/run/containerd/containerd.sock',
} as const;

/** Appends a record, dropping the oldest beyond the bound. */
export function appendJournal(host: KubeletHostState, entry: JournalEntry): void {
	host.journal.push(entry);
	if (host.journal.length > KUBELET_JOURNAL_MAX + KUBELET_JOURNAL_MAX / 10) host.journal.splice(0, host.journal.length - KUBELET_JOURNAL_MAX);
}
