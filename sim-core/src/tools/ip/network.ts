/**
 * The network devices, addresses and routes of a kubeadm node running
 * flannel in its default VXLAN mode (the kubeadm tutorial's CNI; kube-flannel
 * net-conf.json `"Backend": {"Type": "vxlan"}`), as `ip` would find them in
 * the kernel:
 * - `lo`; the node's NIC (`eth0`) with its /24;
 * - `flannel.1`, the VXLAN device (MTU 1450 = 1500 − 50 bytes of VXLAN
 *   encapsulation), holding the node's pod network address as a /32;
 * - `cni0`, the bridge the CNI bridge plugin creates with the first pod
 *   sandbox (gateway .1 of the node's pod CIDR, MTU from flannel's subnet.env);
 *   it stays after the last pod goes, then with no carrier;
 * - one `veth<8 hex>@if2` per pod sandbox, enslaved to cni0, its peer (the
 *   pod's eth0, ifindex 2 in the pod's namespace) in a netns named
 *   `cni-<uuid>` by containerd;
 * - routes: the default route, the node subnet, the local pod CIDR on cni0,
 *   and `<cidr> via <network address> dev flannel.1 onlink` for every other
 *   node (flannel's vxlan backend, pkg/backend/vxlan).
 * With Calico (BGP with IPIP, calico.yaml's default) there is no bridge and
 * no flannel.1: `tunl0` with a /32 of the node's block, `cali<hash>` veths,
 * a /32 route per local Pod, a blackhole for the block, and the other
 * blocks via their nodes on tunl0 (`proto bird`).
 * MAC addresses, veth names and netns names are random on a real node; here
 * they derive from the node and pod names so they stay the same between
 * commands. Host-network pods (the control plane's static pods) get no veth.
 *
 * Mirrors flannel-io/flannel pkg/backend/vxlan/vxlan.go,
 * containernetworking/plugins plugins/main/bridge/bridge.go (cni0 and the
 * veths), containerd/containerd pkg/netns/netns_linux.go (the cni-<uuid>
 * netns), projectcalico/calico libcalico-go/lib/names/workloadendpoint.go
 * (the cali veth names), projectcalico/calico felix/ (tunl0, the /32
 * routes).
 */
import { sha1 } from '../../golang/sha1.ts';
import { utf8Encode } from '../../golang/utf8.ts';

/** What `ip` is wired to. */
export interface IpDeps {
	/** This node: its name, IP on the node network, and index among the nodes. */
	node(): { name: string; ip: string; index: number };
	/** The NIC's name (default `eth0`; a VirtualBox Ubuntu box would say `enp0s8`). */
	interfaceName?: string;
	/** The node network's prefix length (default 24) and default gateway (default: the subnet's .1). */
	prefixLength?: number;
	gateway?: string;
	/** Every node's pod CIDR and node IP (from the Node objects' spec.podCIDR). */
	podCidrs(): Array<{ node: string; cidr: string; nodeIp: string }>;
	/** Pod sandboxes on this node with their IPs. */
	pods(): Array<{ namespace: string; name: string; uid: string; ip: string; hostNetwork?: boolean }>;
	/** Whether cni0 exists (the first pod sandbox created it). Default: a pod sandbox exists now. */
	cniBridgeCreated?(): boolean;
	/** Whether flannel runs on this node (default true): without it there is no flannel.1 and no routes to other nodes. */
	flannelRunning?(): boolean;
	/** The Pod network the node's CNI config is for (default flannel); `none`: no Pod network devices. */
	podNetwork?(): 'flannel' | 'calico' | 'none';
	/** flannel: the other nodes whose flanneld has set them up (flannel adds a route to a node once it sees its lease); default every node. */
	flannelPeers?(): string[];
	/** Calico: whether calico-node runs here (Felix's tunl0 address and BIRD's routes to the other nodes' blocks). */
	calicoRunning?(): boolean;
	/** Calico: the other nodes whose calico-node runs (BIRD learns their routes from them). */
	calicoPeers?(): string[];
	/**
	 * kube-proxy's `kube-ipvs0` dummy device in IPVS mode and the service
	 * addresses bound to it (each a /32), or null/undefined when it does not
	 * exist (network/ipvs/proxier.ts).
	 */
	kubeIpvs0?(): { addresses: string[] } | null | undefined;
}

/** One IPv4 or IPv6 address on a device. */
export interface Address {
	family: 'inet' | 'inet6';
	local: string;
	prefix: number;
	broadcast?: string;
	scope: 'host' | 'global' | 'link';
}

/** One network device, as `ip link` and `ip addr` report it. */
export interface Device {
	index: number;
	name: string;
	/** `@if2` for a veth whose peer is in another namespace. */
	link?: string;
	flags: string[];
	mtu: number;
	qdisc: string;
	master?: string;
	state: 'UP' | 'DOWN' | 'UNKNOWN';
	qlen: number;
	linkType: 'loopback' | 'ether' | 'ipip';
	mac: string;
	broadcastMac: string;
	linkNetns?: string;
	/** The peer's namespace by id, as a Pod's eth0 names the node's (`link-netnsid 0`). */
	linkNetnsId?: number;
	addresses: Address[];
}

/** One route in the main table. */
export interface Route {
	/** A route type iproute2 prints first (Calico's `blackhole` for its own block). */
	type?: 'blackhole';
	/** `default` or `a.b.c.d/n`. */
	dst: string;
	via?: string;
	dev?: string;
	proto?: 'kernel' | 'static' | 'bird';
	scope?: 'link';
	src?: string;
	onlink?: boolean;
	linkdown?: boolean;
}

/** flannel's VXLAN MTU on a 1500-byte network: 50 bytes go to the outer Ethernet, IP, UDP and VXLAN headers. */
export const FLANNEL_MTU = 1450;
/** The kernel's DEFAULT_TX_QUEUE_LEN, which loopback, Ethernet, bridge, veth and VXLAN devices keep on Linux 6.x. */
export const TX_QUEUE_LEN = 1000;
/** The loopback MTU since Linux 3.x (drivers/net/loopback.c: 64 KiB). */
const LOOPBACK_MTU = 65536;

function digest(text: string): number[] {
	return sha1(utf8Encode(text));
}

const hex2 = (b: number) => b.toString(16).padStart(2, '0');

/** A locally administered unicast MAC (as the kernel gives veths and bridges), stable for `seed`. */
export function randomMac(seed: string): string {
	const d = digest(seed);
	return [(d[0] & 0xfe) | 0x02, d[1], d[2], d[3], d[4], d[5]].map(hex2).join(':');
}

/** The IPv6 link-local address the kernel derives from a MAC (EUI-64), in iproute2's compressed form. */
export function linkLocal(mac: string): string {
	const b = mac.split(':').map((x) => parseInt(x, 16));
	const groups = [0xfe80, 0, 0, 0, ((b[0] ^ 2) << 8) | b[1], (b[2] << 8) | 0xff, (0xfe << 8) | b[3], (b[4] << 8) | b[5]];
	return compressIpv6(groups);
}

/** inet_ntop's IPv6 form: the longest run of two or more zero groups becomes `::`. */
function compressIpv6(groups: number[]): string {
	let bestStart = -1;
	let bestLength = 0;
	for (let i = 0; i < 8; ) {
		if (groups[i] !== 0) {
			i++;
			continue;
		}
		let j = i;
		while (j < 8 && groups[j] === 0) j++;
		if (j - i > bestLength && j - i >= 2) [bestStart, bestLength] = [i, j - i];
		i = j;
	}
	const text = groups.map((g) => g.toString(16));
	if (bestStart < 0) return text.join(':');
	return `${text.slice(0, bestStart).join(':')}::${text.slice(bestStart + bestLength).join(':')}`;
}

/** a.b.c.d to a 32-bit number. */
export function ipToNumber(ip: string): number {
	return ip.split('.').reduce((n, part) => n * 256 + Number(part), 0);
}

function numberToIp(n: number): string {
	return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** The network, broadcast and first host of `ip/prefix`. */
export function subnet(ip: string, prefix: number): { network: string; broadcast: string; first: string } {
	const size = 2 ** (32 - prefix);
	const base = Math.floor(ipToNumber(ip) / size) * size;
	return { network: numberToIp(base), broadcast: numberToIp(base + size - 1), first: numberToIp(base + 1) };
}

/** `lo`, as every network namespace has it (ifindex 1). */
export function loopbackDevice(): Device {
	return {
		index: 1,
		name: 'lo',
		flags: ['LOOPBACK', 'UP', 'LOWER_UP'],
		mtu: LOOPBACK_MTU,
		qdisc: 'noqueue',
		state: 'UNKNOWN',
		qlen: TX_QUEUE_LEN,
		linkType: 'loopback',
		mac: '00:00:00:00:00:00',
		broadcastMac: '00:00:00:00:00:00',
		addresses: [
			{ family: 'inet', local: '127.0.0.1', prefix: 8, scope: 'host' },
			{ family: 'inet6', local: '::1', prefix: 128, scope: 'host' },
		],
	};
}

/** The node's devices, in ifindex order. */
export function devices(deps: IpDeps): Device[] {
	const node = deps.node();
	const prefix = deps.prefixLength ?? 24;
	const nic = deps.interfaceName ?? 'eth0';
	const up = ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'];
	const out: Device[] = [loopbackDevice()];
	// VirtualBox's OUI, as on the 192.168.56.0/24 host-only network kubeadm labs use.
	const d = digest(`nic/${node.name}`);
	const nicMac = ['08', '00', '27', hex2(d[0]), hex2(d[1]), hex2(d[2])].join(':');
	out.push({
		index: 2,
		name: nic,
		flags: up,
		// Ethernet's MTU, and Ubuntu's default queueing discipline (net.core.default_qdisc = fq_codel).
		mtu: 1500,
		qdisc: 'fq_codel',
		state: 'UP',
		qlen: TX_QUEUE_LEN,
		linkType: 'ether',
		mac: nicMac,
		broadcastMac: 'ff:ff:ff:ff:ff:ff',
		addresses: [
			{ family: 'inet', local: node.ip, prefix, broadcast: subnet(node.ip, prefix).broadcast, scope: 'global' },
			{ family: 'inet6', local: linkLocal(nicMac), prefix: 64, scope: 'link' },
		],
	});
	const own = deps.podCidrs().find((c) => c.node === node.name);
	const kind = deps.podNetwork?.() ?? 'flannel';
	if (kind === 'calico') return [...out, ...calicoDevices(deps, own, out.length)];
	if (kind === 'flannel' && (deps.flannelRunning?.() ?? true) && own) {
		const mac = randomMac(`flannel.1/${node.name}`);
		out.push({
			index: out.length + 1,
			name: 'flannel.1',
			flags: up,
			mtu: FLANNEL_MTU,
			qdisc: 'noqueue',
			state: 'UNKNOWN',
			qlen: TX_QUEUE_LEN,
			linkType: 'ether',
			mac,
			broadcastMac: 'ff:ff:ff:ff:ff:ff',
			addresses: [
				{ family: 'inet', local: own.cidr.split('/')[0], prefix: 32, scope: 'global' },
				{ family: 'inet6', local: linkLocal(mac), prefix: 64, scope: 'link' },
			],
		});
	}
	const ipvs = deps.kubeIpvs0?.();
	if (ipvs) {
		// A dummy device: no ARP, never up, no queue (tx_queue_len 0, so no `qlen`), and its addresses are /32s.
		out.push({
			index: out.length + 1,
			name: 'kube-ipvs0',
			flags: ['BROADCAST', 'NOARP'],
			mtu: 1500,
			qdisc: 'noop',
			state: 'DOWN',
			qlen: 0,
			linkType: 'ether',
			mac: randomMac(`kube-ipvs0/${node.name}`),
			broadcastMac: 'ff:ff:ff:ff:ff:ff',
			addresses: ipvs.addresses.map((a) => ({ family: 'inet' as const, local: a, prefix: 32, scope: 'global' as const })),
		});
	}
	const pods = deps.pods().filter((p) => !p.hostNetwork);
	const bridge = own && kind === 'flannel' && (deps.cniBridgeCreated?.() ?? pods.length > 0);
	if (bridge) {
		const mac = randomMac(`cni0/${node.name}`);
		const gw = subnet(own.cidr.split('/')[0], Number(own.cidr.split('/')[1])).first;
		const carrier = pods.length > 0;
		out.push({
			index: out.length + 1,
			name: 'cni0',
			flags: carrier ? up : ['NO-CARRIER', 'BROADCAST', 'MULTICAST', 'UP'],
			mtu: FLANNEL_MTU,
			qdisc: 'noqueue',
			state: carrier ? 'UP' : 'DOWN',
			qlen: TX_QUEUE_LEN,
			linkType: 'ether',
			mac,
			broadcastMac: 'ff:ff:ff:ff:ff:ff',
			addresses: [
				{ family: 'inet', local: gw, prefix: Number(own.cidr.split('/')[1]), broadcast: subnet(gw, Number(own.cidr.split('/')[1])).broadcast, scope: 'global' },
				{ family: 'inet6', local: linkLocal(mac), prefix: 64, scope: 'link' },
			],
		});
		for (const pod of pods) {
			const h = digest(`veth/${pod.uid || `${pod.namespace}/${pod.name}`}`);
			const vethMac = randomMac(`veth-mac/${pod.uid || `${pod.namespace}/${pod.name}`}`);
			const ns = h.slice(4, 20).map(hex2).join('');
			out.push({
				index: out.length + 1,
				name: `veth${h.slice(0, 4).map(hex2).join('')}`,
				link: 'if2',
				flags: up,
				mtu: FLANNEL_MTU,
				qdisc: 'noqueue',
				master: 'cni0',
				state: 'UP',
				qlen: TX_QUEUE_LEN,
				linkType: 'ether',
				mac: vethMac,
				broadcastMac: 'ff:ff:ff:ff:ff:ff',
				linkNetns: `cni-${ns.slice(0, 8)}-${ns.slice(8, 12)}-${ns.slice(12, 16)}-${ns.slice(16, 20)}-${ns.slice(20, 32)}`,
				addresses: [{ family: 'inet6', local: linkLocal(vethMac), prefix: 64, scope: 'link' }],
			});
		}
	}
	return out;
}

/** Calico's veth name for a Pod: `cali` and the first 11 hex digits of SHA-1 over `<namespace>.<pod>` (libcalico-go VethNameForWorkload). */
export function calicoVethName(namespace: string, pod: string): string {
	return `cali${digest(`${namespace}.${pod}`).map(hex2).join('').slice(0, 11)}`;
}

/** Calico's MTU for IPIP on a 1500-byte network: 20 bytes go to the outer IP header. */
export const CALICO_IPIP_MTU = 1480;

/**
 * Calico's devices (BGP with IPIP, calico.yaml's default): `tunl0`, the
 * kernel's IPIP device, which Felix brings up with an address of the
 * node's block (its first, as a /32) while calico-node runs, and one
 * `cali<hash>@if2` veth per Pod with no bridge (a /32 route each).
 */
function calicoDevices(deps: IpDeps, own: { cidr: string } | undefined, before: number): Device[] {
	const out: Device[] = [];
	const running = deps.calicoRunning?.() ?? true;
	// The ipip module's fallback device exists once loaded; Felix gives it its address and brings it up.
	out.push({
		index: before + 1,
		name: 'tunl0',
		link: 'NONE',
		flags: running && own ? ['NOARP', 'UP', 'LOWER_UP'] : ['NOARP'],
		mtu: running ? CALICO_IPIP_MTU : 1480,
		qdisc: running && own ? 'noqueue' : 'noop',
		state: running && own ? 'UNKNOWN' : 'DOWN',
		qlen: TX_QUEUE_LEN,
		linkType: 'ipip',
		mac: '0.0.0.0',
		broadcastMac: '0.0.0.0',
		addresses: running && own ? [{ family: 'inet', local: own.cidr.split('/')[0], prefix: 32, scope: 'global' }] : [],
	});
	for (const pod of deps.pods().filter((p) => !p.hostNetwork)) {
		const key = pod.uid || `${pod.namespace}/${pod.name}`;
		const h = digest(`veth/${key}`);
		const ns = h.slice(4, 20).map(hex2).join('');
		// Calico gives every host-side veth the same MAC, ee:ee:ee:ee:ee:ee (the Pod's default gateway answers ARP with it).
		const mac = 'ee:ee:ee:ee:ee:ee';
		out.push({
			index: before + out.length + 1,
			name: calicoVethName(pod.namespace, pod.name),
			link: 'if2',
			flags: ['BROADCAST', 'MULTICAST', 'UP', 'LOWER_UP'],
			mtu: CALICO_IPIP_MTU,
			qdisc: 'noqueue',
			state: 'UP',
			qlen: TX_QUEUE_LEN,
			linkType: 'ether',
			mac,
			broadcastMac: 'ff:ff:ff:ff:ff:ff',
			linkNetns: `cni-${ns.slice(0, 8)}-${ns.slice(8, 12)}-${ns.slice(12, 16)}-${ns.slice(16, 20)}-${ns.slice(20, 32)}`,
			addresses: [{ family: 'inet6', local: 'fe80::ecee:eeff:feee:eeee', prefix: 64, scope: 'link' }],
		});
	}
	return out;
}

/** The main routing table, in the kernel's order (by destination address, then prefix length). */
export function routes(deps: IpDeps): Route[] {
	const node = deps.node();
	const prefix = deps.prefixLength ?? 24;
	const nic = deps.interfaceName ?? 'eth0';
	const net = subnet(node.ip, prefix);
	const list: Route[] = [
		{ dst: 'default', via: deps.gateway ?? net.first, dev: nic, proto: 'static' },
		{ dst: `${net.network}/${prefix}`, dev: nic, proto: 'kernel', scope: 'link', src: node.ip },
	];
	const devs = devices(deps);
	const cni0 = devs.find((d) => d.name === 'cni0');
	const own = deps.podCidrs().find((c) => c.node === node.name);
	if ((deps.podNetwork?.() ?? 'flannel') === 'calico') list.push(...calicoRoutes(deps, node.name, own));
	if (cni0 && own) list.push({ dst: own.cidr, dev: 'cni0', proto: 'kernel', scope: 'link', src: cni0.addresses[0].local, linkdown: cni0.state === 'DOWN' });
	if (devs.some((d) => d.name === 'flannel.1')) {
		const peers = deps.flannelPeers?.();
		for (const other of deps.podCidrs()) {
			if (other.node === node.name || (peers && !peers.includes(other.node))) continue;
			list.push({ dst: other.cidr, via: other.cidr.split('/')[0], dev: 'flannel.1', onlink: true });
		}
	}
	const key = (r: Route) => (r.dst === 'default' ? [0, 0] : [ipToNumber(r.dst.split('/')[0]), Number(r.dst.split('/')[1] ?? 32)]);
	return list.sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
}

/**
 * Calico's routes (BIRD and Felix): a blackhole for the node's own block
 * (an address of it nobody holds goes nowhere), a /32 to each local Pod on
 * its veth, and `via <node> dev tunl0 proto bird onlink` to every other
 * node's block while BIRD runs here and has heard of it.
 */
function calicoRoutes(deps: IpDeps, nodeName: string, own: { cidr: string } | undefined): Route[] {
	const list: Route[] = [];
	const running = deps.calicoRunning?.() ?? true;
	if (own && running) list.push({ type: 'blackhole', dst: own.cidr, proto: 'bird' });
	for (const pod of deps.pods().filter((p) => !p.hostNetwork)) list.push({ dst: pod.ip, dev: calicoVethName(pod.namespace, pod.name), scope: 'link' });
	if (running) {
		const peers = deps.calicoPeers?.();
		for (const other of deps.podCidrs()) {
			if (other.node === nodeName || (peers && !peers.includes(other.node))) continue;
			list.push({ dst: other.cidr, via: other.nodeIp, dev: 'tunl0', proto: 'bird', onlink: true });
		}
	}
	return list;
}
