/**
 * The node kernel's connection-tracking table (nf_conntrack): one entry per
 * flow that went through the node's netfilter hooks, with the tuple the
 * packet was sent with (original) and the one its answer comes back with
 * (reply: from the endpoint a DNAT chose, to the address a SNAT/MASQUERADE
 * chose), a protocol state and a timeout that runs on the virtual clock.
 *
 * - UDP: an unanswered flow is [UNREPLIED] and lives
 *   nf_conntrack_udp_timeout (30 s); one answered within 2 s of its first
 *   packet (a DNS query) is not yet a stream and keeps the 30 s; only a
 *   flow still active after 2 s is [ASSURED] with
 *   nf_conntrack_udp_timeout_stream (120 s). kube-proxy v1.36 leaves both
 *   as the kernel set them (conntrack.udpTimeout and udpStreamTimeout are
 *   0 in kubeadm's ConfigMap).
 * - TCP: a connection that closed (curl, wget) waits in TIME_WAIT for
 *   nf_conntrack_tcp_timeout_time_wait (120 s), [ASSURED]; one refused by
 *   a reset is CLOSE (10 s); an unanswered SYN is SYN_SENT [UNREPLIED]
 *   (120 s). A live connection is ESTABLISHED with
 *   nf_conntrack_tcp_timeout_established, which kube-proxy sets to 86400 s
 *   (conntrack.tcpEstablishedTimeout: 24h) at start.
 * - A packet the filter table drops or rejects never confirms its entry:
 *   there is none.
 *
 * The table is bounded (nf_conntrack_max, kube-proxy's 131072 for two
 * cores: max(maxPerCore 32768 × 2, min 131072)); when full, the oldest
 * entry that is not assured goes first (early_drop), then the oldest.
 * Durable with the node's kernel state, gone with its power.
 *
 * Mirrors torvalds/linux net/netfilter/nf_conntrack_proto_udp.c
 * (udp_packet, the 2 s stream rule, udp_timeouts), torvalds/linux
 * net/netfilter/nf_conntrack_proto_tcp.c (tcp_timeouts), torvalds/linux
 * net/netfilter/nf_conntrack_core.c (early_drop),
 * cmd/kube-proxy/app/conntrack.go (the sysctls kube-proxy writes).
 */

/** One direction's tuple. */
export interface ConntrackTuple {
	src: string;
	dst: string;
	sport: number;
	dport: number;
}

/** One tracked flow. Plain JSON. */
export interface ConntrackEntry {
	/** The kernel's conntrack id (conntrack -o id), counting up. */
	id: number;
	proto: 'tcp' | 'udp';
	orig: ConntrackTuple;
	reply: ConntrackTuple;
	/** TCP's state (ESTABLISHED, TIME_WAIT, CLOSE, SYN_SENT); none for UDP. */
	tcpState?: 'ESTABLISHED' | 'TIME_WAIT' | 'CLOSE' | 'SYN_SENT';
	/** No packet came back. */
	unreplied: boolean;
	assured: boolean;
	/** When it was created and when it expires, virtual ms. */
	createdMs: number;
	expiresAtMs: number;
}

/** The table. Plain JSON. */
export interface ConntrackTable {
	entries: ConntrackEntry[];
	nextId: number;
}

/** The timeouts, seconds (the kernel's defaults, kube-proxy's established and close_wait). */
export const CONNTRACK_TIMEOUTS_S = {
	udp: 30,
	udpStream: 120,
	tcpEstablished: 86_400,
	tcpTimeWait: 120,
	tcpClose: 10,
	tcpSynSent: 120,
	tcpCloseWait: 3_600,
} as const;

/** nf_conntrack_max as kube-proxy sets it on a two-core node. */
export const CONNTRACK_MAX = 131_072;
/** What the simulation keeps at most (a bound on the snapshot; far below nf_conntrack_max). */
export const CONNTRACK_KEPT_MAX = 4_096;

export function emptyConntrack(): ConntrackTable {
	return { entries: [], nextId: 1 };
}

/** Forgets the entries whose timeout ran out by `nowMs` (the kernel's gc worker). */
export function expireConntrack(table: ConntrackTable, nowMs: number): void {
	if (table.entries.some((e) => e.expiresAtMs <= nowMs)) table.entries = table.entries.filter((e) => e.expiresAtMs > nowMs);
}

/** A new flow as it ends: how the first exchange went. */
export interface FlowOutcome {
	proto: 'tcp' | 'udp';
	orig: ConntrackTuple;
	reply: ConntrackTuple;
	/** `answered`: the server replied (UDP answer, or a TCP connection that completed and closed); `reset`: TCP RST / ICMP port unreachable; `silent`: nothing came back. */
	result: 'answered' | 'reset' | 'silent';
	/** A connection that stays open (a watch): ESTABLISHED. */
	open?: boolean;
}

/** Records a flow that went through the node (nf_conntrack_in, then confirm). */
export function trackFlow(table: ConntrackTable, flow: FlowOutcome, nowMs: number): ConntrackEntry {
	expireConntrack(table, nowMs);
	const t = CONNTRACK_TIMEOUTS_S;
	let entry: Omit<ConntrackEntry, 'id' | 'createdMs'>;
	if (flow.proto === 'udp') {
		// A reply within 2 s of the first packet does not make a stream: no ASSURED, the unreplied timeout.
		entry = { proto: 'udp', orig: flow.orig, reply: flow.reply, unreplied: flow.result !== 'answered', assured: false, expiresAtMs: nowMs + t.udp * 1000 };
	} else if (flow.result === 'answered') {
		entry = flow.open
			? { proto: 'tcp', orig: flow.orig, reply: flow.reply, tcpState: 'ESTABLISHED', unreplied: false, assured: true, expiresAtMs: nowMs + t.tcpEstablished * 1000 }
			: { proto: 'tcp', orig: flow.orig, reply: flow.reply, tcpState: 'TIME_WAIT', unreplied: false, assured: true, expiresAtMs: nowMs + t.tcpTimeWait * 1000 };
	} else if (flow.result === 'reset') {
		entry = { proto: 'tcp', orig: flow.orig, reply: flow.reply, tcpState: 'CLOSE', unreplied: false, assured: false, expiresAtMs: nowMs + t.tcpClose * 1000 };
	} else {
		entry = { proto: 'tcp', orig: flow.orig, reply: flow.reply, tcpState: 'SYN_SENT', unreplied: true, assured: false, expiresAtMs: nowMs + t.tcpSynSent * 1000 };
	}
	// A UDP answer that is an ICMP error leaves the flow UNREPLIED (the error is RELATED, not a reply).
	const full: ConntrackEntry = { id: table.nextId++, createdMs: nowMs, ...entry };
	if (table.entries.length >= CONNTRACK_KEPT_MAX) {
		const victim = table.entries.findIndex((e) => !e.assured);
		table.entries.splice(victim >= 0 ? victim : 0, 1);
	}
	table.entries.push(full);
	return full;
}

/** Deletes the entries `match` selects (conntrack -D, -F, kube-proxy's cleanup); returns how many went. */
export function deleteConntrack(table: ConntrackTable, match: (e: ConntrackEntry) => boolean): number {
	const before = table.entries.length;
	table.entries = table.entries.filter((e) => !match(e));
	return before - table.entries.length;
}
