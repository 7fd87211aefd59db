/**
 * One machine's Pod network, wired: what its add-on's daemon leaves on the
 * node and what the kernel keeps of it.
 * - flanneld (the kube-flannel-ds container) writes /run/flannel/subnet.env
 *   when it starts (FLANNEL_NETWORK from net-conf.json, FLANNEL_SUBNET the
 *   first address of the Node's podCIDR, FLANNEL_MTU 1450 for VXLAN,
 *   FLANNEL_IPMASQ from --ip-masq) and sets up flannel.1 and a route to
 *   every other node whose flanneld ran. When flanneld stops, none of that
 *   is undone: the file on /run and the device stay until the machine
 *   reboots, so running Pods keep their network, and new sandboxes still
 *   find subnet.env; a node whose flanneld never ran (a new node, a
 *   rebooted one with its DaemonSet deleted) has no file and no routes.
 * - calico-node writes /var/lib/calico/nodename (on disk: it survives a
 *   reboot) and Felix sets up tunl0 and the routes to the other nodes'
 *   blocks while it runs (BIRD withdraws them when it stops).
 * - Which add-on's devices the node has is what its daemon set up in the
 *   kernel since boot (the dataplane's podNetwork record); before any did,
 *   the CNI config containerd loads (10-flannel.conflist or
 *   10-calico.conflist) says which it will be. Removing the config later
 *   stops new sandboxes only: running Pods keep their veths and routes.
 *
 * Mirrors flannel-io/flannel pkg/subnet/subnet.go (WriteSubnetFile),
 * flannel-io/flannel main.go, projectcalico/calico node/pkg/lifecycle/startup/
 * (the nodename file).
 */
import type { NodeDisk } from '../host/disk.ts';
import { DEFAULT_CNI_PATHS, loadNetwork } from '../runtime/cni.ts';
import { CALICO_NODENAME_FILE } from '../runtime/cni-plugins.ts';
import type { NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import type { SystemComponent } from '../runtime/images.ts';
import type { RuntimeHostState } from '../runtime/host-state.ts';
import { NETWORK } from './options.ts';

/** flannel's VXLAN MTU on a 1500-byte network (pkg/backend/vxlan: the NIC's MTU less 50 bytes of encapsulation). */
const FLANNEL_VXLAN_MTU = 1450;

/** Which Pod network the node's CNI config is for. */
export type PodNetworkKind = 'flannel' | 'calico' | 'none';

export class NodeCni {
	constructor(
		private readonly host: { name: string; podCidr: string; poweredOff: boolean; runtimeState: RuntimeHostState },
		private readonly disk: NodeDisk,
		/** The node kernel's network state (lost with the power), where the daemons' devices are recorded. */
		private readonly kernel: () => NodeDataplaneState,
	) {}

	/** The Pod network whose devices the kernel has (set up since boot), else the one the CNI config containerd loads is for. */
	kind(): PodNetworkKind {
		const set = this.kernel().podNetwork;
		if (set?.flannel) return 'flannel';
		if (set?.calico) return 'calico';
		const type = loadNetwork(this.disk, DEFAULT_CNI_PATHS)?.plugins[0]?.type;
		return type === 'flannel' || type === 'calico' ? type : 'none';
	}

	/** A daemon of the add-on started in its container: what it writes on the node at start-up, and the devices it sets up. */
	containerStarted(component: SystemComponent, containerId: string): void {
		const kernel = this.kernel();
		if (component === 'flanneld') {
			this.disk.writeFile(this.hostPathOf(containerId, '/run/flannel', '/run/flannel') + '/subnet.env', this.subnetEnv(containerId));
			kernel.podNetwork = { ...kernel.podNetwork, flannel: true };
		}
		if (component === 'calico-node') {
			this.disk.writeFile(this.hostPathOf(containerId, '/var/lib/calico', '/var/lib/calico') + '/nodename', this.host.name);
			kernel.podNetwork = { ...kernel.podNetwork, calico: true };
		}
	}

	/**
	 * flanneld has set up this node since it booted: flannel.1 and its routes
	 * are in the kernel, and stay there when flanneld stops or its files are
	 * removed (new sandboxes then fail on the missing subnet.env, ./cni-plugins.ts).
	 */
	flannelUp(): boolean {
		return !this.host.poweredOff && this.kernel().podNetwork?.flannel === true;
	}

	/** calico-node's container runs here (Felix keeps tunl0 and BIRD the routes while it does). */
	calicoRunning(): boolean {
		if (this.host.poweredOff) return false;
		return Object.values(this.host.runtimeState.containers).some((c) => c.state === 'CONTAINER_RUNNING' && !!c.program && c.name === 'calico-node');
	}

	/** Whether calico-node ever set the node up (its nodename file). */
	calicoInstalled(): boolean {
		return this.disk.readFile(CALICO_NODENAME_FILE) !== undefined;
	}

	/** Whether this node's Pod network carries traffic to other nodes now (its overlay or tunnel is up). */
	overlayUp(): boolean {
		const kind = this.kind();
		if (kind === 'flannel') return this.flannelUp();
		if (kind === 'calico') return this.calicoRunning();
		return false;
	}

	/** subnet.env as WriteSubnetFile writes it. */
	private subnetEnv(containerId: string): string {
		let network: string = NETWORK.podCidr;
		const confDir = this.hostPathOf(containerId, '/etc/kube-flannel', '');
		try {
			const conf = JSON.parse((confDir && this.disk.readFile(`${confDir}/net-conf.json`)) || '{}') as { Network?: string };
			if (typeof conf.Network === 'string') network = conf.Network;
		} catch {
			// A net-conf.json that does not parse: flanneld would exit; the cluster's network stands in.
		}
		const [base, bits] = this.host.podCidr.split('/');
		const octets = base.split('.').map(Number);
		octets[3] += 1;
		const ipMasq = this.host.runtimeState.containers[containerId]?.ctx.argv.includes('--ip-masq') ?? false;
		return `FLANNEL_NETWORK=${network}\nFLANNEL_SUBNET=${octets.join('.')}/${bits}\nFLANNEL_MTU=${FLANNEL_VXLAN_MTU}\nFLANNEL_IPMASQ=${ipMasq}\n`;
	}

	/** Where a container's mount at `containerPath` comes from on the node, or `fallback`. */
	private hostPathOf(containerId: string, containerPath: string, fallback: string): string {
		const mounts = this.host.runtimeState.containers[containerId]?.ctx.mounts ?? [];
		const clean = (p: string) => p.replace(/\/+$/, '');
		return clean(mounts.find((m) => clean(m.containerPath) === containerPath)?.hostPath ?? fallback);
	}
}
