/**
 * `conntrack` from conntrack-tools 1.4.8 (Ubuntu 24.04), over the node
 * kernel's connection-tracking table (../../host/netfilter/conntrack.ts):
 * `-L` (list), `-C` (count), `-F` (flush), `-D` (delete what the filters
 * select), with the filters `-s/--orig-src`, `-d/--orig-dst`,
 * `-r/--reply-src`, `-q/--reply-dst`, `-p/--proto tcp|udp` and, after `-p`
 * (the protocol's own options are only known once it is named),
 * `--sport/--orig-port-src`, `--dport/--orig-port-dst`,
 * `--reply-port-src`, `--reply-port-dst`.
 *
 * Entries print as libnetfilter_conntrack's default format: the protocol
 * name padded to 8 and its number, the seconds left, the TCP state, the
 * original tuple, `[UNREPLIED]` when nothing came back, the reply tuple,
 * `[ASSURED]`, `mark=0 use=1`. The summary of -L and -D goes to stderr
 * (`conntrack v1.4.8 (conntrack-tools): N flow entries have been shown.`),
 * so `conntrack -L | grep` keeps it on the terminal. The table needs
 * CAP_NET_ADMIN: root on a node.
 *
 * Mirrors netfilter/conntrack-tools src/conntrack.c (the commands, the
 * option table, exit_error and its messages),
 * netfilter/libnetfilter_conntrack src/conntrack/snprintf_default.c
 * (__snprintf_conntrack_default).
 */
import type { CommandContext, CommandHandler, CommandResult } from '../../shell/types.ts';
import { deleteConntrack, expireConntrack, type ConntrackEntry, type ConntrackTable } from '../../host/netfilter/conntrack.ts';

export interface ConntrackDeps {
	/** The node's table, or undefined before the node tracked anything. */
	table(): ConntrackTable;
	/** Connections the node keeps open all along (the daemons' watches), listed with the table. */
	steady?(): ConntrackEntry[];
	nowMs(): number;
}

export const CONNTRACK_VERSION = '1.4.8';
const PREFIX = `conntrack v${CONNTRACK_VERSION} (conntrack-tools): `;
const TRY_HELP = "Try `conntrack -h' or 'conntrack --help' for more information.\n";

const PROTO_NUMBERS = { tcp: 6, udp: 17 } as const;

function fail(message: string, code = 2): CommandResult {
	return { stdout: '', stderr: `${PREFIX}${message}\n${code === 2 ? TRY_HELP : ''}`, exitCode: code };
}

/** __snprintf_conntrack_default. */
export function formatEntry(e: ConntrackEntry, nowMs: number): string {
	const parts = [`${e.proto.padEnd(8)} ${PROTO_NUMBERS[e.proto]}`, String(Math.max(0, Math.floor((e.expiresAtMs - nowMs) / 1000)))];
	if (e.tcpState) parts.push(e.tcpState);
	const tuple = (t: ConntrackEntry['orig']) => `src=${t.src} dst=${t.dst} sport=${t.sport} dport=${t.dport}`;
	parts.push(tuple(e.orig));
	if (e.unreplied) parts.push('[UNREPLIED]');
	parts.push(tuple(e.reply));
	if (e.assured) parts.push('[ASSURED]');
	parts.push('mark=0', 'use=1');
	return parts.join(' ');
}

interface Filters {
	proto?: 'tcp' | 'udp';
	origSrc?: string;
	origDst?: string;
	replySrc?: string;
	replyDst?: string;
	sport?: number;
	dport?: number;
	replySport?: number;
	replyDport?: number;
}

const ADDRESS_OPTIONS: Record<string, keyof Filters> = { '-s': 'origSrc', '--orig-src': 'origSrc', '--src': 'origSrc', '-d': 'origDst', '--orig-dst': 'origDst', '--dst': 'origDst', '-r': 'replySrc', '--reply-src': 'replySrc', '-q': 'replyDst', '--reply-dst': 'replyDst' };
const PORT_OPTIONS: Record<string, keyof Filters> = { '--sport': 'sport', '--orig-port-src': 'sport', '--dport': 'dport', '--orig-port-dst': 'dport', '--reply-port-src': 'replySport', '--reply-port-dst': 'replyDport' };

function matches(e: ConntrackEntry, f: Filters): boolean {
	return (
		(!f.proto || e.proto === f.proto) &&
		(!f.origSrc || e.orig.src === f.origSrc) &&
		(!f.origDst || e.orig.dst === f.origDst) &&
		(!f.replySrc || e.reply.src === f.replySrc) &&
		(!f.replyDst || e.reply.dst === f.replyDst) &&
		(f.sport === undefined || e.orig.sport === f.sport) &&
		(f.dport === undefined || e.orig.dport === f.dport) &&
		(f.replySport === undefined || e.reply.sport === f.replySport) &&
		(f.replyDport === undefined || e.reply.dport === f.replyDport)
	);
}

export function createConntrack(deps: ConntrackDeps): CommandHandler {
	return (ctx: CommandContext): CommandResult => {
		const argv = ctx.argv.slice(1);
		let command: 'L' | 'C' | 'F' | 'D' | undefined;
		const f: Filters = {};
		for (let i = 0; i < argv.length; i++) {
			const arg = argv[i];
			const [name, inline] = arg.startsWith('--') ? (arg.split(/=(.*)/s) as [string, string | undefined]) : [arg, undefined];
			const value = () => inline ?? argv[++i];
			const cmd = { '-L': 'L', '--dump': 'L', '-C': 'C', '--count': 'C', '-F': 'F', '--flush': 'F', '-D': 'D', '--delete': 'D' }[name] as typeof command;
			if (cmd) {
				if (command && command !== cmd) return fail('Invalid commands combination');
				command = cmd;
				// An optional table name: conntrack (the default) or expect.
				if (argv[i + 1] === 'conntrack') i++;
				else if (argv[i + 1] === 'expect') return { stdout: '', stderr: 'conntrack: the expectation table is not available on this simulated node\n', exitCode: 1 };
				continue;
			}
			if (name === '-h' || name === '--help') return { stdout: `Command line interface for the connection tracking system. Version ${CONNTRACK_VERSION}\nUsage: conntrack [commands] [options]\n`, stderr: '', exitCode: 0 };
			if (name === '-V' || name === '--version') return { stdout: `conntrack v${CONNTRACK_VERSION} (conntrack-tools)\n`, stderr: '', exitCode: 0 };
			if (name === '-n' || name === '--src-nat' || name === '-g' || name === '--dst-nat') continue;
			if (name === '-p' || name === '--proto' || name === '--protonum') {
				const v = value()?.toLowerCase();
				if (v !== 'tcp' && v !== 'udp' && v !== '6' && v !== '17') return fail(`proto \`${v ?? ''}' not found`);
				f.proto = v === '6' ? 'tcp' : v === '17' ? 'udp' : v;
				continue;
			}
			const addr = ADDRESS_OPTIONS[name];
			if (addr) {
				const v = value();
				if (!v || !/^\d{1,3}(\.\d{1,3}){3}$/.test(v)) return fail(`Invalid IP address \`${v ?? ''}'.`);
				(f as Record<string, unknown>)[addr] = v;
				continue;
			}
			const port = PORT_OPTIONS[name];
			if (port) {
				// The protocol's options exist only after -p names it (conntrack merges them in then).
				if (!f.proto) return { stdout: '', stderr: `conntrack: unrecognized option '${name}'\n${TRY_HELP}`, exitCode: 2 };
				const v = Number(value());
				if (!Number.isInteger(v) || v < 0 || v > 65_535) return fail(`invalid port \`${argv[i]}'`);
				(f as Record<string, unknown>)[port] = v;
				continue;
			}
			if (name.startsWith('--')) return { stdout: '', stderr: `conntrack: unrecognized option '${name}'\n${TRY_HELP}`, exitCode: 2 };
			if (name.startsWith('-')) {
				if (/^-[EGIUSRzoemicfutwlab]/.test(name)) return { stdout: '', stderr: `conntrack ${name}: not available on this simulated node (-L, -C, -F, -D with -s, -d, -r, -q, -p, --sport, --dport are)\n`, exitCode: 1 };
				return { stdout: '', stderr: `conntrack: invalid option -- '${name.slice(1, 2)}'\n${TRY_HELP}`, exitCode: 2 };
			}
			return fail(`Bad parameter \`${arg}'`);
		}
		if (!command) return fail('no command specified');
		// Everything here needs CAP_NET_ADMIN (the netlink socket's operations).
		if (ctx.host.user !== 'root') return { stdout: '', stderr: `${PREFIX}Operation failed: Operation not permitted\n`, exitCode: 1 };
		const now = deps.nowMs();
		const table = deps.table();
		expireConntrack(table, now);
		const all = [...(deps.steady?.() ?? []), ...table.entries];
		switch (command) {
			case 'C':
				return { stdout: `${all.length}\n`, stderr: '', exitCode: 0 };
			case 'F':
				table.entries = [];
				return { stdout: '', stderr: `${PREFIX}connection tracking table has been emptied.\n`, exitCode: 0 };
			case 'L': {
				const shown = all.filter((e) => matches(e, f));
				return { stdout: shown.map((e) => formatEntry(e, now) + '\n').join(''), stderr: `${PREFIX}${shown.length} flow entries have been shown.\n`, exitCode: 0 };
			}
			case 'D': {
				const gone = table.entries.filter((e) => matches(e, f));
				deleteConntrack(table, (e) => gone.includes(e));
				if (!gone.length) return { stdout: '', stderr: `${PREFIX}0 flow entries have been deleted.\n`, exitCode: 1 };
				return { stdout: gone.map((e) => formatEntry(e, now) + '\n').join(''), stderr: `${PREFIX}${gone.length} flow entries have been deleted.\n`, exitCode: 0 };
			}
		}
	};
}
