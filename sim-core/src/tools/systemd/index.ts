/**
 * The node's systemd tools: `systemctl` and `journalctl` (systemd v255, as
 * on the Ubuntu 24.04 nodes), for the kubelet and containerd units.
 *
 *     const deps = { kubelet: node.kubeletState, containerd: node.runtimeState, stopService, startService };
 *     host.commands.set('systemctl', systemctlCommand(deps));
 *     host.commands.set('journalctl', journalctlCommand(deps));
 *
 * The unit files (and the enablement links `systemctl is-enabled` reads)
 * belong on the node's disk: the wiring writes systemdNodeFiles() there.
 */
export { systemctlCommand, runSystemctl, SYSTEMD_VERSION } from './systemctl.ts';
export { journalctlCommand, runJournalctl, FOLLOW_MS as JOURNAL_FOLLOW_MS } from './journalctl.ts';
export { systemdNodeFiles, UNITS, type NodeService, type UnitFacts } from './units.ts';
export { nodeJournal, type JournalRecord } from './journal.ts';
export type { SystemdDeps } from './types.ts';
