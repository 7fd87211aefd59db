/**
 * One machine's network side, wired: its kernel's packet-filter state
 * (host/netfilter/dataplane.ts, durable with the node, lost with its power)
 * and its kube-proxy (`kube-proxy/<node>`), which runs while the kube-proxy
 * DaemonSet's container runs, as the control plane's processes run with
 * their static pods' containers. kube-proxy reads its mode from the
 * configuration file its container mounts (the `kube-proxy` ConfigMap at
 * /var/lib/kube-proxy/config.conf); its log lines go to that container's
 * log.
 *
 * Also here: where a connection from a machine or a Pod lands
 * (network/service-traffic.ts over every node's rules), for curl; a
 * connection to a load balancer of the cloud goes first to the host it
 * picks (cluster/sim-cloud.ts).
 *
 * Mirrors nothing upstream: the simulator's wiring of one machine's network
 * side (its kernel rules and its kube-proxy).
 */
import { ApiClient } from '../client/client.ts';
import { defaultConfig, parseKubeProxyConfig, type KubeProxyConfig } from '../network/config.ts';
import { emptyDataplane, type NodeDataplaneState } from '../host/netfilter/dataplane.ts';
import { KubeProxy } from '../network/kube-proxy.ts';
import { connect, type ConnectSource, type Landing, type NodeNetworkView } from '../network/service-traffic.ts';
import type { SystemComponent } from '../runtime/images.ts';
import type { MachineContext, NetworkContext } from './wiring.ts';
import type { NodeHost } from './node-host.ts';
import { NETWORK } from './options.ts';
import { deepCopy } from '../golang/json.ts';
import { emptyConntrack, trackFlow, type ConntrackTable } from '../host/netfilter/conntrack.ts';

/** Where kube-proxy's container mounts its ConfigMap (kubeadm's DaemonSet). */
const CONFIG_MOUNT = '/var/lib/kube-proxy';

export class NodeNetwork {
	/** The kernel's rules; kept in place (kube-proxy holds it) and emptied when the power goes. */
	readonly dataplane: NodeDataplaneState;
	readonly kubeProxy: KubeProxy;

	constructor(
		/** The cluster, as this machine sees it. */
		private readonly cluster: MachineContext,
		private readonly host: NodeHost,
		restore?: NodeDataplaneState,
	) {
		this.dataplane = restore ? (deepCopy(restore) as NodeDataplaneState) : emptyDataplane();
		this.kubeProxy = new KubeProxy(cluster.kernel, {
			nodeName: host.name,
			nodeIp: host.ip,
			client: new ApiClient(cluster.transport, `kube-proxy/${host.name}`),
			dataplane: this.dataplane,
			config: () => this.readConfig(),
			nodeAddresses: () => this.nodeAddresses(),
			serviceCIDRs: () => [NETWORK.serviceCidr],
			log: (stream, text) => {
				host.runtime.appendComponentLog('kube-proxy', stream, text);
			},
		});
		cluster.kernel.register(this.kubeProxy);
	}

	/** A system container started or stopped: kube-proxy's process follows its container. */
	systemContainer(component: SystemComponent, started: boolean): void {
		if (component !== 'kube-proxy') return;
		if (started) this.cluster.kernel.start(this.kubeProxy.id);
		else this.cluster.kernel.stop(this.kubeProxy.id);
	}

	/** The machine lost power: kube-proxy ends and the kernel's tables are gone (the kubelet's chains come back with it). */
	powerLost(): void {
		this.cluster.kernel.stop(this.kubeProxy.id);
		Object.assign(this.dataplane, emptyDataplane());
		// So are the Pod network's devices (flannel.1, tunl0): its daemon must set them up again.
		delete this.dataplane.podNetwork;
	}

	snapshot(): NodeDataplaneState {
		return deepCopy(this.dataplane) as NodeDataplaneState;
	}

	/**
	 * kube-proxy's --config file, as its container sees it (the `kube-proxy`
	 * ConfigMap, where the cluster's kubeProxyMode option was written: the
	 * only way the mode reaches it, as on a kubeadm cluster). Upstream's
	 * defaults when it cannot be read.
	 */
	private readConfig(): KubeProxyConfig {
		const fallback = defaultConfig('', NETWORK.podCidr);
		const container = Object.values(this.host.runtimeState.containers).find((c) => c.name === 'kube-proxy' && c.state === 'CONTAINER_RUNNING');
		const mount = container?.ctx.mounts?.find((m) => m.containerPath === CONFIG_MOUNT);
		if (!mount) return fallback;
		const path = `${mount.hostPath}/config.conf`;
		try {
			if (!this.host.fs.exists(path)) return fallback;
			return parseKubeProxyConfig(this.host.fs.readFile(path)) ?? fallback;
		} catch {
			return fallback;
		}
	}

	/** The node's addresses but kube-ipvs0's: the NIC, flannel.1 (the pod CIDR's network address) and cni0 once a Pod made it. */
	nodeAddresses(): string[] {
		const base = this.host.podCidr.split('/')[0].split('.').map(Number);
		const out = [this.host.ip, base.join('.')];
		if (Object.values(this.host.runtimeState.sandboxes).some((s) => !s.hostNetwork)) out.push([base[0], base[1], base[2], base[3] + 1].join('.'));
		return out;
	}

	/** The pod CIDRs of the other nodes routed from here (flannel.1 or tunl0 routes): none while this node's overlay is down. */
	private podRoutes(): string[] {
		if (!this.host.cni.overlayUp()) return [];
		return [...(this.cluster.peers?.() ?? [])].filter((h) => h !== this.host && h.registersNode && h.cni.overlayUp()).map((h) => h.podCidr);
	}

	/** What the traffic model sees of this node. */
	view(): NodeNetworkView {
		const host = this.host;
		return {
			name: host.name,
			ip: host.ip,
			podCidr: host.podCidr,
			dataplane: this.dataplane,
			localAddresses: [...this.nodeAddresses(), ...(this.dataplane.ipvs.dummy?.addresses ?? [])],
			podIps: Object.values(host.runtimeState.sandboxes)
				.filter((s) => s.state === 'SANDBOX_READY' && !s.hostNetwork)
				.map((s) => s.ip),
			// The other nodes' pod CIDRs this one has the Pod network's route to: both ends' overlay (or tunnel) up.
			podRoutes: this.podRoutes(),
			unreachable: host.poweredOff || this.cluster.isPartitioned(host.name),
			poweredOff: host.poweredOff,
			nowMs: this.cluster.kernel.nowMs,
			random: () => this.cluster.kernel.rng(`network/${host.name}`).float(),
		};
	}
}

/** Where a connection lands on the cluster's network (and what the nodes' conntrack tables keep of it). */
export function clusterConnect(cluster: NetworkContext, source: ConnectSource, ip: string, port: number, proto: 'tcp' | 'udp' = 'tcp'): Landing {
	const views = [...cluster.hosts.values()].map((h) => h.network.view());
	// A load balancer of the cloud (cluster/sim-cloud.ts): it forwards to a healthy host's NodePort, keeping the client's address.
	// From inside the cluster kube-proxy's rules for the load balancer's IP catch the packet first (network/ proxiers).
	const balanced = source.kind === 'workstation' ? cluster.cloud?.route(ip, port) : undefined;
	if (balanced) {
		if (balanced.kind === 'drop') return { kind: 'timeout' };
		const landing = connect(views, source, balanced.nodeIp, balanced.nodePort, proto);
		trackConnection(cluster, source, balanced.nodeIp, balanced.nodePort, proto, landing);
		return landing;
	}
	const landing = connect(views, source, ip, port, proto);
	trackConnection(cluster, source, ip, port, proto, landing);
	return landing;
}

/** ip_local_port_range's default: where a client's ephemeral source port is drawn. */
const EPHEMERAL_PORT_MIN = 32_768;
const EPHEMERAL_PORT_MAX = 60_999;

function conntrackOf(host: NodeHost): ConntrackTable {
	return (host.network.dataplane.conntrack ??= emptyConntrack());
}

/**
 * The conntrack entries a connection leaves: on the node whose rules it
 * went through first (the client's node, or the node a workstation
 * addressed), with the NAT those rules did (the reply comes from the
 * endpoint, to the masqueraded address); and on the node that delivered it
 * to a Pod or process elsewhere, as it arrived there. A packet the filter
 * table rejected or dropped never confirmed an entry. The two-hop case (a
 * NodePort reached on another node's address) is recorded with the final
 * endpoint on the first node, a simplification. The client's source port
 * comes from its own seeded stream, so no other draw moves.
 */
function trackConnection(cluster: NetworkContext, source: ConnectSource, ip: string, port: number, proto: 'tcp' | 'udp', landing: Landing): void {
	if (landing.decision?.kind === 'reject' || landing.decision?.kind === 'drop') return;
	const first = cluster.hosts.get(source.kind === 'workstation' ? ([...cluster.hosts.values()].find((h) => h.ip === ip)?.name ?? '') : source.node);
	if (!first || first.poweredOff) return;
	const clientIp = source.kind === 'workstation' ? source.ip : source.kind === 'pod' ? (ip.startsWith('127.') || ip === source.ip ? '' : source.ip) : ip.startsWith('127.') ? '127.0.0.1' : first.ip;
	// Inside a Pod's own namespace (its loopback, its own address) no node sees the packet.
	if (!clientIp) return;
	const sport = EPHEMERAL_PORT_MIN + cluster.kernel.rng(`conntrack/${first.name}`).int(EPHEMERAL_PORT_MAX - EPHEMERAL_PORT_MIN + 1);
	const now = cluster.kernel.nowMs;
	const orig = { src: clientIp, dst: ip, sport, dport: port };
	const reached = landing.kind === 'pod' || landing.kind === 'host';
	const result = reached ? 'answered' : landing.kind === 'refused' ? 'reset' : 'silent';
	const reply = reached ? { src: landing.ip, dst: landing.clientIp, sport: landing.port, dport: sport } : { src: ip, dst: clientIp, sport: port, dport: sport };
	trackFlow(conntrackOf(first), { proto, orig, reply, result }, now);
	if (reached && landing.node !== first.name) {
		const there = cluster.hosts.get(landing.node);
		if (there && !there.poweredOff) {
			const arrived = { src: landing.clientIp, dst: landing.ip, sport, dport: landing.port };
			trackFlow(conntrackOf(there), { proto, orig: arrived, reply: { src: landing.ip, dst: landing.clientIp, sport: landing.port, dport: sport }, result }, now);
		}
	}
}
