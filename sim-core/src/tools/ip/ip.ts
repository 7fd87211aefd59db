/**
 * `ip` from iproute2 6.1 (Ubuntu 24.04's), for looking at a node's network:
 * `ip a`/`ip addr [show [dev] X]`, `ip -4 a`, `ip -6 a`, `ip -br a`, `ip
 * link`/`ip -br link`, `ip route`/`ip r`. Output follows iproute2's: every
 * field is printed with a trailing space, so inet6 lines and route lines end
 * in a space; IPv4 address lines end with the device label. Object names
 * match by prefix in the order of ip.c's table (`a` is address, `l` link,
 * `r` route). Changing the network (`ip addr add`, `ip route del`...) is not
 * simulated.
 *
 * Mirrors iproute2/iproute2 ip/ipaddress.c (print_linkinfo, print_addrinfo,
 * print_linkinfo_brief), iproute2/iproute2 ip/iproute.c (print_route),
 * iproute2/iproute2 ip/ip.c (the object table).
 */
import type { CommandHandler, CommandResult } from '../../shell/types.ts';
import { devices, routes, type Address, type Device, type IpDeps, type Route } from './network.ts';

/** `ip` with no object: iproute2 6.1's usage (ip/ip.c usage()), exit 255. */
const USAGE = `Usage: ip [ OPTIONS ] OBJECT { COMMAND | help }
       ip [ -force ] -batch filename
where  OBJECT := { address | addrlabel | amt | fou | help | ila | ioam | l2tp |
                   link | macsec | maddress | monitor | mptcp | mroute | mrule |
                   neighbor | neighbour | netconf | netns | nexthop | ntable |
                   ntbl | route | rule | sr | tap | tcpmetrics |
                   token | tunnel | tuntap | vrf | xfrm }
       OPTIONS := { -V[ersion] | -s[tatistics] | -d[etails] | -r[esolve] |
                    -h[uman-readable] | -iec | -j[son] | -p[retty] |
                    -f[amily] { inet | inet6 | mpls | bridge | link } |
                    -4 | -6 | -M | -B | -0 |
                    -l[oops] { maximum-addr-flush-attempts } | -br[ief] |
                    -o[neline] | -t[imestamp] | -ts[hort] | -b[atch] [filename] |
                    -rc[vbuf] [size] | -n[etns] name | -N[umeric] | -a[ll] |
                    -c[olor]}
`;

/** ip/ip.c cmds[]: the first object whose name starts with the word wins. */
const OBJECTS = ['address', 'addrlabel', 'amt', 'maddress', 'route', 'rule', 'neighbor', 'neighbour', 'ntable', 'ntbl', 'link', 'l2tp', 'fou', 'ila', 'macsec', 'tunnel', 'tuntap', 'tap', 'token', 'tcpmetrics', 'monitor', 'xfrm', 'mroute', 'mrule', 'netns', 'netconf', 'vrf', 'sr', 'nexthop', 'mptcp', 'ioam', 'help'];

interface Options {
	family?: 'inet' | 'inet6';
	brief: boolean;
}

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const err = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode });

/** `N: name[@link]: <FLAGS> ` */
function linkHead(d: Device): string {
	return `${d.index}: ${d.name}${d.link ? `@${d.link}` : ''}: <${d.flags.join(',')}> `;
}

/** The first line of a device (print_linkinfo): mtu, qdisc, master, state, [mode,] group, qlen. */
function linkLine(d: Device, withMode: boolean, family?: 'inet' | 'inet6'): string {
	// An AF_INET6 link dump carries no qdisc or group attributes.
	if (family === 'inet6') return `${linkHead(d)}mtu ${d.mtu} ${d.master ? `master ${d.master} ` : ''}state ${d.state} ${d.qlen ? `qlen ${d.qlen}` : ''}\n`;
	// A device with no transmit queue (a dummy) prints no qlen.
	return `${linkHead(d)}mtu ${d.mtu} qdisc ${d.qdisc} ${d.master ? `master ${d.master} ` : ''}state ${d.state} ${withMode ? 'mode DEFAULT ' : ''}group default ${d.qlen ? `qlen ${d.qlen}` : ''}\n`;
}

function linkLayer(d: Device): string {
	const peer = d.linkNetnsId !== undefined ? ` link-netnsid ${d.linkNetnsId}` : d.linkNetns ? ` link-netns ${d.linkNetns}` : '';
	return `    link/${d.linkType} ${d.mac} brd ${d.broadcastMac}${peer}\n`;
}

/** One address (print_addrinfo): IPv4 ends with its label, IPv6 with a space. */
function addressLines(a: Address, device: string): string {
	const brd = a.broadcast ? `brd ${a.broadcast} ` : '';
	const label = a.family === 'inet' ? device : '';
	return `    ${a.family} ${a.local}/${a.prefix} ${brd}scope ${a.scope} ${label}\n       valid_lft forever preferred_lft forever\n`;
}

function showAddresses(list: Device[], opts: Options): string {
	let out = '';
	for (const d of list) {
		const addresses = d.addresses.filter((a) => !opts.family || a.family === opts.family);
		if (opts.family && !addresses.length) continue;
		if (opts.brief) {
			out += `${`${d.name}${d.link ? `@${d.link}` : ''}`.padEnd(16)} ${d.state.padEnd(14)} ${addresses.map((a) => `${a.local}/${a.prefix} `).join('')}\n`;
			continue;
		}
		out += linkLine(d, false, opts.family);
		if (!opts.family) out += linkLayer(d);
		for (const a of addresses) out += addressLines(a, d.name);
	}
	return out;
}

function showLinks(list: Device[], opts: Options): string {
	if (opts.brief) return list.map((d) => `${`${d.name}${d.link ? `@${d.link}` : ''}`.padEnd(16)} ${d.state.padEnd(14)} ${d.mac} <${d.flags.join(',')}> \n`).join('');
	return list.map((d) => linkLine(d, true) + linkLayer(d)).join('');
}

/** print_route: each field followed by a space. */
function routeLine(r: Route): string {
	let out = r.type ? `${r.type} ${r.dst} ` : `${r.dst} `;
	if (r.via) out += `via ${r.via} `;
	if (r.dev) out += `dev ${r.dev} `;
	if (r.proto) out += `proto ${r.proto} `;
	if (r.scope) out += `scope ${r.scope} `;
	if (r.src) out += `src ${r.src} `;
	if (r.onlink) out += 'onlink ';
	if (r.linkdown) out += 'linkdown ';
	return out + '\n';
}

/** `ip -6 route`: the kernel's local routes for ::1 and each link-local network. */
function ipv6Routes(list: Device[]): string {
	let out = '';
	for (const d of list) {
		const v6 = d.addresses.filter((a) => a.family === 'inet6');
		if (!v6.length) continue;
		out += d.name === 'lo' ? '::1 dev lo proto kernel metric 256 pref medium \n' : `fe80::/64 dev ${d.name} proto kernel metric 256 pref medium \n`;
	}
	return out;
}

/** A device's kind for `type KIND`, from what it is (iproute2 reads IFLA_INFO_KIND; a NIC has none). */
function kindOf(d: Device): string | undefined {
	if (d.linkType === 'ipip') return 'ipip';
	if (d.name === 'cni0') return 'bridge';
	if (d.name.startsWith('flannel.')) return 'vxlan';
	if (d.name === 'kube-ipvs0') return 'dummy';
	if (d.name.startsWith('veth') || d.name.startsWith('cali') || (d.name === 'eth0' && d.linkNetnsId !== undefined)) return 'veth';
	return undefined;
}

/**
 * The devices `show` selects: `[dev] NAME` (`vethX@if2` answers to
 * `vethX`), `type KIND`, `master BRIDGE`, `up`, in any combination
 * (ipaddress.c ipaddr_list_flush_or_save's filters).
 */
function selectDevice(args: string[], list: Device[]): { devices: Device[] } | { error: CommandResult } {
	const rest = args.filter((a) => !['show', 'list', 'lst'].includes(a));
	let picked = list;
	for (let i = 0; i < rest.length; i++) {
		const word = rest[i];
		if (word === 'up') {
			picked = picked.filter((d) => d.flags.includes('UP'));
			continue;
		}
		if (word === 'type' || word === 'master') {
			const value = rest[++i];
			if (value === undefined) return { error: err(`Command line is not complete. Try option "help"\n`, 255) };
			if (word === 'master' && !list.some((d) => d.name === value)) return { error: err(`Device "${value}" does not exist.\n`, 1) };
			picked = picked.filter((d) => (word === 'type' ? kindOf(d) === value : d.master === value));
			continue;
		}
		const name = word === 'dev' ? rest[++i] : word;
		if (name === undefined) return { error: err(`Command line is not complete. Try option "help"\n`, 255) };
		const found = list.find((d) => d.name === name || `${d.name}@${d.link}` === name);
		if (!found) return { error: err(`Device "${name}" does not exist.\n`, 1) };
		picked = picked.filter((d) => d === found);
	}
	return { devices: picked };
}

/** `ip route show [dev NAME]`: with a device, only its routes, each printed without the `dev` it was picked by (iproute.c: oifmask). */
function showRoutes(args: string[], list: Device[], table: Route[]): CommandResult {
	const rest = args.filter((a) => !['show', 'list', 'lst'].includes(a));
	if (!rest.length) return ok(table.map(routeLine).join(''));
	if (rest[0] !== 'dev' || rest.length !== 2) return err(`ip route ${rest.join(' ')}: not simulated (only \`ip route [show] [dev NAME]\`)\n`, 2);
	const name = rest[1];
	if (!list.some((d) => d.name === name)) return err(`Cannot find device "${name}"\n`, 1);
	return ok(table.filter((r) => r.dev === name).map((r) => routeLine({ ...r, dev: undefined })).join(''));
}

function run(argv: string[], deps: IpDeps, view?: IpView): CommandResult {
	const opts: Options = { brief: false };
	let i = 0;
	for (; i < argv.length && argv[i].startsWith('-'); i++) {
		const a = argv[i].replace(/^--?/, '-');
		if (a === '-4') opts.family = 'inet';
		else if (a === '-6') opts.family = 'inet6';
		else if ('-brief'.startsWith(a) && a.length >= 3) opts.brief = true;
		else if ('-color'.startsWith(a) && a.length >= 2) continue;
		else if ('-Version'.startsWith(a) && a.startsWith('-V')) return ok('ip utility, iproute2-6.1.0, libbpf 1.1.2\n');
		else if (a === '-h' || a === '-help') return err(USAGE, 255);
		else return err(`Option "${argv[i]}" is unknown, try "ip -help".\n`, 255);
	}
	const word = argv[i];
	if (word === undefined) return err(USAGE, 255);
	const object = OBJECTS.find((o) => o.startsWith(word));
	if (!object) return err(`Object "${word}" is unknown, try "ip help".\n`, 1);
	if (object === 'help') return err(USAGE, 255);
	const args = argv.slice(i + 1);
	const verb = args[0];
	if (verb !== undefined && !['show', 'list', 'lst'].includes(verb)) {
		if (/^(add|append|change|del|delete|flush|get|prepend|replace|set|save|restore|help)$/.test(verb)) return err(`ip ${object} ${verb}: not simulated (the simulated network is read-only)\n`, 2);
		return err(`Command "${verb}" is unknown, try "ip ${object} help".\n`, 255);
	}
	const list = view ? view.devices() : devices(deps);
	switch (object) {
		case 'address': {
			const picked = selectDevice(args, list);
			if ('error' in picked) return picked.error;
			return ok(showAddresses(picked.devices, opts));
		}
		case 'link': {
			const picked = selectDevice(args, list);
			if ('error' in picked) return picked.error;
			return ok(showLinks(picked.devices, opts));
		}
		case 'route':
			return opts.family === 'inet6' ? ok(ipv6Routes(list)) : showRoutes(args, list, view ? view.routes() : routes(deps));
		default:
			return err(`ip ${object}: not simulated\n`, 2);
	}
}

/** Another network namespace than the node's own (a Pod's): its devices and routes. */
export interface IpView {
	devices(): Device[];
	routes(): Route[];
}

/** The ip command of one node, or of one of its Pods with `view`. */
export function createIp(deps: IpDeps, view?: IpView): CommandHandler {
	return ({ argv }) => {
		try {
			return run(argv.slice(1), deps, view);
		} catch (error) {
			return err(`[sim-core/ip] internal error: ${error instanceof Error ? error.message : String(error)}\n`, 1);
		}
	};
}
