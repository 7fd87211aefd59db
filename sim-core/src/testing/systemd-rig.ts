/**
 * For the systemd tools' tests: a node (./node-rig.ts: a real
 * kubelet and containerd against etcd and kube-apiserver) with kubeadm's
 * unit files and flags on its disk and systemctl and journalctl installed,
 * their stop and start mapped to the kernel.
 *
 * Mirrors nothing upstream: a node rig with systemctl and journalctl for
 * their tests.
 */
import { nodeRig, type NodeRig } from './node-rig.ts';
import { journalctlCommand, systemctlCommand } from '../tools/systemd/index.ts';
import { systemdNodeFiles } from '../host/systemd/units.ts';
import type { SystemdDeps } from '../tools/systemd/types.ts';
import { containerdCgroup } from '../runtime/host-state.ts';

const KUBEADM_FLAGS = 'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=unix:///var/run/containerd/containerd.sock --pod-infra-container-image=registry.k8s.io/pause:3.10.2"\n';

/** A node five minutes after boot, running pod `web`, with systemctl and journalctl installed. */
export function systemdRig(): NodeRig & { deps: SystemdDeps } {
	const r = nodeRig({ ...systemdNodeFiles(), '/var/lib/kubelet/kubeadm-flags.env': KUBEADM_FLAGS });
	const deps: SystemdDeps = {
		kubelet: r.kubeletHost,
		containerd: r.runtimeHost,
		containerdCgroup: () => containerdCgroup(r.runtimeHost),
		stopService: (s) => r.h.kernel.stop(s === 'kubelet' ? r.kubelet.id : r.runtime.id),
		startService: (s) => r.h.kernel.start(s === 'kubelet' ? r.kubelet.id : r.runtime.id),
	};
	r.host.commands.set('systemctl', systemctlCommand(deps));
	r.host.commands.set('journalctl', journalctlCommand(deps));
	r.h.advance(1_000);
	r.createPod('web', { containers: [{ name: 'nginx', image: 'nginx:1.14.2' }] });
	r.h.advance(299_000);
	return { ...r, deps };
}

