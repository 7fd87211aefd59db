/**
 * What a node's kernel tells the process and socket tools about what runs
 * on it: the process table as /proc/<pid>/{stat,status,cmdline} gives it to
 * procps (ps, pgrep, pidof), and the sockets of the node's network
 * namespace as the sock_diag netlink interface gives them to iproute2's ss,
 * with the processes that hold each one (/proc/<pid>/fd).
 *
 * The simulation keeps no PID for most processes (the pods' shims, pause
 * and containers): they get one from {@link pidAt}, which grows with the
 * time the process started since boot, as PIDs on a busy node grow
 * (kube-proxy's iptables-restore runs, probes, exec'd helpers all take
 * PIDs), with a small spread drawn from the process's own id so two
 * processes started in the same second differ. The same process always
 * gets the same PID; a reboot starts counting again.
 *
 * Mirrors torvalds/linux fs/proc/array.c (the fields of /proc/<pid>/stat
 * that ps reads), torvalds/linux kernel/pid.c (pid_max, RESERVED_PIDS),
 * torvalds/linux net/ipv4/inet_diag.c (what ss lists).
 */

/** One process, as procps reads it from /proc. Plain data. */
export interface ProcessEntry {
	pid: number;
	ppid: number;
	uid: number;
	/** The user name of `uid` on the node (/etc/passwd), or the number when the node has none (a container's user). */
	user: string;
	/** /proc/<pid>/comm: the executable's base name, cut at 15 characters (TASK_COMM_LEN - 1). */
	comm: string;
	/** /proc/<pid>/cmdline; empty for a kernel thread (ps shows `[comm]`). */
	argv: string[];
	/** When it started (epoch ms, the virtual wall clock). */
	startWallMs: number;
	/** CPU time used (user + system), ms. */
	cpuMs: number;
	/** Resident set and virtual size, KiB. */
	rssKb: number;
	vszKb: number;
	/** Controlling terminal: `?`, `pts/0`, `tty1`. */
	tty: string;
	/** Process state: S (sleeping), R (running), I (idle kernel thread). */
	state: 'S' | 'R' | 'I';
	/** Nice value (journald and the kernel's highpri workers run below 0). */
	nice?: number;
	/** Session leader (STAT `s`). */
	sessionLeader?: boolean;
	/** Threads (STAT `l` when more than one). */
	threads: number;
	/** In the foreground process group of its terminal (STAT `+`). */
	foreground?: boolean;
}

/** One socket of the node's network namespace, as ss shows it. */
export interface SocketEntry {
	proto: 'tcp' | 'udp';
	/** ss's names: LISTEN, UNCONN (an unconnected UDP socket), ESTAB, TIME-WAIT... */
	state: 'LISTEN' | 'UNCONN' | 'ESTAB' | 'TIME-WAIT' | 'SYN-SENT' | 'CLOSE-WAIT';
	/** `0.0.0.0`, `127.0.0.1`, `::`, `*` (a dual-stack wildcard socket, Go's default), or an address. */
	localIp: string;
	localPort: number;
	/** The device the socket is bound to (systemd-resolved's `127.0.0.53%lo`). */
	localIface?: string;
	peerIp: string;
	/** 0 for `*`. */
	peerPort: number;
	/** For LISTEN: the backlog (Send-Q) and connections waiting to be accepted (Recv-Q); otherwise the queued bytes. */
	recvQ: number;
	sendQ: number;
	/** The processes holding it, with the descriptor number each holds it by. */
	users: Array<{ comm: string; pid: number; fd: number }>;
}

/** /proc/sys/kernel/pid_max on Ubuntu 24.04: systemd raises it to 2^22 on 64-bit machines. */
export const PID_MAX = 4_194_304;
/** kernel/pid.c RESERVED_PIDS: where PIDs start again when they wrap. */
const RESERVED_PIDS = 300;
/** The first PID of a process the kubelet's pods start, above the daemons' (host/systemd/records.ts). */
const FIRST_POD_PID = 1_000;
/** How fast PIDs are used on a node running pods: a few per second (probes, iptables-restore, exec'd helpers). */
const PIDS_PER_SECOND = 8;

/** FNV-1a of a text: a stable small number for an id. */
export function stableHash(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
	return h;
}

/**
 * The PID of a process that started `sinceBootMs` after the machine booted,
 * told apart by `key` (its id) within the same second: stable for the same
 * process, growing with start order.
 */
export function pidAt(sinceBootMs: number, key: string): number {
	const n = FIRST_POD_PID + Math.floor(Math.max(0, sinceBootMs) / 1000) * PIDS_PER_SECOND + (stableHash(key) % PIDS_PER_SECOND);
	return n < PID_MAX ? n : RESERVED_PIDS + ((n - RESERVED_PIDS) % (PID_MAX - RESERVED_PIDS));
}

/** /proc/<pid>/comm from a program path: its base name, at most 15 bytes. */
export function commOf(path: string): string {
	return path.slice(path.lastIndexOf('/') + 1).slice(0, 15);
}
