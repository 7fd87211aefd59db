/**
 * A Pod's own network namespace as `ip` inside the Pod finds it: `lo`, and
 * `eth0@ifN`, the Pod's end of the veth pair whose other end (ifindex N in
 * the node's namespace, `link-netnsid 0`) is the node's `veth…` on cni0
 * (flannel) or its `cali…` device (Calico). The addresses and routes are
 * the ones the CNI plugin gave it:
 * - flannel delegates to the bridge plugin with isDefaultGateway and
 *   host-local's route to the whole cluster network: eth0 holds the Pod IP
 *   in the node's /24 (MTU 1450, flannel's VXLAN), the default route and
 *   the cluster network go via cni0's address (.1), and the node's /24 is
 *   on-link;
 * - Calico gives the Pod a /32 and a default route via 169.254.1.1, a
 *   link-local next hop its host-side veth answers ARP for (proxy ARP).
 * MACs derive from the Pod, so they stay the same between commands. The
 * output is iproute2's in every image (netshoot and agnhost carry it;
 * busybox's own `ip` applet prints the same lines with a few fields less).
 *
 * Mirrors containernetworking/plugins plugins/main/bridge/bridge.go
 * (isDefaultGateway, the gateway address), flannel-io/cni-plugin
 * flannel_linux.go (the delegate's routes), projectcalico/calico
 * cni-plugin/pkg/dataplane/linux/dataplane_linux.go (169.254.1.1).
 */
import type { IpView } from './ip.ts';
import { CALICO_IPIP_MTU, FLANNEL_MTU, TX_QUEUE_LEN, calicoVethName, devices, linkLocal, loopbackDevice, randomMac, subnet, type Device, type IpDeps, type Route } from './network.ts';

/** Calico's next hop for every Pod route (cni-plugin's dataplane_linux.go). */
const CALICO_GATEWAY = '169.254.1.1';

/** The view from the Pod whose address is `podIp` on the node `deps` describes; undefined for a Pod the node does not run. */
export function podIpView(deps: IpDeps, podIp: string, clusterCidr: string): IpView | undefined {
	const pods = deps.pods().filter((p) => !p.hostNetwork);
	const at = pods.findIndex((p) => p.ip === podIp);
	if (at < 0) return undefined;
	const pod = pods[at];
	const kind = deps.podNetwork?.() ?? 'flannel';
	const host = devices(deps);
	// The node's end of the pair: Calico's by its name, flannel's in the order the sandboxes came (one veth each).
	const peer = kind === 'calico' ? host.find((d) => d.name === calicoVethName(pod.namespace, pod.name)) : host.filter((d) => d.master === 'cni0')[at];
	const own = deps.podCidrs().find((c) => c.node === deps.node().name);
	const prefix = kind === 'calico' ? 32 : Number(own?.cidr.split('/')[1] ?? 24);
	const mac = randomMac(`pod-eth0/${pod.uid || `${pod.namespace}/${pod.name}`}`);
	const list: Device[] = [
		loopbackDevice(),
		{
			index: 2,
			name: 'eth0',
			link: `if${peer?.index ?? 3}`,
			flags: ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'],
			mtu: kind === 'calico' ? CALICO_IPIP_MTU : FLANNEL_MTU,
			qdisc: 'noqueue',
			state: 'UP',
			qlen: TX_QUEUE_LEN,
			linkType: 'ether',
			mac,
			broadcastMac: 'ff:ff:ff:ff:ff:ff',
			linkNetnsId: 0,
			addresses: [
				{ family: 'inet', local: podIp, prefix, ...(prefix < 32 ? { broadcast: subnet(podIp, prefix).broadcast } : {}), scope: 'global' },
				{ family: 'inet6', local: linkLocal(mac), prefix: 64, scope: 'link' },
			],
		},
	];
	let table: Route[];
	if (kind === 'calico') {
		table = [
			{ dst: 'default', via: CALICO_GATEWAY, dev: 'eth0' },
			{ dst: CALICO_GATEWAY, dev: 'eth0', scope: 'link' },
		];
	} else {
		// The bridge's address, cni0, is the first of the node's range.
		const range = subnet(podIp, prefix);
		const cidr = `${range.network}/${prefix}`;
		const gateway = range.first;
		table = [
			{ dst: 'default', via: gateway, dev: 'eth0' },
			{ dst: clusterCidr, via: gateway, dev: 'eth0' },
			{ dst: cidr, dev: 'eth0', proto: 'kernel', scope: 'link', src: podIp },
		];
	}
	return { devices: () => list, routes: () => table };
}
