/**
 * The etcdctl commands the simulation runs, each as its ctlv3/command file
 * does it: argument checks first (exit 128), then the client (config.ts,
 * client.ts), the RPC, and the printer. Server errors come back with
 * etcd's wording (api/v3rpc/rpctypes: `etcdserver: mvcc: database space
 * exceeded`, `etcdserver: mvcc: required revision has been compacted`...),
 * after the retry interceptor's warning line, as etcdctl prints them.
 *
 * Mirrors etcd-io/etcd etcdctl/ctlv3/command/ (each command's file),
 * etcd-io/etcd api/v3rpc/rpctypes/error.go (the server errors).
 */
import { type EtcdClient } from '../../etcd-api/etcd.ts';
import { MvccError, REQUEST_TIMED_OUT, type KeyValue } from '../../etcd-api/etcd.ts';
import { humanizeBytes } from '../common/humanize.ts';
import { goDuration } from '../../golang/duration.ts';
import { zapLine } from '../common/zap.ts';
import { clientLog, connect, dial, peerString, type ClientSettings, type Connected, type Connection } from './client.ts';
import { clientSettings } from './config.ts';
import { printAlarms, printDel, printEndpointHealth, printEndpointStatus, printGet, printMemberList, printPut, printWatch, UnsupportedFormat, type EndpointHealth, type EndpointStatus, type Header, type OutputFormat, type PrintOptions, type WatchResponse } from './printers.ts';
import { crc32c, encodeSnapshot } from './snapshot-file.ts';
import { memberStatus } from './status.ts';
import { ETCD_API_VERSION, ETCD_STORAGE_VERSION, ETCD_VERSION, type EtcdMemberFacts } from './types.ts';
import { EXIT, Exit, type Invocation } from './session.ts';

/** gRPC codes etcd's errors travel with (api/v3rpc/rpctypes/error.go). */
const GRPC_CODE: Record<MvccError['code'], string> = {
	compacted: 'OutOfRange',
	'future-revision': 'OutOfRange',
	'no-space': 'ResourceExhausted',
	'too-large': 'InvalidArgument',
	unavailable: 'Unavailable',
	'bad-transferee': 'FailedPrecondition',
	'member-not-found': 'NotFound',
	'not-enough-members': 'FailedPrecondition',
};

/** The client-side text of a store error: etcd prefixes its server errors with `etcdserver: `. */
function etcdErrorText(error: MvccError): string {
	return error.message.startsWith('etcdserver: ') ? error.message : `etcdserver: ${error.message}`;
}

/** Everything a command needs once the client is configured. */
interface Rpc {
	inv: Invocation;
	settings: ClientSettings;
	format: OutputFormat;
	options: PrintOptions;
}

function setUp(inv: Invocation): Rpc {
	const { settings, format } = clientSettings(inv);
	return { inv, settings, format, options: { hex: inv.bool('hex'), valueOnly: false } };
}

/** Waits out the command timeout for a connection that never became ready, logs the warning and fails (`Error: context deadline exceeded`). */
function deadline(rpc: Rpc, connection: Connection, method: string, logger: 'etcd-client' | 'client' = 'etcd-client'): never {
	logDeadline(rpc, connection, method, logger);
	throw new Exit(EXIT.error, 'context deadline exceeded');
}

function logDeadline(rpc: Rpc, connection: Connection, method: string, logger: 'etcd-client' | 'client'): void {
	const log = clientLog(rpc.inv.deps);
	rpc.inv.wait(rpc.settings.commandTimeoutMs);
	const error = connection.ok ? 'context deadline exceeded' : `rpc error: code = DeadlineExceeded desc = latest balancer error: ${connection.connectionError}`;
	rpc.inv.stderr += log.retryFailed({ logger, target: log.target(connection.endpoint), peer: peerString(undefined), method, error, atMs: rpc.inv.nowWallMs() });
}

/** A store error from the member: the retry interceptor logs it, etcdctl exits 1 with the message. */
function serverError(rpc: Rpc, connection: Connected, method: string, error: unknown): never {
	if (!(error instanceof MvccError)) throw error;
	const log = clientLog(rpc.inv.deps);
	if (timesOut(error)) {
		// The member would answer `request timed out` after its 7 s (5 s + two election timeouts); etcdctl's 5 s command timeout ends the wait first.
		rpc.inv.wait(rpc.settings.commandTimeoutMs);
		rpc.inv.stderr += log.retryFailed({ logger: 'etcd-client', target: log.target(connection.endpoint), peer: peerString(connection), method, error: 'rpc error: code = DeadlineExceeded desc = context deadline exceeded', atMs: rpc.inv.nowWallMs() });
		throw new Exit(EXIT.error, 'context deadline exceeded');
	}
	const text = etcdErrorText(error);
	rpc.inv.stderr += log.retryFailed({
		logger: 'etcd-client',
		target: log.target(connection.endpoint),
		peer: peerString(connection),
		method,
		error: `rpc error: code = ${GRPC_CODE[error.code]} desc = ${text}`,
		atMs: rpc.inv.nowWallMs(),
	});
	throw new Exit(EXIT.error, text);
}

/** A request the member cannot complete (no leader, no quorum): it waits out its timeout. */
function timesOut(error: MvccError): boolean {
	return error.code === 'unavailable' && error.message === REQUEST_TIMED_OUT;
}

/** Connects for a unary RPC, or waits out the timeout and fails. */
function mustConnect(rpc: Rpc, method: string): Connected {
	const connection = connect(rpc.settings, rpc.inv.ctx.host, rpc.inv.deps, rpc.inv.localPort());
	if (!connection.ok) deadline(rpc, connection, method);
	return connection;
}

/** The response header: the answering member's IDs and term, and its store's revision. */
function header(connection: Connected, withRevision = true): Header {
	const member = connection.member;
	return { clusterId: member.clusterId, memberId: member.memberId, revision: withRevision ? connection.store.revision : 0, raftTerm: member.raftTerm };
}

/** The member ID of the leader `member` follows, '0' when it knows none. */
function leaderIdOf(member: EtcdMemberFacts): string {
	return member.leaderId ?? (member.isLeader ? member.memberId : '0');
}

function print(rpc: Rpc, render: () => string): void {
	try {
		rpc.inv.stdout += render();
	} catch (error) {
		if (error instanceof UnsupportedFormat) throw new Exit(EXIT.badFeature, error.message);
		throw error;
	}
}

/** Keys live at `revision` in [from, end) ("" end = to the end), as a Range with a range end reads them. */
function readRange(store: EtcdClient, revision: number, from: string, end: string | undefined, serializable = false): KeyValue[] {
	const all = store.range('', { prefix: true, revision, serializable }).kvs;
	return all.filter((kv) => kv.key >= from && (end === undefined || kv.key < end));
}

/** The smallest key greater than every key with this prefix (clientv3.GetPrefixRangeEnd). */
function prefixEnd(prefix: string): string | undefined {
	for (let i = prefix.length - 1; i >= 0; i--) {
		const c = prefix.charCodeAt(i);
		if (c < 0xffff) return prefix.slice(0, i) + String.fromCharCode(c + 1);
	}
	return undefined;
}

/** Which keys a get/del addresses: one key, a prefix, from a key, or a [key, end) range. */
function keySelection(key: string, rangeEnd: string | undefined, prefix: boolean, fromKey: boolean): { from: string; end: string | undefined; single: boolean } {
	if (prefix) return key === '' ? { from: '', end: undefined, single: false } : { from: key, end: prefixEnd(key), single: false };
	if (fromKey) return { from: key === '' ? '\0' : key, end: undefined, single: false };
	if (rangeEnd !== undefined) return { from: key, end: rangeEnd === '\0' ? undefined : rangeEnd, single: false };
	return { from: key, end: undefined, single: true };
}

// ---- get -----------------------------------------------------------------------

const SORT_TARGETS: Record<string, (kv: KeyValue) => string | number> = {
	CREATE: (kv) => kv.createRevision,
	KEY: (kv) => kv.key,
	MODIFY: (kv) => kv.modRevision,
	VALUE: (kv) => kv.value,
	VERSION: (kv) => kv.version,
};

export function runGet(inv: Invocation): void {
	const args = inv.args;
	const prefix = inv.bool('prefix');
	const fromKey = inv.bool('from-key');
	const keysOnly = inv.bool('keys-only');
	const countOnly = inv.bool('count-only');
	if (args.length === 0) throw new Exit(EXIT.badArgs, 'get command needs one argument as key and an optional argument as range_end');
	if (prefix && fromKey) throw new Exit(EXIT.badArgs, '`--prefix` and `--from-key` cannot be set at the same time, choose one');
	if (keysOnly && countOnly) throw new Exit(EXIT.badArgs, '`--keys-only` and `--count-only` cannot be set at the same time, choose one');
	if (args.length > 1 && (prefix || fromKey)) throw new Exit(EXIT.badArgs, 'too many arguments, only accept one argument when `--prefix` or `--from-key` is set');
	const order = inv.value('order').toUpperCase();
	if (!['', 'ASCEND', 'DESCEND'].includes(order)) throw new Exit(EXIT.badFeature, `bad sort order ${inv.value('order')}`);
	const sortBy = inv.value('sort-by').toUpperCase();
	if (sortBy !== '' && !SORT_TARGETS[sortBy]) throw new Exit(EXIT.badFeature, `bad sort target ${inv.value('sort-by')}`);

	const consistency = inv.value('consistency') || 'l';
	// getGetOp: anything but l or s is refused before dialing.
	if (consistency !== 'l' && consistency !== 's') throw new Exit(EXIT.badFeature, `unknown consistency flag ${JSON.stringify(consistency)}`);
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.KV/Range');
	const store = connection.store;
	let kvs: KeyValue[];
	try {
		const selection = keySelection(args[0], args[1], prefix, fromKey);
		const revision = inv.int('rev');
		// Serializable: this member's own store, without confirming with the leader (answers even without a quorum, possibly stale).
		const serializable = consistency === 's';
		kvs = selection.single ? store.range(selection.from, { revision, serializable }).kvs : readRange(store, revision, selection.from, selection.end, serializable);
	} catch (error) {
		serverError(rpc, connection, '/etcdserverpb.KV/Range', error);
	}
	const filters: Array<[string, (kv: KeyValue, n: number) => boolean]> = [
		['min-create-rev', (kv, n) => kv.createRevision >= n],
		['max-create-rev', (kv, n) => kv.createRevision <= n],
		['min-mod-rev', (kv, n) => kv.modRevision >= n],
		['max-mod-rev', (kv, n) => kv.modRevision <= n],
	];
	for (const [flag, keep] of filters) if (inv.int(flag) > 0) kvs = kvs.filter((kv) => keep(kv, inv.int(flag)));
	const count = kvs.length;
	if (sortBy || order) {
		const target = SORT_TARGETS[sortBy || 'KEY'];
		kvs = [...kvs].sort((a, b) => (target(a) < target(b) ? -1 : target(a) > target(b) ? 1 : 0));
		if (order === 'DESCEND') kvs.reverse();
	}
	const limit = inv.int('limit');
	if (limit > 0) kvs = kvs.slice(0, limit);
	if (countOnly) kvs = [];
	if (countOnly && rpc.format !== 'fields') throw new Exit(EXIT.badArgs, '--count-only is only for `--write-out=fields`');
	if (inv.bool('print-value-only')) {
		if (rpc.format !== 'simple') throw new Exit(EXIT.badArgs, 'print-value-only is only for `--write-out=simple`');
		rpc.options.valueOnly = true;
	}
	print(rpc, () => printGet(rpc.format, { header: header(connection), kvs, more: limit > 0 && count > kvs.length && !countOnly, count, keysOnly }, rpc.options));
}

// ---- put -----------------------------------------------------------------------

export function runPut(inv: Invocation): void {
	const args = inv.args;
	const ignoreValue = inv.bool('ignore-value');
	const usage = 'put command needs 1 argument and input from stdin or 2 arguments';
	if (args.length === 0) throw new Exit(EXIT.badArgs, usage);
	if (ignoreValue && args.length > 1) throw new Exit(EXIT.badArgs, "put command needs only 1 argument when 'ignore-value' is set");
	let value = '';
	if (!ignoreValue) {
		// argOrStdin: the second argument, else everything on standard input.
		if (args.length > 1) value = args[1];
		else if (inv.ctx.stdin !== '') value = inv.ctx.stdin;
		else throw new Exit(EXIT.badArgs, usage);
	}
	const leaseText = inv.value('lease');
	if (!/^[+-]?[0-9a-fA-F]+$/.test(leaseText)) throw new Exit(EXIT.badArgs, `bad lease ID (strconv.ParseInt: parsing ${JSON.stringify(leaseText)}: invalid syntax), expecting ID in Hex`);
	const leaseId = parseInt(leaseText, 16);

	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.KV/Put');
	const store = connection.store;
	const key = args[0];
	// The previous value is what the member's own apply sees (Put's prev_kv), not a separate linearizable read.
	const previous = store.range(key, { serializable: true }).kvs[0];
	try {
		if ((ignoreValue || inv.bool('ignore-lease')) && !previous) throw new MvccError('unavailable', 'etcdserver: key not found');
		let lease = leaseId || undefined;
		if (inv.bool('ignore-lease')) lease = previous?.lease;
		if (leaseId && !store.hasLease(leaseId)) throw new MvccError('unavailable', 'etcdserver: requested lease not found');
		store.put(key, ignoreValue ? previous.value : value, lease);
	} catch (error) {
		if (error instanceof MvccError && error.code === 'unavailable' && !timesOut(error)) {
			// Not-found errors travel as NotFound, not Unavailable.
			const log = clientLog(inv.deps);
			inv.stderr += log.retryFailed({ logger: 'etcd-client', target: log.target(connection.endpoint), peer: peerString(connection), method: '/etcdserverpb.KV/Put', error: `rpc error: code = NotFound desc = ${error.message}`, atMs: inv.nowWallMs() });
			throw new Exit(EXIT.error, error.message);
		}
		serverError(rpc, connection, '/etcdserverpb.KV/Put', error);
	}
	inv.deps.notify();
	print(rpc, () => printPut(rpc.format, header(connection), inv.bool('prev-kv') ? previous : undefined, rpc.options));
}

// ---- del -----------------------------------------------------------------------

export function runDel(inv: Invocation): void {
	const args = inv.args;
	const prefix = inv.bool('prefix');
	const fromKey = inv.bool('from-key');
	if (args.length === 0 || args.length > 2) throw new Exit(EXIT.badArgs, 'del command needs one argument as key and an optional argument as range_end');
	if (prefix && fromKey) throw new Exit(EXIT.badArgs, '`--prefix` and `--from-key` cannot be set at the same time, choose one');
	if (args.length > 1) {
		if (prefix || fromKey) throw new Exit(EXIT.badArgs, 'too many arguments, only accept one argument when `--prefix` or `--from-key` is set');
		if (!inv.bool('range')) {
			inv.stderr += `Warning: Keys between ${JSON.stringify(args[0])} and ${JSON.stringify(args[1])} will be deleted. Please interrupt the command within next 2 seconds to cancel. You can provide \`--range\` flag to avoid the delay.\n`;
			// del_command.go sleeps 2 seconds before deleting.
			inv.wait(2000);
		}
	}
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.KV/DeleteRange');
	const store = connection.store;
	const selection = keySelection(args[0], args[1], prefix, fromKey);
	// The keys DeleteRange removes, as the member's apply finds them.
	const doomed = selection.single ? store.range(selection.from, { serializable: true }).kvs : readRange(store, 0, selection.from, selection.end, true);
	try {
		if (doomed.length) store.txn([], doomed.map((kv) => ({ delete: { key: kv.key } })));
	} catch (error) {
		serverError(rpc, connection, '/etcdserverpb.KV/DeleteRange', error);
	}
	if (doomed.length) inv.deps.notify();
	print(rpc, () => printDel(rpc.format, header(connection), doomed.length, inv.bool('prev-kv') ? doomed : [], rpc.options));
}

// ---- watch ---------------------------------------------------------------------

/**
 * watch: the real command streams until interrupted. Here it prints the
 * history from --rev on (grouped by revision, as etcd sends one response
 * per revision) and then ends as if the reader pressed Ctrl-C; without
 * --rev there is no history and nothing new arrives while the command runs,
 * so it prints nothing. Exit 0 (documented simplification).
 */
export function runWatch(inv: Invocation): void {
	const args = [...inv.args];
	const envKey = inv.ctx.env.ETCDCTL_WATCH_KEY ?? '';
	const envRange = inv.ctx.env.ETCDCTL_WATCH_RANGE_END ?? '';
	if (envKey === '' && envRange !== '') throw new Exit(EXIT.badArgs, `ETCDCTL_WATCH_KEY is empty but got ETCDCTL_WATCH_RANGE_END=${JSON.stringify(envRange)}`);
	if (inv.bool('interactive')) throw new Exit(EXIT.badArgs, 'interactive watch is not available in this simulation');
	if (envKey) args.unshift(...(envRange ? [envKey, envRange] : [envKey]));
	if (args.length < 1 || args.length > 2) throw new Exit(EXIT.badArgs, 'bad number of arguments');
	const prefix = inv.bool('prefix');
	if (args.length === 2 && prefix) throw new Exit(EXIT.badArgs, '`range_end` and `--prefix` are mutually exclusive');
	const rpc = setUp(inv);
	const connection = connect(rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
	// A watch stream waits for its connection forever; nothing is printed until the reader interrupts.
	if (!connection.ok) return;
	const store = connection.store;
	const rev = inv.int('rev');
	if (rev <= 0) return;
	if (rev < store.compactRevision) {
		inv.stderr += 'watch was canceled (etcdserver: mvcc: required revision has been compacted)\n';
		throw new Exit(EXIT.interrupted, 'watch is canceled by the server');
	}
	const selection = keySelection(args[0], args[1], prefix, false);
	const changes = store
		.changesSince(Math.max(rev - 1, store.compactRevision), '', true)
		.filter((c) => (selection.single ? c.kv.key === selection.from : c.kv.key >= selection.from && (selection.end === undefined || c.kv.key < selection.end)));
	const byRevision = new Map<number, WatchResponse>();
	for (const change of changes) {
		const revision = change.kv.modRevision;
		if (!byRevision.has(revision)) byRevision.set(revision, { header: { ...header(connection), revision }, events: [] });
		const event: WatchResponse['events'][number] = { type: change.type, kv: change.kv };
		if (inv.bool('prev-kv') && change.prevKv) event.prevKv = change.prevKv;
		byRevision.get(revision)!.events.push(event);
	}
	for (const response of byRevision.values()) print(rpc, () => printWatch(rpc.format, response, rpc.options));
}

// ---- compaction, defrag ------------------------------------------------------------

export function runCompaction(inv: Invocation): void {
	if (inv.args.length !== 1) throw new Exit(EXIT.badArgs, 'compaction command needs 1 argument');
	const text = inv.args[0];
	if (!/^[+-]?\d+$/.test(text)) throw new Exit(EXIT.error, `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`);
	const rev = Number(text);
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.KV/Compact');
	try {
		connection.store.compact(rev);
	} catch (error) {
		serverError(rpc, connection, '/etcdserverpb.KV/Compact', error);
	}
	inv.stdout += `compacted revision ${rev}\n`;
}

/** The member list's client URLs (endpointsFromCluster), or the --endpoints. */
function targetEndpoints(rpc: Rpc): string[] {
	if (!rpc.inv.bool('cluster')) return rpc.settings.endpoints;
	const connection = connect(rpc.settings, rpc.inv.ctx.host, rpc.inv.deps, rpc.inv.localPort());
	if (!connection.ok) {
		logDeadline(rpc, connection, '/etcdserverpb.Cluster/MemberList', 'etcd-client');
		throw new Exit(EXIT.error, 'failed to fetch endpoints from etcd cluster member list: context deadline exceeded');
	}
	return rpc.inv.deps.members().flatMap((m) => m.clientUrls);
}

/** A duration a quick member operation took, from the node's stream: `lowMs`..`highMs`, nanosecond digits. */
function tookNs(inv: Invocation, lowMs: number, highMs: number): number {
	return Math.floor((lowMs + inv.deps.random() * (highMs - lowMs)) * 1e6);
}

export function runDefrag(inv: Invocation): void {
	const rpc = setUp(inv);
	let failures = 0;
	for (const endpoint of targetEndpoints(rpc)) {
		const connection = dial(endpoint, rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
		if (!connection.ok) {
			logDeadline(rpc, connection, '/etcdserverpb.Maintenance/Defragment', 'etcd-client');
			inv.stderr += `Failed to defragment etcd member[${endpoint}]. took ${goDuration(rpc.settings.commandTimeoutMs * 1e6 + tookNs(inv, 0, 1))}. (context deadline exceeded)\n`;
			failures++;
			continue;
		}
		connection.store.defragment();
		// Defragmenting a small backend takes tens of milliseconds.
		inv.stdout += `Finished defragmenting etcd member[${endpoint}]. took ${goDuration(tookNs(inv, 20, 120))}\n`;
	}
	if (failures) throw new Exit(EXIT.error);
}

// ---- endpoint -------------------------------------------------------------------------

export function runEndpointHealth(inv: Invocation): void {
	const rpc = setUp(inv);
	const list: EndpointHealth[] = [];
	for (const endpoint of targetEndpoints(rpc)) {
		const connection = dial(endpoint, rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
		if (!connection.ok) {
			logDeadline(rpc, connection, '/etcdserverpb.KV/Range', 'client');
			list.push({ endpoint, health: false, took: goDuration(rpc.settings.commandTimeoutMs * 1e6 + tookNs(inv, 0, 1)), error: 'context deadline exceeded' });
			continue;
		}
		// A linearizable read of the key "health": a few milliseconds, or the whole command timeout on a member without a quorum.
		try {
			connection.store.range('health');
		} catch (error) {
			if (!(error instanceof MvccError) || !timesOut(error)) throw error;
			inv.wait(rpc.settings.commandTimeoutMs);
			list.push({ endpoint, health: false, took: goDuration(rpc.settings.commandTimeoutMs * 1e6 + tookNs(inv, 0, 1)), error: 'context deadline exceeded' });
			continue;
		}
		const h: EndpointHealth = { endpoint, health: true, took: goDuration(tookNs(inv, 1, 12)), error: '' };
		const alarms = connection.store.status().alarms;
		if (alarms.length) {
			h.health = false;
			h.error = 'Active Alarm(s): ' + alarms.map((a) => (a === 'NOSPACE' || a === 'CORRUPT' ? a : 'UNKNOWN') + ' ').join('');
		}
		list.push(h);
	}
	let printed: { stdout: string; stderr: string } = { stdout: '', stderr: '' };
	print(rpc, () => {
		printed = printEndpointHealth(rpc.format, list);
		return printed.stdout;
	});
	inv.stderr += printed.stderr;
	if (list.some((h) => h.error)) throw new Exit(EXIT.error, 'unhealthy cluster');
}

export function runEndpointStatus(inv: Invocation): void {
	const rpc = setUp(inv);
	const list: EndpointStatus[] = [];
	let failed = false;
	for (const endpoint of targetEndpoints(rpc)) {
		const connection = dial(endpoint, rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
		if (!connection.ok) {
			logDeadline(rpc, connection, '/etcdserverpb.Maintenance/Status', 'etcd-client');
			inv.stderr += `Failed to get the status of endpoint ${endpoint} (context deadline exceeded)\n`;
			failed = true;
			continue;
		}
		const member = connection.member;
		list.push({ endpoint, header: header(connection), member, status: memberStatus(connection.store, member), leaderId: leaderIdOf(member) });
	}
	print(rpc, () => printEndpointStatus(rpc.format, list, ETCD_STORAGE_VERSION));
	if (failed) throw new Exit(EXIT.error);
}

/** endpoint hashkv: a hash of the key-value history up to the revision (here CRC-32C over the live keys). */
export function runEndpointHashKV(inv: Invocation): void {
	const rpc = setUp(inv);
	let failed = false;
	const rows: string[] = [];
	for (const endpoint of targetEndpoints(rpc)) {
		const connection = dial(endpoint, rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
		if (!connection.ok) {
			logDeadline(rpc, connection, '/etcdserverpb.Maintenance/HashKV', 'etcd-client');
			inv.stderr += `Failed to get the hash of endpoint ${endpoint} (context deadline exceeded)\n`;
			failed = true;
			continue;
		}
		const store = connection.store;
		const hash = crc32c(
			store
				.range('', { prefix: true, serializable: true })
				.kvs.map((kv) => `${kv.key}\t${kv.modRevision}\t${kv.value}`)
				.join('\n'),
		);
		rows.push(`${endpoint}, ${hash}, ${store.revision}\n`);
	}
	if (rpc.format !== 'simple') throw new Exit(EXIT.badFeature, `${rpc.format} not supported as output format in this simulation`);
	inv.stdout += rows.join('');
	if (failed) throw new Exit(EXIT.error, 'context deadline exceeded');
}

// ---- member, alarm ----------------------------------------------------------------------

export function runMemberList(inv: Invocation): void {
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.Cluster/MemberList');
	print(rpc, () => printMemberList(rpc.format, header(connection, false), inv.deps.members(), rpc.options));
}

export function runAlarm(inv: Invocation, disarm: boolean): void {
	if (inv.args.length) throw new Exit(EXIT.badArgs, `alarm ${disarm ? 'disarm' : 'list'} command accepts no arguments`);
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.Maintenance/Alarm');
	const alarms = [...connection.store.status().alarms];
	try {
		// Disarming goes through the log, as every member must drop the alarm.
		if (disarm) connection.store.disarmAlarms();
	} catch (error) {
		serverError(rpc, connection, '/etcdserverpb.Maintenance/Alarm', error);
	}
	print(rpc, () => printAlarms(rpc.format, header(connection), connection.member.memberId, alarms));
}

/** move-leader: finds the leader among the endpoints (Status of each), then asks it to hand over. */
export function runMoveLeader(inv: Invocation): void {
	if (inv.args.length !== 1) throw new Exit(EXIT.badArgs, 'move-leader command needs 1 argument');
	const targetId = parseMemberId(inv.args[0], (error) => error);
	const rpc = setUp(inv);
	let leader: Connected | undefined;
	for (const endpoint of rpc.settings.endpoints) {
		const connection = dial(endpoint, rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
		if (!connection.ok) deadline(rpc, connection, '/etcdserverpb.Maintenance/Status');
		if (connection.member.isLeader) {
			leader = connection;
			break;
		}
	}
	if (!leader) throw new Exit(EXIT.badArgs, `no leader endpoint given at [${rpc.settings.endpoints.join(' ')}]`);
	const target = inv.deps.members().find((m) => BigInt('0x' + m.memberId) === targetId);
	try {
		// An ID that names no member is refused by the server, as etcd's MoveLeader refuses it.
		leader.store.moveLeader(target?.name ?? '');
	} catch (error) {
		serverError(rpc, leader, '/etcdserverpb.Maintenance/MoveLeader', error);
	}
	inv.stdout += `Leadership transferred from ${BigInt('0x' + leader.member.memberId).toString(16)} to ${targetId.toString(16)}\n`;
}

/** A member ID argument as strconv.ParseUint(s, 16, 64) reads it; `wrap` words the error as the command does. */
function parseMemberId(text: string, wrap: (error: string) => string): bigint {
	if (!/^[0-9a-fA-F]{1,16}$/.test(text)) throw new Exit(EXIT.badArgs, wrap(`strconv.ParseUint: parsing ${JSON.stringify(text)}: ${/^[0-9a-fA-F]+$/.test(text) ? 'value out of range' : 'invalid syntax'}`));
	return BigInt('0x' + text);
}

/** Go's %16x: hex, padded with spaces to 16 (the member and cluster IDs in member add/remove). */
function hex16(id: bigint | string): string {
	return (typeof id === 'string' ? BigInt('0x' + id) : id).toString(16).padStart(16, ' ');
}

/**
 * member add: the new member joins the configuration at once, unstarted;
 * the simple format then prints the environment a new etcd would start with
 * (memberAddCommandFunc).
 */
export function runMemberAdd(inv: Invocation): void {
	if (inv.args.length < 1) throw new Exit(EXIT.badArgs, 'member name not provided');
	if (inv.args.length > 1) {
		const hints = inv.args.filter((a) => a.toLowerCase().startsWith('http')).map((a) => `, did you mean --peer-urls=${a}`).join('');
		throw new Exit(EXIT.badArgs, `too many arguments${hints}`);
	}
	const name = inv.args[0];
	const peerUrls = inv.value('peer-urls');
	if (!peerUrls) throw new Exit(EXIT.badArgs, 'member peer urls not provided');
	// Learners (--learner) are not simulated: say so rather than add a voter the reader did not ask for.
	if (inv.bool('learner')) throw new Exit(EXIT.badFeature, 'member add --learner: learner members are not simulated');
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.Cluster/MemberAdd');
	try {
		connection.store.memberAdd(peerUrls.split(',')[0]);
	} catch (error) {
		serverError(rpc, connection, '/etcdserverpb.Cluster/MemberAdd', error);
	}
	const members = inv.deps.members();
	const added = members.find((m) => m.name === '' && m.peerUrls.includes(peerUrls.split(',')[0]))!;
	if (rpc.format !== 'simple') throw new Exit(EXIT.badFeature, `${rpc.format} not supported for member add in this simulation`);
	inv.stdout += `Member ${hex16(added.memberId)} added to cluster ${hex16(connection.member.clusterId)}\n`;
	const conf = members.flatMap((m) => m.peerUrls.map((url) => `${m === added ? name : m.name}=${url}`));
	inv.stdout += `\nETCD_NAME=${JSON.stringify(name)}\nETCD_INITIAL_CLUSTER=${JSON.stringify(conf.join(','))}\nETCD_INITIAL_ADVERTISE_PEER_URLS=${JSON.stringify(peerUrls)}\nETCD_INITIAL_CLUSTER_STATE="existing"\n`;
}

/** member remove: the member leaves the configuration, and the quorum is counted among the rest. */
export function runMemberRemove(inv: Invocation): void {
	if (inv.args.length !== 1) throw new Exit(EXIT.badArgs, 'member ID is not provided');
	const id = parseMemberId(inv.args[0], (error) => `bad member ID arg (${error}), expecting ID in Hex`);
	const rpc = setUp(inv);
	const connection = mustConnect(rpc, '/etcdserverpb.Cluster/MemberRemove');
	const target = inv.deps.members().find((m) => BigInt('0x' + m.memberId) === id);
	try {
		connection.store.memberRemove(target?.memberKey ?? target?.name ?? '');
	} catch (error) {
		serverError(rpc, connection, '/etcdserverpb.Cluster/MemberRemove', error);
	}
	inv.stdout += `Member ${hex16(id)} removed from cluster ${hex16(connection.member.clusterId)}\n`;
}

// ---- snapshot save ----------------------------------------------------------------------

/** The lines client/v3/snapshot/v3_snapshot.go and client/v3/maintenance.go log while saving. */
function snapshotLog(inv: Invocation, caller: string, msg: string, fields: Array<[string, string]> = [], logger?: string): string {
	return zapLine({ level: 'info', ts: inv.timestamp(), caller, msg, fields, ...(logger ? { logger } : {}) });
}

export function runSnapshotSave(inv: Invocation): void {
	if (inv.args.length !== 1) throw new Exit(EXIT.badArgs, 'snapshot save expects one argument <filename>');
	const rpc = setUp(inv);
	const path = inv.args[0];
	const fs = inv.ctx.host.fs;
	if (rpc.settings.endpoints.length !== 1) throw new Exit(EXIT.interrupted, `snapshot must be requested to one selected node, not multiple [${rpc.settings.endpoints.join(' ')}]`);
	const part = `${path}.part`;
	const removePart = () => {
		try {
			fs.remove(part);
		} catch {
			// Already gone.
		}
	};
	try {
		fs.writeFile(part, '');
	} catch (error) {
		throw new Exit(EXIT.interrupted, `could not open ${part} (open ${part}: ${(error as Error).message.toLowerCase()})`);
	}
	inv.stderr += snapshotLog(inv, 'snapshot/v3_snapshot.go:83', 'created temporary db file', [['path', part]]);
	const connection = connect(rpc.settings, inv.ctx.host, inv.deps, inv.localPort());
	if (!connection.ok) {
		if (!inv.flags.changed.has('command-timeout')) {
			// etcdctl 3.6 sets no timeout on snapshot save: the stream waits for a connection forever.
			// The simulation ends the wait as the reader's Ctrl-C would; the killed process leaves its .part file.
			inv.stderr += '^C';
			throw new Exit(130);
		}
		inv.wait(rpc.settings.commandTimeoutMs);
		removePart();
		throw new Exit(EXIT.interrupted, 'context deadline exceeded');
	}
	inv.stderr += snapshotLog(inv, 'v3/maintenance.go:236', 'opened snapshot stream; downloading', [], 'client');
	inv.stderr += snapshotLog(inv, 'snapshot/v3_snapshot.go:96', 'fetching snapshot', [['endpoint', connection.endpoint]]);
	const status = memberStatus(connection.store, connection.member);
	// A file larger than the host's free space fails with ENOSPC; check before building its padding.
	const free = fs.limits.maxBytes - fs.usage().bytes;
	const content = status.dbSizeBytes + 32 > free ? undefined : encodeSnapshot(connection.store, status.dbSizeBytes);
	inv.stderr += snapshotLog(inv, 'v3/maintenance.go:302', 'completed snapshot read; closing', [], 'client');
	try {
		if (content === undefined) throw new Error('No space left on device');
		fs.writeFile(part, content);
	} catch (error) {
		removePart();
		throw new Exit(EXIT.interrupted, `could not write snapshot: write ${part}: ${(error as Error).message.toLowerCase()}`);
	}
	// Streaming a few megabytes over loopback takes tens of milliseconds.
	const took = goDuration(tookNs(inv, 30, 150));
	inv.stderr += snapshotLog(inv, 'snapshot/v3_snapshot.go:111', 'fetched snapshot', [
		['endpoint', connection.endpoint],
		['size', humanizeBytes(status.dbSizeBytes + 32)],
		['took', took],
		['etcd-version', ETCD_STORAGE_VERSION],
	]);
	try {
		fs.rename(part, path);
	} catch (error) {
		removePart();
		throw new Exit(EXIT.interrupted, `could not rename ${part} to ${path} (rename ${part} ${path}: ${(error as Error).message.toLowerCase()})`);
	}
	inv.stderr += snapshotLog(inv, 'snapshot/v3_snapshot.go:121', 'saved', [['path', path]]);
	inv.stdout += `Snapshot saved at ${path}\nServer version ${ETCD_STORAGE_VERSION}\n`;
}

// ---- version ---------------------------------------------------------------------------

export function runVersion(inv: Invocation): void {
	inv.stdout += `etcdctl version: ${ETCD_VERSION}\nAPI version: ${ETCD_API_VERSION}\n`;
}
