/**
 * The node's systemd tools: `systemctl` and `journalctl` (systemd v255, as
 * on the Ubuntu 24.04 nodes), for the kubelet and containerd units.
 *
 *     const deps = { kubelet: node.kubeletState, containerd: node.runtimeState, containerdCgroup, stopService, startService };
 *     host.commands.set('systemctl', systemctlCommand(deps));
 *     host.commands.set('journalctl', journalctlCommand(deps));
 *
 * The unit files (and the enablement links `systemctl is-enabled` reads)
 * belong on the node's disk: the wiring writes the node host's
 * systemdNodeFiles() there (../../host/systemd/units.ts).
 * With `power` and `boots` in the deps, `systemctl poweroff|reboot`,
 * `poweroff`, `reboot` and `shutdown` (haltCommand, shutdownCommand) take
 * the machine down, and journalctl tells its boots apart.
 *
 * Mirrors nothing upstream: the entry point of the node's systemd tools.
 */
export { systemctlCommand, runSystemctl, SYSTEMD_VERSION } from './systemctl.ts';
export { journalctlCommand, runJournalctl, FOLLOW_MS as JOURNAL_FOLLOW_MS } from './journalctl.ts';
export { haltCommand, shutdownCommand, readShutdownSchedule, SHUTDOWN_SCHEDULE_FILE, type PowerAction, type SystemPower, type ShutdownSchedule } from './power.ts';
export type { SystemdDeps } from './types.ts';
