/**
 * `ss` from iproute2 6.1 (Ubuntu 24.04's), for the TCP and UDP sockets of a
 * node's network namespace: `-t`, `-u`, `-l` (listening: LISTEN and UNCONN),
 * `-a` (all), `-n` (numeric ports), `-p` (the processes holding each
 * socket), `-4`, `-6`, `-H`, and their combinations (`-tlnp`, `-ulnp`,
 * `-tnp`). Without `-a` or `-l` only connected sockets are shown
 * (SS_CONN: not LISTEN, UNCONN, TIME-WAIT or SYN-RECV).
 *
 * The layout is ss's own renderer: columns Netid (only when more than one
 * protocol is shown), State (only when more than one state can be),
 * Recv-Q and Send-Q (printed `%-6d`), the local and peer address
 * right-aligned up to their `:` and the ports left-aligned, then Process.
 * Off a terminal with no $COLUMNS, 6.1 sizes each column to its content
 * and pads every column, the last one too (the trailing blanks 7.0
 * dropped); on a terminal the spare width is spread over the columns.
 * Without `-n`, the few ports /etc/services names on every Ubuntu
 * (ssh, domain, http, https) are shown by name.
 *
 * Only TCP and UDP are simulated: plain `ss` (every socket family on a real
 * machine, Unix sockets first) shows those two here.
 *
 * Mirrors iproute2/iproute2 misc/ss.c (columns[], render_calc_width,
 * render, sock_state_print, inet_addr_print, proc_ctx_print, the option
 * letters and _usage).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import type { SocketEntry } from '../../host/proc.ts';

export interface SsDeps {
	/** The sockets of the node's network namespace now. */
	sockets(): SocketEntry[];
}

type Align = 'left' | 'right';
interface ColumnDef {
	align: Align;
	header: string;
	ldelim: string;
}

/** misc/ss.c columns[]: Netid, State, Recv-Q, Send-Q, local address and port, peer address and port, Process (COL_EXT), and COL_PROC. */
const COLUMNS: ColumnDef[] = [
	{ align: 'left', header: 'Netid', ldelim: '' },
	{ align: 'left', header: 'State', ldelim: ' ' },
	{ align: 'left', header: 'Recv-Q', ldelim: ' ' },
	{ align: 'left', header: 'Send-Q', ldelim: ' ' },
	{ align: 'right', header: 'Local Address:', ldelim: ' ' },
	{ align: 'left', header: 'Port', ldelim: '' },
	{ align: 'right', header: 'Peer Address:', ldelim: ' ' },
	{ align: 'left', header: 'Port', ldelim: '' },
	{ align: 'left', header: 'Process', ldelim: '' },
	{ align: 'left', header: '', ldelim: '' },
];

/** Port names every Ubuntu's /etc/services has (netbase), for output without -n. */
const SERVICES: Record<string, Record<number, string>> = {
	tcp: { 22: 'ssh', 53: 'domain', 80: 'http', 443: 'https' },
	udp: { 53: 'domain', 443: 'https' },
};

/** ss's getopt string (iproute2 6.1): the letters it accepts. */
const KNOWN_LETTERS = 'dhaletuwxnro460spTbEf:mMiA:D:F:vVzZN:KHSO';
/** Letters this node's ss answers. */
const SIMULATED = new Set(['t', 'u', 'l', 'a', 'n', 'p', '4', '6', 'H', 'h', 'V', 'r']);

/** _usage(), printed on stderr with exit 255 after a bad option, on stdout for -h. */
const USAGE = `Usage: ss [ OPTIONS ]
       ss [ OPTIONS ] [ FILTER ]
   -h, --help          this message
   -V, --version       output version information
   -n, --numeric       don't resolve service names
   -r, --resolve       resolve host names
   -a, --all           display all sockets
   -l, --listening     display listening sockets
   -o, --options       show timer information
   -e, --extended      show detailed socket information
   -m, --memory        show socket memory usage
   -p, --processes     show process using socket
   -T, --threads       show thread using socket
   -i, --info          show internal TCP information
       --tipcinfo      show internal tipc socket information
   -s, --summary       show socket usage summary
       --tos           show tos and priority information
       --cgroup        show cgroup information
   -b, --bpf           show bpf filter socket information
   -E, --events        continually display sockets as they are destroyed
   -Z, --context       display task SELinux security contexts
   -z, --contexts      display task and socket SELinux security contexts
   -N, --net           switch to the specified network namespace name

   -4, --ipv4          display only IP version 4 sockets
   -6, --ipv6          display only IP version 6 sockets
   -0, --packet        display PACKET sockets
   -t, --tcp           display only TCP sockets
   -M, --mptcp         display only MPTCP sockets
   -S, --sctp          display only SCTP sockets
   -u, --udp           display only UDP sockets
   -d, --dccp          display only DCCP sockets
   -w, --raw           display only RAW sockets
   -x, --unix          display only Unix domain sockets
       --tipc          display only TIPC sockets
       --vsock         display only vsock sockets
       --xdp           display only XDP sockets
   -f, --family=FAMILY display sockets of type FAMILY
       FAMILY := {inet|inet6|link|unix|netlink|vsock|tipc|xdp|help}

   -K, --kill          forcibly close sockets, display what was closed
   -H, --no-header     Suppress header line
   -O, --oneline       socket's data printed on a single line
       --inet-sockopt  show various inet socket options

   -A, --query=QUERY, --socket=QUERY
       QUERY := {all|inet|tcp|mptcp|udp|raw|unix|unix_dgram|unix_stream|unix_seqpacket|packet|packet_raw|packet_dgram|netlink|dccp|sctp|vsock_stream|vsock_dgram|tipc|xdp}[,QUERY]

   -D, --diag=FILE     Dump raw information about TCP sockets to FILE
   -F, --filter=FILE   read filter information from FILE
       FILTER := [ state STATE-FILTER ] [ EXPRESSION ]
       STATE-FILTER := {all|connected|synchronized|bucket|big|TCP-STATES}
         TCP-STATES := {established|syn-sent|syn-recv|fin-wait-{1,2}|time-wait|closed|close-wait|last-ack|listening|closing}
          connected := {established|syn-sent|syn-recv|fin-wait-{1,2}|time-wait|close-wait|last-ack|closing}
       synchronized := {established|syn-recv|fin-wait-{1,2}|time-wait|close-wait|last-ack|closing}
             bucket := {syn-recv|time-wait}
                big := {established|syn-sent|fin-wait-{1,2}|closed|close-wait|last-ack|listening|closing}
`;

const LONG: Record<string, string> = { tcp: 't', udp: 'u', listening: 'l', all: 'a', numeric: 'n', processes: 'p', ipv4: '4', ipv6: '6', 'no-header': 'H', help: 'h', version: 'V', resolve: 'r', summary: 's', extended: 'e', options: 'o', memory: 'm', info: 'i', unix: 'x', raw: 'w', kill: 'K', context: 'Z', contexts: 'z', events: 'E', oneline: 'O', threads: 'T' };

/** Lays rows out as render() does (compact off a terminal, spread on one). */
function render(rows: string[][], enabled: boolean[], screenWidth: number | undefined): string {
	const visible = COLUMNS.map((_, i) => i).filter((i) => enabled[i]);
	const maxLen = COLUMNS.map((_, i) => Math.max(0, ...rows.map((r) => r[i]?.length ?? 0)));
	// First pass: each column as wide as its content, plus its left delimiter once a column before it has a width.
	const width = COLUMNS.map(() => 0);
	let first = true;
	for (const i of visible) {
		width[i] = !first && maxLen[i] ? maxLen[i] + COLUMNS[i].ldelim.length : maxLen[i];
		if (screenWidth !== undefined) width[i] = Math.min(width[i], screenWidth);
		if (width[i]) first = false;
	}
	const compact = screenWidth === undefined;
	if (!compact) {
		// Second pass: spread the spare room over the columns of each line.
		let len = 0;
		let lineCols = 0;
		let eol = -1;
		for (let c = 0; c < COLUMNS.length; c++) {
			if (!width[c]) continue;
			lineCols++;
			len += width[c];
			const last = !width.slice(c + 1).some(Boolean);
			if (!last && len < screenWidth) continue;
			if (len !== screenWidth) {
				let end = c;
				if (len > screenWidth) {
					len -= width[c];
					end--;
					lineCols--;
				}
				const pad = screenWidth - len;
				const spacing = lineCols ? Math.floor(pad / lineCols) : 0;
				let rem = lineCols ? pad % lineCols : 0;
				for (let t = end; t > eol; t--) {
					if (!width[t]) continue;
					width[t] += spacing;
					if (rem) {
						width[t]++;
						rem--;
					}
				}
				c = end;
			}
			eol = c;
			len = 0;
			lineCols = 0;
		}
	}
	let out = '';
	for (const row of rows) {
		let line = '';
		let started = false;
		for (const i of visible) {
			if (!width[i] && !started) continue;
			const token = row[i] ?? '';
			let printed = 0;
			if (started) {
				line += COLUMNS[i].ldelim;
				printed = COLUMNS[i].ldelim.length;
			}
			started = true;
			if (width[i] && COLUMNS[i].align === 'right') {
				const s = width[i] - token.length - printed;
				if (s > 0) {
					line += ' '.repeat(s);
					printed += s;
				}
			}
			line += token;
			printed += token.length;
			// 6.1 pads the last column too, even off a terminal.
			if (width[i] && COLUMNS[i].align === 'left') {
				const s = width[i] - printed;
				if (s > 0) line += ' '.repeat(s);
			}
		}
		out += line + '\n';
	}
	return out;
}

function addressText(ip: string, iface?: string): string {
	const host = ip === '*' ? '*' : ip.includes(':') ? `[${ip}]` : ip;
	return `${host}${iface ? `%${iface}` : ''}:`;
}

function peerText(s: SocketEntry): string {
	if (s.peerIp === '*' || (s.localIp === '*' && s.peerPort === 0)) return '*:';
	return addressText(s.peerIp);
}

export function createSs(deps: SsDeps): CommandHandler {
	return (ctx: CommandContext): CommandResult => {
		const flags = new Set<string>();
		const args = ctx.argv.slice(1);
		for (const arg of args) {
			if (arg.startsWith('--')) {
				const letter = LONG[arg.slice(2)];
				if (!letter) return { stdout: '', stderr: `ss: unrecognized option '${arg}'\n${USAGE}`, exitCode: 255 };
				flags.add(letter);
			} else if (arg.startsWith('-') && arg.length > 1) {
				for (const ch of arg.slice(1)) {
					if (!KNOWN_LETTERS.replace(/:/g, '').includes(ch)) return { stdout: '', stderr: `ss: invalid option -- '${ch}'\n${USAGE}`, exitCode: 255 };
					flags.add(ch);
				}
			} else return { stdout: '', stderr: `ss: filters (${args.join(' ')}) are not available on this simulated node\n`, exitCode: 1 };
		}
		if (flags.has('h')) return { stdout: USAGE, stderr: '', exitCode: 0 };
		if (flags.has('V')) return { stdout: 'ss utility, iproute2-6.1.0, libbpf 1.3.0\n', stderr: '', exitCode: 0 };
		for (const f of flags) if (!SIMULATED.has(f)) return { stdout: '', stderr: `ss -${f}: not available on this simulated node (-t, -u, -l, -a, -n, -p, -4, -6, -H are)\n`, exitCode: 1 };
		const protos = flags.has('t') || flags.has('u') ? (['udp', 'tcp'] as const).filter((p) => flags.has(p[0])) : (['udp', 'tcp'] as const);
		const listening = flags.has('l');
		const all = flags.has('a');
		const states = (s: SocketEntry) => (all ? true : listening ? s.state === 'LISTEN' || s.state === 'UNCONN' : !['LISTEN', 'UNCONN', 'TIME-WAIT'].includes(s.state));
		const family = (s: SocketEntry) => {
			const v6 = s.localIp === '*' || s.localIp.includes(':');
			if (flags.has('4') && !flags.has('6')) return !v6 || s.localIp === '*';
			if (flags.has('6') && !flags.has('4')) return v6;
			return true;
		};
		const sockets = deps.sockets();
		const rows: string[][] = [];
		const enabled = COLUMNS.map(() => true);
		// One protocol: no Netid column; one possible state: no State column.
		if (protos.length === 1) enabled[0] = false;
		// -l asks for LISTEN and UNCONN, the default for every connected state: State always shows here.
		if (!flags.has('H')) rows.push(COLUMNS.map((c) => c.header));
		for (const proto of protos) {
			const list = sockets.filter((s) => s.proto === proto && states(s) && family(s)).sort((a, b) => a.localPort - b.localPort || a.localIp.localeCompare(b.localIp) || a.peerPort - b.peerPort);
			for (const s of list) {
				const port = (n: number) => (n === 0 ? '*' : !flags.has('n') && SERVICES[proto][n] ? SERVICES[proto][n] : String(n));
				const users = flags.has('p') && s.users.length ? ` users:(${s.users.map((u) => `("${u.comm}",pid=${u.pid},fd=${u.fd})`).join(',')})` : '';
				rows.push([proto, s.state, String(s.recvQ).padEnd(6), String(s.sendQ).padEnd(6), addressText(s.localIp, s.localIface), port(s.localPort), peerText(s), port(s.peerPort), users, '']);
			}
		}
		const columns = ctx.env.COLUMNS && Number(ctx.env.COLUMNS) > 0 ? Number(ctx.env.COLUMNS) : undefined;
		const screenWidth = ctx.tty ? (columns ?? 80) : columns;
		return { stdout: render(rows, enabled, screenWidth), stderr: '', exitCode: 0 };
	};
}
