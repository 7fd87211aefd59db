/**
 * `ipvsadm` (1.31, Ubuntu 24.04's) listing the node's IP Virtual Server
 * table: `ipvsadm -L|-l|--list [-n] [--stats] [-t|-u service]`, also as
 * `-Ln`. The header names the kernel's IPVS version and connection table
 * size; each virtual service reads `TCP 10.96.0.1:443 rr` and each real
 * server ` -> 192.168.56.10:6443 Masq 1 0 0` (the printf widths of
 * print_service_entry). Without `-n`, ports get their /etc/services names
 * (`10.96.0.1:https`, `10.96.0.10:domain`) and addresses the names the
 * node's resolver knows (only its own: service and pod IPs have none). On a
 * node whose kube-proxy runs another mode the table is empty (ipvsadm loads
 * the ip_vs module itself). `-c` (`-Lnc`) lists the connection table: here
 * only the persistence templates of services with session affinity (state
 * `NONE`, client port 0, the time left as minutes:seconds), since
 * connections are not kept. Changing the table is not simulated.
 *
 * Mirrors kernel/ipvsadm ipvsadm.c (print_title, print_service_entry,
 * list_all, list_conn, print_conn, print_largenum, the usage text's first
 * line and its error wording).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import type { VirtualServer } from '../../host/netfilter/ipvs.ts';
import { SERVICES } from '../../host/netfilter/iptables-format.ts';
import { IPVS_VERSION_LINE, type NetfilterDeps } from './types.ts';

const ok = (stdout: string): CommandResult => ({ stdout, stderr: '', exitCode: 0 });
const err = (stderr: string, exitCode: number): CommandResult => ({ stdout: '', stderr, exitCode });

/** ipvsadm 1.31's version line (`ipvsadm -v`). */
const IPVSADM_VERSION = 'ipvsadm v1.31 2019/12/24 (compiled with popt and IPVS v1.2.1)';

/** print_largenum: `%9llu` below 100 million, then K/M/G with one less digit. */
function largeNum(n: number, exact: boolean): string {
	if (exact || n < 100_000_000) return String(n).padStart(9);
	if (n < 1_000_000_000) return `${String(Math.floor(n / 1000)).padStart(8)}K`;
	if (n < 1_000_000_000_000) return `${String(Math.floor(n / 1_000_000)).padStart(8)}M`;
	return `${String(Math.floor(n / 1_000_000_000)).padStart(8)}G`;
}

/** How addresses and ports are shown: numerically (-n), or as addrport_to_anyname names them. */
interface Naming {
	numeric: boolean;
	hostName?(ip: string): string | undefined;
}

function addrPort(address: string, port: number, naming: Naming): string {
	if (naming.numeric) return `${address}:${port}`;
	return `${naming.hostName?.(address) ?? address}:${SERVICES[port] ?? port}`;
}

/** The table in `-L` form, or `--stats` form. */
export function listIpvs(services: readonly VirtualServer[], stats: boolean, exact: boolean, naming: Naming = { numeric: true }): string {
	const serviceName = (vs: VirtualServer) => `${vs.protocol}  ${addrPort(vs.address, vs.port, naming)}`;
	let out = `${IPVS_VERSION_LINE}\n`;
	if (stats) out += `${'Prot LocalAddress:Port'.padEnd(33)} ${'Conns'.padStart(8)} ${'InPkts'.padStart(8)} ${'OutPkts'.padStart(8)} ${'InBytes'.padStart(8)} ${'OutBytes'.padStart(8)}\n  -> RemoteAddress:Port\n`;
	else out += 'Prot LocalAddress:Port Scheduler Flags\n  -> RemoteAddress:Port           Forward Weight ActiveConn InActConn\n';
	// ipvsadm sorts the services it lists (list_all sorts by protocol, address and port).
	const sorted = [...services].sort((a, b) => cmpService(a, b));
	for (const vs of sorted) {
		if (stats) out += `${serviceName(vs).padEnd(33)}${[vs.conns, vs.inPkts, vs.outPkts, vs.inBytes, vs.outBytes].map((n) => largeNum(n, exact)).join('')}\n`;
		else out += `${serviceName(vs)} ${vs.scheduler}${vs.persistentTimeoutSeconds ? ` persistent ${vs.persistentTimeoutSeconds}` : ''}\n`;
		const dests = [...vs.realServers].sort((a, b) => ipNumber(a.address) - ipNumber(b.address) || a.port - b.port);
		for (const rs of dests) {
			const dname = addrPort(rs.address, rs.port, naming);
			if (stats) out += `  -> ${dname.padEnd(28)}${[rs.conns, rs.inPkts, rs.outPkts, rs.inBytes, rs.outBytes].map((n) => largeNum(n, exact)).join('')}\n`;
			else out += `  -> ${dname.padEnd(28)} ${'Masq'.padEnd(7)} ${String(rs.weight).padEnd(6)} ${String(rs.activeConns).padEnd(10)} ${String(rs.inactConns).padEnd(10)}\n`;
		}
	}
	return out;
}

/**
 * list_conn and print_conn: the connection table's header, then one line
 * per entry, `%-3s %02ld:%02ld  %-11s %-18s %-18s %-18s`. A persistence
 * template has state NONE and client port 0; expired ones are gone.
 */
function listConnections(services: readonly VirtualServer[], nowMs: number, naming: Naming): string {
	let out = `IPVS connection entries\npro expire ${'state'.padEnd(11)} ${'source'.padEnd(18)} ${'virtual'.padEnd(18)} ${'destination'.padEnd(18)}\n`;
	for (const vs of services) {
		for (const t of vs.templates ?? []) {
			if (t.expiresAtMs <= nowMs) continue;
			const left = Math.ceil((t.expiresAtMs - nowMs) / 1000);
			const expire = `${String(Math.floor(left / 60)).padStart(2, '0')}:${String(left % 60).padStart(2, '0')}`;
			out += `${vs.protocol.padEnd(3)} ${expire}  ${'NONE'.padEnd(11)} ${addrPort(t.client, 0, naming).padEnd(18)} ${addrPort(vs.address, vs.port, naming).padEnd(18)} ${addrPort(t.address, t.port, naming).padEnd(18)}\n`;
		}
	}
	return out;
}

function ipNumber(ip: string): number {
	return ip.split('.').reduce((n, p) => n * 256 + Number(p), 0);
}

function cmpService(a: VirtualServer, b: VirtualServer): number {
	const order = ['TCP', 'UDP', 'SCTP'];
	return order.indexOf(a.protocol) - order.indexOf(b.protocol) || ipNumber(a.address) - ipNumber(b.address) || a.port - b.port;
}

function run(ctx: CommandContext, deps: NetfilterDeps): CommandResult {
	// main() opens the IPVS netlink channel before it reads its options, and fail(2, ...)s when it cannot.
	if (ctx.host.user !== 'root') return err("Can't initialize ipvs: Permission denied (you must be root)\nAre you sure that IP Virtual Server is built in the kernel or as module?\n", 2);
	const argv = ctx.argv.slice(1);
	let list = false;
	let stats = false;
	let exact = false;
	let numeric = false;
	let connections = false;
	let service: { protocol: 'TCP' | 'UDP'; address: string } | undefined;
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		if (arg === '--list' || arg === '-L' || arg === '-l') list = true;
		else if (arg === '--numeric' || arg === '-n') numeric = true;
		else if (arg === '--stats') stats = true;
		else if (arg === '--connection' || arg === '-c') connections = true;
		else if (arg === '--exact') exact = true;
		else if (arg === '-v' || arg === '--version') return ok(`${IPVSADM_VERSION}\n`);
		else if (arg === '-t' || arg === '--tcp-service' || arg === '-u' || arg === '--udp-service') {
			const address = argv[++i];
			if (!address) return err('ipvsadm: -t/--tcp-service requires an argument\n', 2);
			service = { protocol: arg === '-t' || arg === '--tcp-service' ? 'TCP' : 'UDP', address };
		} else if (/^-[LlnSc]+$/.test(arg)) {
			if (/[Ll]/.test(arg)) list = true;
			if (arg.includes('n')) numeric = true;
			if (arg.includes('c')) connections = true;
		} else if (/^-[ADEaedCRSZ]$|^--(add|delete|edit|clear|restore|save|zero)/.test(arg)) {
			return err(`ipvsadm ${arg}: not simulated (the table belongs to kube-proxy; list it with -Ln)\n`, 2);
		} else if (arg === '-h' || arg === '--help') {
			return ok(`${IPVSADM_VERSION}\nUsage:\n  ipvsadm -L|l [virtual-service] [options]\n`);
		} else {
			// A bad option: parse_options prints popt's complaint and returns -1, main's exit status (255).
			// A stray word: fail(2, "unexpected argument %s").
			return arg.startsWith('-') ? err(`${arg}: unknown option\n`, 255) : err(`unexpected argument ${arg}\n`, 2);
		}
	}
	const dp = deps.dataplane();
	// ipvsadm asks the kernel, which loads the ip_vs module on first use: an empty table on other modes' nodes.
	dp.ipvsModuleLoaded = true;
	// Without a command ipvsadm lists (-L is the default).
	void list;
	let services = dp.ipvs.virtualServers;
	if (connections) return ok(listConnections(services, deps.nowMs?.() ?? 0, { numeric, hostName: deps.hostName }));
	if (service) {
		const [address, port] = [service.address.slice(0, service.address.lastIndexOf(':')), Number(service.address.slice(service.address.lastIndexOf(':') + 1))];
		services = services.filter((vs) => vs.protocol === service!.protocol && vs.address === address && vs.port === port);
		if (services.length === 0) return err('No such service\n', 1);
		const text = listIpvs(services, stats, exact, { numeric, hostName: deps.hostName }).split('\n');
		// With a service named, ipvsadm prints only its entry, without the version line.
		return ok(`${text.slice(1).join('\n')}`);
	}
	return ok(listIpvs(services, stats, exact, { numeric, hostName: deps.hostName }));
}

/** The `ipvsadm` command of one node. */
export function createIpvsadm(deps: NetfilterDeps): CommandHandler {
	return (ctx) => {
		try {
			return run(ctx, deps);
		} catch (error) {
			return err(`[sim-core/ipvsadm] internal error: ${error instanceof Error ? error.message : String(error)}\n`, 1);
		}
	};
}
