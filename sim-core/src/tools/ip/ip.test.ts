/**
 * `ip` on a flannel (VXLAN) node. The expected layouts are written by hand
 * from iproute2 6.1's print functions (ip/ipaddress.c print_linkinfo,
 * print_addrinfo, print_linkinfo_brief; ip/iproute.c print_route: each
 * field followed by a space) and checked against a real `ip` on a Linux
 * 6.x kernel for veth, bridge and VXLAN devices (qlen 1000, `@ifN`,
 * `link-netns`, trailing spaces). MAC addresses are random on a real node,
 * so the tests read them from the output and check what derives from them
 * (the EUI-64 link-local address).
 */
import { describe, expect, it } from 'vitest';
import type { CommandContext } from '../../shell/types.ts';
import { createIp } from './ip.ts';
import { linkLocal, type IpDeps } from './network.ts';

const CIDRS = [
	{ node: 'control-plane', cidr: '10.244.0.0/24', nodeIp: '192.168.56.10' },
	{ node: 'node-1', cidr: '10.244.1.0/24', nodeIp: '192.168.56.11' },
	{ node: 'node-2', cidr: '10.244.2.0/24', nodeIp: '192.168.56.12' },
];

function ipOn(pods: ReturnType<IpDeps['pods']>, extra: Partial<IpDeps> = {}) {
	const handler = createIp({ node: () => ({ name: 'node-1', ip: '192.168.56.11', index: 1 }), podCidrs: () => CIDRS, pods: () => pods, ...extra });
	return (line: string) => handler({ argv: line.split(' '), stdin: '', env: {}, host: undefined as never, shell: undefined as never } satisfies CommandContext);
}

const WEB = { namespace: 'default', name: 'web-1', uid: '0b6f2c1e-1111-4222-8333-444455556666', ip: '10.244.1.2' };
const PROXY = { namespace: 'kube-system', name: 'kube-proxy-abcde', uid: 'u-proxy', ip: '192.168.56.11', hostNetwork: true };
const MAC = '[0-9a-f]{2}(?::[0-9a-f]{2}){5}';

describe('EUI-64 link-local addresses', () => {
	it.each([
		// Pairs a Linux kernel assigned (veth and NIC addresses seen with `ip a`).
		['8e:b4:71:b0:e1:b8', 'fe80::8cb4:71ff:feb0:e1b8'],
		['02:fc:00:00:00:01', 'fe80::fc:ff:fe00:1'],
		['08:00:27:8a:4b:1c', 'fe80::a00:27ff:fe8a:4b1c'],
	])('%s gives %s', (mac, address) => {
		expect(linkLocal(mac)).toBe(address);
	});
});

describe('ip addr', () => {
	it('lists lo, the NIC, flannel.1, cni0 and one veth per pod sandbox (none for host-network pods)', () => {
		const r = ipOn([WEB, PROXY])('ip a');
		expect(r.exitCode).toBe(0);
		const lines = r.stdout.split('\n');
		// Literal lines, with {MAC}, {LL}, {VETH} and {NETNS} standing for the random parts.
		const pattern = [
			'1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000',
			'    link/loopback 00:00:00:00:00:00 brd 00:00:00:00:00:00',
			'    inet 127.0.0.1/8 scope host lo',
			'       valid_lft forever preferred_lft forever',
			'    inet6 ::1/128 scope host ',
			'       valid_lft forever preferred_lft forever',
			'2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000',
			'    link/ether 08:00:27:{MAC3} brd ff:ff:ff:ff:ff:ff',
			'    inet 192.168.56.11/24 brd 192.168.56.255 scope global eth0',
			'       valid_lft forever preferred_lft forever',
			'    inet6 {LL}/64 scope link ',
			'       valid_lft forever preferred_lft forever',
			'3: flannel.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN group default qlen 1000',
			'    link/ether {MAC} brd ff:ff:ff:ff:ff:ff',
			'    inet 10.244.1.0/32 scope global flannel.1',
			'       valid_lft forever preferred_lft forever',
			'    inet6 {LL}/64 scope link ',
			'       valid_lft forever preferred_lft forever',
			'4: cni0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default qlen 1000',
			'    link/ether {MAC} brd ff:ff:ff:ff:ff:ff',
			'    inet 10.244.1.1/24 brd 10.244.1.255 scope global cni0',
			'       valid_lft forever preferred_lft forever',
			'    inet6 {LL}/64 scope link ',
			'       valid_lft forever preferred_lft forever',
			'5: {VETH}@if2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue master cni0 state UP group default qlen 1000',
			'    link/ether {MAC} brd ff:ff:ff:ff:ff:ff link-netns {NETNS}',
			'    inet6 {LL}/64 scope link ',
			'       valid_lft forever preferred_lft forever',
			'',
		];
		const holes: Record<string, string> = {
			'{MAC3}': '[0-9a-f]{2}(?::[0-9a-f]{2}){2}',
			'{MAC}': MAC,
			'{LL}': 'fe80::[0-9a-f:]+',
			'{VETH}': 'veth[0-9a-f]{8}',
			'{NETNS}': 'cni-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}',
		};
		const toRegExp = (line: string) => new RegExp('^' + line.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[A-Z0-9]+\}/g, (hole) => holes[hole]) + '$');
		expect(lines).toHaveLength(pattern.length);
		pattern.forEach((line, i) => expect(lines[i]).toMatch(toRegExp(line)));
		// Each device's link-local address is the EUI-64 of its MAC.
		for (let i = 0; i < lines.length; i++) {
			const mac = /link\/ether (\S+)/.exec(lines[i])?.[1];
			if (!mac) continue;
			const inet6 = lines.slice(i).find((l) => l.includes('inet6'));
			expect(inet6).toContain(`inet6 ${linkLocal(mac)}/64 scope link `);
		}
	});

	it('keeps veth names stable across calls', () => {
		const ip = ipOn([WEB]);
		expect(ip('ip a').stdout).toBe(ip('ip a').stdout);
	});

	it('shows only IPv4 addresses, without link/ lines, for -4', () => {
		expect(ipOn([WEB])('ip -4 a').stdout).toBe(
			[
				'1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN group default qlen 1000',
				'    inet 127.0.0.1/8 scope host lo',
				'       valid_lft forever preferred_lft forever',
				'2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP group default qlen 1000',
				'    inet 192.168.56.11/24 brd 192.168.56.255 scope global eth0',
				'       valid_lft forever preferred_lft forever',
				'3: flannel.1: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UNKNOWN group default qlen 1000',
				'    inet 10.244.1.0/32 scope global flannel.1',
				'       valid_lft forever preferred_lft forever',
				'4: cni0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue state UP group default qlen 1000',
				'    inet 10.244.1.1/24 brd 10.244.1.255 scope global cni0',
				'       valid_lft forever preferred_lft forever',
				'',
			].join('\n'),
		);
	});

	it('prints the brief form with 16- and 14-column fields and a trailing space', () => {
		const lines = ipOn([])('ip -br a').stdout.split('\n');
		expect(lines[0]).toBe('lo               UNKNOWN        127.0.0.1/8 ::1/128 ');
		expect(lines[1]).toMatch(/^eth0 {13}UP {13}192\.168\.56\.11\/24 fe80::\S+\/64 $/);
		expect(lines[2]).toMatch(/^flannel\.1 {8}UNKNOWN {8}10\.244\.1\.0\/32 fe80::\S+\/64 $/);
	});

	it('has no cni0 before the first pod sandbox, and a carrier-less cni0 after the last one', () => {
		expect(ipOn([])('ip a').stdout).not.toContain('cni0');
		const empty = ipOn([], { cniBridgeCreated: () => true })('ip a show cni0').stdout;
		expect(empty.split('\n')[0]).toBe('4: cni0: <NO-CARRIER,BROADCAST,MULTICAST,UP> mtu 1450 qdisc noqueue state DOWN group default qlen 1000');
	});

	it.each([
		['ip a show dev nope', '', 'Device "nope" does not exist.\n', 1],
		['ip foo', '', 'Object "foo" is unknown, try "ip help".\n', 1],
		['ip addr frob', '', 'Command "frob" is unknown, try "ip address help".\n', 255],
	])('`%s` fails as iproute2 does', (line, stdout, stderr, code) => {
		expect(ipOn([WEB])(line)).toEqual({ stdout, stderr, exitCode: code });
	});

	it('prints its usage for a bare `ip`', () => {
		const r = ipOn([])('ip');
		expect(r.exitCode).toBe(255);
		expect(r.stderr.split('\n')[0]).toBe('Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }');
	});
});

describe('ip link', () => {
	it('adds mode DEFAULT and no addresses', () => {
		const lines = ipOn([WEB])('ip link').stdout.split('\n');
		expect(lines[0]).toBe('1: lo: <LOOPBACK,UP,LOWER_UP> mtu 65536 qdisc noqueue state UNKNOWN mode DEFAULT group default qlen 1000');
		expect(lines[2]).toBe('2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 qdisc fq_codel state UP mode DEFAULT group default qlen 1000');
		expect(lines[8]).toMatch(/^5: veth[0-9a-f]{8}@if2: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1450 qdisc noqueue master cni0 state UP mode DEFAULT group default qlen 1000$/);
		expect(lines).toHaveLength(11);
	});
});

describe('ip route', () => {
	it('routes other nodes’ pod CIDRs through flannel.1 (onlink, via their network address) and the local one on cni0', () => {
		expect(ipOn([WEB])('ip route').stdout).toBe(
			[
				'default via 192.168.56.1 dev eth0 proto static ',
				'10.244.0.0/24 via 10.244.0.0 dev flannel.1 onlink ',
				'10.244.1.0/24 dev cni0 proto kernel scope link src 10.244.1.1 ',
				'10.244.2.0/24 via 10.244.2.0 dev flannel.1 onlink ',
				'192.168.56.0/24 dev eth0 proto kernel scope link src 192.168.56.11 ',
				'',
			].join('\n'),
		);
	});

	it('marks the local pod route linkdown while cni0 has no carrier, and has no flannel routes without flannel', () => {
		expect(ipOn([], { cniBridgeCreated: () => true })('ip r').stdout).toContain('10.244.1.0/24 dev cni0 proto kernel scope link src 10.244.1.1 linkdown \n');
		expect(ipOn([], { flannelRunning: () => false })('ip r').stdout).toBe('default via 192.168.56.1 dev eth0 proto static \n192.168.56.0/24 dev eth0 proto kernel scope link src 192.168.56.11 \n');
	});

	it('uses the NIC name it is given (a VirtualBox box names it enp0s8)', () => {
		expect(ipOn([], { interfaceName: 'enp0s8' })('ip r').stdout.split('\n')[0]).toBe('default via 192.168.56.1 dev enp0s8 proto static ');
	});
});
