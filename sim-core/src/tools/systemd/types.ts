/**
 * What systemctl and journalctl need from the node, passed in by the
 * cluster wiring: the machine's records of its two units
 * (../../host/systemd/records.ts: journals, unit states), what runs in
 * containerd's cgroup (the pods' shims, which outlive containerd), and the
 * two actions that change the simulation, stopping and starting a service.
 * The shell gives the rest: the node's files (unit files, enablement links)
 * and the virtual clock.
 *
 * Mirrors nothing upstream: what the cluster wiring hands systemctl and
 * journalctl (the machine's unit records, containerd's cgroup, the stop and
 * start actions).
 */
import type { BootRecord, ContainerdUnitRecord, KubeletUnitRecord } from '../../host/systemd/records.ts';
import type { NodeService } from '../../host/systemd/units.ts';
import type { SystemPower } from './power.ts';

export type { NodeService } from '../../host/systemd/units.ts';

export interface SystemdDeps {
	/** The kubelet's durable per-node state (journal, service). */
	kubelet: KubeletUnitRecord;
	/** containerd's unit record (journal, service). */
	containerd: ContainerdUnitRecord;
	/**
	 * What runs in containerd's cgroup besides containerd: the ids of the
	 * pod sandboxes whose shim is running (KillMode=process keeps them
	 * after containerd stops), and how many sandboxes and running
	 * containers containerd holds (its memory use follows them).
	 */
	containerdCgroup(): { shimSandboxIds: string[]; sandboxes: number; runningContainers: number };
	/** The PID of a sandbox's shim as the node's process table numbers it (ps); without it, a stand-in from the sandbox id. */
	shimPid?(sandboxId: string): number | undefined;
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
