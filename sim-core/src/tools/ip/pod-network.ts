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
import { calicoVethName, devices, linkLocal, type Device, type IpDeps, type Route } from './network.ts';
import { sha1 } from '../../golang/sha1.ts';
import { utf8Encode } from '../../golang/utf8.ts';

/** flannel's VXLAN MTU and Calico's IPIP MTU on a 1500-byte network. */
const FLANNEL_MTU = 1450;
const CALICO_MTU = 1480;
/** Calico's next hop for every Pod route (cni-plugin's dataplane_linux.go). */
const CALICO_GATEWAY = '169.254.1.1';

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

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
	const d = sha1(utf8Encode(`pod-eth0/${pod.uid || `${pod.namespace}/${pod.name}`}`));
	const mac = [(d[0] & 0xfe) | 0x02, d[1], d[2], d[3], d[4], d[5]].map(hex2).join(':');
	const list: Device[] = [
		{
			index: 1,
			name: 'lo',
			flags: ['LOOPBACK', 'UP', 'LOWER_UP'],
			mtu: 65536,
			qdisc: 'noqueue',
			state: 'UNKNOWN',
			qlen: 1000,
			linkType: 'loopback',
			mac: '00:00:00:00:00:00',
			broadcastMac: '00:00:00:00:00:00',
			addresses: [
				{ family: 'inet', local: '127.0.0.1', prefix: 8, scope: 'host' },
				{ family: 'inet6', local: '::1', prefix: 128, scope: 'host' },
			],
		},
		{
			index: 2,
			name: 'eth0',
			link: `if${peer?.index ?? 3}`,
			flags: ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'],
			mtu: kind === 'calico' ? CALICO_MTU : FLANNEL_MTU,
			qdisc: 'noqueue',
			state: 'UP',
			qlen: 1000,
			linkType: 'ether',
			mac,
			broadcastMac: 'ff:ff:ff:ff:ff:ff',
			linkNetnsId: 0,
			addresses: [
				{ family: 'inet', local: podIp, prefix, ...(prefix < 32 ? { broadcast: broadcastOf(podIp, prefix) } : {}), scope: 'global' },
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
		const cidr = own?.cidr ?? `${podIp.split('.').slice(0, 3).join('.')}.0/24`;
		const gateway = `${cidr.split('/')[0].split('.').slice(0, 3).join('.')}.1`;
		table = [
			{ dst: 'default', via: gateway, dev: 'eth0' },
			{ dst: clusterCidr, via: gateway, dev: 'eth0' },
			{ dst: cidr, dev: 'eth0', proto: 'kernel', scope: 'link', src: podIp },
		];
	}
	return { devices: () => list, routes: () => table };
}

function broadcastOf(ip: string, prefix: number): string {
	const n = ip.split('.').reduce((a, o) => a * 256 + Number(o), 0);
	const host = 2 ** (32 - prefix) - 1;
	const b = (n - (n % (host + 1))) + host;
	return [24, 16, 8, 0].map((s) => Math.floor(b / 2 ** s) % 256).join('.');
}
