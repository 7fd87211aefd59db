/**
 * The kernel's xt_recent tables on one node: per table name, the source
 * addresses the `-m recent --set` rules saw, each with the instants it was
 * seen. kube-proxy's iptables mode writes `--set` in every KUBE-SEP chain of
 * a Service with `sessionAffinity: ClientIP` and `--rcheck --seconds <timeout>
 * --reap` in its KUBE-SVC chain, so a client that connected within the
 * timeout goes back to the same endpoint. Kernel state: kept with the node,
 * lost with its power, and a table goes when the last rule that names it
 * goes (recent_mt_destroy).
 *
 * Limits are the module's defaults: `ip_list_tot` 100 addresses per table
 * (the least recently seen is forgotten to make room) and `ip_pkt_list_tot`
 * 20 instants per address (the oldest is dropped). Times are virtual ms.
 *
 * Mirrors torvalds/linux net/netfilter/xt_recent.c (recent_mt, recent_entry_update,
 * recent_entry_reap, ip_list_tot, ip_pkt_list_tot).
 */

/** One address of a table: when it was seen, oldest first. */
export interface RecentEntry {
	address: string;
	seenMs: number[];
}

/** Table name -> entries, least recently seen first. Plain JSON. */
export type RecentTables = Record<string, RecentEntry[]>;

/** xt_recent's ip_list_tot default: addresses remembered per table. */
export const RECENT_IP_LIST_TOT = 100;
/** xt_recent's ip_pkt_list_tot default: instants remembered per address. */
export const RECENT_IP_PKT_LIST_TOT = 20;

/** `--set`: records the address now (moving it to the most recent end). */
export function recentSet(tables: RecentTables, name: string, address: string, nowMs: number): void {
	const list = (tables[name] ??= []);
	const at = list.findIndex((e) => e.address === address);
	const entry = at >= 0 ? list.splice(at, 1)[0] : { address, seenMs: [] };
	entry.seenMs.push(nowMs);
	if (entry.seenMs.length > RECENT_IP_PKT_LIST_TOT) entry.seenMs.splice(0, entry.seenMs.length - RECENT_IP_PKT_LIST_TOT);
	list.push(entry);
	if (list.length > RECENT_IP_LIST_TOT) list.splice(0, list.length - RECENT_IP_LIST_TOT);
}

/**
 * `--rcheck [--seconds S] [--reap]`: whether the address is in the table
 * (seen within the last S seconds when given). `--reap` forgets the
 * instants older than S, and the address once none is left.
 */
export function recentCheck(tables: RecentTables, name: string, address: string, nowMs: number, seconds?: number, reap?: boolean): boolean {
	const list = tables[name];
	if (!list) return false;
	const at = list.findIndex((e) => e.address === address);
	if (at < 0) return false;
	const entry = list[at];
	if (seconds === undefined) return true;
	const since = nowMs - seconds * 1000;
	const hit = entry.seenMs.some((t) => t >= since);
	if (reap) {
		entry.seenMs = entry.seenMs.filter((t) => t >= since);
		if (entry.seenMs.length === 0) list.splice(at, 1);
	}
	return hit;
}

/** Drops the tables no rule names any more (the last rule using a table took it along). */
export function pruneRecentTables(tables: RecentTables, namesInUse: ReadonlySet<string>): void {
	for (const name of Object.keys(tables)) if (!namesInUse.has(name)) delete tables[name];
}
