/**
 * What systemctl and journalctl need from the node, passed in by the
 * cluster wiring: the durable state of the node's two services (the
 * kubelet's journal and service record, containerd's journal, service
 * record and pod sandboxes, whose shims live in containerd's cgroup) and
 * the two actions that change the simulation, stopping and starting a
 * service. The shell gives the rest: the node's files (unit files,
 * enablement links) and the virtual clock.
 */
import type { KubeletHostState } from '../../kubelet/journal.ts';
import type { RuntimeHostState } from '../../runtime/host-state.ts';
import type { NodeService } from './units.ts';
import type { SystemPower } from './power.ts';

export type { NodeService } from './units.ts';

export interface SystemdDeps {
	/** The kubelet's durable per-node state (journal, service). */
	kubelet: KubeletHostState;
	/** containerd's durable per-node state (journal, service, sandboxes). */
	containerd: RuntimeHostState;
	/**
	 * Stops the service's process now (`systemctl stop`): the wiring maps it
	 * to the cluster's faults API without recording a new input (the shell
	 * command that called it is the input).
	 */
	stopService(service: NodeService): void;
	/** Starts it again (`systemctl start`). */
	startService(service: NodeService): void;
	/** The machine's power (`systemctl poweroff`, `reboot`, `shutdown`); without it those say they are not available. */
	power?: () => SystemPower | undefined;
	/** The machine's boots, oldest first (journalctl -b, the `-- Boot --` lines); without it, one boot. */
	boots?: () => readonly BootRecord[];
}

/** One boot of the machine: its boot ID (as /proc/sys/kernel/random/boot_id gives it) and when it began and ended (wall-clock ms). */
export interface BootRecord {
	id: string;
	startWallMs: number;
	/** When the machine went down; undefined for the current boot. */
	endWallMs?: number;
}
